//! Whether a dragon is surrounded, in GNU Go's sense (GNU Go manual,
//! "Surrounded Dragons"; the code is tengen's own, written from the
//! manual's description and tuned by comparing with `gnugo --mode gtp`,
//! see tests/test_gtp_surround.py and docs/go.md).
//!
//! The surround set: the opponent stones within `REACH` steps of the
//! dragon (steps through empty points and the dragon's own colour), and,
//! for each of them on the second or third line, the points between it
//! and its nearest edge (the edge is a natural barrier) unless one holds
//! a stone of the dragon's colour. (GNU Go takes the stones of the
//! opponent dragons next to it and drops those that two others hide;
//! tengen's attempts at that rule agreed less, see docs/go.md.) The dragon is
//! surrounded when every stone of it lies inside the convex hull of that
//! set; then the gaps between neighbouring members of the set, taken in
//! order of angle around the dragon's centre, decide how well: a gap
//! wider than `WEAK_GAP` makes it weakly surrounded, wider than
//! `OPEN_GAP` not surrounded. The map (`surround_map`) is 1 inside the
//! hull (and on it), 2 on the points outside that touch it, 0 elsewhere.

use crate::board::{Board, Cell, Color, Point};
use crate::dragon::Dragons;

/// How far (in steps) the opponent stones of the surround set may be.
pub const REACH: usize = 4;
/// A gap (squared distance) wider than this: weakly surrounded.
pub const WEAK_GAP: i64 = 25;
/// A gap (squared distance) wider than this: not surrounded.
pub const OPEN_GAP: i64 = 50;

/// How surrounded a dragon is (GNU Go's `is_surrounded` numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surround {
    No = 0,
    Surrounded = 1,
    Weakly = 2,
}

/// The surround analysis of one dragon.
pub struct SurroundMap {
    /// The board's width and height.
    dims: (usize, usize),
    /// 0, 1 or 2 per point (see the module text).
    map: Vec<u8>,
    pub status: Surround,
}

impl SurroundMap {
    /// The value of the map at `p`.
    pub fn at(&self, p: Point) -> u8 {
        self.map[p.index()]
    }

    /// Points inside the hull.
    pub fn inside(&self) -> usize {
        self.map.iter().filter(|&&v| v == 1).count()
    }

    /// The analysed board's width and height.
    pub fn dims(&self) -> (usize, usize) {
        self.dims
    }
}

fn xy(p: Point) -> (i64, i64) {
    (p.x() as i64, p.y() as i64)
}

