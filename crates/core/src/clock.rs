//! One clock model for the whole project: the engine's time manager asks
//! it what a move may use, the arena's referee charges moves to it, and
//! the GTP front-end keeps its `time_settings`/`time_left` state in it.
//!
//! A [`Control`] is the rule both players agreed on; a [`Clock`] is one
//! player's state under it. "No clock at all" is `Option::<Control>::None`
//! in callers: there is nothing to charge and nothing to plan.
//!
//! All arithmetic saturates: a GUI may send a clock of hours or of zero,
//! and neither may panic or wrap.

use std::time::Duration;

/// What happens once the main time is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overtime {
    /// Sudden death (possibly with an increment): the flag falls at zero.
    None,
    /// Japanese byo-yomi: `periods` periods of `period`; a move within a
    /// period keeps it, each period overrun is used up.
    Japanese { period: Duration, periods: u32 },
    /// Canadian byo-yomi: `stones` moves within `period`, then a fresh
    /// period.
    Canadian { period: Duration, stones: u32 },
}

/// When a Fischer increment joins the clock. The protocols disagree, so
/// the model carries it rather than each front-end guessing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Credit {
    /// Added once the move is made (FIDE, cutechess, UCI, UCCI): the time
    /// sent before the move is all this move may use; `wtime 0` is a flag.
    #[default]
    AfterMove,
    /// Added when the move starts (Shogidokoro's USI `binc`, floodgate):
    /// this move may use the time left plus the increment.
    BeforeMove,
}

/// A time control: Fischer (`main` + `increment`), repeating periods
/// (`moves` moves in `main`, again and again), a fixed time per move, or
/// main time followed by Japanese or Canadian byo-yomi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub main: Duration,
    pub increment: Duration,
    pub credit: Credit,
    /// Moves per period: `main` is added again after every `moves` moves.
    pub moves: Option<u32>,
    pub overtime: Overtime,
    /// A fixed time for every move instead of a clock (UCI `movetime`,
    /// cutechess `st=`); the other fields are then ignored.
    pub movetime: Option<Duration>,
}

impl Control {
    /// Sudden death: `main` for the whole game, nothing more.
    pub fn sudden_death(main: Duration) -> Self {
        Self::fischer(main, Duration::ZERO)
    }

    /// `main` plus `increment` a move, credited after the move.
    pub fn fischer(main: Duration, increment: Duration) -> Self {
        Control {
            main,
            increment,
            credit: Credit::AfterMove,
            moves: None,
            overtime: Overtime::None,
            movetime: None,
        }
    }

    /// The same time for every move.
    pub fn movetime(time: Duration) -> Self {
        Control {
            movetime: Some(time),
            ..Self::sudden_death(Duration::ZERO)
        }
    }

    /// GTP `time_settings main byo_yomi_time byo_yomi_stones` (seconds):
    /// no byo-yomi time is absolute time; byo-yomi time with zero stones
    /// means no time limit (`None`); otherwise Canadian overtime.
    pub fn gtp(main: Duration, period: Duration, stones: u32) -> Option<Self> {
        if period.is_zero() {
            return Some(Self::sudden_death(main));
        }
        (stones > 0).then(|| Control {
            overtime: Overtime::Canadian { period, stones },
            ..Self::sudden_death(main)
        })
    }

    /// KGS `kgs-time_settings byoyomi main period periods`: Japanese
    /// byo-yomi (`none`, `absolute` and `canadian` are [`Control::gtp`]
    /// with no period, a zero period and stones respectively). No periods
    /// leave absolute time.
    pub fn kgs_byoyomi(main: Duration, period: Duration, periods: u32) -> Self {
        if period.is_zero() || periods == 0 {
            return Self::sudden_death(main);
        }
        Control {
            overtime: Overtime::Japanese { period, periods },
            ..Self::sudden_death(main)
        }
    }
}

/// The flag fell: the move took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag;

/// One player's clock under a [`Control`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: Control,
    /// Main time left; in Canadian overtime, time left in the period.
    left: Duration,
    moves_made: u32,
    /// Japanese periods still unspent.
    periods_left: u32,
    /// Canadian overtime: moves still due in the current period.
    stones_left: u32,
    in_overtime: bool,
}

