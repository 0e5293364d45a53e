//! One clock model for every protocol, and one manager that turns it into
//! a soft limit (do not start another iteration past it) and a hard limit
//! (abort the search at it).
//!
//! Protocols differ in units and in whose clock a field names; front-ends
//! translate into [`TimeControl`] for the side to move and the manager
//! never sees protocol details. What a move may use at most comes from
//! the shared clock model ([`crate::clock`]); this module only decides how
//! much of that to spend.

use crate::clock::{Clock, Control, Credit, Overtime};
use std::time::Duration;

/// The clock of the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time left (zero when only byo-yomi remains).
    pub remaining: Duration,
    /// Added after each move (Fischer).
    pub increment: Duration,
    /// Moves until the next time control, if the control is moves-per-period.
    pub moves_to_go: Option<u32>,
    /// Byo-yomi period length (Japanese) usable after the main time.
    pub byoyomi: Duration,
    /// Canadian byo-yomi: stones/moves to play within `byoyomi`; 0 for
    /// Japanese periods (one move per period).
    pub byoyomi_moves: u32,
    /// Remaining time of the opponent, where the protocol reports it.
    pub opponent_remaining: Option<Duration>,
    /// Whether `increment` is already usable for this move (USI) or only
    /// joins the clock after it (UCI, UCCI).
    pub credit: Credit,
}

impl TimeControl {
    /// The side to move's clock in the shared model: main time, then
    /// Japanese periods (`byoyomi_moves` 0 or 1) or a Canadian period
    /// shared by `byoyomi_moves` moves.
    pub fn clock(&self) -> Clock {
        let overtime = if self.byoyomi.is_zero() {
            Overtime::None
        } else if self.byoyomi_moves > 1 {
            Overtime::Canadian {
                period: self.byoyomi,
                stones: self.byoyomi_moves,
            }
        } else {
            Overtime::Japanese {
                period: self.byoyomi,
                periods: 1,
            }
        };
        Clock::new(Control {
            credit: self.credit,
            moves: self.moves_to_go,
            overtime,
            ..Control::fischer(self.remaining, self.increment)
        })
    }
}

impl Clock {
    /// What the time manager needs to know of this clock before the next
    /// move (GTP keeps a [`Clock`] from `time_settings`/`time_left` and
    /// plans with this).
    pub fn time_control(&self) -> TimeControl {
        let c = self.control();
        let (remaining, byoyomi, byoyomi_moves) = match c.overtime {
            Overtime::None => (self.left(), Duration::ZERO, 0),
            Overtime::Japanese { period, .. } => (self.left(), period, 0),
            Overtime::Canadian { period, stones } if !self.in_overtime() => {
                (self.left(), period, stones)
            }
            Overtime::Canadian { .. } => (Duration::ZERO, self.left(), self.stones_left()),
        };
        TimeControl {
            remaining,
            increment: c.increment,
            moves_to_go: self.moves_to_go(),
            byoyomi,
            byoyomi_moves,
            opponent_remaining: None,
            credit: c.credit,
        }
    }
}

/// Time parameters that differ between games, measured per game and kept
/// here as data rather than as constants inside the front-ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTime {
    /// Moves to spread the clock over under an increment with no
    /// `movestogo` (see [`sudden_death_horizon`]); `None` keeps the shared
    /// ~40-move default.
    pub increment_horizon: Option<u32>,
    /// Latency margin taken off every budget where the protocol has no
    /// option for it.
    pub overhead: Duration,
}

impl GameTime {
    /// The `movestogo` to assume under `increment` with none given.
    pub fn horizon(&self, increment: Duration) -> Option<u32> {
        self.increment_horizon
            .and_then(|m| sudden_death_horizon(increment, m))
    }
}

