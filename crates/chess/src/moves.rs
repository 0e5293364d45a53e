//! A move packed in 16 bits, and a fixed-capacity move list.

use crate::types::{PieceKind, Square};

/// `from | to << 6 | kind << 12 | promotion << 14`. Castling is stored as
/// the king taking its own rook, which names Chess960 castles uniquely.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castle = 3,
}

const PROMOS: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

impl Move {
    /// a1a1: never a legal move, used as "no move".
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline]
    pub const fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        let p = match piece {
            PieceKind::Knight => 0,
            PieceKind::Bishop => 1,
            PieceKind::Rook => 2,
            _ => 3,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | 1 << 12 | p << 14)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | 2 << 12)
    }

    /// Castling: the king's square and its rook's square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | 3 << 12)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    /// Destination; for castling, the rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as usize)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match (self.0 >> 12) & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    /// The piece a pawn becomes, for promotions.
    #[inline]
    pub const fn promotion_piece(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion => Some(PROMOS[(self.0 >> 14) as usize]),
            _ => None,
        }
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind(), MoveKind::Castle)
    }

    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Any 16-bit value names some move (maybe not a legal one).
    #[inline]
    pub const fn from_u16(v: u16) -> Move {
        Move(v)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Promotion => {
                write!(f, "{}", self.promotion_piece().map_or('?', |p| p.letter()))
            }
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castle => write!(f, "(castle)"),
            MoveKind::Normal => Ok(()),
        }
    }
}

/// At most 218 legal moves exist in any chess position.
pub const MAX_MOVES: usize = 256;

/// Moves on the stack, so generation allocates nothing.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    #[inline]
    pub fn push(&mut self, m: Move) {
        // The cap cannot be reached by legal chess; guard anyway instead of
        // panicking on a corrupted board.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        for p in PROMOS {
            let m = Move::promotion(e7, e8, p);
            assert_eq!(m.from(), e7);
            assert_eq!(m.to(), e8);
            assert_eq!(m.promotion_piece(), Some(p));
            assert_eq!(Move::from_u16(m.to_u16()), m);
        }
        let c = Move::castle(Square::E1, Square::H1);
        assert!(c.is_castle());
        assert_eq!(c.to(), Square::H1);
        assert_eq!(Move::normal(Square::A1, Square::A1), Move::NULL);
    }
}
