//! Board geometry: the eight directions, neighbour tables and the move
//! patterns of every piece, computed at compile time.
//!
//! Directions are numbered clockwise from "up" (towards rank `a`, Black's
//! forward): 0 up, 1 up-right, 2 right, 3 down-right, 4 down, 5 down-left,
//! 6 left, 7 up-left, where "right" is towards file 1.

use crate::types::{Color, Kind, Square};

/// (column delta, row delta) of each direction.
const DELTAS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// No square in that direction.
pub const NONE: u8 = 0xFF;

/// `NEIGHBOR[sq][d]`: the square one step from `sq` in direction `d`.
pub static NEIGHBOR: [[u8; 8]; 81] = NEIGHBORS;

/// [`NEIGHBOR`] as a constant, for tables built at compile time.
pub(crate) const NEIGHBORS: [[u8; 8]; 81] = build_neighbors();

/// `KNIGHT_TO[color][sq]`: the (up to two) squares a knight of `color` on
/// `sq` jumps to. By symmetry these are also the squares from which a knight
/// of the *other* colour attacks `sq`.
pub static KNIGHT_TO: [[[u8; 2]; 81]; 2] = build_knights();

/// Direction `d` reversed.
#[inline]
pub const fn opposite(d: usize) -> usize {
    (d + 4) & 7
}

/// Direction `d` mirrored top to bottom: what "up" means for White.
const fn vflip(d: usize) -> usize {
    // up<->down, up-right<->down-right, up-left<->down-left.
    [4, 3, 2, 1, 0, 7, 6, 5][d]
}

