//! A hand-made evaluation: material on the board and in hand, piece-square
//! terms, and king safety (attacked squares around each king, defenders
//! beside it, and how dangerous the attacker's hand is).
//! Scores are in centipawn-like units from the side to move's view.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::{self, NEIGHBOR};
use crate::types::{Color, Kind, Square};

/// Value of a piece on the board, by `Kind` index.
pub const BOARD_VALUE: [i32; 14] = [
    90,   // pawn
    315,  // lance
    405,  // knight
    495,  // silver
    540,  // gold
    855,  // bishop
    990,  // rook
    0,    // king
    540,  // tokin
    540,  // promoted lance
    540,  // promoted knight
    540,  // promoted silver
    945,  // horse
    1395, // dragon
];

/// Value of a piece in hand, by hand index: a little more than on the
/// board, since it can be dropped anywhere.
pub const HAND_VALUE: [i32; 7] = [100, 350, 450, 560, 610, 950, 1100];

/// What a hand piece adds to an attack on an exposed king.
const HAND_THREAT: [i32; 7] = [4, 6, 8, 12, 14, 12, 16];

#[inline]
pub fn board_value(kind: Kind) -> i32 {
    BOARD_VALUE[kind.index()]
}

#[inline]
pub fn hand_value(kind: Kind) -> i32 {
    HAND_VALUE.get(kind.index()).copied().unwrap_or(0)
}

/// Piece-square bonus by kind and row counted from the owner's side
/// (0 = the enemy's back rank).
fn pst(kind: Kind, rel_row: usize, col: usize) -> i32 {
    let centre = 4 - (col as i32 - 4).abs(); // 0..4
    let adv = 8 - rel_row as i32; // 0 at home, 8 at the far side
    match kind {
        // Pawns pushed to the middle rows help; far-advanced ones are
        // targets until they promote.
        Kind::Pawn => [0, 12, 10, 8, 4, 2, 0, 0, 0][rel_row],
        // Golds and silvers earn their keep from the kings (see
        // `proximity`); on their own rows they only avoid the edges.
        Kind::Silver | Kind::Gold => [-6, -2, 2, 4, 4, 4, 2, 0, -2][rel_row] + centre / 2,
        Kind::Knight => [0, 0, 10, 14, 10, 4, 0, -2, -4][rel_row],
        Kind::Lance => adv.min(3) - 2,
        Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => {
            [14, 12, 10, 6, 2, 0, 0, 0, 0][rel_row] + centre
        }
        Kind::Horse | Kind::Dragon => 2 * centre,
        Kind::King => {
            // Safe at home; exposed in the middle; the enemy camp is good
            // only for an entering king, left to the declaration rule.
            let r = [10, 0, -30, -45, -50, -40, -20, 0, 6][rel_row];
            r - 4 * centre
        }
        _ => 0,
    }
}

/// Bonus for a piece by its Chebyshev distance (index 0 = adjacent, up
/// to 3 = four or more squares away) to its own king: the castle.
const DEFEND: [[i32; 4]; 14] = [
    [8, 6, 0, 0],   // pawn: the king's pawn cover
    [0, 0, 0, 0],   // lance
    [0, 8, 4, 0],   // knight
    [30, 22, 8, 0], // silver
    [40, 25, 8, 0], // gold
    [0, 0, 0, 0],   // bishop
    [0, 0, 0, 0],   // rook
    [0, 0, 0, 0],   // king
    [20, 12, 4, 0], // tokin
    [20, 12, 4, 0], // promoted lance
    [20, 12, 4, 0], // promoted knight
    [20, 12, 4, 0], // promoted silver
    [25, 15, 5, 0], // horse
    [10, 5, 0, 0],  // dragon
];

/// Bonus for a piece by its distance to the enemy king: the attack.
const ATTACK: [[i32; 4]; 14] = [
    [10, 15, 5, 0],   // pawn
    [5, 10, 5, 0],    // lance
    [10, 25, 12, 0],  // knight
    [35, 25, 10, 0],  // silver
    [40, 25, 10, 0],  // gold
    [10, 10, 10, 5],  // bishop
    [15, 15, 10, 5],  // rook
    [0, 0, 0, 0],     // king
    [50, 35, 15, 5],  // tokin
    [50, 35, 15, 5],  // promoted lance
    [50, 35, 15, 5],  // promoted knight
    [50, 35, 15, 5],  // promoted silver
    [45, 35, 20, 10], // horse
    [60, 45, 25, 10], // dragon
];

