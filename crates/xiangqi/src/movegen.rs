//! Move generation: pseudo-legal moves from the tables, then a check test
//! on the board as it would be after each move.

use crate::board::Board;
use crate::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_STEPS, KING_STEPS, NONE, PAWN_STEPS, RAYS,
};
use crate::types::{Color, Kind, Move, Piece, Square};

impl Board {
    /// Appends every pseudo-legal move (or only captures) of the side to
    /// move; they may leave the own general attacked.
    pub fn pseudo_moves(&self, captures_only: bool, out: &mut Vec<Move>) {
        let us = self.side;
        let mut bb = self.occ[us.index()];
        while bb != 0 {
            let i = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            if let Some(p) = self.squares[i] {
                self.piece_moves(Square::from_index_unchecked(i), p, captures_only, out);
            }
        }
    }

    #[inline]
    fn push(&self, from: Square, to: u8, us: Color, captures_only: bool, out: &mut Vec<Move>) {
        match self.squares[to as usize] {
            None if !captures_only => {
                out.push(Move::new(from, Square::from_index_unchecked(to as usize)))
            }
            Some(p) if p.color != us => {
                out.push(Move::new(from, Square::from_index_unchecked(to as usize)))
            }
            _ => {}
        }
    }

    fn piece_moves(&self, from: Square, p: Piece, captures_only: bool, out: &mut Vec<Move>) {
        let us = p.color;
        let fi = from.index();
        match p.kind {
            Kind::King => {
                for &to in KING_STEPS[fi].iter().take_while(|&&t| t != NONE) {
                    self.push(from, to, us, captures_only, out);
                }
            }
            Kind::Advisor => {
                for &to in ADVISOR_STEPS[fi].iter().take_while(|&&t| t != NONE) {
                    self.push(from, to, us, captures_only, out);
                }
            }
            Kind::Elephant => {
                for &(to, eye) in ELEPHANT_STEPS[fi].iter().take_while(|t| t.0 != NONE) {
                    if self.squares[eye as usize].is_none() {
                        self.push(from, to, us, captures_only, out);
                    }
                }
            }
            Kind::Horse => {
                for &(to, leg) in HORSE_STEPS[fi].iter().take_while(|t| t.0 != NONE) {
                    if self.squares[leg as usize].is_none() {
                        self.push(from, to, us, captures_only, out);
                    }
                }
            }
            Kind::Pawn => {
                for &to in PAWN_STEPS[us.index()][fi]
                    .iter()
                    .take_while(|&&t| t != NONE)
                {
                    self.push(from, to, us, captures_only, out);
                }
            }
            Kind::Rook => {
                for ray in &RAYS[fi] {
                    for &to in ray.iter().take_while(|&&t| t != NONE) {
                        match self.squares[to as usize] {
                            None => {
                                if !captures_only {
                                    out.push(Move::new(
                                        from,
                                        Square::from_index_unchecked(to as usize),
                                    ));
                                }
                            }
                            Some(q) => {
                                if q.color != us {
                                    out.push(Move::new(
                                        from,
                                        Square::from_index_unchecked(to as usize),
                                    ));
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Kind::Cannon => {
                for ray in &RAYS[fi] {
                    let mut screened = false;
                    for &to in ray.iter().take_while(|&&t| t != NONE) {
                        match (self.squares[to as usize], screened) {
                            (None, false) => {
                                if !captures_only {
                                    out.push(Move::new(
                                        from,
                                        Square::from_index_unchecked(to as usize),
                                    ));
                                }
                            }
                            (Some(_), false) => screened = true,
                            (None, true) => {}
                            (Some(q), true) => {
                                if q.color != us {
                                    out.push(Move::new(
                                        from,
                                        Square::from_index_unchecked(to as usize),
                                    ));
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Appends every legal move of the side to move.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(false, out);
        self.retain_legal(start, out);
    }

    /// Appends every legal capture of the side to move.
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(true, out);
        self.retain_legal(start, out);
    }

    /// Appends the legal non-captures that check the enemy general (the
    /// quiet moves quiescence looks at).
    pub fn legal_quiet_checks(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(false, out);
        let enemy_king = self.kings[self.side.flip().index()];
        let mut w = start;
        for r in start..out.len() {
            let m = out[r];
            if self.squares[m.to.index()].is_none()
                && may_check(enemy_king, m, self.squares[m.from.index()])
                && self.gives_check(m)
            {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
        self.retain_legal(start, out);
    }

    fn retain_legal(&self, start: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let king = self.kings[us.index()];
        let in_check = self.in_check;
        let mut w = start;
        for r in start..out.len() {
            let m = out[r];
            if (!in_check && m.from != king && cannot_expose(king, m))
                || !self.leaves_king_attacked(m, us)
            {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = Vec::with_capacity(64);
        self.pseudo_moves(false, &mut moves);
        moves
            .iter()
            .any(|&m| !self.leaves_king_attacked(m, self.side))
    }

    /// Whether `m` is a legal move here; any move is accepted as input,
    /// from a table or killer slot of another position included.
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(p) = self.squares[m.from.index()] else {
            return false;
        };
        if p.color != self.side {
            return false;
        }
        if let Some(q) = self.squares[m.to.index()] {
            if q.color == p.color {
                return false;
            }
        }
        self.reaches(m.from, m.to, p) && !self.leaves_king_attacked(m, self.side)
    }

    /// Whether `p` on `from` can move to `to` by its own rules (ignoring
    /// what stands on `to`, which the caller checks).
    fn reaches(&self, from: Square, to: Square, p: Piece) -> bool {
        let fi = from.index();
        let t = to.index() as u8;
        match p.kind {
            Kind::King => KING_STEPS[fi].contains(&t),
            Kind::Advisor => ADVISOR_STEPS[fi].contains(&t),
            Kind::Elephant => ELEPHANT_STEPS[fi]
                .iter()
                .any(|&(s, eye)| s == t && self.squares[eye as usize].is_none()),
            Kind::Horse => HORSE_STEPS[fi]
                .iter()
                .any(|&(s, leg)| s == t && self.squares[leg as usize].is_none()),
            Kind::Pawn => PAWN_STEPS[p.color.index()][fi].contains(&t),
            Kind::Rook | Kind::Cannon => {
                let Some(ray) = RAYS[fi].iter().find(|r| r.contains(&t)) else {
                    return false;
                };
                let between = ray
                    .iter()
                    .take_while(|&&s| s != t)
                    .filter(|&&s| self.squares[s as usize].is_some())
                    .count();
                if p.kind == Kind::Rook {
                    between == 0
                } else if self.squares[t as usize].is_some() {
                    between == 1
                } else {
                    between == 0
                }
            }
        }
    }
}

/// Whether a move by a piece other than the general, made while not in
/// check, certainly leaves the general safe: its own general can only be
/// exposed along the general's rank or file (rook, cannon, facing
/// generals, a new cannon screen) or through a horse leg, which is a
/// point diagonally next to the general.
#[inline]
fn cannot_expose(king: Square, m: Move) -> bool {
    let on_lines = |s: Square| s.file() == king.file() || s.rank() == king.rank();
    let df = m.from.file().abs_diff(king.file());
    let dr = m.from.rank().abs_diff(king.rank());
    !(on_lines(m.from) || on_lines(m.to) || (df == 1 && dr == 1))
}

/// A cheap filter before the full check test: a quiet move can only check
/// from the general's rank or file (rook, cannon, pawn, a new cannon
/// screen), by leaving it (a discovered line), by unblocking a horse leg
/// (a point diagonally next to the general) or as a horse a leap away.
#[inline]
pub(crate) fn may_check(king: Square, m: Move, moving: Option<Piece>) -> bool {
    let on_lines = |s: Square| s.file() == king.file() || s.rank() == king.rank();
    let df = m.from.file().abs_diff(king.file());
    let dr = m.from.rank().abs_diff(king.rank());
    if on_lines(m.from) || on_lines(m.to) || (df == 1 && dr == 1) {
        return true;
    }
    let tf = m.to.file().abs_diff(king.file());
    let tr = m.to.rank().abs_diff(king.rank());
    moving.is_some_and(|p| p.kind == Kind::Horse) && tf + tr == 3 && tf > 0 && tr > 0
}

#[cfg(test)]
mod tests {
    use crate::board::Board;
    use crate::types::Move;

    #[test]
    fn start_has_44_moves_and_is_legal_agrees() {
        let b = Board::startpos();
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        assert_eq!(moves.len(), 44);
        let mut n = 0;
        for code in 0..(1u16 << 14) {
            if let Some(m) = Move::decode(code) {
                if b.is_legal(m) {
                    n += 1;
                    assert!(moves.contains(&m), "{m}");
                }
            }
        }
        assert_eq!(n, 44);
    }

    #[test]
    fn quiet_checks_are_exactly_the_checking_non_captures() {
        let fens = [
            crate::board::START_FEN,
            "r1ba1ab1r/4k4/1cn1c1n2/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 8 6",
            "2ra1ar2/3nk4/b4C2b/pcP1p4/6pcp/2P3P2/P1R5P/8B/9/1NBAKA1NR b - - 4 19",
            "r2a1n1Cr/1c2ak3/b8/4p3p/p1p6/2P2p3/P7P/N3B4/4A2c1/2BAK3R b - - 4 23",
            "3k1a3/9/b3r4/P1C3p2/9/9/2PcP1P2/1R2BA3/4A4/3K2B2 w - - 3 26",
            // Rook, cannon (with and without a screen), horse and
            // discovered checks.
            "3k5/9/9/9/9/9/9/9/3C5/R3K1N2 w - - 0 1",
            "3k5/9/4P4/9/6N2/9/9/9/9/R3KC3 w - - 0 1",
        ];
        let mut total = 0;
        for fen in fens {
            let mut b = Board::from_fen(fen).unwrap();
            let mut all = Vec::new();
            b.legal_moves(&mut all);
            let mut expected = Vec::new();
            for &m in &all {
                let quiet = b.piece_at(m.to).is_none();
                b.make(m);
                if quiet && b.in_check() {
                    expected.push(m);
                }
                b.unmake(m);
            }
            let mut checks = Vec::new();
            b.legal_quiet_checks(&mut checks);
            assert_eq!(checks, expected, "{fen}");
            total += checks.len();
        }
        assert!(total >= 4, "the positions have quiet checks: {total}");
    }
}
