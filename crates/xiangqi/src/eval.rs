//! A hand-made evaluation: material tapered by phase, piece-square
//! tables, mobility, king safety against cannons, horses and rooks,
//! advisor/elephant structure and advanced soldiers. Units: a pawn that
//! has not crossed the river is 100; a horse about 400.

use crate::board::Board;
use crate::tables::{HORSE_STEPS, NONE, RAYS};
use crate::types::{Color, Kind, Square};

/// Material, middle game and end game, by `Kind` index.
pub const MATERIAL_MG: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];
pub const MATERIAL_EG: [i32; 7] = [0, 200, 200, 460, 950, 400, 120];

/// A horse's worth, the unit UCCI scores are printed in (100 = a horse).
pub const HORSE_VALUE: i32 = 400;

/// Phase weight per kind: rooks count double, horses and cannons once.
const PHASE: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
const MAX_PHASE: i32 = 16;

/// Piece-square bonuses from Red's side, rank 0 (Red's back rank) first.
/// Files are symmetric, so each row lists files a..i.
#[rustfmt::skip]
const PAWN_PST: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, -4,  0, 10,  0, -4,  0,  0,
     4,  0, 10,  0, 20,  0, 10,  0,  4,
    40, 50, 60, 70, 80, 70, 60, 50, 40,
    50, 60, 80, 95,105, 95, 80, 60, 50,
    50, 65, 90,110,120,110, 90, 65, 50,
    40, 60, 80,100,110,100, 80, 60, 40,
    10, 15, 20, 40, 40, 40, 20, 15, 10,
];

#[rustfmt::skip]
const HORSE_PST: [i32; 90] = [
   -20,-10,  0, -5,-10, -5,  0,-10,-20,
   -10,  0,  5,  0,-20,  0,  5,  0,-10,
     0,  5, 15, 10, 10, 10, 15,  5,  0,
     0, 10, 15, 15, 15, 15, 15, 10,  0,
     0, 15, 20, 20, 20, 20, 20, 15,  0,
     5, 20, 25, 30, 25, 30, 25, 20,  5,
     5, 25, 30, 35, 30, 35, 30, 25,  5,
    10, 30, 35, 40, 30, 40, 35, 30, 10,
     5, 20, 30, 45, 20, 45, 30, 20,  5,
     0,  5, 15, 10,  0, 10, 15,  5,  0,
];

#[rustfmt::skip]
const ROOK_PST: [i32; 90] = [
    -10,  5,  0, 10,  0, 10,  0,  5,-10,
      0, 10,  5, 10,  0, 10,  5, 10,  0,
     -5, 10,  5, 10, 10, 10,  5, 10, -5,
      5, 10, 10, 15, 15, 15, 10, 10,  5,
     10, 15, 15, 20, 20, 20, 15, 15, 10,
     10, 20, 20, 25, 25, 25, 20, 20, 10,
     10, 20, 20, 25, 25, 25, 20, 20, 10,
     10, 20, 20, 30, 30, 30, 20, 20, 10,
     15, 25, 25, 35, 35, 35, 25, 25, 15,
     10, 20, 20, 25, 25, 25, 20, 20, 10,
];

#[rustfmt::skip]
const CANNON_PST: [i32; 90] = [
      0,  0,  5, 10, 10, 10,  5,  0,  0,
      0,  5,  5,  5,  5,  5,  5,  5,  0,
      5,  5, 10,  5, 15,  5, 10,  5,  5,
      0,  0,  0,  0, 10,  0,  0,  0,  0,
      0,  0,  0,  0, 10,  0,  0,  0,  0,
      0,  5,  0,  5, 15,  5,  0,  5,  0,
      0,  0,  0,  0, 10,  0,  0,  0,  0,
      5,  5,  0,-10,  0,-10,  0,  5,  5,
     10, 10,  0,-10,-15,-10,  0, 10, 10,
     15, 15,  5,  0,-10,  0,  5, 15, 15,
];

