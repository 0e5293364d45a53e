//! Opening decisions: whether to take a colour swap, which fifth-move
//! alternatives to offer, and swap2 openings.

use crate::board::{Board, Point, Sq};
use crate::search::{move_score, Limits, Searcher, PROVEN};
use crate::threat::{near, playable};
use std::time::Duration;
use tengen_core::timeman::TimeManager;

/// Scores within this margin count as balanced.
pub const SWAP_MARGIN: i32 = 40;

/// Searches the side to move's prospects briefly; `book`: whether a
/// position of the opening book is judged by the book's score (the
/// engine's `OWNBOOK` option) or searched.
pub fn assess(board: &Board, budget: Duration, book: bool) -> i32 {
    let mut s = Searcher::new(8);
    s.set_book(book);
    let limits = Limits {
        depth: Some(8),
        time: Some(TimeManager {
            soft: budget / 2,
            hard: budget,
        }),
        ..Limits::default()
    };
    s.think(board, &limits, &mut |_| {}).score
}

/// Whether the side to move should rather swap colours (take the stones
/// of the side that just moved): it does when its own prospects are bad.
pub fn should_swap(board: &Board, budget: Duration, book: bool) -> bool {
    if board.stones() == 0 {
        return false;
    }
    if board.stones() == 1 {
        // One black stone near the centre: the first move's advantage is
        // known to be large under every rule (all three are first-player
        // wins), larger than a short search shows.
        if let Some((p, _)) = board.history().next() {
            let dx = (p.x as i32 - board.width() as i32 / 2).abs();
            let dy = (p.y as i32 - board.height() as i32 / 2).abs();
            if dx <= 2 && dy <= 2 {
                return true;
            }
        }
    }
    assess(board, budget, book) < -SWAP_MARGIN
}

/// The `n` most promising moves of the side to move, best first: the
/// alternatives black offers at move five (the opponent keeps one, so all
/// should be good).
pub fn offers(board: &Board, n: usize) -> Vec<Point> {
    let me = board.to_move();
    let mut cands: Vec<(i32, Sq)> = near(board)
        .into_iter()
        .filter(|&s| playable(board, s, me))
        .map(|s| (move_score(board, s, me), s))
        .collect();
    cands.sort_by_key(|x| std::cmp::Reverse(x.0));
    // Never offer a point that wins at once: the opponent would refuse it
    // only if the rule lets them; keep the strongest, they pick the least.
    cands
        .into_iter()
        .take(n)
        .map(|(_, s)| board.point(s))
        .collect()
}

