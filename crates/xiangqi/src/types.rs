//! Colours, pieces, squares and moves: the vocabulary of the board.

use std::fmt;

/// The two sides. Red moves first and sits on ranks 0..=4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    King,
    Advisor,
    Elephant,
    Horse,
    Rook,
    Cannon,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind a side starts with (and may ever have).
    pub const fn max_count(self) -> usize {
        match self {
            Kind::King => 1,
            Kind::Pawn => 5,
            _ => 2,
        }
    }

    /// FEN letter, upper case.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case (`E`/`H` accepted as older tools
    /// write elephants and horses).
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Rook,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "rook",
            Kind::Cannon => "cannon",
            Kind::Pawn => "pawn",
        }
    }
}

/// A coloured piece, packed as `color * 7 + kind` so tables index it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    pub fn letter(self) -> char {
        match self.color {
            Color::Red => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
}

/// One of the 90 points, numbered `rank * 9 + file` with file 0 = `a`
/// (Red's left) and rank 0 = Red's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 90 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Only for indices known to be on the board (table construction).
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        Square(i as u8)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn file(self) -> u8 {
        self.0 % 9
    }
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square moved by (`df`, `dr`), if still on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Whether the square is on `color`'s half of the river.
    pub const fn on_side_of(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the square is inside `color`'s palace.
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// The same point seen from the other side (Black's view of Red's).
    pub const fn mirror_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// ICCS name, ranks 0..9: `e0`.
    pub fn iccs(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move from one point to another; packs into 14 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// `from * 128 + to`; never 0 for a real move since from != to.
    pub const fn encode(self) -> u16 {
        ((self.from.0 as u16) << 7) | self.to.0 as u16
    }

    pub const fn decode(code: u16) -> Option<Move> {
        let from = (code >> 7) as usize;
        let to = (code & 127) as usize;
        if from < 90 && to < 90 && from != to && code >> 14 == 0 {
            Some(Move {
                from: Square(from as u8),
                to: Square(to as u8),
            })
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// ICCS notation, ranks 0..9 (`h2e2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_round_trip() {
        for a in 0..90 {
            for b in 0..90 {
                if a == b {
                    continue;
                }
                let m = Move::new(
                    Square::from_index(a).unwrap(),
                    Square::from_index(b).unwrap(),
                );
                assert_eq!(Move::decode(m.encode()), Some(m));
                assert_ne!(m.encode(), 0);
            }
        }
        assert_eq!(Move::decode(0), None);
        assert_eq!(Move::decode(u16::MAX), None);
    }

    #[test]
    fn palace_and_river() {
        let e0 = Square::new(4, 0).unwrap();
        assert!(e0.in_palace(Color::Red));
        assert!(!e0.in_palace(Color::Black));
        assert!(Square::new(0, 4).unwrap().on_side_of(Color::Red));
        assert!(Square::new(0, 5).unwrap().on_side_of(Color::Black));
        assert_eq!(e0.mirror_rank(), Square::new(4, 9).unwrap());
    }
}
