//! The eight symmetries of the square board, numbered as GNU Go's GTP
//! `orientation` numbers them (found by playing a stone under each
//! orientation and looking at GNU Go 3.8's `showboard`), and the copy of
//! a whole game under one of them.
//!
//! With `x` the column (0 = A), `y` the row (0 = row 1), `mx = width - 1`
//! and `my = height - 1` (`m` on a square board):
//!
//! | n | image of (x, y) |
//! |---|---|
//! | 0 | (x, y) |
//! | 1 | (my - y, x) (a quarter turn) |
//! | 2 | (mx - x, my - y) (a half turn) |
//! | 3 | (y, mx - x) (the inverse of 1) |
//! | 4 | (my - y, mx - x) (mirror in the anti-diagonal) |
//! | 5 | (x, my - y) (upside down) |
//! | 6 | (y, x) (mirror in the diagonal) |
//! | 7 | (mx - x, y) (left to right) |
//!
//! A rectangular board (width != height) is mapped onto itself by four
//! of them only: 0, 2, 5 and 7. The other four swap width and height;
//! `maps_onto_itself` tells them apart, and `transform_game` refuses them
//! on such a board.

use crate::board::{Color, Move, Point};
use crate::game::Game;

/// Number of symmetries.
pub const COUNT: u8 = 8;

/// Whether symmetry `n` keeps the board's axes (0, 2, 5, 7): the ones
/// that map a rectangular board onto itself.
pub fn keeps_axes(n: u8) -> bool {
    matches!(n % COUNT, 0 | 2 | 5 | 7)
}

/// Whether symmetry `n` maps a `width` x `height` board onto itself: all
/// eight on a square board, four on a rectangular one.
pub fn maps_onto_itself(n: u8, width: usize, height: usize) -> bool {
    width == height || keeps_axes(n)
}

/// The symmetries of a `width` x `height` board (8 or 4 of them).
pub fn of_board(width: usize, height: usize) -> impl Iterator<Item = u8> {
    (0..COUNT).filter(move |&n| maps_onto_itself(n, width, height))
}

/// The image of `p` under symmetry `n` (0..8) on a board `width` x
/// `height` (a symmetry that swaps the axes puts it on the `height` x
/// `width` board). `p` must be on the board.
pub fn transform(n: u8, p: Point, width: usize, height: usize) -> Point {
    let (mx, my) = (width.max(1) - 1, height.max(1) - 1);
    let (x, y) = (p.x().min(mx), p.y().min(my));
    let (tx, ty) = match n % COUNT {
        0 => (x, y),
        1 => (my - y, x),
        2 => (mx - x, my - y),
        3 => (y, mx - x),
        4 => (my - y, mx - x),
        5 => (x, my - y),
        6 => (y, x),
        _ => (mx - x, y),
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
pub fn transform_move(n: u8, m: Move, width: usize, height: usize) -> Move {
    match m {
        Move::Pass => Move::Pass,
        Move::Play(p) => Move::Play(transform(n, p, width, height)),
    }
}

/// The same game (size, komi, rules, handicap or setup stones, who moves
/// first, every move) with every point moved by symmetry `n`; `None` if
/// `n` does not map the board onto itself (a quarter turn or a diagonal
/// mirror of a rectangular board) or a step is refused (it cannot be:
/// legality is symmetric).
pub fn transform_game(g: &Game, n: u8) -> Option<Game> {
    let (w, h) = (g.width(), g.height());
    if !maps_onto_itself(n, w, h) {
        return None;
    }
    let mut out = Game::new_rect(w, h, g.komi());
    out.set_rules(g.rules());
    let t = |p: Point| transform(n, p, w, h);
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
        out.play(m.color, transform_move(n, m.mv, w, h)).ok()?;
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
            assert_eq!(vertex_name(transform(n as u8, v("B3", 9), 9, 9)), *w, "{n}");
        }
    }

    #[test]
    fn inverses_undo_and_the_eight_images_differ() {
        for size in [2, 5, 9, 19] {
            let b = crate::board::Board::new(size);
            for p in b.points() {
                let mut images = Vec::new();
                for n in 0..COUNT {
                    let q = transform(n, p, size, size);
                    assert!(q.x() < size && q.y() < size);
                    assert_eq!(transform(inverse(n), q, size, size), p);
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
            assert_eq!(g.board().cell(p), t.board().cell(transform(1, p, 9, 9)));
        }
        let back = match transform_game(&t, inverse(1)) {
            Some(b) => b,
            None => panic!("refused"),
        };
        assert_eq!(back.board().hash(), g.board().hash());
    }

    #[test]
    fn a_rectangle_has_four_symmetries_and_they_keep_it() {
        assert_eq!(of_board(9, 9).count(), 8);
        assert_eq!(of_board(13, 9).collect::<Vec<_>>(), [0, 2, 5, 7]);
        for (w, h) in [(13usize, 9usize), (9, 19), (2, 5)] {
            let b = crate::board::Board::new_rect(w, h);
            for n in of_board(w, h) {
                let mut images: Vec<Point> = b.points().map(|p| transform(n, p, w, h)).collect();
                for &q in &images {
                    assert!(b.on_board(q), "{n}: {}", vertex_name(q));
                }
                images.sort();
                images.dedup();
                assert_eq!(images.len(), w * h);
                for p in b.points() {
                    assert_eq!(transform(inverse(n), transform(n, p, w, h), w, h), p);
                }
            }
        }
        // A game on 13x9 turned upside down, and a quarter turn refused.
        let mut g = Game::new_rect(13, 9, 7.5);
        let at = |s: &str| crate::board::test_util::point_on(s, g.board());
        let (c3, n9) = (at("C3"), at("N9"));
        assert!(g.play(Color::Black, Move::Play(c3)).is_ok());
        assert!(g.play(Color::White, Move::Play(n9)).is_ok());
        let t = transform_game(&g, 5).unwrap_or_else(|| panic!("refused"));
        assert_eq!((t.width(), t.height()), (13, 9));
        let c7 = crate::board::test_util::point_on("C7", t.board());
        let n1 = crate::board::test_util::point_on("N1", t.board());
        assert_eq!(t.board().cell(c7), crate::board::Cell::Black);
        assert_eq!(t.board().cell(n1), crate::board::Cell::White);
        for n in [1, 3, 4, 6] {
            assert!(transform_game(&g, n).is_none(), "{n}");
        }
    }
}
