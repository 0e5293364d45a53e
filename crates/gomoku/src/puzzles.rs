//! VCF puzzles: positions from seeded random play, labelled by a plain
//! brute-force solver that shares nothing with the threat search (no shape
//! tables, no candidate pruning: every empty point is tried, every five is
//! found by counting stones). Used by the tests and the VCF benchmark.

use crate::board::{Board, Point, Rule};

/// A tiny freestyle board of its own: 0 empty, 1 black, 2 white.
#[derive(Clone)]
pub struct Grid {
    pub n: usize,
    pub cells: Vec<u8>,
}

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Grid {
    pub fn new(n: usize) -> Self {
        Grid {
            n,
            cells: vec![0; n * n],
        }
    }

    fn get(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= self.n as i32 || y >= self.n as i32 {
            3
        } else {
            self.cells[y as usize * self.n + x as usize]
        }
    }

    /// Whether the stone of `c` at (x, y) stands in a row of five or more.
    fn five_at(&self, x: i32, y: i32, c: u8) -> bool {
        DIRS.iter().any(|&(dx, dy)| {
            let mut len = 1;
            let mut k = 1;
            while self.get(x + k * dx, y + k * dy) == c {
                len += 1;
                k += 1;
            }
            k = 1;
            while self.get(x - k * dx, y - k * dy) == c {
                len += 1;
                k += 1;
            }
            len >= 5
        })
    }

    /// Every empty point where `c` would complete a five.
    pub fn five_points(&mut self, c: u8) -> Vec<usize> {
        let mut out = Vec::new();
        for i in 0..self.cells.len() {
            if self.cells[i] != 0 {
                continue;
            }
            self.cells[i] = c;
            if self.five_at((i % self.n) as i32, (i / self.n) as i32, c) {
                out.push(i);
            }
            self.cells[i] = 0;
        }
        out
    }

    /// The empty points on the lines through `m` (within four steps) where
    /// `c` would complete a five: the only new fives a stone at `m` makes.
    fn five_points_near(&mut self, m: usize, c: u8) -> Vec<usize> {
        let (mx, my) = ((m % self.n) as i32, (m / self.n) as i32);
        let mut out = Vec::new();
        for (dx, dy) in DIRS {
            for k in (-4..=-1).chain(1..=4) {
                let (x, y) = (mx + k * dx, my + k * dy);
                if self.get(x, y) != 0 {
                    continue;
                }
                let i = y as usize * self.n + x as usize;
                self.cells[i] = c;
                if self.five_at(x, y, c) && !out.contains(&i) {
                    out.push(i);
                }
                self.cells[i] = 0;
            }
        }
        out
    }

    /// Brute-force VCF for `a` (to move) within `depth` attacking moves:
    /// an immediate five, or a four (after which the defender must take
    /// the single completion point, unless there are two) leading to a VCF.
    pub fn vcf(&mut self, a: u8, depth: u32) -> bool {
        let d = 3 - a;
        if !self.five_points(a).is_empty() {
            return true;
        }
        let theirs = self.five_points(d);
        if theirs.len() >= 2 || depth == 0 {
            return false;
        }
        let moves: Vec<usize> = if theirs.len() == 1 {
            theirs
        } else {
            (0..self.cells.len())
                .filter(|&i| self.cells[i] == 0)
                .collect()
        };
        for m in moves {
            self.cells[m] = a;
            let f = self.five_points_near(m, a);
            let win = match f.len() {
                0 => false,
                1 => {
                    let block = f[0];
                    self.cells[block] = d;
                    let lost = self.five_at((block % self.n) as i32, (block / self.n) as i32, d);
                    let r = !lost && self.vcf(a, depth - 1);
                    self.cells[block] = 0;
                    r
                }
                _ => true,
            };
            self.cells[m] = 0;
            if win {
                return true;
            }
        }
        false
    }
}

/// A puzzle: stones in play order from black, the side to move attacks.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub moves: Vec<Point>,
    /// Whether a VCF of at most `depth` attacking moves exists.
    pub vcf: bool,
    pub depth: u32,
}

