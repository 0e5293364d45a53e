//! Opening decisions: whether to take a colour swap, which fifth-move
//! alternatives to offer, and swap2 openings.

use crate::board::{Board, Point, Sq};
use crate::search::{move_score, Limits, Searcher, PROVEN};
use crate::threat::{near, playable};
use std::time::Duration;

/// Scores within this margin count as balanced.
pub const SWAP_MARGIN: i32 = 40;

/// Searches the side to move's prospects briefly.
pub fn assess(board: &Board, budget: Duration) -> i32 {
    let mut s = Searcher::new(8);
    let limits = Limits {
        depth: Some(8),
        soft: Some(budget / 2),
        hard: Some(budget),
        ..Limits::default()
    };
    s.think(board, &limits, &mut |_| {}).score
}

/// Whether the side to move should rather swap colours (take the stones
/// of the side that just moved): it does when its own prospects are bad.
pub fn should_swap(board: &Board, budget: Duration) -> bool {
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
    assess(board, budget) < -SWAP_MARGIN
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
        let v = assess(&b, per).abs();
        if v < PROVEN && best.as_ref().is_none_or(|(bv, _)| v < *bv) {
            best = Some((v, pts));
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}
