//! The feature transformer's sums, kept along the search tree.
//!
//! The searcher calls its evaluator's `push` before each move and `pop`
//! after taking it back (`tengen_search::Evaluator`). A game turns each
//! move into a [`Change`] (pieces that leave and arrive, as
//! `(square, code)` pairs) and the kings' squares after it, and pushes
//! that here. Sums are computed lazily, when an evaluation needs them:
//! from the nearest ancestor whose sums are known, applying each move's
//! change on the way, as long as the perspective's view (king bucket,
//! mirroring) stayed the same; otherwise the perspective is rebuilt from
//! the board. Positions the search prunes before evaluating cost nothing.

use crate::features::{FeatureSet, View};
use crate::network::Network;
use crate::simd::{self, Level};
use std::marker::PhantomData;
use std::sync::Arc;

/// Fills a list with the current position's pieces, `(square, code)`.
pub type PieceSource<'a> = dyn FnMut(&mut Vec<(u8, u8)>) + 'a;

/// What one move changes on the board: at most two pieces leave (the
/// mover and a captured piece, or king and rook when castling) and at
/// most two arrive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    removed: [(u8, u8); 2],
    added: [(u8, u8); 2],
    n_removed: u8,
    n_added: u8,
}

impl Change {
    /// Piece `code` leaves `sq`. A third removal is ignored (no move of
    /// the supported games has one).
    #[inline]
    pub fn remove(&mut self, sq: u8, code: u8) {
        if let Some(slot) = self.removed.get_mut(self.n_removed as usize) {
            *slot = (sq, code);
            self.n_removed += 1;
        }
    }

    /// Piece `code` arrives on `sq`.
    #[inline]
    pub fn add(&mut self, sq: u8, code: u8) {
        if let Some(slot) = self.added.get_mut(self.n_added as usize) {
            *slot = (sq, code);
            self.n_added += 1;
        }
    }

    pub fn removed(&self) -> &[(u8, u8)] {
        &self.removed[..self.n_removed as usize]
    }

    pub fn added(&self) -> &[(u8, u8)] {
        &self.added[..self.n_added as usize]
    }
}

#[derive(Clone, Debug)]
struct Entry {
    sums: [Vec<i16>; 2],
    computed: [bool; 2],
    view: [View; 2],
    change: Change,
    /// Pieces on the board (for the output bucket).
    pieces: u8,
}

impl Entry {
    fn new(hidden: usize) -> Entry {
        Entry {
            sums: [vec![0; hidden], vec![0; hidden]],
            computed: [false; 2],
            view: [View::default(); 2],
            change: Change::default(),
            pieces: 0,
        }
    }
}

/// A network and the stack of sums that follows one search thread.
#[derive(Clone, Debug)]
pub struct Accumulators<F: FeatureSet> {
    net: Arc<Network>,
    level: Level,
    stack: Vec<Entry>,
    top: usize,
    /// Scratch for the inputs of a rebuild.
    inputs: Vec<usize>,
    /// [`Accumulators::reset`] has been called: the root's views are
    /// known. An evaluation before any reset resets to its position.
    rooted: bool,
    _f: PhantomData<F>,
}

impl<F: FeatureSet> Accumulators<F> {
    pub fn new(net: Arc<Network>) -> Self {
        Self::with_level(net, simd::detected())
    }

