//! Perft: the leaf count of the legal move tree, the proof of a move
//! generator against reference counts. One algorithm for every game; each
//! rules crate says what a position's legal moves are and how to play and
//! take back one.

/// A position that perft can walk.
pub trait Perft {
    type Move: Copy;
    /// What [`Perft::undo`] needs besides the move (shogi's captured
    /// piece); `()` where the position keeps its own history.
    type Undo;

    /// Appends the legal moves of the side to move to `out` (which is
    /// empty); none once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move [`Perft::legal_moves`] gave. `None` when the rules
    /// refuse it after all, with the position unchanged; perft then skips
    /// the move rather than stop (Go's legality check is the full one).
    fn play(&mut self, m: Self::Move) -> Option<Self::Undo>;
    /// Takes back the move just played.
    fn undo(&mut self, m: Self::Move, undo: Self::Undo);
    /// The move in the notation of the game's usual protocol (UCI, ICCS,
    /// USI, a GTP vertex, gomoku's `x,y`), for `divide` listings.
    fn move_name(&self, m: Self::Move) -> String;
}

/// The number of leaves `depth` plies below `pos` (1 at depth 0). The last
/// ply is counted by the length of the move list (bulk counting), so it
/// never plays a move that is never expanded.
pub fn perft<P: Perft>(pos: &mut P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move buffer per ply, reused over the whole tree: no allocation
    // per node.
    let mut buffers: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    count(pos, depth, &mut buffers)
}

fn count<P: Perft>(pos: &mut P, depth: u32, buffers: &mut [Vec<P::Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    pos.legal_moves(moves);
    if depth <= 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in moves.iter() {
        if let Some(u) = pos.play(m) {
            total += count(pos, depth - 1, rest);
            pos.undo(m, u);
        }
    }
    total
}

/// Each root move with the perft of `depth - 1` below it, in generation
/// order (`go perft`, `tengen perft --divide`). Depth 0 is read as 1, so
/// every root move counts 1, as the protocols' `go perft 0` always did.
pub fn divide<P: Perft>(pos: &mut P, depth: u32) -> Vec<(P::Move, u64)> {
    let below = depth.max(1) - 1;
    let mut moves = Vec::with_capacity(64);
    pos.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if let Some(u) = pos.play(m) {
            let n = perft(pos, below);
            pos.undo(m, u);
            out.push((m, n));
        }
    }
    out
}

/// The names of the legal moves, in generation order: what `tengen legal`
/// lists and what the arena picks random openings from.
pub fn legal_move_names<P: Perft>(pos: &P) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().map(|m| pos.move_name(m)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim with 1 or 2 taken from a heap: small enough to count by hand,
    /// and a refused move (taking 2 from a heap of 2 when `refuse_two`)
    /// shows that refusals are skipped below the last ply.
    struct Nim {
        heap: u32,
        played: Vec<u32>,
        refuse_two: bool,
    }

    impl Perft for Nim {
        type Move = u32;
        type Undo = ();
        fn legal_moves(&self, out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|&k| k <= self.heap));
        }
        fn play(&mut self, m: u32) -> Option<()> {
            if self.refuse_two && m == 2 && self.heap == 2 {
                return None;
            }
            self.heap -= m;
            self.played.push(m);
            Some(())
        }
        fn undo(&mut self, m: u32, _: ()) {
            self.heap += m;
            self.played.pop();
        }
        fn move_name(&self, m: u32) -> String {
            format!("take{m}")
        }
    }

    fn nim(heap: u32) -> Nim {
        Nim {
            heap,
            played: Vec::new(),
            refuse_two: false,
        }
    }

    /// Leaf counts by brute force: every sequence of exactly `depth` moves.
    fn brute(heap: u32, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        (1..=2.min(heap)).map(|k| brute(heap - k, depth - 1)).sum()
    }

    #[test]
    fn perft_counts_every_line_and_restores_the_position() {
        for heap in 0..8 {
            for depth in 0..6 {
                let mut n = nim(heap);
                assert_eq!(perft(&mut n, depth), brute(heap, depth), "{heap} {depth}");
                assert_eq!(n.heap, heap);
                assert!(n.played.is_empty());
            }
        }
        // Fibonacci: from a heap of 5, the lines that empty it exactly.
        assert_eq!(perft(&mut nim(5), 3), 7);
    }

    #[test]
    fn divide_sums_to_perft_and_reads_depth_zero_as_one() {
        let mut n = nim(6);
        let d = divide(&mut n, 4);
        assert_eq!(d, vec![(1, brute(5, 3)), (2, brute(4, 3))]);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&mut n, 4));
        assert_eq!(divide(&mut n, 0), vec![(1, 1), (2, 1)]);
        assert_eq!(divide(&mut n, 1), divide(&mut n, 0));
        assert_eq!(n.move_name(d[1].0), "take2");
        assert!(divide(&mut nim(0), 3).is_empty());
        assert_eq!(legal_move_names(&nim(1)), ["take1"]);
        assert_eq!(legal_move_names(&nim(9)), ["take1", "take2"]);
        assert!(legal_move_names(&nim(0)).is_empty());
    }

    #[test]
    fn refused_moves_are_skipped() {
        let mut n = nim(2);
        n.refuse_two = true;
        // The last ply is bulk-counted, so the refusal shows only deeper.
        assert_eq!(perft(&mut n, 1), 2);
        assert_eq!(perft(&mut n, 2), 1);
        assert_eq!(divide(&mut n, 1), vec![(1, 1)]);
    }
}
