//! Perft for shogi: the board walked by the shared algorithm of
//! `tengen-games`.

use crate::board::Board;
use crate::types::{Move, Piece};

impl tengen_games::Perft for Board {
    type Move = Move;
    /// The piece the move captured, which `undo_move` puts back.
    type Undo = Option<Piece>;

    fn legal_moves(&self, out: &mut Vec<Move>) {
        Board::legal_moves(self, out);
    }

    fn play(&mut self, m: Move) -> Option<Option<Piece>> {
        Some(self.do_move(m))
    }

    fn undo(&mut self, m: Move, captured: Option<Piece>) {
        self.undo_move(m, captured);
    }

    fn move_name(&self, m: Move) -> String {
        m.to_string()
    }
}

/// Counts the leaves of the legal move tree `depth` plies deep: the shared
/// [`tengen_games::perft`].
pub fn perft(b: &mut Board, depth: u32) -> u64 {
    tengen_games::perft(b, depth)
}

/// Perft per root move, in generation order (`go perft`): the shared
/// [`tengen_games::divide`] (depth 0 counts as 1).
pub fn divide(b: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    tengen_games::divide(b, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_sums_to_perft_from_the_start() {
        let mut b = Board::startpos();
        let d = divide(&mut b, 3);
        assert_eq!(d.len(), 30);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 25470);
        assert_eq!(perft(&mut b, 3), 25470);
        assert_eq!(b.to_sfen(), Board::startpos().to_sfen());
    }
}
