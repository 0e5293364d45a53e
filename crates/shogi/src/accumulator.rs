//! The network's transformer sums kept along the search tree.
//!
//! Each searched move pushes an entry recording what the move changes
//! (a piece leaves a square, arrives on one, is captured, goes to or
//! comes from a hand); the sums themselves are computed lazily, when an
//! evaluation needs them, from the nearest ancestor whose sums are known.
//! A king move that changes its own side's view (bucket or mirroring)
//! has that side's sums rebuilt from the board instead; one that keeps
//! the view is an ordinary update. With king-relative inputs any king move
//! changes both sides' inputs, and both are rebuilt.

use crate::board::Board;
use crate::legacy_nnue::{for_each_piece_input, hand_input, king_squares, mirrored, Network};
use crate::types::{Color, Kind, Move, Square};

/// A perspective-free input: a piece on a square, or the `n`-th piece
/// of a hand kind.
#[derive(Clone, Copy, Debug)]
enum Input {
    Board(Color, Kind, Square),
    Hand(Color, usize, usize),
}

impl Input {
    /// Calls `f` with each index within the perspective's bucket that the
    /// input has there (none, one, or with king-relative inputs up to
    /// three).
    #[inline]
    fn for_each_index(self, perspective: Color, view: &View, mut f: impl FnMut(usize)) {
        match self {
            Input::Board(c, k, sq) => {
                for_each_piece_input(perspective, view.mirror, view.kings.as_ref(), c, k, sq, f)
            }
            Input::Hand(c, h, n) => {
                if let Some(x) = hand_input(perspective, c, h, n) {
                    f(x);
                }
            }
        }
    }
}

/// How one perspective's sums were built: mirroring, bucket base, and
/// (king-relative networks only) the kings' oriented squares.
#[derive(Clone, Copy, Debug, Default)]
struct View {
    mirror: bool,
    base: usize,
    kings: Option<[Option<usize>; 2]>,
}

/// What one move changes.
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    removed: [Option<Input>; 2],
    added: [Option<Input>; 2],
}

#[derive(Clone, Debug)]
struct Entry {
    /// Sums per perspective (indexed by colour).
    sums: [Vec<i16>; 2],
    computed: [bool; 2],
    /// The move into this entry forces a rebuild of that perspective.
    refresh: [bool; 2],
    /// The move into this entry took that perspective's king to this
    /// square: a rebuild only if the view changes there.
    king_to: [Option<Square>; 2],
    /// How the sums were built.
    view: [View; 2],
    delta: Delta,
}

impl Entry {
    fn new(hidden: usize) -> Entry {
        Entry {
            sums: [vec![0; hidden], vec![0; hidden]],
            computed: [false; 2],
            refresh: [false; 2],
            king_to: [None; 2],
            view: [View::default(); 2],
            delta: Delta::default(),
        }
    }
}

/// The stack of entries, one per ply from the search's root.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    hidden: usize,
    /// The network has king-relative inputs: any king move rebuilds both.
    king_relative: bool,
}

