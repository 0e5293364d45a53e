//! The board: stones on a padded array, the rule, the move history, a
//! Zobrist key and the incrementally kept line shapes of every empty point.

use crate::learned::{self, Tables};
use crate::pattern::{self, Shape, POW3};
use crate::renju::{self, Foul, Grid};
use std::fmt;
use std::str::FromStr;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;
/// Border width: every cell within five steps of a real point exists.
const PAD: usize = 5;
/// Every square of every board size is below this.
pub const MAX_CELLS: usize = (MAX_SIZE + 2 * PAD) * (MAX_SIZE + 2 * PAD);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    fn stone(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            other => Err(format!(
                "unknown colour '{other}' (expected black or white)"
            )),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Black,
    White,
    Edge,
}

/// Which rows of stones win, and whether black has forbidden points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins, for both.
    Freestyle,
    /// Exactly five wins, for both; an overline is just a move.
    Standard,
    /// Black: exactly five, no double three / double four / overline.
    /// White: five or more.
    Renju,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Whether six or more in a row wins for `c`.
    pub fn long_wins(self, c: Color) -> bool {
        match self {
            Rule::Freestyle => true,
            Rule::Standard => false,
            Rule::Renju => c == Color::White,
        }
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exact5" | "exactfive" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            other => Err(format!(
                "unknown rule '{other}' (expected freestyle, standard or renju)"
            )),
        }
    }
}

/// A point: `x` = column from the left, `y` = row from the top, 0-based
/// (Gomocup's `x,y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub fn new(x: usize, y: usize) -> Option<Point> {
        Some(Point {
            x: u8::try_from(x).ok()?,
            y: u8::try_from(y).ok()?,
        })
    }

    /// Parses Gomocup's `x,y` (spaces around the comma allowed).
    pub fn parse_xy(s: &str) -> Result<Point, String> {
        let (a, b) = s
            .split_once(',')
            .ok_or_else(|| format!("'{s}' is not a point x,y"))?;
        let x: usize = a
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a point x,y"))?;
        let y: usize = b
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a point x,y"))?;
        Point::new(x, y).ok_or_else(|| format!("'{s}' is off the board"))
    }

    /// AGI's two hex digits: row `0`..`E`, then column `1`..`F`.
    pub fn parse_agi(s: &str) -> Result<Point, String> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(format!("'{s}' is not an AGI point (two hex digits)"));
        }
        let row = (b[0] as char).to_digit(16);
        let col = (b[1] as char).to_digit(16);
        match (row, col) {
            (Some(r), Some(c)) if r <= 14 && (1..=15).contains(&c) => {
                Point::new(c as usize - 1, r as usize).ok_or_else(|| format!("'{s}' is invalid"))
            }
            _ => Err(format!("'{s}' is not an AGI point (row 0-E, column 1-F)")),
        }
    }

    /// This point in AGI notation (only meaningful on 15x15).
    pub fn agi(self) -> String {
        format!("{:X}{:X}", self.y, self.x + 1)
    }

    pub fn xy(self) -> String {
        format!("{},{}", self.x, self.y)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win(Color, WinReason),
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    Five,
    /// Black played a forbidden point (only when a referee lets it).
    Forbidden(Foul),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Draw => f.write_str("draw board-full"),
            Outcome::Win(c, WinReason::Five) => write!(f, "{} five", c.name()),
            Outcome::Win(c, WinReason::Forbidden(foul)) => {
                write!(f, "{} {}", c.name(), foul.name())
            }
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    OffBoard(Point),
    Occupied(Point),
    Forbidden(Point, Foul),
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard(p) => write!(f, "{p} is off the board"),
            MoveError::Occupied(p) => write!(f, "{p} is occupied"),
            MoveError::Forbidden(p, foul) => {
                write!(f, "{p} is forbidden for black ({})", foul.name())
            }
            MoveError::GameOver => f.write_str("the game is already over"),
        }
    }
}

/// The set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// The weight of each direction's digit in a `learned::code`.
const DIGIT_WEIGHT: [isize; 4] = [1, 9, 81, 729];

/// Index of a cell in the padded array.
pub type Sq = usize;

fn zobrist(sq: Sq, c: Color) -> u64 {
    // A hash of the (square, colour) pair: no table to share or build.
    tengen_core::splitmix::hash(sq as u64 * 2 + c as u64)
}

