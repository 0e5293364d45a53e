//! Move tables built at compile time: which points each piece can reach
//! from each point, with the point that blocks it (horse leg, elephant eye).

use crate::types::{Color, Square};

/// Marks the end of a list in the fixed-size tables.
pub const NONE: u8 = u8::MAX;

/// Orthogonal directions, (file, rank) deltas: north, south, east, west.
pub const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// A square index or `NONE` after applying a delta.
const fn step(sq: usize, df: i8, dr: i8) -> u8 {
    match Square::from_index_unchecked(sq).offset(df, dr) {
        Some(s) => s.index() as u8,
        None => NONE,
    }
}

const fn palace_of(sq: usize) -> Option<Color> {
    let s = Square::from_index_unchecked(sq);
    if s.in_palace(Color::Red) {
        Some(Color::Red)
    } else if s.in_palace(Color::Black) {
        Some(Color::Black)
    } else {
        None
    }
}

const fn build_king() -> [[u8; 4]; 90] {
    let mut t = [[NONE; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        if let Some(c) = palace_of(sq) {
            let mut n = 0;
            let mut d = 0;
            while d < 4 {
                let to = step(sq, DIRS[d].0, DIRS[d].1);
                if to != NONE && Square::from_index_unchecked(to as usize).in_palace(c) {
                    t[sq][n] = to;
                    n += 1;
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build_advisor() -> [[u8; 4]; 90] {
    let mut t = [[NONE; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        if let Some(c) = palace_of(sq) {
            let mut n = 0;
            let mut d = 0;
            while d < 4 {
                let to = step(sq, DIAG[d].0, DIAG[d].1);
                if to != NONE && Square::from_index_unchecked(to as usize).in_palace(c) {
                    t[sq][n] = to;
                    n += 1;
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// (to, eye) pairs; an elephant never crosses the river.
const fn build_elephant() -> [[(u8, u8); 4]; 90] {
    let mut t = [[(NONE, NONE); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let red_side = Square::from_index_unchecked(sq).rank() <= 4;
        let mut n = 0;
        let mut d = 0;
        while d < 4 {
            let to = step(sq, 2 * DIAG[d].0, 2 * DIAG[d].1);
            if to != NONE && (Square::from_index_unchecked(to as usize).rank() <= 4) == red_side {
                t[sq][n] = (to, step(sq, DIAG[d].0, DIAG[d].1));
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The eight horse jumps as (file, rank) deltas.
const HORSE: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// The leg (blocking point) of a jump, relative to the horse.
const fn leg(df: i8, dr: i8) -> (i8, i8) {
    if dr == 2 || dr == -2 {
        (0, dr / 2)
    } else {
        (df / 2, 0)
    }
}

/// (to, leg) pairs of a horse standing on the square.
const fn build_horse() -> [[(u8, u8); 8]; 90] {
    let mut t = [[(NONE, NONE); 8]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut d = 0;
        while d < 8 {
            let to = step(sq, HORSE[d].0, HORSE[d].1);
            if to != NONE {
                let (lf, lr) = leg(HORSE[d].0, HORSE[d].1);
                t[sq][n] = (to, step(sq, lf, lr));
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// (from, leg) pairs of horses that would attack the square.
const fn build_horse_attackers() -> [[(u8, u8); 8]; 90] {
    let mut t = [[(NONE, NONE); 8]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut n = 0;
        let mut d = 0;
        while d < 8 {
            let from = step(sq, -HORSE[d].0, -HORSE[d].1);
            if from != NONE {
                let (lf, lr) = leg(HORSE[d].0, HORSE[d].1);
                t[sq][n] = (from, step(from as usize, lf, lr));
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Pawn steps per colour: forward always, sideways once across the river.
const fn build_pawn() -> [[[u8; 3]; 90]; 2] {
    let mut t = [[[NONE; 3]; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::Red } else { Color::Black };
        let fwd: i8 = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let mut n = 0;
            let to = step(sq, 0, fwd);
            if to != NONE {
                t[c][sq][n] = to;
                n += 1;
            }
            if !Square::from_index_unchecked(sq).on_side_of(color) {
                let l = step(sq, -1, 0);
                if l != NONE {
                    t[c][sq][n] = l;
                    n += 1;
                }
                let r = step(sq, 1, 0);
                if r != NONE {
                    t[c][sq][n] = r;
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
}

/// The points along each orthogonal direction, nearest first.
const fn build_rays() -> [[[u8; 9]; 4]; 90] {
    let mut t = [[[NONE; 9]; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let mut n = 0;
            let mut cur = step(sq, DIRS[d].0, DIRS[d].1);
            while cur != NONE {
                t[sq][d][n] = cur;
                n += 1;
                cur = step(cur as usize, DIRS[d].0, DIRS[d].1);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

pub static KING_STEPS: [[u8; 4]; 90] = build_king();
pub static ADVISOR_STEPS: [[u8; 4]; 90] = build_advisor();
pub static ELEPHANT_STEPS: [[(u8, u8); 4]; 90] = build_elephant();
pub static HORSE_STEPS: [[(u8, u8); 8]; 90] = build_horse();
pub static HORSE_ATTACKERS: [[(u8, u8); 8]; 90] = build_horse_attackers();
pub static PAWN_STEPS: [[[u8; 3]; 90]; 2] = build_pawn();
pub static RAYS: [[[u8; 9]; 4]; 90] = build_rays();

use tengen_core::splitmix::step as splitmix;

const fn build_zobrist() -> [[u64; 90]; 14] {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x5851_F42D_4C95_7F2D_u64;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, v) = splitmix(state);
            state = s;
            t[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    t
}

/// Zobrist keys per piece index and square.
pub static ZOBRIST: [[u64; 90]; 14] = build_zobrist();
/// Xored in when Black is to move.
pub const ZOBRIST_BLACK: u64 = splitmix(0x1234_5678_9ABC_DEF0).1;

#[cfg(test)]
mod tests {
    use super::*;

    fn count(list: &[u8]) -> usize {
        list.iter().take_while(|&&s| s != NONE).count()
    }

    #[test]
    fn palace_centre_has_four_king_and_advisor_steps() {
        let e1 = Square::new(4, 1).unwrap().index();
        assert_eq!(count(&KING_STEPS[e1]), 4);
        assert_eq!(count(&ADVISOR_STEPS[e1]), 4);
        let e0 = Square::new(4, 0).unwrap().index();
        assert_eq!(count(&KING_STEPS[e0]), 3);
        assert_eq!(count(&ADVISOR_STEPS[e0]), 2);
        // Outside any palace nothing.
        assert_eq!(count(&KING_STEPS[0]), 0);
    }

    #[test]
    fn elephants_stay_home_and_horses_have_legs() {
        let c4 = Square::new(2, 4).unwrap().index();
        let n = ELEPHANT_STEPS[c4].iter().filter(|p| p.0 != NONE).count();
        assert_eq!(n, 2, "an elephant on the river bank cannot cross");
        let a0 = 0;
        let n = HORSE_STEPS[a0].iter().filter(|p| p.0 != NONE).count();
        assert_eq!(n, 2);
        // b0 -> c2 has its leg on b1.
        let b0 = Square::new(1, 0).unwrap().index();
        let c2 = Square::new(2, 2).unwrap().index() as u8;
        let b1 = Square::new(1, 1).unwrap().index() as u8;
        assert!(HORSE_STEPS[b0].contains(&(c2, b1)));
        // Reverse table: horse on b0 attacks c2 through b1.
        assert!(HORSE_ATTACKERS[c2 as usize].contains(&(b0 as u8, b1)));
    }

    #[test]
    fn pawns_move_sideways_only_across_the_river() {
        let e3 = Square::new(4, 3).unwrap().index();
        assert_eq!(count(&PAWN_STEPS[0][e3]), 1);
        let e5 = Square::new(4, 5).unwrap().index();
        assert_eq!(count(&PAWN_STEPS[0][e5]), 3);
        assert_eq!(count(&PAWN_STEPS[1][e5]), 1);
        let e9 = Square::new(4, 9).unwrap().index();
        assert_eq!(count(&PAWN_STEPS[0][e9]), 2);
    }
}
