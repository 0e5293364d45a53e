//! Line shapes of one point in one direction, read from a precomputed table.
//!
//! A shape depends only on the ten cells at distance 1..=5 on each side of
//! the point (each empty, own, or blocked by the opponent or the edge), so
//! every shape is computed once by brute force on a tiny line and looked up
//! afterwards. Five cells on each side are exactly what the rules need: a
//! straight four through the point ends at distance 4 at most, and its
//! completions are judged by the cell just beyond (distance 5).

use std::sync::OnceLock;

/// What a stone of one colour at a point makes on one line. Ordered by
/// strength so `max` picks the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    None = 0,
    /// One stone that can still grow into a five on this line.
    One,
    /// Two stones; some added stone makes a closed three.
    Two,
    /// Two stones; some added stone makes an open three.
    OpenTwo,
    /// Some added stone makes a (closed) four.
    Three,
    /// Some added stone makes a straight four: the shape a renju "three" has
    /// before the recursive forbidden-point check.
    OpenThree,
    /// Exactly one point completes a five.
    Four,
    /// Two completion points with four stones in a row between them.
    OpenFour,
    /// Two completion points on one line that are not a straight four
    /// (`X.X?X.X`): two fours at once, a renju double four.
    FourFour,
    /// Exactly five (or five or more where overlines win).
    Five,
    /// Six or more where overlines do not win.
    Overline,
}

impl Shape {
    const ALL: [Shape; 11] = [
        Shape::None,
        Shape::One,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::FourFour,
        Shape::Five,
        Shape::Overline,
    ];

    fn from_u8(v: u8) -> Shape {
        Shape::ALL.get(v as usize).copied().unwrap_or(Shape::None)
    }

    /// Counts as a four (one completion point at least).
    pub fn is_four(self) -> bool {
        matches!(self, Shape::Four | Shape::OpenFour | Shape::FourFour)
    }
}

/// Window cell states.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const BLOCK: u8 = 2;

/// Number of windows: 3^10.
pub const WINDOWS: usize = 59049;

/// Per rule mode (overline wins or not), the shape of every window.
struct Tables {
    long_wins: Vec<u8>,
    exact: Vec<u8>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

fn tables() -> &'static Tables {
    TABLES.get_or_init(|| Tables {
        long_wins: build(true),
        exact: build(false),
    })
}

/// Forces the tables to be built now (so the first search does not pay).
pub fn init() {
    let _ = tables();
}

/// The shape of window `code` (see [`window_code`]).
#[inline]
pub fn lookup(code: usize, long_wins: bool) -> Shape {
    let t = tables();
    let v = if long_wins {
        t.long_wins.get(code)
    } else {
        t.exact.get(code)
    };
    Shape::from_u8(v.copied().unwrap_or(0))
}

/// The whole table of one rule mode: `Shape` discriminants by window code.
pub fn table(long_wins: bool) -> &'static [u8] {
    let t = tables();
    if long_wins {
        &t.long_wins
    } else {
        &t.exact
    }
}

/// The shape of a discriminant read from [`table`].
#[inline]
pub fn shape_of(v: u8) -> Shape {
    Shape::from_u8(v)
}

