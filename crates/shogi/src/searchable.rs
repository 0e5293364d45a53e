//! Shogi's side of the generic searcher: `tengen_search::Position` for
//! [`Game`] and `Evaluator` for [`Eval`].

use crate::board::Board;
use crate::eval::{board_value, hand_value, Eval};
use crate::game::{Game, Repetition};
use crate::movegen::Gen;
use crate::nnue;
use crate::types::{Color, Kind, Move};
use std::sync::Arc;
use tengen_core::Score;
use tengen_nnue::accumulator::Accumulators;
use tengen_nnue::features::Shogi;
use tengen_nnue::network::Network;
use tengen_search::{GenKind, Ruling, SearchParams};

/// Positions `tengen bench --game shogi` searches: the start, an opening,
/// and middle games with full hands.
pub const BENCH_FENS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g1gsnl/1r1s1k1b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1BK1S2R1/LNSG1G1NL b - 11",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "+L1s6/3rg1pk1/n1pp1g1N1/1p6P/2b4P1/2l1P4/1+b1P2PLR/4GSSG1/KN6L w 5Psn4p 78",
    "r1s2ksnl/3g2g2/nG1ppp2p/n4rPpL/5P3/p3P4/1g3S3/3B1L1+b1/1P1K3N1 b SL3P5p 77",
    "lnsgrgsnl/1k7/ppPp+N2pp/6p2/9/1P4P1P/P2PPP1P1/L1G3S1R/bNSGK3L w 2Pbp 30",
    "ln2kg3/1r1sgs3/pp2+B2p1/1npp2p2/9/4P3p/PP1P1PPPL/4KS1R1/LNSGBG1N1 w L2P2p 26",
    "lng6/1s1l1s3/r2sgk1p+B/1ppB1p2p/P4R3/2P1P3P/1P1P1PPP1/2S1K3L/LNG2G1N1 b N4P 59",
];

impl tengen_search::Position for Game {
    type Move = Move;
    /// (moved or dropped kind, colour, drop flag) x destination.
    const HISTORY_SIZE: usize = 2 * 28 * 81;
    const PARAMS: SearchParams = SearchParams {
        pawn: 90,
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
        lmp_base: 4,
        lmp_depth: 7,
        see_capture_margin: -100,
        see_quiet_margin: -60,
        delta_margin: 400,
        aspiration: 30,
        safe_check_extension: true,
        effort_time: None,
        lmr_refinements: false,
    };
    const REPORTS_CHECKS: bool = true;

    #[inline]
    fn key(&self) -> u64 {
        self.board().key()
    }

    /// The pawns on the board (shogi's slowest-changing structure) and
    /// the side to move.
    #[inline]
    fn correction_key(&self) -> Option<u64> {
        let b = self.board();
        let s = b.pieces_of(Color::Black, Kind::Pawn).bits();
        let g = b.pieces_of(Color::White, Kind::Pawn).bits();
        Some(tengen_core::splitmix::hash_words(&[
            s as u64,
            (s >> 64) as u64,
            g as u64,
            (g >> 64) as u64,
            b.side_to_move() as u64,
        ]))
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.board().in_check()
    }

    fn generate(&self, kind: GenKind, moves: &mut Vec<Move>) {
        let mode = match kind {
            GenKind::All => Gen::All,
            GenKind::Tactical => Gen::Tactical,
        };
        self.board().generate(mode, moves);
    }

    fn is_legal(&self, m: Move) -> bool {
        self.board().is_legal(m)
    }

    fn make(&mut self, m: Move) {
        self.play(m);
    }

    fn unmake(&mut self, _m: Move) {
        self.take_back();
    }

    fn make_null(&mut self) {
        self.play_null();
    }

    fn unmake_null(&mut self) {
        self.take_back();
    }

    fn null_move_ok(&self) -> bool {
        // Shogi has no zugzwang worth the name: drops always exist.
        !self.board().in_check()
    }

    /// Captures and promotions. Checks (drops above all) are quiet moves
    /// that the searcher spares from most pruning ([`Self::gives_check`]).
    fn is_tactical(&self, m: Move) -> bool {
        m.is_promotion() || self.board().piece_at(m.to()).is_some()
    }

    #[inline]
    fn gives_check(&self, m: Move) -> bool {
        self.board().gives_check(m)
    }

    fn tactical_value(&self, m: Move) -> i32 {
        let b = self.board();
        let captured = b.piece_at(m.to()).map_or(0, |p| {
            board_value(p.kind()) + hand_value(p.kind().unpromote())
        });
        let promo = match (m.is_promotion(), m.from().and_then(|f| b.piece_at(f))) {
            (true, Some(p)) => board_value(p.kind().promote()) - board_value(p.kind()),
            _ => 0,
        };
        captured + promo
    }

