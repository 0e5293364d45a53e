//! Learned evaluation terms, added on top of the hand-made ones in
//! `eval.rs`: where each piece stands relative to its own king (the castle)
//! and to the enemy king (the attack), where the king itself stands, and
//! the marginal value of each further piece of a kind in hand.
//!
//! The weights are fitted by `examples/tune.rs` to Fairy-Stockfish's
//! search scores and the results of its self-play games
//! (`scripts/shogi_datagen.py`), as the residual the hand-made evaluation
//! leaves; `learned_weights.rs` is that program's output.

use crate::board::Board;
use crate::types::{Color, Kind, Square};

/// Rows of a king-relative offset: the piece's row minus the king's, both
/// counted from the piece owner's side, clamped to ±`REACH`.
const REACH: isize = 3;
const DY: usize = 2 * REACH as usize + 1;
/// Columns of a king-relative offset: the distance in files, clamped to
/// `REACH`. Shogi's rules are left-right symmetric, so a mirrored position
/// shares weights.
const DX: usize = REACH as usize + 1;
const OFFSETS: usize = DY * DX;
const KINDS: usize = 14;

const OWN_BASE: usize = 0;
const OPP_BASE: usize = OWN_BASE + KINDS * OFFSETS;
const KING_BASE: usize = OPP_BASE + KINDS * OFFSETS;
const HAND_BASE: usize = KING_BASE + 9 * 5;
/// Hand counts with a weight of their own; more of a kind share the last.
const HAND_STEPS: usize = 9;
/// Number of learned weights.
pub const FEATURES: usize = HAND_BASE + 7 * HAND_STEPS;

#[allow(clippy::unreadable_literal)]
mod weights {
    include!("learned_weights.rs");
}
use weights::WEIGHTS;

#[inline]
fn offset(color: Color, piece: Square, king: Square) -> usize {
    let dy = piece.relative_row(color) as isize - king.relative_row(color) as isize;
    offset_of(dy, piece.col().abs_diff(king.col()))
}

/// The offset index of a piece `dy` rows (from its owner's side) and `dx`
/// files from a king.
#[inline]
fn offset_of(dy: isize, dx: usize) -> usize {
    (dy.clamp(-REACH, REACH) + REACH) as usize * DX + dx.min(DX - 1)
}

/// The weight of `color`'s king standing on `sq`.
pub(crate) fn king_weight(color: Color, sq: Square) -> i32 {
    let col = sq.col().min(8 - sq.col());
    i32::from(WEIGHTS[KING_BASE + sq.relative_row(color) * 5 + col])
}

/// The weight of a non-king `kind` `dy` rows (counted from its owner's
/// side) and `dx` files from its own king (`own`) or the enemy king.
pub(crate) fn king_relative_weight(kind: Kind, own: bool, dy: isize, dx: usize) -> i32 {
    let base = if own { OWN_BASE } else { OPP_BASE };
    i32::from(WEIGHTS[base + kind.index() * OFFSETS + offset_of(dy, dx)])
}

/// The weights of `n` pieces of hand index `i` together.
pub(crate) fn hand_weight(i: usize, n: usize) -> i32 {
    let start = HAND_BASE + i * HAND_STEPS;
    (0..n.min(HAND_STEPS))
        .map(|step| i32::from(WEIGHTS[start + step]))
        .sum()
}

/// Calls `f(index)` for every active feature of `color`'s pieces.
#[inline]
pub fn for_each_feature(board: &Board, color: Color, mut f: impl FnMut(usize)) {
    let own = board.king(color);
    let opp = board.king(color.flip());
    for sq in Square::all() {
        let Some(p) = board.piece_at(sq) else {
            continue;
        };
        if p.color() != color {
            continue;
        }
        let k = p.kind();
        if k == Kind::King {
            let col = sq.col().min(8 - sq.col());
            f(KING_BASE + sq.relative_row(color) * 5 + col);
            continue;
        }
        if let Some(ks) = own {
            f(OWN_BASE + k.index() * OFFSETS + offset(color, sq, ks));
        }
        if let Some(ks) = opp {
            f(OPP_BASE + k.index() * OFFSETS + offset(color, sq, ks));
        }
    }
    for (i, &n) in board.hand(color).iter().enumerate() {
        for step in 0..usize::from(n).min(HAND_STEPS) {
            f(HAND_BASE + i * HAND_STEPS + step);
        }
    }
}

/// The learned terms for `color`'s pieces, in the evaluation's units.
#[inline]
pub fn score(board: &Board, color: Color) -> i32 {
    let mut s = 0i32;
    for_each_feature(board, color, |i| s += i32::from(WEIGHTS[i]));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_index_is_in_range_and_colours_mirror() {
        let b = Board::from_sfen(
            "+Pn2l4/3k5/1p1g2sp1/3spp2p/p6+r1/2P1PPsL1/2S2g3/5K3/3NG3L b RBGLPb2n7p 147",
        )
        .unwrap();
        for c in Color::BOTH {
            for_each_feature(&b, c, |i| assert!(i < FEATURES));
        }
        // The start position is symmetric: both sides get the same features.
        let s = Board::startpos();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for_each_feature(&s, Color::Black, |i| black.push(i));
        for_each_feature(&s, Color::White, |i| white.push(i));
        black.sort_unstable();
        white.sort_unstable();
        assert_eq!(black, white);
        assert_eq!(black.len(), 2 * 19 + 1);
    }

    #[test]
    fn hand_counts_activate_one_step_each() {
        let b = Board::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3P2g 1").unwrap();
        let mut n = 0;
        for_each_feature(&b, Color::Black, |i| {
            if i >= HAND_BASE {
                n += 1;
            }
        });
        assert_eq!(n, 3);
        let mut n = 0;
        for_each_feature(&b, Color::White, |i| {
            if i >= HAND_BASE {
                n += 1;
                assert_eq!((i - HAND_BASE) / HAND_STEPS, Kind::Gold.index());
            }
        });
        assert_eq!(n, 2);
    }
}
