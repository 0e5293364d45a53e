//! Game end: mate, stalemate, the fifty-move rule, repetition and dead
//! positions.

use crate::board::Board;
use crate::types::{Color, PieceKind, DARK_SQUARES};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Stalemate,
    FiftyMoveRule,
    ThreefoldRepetition,
    InsufficientMaterial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Draw(DrawReason),
}

/// How a finished game ended; `winner` is `None` for draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::FiftyMoveRule => "fifty-move rule",
            DrawReason::ThreefoldRepetition => "threefold repetition",
            DrawReason::InsufficientMaterial => "insufficient material",
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::Draw(d) => d.fmt(f),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reason.fmt(f)
    }
}

impl Board {
    /// `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let no_moves = self.count_legal() == 0;
        let draw = |d| {
            Some(Outcome {
                winner: None,
                reason: Reason::Draw(d),
            })
        };
        if no_moves {
            return if self.is_check() {
                Some(Outcome {
                    winner: Some(self.side.flip()),
                    reason: Reason::Checkmate,
                })
            } else {
                draw(DrawReason::Stalemate)
            };
        }
        if self.insufficient_material() {
            return draw(DrawReason::InsufficientMaterial);
        }
        if self.halfmove_clock() >= 100 {
            return draw(DrawReason::FiftyMoveRule);
        }
        if self.repetitions() >= 2 {
            return draw(DrawReason::ThreefoldRepetition);
        }
        None
    }

    /// Earlier occurrences of the current position in the game (same side
    /// to move, same rights), looking back no further than the last
    /// irreversible move or null move.
    pub fn repetitions(&self) -> usize {
        self.repetitions_within(usize::MAX).0
    }

    /// (earlier occurrences, distance in plies to the nearest one) looking
    /// back at most `limit` plies.
    pub(crate) fn repetitions_within(&self, limit: usize) -> (usize, usize) {
        let st = self.st();
        let n = self.states.len();
        let back = (st.halfmove.min(st.since_null) as usize)
            .min(n - 1)
            .min(limit);
        let mut count = 0;
        let mut nearest = 0;
        let mut d = 4;
        while d <= back {
            if self.states[n - 1 - d].key == st.key {
                count += 1;
                if nearest == 0 {
                    nearest = d;
                }
            }
            d += 2;
        }
        (count, nearest)
    }

    /// No sequence of legal moves can mate: K v K, K+minor v K, and
    /// bishops only, all on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.kind_bb(PieceKind::Pawn)
            | self.kind_bb(PieceKind::Rook)
            | self.kind_bb(PieceKind::Queen);
        if heavy != 0 {
            return false;
        }
        let knights = self.kind_bb(PieceKind::Knight);
        let bishops = self.kind_bb(PieceKind::Bishop);
        let minors = (knights | bishops).count_ones();
        if minors <= 1 {
            return true;
        }
        knights == 0 && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
    }

    /// Whether `c` has anything left that could ever mate.
    pub fn has_mating_material(&self, c: Color) -> bool {
        let ours = self.color_bb(c);
        if ours
            & (self.kind_bb(PieceKind::Pawn)
                | self.kind_bb(PieceKind::Rook)
                | self.kind_bb(PieceKind::Queen))
            != 0
        {
            return true;
        }
        (ours & (self.kind_bb(PieceKind::Knight) | self.kind_bb(PieceKind::Bishop))).count_ones()
            >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_uci(b: &mut Board, moves: &str) {
        for t in moves.split_whitespace() {
            let m = b.parse_uci_move(t, false).unwrap();
            b.play(m);
        }
    }

    #[test]
    fn mate_and_stalemate() {
        let mut b = Board::startpos();
        play_uci(&mut b, "f2f3 e7e5 g2g4 d8h4");
        let o = b.outcome().unwrap();
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.to_string(), "checkmate");
        let s = Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(s.outcome().unwrap().to_string(), "stalemate");
        assert!(Board::startpos().outcome().is_none());
    }

    #[test]
    fn threefold_needs_three_occurrences() {
        let mut b = Board::startpos();
        play_uci(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(b.repetitions(), 1);
        assert!(b.outcome().is_none());
        play_uci(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(b.repetitions(), 2);
        assert_eq!(b.outcome().unwrap().to_string(), "threefold repetition");
    }

    #[test]
    fn fifty_moves_but_mate_wins() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
        assert_eq!(b.outcome().unwrap().to_string(), "fifty-move rule");
        let mated = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80").unwrap();
        assert_eq!(mated.outcome().unwrap().reason, Reason::Checkmate);
    }

    #[test]
    fn insufficient_material_cases() {
        let dead = [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
            "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        ];
        for f in dead {
            assert!(Board::from_fen(f).unwrap().insufficient_material(), "{f}");
        }
        let alive = [
            "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",
            "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
            "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
            "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        ];
        for f in alive {
            assert!(!Board::from_fen(f).unwrap().insufficient_material(), "{f}");
        }
    }
}
