//! Hand-made evaluation: tapered middlegame/endgame terms, in centipawns
//! from the side to move's view.

use crate::attacks;
use crate::board::Board;
use crate::types::{
    Bitboard, Color, PieceKind, Square, Squares, DARK_SQUARES, FILE_A, FILE_H, RANK_1,
};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use tengen_search::Evaluator;

/// A (middlegame, endgame) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

// ---------------------------------------------------------------- material

pub const MATERIAL: [S; 6] = [
    S(88, 118),
    S(335, 310),
    S(360, 335),
    S(490, 560),
    S(1010, 1040),
    S(0, 0),
];

/// Game phase weight of each piece; 24 = all pieces on the board.
pub(crate) const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

// --------------------------------------------------------- piece-square tables
// Written as a board diagram from White's side: the first row is rank 8.
// Values are my own, from the usual principles: centralise knights, keep
// bishops on long diagonals, rooks like the seventh rank, the king hides in
// the middlegame and walks to the centre in the endgame.

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     40,  45,  45,  50,  50,  45,  45,  40,
     10,  15,  20,  28,  28,  20,  15,  10,
      2,   5,  10,  22,  22,  10,   5,   2,
     -2,   0,   6,  18,  18,   4,   0,  -4,
     -2,   2,   2,   6,   6,  -2,   4,   0,
     -4,   2,  -2, -12, -12,  10,   8,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     70,  65,  60,  55,  55,  60,  65,  70,
     40,  38,  32,  28,  28,  32,  38,  40,
     18,  15,  10,   6,   6,  10,  15,  18,
      6,   4,   0,  -2,  -2,   0,   4,   6,
      0,   0,  -2,   0,   0,  -2,   0,   0,
      0,   0,   2,   4,   4,   2,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -70, -35, -25, -20, -20, -25, -35, -70,
    -30, -15,   5,  10,  10,   5, -15, -30,
    -15,  10,  20,  28,  28,  20,  10, -15,
    -10,   8,  20,  28,  28,  20,   8, -10,
    -12,   4,  15,  18,  18,  15,   4, -12,
    -20,   0,  10,  12,  12,  10,   0, -20,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -60, -25, -20, -15, -15, -20, -25, -60,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -50, -30, -20, -15, -15, -20, -30, -50,
    -30, -12,  -2,   5,   5,  -2, -12, -30,
    -20,  -2,  10,  15,  15,  10,  -2, -20,
    -15,   5,  15,  20,  20,  15,   5, -15,
    -15,   5,  15,  20,  20,  15,   5, -15,
    -20,  -2,   8,  12,  12,   8,  -2, -20,
    -30, -12,  -2,   2,   2,  -2, -12, -30,
    -50, -30, -20, -15, -15, -20, -30, -50,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
     -8,   5,  10,  10,  10,  10,   5,  -8,
     -6,  10,  10,  15,  15,  10,  10,  -6,
     -6,   5,  15,  15,  15,  15,   5,  -6,
     -4,  10,  10,  10,  10,  10,  10,  -4,
     -6,  12,   5,   5,   5,   5,  12,  -6,
    -20,  -8, -12, -10, -10, -12,  -8, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -6,  -6,  -8, -10, -15,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
     -8,   0,   6,   8,   8,   6,   0,  -8,
     -6,   2,   8,  12,  12,   8,   2,  -6,
     -6,   2,   8,  12,  12,   8,   2,  -6,
     -8,   0,   6,   8,   8,   6,   0,  -8,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
    -15, -10,  -8,  -6,  -6,  -8, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,   8,  10,  12,  12,  10,   8,   5,
     15,  20,  22,  25,  25,  22,  20,  15,
     -4,   2,   4,   6,   6,   4,   2,  -4,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
    -10,  -4,  -2,   0,   0,  -2,  -4, -10,
    -12,  -4,  -2,   0,   0,  -2,  -4, -12,
    -14,  -6,  -2,   0,   0,  -2,  -6, -18,
     -6,  -2,   2,   8,   8,   4,  -2,  -6,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
      8,   8,   8,   8,   8,   8,   8,   8,
     12,  12,  12,  12,  12,  12,  12,  12,
      4,   4,   4,   4,   4,   4,   4,   4,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
     -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
     -6,  -4,  -2,   0,   0,  -2,  -4,  -6,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   8,   8,   5,   0,  -5,
     -5,   0,   5,   8,   8,   5,   0,  -5,
    -10,   2,   5,   5,   5,   5,   2, -10,
    -10,   0,   4,   4,   4,   0,   0, -10,
    -20, -10,  -6,   0,  -4, -10, -10, -20,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -10,  -5,  -2,  -2,  -5, -10, -20,
    -10,   0,   5,   8,   8,   5,   0, -10,
     -5,   5,  10,  15,  15,  10,   5,  -5,
     -2,   8,  15,  20,  20,  15,   8,  -2,
     -2,   8,  15,  20,  20,  15,   8,  -2,
     -5,   5,  10,  15,  15,  10,   5,  -5,
    -10,   0,   5,   8,   8,   5,   0, -10,
    -20, -10,  -5,  -2,  -2,  -5, -10, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -50, -55, -65, -65, -55, -50, -50,
    -45, -45, -50, -60, -60, -50, -45, -45,
    -40, -40, -45, -55, -55, -45, -40, -40,
    -30, -35, -40, -50, -50, -40, -35, -30,
    -15, -20, -25, -35, -35, -25, -20, -15,
     10,  10,  -5, -20, -20,  -5,  10,  10,
     20,  35,  15, -10,   0,  10,  40,  25,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30,  -5,   5,  10,  10,   5,  -5, -30,
    -20,   5,  20,  25,  25,  20,   5, -20,
    -20,   5,  25,  32,  32,  25,   5, -20,
    -25,   0,  20,  28,  28,  20,   0, -25,
    -30,  -5,  10,  15,  15,  10,  -5, -30,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -60, -40, -30, -25, -25, -30, -40, -60,
];

