//! The xiangqi evaluation the engine uses: a network (`tengen-nnue`,
//! feature set `Xiangqi`) when one is current, the hand-made evaluation
//! otherwise. Works like `tengen_chess::nnue`: the current network is
//! process-wide, each [`XiangqiNetEval`] takes the one current when it is
//! made (one per search). The built-in network, embedded in the binary,
//! is current until `EvalFile` says otherwise; it is a residual network
//! (the hand-made evaluation plus the network's correction) that beat the
//! hand-made evaluation alone (`docs/nnue.md`, `nets/README.md`).

use crate::board::Board;
use crate::eval::evaluate;
use crate::types::{Color, Kind, Move, Piece};
use std::sync::Arc;
use tengen_nnue::accumulator::{Accumulators, Change};
use tengen_nnue::data::{self, Sample};
use tengen_nnue::features::Xiangqi;
use tengen_nnue::network::Network;
use tengen_nnue::slot::Slot;
use tengen_search::Evaluator;

/// The built-in network's file (`nets/`, recorded in `nets/README.md`).
pub const BUILTIN_NET: &[u8] = include_bytes!("../../../nets/xiangqi-residual-h128-ff6744e4.nnue");

static CURRENT: Slot<Xiangqi> = Slot::with_builtin(BUILTIN_NET);

/// The network new evaluators use, if any.
pub fn current_network() -> Option<Arc<Network>> {
    CURRENT.get()
}

/// Makes `net` current (`None`: the hand-made evaluation).
pub fn set_network(net: Option<Network>) {
    CURRENT.set(net);
}

/// Loads a xiangqi network file and makes it current (`<default>`: the
/// built-in network; empty path, `<empty>` or `none`: the hand-made
/// evaluation); a file that does not fit is refused with the reason and
/// the evaluation stays.
pub fn load_eval_file(path: &str) -> Result<String, String> {
    CURRENT.load(path)
}

#[inline]
fn code(p: Piece) -> u8 {
    (p.color.index() * 8 + p.kind.index()) as u8
}

/// The board's pieces as `(point, code)`.
pub fn pieces(b: &Board, out: &mut Vec<(u8, u8)>) {
    out.extend(b.pieces().map(|(sq, p)| (sq.index() as u8, code(p))));
}

/// What `m` changes on `b` (before it is made) and the generals' points
/// after it.
pub fn change(b: &Board, m: Move) -> (Change, [u8; 2]) {
    let mut c = Change::default();
    let mut kings = [
        b.king(Color::Red).index() as u8,
        b.king(Color::Black).index() as u8,
    ];
    let Some(p) = b.piece_at(m.from) else {
        return (c, kings);
    };
    c.remove(m.from.index() as u8, code(p));
    if let Some(victim) = b.piece_at(m.to) {
        c.remove(m.to.index() as u8, code(victim));
    }
    c.add(m.to.index() as u8, code(p));
    if p.kind == Kind::King {
        kings[p.color.index()] = m.to.index() as u8;
    }
    (c, kings)
}

/// The engine's xiangqi evaluator.
#[derive(Clone)]
pub struct XiangqiNetEval {
    net: Option<Accumulators<Xiangqi>>,
    /// The network corrects the hand-made evaluation: the evaluation is
    /// their sum.
    residual: bool,
}

impl Default for XiangqiNetEval {
    fn default() -> Self {
        match current_network() {
            Some(net) => XiangqiNetEval::with_network(net),
            None => XiangqiNetEval {
                net: None,
                residual: false,
            },
        }
    }
}

impl XiangqiNetEval {
    pub fn with_network(net: Arc<Network>) -> Self {
        XiangqiNetEval {
            residual: net.residual,
            net: Some(Accumulators::new(net)),
        }
    }

    pub fn uses_network(&self) -> bool {
        self.net.is_some()
    }
}

impl Evaluator<Board> for XiangqiNetEval {
    #[inline]
    fn evaluate(&mut self, pos: &Board) -> i32 {
        match &mut self.net {
            Some(acc) => {
                let v = acc.evaluate(pos.side_to_move().index(), &mut |v| pieces(pos, v));
                if self.residual {
                    v + evaluate(pos)
                } else {
                    v
                }
            }
            None => evaluate(pos),
        }
    }

    fn reset(&mut self, root: &Board) {
        if let Some(acc) = &mut self.net {
            let mut v = Vec::with_capacity(32);
            pieces(root, &mut v);
            acc.reset(&v);
        }
    }

    #[inline]
    fn push(&mut self, pos: &Board, m: Move) {
        if let Some(acc) = &mut self.net {
            let (c, kings) = change(pos, m);
            acc.push(c, kings);
        }
    }

