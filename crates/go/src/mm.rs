//! Minorization-maximization for the generalized Bradley-Terry model of
//! move choice (Hunter 2004; Coulom 2007, "Computing Elo Ratings of Move
//! Patterns in the Game of Go"). Each candidate move is a team of
//! features, one per group at most; a team's strength is the product of
//! its members' gammas; in each position the played move's team won
//! against all the others.
//!
//! One group is updated at a time: its features never meet in one team,
//! so the update `gamma_k = W_k / sum_j C_kj / E_j` (W_k the wins of k,
//! E_j the strength of all of position j's teams, C_kj the strength of
//! k's teammates in j) raises the likelihood. A prior of one win and one
//! loss against a virtual team of strength 1 keeps rare features near 1.

/// A feature id absent from a team's slot.
pub const ABSENT: u32 = u32::MAX;

/// Training positions: teams of `groups` slots each (`ABSENT` or a
/// feature id whose group is the slot), and per position its teams and
/// the winner.
#[derive(Clone, Debug, Default)]
pub struct Data {
    pub groups: usize,
    pub features: usize,
    /// `groups` slots per team.
    pub teams: Vec<u32>,
    /// Per position: first team, one past the last, the winner's index
    /// (absolute, among `teams`).
    pub positions: Vec<(u32, u32, u32)>,
}

impl Data {
    pub fn new(groups: usize, features: usize) -> Data {
        Data {
            groups,
            features,
            ..Data::default()
        }
    }

    /// Adds a position: its teams (each `groups` long) and which won.
    pub fn push(&mut self, teams: &[Vec<u32>], winner: usize) {
        let start = self.teams.len() / self.groups;
        for t in teams {
            debug_assert_eq!(t.len(), self.groups);
            self.teams.extend_from_slice(t);
        }
        let end = self.teams.len() / self.groups;
        self.positions
            .push((start as u32, end as u32, (start + winner) as u32));
    }

    fn team(&self, i: usize) -> &[u32] {
        &self.teams[i * self.groups..(i + 1) * self.groups]
    }

    /// A team's strength under `gammas`.
    pub fn strength(&self, gammas: &[f64], i: usize) -> f64 {
        self.team(i)
            .iter()
            .filter(|&&k| k != ABSENT)
            .map(|&k| gammas[k as usize])
            .product()
    }

    /// Mean log-likelihood of the played moves, per position.
    pub fn log_likelihood(&self, gammas: &[f64]) -> f64 {
        log_likelihood(&self.positions, &self.scores(gammas))
    }

    /// Every team's strength under `gammas`.
    fn scores(&self, gammas: &[f64]) -> Vec<f64> {
        (0..self.teams.len() / self.groups.max(1))
            .map(|i| self.strength(gammas, i))
            .collect()
    }

    /// How often the played move is among the `k` strongest, per `k` in
    /// `ks` (ties shared: a winner tied with `t` others counts the chance
    /// that a random order of the tie puts it within `k`).
    pub fn top_rates(&self, gammas: &[f64], ks: &[usize]) -> Vec<f64> {
        top_rates(&self.positions, &self.scores(gammas), ks)
    }
}

/// Mean log-likelihood of the winners given any positive score per team
/// (another table's strengths too), as in `Data::log_likelihood`.
pub fn log_likelihood(positions: &[(u32, u32, u32)], scores: &[f64]) -> f64 {
    let mut ll = 0.0;
    for &(s, e, w) in positions {
        let total: f64 = scores[s as usize..e as usize].iter().sum();
        ll += (scores[w as usize] / total).ln();
    }
    ll / positions.len().max(1) as f64
}

/// The top-k rates of the winners given any score per team (the hand
/// priors' too), ties shared as in `Data::top_rates`.
pub fn top_rates(positions: &[(u32, u32, u32)], scores: &[f64], ks: &[usize]) -> Vec<f64> {
    let mut hits = vec![0.0; ks.len()];
    for &(s, e, w) in positions {
        let sw = scores[w as usize];
        let mut better = 0usize;
        let mut tied = 0usize;
        for i in s..e {
            if i == w {
                continue;
            }
            let x = scores[i as usize];
            if x > sw {
                better += 1;
            } else if x == sw {
                tied += 1;
            }
        }
        for (h, &k) in hits.iter_mut().zip(ks) {
            if k > better {
                *h += ((k - better) as f64 / (tied + 1) as f64).min(1.0);
            }
        }
    }
    let n = positions.len().max(1) as f64;
    hits.into_iter().map(|h| h / n).collect()
}

