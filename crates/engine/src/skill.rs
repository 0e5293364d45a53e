//! Playing below full strength for `UCI_LimitStrength` / `UCI_Elo`: a node
//! budget that shrinks with the Elo asked for, and a noisy choice among
//! the best few lines. The Elo scale is approximate until it is
//! calibrated against rated engines in the arena.

use tengen_core::options::Options;
use tengen_core::report::Report;
use tengen_core::SearchLimits;

#[derive(Clone, Copy, Debug)]
pub struct Skill {
    elo: Option<u32>,
    seed: u64,
}

impl Skill {
    pub const MIN_ELO: u32 = 1320;
    pub const MAX_ELO: u32 = 3190;

    pub fn from_options(options: &Options) -> Self {
        let elo = options.bool("UCI_LimitStrength").then(|| {
            options
                .int("UCI_Elo")
                .clamp(Self::MIN_ELO as i64, Self::MAX_ELO as i64) as u32
        });
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9)
            | 1;
        Skill { elo, seed }
    }

    pub fn active(&self) -> bool {
        self.elo.is_some_and(|e| e < Self::MAX_ELO)
    }

    /// Weaker play searches fewer nodes and keeps a few lines to choose from.
    pub fn adjust(&self, limits: &mut SearchLimits) {
        let Some(elo) = self.elo.filter(|_| self.active()) else {
            return;
        };
        let budget = (400.0 * 2f64.powf((elo - Self::MIN_ELO) as f64 / 130.0)) as u64;
        limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
        limits.multipv = limits.multipv.max(4);
    }

    /// Picks among the reported lines: each line's score plus noise that
    /// grows with the distance from full strength.
    pub fn pick<M: Copy>(&self, lines: &[Report<M>], best: Option<M>) -> Option<M> {
        let Some(elo) = self.elo else {
            return best;
        };
        let weakness = (Self::MAX_ELO - elo) as f64 / 3.0;
        let mut x = self.seed;
        let mut choice = best;
        let mut top = f64::MIN;
        for line in lines {
            let Some(&m) = line.pv.first() else { continue };
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let noise = (x % 10_000) as f64 / 10_000.0 * weakness;
            let v = line.score.0 as f64 + noise;
            if v > top {
                top = v;
                choice = Some(m);
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::options::OptionKind;
    use tengen_core::{Bound, Score};

    fn opts(limit: bool, elo: i64) -> Options {
        let mut o = Options::new();
        o.add("UCI_LimitStrength", OptionKind::Check { default: limit })
            .add(
                "UCI_Elo",
                OptionKind::Spin {
                    default: elo,
                    min: 0,
                    max: 4000,
                },
            );
        o
    }

    fn line(m: u8, cp: i32) -> Report<u8> {
        Report {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score(cp),
            bound: Bound::Exact,
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![m],
        }
    }

    #[test]
    fn full_strength_changes_nothing() {
        let s = Skill::from_options(&opts(false, 1500));
        let mut l = SearchLimits::depth(9);
        s.adjust(&mut l);
        assert_eq!(l.nodes, None);
        assert_eq!(s.pick(&[line(1, 0), line(2, 900)], Some(1)), Some(1));
    }

    #[test]
    fn weak_play_limits_nodes_and_still_picks_a_reported_move() {
        let s = Skill::from_options(&opts(true, 1320));
        let mut l = SearchLimits::depth(9);
        s.adjust(&mut l);
        assert_eq!(l.nodes, Some(400));
        assert_eq!(l.multipv, 4);
        let lines = [line(1, 50), line(2, 40), line(3, -30), line(4, -2000)];
        let m = s.pick(&lines, Some(1));
        assert!(
            matches!(m, Some(1..=3)),
            "{m:?}: a blunder of 20 pawns is beyond the noise"
        );
    }
}
