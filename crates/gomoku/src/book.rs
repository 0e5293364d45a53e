//! The opening book: positions of the first moves on the 15x15 board,
//! each with the move the engine's own longer search chose there, for
//! freestyle and renju (`tables/book.txt`, made by
//! `cargo run --release -p tengen-gomoku --example book_build`).
//!
//! A position is kept in one of its eight images under the board's
//! symmetries (the smallest list of stones), so one entry serves every
//! rotation and reflection of it; the book move is mapped back through
//! the same symmetry.
//!
//! Format, one position a line (`#` starts a comment):
//!
//! ```text
//! RULE STONES > MOVE SCORE
//! renju b7,7 w8,7 b9,7 > 8,8 41
//! ```
//!
//! `STONES` are `b`/`w` with Gomocup's `x,y`, in the image's order; the
//! side to move is the one with fewer stones (black when equal); `SCORE`
//! is the search's score for the side to move.

use crate::board::{Board, Color, Point, Rule};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The only board size the book covers.
pub const BOOK_SIZE: u8 = 15;

/// A stone: column, row, colour (0 black, 1 white).
type Stone = (u8, u8, u8);

/// Where `(x, y)` goes under symmetry `s` (0..8) of an `n`x`n` board.
pub fn transform(s: usize, p: Point, n: u8) -> Point {
    let m = n - 1;
    let (x, y) = (p.x, p.y);
    let (x, y) = match s {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    };
    Point { x, y }
}

/// The symmetry that undoes `s`.
pub fn inverse(s: usize) -> usize {
    // 5 and 6 are the quarter turns, each the other's inverse; the rest
    // are their own.
    match s {
        5 => 6,
        6 => 5,
        other => other,
    }
}

/// The stones of `board` (its history holds every stone, set-ups too).
fn stones(board: &Board) -> Vec<(Point, Color)> {
    board.history().collect()
}

/// The position's image with the smallest sorted list of stones, and the
/// symmetry that takes the position there.
fn canonical(stones: &[(Point, Color)]) -> (Vec<Stone>, usize) {
    let mut best: Option<(Vec<Stone>, usize)> = None;
    for s in 0..8 {
        let mut v: Vec<Stone> = stones
            .iter()
            .map(|&(p, c)| {
                let q = transform(s, p, BOOK_SIZE);
                (q.x, q.y, c.index() as u8)
            })
            .collect();
        v.sort_unstable();
        if best.as_ref().is_none_or(|(b, _)| v < *b) {
            best = Some((v, s));
        }
    }
    best.unwrap_or_default()
}

/// One book move, in the canonical image's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Point,
    pub score: i32,
}

#[derive(Default)]
pub struct Book {
    entries: HashMap<(Rule, Vec<Stone>), Entry>,
    /// Stones of the book's largest position: past it, no lookup.
    most_stones: usize,
}

