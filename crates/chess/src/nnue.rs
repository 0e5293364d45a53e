//! The chess evaluation the engine uses: a network (`tengen-nnue`,
//! feature set `Chess`) when one is loaded, the hand-made [`Eval`]
//! otherwise.
//!
//! The current network is process-wide ([`load_eval_file`],
//! [`set_network`]); each [`ChessEval`] takes the network current when
//! it is made (the engine makes one per search), so a new `EvalFile`
//! applies from the next search on. The built-in network, embedded in
//! the binary, is current until `EvalFile` says otherwise: a residual
//! network (the hand-made evaluation plus the network's correction) that
//! beat the hand-made evaluation alone (`docs/nnue.md`, `nets/README.md`).

use crate::board::Board;
use crate::eval::Eval;
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Piece, PieceKind, Square};
use std::sync::Arc;
use tengen_nnue::accumulator::{Accumulators, Change};
use tengen_nnue::data::{self, Sample};
use tengen_nnue::features::Chess;
use tengen_nnue::network::Network;
use tengen_nnue::slot::Slot;
use tengen_search::Evaluator;

/// The built-in network's file (`nets/`, recorded in `nets/README.md`).
pub const BUILTIN_NET: &[u8] = include_bytes!("../../../nets/chess-residual-h256-34315bf4.nnue");

static CURRENT: Slot<Chess> = Slot::with_builtin(BUILTIN_NET);

/// The network new evaluators use, if any.
pub fn current_network() -> Option<Arc<Network>> {
    CURRENT.get()
}

/// Makes `net` the network new evaluators use (`None`: the hand-made
/// evaluation).
pub fn set_network(net: Option<Network>) {
    CURRENT.set(net);
}

/// Loads a network file for chess and makes it current; `<default>` is
/// the built-in network, an empty path or `<empty>`/`none` the hand-made
/// evaluation. A file that
/// is not a chess network of this build's feature set is refused with
/// the reason, and the current evaluation stays. Returns a line to show.
pub fn load_eval_file(path: &str) -> Result<String, String> {
    CURRENT.load(path)
}

#[inline]
fn code(p: Piece) -> u8 {
    (p.color.index() * 8 + p.kind.index()) as u8
}

/// The board's pieces as `(square, code)`, in square order.
pub fn pieces(b: &Board, out: &mut Vec<(u8, u8)>) {
    let mut occ = b.occupied();
    while occ != 0 {
        let sq = Square::lsb(occ);
        occ &= occ - 1;
        if let Some(p) = b.piece_at(sq) {
            out.push((sq.index() as u8, code(p)));
        }
    }
}

/// What `m` changes on `b` (before it is made), and the kings' squares
/// after it.
pub fn change(b: &Board, m: Move) -> (Change, [u8; 2]) {
    let mut c = Change::default();
    let mut kings = [
        b.king_square(Color::White).index() as u8,
        b.king_square(Color::Black).index() as u8,
    ];
    let (from, to) = (m.from(), m.to());
    let Some(p) = b.piece_at(from) else {
        return (c, kings);
    };
    let us = p.color.index();
    let rank_sq = |file: u8| Square::from_index((from.rank() * 8 + file) as usize);
    match m.kind() {
        MoveKind::Castle => {
            let king_side = to.file() > from.file();
            let (kf, rf) = if king_side { (6, 5) } else { (2, 3) };
            let (kdst, rdst) = (rank_sq(kf), rank_sq(rf));
            c.remove(from.index() as u8, code(p));
            c.remove(to.index() as u8, code(Piece::new(p.color, PieceKind::Rook)));
            c.add(kdst.index() as u8, code(p));
            c.add(
                rdst.index() as u8,
                code(Piece::new(p.color, PieceKind::Rook)),
            );
            kings[us] = kdst.index() as u8;
        }
        MoveKind::EnPassant => {
            let cap = rank_sq(to.file());
            c.remove(from.index() as u8, code(p));
            c.remove(
                cap.index() as u8,
                code(Piece::new(p.color.flip(), PieceKind::Pawn)),
            );
            c.add(to.index() as u8, code(p));
        }
        kind => {
            c.remove(from.index() as u8, code(p));
            if let Some(victim) = b.piece_at(to) {
                c.remove(to.index() as u8, code(victim));
            }
            let arriving = match (kind, m.promotion_piece()) {
                (MoveKind::Promotion, Some(k)) => Piece::new(p.color, k),
                _ => p,
            };
            c.add(to.index() as u8, code(arriving));
            if p.kind == PieceKind::King {
                kings[us] = to.index() as u8;
            }
        }
    }
    (c, kings)
}

