//! GNU Go's worm data: for every string ("worm") the fields GNU Go 3.8's
//! `worm_data` prints that follow from the board alone, computed to its
//! definitions (GNU Go manual, "Worms"; checked against `gnugo --mode gtp`
//! on game positions, see tests/test_gtp_worm.py):
//!
//! - `origin`: the worm's first stone in GNU Go's board order (rows from the
//!   top, each left to right); an empty point is its own origin;
//! - `size`, `liberties`;
//! - `effective_size`: the stones plus half of every empty point within
//!   four steps (through empty points) of the worm that no other worm
//!   reaches in fewer steps, shared equally among the worms at the same
//!   distance; summed in single precision in board order, as GNU Go sums;
//! - `liberties2`..`liberties4`: empty points that `n` stones of the
//!   worm's colour, no fewer, join to it, the path running through other
//!   strings of that colour; a stone beyond the first step may not touch
//!   the opponent, and the path may not go on through a liberty that an
//!   opponent's capture would make a ko or that is flanked on opposite
//!   sides by opponent stones or the edge;
//! - `genus`: the connected parts of the board without the worm, less one.
//!
//! `cutstone` (2: next to two opponent strings without a common liberty,
//! 1: next to two that share one) follows the manual's definition; GNU Go's
//! own choice among three or more opponent strings differs in a few
//! percent of the worms (documented in docs/go.md). The judgements (attack
//! and defence, lunch, inessential) need a reader and live with the GTP
//! front-end.

use crate::board::{Board, Cell, Color, Point};

/// The board-only fields of one point's worm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WormInfo {
    pub origin: Point,
    pub color: Option<Color>,
    pub size: usize,
    pub effective_size: f32,
    /// Liberties of order 1 to 4.
    pub liberties: [usize; 4],
    pub genus: usize,
    pub cutstone: u8,
}

/// The worm fields of every point of a board.
#[derive(Clone, Debug)]
pub struct Worms {
    info: Vec<Option<WormInfo>>,
}

/// How far (in steps through empty points) `effective_size` looks.
const EFFECTIVE_REACH: u8 = 4;

/// GNU Go's board order: rows from the top, each left to right.
pub fn board_order(b: &Board) -> Vec<Point> {
    let w = b.width();
    (0..b.height())
        .rev()
        .flat_map(|y| (0..w).map(move |x| Point::from_xy(x, y)))
        .collect()
}

fn slots(b: &Board) -> usize {
    b.slots()
}

impl Worms {
    pub fn new(b: &Board) -> Worms {
        let len = slots(b);
        let order = board_order(b);
        // Origins: the first stone of each chain in board order.
        let mut origin_of_chain = std::collections::HashMap::new();
        let mut origin = vec![None; len];
        for &p in &order {
            if b.cell(p).color().is_some() {
                let o = *origin_of_chain.entry(b.chain_id(p)).or_insert(p);
                origin[p.index()] = Some(o);
            } else {
                origin[p.index()] = Some(p);
            }
        }
        let eff = effective_sizes(b, &order, &origin);
        let mut info = vec![None; len];
        let mut per_origin: std::collections::HashMap<Point, WormInfo> =
            std::collections::HashMap::new();
        for &p in &order {
            let Some(o) = origin[p.index()] else { continue };
            let w = match b.cell(p).color() {
                None => WormInfo {
                    origin: p,
                    color: None,
                    size: 0,
                    effective_size: 0.0,
                    liberties: [0; 4],
                    genus: 0,
                    cutstone: 0,
                },
                Some(c) => *per_origin.entry(o).or_insert_with(|| {
                    let stones = b.chain_stones(o);
                    WormInfo {
                        origin: o,
                        color: Some(c),
                        size: stones.len(),
                        effective_size: eff[o.index()],
                        liberties: higher_liberties(b, &stones, c),
                        genus: genus(b, &stones),
                        cutstone: cutstone(b, &stones, c),
                    }
                }),
            };
            info[p.index()] = Some(w);
        }
        Worms { info }
    }

    /// The fields of `p`'s worm (`p` on the board).
    pub fn get(&self, p: Point) -> Option<&WormInfo> {
        self.info.get(p.index()).and_then(|w| w.as_ref())
    }
}

