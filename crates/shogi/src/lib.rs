//! Shogi for tengen: rules (drops, promotions, uchifuzume, sennichite,
//! entering-king declaration), USI notation and SFEN, evaluation, and a
//! df-pn mate solver.

// Board code indexes several parallel tables by square and direction.
#![allow(clippy::needless_range_loop)]

pub mod bitboard;
pub mod board;
pub mod dfpn;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod learned;
pub mod mate1;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod searchable;
pub mod see;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, STARTPOS};
pub use dfpn::{solve as solve_tsume, TsumeLimits, TsumeResult};
pub use eval::Eval;
pub use game::{parse_usi_move, EndReason, Game, Outcome, Repetition};
pub use movegen::Gen;
pub use perft::{divide, perft};
pub use searchable::{SearchEval, BENCH_FENS};
pub use types::{Color, Kind, Move, Piece, Square};