impl AccumulatorStack {
    pub fn new(net: &Network) -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::new(),
            top: 0,
            hidden: net.hidden(),
            king_relative: net.is_king_relative(),
        }
    }

    fn ensure(&mut self, len: usize) {
        while self.entries.len() < len {
            self.entries.push(Entry::new(self.hidden));
        }
    }

    /// Starts over at `board`, whose sums are built from scratch.
    pub fn reset(&mut self, net: &Network, board: &Board) {
        if self.hidden != net.hidden() {
            self.entries.clear();
            self.hidden = net.hidden();
        }
        self.king_relative = net.is_king_relative();
        self.ensure(1);
        self.top = 0;
        for c in Color::BOTH {
            self.rebuild(net, board, c);
        }
    }

    fn rebuild(&mut self, net: &Network, board: &Board, c: Color) {
        let e = &mut self.entries[self.top];
        let mirror = mirrored(board, c);
        e.view[c.index()] = View {
            mirror,
            base: net.bucket_base(board, c),
            kings: net
                .is_king_relative()
                .then(|| king_squares(board, c, mirror)),
        };
        net.refresh(board, c, &mut e.sums[c.index()]);
        e.computed[c.index()] = true;
    }

    /// Records `m`, about to be made on `board`.
    pub fn push(&mut self, board: &Board, m: Move) {
        let us = board.side_to_move();
        let mut d = Delta::default();
        let mut refresh = [false; 2];
        let mut king_to = [None; 2];
        match m.from() {
            Some(from) => {
                let Some(p) = board.piece_at(from) else {
                    return self.push_delta(d, [true; 2], [None; 2]);
                };
                let after = if m.is_promotion() {
                    p.kind().promote()
                } else {
                    p.kind()
                };
                d.removed[0] = Some(Input::Board(us, p.kind(), from));
                d.added[0] = Some(Input::Board(us, after, m.to()));
                if let Some(c) = board.piece_at(m.to()) {
                    let h = c.kind().unpromote();
                    d.removed[1] = Some(Input::Board(c.color(), c.kind(), m.to()));
                    let n = usize::from(board.hand_count(us, h));
                    d.added[1] = Some(Input::Hand(us, h.index(), n));
                }
                if p.kind() == Kind::King {
                    if self.king_relative {
                        refresh = [true; 2];
                    } else {
                        king_to[us.index()] = Some(m.to());
                    }
                }
            }
            None => {
                if let Some(k) = m.drop_kind() {
                    let n = usize::from(board.hand_count(us, k));
                    d.removed[0] = Some(Input::Hand(us, k.index(), n.saturating_sub(1)));
                    d.added[0] = Some(Input::Board(us, k, m.to()));
                } else {
                    refresh = [true; 2];
                }
            }
        }
        self.push_delta(d, refresh, king_to);
    }

    /// Records a null move.
    pub fn push_null(&mut self) {
        self.push_delta(Delta::default(), [false; 2], [None; 2]);
    }

    fn push_delta(&mut self, delta: Delta, refresh: [bool; 2], king_to: [Option<Square>; 2]) {
        self.top += 1;
        self.ensure(self.top + 1);
        let e = &mut self.entries[self.top];
        e.delta = delta;
        e.refresh = refresh;
        e.king_to = king_to;
        e.computed = [false; 2];
    }

    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Brings `c`'s sums at the top up to date; `board` is the position
    /// there.
    fn update(&mut self, net: &Network, board: &Board, c: Color) {
        let ci = c.index();
        // The nearest entry at or below the top with known sums, unless a
        // move that forces a rebuild lies between.
        let mut j = self.top;
        loop {
            let e = &self.entries[j];
            if e.computed[ci] {
                break;
            }
            if e.refresh[ci] || j == 0 {
                return self.rebuild(net, board, c);
            }
            j -= 1;
        }
        // King moves of `c` on the way: updates only while they keep the
        // view the known sums were built with.
        let known = self.entries[j].view[ci];
        let view_kept = self.entries[j + 1..=self.top].iter().all(|e| {
            e.king_to[ci].is_none_or(|k| net.king_view(k, c) == (known.mirror, known.base))
        });
        if !view_kept {
            return self.rebuild(net, board, c);
        }
        let h = self.hidden;
        for i in j + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let prev = &below[i - 1];
            let cur = &mut above[0];
            let view = prev.view[ci];
            cur.view[ci] = view;
            cur.sums[ci].copy_from_slice(&prev.sums[ci]);
            let sums = &mut cur.sums[ci];
            for inp in cur.delta.removed.iter().flatten() {
                inp.for_each_index(c, &view, |x| {
                    for (s, w) in sums.iter_mut().zip(net.row(view.base + x, h)) {
                        *s = s.wrapping_sub(*w);
                    }
                });
            }
            for inp in cur.delta.added.iter().flatten() {
                inp.for_each_index(c, &view, |x| {
                    for (s, w) in sums.iter_mut().zip(net.row(view.base + x, h)) {
                        *s = s.wrapping_add(*w);
                    }
                });
            }
            cur.computed[ci] = true;
        }
    }

    /// The network's score of `board`, the position at the top, from the
    /// side to move's view.
    pub fn evaluate(&mut self, net: &Network, board: &Board) -> i32 {
        if self.hidden != net.hidden() || self.king_relative != net.is_king_relative() {
            // Built for another network: start over from this board.
            self.entries.clear();
            self.hidden = net.hidden();
            self.king_relative = net.is_king_relative();
            self.top = 0;
        }
        // Without a reset the top is built from the board.
        self.ensure(self.top + 1);
        for c in Color::BOTH {
            self.update(net, board, c);
        }
        let e = &self.entries[self.top];
        let us = board.side_to_move();
        net.output(&e.sums[us.index()], &e.sums[us.flip().index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::Gen;
    use crate::legacy_nnue::tests::{toy, toy_with};
    use crate::legacy_nnue::FLAG_KING_RELATIVE;

    /// Walks a few plies of every line from several positions, checking
    /// at each node that the incremental sums give the from-scratch score.
    fn walk(
        net: &Network,
        stack: &mut AccumulatorStack,
        board: &mut Board,
        depth: u32,
        seed: &mut u64,
    ) {
        assert_eq!(
            stack.evaluate(net, board),
            net.evaluate(board),
            "{}",
            board.to_sfen()
        );
        if depth == 0 {
            return;
        }
        let mut moves = Vec::new();
        board.generate(Gen::All, &mut moves);
        for (i, &m) in moves.iter().enumerate() {
            // All moves at the first ply, a pseudo-random few below.
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            if depth < 3 && i > 0 && (*seed >> 60) != 0 {
                continue;
            }
            stack.push(board, m);
            let captured = board.do_move(m);
            // Evaluate only now and then, so some entries stay lazy.
            if (*seed >> 59) & 1 == 0 {
                walk(net, stack, board, depth - 1, seed);
            } else if depth > 1 {
                let mut replies = Vec::new();
                board.generate(Gen::All, &mut replies);
                if let Some(&r) = replies.first() {
                    stack.push(board, r);
                    let c2 = board.do_move(r);
                    assert_eq!(stack.evaluate(net, board), net.evaluate(board));
                    board.undo_move(r, c2);
                    stack.pop();
                }
            }
            board.undo_move(m, captured);
            stack.pop();
        }
        stack.push_null();
        board.do_null();
        assert_eq!(stack.evaluate(net, board), net.evaluate(board));
        board.do_null();
        stack.pop();
    }

    #[test]
    fn incremental_sums_match_a_fresh_computation() {
        // One bucket: most king moves keep the view (an update); five
        // buckets: most change it (a rebuild).
        for net in [toy(1, 32), toy(5, 32), toy_with(5, 32, FLAG_KING_RELATIVE)] {
            incremental_sums_match_with(&net);
        }
    }

    fn incremental_sums_match_with(net: &Network) {
        let mut seed = 99u64;
        for s in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 124",
        ] {
            let mut b = Board::from_sfen(s).unwrap();
            let mut stack = AccumulatorStack::new(net);
            stack.reset(net, &b);
            walk(net, &mut stack, &mut b, 3, &mut seed);
        }
    }
}
