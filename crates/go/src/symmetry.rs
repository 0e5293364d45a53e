//! The eight symmetries of the square board, numbered as GNU Go's GTP
//! `orientation` numbers them (found by playing a stone under each
//! orientation and looking at GNU Go 3.8's `showboard`), and the copy of
//! a whole game under one of them.
//!
//! With `x` the column (0 = A) and `y` the row (0 = row 1), `m = size - 1`:
//!
//! | n | image of (x, y) |
//! |---|---|
//! | 0 | (x, y) |
//! | 1 | (m - y, x) (a quarter turn) |
//! | 2 | (m - x, m - y) (a half turn) |
//! | 3 | (y, m - x) (the inverse of 1) |
//! | 4 | (m - y, m - x) (mirror in the anti-diagonal) |
//! | 5 | (x, m - y) (upside down) |
//! | 6 | (y, x) (mirror in the diagonal) |
//! | 7 | (m - x, y) (left to right) |

use crate::board::{Color, Move, Point};
use crate::game::Game;

/// Number of symmetries.
pub const COUNT: u8 = 8;

/// The image of `p` under symmetry `n` (0..8) on a board of `size`.
pub fn transform(n: u8, p: Point, size: usize) -> Point {
    let m = size - 1;
    let (x, y) = (p.x(), p.y());
    let (tx, ty) = match n % COUNT {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - y, m - x),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - x, y),
    };
    Point::from_xy(tx, ty)
}

/// The symmetry that undoes `n`.
pub fn inverse(n: u8) -> u8 {
    match n % COUNT {
        1 => 3,
        3 => 1,
        k => k,
    }
}

/// A move under symmetry `n`.
pub fn transform_move(n: u8, m: Move, size: usize) -> Move {
    match m {
        Move::Pass => Move::Pass,
        Move::Play(p) => Move::Play(transform(n, p, size)),
    }
}

/// The same game (size, komi, rules, handicap or setup stones, who moves
/// first, every move) with every point moved by symmetry `n`; `None` if a
/// step is refused (it cannot be: legality is symmetric).
pub fn transform_game(g: &Game, n: u8) -> Option<Game> {
    let size = g.size();
    let mut out = Game::new(size, g.komi());
    out.set_rules(g.rules());
    let t = |p: Point| transform(n, p, size);
    let start = g.start_board();
    if !g.handicap().is_empty() {
        let pts: Vec<Point> = g.handicap().iter().map(|&p| t(p)).collect();
        if !out.set_handicap(&pts) {
            return None;
        }
    } else if !start.is_empty_board() {
        let mut stones = Vec::new();
        for c in [Color::Black, Color::White] {
            stones.extend(start.stones(c).into_iter().map(|p| (c, t(p))));
        }
        if !out.setup(&stones) {
            return None;
        }
    }
    match g.moves().first() {
        Some(first) => {
            out.set_first_to_move(first.color);
        }
        None => {
            out.set_first_to_move(g.to_move());
        }
    }
    for m in g.moves() {
        out.play(m.color, transform_move(n, m.mv, size)).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::vertex_name;

    use crate::board::test_util::point as v;

    #[test]
    fn b3_goes_where_gnugo_puts_it() {
        // GNU Go 3.8, 9x9: `orientation n`, `play b B3`, `showboard`.
        let want = ["B3", "G2", "H7", "C8", "G8", "B7", "C2", "H3"];
        for (n, w) in want.iter().enumerate() {
            assert_eq!(vertex_name(transform(n as u8, v("B3", 9), 9)), *w, "{n}");
        }
    }

    #[test]
    fn inverses_undo_and_the_eight_images_differ() {
        for size in [2, 5, 9, 19] {
            let b = crate::board::Board::new(size);
            for p in b.points() {
                let mut images = Vec::new();
                for n in 0..COUNT {
                    let q = transform(n, p, size);
                    assert!(q.x() < size && q.y() < size);
                    assert_eq!(transform(inverse(n), q, size), p);
                    images.push(q);
                }
                if size == 9 && vertex_name(p) == "B3" {
                    images.sort();
                    images.dedup();
                    assert_eq!(images.len(), 8);
                }
            }
        }
    }

    #[test]
    fn a_transformed_game_keeps_its_history() {
        let mut g = Game::new(9, 6.5);
        assert!(g.set_handicap(&[v("C3", 9), v("G7", 9)]));
        for (c, s) in [(Color::White, "D4"), (Color::Black, "E5")] {
            assert!(g.play(c, Move::Play(v(s, 9))).is_ok());
        }
        assert!(g.play(Color::White, Move::Pass).is_ok());
        let t = match transform_game(&g, 1) {
            Some(t) => t,
            None => panic!("refused"),
        };
        assert_eq!(t.komi(), 6.5);
        assert_eq!(t.moves().len(), 3);
        assert_eq!(t.handicap().len(), 2);
        assert_eq!(t.to_move(), Color::Black);
        for p in g.board().points() {
            assert_eq!(g.board().cell(p), t.board().cell(transform(1, p, 9)));
        }
        let back = match transform_game(&t, inverse(1)) {
            Some(b) => b,
            None => panic!("refused"),
        };
        assert_eq!(back.board().hash(), g.board().hash());
    }
}
