//! Gomoku and renju rules, opening rules and threat-space search (being written).
