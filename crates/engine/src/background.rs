//! The background player shared by the GTP, AGI and Gomocup front-ends: a
//! search job runs on its own thread while the front-end's loop keeps
//! reading its input, so `quit`, `STOP`, `END` or GoGui's interrupt act at
//! once instead of waiting for the search to end.
//!
//! A job is any closure that gets the job's stop flag; the game's searcher
//! moves into it and comes back with the result, so nothing is shared
//! between the two threads but the flag (and the output, for streaming).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;
use tengen_core::workers;
use tengen_gomoku::search::{
    Event as GomokuEvent, Limits as GomokuLimits, SearchResult as GomokuResult,
    Searcher as GomokuSearcher,
};
use tengen_gomoku::Board as GomokuBoard;

/// How often a waiting front-end looks at its job between input lines: the
/// bound on how late a finished search is noticed.
const POLL: Duration = Duration::from_millis(5);

/// What the input thread delivered while a job ran.
pub enum Incoming {
    Line(String),
    /// The input is closed; no more lines will come.
    Closed,
}

pub struct Job<T> {
    handle: workers::Handle<T>,
    stop: Arc<AtomicBool>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a worker thread (kept between jobs: see
    /// `tengen_core::workers`); it should return soon after the flag it
    /// gets turns true.
    pub fn start(
        name: &str,
        work: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Result<Job<T>, String> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = workers::run(name, move || work(flag))?;
        Ok(Job { handle, stop })
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the job; `None` when it panicked (the caller starts
    /// afresh rather than taking the engine down).
    pub fn join(self) -> Option<T> {
        self.handle.join()
    }

    /// Waits for the job while reading `input`: every line (and the end of
    /// the input, once) goes to `on_input`, which returns true to stop the
    /// job. Lines `on_input` does not act on are its to queue.
    pub fn wait_reading(
        self,
        input: &Receiver<String>,
        mut on_input: impl FnMut(Incoming) -> bool,
    ) -> Option<T> {
        let mut closed = false;
        while !self.is_finished() {
            if closed {
                std::thread::sleep(POLL);
                continue;
            }
            let got = match input.recv_timeout(POLL) {
                Ok(line) => Incoming::Line(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    closed = true;
                    Incoming::Closed
                }
            };
            if on_input(got) {
                self.stop();
            }
        }
        self.join()
    }
}

/// A gomoku search job (AGI, Gomocup): the searcher comes back with the
/// result; `report` runs on the search thread for every event.
pub type GomokuJob = Job<(GomokuSearcher, GomokuResult)>;

pub fn gomoku_search(
    mut searcher: GomokuSearcher,
    board: &GomokuBoard,
    limits: GomokuLimits,
    mut report: Box<dyn FnMut(&GomokuEvent) + Send>,
) -> Result<GomokuJob, String> {
    let board = board.clone();
    Job::start("gomoku-search", move |stop| {
        searcher.set_stop_flag(stop);
        let r = searcher.think(&board, &limits, &mut *report);
        (searcher, r)
    })
}

/// A gomoku job's outcome, or a fresh searcher and an empty result when
/// its thread panicked.
pub fn gomoku_outcome(r: Option<(GomokuSearcher, GomokuResult)>) -> (GomokuSearcher, GomokuResult) {
    r.unwrap_or_else(|| (GomokuSearcher::new(16), GomokuResult::default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    #[test]
    fn a_line_that_asks_to_stop_ends_the_job_at_once() {
        let (tx, rx) = mpsc::channel();
        let job = Job::start("test", |stop| {
            let t = Instant::now();
            while !stop.load(Ordering::Relaxed) && t.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(1));
            }
            t.elapsed()
        })
        .unwrap();
        tx.send("ignored".to_string()).unwrap();
        tx.send("quit".to_string()).unwrap();
        let mut seen = Vec::new();
        let ran = job
            .wait_reading(&rx, |i| match i {
                Incoming::Line(l) => {
                    seen.push(l.clone());
                    l == "quit"
                }
                Incoming::Closed => false,
            })
            .unwrap();
        assert!(ran < Duration::from_secs(1), "ran {ran:?}");
        assert_eq!(seen, ["ignored", "quit"]);
    }

    #[test]
    fn closed_input_is_reported_once_and_the_job_still_finishes() {
        let (tx, rx) = mpsc::channel::<String>();
        drop(tx);
        let job = Job::start("test", |_| {
            std::thread::sleep(Duration::from_millis(30));
            7
        })
        .unwrap();
        let mut closes = 0;
        let r = job.wait_reading(&rx, |i| {
            if matches!(i, Incoming::Closed) {
                closes += 1;
            }
            false
        });
        assert_eq!((r, closes), (Some(7), 1));
    }

    #[test]
    fn a_panicking_job_yields_none() {
        let job = Job::start("test", |_| -> u8 { panic!("on purpose") }).unwrap();
        assert_eq!(job.join(), None);
    }
}
