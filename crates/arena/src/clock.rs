//! Time controls and the clocks the arena keeps for each side. The arena
//! measures every move itself (from the `go` it sent to the move line's
//! arrival); engines' own reports of time are never trusted.

use std::fmt;
use std::time::Duration;
use tengen_core::clock as model;
pub use tengen_core::clock::Flag;

/// What happens once the main time is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overtime {
    /// Sudden death (possibly with an increment).
    None,
    /// Japanese byo-yomi: `periods` periods of `period_ms`; a move within
    /// a period keeps it, overrunning one uses it up.
    Japanese { period_ms: u64, periods: u32 },
    /// Canadian byo-yomi: `stones` moves within `period_ms`, then a fresh
    /// period.
    Canadian { period_ms: u64, stones: u32 },
}

/// A time control, as written on the command line:
/// `40/60+0.5` (40 moves in 60 s, +0.5 s a move), `10+0.1`, `60+b5`
/// (byo-yomi 5 s), `60+b5x3` (three periods), `600+c25/300` (Canadian:
/// 25 moves in 300 s), `st=1` (one second a move, via [`TimeControl::movetime`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
    /// Moves per period (the base is added again after each period).
    pub moves: Option<u32>,
    pub overtime: Overtime,
    /// Fixed time per move instead of a clock.
    pub movetime_ms: Option<u64>,
}

impl TimeControl {
    pub fn movetime(ms: u64) -> Self {
        TimeControl {
            base_ms: 0,
            inc_ms: 0,
            moves: None,
            overtime: Overtime::None,
            movetime_ms: Some(ms),
        }
    }

    /// Parses the `tc=` syntax above. Errors say what part was wrong.
    pub fn parse(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let bad = |what: &str| format!("bad time control '{s}': {what}");
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) if !m.contains('+') => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| bad("moves before '/' must be a whole number"))?;
                if m == 0 {
                    return Err(bad("moves per period must be positive"));
                }
                (Some(m), rest)
            }
            _ => (None, s),
        };
        let (base, extra) = match rest.split_once('+') {
            Some((b, e)) => (b, Some(e)),
            None => (rest, None),
        };
        let base_ms = parse_seconds(base)
            .ok_or_else(|| bad("base time must be seconds, like 60, 0.5 or 1:30"))?;
        let mut tc = TimeControl {
            base_ms,
            inc_ms: 0,
            moves,
            overtime: Overtime::None,
            movetime_ms: None,
        };
        match extra {
            None => {}
            Some(e) if e.starts_with('b') => {
                let (period, periods) = match e[1..].split_once('x') {
                    Some((p, n)) => (
                        p,
                        n.parse::<u32>()
                            .map_err(|_| bad("byo-yomi periods after 'x'"))?,
                    ),
                    None => (&e[1..], 1),
                };
                let period_ms =
                    parse_seconds(period).ok_or_else(|| bad("byo-yomi period in seconds"))?;
                if periods == 0 || period_ms == 0 {
                    return Err(bad("byo-yomi needs a positive period"));
                }
                tc.overtime = Overtime::Japanese { period_ms, periods };
            }
            Some(e) if e.starts_with('c') => {
                let (stones, period) = e[1..]
                    .split_once('/')
                    .ok_or_else(|| bad("Canadian overtime is c<moves>/<seconds>"))?;
                let stones: u32 = stones
                    .parse()
                    .map_err(|_| bad("Canadian moves must be a whole number"))?;
                let period_ms =
                    parse_seconds(period).ok_or_else(|| bad("Canadian period in seconds"))?;
                if stones == 0 || period_ms == 0 {
                    return Err(bad("Canadian overtime needs positive moves and time"));
                }
                tc.overtime = Overtime::Canadian { period_ms, stones };
            }
            Some(e) => {
                tc.inc_ms = parse_seconds(e).ok_or_else(|| bad("increment must be seconds"))?
            }
        }
        if tc.base_ms == 0 && tc.inc_ms == 0 && tc.overtime == Overtime::None {
            return Err(bad("no time at all"));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form where one exists (`40/60+0.5`,
    /// `10+0.1`), our own suffixes for overtime.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        if let Some(mt) = self.movetime_ms {
            return write!(f, "{}/move", secs(mt));
        }
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base_ms))?;
        match self.overtime {
            Overtime::None if self.inc_ms > 0 => write!(f, "+{}", secs(self.inc_ms)),
            Overtime::None => Ok(()),
            Overtime::Japanese {
                period_ms,
                periods: 1,
            } => write!(f, "+b{}", secs(period_ms)),
            Overtime::Japanese { period_ms, periods } => {
                write!(f, "+b{}x{periods}", secs(period_ms))
            }
            Overtime::Canadian { period_ms, stones } => write!(f, "+c{stones}/{}", secs(period_ms)),
        }
    }
}