impl Clock {
    /// A fresh clock; no main time starts the game in overtime.
    pub fn new(control: Control) -> Self {
        let periods_left = match control.overtime {
            Overtime::Japanese { periods, .. } => periods,
            _ => 0,
        };
        let mut clock = Clock {
            control,
            left: control.main,
            moves_made: 0,
            periods_left,
            stones_left: 0,
            in_overtime: false,
        };
        if control.main.is_zero() {
            clock.enter_overtime();
        }
        clock
    }

    fn enter_overtime(&mut self) {
        match self.control.overtime {
            Overtime::Canadian { period, stones } => {
                self.in_overtime = true;
                self.left = period;
                self.stones_left = stones;
            }
            Overtime::Japanese { .. } => {
                self.in_overtime = true;
                self.left = Duration::ZERO;
            }
            Overtime::None => {}
        }
    }

    /// Replaces the state with what a server reports (GTP `time_left`):
    /// `count == 0` means `left` is main time; otherwise the player is in
    /// overtime with `left` in the current period and `count` stones due
    /// (Canadian) or `count` periods left (Japanese, as KGS sends).
    pub fn set_reported(&mut self, left: Duration, count: u32) {
        if count == 0 {
            self.left = left;
            self.in_overtime = false;
            if let Overtime::Japanese { periods, .. } = self.control.overtime {
                self.periods_left = periods;
            }
            return;
        }
        match self.control.overtime {
            Overtime::Canadian { .. } => {
                self.in_overtime = true;
                self.left = left;
                self.stones_left = count;
            }
            Overtime::Japanese { .. } => {
                // The period being played is whole again at the next move;
                // only the count of periods matters.
                self.in_overtime = true;
                self.left = Duration::ZERO;
                self.periods_left = count;
            }
            Overtime::None => self.left = left,
        }
    }

    pub fn control(&self) -> &Control {
        &self.control
    }

    /// Main time left (in Canadian overtime: time left in the period).
    pub fn left(&self) -> Duration {
        self.left
    }

    pub fn in_overtime(&self) -> bool {
        self.in_overtime
    }

    pub fn periods_left(&self) -> u32 {
        self.periods_left
    }

    /// Canadian overtime: moves still due in this period (0 before it).
    pub fn stones_left(&self) -> u32 {
        self.stones_left
    }

    /// Moves until the next time control: the stones due in a Canadian
    /// period, or the moves left in a repeating period.
    pub fn moves_to_go(&self) -> Option<u32> {
        if self.in_overtime && self.stones_left > 0 {
            return Some(self.stones_left);
        }
        self.control
            .moves
            .filter(|&m| m > 0)
            .map(|m| m - self.moves_made % m)
    }

    /// Main time the next move may use: the time left, plus the increment
    /// when it is credited before the move.
    pub fn main_usable(&self) -> Duration {
        match self.control.credit {
            Credit::BeforeMove => self.left.saturating_add(self.control.increment),
            Credit::AfterMove => self.left,
        }
    }

    /// How long the next move may take before the flag falls (no latency
    /// margin taken off: that is the caller's policy).
    pub fn usable(&self) -> Duration {
        if let Some(mt) = self.control.movetime {
            return mt;
        }
        let main = self.main_usable();
        match self.control.overtime {
            Overtime::Japanese { period, .. } => {
                main.saturating_add(period.saturating_mul(self.periods_left))
            }
            Overtime::Canadian { period, .. } if !self.in_overtime => main.saturating_add(period),
            _ => main,
        }
    }

