//! Long-lived worker threads for search jobs.
//!
//! A search that starts a thread for every move makes the C allocator
//! hand each new thread an arena of its own whose freed pages stay with
//! the process: a Go player that did so grew from 20 to 80 MiB over a
//! thousand games (`docs/reliability.md`). Here a finished worker goes
//! back to an idle list and takes the next job, so a process that runs
//! one job at a time keeps one thread (and one arena) for its lifetime,
//! and one more per job that overlaps another.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Deep recursion in the alpha-beta and threat searches needs more than
/// the default 2 MiB.
const STACK: usize = 32 << 20;

/// A job runs, then hands back what delivers its result; the worker puts
/// itself back on the idle list in between, so a caller that sees the
/// job finished finds the worker ready for the next one.
type Task = Box<dyn FnOnce() -> Box<dyn FnOnce() + Send> + Send>;

static IDLE: Mutex<Vec<Sender<Task>>> = Mutex::new(Vec::new());

/// Workers started so far (for the tests: sequential jobs add none).
static STARTED: AtomicUsize = AtomicUsize::new(0);

fn idle() -> std::sync::MutexGuard<'static, Vec<Sender<Task>>> {
    IDLE.lock().unwrap_or_else(|p| p.into_inner())
}

/// A job running on a worker.
pub struct Handle<T> {
    result: Receiver<Option<T>>,
    done: Arc<AtomicBool>,
}

impl<T> Handle<T> {
    pub fn is_finished(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Waits for the job; `None` when it panicked.
    pub fn join(self) -> Option<T> {
        self.result.recv().ok().flatten()
    }
}

/// Runs `work` on an idle worker, or on a new one when none is idle.
pub fn run<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<Handle<T>, String> {
    let (tx, result) = channel();
    let done = Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    let mut task: Task = Box::new(move || {
        let r = catch_unwind(AssertUnwindSafe(work)).ok();
        Box::new(move || {
            // The caller may have dropped its handle; nobody waits then.
            let _ = tx.send(r);
            flag.store(true, Ordering::Release);
        })
    });
    loop {
        let Some(worker) = idle().pop() else { break };
        match worker.send(task) {
            Ok(()) => return Ok(Handle { result, done }),
            // That worker is gone; try the next.
            Err(back) => task = back.0,
        }
    }
    // No idle worker: a new one, with the task already in its queue.
    let (wtx, wrx) = channel::<Task>();
    if wtx.send(task).is_err() {
        return Err("cannot queue a search job".into());
    }
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(STACK)
        .spawn(move || serve(wtx, wrx))
        .map_err(|e| format!("cannot start a search thread: {e}"))?;
    STARTED.fetch_add(1, Ordering::Relaxed);
    Ok(Handle { result, done })
}

/// A worker's life: take a job, run it, go back on the idle list, then
/// deliver the result. Its own sender keeps its queue open, so it lives
/// as long as the process.
fn serve(me: Sender<Task>, tasks: Receiver<Task>) {
    while let Ok(task) = tasks.recv() {
        let deliver = task();
        idle().push(me.clone());
        deliver();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn wait(h: &Handle<impl Sized>) {
        while !h.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The tests count workers, so they take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits until every worker the tests started is back on the idle
    /// list: a job an earlier test left running (a dropped handle) would
    /// otherwise come back mid-test and be the next one picked.
    fn settle() {
        for _ in 0..10_000 {
            if idle().len() >= STARTED.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        panic!("a worker never came back to the idle list");
    }

    #[test]
    fn jobs_one_after_another_share_one_thread() {
        let _turn = serial();
        settle();
        let before = STARTED.load(Ordering::Relaxed);
        let mut ids = std::collections::HashSet::new();
        for _ in 0..12 {
            let h = run("t", || std::thread::current().id()).unwrap();
            wait(&h);
            ids.insert(h.join().unwrap());
        }
        // At most one new worker (none if one was idle), and one thread.
        assert!(STARTED.load(Ordering::Relaxed) - before <= 1);
        assert_eq!(ids.len(), 1);
    }

    #[test]
    fn overlapping_jobs_run_at_once() {
        let _turn = serial();
        let (tx, rx) = channel::<()>();
        // The first job waits for the second: they must run side by side.
        let first = run("t", move || {
            rx.recv_timeout(Duration::from_secs(10)).is_ok()
        })
        .unwrap();
        let second = run("t", move || tx.send(()).is_ok()).unwrap();
        assert_eq!(second.join(), Some(true));
        assert_eq!(first.join(), Some(true));
    }

    #[test]
    fn a_panicking_job_yields_none_and_its_worker_serves_on() {
        let _turn = serial();
        let h = run("t", || -> u8 { panic!("on purpose") }).unwrap();
        wait(&h);
        assert_eq!(h.join(), None);
        let h = run("t", || 5).unwrap();
        assert_eq!(h.join(), Some(5));
    }

    #[test]
    fn a_dropped_handle_does_not_stop_the_worker() {
        let _turn = serial();
        drop(run("t", || std::thread::sleep(Duration::from_millis(5))).unwrap());
        assert_eq!(run("t", || 9).unwrap().join(), Some(9));
    }
}
