//! The one alpha-beta searcher of tengen, generic over [`Position`].
//!
//! Chess, xiangqi and shogi plug in by implementing [`Position`] and
//! [`Evaluator`]; game knowledge enters through the trait, never through a
//! fork of the search.

pub mod history;
pub mod picker;
pub mod position;
pub mod searcher;

pub use position::{Evaluator, GenKind, Position, Ruling, SearchParams};
pub use searcher::{Probe, SearchResult, Searcher};
