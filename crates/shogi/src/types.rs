//! The small value types of shogi: colours, piece kinds, pieces, squares
//! and moves. Each is a newtype or an enum so that, for example, a square
//! index can never be mistaken for a piece code.

use std::fmt;
use std::num::NonZeroU8;

/// A side. Black (sente) moves first and moves "up" the board, towards
/// rank `a`; White (gote) moves towards rank `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Piece kinds. The first seven are also the kinds a hand can hold, so a
/// hand index is the unpromoted kind's discriminant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Gold = 4,
    Bishop = 5,
    Rook = 6,
    King = 7,
    ProPawn = 8,
    ProLance = 9,
    ProKnight = 10,
    ProSilver = 11,
    Horse = 12,
    Dragon = 13,
}

impl Kind {
    pub const ALL: [Kind; 14] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
    ];
    /// Kinds a hand can hold, in hand-index order.
    pub const HAND: [Kind; 7] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Option<Kind> {
        Kind::ALL.get(i).copied()
    }

    #[inline]
    pub fn can_promote(self) -> bool {
        matches!(
            self,
            Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver | Kind::Bishop | Kind::Rook
        )
    }

    #[inline]
    pub fn is_promoted(self) -> bool {
        self.index() >= 8
    }

    /// The promoted kind; kinds that cannot promote stay as they are.
    #[inline]
    pub fn promote(self) -> Kind {
        match self {
            Kind::Pawn => Kind::ProPawn,
            Kind::Lance => Kind::ProLance,
            Kind::Knight => Kind::ProKnight,
            Kind::Silver => Kind::ProSilver,
            Kind::Bishop => Kind::Horse,
            Kind::Rook => Kind::Dragon,
            k => k,
        }
    }

    /// The kind a captured piece becomes in hand.
    #[inline]
    pub fn unpromote(self) -> Kind {
        match self {
            Kind::ProPawn => Kind::Pawn,
            Kind::ProLance => Kind::Lance,
            Kind::ProKnight => Kind::Knight,
            Kind::ProSilver => Kind::Silver,
            Kind::Horse => Kind::Bishop,
            Kind::Dragon => Kind::Rook,
            k => k,
        }
    }

    /// SFEN letter (upper case) of the unpromoted kind.
    pub fn letter(self) -> char {
        match self.unpromote() {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Gold => 'G',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind an SFEN letter names (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'L' => Kind::Lance,
            'N' => Kind::Knight,
            'S' => Kind::Silver,
            'G' => Kind::Gold,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// Bishop, rook and their promotions: the "big pieces" of the
    /// entering-king declaration.
    #[inline]
    pub fn is_big(self) -> bool {
        matches!(self, Kind::Bishop | Kind::Rook | Kind::Horse | Kind::Dragon)
    }
}

/// A coloured piece, packed in one non-zero byte so `Option<Piece>` is a
/// byte too.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    #[inline]
    pub fn new(color: Color, kind: Kind) -> Piece {
        // kind + 1 is in 1..=14, plus 16 for White: never zero.
        match NonZeroU8::new(kind as u8 + 1 + 16 * color as u8) {
            Some(n) => Piece(n),
            None => unreachable!(),
        }
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0.get() >= 16 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub fn kind(self) -> Kind {
        let k = (self.0.get() & 15) - 1;
        Kind::ALL[k as usize]
    }

    /// Dense index 0..28 for tables indexed by coloured piece.
    #[inline]
    pub fn index(self) -> usize {
        self.color().index() * 14 + self.kind().index()
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kind();
        let c = k.letter();
        let c = if self.color() == Color::White {
            c.to_ascii_lowercase()
        } else {
            c
        };
        if k.is_promoted() {
            write!(f, "+{c}")
        } else {
            write!(f, "{c}")
        }
    }
}

/// One of the 81 squares. Index = row * 9 + col, where row 0 is rank `a`
/// (White's back rank) and col 0 is file 9 (the left edge from Black's
/// side), which is the order SFEN lists the board in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 81;

    #[inline]
    pub fn new(index: usize) -> Option<Square> {
        (index < 81).then_some(Square(index as u8))
    }

    /// Only for indices the caller knows are below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        Square(index as u8)
    }

    #[inline]
    pub fn from_row_col(row: usize, col: usize) -> Option<Square> {
        (row < 9 && col < 9).then_some(Square((row * 9 + col) as u8))
    }

    /// File 1..=9 and rank 1..=9 (rank 1 = `a`).
    pub fn from_file_rank(file: usize, rank: usize) -> Option<Square> {
        if (1..=9).contains(&file) && (1..=9).contains(&rank) {
            Square::from_row_col(rank - 1, 9 - file)
        } else {
            None
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn row(self) -> usize {
        self.0 as usize / 9
    }

    #[inline]
    pub fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// File number 1..=9.
    #[inline]
    pub fn file(self) -> usize {
        9 - self.col()
    }

    /// The row counted from `color`'s own side: 0 is the enemy's back rank.
    #[inline]
    pub fn relative_row(self, color: Color) -> usize {
        match color {
            Color::Black => self.row(),
            Color::White => 8 - self.row(),
        }
    }

    /// The enemy camp of `color`: its three farthest ranks.
    #[inline]
    pub fn in_zone(self, color: Color) -> bool {
        self.relative_row(color) < 3
    }

    /// The same square seen from the other side (rotated 180 degrees).
    #[inline]
    pub fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// USI coordinates such as `7g`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].checked_sub(b'0')? as usize;
        let rank = b[1].checked_sub(b'a')? as usize + 1;
        Square::from_file_rank(file, rank)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.row() as u8) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

/// A move in 16 bits: destination (7 bits), origin (7 bits; 81 + hand
/// index for a drop) and a promotion flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    const PROMOTE: u16 = 1 << 14;

    #[inline]
    pub fn normal(from: Square, to: Square, promote: bool) -> Move {
        let p = if promote { Move::PROMOTE } else { 0 };
        Move(to.0 as u16 | (from.0 as u16) << 7 | p)
    }

    /// Dropping a piece of `kind` (a hand kind) on `to`.
    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Move {
        Move(to.0 as u16 | ((81 + kind as u16) << 7))
    }

    #[inline]
    pub fn to(self) -> Square {
        Square((self.0 & 127) as u8)
    }

    /// The origin square; `None` for a drop.
    #[inline]
    pub fn from(self) -> Option<Square> {
        let f = (self.0 >> 7) & 127;
        (f < 81).then_some(Square(f as u8))
    }

    #[inline]
    pub fn is_drop(self) -> bool {
        (self.0 >> 7) & 127 >= 81
    }

    /// The dropped kind, for a drop.
    #[inline]
    pub fn drop_kind(self) -> Option<Kind> {
        let f = ((self.0 >> 7) & 127) as usize;
        if f >= 81 {
            Kind::HAND.get(f - 81).copied()
        } else {
            None
        }
    }

    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0 & Move::PROMOTE != 0
    }

    #[inline]
    pub fn bits(self) -> u16 {
        self.0
    }

    /// A move from its bits, if they are well formed (the move may still
    /// be illegal in a given position).
    pub fn from_bits(bits: u16) -> Option<Move> {
        let to = bits & 127;
        let from = (bits >> 7) & 127;
        let promote = bits & Move::PROMOTE != 0;
        if bits >> 15 != 0 || to >= 81 || from >= 88 || (from >= 81 && promote) || from == to {
            return None;
        }
        Some(Move(bits))
    }
}

