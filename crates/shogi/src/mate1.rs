//! A fast, incomplete mate-in-one finder for the evaluation: contact
//! checks (a drop or a move onto a square next to the enemy king, backed
//! by another of our pieces) and knight drops. Discovered checks and
//! distant slider checks are left to the search; what it does report is
//! always a real mate (the candidate is played and the defender is shown
//! to have no legal move).

use crate::bitboard::{
    attacks, bishop_pseudo, king_attacks, lance_attacks, rook_pseudo, step_attacks, Bitboard,
};
use crate::board::Board;
use crate::geometry::{self, opposite, KNIGHT_TO, NEIGHBOR, NONE};
use crate::types::{Color, Kind, Move, Square};

/// Whether a `kind` of `us` on the square next to the king, in direction
/// `d` from it, gives check.
#[inline]
fn checks_from(us: Color, kind: Kind, d: usize) -> bool {
    // The piece looks back at the king: direction opposite(d).
    let toward = 1u8 << opposite(d);
    (geometry::steps(us, kind) | geometry::slides(us, kind)) & toward != 0
}

/// The king's neighbours (on `ek`) that a checker of `kind` of `us`
/// placed on `sq` leaves open: not the enemy's own pieces, not the
/// checker's square, not what the checker reaches. `occ` is the board
/// after the move without the enemy king, so the checker's lines run on
/// through the king's square (it has stepped away) and along the king's
/// other neighbours: a dragon diagonally beside the king also covers the
/// neighbour two squares away along its rank or file.
fn escape_candidates(
    ek: Square,
    sq: Square,
    us: Color,
    kind: Kind,
    theirs: Bitboard,
    occ: Bitboard,
) -> Bitboard {
    let covered = attacks(us, kind, sq, occ);
    (king_attacks(ek) & !theirs & !covered).without(sq)
}

/// Whether the king on `ek` surely escapes a checker of `kind` moved to
/// `sq` from `from`: a neighbour that neither the checker nor any other of
/// our pieces reaches. It may answer "no" when the king can escape, never
/// "yes" when it cannot (lines through the king's square count as open:
/// it has stepped off it).
fn king_escapes(board: &Board, ek: Square, sq: Square, kind: Kind, from: Square) -> bool {
    let us = board.side_to_move();
    let after = board.occupied().without(from).with(sq).without(ek);
    let candidates = escape_candidates(ek, sq, us, kind, board.pieces(us.flip()), after);
    // The mover's origin is empty after the move; a knight there still
    // counts as covering its squares (as the mailbox version had it: a
    // harmless over-estimate, since every candidate mate is played out).
    let occ = board.occupied().without(from).without(ek);
    let knight_cover = if board.pieces_of(us, Kind::Knight).has(from) {
        step_attacks(us, Kind::Knight, from)
    } else {
        Bitboard::EMPTY
    };
    (candidates & !knight_cover)
        .into_iter()
        .any(|e| !board.attacked_in(us, e, occ))
}

/// [`king_escapes`] for a drop of `kind` on `sq`, with `attacked` the
/// king's neighbours that our pieces reach on the board before the drop
/// (a dropped piece can block one of our lines, so this may answer "no"
/// when the king can escape, never "yes" when it cannot).
fn drop_escapes(
    ek: Square,
    sq: Square,
    occ: Bitboard,
    us: Color,
    kind: Kind,
    theirs: Bitboard,
    attacked: Bitboard,
) -> bool {
    (escape_candidates(ek, sq, us, kind, theirs, occ.with(sq).without(ek)) & !attacked).any()
}

/// Whether playing `m` (legal) leaves the opponent mated.
fn mates(board: &Board, m: Move) -> bool {
    let mut b = board.clone();
    b.do_move(m);
    b.is_checkmate()
}

