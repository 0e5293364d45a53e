//! Features of a candidate move for the learned move model (`gammas.rs`,
//! Coulom 2007): the 3x3 shape, the shape of the distance-2 diamond,
//! tactical facts (capture, atari escape, atari with its ladder, self-
//! atari), the distance to the last two moves, the line, and pass.
//!
//! Shapes are seen from the player to move (own, opponent, empty, edge)
//! and folded over the board's 8 symmetries, so one value stands for a
//! shape in every orientation and for both colours.

use crate::board::{Board, Cell, Color, Move, Point, POINTS};
use crate::playout::LADDER_STEPS;
use crate::reading;
use std::sync::OnceLock;

/// Feature groups; a move has at most one value in each.
pub const SHAPE3: usize = 0;
pub const DIAMOND: usize = 1;
pub const CAPTURE: usize = 2;
pub const ESCAPE: usize = 3;
pub const ATARI: usize = 4;
pub const SELF_ATARI: usize = 5;
pub const DIST_PREV: usize = 6;
pub const DIST_PREV2: usize = 7;
pub const LINE: usize = 8;
pub const PASS: usize = 9;
pub const GROUPS: usize = 10;

/// Group names, as the table file spells them.
pub const NAMES: [&str; GROUPS] = [
    "shape3",
    "diamond",
    "capture",
    "escape",
    "atari",
    "selfatari",
    "dist",
    "dist2",
    "line",
    "pass",
];

/// No value in a group.
pub const NONE: u32 = u32::MAX;

/// One move's value per group (`NONE` where the group says nothing).
pub type Features = [u32; GROUPS];

/// Cell values of a shape, from the mover's side.
const EMPTY: u32 = 0;
const OWN: u32 = 1;
const OPP: u32 = 2;
const EDGE: u32 = 3;

/// The diamond's points as (dx, dy): the 3x3 ring, then the four points
/// two steps away in a straight line.
const DIAMOND_AT: [(i32, i32); 12] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (0, 2),
    (2, 0),
    (0, -2),
    (-2, 0),
];

/// The 8 symmetries of the square as maps of (dx, dy).
fn symmetry(s: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    let (x, y) = if s & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

/// For each symmetry, where each diamond point goes.
fn diamond_perms() -> &'static [[u8; 12]; 8] {
    static PERMS: OnceLock<[[u8; 12]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| {
        let mut out = [[0u8; 12]; 8];
        for (s, perm) in out.iter_mut().enumerate() {
            for (i, &d) in DIAMOND_AT.iter().enumerate() {
                let t = symmetry(s, d);
                // Every image is a diamond point: the set is symmetric.
                perm[i] = DIAMOND_AT.iter().position(|&e| e == t).unwrap_or(i) as u8;
            }
        }
        out
    })
}

/// The code of `cells` (2 bits each, 12 points) under each symmetry.
fn diamond_codes(cells: &[u32; 12]) -> impl Iterator<Item = u32> + '_ {
    diamond_perms().iter().map(|perm| {
        cells
            .iter()
            .zip(perm)
            .fold(0u32, |code, (&v, &to)| code | v << (2 * to as u32))
    })
}

/// The smallest code of `cells` (2 bits each, 12 points) over the
/// symmetries.
pub fn canonical_diamond(cells: &[u32; 12]) -> u32 {
    diamond_codes(cells).min().unwrap_or(0)
}

/// Every code of the diamond whose code is `code` under the symmetries
/// (itself among them; up to 8 distinct).
pub fn diamond_images(code: u32) -> Vec<u32> {
    let cells: [u32; 12] = std::array::from_fn(|i| (code >> (2 * i)) & 3);
    let mut images: Vec<u32> = diamond_codes(&cells).collect();
    images.sort_unstable();
    images.dedup();
    images
}

/// The canonical 3x3 code (the diamond's first 8 points) of each
/// `Board::ring_code`, for Black to move and for White to move.
fn shape3_tables() -> &'static [Vec<u16>; 2] {
    static TABLES: OnceLock<[Vec<u16>; 2]> = OnceLock::new();
    TABLES.get_or_init(|| {
        let perms = diamond_perms();
        let mut out = [vec![0u16; 1 << 16], vec![0u16; 1 << 16]];
        for (mover, table) in out.iter_mut().enumerate() {
            for (code, slot) in table.iter_mut().enumerate() {
                let mut cells = [0u32; 8];
                for (i, cell) in cells.iter_mut().enumerate() {
                    // ring_code: 0 empty, 1 black, 2 white, 3 edge.
                    let v = ((code >> (2 * i)) & 3) as u32;
                    *cell = match (v, mover) {
                        (1, 0) | (2, 1) => OWN,
                        (1, _) | (2, _) => OPP,
                        (v, _) => v,
                    };
                }
                // The ring's points map among themselves under every
                // symmetry (the first 8 of the diamond).
                let mut best = u32::MAX;
                for perm in perms {
                    let mut c = 0u32;
                    for (i, &v) in cells.iter().enumerate() {
                        c |= v << (2 * perm[i] as u32);
                    }
                    best = best.min(c);
                }
                *slot = best as u16;
            }
        }
        out
    })
}