/// Chess keeps the shared default: at 24 moves it thought as long a move
/// as Fairy-Stockfish 11.1 at 10 s + 0.1 s and scored no better (33.3%
/// against 35.0% on the same 200 openings, docs/strength.md). The margin
/// is the UCI `Move Overhead` option's default.
pub const CHESS: GameTime = GameTime {
    increment_horizon: None,
    overhead: Duration::from_millis(10),
};

/// Measured at 10 s + 0.1 s: the shared default (~40 moves) thought
/// ~200 ms a move where Fairy-Stockfish thinks ~600 ms, and tengen scored
/// 42% against it at equal time but far less at a third of its time.
pub const XIANGQI: GameTime = GameTime {
    increment_horizon: Some(12),
    overhead: Duration::from_millis(50),
};

/// At 10 s + 0.1 s the ~40-move default thought 263 ms a move over the
/// first 20 moves where Fairy-Stockfish 11.1 thought 570 ms, and its score
/// pulled ahead by ply 20-30; shogi games run longer than xiangqi ones,
/// so the horizon is a little longer than xiangqi's 12. With 16: 387 ms
/// against its 408 ms (docs/strength.md, "Shogi"). The margin is the USI
/// `MoveOverhead` option's default.
pub const SHOGI: GameTime = GameTime {
    increment_horizon: Some(16),
    overhead: Duration::from_millis(120),
};

/// GTP servers and a busy machine add latency, and MCTS has no iteration
/// to finish early: a wide margin.
pub const GO: GameTime = GameTime {
    increment_horizon: None,
    overhead: Duration::from_millis(400),
};

/// Gomocup's manager measures the turn itself, with little latency.
pub const GOMOKU: GameTime = GameTime {
    increment_horizon: None,
    overhead: Duration::from_millis(40),
};

/// Per-move limits decided at the start of a search.
/// How many moves to spread the clock over when the GUI gives an
/// increment and no `movestogo`: `Some(moves)` with an increment, `None`
/// (the shared default horizon of ~40 moves) without one. With an
/// increment the clock refills, so a short horizon spends it early, in
/// the middle game where games against a strong opponent are decided,
/// and still settles near a few increments in hand late in a long game
/// (each move costs a share of the clock and earns the increment back).
pub fn sudden_death_horizon(increment: Duration, moves: u32) -> Option<u32> {
    (!increment.is_zero()).then_some(moves)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this point, whatever its state.
    pub hard: Duration,
}

/// Shortest time we ever allow ourselves: enough to return a legal move.
const FLOOR: Duration = Duration::from_millis(1);

impl TimeManager {
    /// A fixed time per move (UCI `movetime`), less the overhead margin.
    pub fn fixed(time: Duration, overhead: Duration) -> Self {
        let t = time.saturating_sub(overhead).max(FLOOR);
        TimeManager { soft: t, hard: t }
    }