impl Book {
    /// Reads the text format above; a line that does not parse is an
    /// error naming it.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |why: &str| format!("book line {}: {why}: '{raw}'", i + 1);
            let (left, right) = line.split_once('>').ok_or_else(|| bad("no '>'"))?;
            let mut words = left.split_whitespace();
            let rule: Rule = words.next().ok_or_else(|| bad("no rule"))?.parse()?;
            let mut position = Vec::new();
            for w in words {
                // By characters, not bytes: a line of any text is refused, never split inside a character.
                let mut chars = w.chars();
                let color = match chars.next() {
                    Some('b') => Color::Black,
                    Some('w') => Color::White,
                    _ => return Err(bad("a stone is not b or w")),
                };
                let xy = chars.as_str();
                let p = Point::parse_xy(xy).map_err(|e| bad(&e))?;
                if p.x >= BOOK_SIZE || p.y >= BOOK_SIZE {
                    return Err(bad("a stone is off the board"));
                }
                position.push((p, color));
            }
            let mut rest = right.split_whitespace();
            let mv =
                Point::parse_xy(rest.next().ok_or_else(|| bad("no move"))?).map_err(|e| bad(&e))?;
            let score: i32 = rest
                .next()
                .ok_or_else(|| bad("no score"))?
                .parse()
                .map_err(|_| bad("the score is not a number"))?;
            book.most_stones = book.most_stones.max(position.len());
            let (key, s) = canonical(&position);
            let entry = Entry {
                mv: transform(s, mv, BOOK_SIZE),
                score,
            };
            if book.entries.insert((rule, key), entry).is_some() {
                return Err(bad("the position is in the book twice"));
            }
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book move for the side to move of `board` and its score, if the
    /// position (in any of its images) is in the book.
    pub fn lookup(&self, board: &Board) -> Option<(Point, i32)> {
        if board.width() != BOOK_SIZE as usize
            || board.height() != BOOK_SIZE as usize
            || board.stones() > self.most_stones
        {
            return None;
        }
        let st = stones(board);
        // The side to move is part of the position only through the
        // counts: a board set up with the other side to move is not the
        // book's position.
        let black = st.iter().filter(|&&(_, c)| c == Color::Black).count();
        if (black * 2 == st.len()) != (board.to_move() == Color::Black) {
            return None;
        }
        let (key, s) = canonical(&st);
        let e = self.entries.get(&(board.rule(), key))?;
        let p = transform(inverse(s), e.mv, BOOK_SIZE);
        let sq = board.sq(p)?;
        (board.is_empty(sq) && !board.is_forbidden(sq, board.to_move())).then_some((p, e.score))
    }

    /// One line of the text format for `board` and its move.
    pub fn line(board: &Board, mv: Point, score: i32) -> String {
        let (key, s) = canonical(&stones(board));
        let mv = transform(s, mv, BOOK_SIZE);
        let mut out = board.rule().name().to_string();
        for (x, y, c) in key {
            out.push_str(&format!(" {}{x},{y}", if c == 0 { 'b' } else { 'w' }));
        }
        out.push_str(&format!(" > {} {score}", mv.xy()));
        out
    }

    /// The position's key, for builders that must not search one twice.
    pub fn key(board: &Board) -> (Rule, Vec<(u8, u8, u8)>) {
        (board.rule(), canonical(&stones(board)).0)
    }
}

/// The built-in book, read once (empty if `TENGEN_GOMOKU_BOOK=off`).
pub fn builtin() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        if std::env::var("TENGEN_GOMOKU_BOOK").is_ok_and(|v| v == "off" || v == "0") {
            return Book::default();
        }
        // The embedded file is checked by the tests below.
        Book::parse(include_str!("tables/book.txt")).unwrap_or_default()
    })
}