    /// Static exchange evaluation (`see.rs`): the captures on the
    /// destination played out, least valuable piece first.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        crate::see::see_ge(self.board(), m, threshold)
    }

    fn history_index(&self, m: Move) -> usize {
        let b = self.board();
        let c = b.side_to_move().index();
        let (kind, drop) = match m.from() {
            Some(f) => (b.piece_at(f).map_or(0, |p| p.kind().index()), 0),
            None => (m.drop_kind().map_or(0, Kind::index), 1),
        };
        ((drop * 28 + c * 14 + kind) * 81 + m.to().index()) % Self::HISTORY_SIZE
    }

    fn encode(m: Move) -> u16 {
        m.bits()
    }

    fn decode(&self, code: u16) -> Option<Move> {
        Move::from_bits(code).filter(|&m| self.board().is_legal(m))
    }

    fn ruling(&self, _ply: usize) -> Option<Ruling> {
        if self.board().can_declare_win() {
            return Some(Ruling::Win);
        }
        // One repetition inside the tree (or with the game history) is
        // enough to score the line as the fourfold repetition would end.
        self.repetition(2, usize::MAX).map(|r| match r {
            Repetition::Draw => Ruling::Draw,
            Repetition::Loss => Ruling::Loss,
            Repetition::Win => Ruling::Win,
        })
    }

    fn no_moves_score(&self, ply: usize) -> Score {
        Score::mated_in(ply as i32)
    }
}

/// What the search's evaluation says when the side to move has a mate in
/// one: far above any material balance, yet below the searcher's proven
/// mate scores (the mate is not played out, so its distance is unknown).
pub const MATE_IN_ONE_SCORE: i32 = 20_000;

/// What a mate in one for the opponent, were the side to move to pass,
/// costs the side to move. Fixed-node self-play (docs/shogi.md): 150 won
/// 29-21 against none, 400 drew 25-25.
pub const MATE_THREAT_PENALTY: i32 = 150;

/// The search's evaluation: the network (`tengen-nnue`, feature set
/// `Shogi`; see `nnue.rs`) when one is loaded, with its sums kept
/// incrementally along the tree, else the hand-made
/// [`Eval`]; a mate in one for the side to move scores
/// [`MATE_IN_ONE_SCORE`] and one for the opponent after a pass costs
/// [`MATE_THREAT_PENALTY`] either way.
#[derive(Clone, Debug)]
pub struct SearchEval {
    net: Option<Accumulators<Shogi>>,
    /// The network corrects the hand-made evaluation (its file says so):
    /// the evaluation is their sum.
    residual: bool,
}

impl Default for SearchEval {
    /// The network current when the search starts (see
    /// [`nnue::load_eval_file`]).
    fn default() -> Self {
        SearchEval::with_network(nnue::current_network())
    }
}

impl SearchEval {
    pub fn with_network(net: Option<Arc<Network>>) -> Self {
        SearchEval {
            residual: net.as_ref().is_some_and(|n| n.residual),
            net: net.map(Accumulators::new),
        }
    }

    /// The hand-made evaluation alone.
    pub fn hand_made() -> Self {
        SearchEval::with_network(None)
    }

    /// Whether a network evaluates.
    pub fn uses_network(&self) -> bool {
        self.net.is_some()
    }
}

/// The mate-in-one score, the static evaluation and the pass threat.
fn evaluate_with(b: &Board, static_eval: impl FnOnce() -> i32) -> i32 {
    // Quiescence only sees captures; a mating drop next to the king is
    // the threat it would miss most often.
    if crate::mate1::mate_in_one(b).is_some() {
        return MATE_IN_ONE_SCORE;
    }
    let mut score = static_eval();
    // A mate in one the opponent would have if we passed: standing pat on
    // it is wrong more often than not (quiescence does not see the quiet
    // defence it takes, nor that there may be none).
    if !b.in_check() {
        let mut passed = b.clone();
        passed.do_null();
        if crate::mate1::mate_in_one(&passed).is_some() {
            score -= MATE_THREAT_PENALTY;
        }
    }
    score
}

impl tengen_search::Evaluator<Game> for SearchEval {
    fn evaluate(&mut self, pos: &Game) -> i32 {
        let b = pos.board();
        let residual = self.residual;
        match &mut self.net {
            Some(acc) => evaluate_with(b, || {
                let v = acc.evaluate(b.side_to_move().index(), &mut |v| nnue::pieces(b, v));
                if residual {
                    v + Eval.evaluate(b)
                } else {
                    v
                }
            }),
            None => evaluate_with(b, || Eval.evaluate(b)),
        }
    }

    fn reset(&mut self, root: &Game) {
        if let Some(acc) = &mut self.net {
            let mut v = Vec::with_capacity(40);
            nnue::pieces(root.board(), &mut v);
            acc.reset(&v);
        }
    }

