//! Static exchange evaluation: the swap algorithm on one square, with
//! sliders behind the capturers (x-rays) joining as the square clears.

use crate::attacks;
use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::types::{Bitboard, PieceKind, Square};

/// Exchange values (a king is worth more than anything it could win).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
pub fn see_value(k: PieceKind) -> i32 {
    SEE_VALUE[k.index()]
}

impl Board {
    /// Whether `m` wins at least `threshold` centipawns once every
    /// profitable recapture on its square has been made.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.kind() == MoveKind::Castle {
            return threshold <= 0;
        }
        let from = m.from();
        let to = m.to();
        let Some(mover) = self.piece_at(from) else {
            return threshold <= 0;
        };
        let mut occ = self.occupied() ^ from.bb();
        let mut gain = match m.kind() {
            MoveKind::EnPassant => {
                occ ^= Square::from_coords(to.file(), from.rank()).bb();
                see_value(PieceKind::Pawn)
            }
            _ => self.piece_at(to).map_or(0, |p| see_value(p.kind)),
        };
        // What stands on the square after the move, at risk of recapture.
        let mut at_risk = see_value(mover.kind);
        if let Some(p) = m.promotion_piece() {
            gain += see_value(p) - see_value(PieceKind::Pawn);
            at_risk = see_value(p);
        }
        // `swap` is our balance if the opponent stops now, minus threshold.
        let mut swap = gain - threshold;
        if swap < 0 {
            return false;
        }
        swap = at_risk - swap;
        if swap <= 0 {
            return true;
        }
        occ |= to.bb();
        let t = attacks::tables();
        let queens = self.kind_bb(PieceKind::Queen);
        let diag = self.kind_bb(PieceKind::Bishop) | queens;
        let orth = self.kind_bb(PieceKind::Rook) | queens;
        let mut attackers: Bitboard = self.attackers_to(to, occ);
        let mut stm = mover.color;
        // 1 while the side that made the last capture is ahead.
        let mut res = 1;
        loop {
            stm = stm.flip();
            attackers &= occ;
            let mine = attackers & self.color_bb(stm);
            if mine == 0 {
                break;
            }
            res ^= 1;
            let least = [
                PieceKind::Pawn,
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Queen,
            ]
            .into_iter()
            .find(|&k| mine & self.kind_bb(k) != 0);
            let Some(kind) = least else {
                // Only the king can recapture: legal only if nothing defends.
                return if attackers & !self.color_bb(stm) != 0 {
                    res ^ 1 == 1
                } else {
                    res == 1
                };
            };
            swap = see_value(kind) - swap;
            if swap < res {
                break;
            }
            let b = mine & self.kind_bb(kind);
            occ ^= b & b.wrapping_neg();
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= t.bishop(to, occ) & diag;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
                attackers |= t.rook(to, occ) & orth;
            }
        }
        res == 1
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci_move(mv, false).unwrap();
        b.see_ge(m, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +320.
        let f = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(f, "e4d5", 320));
        assert!(!see(f, "e4d5", 321));
        // Rook takes a pawn defended by a pawn: loses the exchange.
        let f = "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(!see(f, "d1d5", 0));
        assert!(see(f, "d1d5", -400));
        // Queen takes a pawn defended by a rook behind another rook (x-ray):
        let f = "3rk3/3r4/8/3p4/8/8/3R4/3QK3 w - - 0 1";
        assert!(!see(f, "d2d5", 1));
        // Knight takes a defended pawn, recaptured: -220.
        let f = "4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1";
        assert!(see(f, "e3d5", -220));
        assert!(!see(f, "e3d5", -219));
        // Quiet move to an attacked square.
        let f = "4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1";
        assert!(!see(f, "d1d4", 0));
        assert!(see(f, "d1d2", 0));
        // Rooks doubled behind the capturer win the pawn (x-ray support).
        let f = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(f, "d2d5", 100));
    }
}