/// Effective sizes per origin index.
fn effective_sizes(b: &Board, order: &[Point], origin: &[Option<Point>]) -> Vec<f32> {
    let len = origin.len();
    // Multi-source breadth-first search from every stone through empty
    // points; each point keeps the worms that reach it first.
    let mut dist = vec![u8::MAX; len];
    let mut owners: Vec<Vec<Point>> = vec![Vec::new(); len];
    let mut frontier = Vec::new();
    for &p in order {
        if b.cell(p).color().is_some() {
            dist[p.index()] = 0;
            if let Some(o) = origin[p.index()] {
                owners[p.index()].push(o);
            }
            frontier.push(p);
        }
    }
    for d in 1..=EFFECTIVE_REACH {
        let mut next = Vec::new();
        for &p in &frontier {
            for q in b.neighbors(p) {
                if b.cell(q) != Cell::Empty {
                    continue;
                }
                let qi = q.index();
                if dist[qi] == u8::MAX {
                    dist[qi] = d;
                    next.push(q);
                }
                if dist[qi] == d {
                    let from = owners[p.index()].clone();
                    for o in from {
                        if !owners[qi].contains(&o) {
                            owners[qi].push(o);
                        }
                    }
                }
            }
        }
        frontier = next;
    }
    let mut eff = vec![0f32; len];
    for &p in order {
        let pi = p.index();
        if b.cell(p).color().is_some() {
            if let Some(o) = origin[pi] {
                eff[o.index()] = (f64::from(eff[o.index()]) + 1.0) as f32;
            }
        } else if !owners[pi].is_empty() {
            let share = 0.5 / owners[pi].len() as f64;
            for o in &owners[pi] {
                eff[o.index()] = (f64::from(eff[o.index()]) + share) as f32;
            }
        }
    }
    eff
}

/// Would `mover`'s stone at the empty `q` be a ko capture: every neighbour
/// an opponent stone and exactly one stone taken?
fn is_ko_capture(b: &Board, q: Point, mover: Color) -> bool {
    let ns = b.neighbors(q);
    if ns
        .iter()
        .any(|&r| b.cell(r) != Cell::Edge && b.cell(r).color() != Some(mover.opp()))
    {
        return false;
    }
    let mut taken: Vec<Point> = Vec::new();
    for &r in &ns {
        if b.cell(r).color() == Some(mover.opp()) && b.atari_liberty(r) == Some(q) {
            for s in b.chain_stones(r) {
                if !taken.contains(&s) {
                    taken.push(s);
                }
            }
        }
    }
    taken.len() == 1
}

