//! 81-square bitboards and the attack sets of every piece kind.
//!
//! A [`Bitboard`] is a `u128` whose bit `i` is square `i` in SFEN order
//! (row-major from 9a; [`Square`]); bits 81..128 are always clear. Step
//! attacks (pawn, knight, silver, gold and its promoted kin, king, and the
//! step parts of horse and dragon) come from tables built at compile time.
//! Sliding attacks (lance, bishop, rook and their promotions) are computed
//! from the occupancy without lookup tables of occupancies: every line
//! through a square is split into the ray towards lower indices and the
//! ray towards higher ones, and the nearest blocker on each is found with
//! one leading- or trailing-bit operation ("obstruction difference").
//! A lance is one such ray.
//!
//! Directions are `geometry`'s: 0 up (index −9), 1 up-right (−8), 2 right
//! (+1), 3 down-right (+10), 4 down (+9), 5 down-left (+8), 6 left (−1),
//! 7 up-left (−10). Directions 2..=5 run towards higher indices.

use crate::geometry::{NEIGHBORS, NONE, STEP_DIRS};
use crate::types::{Color, Kind, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The 81 board bits.
const BOARD: u128 = (1u128 << 81) - 1;

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(BOARD);

    /// The set with these bits; bits past square 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & BOARD)
    }

    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    #[inline]
    pub fn square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline]
    pub fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two squares or more.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set.
    #[inline]
    pub fn first(self) -> Option<Square> {
        // trailing_zeros of a non-empty set is below 81.
        (self.0 != 0).then(|| Square::from_index_unchecked(self.0.trailing_zeros() as usize))
    }

    /// The highest square of the set.
    #[inline]
    pub fn last(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index_unchecked(127 - self.0.leading_zeros() as usize))
    }

    #[inline]
    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    #[inline]
    pub fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }
}

/// The squares of a set in increasing index order.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        // A non-empty set of board bits: the index is below 81.
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement on the board (bits past square 80 stay clear).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0;
    }
}