/// The engine's chess evaluator: the current network, or the hand-made
/// evaluation when none is loaded.
#[derive(Clone)]
pub struct ChessEval {
    hand: Eval,
    net: Option<Accumulators<Chess>>,
    /// The network corrects the hand-made evaluation (its file says so):
    /// the evaluation is their sum.
    residual: bool,
}

impl Default for ChessEval {
    fn default() -> Self {
        match current_network() {
            Some(net) => ChessEval::with_network(net),
            None => ChessEval {
                hand: Eval::default(),
                net: None,
                residual: false,
            },
        }
    }
}

impl ChessEval {
    /// An evaluator with this network (tests, tools).
    pub fn with_network(net: Arc<Network>) -> Self {
        ChessEval {
            hand: Eval::default(),
            residual: net.residual,
            net: Some(Accumulators::new(net)),
        }
    }

    /// Whether a network evaluates.
    pub fn uses_network(&self) -> bool {
        self.net.is_some()
    }
}

impl Evaluator<Board> for ChessEval {
    #[inline]
    fn evaluate(&mut self, pos: &Board) -> i32 {
        match &mut self.net {
            Some(acc) => {
                let v = acc.evaluate(pos.side_to_move().index(), &mut |v| pieces(pos, v));
                if self.residual {
                    v + self.hand.eval(pos)
                } else {
                    v
                }
            }
            None => self.hand.eval(pos),
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

/// The board a training record describes (no castling rights or en
/// passant square: records keep neither), or `None` if it is no legal
/// chess position.
pub fn board_of(s: &Sample) -> Option<Board> {
    let placement = data::sample_placement(s, 8, 8, b"PNBRQK")?;
    let side = if s.black_to_move { "b" } else { "w" };
    let fen = format!(
        "{} {side} - - {} {}",
        placement,
        s.halfmove,
        s.fullmove.max(1)
    );
    Board::from_fen(&fen).ok()
}

/// The hand-made evaluation of a training record from the side to move's
/// view: the base a residual network is trained to correct.
pub fn hand_eval_of(s: &Sample) -> Option<i32> {
    board_of(s).map(|b| Eval::default().eval(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks every legal move two plies deep from positions with
    /// castling (both sides, Chess960 too), en passant, promotions with
    /// and without capture and king moves across buckets, comparing the
    /// incremental evaluation with a fresh one after each move and after
    /// each take-back.
    #[test]
    fn incremental_evaluation_equals_a_fresh_one_on_every_move() {
        let net = Arc::new(Network::random::<Chess>(32, 21));
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ];
        for fen in fens {
            let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut eval = ChessEval::with_network(Arc::clone(&net));
            eval.reset(&b);
            let fresh = |b: &Board| {
                let mut e = ChessEval::with_network(Arc::clone(&net));
                e.reset(b);
                e.evaluate(b)
            };
            let root = eval.evaluate(&b);
            assert_eq!(root, fresh(&b));
            for m in b.legal_moves() {
                eval.push(&b, m);
                b.make_move(m);
                assert_eq!(eval.evaluate(&b), fresh(&b), "{fen} {m:?}");
                for r in b.legal_moves().into_iter().take(12) {
                    eval.push(&b, r);
                    b.make_move(r);
                    assert_eq!(eval.evaluate(&b), fresh(&b), "{fen} {m:?} {r:?}");
                    b.unmake_move(r);
                    eval.pop();
                }
                if tengen_search::Position::null_move_ok(&b) {
                    eval.push_null(&b);
                    b.make_null_move();
                    assert_eq!(eval.evaluate(&b), fresh(&b), "{fen} {m:?} null");
                    b.unmake_null_move();
                    eval.pop();
                }
                b.unmake_move(m);
                eval.pop();
                assert_eq!(eval.evaluate(&b), root, "{fen} after {m:?}");
            }
        }
    }

    #[test]
    fn a_residual_network_adds_the_hand_evaluation() {
        let mut net = Network::random::<Chess>(32, 5);
        let plain = Arc::new(net.clone());
        net.residual = true;
        let residual = Arc::new(net);
        let b = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap_or_else(|e| panic!("{e:?}"));
        let mut p = ChessEval::with_network(plain);
        let mut r = ChessEval::with_network(residual);
        p.reset(&b);
        r.reset(&b);
        assert_eq!(r.evaluate(&b), p.evaluate(&b) + Eval::default().eval(&b));
    }

    /// The built-in network reads as the residual chess network its file
    /// name promises, and is what evaluators get by default.
    #[test]
    fn the_builtin_network_loads_and_is_the_default() {
        let net = Network::from_bytes::<Chess>(BUILTIN_NET).unwrap_or_else(|e| panic!("{e}"));
        assert!(net.residual);
        assert_eq!((net.hidden, net.id()), (256, 0x3431_5bf4));
        assert_eq!(current_network().map(|n| n.id()), Some(0x3431_5bf4));
        assert!(ChessEval::default().uses_network());
    }

    #[test]
    fn a_record_gives_back_its_board() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 3 17",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 40",
        ] {
            let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            let mut v = Vec::new();
            pieces(&b, &mut v);
            let s = Sample {
                pieces: v,
                black_to_move: b.side_to_move() == Color::Black,
                score: 0,
                result: tengen_nnue::data::Wdl::Draw,
                halfmove: 3,
                fullmove: 17,
                best: 0,
            };
            let back = board_of(&s).map(|b| b.to_fen(false));
            let want: Vec<&str> = fen.split(' ').take(3).collect();
            let got = back.unwrap_or_default();
            assert_eq!(got.split(' ').take(3).collect::<Vec<_>>(), want);
            assert_eq!(hand_eval_of(&s), Some(Eval::default().eval(&b)));
        }
        let mut bad = Sample {
            pieces: vec![(0, 5)],
            black_to_move: false,
            score: 0,
            result: tengen_nnue::data::Wdl::Draw,
            halfmove: 0,
            fullmove: 1,
            best: 0,
        };
        assert!(board_of(&bad).is_none(), "one king only");
        bad.pieces = vec![(0, 5), (63, 13), (70, 0)];
        assert!(board_of(&bad).is_none(), "a square off the board");
    }

    #[test]
    fn without_a_network_the_hand_evaluation_answers() {
        let b = Board::startpos();
        let mut e = ChessEval {
            hand: Eval::default(),
            net: None,
            residual: false,
        };
        assert!(!e.uses_network());
        assert_eq!(e.evaluate(&b), Eval::default().eval(&b));
    }

    #[test]
    fn eval_files_that_do_not_fit_are_refused() {
        let dir = std::env::temp_dir().join(format!("tengen-chess-nnue-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let good = dir.join("good.nnue");
        let bad = dir.join("xiangqi.nnue");
        let net = Network::random::<Chess>(32, 5);
        std::fs::write(&good, net.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
        let mut xq = net.clone();
        xq.game = 2;
        std::fs::write(&bad, xq.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
        let err = load_eval_file(&bad.to_string_lossy())
            .err()
            .unwrap_or_default();
        assert!(err.contains("a xiangqi network, not a chess one"), "{err}");
        let err = load_eval_file("/nonexistent/net.nnue")
            .err()
            .unwrap_or_default();
        assert!(err.contains("/nonexistent/net.nnue"), "{err}");
        // The global is shared with other tests of this crate: only the
        // refusals above are checked against it, and it keeps the
        // built-in network.
        assert_eq!(current_network().map(|n| n.id()), Some(0x3431_5bf4));
        assert!(Network::from_bytes::<Chess>(&std::fs::read(&good).unwrap_or_default()).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