/// Liberties of order 1..4 of the string `stones` of colour `c`.
fn higher_liberties(b: &Board, stones: &[Point], c: Color) -> [usize; 4] {
    let len = slots(b);
    let opp = c.opp();
    let mut dist = vec![0u8; len];
    let mut joined = vec![false; len];
    for s in stones {
        joined[s.index()] = true;
    }
    let mut frontier: Vec<Point> = Vec::new();
    for &s in stones {
        for q in b.neighbors(s) {
            if b.cell(q) == Cell::Empty && dist[q.index()] == 0 {
                dist[q.index()] = 1;
                frontier.push(q);
            }
        }
    }
    let mut counts = [frontier.len(), 0, 0, 0];
    let blocker = |q: Point| b.cell(q) == Cell::Edge || b.cell(q).color() == Some(opp);
    let touches_opp = |q: Point| {
        b.neighbors(q)
            .iter()
            .any(|&r| b.cell(r).color() == Some(opp))
    };
    for n in 1..4u8 {
        let mut next = Vec::new();
        for &q in &frontier {
            if n == 1 {
                let [down, left, right, up] = b.neighbors(q);
                if (blocker(left) && blocker(right))
                    || (blocker(down) && blocker(up))
                    || is_ko_capture(b, q, opp)
                {
                    continue;
                }
            }
            let mut candidates = Vec::new();
            for r in b.neighbors(q) {
                match b.cell(r).color() {
                    None if b.cell(r) == Cell::Empty => candidates.push(r),
                    Some(col) if col == c && !joined[r.index()] => {
                        for s in b.chain_stones(r) {
                            joined[s.index()] = true;
                            for t in b.neighbors(s) {
                                if b.cell(t) == Cell::Empty {
                                    candidates.push(t);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            for r in candidates {
                if dist[r.index()] == 0 && !touches_opp(r) {
                    dist[r.index()] = n + 1;
                    next.push(r);
                }
            }
        }
        counts[n as usize] = next.len();
        frontier = next;
    }
    counts
}

/// Connected parts of the board without `stones`, less one.
fn genus(b: &Board, stones: &[Point]) -> usize {
    let len = slots(b);
    let mut seen = vec![false; len];
    for s in stones {
        seen[s.index()] = true;
    }
    let mut parts: usize = 0;
    for p in b.points() {
        if seen[p.index()] {
            continue;
        }
        parts += 1;
        seen[p.index()] = true;
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            for r in b.neighbors(q) {
                if b.cell(r) != Cell::Edge && !seen[r.index()] {
                    seen[r.index()] = true;
                    stack.push(r);
                }
            }
        }
    }
    parts.saturating_sub(1)
}

/// The opponent strings next to `stones`, one stone of each.
pub fn adjacent_opponents(b: &Board, stones: &[Point], c: Color) -> Vec<Point> {
    let mut ids = Vec::new();
    let mut out = Vec::new();
    for &s in stones {
        for r in b.neighbors(s) {
            if b.cell(r).color() == Some(c.opp()) && !ids.contains(&b.chain_id(r)) {
                ids.push(b.chain_id(r));
                out.push(r);
            }
        }
    }
    out
}

/// 2 when two opponent strings next to the worm share no liberty, 1 when
/// two (and no such pair) share one, 0 with fewer than two.
fn cutstone(b: &Board, stones: &[Point], c: Color) -> u8 {
    let libs: Vec<Vec<Point>> = adjacent_opponents(b, stones, c)
        .into_iter()
        .map(|p| b.liberties(p))
        .collect();
    let mut best = 0;
    for i in 0..libs.len() {
        for j in i + 1..libs.len() {
            let common = libs[i].iter().any(|l| libs[j].contains(l));
            best = best.max(if common { 1 } else { 2 });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_vertex, Move};

    fn board(moves: &[(&str, &str)], size: usize) -> Board {
        let mut b = Board::new(size);
        for &(c, v) in moves {
            let c = Color::parse(c).expect("colour");
            let Some(Move::Play(p)) = parse_vertex(v, size) else {
                panic!("{v}")
            };
            b.play(c, Move::Play(p));
        }
        b
    }

    use crate::board::test_util::point as at;

    // The expected numbers are GNU Go 3.8's `worm_data` on the same
    // positions.
    #[test]
    fn lone_stones_as_gnugo() {
        let b = board(&[("b", "E5")], 9);
        let w = Worms::new(&b);
        let e5 = w.get(at("E5", 9)).copied().expect("worm");
        assert_eq!(format!("{:.2}", e5.effective_size), "21.00");
        assert_eq!(e5.liberties[0], 4);
        let b = board(&[("b", "A1")], 9);
        let a1 = Worms::new(&b).get(at("A1", 9)).copied().expect("worm");
        assert_eq!(format!("{:.2}", a1.effective_size), "8.00");
        let b = board(&[("b", "E5"), ("w", "E7")], 9);
        let w = Worms::new(&b);
        let e5 = w.get(at("E5", 9)).copied().expect("worm");
        let e7 = w.get(at("E7", 9)).copied().expect("worm");
        assert_eq!(format!("{:.2}", e5.effective_size), "14.75");
        assert_eq!(format!("{:.2}", e7.effective_size), "12.75");
    }

    #[test]
    fn higher_liberties_and_cuts_as_gnugo() {
        // GNU Go: E5 origin E5, liberties 2, 6, 9, 12, cutstone 1.
        let b = board(
            &[
                ("b", "E5"),
                ("w", "D5"),
                ("b", "D4"),
                ("w", "E4"),
                ("b", "C5"),
                ("w", "F5"),
                ("b", "D6"),
            ],
            9,
        );
        let w = Worms::new(&b);
        let e5 = w.get(at("E5", 9)).copied().expect("worm");
        assert_eq!(e5.liberties, [2, 6, 9, 12]);
        assert_eq!(e5.cutstone, 1);
        assert_eq!(format!("{:.2}", e5.effective_size), "2.12");
        // An empty point is its own worm with nothing in it.
        let d5 = w.get(at("D5", 9)).copied().expect("point");
        assert_eq!((d5.origin, d5.size, d5.color), (at("D5", 9), 0, None));
    }

    #[test]
    fn origin_is_the_top_left_stone_and_genus_counts_eyes() {
        // A ring of black stones around E5: one eye, genus 1.
        let ring = ["D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"];
        let moves: Vec<(&str, &str)> = ring.iter().map(|&v| ("b", v)).collect();
        let b = board(&moves, 9);
        let w = Worms::new(&b);
        let f4 = w.get(at("F4", 9)).copied().expect("worm");
        assert_eq!(f4.origin, at("D6", 9));
        assert_eq!(f4.size, 8);
        assert_eq!(f4.genus, 1);
        // A liberty flanked by the edge and a white stone is no way out:
        // E9 and G9 lead nowhere, F7 on to F6 only (E7 and G7 touch white).
        let b = board(&[("b", "F9"), ("b", "F8"), ("w", "G8"), ("w", "E8")], 9);
        let f9 = Worms::new(&b).get(at("F9", 9)).copied().expect("worm");
        assert_eq!(f9.liberties, [3, 1, 3, 5]);
    }
}
