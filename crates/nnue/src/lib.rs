//! Learned evaluation for the alpha-beta games (chess and xiangqi first;
//! shogi later): the training-data format written by `tengen datagen`,
//! and (in later modules) feature sets, quantised inference with
//! incremental accumulators, and the network file format.
//!
//! The crate knows no game's rules: a game hands it pieces as
//! `(square index, piece code)` pairs, where the code is
//! `colour * 8 + kind` with the game crate's own kind numbering.

pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;
pub mod simd;
pub mod slot;
