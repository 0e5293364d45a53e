//! Perft for gomoku and renju: the board (with its rule: black's renju
//! forbidden points are not legal moves) walked by the shared algorithm
//! of `tengen-games`.

use crate::board::{Board, Point};

impl tengen_games::Perft for Board {
    type Move = Point;
    /// The board keeps its own history, which `unmake` pops.
    type Undo = ();

    fn legal_moves(&self, out: &mut Vec<Point>) {
        out.extend(Board::legal_moves(self));
    }

    fn play(&mut self, p: Point) -> Option<()> {
        let sq = self.sq(p)?;
        self.make(sq);
        Some(())
    }

    fn undo(&mut self, _: Point, _: ()) {
        self.unmake();
    }

    fn move_name(&self, p: Point) -> String {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Point, Rule};
    use tengen_games::{divide, perft};

    #[test]
    fn empty_boards_count_every_ordered_placement() {
        // Nobody can win within three stones: n, n(n-1), n(n-1)(n-2).
        let mut b = Board::new(7, 7, Rule::Freestyle).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(perft(&mut b, 1), 49);
        assert_eq!(perft(&mut b, 2), 49 * 48);
        assert_eq!(perft(&mut b, 3), 49 * 48 * 47);
        assert_eq!(b.stones(), 0);
        let d = divide(&mut b, 2);
        assert_eq!(d.len(), 49);
        assert!(d.iter().all(|&(_, n)| n == 48));
        assert_eq!(
            tengen_games::Perft::move_name(
                &b,
                Point::parse_xy("3,4").unwrap_or_else(|e| panic!("{e}"))
            ),
            "3,4"
        );
    }
}
