//! The one alpha-beta searcher of tengen, generic over [`Position`].
//!
//! Chess, xiangqi and shogi plug in by implementing [`Position`] and
//! [`Evaluator`]; game knowledge enters through the trait, never through a
//! fork of the search.

pub mod position;

pub use position::{Evaluator, GenKind, Position, Ruling, SearchParams};
