//! The searcher's view of a chess board (`tengen_search::Position`).

use crate::attacks;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::see::see_value;
use crate::types::{PieceKind, RANK_1, RANK_8};
use tengen_core::Score;
use tengen_search::{GenKind, Position, Ruling, SearchParams};

impl Board {
    /// Legality of a move that may come from another position (hash move,
    /// killer): the same check and pin masks as the generator, per move.
    pub fn is_legal_fast(&self, m: Move) -> bool {
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        if p.color != us {
            return false;
        }
        match m.kind() {
            // Rare: let the generator decide.
            MoveKind::Castle | MoveKind::EnPassant => return self.is_legal_move(m),
            MoveKind::Promotion => {
                if p.kind != PieceKind::Pawn || to.bb() & (RANK_1 | RANK_8) == 0 {
                    return false;
                }
            }
            MoveKind::Normal => {
                if p.kind == PieceKind::Pawn && to.bb() & (RANK_1 | RANK_8) != 0 {
                    return false;
                }
            }
        }
        let ours = self.color_bb(us);
        if ours & to.bb() != 0 {
            return false;
        }
        let occ = self.occupied();
        let theirs = self.color_bb(us.flip());
        let t = attacks::tables();
        let reach = match p.kind {
            PieceKind::Pawn => {
                let one = from.forward(us);
                let mut r = attacks::pawn(us, from) & theirs;
                if occ & one.bb() == 0 {
                    r |= one.bb();
                    let two = one.forward(us);
                    if from.relative_rank(us) == 1 && occ & two.bb() == 0 {
                        r |= two.bb();
                    }
                }
                r
            }
            PieceKind::Knight => attacks::knight(from),
            PieceKind::Bishop => t.bishop(from, occ),
            PieceKind::Rook => t.rook(from, occ),
            PieceKind::Queen => t.queen(from, occ),
            PieceKind::King => {
                return attacks::king(from) & to.bb() != 0
                    && !self.attacked_by(us.flip(), to, occ ^ from.bb());
            }
        };
        if reach & to.bb() == 0 {
            return false;
        }
        let st = self.st();
        let ksq = self.king_square(us);
        if st.checkers != 0 {
            if st.checkers & (st.checkers - 1) != 0 {
                return false;
            }
            let mask = t.between(ksq, crate::types::Square::lsb(st.checkers)) | st.checkers;
            if mask & to.bb() == 0 {
                return false;
            }
        }
        st.pinned & from.bb() == 0 || t.line(ksq, from) & to.bb() != 0
    }

    /// Whether the game history makes this node a draw, `ply` plies below
    /// the search root (see `Position::ruling`).
    pub fn is_draw_at(&self, ply: usize) -> bool {
        let st = self.st();
        if st.halfmove >= 100 && (st.checkers == 0 || self.count_legal() > 0) {
            return true;
        }
        if self.insufficient_material() {
            return true;
        }
        let (count, nearest) = self.repetitions_within(usize::MAX);
        count >= 2 || (count >= 1 && nearest <= ply)
    }
}

impl Position for Board {
    type Move = Move;
    const HISTORY_SIZE: usize = 768;
    const PARAMS: SearchParams = SearchParams {
        effort_time: Some((0.6, 2.0)),
        lmr_refinements: true,
        ..SearchParams::CHESS_LIKE
    };

    #[inline]
    fn key(&self) -> u64 {
        Board::key(self)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.is_check()
    }

    fn generate(&self, kind: GenKind, moves: &mut Vec<Move>) {
        let mut list = MoveList::default();
        self.generate_legal(&mut list, kind == GenKind::Tactical);
        moves.extend_from_slice(list.as_slice());
    }

    fn is_legal(&self, m: Move) -> bool {
        self.is_legal_fast(m)
    }

    #[inline]
    fn make(&mut self, m: Move) {
        self.make_move(m);
    }

    #[inline]
    fn unmake(&mut self, m: Move) {
        self.unmake_move(m);
    }