const fn build_neighbors() -> [[u8; 8]; 81] {
    let mut t = [[NONE; 8]; 81];
    let mut sq = 0;
    while sq < 81 {
        let row = (sq / 9) as i32;
        let col = (sq % 9) as i32;
        let mut d = 0;
        while d < 8 {
            let r = row + DELTAS[d].1;
            let c = col + DELTAS[d].0;
            if r >= 0 && r < 9 && c >= 0 && c < 9 {
                t[sq][d] = (r * 9 + c) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn build_knights() -> [[[u8; 2]; 81]; 2] {
    let mut t = [[[NONE; 2]; 81]; 2];
    let mut color = 0;
    while color < 2 {
        let dr: i32 = if color == 0 { -2 } else { 2 };
        let mut sq = 0;
        while sq < 81 {
            let row = (sq / 9) as i32;
            let col = (sq % 9) as i32;
            let r = row + dr;
            let mut i = 0;
            while i < 2 {
                let c = col + if i == 0 { -1 } else { 1 };
                if r >= 0 && r < 9 && c >= 0 && c < 9 {
                    t[color][sq][i] = (r * 9 + c) as u8;
                }
                i += 1;
            }
            sq += 1;
        }
        color += 1;
    }
    t
}

const fn bits(ds: &[usize]) -> u8 {
    let mut m = 0u8;
    let mut i = 0;
    while i < ds.len() {
        m |= 1 << ds[i];
        i += 1;
    }
    m
}

const GOLD: u8 = bits(&[0, 1, 2, 4, 6, 7]);
const DIAG: u8 = bits(&[1, 3, 5, 7]);
const ORTH: u8 = bits(&[0, 2, 4, 6]);

/// One-step directions of each kind for Black.
const BLACK_STEPS: [u8; 14] = [
    bits(&[0]),             // pawn
    0,                      // lance (slides)
    0,                      // knight (jumps)
    bits(&[0, 1, 3, 5, 7]), // silver
    GOLD,
    0,    // bishop
    0,    // rook
    0xFF, // king
    GOLD,
    GOLD,
    GOLD,
    GOLD,
    ORTH, // horse: orthogonal steps
    DIAG, // dragon: diagonal steps
];

/// Sliding directions of each kind for Black.
const BLACK_SLIDES: [u8; 14] = [
    0,
    bits(&[0]),
    0,
    0,
    0,
    DIAG,
    ORTH,
    0,
    0,
    0,
    0,
    0,
    DIAG,
    ORTH,
];

const fn flip_mask(m: u8) -> u8 {
    let mut out = 0u8;
    let mut d = 0;
    while d < 8 {
        if m & (1 << d) != 0 {
            out |= 1 << vflip(d);
        }
        d += 1;
    }
    out
}

const fn by_color(black: [u8; 14]) -> [[u8; 14]; 2] {
    let mut t = [black, [0; 14]];
    let mut k = 0;
    while k < 14 {
        t[1][k] = flip_mask(black[k]);
        k += 1;
    }
    t
}

/// `STEPS[color][kind]`: bit `d` set if the piece steps one square in `d`.
pub static STEPS: [[u8; 14]; 2] = STEP_DIRS;

/// [`STEPS`] as a constant, for tables built at compile time.
pub(crate) const STEP_DIRS: [[u8; 14]; 2] = by_color(BLACK_STEPS);
/// `SLIDES[color][kind]`: bit `d` set if the piece slides along `d`.
pub static SLIDES: [[u8; 14]; 2] = by_color(BLACK_SLIDES);

#[inline]
pub fn neighbor(sq: Square, d: usize) -> Option<Square> {
    let n = NEIGHBOR[sq.index()][d];
    (n != NONE).then(|| Square::from_index_unchecked(n as usize))
}

#[inline]
pub fn steps(color: Color, kind: Kind) -> u8 {
    STEPS[color.index()][kind.index()]
}

#[inline]
pub fn slides(color: Color, kind: Kind) -> u8 {
    SLIDES[color.index()][kind.index()]
}

/// The direction from `a` to `b` if they share a rank, file or diagonal.
pub fn direction(a: Square, b: Square) -> Option<usize> {
    let dc = b.col() as i32 - a.col() as i32;
    let dr = b.row() as i32 - a.row() as i32;
    if (dc, dr) == (0, 0) || !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
        return None;
    }
    let unit = (dc.signum(), dr.signum());
    DELTAS.iter().position(|&d| d == unit)
}

/// Squares strictly between `a` and `b` along a line, as a bit set.
pub fn between(a: Square, b: Square) -> u128 {
    let mut set = 0u128;
    if let Some(d) = direction(a, b) {
        let mut s = a;
        while let Some(n) = neighbor(s, d) {
            if n == b {
                break;
            }
            set |= 1u128 << n.index();
            s = n;
        }
    }
    set
}

/// Whether a piece of `kind` and `color` standing on `sq` could never move
/// again: pawns and lances on the last rank, knights on the last two.
#[inline]
pub fn is_dead_end(color: Color, kind: Kind, sq: Square) -> bool {
    let r = sq.relative_row(color);
    match kind {
        Kind::Pawn | Kind::Lance => r == 0,
        Kind::Knight => r < 2,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_moves_mirror_black() {
        // A black pawn steps up, a white pawn steps down.
        assert_eq!(steps(Color::Black, Kind::Pawn), 1);
        assert_eq!(steps(Color::White, Kind::Pawn), 1 << 4);
        // A black silver has no sideways or backward-straight step.
        let s = steps(Color::Black, Kind::Silver);
        assert_eq!(s & (1 << 4 | 1 << 2 | 1 << 6), 0);
        let sq = Square::parse("5e").unwrap();
        assert_eq!(
            KNIGHT_TO[0][sq.index()].map(|n| Square::new(n as usize).unwrap().to_string()),
            ["6c", "4c"]
        );
    }

    #[test]
    fn between_squares() {
        let a = Square::parse("5i").unwrap();
        let b = Square::parse("5e").unwrap();
        assert_eq!(between(a, b).count_ones(), 3);
        assert_eq!(between(a, Square::parse("4g").unwrap()), 0);
    }
}
