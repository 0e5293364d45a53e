//! Attack tables: leaper tables built at compile time, slider attacks by
//! "fancy" magic bitboards whose magics are searched once at first use.

use crate::types::{Bitboard, Color, Square, FILE_A, FILE_H};
use std::sync::OnceLock;

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

#[inline]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of colour `c` on `sq` attacks.
#[inline]
pub fn pawn(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}

/// Squares attacked by all pawns in `pawns` of colour `c`.
#[inline]
pub fn pawns_attacks(c: Color, pawns: Bitboard) -> Bitboard {
    match c {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Slider attacks by walking the rays: slow, for building tables.
fn slide(sq: Square, occ: Bitboard, dirs: &[(i8, i8); 4]) -> Bitboard {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq.file() as i8, sq.rank() as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    att
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    fn index(&self, occ: Bitboard) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

pub struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bitboard>,
    /// Squares strictly between two aligned squares (empty otherwise).
    between: Vec<Bitboard>,
    /// The whole line through two aligned squares (empty otherwise).
    line: Vec<Bitboard>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: good enough to find magics.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for every square and fills the shared attack table.
fn build_magics(dirs: &[(i8, i8); 4], table: &mut Vec<Bitboard>, rng: &mut Rng) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occs = Vec::with_capacity(4096);
    let mut refs = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut used = vec![0u64; 4096];
    let mut attempt = 0u32;
    for (i, m) in magics.iter_mut().enumerate() {
        let sq = Square::from_index(i);
        // Edges do not matter for blocking unless the slider stands on them.
        let edges = ((crate::types::RANK_1 | crate::types::RANK_8)
            & !(crate::types::RANK_1 << (8 * sq.rank())))
            | ((FILE_A | FILE_H) & !(FILE_A << sq.file()));
        let mask = slide(sq, 0, dirs) & !edges;
        let bits = mask.count_ones();
        occs.clear();
        refs.clear();
        // Carry-rippler enumeration of every subset of the mask.
        let mut sub: u64 = 0;
        loop {
            occs.push(sub);
            refs.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let shift = 64 - bits;
        'search: loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            for (o, r) in occs.iter().zip(&refs) {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if epoch[idx] < attempt {
                    epoch[idx] = attempt;
                    used[idx] = *r;
                } else if used[idx] != *r {
                    continue 'search;
                }
            }
            *m = Magic {
                mask,
                magic,
                shift,
                offset: table.len(),
            };
            table.extend_from_slice(&used[..size]);
            // Entries never hit keep whatever was there; they are unreachable.
            break;
        }
    }
    magics
}

fn build() -> Tables {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut attacks = Vec::with_capacity(110_000);
    let rook = build_magics(&ROOK_DIRS, &mut attacks, &mut rng);
    let bishop = build_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        let sa = Square::from_index(a);
        for b in 0..64 {
            if a == b {
                continue;
            }
            let sb = Square::from_index(b);
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(sa, 0, dirs) & sb.bb() != 0 {
                    between[a * 64 + b] = slide(sa, sb.bb(), dirs) & slide(sb, sa.bb(), dirs);
                    line[a * 64 + b] =
                        (slide(sa, 0, dirs) & slide(sb, 0, dirs)) | sa.bb() | sb.bb();
                }
            }
        }
    }
    Tables {
        rook,
        bishop,
        attacks,
        between,
        line,
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

impl Tables {
    #[inline]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.rook[sq.index()];
        self.attacks.get(m.index(occ)).copied().unwrap_or(0)
    }

    #[inline]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.bishop[sq.index()];
        self.attacks.get(m.index(occ)).copied().unwrap_or(0)
    }

    #[inline]
    pub fn queen(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }

    #[inline]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index() * 64 + b.index()]
    }

    #[inline]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index() * 64 + b.index()]
    }
}

#[inline]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    tables().rook(sq, occ)
}

#[inline]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    tables().bishop(sq, occ)
}

#[inline]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    tables().queen(sq, occ)
}

#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    tables().between(a, b)
}

#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    tables().line(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_match_ray_walking() {
        let mut rng = Rng(12345);
        for i in 0..64 {
            let sq = Square::from_index(i);
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
                assert_eq!(bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(knight(e4).count_ones(), 8);
        assert_eq!(king(Square::A1).count_ones(), 3);
        assert_eq!(pawn(Color::White, e4).count_ones(), 2);
        let a1 = Square::A1;
        let h8 = Square::from_index(63);
        assert_eq!(between(a1, h8).count_ones(), 6);
        assert_eq!(line(a1, Square::C1).count_ones(), 8);
        assert_eq!(between(a1, Square::parse("b3").unwrap()), 0);
    }
}
