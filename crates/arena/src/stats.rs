//! Match statistics: W/D/L, score, Elo with a 95% interval, LOS,
//! pentanomial counts over game pairs, and the SPRT.
//!
//! The formulas follow what cutechess-cli prints (trinomial Elo and its
//! error margin, LOS, the BayesElo SPRT) and what fishtest computes for
//! game pairs (the logistic-Elo GSPRT over the pentanomial), so numbers
//! from this tool can be set beside theirs.

/// Win/draw/loss counts from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0..=1; 0.5 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => f64::from(self.draws) / f64::from(n),
        }
    }

    /// Elo difference and the half width of its 95% interval, computed
    /// as cutechess-cli does: the per-game score's standard error mapped
    /// through the logistic curve. Infinite when one side scored 0 or 1.
    pub fn elo(&self) -> EloEstimate {
        let n = f64::from(self.games());
        let s = self.score();
        if n == 0.0 {
            return EloEstimate {
                elo: 0.0,
                lower: f64::NEG_INFINITY,
                upper: f64::INFINITY,
            };
        }
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let se = (var / n).sqrt();
        EloEstimate {
            elo: elo_from_score(s),
            lower: elo_from_score(s - Z975 * se),
            upper: elo_from_score(s + Z975 * se),
        }
    }

    /// Likelihood of superiority: the probability that the first engine
    /// is the stronger, from wins and losses alone (draws carry no
    /// information about which side is better).
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// The 97.5% quantile of the standard normal distribution.
pub const Z975: f64 = 1.959_963_984_540_054;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// The "+/-" figure cutechess prints: half the interval's width.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Logistic Elo difference for an expected score.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by the Abramowitz–Stegun 7.1.26 rational
/// approximation (absolute error below 1.5e-7, plenty for percentages).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Counts of game-pair scores 0, ½, 1, 1½, 2 (for the first engine), over
/// pairs played from the same opening with colours swapped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a finished pair; `half_points` is the pair's score doubled
    /// (0..=4).
    pub fn add(&mut self, half_points: usize) {
        if let Some(slot) = self.0.get_mut(half_points) {
            *slot += 1;
        }
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Mean and variance of the per-game score of a pair (pair score / 2).
    /// Empty cells are regularised as fishtest does, so a short run with
    /// no losing pair still has a finite variance.
    fn mean_var(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let eps = 1e-3;
        let counts: Vec<f64> = self
            .0
            .iter()
            .map(|&c| if c == 0 { eps } else { f64::from(c) })
            .collect();
        let total: f64 = counts.iter().sum();
        let mean: f64 = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c / total * i as f64 / 4.0)
            .sum();
        let var: f64 = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c / total * (i as f64 / 4.0 - mean).powi(2))
            .sum();
        Some((n, mean, var))
    }

    /// Elo and 95% interval from pair statistics (the pair, not the
    /// game, is the independent sample).
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, var) = self.mean_var()?;
        let se = (var / n).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - Z975 * se),
            upper: elo_from_score(mean + Z975 * se),
        })
    }

    /// fishtest's logistic-Elo GSPRT log-likelihood ratio over pairs.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((n, mean, var)) = self.mean_var() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// Which likelihood the test uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// cutechess-cli: W/D/L under BayesElo (undecided until there is at
    /// least one win, draw and loss).
    Trinomial,
    /// fishtest: game pairs under logistic Elo.
    Pentanomial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// H0 (elo <= elo0) accepted.
    H0,
    /// H1 (elo >= elo1) accepted.
    H1,
}

impl Sprt {
    /// Lower and upper LLR bounds (±2.94 for alpha = beta = 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// cutechess-cli's LLR: W/D/L under the BayesElo model, with the
    /// draw Elo estimated from the games and elo0/elo1 converted from
    /// logistic Elo by the draw-dependent scale. Zero until there is at
    /// least one win, draw and loss (the model is undefined before).
    pub fn llr_trinomial(&self, r: &Wdl) -> f64 {
        if r.wins == 0 || r.draws == 0 || r.losses == 0 {
            return 0.0;
        }
        let n = f64::from(r.games());
        let (pw, pl) = (f64::from(r.wins) / n, f64::from(r.losses) / n);
        let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
        let x = 10f64.powf(-draw_elo / 400.0);
        let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
        let probs = |bayes_elo: f64| {
            let w = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
            let l = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
            (w, 1.0 - w - l, l)
        };
        let (w0, d0, l0) = probs(self.elo0 / scale);
        let (w1, d1, l1) = probs(self.elo1 / scale);
        f64::from(r.wins) * (w1 / w0).ln()
            + f64::from(r.draws) * (d1 / d0).ln()
            + f64::from(r.losses) * (l1 / l0).ln()
    }

