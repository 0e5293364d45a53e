//! Combination attacks: a sequence of ataris that ends in a double
//! threat, capturing an opponent string the tactical reader calls safe
//! now (GNU Go's `atari_atari`, behind its `combination_attack` and
//! `combination_defend` commands; the GNU Go manual describes it, the
//! search here is tengen's own).
//!
//! The targets are the opponent strings the reader cannot capture and
//! whose dragon the owl reader cannot kill (GNU Go looks for a string
//! whose status changes from alive to critical; a weak stone's capture
//! is no surprise). The
//! attacker tries each move that puts a target in atari (a liberty of a
//! target with two liberties; a stone of its own that is left in atari
//! and captures nothing is not tried). When the move leaves two targets
//! capturable and the reader finds no single move saving both, the
//! combination works. When it threatens one, the defender answers with
//! the reader's defence of it and the attacker goes on, up to
//! `MAX_ATARIS` ataris in a row.

use crate::board::{Board, Color, Illegal, Move, Point};
use crate::dragon::Dragons;
use crate::owl::Owl;
use crate::reading::{Reader, LOSS};
use crate::worm::board_order;

/// Ataris the attacker may play in a row.
const MAX_ATARIS: u32 = 3;
/// Positions each tactical question may visit.
const READER_BUDGET: u64 = 2_000;
/// Positions the owl reader estimates for each opponent dragon.
const OWL_BUDGET: u64 = 40;

/// One stone of each string of colour `c` the reader cannot capture
/// whose dragon the owl reader (`owl.rs`) cannot kill.
fn targets(b: &Board, c: Color, reader: &mut Reader) -> Vec<Point> {
    let dragons = Dragons::new(b, READER_BUDGET);
    let mut owl = Owl::new(OWL_BUDGET);
    let mut alive: Vec<Option<bool>> = vec![None; dragons.all().len()];
    let mut seen: Vec<u16> = Vec::new();
    let mut out = Vec::new();
    for p in board_order(b) {
        if b.cell(p).color() != Some(c) || seen.contains(&b.chain_id(p)) {
            continue;
        }
        seen.push(b.chain_id(p));
        let Some(i) = dragons.index_of(p) else {
            continue;
        };
        if reader.attack(b, p).code != LOSS {
            continue;
        }
        let lives = *alive[i].get_or_insert_with(|| {
            let d = &dragons.all()[i];
            owl.attack(b, d.origin, &d.stones).code == LOSS
        });
        if lives {
            out.push(p);
        }
    }
    out
}

/// A move by `color` that captures something through a combination of
/// ataris, if there is one.
pub fn combination_attack(b: &Board, color: Color) -> Option<Point> {
    let mut reader = Reader::new(READER_BUDGET);
    let targets = targets(b, color.opp(), &mut reader);
    search(b, color, &targets, 0, &mut reader).map(|(m, _)| m)
}

/// GNU Go's `atari_atari_confirm_safety` without its move reasons: the
/// stones of `color` that a combination of the opponent's newly wins
/// after `color` plays `m` (0 when the combination was there before the
/// move too), and the moves of `color` before `m` (in GNU Go's board
/// order) after which `m` leaves no combination. `None` when `m` is
/// illegal (a ko capture is allowed, as GNU Go's `tryko`).
pub fn blunder(b: &Board, color: Color, m: Point) -> Option<(usize, Vec<Point>)> {
    let after = play_ko(b, color, m)?;
    let mut reader = Reader::new(READER_BUDGET);
    let targets = targets(&after, color, &mut reader);
    let won = |x: &Board, reader: &mut Reader| {
        search(x, color.opp(), &targets, 0, reader).map_or(0, |(_, n)| n)
    };
    let size = won(&after, &mut reader).saturating_sub(won(b, &mut reader));
    let mut defenses = Vec::new();
    if size > 0 {
        for p in board_order(b) {
            if p == m {
                continue;
            }
            let Some(next) = b.after(color, p).and_then(|x| play_ko(&x, color, m)) else {
                continue;
            };
            if reader.attack(&next, p).code == LOSS && won(&next, &mut reader) == 0 {
                defenses.push(p);
            }
        }
    }
    Some((size, defenses))
}

