//! Perft: counting the leaves of the legal move tree, to prove the rules.

use crate::board::Board;
use crate::moves::{Move, MoveList};

/// The shared perft walks chess through its legal moves and make/unmake.
impl tengen_games::Perft for Board {
    type Move = Move;
    type Undo = ();

    fn legal_moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::default();
        self.generate_legal(&mut list, false);
        out.extend(list.iter().copied());
    }

    fn play(&mut self, m: Move) -> Option<()> {
        self.make_move(m);
        Some(())
    }

    fn undo(&mut self, m: Move, _: ()) {
        self.unmake_move(m);
    }

    fn move_name(&self, m: Move) -> String {
        self.move_to_uci(m, false)
    }
}

impl Board {
    /// Leaf count at `depth`: the shared [`tengen_games::perft`].
    pub fn perft(&mut self, depth: u32) -> u64 {
        tengen_games::perft(self, depth)
    }

    /// Perft split by root move: the shared [`tengen_games::divide`].
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        tengen_games::divide(self, depth)
    }

    /// Perft with a table of (key, depth) -> count for subtrees seen
    /// before. Exact unless two positions share a 64-bit key, so it is for
    /// tests of deep counts, while plain [`Board::perft`] (the shared
    /// algorithm) is the reference; a test holds the two equal.
    pub fn perft_hashed(&mut self, depth: u32, table: &mut PerftTable) -> u64 {
        if depth <= 1 {
            return self.perft(depth);
        }
        let key = self.key();
        if let Some(n) = table.get(key, depth) {
            return n;
        }
        let mut list = MoveList::default();
        self.generate_legal(&mut list, false);
        let mut total = 0;
        for &m in list.iter() {
            self.make_move(m);
            total += self.perft_hashed(depth - 1, table);
            self.unmake_move(m);
        }
        table.put(key, depth, total);
        total
    }
}

/// An always-replace table for [`Board::perft_hashed`].
pub struct PerftTable {
    entries: Vec<(u64, u64)>,
}

impl PerftTable {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> PerftTable {
        PerftTable {
            entries: vec![(0, 0); 1 << bits.clamp(4, 30)],
        }
    }

    // The depth is folded into the stored key so entries of different
    // depths never answer for each other.
    fn tag(key: u64, depth: u32) -> u64 {
        key ^ (depth as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let tag = Self::tag(key, depth);
        let e = self.entries[(tag as usize) & (self.entries.len() - 1)];
        (e.0 == tag && tag != 0).then_some(e.1)
    }

    fn put(&mut self, key: u64, depth: u32, n: u64) {
        let tag = Self::tag(key, depth);
        let i = (tag as usize) & (self.entries.len() - 1);
        self.entries[i] = (tag, n);
    }
}
