//! The position: a 90-point mailbox with colour occupancy sets, the side
//! to move, a Zobrist key, and the history that repetition rulings read.

use crate::tables::{HORSE_ATTACKERS, NONE, RAYS, ZOBRIST, ZOBRIST_BLACK};
use crate::types::{Color, Kind, Move, Piece, Square};

/// What `unmake` needs, plus what the repetition rulings read.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move, or `None` for a null move.
    pub mv: Option<Move>,
    pub moved: Option<Piece>,
    pub captured: Option<Piece>,
    /// Key of the position before the move.
    pub key: u64,
    /// Plies without capture before the move.
    pub halfmove: u32,
    /// Whether the side that was to move was in check before the move.
    pub was_in_check: bool,
    /// Whether the move gave check.
    pub gave_check: bool,
}

/// A xiangqi position with its game history.
#[derive(Clone, Debug)]
pub struct Board {
    pub(crate) squares: [Option<Piece>; 90],
    pub(crate) occ: [u128; 2],
    pub(crate) kings: [Square; 2],
    pub(crate) side: Color,
    pub(crate) key: u64,
    /// Plies since the last capture (the no-capture rule's counter).
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) in_check: bool,
    pub(crate) counts: [[u8; 7]; 2],
    pub(crate) history: Vec<Undo>,
    /// Plies without capture that draw the game.
    pub(crate) move_limit: u32,
}

