//! A game in progress: the board plus everything played to reach it, so
//! that repetitions (sennichite) and perpetual checks can be judged.

use crate::board::{side_name, Board};
use crate::movegen::Gen;
use crate::types::{Color, Kind, Move, Piece, Square};

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Option<Move>,
    captured: Option<Piece>,
}

/// How a game ended, or `None` while it goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` won; the reason says how.
    Win { winner: Color, reason: EndReason },
    /// Sennichite without continuous check.
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The loser has no legal move (in shogi that is always checkmate or
    /// its equivalent: there is no stalemate draw).
    Checkmate,
    /// The loser repeated the position four times by continuous check.
    PerpetualCheck,
}

impl Outcome {
    /// `black checkmate`, `draw sennichite`, ... as `tengen legal` prints.
    pub fn describe(self) -> String {
        match self {
            Outcome::Draw => "draw sennichite".to_string(),
            Outcome::Win { winner, reason } => {
                let who = match winner {
                    Color::Black => "black",
                    Color::White => "white",
                };
                let why = match reason {
                    EndReason::Checkmate => "checkmate",
                    EndReason::PerpetualCheck => "perpetual-check",
                };
                format!("{who} {why}")
            }
        }
    }
}

/// What a repetition means for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    Draw,
    /// The side to move has been checking continuously: it loses.
    Loss,
    /// The opponent has been checking continuously: the side to move wins.
    Win,
}

#[derive(Clone)]
pub struct Game {
    board: Board,
    /// Key of every position of the game, the current one last.
    keys: Vec<u64>,
    /// Whether the side to move was in check in each of those positions.
    checks: Vec<bool>,
    /// Index into `keys` after the last null move: repetitions never span
    /// a null move.
    undo: Vec<Undo>,
    null_barrier: Vec<usize>,
}

impl Game {
    pub fn new(board: Board) -> Game {
        let check = board.in_check();
        Game {
            keys: vec![board.key()],
            checks: vec![check],
            board,
            undo: Vec::new(),
            null_barrier: vec![0],
        }
    }

    pub fn startpos() -> Game {
        Game::new(Board::startpos())
    }

    /// An SFEN or `startpos`, then moves in USI notation. Names the first
    /// thing that is wrong.
    pub fn from_usi(sfen: &str, moves: &[&str]) -> Result<Game, String> {
        let mut pos = Game::new(Board::from_sfen(sfen)?);
        for (i, text) in moves.iter().enumerate() {
            let m = pos
                .board
                .parse_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
            pos.play(m);
        }
        Ok(pos)
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of moves played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.undo.len()
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let captured = self.board.do_move(m);
        self.undo.push(Undo {
            mv: Some(m),
            captured,
        });
        self.keys.push(self.board.key());
        self.checks.push(self.board.in_check());
    }

    /// Takes back the last move played with [`Game::play`].
    pub fn take_back(&mut self) {
        if let Some(u) = self.undo.pop() {
            self.keys.pop();
            self.checks.pop();
            match u.mv {
                Some(m) => self.board.undo_move(m, u.captured),
                None => {
                    self.board.do_null();
                    self.null_barrier.pop();
                }
            }
        }
    }

