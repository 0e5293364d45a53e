//! An engine as a child process: started from a command line in a
//! working directory, fed lines on stdin, read by its own reader thread
//! that stamps every line with its arrival time, and killed when it hangs.
//! Every line both ways can be copied to a shared transcript.
//!
//! A hostile engine must not hurt the host: each engine runs in its own
//! process group, so killing it also kills what it started (a wrapper
//! script's real engine); a line is cut at `MAX_LINE` bytes; and at most
//! `QUEUE` lines wait unread, after which the engine's own writes block
//! until the arena reads again, so flooding output costs no memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Where the transcripts of all engines go, one line per message:
/// `<ms since match start> <engine>(<game>) <direction> <text>`.
#[derive(Clone)]
pub struct Transcript {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    epoch: Instant,
}

impl Transcript {
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Transcript {
            out: Arc::new(Mutex::new(out)),
            epoch: Instant::now(),
        }
    }

    fn log(&self, at: Instant, who: &str, dir: &str, text: &str) {
        let ms = at.saturating_duration_since(self.epoch).as_millis();
        if let Ok(mut out) = self.out.lock() {
            // A transcript that cannot be written must not stop a match.
            let _ = writeln!(out, "{ms:>9} {who} {dir} {text}");
            let _ = out.flush();
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Launch {
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

/// Longest line kept; the rest of a longer one is dropped.
const MAX_LINE: usize = 1 << 20;
/// Lines read but not yet taken by the arena.
const QUEUE: usize = 4096;

/// What the reader thread hands over: a line and when it arrived. The
/// end of output is the channel disconnecting.
type Event = (Instant, String);

/// The result of waiting for a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    Line(Instant, String),
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    closed: bool,
    label: String,
    transcript: Option<Transcript>,
}

impl Process {
    /// Starts the engine. `label` names it in the transcript.
    pub fn spawn(
        launch: &Launch,
        label: &str,
        transcript: Option<Transcript>,
    ) -> Result<Process, String> {
        let mut cmd = Command::new(&launch.cmd);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        // Its own group (id = its pid), so `kill` reaches its children.
        cmd.process_group(0);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", launch.cmd))?;
        let stdout = child.stdout.take().ok_or("engine has no stdout")?;
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let who = label.to_string();
        let log = transcript.clone();
        // The end of output is signalled by the sender dropping with the thread.
        thread::spawn(move || {
            let _ = read_lines(stdout, |line| {
                let now = Instant::now();
                if let Some(t) = &log {
                    t.log(now, &who, "<", &line);
                }
                tx.send((now, line)).is_ok()
            });
        });
        if let Some(stderr) = stderr {
            let who = label.to_string();
            let log = transcript.clone();
            thread::spawn(move || {
                let _ = read_lines(stderr, |line| {
                    if let Some(t) = &log {
                        t.log(Instant::now(), &who, "!", &line);
                    }
                    true
                });
            });
        }
        let stdin = child.stdin.take();
        Ok(Process {
            child,
            stdin,
            rx,
            closed: false,
            label: label.to_string(),
            transcript,
        })
    }

    /// Sends one line (flushed). An error means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<Instant, String> {
        if let Some(t) = &self.transcript {
            for l in line.lines() {
                t.log(Instant::now(), &self.label, ">", l);
            }
        }
        let stdin = self.stdin.as_mut().ok_or("engine input is closed")?;
        let result = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        result.map_err(|e| format!("cannot write to engine: {e}"))?;
        Ok(Instant::now())
    }

    /// Waits for the next line until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if self.closed {
            return Recv::Closed;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok((at, line)) => Recv::Line(at, line),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Recv::Closed
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
        }
    }

    /// Drops lines already waiting (stale output of an earlier search).
    pub fn drain(&mut self) {
        loop {
            match self.rx.try_recv() {
                Ok(_) => {}
                Err(mpsc::TryRecvError::Empty) => return,
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.closed = true;
                    return;
                }
            }
        }
    }

    /// True while the process runs.
    pub fn alive(&mut self) -> bool {
        !self.closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// A note in the transcript from the arena itself.
    pub fn note(&self, text: &str) {
        if let Some(t) = &self.transcript {
            t.log(Instant::now(), &self.label, "#", text);
        }
    }

    /// Asks the engine to leave with `quit_line`, waits up to `grace`,
    /// then kills it.
    pub fn shutdown(&mut self, quit_line: &str, grace: Duration) {
        if self.alive() {
            let _ = self.send(quit_line);
            self.stdin = None;
            let end = Instant::now() + grace;
            while Instant::now() < end {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        self.stdin = None;
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.closed = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills every process of the group that `spawn` made for the engine
/// (its id is the engine's pid). Nothing to do once the group is empty.
fn kill_group(pid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pid) else {
        return;
    };
    if pgid <= 1 {
        return;
    }
    // SAFETY: killpg only sends a signal; it reads and writes no memory of
    // ours, so it cannot break Rust's guarantees. The group id is the pid
    // of a child we spawned with `process_group(0)`, and is positive and
    // above 1 (checked above), so it can never mean "every process" or our
    // own group. Exercised by `tests::kill_reaches_the_engines_children`.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Reads lines as bytes (garbage that is not UTF-8 is replaced, never
/// fatal), strips the line ending, cuts lines at `MAX_LINE` bytes, and
/// hands each to `sink` until it returns false or the stream ends.
fn read_lines<R: Read>(stream: R, mut sink: impl FnMut(String) -> bool) -> Result<(), ()> {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut ended = false;
        // Read up to the newline, keeping at most MAX_LINE bytes.
        loop {
            let chunk = match reader.fill_buf() {
                Ok([]) | Err(_) => {
                    ended = true;
                    break;
                }
                Ok(c) => c,
            };
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let room = MAX_LINE.saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..take.min(room)]);
            reader.consume(take);
            if newline {
                break;
            }
        }
        if ended && buf.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']).to_string();
        if !sink(line) {
            return Err(());
        }
        if ended {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch {
            cmd: "sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
        }
    }

    #[test]
    fn echoes_and_times_out() {
        let mut p =
            Process::spawn(&sh("while read l; do echo \"got $l\"; done"), "cat", None).unwrap();
        p.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        match p.recv(deadline) {
            Recv::Line(_, l) => assert_eq!(l, "got hello"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p.recv(Instant::now() + Duration::from_millis(50)),
            Recv::Timeout
        );
        assert!(p.alive());
        p.shutdown("quit", Duration::from_millis(50));
        assert!(!p.alive());
    }

    #[test]
    fn sees_a_crash_and_garbage() {
        let mut p = Process::spawn(&sh("printf 'a\\377b\\r\\n'; exit 3"), "crash", None).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        match p.recv(deadline) {
            Recv::Line(_, l) => assert_eq!(l, "a\u{fffd}b"),
            other => panic!("{other:?}"),
        }
        assert_eq!(p.recv(deadline), Recv::Closed);
        assert!(!p.alive());
        assert!(p.send("x").is_err() || !p.alive());
    }

    #[test]
    fn long_lines_are_cut_and_floods_wait() {
        // 3 MB without a newline, then 10,000 short lines, then a marker.
        let script = "head -c 3000000 /dev/zero | tr '\\0' x; echo; \
                      i=0; while [ $i -lt 10000 ]; do echo info $i; i=$((i+1)); done; echo end";
        let mut p = Process::spawn(&sh(script), "flood", None).unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        match p.recv(deadline) {
            Recv::Line(_, l) => {
                assert_eq!(l.len(), MAX_LINE);
                assert!(l.bytes().all(|b| b == b'x'));
            }
            other => panic!("{other:?}"),
        }
        // The flood keeps coming after the cut line: a whole queue's worth
        // arrives before the deadline (polled, not after a fixed sleep, so
        // that a loaded machine's slow shell is no failure; the queue's
        // bound is the `sync_channel`'s).
        let mut waiting = 0;
        while waiting < QUEUE && Instant::now() < deadline {
            match p.rx.try_recv() {
                Ok(_) => waiting += 1,
                Err(_) => thread::sleep(Duration::from_millis(10)),
            }
        }
        assert_eq!(waiting, QUEUE);
        let mut last = String::new();
        while let Recv::Line(_, l) = p.recv(deadline) {
            last = l;
        }
        assert_eq!(last, "end");
    }

    #[test]
    fn kill_reaches_the_engines_children() {
        // A wrapper whose real engine (a grandchild of the arena) keeps the
        // output pipe open and would outlive a kill of the wrapper alone.
        let mut p = Process::spawn(&sh("sleep 300 & echo $!; wait"), "wrapper", None).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let child: i32 = match p.recv(deadline) {
            Recv::Line(_, l) => l.trim().parse().unwrap(),
            other => panic!("{other:?}"),
        };
        // Alive: a /proc entry that is not a zombie waiting to be reaped.
        let alive = |pid: i32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                s.rsplit(')')
                    .next()
                    .and_then(|r| r.split_whitespace().next())
                    != Some("Z")
            })
        };
        assert!(alive(child));
        p.kill();
        let end = Instant::now() + Duration::from_secs(5);
        // Killed: gone, or a zombie until init reaps it.
        while alive(child) && Instant::now() < end {
            thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(child), "the engine's child {child} survived");
    }

    #[test]
    fn missing_program_is_an_error() {
        let launch = Launch {
            cmd: "/nonexistent/engine".into(),
            args: vec![],
            dir: None,
        };
        assert!(Process::spawn(&launch, "x", None).is_err());
    }
}
