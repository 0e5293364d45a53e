//! Search scores: centipawn-like values and mate distances in one `i32`.
//!
//! A mate score is `MATE - ply` for the side that mates, measured in plies
//! from the root; everything within `MAX_PLY` of `MATE` is a mate score.

/// Deepest ply the searchers ever reach; bounds the mate band.
pub const MAX_PLY: i32 = 246;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    pub const MATE: i32 = 32_000;
    pub const INFINITE: i32 = 32_001;
    /// Scores at or beyond this magnitude mean a forced mate.
    pub const MATE_BOUND: i32 = Self::MATE - MAX_PLY;

    /// The side to move mates in `ply` plies.
    pub const fn mate_in(ply: i32) -> Score {
        Score(Self::MATE - ply)
    }

    /// The side to move is mated in `ply` plies.
    pub const fn mated_in(ply: i32) -> Score {
        Score(-Self::MATE + ply)
    }

    pub const fn is_mate(self) -> bool {
        self.0 >= Self::MATE_BOUND || self.0 <= -Self::MATE_BOUND
    }

    /// Plies to mate, positive when the side to move mates, `None` otherwise.
    pub fn mate_plies(self) -> Option<i32> {
        if self.0 >= Self::MATE_BOUND {
            Some(Self::MATE - self.0)
        } else if self.0 <= -Self::MATE_BOUND {
            Some(-(Self::MATE + self.0))
        } else {
            None
        }
    }

    /// Full moves to mate the way UCI counts them (mate in 1 = one move of
    /// ours); negative when we are mated.
    pub fn mate_moves(self) -> Option<i32> {
        self.mate_plies()
            .map(|p| if p > 0 { (p + 1) / 2 } else { p / 2 })
    }

    /// Converts a score relative to the root into one relative to the
    /// current node, for storage in the transposition table.
    pub const fn to_tt(self, ply: i32) -> i32 {
        if self.0 >= Self::MATE_BOUND {
            self.0 + ply
        } else if self.0 <= -Self::MATE_BOUND {
            self.0 - ply
        } else {
            self.0
        }
    }

    /// Inverse of [`Score::to_tt`].
    pub const fn from_tt(v: i32, ply: i32) -> Score {
        if v >= Self::MATE_BOUND {
            Score(v - ply)
        } else if v <= -Self::MATE_BOUND {
            Score(v + ply)
        } else {
            Score(v)
        }
    }
}

/// Win/draw/loss per mille from a centipawn score, with a logistic model
/// whose scale suits chess-like games (100 cp ~ 0.6 expected score).
pub fn wdl(score: Score, ply: u32) -> (u32, u32, u32) {
    if let Some(p) = score.mate_plies() {
        return if p > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    // Draw band narrows as the game goes on: a flat term plus a decay.
    let cp = score.0 as f64;
    let shift = 200.0 - (ply.min(240) as f64) * 0.4;
    let scale = 110.0;
    let win = 1.0 / (1.0 + (-(cp - shift) / scale).exp());
    let loss = 1.0 / (1.0 + (-(-cp - shift) / scale).exp());
    let w = (win * 1000.0).round() as u32;
    let l = (loss * 1000.0).round() as u32;
    let w = w.min(1000);
    let l = l.min(1000 - w);
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_moves_count_like_uci() {
        assert_eq!(Score::mate_in(1).mate_moves(), Some(1));
        assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
        assert_eq!(Score::mated_in(0).mate_moves(), Some(0));
        assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
        assert_eq!(Score::mated_in(4).mate_moves(), Some(-2));
        assert_eq!(Score(150).mate_moves(), None);
    }

    #[test]
    fn tt_round_trip_keeps_mate_distance() {
        let s = Score::mate_in(7);
        let stored = s.to_tt(3);
        assert_eq!(Score::from_tt(stored, 3), s);
        // Read back two plies nearer the root, the mate is two plies longer.
        assert_eq!(Score::from_tt(stored, 1), Score::mate_in(5));
        let m = Score::mated_in(6);
        assert_eq!(Score::from_tt(m.to_tt(2), 2), m);
    }

    #[test]
    fn wdl_sums_to_1000_and_is_monotone() {
        let mut last = 0;
        for cp in (-2000..=2000).step_by(50) {
            let (w, d, l) = wdl(Score(cp), 20);
            assert_eq!(w + d + l, 1000);
            assert!(w >= last);
            last = w;
        }
    }
}
