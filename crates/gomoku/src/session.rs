//! A search running on its own thread, so a front-end keeps reading its
//! input (stop, quit, clock updates) while the engine thinks.

use crate::board::Board;
use crate::search::{Event, Limits, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub struct Background {
    handle: JoinHandle<(Searcher, SearchResult)>,
    stop: Arc<AtomicBool>,
}

impl Background {
    /// Starts `searcher` on a copy of `board`; `report` runs on the search
    /// thread for every event.
    pub fn start(
        mut searcher: Searcher,
        board: &Board,
        limits: Limits,
        mut report: Box<dyn FnMut(&Event) + Send>,
    ) -> Result<Background, String> {
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop_flag(stop.clone());
        let board = board.clone();
        // If spawning fails the searcher is lost with the closure; the
        // caller builds a new one next time.
        match std::thread::Builder::new()
            .name("gomoku-search".into())
            .stack_size(32 << 20)
            .spawn(move || {
                let r = searcher.think(&board, &limits, &mut *report);
                (searcher, r)
            }) {
            Ok(handle) => Ok(Background { handle, stop }),
            Err(e) => Err(format!("cannot start the search thread: {e}")),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the search; a panicked search thread yields a fresh
    /// searcher and an empty result rather than taking the engine down.
    pub fn join(self) -> (Searcher, SearchResult) {
        self.handle
            .join()
            .unwrap_or_else(|_| (Searcher::new(16), SearchResult::default()))
    }
}