const PST_MG: [&[i32; 64]; 6] = [
    &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
];
const PST_EG: [&[i32; 64]; 6] = [
    &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
];

/// Material plus piece-square value of a piece of `c` on `sq`.
#[inline]
pub const fn psq(c: Color, kind: PieceKind, sq: Square) -> S {
    // Tables are drawn rank 8 first, so White reads them rank-flipped.
    let i = match c {
        Color::White => sq.flip_rank().index(),
        Color::Black => sq.index(),
    };
    let k = kind.index();
    S(MATERIAL[k].0 + PST_MG[k][i], MATERIAL[k].1 + PST_EG[k][i])
}

/// [`psq`] for every piece (by [`crate::types::Piece::index`]) and square,
/// signed from White's view. The board keeps these summed as pieces come
/// and go ([`Board::psq`]), so the evaluation does not walk the pieces
/// for its largest term.
pub(crate) static PSQ: [[S; 64]; 12] = signed_psq();

const fn signed_psq() -> [[S; 64]; 12] {
    let mut table = [[S(0, 0); 64]; 12];
    let mut piece = 0;
    while piece < 12 {
        // `Piece::index` order: colour-major.
        let (color, kind) = (Color::BOTH[piece / 6], PieceKind::ALL[piece % 6]);
        let sign = if piece < 6 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 64 {
            let v = psq(color, kind, Square::from_index(sq));
            table[piece][sq] = S(sign * v.0, sign * v.1);
            sq += 1;
        }
        piece += 1;
    }
    table
}

// ---------------------------------------------------------------- mobility
// Concave: the first few squares matter most. Indexed by safe squares.

const KNIGHT_MOB: [S; 9] = [
    S(-40, -50),
    S(-25, -30),
    S(-8, -15),
    S(0, -5),
    S(6, 4),
    S(12, 10),
    S(17, 14),
    S(21, 17),
    S(24, 19),
];
const BISHOP_MOB: [S; 14] = [
    S(-35, -50),
    S(-20, -30),
    S(-6, -15),
    S(2, -4),
    S(9, 4),
    S(15, 11),
    S(19, 17),
    S(23, 21),
    S(26, 25),
    S(29, 28),
    S(31, 31),
    S(33, 33),
    S(35, 35),
    S(37, 36),
];
const ROOK_MOB: [S; 15] = [
    S(-30, -55),
    S(-18, -30),
    S(-10, -14),
    S(-6, -4),
    S(-3, 6),
    S(0, 14),
    S(4, 22),
    S(8, 29),
    S(11, 35),
    S(14, 40),
    S(16, 45),
    S(18, 49),
    S(20, 52),
    S(21, 55),
    S(22, 57),
];
const QUEEN_MOB_STEP: S = S(2, 4);

// ----------------------------------------------------------- pawn structure

