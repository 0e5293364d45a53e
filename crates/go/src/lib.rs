//! Go rules (superko, area scoring, handicap), MCTS player and SGF (being written).
