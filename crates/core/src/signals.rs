//! Flags shared between the protocol reader thread and searching threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Stop and ponder flags; cheap to clone (shared through an `Arc`).
#[derive(Clone, Debug, Default)]
pub struct Signals(Arc<Inner>);

#[derive(Debug, Default)]
struct Inner {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Milliseconds since the search started when `ponderhit` arrived; the
    /// time manager measures the move's clock from that instant.
    ponderhit_at_ms: AtomicU64,
}

impl Signals {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Release);
    }

    /// The stop flag itself, for solvers that poll an `AtomicBool` (the
    /// shogi tsume solver): stopping the signals stops them too.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.0.stop
    }

    pub fn stopped(&self) -> bool {
        self.0.stop.load(Ordering::Relaxed)
    }

    pub fn set_pondering(&self, on: bool) {
        self.0.pondering.store(on, Ordering::Release);
    }

    /// True while the search must not end on its own (ponder or infinite).
    pub fn pondering(&self) -> bool {
        self.0.pondering.load(Ordering::Acquire)
    }

    /// Switches a ponder search to a normal one, recording when it happened.
    pub fn ponderhit(&self, elapsed_ms: u64) {
        self.0.ponderhit_at_ms.store(elapsed_ms, Ordering::Release);
        self.0.pondering.store(false, Ordering::Release);
    }

    pub fn ponderhit_at_ms(&self) -> u64 {
        self.0.ponderhit_at_ms.load(Ordering::Acquire)
    }
}