    /// Charges a move that took `used`. `grace` forgives that much overrun
    /// past [`Clock::usable`] (process latency); the clock then stays at
    /// zero rather than going negative.
    pub fn charge(&mut self, used: Duration, grace: Duration) -> Result<(), Flag> {
        if let Some(mt) = self.control.movetime {
            return if used > mt.saturating_add(grace) {
                Err(Flag)
            } else {
                Ok(())
            };
        }
        let overrun = used.saturating_sub(self.usable());
        let cost = used.saturating_sub(grace.min(overrun));
        if self.control.credit == Credit::BeforeMove {
            self.left = self.left.saturating_add(self.control.increment);
        }
        match self.control.overtime {
            Overtime::Japanese { period, .. } => {
                if cost <= self.left {
                    self.left -= cost;
                } else {
                    let over = cost - self.left;
                    self.left = Duration::ZERO;
                    self.in_overtime = true;
                    if period.is_zero() {
                        return Err(Flag);
                    }
                    // Each whole period overrun is used up; the last one
                    // entered must still hold the rest of the move.
                    let entered = over.as_nanos().div_ceil(period.as_nanos());
                    let spent = u32::try_from(entered.saturating_sub(1)).unwrap_or(u32::MAX);
                    if spent >= self.periods_left {
                        return Err(Flag);
                    }
                    self.periods_left -= spent;
                }
            }
            Overtime::Canadian { period, stones } => {
                let mut cost = cost;
                if !self.in_overtime {
                    if cost <= self.left {
                        self.left -= cost;
                        cost = Duration::ZERO;
                    } else {
                        // Main time ran out during this move: the rest is
                        // charged to the first period, and this move counts.
                        cost -= self.left;
                        self.enter_overtime();
                    }
                }
                if self.in_overtime {
                    if cost > self.left {
                        return Err(Flag);
                    }
                    self.left -= cost;
                    self.stones_left = self.stones_left.saturating_sub(1);
                    if self.stones_left == 0 {
                        self.left = period;
                        self.stones_left = stones;
                    }
                }
            }
            Overtime::None => {
                if cost > self.left {
                    return Err(Flag);
                }
                self.left -= cost;
            }
        }
        if self.control.credit == Credit::AfterMove {
            self.left = self.left.saturating_add(self.control.increment);
        }
        self.moves_made = self.moves_made.saturating_add(1);
        if let Some(m) = self.control.moves.filter(|&m| m > 0) {
            if self.moves_made.is_multiple_of(m) {
                self.left = self.left.saturating_add(self.control.main);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn japanese(main: u64, period: u64, periods: u32) -> Control {
        Control {
            overtime: Overtime::Japanese {
                period: ms(period),
                periods,
            },
            ..Control::sudden_death(ms(main))
        }
    }

    fn canadian(main: u64, period: u64, stones: u32) -> Control {
        Control {
            overtime: Overtime::Canadian {
                period: ms(period),
                stones,
            },
            ..Control::sudden_death(ms(main))
        }
    }

    #[test]
    fn fischer_credits_the_increment_after_the_move() {
        let mut c = Clock::new(Control::fischer(ms(10_000), ms(100)));
        assert_eq!(c.usable(), ms(10_000));
        c.charge(ms(2_000), Duration::ZERO).unwrap();
        assert_eq!(c.left(), ms(8_100));
        assert_eq!(c.charge(ms(8_150), Duration::ZERO), Err(Flag));
        // A grace forgives a late arrival; the clock stays at zero.
        let mut c = Clock::new(Control::fischer(ms(1_000), ms(100)));
        c.charge(ms(1_040), ms(50)).unwrap();
        assert_eq!(c.left(), ms(100));
    }

    #[test]
    fn an_increment_credited_first_is_usable_now() {
        // USI `btime 0 binc 5000`: the move may use the increment.
        let mut c = Clock::new(Control {
            credit: Credit::BeforeMove,
            ..Control::fischer(Duration::ZERO, ms(5_000))
        });
        assert_eq!(c.usable(), ms(5_000));
        c.charge(ms(4_000), Duration::ZERO).unwrap();
        assert_eq!(c.left(), ms(1_000));
        assert_eq!(c.charge(ms(6_001), Duration::ZERO), Err(Flag));
        // The same with the increment after the move: a zero clock flags.
        let mut c = Clock::new(Control::fischer(Duration::ZERO, ms(5_000)));
        assert_eq!(c.usable(), Duration::ZERO);
        assert_eq!(c.charge(ms(1), Duration::ZERO), Err(Flag));
    }

    #[test]
    fn repeating_periods_refill() {
        let mut c = Clock::new(Control {
            moves: Some(2),
            ..Control::sudden_death(ms(10_000))
        });
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(4_000), Duration::ZERO).unwrap();
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(ms(4_000), Duration::ZERO).unwrap();
        assert_eq!((c.left(), c.moves_to_go()), (ms(12_000), Some(2)));
    }

    #[test]
    fn japanese_periods_are_kept_or_used_up() {
        let mut c = Clock::new(japanese(1_000, 2_000, 2));
        assert_eq!(c.usable(), ms(5_000));
        c.charge(ms(2_500), Duration::ZERO).unwrap(); // main + part of a period
        assert_eq!((c.left(), c.in_overtime()), (Duration::ZERO, true));
        c.charge(ms(1_900), Duration::ZERO).unwrap(); // within: keeps both
        assert_eq!(c.usable(), ms(4_000));
        c.charge(ms(3_000), Duration::ZERO).unwrap(); // overruns one
        assert_eq!((c.usable(), c.periods_left()), (ms(2_000), 1));
        assert_eq!(c.charge(ms(2_001), Duration::ZERO), Err(Flag));
    }

    #[test]
    fn canadian_counts_stones() {
        let mut c = Clock::new(canadian(0, 3_000, 2));
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(1_000), Duration::ZERO).unwrap();
        assert_eq!((c.left(), c.stones_left()), (ms(2_000), 1));
        c.charge(ms(1_500), Duration::ZERO).unwrap();
        assert_eq!((c.left(), c.moves_to_go()), (ms(3_000), Some(2)));
        c.charge(ms(2_000), Duration::ZERO).unwrap();
        assert_eq!(c.charge(ms(1_001), Duration::ZERO), Err(Flag));

        // Main time running out mid-move: the rest comes from the first
        // period and the move counts as one of its stones.
        let mut c = Clock::new(canadian(1_000, 10_000, 5));
        assert_eq!(c.usable(), ms(11_000));
        c.charge(ms(3_000), Duration::ZERO).unwrap();
        assert_eq!((c.left(), c.stones_left()), (ms(8_000), 4));
    }

    #[test]
    fn movetime_forgives_only_the_grace() {
        let mut c = Clock::new(Control::movetime(ms(100)));
        assert_eq!(c.usable(), ms(100));
        assert_eq!(c.charge(ms(120), ms(50)), Ok(()));
        assert_eq!(c.charge(ms(151), ms(50)), Err(Flag));
    }

    #[test]
    fn reported_state_replaces_the_clock() {
        // GTP: `time_left b 42 3` under Canadian 5 stones / 60 s.
        let mut c = Clock::new(canadian(600_000, 60_000, 5));
        c.set_reported(ms(42_000), 3);
        assert_eq!((c.usable(), c.moves_to_go()), (ms(42_000), Some(3)));
        c.set_reported(ms(100_000), 0);
        assert_eq!(c.usable(), ms(160_000));
        // KGS byo-yomi: `time_left w 30 2` means two periods left.
        let mut c = Clock::new(japanese(600_000, 30_000, 5));
        c.set_reported(ms(30_000), 2);
        assert_eq!(c.usable(), ms(60_000));
    }

    #[test]
    fn gtp_time_settings_map_onto_controls() {
        let s = Duration::from_secs;
        assert_eq!(
            Control::gtp(s(300), Duration::ZERO, 0),
            Some(Control::sudden_death(s(300)))
        );
        assert_eq!(Control::gtp(s(300), s(30), 0), None);
        let c = Control::gtp(Duration::ZERO, s(300), 25).unwrap();
        let clock = Clock::new(c);
        assert_eq!((clock.usable(), clock.moves_to_go()), (s(300), Some(25)));
        let clock = Clock::new(Control::kgs_byoyomi(s(600), s(30), 5));
        assert_eq!(clock.usable(), s(750));
        assert_eq!(
            Control::kgs_byoyomi(s(600), s(30), 0),
            Control::sudden_death(s(600))
        );
    }

    #[test]
    fn huge_and_zero_times_do_not_overflow() {
        let huge = Duration::MAX;
        let mut c = Clock::new(Control {
            credit: Credit::BeforeMove,
            moves: Some(1),
            ..Control::fischer(huge, huge)
        });
        assert_eq!(c.usable(), huge);
        c.charge(ms(1), Duration::ZERO).unwrap();
        let mut c = Clock::new(japanese(0, 0, u32::MAX));
        assert_eq!(c.charge(ms(1), huge), Ok(()));
        assert_eq!(c.charge(huge, Duration::ZERO), Err(Flag));
        let mut c = Clock::new(japanese(0, 1, u32::MAX));
        assert_eq!(c.usable(), ms(1).saturating_mul(u32::MAX));
        assert_eq!(c.charge(huge, Duration::ZERO), Err(Flag));
        let mut c = Clock::new(canadian(0, 0, 0));
        assert_eq!(c.charge(Duration::ZERO, Duration::ZERO), Ok(()));
    }
}