/// Weight of a shape in the running evaluation totals.
pub fn shape_value(s: Shape) -> i32 {
    // Superlinear, so that stones working together on one line are worth
    // more than the same stones scattered.
    match s {
        Shape::None | Shape::Overline | Shape::One => 0,
        Shape::Two => 1,
        Shape::OpenTwo => 2,
        Shape::Three => 6,
        Shape::OpenThree => 20,
        Shape::Four => 28,
        Shape::OpenFour | Shape::FourFour => 100,
        Shape::Five => 300,
    }
}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    cells: Vec<Cell>,
    /// Per cell, per colour, per direction: the shape a stone there makes.
    /// Kept for empty cells only.
    shapes: Vec<[[Shape; 4]; 2]>,
    /// Per cell, per colour's view, per direction: the base-3 code of the
    /// ten cells around it on that line (0 empty, 1 that colour, 2 the
    /// other colour or the edge), kept up to date on every move so that a
    /// shape is one table lookup. Kept for every cell, stones included
    /// (a stone's codes are right again once it is taken back).
    codes: Vec<[[u16; 4]; 2]>,
    /// Per colour: the shape table of its rule mode (overline wins or not).
    tables: [&'static [u8]; 2],
    /// Per colour: Σ shape values over empty cells (the evaluation).
    totals: [i32; 2],
    /// The learned pattern tables, if they play (see `learned`).
    learned: Option<&'static Tables>,
    /// Per colour: Σ over empty cells of that colour's learned `[S, T]`.
    lsums: [[i32; 2]; 2],
    /// Per cell, per colour: `learned::code` of its four shapes (kept
    /// only while learned tables play).
    pcodes: Vec<[u16; 2]>,
    /// Per colour: empty cells where that colour would make a five.
    five_cells: [u32; 2],
    /// Per colour: a bit per cell, set for the empty cells where that
    /// colour makes a four or better on some line (a five, an open four,
    /// a four): the only points a threat search or a threat scan needs.
    four_bits: [Vec<u64>; 2],
    dirs: [isize; 4],
    /// Per cell: stones within two king steps (candidate moves).
    near: Vec<u8>,
    history: Vec<(Sq, Color)>,
    to_move: Color,
    hash: u64,
    outcome: Outcome,
    /// What each stone of `make` changed, so that `unmake` puts it back
    /// instead of working it out again (that work was most of a search's
    /// time).
    undo: Undo,
}

/// The undo log of the derived state: the cells whose shapes a stone
/// changed, with their values before it, and per stone the totals before
/// it. `frames` belong to the last `frames.len()` stones of the history;
/// what changes the board otherwise (`take_back`, `set_learned`) empties
/// the log, and older stones are then taken back the long way.
#[derive(Clone, Default)]
struct Undo {
    cells: Vec<Saved>,
    frames: Vec<Frame>,
}

/// What `update_codes` does for each empty cell whose code it changed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Save it in the undo log, then refresh its shapes (`make`).
    SaveAndRefresh,
    /// Refresh its shapes (a stone taken back the long way).
    Refresh,
    /// Nothing: the undo log restores the shapes (`unmake`).
    Nothing,
}

#[derive(Clone, Copy)]
struct Saved {
    sq: u32,
    shapes: [[Shape; 4]; 2],
    pcodes: [u16; 2],
    /// The cell's bit in `four_bits`, per colour (bit 0 black, bit 1 white).
    fours: u8,
}

#[derive(Clone, Copy)]
struct Frame {
    /// `Undo::cells` held this many entries before the stone.
    cells: u32,
    totals: [i32; 2],
    lsums: [[i32; 2]; 2],
    five_cells: [u32; 2],
}