impl Puzzle {
    pub fn board(&self) -> Board {
        let mut b = match Board::new(15, 15, Rule::Freestyle) {
            Ok(b) => b,
            Err(_) => unreachable!("15x15 is a valid size"),
        };
        for &p in &self.moves {
            let c = b.to_move();
            let _ = b.place(p, c);
        }
        b
    }
}

/// `count` freestyle positions from seeded random play near the centre,
/// with no five on the board and none available at once, labelled by the
/// brute-force solver at `depth`.
pub fn generate(seed: u64, count: usize, depth: u32) -> Vec<Puzzle> {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Grid::new(15);
        let mut moves = Vec::new();
        let len = 14 + (next() % 16) as usize;
        let mut ok = true;
        for i in 0..len {
            let c = if i % 2 == 0 { 1 } else { 2 };
            // Random point within 4 of the centre, empty.
            let mut tries = 0;
            loop {
                let x = 3 + (next() % 9) as usize;
                let y = 3 + (next() % 9) as usize;
                let idx = y * 15 + x;
                if g.cells[idx] == 0 {
                    g.cells[idx] = c;
                    if g.five_at(x as i32, y as i32, c) {
                        ok = false;
                    }
                    if let Some(p) = Point::new(x, y) {
                        moves.push(p);
                    }
                    break;
                }
                tries += 1;
                if tries > 200 {
                    ok = false;
                    break;
                }
            }
            if !ok {
                break;
            }
        }
        if !ok {
            continue;
        }
        let a = if moves.len() % 2 == 0 { 1 } else { 2 };
        // Skip trivial ones: a five on the spot, or a four to answer.
        if !g.five_points(a).is_empty() || !g.five_points(3 - a).is_empty() {
            continue;
        }
        let vcf = g.vcf(a, depth);
        out.push(Puzzle { moves, vcf, depth });
    }
    out
}

/// The first `count` puzzles of [`generate`] whose shortest VCF needs
/// at least `min_depth` and at most `depth` attacking moves.
pub fn vcf_set(seed: u64, count: usize, min_depth: u32, depth: u32) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut s = seed;
    while out.len() < count {
        for p in generate(s, 40, depth).into_iter().filter(|p| p.vcf) {
            let b = p.board();
            let mut g = Grid::new(15);
            for (i, q) in p.moves.iter().enumerate() {
                g.cells[q.y as usize * 15 + q.x as usize] = if i % 2 == 0 { 1 } else { 2 };
            }
            let a = if b.to_move() == crate::board::Color::Black {
                1
            } else {
                2
            };
            if min_depth <= 1 || !g.vcf(a, min_depth - 1) {
                out.push(p);
            }
        }
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }
    out.truncate(count);
    out
}

/// Plays a VCF line out on `b` and says whether it ends in a win for the
/// side to move: a five, or two completion points the defender (to move,
/// with no five of its own) cannot both take.
pub fn line_wins(b: &Board, line: &[crate::board::Sq]) -> bool {
    let mut b = b.clone();
    let a = b.to_move();
    for &sq in line {
        if !b.is_empty(sq) {
            return false;
        }
        b.make(sq);
    }
    let five = matches!(b.outcome(), crate::board::Outcome::Win(c, _) if c == a);
    five || (b.outcome() == crate::board::Outcome::Ongoing
        && b.to_move() != a
        && crate::threat::five_points(&b, a, None).len() >= 2
        && crate::threat::five_points(&b, b.to_move(), None).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threat::ThreatSearch;

    /// Every labelled puzzle: the threat search finds a VCF exactly when
    /// the brute force does, and its line plays out to a win.
    #[test]
    fn vcf_agrees_with_brute_force() {
        let puzzles = generate(0x5eed, 160, 3);
        let wins = puzzles.iter().filter(|p| p.vcf).count();
        assert!(wins >= 10, "only {wins} puzzles with a VCF");
        assert!(wins < puzzles.len(), "no negative cases");
        for (i, p) in puzzles.iter().enumerate() {
            let mut b = p.board();
            let mut ts = ThreatSearch::new(u64::MAX);
            let line = ts.vcf(&mut b, p.depth);
            assert_eq!(line.is_some(), p.vcf, "puzzle {i}: {:?}", p.moves);
            if let Some(line) = line {
                assert!(line_wins(&b, &line), "puzzle {i}: line does not win");
            }
        }
    }
}
