//! Go for tengen: exact rules (captures, suicide, simple ko, positional or
//! situational superko, Tromp-Taylor area scoring, handicap), a Monte-Carlo
//! tree search player and SGF reading/writing.

pub mod benson;
pub mod board;
pub mod breakin;
pub mod combination;
pub mod connection;
pub mod dragon;
pub mod eyes;
pub mod features;
pub mod game;
pub mod gammas;
pub mod mcts;
pub mod mm;
pub mod owl;
pub mod patterns;
pub mod perft;
pub mod playout;
pub mod reading;
pub mod rules;
pub mod sgf;
pub mod status;
pub mod surround;
pub mod symmetry;
pub mod worm;