impl std::fmt::Debug for Bitboard {
    /// Nine ranks, 9a first, `x` for a member.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for row in 0..9 {
            for col in 0..9 {
                let on = self.0 >> (row * 9 + col) & 1 != 0;
                write!(f, "{}", if on { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------
// Tables, built at compile time from `geometry`'s neighbour tables.

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut set = 0u128;
            let mut n = NEIGHBORS[sq][d];
            while n != NONE {
                set |= 1u128 << n;
                n = NEIGHBORS[n as usize][d];
            }
            t[d][sq] = set;
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][sq]`: the squares from `sq` in direction `d` to the edge.
static RAYS: [[u128; 81]; 8] = build_rays();

const fn build_pseudo(dirs: [usize; 4]) -> [u128; 81] {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = rays[dirs[0]][sq] | rays[dirs[1]][sq] | rays[dirs[2]][sq] | rays[dirs[3]][sq];
        sq += 1;
    }
    t
}

/// What a rook (orthogonal lines) and a bishop (diagonals) reach on an
/// empty board.
static ROOK_PSEUDO: [u128; 81] = build_pseudo([0, 2, 4, 6]);
static BISHOP_PSEUDO: [u128; 81] = build_pseudo([1, 3, 5, 7]);

const fn build_steps() -> [[[u128; 81]; 14]; 2] {
    let mut t = [[[0u128; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let dirs = STEP_DIRS[c][k];
            let mut sq = 0;
            while sq < 81 {
                let mut set = 0u128;
                let mut d = 0;
                while d < 8 {
                    let n = NEIGHBORS[sq][d];
                    if dirs & (1 << d) != 0 && n != NONE {
                        set |= 1u128 << n;
                    }
                    d += 1;
                }
                if k == Kind::Knight as usize {
                    let row = (sq / 9) as i32;
                    let col = (sq % 9) as i32;
                    let r = row + if c == 0 { -2 } else { 2 };
                    if r >= 0 && r < 9 {
                        if col > 0 {
                            set |= 1u128 << (r * 9 + col - 1);
                        }
                        if col < 8 {
                            set |= 1u128 << (r * 9 + col + 1);
                        }
                    }
                }
                t[c][k][sq] = set;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// `STEPS_BB[color][kind][sq]`: the squares a piece reaches in one step
/// (or jump); empty for the pure sliders, the step part for horse and
/// dragon.
static STEPS_BB: [[[u128; 81]; 14]; 2] = build_steps();

const fn build_directions() -> [[u8; 81]; 81] {
    let mut t = [[NONE; 81]; 81];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 81 {
            let mut n = NEIGHBORS[a][d];
            while n != NONE {
                t[a][n as usize] = d as u8;
                n = NEIGHBORS[n as usize][d];
            }
            a += 1;
        }
        d += 1;
    }
    t
}

/// `DIRECTION[a][b]`: the direction from `a` to `b` when they share a
/// line, else `NONE`.
static DIRECTION: [[u8; 81]; 81] = build_directions();

const fn build_ranks() -> [u128; 9] {
    let mut t = [0u128; 9];
    let mut r = 0;
    while r < 9 {
        t[r] = 0x1FFu128 << (r * 9);
        r += 1;
    }
    t
}

/// `RANK[row]`: the nine squares of a row (row 0 = rank `a`).
static RANK: [u128; 9] = build_ranks();

/// `FILE_BB[col]`: the nine squares of a column (col 0 = file 9).
pub const fn file_mask(col: usize) -> Bitboard {
    // Bit col of every row.
    let mut set = 0u128;
    let mut r = 0;
    while r < 9 {
        set |= 1u128 << (r * 9 + col);
        r += 1;
    }
    Bitboard(set)
}

// ---------------------------------------------------------------------
// Attacks.

/// The reach of a ray towards higher indices, up to and including the
/// first piece of `occ` on it.
#[inline]
fn ray_up_index(ray: u128, occ: u128) -> u128 {
    let blockers = ray & occ;
    let nearest = blockers & blockers.wrapping_neg();
    // With no blocker `nearest << 1` is 0 and the mask is all ones.
    ray & (nearest << 1).wrapping_sub(1)
}

/// The reach of a ray towards lower indices, up to and including the
/// first piece of `occ` on it.
#[inline]
fn ray_down_index(ray: u128, occ: u128) -> u128 {
    // With no blocker the highest bit of `1` is bit 0: every bit kept.
    let nearest = 127 - ((ray & occ) | 1).leading_zeros();
    ray & (!0u128 << nearest)
}

/// The reach along one whole line: `low` is the ray towards lower
/// indices, `high` the one towards higher indices (obstruction difference:
/// the bits from the nearest blocker below to the nearest blocker above).
#[inline]
fn line_reach(low: u128, high: u128, occ: u128) -> u128 {
    let below = low & occ;
    let above = high & occ;
    let from = !0u128 << (127 - (below | 1).leading_zeros());
    let nearest_above = above & above.wrapping_neg();
    // `nearest_above << 1` plus the run of ones from `from` upwards clears
    // every bit above the nearest blocker (or, with none above, wraps to
    // the run itself; with none below, `from` is all ones).
    (low | high) & (nearest_above << 1).wrapping_add(from)
}

/// The squares a slider on `sq` reaches along direction `d`.
#[inline]
pub fn ray_attacks(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let ray = RAYS[d & 7][sq.index()];
    Bitboard(if (2..=5).contains(&d) {
        ray_up_index(ray, occ.0)
    } else {
        ray_down_index(ray, occ.0)
    })
}

#[inline]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match color {
        Color::Black => Bitboard(ray_down_index(RAYS[0][sq.index()], occ.0)),
        Color::White => Bitboard(ray_up_index(RAYS[4][sq.index()], occ.0)),
    }
}

#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(line_reach(RAYS[0][s], RAYS[4][s], occ.0) | line_reach(RAYS[6][s], RAYS[2][s], occ.0))
}

#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(line_reach(RAYS[7][s], RAYS[3][s], occ.0) | line_reach(RAYS[1][s], RAYS[5][s], occ.0))
}

/// A rook's reach on an empty board: its file and rank.
#[inline]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// A bishop's reach on an empty board: its two diagonals.
#[inline]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// The step (and jump) reach of a piece, sliding lines left out.
#[inline]
pub fn step_attacks(color: Color, kind: Kind, sq: Square) -> Bitboard {
    Bitboard(STEPS_BB[color.index()][kind.index()][sq.index()])
}

/// The eight neighbours of `sq`.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(STEPS_BB[0][Kind::King.index()][sq.index()])
}

/// Every square a piece of `color` and `kind` on `sq` attacks, given the
/// occupied squares `occ`.
#[inline]
pub fn attacks(color: Color, kind: Kind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        Kind::Lance => lance_attacks(color, sq, occ),
        Kind::Bishop => bishop_attacks(sq, occ),
        Kind::Rook => rook_attacks(sq, occ),
        Kind::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        Kind::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
        _ => step_attacks(color, kind, sq),
    }
}

/// What a piece reaches along its sliding lines only (none for steppers).
#[inline]
pub fn slide_attacks(color: Color, kind: Kind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        Kind::Lance => lance_attacks(color, sq, occ),
        Kind::Bishop | Kind::Horse => bishop_attacks(sq, occ),
        Kind::Rook | Kind::Dragon => rook_attacks(sq, occ),
        _ => Bitboard::EMPTY,
    }
}

/// The squares of direction `d` from `sq` to the edge.
#[inline]
pub fn ray(d: usize, sq: Square) -> Bitboard {
    Bitboard(RAYS[d & 7][sq.index()])
}

/// The direction from `a` to `b` if they share a rank, file or diagonal.
#[inline]
pub fn direction(a: Square, b: Square) -> Option<usize> {
    let d = DIRECTION[a.index()][b.index()];
    (d != NONE).then_some(d as usize)
}

/// Squares strictly between `a` and `b` along a line (empty if they do
/// not share one).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d][a.index()] & RAYS[(d + 4) & 7][b.index()]),
        None => Bitboard::EMPTY,
    }
}

/// The whole line through `a` and `b` (both included), or empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    match direction(a, b) {
        Some(d) => Bitboard(RAYS[d][a.index()] | RAYS[(d + 4) & 7][a.index()] | 1u128 << a.index()),
        None => Bitboard::EMPTY,
    }
}

/// The rows of `color`'s enemy camp nearest the far edge: the last one
/// (`rows` = 1) or the last two (`rows` = 2), where pawns and lances
/// (one) or knights (two) may not stand unpromoted.
#[inline]
pub fn far_rows(color: Color, rows: usize) -> Bitboard {
    let mut set = 0u128;
    for r in 0..rows.min(9) {
        set |= match color {
            Color::Black => RANK[r],
            Color::White => RANK[8 - r],
        };
    }
    Bitboard(set)
}

/// The squares where a piece of `color` and hand kind `kind` may be
/// dropped, ignoring occupancy and nifu: not where it could never move.
#[inline]
pub fn drop_zone(color: Color, kind: Kind) -> Bitboard {
    match kind {
        Kind::Pawn | Kind::Lance => !far_rows(color, 1),
        Kind::Knight => !far_rows(color, 2),
        _ => Bitboard::ALL,
    }
}

/// Whether the step table agrees with `geometry`'s direction masks (used
/// by the tests; the two are written independently).
#[cfg(test)]
fn steps_agree(color: Color, kind: Kind) -> bool {
    Square::all().all(|sq| {
        let mut set = 0u128;
        for d in 0..8 {
            let n = NEIGHBORS[sq.index()][d];
            if crate::geometry::steps(color, kind) & (1 << d) != 0 && n != NONE {
                set |= 1u128 << n;
            }
        }
        if kind == Kind::Knight {
            for &n in &crate::geometry::KNIGHT_TO[color.index()][sq.index()] {
                if n != NONE {
                    set |= 1u128 << n;
                }
            }
        }
        STEPS_BB[color.index()][kind.index()][sq.index()] == set
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::slides;

    /// Slide reach by walking the neighbour table: the reference.
    fn walk(color: Color, kind: Kind, sq: Square, occ: u128) -> u128 {
        let mut set = STEPS_BB[color.index()][kind.index()][sq.index()];
        for d in 0..8 {
            if slides(color, kind) & (1 << d) == 0 {
                continue;
            }
            let mut n = NEIGHBORS[sq.index()][d];
            while n != NONE {
                set |= 1u128 << n;
                if occ >> n & 1 != 0 {
                    break;
                }
                n = NEIGHBORS[n as usize][d];
            }
        }
        set
    }

    #[test]
    fn step_tables_match_the_direction_masks() {
        for c in Color::BOTH {
            for k in Kind::ALL {
                assert!(steps_agree(c, k), "{c:?} {k:?}");
            }
        }
        // A black knight on 5e jumps to 6c and 4c.
        let e5 = Square::parse("5e").unwrap();
        let got: Vec<String> = step_attacks(Color::Black, Kind::Knight, e5)
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(got, ["6c", "4c"]);
    }

    #[test]
    fn sliding_attacks_match_a_walk_on_random_occupancies() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..2000 {
            // Sparse to dense boards.
            let density = round % 4;
            let mut occ = u128::from(next()) | u128::from(next()) << 64;
            for _ in 0..density {
                occ &= u128::from(next()) | u128::from(next()) << 64;
            }
            let occ = Bitboard::from_bits(occ);
            for sq in Square::all() {
                for c in Color::BOTH {
                    for k in Kind::ALL {
                        assert_eq!(
                            attacks(c, k, sq, occ).bits(),
                            walk(c, k, sq, occ.bits()),
                            "{c:?} {k:?} {sq} {occ:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lines_and_between() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(between(sq("5i"), sq("5e")).count(), 3);
        assert!(between(sq("5i"), sq("4g")).is_empty());
        assert_eq!(between(sq("9a"), sq("1i")).count(), 7);
        assert_eq!(line(sq("5e"), sq("4d")).count(), 9);
        assert!(line(sq("5e"), sq("4c")).is_empty());
        assert_eq!(direction(sq("5e"), sq("5a")), Some(0));
        assert_eq!(direction(sq("5e"), sq("1e")), Some(2));
        for a in Square::all() {
            for b in Square::all() {
                let walked = crate::geometry::between(a, b);
                assert_eq!(between(a, b).bits(), walked, "{a} {b}");
            }
        }
    }

    #[test]
    fn iteration_is_in_index_order_and_not_masks_the_board() {
        let set = Bitboard::from_bits(1 << 80 | 1 << 3 | 1 << 40);
        let v: Vec<usize> = set.into_iter().map(Square::index).collect();
        assert_eq!(v, [3, 40, 80]);
        assert_eq!((!Bitboard::EMPTY).count(), 81);
        assert_eq!(set.last().map(Square::index), Some(80));
        assert!(set.more_than_one() && !Bitboard::from_bits(1 << 7).more_than_one());
        assert_eq!(file_mask(0).count(), 9);
        assert_eq!(far_rows(Color::White, 2).count(), 18);
        assert!(drop_zone(Color::Black, Kind::Knight).has(Square::parse("5c").unwrap()));
        assert!(!drop_zone(Color::Black, Kind::Knight).has(Square::parse("5b").unwrap()));
        assert!(!drop_zone(Color::White, Kind::Pawn).has(Square::parse("5i").unwrap()));
    }
}