    pub fn play_null(&mut self) {
        self.board.do_null();
        self.undo.push(Undo {
            mv: None,
            captured: None,
        });
        self.keys.push(self.board.key());
        self.checks.push(false);
        self.null_barrier.push(self.keys.len() - 1);
    }

    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().and_then(|u| u.mv)
    }

    /// Looks for an earlier occurrence of the current position (same
    /// board, hands and side to move) at most `within` plies back, and if
    /// `need` occurrences (the current one included) are found, says what
    /// the repetition means. The continuous-check test spans from the
    /// oldest occurrence counted to now.
    pub fn repetition(&self, need: usize, within: usize) -> Option<Repetition> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let barrier = self.null_barrier.last().copied().unwrap_or(0);
        let lowest = n.saturating_sub(within).max(barrier);
        let mut found = 1;
        let mut first = n;
        let mut i = n;
        while i >= lowest + 2 {
            i -= 2;
            if self.keys[i] == key {
                found += 1;
                first = i;
                if found >= need {
                    break;
                }
            }
        }
        if found < need {
            return None;
        }
        // Positions first+1..=n; the opponent's moves led to n, n-2, ...
        let opponent_checked = (first + 2..=n).rev().step_by(2).all(|j| self.checks[j]);
        let we_checked = (first + 1..n).rev().step_by(2).all(|j| self.checks[j]);
        Some(if opponent_checked {
            Repetition::Win
        } else if we_checked {
            Repetition::Loss
        } else {
            Repetition::Draw
        })
    }

    /// The game's result by the rules (checkmate, fourfold repetition),
    /// or `None` while it goes on. A declaration is a move, not a result.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.board.side_to_move();
        if !self.board.has_legal_move() {
            return Some(Outcome::Win {
                winner: us.flip(),
                reason: EndReason::Checkmate,
            });
        }
        match self.repetition(4, usize::MAX)? {
            Repetition::Draw => Some(Outcome::Draw),
            Repetition::Win => Some(Outcome::Win {
                winner: us,
                reason: EndReason::PerpetualCheck,
            }),
            Repetition::Loss => Some(Outcome::Win {
                winner: us.flip(),
                reason: EndReason::PerpetualCheck,
            }),
        }
    }
}

impl Board {
    /// Reads a move in USI notation and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let m = parse_usi_move(text)?;
        if self.is_legal(m) {
            return Ok(m);
        }
        Err(self.why_illegal(m))
    }

    fn why_illegal(&self, m: Move) -> String {
        let us = self.side_to_move();
        match m.from() {
            Some(from) => match self.piece_at(from) {
                None => format!("no piece on {from}"),
                Some(p) if p.color() != us => {
                    format!("the piece on {from} is not {}'s", side_name(us))
                }
                Some(_) => format!("{m} is not a legal move here"),
            },
            None => {
                let k = m.drop_kind().unwrap_or(Kind::Pawn);
                if self.hand_count(us, k) == 0 {
                    format!(
                        "{} has no {} in hand",
                        side_name(us),
                        crate::board::kind_name(k)
                    )
                } else if self.piece_at(m.to()).is_some() {
                    format!("{} is occupied", m.to())
                } else {
                    format!(
                        "{m} is not a legal drop here (nifu, drop-pawn mate, dead square or check)"
                    )
                }
            }
        }
    }

    /// Whether the side to move may declare a win by the CSA entering-king
    /// rule: king in the enemy camp and not in check, at least ten other
    /// own pieces in the camp, and at least 28 points (sente) or 27 (gote)
    /// counting bishops and rooks (promoted or not) as 5 and the rest as 1,
    /// over the pieces in the camp and in hand.
    pub fn can_declare_win(&self) -> bool {
        let us = self.side_to_move();
        let Some(k) = self.king(us) else { return false };
        if !k.in_zone(us) || self.in_check() {
            return false;
        }
        let mut pieces = 0;
        let mut points = 0u32;
        for sq in Square::all() {
            if !sq.in_zone(us) || sq == k {
                continue;
            }
            if let Some(p) = self.piece_at(sq) {
                if p.color() == us {
                    pieces += 1;
                    points += if p.kind().is_big() { 5 } else { 1 };
                }
            }
        }
        for (i, &n) in self.hand(us).iter().enumerate() {
            points += u32::from(n) * if Kind::HAND[i].is_big() { 5 } else { 1 };
        }
        let need = match us {
            Color::Black => 28,
            Color::White => 27,
        };
        pieces >= 10 && points >= need
    }

    /// Legal moves of the given kind, as a fresh vector.
    pub fn moves(&self, mode: Gen) -> Vec<Move> {
        let mut v = Vec::with_capacity(128);
        self.generate(mode, &mut v);
        v
    }
}