/// Base-3 digit weights of the ten window cells, ordered from distance -5
/// to -1 then +1 to +5.
pub const POW3: [usize; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

fn build(long_wins: bool) -> Vec<u8> {
    let mut out = vec![0u8; WINDOWS];
    for (code, slot) in out.iter_mut().enumerate() {
        let mut line = [BLOCK; 11];
        let mut c = code;
        for k in 0..10 {
            let cell = (c % 3) as u8;
            c /= 3;
            let pos = if k < 5 { k } else { k + 1 };
            line[pos] = cell;
        }
        line[5] = OWN;
        *slot = classify(&mut line, 5, long_wins, 2) as u8;
    }
    out
}

/// Length of the run of own stones through `p`.
fn run(line: &[u8; 11], p: usize) -> (usize, usize) {
    let mut a = p;
    while a > 0 && line[a - 1] == OWN {
        a -= 1;
    }
    let mut b = p;
    while b < 10 && line[b + 1] == OWN {
        b += 1;
    }
    (a, b)
}

fn is_five(line: &[u8; 11], p: usize, long_wins: bool) -> bool {
    let (a, b) = run(line, p);
    let len = b - a + 1;
    len == 5 || (long_wins && len > 5)
}

/// Completion points: empty cells that, filled, make a five through `p`.
fn five_points(line: &mut [u8; 11], p: usize, long_wins: bool) -> ([usize; 2], usize) {
    let mut pts = [0usize; 2];
    let mut n = 0;
    for q in 0..11 {
        if line[q] != EMPTY {
            continue;
        }
        line[q] = OWN;
        let (a, b) = run(line, q);
        let hit = a <= p && p <= b && is_five(line, q, long_wins);
        line[q] = EMPTY;
        if hit && n < 2 {
            pts[n] = q;
            n += 1;
        }
    }
    (pts, n)
}

/// The shape of the own stone at `p` (already placed). `depth` bounds the
/// look-ahead used for threes and twos.
fn classify(line: &mut [u8; 11], p: usize, long_wins: bool, depth: u32) -> Shape {
    let (a, b) = run(line, p);
    let len = b - a + 1;
    if len == 5 || (long_wins && len > 5) {
        return Shape::Five;
    }
    if len > 5 {
        return Shape::Overline;
    }
    let (pts, n) = five_points(line, p, long_wins);
    match n {
        2 if pts[1] - pts[0] == 5 => return Shape::OpenFour,
        2 => return Shape::FourFour,
        1 => return Shape::Four,
        _ => {}
    }
    if depth == 0 {
        return Shape::None;
    }
    // Look one stone ahead: the best shape an added stone makes.
    let mut best = Shape::None;
    for q in 0..11 {
        if line[q] != EMPTY || q.abs_diff(p) > 4 {
            continue;
        }
        line[q] = OWN;
        let s = classify(line, p, long_wins, depth - 1);
        line[q] = EMPTY;
        let promoted = match s {
            Shape::OpenFour => Shape::OpenThree,
            Shape::Four | Shape::FourFour => Shape::Three,
            Shape::OpenThree => Shape::OpenTwo,
            Shape::Three => Shape::Two,
            _ => Shape::None,
        };
        best = best.max(promoted);
    }
    if best == Shape::None && can_reach_five(line, p) {
        return Shape::One;
    }
    best
}

/// Some five-cell window through `p` holds no blocked cell.
fn can_reach_five(line: &[u8; 11], p: usize) -> bool {
    (p.saturating_sub(4)..=p).any(|s| s + 4 <= 10 && (s..s + 5).all(|i| line[i] != BLOCK))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(s: &str) -> usize {
        // `s` is 11 chars with '?' in the middle: . empty, x own, o blocked.
        let cells: Vec<u8> = s
            .chars()
            .map(|c| match c {
                '.' => EMPTY,
                'x' | '?' => OWN,
                _ => BLOCK,
            })
            .collect();
        let mut code = 0;
        let mut k = 0;
        for (i, &c) in cells.iter().enumerate() {
            if i == 5 {
                continue;
            }
            code += c as usize * POW3[k];
            k += 1;
        }
        code
    }

    #[test]
    fn shapes() {
        assert_eq!(lookup(code_of(".xxx?x....."), false), Shape::Five);
        assert_eq!(lookup(code_of("xxxx?x....."), false), Shape::Overline);
        assert_eq!(lookup(code_of("xxxx?x....."), true), Shape::Five);
        assert_eq!(lookup(code_of("...xx?x...."), false), Shape::OpenFour);
        assert_eq!(lookup(code_of("..ox.?xx..."), false), Shape::Four);
        assert_eq!(lookup(code_of("..x.x?x.x.."), false), Shape::FourFour);
        assert_eq!(lookup(code_of("....x?x...."), false), Shape::OpenThree);
        assert_eq!(lookup(code_of("...ox?x...."), false), Shape::Three);
        assert_eq!(lookup(code_of(".....?x...."), false), Shape::OpenTwo);
        assert_eq!(lookup(code_of(".....?....."), false), Shape::One);
        assert_eq!(lookup(code_of("oooo.?.oooo"), false), Shape::None);
        // Black's straight four would become an overline on one side only:
        // still a four, not an open one.
        assert_eq!(lookup(code_of("..x.x?xx..."), false), Shape::Four);
    }
}
