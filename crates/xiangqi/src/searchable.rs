//! The bridge to the generic searcher: `Position` for `Board`, and the
//! hand-made `Evaluator`.

use crate::board::Board;
use crate::eval::{evaluate, MATERIAL_MG};
use crate::movegen::may_check;
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
    safe_check_extension: false,
    effort_time: None,
    lmr_refinements: false,
};

/// Capture values for ordering and exchange tests.
fn see_value(k: Kind) -> i32 {
    if k == Kind::King {
        10_000
    } else {
        MATERIAL_MG[k.index()]
    }
}

/// Whether quiescence (the only user of `GenKind::Tactical`) also tries
/// quiet checks.
const QSEARCH_CHECKS: bool = true;

/// Whether quiet checks count as tactical moves (ordered with the good
/// captures, exempt from quiet-move pruning and reductions).
const CHECKS_TACTICAL: bool = false;

impl Board {
    /// Quiet checks go into quiescence unless our previous move was one
    /// already: a line of checks then needs captures in between, so it
    /// ends.
    fn quiet_checks_allowed(&self) -> bool {
        let n = self.history.len();
        n < 2 || {
            let ours = &self.history[n - 2];
            !(ours.gave_check && ours.captured.is_none())
        }
    }

    /// The least valuable piece of `by` that attacks `sq` on the board
    /// `occ` (pieces captured or moved away in an exchange are cleared
    /// from it; those left keep their points in `squares`). Pins are
    /// ignored, as exchange evaluation usually does.
    fn least_attacker(&self, sq: usize, by: Color, occ: u128) -> Option<(usize, Kind)> {
        let mine = |s: usize, k: Kind| {
            occ & (1u128 << s) != 0 && self.squares[s] == Some(Piece::new(by, k))
        };
        let empty = |s: usize| occ & (1u128 << s) == 0;
        let point = Square::from_index_unchecked(sq);
        // Pawns step forward onto the point, or sideways once across.
        let behind = match by {
            Color::Red => point.offset(0, -1),
            Color::Black => point.offset(0, 1),
        };
        if let Some(s) = behind.filter(|s| mine(s.index(), Kind::Pawn)) {
            return Some((s.index(), Kind::Pawn));
        }
        if !point.on_side_of(by) {
            for s in [point.offset(-1, 0), point.offset(1, 0)]
                .into_iter()
                .flatten()
            {
                if mine(s.index(), Kind::Pawn) {
                    return Some((s.index(), Kind::Pawn));
                }
            }
        }
        if point.in_palace(by) {
            for &s in ADVISOR_STEPS[sq].iter().take_while(|&&s| s != NONE) {
                if mine(s as usize, Kind::Advisor) {
                    return Some((s as usize, Kind::Advisor));
                }
            }
        }
        for &(s, eye) in ELEPHANT_STEPS[sq].iter() {
            if s != NONE && mine(s as usize, Kind::Elephant) && empty(eye as usize) {
                return Some((s as usize, Kind::Elephant));
            }
        }
        for &(h, leg) in HORSE_ATTACKERS[sq].iter().take_while(|x| x.0 != NONE) {
            if mine(h as usize, Kind::Horse) && empty(leg as usize) {
                return Some((h as usize, Kind::Horse));
            }
        }
        // Rays: the first piece may be a rook, the second a cannon.
        let mut rook = None;
        let mut cannon = None;
        for ray in &RAYS[sq] {
            let mut screened = false;
            for &s in ray.iter().take_while(|&&s| s != NONE) {
                let s = s as usize;
                if empty(s) {
                    continue;
                }
                if !screened {
                    if mine(s, Kind::Rook) {
                        rook = Some(s);
                    }
                    screened = true;
                } else {
                    if mine(s, Kind::Cannon) {
                        cannon = Some(s);
                    }
                    break;
                }
            }
        }
        if let Some(s) = cannon {
            return Some((s, Kind::Cannon));
        }
        if let Some(s) = rook {
            return Some((s, Kind::Rook));
        }
        if point.in_palace(by) {
            for &s in KING_STEPS[sq].iter().take_while(|&&s| s != NONE) {
                if mine(s as usize, Kind::King) {
                    return Some((s as usize, Kind::King));
                }
            }
        }
        None
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
            GenKind::Tactical => {
                self.legal_captures(moves);
                if QSEARCH_CHECKS && self.quiet_checks_allowed() {
                    self.legal_quiet_checks(moves);
                }
            }
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

    /// Captures, and with `CHECKS_TACTICAL` quiet checks too, so the
    /// searcher neither prunes nor reduces them like ordinary quiet moves.
    fn is_tactical(&self, m: Move) -> bool {
        self.squares[m.to.index()].is_some()
            || (CHECKS_TACTICAL
                && may_check(
                    self.kings[self.side.flip().index()],
                    m,
                    self.squares[m.from.index()],
                )
                && self.gives_check(m))
    }

    fn tactical_value(&self, m: Move) -> i32 {
        self.squares[m.to.index()].map_or(0, |p| see_value(p.kind))
    }

    /// Static exchange evaluation: both sides recapture on the target
    /// point with their least valuable attacker while it pays; a cannon
    /// gains or loses its screen as pieces leave the board.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let from = m.from.index();
        let to = m.to.index();
        let Some(mover) = self.squares[from] else {
            return false;
        };
        let mut swap = self.squares[to].map_or(0, |p| see_value(p.kind)) - threshold;
        if swap < 0 {
            return false;
        }
        swap = see_value(mover.kind) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = (self.occ[0] | self.occ[1]) & !(1u128 << from);
        occ |= 1u128 << to;
        let mut stm = mover.color;
        // `res`: whether the side that made `m` comes out at or above the
        // threshold if the exchange stops here.
        let mut res = true;
        loop {
            stm = stm.flip();
            let Some((s, kind)) = self.least_attacker(to, stm, occ) else {
                break;
            };
            if kind == Kind::King {
                // The general may only take last, on an undefended point.
                let other = self.least_attacker(to, stm.flip(), occ & !(1u128 << s));
                return if other.is_some() { res } else { !res };
            }
            res = !res;
            occ &= !(1u128 << s);
            swap = see_value(kind) - swap;
            if swap < res as i32 {
                break;
            }
        }
        res
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

    /// The board as the search sees it (its generator, make and unmake,
    /// and every move's 16-bit code read back), walked by the shared perft.
    struct ViaSearch(Board);

    impl tengen_games::Perft for ViaSearch {
        type Move = Move;
        type Undo = ();
        fn legal_moves(&self, out: &mut Vec<Move>) {
            Position::generate(&self.0, GenKind::All, out);
            for &m in out.iter() {
                let code = <Board as Position>::encode(m);
                assert_eq!(Position::decode(&self.0, code), Some(m));
            }
        }
        fn play(&mut self, m: Move) -> Option<()> {
            Position::make(&mut self.0, m);
            Some(())
        }
        fn undo(&mut self, m: Move, _: ()) {
            Position::unmake(&mut self.0, m);
        }
        fn move_name(&self, m: Move) -> String {
            crate::notation::format_move(m, Notation::Iccs)
        }
    }

    #[test]
    fn trait_perft_matches() {
        let mut b = ViaSearch(Board::startpos());
        assert_eq!(tengen_games::perft(&mut b, 3), 79666);
        assert_eq!(b.0.fen(), Board::startpos().fen());
    }

    #[test]
    fn tactical_moves_are_the_captures() {
        let mut quiet_checks = 0;
        for fen in [
            "r1ba1ab2/4k4/2n2rn2/1Cp1p1pc1/p7p/2B3P2/P1P1P3P/3C5/8R/RcBAKA1N1 b - - 1 11",
            "3k5/9/9/9/9/9/9/7n1/3C5/R3K1N2 w - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let mut all = Vec::new();
            let mut tac = Vec::new();
            Position::generate(&b, GenKind::All, &mut all);
            Position::generate(&b, GenKind::Tactical, &mut tac);
            let mut caps: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| b.piece_at(m.to).is_some())
                .collect();
            assert!(!caps.is_empty());
            assert!(caps.iter().all(|&m| b.is_tactical(m)));
            let mut checks = Vec::new();
            b.legal_quiet_checks(&mut checks);
            quiet_checks += checks.len();
            assert!(checks.iter().all(|&m| b.is_tactical(m) == CHECKS_TACTICAL));
            if QSEARCH_CHECKS {
                // Then the quiet checks.
                caps.extend_from_slice(&checks);
            }
            assert_eq!(caps, tac);
        }
        assert!(quiet_checks > 0);
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
        // Cannon takes a horse the rook on c9 guards, but Red's rook on a5
        // would retake: Black does best not to recapture, Red wins a horse.
        let b = Board::from_fen("2r1k4/9/9/9/R1n6/9/2P6/9/9/2C2K3 w").unwrap();
        let m = mv(&b, "c0c5");
        assert!(b.see_ge(m, 400));
        assert!(!b.see_ge(m, 401));
        // Without the rook on a5 the cannon is lost for the horse.
        let b2 = Board::from_fen("2r1k4/9/9/9/2n6/9/2P6/9/9/2C2K3 w").unwrap();
        let m = mv(&b2, "c0c5");
        assert!(b2.see_ge(m, -50));
        assert!(!b2.see_ge(m, -49));
        // A rook steps where a crossed pawn takes it; our horse retakes.
        let b = Board::from_fen("4k4/9/9/9/9/4p4/9/2N6/9/3RK4 w").unwrap();
        let m = mv(&b, "d0d4");
        assert!(b.see_ge(m, -800));
        assert!(!b.see_ge(m, -799));
        assert!(b.see_ge(mv(&b, "d0d3"), 0));
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