    /// Limits for one move under `tc`. `overhead` covers process and GUI
    /// latency; `ply` is the game ply (used to spend a bit more early on).
    pub fn new(tc: &TimeControl, overhead: Duration, ply: u32) -> Self {
        let clock = tc.clock();
        let overhead_ms = overhead.as_millis() as f64;
        // An increment credited before the move is main time for it (and
        // the next move is credited again, so the plan below is unchanged).
        // Overtime is planned below from `byoyomi`, not as main time.
        let remaining = if clock.in_overtime() {
            0.0
        } else {
            clock.main_usable().as_millis() as f64
        };
        let inc = tc.increment.as_millis() as f64;
        let byo = tc.byoyomi.as_millis() as f64;

        // Canadian byo-yomi with no main time: a period shared by N moves.
        if remaining <= 0.0 && byo > 0.0 {
            let per_move = if tc.byoyomi_moves > 1 {
                byo / tc.byoyomi_moves as f64
            } else {
                byo
            };
            let hard = (per_move - overhead_ms).max(1.0);
            let soft = if tc.byoyomi_moves > 1 {
                hard * 0.7
            } else {
                // A Japanese period is lost unless used: spend most of it.
                hard * 0.85
            };
            return Self::ms(soft, hard);
        }

        // Budget: the time we may use across the remaining moves to go.
        let mtg = match tc.moves_to_go {
            Some(m) if m > 0 => (m as f64).min(50.0),
            _ => {
                // Sudden death: assume the game lasts a while longer, less so
                // as it goes on.
                (40.0 - ply as f64 / 8.0).max(20.0)
            }
        };
        // Time we can count on without touching the final safety margin.
        let usable = (remaining - overhead_ms * (mtg.min(10.0) + 1.0)).max(0.0);
        // Each move costs its thinking time plus the latency the overhead
        // stands for, and earns the increment back: only the increment
        // beyond the overhead is ours to spend, and a quarter of that is
        // banked so a low clock grows back a reserve against stalls (a
        // busy machine can stop a process for a few hundred ms).
        let inc_share = (inc - overhead_ms).max(0.0) * 0.75;
        let mut ideal = usable / mtg + inc_share;
        if byo > 0.0 {
            // Byo-yomi after main time: it is a free cushion for every move.
            ideal += byo * 0.8;
        }
        let soft = ideal * 0.6;
        // The hard limit may stretch well past the ideal for unstable
        // positions, but never eats more than a share of the clock.
        let cap = if byo > 0.0 {
            remaining * 0.5 + byo - overhead_ms
        } else if tc.moves_to_go == Some(1) {
            remaining - overhead_ms * 2.0
        } else {
            // Keep a few increments in hand: the hard limit only reaches
            // into the clock beyond them.
            (remaining - overhead_ms - 3.0 * inc).max(0.0) * 0.2 + inc_share
        };
        let hard = (ideal * 4.0).min(cap);
        // Never plan past what the clock lets this move use.
        let absolute = clock.usable().as_millis() as f64 - overhead_ms;
        let hard = hard.min(absolute);
        Self::ms(soft.min(hard), hard)
    }

