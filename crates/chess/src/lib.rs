//! Chess and Chess960 rules (bitboards, legal move generation, FEN, SAN,
//! game end) and a hand-made evaluation, for the tengen engine.

pub mod attacks;
mod bench;
pub mod board;
pub mod eval;
mod fen;
mod movegen;
pub mod moves;
pub mod nnue;
mod notation;
mod outcome;
mod perft;
mod searchable;
mod see;
pub mod types;
mod zobrist;

pub use bench::BENCH_FENS;
pub use board::{Board, DrawReason, FenError, MoveError, Outcome, Reason, START_FEN};
pub use eval::Eval;
pub use moves::Move;
pub use nnue::ChessEval;
pub use perft::PerftTable;
pub use types::{Color, Piece, PieceKind, Square};