    #[inline]
    fn push(&mut self, pos: &Game, m: Move) {
        if let Some(acc) = &mut self.net {
            let (c, kings) = nnue::change(pos.board(), m);
            acc.push(c, kings);
        }
    }

    #[inline]
    fn push_null(&mut self, _pos: &Game) {
        if let Some(acc) = &mut self.net {
            acc.push_null();
        }
    }

    #[inline]
    fn pop(&mut self) {
        if let Some(acc) = &mut self.net {
            acc.pop();
        }
    }
}

impl tengen_search::Evaluator<Game> for Eval {
    fn evaluate(&mut self, pos: &Game) -> i32 {
        let b = pos.board();
        evaluate_with(b, || Eval::evaluate(self, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{SearchLimits, Signals};
    use tengen_search::Searcher;

    fn best(sfen: &str, depth: u32) -> (Option<Move>, Score) {
        let pos = Game::from_usi(sfen, &[]).unwrap();
        let mut s: Searcher<Game, Eval> = Searcher::new(16);
        let r = s.search(
            &pos,
            &Eval,
            &SearchLimits::depth(depth),
            &Signals::new(),
            None,
            &mut |_| {},
        );
        (r.best, r.score)
    }

    #[test]
    fn a_mate_threat_against_the_side_to_move_costs_the_penalty() {
        use tengen_search::Evaluator;
        // Sente threatens G*5b mate (the pawn on 5c backs the gold); gote
        // to move.
        let threat = Game::from_usi("4k4/9/4P4/9/9/9/9/9/4K4 w G 1", &[]).unwrap();
        let plain = Eval.evaluate(threat.board());
        assert_eq!(
            Evaluator::evaluate(&mut Eval, &threat),
            plain - MATE_THREAT_PENALTY
        );
        // Without the gold in hand there is no threat and no penalty.
        let quiet = Game::from_usi("4k4/9/4P4/9/9/9/9/9/4K4 w - 1", &[]).unwrap();
        assert_eq!(
            Evaluator::evaluate(&mut Eval, &quiet),
            Eval.evaluate(quiet.board())
        );
    }

    /// The search's evaluation with a check at every node that the sums
    /// kept along the tree give the from-scratch score.
    #[derive(Clone)]
    struct Checked(SearchEval, Arc<std::sync::atomic::AtomicUsize>);

    impl tengen_search::Evaluator<Game> for Checked {
        fn evaluate(&mut self, pos: &Game) -> i32 {
            if let Some(acc) = &mut self.0.net {
                let b = pos.board();
                let stm = b.side_to_move().index();
                let mut v = Vec::new();
                nnue::pieces(b, &mut v);
                let got = acc.evaluate(stm, &mut |v| nnue::pieces(b, v));
                assert_eq!(got, acc.evaluate_fresh(stm, &v), "{}", b.to_sfen());
                self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            self.0.evaluate(pos)
        }
        fn reset(&mut self, root: &Game) {
            self.0.reset(root)
        }
        fn push(&mut self, pos: &Game, m: Move) {
            self.0.push(pos, m)
        }
        fn push_null(&mut self, pos: &Game) {
            self.0.push_null(pos)
        }
        fn pop(&mut self) {
            self.0.pop()
        }
    }

    #[test]
    fn the_searched_tree_keeps_the_network_sums_right() {
        use tengen_search::Evaluator;
        let net = Arc::new(nnue::random_network(32, 5));
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let eval = Checked(SearchEval::with_network(Some(net)), Arc::clone(&count));
        for sfen in &BENCH_FENS[2..5] {
            let pos = Game::from_usi(sfen, &[]).unwrap();
            let mut s: Searcher<Game, Checked> = Searcher::new(16);
            s.set_threads(2);
            let r = s.search(
                &pos,
                &eval,
                &SearchLimits::depth(6),
                &Signals::new(),
                None,
                &mut |_| {},
            );
            assert!(r.best.is_some());
        }
        assert!(count.load(std::sync::atomic::Ordering::Relaxed) > 1000);
        let _ = eval.clone().evaluate(&Game::startpos());
    }

    #[test]
    fn finds_a_mate_in_one() {
        // G*5b mates the bare king on 5a, supported by the pawn on 5c.
        let (m, score) = best("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 3);
        assert_eq!(m.map(|m| m.to_string()).as_deref(), Some("G*5b"));
        assert!(score.is_mate() && score.0 > 0, "{score:?}");
    }

    #[test]
    fn takes_a_free_rook() {
        let (m, _) = best("4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1", 4);
        assert_eq!(m.map(|m| m.to_string()).as_deref(), Some("5h5e"));
    }

    #[test]
    fn bench_positions_are_valid() {
        for s in BENCH_FENS {
            assert!(Game::from_usi(s, &[]).is_ok(), "{s}");
        }
    }
}