/// A mate in one for the side to move, if a contact check or a knight
/// drop gives one. `None` also when in check (evasions are not tried).
pub fn mate_in_one(board: &Board) -> Option<Move> {
    let us = board.side_to_move();
    let them = us.flip();
    let ek = board.king(them)?;
    if board.in_check() {
        return None;
    }
    let hand = board.hand(us);
    let occ = board.occupied();
    // The king's neighbours that our pieces reach once (`once`) and at
    // least twice (`twice`), from one attack set per piece instead of an
    // attackers question per square.
    let around = king_attacks(ek);
    let mut once = Bitboard::EMPTY;
    let mut twice = Bitboard::EMPTY;
    for from in board.pieces(us) {
        let Some(p) = board.piece_at(from) else {
            continue;
        };
        let kind = p.kind();
        // A slider whose lines miss the king's neighbours on an empty
        // board reaches them only by its steps.
        let lines = match kind {
            Kind::Lance => lance_attacks(us, from, Bitboard::EMPTY),
            Kind::Bishop | Kind::Horse => bishop_pseudo(from),
            Kind::Rook | Kind::Dragon => rook_pseudo(from),
            _ => Bitboard::EMPTY,
        };
        let a = if (lines & around).is_empty() {
            step_attacks(us, kind, from)
        } else {
            attacks(us, kind, from, occ)
        } & around;
        twice |= once & a;
        once |= a;
    }
    // The kinds in hand that can check from contact, in the order tried.
    let mut held = [Kind::Rook; 5];
    let mut n_held = 0;
    for kind in [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Lance,
    ] {
        if hand[kind.index()] > 0 {
            held[n_held] = kind;
            n_held += 1;
        }
    }
    let drops = &held[..n_held];
    for d in 0..8 {
        let t = NEIGHBOR[ek.index()][d];
        if t == NONE {
            continue;
        }
        let sq = Square::from_index_unchecked(t as usize);
        let occupant = board.piece_at(sq);
        if occupant.is_some_and(|p| p.color() == us) {
            continue;
        }
        // Our pieces that reach the square: a drop there needs one of
        // them behind it (else the king simply takes), a move needs a
        // second one (backing by a slider behind the mover is not seen).
        if !once.has(sq) {
            continue;
        }
        // Pawn drops cannot mate (uchifuzume); knights cannot check from
        // contact.
        if occupant.is_none() {
            for &kind in drops {
                if checks_from(us, kind, d) && !geometry::is_dead_end(us, kind, sq) {
                    let m = Move::drop(kind, sq);
                    if !drop_escapes(ek, sq, occ, us, kind, board.pieces(them), once)
                        && mates(board, m)
                    {
                        return Some(m);
                    }
                }
            }
        }
        if !twice.has(sq) {
            continue;
        }
        for from in board.attackers_to(us, sq, occ) {
            let Some(p) = board.piece_at(from) else {
                continue;
            };
            let kind = p.kind();
            if kind == Kind::King {
                continue;
            }
            let may_promote = kind.can_promote() && (from.in_zone(us) || sq.in_zone(us));
            for promote in [true, false] {
                if promote && !may_promote {
                    continue;
                }
                let after = if promote { kind.promote() } else { kind };
                if !promote && geometry::is_dead_end(us, kind, sq) {
                    continue;
                }
                if checks_from(us, after, d) {
                    let m = Move::normal(from, sq, promote);
                    if !king_escapes(board, ek, sq, after, from)
                        && board.is_legal(m)
                        && mates(board, m)
                    {
                        return Some(m);
                    }
                }
            }
        }
    }
    // Knight drops: no backing needed, nothing can block them.
    if hand[Kind::Knight.index()] > 0 {
        for &t in &KNIGHT_TO[them.index()][ek.index()] {
            if t == NONE {
                continue;
            }
            let sq = Square::from_index_unchecked(t as usize);
            if board.piece_at(sq).is_none() && !geometry::is_dead_end(us, Kind::Knight, sq) {
                let m = Move::drop(Kind::Knight, sq);
                if mates(board, m) {
                    return Some(m);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(sfen: &str) -> Option<String> {
        let b = Board::from_sfen(sfen).unwrap();
        mate_in_one(&b).map(|m| m.to_string())
    }

    #[test]
    fn head_gold_drop() {
        assert_eq!(
            find("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").as_deref(),
            Some("G*5b")
        );
    }

    #[test]
    fn no_mate_when_the_king_escapes_or_takes() {
        // Unsupported gold: the king takes it.
        assert_eq!(find("4k4/9/9/9/9/9/9/9/4K4 b G 1"), None);
        // The pawn drop would mate but is forbidden.
        assert_eq!(find("3gkg3/3s1s3/9/9/9/9/9/9/4K4 b P 1"), None);
    }

    #[test]
    fn knight_drop_and_moves() {
        // The king on 1a is boxed in by its own pieces; the bishop on 2b
        // cannot take a knight on 2c.
        assert_eq!(
            find("7lk/7bp/9/9/9/9/9/9/4K4 b N 1").as_deref(),
            Some("N*2c")
        );
        // A gold steps in front of the king backed by the pawn, or the
        // pawn promotes there backed by the gold: both mate.
        let m = find("4k4/9/3GP4/9/9/9/9/9/4K4 b - 1");
        assert!(matches!(m.as_deref(), Some("6c5b" | "5c5b+")), "{m:?}");
        // Without the pawn's promotion the silver must promote to mate
        // (a plain silver on 5b leaves 4b and 6b).
        let m = find("4k4/9/3S5/4P4/9/9/9/9/4K4 b - 1");
        assert_eq!(m, None, "nothing backs 5b");
        let m = find("4k4/9/3S1S3/9/9/9/9/9/4K4 b - 1");
        assert!(matches!(m.as_deref(), Some("6c5b+" | "4c5b+")), "{m:?}");
    }

    #[test]
    fn a_dragon_beside_the_king_covers_the_neighbours_along_its_line() {
        // After B*4c P*3b the rook takes on 3b and promotes: the dragon,
        // diagonal to the king, covers 1b beyond 2b along its rank, and
        // the bishop backs 3b. With only the first square of each line
        // counted, 1b looked like an escape. (Only a dragon diagonally
        // next to the king reaches a second neighbour along one line, so
        // only moves, never drops, had this gap.)
        assert_eq!(
            find("7k1/5Rp1P/5B3/9/9/9/9/9/9 b Lrb4g4s4n3l16p 1").as_deref(),
            Some("4b3b+")
        );
    }

    #[test]
    fn every_reported_mate_is_a_mate() {
        for s in crate::searchable::BENCH_FENS {
            let b = Board::from_sfen(s).unwrap();
            if let Some(m) = mate_in_one(&b) {
                let mut c = b.clone();
                c.do_move(m);
                assert!(c.is_checkmate(), "{s} {m}");
            }
        }
    }

    /// Random games: every mate reported is one, and the finder sees most
    /// of the mates in one a brute force over all legal moves finds.
    #[test]
    fn agrees_with_brute_force_on_random_games() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut found, mut brute) = (0, 0);
        let mut moves = Vec::new();
        for _ in 0..60 {
            let mut b = Board::startpos();
            for _ in 0..160 {
                moves.clear();
                b.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let any = moves.iter().any(|&m| {
                    let mut c = b.clone();
                    c.do_move(m);
                    c.is_checkmate()
                });
                let ours = mate_in_one(&b);
                if let Some(m) = ours {
                    let mut c = b.clone();
                    c.do_move(m);
                    assert!(c.is_checkmate(), "{} {m}", b.to_sfen());
                    found += 1;
                }
                if any && !b.in_check() {
                    brute += 1;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                b.do_move(m);
            }
        }
        assert!(brute > 50, "too few mates to judge: {brute}");
        assert!(found * 10 >= brute * 7, "found {found} of {brute}");
    }
}
