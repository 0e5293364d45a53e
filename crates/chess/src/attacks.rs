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

/// Magic multipliers of every square, as found by the search below (run
/// `cargo run --release -p tengen-chess --example magics -- print`).
pub fn found_magics() -> ([u64; 64], [u64; 64]) {
    let t = tables();
    (t.rook.map(|m| m.magic), t.bishop.map(|m| m.magic))
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
fn build_magics(
    dirs: &[(i8, i8); 4],
    table: &mut Vec<Bitboard>,
    rng: &mut Rng,
    known: &[u64; 64],
) -> [Magic; 64] {
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
        let mut first = true;
        'search: loop {
            // Try the magic found by an earlier run first; search only if
            // it does not fit (it always should).
            let magic = if first { known[i] } else { rng.sparse() };
            first = false;
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
    let rook = build_magics(&ROOK_DIRS, &mut attacks, &mut rng, &ROOK_MAGICS);
    let bishop = build_magics(&BISHOP_DIRS, &mut attacks, &mut rng, &BISHOP_MAGICS);
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
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020, 0x0840092002c03000, 0x1900200010400900, 0x0880100008000480,
    0x4200100420080200, 0x8100020100080400, 0x0200040110886200, 0x0200008040220411,
    0x0404800084400220, 0x0000401000402000, 0x0086001081220440, 0x0408800800100280,
    0x000a001201040820, 0x8848800200840080, 0x4001000100040200, 0x0442000102105084,
    0x9080010020804100, 0x0040404000201009, 0x0000808010002009, 0x2200090021d00100,
    0x0008008008040080, 0x0004004002010040, 0x0011040008015042, 0x00000a0001768104,
    0x0000800080204009, 0x2010004140002001, 0x9800200280100080, 0x1000100080080080,
    0x0442000a00049020, 0x2100040080020080, 0x0800120400900148, 0x0010040a00128541,
    0x2800804000800030, 0x1010002000400041, 0x4000200011004100, 0x0610008410800800,
    0x0400802402800800, 0xc100020080800400, 0x0002000802000401, 0x0182085882000401,
    0x0220204000808000, 0x2860100040024022, 0x0001002004110040, 0x99101042000a0020,
    0x0004080004008080, 0x0010040002008080, 0x2012004881020004, 0x8300842444820011,
    0x0088403882010200, 0x0820400080210100, 0x0110910040a00300, 0x0801100280080480,
    0x0242009008200600, 0x1002000489500200, 0x0040800200010080, 0x0091800041000080,
    0x0000209300488001, 0x04c1002414824001, 0x020020000b001041, 0x7000100004200901,
    0x8002002004100802, 0x30010002084c0007, 0x0888221800813004, 0x4000002840840112,
];
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100, 0x006082020a002900, 0x6810010619200000, 0x08281a0520000408,
    0x0001104001000400, 0x0018901008048400, 0x00040a0210245280, 0x000200210808a402,
    0x9140048410821200, 0x0800091010820041, 0x20504804832202c0, 0x0100091401081000,
    0x8021011140000012, 0x0810020804450400, 0x208b0542109008a2, 0x0080084a08040204,
    0x0040e2a80811244c, 0x2505022008008108, 0x0430220100420040, 0x010a040420220040,
    0x1105000290400000, 0x0093001200822120, 0x4000a62048043004, 0x280120048a015004,
    0x006090002a020814, 0x44042000240800d0, 0x01102800040a4400, 0x1004080080220040,
    0x0001001011004024, 0x0010044000805040, 0x0914041200820100, 0x0004821012821480,
    0x0024040500c05021, 0x0088611002080200, 0x0116080a00040020, 0x4000020080080080,
    0x2450450140840040, 0x0000880201484100, 0x0222020404020092, 0x8081110600002e00,
    0x2842101105000801, 0x1100809008001025, 0x00020202221c0400, 0x0422014022009020,
    0x0210046102100c00, 0xc004008082029102, 0x00aa461801101200, 0x0404080080201108,
    0x020542108c205002, 0x0410544804100100, 0x0040910841100000, 0x0400200042021100,
    0x00004204850400c0, 0x0200100410a42102, 0x1040020801210102, 0x0805040410420000,
    0x2884804130100200, 0x800c262201242000, 0x1058000194108800, 0x0014221054420204,
    0x0104000012a02200, 0x0200881003300100, 0x0140400202840100, 0x0402020801010201,
];

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
    fn stored_magics_fit_without_search() {
        let (r, b) = found_magics();
        assert_eq!(r, ROOK_MAGICS);
        assert_eq!(b, BISHOP_MAGICS);
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
