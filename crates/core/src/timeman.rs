//! One clock model for every protocol, and one manager that turns it into
//! a soft limit (do not start another iteration past it) and a hard limit
//! (abort the search at it).
//!
//! Protocols differ in units and in whose clock a field names; front-ends
//! translate into [`TimeControl`] for the side to move and the manager
//! never sees protocol details.

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
}

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
        let overhead_ms = overhead.as_millis() as f64;
        let remaining = tc.remaining.as_millis() as f64;
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
        // Never plan past what is actually on the clock.
        let absolute = remaining + if byo > 0.0 { byo } else { 0.0 } - overhead_ms;
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
    fn fixed_subtracts_overhead() {
        let tm = TimeManager::fixed(ms(1000), ms(30));
        assert_eq!(tm.hard, ms(970));
        assert_eq!(TimeManager::fixed(ms(5), ms(30)).hard, ms(1));
    }
}