#[inline]
fn distance_band(a: Square, b: Square) -> usize {
    let dr = (a.row() as i32 - b.row() as i32).unsigned_abs() as usize;
    let dc = (a.col() as i32 - b.col() as i32).unsigned_abs() as usize;
    dr.max(dc).clamp(1, 4) - 1
}

/// Castle and attack terms of a piece of `color` and `kind` on `sq`.
#[inline]
fn proximity(kings: [Option<Square>; 2], color: Color, kind: Kind, sq: Square) -> i32 {
    let k = kind.index();
    let own = kings[color.index()].map_or(0, |ks| DEFEND[k][distance_band(sq, ks)]);
    let opp = kings[color.flip().index()].map_or(0, |ks| ATTACK[k][distance_band(sq, ks)] * 3 / 2);
    own + opp
}

/// Mobility weight per square a slider reaches, and the count that
/// scores zero, by kind (lance, bishop, rook, horse, dragon; others none).
fn mobility_weight(kind: Kind) -> (i32, i32) {
    match kind {
        Kind::Lance => (2, 2),
        Kind::Bishop => (5, 5),
        Kind::Rook => (4, 6),
        Kind::Horse => (3, 6),
        Kind::Dragon => (3, 8),
        _ => (0, 0),
    }
}

/// Squares a slider of `color` on `sq` reaches along its slide lines:
/// empty ones and a first enemy piece to take.
#[inline]
fn slider_reach(board: &Board, color: Color, kind: Kind, sq: Square) -> i32 {
    let reach = crate::bitboard::slide_attacks(color, kind, sq, board.occupied());
    (reach & !board.pieces(color)).count() as i32
}

/// Most pieces of one kind a hand can hold (the pawns).
const MAX_HAND: usize = 18;

/// The terms of a piece that depend only on where it and the two kings
/// stand, hand-made and learned added together, so that the search's
/// evaluation reads three numbers per piece instead of recomputing them.
/// Row offsets are counted from the piece owner's side, plus 8; column
/// offsets are file distances.
struct Tables {
    /// Material and piece-square terms (and the learned king placement),
    /// by colour, kind and square.
    base: [[[i32; 81]; 14]; 2],
    /// Castle terms: near the piece's own king.
    own: [[[i32; 9]; 17]; 14],
    /// Attack terms: near the enemy king.
    opp: [[[i32; 9]; 17]; 14],
    /// Hand value of `n` pieces of a hand index, learned steps included.
    hand: [[i32; MAX_HAND + 1]; 7],
    /// `drop_checks[colour][near][back]`: the hand kinds of `colour` (bit =
    /// hand index; knights left out, they are counted apart) whose drop
    /// looking along direction `back` at a king gives check, from next to
    /// it (`near` = 1, a step or a slide) or from further (a slide).
    drop_checks: [[[u8; 8]; 2]; 2],
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Box<Tables>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        use crate::learned::{hand_weight, king_relative_weight, king_weight};
        let mut t = Box::new(Tables {
            base: [[[0; 81]; 14]; 2],
            own: [[[0; 9]; 17]; 14],
            opp: [[[0; 9]; 17]; 14],
            hand: [[0; MAX_HAND + 1]; 7],
            drop_checks: [[[0; 8]; 2]; 2],
        });
        for c in Color::BOTH {
            for (i, kind) in Kind::HAND.into_iter().enumerate() {
                if kind == Kind::Knight {
                    continue;
                }
                let (steps, slides) = (geometry::steps(c, kind), geometry::slides(c, kind));
                for back in 0..8 {
                    let near = (steps | slides) & (1 << back) != 0;
                    let far = slides & (1 << back) != 0;
                    t.drop_checks[c.index()][1][back] |= u8::from(near) << i;
                    t.drop_checks[c.index()][0][back] |= u8::from(far) << i;
                }
            }
        }
        for kind in Kind::ALL {
            let k = kind.index();
            for c in Color::BOTH {
                for sq in Square::all() {
                    let mut v = board_value(kind) + pst(kind, sq.relative_row(c), sq.col());
                    if kind == Kind::King {
                        v += king_weight(c, sq);
                    }
                    t.base[c.index()][k][sq.index()] = v;
                }
            }
            if kind == Kind::King {
                // Kings have no castle or attack terms, learned or not.
                continue;
            }
            for row in 0..17 {
                let dy = row as isize - 8;
                for dx in 0..9 {
                    let band = (dy.unsigned_abs()).max(dx).clamp(1, 4) - 1;
                    t.own[k][row][dx] = DEFEND[k][band] + king_relative_weight(kind, true, dy, dx);
                    t.opp[k][row][dx] =
                        ATTACK[k][band] * 3 / 2 + king_relative_weight(kind, false, dy, dx);
                }
            }
        }
        for (i, row) in t.hand.iter_mut().enumerate() {
            for (n, v) in row.iter_mut().enumerate() {
                let count = n as i32;
                let first = count.min(2);
                *v = HAND_VALUE[i] * first
                    + (HAND_VALUE[i] * 9 / 10) * (count - first)
                    + hand_weight(i, n);
            }
        }
        t
    })
}