    /// With a given instruction-set level (tests compare levels).
    pub fn with_level(net: Arc<Network>, level: Level) -> Self {
        let hidden = net.hidden;
        Accumulators {
            net,
            level,
            stack: (0..64).map(|_| Entry::new(hidden)).collect(),
            top: 0,
            inputs: Vec::with_capacity(F::MAX_ACTIVE),
            rooted: false,
            _f: PhantomData,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn views(pieces: &[(u8, u8)]) -> [View; 2] {
        let kings = crate::features::kings::<F>(pieces);
        [0, 1].map(|p| kings[p].map_or(View::default(), |k| F::view(p, k)))
    }

    /// Starts from the position holding `pieces` (`(square, code)`).
    pub fn reset(&mut self, pieces: &[(u8, u8)]) {
        self.top = 0;
        self.rooted = true;
        let views = Self::views(pieces);
        for (p, &view) in views.iter().enumerate() {
            self.rebuild(0, p, view, pieces);
        }
        if let Some(e) = self.stack.first_mut() {
            e.view = views;
            e.pieces = pieces.len() as u8;
        }
    }

    fn rebuild(&mut self, at: usize, p: usize, view: View, pieces: &[(u8, u8)]) {
        self.inputs.clear();
        self.inputs
            .extend(pieces.iter().map(|&(sq, code)| F::index(p, view, sq, code)));
        if let Some(e) = self.stack.get_mut(at) {
            self.net.refresh(self.level, &self.inputs, &mut e.sums[p]);
            e.computed[p] = true;
        }
    }

    /// A move with `change` is about to be made; `kings` are the kings'
    /// squares after it (by colour; the old square when a king is absent).
    pub fn push(&mut self, change: Change, kings: [u8; 2]) {
        let pieces = self.stack.get(self.top).map_or(0, |e| e.pieces);
        self.top += 1;
        if self.top >= self.stack.len() {
            self.stack.push(Entry::new(self.net.hidden));
        }
        if let Some(e) = self.stack.get_mut(self.top) {
            e.change = change;
            e.computed = [false; 2];
            e.view = [F::view(0, kings[0]), F::view(1, kings[1])];
            e.pieces = (pieces as usize + change.n_added as usize)
                .saturating_sub(change.n_removed as usize) as u8;
        }
    }

    /// A null move: nothing changes.
    pub fn push_null(&mut self) {
        let prev = self.stack.get(self.top).map(|e| e.view);
        let (Some(view), Some(pieces)) = (prev, self.stack.get(self.top).map(|e| e.pieces)) else {
            return;
        };
        self.top += 1;
        if self.top >= self.stack.len() {
            self.stack.push(Entry::new(self.net.hidden));
        }
        if let Some(e) = self.stack.get_mut(self.top) {
            e.change = Change::default();
            e.computed = [false; 2];
            e.view = view;
            e.pieces = pieces;
        }
    }

    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Brings the top entry's sums up to date; `board` gives the current
    /// position's pieces when a perspective must be rebuilt.
    fn update(&mut self, board: &mut PieceSource) {
        let top = self.top;
        let mut pieces: Option<Vec<(u8, u8)>> = None;
        for p in 0..2 {
            if self.stack[top].computed[p] {
                continue;
            }
            let view = self.stack[top].view[p];
            // Walk down to a computed ancestor while the view holds.
            let mut j = top;
            let found = loop {
                if self.stack[j].computed[p] {
                    break Some(j);
                }
                if j == 0 || self.stack[j - 1].view[p] != view {
                    break None;
                }
                j -= 1;
            };
            match found {
                Some(j) => {
                    for k in j + 1..=top {
                        let (below, above) = self.stack.split_at_mut(k);
                        let (prev, cur) = (&below[k - 1], &mut above[0]);
                        cur.sums[p].copy_from_slice(&prev.sums[p]);
                        let net = &self.net;
                        let (mut add, mut sub): ([&[i16]; 2], [&[i16]; 2]) = ([&[]; 2], [&[]; 2]);
                        let (added, removed) = (cur.change.added(), cur.change.removed());
                        for (slot, &(sq, code)) in add.iter_mut().zip(added) {
                            *slot = net.row(F::index(p, view, sq, code));
                        }
                        for (slot, &(sq, code)) in sub.iter_mut().zip(removed) {
                            *slot = net.row(F::index(p, view, sq, code));
                        }
                        let (add, sub) = (&add[..added.len()], &sub[..removed.len()]);
                        simd::update(self.level, &mut cur.sums[p], add, sub);
                        cur.computed[p] = true;
                    }
                }
                None => {
                    let list = pieces.get_or_insert_with(|| {
                        let mut v = Vec::with_capacity(F::MAX_ACTIVE);
                        board(&mut v);
                        v
                    });
                    let list = std::mem::take(list);
                    self.rebuild(top, p, view, &list);
                    pieces = Some(list);
                }
            }
        }
    }

    /// The evaluation of the top position for the side to move `stm`
    /// (0 = first player), in engine units.
    pub fn evaluate(&mut self, stm: usize, board: &mut PieceSource) -> i32 {
        if !self.rooted {
            // Never reset (a static evaluation of a fresh evaluator): the
            // stack's views are unknown, so start from this position.
            let mut v = Vec::with_capacity(F::MAX_ACTIVE);
            board(&mut v);
            self.reset(&v);
        }
        self.update(board);
        let e = &self.stack[self.top];
        let stm = stm & 1;
        self.net.output(
            self.level,
            &e.sums[stm],
            &e.sums[1 - stm],
            F::output_bucket(e.pieces as usize),
        )
    }

    /// The evaluation of `pieces` from scratch (no stack), for checks.
    pub fn evaluate_fresh(&mut self, stm: usize, pieces: &[(u8, u8)]) -> i32 {
        let saved = self.top;
        let mut scratch = Self::with_level(Arc::clone(&self.net), self.level);
        scratch.reset(pieces);
        self.top = saved;
        scratch.evaluate(stm, &mut |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Chess;

    /// A toy chess board for the test: pieces by square, no rules.
    fn apply(board: &mut Vec<(u8, u8)>, c: &Change) {
        for r in c.removed() {
            board.retain(|p| p != r);
        }
        board.extend_from_slice(c.added());
        board.sort_unstable();
    }

    fn kings(board: &[(u8, u8)]) -> [u8; 2] {
        let k = crate::features::kings::<Chess>(board);
        [k[0].unwrap_or(0), k[1].unwrap_or(0)]
    }

    /// Incremental sums equal sums rebuilt from scratch, through quiet
    /// moves, captures, king moves that change the bucket or mirroring,
    /// null moves and take-backs, at every instruction-set level.
    #[test]
    fn incremental_equals_fresh() {
        let net = Arc::new(Network::random::<Chess>(64, 11));
        for level in simd::available() {
            let mut board: Vec<(u8, u8)> =
                vec![(4, 5), (12, 0), (6, 1), (60, 13), (51, 8), (57, 9), (27, 4)];
            board.sort_unstable();
            let mut acc = Accumulators::<Chess>::with_level(Arc::clone(&net), level);
            acc.reset(&board);
            let mut history = vec![board.clone()];
            type Pieces = Vec<(u8, u8)>;
            let moves: Vec<(Pieces, Pieces)> = vec![
                (vec![(12, 0)], vec![(20, 0)]),          // pawn e2-e3
                (vec![(51, 8)], vec![(43, 8)]),          // black pawn d7-d6
                (vec![(4, 5)], vec![(3, 5)]),            // king e1-d1: mirror changes
                (vec![(57, 9), (27, 4)], vec![(27, 9)]), // knight takes the queen
                (vec![(3, 5)], vec![(11, 5)]),           // king d1-d2: bucket changes
                (vec![(60, 13)], vec![(59, 13)]),        // black king e8-d8
                (vec![(6, 1)], vec![(21, 1)]),
            ];
            let mut stm = 0;
            for (i, (rem, add)) in moves.iter().enumerate() {
                let mut c = Change::default();
                for &(s, k) in rem {
                    c.remove(s, k);
                }
                for &(s, k) in add {
                    c.add(s, k);
                }
                apply(&mut board, &c);
                acc.push(c, kings(&board));
                stm ^= 1;
                if i == 3 {
                    acc.push_null();
                    stm ^= 1;
                    let b = board.clone();
                    let got = acc.evaluate(stm, &mut |v| v.extend_from_slice(&b));
                    assert_eq!(got, acc.evaluate_fresh(stm, &board));
                    acc.pop();
                    stm ^= 1;
                }
                // Evaluate only every other ply, so lazy catch-up is used.
                if i % 2 == 0 {
                    let b = board.clone();
                    let got = acc.evaluate(stm, &mut |v| v.extend_from_slice(&b));
                    assert_eq!(got, acc.evaluate_fresh(stm, &board), "{level:?} move {i}");
                }
                history.push(board.clone());
            }
            // Take everything back, checking on the way.
            for i in (0..moves.len()).rev() {
                acc.pop();
                stm ^= 1;
                let b = history[i].clone();
                let got = acc.evaluate(stm, &mut |v| v.extend_from_slice(&b));
                assert_eq!(got, acc.evaluate_fresh(stm, &history[i]), "back to {i}");
            }
        }
    }

    /// A fresh stack evaluated without a reset (a static evaluation)
    /// starts from the position it is given, with its kings' views.
    #[test]
    fn an_evaluation_before_any_reset_starts_from_its_position() {
        let net = Arc::new(Network::random::<Chess>(32, 23));
        // White king g1 (mirrored, bucket 0), black king e8.
        let board: Vec<(u8, u8)> = vec![(6, 5), (12, 0), (27, 4), (51, 8), (60, 13)];
        for stm in 0..2 {
            let mut acc = Accumulators::<Chess>::new(Arc::clone(&net));
            let b = board.clone();
            let got = acc.evaluate(stm, &mut |v| v.extend_from_slice(&b));
            assert_eq!(got, acc.evaluate_fresh(stm, &board));
        }
    }

    #[test]
    fn levels_agree_on_evaluations() {
        let net = Arc::new(Network::random::<Chess>(128, 17));
        let board: Vec<(u8, u8)> = vec![(0, 3), (4, 5), (9, 0), (36, 4), (44, 12), (62, 13)];
        let results: Vec<i32> = simd::available()
            .into_iter()
            .map(|l| {
                let mut a = Accumulators::<Chess>::with_level(Arc::clone(&net), l);
                a.reset(&board);
                a.evaluate(1, &mut |_| {})
            })
            .collect();
        assert!(results.windows(2).all(|w| w[0] == w[1]), "{results:?}");
    }
}