impl Board {
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(format!(
                "board size {width}x{height} is not supported (sides {MIN_SIZE} to {MAX_SIZE})"
            ));
        }
        pattern::init();
        let stride = width + 2 * PAD;
        let rows = height + 2 * PAD;
        let mut cells = vec![Cell::Edge; stride * rows];
        for y in 0..height {
            for x in 0..width {
                cells[(y + PAD) * stride + x + PAD] = Cell::Empty;
            }
        }
        let s = stride as isize;
        let mut b = Board {
            width,
            height,
            stride,
            rule,
            cells,
            shapes: vec![[[Shape::None; 4]; 2]; stride * rows],
            codes: vec![[[0; 4]; 2]; stride * rows],
            tables: [
                pattern::table(rule.long_wins(Color::Black)),
                pattern::table(rule.long_wins(Color::White)),
            ],
            totals: [0; 2],
            learned: learned::for_rule(rule),
            lsums: [[0; 2]; 2],
            pcodes: vec![[0; 2]; stride * rows],
            five_cells: [0; 2],
            four_bits: [
                vec![0; (stride * rows).div_ceil(64)],
                vec![0; (stride * rows).div_ceil(64)],
            ],
            dirs: [1, s, s + 1, s - 1],
            near: vec![0; stride * rows],
            history: Vec::new(),
            to_move: Color::Black,
            hash: 0,
            outcome: Outcome::Ongoing,
            undo: Undo::default(),
        };
        for y in 0..height {
            for x in 0..width {
                let sq = b.sq_of(x, y);
                for c in [Color::Black, Color::White] {
                    for di in 0..4 {
                        b.codes[sq][c.index()][di] = b.window(sq, di, c) as u16;
                    }
                }
                b.refresh(sq);
            }
        }
        Ok(b)
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }
    pub fn hash(&self) -> u64 {
        self.hash ^ (self.to_move as u64)
    }
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    pub fn stones(&self) -> usize {
        self.history.len()
    }
    pub fn history(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.history.iter().map(|&(s, c)| (self.point(s), c))
    }
    pub fn last_move(&self) -> Option<Sq> {
        self.history.last().map(|&(s, _)| s)
    }
    pub fn is_full(&self) -> bool {
        self.history.len() >= self.width * self.height
    }
    pub fn dirs(&self) -> [isize; 4] {
        self.dirs
    }
    pub fn totals(&self, c: Color) -> i32 {
        self.totals[c.index()]
    }
    /// The learned tables this board keeps sums for, if any.
    pub fn learned(&self) -> Option<&'static Tables> {
        self.learned
    }
    /// `learned::code` of the shapes `c` has on the empty `sq` (kept only
    /// while learned tables play; 0 otherwise).
    #[inline]
    pub fn point_code(&self, sq: Sq, c: Color) -> usize {
        self.pcodes.get(sq).map_or(0, |p| p[c.index()] as usize)
    }
    /// Per colour: Σ of the learned `[S, T]` over the empty cells.
    pub fn learned_sums(&self, c: Color) -> [i32; 2] {
        self.lsums[c.index()]
    }
    /// Plays with other learned tables (or none: the hand-made values);
    /// the sums are recomputed.
    pub fn set_learned(&mut self, t: Option<&'static Tables>) {
        self.learned = t;
        self.undo = Undo::default();
        self.lsums = [[0; 2]; 2];
        for sq in 0..self.cells.len() {
            for ci in 0..2 {
                // Stones and the border have no shapes: code 0.
                let code = learned::code(self.shapes[sq][ci]);
                self.pcodes[sq][ci] = code as u16;
                if let Some(t) = t {
                    let v = t.eval[ci][code];
                    self.lsums[ci][0] += v[0];
                    self.lsums[ci][1] += v[1];
                }
            }
        }
    }
    /// Moves the learned sums of colour `ci` from one set of the shapes of
    /// `sq` to another, and its point code with them.
    #[inline]
    fn relearn(&mut self, sq: Sq, ci: usize, old: [Shape; 4], new: [Shape; 4]) {
        if let Some(t) = self.learned {
            let (from, to) = (learned::code(old), learned::code(new));
            if let Some(pc) = self.pcodes.get_mut(sq) {
                pc[ci] = to as u16;
            }
            let a = t.eval[ci][from];
            let b = t.eval[ci][to];
            self.lsums[ci][0] += b[0] - a[0];
            self.lsums[ci][1] += b[1] - a[1];
        }
    }
    /// Empty cells where `c` would make a five.
    pub fn five_count(&self, c: Color) -> u32 {
        self.five_cells[c.index()]
    }

    fn sq_of(&self, x: usize, y: usize) -> Sq {
        (y + PAD) * self.stride + x + PAD
    }

    /// The square of a point, if it is on the board.
    pub fn sq(&self, p: Point) -> Option<Sq> {
        let (x, y) = (p.x as usize, p.y as usize);
        (x < self.width && y < self.height).then(|| self.sq_of(x, y))
    }

    pub fn point(&self, sq: Sq) -> Point {
        let y = sq / self.stride - PAD;
        let x = sq % self.stride - PAD;
        Point {
            x: x as u8,
            y: y as u8,
        }
    }

    #[inline]
    pub fn cell(&self, sq: Sq) -> Cell {
        self.cells.get(sq).copied().unwrap_or(Cell::Edge)
    }

    #[inline]
    pub fn cell_at(&self, sq: Sq, offset: isize) -> Cell {
        sq.checked_add_signed(offset)
            .map_or(Cell::Edge, |s| self.cell(s))
    }

    pub fn is_empty(&self, sq: Sq) -> bool {
        self.cell(sq) == Cell::Empty
    }

    /// Every real square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| self.sq_of(x, y)))
    }

    #[inline]
    pub fn shapes(&self, sq: Sq, c: Color) -> [Shape; 4] {
        self.shapes
            .get(sq)
            .map_or([Shape::None; 4], |s| s[c.index()])
    }

    /// The window code of `sq` along direction `di` for colour `c`.
    fn window(&self, sq: Sq, di: usize, c: Color) -> usize {
        let d = self.dirs[di];
        let own = c.stone();
        let mut code = 0;
        for (k, off) in (-5..=-1).chain(1..=5).enumerate() {
            let v = match self.cell_at(sq, off * d) {
                Cell::Empty => 0,
                x if x == own => 1,
                _ => 2,
            };
            code += v * POW3[k];
        }
        code
    }

    /// Recomputes the cached shapes of one cell in the directions of
    /// `dirs` (cleared for a stone) and keeps the totals, the five counts
    /// and the four bits in step.
    /// Saves `sq`'s shapes and point codes in the undo log.
    #[inline]
    fn save(&mut self, sq: Sq) {
        if let (Some(&shapes), Some(&pcodes)) = (self.shapes.get(sq), self.pcodes.get(sq)) {
            let bit = |ci: usize| {
                self.four_bits[ci]
                    .get(sq / 64)
                    .map_or(0, |w| ((w >> (sq % 64)) & 1) as u8)
            };
            let fours = bit(0) | bit(1) << 1;
            self.undo.cells.push(Saved {
                sq: sq as u32,
                shapes,
                pcodes,
                fours,
            });
        }
    }

    fn refresh_dirs(&mut self, sq: Sq, dirs: std::ops::Range<usize>) {
        let empty = self.is_empty(sq);
        for ci in 0..2 {
            let (Some(cell), Some(codes)) = (self.shapes.get(sq), self.codes.get(sq)) else {
                return;
            };
            let old = cell[ci];
            let mut new = old;
            for di in dirs.clone() {
                new[di] = if empty {
                    pattern::shape_of(
                        self.tables[ci]
                            .get(codes[ci][di] as usize)
                            .copied()
                            .unwrap_or(0),
                    )
                } else {
                    Shape::None
                };
            }
            if new == old {
                continue;
            }
            self.relearn(sq, ci, old, new);
            let mut strong = false;
            for di in dirs.clone() {
                if old[di] != new[di] {
                    self.totals[ci] += shape_value(new[di]) - shape_value(old[di]);
                    strong |= old[di] >= Shape::Four || new[di] >= Shape::Four;
                }
            }
            if strong {
                // A four or a five appeared or went away on some line.
                let fourish = |s: &[Shape; 4]| s.iter().any(|&x| x.is_four() || x == Shape::Five);
                if fourish(&old) != fourish(&new) {
                    if let Some(w) = self.four_bits[ci].get_mut(sq / 64) {
                        *w ^= 1 << (sq % 64);
                    }
                }
                let had = old.contains(&Shape::Five);
                let has = new.contains(&Shape::Five);
                if had != has {
                    if has {
                        self.five_cells[ci] += 1;
                    } else {
                        self.five_cells[ci] -= 1;
                    }
                }
            }
            self.shapes[sq][ci] = new;
        }
    }

    /// Adds (or removes) a stone of `c` on `sq` to the line codes of the
    /// cells whose windows cover it, and does `then` for the empty ones
    /// among them: refresh their shapes along that line (nothing else of
    /// theirs changes), saving them first for `unmake`, or leave that to
    /// the undo log. `sq` itself is the caller's to refresh.
    fn update_codes(&mut self, sq: Sq, c: Color, add: bool, then: Then) {
        // The digit the stone has in each colour's view.
        let digit = |view: Color| if view == c { 1u16 } else { 2u16 };
        let (black, white) = (digit(Color::Black), digit(Color::White));
        for di in 0..4 {
            let d = self.dirs[di];
            for (idx, off) in (-5isize..=-1).chain(1..=5).enumerate() {
                // `sq` sits at offset `off` of the window of `q`.
                let Some(q) = sq.checked_add_signed(-off * d) else {
                    continue;
                };
                let Some(code) = self.codes.get_mut(q) else {
                    continue;
                };
                let step = POW3[idx] as u16;
                let [b, w] = code;
                if add {
                    b[di] += black * step;
                    w[di] += white * step;
                } else {
                    b[di] -= black * step;
                    w[di] -= white * step;
                }
                if then != Then::Nothing && self.cells.get(q) == Some(&Cell::Empty) {
                    if then == Then::SaveAndRefresh {
                        self.save(q);
                    }
                    self.refresh_one(q, di);
                }
            }
        }
    }

    /// Puts back what the last stone's `put` changed, from the undo log.
    fn restore(&mut self, f: Frame) {
        let keep = f.cells as usize;
        while self.undo.cells.len() > keep {
            let Some(saved) = self.undo.cells.pop() else {
                break;
            };
            let q = saved.sq as usize;
            if let (Some(sh), Some(pc)) = (self.shapes.get_mut(q), self.pcodes.get_mut(q)) {
                *sh = saved.shapes;
                *pc = saved.pcodes;
            }
            let bit = 1u64 << (q % 64);
            for ci in 0..2 {
                if let Some(w) = self.four_bits[ci].get_mut(q / 64) {
                    if saved.fours >> ci & 1 != 0 {
                        *w |= bit;
                    } else {
                        *w &= !bit;
                    }
                }
            }
        }
        self.totals = f.totals;
        self.lsums = f.lsums;
        self.five_cells = f.five_cells;
    }

    fn refresh(&mut self, sq: Sq) {
        self.refresh_dirs(sq, 0..4);
    }

    /// Refreshes `sq` itself after a stone came or went; the cells whose
    /// windows cover it were refreshed by `update_codes`.
    fn refresh_around(&mut self, sq: Sq) {
        self.refresh(sq);
    }

    /// The shape of the empty `q` along direction `di` after its code
    /// changed, with the totals, five counts and four bits kept in step.
    #[inline]
    fn refresh_one(&mut self, q: Sq, di: usize) {
        for ci in 0..2 {
            let Some(code) = self.codes.get(q).map(|c| c[ci][di] as usize) else {
                return;
            };
            let new = pattern::shape_of(self.tables[ci].get(code).copied().unwrap_or(0));
            let Some(cell) = self.shapes.get_mut(q) else {
                return;
            };
            let old = cell[ci][di];
            if new == old {
                continue;
            }
            cell[ci][di] = new;
            let after = cell[ci];
            self.totals[ci] += shape_value(new) - shape_value(old);
            if let Some(t) = self.learned {
                // The point's code moves by one digit.
                if let Some(pc) = self.pcodes.get_mut(q) {
                    let from = pc[ci] as usize;
                    let step = (learned::digit(new) as isize - learned::digit(old) as isize)
                        * DIGIT_WEIGHT[di];
                    let to = from.wrapping_add_signed(step);
                    pc[ci] = to as u16;
                    if let (Some(a), Some(b)) = (t.eval[ci].get(from), t.eval[ci].get(to)) {
                        self.lsums[ci][0] += b[0] - a[0];
                        self.lsums[ci][1] += b[1] - a[1];
                    }
                }
            }
            if old < Shape::Four && new < Shape::Four {
                continue;
            }
            let mut before = after;
            before[di] = old;
            let fourish = |s: &[Shape; 4]| s.iter().any(|&x| x.is_four() || x == Shape::Five);
            if fourish(&before) != fourish(&after) {
                if let Some(w) = self.four_bits[ci].get_mut(q / 64) {
                    *w ^= 1 << (q % 64);
                }
            }
            let had = before.contains(&Shape::Five);
            let has = after.contains(&Shape::Five);
            if had != has {
                if has {
                    self.five_cells[ci] += 1;
                } else {
                    self.five_cells[ci] -= 1;
                }
            }
        }
    }

    /// Does `c` make a five by playing the empty `sq`?
    pub fn makes_five(&self, sq: Sq, c: Color) -> bool {
        self.shapes(sq, c).contains(&Shape::Five)
    }

    /// The renju verdict of a black stone on the empty `sq` (for other
    /// rules, or white, only `Five` or `Allowed`).
    pub fn foul(&self, sq: Sq, c: Color) -> Foul {
        if !self.is_empty(sq) {
            return Foul::Allowed;
        }
        let shapes = self.shapes(sq, c);
        if shapes.contains(&Shape::Five) {
            return Foul::Five;
        }
        if self.rule != Rule::Renju || c == Color::White {
            return Foul::Allowed;
        }
        if shapes.contains(&Shape::Overline) {
            return Foul::Overline;
        }
        let fours: u32 = shapes
            .iter()
            .map(|s| match s {
                Shape::Four | Shape::OpenFour => 1,
                Shape::FourFour => 2,
                _ => 0,
            })
            .sum();
        if fours >= 2 {
            return Foul::DoubleFour;
        }
        // A line that holds a four can in odd cases hold a three as well.
        let threes = shapes
            .iter()
            .filter(|&&s| matches!(s, Shape::OpenThree | Shape::Four))
            .count();
        if threes < 2 {
            return Foul::Allowed;
        }
        // Two three-shapes: only the recursive check can tell.
        let mut cells = self.cells.clone();
        let mut grid = Grid {
            cells: &mut cells,
            dirs: self.dirs,
        };
        grid.classify(sq as isize, renju::MAX_DEPTH)
    }

    /// Black may not play `sq` under renju.
    pub fn is_forbidden(&self, sq: Sq, c: Color) -> bool {
        self.foul(sq, c).is_forbidden()
    }

    /// Puts a stone of the side to move on `sq` (assumed empty and legal)
    /// and passes the turn. The search's fast path.
    pub fn make(&mut self, sq: Sq) {
        let c = self.to_move;
        let wins = self.makes_five(sq, c);
        self.put(sq, c);
        if wins {
            self.outcome = Outcome::Win(c, WinReason::Five);
        } else if self.is_full() {
            self.outcome = Outcome::Draw;
        }
        self.to_move = c.other();
    }

    fn bump_near(&mut self, sq: Sq, add: bool) {
        let s = self.stride as isize;
        for dy in -2..=2 {
            for dx in -2..=2 {
                if let Some(n) = sq
                    .checked_add_signed(dy * s + dx)
                    .and_then(|q| self.near.get_mut(q))
                {
                    *n = if add {
                        n.saturating_add(1)
                    } else {
                        n.saturating_sub(1)
                    };
                }
            }
        }
    }

    /// The empty squares where `c` makes a four or a five on some line,
    /// in square order (a subset of `near_squares`: such a point has an own
    /// stone within two steps on that line).
    pub fn four_squares(&self, c: Color) -> impl Iterator<Item = Sq> + '_ {
        self.four_bits[c.index()]
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| BitIter(w).map(move |b| i * 64 + b))
    }

    /// Empty squares within two king steps of a stone (candidate moves).
    pub fn near_squares(&self) -> Vec<Sq> {
        self.squares()
            .filter(|&q| self.near[q] > 0 && self.cells[q] == Cell::Empty)
            .collect()
    }

    fn put(&mut self, sq: Sq, c: Color) {
        self.undo.frames.push(Frame {
            cells: self.undo.cells.len() as u32,
            totals: self.totals,
            lsums: self.lsums,
            five_cells: self.five_cells,
        });
        self.bump_near(sq, true);
        self.cells[sq] = c.stone();
        self.update_codes(sq, c, true, Then::SaveAndRefresh);
        self.hash ^= zobrist(sq, c);
        self.history.push((sq, c));
        self.save(sq);
        self.refresh_around(sq);
    }

    /// Takes back the last stone.
    pub fn unmake(&mut self) {
        if let Some((sq, c)) = self.history.pop() {
            self.cells[sq] = Cell::Empty;
            match self.undo.frames.pop() {
                Some(f) => {
                    self.update_codes(sq, c, false, Then::Nothing);
                    self.restore(f);
                }
                None => {
                    self.update_codes(sq, c, false, Then::Refresh);
                    self.refresh_around(sq);
                }
            }
            self.bump_near(sq, false);
            self.hash ^= zobrist(sq, c);
            self.to_move = c;
            self.outcome = Outcome::Ongoing;
        }
    }

    /// Removes the stone at `p`, wherever it is in the history (Gomocup
    /// `TAKEBACK`). The turn goes to that stone's owner.
    pub fn take_back(&mut self, p: Point) -> Result<(), String> {
        let sq = self.sq(p).ok_or_else(|| format!("{p} is off the board"))?;
        let pos = self
            .history
            .iter()
            .rposition(|&(s, _)| s == sq)
            .ok_or_else(|| format!("{p} has no stone"))?;
        let (_, c) = self.history.remove(pos);
        // The log holds states in stone order; one taken from the middle
        // breaks it: the older stones are taken back the long way.
        self.undo = Undo::default();
        self.cells[sq] = Cell::Empty;
        self.update_codes(sq, c, false, Then::Refresh);
        self.bump_near(sq, false);
        self.hash ^= zobrist(sq, c);
        self.refresh_around(sq);
        self.to_move = c;
        self.outcome = self.judge_static();
        Ok(())
    }

    /// Checks and plays a move for the side to move.
    pub fn play(&mut self, p: Point) -> Result<(), MoveError> {
        let sq = self.check_move(p)?;
        self.make(sq);
        Ok(())
    }

    /// Why the side to move may not play `p`, if it may not.
    pub fn check_move(&self, p: Point) -> Result<Sq, MoveError> {
        if self.outcome != Outcome::Ongoing {
            return Err(MoveError::GameOver);
        }
        let sq = self.sq(p).ok_or(MoveError::OffBoard(p))?;
        if !self.is_empty(sq) {
            return Err(MoveError::Occupied(p));
        }
        let foul = self.foul(sq, self.to_move);
        if foul.is_forbidden() {
            return Err(MoveError::Forbidden(p, foul));
        }
        Ok(sq)
    }

    /// Places a stone of `c` without judging it (set-ups, `BOARD` input,
    /// a GUI that referees itself). The turn passes to the other colour.
    pub fn place(&mut self, p: Point, c: Color) -> Result<(), MoveError> {
        let sq = self.sq(p).ok_or(MoveError::OffBoard(p))?;
        if !self.is_empty(sq) {
            return Err(MoveError::Occupied(p));
        }
        let wins = self.makes_five(sq, c);
        self.put(sq, c);
        self.to_move = c.other();
        if self.outcome == Outcome::Ongoing {
            if wins {
                self.outcome = Outcome::Win(c, WinReason::Five);
            } else if self.is_full() {
                self.outcome = Outcome::Draw;
            }
        }
        Ok(())
    }

    /// The result from the stones alone: a five on the board (under the
    /// rule), a full board, or an ongoing game.
    pub fn judge_static(&self) -> Outcome {
        for sq in self.squares() {
            let c = match self.cell(sq) {
                Cell::Black => Color::Black,
                Cell::White => Color::White,
                _ => continue,
            };
            for d in self.dirs {
                // Count each line once, from its first stone.
                if self.cell_at(sq, -d) == c.stone() {
                    continue;
                }
                let mut len = 1;
                while self.cell_at(sq, len * d) == c.stone() {
                    len += 1;
                }
                if len == 5 || (len > 5 && self.rule.long_wins(c)) {
                    return Outcome::Win(c, WinReason::Five);
                }
            }
        }
        if self.is_full() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    /// Sets the outcome from the stones (after a set-up).
    pub fn rejudge(&mut self) {
        self.outcome = self.judge_static();
    }

    /// Every legal move of the side to move, row by row.
    pub fn legal_moves(&self) -> Vec<Point> {
        if self.outcome != Outcome::Ongoing {
            return Vec::new();
        }
        let c = self.to_move;
        self.squares()
            .filter(|&s| self.is_empty(s) && !self.is_forbidden(s, c))
            .map(|s| self.point(s))
            .collect()
    }

    /// A text diagram (x = black, o = white), for debugging.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(match self.cell(self.sq_of(x, y)) {
                    Cell::Black => 'x',
                    Cell::White => 'o',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: usize, y: usize) -> Point {
        Point::new(x, y).unwrap()
    }

    #[test]
    fn agi_points() {
        assert_eq!(Point::parse_agi("01").unwrap(), p(0, 0));
        assert_eq!(Point::parse_agi("EF").unwrap(), p(14, 14));
        assert_eq!(Point::parse_agi("78").unwrap(), p(7, 7));
        assert_eq!(Point::parse_agi("ef").unwrap(), p(14, 14));
        assert!(Point::parse_agi("00").is_err());
        assert!(Point::parse_agi("F1").is_err());
        assert!(Point::parse_agi("7").is_err());
        assert_eq!(p(7, 7).agi(), "78");
        assert_eq!(p(14, 14).agi(), "EF");
    }

    #[test]
    fn incremental_shapes_match_a_fresh_board() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        let moves = [
            (7, 7),
            (8, 8),
            (6, 7),
            (8, 7),
            (5, 7),
            (8, 6),
            (9, 9),
            (4, 4),
        ];
        for &(x, y) in &moves {
            b.play(p(x, y)).unwrap();
        }
        b.unmake();
        b.unmake();
        let mut fresh = Board::new(15, 15, Rule::Renju).unwrap();
        for &(x, y) in &moves[..6] {
            fresh.play(p(x, y)).unwrap();
        }
        assert_eq!(b.totals, fresh.totals);
        assert_eq!(b.five_cells, fresh.five_cells);
        assert_eq!(b.four_bits, fresh.four_bits);
        for sq in b.squares() {
            assert_eq!(
                b.codes[sq],
                fresh.codes[sq],
                "line codes of {:?}",
                b.point(sq)
            );
            for c in [Color::Black, Color::White] {
                for di in 0..4 {
                    assert_eq!(b.codes[sq][c.index()][di] as usize, b.window(sq, di, c));
                }
            }
        }
        for c in [Color::Black, Color::White] {
            let slow: Vec<Sq> = b
                .squares()
                .filter(|&q| {
                    b.shapes(q, c)
                        .iter()
                        .any(|s| s.is_four() || *s == Shape::Five)
                })
                .collect();
            assert_eq!(b.four_squares(c).collect::<Vec<_>>(), slow);
            assert!(
                !slow.is_empty(),
                "the line of three black stones gives fours"
            );
        }
        assert_eq!(b.hash(), fresh.hash());
        for sq in b.squares() {
            assert_eq!(b.shapes[sq], fresh.shapes[sq]);
        }
    }

    /// Every piece of derived state equal to that of a board built from
    /// the same stones in the same order.
    fn assert_same_as_rebuilt(b: &Board) {
        let mut fresh = Board::new(b.width, b.height, b.rule).unwrap();
        fresh.set_learned(b.learned);
        for (pt, c) in b.history() {
            fresh.place(pt, c).unwrap();
        }
        assert_eq!(b.codes, fresh.codes);
        assert_eq!(b.shapes, fresh.shapes);
        assert_eq!(b.pcodes, fresh.pcodes);
        assert_eq!(b.totals, fresh.totals);
        assert_eq!(b.lsums, fresh.lsums);
        assert_eq!(b.five_cells, fresh.five_cells);
        assert_eq!(b.four_bits, fresh.four_bits);
        assert_eq!(b.near, fresh.near);
        assert_eq!(b.hash ^ b.to_move as u64, fresh.hash ^ b.to_move as u64);
    }

    #[test]
    fn undo_log_restores_what_recomputation_gives() {
        // Random walks of makes, unmakes and take-backs (which empty the
        // log, so that older stones come back the long way), on every
        // rule, with and without learned tables.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for learned in [false, true] {
                let mut b = Board::new(15, 15, rule).unwrap();
                if !learned {
                    b.set_learned(None);
                }
                for step in 0..400 {
                    let n = b.stones();
                    match rand(10) {
                        0..=5 if b.outcome() == Outcome::Ongoing => {
                            let near: Vec<Sq> = b.near_squares();
                            let sq = if near.is_empty() {
                                b.sq(Point::new(7, 7).unwrap()).unwrap()
                            } else {
                                near[rand(near.len())]
                            };
                            b.make(sq);
                        }
                        6..=8 if n > 0 => b.unmake(),
                        9 if n > 0 => {
                            let (pt, _) = b.history().nth(rand(n)).unwrap();
                            b.take_back(pt).unwrap();
                        }
                        _ => continue,
                    }
                    if step % 7 == 0 || b.stones() < 3 {
                        assert_same_as_rebuilt(&b);
                    }
                }
                while b.stones() > 0 {
                    b.unmake();
                }
                assert_same_as_rebuilt(&b);
            }
        }
    }

    #[test]
    fn learned_sums_follow_make_and_unmake() {
        // Arbitrary numbers per class: the incremental sums must equal a
        // recount after any sequence of moves and take-backs.
        let mut raw = learned::Raw {
            bias: [3, -3],
            values: [
                vec![[0; 4]; learned::CLASSES],
                vec![[0; 4]; learned::CLASSES],
            ],
        };
        for ci in 0..2 {
            for k in 1..learned::CLASSES {
                let v = (k * 7919 + ci * 104_729) % 1000;
                raw.values[ci][k] = [v as i32 - 500, (v * 3 % 1000) as i32 - 400, 0, 0];
            }
        }
        let t: &'static learned::Tables = Box::leak(Box::new(raw.expand(Rule::Renju)));
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        b.set_learned(Some(t));
        let moves = [
            (7, 7),
            (8, 8),
            (6, 7),
            (8, 7),
            (5, 7),
            (8, 6),
            (9, 9),
            (4, 4),
            (7, 8),
        ];
        for &(x, y) in &moves {
            b.play(p(x, y)).unwrap();
            let mut fresh = b.clone();
            fresh.set_learned(Some(t));
            assert_eq!(b.lsums, fresh.lsums);
            assert_eq!(b.pcodes, fresh.pcodes);
        }
        b.unmake();
        b.unmake();
        b.take_back(p(6, 7)).unwrap();
        let mut fresh = b.clone();
        fresh.set_learned(Some(t));
        assert_eq!(b.lsums, fresh.lsums);
        assert_ne!(b.lsums, [[0; 2]; 2]);
    }

    #[test]
    fn sizes() {
        assert!(Board::new(4, 4, Rule::Freestyle).is_err());
        assert!(Board::new(33, 15, Rule::Freestyle).is_err());
        let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
        assert_eq!(b.legal_moves().len(), 25);
        for x in 0..5 {
            b.place(p(x, 4), Color::Black).unwrap();
        }
        assert_eq!(b.outcome(), Outcome::Win(Color::Black, WinReason::Five));
        let b = Board::new(32, 20, Rule::Standard).unwrap();
        assert_eq!(b.legal_moves().len(), 640);
    }
}