    fn ms(soft: f64, hard: f64) -> Self {
        let hard = Duration::from_micros((hard.max(1.0) * 1000.0) as u64).max(FLOOR);
        let soft = Duration::from_micros((soft.max(0.5) * 1000.0) as u64).min(hard);
        TimeManager { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for remaining in [0u64, 5, 50, 300, 1000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 2000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let tc = TimeControl {
                        remaining: ms(remaining),
                        increment: ms(inc),
                        moves_to_go: mtg,
                        ..Default::default()
                    };
                    let tm = TimeManager::new(&tc, ms(10), 30);
                    assert!(tm.soft <= tm.hard);
                    if remaining > 20 {
                        assert!(
                            tm.hard < ms(remaining),
                            "{remaining}+{inc} mtg {mtg:?}: hard {:?}",
                            tm.hard
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn one_plus_hundredth_leaves_room_for_the_game() {
        // 1 s + 0.01 s with 10 ms of move overhead configured and 5 ms of
        // real latency: a 150-move game must fit even if every move runs
        // to its hard limit.
        let mut remaining = 1000.0f64;
        for ply in 0..150 {
            let tc = TimeControl {
                remaining: Duration::from_micros((remaining * 1000.0) as u64),
                increment: ms(10),
                ..Default::default()
            };
            let tm = TimeManager::new(&tc, ms(10), ply * 2);
            // Worst case: every move runs to the hard limit, plus overhead.
            remaining -= tm.hard.as_secs_f64() * 1000.0 + 5.0;
            remaining += 10.0;
            assert!(remaining > 0.0, "flagged at move {ply}");
        }
    }

    #[test]
    fn a_low_clock_with_increment_grows_back() {
        // 10 s + 0.1 s, down to 250 ms: moves that run halfway between the
        // soft and hard limits, plus 10 ms of latency, rebuild a reserve.
        let mut remaining = 250.0f64;
        for ply in 0..40 {
            let tc = TimeControl {
                remaining: Duration::from_micros((remaining * 1000.0) as u64),
                increment: ms(100),
                ..Default::default()
            };
            let tm = TimeManager::new(&tc, ms(10), 120 + ply);
            let used = (tm.soft + tm.hard).as_secs_f64() * 500.0 + 10.0;
            remaining += 100.0 - used;
            assert!(remaining > 0.0);
        }
        assert!(remaining > 450.0, "only {remaining} ms after 40 moves");
    }

    #[test]
    fn japanese_byoyomi_uses_the_period() {
        let tc = TimeControl {
            byoyomi: ms(10_000),
            ..Default::default()
        };
        let tm = TimeManager::new(&tc, ms(100), 50);
        assert!(tm.hard <= ms(9_900));
        assert!(tm.soft >= ms(8_000));
    }

    #[test]
    fn canadian_splits_the_period() {
        let tc = TimeControl {
            byoyomi: ms(60_000),
            byoyomi_moves: 10,
            ..Default::default()
        };
        let tm = TimeManager::new(&tc, ms(100), 50);
        assert!(tm.hard <= ms(6_000));
    }

    #[test]
    fn an_increment_credited_first_is_spent_on_this_move() {
        // USI `go btime 0 wtime 0 binc 5000 winc 5000` (issue 18,
        // deviation 3): this move may use the increment, so think for
        // seconds, not for the 1 ms floor.
        let tc = TimeControl {
            increment: ms(5_000),
            credit: Credit::BeforeMove,
            moves_to_go: SHOGI.horizon(ms(5_000)),
            ..Default::default()
        };
        let tm = TimeManager::new(&tc, SHOGI.overhead, 0);
        assert!(tm.soft >= ms(1_500), "{tm:?}");
        assert!(tm.hard <= ms(5_000) - SHOGI.overhead, "{tm:?}");
        // A clock that keeps refilling by the increment never runs dry.
        let mut left = 0u64;
        for ply in 0..200 {
            let tc = TimeControl {
                remaining: ms(left),
                ..tc.clone()
            };
            let used = TimeManager::new(&tc, SHOGI.overhead, ply).hard.as_millis() as u64 + 10;
            left = (left + 5_000).checked_sub(used).expect("flagged");
        }
        // UCI credits the increment after the move: `wtime 0` has nothing
        // left for this move, so it moves at once (the checklist's "clamp,
        // still move").
        let tc = TimeControl {
            credit: Credit::AfterMove,
            ..tc
        };
        assert_eq!(TimeManager::new(&tc, ms(10), 0).hard, FLOOR);
    }

    #[test]
    fn a_clock_in_the_model_plans_as_its_time_control() {
        // Canadian overtime reached: 42 s for 3 stones.
        let mut clock = Clock::new(Control {
            overtime: Overtime::Canadian {
                period: ms(60_000),
                stones: 5,
            },
            ..Control::sudden_death(ms(600_000))
        });
        clock.set_reported(ms(42_000), 3);
        let tc = clock.time_control();
        assert_eq!(
            (tc.remaining, tc.byoyomi, tc.byoyomi_moves),
            (Duration::ZERO, ms(42_000), 3)
        );
        assert_eq!(tc.clock().usable(), ms(42_000));
        let tm = TimeManager::new(&tc, GO.overhead, 100);
        assert!(tm.hard <= ms(14_000) && tm.hard >= ms(5_000), "{tm:?}");
    }

    #[test]
    fn game_table_horizons() {
        assert_eq!(XIANGQI.horizon(ms(100)), Some(12));
        assert_eq!(SHOGI.horizon(ms(100)), Some(16));
        assert_eq!(SHOGI.horizon(Duration::ZERO), None);
        assert_eq!(CHESS.horizon(ms(100)), None);
    }

    #[test]
    fn fixed_subtracts_overhead() {
        let tm = TimeManager::fixed(ms(1000), ms(30));
        assert_eq!(tm.hard, ms(970));
        assert_eq!(TimeManager::fixed(ms(5), ms(30)).hard, ms(1));
    }
}
