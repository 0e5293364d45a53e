//! Move ordering: hands out moves best-first without sorting them all.
//!
//! Order: the hash move, captures that do not lose material (most valuable
//! victim first, capture history breaking ties), killers, the counter
//! move, quiet moves by history, and last the captures that lose material.

use crate::history::History;
use crate::position::Position;

/// Which band a move came from (used by pruning and reductions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    HashMove,
    GoodTactical,
    Refutation,
    Quiet,
    BadTactical,
}

const HASH: i32 = i32::MAX;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
const BAD_TACTICAL: i32 = -(1 << 28);

/// The picker owns its node's move list and score buffer while the node
/// is searched; the searcher lends it both from per-ply storage and takes
/// them back with [`MovePicker::into_buffers`], so no node allocates.
pub struct MovePicker<M> {
    moves: Vec<M>,
    /// `scores[i]` orders `moves[i]`; kept apart so that finding the best
    /// score is a scan over plain integers, which the compiler vectorises
    /// (a shogi node can have a hundred or more moves).
    scores: Vec<i32>,
    next: usize,
    skip_quiets: bool,
    killers: [Option<M>; 2],
    counter: Option<M>,
    /// Whether a capture in the good band still has its exchange to pass
    /// (main search: it is tested when it comes up, not when scored).
    test_exchanges: bool,
}

impl<M: Copy + Eq> MovePicker<M> {
    #[allow(clippy::too_many_arguments)]
    pub fn new<P: Position<Move = M>>(
        pos: &P,
        list: Vec<M>,
        mut scores: Vec<i32>,
        tt_move: Option<M>,
        history: &History<P>,
        ply: usize,
        counter: Option<M>,
        prev1: Option<usize>,
        prev2: Option<usize>,
        qsearch: bool,
    ) -> Self {
        let killers = history.killers.get(ply).copied().unwrap_or([None; 2]);
        scores.clear();
        scores.extend(list.iter().map(|&m| {
            if Some(m) == tt_move {
                HASH
            } else if pos.is_tactical(m) {
                // Every capture starts in the good band; in the main search
                // one whose exchange loses drops to the bad band when it
                // comes up (`next`), so a node cut off early never pays
                // for the exchanges of the captures it did not reach.
                GOOD_TACTICAL
                    + pos.tactical_value(m) * 16
                    + history.captures[pos.history_index(m)] as i32 / 32
            } else if killers[0] == Some(m) {
                KILLER + 2
            } else if killers[1] == Some(m) {
                KILLER + 1
            } else if counter == Some(m) {
                KILLER
            } else {
                history.quiet_score(pos.history_index(m), prev1, prev2)
            }
        }));
        MovePicker {
            moves: list,
            scores,
            next: 0,
            skip_quiets: false,
            killers,
            counter,
            test_exchanges: !qsearch,
        }
    }

    /// Hands out `list` in the given order (root moves, sorted by the last
    /// iteration's scores).
    pub fn in_order(list: Vec<M>, mut scores: Vec<i32>) -> Self {
        let n = list.len() as i32;
        scores.clear();
        scores.extend((0..n).map(|i| GOOD_TACTICAL + n - i));
        MovePicker {
            moves: list,
            scores,
            next: 0,
            skip_quiets: false,
            killers: [None; 2],
            counter: None,
            test_exchanges: false,
        }
    }

    /// Gives back the move list and the score buffer, so that the next
    /// node at this ply fills them again instead of allocating its own.
    pub fn into_buffers(self) -> (Vec<M>, Vec<i32>) {
        (self.moves, self.scores)
    }

    /// The remaining quiet moves are not worth searching.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// A killer or the counter move: a move that refuted a sibling.
    pub fn is_refutation(&self, m: M) -> bool {
        self.killers[0] == Some(m) || self.killers[1] == Some(m) || self.counter == Some(m)
    }

    pub fn next<P: Position<Move = M>>(
        &mut self,
        pos: &P,
        _history: &History<P>,
    ) -> Option<(M, Stage)> {
        loop {
            // The first of the best-scored moves left: the maximum first,
            // then where it is (two passes, each simple enough to vectorise).
            // (`iter().max()` compares references and stays scalar; a fold
            // over the values is what vectorises.)
            let rest = self.scores.get(self.next..).filter(|r| !r.is_empty())?;
            let score = rest.iter().copied().fold(i32::MIN, i32::max);
            let best = self.next + rest.iter().position(|&s| s == score)?;
            if self.test_exchanges && (GOOD_TACTICAL..HASH).contains(&score) {
                let m = *self.moves.get(best)?;
                if !pos.see_ge(m, 0) {
                    // Left where it is, so the moves keep the places (and
                    // equal scores the order) that scoring every exchange
                    // up front gave them: the same moves in the same order.
                    self.scores[best] = score - GOOD_TACTICAL + BAD_TACTICAL;
                    continue;
                }
            }
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let m = self.moves[self.next];
            self.next += 1;
            let stage = match score {
                HASH => Stage::HashMove,
                s if s >= GOOD_TACTICAL => Stage::GoodTactical,
                s if s >= KILLER => Stage::Refutation,
                s if s > BAD_TACTICAL / 2 => Stage::Quiet,
                _ => Stage::BadTactical,
            };
            if self.skip_quiets && matches!(stage, Stage::Quiet | Stage::Refutation) {
                continue;
            }
            return Some((m, stage));
        }
    }
}
