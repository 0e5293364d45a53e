//! Game-agnostic building blocks shared by every tengen game and protocol.
//!
//! Nothing here knows a game's rules or a protocol's syntax: scores, the
//! clock model and the time manager (with a small table of per-game time
//! parameters), search limits, stop/ponder signals, the transposition
//! table, search reports and the option registry.

pub mod cache;
pub mod clock;
pub mod history;
pub mod limits;
pub mod options;
pub mod report;
pub mod score;
pub mod signals;
pub mod splitmix;
pub mod timeman;
pub mod tt;
pub mod workers;

pub use limits::SearchLimits;
pub use report::{Bound, Report};
pub use score::Score;
pub use signals::Signals;
pub use timeman::{TimeControl, TimeManager};
pub use tt::TranspositionTable;
