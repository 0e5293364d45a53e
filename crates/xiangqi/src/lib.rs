//! Xiangqi (Chinese chess) for tengen: the board and its rules (legal
//! moves, FEN, ICCS notation, game end, Asian repetition rulings) and an
//! evaluation for the generic searcher.

pub mod board;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod rules;
pub mod searchable;
pub mod tables;
pub mod types;

pub use board::{Board, Undo, START_FEN};
pub use eval::{BENCH_FENS, HORSE_VALUE};
pub use nnue::XiangqiNetEval;
pub use notation::{format_move, parse_move, play_moves, Notation};
pub use rules::{Outcome, Reason, Verdict};
pub use searchable::{XiangqiEval, XIANGQI_PARAMS};
pub use types::{Color, Kind, Move, Piece, Square};
