//! What a `go` asks for, independent of the protocol that asked.

use crate::timeman::TimeControl;
use std::time::Duration;

/// Limits of one search request. `None` everywhere means "search until
/// stopped" only when `infinite` is set; otherwise the front-end decides a
/// default (see [`SearchLimits::is_unbounded`]).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Clock state for the side to move (and the opponent's, when known).
    pub time: Option<TimeControl>,
    /// Search exactly this long.
    pub move_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves (full moves of the side to move).
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode: do not stop before `ponderhit`/`stop`.
    pub ponder: bool,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Margin for process and GUI latency, taken off every time budget.
    pub overhead: Duration,
    /// Plies played in the game so far (the time manager spends a little
    /// more early on).
    pub game_ply: u32,
}

impl SearchLimits {
    pub fn depth(d: u32) -> Self {
        SearchLimits {
            depth: Some(d),
            multipv: 1,
            ..Default::default()
        }
    }

    pub fn infinite() -> Self {
        SearchLimits {
            infinite: true,
            multipv: 1,
            ..Default::default()
        }
    }

    /// No limit of any kind was given.
    pub fn is_unbounded(&self) -> bool {
        self.time.is_none()
            && self.move_time.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
    }
}