/// The 26 renju openings: black at the centre, white next to it straight
/// (13 openings) or diagonally (13), black's second stone anywhere else in
/// the central 5x5 square, one of each pair of mirror images.
pub fn renju_openings() -> Vec<[Point; 3]> {
    let c = BOOK_SIZE / 2;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (wx, wy) in [(c, c - 1), (c + 1, c - 1)] {
        for y in c - 2..=c + 2 {
            for x in c - 2..=c + 2 {
                if (x, y) == (c, c) || (x, y) == (wx, wy) {
                    continue;
                }
                let stones = [
                    (Point { x: c, y: c }, Color::Black),
                    (Point { x: wx, y: wy }, Color::White),
                    (Point { x, y }, Color::Black),
                ];
                if seen.insert(canonical(&stones).0) {
                    out.push([stones[0].0, stones[1].0, stones[2].0]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, Searcher};

    fn board(rule: Rule, moves: &[(u8, u8)]) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for &(x, y) in moves {
            b.play(Point { x, y }).unwrap();
        }
        b
    }

    #[test]
    fn inverse_undoes_every_symmetry() {
        for s in 0..8 {
            for (x, y) in [(0, 0), (3, 11), (14, 2), (7, 7)] {
                let p = Point { x, y };
                assert_eq!(transform(inverse(s), transform(s, p, 15), 15), p, "sym {s}");
            }
        }
    }

    #[test]
    fn there_are_26_renju_openings() {
        let all = renju_openings();
        assert_eq!(all.len(), 26);
        // 13 with white straight above the centre, 13 diagonal.
        assert_eq!(
            all.iter().filter(|o| o[1] == Point { x: 7, y: 6 }).count(),
            13
        );
    }

    #[test]
    fn every_image_of_a_position_finds_the_image_of_its_move() {
        let moves = [(7, 7), (8, 6), (9, 8), (6, 9)];
        let b = board(Rule::Renju, &moves);
        let mv = Point { x: 8, y: 8 };
        let book = Book::parse(&Book::line(&b, mv, 17)).unwrap();
        for s in 0..8 {
            let image: Vec<(u8, u8)> = moves
                .iter()
                .map(|&(x, y)| {
                    let q = transform(s, Point { x, y }, 15);
                    (q.x, q.y)
                })
                .collect();
            let bi = board(Rule::Renju, &image);
            assert_eq!(
                book.lookup(&bi),
                Some((transform(s, mv, 15), 17)),
                "sym {s}"
            );
            // Another rule's position is not the book's.
            assert_eq!(book.lookup(&board(Rule::Freestyle, &image)), None);
        }
        // Nor a position one stone on.
        assert_eq!(
            book.lookup(&board(Rule::Renju, &[(7, 7), (8, 6), (9, 8)])),
            None
        );
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for text in [
            "renju b7,7 8,8 > 8,7 3",
            "renju b7,7 > 8,7",
            "renju b7,7 w20,3 > 8,7 1",
            "chess b7,7 > 8,7 1",
            "renju b7,7 8,7 1",
            "renju b7,7 > 8,7 1\nrenju b7,7 > 8,8 2",
            "renju é7,7 > 8,7 1",
        ] {
            let e = Book::parse(text).err().expect(text);
            assert!(e.contains("book line") || e.contains("unknown rule"), "{e}");
        }
    }

    #[test]
    fn the_builtin_book_parses_and_each_move_is_legal_there() {
        let text = include_str!("tables/book.txt");
        let book = Book::parse(text).unwrap();
        assert!(book.len() >= 100, "{} positions", book.len());
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let (left, right) = line.split_once('>').unwrap();
            let mut words = left.split_whitespace();
            let rule: Rule = words.next().unwrap().parse().unwrap();
            let mut b = Board::new(15, 15, rule).unwrap();
            for w in words {
                let c = if w.starts_with('b') {
                    Color::Black
                } else {
                    Color::White
                };
                b.place(Point::parse_xy(&w[1..]).unwrap(), c).unwrap();
            }
            let black = b.history().filter(|&(_, c)| c == Color::Black).count();
            let white = b.history().count() - black;
            b.set_to_move(if black == white {
                Color::Black
            } else {
                Color::White
            });
            let mv = Point::parse_xy(right.split_whitespace().next().unwrap()).unwrap();
            assert_eq!(book.lookup(&b).map(|x| x.0), Some(mv), "{line}");
        }
        // Every renju opening has white's fourth move.
        for o in renju_openings() {
            let b = board(Rule::Renju, &o.map(|p| (p.x, p.y)));
            assert!(book.lookup(&b).is_some(), "{o:?}");
        }
    }

    #[test]
    fn the_searcher_plays_the_book_move_unless_told_not_to() {
        let b = board(Rule::Freestyle, &[]);
        let (mv, _) = builtin()
            .lookup(&b)
            .expect("the empty board is in the book");
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut s = Searcher::new(4);
        let r = s.think(&b, &limits, &mut |_| {});
        assert_eq!((r.best, r.depth, r.nodes), (Some(mv), 0, 0));
        s.set_book(false);
        let r = s.think(&b, &limits, &mut |_| {});
        assert!(r.nodes > 0);
    }
}