/// Three opening stones (black, white, black) near the centre whose
/// assessed value for white to move is closest to balance.
pub fn swap2_opening(board: &Board, budget: Duration) -> Vec<Point> {
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    let shapes: [[(isize, isize); 3]; 6] = [
        [(0, 0), (1, -1), (2, 1)],
        [(0, 0), (1, 0), (-1, 2)],
        [(0, 0), (2, -1), (1, 2)],
        [(0, 0), (1, 1), (3, 0)],
        [(0, 0), (-1, 1), (2, 2)],
        [(0, 0), (2, 0), (0, 2)],
    ];
    let per = budget / shapes.len() as u32;
    let mut best: Option<(i32, Vec<Point>)> = None;
    for shape in shapes {
        let pts: Option<Vec<Point>> = shape
            .iter()
            .map(|&(dx, dy)| {
                let x = cx.checked_add_signed(dx)?;
                let y = cy.checked_add_signed(dy)?;
                Point::new(x, y).filter(|p| board.sq(*p).is_some())
            })
            .collect();
        let Some(pts) = pts else { continue };
        let mut b = board.clone();
        if pts.iter().any(|&p| b.play(p).is_err()) {
            continue;
        }
        let v = assess(&b, per, true).abs();
        if v < PROVEN && best.as_ref().is_none_or(|(bv, _)| v < *bv) {
            best = Some((v, pts));
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

/// Swap2's third option for the player facing three stones: add white's
/// fourth and black's fifth stone so that the position stays close to
/// balance, and let the opponent pick the colour. Returns `None` when no
/// pair could be assessed (a board too small or crowded).
pub fn swap2_balance(board: &Board, budget: Duration) -> Option<[Point; 2]> {
    let fours = offers(board, 5);
    let mut pairs: Vec<[Point; 2]> = Vec::new();
    for &w in &fours {
        let mut b = board.clone();
        if b.play(w).is_err() {
            continue;
        }
        for k in offers(&b, 4) {
            pairs.push([w, k]);
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let per = budget / pairs.len() as u32;
    let mut best: Option<(i32, [Point; 2])> = None;
    for pair in pairs {
        let mut b = board.clone();
        if pair.iter().any(|&p| b.play(p).is_err()) {
            continue;
        }
        // White to move after the fifth stone; either colour may end up
        // ours, so only the distance from balance counts.
        let v = assess(&b, per, true).abs();
        if v < PROVEN && best.as_ref().is_none_or(|(bv, _)| v < *bv) {
            best = Some((v, pair));
        }
    }
    best.map(|(_, p)| p)
}

/// What the player facing swap2's three stones answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Choice {
    /// Take black.
    Swap,
    /// Stay white and play the fourth stone.
    Play(Point),
    /// Add the fourth and fifth stones; the opponent chooses the colour.
    Balance([Point; 2]),
}

/// The decision on three swap2 stones (white to move): swap when white
/// stands badly, play on when white stands well, otherwise propose two
/// stones that keep the balance.
pub fn swap2_choose(board: &Board, budget: Duration) -> Swap2Choice {
    let v = assess(board, budget / 3, true);
    if v < -SWAP_MARGIN {
        return Swap2Choice::Swap;
    }
    let play = |budget: Duration| {
        let mut s = Searcher::new(16);
        let lim = Limits {
            time: Some(TimeManager {
                soft: budget / 2,
                hard: budget,
            }),
            ..Limits::default()
        };
        s.think(board, &lim, &mut |_| {}).best
    };
    if v <= SWAP_MARGIN {
        if let Some(pair) = swap2_balance(board, budget / 2) {
            return Swap2Choice::Balance(pair);
        }
    }
    match play(budget / 3).or_else(|| offers(board, 1).first().copied()) {
        Some(p) => Swap2Choice::Play(p),
        None => Swap2Choice::Swap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    fn three_stones(pts: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in pts {
            b.play(Point::new(x, y).unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn a_book_position_is_judged_by_the_book_only_when_asked() {
        // The swap decision after one central stone: in the book.
        let b = three_stones(&[(7, 7)]);
        let (_, score) = crate::book::builtin().lookup(&b).expect("in the book");
        assert_eq!(assess(&b, Duration::from_secs(60), true), score);
        // Without the book the position is searched to `assess`'s depth
        // (8), which a 60 s budget does not cut; the search agrees with
        // the book's 2,000,000-node score only by chance.
        let mut s = Searcher::new(8);
        s.set_book(false);
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let searched = s.think(&b, &limits, &mut |_| {}).score;
        assert_eq!(assess(&b, Duration::from_secs(60), false), searched);
    }

    #[test]
    fn swap2_balance_adds_a_white_and_a_black_stone() {
        let b = three_stones(&[(7, 7), (8, 7), (5, 9)]);
        let pair = swap2_balance(&b, Duration::from_millis(200)).expect("a pair");
        assert_ne!(pair[0], pair[1]);
        let mut after = b.clone();
        for p in pair {
            assert!(after.sq(p).is_some_and(|s| after.is_empty(s)));
            after.play(p).unwrap();
        }
        // Stone four is white's, five black's: white is to move again,
        // and neither stone ended the game.
        assert_eq!(after.stones(), 5);
        assert_eq!(after.to_move(), crate::board::Color::White);
        assert_eq!(after.outcome(), crate::board::Outcome::Ongoing);
    }

    /// Swap2 decisions where the right answer is plain: Black's two
    /// stones joined at the centre against White's one in a corner (take
    /// Black), and Black's two stones in the corners against White's at
    /// the centre (stay White and play next to the centre).
    #[test]
    fn swap2_decisions_on_clear_positions() {
        let black_ahead = three_stones(&[(7, 7), (0, 14), (8, 8)]);
        assert_eq!(
            swap2_choose(&black_ahead, Duration::from_millis(300)),
            Swap2Choice::Swap
        );
        let white_ahead = three_stones(&[(0, 0), (7, 7), (14, 14)]);
        match swap2_choose(&white_ahead, Duration::from_millis(300)) {
            Swap2Choice::Play(p) => {
                assert!(p.x.abs_diff(7) <= 2 && p.y.abs_diff(7) <= 2, "{p:?}")
            }
            other => panic!("white stands well and should play on, not {other:?}"),
        }
    }

    /// One stone: a central first stone is always swapped (every rule is
    /// a first-player win), one on the edge is not.
    #[test]
    fn swap_after_the_first_stone_depends_on_where_it_stands() {
        let centre = three_stones(&[(7, 7)]);
        assert!(should_swap(&centre, Duration::from_millis(100), true));
        let edge = three_stones(&[(0, 0)]);
        assert!(!should_swap(&edge, Duration::from_millis(100), true));
    }

    #[test]
    fn swap2_choice_is_always_playable() {
        for pts in [
            [(7, 7), (8, 7), (5, 9)],
            [(7, 7), (8, 8), (6, 6)],
            [(0, 0), (14, 14), (0, 14)],
        ] {
            let b = three_stones(&pts);
            match swap2_choose(&b, Duration::from_millis(150)) {
                Swap2Choice::Swap => {}
                Swap2Choice::Play(p) => assert!(b.sq(p).is_some_and(|s| b.is_empty(s))),
                Swap2Choice::Balance([a, c]) => {
                    assert_ne!(a, c);
                    for p in [a, c] {
                        assert!(b.sq(p).is_some_and(|s| b.is_empty(s)));
                    }
                }
            }
        }
    }
}