const DOUBLED: S = S(-10, -22);
const ISOLATED: S = S(-9, -13);
const BACKWARD: S = S(-8, -11);
/// Supported or side-by-side pawns, by relative rank.
const CONNECTED: [i32; 8] = [0, 0, 4, 7, 14, 28, 50, 0];
const PASSED_MG: [i32; 8] = [0, 2, 6, 12, 28, 55, 95, 0];
const PASSED_EG: [i32; 8] = [0, 8, 14, 24, 45, 85, 140, 0];

// ------------------------------------------------------------ pieces, king

const BISHOP_PAIR: S = S(30, 55);
const ROOK_OPEN: S = S(28, 12);
const ROOK_SEMI_OPEN: S = S(12, 8);
const ROOK_SEVENTH: S = S(12, 28);
const KNIGHT_OUTPOST: S = S(28, 14);
const BISHOP_OUTPOST: S = S(14, 6);
const TEMPO: i32 = 14;
const HANGING: S = S(-25, -15);
const MINOR_ON_MAJOR: S = S(-28, -18);
/// Attacker weights on the king zone, by piece kind.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Pawn-structure cache entry.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: [Bitboard; 2],
}

/// 2,048 entries (64 KiB): a search meets few pawn structures, and a
/// small table stays in the core's caches beside the hash table and the
/// network; 16,384 took 2% more CPU time at bench depth 16 with the same
/// node count (docs/performance.md, "The board's running sums, a smaller
/// pawn cache, POPCNT and lazy exchanges").
const PAWN_CACHE: usize = 1 << 11;

/// The evaluator: stateless apart from a pawn-structure cache.
#[derive(Clone)]
pub struct Eval {
    pawns: Vec<PawnEntry>,
}

impl Default for Eval {
    fn default() -> Self {
        Eval {
            pawns: vec![PawnEntry::default(); PAWN_CACHE],
        }
    }
}

impl Evaluator<Board> for Eval {
    fn evaluate(&mut self, pos: &Board) -> i32 {
        self.eval(pos)
    }
}

#[inline]
fn forward_fill(c: Color, b: Bitboard) -> Bitboard {
    let mut b = b;
    match c {
        Color::White => {
            b |= b << 8;
            b |= b << 16;
            b |= b << 32;
        }
        Color::Black => {
            b |= b >> 8;
            b |= b >> 16;
            b |= b >> 32;
        }
    }
    b
}

/// Squares strictly in front of the pawns of colour `c`.
#[inline]
fn front_span(c: Color, b: Bitboard) -> Bitboard {
    let ahead = match c {
        Color::White => b << 8,
        Color::Black => b >> 8,
    };
    forward_fill(c, ahead)
}

#[inline]
fn adjacent_files(b: Bitboard) -> Bitboard {
    ((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1)
}

#[inline]
fn rank_bb(sq: Square) -> Bitboard {
    RANK_1 << (8 * sq.rank())
}

#[inline]
fn file_bb(sq: Square) -> Bitboard {
    FILE_A << sq.file()
}

fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x7fb5_d329_728e_a185);
    let x = (x ^ (x >> 27)).wrapping_mul(0x81da_def4_bc2d_d44d);
    x ^ (x >> 33)
}

/// What the pawn pass learns that later terms need.
struct Info {
    /// Squares attacked by each side's pawns.
    pawn_att: [Bitboard; 2],
    /// Squares attacked by each side (all pieces).
    att: [Bitboard; 2],
    /// Squares attacked twice by each side.
    att2: [Bitboard; 2],
    /// Squares attacked by each side's pieces of each kind.
    att_by: [[Bitboard; 6]; 2],
    /// King zone of each side.
    zone: [Bitboard; 2],
    /// Weighted attacks on each side's king zone, and attacker count.
    king_units: [i32; 2],
    king_attackers: [i32; 2],
}

impl Eval {
    /// Static evaluation from the side to move's view.
    pub fn eval(&mut self, b: &Board) -> i32 {
        let white = self.eval_white(b);
        TEMPO + white * b.side_to_move().sign()
    }