/// Fits the gammas: `iters` sweeps over the groups, starting from 1.
/// `progress` gets each sweep's number and mean log-likelihood.
pub fn fit(data: &Data, iters: usize, progress: &mut dyn FnMut(usize, f64)) -> Vec<f64> {
    let mut gammas = vec![1.0f64; data.features];
    let teams = data.teams.len() / data.groups.max(1);
    // Wins per feature.
    let mut wins = vec![0.0f64; data.features];
    for &(_, _, w) in &data.positions {
        for &k in data.team(w as usize) {
            if k != ABSENT {
                wins[k as usize] += 1.0;
            }
        }
    }
    // Each feature's group (the slot it sits in), and each group's features.
    let mut by_group: Vec<Vec<usize>> = vec![Vec::new(); data.groups];
    let mut placed = vec![false; data.features];
    for i in 0..teams {
        for (g, &k) in data.team(i).iter().enumerate() {
            if k != ABSENT && !placed[k as usize] {
                placed[k as usize] = true;
                by_group[g].push(k as usize);
            }
        }
    }
    let mut strength: Vec<f64> = (0..teams).map(|i| data.strength(&gammas, i)).collect();
    let mut c = vec![0.0f64; data.features];
    let mut ratio = vec![1.0f64; data.features];
    for it in 0..iters {
        for (g, members) in by_group.iter().enumerate() {
            if members.is_empty() {
                continue;
            }
            for &k in members {
                c[k] = 0.0;
            }
            for &(s, e, _) in &data.positions {
                let (s, e) = (s as usize, e as usize);
                let total: f64 = strength[s..e].iter().sum();
                for (j, &st) in strength[s..e].iter().enumerate() {
                    let k = data.teams[(s + j) * data.groups + g];
                    if k != ABSENT {
                        c[k as usize] += st / gammas[k as usize] / total;
                    }
                }
            }
            // This group's new gammas, then the teams' strengths.
            for &k in members {
                let old = gammas[k];
                let new = (wins[k] + 1.0) / (c[k] + 2.0 / (old + 1.0));
                gammas[k] = new;
                ratio[k] = new / old;
            }
            for (i, st) in strength.iter_mut().enumerate() {
                let k = data.teams[i * data.groups + g];
                if k != ABSENT {
                    *st *= ratio[k as usize];
                }
            }
        }
        progress(it, data.log_likelihood(&gammas));
    }
    gammas
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::Rng;

    /// Positions of 12 candidates with random features from two groups
    /// (four values each, or absent), the winner drawn from the
    /// Bradley-Terry model with known gammas: the fit must find their
    /// order and roughly their size.
    #[test]
    fn recovers_known_strengths() {
        let truth = [1.0, 3.0, 0.3, 8.0, /* group 2 */ 0.5, 1.0, 4.0, 2.0];
        let mut rng = Rng::new(11);
        let mut data = Data::new(2, truth.len());
        for _ in 0..3000 {
            let teams: Vec<Vec<u32>> = (0..12)
                .map(|_| {
                    let a = rng.below(5);
                    let b = rng.below(5);
                    vec![
                        if a == 4 { ABSENT } else { a as u32 },
                        if b == 4 { ABSENT } else { 4 + b as u32 },
                    ]
                })
                .collect();
            let st: Vec<f64> = teams
                .iter()
                .map(|t| {
                    t.iter()
                        .filter(|&&k| k != ABSENT)
                        .map(|&k| truth[k as usize])
                        .product()
                })
                .collect();
            let total: f64 = st.iter().sum();
            let mut x = rng.unit() * total;
            let mut winner = st.len() - 1;
            for (i, &s) in st.iter().enumerate() {
                if x < s {
                    winner = i;
                    break;
                }
                x -= s;
            }
            data.push(&teams, winner);
        }
        let mut lls = Vec::new();
        let g = fit(&data, 30, &mut |_, ll| lls.push(ll));
        // The likelihood rose (MM raises the posterior with the prior of
        // one win and one loss; the likelihood alone follows it).
        assert!(lls[lls.len() - 1] > lls[0], "{lls:?}");
        // Gammas are relative to the absent value (strength 1): the
        // order within each group is the truth's, each within a factor
        // of 1.6.
        for grp in [0..4, 4..8] {
            let mut by_fit: Vec<usize> = grp.clone().collect();
            by_fit.sort_by(|&a, &b| g[a].total_cmp(&g[b]));
            let mut by_truth: Vec<usize> = grp.clone().collect();
            by_truth.sort_by(|&a, &b| truth[a].total_cmp(&truth[b]));
            assert_eq!(by_fit, by_truth, "{g:?}");
            for k in grp {
                let r = g[k] / truth[k];
                assert!(
                    (1.0 / 1.6..1.6).contains(&r),
                    "feature {k}: {} vs {}",
                    g[k],
                    truth[k]
                );
            }
        }
        let top = data.top_rates(&g, &[1, 12]);
        assert!((top[1] - 1.0).abs() < 1e-9);
        assert!(top[0] > 1.0 / 12.0, "better than chance: {}", top[0]);
    }

    #[test]
    fn top_rates_share_ties() {
        // One position of four teams; the winner (index 1) ties with one
        // other below one better team.
        let pos = [(0u32, 4u32, 1u32)];
        let r = top_rates(&pos, &[5.0, 2.0, 2.0, 1.0], &[1, 2, 3]);
        assert_eq!(r, vec![0.0, 0.5, 1.0]);
    }
}