    fn make_null(&mut self) {
        self.make_null_move();
    }

    fn unmake_null(&mut self) {
        self.unmake_null_move();
    }

    fn null_move_ok(&self) -> bool {
        let us = self.color_bb(self.side);
        !self.is_check()
            && us & !(self.kind_bb(PieceKind::Pawn) | self.kind_bb(PieceKind::King)) != 0
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Castle => false,
            MoveKind::EnPassant | MoveKind::Promotion => true,
            MoveKind::Normal => self.piece_at(m.to()).is_some(),
        }
    }

    fn tactical_value(&self, m: Move) -> i32 {
        let victim = match m.kind() {
            MoveKind::Castle => 0,
            MoveKind::EnPassant => see_value(PieceKind::Pawn),
            _ => self.piece_at(m.to()).map_or(0, |p| see_value(p.kind)),
        };
        victim
            + m.promotion_piece()
                .map_or(0, |p| see_value(p) - see_value(PieceKind::Pawn))
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Board::see_ge(self, m, threshold)
    }

    #[inline]
    fn history_index(&self, m: Move) -> usize {
        let piece = self.piece_at(m.from()).map_or(0, |p| p.index());
        piece * 64 + m.to().index()
    }

    #[inline]
    fn encode(m: Move) -> u16 {
        m.to_u16()
    }

    fn decode(&self, code: u16) -> Option<Move> {
        let m = Move::from_u16(code);
        (m != Move::NULL && self.is_legal_fast(m)).then_some(m)
    }

    fn ruling(&self, ply: usize) -> Option<Ruling> {
        self.is_draw_at(ply).then_some(Ruling::Draw)
    }

    fn no_moves_score(&self, ply: usize) -> Score {
        if self.is_check() {
            Score::mated_in(ply as i32)
        } else {
            Score::DRAW
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 6] = [
        crate::board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];

    /// The picker tests a capture's exchange only when the capture comes
    /// up; the moves must still come in the order that testing every
    /// exchange up front gives (first best score, ties by place, each
    /// pick swapped to the front), with the same stages.
    #[test]
    fn lazy_exchanges_keep_the_eager_order() {
        use tengen_search::history::History;
        use tengen_search::picker::{MovePicker, Stage};
        let mut history: History<Board> = History::new();
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for h in history
            .captures
            .iter_mut()
            .chain(history.butterfly.iter_mut())
        {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct values, so that equal scores are common.
            *h = ((x % 5) as i16 - 2) * 64;
        }
        let mut boards: Vec<Board> = FENS.iter().map(|f| Board::from_fen(f).unwrap()).collect();
        for f in FENS {
            let b = Board::from_fen(f).unwrap();
            for m in b.legal_moves().into_iter().take(12) {
                let mut c = b.clone();
                c.make_move(m);
                boards.push(c);
            }
        }
        let mut bad_seen = 0;
        for b in &boards {
            let mut list = Vec::new();
            b.generate(GenKind::All, &mut list);
            let tt = list.last().copied();
            // The order with every exchange tested first.
            let mut moves = list.clone();
            let mut scores: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    if Some(m) == tt {
                        i32::MAX
                    } else if b.is_tactical(m) {
                        let v = b.tactical_value(m) * 16
                            + history.captures[b.history_index(m)] as i32 / 32;
                        if b.see_ge(m, 0) {
                            (1 << 28) + v
                        } else {
                            -(1 << 28) + v
                        }
                    } else {
                        history.quiet_score(b.history_index(m), None, None)
                    }
                })
                .collect();
            let mut eager = Vec::new();
            for i in 0..moves.len() {
                let top = scores[i..].iter().copied().max().unwrap();
                let at = i + scores[i..].iter().position(|&s| s == top).unwrap();
                moves.swap(i, at);
                scores.swap(i, at);
                eager.push(moves[i]);
            }
            let mut picker = MovePicker::new(
                b,
                list,
                Vec::new(),
                tt,
                &history,
                0,
                None,
                None,
                None,
                false,
            );
            let mut lazy = Vec::new();
            while let Some((m, stage)) = picker.next(b, &history) {
                let expected = if Some(m) == tt {
                    Stage::HashMove
                } else if b.is_tactical(m) && b.see_ge(m, 0) {
                    Stage::GoodTactical
                } else if b.is_tactical(m) {
                    bad_seen += 1;
                    Stage::BadTactical
                } else {
                    Stage::Quiet
                };
                assert_eq!(stage, expected, "{b:?} {m:?}");
                lazy.push(m);
            }
            assert_eq!(lazy, eager, "{b:?}");
        }
        assert!(bad_seen > 10, "{bad_seen}");
    }

    /// `is_legal_fast` and `decode` agree with the generator on every code
    /// that names a move somewhere in a small tree.
    #[test]
    fn fast_legality_matches_generator() {
        let mut codes = std::collections::HashSet::new();
        let boards: Vec<Board> = FENS.iter().map(|f| Board::from_fen(f).unwrap()).collect();
        for b in &boards {
            for m in b.legal_moves() {
                codes.insert(m.to_u16());
                let mut c = b.clone();
                c.make_move(m);
                for r in c.legal_moves() {
                    codes.insert(r.to_u16());
                }
            }
        }
        let mut checked = 0;
        for b in &boards {
            let mut positions = vec![b.clone()];
            for m in b.legal_moves() {
                let mut c = b.clone();
                c.make_move(m);
                positions.push(c);
            }
            for p in &positions {
                let legal = p.legal_moves();
                for &code in &codes {
                    let m = Move::from_u16(code);
                    assert_eq!(p.is_legal_fast(m), legal.contains(&m), "{p:?} {m:?}");
                    assert_eq!(p.decode(code).is_some(), legal.contains(&m));
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn tactical_generation_is_the_capture_subset() {
        for f in FENS {
            let b = Board::from_fen(f).unwrap();
            let mut all = Vec::new();
            let mut tac = Vec::new();
            b.generate(GenKind::All, &mut all);
            b.generate(GenKind::Tactical, &mut tac);
            let want: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| {
                    b.is_tactical(m) && m.promotion_piece().is_none_or(|p| p == PieceKind::Queen)
                })
                .collect();
            let mut got = tac.clone();
            got.sort_by_key(|m| m.to_u16());
            let mut want = want;
            want.sort_by_key(|m| m.to_u16());
            assert_eq!(got, want, "{f}");
        }
    }

    #[test]
    fn repetition_rulings() {
        let mut b = Board::startpos();
        let mv = |b: &Board, s: &str| b.parse_uci_move(s, false).unwrap();
        // Before the root: one earlier occurrence is not yet a draw.
        for s in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = mv(&b, s);
            b.play(m);
        }
        assert_eq!(b.ruling(1), None);
        // Inside the search: a single repetition after the root is a draw.
        for s in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = mv(&b, s);
            b.make(m);
        }
        assert_eq!(b.ruling(4), Some(Ruling::Draw));
        let mut c = Board::startpos();
        for s in ["b1c3", "b8c6", "c3b1", "c6b8"] {
            let m = mv(&c, s);
            c.make(m);
        }
        assert_eq!(c.ruling(4), Some(Ruling::Draw));
        assert_eq!(c.ruling(3), None);
        let fifty = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
        assert_eq!(fifty.ruling(1), Some(Ruling::Draw));
        assert_eq!(
            Board::from_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")
                .unwrap()
                .ruling(1),
            Some(Ruling::Draw)
        );
    }

    #[test]
    fn mate_scores() {
        let b = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        assert_eq!(b.no_moves_score(3), Score::mated_in(3));
        let s = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(s.no_moves_score(3), Score::DRAW);
        assert!(!Board::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")
            .unwrap()
            .null_move_ok());
    }
}