/// Parses USI move syntax (`7g7f`, `8h2b+`, `G*5b`) without a position.
pub fn parse_usi_move(text: &str) -> Result<Move, String> {
    let t = text.trim();
    let bad = || format!("'{t}' is not a USI move (like 7g7f, 8h2b+ or G*5b)");
    if !t.is_ascii() {
        return Err(bad());
    }
    if let Some((piece, sq)) = t.split_once('*') {
        let mut chars = piece.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(bad());
        };
        let kind = Kind::from_letter(c)
            .filter(|&k| k != Kind::King)
            .ok_or_else(bad)?;
        let to = Square::parse(sq).ok_or_else(bad)?;
        return Ok(Move::drop(kind, to));
    }
    let (body, promote) = match t.strip_suffix('+') {
        Some(b) => (b, true),
        None => (t, false),
    };
    if body.len() != 4 {
        return Err(bad());
    }
    let from = Square::parse(&body[..2]).ok_or_else(bad)?;
    let to = Square::parse(&body[2..]).ok_or_else(bad)?;
    if from == to {
        return Err(bad());
    }
    Ok(Move::normal(from, to, promote))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects_moves() {
        let b = Board::startpos();
        assert_eq!(b.parse_move("7g7f").unwrap().to_string(), "7g7f");
        assert!(b
            .parse_move("7g7e")
            .unwrap_err()
            .contains("not a legal move"));
        assert!(b.parse_move("5e5d").unwrap_err().contains("no piece"));
        assert!(b.parse_move("3c3d").unwrap_err().contains("not sente's"));
        assert!(b
            .parse_move("P*5e")
            .unwrap_err()
            .contains("no pawn in hand"));
        for bad in [
            "", "7g", "7g7f++", "K*5e", "0a1a", "7g7g", "P*5", "7g7fx", "ＰＰ",
        ] {
            assert!(parse_usi_move(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fourfold_repetition_is_a_draw() {
        let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        let mut moves = Vec::new();
        for _ in 0..3 {
            moves.extend_from_slice(&cycle);
        }
        let pos = Game::from_usi("startpos", &moves).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        let pos = Game::from_usi("startpos", &moves[..11]).unwrap();
        assert_eq!(pos.outcome(), None);
    }

    #[test]
    fn perpetual_check_loses() {
        // Sente's rook checks from 1i and 2i in turn; the gote king shuttles.
        let sfen2 = "8k/9/9/9/9/9/9/9/K6R1 b - 1";
        let mut moves = Vec::new();
        for _ in 0..3 {
            moves.extend_from_slice(&["2i1i", "1a2a", "1i2i", "2a1a"]);
        }
        // 2i1i checks the king on 1a, 1i2i checks it on 2a.
        let pos = Game::from_usi(sfen2, &moves).unwrap();
        assert_eq!(
            pos.outcome(),
            Some(Outcome::Win {
                winner: Color::White,
                reason: EndReason::PerpetualCheck
            })
        );
        // In the search one repetition is enough; sente, to move, is the checker.
        let pos = Game::from_usi(sfen2, &moves[..4]).unwrap();
        assert_eq!(pos.repetition(2, 100), Some(Repetition::Loss));
    }

    #[test]
    fn entering_king_declaration_points() {
        // Sente king on 5c with 10 pieces in the camp: 2 rooks (10) + 8 golds/silvers...
        let yes = "4K4/GGGG5/SSSSRR3/9/9/9/9/9/8k b BB4P 1";
        let b = Board::from_sfen(yes).unwrap();
        // camp: 4 golds + 4 silvers + 2 rooks = 10 pieces, 18 points; hand 2B (10) + 4P (4) = 32.
        assert!(b.can_declare_win());
        // 27 points for sente is not enough.
        let short = "4K4/GGGG5/SSSSRR3/9/9/9/9/9/8k b B3P 1";
        assert!(!Board::from_sfen(short).unwrap().can_declare_win());
        // Gote needs 27.
        let gote = "8K/9/9/9/9/9/3rrssss/5gggg/4k4 w bb3p 1";
        assert!(Board::from_sfen(gote).unwrap().can_declare_win());
        // Nine pieces in the camp are not enough, whatever the points.
        let few = "4K4/GGGG5/SSSR3R1/9/9/9/9/9/8k b BB18P 1";
        assert!(!Board::from_sfen(few).unwrap().can_declare_win());
        // King not in the camp.
        let out = "9/GGGG5/SSSSRR3/4K4/9/9/9/9/4k4 b BB4P 1";
        assert!(!Board::from_sfen(out).unwrap().can_declare_win());
    }
}