    #[inline]
    fn push_null(&mut self, _pos: &Board) {
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

/// The board a training record describes, or `None` if it is no legal
/// xiangqi position.
pub fn board_of(s: &Sample) -> Option<Board> {
    let placement = data::sample_placement(s, 9, 10, b"KABNRCP")?;
    let side = if s.black_to_move { "b" } else { "w" };
    let fen = format!("{} {side} - - {} 1", placement, s.halfmove);
    Board::from_fen(&fen).ok()
}

/// The hand-made evaluation of a training record from the side to move's
/// view: the base a residual network is trained to correct.
pub fn hand_eval_of(s: &Sample) -> Option<i32> {
    board_of(s).map(|b| evaluate(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move two plies deep (general moves across palace
    /// buckets and mirroring included): the incremental evaluation equals
    /// a fresh one, also after take-backs.
    #[test]
    fn incremental_evaluation_equals_a_fresh_one_on_every_move() {
        let net = Arc::new(Network::random::<Xiangqi>(32, 33));
        let fens = [
            crate::board::START_FEN,
            "3k5/4a4/4b4/9/2b6/9/9/4B4/4A4/3AK4 w",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            "4k4/4a4/9/9/9/9/9/9/4A4/3K5 b",
        ];
        for fen in fens {
            let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut eval = XiangqiNetEval::with_network(Arc::clone(&net));
            eval.reset(&b);
            let fresh = |b: &Board| {
                let mut e = XiangqiNetEval::with_network(Arc::clone(&net));
                e.reset(b);
                e.evaluate(b)
            };
            let root = eval.evaluate(&b);
            assert_eq!(root, fresh(&b));
            let mut moves = Vec::new();
            b.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "{fen}");
            for m in moves {
                eval.push(&b, m);
                b.make(m);
                assert_eq!(eval.evaluate(&b), fresh(&b), "{fen} {m:?}");
                let mut replies = Vec::new();
                b.legal_moves(&mut replies);
                for r in replies.into_iter().take(10) {
                    eval.push(&b, r);
                    b.make(r);
                    assert_eq!(eval.evaluate(&b), fresh(&b), "{fen} {m:?} {r:?}");
                    b.unmake(r);
                    eval.pop();
                }
                b.unmake(m);
                eval.pop();
                assert_eq!(eval.evaluate(&b), root, "{fen} after {m:?}");
            }
        }
    }

    /// The built-in network reads as the residual xiangqi network its
    /// file name promises, and is what evaluators get by default.
    #[test]
    fn the_builtin_network_loads_and_is_the_default() {
        let net = Network::from_bytes::<Xiangqi>(BUILTIN_NET).unwrap_or_else(|e| panic!("{e}"));
        assert!(net.residual);
        assert_eq!((net.hidden, net.id()), (128, 0xff67_44e4));
        assert_eq!(current_network().map(|n| n.id()), Some(0xff67_44e4));
        assert!(XiangqiNetEval::default().uses_network());
    }

    #[test]
    fn a_record_gives_back_its_board() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3ak4/4a4/4b4/9/2b6/9/9/3A5/4A4/2RK5 b - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut v = Vec::new();
            pieces(&b, &mut v);
            let s = Sample {
                pieces: v,
                black_to_move: b.side_to_move() == Color::Black,
                score: 0,
                result: tengen_nnue::data::Wdl::Draw,
                halfmove: 0,
                fullmove: 0,
                best: 0,
            };
            let back = board_of(&s).map(|b| b.fen()).unwrap_or_default();
            let want: Vec<&str> = fen.split(' ').take(2).collect();
            assert_eq!(back.split(' ').take(2).collect::<Vec<_>>(), want);
            assert_eq!(hand_eval_of(&s), Some(evaluate(&b)));
        }
        let bad = Sample {
            pieces: vec![(4, 0)],
            black_to_move: false,
            score: 0,
            result: tengen_nnue::data::Wdl::Draw,
            halfmove: 0,
            fullmove: 0,
            best: 0,
        };
        assert!(board_of(&bad).is_none(), "one general only");
    }

    #[test]
    fn without_a_network_the_hand_evaluation_answers() {
        let b = Board::startpos();
        let mut e = XiangqiNetEval {
            net: None,
            residual: false,
        };
        assert!(!e.uses_network());
        assert_eq!(e.evaluate(&b), evaluate(&b));
        // A file that cannot be read leaves the built-in network current.
        assert!(load_eval_file("/no/such/net.nnue").is_err());
        assert!(current_network().is_some());
    }
}
