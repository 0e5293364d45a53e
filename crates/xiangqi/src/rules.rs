//! Game end and the Asian repetition rulings.
//!
//! A side without a legal move has lost (checkmate and stalemate alike).
//! When a position repeats, the moves of the cycle are judged: a side
//! whose every move in the cycle was a check (perpetual check), or was a
//! check or a chase of an unprotected piece (perpetual chase), loses if
//! the other side did not do the same; otherwise the repetition is a
//! draw. A configurable number of plies without a capture is a draw.
//! See docs/xiangqi.md for the cases covered and those left out.

use crate::board::Board;
use crate::types::{Color, Kind, Move, Piece};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    PerpetualCheck,
    PerpetualChase,
    Repetition,
    MoveLimit,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move-limit",
        }
    }
}

/// The state of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win(Color, Reason),
    Draw(Reason),
}

/// A repetition's verdict from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    /// The side to move repeated in a forbidden way.
    Loss(Reason),
    /// The opponent repeated in a forbidden way.
    Win(Reason),
}

/// Default no-capture limit: 60 moves each side.
pub const DEFAULT_MOVE_LIMIT: u32 = 120;

/// What a side did over its moves of a repetition cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Conduct {
    /// Some move was neither a check nor a chase.
    Idle,
    /// Every move checked or chased, not all checked.
    Chasing,
    /// Every move checked.
    Checking,
}

impl Board {
    /// The number of plies without capture after which the game is drawn.
    pub fn move_limit(&self) -> u32 {
        self.move_limit
    }

    pub fn set_move_limit(&mut self, plies: u32) {
        self.move_limit = plies.max(1);
    }

    /// Index into `history` of the most recent earlier occurrence of the
    /// current position (same side to move, no capture since), if any.
    pub fn last_repetition(&self) -> Option<usize> {
        self.repetitions().next()
    }

    /// Earlier occurrences of the current position, most recent first.
    fn repetitions(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        (2..=window)
            .step_by(2)
            .map(move |back| n - back)
            .filter(move |&i| self.history[i].key == self.key && self.history[i].mv.is_some())
    }

    /// Judges the cycle from `history[start]` to now, for the side to move.
    pub fn judge_cycle(&self, start: usize) -> Verdict {
        let n = self.history.len();
        let cycle = &self.history[start..n];
        // A null move inside the cycle (search only) proves nothing.
        if cycle.iter().any(|u| u.mv.is_none()) {
            return Verdict::Draw;
        }
        let (mut them_check, mut us_check) = (true, true);
        for (i, u) in cycle.iter().rev().enumerate() {
            if i.is_multiple_of(2) {
                them_check &= u.gave_check;
            } else {
                us_check &= u.gave_check;
            }
        }
        let mut them = if them_check {
            Conduct::Checking
        } else {
            Conduct::Idle
        };
        let mut us = if us_check {
            Conduct::Checking
        } else {
            Conduct::Idle
        };
        if them != Conduct::Checking || us != Conduct::Checking {
            // Only then can chases change the verdict.
            let (them_forcing, us_forcing) = self.forcing_sides(start);
            if them == Conduct::Idle && them_forcing {
                them = Conduct::Chasing;
            }
            if us == Conduct::Idle && us_forcing {
                us = Conduct::Chasing;
            }
        }
        match them.cmp(&us) {
            std::cmp::Ordering::Equal => Verdict::Draw,
            std::cmp::Ordering::Greater => Verdict::Win(reason(them)),
            std::cmp::Ordering::Less => Verdict::Loss(reason(us)),
        }
    }

    /// Replays the cycle from `start` and tells, for the side that moved
    /// last and for the side to move, whether every one of its moves was
    /// a check or a chase.
    fn forcing_sides(&self, start: usize) -> (bool, bool) {
        let n = self.history.len();
        let mut b = self.clone();
        for _ in start..n {
            b.unmake_last();
        }
        let (mut them, mut us) = (true, true);
        for i in start..n {
            let u = self.history[i];
            let Some(m) = u.mv else { return (false, false) };
            let forcing = u.gave_check || b.is_chase(m);
            // Moves n-1, n-3, ... were the opponent's.
            if (n - 1 - i).is_multiple_of(2) {
                them &= forcing;
            } else {
                us &= forcing;
            }
            b.make(m);
        }
        (them, us)
    }

