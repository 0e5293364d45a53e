//! 3x3 patterns around a candidate point (the MoGo shapes: hane, cut,
//! edge blocks), used by playouts and as tree priors.
//!
//! A pattern is centred on the empty candidate point. Symbols: `X` and
//! `O` stones (both colour assignments are matched), `.` empty, `#` edge,
//! `?` anything, `x` anything but `X`, `o` anything but `O`. Each pattern
//! is expanded to its 8 rotations/reflections and both colourings into a
//! table indexed by `Board::ring_code`.

use std::sync::OnceLock;

/// Rows top to bottom; the centre is the candidate.
const SHAPES: &[[&str; 3]] = &[
    // hane: enclosing hane
    ["XOX", "...", "???"],
    // hane: non-cutting hane
    ["XO.", "...", "?.?"],
    // hane: magari
    ["XO?", "X..", "x.?"],
    // hane: thin hane
    ["XOO", "...", "?.?"],
    // diagonal attachment
    [".O.", "X..", "..."],
    // cut: unprotected cut
    ["XO?", "O.o", "?o?"],
    // cut: peeped cut
    ["XO?", "O.X", "???"],
    // cut: de
    ["?X?", "O.O", "ooo"],
    // cut: keima cut
    ["OX?", "o.O", "???"],
    // edge: chase
    ["X.?", "O.?", "##?"],
    // edge: block side cut
    ["OX?", "X.O", "###"],
    // edge: block side connection
    ["?X?", "x.O", "###"],
    // edge: sagari
    ["?XO", "x.x", "###"],
    // edge: cut
    ["?OX", "X.O", "###"],
];

/// Ring index of each 3x3 cell (row, col); the centre has none.
const RING_OF: [[usize; 3]; 3] = [[0, 1, 2], [7, 8, 3], [6, 5, 4]];

/// Values a cell may hold under a symbol: bit0 empty, bit1 black,
/// bit2 white, bit3 edge; `x_is_black` picks the colouring.
fn allowed(sym: u8, x_is_black: bool) -> u8 {
    let (x, o) = if x_is_black { (2, 4) } else { (4, 2) };
    match sym {
        b'.' => 1,
        b'X' => x,
        b'O' => o,
        b'#' => 8,
        b'x' => 15 & !x,
        b'o' => 15 & !o,
        _ => 15,
    }
}

fn transforms(shape: &[&str; 3]) -> Vec<[[u8; 3]; 3]> {
    let g: Vec<Vec<u8>> = shape.iter().map(|r| r.bytes().collect()).collect();
    let mut out = Vec::new();
    for t in 0..8 {
        let mut m = [[b'?'; 3]; 3];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                // Rotate by t % 4 quarter turns, reflect when t >= 4.
                let (mut rr, mut cc) = (r, c);
                for _ in 0..(t % 4) {
                    let nr = cc;
                    let nc = 2 - rr;
                    rr = nr;
                    cc = nc;
                }
                if t >= 4 {
                    cc = 2 - cc;
                }
                *cell = g[rr][cc];
            }
        }
        out.push(m);
    }
    out
}

fn build() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    for shape in SHAPES {
        for m in transforms(shape) {
            for x_is_black in [true, false] {
                let mut sets = [0u8; 8];
                for r in 0..3 {
                    for c in 0..3 {
                        if r == 1 && c == 1 {
                            continue;
                        }
                        sets[RING_OF[r][c]] = allowed(m[r][c], x_is_black);
                    }
                }
                fill(&sets, 0, 0, &mut table);
            }
        }
    }
    table
}

fn fill(sets: &[u8; 8], i: usize, code: usize, table: &mut [bool]) {
    if i == 8 {
        table[code] = true;
        return;
    }
    for v in 0..4 {
        if sets[i] & (1 << v) != 0 {
            fill(sets, i + 1, code | (v << (2 * i)), table);
        }
    }
}

/// Whether the ring around an empty point matches a pattern.
pub fn matches(ring_code: usize) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE
        .get_or_init(build)
        .get(ring_code)
        .copied()
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_vertex, Board, Color, Move};

    fn put(b: &mut Board, c: Color, v: &str) {
        if let Some(m @ Move::Play(_)) = b.parse_move(v) {
            b.play(c, m);
        }
    }

    #[test]
    fn hane_matches_in_every_orientation() {
        // X O X over an empty row: the enclosing hane at E5.
        let mut b = Board::new(9);
        put(&mut b, Color::Black, "D6");
        put(&mut b, Color::White, "E6");
        put(&mut b, Color::Black, "F6");
        let at = |b: &Board, v: &str| match parse_vertex(v, 9) {
            Some(Move::Play(p)) => matches(b.ring_code(p)),
            _ => false,
        };
        assert!(at(&b, "E5"));
        // Rotated: stones in a column.
        let mut b = Board::new(9);
        put(&mut b, Color::White, "D4");
        put(&mut b, Color::Black, "D5");
        put(&mut b, Color::White, "D6");
        assert!(at(&b, "E5"));
        // Empty surroundings match nothing.
        assert!(!at(&Board::new(9), "E5"));
    }
}