fn cross(o: (i64, i64), a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// The convex hull, counter-clockwise, without collinear points.
fn hull(mut pts: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    pts.sort();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut lower: Vec<(i64, i64)> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<(i64, i64)> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Whether `p` lies inside the hull `h` (counter-clockwise) or on it.
fn in_hull(h: &[(i64, i64)], p: (i64, i64)) -> bool {
    match h.len() {
        0 => false,
        1 => h[0] == p,
        2 => {
            cross(h[0], h[1], p) == 0
                && p.0 >= h[0].0.min(h[1].0)
                && p.0 <= h[0].0.max(h[1].0)
                && p.1 >= h[0].1.min(h[1].1)
                && p.1 <= h[0].1.max(h[1].1)
        }
        n => (0..n).all(|i| cross(h[i], h[(i + 1) % n], p) >= 0),
    }
}

/// The opponent stones within `reach` steps of `stones` (steps through
/// empty points and stones of colour `c`), `extra` counting as one.
fn near_stones(
    b: &Board,
    stones: &[Point],
    c: Color,
    extra: Option<Point>,
    reach: usize,
) -> Vec<Point> {
    let mut seen = vec![false; b.slots()];
    let mut frontier: Vec<Point> = stones.to_vec();
    for &s in stones {
        seen[s.index()] = true;
    }
    let mut set = Vec::new();
    for _ in 0..reach {
        let mut next = Vec::new();
        for &p in &frontier {
            for q in b.neighbors(p) {
                let cell = b.cell(q);
                if cell == Cell::Edge || seen[q.index()] {
                    continue;
                }
                seen[q.index()] = true;
                if cell.color() == Some(c.opp()) || extra == Some(q) {
                    set.push(q);
                } else {
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    set
}

/// The surround set of dragon `i` (with an opponent stone on `extra`):
/// the opponent stones within `REACH` steps, and the points between such
/// a stone on the second or third line and its nearest edge (both edges
/// in a corner at equal distance), unless one of them holds a stone of
/// the dragon's colour.
fn surround_set(b: &Board, dragons: &Dragons, i: usize, extra: Option<Point>) -> Vec<(i64, i64)> {
    let d = &dragons.all()[i];
    let c = d.color;
    let mut kept = near_stones(b, &d.stones, c, extra, REACH);
    kept.extend(extra);
    kept.sort();
    kept.dedup();
    let (last_x, last_y) = (b.width() as i64 - 1, b.height() as i64 - 1);
    let mut pts: Vec<(i64, i64)> = Vec::new();
    for s in kept {
        let (x, y) = xy(s);
        pts.push((x, y));
        // Towards each edge two or three lines away, the points between.
        let nearest = [x, y, last_x - x, last_y - y]
            .into_iter()
            .min()
            .unwrap_or(0);
        for (v, last, dir_x) in [(x, last_x, true), (y, last_y, false)] {
            for (to_edge, step) in [(v, -1i64), (last - v, 1)] {
                if (1..=2).contains(&to_edge) && to_edge == nearest {
                    let under: Vec<(i64, i64)> = (1..=to_edge)
                        .map(|k| {
                            if dir_x {
                                (x + step * k, y)
                            } else {
                                (x, y + step * k)
                            }
                        })
                        .collect();
                    let own = |&(ux, uy): &(i64, i64)| {
                        b.cell(Point::from_xy(ux as usize, uy as usize)).color() == Some(c)
                    };
                    if !under.iter().any(own) {
                        pts.extend(under);
                    }
                }
            }
        }
    }
    pts
}

/// The largest squared distance between members of `pts` that follow
/// each other by angle around `centre`.
fn widest_gap(pts: &[(i64, i64)], centre: (f64, f64)) -> i64 {
    let mut by_angle: Vec<(f64, (i64, i64))> = pts
        .iter()
        .map(|&(x, y)| ((y as f64 - centre.1).atan2(x as f64 - centre.0), (x, y)))
        .collect();
    by_angle.sort_by(|a, b| a.0.total_cmp(&b.0));
    by_angle.dedup_by(|a, b| a.1 == b.1);
    let n = by_angle.len();
    (0..n)
        .map(|i| {
            let (a, b) = (by_angle[i].1, by_angle[(i + 1) % n].1);
            (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2)
        })
        .max()
        .unwrap_or(0)
}

/// The surround analysis of dragon `i`.
pub fn analyse(b: &Board, dragons: &Dragons, i: usize) -> SurroundMap {
    analyse_with(b, dragons, i, None)
}

/// The analysis with an opponent stone added on the empty point `extra`
/// (GNU Go's `does_surround`).
pub fn analyse_with(b: &Board, dragons: &Dragons, i: usize, extra: Option<Point>) -> SurroundMap {
    let slots = b.slots();
    let stones = &dragons.all()[i].stones;
    let k = stones.len() as f64;
    let centre = (
        stones.iter().map(|&s| s.x() as f64).sum::<f64>() / k,
        stones.iter().map(|&s| s.y() as f64).sum::<f64>() / k,
    );
    let pts = surround_set(b, dragons, i, extra);
    let h = hull(pts.clone());
    let mut map = vec![0u8; slots];
    for p in b.points() {
        if in_hull(&h, xy(p)) {
            map[p.index()] = 1;
        }
    }
    for p in b.points() {
        if map[p.index()] == 0
            && b.neighbors(p)
                .iter()
                .any(|&q| b.cell(q) != Cell::Edge && map[q.index()] == 1)
        {
            map[p.index()] = 2;
        }
    }
    let inside = h.len() >= 3 && stones.iter().all(|&s| map[s.index()] == 1);
    let status = if !inside {
        Surround::No
    } else {
        let gap = widest_gap(&pts, centre);
        if gap > OPEN_GAP {
            Surround::No
        } else if gap > WEAK_GAP {
            Surround::Weakly
        } else {
            Surround::Surrounded
        }
    };
    SurroundMap {
        dims: (b.width(), b.height()),
        map,
        status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{from_rows, point};

    #[test]
    fn four_stones_on_the_third_line_surround_the_centre() {
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . O . . . O . .",
            ". . . . . . . . .",
            ". . . . X . . . .",
            ". . . . . . . . .",
            ". . O . . . O . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        let e5 = point("E5", 9);
        let d = Dragons::new(&b, 1000);
        let s = analyse(&b, &d, d.index_of(e5).unwrap());
        assert_eq!(s.status, Surround::Surrounded);
        // Out to the edges below the third-line stones; the corners stay
        // outside, the points next to the hull are 2.
        assert_eq!(s.at(point("E9", 9)), 1);
        assert_eq!(s.at(point("A7", 9)), 1);
        assert_eq!(s.at(point("A8", 9)), 2);
        assert_eq!(s.at(point("A9", 9)), 0);
        assert_eq!(s.inside(), 69);
    }

    #[test]
    fn a_lone_stone_is_not_surrounded() {
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . X . . . .",
            ". . . . . . . . .",
            ". . . . . . O . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        let d = Dragons::new(&b, 1000);
        let s = analyse(&b, &d, d.index_of(point("E5", 9)).unwrap());
        assert_eq!(s.status, Surround::No);
    }
}