    /// Whether `m`, about to be played, chases: afterwards the moved piece
    /// attacks an enemy piece it did not attack before, which is either
    /// unprotected or worth more than the chaser. Generals and pawns may
    /// chase freely; a general and a pawn still on its own side of the
    /// river may be chased freely; two pieces of one kind attacking each
    /// other do not chase.
    pub fn is_chase(&self, m: Move) -> bool {
        let Some(chaser) = self.squares[m.from.index()] else {
            return false;
        };
        if matches!(chaser.kind, Kind::King | Kind::Pawn) {
            return false;
        }
        let mut before = Vec::new();
        self.attacks_of(m.from, &mut before);
        let mut after_board = self.clone();
        after_board.make(m);
        // The attacks are judged with the side that moved to move again.
        after_board.side = chaser.color;
        after_board.in_check = after_board.king_attacked(chaser.color);
        let mut targets = Vec::new();
        after_board.attacks_of(m.to, &mut targets);
        for t in targets {
            let Some(victim) = after_board.squares[t.index()] else {
                continue;
            };
            if victim.kind == Kind::King
                || (victim.kind == Kind::Pawn && t.on_side_of(victim.color))
                || before.contains(&t)
            {
                continue;
            }
            let capture = Move::new(m.to, t);
            if !after_board.is_legal(capture) {
                continue;
            }
            if victim.kind == chaser.kind {
                // Mutual attack between like pieces is no chase.
                let mut back = after_board.clone();
                back.side = victim.color;
                if back.is_legal(Move::new(t, m.to)) {
                    continue;
                }
            }
            if value(victim) > value(chaser) || !after_board.is_protected_after_capture(capture) {
                return true;
            }
        }
        false
    }

    /// Points holding enemy pieces that the piece on `from` could capture
    /// (pseudo-legally), with the board as it stands.
    fn attacks_of(&self, from: crate::types::Square, out: &mut Vec<crate::types::Square>) {
        let Some(p) = self.squares[from.index()] else {
            return;
        };
        let mut b = self.clone();
        b.side = p.color;
        let mut moves = Vec::new();
        b.pseudo_moves(true, &mut moves);
        out.extend(moves.iter().filter(|mv| mv.from == from).map(|mv| mv.to));
    }

    /// After the capture `m` (by the side to move), can the other side
    /// legally take back on the same point?
    fn is_protected_after_capture(&self, m: Move) -> bool {
        let mut b = self.clone();
        b.make(m);
        let mut replies = Vec::new();
        b.legal_captures(&mut replies);
        replies.iter().any(|r| r.to == m.to)
    }

    /// The ruling on repetitions and the move limit at this node, as the
    /// search sees it: the first repetition is judged at once.
    pub fn repetition_verdict(&self) -> Option<Verdict> {
        if let Some(start) = self.last_repetition() {
            return Some(self.judge_cycle(start));
        }
        if self.halfmove >= self.move_limit {
            return Some(Verdict::Draw);
        }
        None
    }