/// The canonical 3x3 shape around `p` for `c` to move.
pub fn shape3(b: &Board, c: Color, p: Point) -> u32 {
    shape3_of(c, b.ring_code(p))
}

/// The canonical 3x3 shape of a `Board::ring_code` for `c` to move.
pub fn shape3_of(c: Color, ring_code: usize) -> u32 {
    shape3_tables()[c.index()]
        .get(ring_code)
        .copied()
        .unwrap_or(0) as u32
}

/// The canonical diamond around `p` for `c` to move.
pub fn diamond(b: &Board, c: Color, p: Point) -> u32 {
    canonical_diamond(&diamond_cells(b, c, p))
}

/// The diamond around `p` for `c` to move as it lies on the board (not
/// folded over the symmetries): a table holding every image of its
/// diamonds (`gammas::Table`) looks it up without canonicalising.
pub fn raw_diamond(b: &Board, c: Color, p: Point) -> u32 {
    diamond_cells(b, c, p)
        .iter()
        .enumerate()
        .fold(0u32, |code, (i, &v)| code | v << (2 * i))
}

/// The diamond's cells around `p`, from `c`'s side.
fn diamond_cells(b: &Board, c: Color, p: Point) -> [u32; 12] {
    let (w, h) = (b.width() as i32, b.height() as i32);
    let (x, y) = (p.x() as i32, p.y() as i32);
    let mut cells = [EDGE; 12];
    for (i, &(dx, dy)) in DIAMOND_AT.iter().enumerate() {
        let (qx, qy) = (x + dx, y + dy);
        if qx < 0 || qy < 0 || qx >= w || qy >= h {
            continue;
        }
        cells[i] = match b.cell(Point::from_xy(qx as usize, qy as usize)) {
            Cell::Empty => EMPTY,
            Cell::Edge => EDGE,
            cell if cell == c.cell() => OWN,
            _ => OPP,
        };
    }
    cells
}

/// Coulom's distance between two points: dx + dy + max(dx, dy), capped.
fn distance(a: Point, b: Point) -> u32 {
    let dx = a.x().abs_diff(b.x()) as u32;
    let dy = a.y().abs_diff(b.y()) as u32;
    (dx + dy + dx.max(dy)).min(17)
}

/// Size classes of a chain: 1, 2-3, 4-6, 7+ stones (1..=4).
fn size_class(n: usize) -> u32 {
    match n {
        0 | 1 => 1,
        2 | 3 => 2,
        4..=6 => 3,
        _ => 4,
    }
}

/// Liberty counts (capped at 3) of every chain on a board, by chain head:
/// the atari features ask for each opponent chain next to each candidate,
/// so they are counted once per position.
pub struct Liberties(Vec<u8>);

impl Liberties {
    pub fn of(b: &Board) -> Liberties {
        let mut count = vec![0u8; POINTS];
        for i in 0..b.empties().len() {
            let e = b.empty_point(i);
            let mut seen = [0u16; 4];
            for (k, &n) in b.neighbors(e).iter().enumerate() {
                if b.cell(n).color().is_none() {
                    continue;
                }
                let id = b.chain_id(n);
                if !seen[..k].contains(&id) {
                    let c = &mut count[id as usize];
                    *c = (*c + 1).min(3);
                }
                seen[k] = id;
            }
        }
        Liberties(count)
    }

    /// Liberties of the chain at `q` (a stone), 3 meaning 3 or more.
    fn at(&self, b: &Board, q: Point) -> u8 {
        self.0.get(b.chain_id(q) as usize).copied().unwrap_or(0)
    }
}

/// The features of each of `moves` for `c` on `b` (see `of_move`).
pub fn of_moves(b: &Board, c: Color, moves: &[Move], prev2: Option<Point>) -> Vec<Features> {
    coded(b, c, moves, prev2, Diamond::Canonical)
}

/// As `of_moves`, but the diamond's value is its raw code
/// (`raw_diamond`), for lookups in a table that holds every image.
pub fn of_moves_raw(b: &Board, c: Color, moves: &[Move], prev2: Option<Point>) -> Vec<Features> {
    coded(b, c, moves, prev2, Diamond::Raw)
}

fn coded(b: &Board, c: Color, moves: &[Move], prev2: Option<Point>, d: Diamond) -> Vec<Features> {
    let libs = Liberties::of(b);
    moves
        .iter()
        .map(|&m| with_libs(b, &libs, c, m, prev2, d))
        .collect()
}