/// Seconds as `60`, `0.5` or `1:30` (minutes:seconds), to milliseconds.
fn parse_seconds(s: &str) -> Option<u64> {
    let s = s.trim();
    let secs: f64 = match s.split_once(':') {
        Some((m, sec)) => m.parse::<f64>().ok()? * 60.0 + sec.parse::<f64>().ok()?,
        None => s.parse().ok()?,
    };
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return None;
    }
    Some((secs * 1000.0).round() as u64)
}

/// What an engine is told about one side's clock before a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockView {
    /// Main time left (or, in Canadian overtime, time left in the period).
    pub left_ms: u64,
    pub inc_ms: u64,
    /// Moves until the next time control, when there is one.
    pub movestogo: Option<u32>,
    /// Japanese byo-yomi period, once per move.
    pub byoyomi_ms: Option<u64>,
    pub movetime_ms: Option<u64>,
}

impl ClockView {
    /// `btime`/`binc` for USI, whose GUIs credit the increment before the
    /// move (the engine may use time + increment now) where this clock
    /// credits it after: the same allowance is `left - inc` plus `inc`.
    /// Below one increment left, the whole clock is offered as the
    /// increment so the engine never plans past it.
    pub fn usi_fischer(&self) -> (Option<u64>, Option<u64>) {
        let now = self.inc_ms.min(self.left_ms);
        (Some(self.left_ms - now), Some(now))
    }
}

/// One side's clock: the shared model of `tengen_core::clock`, with the
/// arena's millisecond interface.
#[derive(Clone, Debug)]
pub struct Clock {
    model: model::Clock,
}

/// Whole milliseconds, saturating (a clock of `u64::MAX` ms stays so).
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl TimeControl {
    /// This control in the shared model. The arena credits an increment
    /// after the move, as cutechess does: the time it sends before a move
    /// is all the move may use.
    pub fn control(&self) -> model::Control {
        let ms = Duration::from_millis;
        let overtime = match self.overtime {
            Overtime::None => model::Overtime::None,
            Overtime::Japanese { period_ms, periods } => model::Overtime::Japanese {
                period: ms(period_ms),
                periods,
            },
            Overtime::Canadian { period_ms, stones } => model::Overtime::Canadian {
                period: ms(period_ms),
                stones,
            },
        };
        model::Control {
            main: ms(self.base_ms),
            increment: ms(self.inc_ms),
            credit: model::Credit::AfterMove,
            moves: self.moves,
            overtime,
            movetime: self.movetime_ms.map(ms),
        }
    }
}

impl Clock {
    pub fn new(tc: TimeControl) -> Self {
        Clock {
            model: model::Clock::new(tc.control()),
        }
    }

    pub fn view(&self) -> ClockView {
        let control = self.model.control();
        let byoyomi_ms = match control.overtime {
            model::Overtime::Japanese { period, .. } => Some(millis(period)),
            _ => None,
        };
        ClockView {
            left_ms: millis(self.model.left()),
            inc_ms: millis(control.increment),
            movestogo: self.model.moves_to_go(),
            byoyomi_ms,
            movetime_ms: control.movetime.map(millis),
        }
    }

    /// How long the coming move may take before the flag falls (before
    /// the latency margin).
    pub fn allowance_ms(&self) -> u64 {
        millis(self.model.usable())
    }