/// The evaluation. Stateless, so cheap to clone per search thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eval;

impl Eval {
    /// Score from `board`'s side to move's view: the hand-made terms plus
    /// the learned ones (`learned.rs`), summed in one pass over the board
    /// from [`Tables`]. Equal to [`Eval::definition`].
    pub fn evaluate(&self, board: &Board) -> i32 {
        let us = board.side_to_move();
        let (Some(bk), Some(wk)) = (board.king(Color::Black), board.king(Color::White)) else {
            // A problem position without both kings: the terms that
            // depend on the missing king drop out, which the tables
            // do not model.
            return self.definition(board);
        };
        let t = tables();
        let kings = [bk, wk];
        let mut score = [0i32; 2];
        let occ = board.occupied();
        // Kind by kind over each side's pieces: the tables' rows for the
        // kind are read once, and no square is decoded.
        for c in Color::BOTH {
            let ci = c.index();
            let mine = board.pieces(c);
            // Each king's row from this side's view and its column: a
            // piece's offset row is its own relative row + 8 - the king's.
            let own_k = kings[ci];
            let opp_k = kings[ci ^ 1];
            let (own_kr, own_kc) = (own_k.relative_row(c), own_k.col());
            let (opp_kr, opp_kc) = (opp_k.relative_row(c), opp_k.col());
            let mut sum = 0;
            for kind in Kind::ALL {
                let set = mine & board.kind_squares(kind);
                if set.is_empty() {
                    continue;
                }
                let ki = kind.index();
                let (base, own, opp) = (&t.base[ci][ki], &t.own[ki], &t.opp[ki]);
                let (w, zero) = mobility_weight(kind);
                for sq in set {
                    let row = sq.relative_row(c) + 8;
                    sum += base[sq.index()]
                        + own[row - own_kr][sq.col().abs_diff(own_kc)]
                        + opp[row - opp_kr][sq.col().abs_diff(opp_kc)];
                    if w != 0 {
                        let reach = crate::bitboard::slide_attacks(c, kind, sq, occ) & !mine;
                        sum += w * (reach.count() as i32 - zero);
                    }
                }
            }
            score[ci] += sum;
        }
        for c in Color::BOTH {
            for (i, &n) in board.hand(c).iter().enumerate() {
                score[c.index()] += t.hand[i][usize::from(n).min(MAX_HAND)];
            }
            score[c.index()] -= king_danger(board, c);
        }
        score[us.index()] - score[us.flip().index()] + 20
    }

    /// What [`Eval::evaluate`] computes, term by term: the hand-made terms
    /// plus each side's learned ones.
    pub fn definition(&self, board: &Board) -> i32 {
        let us = board.side_to_move();
        self.hand_made(board) + crate::learned::score(board, us)
            - crate::learned::score(board, us.flip())
    }

