//! The bridge to the generic searcher: `Position` for `Board`, and the
//! hand-made `Evaluator`.

use crate::board::Board;
use crate::eval::{evaluate, MATERIAL_MG};
use crate::rules::Verdict;
use crate::tables::{ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, KING_STEPS, NONE, RAYS};
use crate::types::{Color, Kind, Move, Piece, Square};
use tengen_core::Score;
use tengen_search::{Evaluator, GenKind, Position, Ruling, SearchParams};

/// Margins for xiangqi: the same shape as chess (pawn = 100), but rooks
/// dominate and quiet positions are rarer, so null move goes a bit deeper.
pub const XIANGQI_PARAMS: SearchParams = SearchParams {
    pawn: 100,
    rfp_margin: 90,
    rfp_depth: 7,
    futility_base: 100,
    futility_per_ply: 100,
    futility_depth: 7,
    null_min_depth: 2,
    null_base_reduction: 3,
    null_depth_divisor: 4,
    lmr_base: 0.75,
    lmr_divisor: 2.25,
    lmp_base: 3,
    lmp_depth: 8,
    see_capture_margin: -90,
    see_quiet_margin: -50,
    delta_margin: 250,
    aspiration: 25,
};

/// Capture values for ordering and exchange tests.
fn see_value(k: Kind) -> i32 {
    if k == Kind::King {
        10_000
    } else {
        MATERIAL_MG[k.index()]
    }
}

