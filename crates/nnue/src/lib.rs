//! Learned evaluation for the alpha-beta games (chess, xiangqi and
//! shogi): the training-data format written by `tengen datagen`
//! (`data`), feature sets (`features`), the network file and output
//! layer (`network`), SIMD kernels chosen at run time (`simd`), the
//! incrementally updated accumulators behind the searcher's `Evaluator`
//! hooks (`accumulator`), and a process-wide slot for a game's current
//! network (`slot`). `docs/nnue.md` describes the whole pipeline.
//!
//! The crate knows no game's rules: a game hands it pieces as
//! `(square index, piece code)` pairs, where the code is
//! `colour * 8 + kind` (`colour * 16 + kind` in shogi) with the game
//! crate's own kind numbering; shogi's pieces in hand are pseudo-squares
//! past the board (`features::Shogi`).

pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;
pub mod simd;
pub mod slot;
