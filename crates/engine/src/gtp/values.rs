//! GNU Go's move-valuation commands, answered from tengen's own search:
//! `all_move_values`, `move_probabilities`, `move_uncertainty` and
//! `experimental_score color`, in GNU Go 3.8's output format.
//!
//! GNU Go answers the first three from the move values of its last
//! genmove (its docs: "if no previous genmove command has been issued,
//! the result of this command will be meaningless"); tengen answers them
//! from its last move search for a move (`genmove` and the other
//! genmove-like commands, `top_moves`, `experimental_score`), kept until
//! the game is set up afresh, and when there is none from a search of
//! the side to move at the level's budget (as `top_moves` does). The
//! numbers are the search's, not GNU Go's valuation:
//!
//! - `all_move_values`: every point the search visited, with its win rate
//!   for the side that searched, in percent (`C7  74.01`: GNU Go's `%1M
//!   %f`, the row padded to two characters, two decimals), in GNU Go's
//!   board order (rows from the top);
//! - `move_probabilities`: each visited point's share of the visits to
//!   points (pass is never listed, as in GNU Go), `C4 1.0000`, same order;
//! - `move_uncertainty`: the Shannon entropy of those shares in bits,
//!   `0.0000`;
//! - `experimental_score color`: a search for `color` (not played), then
//!   its mean final margin, White's lead positive as GNU Go prints it
//!   (`%3.1f`); `invalid color` otherwise.
//!
//! None of them changes the game.

use super::tactics::gnugo_order;
use super::{Fail, Session};
use tengen_go::board::{vertex_name, Color, Move, Point};
use tengen_go::mcts::{Analysis, Limits, RootFilter};

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &[
    "all_move_values",
    "move_probabilities",
    "move_uncertainty",
    "experimental_score",
];

/// The points a search visited, with their visits and win rates.
fn visited(a: &Analysis) -> Vec<(Point, u32, f64)> {
    a.candidates
        .iter()
        .filter(|k| k.visits > 0)
        .filter_map(|k| match k.mv {
            Move::Play(p) => Some((p, k.visits, k.winrate)),
            Move::Pass => None,
        })
        .collect()
}

/// Each visited point's share of the visits, in GNU Go's board order.
pub(super) fn probabilities(a: &Analysis) -> Vec<(Point, f64)> {
    let v = visited(a);
    let total: u64 = v.iter().map(|&(_, n, _)| n as u64).sum();
    if total == 0 {
        return Vec::new();
    }
    let order = gnugo_order(v.iter().map(|&(p, _, _)| p).collect());
    order
        .into_iter()
        .filter_map(|p| {
            v.iter()
                .find(|&&(q, _, _)| q == p)
                .map(|&(_, n, _)| (p, n as f64 / total as f64))
        })
        .collect()
}

/// GNU Go's `%1M`: the column letter and the row padded to two places.
fn padded(p: Point) -> String {
    format!("{:<3}", vertex_name(p))
}

impl Session {
    /// Answers one of [`COMMANDS`]; `None` for any other command.
    pub(super) fn values_command(
        &mut self,
        name: &str,
        a: &[String],
    ) -> Option<Result<String, Fail>> {
        Some(match name {
            "all_move_values" => {
                let a = self.move_values();
                let v = visited(&a);
                let order = gnugo_order(v.iter().map(|&(p, _, _)| p).collect());
                Ok(order
                    .into_iter()
                    .filter_map(|p| v.iter().find(|&&(q, _, _)| q == p))
                    .filter(|&&(_, _, w)| w > 0.0)
                    .map(|&(p, _, w)| format!("{} {:.2}", padded(p), w * 100.0))
                    .collect::<Vec<_>>()
                    .join("\n"))
            }
            "move_probabilities" => {
                let a = self.move_values();
                Ok(probabilities(&a)
                    .into_iter()
                    .map(|(p, q)| format!("{} {q:.4}", vertex_name(p)))
                    .collect::<Vec<_>>()
                    .join("\n"))
            }
            "move_uncertainty" => {
                let a = self.move_values();
                // A fold from +0.0: an empty sum of floats is -0.0.
                let bits = probabilities(&a)
                    .into_iter()
                    .filter(|&(_, q)| q > 0.0)
                    .fold(0.0, |acc, (_, q)| acc - q * q.log2());
                Ok(format!("{bits:.4}"))
            }
            "experimental_score" => match a.first().and_then(|c| Color::parse(c)) {
                Some(c) => {
                    let a = self.value_search(c);
                    // `score_mean` is Black's margin; GNU Go prints White's.
                    let score = -a.score_mean;
                    self.last_values = Some(a);
                    Ok(format!("{score:.1}"))
                }
                None => Err("invalid color".into()),
            },
            _ => return None,
        })
    }

    /// The last move search's analysis, or a new search of the side to
    /// move (kept for the next question).
    fn move_values(&mut self) -> Analysis {
        if let Some(a) = &self.last_values {
            return a.clone();
        }
        let a = self.value_search(self.game.to_move());
        self.last_values = Some(a.clone());
        a
    }

    /// A search for `c` at the level's budget (as `top_moves`), not played.
    pub(super) fn value_search(&mut self, c: Color) -> Analysis {
        let limits = Limits {
            playouts: Some(1000 * self.level as u64),
            time: None,
            threads: self.threads,
            extra_komi: 0.0,
        };
        self.search_job(c, limits, RootFilter::default(), super::Watch::Move, |_| {})
    }
}