/// The start position, kept with the other games' in `tengen-games`.
pub const START_FEN: &str = tengen_games::XIANGQI_START;

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        match Board::from_fen(START_FEN) {
            Ok(b) => b,
            // The constant is a valid FEN (a unit test proves it); an empty
            // board is never reached but keeps this path free of panics.
            Err(_) => Board::empty(Color::Red),
        }
    }

    /// A board with no pieces; only FEN parsing builds on it.
    pub(crate) fn empty(side: Color) -> Board {
        Board {
            squares: [None; 90],
            occ: [0; 2],
            kings: [
                Square::from_index_unchecked(4),
                Square::from_index_unchecked(85),
            ],
            side,
            key: if side == Color::Black {
                ZOBRIST_BLACK
            } else {
                0
            },
            halfmove: 0,
            fullmove: 1,
            in_check: false,
            counts: [[0; 7]; 2],
            history: Vec::new(),
            move_limit: crate::rules::DEFAULT_MOVE_LIMIT,
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }
    pub fn key(&self) -> u64 {
        self.key
    }
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }
    pub fn in_check(&self) -> bool {
        self.in_check
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// How many pieces of a kind a side has.
    pub fn count(&self, c: Color, k: Kind) -> u32 {
        self.counts[c.index()][k.index()] as u32
    }
    /// Moves made since the board was set up.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }
    /// Occupied points of one colour, bit `i` for square index `i`.
    pub fn occupancy(&self, c: Color) -> u128 {
        self.occ[c.index()]
    }

    /// Forgets the history (the position stays): the start of a new
    /// repetition window.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        self.squares[sq.index()] = Some(p);
        self.occ[p.color.index()] |= 1u128 << sq.index();
        self.key ^= ZOBRIST[p.index()][sq.index()];
        self.counts[p.color.index()][p.kind.index()] += 1;
        if p.kind == Kind::King {
            self.kings[p.color.index()] = sq;
        }
    }

    fn remove(&mut self, sq: Square, p: Piece) {
        self.squares[sq.index()] = None;
        self.occ[p.color.index()] &= !(1u128 << sq.index());
        self.key ^= ZOBRIST[p.index()][sq.index()];
        self.counts[p.color.index()][p.kind.index()] -= 1;
    }

    /// Plays a move known to be legal (or at least pseudo-legal for the
    /// side to move). A move from an empty point is played as a pass so a
    /// corrupted move can never panic; `unmake` reverses either.
    pub fn make(&mut self, m: Move) {
        let moved = self.squares[m.from.index()];
        let captured = self.squares[m.to.index()];
        let undo = Undo {
            mv: Some(m),
            moved,
            captured,
            key: self.key,
            halfmove: self.halfmove,
            was_in_check: self.in_check,
            gave_check: false,
        };
        if let Some(p) = moved {
            if let Some(c) = captured {
                self.remove(m.to, c);
            }
            self.remove(m.from, p);
            self.put(m.to, p);
        }
        self.halfmove = if captured.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.key ^= ZOBRIST_BLACK;
        self.in_check = self.king_attacked(self.side);
        self.history.push(Undo {
            gave_check: self.in_check,
            ..undo
        });
    }

    /// Takes back the last move (the argument is only a cross-check).
    pub fn unmake(&mut self, _m: Move) {
        self.unmake_last();
    }

    /// Takes back whatever was played last, move or null move.
    pub fn unmake_last(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.side = self.side.flip();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        if let (Some(m), Some(p)) = (u.mv, u.moved) {
            self.remove(m.to, p);
            self.put(m.from, p);
            if let Some(c) = u.captured {
                self.put(m.to, c);
            }
        }
        self.key = u.key;
        self.halfmove = u.halfmove;
        self.in_check = u.was_in_check;
    }

    /// Passes the turn (for null-move pruning).
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: None,
            moved: None,
            captured: None,
            key: self.key,
            halfmove: self.halfmove,
            was_in_check: self.in_check,
            gave_check: false,
        });
        // A pass counts in the move number as a move does, so that
        // `unmake_last` (which takes one off after Black's turn) restores it.
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.key ^= ZOBRIST_BLACK;
        self.halfmove += 1;
        self.in_check = self.king_attacked(self.side);
    }

    pub fn unmake_null(&mut self) {
        self.unmake_last();
    }

    /// Whether `c`'s general is attacked (a facing enemy general counts).
    pub fn king_attacked(&self, c: Color) -> bool {
        let k = self.kings[c.index()];
        self.king_attacked_with(k, c, |s| self.squares[s])
    }

    /// Whether `c`'s general would be attacked after the pseudo-legal move
    /// `m` by `c`, without changing the board.
    pub(crate) fn leaves_king_attacked(&self, m: Move, c: Color) -> bool {
        let from = m.from.index();
        let to = m.to.index();
        let moving = self.squares[from];
        let k = if moving.map(|p| p.kind) == Some(Kind::King) {
            m.to
        } else {
            self.kings[c.index()]
        };
        self.king_attacked_with(k, c, |s| {
            if s == from {
                None
            } else if s == to {
                moving
            } else {
                self.squares[s]
            }
        })
    }

    /// Whether the pseudo-legal move `m` of the side to move checks the
    /// enemy general, without changing the board.
    pub fn gives_check(&self, m: Move) -> bool {
        let from = m.from.index();
        let to = m.to.index();
        let moving = self.squares[from];
        let them = self.side.flip();
        self.king_attacked_with(self.kings[them.index()], them, |s| {
            if s == from {
                None
            } else if s == to {
                moving
            } else {
                self.squares[s]
            }
        })
    }

    /// Check detection over any view of the board (the real one, or the
    /// one after a move that has not been made).
    #[inline(always)]
    fn king_attacked_with(&self, k: Square, c: Color, at: impl Fn(usize) -> Option<Piece>) -> bool {
        let them = c.flip();
        let ki = k.index();
        for (d, ray) in RAYS[ki].iter().enumerate() {
            let mut i = 0;
            // First piece along the ray: a rook, or a general on the file.
            while i < 9 && ray[i] != NONE && at(ray[i] as usize).is_none() {
                i += 1;
            }
            if i >= 9 || ray[i] == NONE {
                continue;
            }
            if let Some(p) = at(ray[i] as usize) {
                if p.color == them && (p.kind == Kind::Rook || (p.kind == Kind::King && d < 2)) {
                    return true;
                }
            }
            // Second piece: a cannon firing over the screen.
            i += 1;
            while i < 9 && ray[i] != NONE {
                if let Some(p) = at(ray[i] as usize) {
                    if p.color == them && p.kind == Kind::Cannon {
                        return true;
                    }
                    break;
                }
                i += 1;
            }
        }
        for &(from, leg) in &HORSE_ATTACKERS[ki] {
            if from == NONE {
                break;
            }
            if at(from as usize) == Some(Piece::new(them, Kind::Horse))
                && at(leg as usize).is_none()
            {
                return true;
            }
        }
        // Enemy pawns step toward us from the rank beyond, or sideways.
        let pawn = Some(Piece::new(them, Kind::Pawn));
        let ahead = match c {
            Color::Red => k.offset(0, 1),
            Color::Black => k.offset(0, -1),
        };
        for s in [ahead, k.offset(-1, 0), k.offset(1, 0)]
            .into_iter()
            .flatten()
        {
            if at(s.index()) == pawn {
                return true;
            }
        }
        false
    }

    /// The pieces on the board, for display and evaluation.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Square::from_index_unchecked(i), p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_moves_keep_the_move_number() {
        // Black to move at move 1: a pass by Black then its undo used to
        // take the number below 1 (an overflow in checked builds).
        let mut b = Board::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        b.make_null();
        assert_eq!(b.fullmove_number(), 2);
        b.make_null();
        b.unmake_null();
        b.unmake_null();
        assert_eq!(b.fullmove_number(), 1);
        assert_eq!(b.side_to_move(), Color::Black);
    }

    #[test]
    fn start_fen_parses() {
        let b = Board::from_fen(START_FEN).unwrap();
        assert_eq!(b.pieces().count(), 32);
        assert!(!b.in_check());
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut b = Board::startpos();
        let key = b.key();
        let fen = b.fen();
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        for &m in &moves {
            b.make(m);
            b.unmake(m);
            assert_eq!(b.key(), key);
            assert_eq!(b.fen(), fen);
        }
    }

    #[test]
    fn flying_general_is_check() {
        let b = Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert!(!b.in_check());
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        // d0 -> e0 would face the black general: illegal.
        assert!(!moves.iter().any(|m| m.to.to_string() == "e0"));
    }
}