    /// The hand-made terms alone, from the side to move's view: what the
    /// learned terms are fitted on top of.
    pub fn hand_made(&self, board: &Board) -> i32 {
        let mut score = [0i32; 2];
        let kings = [board.king(Color::Black), board.king(Color::White)];
        for sq in Square::all() {
            if let Some(p) = board.piece_at(sq) {
                let c = p.color();
                let k = p.kind();
                score[c.index()] += board_value(k)
                    + pst(k, sq.relative_row(c), sq.col())
                    + proximity(kings, c, k, sq);
                let (w, base) = mobility_weight(k);
                if w != 0 {
                    score[c.index()] += w * (slider_reach(board, c, k, sq) - base);
                }
            }
        }
        for c in Color::BOTH {
            for (i, &n) in board.hand(c).iter().enumerate() {
                if n > 0 {
                    // Diminishing returns for a pile of the same piece.
                    let n = i32::from(n);
                    let first = n.min(2);
                    score[c.index()] +=
                        HAND_VALUE[i] * first + (HAND_VALUE[i] * 9 / 10) * (n - first);
                }
            }
        }
        for c in Color::BOTH {
            score[c.index()] -= king_danger(board, c);
        }
        let us = board.side_to_move();
        // A small bonus for having the move.
        score[us.index()] - score[us.flip().index()] + 20
    }
}

/// Penalty for `color`'s king: enemy-controlled squares around it, few
/// defenders, and enemy hand pieces that could be dropped into the holes.
fn king_danger(board: &Board, color: Color) -> i32 {
    let Some(k) = board.king(color) else { return 0 };
    let them = color.flip();
    let occ = board.occupied();
    let threats = board.attack_map(them, occ);
    let around = crate::bitboard::king_attacks(k);
    let guards = board.kind_squares(Kind::Gold)
        | board.kind_squares(Kind::Silver)
        | board.kind_squares(Kind::ProPawn)
        | board.kind_squares(Kind::ProSilver);
    let attacked = (around & threats).count() as i32;
    let defenders = (around & board.pieces(color) & guards).count() as i32;
    let empty = (around & !occ).count() as i32;
    let checks = safe_drop_checks_given(board, color, k, threats);
    danger_from(board, them, attacked, defenders, empty, checks)
}

/// King danger from its parts: attacked squares, defenders and empty
/// squares around the king, and the weight of safe drop checks.
fn danger_from(
    board: &Board,
    them: Color,
    attacked: i32,
    defenders: i32,
    empty: i32,
    checks: i32,
) -> i32 {
    let hand_threat: i32 = board
        .hand(them)
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            if n > 0 {
                HAND_THREAT[i] + i32::from(n.min(3))
            } else {
                0
            }
        })
        .sum();
    let exposure = attacked * 2 + empty - 2 * defenders;
    let exposure = exposure.max(0);
    // Safe drop checks grow with the holes already around the king: a
    // check into an open king is where mating attacks start.
    attacked * 18
        + exposure * (6 + hand_threat / 2)
        + exposure * exposure * 3
        + checks * (8 + 4 * attacked)
}

/// Weight of a safe drop check by hand index: how much a drop that checks
/// from a square the defender does not cover helps a mating attack.
const CHECK_WEIGHT: [i32; 7] = [2, 3, 5, 5, 6, 5, 7];

/// Sum of `CHECK_WEIGHT` over the enemy's hand kinds that have at least
/// one empty square from which a drop would check `color`'s king on `k`
/// and which no defender other than the king covers (next to the king it
/// must also be supported by the attacker, or the king just takes it).
#[cfg(test)]
fn safe_drop_checks(board: &Board, color: Color, k: Square) -> i32 {
    let threats = board.attack_map(color.flip(), board.occupied());
    safe_drop_checks_given(board, color, k, threats)
}