    /// The LLR under the configured model.
    pub fn llr(&self, wdl: &Wdl, penta: &Pentanomial) -> f64 {
        match self.model {
            SprtModel::Trinomial => self.llr_trinomial(wdl),
            SprtModel::Pentanomial => penta.llr(self.elo0, self.elo1),
        }
    }

    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, losses: u32, draws: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    // Published cutechess-cli outputs (the Rustic engine's SPRT log):
    // "Score of … 869 - 646 - 357 [0.560] 1872 / Elo difference: 41.6 +/- 14.2,
    // LOS: 100.0 %, DrawRatio: 19.1 %", and three more.
    const PUBLISHED: [(u32, u32, u32, f64, f64, f64); 4] = [
        (869, 646, 357, 0.560, 41.6, 14.2),
        (409, 197, 133, 0.643, 102.5, 23.5),
        (628, 416, 277, 0.580, 56.2, 16.8),
        (591, 388, 318, 0.578, 54.8, 16.6),
    ];

    #[test]
    fn elo_and_margin_match_cutechess() {
        for (w, l, d, score, elo, margin) in PUBLISHED {
            let r = wdl(w, l, d);
            assert!((r.score() - score).abs() < 0.0005, "{r:?}");
            let e = r.elo();
            assert!((e.elo - elo).abs() < 0.05, "{r:?}: {e:?}");
            assert!((e.margin() - margin).abs() < 0.05, "{r:?}: {e:?}");
            assert!(r.los() > 0.9995);
        }
        assert!((wdl(869, 646, 357).draw_ratio() - 0.191).abs() < 0.0005);
    }

    #[test]
    fn elo_textbook_values() {
        // 75% is +190.8 Elo, 50% is 0, 64% is +100 (the classic table).
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.001);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.64) - 99.95).abs() < 0.05);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn los_values() {
        assert!((wdl(10, 10, 5).los() - 0.5).abs() < 1e-8);
        // W=L+2·sqrt(W+L)/sqrt(2)... one normal sd: erf(1/sqrt 2) → 84.13%.
        // W - L = 10, W + L = 50: z = 10/sqrt(50) = 1.414 → LOS = Φ(1.414).
        let los = wdl(30, 20, 0).los();
        assert!((los - 0.921_35).abs() < 1e-4, "{los}");
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
    }

    #[test]
    fn sprt_bounds_and_cutechess_llr() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Trinomial,
        };
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944).abs() < 0.001 && (hi - 2.944).abs() < 0.001);
        assert_eq!(sprt.llr_trinomial(&wdl(5, 0, 3)), 0.0);
        // Published cutechess-cli runs with `-sprt elo0=0 elo1=5 alpha=0.05
        // beta=0.05`: "SPRT: llr -2.98 (-101.1%)", "-2.96 (-100.4%)",
        // "-2.95 (-100.3%)"; the percentage is llr / ubound.
        for (w, l, d, pct, elo, margin) in [
            (2017, 1992, 8602, -101.1, 0.7, 3.4),
            (1946, 1936, 7363, -100.4, 0.3, 3.8),
            (2637, 2644, 6515, -100.3, -0.2, 4.2),
        ] {
            let r = wdl(w, l, d);
            let llr = sprt.llr_trinomial(&r);
            assert!((llr / hi * 100.0 - pct).abs() < 0.05, "{r:?}: {llr}");
            assert_eq!(sprt.verdict(llr), SprtVerdict::H0);
            let e = r.elo();
            assert!(
                (e.elo - elo).abs() < 0.05 && (e.margin() - margin).abs() < 0.05,
                "{e:?}"
            );
        }
        assert_eq!(sprt.verdict(0.0), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(3.0), SprtVerdict::H1);
    }

    #[test]
    fn pentanomial_llr_signs() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Trinomial,
        };
        let mut p = Pentanomial::default();
        for (k, n) in [(0usize, 100u32), (1, 400), (2, 1000), (3, 400), (4, 100)] {
            for _ in 0..n {
                p.add(k);
            }
        }
        // Even result: score 0.5 sits halfway below the midpoint → LLR < 0.
        let llr = p.llr(sprt.elo0, sprt.elo1);
        let s1 = score_from_elo(5.0);
        let var = (100.0 * 0.25 + 400.0 * 0.0625 + 400.0 * 0.0625 + 100.0 * 0.25) / 2000.0;
        let expected = 2000.0 * (s1 - 0.5) * (1.0 - 0.5 - s1) / (2.0 * var);
        assert!((llr - expected).abs() < 0.01, "{llr} vs {expected}");
        assert_eq!(p.pairs(), 2000);
        assert!(p.elo().is_some_and(|e| e.elo.abs() < 1e-9));
    }
}