impl Board {
    /// Whether `by` attacks `sq` with the move `m` (of the other side)
    /// played on a view of the board; used by the exchange test, so pins
    /// are ignored.
    fn attacked_after(&self, m: Move, sq: Square, by: Color) -> bool {
        let from = m.from.index();
        let to = m.to.index();
        let moving = self.squares[from];
        let at = |s: usize| -> Option<Piece> {
            if s == from {
                None
            } else if s == to {
                moving
            } else {
                self.squares[s]
            }
        };
        let mine = |s: u8, k: Kind| at(s as usize) == Some(Piece::new(by, k));
        let si = sq.index();
        for ray in &RAYS[si] {
            let mut screened = false;
            for &s in ray.iter().take_while(|&&s| s != NONE) {
                if let Some(p) = at(s as usize) {
                    if !screened {
                        if p.color == by && p.kind == Kind::Rook {
                            return true;
                        }
                        screened = true;
                    } else {
                        if p.color == by && p.kind == Kind::Cannon {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        for &(h, leg) in HORSE_ATTACKERS[si].iter().take_while(|x| x.0 != NONE) {
            if mine(h, Kind::Horse) && at(leg as usize).is_none() {
                return true;
            }
        }
        // Pawns of `by` step forward onto sq, or sideways once across.
        let behind = match by {
            Color::Red => sq.offset(0, -1),
            Color::Black => sq.offset(0, 1),
        };
        if behind.is_some_and(|s| mine(s.index() as u8, Kind::Pawn)) {
            return true;
        }
        if !sq.on_side_of(by) {
            for s in [sq.offset(-1, 0), sq.offset(1, 0)].into_iter().flatten() {
                if mine(s.index() as u8, Kind::Pawn) {
                    return true;
                }
            }
        }
        if sq.in_palace(by) {
            if KING_STEPS[si]
                .iter()
                .any(|&s| s != NONE && mine(s, Kind::King))
            {
                return true;
            }
            if ADVISOR_STEPS[si]
                .iter()
                .any(|&s| s != NONE && mine(s, Kind::Advisor))
            {
                return true;
            }
        }
        ELEPHANT_STEPS[si]
            .iter()
            .any(|&(s, eye)| s != NONE && mine(s, Kind::Elephant) && at(eye as usize).is_none())
    }
}

impl Position for Board {
    type Move = Move;
    const HISTORY_SIZE: usize = 14 * 90;
    const PARAMS: SearchParams = XIANGQI_PARAMS;

    fn key(&self) -> u64 {
        self.key
    }

    fn in_check(&self) -> bool {
        self.in_check
    }

    fn generate(&self, kind: GenKind, moves: &mut Vec<Move>) {
        match kind {
            GenKind::All => self.legal_moves(moves),
            GenKind::Tactical => self.legal_captures(moves),
        }
    }

    fn is_legal(&self, m: Move) -> bool {
        Board::is_legal(self, m)
    }

    fn make(&mut self, m: Move) {
        Board::make(self, m)
    }

    fn unmake(&mut self, m: Move) {
        Board::unmake(self, m)
    }

    fn make_null(&mut self) {
        Board::make_null(self)
    }

    fn unmake_null(&mut self) {
        Board::unmake_null(self)
    }

    fn null_move_ok(&self) -> bool {
        let us = self.side;
        let attackers = self.count(us, Kind::Rook) * 2
            + self.count(us, Kind::Horse)
            + self.count(us, Kind::Cannon);
        !self.in_check && attackers >= 2
    }

    fn is_tactical(&self, m: Move) -> bool {
        self.squares[m.to.index()].is_some()
    }

    fn tactical_value(&self, m: Move) -> i32 {
        self.squares[m.to.index()].map_or(0, |p| see_value(p.kind))
    }

    /// One exchange deep: the capture, then the mover lost if the point
    /// is defended.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let Some(mover) = self.squares[m.from.index()] else {
            return false;
        };
        let gain = self.squares[m.to.index()].map_or(0, |p| see_value(p.kind));
        if gain < threshold {
            return false;
        }
        let risk = if mover.kind == Kind::King {
            0
        } else {
            see_value(mover.kind)
        };
        if gain - risk >= threshold {
            return true;
        }
        !self.attacked_after(m, m.to, mover.color.flip())
    }

    fn history_index(&self, m: Move) -> usize {
        let p = self.squares[m.from.index()].map_or(0, |p| p.index());
        p * 90 + m.to.index()
    }

    fn encode(m: Move) -> u16 {
        m.encode()
    }

    fn decode(&self, code: u16) -> Option<Move> {
        Move::decode(code).filter(|&m| Board::is_legal(self, m))
    }

    fn ruling(&self, _ply: usize) -> Option<Ruling> {
        self.repetition_verdict().map(|v| match v {
            Verdict::Draw => Ruling::Draw,
            Verdict::Loss(_) => Ruling::Loss,
            Verdict::Win(_) => Ruling::Win,
        })
    }

    /// No legal move is a loss in xiangqi, stalemate included.
    fn no_moves_score(&self, ply: usize) -> Score {
        Score::mated_in(ply as i32)
    }
}

/// The hand-made evaluation as a searcher plug-in.
#[derive(Clone, Copy, Debug, Default)]
pub struct XiangqiEval;

impl Evaluator<Board> for XiangqiEval {
    fn evaluate(&mut self, pos: &Board) -> i32 {
        evaluate(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, Notation};

    fn mv(b: &Board, s: &str) -> Move {
        parse_move(b, s, Notation::Iccs).unwrap()
    }

    #[test]
    fn trait_perft_matches() {
        fn perft(b: &mut Board, d: u32) -> u64 {
            if d == 0 {
                return 1;
            }
            let mut moves = Vec::new();
            Position::generate(b, GenKind::All, &mut moves);
            let mut n = 0;
            for m in moves {
                let code = <Board as Position>::encode(m);
                assert_eq!(Position::decode(b, code), Some(m));
                Position::make(b, m);
                n += perft(b, d - 1);
                Position::unmake(b, m);
            }
            n
        }
        let mut b = Board::startpos();
        assert_eq!(perft(&mut b, 3), 79666);
    }

    #[test]
    fn tactical_moves_are_the_captures() {
        let b = Board::from_fen(
            "r1ba1ab2/4k4/2n2rn2/1Cp1p1pc1/p7p/2B3P2/P1P1P3P/3C5/8R/RcBAKA1N1 b - - 1 11",
        )
        .unwrap();
        let mut all = Vec::new();
        let mut tac = Vec::new();
        Position::generate(&b, GenKind::All, &mut all);
        Position::generate(&b, GenKind::Tactical, &mut tac);
        let caps: Vec<Move> = all.into_iter().filter(|&m| b.is_tactical(m)).collect();
        assert_eq!(caps, tac);
        assert!(!tac.is_empty());
    }

    #[test]
    fn see_sees_defenders() {
        // Red rook takes an undefended black cannon: wins a cannon.
        let b = Board::from_fen("3k5/9/c8/9/9/9/9/9/9/R4K3 w").unwrap();
        let m = mv(&b, "a0a7");
        assert!(b.see_ge(m, 400));
        // Defended by the rook on a9: rook for cannon loses material.
        let b = Board::from_fen("r2k5/9/c8/9/9/9/9/9/9/R4K3 w").unwrap();
        let m = mv(&b, "a0a7");
        assert!(b.see_ge(m, -500));
        assert!(!b.see_ge(m, 0));
        // Defended through a cannon screen (cannon a9 over the horse on a8)
        let b = Board::from_fen("c2k5/n8/n8/9/9/9/9/9/9/R4K3 w").unwrap();
        let m = mv(&b, "a0a7");
        assert!(!b.see_ge(m, 0), "the cannon on a9 recaptures over a8 ");
    }

    #[test]
    fn null_move_and_rulings() {
        let mut b = Board::startpos();
        assert!(b.null_move_ok());
        let key = b.key();
        b.make_null();
        assert_ne!(b.key(), key);
        assert_eq!(b.side_to_move(), Color::Black);
        b.unmake_null();
        assert_eq!(b.key(), key);
        assert_eq!(b.no_moves_score(3), Score::mated_in(3));
        let b = crate::notation::play_moves(
            &Board::from_fen("3k5/9/9/9/9/9/9/9/9/5K1R1 w").unwrap(),
            "h0h9 d9d8 h9h8 d8d9 h8h9".split(' '),
            Notation::Iccs,
        )
        .unwrap();
        assert_eq!(b.ruling(4), Some(Ruling::Win));
    }
}
