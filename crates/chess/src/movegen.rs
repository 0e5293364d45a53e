//! Legal move generation. Check and pin masks restrict every piece's
//! targets so that each generated move is legal without make/unmake; only
//! king steps and en passant need an attack test.

use crate::attacks;
use crate::board::Board;
use crate::moves::{Move, MoveList};
use crate::types::{
    Bitboard, Color, PieceKind, Square, Squares, FILE_A, FILE_H, RANK_1, RANK_2, RANK_3, RANK_6,
    RANK_7, RANK_8,
};

#[inline]
fn emit_promotions(list: &mut MoveList, from: Square, to: Square, queen_only: bool) {
    list.push(Move::promotion(from, to, PieceKind::Queen));
    if queen_only {
        return;
    }
    list.push(Move::promotion(from, to, PieceKind::Knight));
    list.push(Move::promotion(from, to, PieceKind::Rook));
    list.push(Move::promotion(from, to, PieceKind::Bishop));
}

/// Moves whose destination is `to` and origin `to - delta`.
#[inline]
/// `promote`: 0 = no, 1 = all four pieces, 2 = queen only (quiescence).
fn emit_shifted(list: &mut MoveList, targets: Bitboard, delta: i32, promote: u8) {
    for to in Squares(targets) {
        let from = Square::from_index((to.index() as i32 - delta) as usize);
        if promote > 0 {
            emit_promotions(list, from, to, promote == 2);
        } else {
            list.push(Move::normal(from, to));
        }
    }
}

impl Board {
    /// Appends the legal moves; with `tactical`, only captures and queen
    /// promotions (no under-promotions, no castling), for quiescence.
    pub fn generate_legal(&self, list: &mut MoveList, tactical: bool) {
        let t = attacks::tables();
        let us = self.side;
        let them = us.flip();
        let st = self.st();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king_square(us);
        let checkers = st.checkers;
        let pinned = st.pinned;

        // King steps: test each target with the king lifted off the board,
        // so it cannot hide behind itself from a slider.
        let king_targets = attacks::king(ksq) & if tactical { theirs } else { !ours };
        let occ_noking = occ ^ ksq.bb();
        for to in Squares(king_targets) {
            if !self.attacked_by(them, to, occ_noking) {
                list.push(Move::normal(ksq, to));
            }
        }
        if checkers & (checkers.wrapping_sub(1)) != 0 {
            return; // double check: only the king moves
        }
        let check_mask = if checkers != 0 {
            t.between(ksq, Square::lsb(checkers)) | checkers
        } else {
            !0
        };
        let targets = if tactical { theirs } else { !ours } & check_mask;

        self.pawn_moves(list, tactical, check_mask, ksq);

        let free = !pinned;
        for from in Squares(self.pieces(us, PieceKind::Knight) & free) {
            for to in Squares(attacks::knight(from) & targets) {
                list.push(Move::normal(from, to));
            }
        }
        let queens = self.by_kind[PieceKind::Queen.index()];
        let diag = (self.by_kind[PieceKind::Bishop.index()] | queens) & ours;
        for from in Squares(diag) {
            let mut att = t.bishop(from, occ) & targets;
            if pinned & from.bb() != 0 {
                att &= t.line(ksq, from);
            }
            for to in Squares(att) {
                list.push(Move::normal(from, to));
            }
        }
        let orth = (self.by_kind[PieceKind::Rook.index()] | queens) & ours;
        for from in Squares(orth) {
            let mut att = t.rook(from, occ) & targets;
            if pinned & from.bb() != 0 {
                att &= t.line(ksq, from);
            }
            for to in Squares(att) {
                list.push(Move::normal(from, to));
            }
        }

        if !tactical && checkers == 0 {
            self.castling_moves(list, ksq, occ);
        }
    }