    /// Evaluation from White's view, without tempo.
    pub fn eval_white(&mut self, b: &Board) -> i32 {
        let mut total = b.psq();
        let phase = b.phase().min(MAX_PHASE);

        let wp = b.pieces(Color::White, PieceKind::Pawn);
        let bp = b.pieces(Color::Black, PieceKind::Pawn);
        let pkey = mix(wp) ^ mix(bp.rotate_left(17) ^ 0x5bd1_e995);
        let slot = (pkey as usize) & (PAWN_CACHE - 1);
        let entry = match self.pawns.get(slot) {
            Some(e) if e.key == pkey => *e,
            _ => {
                let e = pawn_structure(b, pkey);
                if let Some(s) = self.pawns.get_mut(slot) {
                    *s = e;
                }
                e
            }
        };
        total += entry.score;

        let mut info = Info {
            pawn_att: [
                attacks::pawns_attacks(Color::White, wp),
                attacks::pawns_attacks(Color::Black, bp),
            ],
            att: [0; 2],
            att2: [0; 2],
            att_by: [[0; 6]; 2],
            zone: [0; 2],
            king_units: [0; 2],
            king_attackers: [0; 2],
        };
        for c in Color::BOTH {
            let ksq = b.king_square(c);
            let k = attacks::king(ksq) | ksq.bb();
            let forward = match c {
                Color::White => k << 8,
                Color::Black => k >> 8,
            };
            info.zone[c.index()] = k | forward;
            info.att[c.index()] = info.pawn_att[c.index()] | attacks::king(ksq);
            info.att2[c.index()] = info.pawn_att[c.index()] & attacks::king(ksq);
            info.att_by[c.index()][PieceKind::Pawn.index()] = info.pawn_att[c.index()];
            info.att_by[c.index()][PieceKind::King.index()] = attacks::king(ksq);
        }
        for c in Color::BOTH {
            total += pieces(b, c, &mut info) * c.sign();
        }
        for c in Color::BOTH {
            total += king_safety(b, c, &info) * c.sign();
            total += passed(b, c, entry.passed[c.index()], &info) * c.sign();
            total += threats(b, c, &info) * c.sign();
        }
        total += mop_up(b);
        let sf = scale_factor(b, total.1);
        if sf == 0 {
            return 0;
        }
        let mg = total.0;
        let eg = total.1 * sf / 64;
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

fn pawn_structure(b: &Board, key: u64) -> PawnEntry {
    let mut score = S(0, 0);
    let mut passed_sets = [0u64; 2];
    for c in Color::BOTH {
        let them = c.flip();
        let ours = b.pieces(c, PieceKind::Pawn);
        let theirs = b.pieces(them, PieceKind::Pawn);
        let their_att = attacks::pawns_attacks(them, theirs);
        let mut s = S(0, 0);
        for sq in Squares(ours) {
            let file = file_bb(sq);
            let rr = sq.relative_rank(c) as usize;
            let front = front_span(c, sq.bb());
            let neighbours = ours & adjacent_files(file);
            if front & ours != 0 {
                s += DOUBLED;
            }
            let support = attacks::pawn(them, sq) & ours;
            let phalanx = ours & adjacent_files(sq.bb());
            if neighbours == 0 {
                s += ISOLATED;
            } else if support | phalanx != 0 {
                let v = CONNECTED[rr] * if phalanx != 0 { 3 } else { 2 } / 2;
                s += S(v, v * (rr as i32 - 2).max(1) / 3);
            } else {
                // Backward: every neighbour is ahead, and the stop square
                // is held by an enemy pawn.
                let behind_or_level = !front_span(c, rank_bb(sq));
                let stop = sq.forward(c);
                if neighbours & behind_or_level == 0 && their_att & stop.bb() != 0 {
                    s += BACKWARD;
                }
            }
            // Passed: no enemy pawn in front on this or adjacent files.
            let span = front | adjacent_files(front);
            if theirs & span == 0 && ours & front == 0 {
                passed_sets[c.index()] |= sq.bb();
                s += S(PASSED_MG[rr], PASSED_EG[rr]);
            }
        }
        score += s * c.sign();
    }
    PawnEntry {
        key,
        score,
        passed: passed_sets,
    }
}

/// Mobility, outposts, rook files and king-zone attacks of `c`'s pieces.
fn pieces(b: &Board, c: Color, info: &mut Info) -> S {
    let t = attacks::tables();
    let them = c.flip();
    let ci = c.index();
    let ti = them.index();
    let occ = b.occupied();
    let ours = b.color_bb(c);
    let our_pawns = b.pieces(c, PieceKind::Pawn);
    let their_pawns = b.pieces(them, PieceKind::Pawn);
    // Squares worth counting: not ours with a pawn or king on them, not
    // covered by enemy pawns.
    let mobility_area = !(info.pawn_att[ti] | (ours & (our_pawns | b.pieces(c, PieceKind::King))));
    let their_zone = info.zone[ti];
    let mut s = S(0, 0);
    // Outpost squares: ranks 4-6, safe from enemy pawns for ever.
    let their_pawn_reach = {
        let fill = front_span(them, their_pawns);
        adjacent_files(fill) & !their_pawns
    };
    let outpost_ranks = match c {
        Color::White => 0x0000_ffff_ff00_0000u64,
        Color::Black => 0x0000_00ff_ffff_0000u64,
    };
    let queens = b.kind_bb(PieceKind::Queen);
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        for sq in Squares(b.pieces(c, kind)) {
            let att = match kind {
                PieceKind::Knight => attacks::knight(sq),
                // Sliders see through their own queens/rooks of the same line.
                PieceKind::Bishop => t.bishop(sq, occ ^ (queens & ours)),
                PieceKind::Rook => t.rook(sq, occ ^ ((b.kind_bb(PieceKind::Rook) | queens) & ours)),
                _ => t.queen(sq, occ),
            };
            info.att2[ci] |= info.att[ci] & att;
            info.att[ci] |= att;
            info.att_by[ci][kind.index()] |= att;
            let hits = att & their_zone;
            if hits != 0 {
                info.king_attackers[ti] += 1;
                info.king_units[ti] += KING_ATTACK_WEIGHT[kind.index()] + hits.count_ones() as i32;
            }
            let mob = (att & mobility_area).count_ones() as usize;
            match kind {
                PieceKind::Knight => {
                    s += KNIGHT_MOB[mob.min(8)];
                    if sq.bb() & outpost_ranks & !their_pawn_reach & info.pawn_att[ci] != 0 {
                        s += KNIGHT_OUTPOST;
                    }
                }
                PieceKind::Bishop => {
                    s += BISHOP_MOB[mob.min(13)];
                    if sq.bb() & outpost_ranks & !their_pawn_reach & info.pawn_att[ci] != 0 {
                        s += BISHOP_OUTPOST;
                    }
                }
                PieceKind::Rook => {
                    s += ROOK_MOB[mob.min(14)];
                    let file = file_bb(sq);
                    if file & our_pawns == 0 {
                        s += if file & their_pawns == 0 {
                            ROOK_OPEN
                        } else {
                            ROOK_SEMI_OPEN
                        };
                    }
                    let seventh = sq.relative_rank(c) == 6;
                    let their_king_back = b.king_square(them).relative_rank(them) == 0;
                    let pawns_on_7th = their_pawns & (RANK_1 << (8 * sq.rank())) != 0;
                    if seventh && (their_king_back || pawns_on_7th) {
                        s += ROOK_SEVENTH;
                    }
                }
                _ => {
                    s += QUEEN_MOB_STEP * (mob as i32 - 12).clamp(-10, 12);
                }
            }
        }
    }
    if b.pieces(c, PieceKind::Bishop) & DARK_SQUARES != 0
        && b.pieces(c, PieceKind::Bishop) & !DARK_SQUARES != 0
    {
        s += BISHOP_PAIR;
    }
    s
}

/// Danger to `c`'s king: pawn shield and storm, open files, and the
/// attacks collected on its zone.
fn king_safety(b: &Board, c: Color, info: &Info) -> S {
    let them = c.flip();
    let ksq = b.king_square(c);
    let our_pawns = b.pieces(c, PieceKind::Pawn);
    let their_pawns = b.pieces(them, PieceKind::Pawn);
    let mut mg = 0;
    // Shield and storm on the king's file and its neighbours.
    let kf = ksq.file().clamp(1, 6);
    let king_rr = ksq.relative_rank(c) as i32;
    let ahead = front_span(c, rank_bb(ksq));
    for f in kf - 1..=kf + 1 {
        let file = FILE_A << f;
        let own = our_pawns & file;
        let theirs = their_pawns & file;
        mg += match nearest_rank(c, own & ahead).map(|r| r as i32 - king_rr) {
            Some(1) => 12,
            Some(2) => 6,
            Some(3) => -2,
            _ => -18,
        };
        if theirs == 0 && own == 0 {
            mg -= 18; // open file next to the king
        } else if own & ahead == 0 {
            mg -= 10;
        }
        // Enemy pawns marching at the king.
        mg -= match nearest_rank(c, theirs & ahead).map(|r| r as i32 - king_rr) {
            Some(2) => 18,
            Some(3) => 10,
            Some(4) => 4,
            _ => 0,
        };
    }
    // Only shelter matters while the enemy still has a queen or pieces.
    let their_queen = b.pieces(them, PieceKind::Queen) != 0;
    let units = info.king_units[c.index()];
    let n = info.king_attackers[c.index()];
    let weak_zone = info.zone[c.index()] & info.att[them.index()] & !info.att2[c.index()];
    // Checks the enemy could give from squares we do not guard.
    let t = attacks::tables();
    let occ = b.occupied();
    let safe = !info.att[c.index()] & !b.color_bb(them);
    let by = &info.att_by[them.index()];
    let rook_lines = t.rook(ksq, occ);
    let bishop_lines = t.bishop(ksq, occ);
    let mut checks = 0;
    if attacks::knight(ksq) & by[PieceKind::Knight.index()] & safe != 0 {
        checks += 4;
    }
    if bishop_lines & by[PieceKind::Bishop.index()] & safe != 0 {
        checks += 3;
    }
    if rook_lines & by[PieceKind::Rook.index()] & safe != 0 {
        checks += 5;
    }
    if (rook_lines | bishop_lines) & by[PieceKind::Queen.index()] & safe != 0 {
        checks += 6;
    }
    if n >= 2 || (their_queen && n >= 1) {
        let mut danger = units + weak_zone.count_ones() as i32 + checks;
        if !their_queen {
            danger /= 2;
        }
        mg -= (danger * danger / 4).min(500);
    }
    // Shelter counts less without enemy heavy pieces.
    if !their_queen && b.pieces(them, PieceKind::Rook) == 0 {
        mg /= 2;
    }
    S(mg, -(units / 2).min(30))
}

/// Relative rank of the pawn in `bb` closest to `c`'s back rank.
fn nearest_rank(c: Color, bb: Bitboard) -> Option<u8> {
    if bb == 0 {
        return None;
    }
    let sq = match c {
        Color::White => Square::lsb(bb),
        Color::Black => Square::from_index(63 - bb.leading_zeros() as usize),
    };
    Some(sq.relative_rank(c))
}

/// Passed pawns: blocked or free path, king distances, the rule of the
/// square when the enemy has no pieces.
fn passed(b: &Board, c: Color, set: Bitboard, info: &Info) -> S {
    let them = c.flip();
    let mut s = S(0, 0);
    let our_k = b.king_square(c);
    let their_k = b.king_square(them);
    let their_pieces = b.color_bb(them) & !b.kind_bb(PieceKind::Pawn) & !b.kind_bb(PieceKind::King);
    let occ = b.occupied();
    for sq in Squares(set) {
        let rr = sq.relative_rank(c) as i32;
        let stop = sq.forward(c);
        let path = front_span(c, sq.bb());
        // Unstoppable by the king alone: outside the square.
        if their_pieces == 0 {
            let promo = Square::from_coords(sq.file(), if c == Color::White { 7 } else { 0 });
            let mut dist = 7 - rr;
            if rr == 1 {
                dist -= 1; // double step
            }
            let tempo = if b.side_to_move() == them { 1 } else { 0 };
            if (promo.distance(their_k) as i32) - tempo > dist && path & occ == 0 {
                s += S(0, 600);
            }
        }
        let weight = (rr - 2).max(0);
        if weight == 0 {
            continue;
        }
        // King proximity to the stop square matters in the endgame.
        let d_them = stop.distance(their_k) as i32;
        let d_us = stop.distance(our_k) as i32;
        let mut eg = (d_them * 5 - d_us * 2) * weight;
        if occ & stop.bb() != 0 {
            eg -= 6 * weight;
        } else if path & (info.att[them.index()] | b.color_bb(them)) == 0 {
            eg += 10 * weight; // nothing stops it walking
        } else if info.att[them.index()] & stop.bb() == 0 {
            eg += 4 * weight;
        }
        s += S(0, eg);
    }
    s
}

/// Pieces attacked by enemy pawns, or attacked and not defended.
fn threats(b: &Board, c: Color, info: &Info) -> S {
    let them = c.flip();
    let by = &info.att_by[them.index()];
    let pieces = b.color_bb(c) & !b.kind_bb(PieceKind::Pawn) & !b.kind_bb(PieceKind::King);
    let by_pawns = pieces & info.pawn_att[them.index()];
    let hanging =
        b.color_bb(c) & !b.kind_bb(PieceKind::King) & info.att[them.index()] & !info.att[c.index()];
    let majors = b.color_bb(c) & (b.kind_bb(PieceKind::Rook) | b.kind_bb(PieceKind::Queen));
    let by_minors = majors & (by[PieceKind::Knight.index()] | by[PieceKind::Bishop.index()]);
    let queen_by_rook = b.pieces(c, PieceKind::Queen) & by[PieceKind::Rook.index()];
    HANGING * (by_pawns.count_ones() as i32 * 2 + hanging.count_ones() as i32)
        + MINOR_ON_MAJOR * (by_minors.count_ones() as i32)
        + MINOR_ON_MAJOR * (queen_by_rook.count_ones() as i32)
}

/// Against a bare king: drive it to the edge (to the right corner for
/// bishop and knight) and bring our king close, so the mate is found
/// without a deep search.
fn mop_up(b: &Board) -> S {
    for strong in Color::BOTH {
        let weak = strong.flip();
        if b.color_bb(weak) != b.pieces(weak, PieceKind::King) || !b.has_mating_material(strong) {
            continue;
        }
        let wk = b.king_square(weak);
        let sk = b.king_square(strong);
        let centre = |sq: Square| {
            let f = sq.file() as i32;
            let r = sq.rank() as i32;
            (2 * f - 7).abs().max((2 * r - 7).abs())
        };
        let mut v = 20 * centre(wk) + 10 * (7 - sk.distance(wk) as i32);
        let bishops = b.pieces(strong, PieceKind::Bishop);
        let heavy = b.pieces(strong, PieceKind::Rook) | b.pieces(strong, PieceKind::Queen);
        if heavy == 0 && b.pieces(strong, PieceKind::Pawn) == 0 && bishops != 0 {
            // Mate only happens in a corner of the bishop's colour.
            let corners: [Square; 2] = if bishops & DARK_SQUARES != 0 {
                [Square::A1, Square::from_index(63)]
            } else {
                [Square::H1, Square::from_index(56)]
            };
            let d = corners
                .iter()
                .map(|c| c.distance(wk) as i32)
                .min()
                .unwrap_or(0);
            v += 25 * (7 - d);
        }
        return S(0, v) * strong.sign();
    }
    S(0, 0)
}

/// Out of 64: how much of the endgame score the stronger side keeps.
fn scale_factor(b: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = strong.flip();
    let npm = |c: Color| {
        [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ]
        .iter()
        .map(|&k| b.pieces(c, k).count_ones() as i32 * MATERIAL[k.index()].1)
        .sum::<i32>()
    };
    let strong_pawns = b.pieces(strong, PieceKind::Pawn).count_ones();
    let (sn, wn) = (npm(strong), npm(weak));
    if strong_pawns == 0 && sn - wn <= MATERIAL[PieceKind::Bishop.index()].1 {
        // A minor piece up (or less) without pawns rarely wins.
        return if sn < MATERIAL[PieceKind::Rook.index()].1 {
            0
        } else {
            8
        };
    }
    let wb = b.pieces(Color::White, PieceKind::Bishop);
    let bb = b.pieces(Color::Black, PieceKind::Bishop);
    if wb.count_ones() == 1
        && bb.count_ones() == 1
        && ((wb & DARK_SQUARES) != 0) != ((bb & DARK_SQUARES) != 0)
    {
        let others =
            b.kind_bb(PieceKind::Knight) | b.kind_bb(PieceKind::Rook) | b.kind_bb(PieceKind::Queen);
        return if others == 0 { 30 } else { 48 };
    }
    if strong_pawns == 1 && sn - wn <= 0 {
        return 40; // one pawn up with equal pieces: often drawn
    }
    64
}

/// A position with colours swapped and the board mirrored top to bottom.
pub fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = fields
        .first()
        .map(|p| p.split('/').rev().map(swap_case).collect())
        .unwrap_or_default();
    let side = match fields.get(1) {
        Some(&"w") => "b",
        _ => "w",
    };
    let castling = fields.get(2).map_or("-".to_string(), |c| {
        if *c == "-" {
            "-".to_string()
        } else {
            let s = swap_case(c);
            let (mut up, mut low): (Vec<char>, Vec<char>) =
                s.chars().partition(|c| c.is_ascii_uppercase());
            up.append(&mut low);
            up.into_iter().collect()
        }
    });
    let ep = fields.get(3).map_or("-".to_string(), |e| {
        Square::parse(e).map_or("-".to_string(), |s| s.flip_rank().to_string())
    });
    format!("{} {} {} {} 0 1", placement.join("/"), side, castling, ep)
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BENCH_FENS;