    /// Charges a move that took `used_ms`. `Err` means the flag fell;
    /// `margin_ms` forgives that much overrun for process latency.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> Result<(), Flag> {
        self.model.charge(
            Duration::from_millis(used_ms),
            Duration::from_millis(margin_ms),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_usual_forms() {
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (Some(40), 60_000, 500));
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.inc_ms), (None, 10_000, 100));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(TimeControl::parse("1:30").unwrap().base_ms, 90_000);
        let tc = TimeControl::parse("60+b5x3").unwrap();
        assert_eq!(
            tc.overtime,
            Overtime::Japanese {
                period_ms: 5000,
                periods: 3
            }
        );
        assert_eq!(tc.to_string(), "60+b5x3");
        let tc = TimeControl::parse("600+c25/300").unwrap();
        assert_eq!(
            tc.overtime,
            Overtime::Canadian {
                period_ms: 300_000,
                stones: 25
            }
        );
        for bad in ["", "x", "40/", "0/10", "10+q", "0", "-5", "60+c25", "60+b0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_and_periods() {
        let mut c = Clock::new(TimeControl::parse("10+0.1").unwrap());
        assert_eq!(c.charge(2_000, 0), Ok(()));
        assert_eq!(c.view().left_ms, 8_100);
        assert_eq!(c.charge(8_150, 0), Err(Flag));
        // The margin forgives a late arrival, but the clock stays at zero.
        let mut c = Clock::new(TimeControl::parse("1+0.1").unwrap());
        assert_eq!(c.charge(1_040, 50), Ok(()));
        assert_eq!(c.view().left_ms, 100);

        let mut c = Clock::new(TimeControl::parse("2/10").unwrap());
        assert_eq!(c.view().movestogo, Some(2));
        c.charge(4_000, 0).unwrap();
        assert_eq!(c.view().movestogo, Some(1));
        c.charge(4_000, 0).unwrap();
        assert_eq!(c.view().left_ms, 12_000);
        assert_eq!(c.view().movestogo, Some(2));
    }

    #[test]
    fn byoyomi_japanese_and_canadian() {
        let mut c = Clock::new(TimeControl::parse("1+b2x2").unwrap());
        assert_eq!(c.allowance_ms(), 5_000);
        c.charge(2_500, 0).unwrap(); // 1 s main + 1.5 s of the first period
        assert_eq!(c.view().left_ms, 0);
        c.charge(1_900, 0).unwrap(); // within a period: keeps both
        assert_eq!(c.allowance_ms(), 4_000);
        c.charge(3_000, 0).unwrap(); // overruns one period
        assert_eq!(c.allowance_ms(), 2_000);
        assert_eq!(c.charge(2_001, 0), Err(Flag));

        let mut c = Clock::new(TimeControl::parse("0+c2/3").unwrap());
        assert_eq!(c.view().movestogo, Some(2));
        c.charge(1_000, 0).unwrap();
        assert_eq!(c.view().left_ms, 2_000);
        c.charge(1_500, 0).unwrap();
        assert_eq!((c.view().left_ms, c.view().movestogo), (3_000, Some(2)));
        c.charge(2_000, 0).unwrap();
        assert_eq!(c.charge(1_001, 0), Err(Flag));
    }

    #[test]
    fn usi_offers_the_same_allowance() {
        let mut c = Clock::new(TimeControl::parse("10+2").unwrap());
        assert_eq!(c.view().usi_fischer(), (Some(8_000), Some(2_000)));
        c.charge(9_500, 0).unwrap();
        // 2.5 s left: the engine's btime + binc is still exactly that.
        assert_eq!(c.view().usi_fischer(), (Some(500), Some(2_000)));
        // No main time at the start: nothing is usable before the first
        // increment arrives, and the engine is told so.
        let c = Clock::new(TimeControl::parse("0+5").unwrap());
        assert_eq!(c.allowance_ms(), 0);
        assert_eq!(c.view().usi_fischer(), (Some(0), Some(0)));
    }

    #[test]
    fn movetime() {
        let mut c = Clock::new(TimeControl::movetime(100));
        assert_eq!(c.charge(120, 50), Ok(()));
        assert_eq!(c.charge(151, 50), Err(Flag));
    }
}