/// `m` played by `c` on a copy of `b`, a move forbidden by the ko ban
/// only allowed.
fn play_ko(b: &Board, c: Color, m: Point) -> Option<Board> {
    match b.check(c, Move::Play(m)) {
        Ok(()) | Err(Illegal::Ko) => {
            let mut x = b.clone();
            x.play(c, Move::Play(m));
            Some(x)
        }
        Err(_) => None,
    }
}

/// The moves by the opponent of `color` after which `color` has no
/// combination attack on the strings it had one against, in GNU Go's
/// board order (rows from the top); `None` when there is no combination
/// to defend against.
pub fn combination_defend(b: &Board, color: Color) -> Option<Vec<Point>> {
    let mut reader = Reader::new(READER_BUDGET);
    let targets = targets(b, color.opp(), &mut reader);
    search(b, color, &targets, 0, &mut reader)?;
    let mut out = Vec::new();
    for p in board_order(b) {
        let Some(after) = b.after(color.opp(), p) else {
            continue;
        };
        if search(&after, color, &targets, 0, &mut reader).is_none() {
            out.push(p);
        }
    }
    Some(out)
}

/// A combination's first move and the stones it wins (what the
/// defender must give up).
fn search(
    b: &Board,
    color: Color,
    targets: &[Point],
    depth: u32,
    reader: &mut Reader,
) -> Option<(Point, usize)> {
    let live: Vec<Point> = targets
        .iter()
        .copied()
        .filter(|&t| b.cell(t).color() == Some(color.opp()))
        .collect();
    let mut moves: Vec<Point> = Vec::new();
    for &t in &live {
        let libs = b.liberties(t);
        if libs.len() == 2 {
            for l in libs {
                if !moves.contains(&l) {
                    moves.push(l);
                }
            }
        }
    }
    moves.sort_by_key(|&p| (b.height() - p.y(), p.x()));
    for m in moves {
        let Some(after) = b.after(color, m) else {
            continue;
        };
        if after.in_atari(m) && after.captures(color) == b.captures(color) {
            continue;
        }
        let taken: usize = live
            .iter()
            .filter(|&&t| after.cell(t) != b.cell(t))
            .map(|&t| b.chain_size(t))
            .sum();
        if taken > 0 {
            // Something was captured outright.
            return Some((m, taken));
        }
        let threatened: Vec<Point> = live
            .iter()
            .copied()
            .filter(|&t| after.liberties(t).len() <= 2 && reader.attack(&after, t).code != LOSS)
            .collect();
        match threatened.as_slice() {
            [] => {}
            [t] => {
                if depth + 1 >= MAX_ATARIS {
                    continue;
                }
                let d = reader.defend(&after, *t);
                if d.code == LOSS {
                    return Some((m, after.chain_size(*t)));
                }
                let Some(dp) = d.point else { continue };
                let Some(next) = after.after(color.opp(), dp) else {
                    continue;
                };
                if let Some((_, n)) = search(&next, color, targets, depth + 1, reader) {
                    return Some((m, n));
                }
            }
            [t1, t2, ..] => {
                if reader.defend_both(&after, *t1, *t2) == LOSS {
                    return Some((m, after.chain_size(*t1).min(after.chain_size(*t2))));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{from_rows, point};

    #[test]
    fn a_double_atari_is_a_combination() {
        // Black at D4 ataris both white stones, D5 and C4, each with two
        // liberties now; White cannot save both.
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . X . . . . .",
            ". . X O . . . . .",
            ". X O . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        // With both white stones as targets (the owl reader calls them
        // alive here, GNU Go's calls them critical and finds no
        // combination: a weak stone's capture is no surprise to it).
        let targets = [point("D5", 9), point("C4", 9)];
        let mut reader = Reader::new(READER_BUDGET);
        assert_eq!(
            search(&b, Color::Black, &targets, 0, &mut reader).map(|(m, _)| m),
            Some(point("D4", 9))
        );
        // After White takes D4 there is none.
        let after = b
            .after(Color::White, point("D4", 9))
            .unwrap_or_else(|| b.clone());
        assert_eq!(search(&after, Color::Black, &targets, 0, &mut reader), None);
        // No target, no combination.
        assert_eq!(search(&b, Color::Black, &[], 0, &mut reader), None);
    }
}