impl fmt::Display for Move {
    /// USI notation: `7g7f`, `8h2b+`, `G*5b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from() {
            Some(from) => {
                write!(f, "{}{}", from, self.to())?;
                if self.is_promotion() {
                    write!(f, "+")?;
                }
                Ok(())
            }
            None => {
                let k = self.drop_kind().map_or('?', Kind::letter);
                write!(f, "{}*{}", k, self.to())
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_usi() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("9a").map(Square::index), Some(0));
        assert_eq!(Square::parse("1i").map(Square::index), Some(80));
        assert_eq!(Square::parse("0a"), None);
        assert_eq!(Square::parse("1j"), None);
    }

    #[test]
    fn moves_pack_and_print() {
        let m = Move::normal(
            Square::parse("8h").unwrap(),
            Square::parse("2b").unwrap(),
            true,
        );
        assert_eq!(m.to_string(), "8h2b+");
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        let d = Move::drop(Kind::Gold, Square::parse("5b").unwrap());
        assert_eq!(d.to_string(), "G*5b");
        assert!(d.is_drop());
        assert_eq!(d.drop_kind(), Some(Kind::Gold));
        assert_eq!(Move::from_bits(d.bits()), Some(d));
    }

    #[test]
    fn pieces_pack() {
        for c in Color::BOTH {
            for k in Kind::ALL {
                let p = Piece::new(c, k);
                assert_eq!((p.color(), p.kind()), (c, k));
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