    /// The state of the game: no legal move loses; a position seen for the
    /// third time is judged over the moves since its first occurrence;
    /// then the no-capture limit.
    pub fn outcome(&self) -> Outcome {
        let us = self.side;
        if !self.has_legal_move() {
            let reason = if self.in_check {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Outcome::Win(us.flip(), reason);
        }
        let reps: Vec<usize> = self.repetitions().collect();
        if reps.len() >= 2 {
            if let Some(&first) = reps.last() {
                return match self.judge_cycle(first) {
                    Verdict::Draw => Outcome::Draw(Reason::Repetition),
                    Verdict::Loss(r) => Outcome::Win(us.flip(), r),
                    Verdict::Win(r) => Outcome::Win(us, r),
                };
            }
        }
        if self.halfmove >= self.move_limit {
            return Outcome::Draw(Reason::MoveLimit);
        }
        Outcome::Ongoing
    }
}

fn reason(c: Conduct) -> Reason {
    match c {
        Conduct::Checking => Reason::PerpetualCheck,
        _ => Reason::PerpetualChase,
    }
}

/// Rough piece values for "worth more than the chaser".
fn value(p: Piece) -> u32 {
    match p.kind {
        Kind::Rook => 9,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Pawn => 1,
        Kind::King => 100,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{play_moves, Notation};

    fn play(fen: &str, moves: &str) -> Board {
        let b = Board::from_fen(fen).unwrap();
        play_moves(&b, moves.split_whitespace(), Notation::Iccs).unwrap()
    }

    #[test]
    fn mate_and_stalemate_lose() {
        // Reference position xq-21: Black to move has no legal move.
        let b = Board::from_fen("3R1kbr1/4R4/9/9/p6rp/9/P5P1P/9/9/3K5 b - - 0 22").unwrap();
        assert_eq!(b.outcome(), Outcome::Win(Color::Red, Reason::Checkmate));
        // The black general on e9: d9 faces the red general, e8 and f9
        // are covered by the pawn on f8. Not in check, no move: a loss.
        let b = Board::from_fen("4k4/5P3/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
        assert!(!b.in_check());
        assert!(!b.has_legal_move());
        assert_eq!(b.outcome(), Outcome::Win(Color::Red, Reason::Stalemate));
    }

    const CHECKS: &str = "3k5/9/9/9/9/9/9/9/9/5K1R1 w - - 0 1";

    #[test]
    fn perpetual_check_loses() {
        let b = play(CHECKS, "h0h9 d9d8 h9h8 d8d9");
        assert_eq!(b.last_repetition(), None);
        assert_eq!(b.repetition_verdict(), None);
        // Black to move in the position after h0h9 for the second time:
        // every red move of the cycle checked, no black move did.
        let b = play(CHECKS, "h0h9 d9d8 h9h8 d8d9 h8h9");
        assert!(b.in_check());
        assert_eq!(b.last_repetition(), Some(1));
        assert_eq!(
            b.repetition_verdict(),
            Some(Verdict::Win(Reason::PerpetualCheck))
        );
        // The game is judged at the third occurrence.
        assert_eq!(b.outcome(), Outcome::Ongoing);
        let b = play(CHECKS, "h0h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9 h8h9");
        assert_eq!(
            b.outcome(),
            Outcome::Win(Color::Black, Reason::PerpetualCheck)
        );
        // Seen from the checker (Red to move), the same cycle is a loss.
        let b = play(CHECKS, "h0h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9");
        assert_eq!(
            b.repetition_verdict(),
            Some(Verdict::Loss(Reason::PerpetualCheck))
        );
    }

    #[test]
    fn mutual_repetition_draws() {
        let fen = "r2k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
        let b = play(fen, "i0i1 a9a8 i1i0 a8a9");
        assert_eq!(b.repetition_verdict(), Some(Verdict::Draw));
        let b = play(fen, "i0i1 a9a8 i1i0 a8a9 i0i1 a9a8 i1i0 a8a9");
        assert_eq!(b.outcome(), Outcome::Draw(Reason::Repetition));
    }

    #[test]
    fn perpetual_chase_loses() {
        // The red rook attacks the unprotected black horse on every move;
        // the horse only flees between a7 and c8.
        let fen = "3k5/9/n8/9/9/9/9/9/9/2R2K3 w - - 0 1";
        let b = play(fen, "c0a0 a7c8 a0c0 c8a7 c0a0");
        assert_eq!(
            b.repetition_verdict(),
            Some(Verdict::Win(Reason::PerpetualChase))
        );
        let b = play(fen, "c0a0 a7c8 a0c0 c8a7 c0a0 a7c8 a0c0 c8a7");
        assert_eq!(
            b.repetition_verdict(),
            Some(Verdict::Loss(Reason::PerpetualChase))
        );
        let b = play(fen, "c0a0 a7c8 a0c0 c8a7 c0a0 a7c8 a0c0 c8a7 c0a0");
        assert_eq!(
            b.outcome(),
            Outcome::Win(Color::Black, Reason::PerpetualChase)
        );
    }

    #[test]
    fn perpetual_check_against_perpetual_chase_loses_for_the_checker() {
        // Both sides forcing: checks rank above chases.
        assert!(Conduct::Checking > Conduct::Chasing);
        assert!(Conduct::Chasing > Conduct::Idle);
    }

    fn chase(fen: &str, mv: &str) -> bool {
        let b = Board::from_fen(fen).unwrap();
        let m = crate::notation::parse_move(&b, mv, Notation::Iccs).unwrap();
        b.is_chase(m)
    }

    #[test]
    fn what_counts_as_a_chase() {
        assert!(
            !chase("3k5/9/9/9/9/9/9/9/9/2R2K3 w", "c0c5"),
            "nothing attacked"
        );
        assert!(
            chase("3k5/9/c8/9/9/9/9/9/9/2R2K3 w", "c0a0"),
            "unprotected cannon"
        );
        assert!(
            !chase("r2k5/9/c8/9/9/9/9/9/9/2R2K3 w", "c0a0"),
            "protected cannon"
        );
        assert!(
            chase("3k5/9/9/r2r5/9/9/9/1N7/9/5K3 w", "b2c4"),
            "horse on a protected rook"
        );
        assert!(
            !chase("3k5/9/9/r8/9/9/9/9/9/2R2K3 w", "c0a0"),
            "rook against rook"
        );
        assert!(
            !chase("3k5/9/9/p8/9/9/9/9/9/2R2K3 w", "c0a0"),
            "pawn on its own side"
        );
        assert!(
            chase("3k5/9/9/9/9/p8/9/9/9/2R2K3 w", "c0a0"),
            "pawn across the river"
        );
    }

    #[test]
    fn move_limit_draws() {
        let mut b = Board::from_fen("r2k5/9/9/9/9/9/9/9/9/5K2R w - - 119 80").unwrap();
        assert_eq!(b.outcome(), Outcome::Ongoing);
        let m = crate::notation::parse_move(&b, "i0i1", Notation::Iccs).unwrap();
        b.make(m);
        assert_eq!(b.outcome(), Outcome::Draw(Reason::MoveLimit));
        assert_eq!(b.repetition_verdict(), Some(Verdict::Draw));
        b.set_move_limit(200);
        assert_eq!(b.outcome(), Outcome::Ongoing);
    }
}