/// How a feature vector codes the diamond.
#[derive(Clone, Copy)]
enum Diamond {
    Canonical,
    Raw,
}

/// The features of `m` for `c` on `b`; `prev2` is the move before the
/// board's last move (the last one is `b.last_move()`). `m` is assumed
/// legal.
pub fn of_move(b: &Board, c: Color, m: Move, prev2: Option<Point>) -> Features {
    with_libs(b, &Liberties::of(b), c, m, prev2, Diamond::Canonical)
}

fn with_libs(
    b: &Board,
    libs: &Liberties,
    c: Color,
    m: Move,
    prev2: Option<Point>,
    coding: Diamond,
) -> Features {
    let mut f = [NONE; GROUPS];
    let p = match m {
        Move::Pass => {
            f[PASS] = if b.last_move() == Some(Move::Pass) {
                1
            } else {
                2
            };
            return f;
        }
        Move::Play(p) => p,
    };
    f[SHAPE3] = shape3(b, c, p);
    f[DIAMOND] = match coding {
        Diamond::Canonical => diamond(b, c, p),
        Diamond::Raw => raw_diamond(b, c, p),
    };
    if let Some(Move::Play(last)) = b.last_move() {
        f[DIST_PREV] = distance(p, last);
    }
    if let Some(q) = prev2 {
        f[DIST_PREV2] = distance(p, q);
    }
    let line = b.edge_distance(p) + 1;
    if line <= 4 && b.short_side() >= 7 {
        f[LINE] = line as u32;
    }
    tactical(b, libs, c, p, &mut f);
    f
}

/// Whether the opponent chain at `q` touches a chain of `c` in atari (so
/// capturing it saves that chain).
fn touches_own_atari(b: &Board, c: Color, q: Point) -> bool {
    b.chain_stones(q).iter().any(|&s| {
        b.neighbors(s)
            .iter()
            .any(|&n| b.cell(n).color() == Some(c) && b.in_atari(n))
    })
}