#[rustfmt::skip]
const KING_PST: [i32; 90] = [
     0,  0,  0,  5, 15,  5,  0,  0,  0,
     0,  0,  0,-10,  0,-10,  0,  0,  0,
     0,  0,  0,-25,-20,-25,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const GUARD_PST: [i32; 90] = [
     0,  0,  5,  5,  0,  5,  5,  0,  0,
     0,  0,  0,  0, 10,  0,  0,  0,  0,
    -5,  0,  0,  0, 10,  0,  0,  0, -5,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

fn pst(kind: Kind) -> &'static [i32; 90] {
    match kind {
        Kind::King => &KING_PST,
        Kind::Advisor | Kind::Elephant => &GUARD_PST,
        Kind::Horse => &HORSE_PST,
        Kind::Rook => &ROOK_PST,
        Kind::Cannon => &CANNON_PST,
        Kind::Pawn => &PAWN_PST,
    }
}

/// The point as Red would see it: Black's pieces read the tables upside
/// down.
fn relative(sq: Square, c: Color) -> usize {
    match c {
        Color::Red => sq.index(),
        Color::Black => sq.mirror_rank().index(),
    }
}

/// Middle-game and end-game halves of one side's score.
#[derive(Default, Clone, Copy)]
struct Split {
    mg: i32,
    eg: i32,
}

impl Split {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The evaluation, from the side to move's point of view.
pub fn evaluate(b: &Board) -> i32 {
    let mut phase = 0;
    let mut sides = [Split::default(); 2];
    for c in [Color::Red, Color::Black] {
        for k in Kind::ALL {
            let n = b.count(c, k) as i32;
            phase += PHASE[k.index()] * n;
            sides[c.index()].add(MATERIAL_MG[k.index()] * n, MATERIAL_EG[k.index()] * n);
        }
    }
    let phase = phase.min(MAX_PHASE);
    for c in [Color::Red, Color::Black] {
        let s = side_terms(b, c);
        sides[c.index()].add(s.mg, s.eg);
    }
    let red = sides[0];
    let black = sides[1];
    let mg = red.mg - black.mg;
    let eg = red.eg - black.eg;
    let score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let tempo = 10;
    match b.side_to_move() {
        Color::Red => score + tempo,
        Color::Black => -score + tempo,
    }
}

/// King safety weights: per missing advisor and enemy attacker, and the
/// square of the pressure on the enemy palace (middle game).
const KS_ADVISOR: i32 = 6;
const KS_PRESSURE: i32 = 3;

/// Everything but material for one side.
fn side_terms(b: &Board, us: Color) -> Split {
    let them = us.flip();
    let mut s = Split::default();
    let their_king = b.king(them);
    let our_king = b.king(us);
    let mut bb = b.occupancy(us);
    let mut palace_pressure = 0;
    while bb != 0 {
        let i = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        let sq = Square::from_index_unchecked(i);
        let Some(p) = b.piece_at(sq) else { continue };
        let rel = relative(sq, us);
        let v = pst(p.kind)[rel];
        match p.kind {
            Kind::Pawn => {
                // Advanced soldiers matter more as pieces come off.
                s.add(v, v + v / 2);
                if !sq.on_side_of(us) && (sq.file() as i32 - their_king.file() as i32).abs() <= 1 {
                    palace_pressure += 1;
                }
            }
            Kind::Rook => {
                let mob = ray_mobility(b, sq, false);
                s.add(v + 3 * mob, v + 4 * mob);
                if sq.file() == their_king.file() {
                    palace_pressure += 2;
                }
            }
            Kind::Cannon => {
                let mob = ray_mobility(b, sq, true);
                s.add(v + mob, v + mob);
                if sq.file() == their_king.file() {
                    // Screens between the cannon and the general.
                    let screens = pieces_between(b, sq, their_king);
                    match screens {
                        0 => s.add(60, 10), // a hollow cannon pins the centre
                        2 => s.add(20, 5),
                        _ => {}
                    }
                    palace_pressure += 1;
                }
            }
            Kind::Horse => {
                let mut mob = 0;
                for &(to, leg) in HORSE_STEPS[i].iter().take_while(|t| t.0 != NONE) {
                    if b.piece_at(Square::from_index_unchecked(leg as usize))
                        .is_none()
                    {
                        let target = b.piece_at(Square::from_index_unchecked(to as usize));
                        if target.is_none_or(|t| t.color != us) {
                            mob += 1;
                        }
                        if Square::from_index_unchecked(to as usize).in_palace(them) {
                            palace_pressure += 1;
                        }
                    }
                }
                s.add(v + 6 * mob - 12, v + 8 * mob - 16);
            }
            Kind::Advisor | Kind::Elephant | Kind::King => s.add(v, v),
        }
    }
    // King safety: missing defenders hurt against attackers.
    let advisors = b.count(us, Kind::Advisor) as i32;
    let elephants = b.count(us, Kind::Elephant) as i32;
    let attackers = (b.count(them, Kind::Rook) * 2
        + b.count(them, Kind::Horse)
        + b.count(them, Kind::Cannon)) as i32;
    s.add(
        -(2 - advisors) * attackers * KS_ADVISOR,
        -(2 - advisors) * attackers * 3,
    );
    s.add(
        -(2 - elephants) * b.count(them, Kind::Cannon) as i32 * 10,
        0,
    );
    if advisors == 2
        && b.piece_at(
            our_king
                .offset(0, if us == Color::Red { 1 } else { -1 })
                .unwrap_or(our_king),
        )
        .is_some_and(|p| p.kind == Kind::Advisor)
    {
        // Connected advisors guard each other through the palace centre.
        s.add(15, 5);
    }
    if elephants == 2 {
        s.add(15, 10);
    }
    // Pressure on the enemy palace, rising fast with more attackers.
    let p = palace_pressure.min(8);
    s.add(p * p * KS_PRESSURE, p * p);
    s
}

/// Points a rook (or a cannon, moving without capture) can reach, plus a
/// cannon's captures.
fn ray_mobility(b: &Board, sq: Square, cannon: bool) -> i32 {
    let mut n = 0;
    for ray in &RAYS[sq.index()] {
        let mut screened = false;
        for &to in ray.iter().take_while(|&&t| t != NONE) {
            let occupied = b
                .piece_at(Square::from_index_unchecked(to as usize))
                .is_some();
            if !screened {
                if occupied {
                    if cannon {
                        screened = true;
                        continue;
                    }
                    n += 1;
                    break;
                }
                n += 1;
            } else if occupied {
                n += 1;
                break;
            }
        }
    }
    n
}

/// Pieces strictly between two points of one file.
fn pieces_between(b: &Board, a: Square, z: Square) -> i32 {
    let (lo, hi) = if a.rank() < z.rank() {
        (a.rank(), z.rank())
    } else {
        (z.rank(), a.rank())
    };
    ((lo + 1)..hi)
        .filter(|&r| {
            Square::new(a.file(), r)
                .and_then(|s| b.piece_at(s))
                .is_some()
        })
        .count() as i32
}

/// Positions for `tengen bench --game xiangqi`: openings, middle games
/// and endings from the reference data's random games.
pub const BENCH_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "r1ba1ab1r/4k4/1cn1c1n2/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 8 6",
    "r2ak1bn1/9/b1n2a2r/2p3p1C/p6C1/P8/2P1P1PcP/8R/1R7/2BAKAB2 b - - 0 15",
    "1nbak4/9/5a2b/6p1p/9/2P4cP/R3P1P2/9/1C5r1/1N1AKABN1 b - - 2 18",
    "2ra1ar2/3nk4/b4C2b/pcP1p4/6pcp/2P3P2/P1R5P/8B/9/1NBAKA1NR b - - 4 19",
    "r1ba1ab2/4k4/2n2rn2/1Cp1p1pc1/p7p/2B3P2/P1P1P3P/3C5/8R/RcBAKA1N1 b - - 1 11",
    "2ba2bc1/4kCn2/5a3/6p1p/9/9/P1PN2P1R/R3B4/5K3/2BA1A1N1 w - - 1 20",
    "r2a1n1Cr/1c2ak3/b8/4p3p/p1p6/2P2p3/P7P/N3B4/4A2c1/2BAK3R b - - 4 23",
    "2b2ar2/3k5/4b1n2/p1p6/4p1p2/P1P3P1P/9/N5c2/4K4/6B2 w - - 1 38",
    "3k1a3/9/b3r4/P1C3p2/9/9/2PcP1P2/1R2BA3/4A4/3K2B2 w - - 3 26",
    "3a1k3/9/b8/r3p4/pR4b1p/9/4P1P1P/B8/4K4/5NB2 w - - 1 30",
    "3k1a3/9/n3b2n1/9/4p4/5p2r/9/9/4A4/5K3 b - - 17 41",
    "4k2Cc/9/9/2p6/p5P2/2P6/9/B2K5/9/6B2 w - - 3 30",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let b = Board::startpos();
        let red = evaluate(&b);
        let black =
            Board::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
                .unwrap();
        assert_eq!(red, evaluate(&black), "both sides see the same score");
        assert!(red.abs() < 50);
    }

    #[test]
    fn mirror_positions_score_alike() {
        // Swap colours and flip the board: the side to move's score stays.
        for fen in BENCH_FENS {
            let b = Board::from_fen(fen).unwrap();
            let m = Board::from_fen(&mirror(fen)).unwrap();
            assert_eq!(evaluate(&b), evaluate(&m), "{fen}");
        }
    }

    fn mirror(fen: &str) -> String {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let side = if fields.next() == Some("w") { "b" } else { "w" };
        let rows: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {side}", rows.join("/"))
    }

    #[test]
    fn extra_rook_wins() {
        let b = Board::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
            .unwrap();
        assert!(evaluate(&b) > 700);
    }

    #[test]
    fn bench_fens_are_valid() {
        for fen in BENCH_FENS {
            Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }
}
