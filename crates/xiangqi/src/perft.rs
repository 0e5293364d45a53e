//! Perft: leaf counts of the legal move tree, the rules' proof.

use crate::board::Board;
use crate::notation::{format_move, Notation};
use crate::types::Move;

/// The shared perft walks xiangqi through its legal moves and make/unmake.
impl tengen_games::Perft for Board {
    type Move = Move;
    type Undo = ();

    fn legal_moves(&self, out: &mut Vec<Move>) {
        Board::legal_moves(self, out);
    }

    fn play(&mut self, m: Move) -> Option<()> {
        self.make(m);
        Some(())
    }

    fn undo(&mut self, m: Move, _: ()) {
        self.unmake(m);
    }

    fn move_name(&self, m: Move) -> String {
        format_move(m, Notation::Iccs)
    }
}

/// Number of leaves `depth` plies below the position: the shared
/// [`tengen_games::perft`].
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    tengen_games::perft(board, depth)
}

/// Each root move with its leaf count, in generation order: the shared
/// [`tengen_games::divide`] (depth 0 counts as 1).
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    tengen_games::divide(board, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERFT: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/testdata/xiangqi/perft.txt"
    ));

    /// Every position of the reference file at every listed depth (counts
    /// by Fairy-Stockfish 11.1). Depths whose count exceeds the budget are
    /// too slow for a debug build; release runs all of them.
    #[test]
    fn reference_perft() {
        let budget: u64 = if cfg!(debug_assertions) {
            200_000
        } else {
            u64::MAX
        };
        let mut checked = 0;
        for line in PERFT
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().unwrap();
            let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for field in parts {
                let Some(rest) = field.strip_prefix('D') else {
                    continue;
                };
                let (d, n) = rest.split_once(' ').unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                if n > budget {
                    continue;
                }
                assert_eq!(perft(&mut board, d), n, "{fen} depth {d}");
                checked += 1;
            }
            assert_eq!(board.fen(), Board::from_fen(fen).unwrap().fen());
        }
        assert!(checked >= 30 * 3, "only {checked} counts checked");
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut b = Board::startpos();
        let d = divide(&mut b, 3);
        assert_eq!(d.len(), 44);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 79666);
    }
}
