//! The engine's only doors to the outside: one reader thread that owns
//! stdin, one writer that owns stdout.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// Serialised, line-flushed access to stdout. Cheap to clone; searching
/// threads and the reader thread share it so lines never interleave.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn stdout() -> Self {
        Self::new(Box::new(std::io::stdout()))
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes one line and flushes it. A closed stdout (the GUI went away)
    /// is not an error worth dying noisily for: the reader will see EOF.
    pub fn line(&self, text: &str) {
        self.lines(std::iter::once(text));
    }

    /// Writes several lines under one lock (a GTP response, a MultiPV set).
    pub fn lines<'a>(&self, texts: impl IntoIterator<Item = &'a str>) {
        let mut sink = match self.sink.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        for t in texts {
            let _ = sink.write_all(t.as_bytes());
            let _ = sink.write_all(b"\n");
        }
        let _ = sink.flush();
    }

    /// Writes raw text (it must contain its own line ends) and flushes.
    pub fn raw(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
    }
}

/// Splits a byte stream into lines at LF, CRLF or a lone CR, decoding
/// invalid UTF-8 lossily. Trailing blanks are kept for the parser to trim.
pub fn split_lines(mut input: impl Read, mut emit: impl FnMut(String) -> bool) {
    let mut buf = [0u8; 4096];
    let mut line: Vec<u8> = Vec::new();
    let mut last_was_cr = false;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            match b {
                b'\n' if last_was_cr => {
                    // Second half of a CRLF: the line was already emitted.
                    last_was_cr = false;
                    continue;
                }
                b'\n' | b'\r' => {
                    last_was_cr = b == b'\r';
                    let text = String::from_utf8_lossy(&line).into_owned();
                    line.clear();
                    if !emit(text) {
                        return;
                    }
                }
                _ => {
                    last_was_cr = false;
                    line.push(b);
                }
            }
        }
    }
    if !line.is_empty() {
        emit(String::from_utf8_lossy(&line).into_owned());
    }
}

/// Starts the thread that owns stdin. The channel closes at end of input.
pub fn spawn_stdin_reader() -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let lock = stdin.lock();
            split_lines(ReadAdapter(lock), |l| tx.send(l).is_ok());
        })
        .expect("spawning the stdin reader thread");
    rx
}

/// `StdinLock` is `BufRead`; read through it without double buffering.
struct ReadAdapter<R: BufRead>(R);

impl<R: BufRead> Read for ReadAdapter<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_every_line_end() {
        let mut got = Vec::new();
        split_lines(&b"uci\r\nisready\rgo\n\nquit"[..], |l| {
            got.push(l);
            true
        });
        assert_eq!(got, ["uci", "isready", "go", "", "quit"]);
    }

    #[test]
    fn invalid_utf8_is_lossy_not_fatal() {
        let mut got = Vec::new();
        split_lines(&b"pos\xffition\n"[..], |l| {
            got.push(l);
            true
        });
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("pos"));
    }
}