/// [`safe_drop_checks`] with the squares the enemy attacks at hand.
fn safe_drop_checks_given(board: &Board, color: Color, k: Square, threats: Bitboard) -> i32 {
    use crate::geometry::{opposite, KNIGHT_TO, NONE};
    let them = color.flip();
    let hand = board.hand(them);
    if hand.iter().all(|&n| n == 0) {
        return 0;
    }
    // Bit i: hand kind i has a safe checking drop.
    let mut found = 0u8;
    let held = (0..7).fold(0u8, |m, i| m | u8::from(hand[i] > 0) << i);
    let drop_checks = &tables().drop_checks[them.index()];
    let safe = |sq: Square, adjacent: bool| {
        (!adjacent || threats.has(sq)) && !board.attacked_by(sq, color, Some(k))
    };
    for d in 0..8 {
        let back = opposite(d);
        let mut n = NEIGHBOR[k.index()][d];
        let mut dist = 1;
        while n != NONE && dist <= 3 {
            let Some(sq) = Square::new(n as usize) else {
                break;
            };
            if board.piece_at(sq).is_some() {
                break;
            }
            // Kinds held and not yet found whose drop here would check.
            let checkers = drop_checks[usize::from(dist == 1)][back] & held & !found;
            if checkers != 0 && safe(sq, dist == 1) {
                found |= checkers;
            }
            n = NEIGHBOR[n as usize][d];
            dist += 1;
        }
    }
    if hand[Kind::Knight.index()] > 0 {
        for &n in &KNIGHT_TO[color.index()][k.index()] {
            if let Some(sq) = (n != NONE).then(|| Square::new(n as usize)).flatten() {
                if board.piece_at(sq).is_none() && safe(sq, false) {
                    found |= 1 << Kind::Knight.index();
                }
            }
        }
    }
    (0..7)
        .filter(|i| found & (1 << i) != 0)
        .map(|i| CHECK_WEIGHT[i])
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// King danger as the mailbox evaluation computed it: square by square,
    /// one attack question each.
    fn king_danger_reference(board: &Board, color: Color) -> i32 {
        let Some(k) = board.king(color) else { return 0 };
        let them = color.flip();
        let mut attacked = 0;
        let mut defenders = 0;
        let mut empty = 0;
        for &n in &crate::geometry::NEIGHBOR[k.index()] {
            if n == crate::geometry::NONE {
                continue;
            }
            let Some(sq) = Square::new(n as usize) else {
                continue;
            };
            let occupant = board.piece_at(sq);
            match occupant {
                Some(p) if p.color() == color => {
                    if matches!(
                        p.kind(),
                        Kind::Gold | Kind::Silver | Kind::ProPawn | Kind::ProSilver
                    ) {
                        defenders += 1;
                    }
                }
                _ => {
                    if occupant.is_none() {
                        empty += 1;
                    }
                }
            }
            if board.attacked_by(sq, them, None) {
                attacked += 1;
            }
        }
        let checks = reference_drop_checks(board, color, k);
        danger_from(board, them, attacked, defenders, empty, checks)
    }

    /// Safe drop checks as the mailbox evaluation found them.
    fn reference_drop_checks(board: &Board, color: Color, k: Square) -> i32 {
        use crate::geometry::{opposite, KNIGHT_TO, NONE};
        let them = color.flip();
        let hand = board.hand(them);
        if hand.iter().all(|&n| n == 0) {
            return 0;
        }
        // Bit i: hand kind i has a safe checking drop.
        let mut found = 0u8;
        let held = (0..7).fold(0u8, |m, i| m | u8::from(hand[i] > 0) << i);
        let drop_checks = &tables().drop_checks[them.index()];
        let safe = |sq: Square, adjacent: bool| {
            !board.attacked_by(sq, color, Some(k))
                && (!adjacent || board.attacked_by(sq, them, None))
        };
        for d in 0..8 {
            let back = opposite(d);
            let mut n = NEIGHBOR[k.index()][d];
            let mut dist = 1;
            while n != NONE && dist <= 3 {
                let Some(sq) = Square::new(n as usize) else {
                    break;
                };
                if board.piece_at(sq).is_some() {
                    break;
                }
                // Kinds held and not yet found whose drop here would check.
                let checkers = drop_checks[usize::from(dist == 1)][back] & held & !found;
                if checkers != 0 && safe(sq, dist == 1) {
                    found |= checkers;
                }
                n = NEIGHBOR[n as usize][d];
                dist += 1;
            }
        }
        if hand[Kind::Knight.index()] > 0 {
            for &n in &KNIGHT_TO[color.index()][k.index()] {
                if let Some(sq) = (n != NONE).then(|| Square::new(n as usize)).flatten() {
                    if board.piece_at(sq).is_none() && safe(sq, false) {
                        found |= 1 << Kind::Knight.index();
                    }
                }
            }
        }
        (0..7)
            .filter(|i| found & (1 << i) != 0)
            .map(|i| CHECK_WEIGHT[i])
            .sum()
    }

    /// King danger on attack maps equals the square-by-square version, on
    /// random-play positions from the bench set (both kings, full hands).
    #[test]
    fn king_danger_equals_the_mailbox_version() {
        let mut seed = 31u64;
        let mut seen = 0;
        let mut nonzero = 0;
        for fen in crate::searchable::BENCH_FENS {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..150 {
                for c in Color::BOTH {
                    let want = king_danger_reference(&b, c);
                    assert_eq!(king_danger(&b, c), want, "{} {c:?}", b.to_sfen());
                    seen += 1;
                    nonzero += usize::from(want != 0);
                }
                let mut moves = Vec::new();
                b.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(seen > 1000 && nonzero > 500, "{seen} {nonzero}");
    }

    #[test]
    fn startpos_is_balanced_and_material_counts() {
        let e = Eval;
        let b = Board::startpos();
        assert_eq!(e.evaluate(&b), 20);
        // Sente a rook up (gote's rook gone): worth more than six pawns
        // even after the learned terms' corrections.
        let b = Board::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap();
        assert!(e.evaluate(&b) > 6 * BOARD_VALUE[0], "{}", e.evaluate(&b));
        // A rook in sente's hand is worth more than on gote's side of the ledger.
        let b = Board::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w R 1")
            .unwrap();
        assert!(e.evaluate(&b) < -1000);
    }

    #[test]
    fn safe_drop_checks_need_a_hand_piece_and_an_uncovered_square() {
        let sq59 = |b: &Board| b.king(Color::Black).unwrap();
        // Gote's silver on 4g supports a gold drop on 4h or 5h next to the
        // bare king: a safe check.
        let b = Board::from_sfen("4k4/9/9/9/9/9/5s3/9/4K4 b g 1").unwrap();
        assert_eq!(
            safe_drop_checks(&b, Color::Black, sq59(&b)),
            CHECK_WEIGHT[4]
        );
        // Golds on 4i and 6i cover both squares: no safe gold check left.
        let b = Board::from_sfen("4k4/9/9/9/9/9/5s3/9/3GKG3 b g 1").unwrap();
        assert_eq!(safe_drop_checks(&b, Color::Black, sq59(&b)), 0);
        // Nothing in hand, nothing to drop.
        let b = Board::from_sfen("4k4/9/9/9/9/9/5s3/9/4K4 b - 1").unwrap();
        assert_eq!(safe_drop_checks(&b, Color::Black, sq59(&b)), 0);
        // A rook in hand checks from afar on the open file, out of the
        // king's reach.
        let b = Board::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b r 1").unwrap();
        assert_eq!(
            safe_drop_checks(&b, Color::Black, sq59(&b)),
            CHECK_WEIGHT[6]
        );
    }

    /// The tabulated one-pass evaluation is the sum of its two
    /// definitions, on positions from random play (kings near each other,
    /// full hands) and without a king.
    #[test]
    fn tabulated_evaluation_equals_the_terms_it_sums() {
        let e = Eval;
        let check = |b: &Board| {
            assert_eq!(e.evaluate(b), e.definition(b), "{}", b.to_sfen());
        };
        let mut seed = 7u64;
        let mut seen = 0;
        for fen in crate::searchable::BENCH_FENS {
            let mut b = Board::from_sfen(fen).unwrap();
            for _ in 0..200 {
                check(&b);
                seen += 1;
                let mut moves = Vec::new();
                b.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.do_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(seen > 1000, "{seen}");
        for sfen in [
            "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
            "4k4/9/9/9/9/9/9/9/4K4 w 18P 1",
        ] {
            check(&Board::from_sfen(sfen).unwrap());
        }
    }

    #[test]
    fn symmetric_positions_score_the_same_for_either_side() {
        let e = Eval;
        let a =
            Board::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        let b =
            Board::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(e.evaluate(&a), e.evaluate(&b));
    }
}