    fn pawn_moves(&self, list: &mut MoveList, tactical: bool, check_mask: Bitboard, ksq: Square) {
        let t = attacks::tables();
        let us = self.side;
        let them = us.flip();
        let st = self.st();
        let theirs = self.by_color[them.index()];
        let occ = self.occupied();
        let empty = !occ;
        let pawns = self.pieces(us, PieceKind::Pawn);
        let free = pawns & !st.pinned;
        let (rank7, rank3) = match us {
            Color::White => (RANK_7, RANK_3),
            Color::Black => (RANK_2, RANK_6),
        };
        // Shifts towards the opponent; `delta` is to - from.
        let (up, left, right): (i32, i32, i32) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let shift = |b: Bitboard, d: i32| -> Bitboard {
            if d > 0 {
                b << d
            } else {
                b >> -d
            }
        };
        let caps = theirs & check_mask;
        let movers = free & !rank7;
        let promoters = free & rank7;

        if !tactical {
            let single = shift(movers, up) & empty;
            let double = shift(single & rank3, up) & empty & check_mask;
            emit_shifted(list, single & check_mask, up, 0);
            emit_shifted(list, double, 2 * up, 0);
        }
        emit_shifted(list, shift(movers & !FILE_A, left) & caps, left, 0);
        emit_shifted(list, shift(movers & !FILE_H, right) & caps, right, 0);
        let promo = if tactical { 2 } else { 1 };
        if promoters != 0 {
            emit_shifted(list, shift(promoters, up) & empty & check_mask, up, promo);
            emit_shifted(list, shift(promoters & !FILE_A, left) & caps, left, promo);
            emit_shifted(list, shift(promoters & !FILE_H, right) & caps, right, promo);
        }

        // Pinned pawns move only along the pin line, and never out of check.
        if st.checkers == 0 {
            for from in Squares(pawns & st.pinned) {
                let line = t.line(ksq, from);
                let mut dests = attacks::pawn(us, from) & theirs;
                let one = from.forward(us);
                if !tactical && empty & one.bb() != 0 {
                    dests |= one.bb();
                    let two = one.forward(us);
                    if from.relative_rank(us) == 1 && empty & two.bb() != 0 {
                        dests |= two.bb();
                    }
                }
                for to in Squares(dests & line) {
                    if to.bb() & (RANK_1 | RANK_8) != 0 {
                        emit_promotions(list, from, to, tactical);
                    } else {
                        list.push(Move::normal(from, to));
                    }
                }
            }
        }

        if let Some(ep) = st.ep {
            let cap_sq = match us {
                Color::White => Square::from_index(ep.index().wrapping_sub(8)),
                Color::Black => Square::from_index(ep.index() + 8),
            };
            for from in Squares(attacks::pawn(them, ep) & pawns) {
                // Rare enough for a full test: lift both pawns, drop ours on
                // the ep square, and see whether anything hits the king.
                let occ2 = (occ ^ from.bb() ^ cap_sq.bb()) | ep.bb();
                let attackers = self.attackers_to(ksq, occ2) & theirs & !cap_sq.bb();
                if attackers == 0 {
                    list.push(Move::en_passant(from, ep));
                }
            }
        }
    }

    fn castling_moves(&self, list: &mut MoveList, ksq: Square, occ: Bitboard) {
        let t = attacks::tables();
        let us = self.side;
        let them = us.flip();
        let rights = self.st().castling >> (2 * us.index());
        for side in 0..2 {
            if rights & (1 << side) == 0 {
                continue;
            }
            let Some(rsq) = self.castle_rooks[us.index()][side] else {
                continue;
            };
            let (kto, rto) = Board::castle_targets(ksq, rsq);
            let movers = ksq.bb() | rsq.bb();
            let need_empty =
                (t.between(ksq, kto) | kto.bb() | t.between(rsq, rto) | rto.bb()) & !movers;
            if occ & need_empty != 0 {
                continue;
            }
            let path = t.between(ksq, kto);
            if Squares(path).any(|s| self.attacked_by(them, s, occ)) {
                continue;
            }
            // The destination is tested without the castling rook, which
            // may have been shielding it along the back rank (Chess960).
            if self.attacked_by(them, kto, occ ^ movers) {
                continue;
            }
            list.push(Move::castle(ksq, rsq));
        }
    }

    /// Number of legal moves (for bulk-counting perft).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::default();
        self.generate_legal(&mut list, false);
        list.len()
    }
}