    fn ev(fen: &str) -> i32 {
        Eval::default().eval(&Board::from_fen(fen).unwrap())
    }

    #[test]
    fn symmetric_under_colour_flip() {
        for fen in BENCH_FENS {
            let m = mirror_fen(fen);
            assert_eq!(ev(fen), ev(&m), "{fen} vs {m}");
        }
    }

    /// The board's running sums against a walk over its pieces.
    fn assert_sums(b: &Board) {
        let mut total = S(0, 0);
        let mut phase = 0;
        for c in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in Squares(b.pieces(c, kind)) {
                    total += psq(c, kind, sq) * c.sign();
                    phase += PHASE[kind.index()];
                }
            }
        }
        assert_eq!((b.psq(), b.phase()), (total, phase), "{b:?}");
    }

    /// Every move of every position along random games, and of positions
    /// with castling, en passant and promotions (captures among them) to
    /// play, is made and taken back with the sums checked both ways.
    #[test]
    fn running_piece_square_sums_match_the_board() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut boards = vec![Board::startpos()];
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "1k6/8/8/8/8/8/8/1r2K2R w K - 0 1",
        ] {
            boards.push(Board::from_fen(fen).expect("valid FEN"));
        }
        let mut made = 0;
        for start in boards {
            let mut b = start;
            assert_sums(&b);
            for _ in 0..80 {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    b.make_move(m);
                    assert_sums(&b);
                    b.unmake_move(m);
                    assert_sums(&b);
                    made += 1;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.play(moves[(x % moves.len() as u64) as usize]);
            }
        }
        assert!(made > 5000, "{made}");
    }

    #[test]
    fn symmetric_along_random_games() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut checked = 0;
        for _ in 0..20 {
            let mut b = Board::startpos();
            for _ in 0..120 {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.play(moves[(x % moves.len() as u64) as usize]);
                let fen = b.to_fen(false);
                assert_eq!(ev(&fen), ev(&mirror_fen(&fen)), "{fen}");
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn start_position_is_about_even() {
        let e = ev(crate::board::START_FEN);
        assert!((0..=40).contains(&e), "{e}");
    }

    #[test]
    fn sanity_orderings() {
        // A queen up is winning.
        assert!(ev("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 700);
        // Centralised knight beats a knight on the rim.
        assert!(ev("4k3/p7/8/8/3N4/8/P7/4K3 w - - 0 1") > ev("4k3/p7/8/8/8/8/P7/N3K3 w - - 0 1"));
        // Passed pawn on the 7th beats one on the 3rd.
        assert!(ev("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") > ev("4k3/8/8/8/8/P7/8/4K3 w - - 0 1"));
        // Doubled isolated pawns are worse than healthy ones.
        assert!(ev("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1") > ev("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1"));
        // An intact shelter beats a shattered one in the middlegame.
        let safe = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 1";
        let open = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2P2/R1BQ1RK1 w - - 0 1";
        assert!(ev(safe) > ev(open), "{} {}", ev(safe), ev(open));
        // KB v K and KN v K are draws by evaluation too.
        assert_eq!(ev("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1") - TEMPO, 0);
        // A rook up wins.
        assert!(ev("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") > 400);
        // Opposite bishops with a pawn more are scaled towards a draw.
        let ocb = ev("4k1b1/8/8/8/8/8/P7/2B1K3 w - - 0 1");
        let same = ev("4kb2/8/8/8/8/8/P7/2B1K3 w - - 0 1");
        assert!(ocb < same, "{ocb} {same}");
    }

    #[test]
    fn mop_up_drives_the_king_to_the_edge() {
        assert!(ev("8/8/8/3k4/8/8/8/R3K3 w - - 0 1") < ev("3k4/8/8/8/8/8/8/R3K3 w - - 0 1"));
        assert!(ev("7k/8/5K2/8/8/8/8/R7 w - - 0 1") > ev("7k/8/8/8/8/2K5/8/R7 w - - 0 1"));
        // KBN v K: the bishop's corner is worse for the defender.
        let dark = ev("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1");
        let light = ev("7k/8/8/8/8/8/8/2B1KN2 w - - 0 1");
        assert!(dark < light, "{dark} {light}");
    }

    #[test]
    fn unstoppable_pawn() {
        // The king is outside the square: the pawn queens.
        assert!(ev("7k/8/8/8/8/P7/8/K7 w - - 0 1") > 400);
        // Inside the square: roughly a normal pawn edge.
        assert!(ev("8/8/8/2k5/8/P7/8/K7 w - - 0 1") < 300);
    }
}
