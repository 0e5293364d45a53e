//! The live progress of a long run: games played out of the total, the
//! score of the pair that just played, its Elo with the 95% margin, and
//! the time left at the pace so far. On a terminal it is an `indicatif`
//! bar on stderr; otherwise (a log file, a pipe, CI) a plain line on
//! stderr at most every few seconds. Either way stdout keeps only the
//! results, which scripts and tests read.

use crate::stats::Wdl;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Plain lines come at most this often, so that a log of a long run
/// stays short while a run with slow games still shows signs of life.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Where the run stands after a finished game.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    pub done: usize,
    pub total: usize,
    /// The pair that just played, the first from whose view `wdl` is.
    pub names: [&'a str; 2],
    pub wdl: Wdl,
}

enum Sink {
    Bar(ProgressBar),
    Plain {
        out: Box<dyn Write + Send>,
        every: Duration,
        last: Option<Instant>,
    },
}

pub struct Progress {
    sink: Sink,
    started: Instant,
    /// Games a resumed match had played before this run: they took none
    /// of this run's time, so the pace counts only the games after them.
    already: usize,
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise; `already`
    /// games were played before this run (a resumed match).
    pub fn new(total: usize, already: usize) -> Progress {
        let mut p = if std::io::stderr().is_terminal() {
            Progress::bar(total)
        } else {
            Progress::plain(Box::new(std::io::stderr()), PLAIN_EVERY)
        };
        p.already = already;
        p
    }

    fn bar(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(
            Some(u64::try_from(total).unwrap_or(u64::MAX)),
            ProgressDrawTarget::stderr(),
        );
        // The template is a constant; were it refused, the default style
        // (a bare bar) still shows the count.
        if let Ok(style) = ProgressStyle::with_template("{bar:24} {pos}/{len} games  {msg}") {
            bar.set_style(style);
        }
        Progress {
            sink: Sink::Bar(bar),
            started: Instant::now(),
            already: 0,
        }
    }

    /// Plain lines to `out`, at most one per `every` (and the last game's).
    pub fn plain(out: Box<dyn Write + Send>, every: Duration) -> Progress {
        Progress {
            sink: Sink::Plain {
                out,
                every,
                last: None,
            },
            started: Instant::now(),
            already: 0,
        }
    }

    /// Runs `f` (which writes results to stdout) with the bar lifted off
    /// the terminal, so the two do not garble each other.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.sink {
            Sink::Bar(bar) => bar.suspend(f),
            Sink::Plain { .. } => f(),
        }
    }

    /// Reports a finished game, `now` being the time it arrived.
    pub fn update(&mut self, s: &Snapshot<'_>, now: Instant) {
        let elapsed = now.saturating_duration_since(self.started);
        let already = self.already;
        match &mut self.sink {
            Sink::Bar(bar) => {
                bar.set_position(u64::try_from(s.done).unwrap_or(u64::MAX));
                bar.set_message(figures(s, already, elapsed));
            }
            Sink::Plain { out, every, last } => {
                let due = last.is_none_or(|t| now.saturating_duration_since(t) >= *every);
                if due || s.done >= s.total {
                    *last = Some(now);
                    // Progress is a courtesy: a closed stderr must not stop
                    // the run.
                    let line = figures(s, already, elapsed);
                    let _ = writeln!(out, "progress: {}/{} games, {line}", s.done, s.total);
                    let _ = out.flush();
                }
            }
        }
    }

    /// Takes the bar off the terminal before the final tables print.
    pub fn finish(&self) {
        if let Sink::Bar(bar) = &self.sink {
            bar.finish_and_clear();
        }
    }
}

/// Score, Elo and time left, as one line; `already` of the games done
/// were played before this run.
fn figures(s: &Snapshot<'_>, already: usize, elapsed: Duration) -> String {
    let w = &s.wdl;
    let e = w.elo();
    let elo = if e.elo.is_finite() {
        format!("{:+.1}", e.elo + 0.0)
    } else if e.elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    };
    let margin = if e.margin().is_finite() {
        format!("{:.1}", e.margin())
    } else {
        "inf".into()
    };
    format!(
        "{} vs {} {}-{}-{} [{:.3}], Elo {elo} +/- {margin}, {} elapsed, {}",
        s.names[0],
        s.names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        clock_text(elapsed),
        match time_left(
            s.done.saturating_sub(already),
            s.total.saturating_sub(already),
            elapsed
        ) {
            Some(left) => format!("about {} left", clock_text(left)),
            None => "time left unknown".into(),
        }
    )
}