fn tactical(b: &Board, libs: &Liberties, c: Color, p: Point, f: &mut Features) {
    let libs_here = b.libs_after(c, p, 3);
    let nb = b.neighbors(p);
    // Captures: stones taken, and whether that saves an own chain in atari.
    let mut captured = 0usize;
    let mut seen = [0u16; 4];
    let mut own_in_atari = false;
    let mut saves = false;
    let mut opp_contacts = 0;
    for (i, &q) in nb.iter().enumerate() {
        match b.cell(q).color() {
            Some(x) if x == c.opp() => {
                opp_contacts += 1;
                let id = b.chain_id(q);
                if b.in_atari(q) && !seen[..i].contains(&id) {
                    captured += b.chain_size(q);
                    saves = saves || touches_own_atari(b, c, q);
                }
                seen[i] = id;
            }
            Some(_) if b.in_atari(q) => own_in_atari = true,
            _ => {}
        }
    }
    if captured > 0 {
        f[CAPTURE] = size_class(captured) + if saves { 4 } else { 0 };
    }
    // Atari escape by extending (a capture that saves is the capture's).
    if own_in_atari && captured == 0 {
        let biggest = nb
            .iter()
            .filter(|&&q| b.cell(q).color() == Some(c) && b.in_atari(q))
            .map(|&q| b.chain_size(q))
            .max()
            .unwrap_or(1);
        let how = if libs_here >= 3 {
            1
        } else if libs_here == 2 {
            if reading::escape_fails_fast(b, c, p, LADDER_STEPS) {
                3
            } else {
                2
            }
        } else {
            4
        };
        f[ESCAPE] = how + if biggest >= 2 { 4 } else { 0 };
    }
    // Self-atari: lone stone (a throw-in) or a chain; a two-liberty
    // contact move that a ladder captures is its milder kind.
    let own_next = nb.iter().any(|&q| b.cell(q).color() == Some(c));
    if libs_here <= 1 {
        f[SELF_ATARI] = if own_next { 2 } else { 1 };
    }
    // Ataris on two-liberty opponent chains, and whether the ladder works.
    let mut after: Option<Board> = None;
    if captured == 0 {
        for &q in &nb {
            if b.cell(q).color() != Some(c.opp()) || libs.at(b, q) != 2 {
                continue;
            }
            if libs_here <= 1 {
                f[ATARI] = 3;
                break;
            }
            let b2 = after.get_or_insert_with(|| {
                let mut b2 = b.clone();
                b2.play(c, Move::Play(p));
                b2
            });
            if let Some(lib) = b2.atari_liberty(q) {
                let works = reading::escape_fails_fast(b2, c.opp(), lib, LADDER_STEPS);
                let v = if works { 1 } else { 2 };
                // A working ladder on any chain is what matters most.
                if f[ATARI] == NONE || v < f[ATARI] {
                    f[ATARI] = v;
                }
            }
        }
    }
    if libs_here == 2 && opp_contacts >= 2 && f[SELF_ATARI] == NONE {
        let b2 = after.get_or_insert_with(|| {
            let mut b2 = b.clone();
            b2.play(c, Move::Play(p));
            b2
        });
        if b2.cell(p) != Cell::Empty && reading::ladder_follow(b2, p, LADDER_STEPS) {
            f[SELF_ATARI] = 3;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_vertex;

    fn put(b: &mut Board, c: Color, v: &str) {
        if let Some(m @ Move::Play(_)) = b.parse_move(v) {
            b.play(c, m);
        }
    }

    fn at(v: &str, n: usize) -> Point {
        match parse_vertex(v, n) {
            Some(Move::Play(p)) => p,
            _ => Point::from_xy(0, 0),
        }
    }

    #[test]
    fn shapes_fold_symmetries_and_colours() {
        // A hane shape and its mirror image with colours swapped give the
        // same 3x3 and diamond values to the side to move.
        let mut a = Board::new(9);
        put(&mut a, Color::Black, "D6");
        put(&mut a, Color::White, "E6");
        let mut b = Board::new(9);
        put(&mut b, Color::White, "F4");
        put(&mut b, Color::Black, "E4");
        assert_eq!(
            shape3(&a, Color::Black, at("E5", 9)),
            shape3(&b, Color::White, at("E5", 9))
        );
        assert_eq!(
            diamond(&a, Color::Black, at("E5", 9)),
            diamond(&b, Color::White, at("E5", 9))
        );
        // The other colour to move sees another shape.
        assert_ne!(
            shape3(&a, Color::Black, at("E5", 9)),
            shape3(&a, Color::White, at("E5", 9))
        );
        // Corners are the same shape in all four corners.
        let e = Board::new(9);
        let corner = diamond(&e, Color::Black, at("A1", 9));
        for v in ["J1", "A9", "J9"] {
            assert_eq!(diamond(&e, Color::Black, at(v, 9)), corner, "{v}");
        }
        assert_ne!(diamond(&e, Color::Black, at("B1", 9)), corner);
    }

    #[test]
    fn diamond_images_are_the_orbit() {
        let mut b = Board::new(9);
        put(&mut b, Color::Black, "D5");
        put(&mut b, Color::White, "E6");
        put(&mut b, Color::Black, "C7");
        let raw = raw_diamond(&b, Color::Black, at("D6", 9));
        let canonical = diamond(&b, Color::Black, at("D6", 9));
        let images = diamond_images(canonical);
        assert!(images.contains(&raw) && images.contains(&canonical));
        assert_eq!(images.iter().min(), Some(&canonical));
        assert_eq!(diamond_images(raw), images);
        // An asymmetric shape has all 8 images; the empty diamond one.
        assert_eq!(images.len(), 8);
        assert_eq!(diamond_images(0), vec![0]);
    }

    #[test]
    fn liberty_counts_match_the_board() {
        let mut b = Board::new(9);
        for (c, v) in [
            (Color::Black, "A1"),
            (Color::Black, "B1"),
            (Color::White, "C1"),
            (Color::White, "E5"),
            (Color::White, "E6"),
            (Color::Black, "D5"),
            (Color::Black, "F6"),
        ] {
            put(&mut b, c, v);
        }
        let libs = Liberties::of(&b);
        for p in b.points() {
            if b.cell(p).color().is_some() {
                let want = b.liberties(p).len().min(3) as u8;
                assert_eq!(libs.at(&b, p), want, "{p:?}");
            }
        }
    }

    #[test]
    fn tactical_features() {
        // Black D5 in atari (White C5, E5, D6); White D4 has two liberties.
        let mut b = Board::new(9);
        put(&mut b, Color::Black, "D5");
        for v in ["C5", "E5", "D6"] {
            put(&mut b, Color::White, v);
        }
        put(&mut b, Color::Black, "G7");
        put(&mut b, Color::White, "C4");
        let f = of_move(&b, Color::Black, Move::Play(at("D4", 9)), None);
        // Black D4 extends D5 to two liberties (D3, E4).
        assert!(f[ESCAPE] == 2 || f[ESCAPE] == 3, "{:?}", f);
        assert_eq!(f[CAPTURE], NONE);
        // White captures D5 at D4: one stone.
        let f = of_move(&b, Color::White, Move::Play(at("D4", 9)), None);
        assert_eq!(f[CAPTURE], 1);
        assert_eq!(f[DIST_PREV], distance(at("D4", 9), at("C4", 9)));
        assert_eq!(f[LINE], 4);
        assert_eq!(f[PASS], NONE);
        let f = of_move(&b, Color::Black, Move::Pass, None);
        assert_eq!(f[PASS], 2);
        assert_eq!(f[SHAPE3], NONE);
    }
}