/// The rest of the run at the pace so far: `done` of `total` games in
/// `elapsed`, both counted from this run's start (`None` before its first
/// game).
fn time_left(done: usize, total: usize, elapsed: Duration) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let per_game = elapsed.as_secs_f64() / done as f64;
    let left = total.saturating_sub(done) as f64 * per_game;
    Duration::try_from_secs_f64(left).ok()
}

/// `1h 02m 03s`, `2m 03s`, `3s`.
fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}h {m:02}m {s:02}s")
    } else if m > 0 {
        format!("{m}m {s:02}s")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn snap(done: usize, wins: u32, draws: u32, losses: u32) -> Snapshot<'static> {
        Snapshot {
            done,
            total: 10,
            names: ["a", "b"],
            wdl: Wdl {
                wins,
                draws,
                losses,
            },
        }
    }

    #[test]
    fn plain_lines_are_throttled_but_the_last_game_always_prints() {
        let buf = Shared::default();
        let mut p = Progress::plain(Box::new(buf.clone()), Duration::from_secs(10));
        let t0 = p.started;
        let at = |s: u64| t0 + Duration::from_secs(s);
        p.update(&snap(1, 1, 0, 0), at(4)); // first: printed
        p.update(&snap(2, 1, 1, 0), at(8)); // 4 s later: skipped
        p.update(&snap(3, 2, 1, 0), at(14)); // 10 s later: printed
        p.update(&snap(10, 5, 3, 2), at(15)); // the last game: printed
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("progress: 1/10 games, a vs b 1-0-0 [1.000], Elo +inf +/- inf, 4s elapsed, about 36s left"), "{}", lines[0]);
        assert!(
            lines[1].starts_with("progress: 3/10 games, a vs b 2-0-1 [0.833]"),
            "{}",
            lines[1]
        );
        // 14 s for 3 games: 7 games more take about 32.7 s.
        assert!(
            lines[1].ends_with("14s elapsed, about 32s left"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("10/10 games, a vs b 5-2-3 [0.650]"),
            "{}",
            lines[2]
        );
        assert!(lines[2].ends_with("about 0s left"), "{}", lines[2]);
    }

    #[test]
    fn figures_match_the_statistics() {
        let s = snap(4, 3, 0, 1);
        let e = s.wdl.elo();
        let text = figures(&s, 0, Duration::from_secs(130));
        let want = format!("Elo {:+.1} +/- {:.1}", e.elo, e.margin());
        assert!(text.contains(&want), "{text} lacks {want}");
        assert!(text.contains("2m 10s elapsed, about 3m 15s left"), "{text}");
        assert!(figures(&snap(0, 0, 0, 0), 0, Duration::ZERO).ends_with("time left unknown"));
        assert!(figures(&snap(1, 0, 0, 1), 0, Duration::ZERO).contains("Elo -inf +/- inf"));
        // Resumed after 6 games: 2 more in 60 s leave 2 at 30 s each, and
        // the score is the whole match's.
        let text = figures(&snap(8, 5, 1, 2), 6, Duration::from_secs(60));
        assert!(text.contains("5-2-1 [0.688]"), "{text}");
        assert!(
            text.ends_with("1m 00s elapsed, about 1m 00s left"),
            "{text}"
        );
        assert!(figures(&snap(6, 3, 1, 2), 6, Duration::ZERO).ends_with("time left unknown"));
    }

    #[test]
    fn clock_text_shapes() {
        assert_eq!(clock_text(Duration::from_secs(3)), "3s");
        assert_eq!(clock_text(Duration::from_secs(123)), "2m 03s");
        assert_eq!(clock_text(Duration::from_secs(3723)), "1h 02m 03s");
        assert_eq!(
            time_left(5, 5, Duration::from_secs(50)),
            Some(Duration::ZERO)
        );
    }
}
