//! The Go board: stones, chains with pseudo-liberties, captures, simple
//! ko and a Zobrist hash. Fast enough for playouts (no allocation in
//! `play`), exact enough for the rules (atari and suicide are exact).
//!
//! Chains keep *pseudo*-liberties (one per stone/empty adjacency) plus the
//! sum and sum of squares of those liberty points: a chain is in atari
//! exactly when all its pseudo-liberties are the same point, i.e. when
//! `n * sum_sq == sum * sum`, and that point is then `sum / n`.

use std::fmt;
use tengen_core::splitmix;

/// Largest board side: GTP letters run out at 25 (no `I`).
pub const MAX_SIZE: usize = 25;
/// Padded side: one border row/column on each side.
const STRIDE: usize = MAX_SIZE + 2;
/// Number of padded points.
pub const POINTS: usize = STRIDE * STRIDE;

/// A stone colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// GTP spelling: `b`, `black`, `w`, `white`, any case.
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    pub fn cell(self) -> Cell {
        match self {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// Content of a padded point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Black,
    White,
    Edge,
}

impl Cell {
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A point of the padded board (always on the board when handed out by a
/// `Board` of the right size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// From 0-based column (left to right) and row (bottom to top).
    pub fn from_xy(x: usize, y: usize) -> Point {
        Point(((y + 1) * STRIDE + x + 1) as u16)
    }

    pub fn x(self) -> usize {
        self.index() % STRIDE - 1
    }

    pub fn y(self) -> usize {
        self.index() / STRIDE - 1
    }

    fn neighbors(self) -> [Point; 4] {
        let i = self.0;
        let s = STRIDE as u16;
        [Point(i - s), Point(i - 1), Point(i + 1), Point(i + s)]
    }

    fn diagonals(self) -> [Point; 4] {
        let i = self.0;
        let s = STRIDE as u16;
        [
            Point(i - s - 1),
            Point(i - s + 1),
            Point(i + s - 1),
            Point(i + s + 1),
        ]
    }

    /// The 8 surrounding points, clockwise from the top-left, as used by
    /// the 3x3 patterns.
    pub fn ring(self) -> [Point; 8] {
        let i = self.0;
        let s = STRIDE as u16;
        [
            Point(i + s - 1),
            Point(i + s),
            Point(i + s + 1),
            Point(i + 1),
            Point(i - s + 1),
            Point(i - s),
            Point(i - s - 1),
            Point(i - 1),
        ]
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Point),
}

const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Parses a GTP vertex (`D4`, `pass`, any case) for a board of `size`.
pub fn parse_vertex(s: &str, size: usize) -> Option<Move> {
    parse_vertex_rect(s, size, size)
}

/// Parses a GTP vertex for a board `width` columns wide and `height` rows
/// high (columns `A`.. without `I`, rows `1..=height`).
pub fn parse_vertex_rect(s: &str, width: usize, height: usize) -> Option<Move> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    let bytes = s.as_bytes();
    if bytes.len() < 2 || bytes.len() > 3 {
        return None;
    }
    let letter = bytes[0].to_ascii_uppercase();
    let x = COLUMNS.iter().position(|&c| c == letter)?;
    let digits = &s[1..];
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    if x >= width || row == 0 || row > height {
        return None;
    }
    Some(Move::Play(Point::from_xy(x, row - 1)))
}

/// GTP spelling of a point.
pub fn vertex_name(p: Point) -> String {
    format!("{}{}", COLUMNS[p.x()] as char, p.y() + 1)
}

/// GTP spelling of a move (`pass` in lower case).
pub fn move_name(m: Move) -> String {
    match m {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => vertex_name(p),
    }
}

/// Zobrist keys, one per colour and point, built at compile time.
const fn zobrist() -> [[u64; POINTS]; 2] {
    let mut keys = [[0u64; POINTS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < POINTS {
            let (next, key) = splitmix::step(state);
            state = next;
            keys[c][i] = key;
            i += 1;
        }
        c += 1;
    }
    keys
}

static ZOBRIST: [[u64; POINTS]; 2] = zobrist();

/// Key xored in for "White to move" in situational superko.
pub const WHITE_TO_MOVE_KEY: u64 = 0x5bd1_e995_a5a5_f00d;

/// 12 bytes: the board keeps one per point and the readers copy boards
/// at every node, so the widths are as small as the largest board
/// allows. On 25x25 a chain has fewer than 2,500 pseudo-liberties (four
/// a stone) and 625 stones, and a point index is below 729: `lib_sum`
/// stays under 2,500 x 728 and `lib_sq` under 2,500 x 728² = 1.33e9,
/// inside u32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chain {
    /// Pseudo-liberty count.
    libs: u16,
    size: u16,
    lib_sum: u32,
    lib_sq: u32,
}

/// One overwritten entry of a board array, with its old value.
#[derive(Clone, Copy, Debug)]
enum Change {
    Cell(u16, Cell),
    Head(u16, u16),
    Next(u16, u16),
    Chain(u16, Chain),
    EmptyPos(u16, u16),
    /// `empties[i]` held the value.
    EmptySet(u16, u16),
    /// The value was popped off `empties`.
    EmptyPop(u16),
    EmptyPush,
}

/// What a move replaced besides the arrays.
#[derive(Clone, Copy, Debug)]
struct Saved {
    /// Length of `Undo::changes` before the move.
    changes: usize,
    ko: Option<(Point, Color)>,
    hash: u64,
    captures: [u32; 2],
    last_move: Option<Move>,
    last_captured: u32,
}

/// The moves `Board::play_undoable` made, to take back with `Board::undo`:
/// the readers try a move and take it back on one board instead of
/// copying the whole board (about 12 KB) at every node.
#[derive(Clone, Debug, Default)]
pub struct Undo {
    changes: Vec<Change>,
    moves: Vec<Saved>,
}

impl Undo {
    /// Moves recorded and not yet taken back.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Forgets every recorded move (the board they were made on is
    /// thrown away).
    pub fn clear(&mut self) {
        self.changes.clear();
        self.moves.clear();
    }
}

/// Where `play` reports what it overwrites: nowhere for a plain move
/// (the calls vanish once inlined), an `Undo` for one to take back.
trait Log {
    fn log(&mut self, change: Change);
}

impl Log for () {
    #[inline(always)]
    fn log(&mut self, _: Change) {}
}

impl Log for Vec<Change> {
    #[inline(always)]
    fn log(&mut self, change: Change) {
        self.push(change);
    }
}

/// A tiny set of points without allocation, for liberty counting.
#[derive(Default)]
struct SmallSet {
    pts: [u16; SmallSet::CAP],
    len: usize,
}

impl SmallSet {
    const CAP: usize = 8;

    fn insert(&mut self, p: u16) {
        if self.len < Self::CAP && !self.pts[..self.len].contains(&p) {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    Occupied,
    Suicide,
    Ko,
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
        })
    }
}

/// A Go position (no history: see `Game` for that).
#[derive(Clone)]
pub struct Board {
    /// Columns (x runs over `0..width`) and rows (y over `0..height`).
    width: usize,
    height: usize,
    cells: [Cell; POINTS],
    /// Head point of the chain each stone belongs to.
    head: [u16; POINTS],
    /// Next stone of the same chain (circular list).
    next: [u16; POINTS],
    /// Chain data, indexed by the head point.
    chains: [Chain; POINTS],
    /// Empty points, in no order, and where each sits in that list.
    empties: Vec<u16>,
    empty_pos: [u16; POINTS],
    /// Point where `ko.1` may not play right now (simple ko).
    ko: Option<(Point, Color)>,
    hash: u64,
    /// Stones captured *by* each colour.
    captures: [u32; 2],
    last_move: Option<Move>,
    /// Number of stones removed by the last move (for ko detection).
    last_captured: u32,
}

impl Board {
    /// An empty board of `size` x `size` (2..=25).
    pub fn new(size: usize) -> Board {
        Board::new_rect(size, size)
    }

    /// An empty board `width` columns wide and `height` rows high (each
    /// 2..=25; out-of-range sides are clamped to 1..=25).
    pub fn new_rect(width: usize, height: usize) -> Board {
        let width = width.clamp(1, MAX_SIZE);
        let height = height.clamp(1, MAX_SIZE);
        let mut b = Board {
            width,
            height,
            cells: [Cell::Edge; POINTS],
            head: [0; POINTS],
            next: [0; POINTS],
            chains: [Chain::default(); POINTS],
            empties: Vec::with_capacity(width * height),
            empty_pos: [0; POINTS],
            ko: None,
            hash: 0,
            captures: [0; 2],
            last_move: None,
            last_captured: 0,
        };
        for y in 0..height {
            for x in 0..width {
                let p = Point::from_xy(x, y);
                b.cells[p.index()] = Cell::Empty;
                b.empty_pos[p.index()] = b.empties.len() as u16;
                b.empties.push(p.0);
            }
        }
        b
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The shorter side: what rules tuned on square boards look at.
    pub fn short_side(&self) -> usize {
        self.width.min(self.height)
    }

    pub fn is_square(&self) -> bool {
        self.width == self.height
    }

    /// Number of points on the board.
    pub fn area_points(&self) -> usize {
        self.width * self.height
    }

    /// The point at column `x`, row `y` (0-based, signed so that callers
    /// can step off the board), if it is on the board.
    pub fn at(&self, x: isize, y: isize) -> Option<Point> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| Point::from_xy(x as usize, y as usize))
    }

    /// The point `(dx, dy)` away from `p`, if on the board.
    pub fn offset(&self, p: Point, dx: isize, dy: isize) -> Option<Point> {
        self.at(p.x() as isize + dx, p.y() as isize + dy)
    }

    /// Whether `p` is a point of this board.
    pub fn on_board(&self, p: Point) -> bool {
        let (col, row) = (p.index() % STRIDE, p.index() / STRIDE);
        (1..=self.width).contains(&col) && (1..=self.height).contains(&row)
    }

    /// Distance from `p` to the nearest edge: 0 on the first line.
    pub fn edge_distance(&self, p: Point) -> usize {
        p.x()
            .min(p.y())
            .min(self.width - 1 - p.x())
            .min(self.height - 1 - p.y())
    }

    /// One more than the largest index of an on-board point: the length
    /// of a per-point array for this board.
    pub fn slots(&self) -> usize {
        Point::from_xy(self.width - 1, self.height - 1).index() + 1
    }

    /// Parses a GTP vertex (or `pass`) for this board's shape.
    pub fn parse_move(&self, s: &str) -> Option<Move> {
        parse_vertex_rect(s, self.width, self.height)
    }

    /// The side of a square board; the longer side of a rectangular one
    /// (shape-aware code uses `width` and `height`).
    pub fn size(&self) -> usize {
        self.width.max(self.height)
    }

    /// Makes `self` a copy of `src`, moving only the rows a board of
    /// `src`'s size uses (a 9x9 position is about 40% of the arrays) and
    /// reusing `self`'s allocation: the tactical reader's copies.
    pub fn copy_from(&mut self, src: &Board) {
        // Every point a board of this size reads: its rows and the border
        // rows above and below (neighbours of the top row included).
        let n = ((src.height + 2) * STRIDE).min(POINTS);
        self.width = src.width;
        self.height = src.height;
        self.cells[..n].copy_from_slice(&src.cells[..n]);
        self.head[..n].copy_from_slice(&src.head[..n]);
        self.next[..n].copy_from_slice(&src.next[..n]);
        self.chains[..n].copy_from_slice(&src.chains[..n]);
        self.empty_pos[..n].copy_from_slice(&src.empty_pos[..n]);
        self.empties.clear();
        self.empties.extend_from_slice(&src.empties);
        self.ko = src.ko;
        self.hash = src.hash;
        self.captures = src.captures;
        self.last_move = src.last_move;
        self.last_captured = src.last_captured;
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.index()]
    }

    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Every on-board point, row by row from A1.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Point::from_xy(x, y)))
    }

    pub fn empties(&self) -> &[u16] {
        &self.empties
    }

    pub fn empty_point(&self, i: usize) -> Point {
        Point(self.empties[i])
    }

    pub fn stone_count(&self) -> usize {
        self.area_points() - self.empties.len()
    }

    pub fn is_empty_board(&self) -> bool {
        self.empties.len() == self.area_points()
    }

    fn chain(&self, p: Point) -> &Chain {
        &self.chains[self.head[p.index()] as usize]
    }

    /// Head of the chain holding the stone at `p`.
    pub fn chain_id(&self, p: Point) -> u16 {
        self.head[p.index()]
    }

    pub fn chain_size(&self, p: Point) -> usize {
        self.chain(p).size as usize
    }

    /// The only liberty of the chain at `p`, if it is in atari.
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let c = self.chain(p);
        if c.libs > 0 && c.libs as u64 * c.lib_sq as u64 == c.lib_sum as u64 * c.lib_sum as u64 {
            Some(Point((c.lib_sum / c.libs as u32) as u16))
        } else {
            None
        }
    }

    pub fn in_atari(&self, p: Point) -> bool {
        self.atari_liberty(p).is_some()
    }

    /// Stones of the chain at `p`.
    pub fn chain_stones(&self, p: Point) -> Vec<Point> {
        self.stones_of(p).collect()
    }

    /// Stones of the chain at `p`, without allocating (the readers'
    /// inner loops).
    pub fn stones_of(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let mut at = Some(p.0);
        std::iter::from_fn(move || {
            let s = at?;
            let next = self.next[s as usize];
            at = (next != p.0).then_some(next);
            Some(Point(s))
        })
    }

    /// The chain at `p`'s liberties counted up to `limit` (at most 8),
    /// and the first two found in point order when it has exactly two:
    /// `liberties` without allocating, for the ladder follower.
    pub fn liberties_upto(&self, p: Point, limit: usize) -> (usize, Option<[Point; 2]>) {
        let mut acc = SmallSet::default();
        // Point 0 is padding, never a liberty: nothing is skipped.
        self.collect_libs(p, Point(0), limit.min(SmallSet::CAP), &mut acc);
        let two = (acc.len == 2).then(|| {
            let (a, b) = (Point(acc.pts[0]), Point(acc.pts[1]));
            if a < b {
                [a, b]
            } else {
                [b, a]
            }
        });
        (acc.len, two)
    }

    /// Exact liberties of the chain at `p`, sorted.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut libs = Vec::new();
        for s in self.chain_stones(p) {
            for n in s.neighbors() {
                if self.cells[n.index()] == Cell::Empty && !libs.contains(&n) {
                    libs.push(n);
                }
            }
        }
        libs.sort();
        libs
    }

    /// The two liberties of the chain at `p` when it has exactly two, in
    /// point order.
    pub fn two_liberties(&self, p: Point) -> Option<[Point; 2]> {
        // A point is a pseudo-liberty at most four times (once per
        // neighbour), so more than eight mean three liberties or more.
        if self.chain(p).libs > 8 {
            return None;
        }
        self.liberties_upto(p, 3).1
    }

    /// Adds liberties of the chain at `p` (other than `skip`) to `acc`
    /// until it holds `limit`.
    fn collect_libs(&self, p: Point, skip: Point, limit: usize, acc: &mut SmallSet) {
        let mut s = p.0;
        loop {
            for n in Point(s).neighbors() {
                if self.cells[n.index()] == Cell::Empty && n != skip {
                    acc.insert(n.0);
                    if acc.len >= limit {
                        return;
                    }
                }
            }
            s = self.next[s as usize];
            if s == p.0 {
                return;
            }
        }
    }

    /// Legality under the board's own rules (occupied, simple ko, suicide);
    /// superko needs the history and lives in `Game`.
    pub fn check(&self, c: Color, m: Move) -> Result<(), Illegal> {
        let p = match m {
            Move::Pass => return Ok(()),
            Move::Play(p) => p,
        };
        if self.cells[p.index()] != Cell::Empty {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some((p, c)) {
            return Err(Illegal::Ko);
        }
        if self.is_suicide(c, p) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        self.check(c, m).is_ok()
    }

    /// Whether a stone of `c` on the empty point `p` would have no liberty
    /// and capture nothing.
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        for n in p.neighbors() {
            match self.cells[n.index()] {
                Cell::Empty => return false,
                Cell::Edge => {}
                cell => {
                    let in_atari = self.atari_liberty(n).is_some();
                    if cell == c.cell() {
                        // Joining a chain that has another liberty.
                        if !in_atari {
                            return false;
                        }
                    } else if in_atari {
                        // Captures the neighbour (its last liberty is `p`).
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether `p` is an eye-like point of `c`: every neighbour is `c` or
    /// the edge, and the diagonals do not make it a false eye.
    pub fn is_eyeish(&self, c: Color, p: Point) -> bool {
        let own = c.cell();
        for n in p.neighbors() {
            let cell = self.cells[n.index()];
            if cell != own && cell != Cell::Edge {
                return false;
            }
        }
        let mut bad = 0;
        let mut edge = false;
        for d in p.diagonals() {
            match self.cells[d.index()] {
                Cell::Edge => edge = true,
                cell if cell == own || cell == Cell::Empty => {}
                _ => bad += 1,
            }
        }
        if edge {
            bad == 0
        } else {
            bad < 2
        }
    }

    /// The board after `c` plays `p`, or `None` if that is illegal (the
    /// readers' way of trying a move on a copy).
    pub fn after(&self, c: Color, p: Point) -> Option<Board> {
        if !self.is_legal(c, Move::Play(p)) {
            return None;
        }
        let mut b = self.clone();
        b.play(c, Move::Play(p));
        Some(b)
    }

    /// Plays a move assumed legal (see `check`). Returns the number of
    /// stones captured.
    pub fn play(&mut self, c: Color, m: Move) -> u32 {
        self.play_logged(c, m, &mut ())
    }

    /// `play`, recorded in `undo` so that `undo` can take it back.
    pub fn play_undoable(&mut self, c: Color, m: Move, undo: &mut Undo) -> u32 {
        undo.moves.push(Saved {
            changes: undo.changes.len(),
            ko: self.ko,
            hash: self.hash,
            captures: self.captures,
            last_move: self.last_move,
            last_captured: self.last_captured,
        });
        self.play_logged(c, m, &mut undo.changes)
    }

    /// Takes back the last move recorded in `undo` (none: nothing),
    /// leaving every field as it was before that move.
    pub fn undo(&mut self, undo: &mut Undo) {
        let Some(saved) = undo.moves.pop() else {
            return;
        };
        for &change in undo.changes[saved.changes..].iter().rev() {
            match change {
                Change::Cell(i, v) => self.cells[i as usize] = v,
                Change::Head(i, v) => self.head[i as usize] = v,
                Change::Next(i, v) => self.next[i as usize] = v,
                Change::Chain(i, v) => self.chains[i as usize] = v,
                Change::EmptyPos(i, v) => self.empty_pos[i as usize] = v,
                Change::EmptySet(i, v) => self.empties[i as usize] = v,
                Change::EmptyPop(v) => self.empties.push(v),
                Change::EmptyPush => {
                    self.empties.pop();
                }
            }
        }
        undo.changes.truncate(saved.changes);
        self.ko = saved.ko;
        self.hash = saved.hash;
        self.captures = saved.captures;
        self.last_move = saved.last_move;
        self.last_captured = saved.last_captured;
    }

    /// Takes back recorded moves until `undo` holds `len`.
    pub fn undo_to(&mut self, undo: &mut Undo, len: usize) {
        while undo.len() > len {
            self.undo(undo);
        }
    }

    fn play_logged<L: Log>(&mut self, c: Color, m: Move, log: &mut L) -> u32 {
        self.ko = None;
        self.last_move = Some(m);
        self.last_captured = 0;
        let p = match m {
            Move::Pass => return 0,
            Move::Play(p) => p,
        };
        self.place(c, p, log);
        let mut captured = 0;
        let mut last_captured_at = p;
        for n in p.neighbors() {
            if self.cells[n.index()] == c.opp().cell() && self.chain(n).libs == 0 {
                last_captured_at = n;
                captured += self.remove_chain(n, log);
            }
        }
        self.captures[c.index()] += captured;
        self.last_captured = captured;
        // Simple ko: one stone taken by a lone stone that now has one liberty.
        if captured == 1 && self.chain(p).size == 1 && self.atari_liberty(p).is_some() {
            self.ko = Some((last_captured_at, c.opp()));
        }
        captured
    }

    fn set_empty_list_remove<L: Log>(&mut self, p: Point, log: &mut L) {
        let i = self.empty_pos[p.index()] as usize;
        let last = self.empties.len() - 1;
        let moved = self.empties[last];
        log.log(Change::EmptySet(i as u16, self.empties[i]));
        self.empties[i] = moved;
        log.log(Change::EmptyPos(moved, self.empty_pos[moved as usize]));
        self.empty_pos[moved as usize] = i as u16;
        log.log(Change::EmptyPop(moved));
        self.empties.pop();
    }

    fn add_lib<L: Log>(&mut self, head: u16, lib: Point, log: &mut L) {
        log.log(Change::Chain(head, self.chains[head as usize]));
        let ch = &mut self.chains[head as usize];
        ch.libs += 1;
        ch.lib_sum += lib.0 as u32;
        ch.lib_sq += (lib.0 as u32) * (lib.0 as u32);
    }

    fn remove_lib<L: Log>(&mut self, head: u16, lib: Point, log: &mut L) {
        log.log(Change::Chain(head, self.chains[head as usize]));
        let ch = &mut self.chains[head as usize];
        ch.libs -= 1;
        ch.lib_sum -= lib.0 as u32;
        ch.lib_sq -= (lib.0 as u32) * (lib.0 as u32);
    }

    fn place<L: Log>(&mut self, c: Color, p: Point, log: &mut L) {
        log.log(Change::Cell(p.0, self.cells[p.index()]));
        self.cells[p.index()] = c.cell();
        self.hash ^= ZOBRIST[c.index()][p.index()];
        self.set_empty_list_remove(p, log);
        log.log(Change::Head(p.0, self.head[p.index()]));
        self.head[p.index()] = p.0;
        log.log(Change::Next(p.0, self.next[p.index()]));
        self.next[p.index()] = p.0;
        log.log(Change::Chain(p.0, self.chains[p.index()]));
        self.chains[p.index()] = Chain {
            size: 1,
            ..Chain::default()
        };
        for n in p.neighbors() {
            match self.cells[n.index()] {
                Cell::Empty => self.add_lib(p.0, n, log),
                Cell::Edge => {}
                _ => {
                    let h = self.head[n.index()];
                    self.remove_lib(h, p, log);
                }
            }
        }
        for n in p.neighbors() {
            if self.cells[n.index()] == c.cell() {
                let a = self.head[p.index()];
                let b = self.head[n.index()];
                if a != b {
                    self.merge(a, b, log);
                }
            }
        }
    }

    /// Merges the smaller chain into the larger.
    fn merge<L: Log>(&mut self, a: u16, b: u16, log: &mut L) {
        let (big, small) = if self.chains[a as usize].size >= self.chains[b as usize].size {
            (a, b)
        } else {
            (b, a)
        };
        let sc = self.chains[small as usize];
        log.log(Change::Chain(big, self.chains[big as usize]));
        {
            let bc = &mut self.chains[big as usize];
            bc.libs += sc.libs;
            bc.lib_sum += sc.lib_sum;
            bc.lib_sq += sc.lib_sq;
            bc.size += sc.size;
        }
        let mut s = small;
        loop {
            log.log(Change::Head(s, self.head[s as usize]));
            self.head[s as usize] = big;
            s = self.next[s as usize];
            if s == small {
                break;
            }
        }
        // Splice the two circular lists.
        log.log(Change::Next(big, self.next[big as usize]));
        log.log(Change::Next(small, self.next[small as usize]));
        self.next.swap(big as usize, small as usize);
    }

    fn remove_chain<L: Log>(&mut self, p: Point, log: &mut L) -> u32 {
        let start = self.head[p.index()];
        let color = self.cells[p.index()];
        let ci = if color == Cell::Black { 0 } else { 1 };
        let mut count = 0;
        let mut s = start;
        loop {
            let sp = Point(s);
            log.log(Change::Cell(s, self.cells[sp.index()]));
            self.cells[sp.index()] = Cell::Empty;
            self.hash ^= ZOBRIST[ci][sp.index()];
            log.log(Change::EmptyPos(s, self.empty_pos[sp.index()]));
            self.empty_pos[sp.index()] = self.empties.len() as u16;
            log.log(Change::EmptyPush);
            self.empties.push(s);
            count += 1;
            s = self.next[s as usize];
            if s == start {
                break;
            }
        }
        // Second pass: give the liberties back to the surrounding chains.
        let mut s = start;
        loop {
            let sp = Point(s);
            for n in sp.neighbors() {
                let cell = self.cells[n.index()];
                if cell == Cell::Black || cell == Cell::White {
                    let h = self.head[n.index()];
                    self.add_lib(h, sp, log);
                }
            }
            s = self.next[s as usize];
            if s == start {
                break;
            }
        }
        count
    }

    /// Places a setup stone (handicap, SGF `AB`/`AW`) without move rules.
    /// Refuses an occupied point or a stone that would have no liberty.
    pub fn setup_stone(&mut self, c: Color, p: Point) -> bool {
        if self.cells[p.index()] != Cell::Empty || self.is_suicide(c, p) {
            return false;
        }
        self.play(c, Move::Play(p));
        self.last_move = None;
        self.captures = [0; 2];
        true
    }

    /// Stones on the board of colour `c`, sorted.
    pub fn stones(&self, c: Color) -> Vec<Point> {
        self.points()
            .filter(|&p| self.cells[p.index()] == c.cell())
            .collect()
    }

    /// Tromp-Taylor area of each colour: stones plus empty regions that
    /// reach only that colour. Every stone counts as alive.
    pub fn area(&self) -> [u32; 2] {
        self.area_with(&[])
    }

    /// Area after removing `dead` stones (treated as empty points).
    pub fn area_with(&self, dead: &[Point]) -> [u32; 2] {
        let owners = self.owners_with(dead);
        let mut area = [0u32; 2];
        for p in self.points() {
            if let Some(c) = owners[p.index()] {
                area[c.index()] += 1;
            }
        }
        area
    }

    /// The empty regions after removing `dead` stones (dead stones' points
    /// join them): for each, the only colour it borders (if one), whether
    /// it borders a stone of `seki`, and its size.
    pub fn empty_regions(
        &self,
        dead: &[Point],
        seki: &[Point],
    ) -> Vec<(Option<Color>, bool, usize)> {
        let mut cells = self.cells;
        for &d in dead {
            cells[d.index()] = Cell::Empty;
        }
        let mut seen = [false; POINTS];
        let mut out = Vec::new();
        let mut stack: Vec<Point> = Vec::new();
        for p in self.points() {
            if cells[p.index()] != Cell::Empty || seen[p.index()] {
                continue;
            }
            let (mut b, mut w, mut touches_seki, mut size) = (false, false, false, 0usize);
            seen[p.index()] = true;
            stack.push(p);
            while let Some(q) = stack.pop() {
                size += 1;
                for n in q.neighbors() {
                    match cells[n.index()] {
                        Cell::Empty if !seen[n.index()] => {
                            seen[n.index()] = true;
                            stack.push(n);
                        }
                        Cell::Black | Cell::White => {
                            b |= cells[n.index()] == Cell::Black;
                            w |= cells[n.index()] == Cell::White;
                            touches_seki |= seki.contains(&n);
                        }
                        _ => {}
                    }
                }
            }
            let owner = match (b, w) {
                (true, false) => Some(Color::Black),
                (false, true) => Some(Color::White),
                _ => None,
            };
            out.push((owner, touches_seki, size));
        }
        out
    }

    /// Owner of every point after removing `dead` stones: stones own their
    /// point, an empty region belongs to the only colour it reaches.
    pub fn owners_with(&self, dead: &[Point]) -> Vec<Option<Color>> {
        let mut cells = self.cells;
        for &d in dead {
            cells[d.index()] = Cell::Empty;
        }
        let mut owners = vec![None; POINTS];
        let mut seen = [false; POINTS];
        let mut stack: Vec<Point> = Vec::new();
        let mut region: Vec<Point> = Vec::new();
        for p in self.points() {
            match cells[p.index()] {
                Cell::Black => owners[p.index()] = Some(Color::Black),
                Cell::White => owners[p.index()] = Some(Color::White),
                Cell::Empty if !seen[p.index()] => {
                    region.clear();
                    let (mut b, mut w) = (false, false);
                    seen[p.index()] = true;
                    stack.push(p);
                    while let Some(q) = stack.pop() {
                        region.push(q);
                        for n in q.neighbors() {
                            match cells[n.index()] {
                                Cell::Empty if !seen[n.index()] => {
                                    seen[n.index()] = true;
                                    stack.push(n);
                                }
                                Cell::Black => b = true,
                                Cell::White => w = true,
                                _ => {}
                            }
                        }
                    }
                    let owner = match (b, w) {
                        (true, false) => Some(Color::Black),
                        (false, true) => Some(Color::White),
                        _ => None,
                    };
                    for &q in &region {
                        owners[q.index()] = owner;
                    }
                }
                _ => {}
            }
        }
        owners
    }

    /// Owner of each point at the end of a playout (stones and one-colour
    /// empty points; others neutral), cheap version of `area` that assumes
    /// every empty point is a single-point region or neutral.
    pub fn fast_owner(&self, p: Point) -> Option<Color> {
        match self.cells[p.index()] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Empty => {
                let (mut b, mut w) = (false, false);
                for n in p.neighbors() {
                    match self.cells[n.index()] {
                        Cell::Black => b = true,
                        Cell::White => w = true,
                        _ => {}
                    }
                }
                match (b, w) {
                    (true, false) => Some(Color::Black),
                    (false, true) => Some(Color::White),
                    _ => None,
                }
            }
            Cell::Edge => None,
        }
    }

    /// Colour of the 8 points around `p` packed 2 bits each (0 empty,
    /// 1 black, 2 white, 3 edge), for the pattern table.
    pub fn ring_code(&self, p: Point) -> usize {
        let mut code = 0usize;
        for (i, q) in p.ring().iter().enumerate() {
            let v = match self.cells[q.index()] {
                Cell::Empty => 0,
                Cell::Black => 1,
                Cell::White => 2,
                Cell::Edge => 3,
            };
            code |= v << (2 * i);
        }
        code
    }

    /// Liberty count (capped at `limit`) a stone of `c` at `p` would have,
    /// counting a capture as enough.
    pub fn libs_after(&self, c: Color, p: Point, limit: usize) -> usize {
        let limit = limit.min(SmallSet::CAP);
        let mut acc = SmallSet::default();
        // Empty neighbours first: often enough on their own.
        for n in p.neighbors() {
            if self.cells[n.index()] == Cell::Empty {
                acc.insert(n.0);
            }
        }
        if acc.len >= limit {
            return limit;
        }
        for n in p.neighbors() {
            match self.cells[n.index()] {
                Cell::Empty | Cell::Edge => {}
                cell if cell == c.cell() => {
                    self.collect_libs(n, p, limit, &mut acc);
                }
                _ => {
                    // Capturing frees at least the captured points.
                    if self.atari_liberty(n).is_some() {
                        return limit;
                    }
                }
            }
            if acc.len >= limit {
                return limit;
            }
        }
        acc.len.min(limit)
    }

    /// Neighbours of `p` (some may be edge points).
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        p.neighbors()
    }

    /// Board drawing for `showboard` (no empty line inside).
    pub fn render(&self) -> String {
        let (w, n) = (self.width, self.height);
        let mut s = String::new();
        let letters: String = COLUMNS[..w]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        s.push_str(&format!("  {letters}\n"));
        for y in (0..n).rev() {
            s.push_str(&format!("{:>2}", y + 1));
            for x in 0..w {
                let ch = match self.cells[Point::from_xy(x, y).index()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!(" {}", y + 1));
            if y == n - 1 {
                s.push_str(&format!(
                    "    WHITE (O) has captured {} stones",
                    self.captures[1]
                ));
            }
            if y + 2 == n || (n == 1 && y == 0) {
                s.push_str(&format!(
                    "    BLACK (X) has captured {} stones",
                    self.captures[0]
                ));
            }
            s.push('\n');
        }
        s.push_str(&format!("  {letters}"));
        s
    }
}

/// Boards and points written as text, for the crate's tests.
#[cfg(test)]
pub(crate) mod test_util {
    use super::*;

    /// The point a vertex names on a `size` board.
    pub(crate) fn point(s: &str, size: usize) -> Point {
        match parse_vertex(s, size) {
            Some(Move::Play(p)) => p,
            _ => panic!("bad vertex {s}"),
        }
    }

    /// The point a vertex names on board `b` (any shape).
    pub(crate) fn point_on(s: &str, b: &Board) -> Point {
        match b.parse_move(s) {
            Some(Move::Play(p)) => p,
            _ => panic!("bad vertex {s}"),
        }
    }

    /// Plays up to `tries` random points on `b`, Black first and the
    /// colours alternating, skipping the illegal ones (a try that is
    /// illegal still passes the turn); stops early on a full board.
    pub(crate) fn play_random(b: &mut Board, rng: &mut crate::playout::Rng, tries: usize) {
        let mut c = Color::Black;
        for _ in 0..tries {
            let e = b.empties().len();
            if e == 0 {
                return;
            }
            let p = b.empty_point(rng.below(e));
            if b.is_legal(c, Move::Play(p)) {
                b.play(c, Move::Play(p));
            }
            c = c.opp();
        }
    }

    /// A board from rows top-down: `X` black, `O` white, anything else
    /// empty; blanks between points are optional.
    pub(crate) fn from_rows(rows: &[&str]) -> Board {
        let n = rows.len();
        let w = rows
            .first()
            .map_or(n, |r| r.chars().filter(|c| !c.is_whitespace()).count());
        let mut b = Board::new_rect(w, n);
        for (i, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let c = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let p = Point::from_xy(x, n - 1 - i);
                assert!(b.setup_stone(c, p), "bad stone at row {i} col {x}");
            }
        }
        b
    }

    /// Every field of `a` and `b` equal, stale array entries included.
    pub(crate) fn assert_same(a: &Board, b: &Board) {
        assert_eq!((a.width, a.height), (b.width, b.height));
        assert_eq!(a.cells[..], b.cells[..]);
        assert_eq!(a.head[..], b.head[..]);
        assert_eq!(a.next[..], b.next[..]);
        assert_eq!(a.chains[..], b.chains[..]);
        assert_eq!(a.empties, b.empties);
        assert_eq!(a.empty_pos[..], b.empty_pos[..]);
        assert_eq!(a.ko, b.ko);
        assert_eq!(a.hash, b.hash);
        assert_eq!(a.captures, b.captures);
        assert_eq!(a.last_move, b.last_move);
        assert_eq!(a.last_captured, b.last_captured);
    }

    /// A 9x9 board with `list`'s stones played in order.
    pub(crate) fn stones(list: &[(Color, &str)]) -> Board {
        let mut b = Board::new(9);
        for &(c, s) in list {
            b.play(c, Move::Play(point(s, 9)));
        }
        b
    }

    /// A reader's answer as GNU Go prints a success code and its move
    /// (`0`, `1 C3`, `1 PASS`), for answers that are lost or won.
    pub(crate) fn show(a: crate::reading::Answer) -> String {
        match (a.code, a.point) {
            (crate::reading::LOSS, _) => "0".into(),
            (_, Some(p)) => format!("1 {}", vertex_name(p)),
            (_, None) => "1 PASS".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::assert_same;
    use super::*;

    fn v(s: &str) -> Point {
        test_util::point(s, 19)
    }

    #[test]
    fn vertices_round_trip_and_skip_i() {
        assert_eq!(vertex_name(v("J9")), "J9");
        assert_eq!(parse_vertex("I5", 19), None);
        assert_eq!(parse_vertex("T20", 19), None);
        assert_eq!(parse_vertex("a0", 19), None);
        assert_eq!(parse_vertex("PASS", 9), Some(Move::Pass));
        assert_eq!(parse_vertex("k10", 9), None);
        assert_eq!(
            vertex_name(
                parse_vertex("z25", 25)
                    .map(|m| match m {
                        Move::Play(p) => p,
                        Move::Pass => v("A1"),
                    })
                    .unwrap_or(v("A1"))
            ),
            "Z25"
        );
    }

    #[test]
    fn atari_detection_is_exact() {
        let mut b = Board::new(9);
        b.play(Color::Black, Move::Play(v("E5")));
        assert!(!b.in_atari(v("E5")));
        b.play(Color::White, Move::Play(v("E6")));
        b.play(Color::White, Move::Play(v("D5")));
        b.play(Color::White, Move::Play(v("F5")));
        assert_eq!(b.atari_liberty(v("E5")), Some(v("E4")));
        assert!(!b.is_suicide(Color::Black, v("E4")));
        b.play(Color::White, Move::Play(v("E4")));
        assert_eq!(b.cell(v("E5")), Cell::Empty);
        assert_eq!(b.captures(Color::White), 1);
        assert!(b.is_suicide(Color::Black, v("E5")));
    }

    #[test]
    fn libs_after_matches_playing_the_move() {
        let mut rng = crate::playout::Rng::new(11);
        let mut checked = 0;
        for _ in 0..40 {
            let mut b = Board::new(7);
            let tries = rng.below(45);
            test_util::play_random(&mut b, &mut rng, tries);
            for p in b.points() {
                for col in [Color::Black, Color::White] {
                    if !b.is_legal(col, Move::Play(p)) {
                        continue;
                    }
                    let mut after = b.clone();
                    if after.play(col, Move::Play(p)) > 0 {
                        assert_eq!(b.libs_after(col, p, 3), 3);
                        continue;
                    }
                    let real = after.liberties(p).len().min(3);
                    assert_eq!(b.libs_after(col, p, 3), real, "{}", vertex_name(p));
                    // Pseudo-liberty atari detection agrees with the truth.
                    assert_eq!(after.in_atari(p), after.liberties(p).len() == 1);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn liberty_counts_without_allocation_agree_with_the_liberties() {
        let mut rng = crate::playout::Rng::new(29);
        let mut twos = 0;
        for _ in 0..40 {
            let mut b = Board::new(7);
            let tries = rng.below(50);
            test_util::play_random(&mut b, &mut rng, tries);
            for p in b.points().filter(|&p| b.cell(p).color().is_some()) {
                let libs = b.liberties(p);
                let mut got = b.two_liberties(p).map(|l| l.to_vec());
                if let Some(v) = got.as_mut() {
                    v.sort();
                }
                for limit in 1..=8 {
                    assert_eq!(b.liberties_upto(p, limit).0, libs.len().min(limit));
                }
                assert_eq!(b.liberties_upto(p, 3).1, got.as_ref().map(|v| [v[0], v[1]]));
                assert_eq!(b.stones_of(p).count(), b.chain_size(p));
                assert_eq!(got, (libs.len() == 2).then_some(libs));
                twos += got.is_some() as usize;
            }
        }
        assert!(twos > 50, "{twos}");
    }

    #[test]
    fn chains_stay_consistent_through_captures() {
        let mut rng = crate::playout::Rng::new(3);
        for _ in 0..30 {
            let mut b = Board::new(5);
            let mut c = Color::Black;
            for _ in 0..200 {
                let e = b.empties().len();
                if e == 0 {
                    break;
                }
                let p = b.empty_point(rng.below(e));
                if b.is_legal(c, Move::Play(p)) {
                    b.play(c, Move::Play(p));
                }
                c = c.opp();
                for q in b.points() {
                    if b.cell(q).color().is_some() {
                        let libs = b.liberties(q);
                        assert!(!libs.is_empty());
                        let want = if libs.len() == 1 { Some(libs[0]) } else { None };
                        assert_eq!(b.atari_liberty(q), want);
                        assert_eq!(b.chain_stones(q).len(), b.chain_size(q));
                    }
                }
            }
        }
    }

    #[test]
    fn copy_from_equals_clone_across_sizes() {
        let mut rng = crate::playout::Rng::new(17);
        // A scratch board that held a bigger position first.
        let mut scratch = Board::new(19);
        for _ in 0..60 {
            let e = scratch.empties().len();
            let p = scratch.empty_point(rng.below(e));
            if scratch.is_legal(Color::Black, Move::Play(p)) {
                scratch.play(Color::Black, Move::Play(p));
            }
        }
        for size in [19usize, 9, 5, 13] {
            let mut b = Board::new(size);
            let mut c = Color::Black;
            for _ in 0..size * size / 2 {
                let e = b.empties().len();
                let p = b.empty_point(rng.below(e));
                if b.is_legal(c, Move::Play(p)) {
                    b.play(c, Move::Play(p));
                }
                c = c.opp();
            }
            scratch.copy_from(&b);
            let mut twin = b.clone();
            // Both go on identically.
            for _ in 0..size * size {
                let e = twin.empties().len();
                if e == 0 {
                    break;
                }
                let p = twin.empty_point(rng.below(e));
                assert_eq!(scratch.empty_point(0), twin.empty_point(0));
                if twin.is_legal(c, Move::Play(p)) {
                    assert!(scratch.is_legal(c, Move::Play(p)));
                    assert_eq!(twin.play(c, Move::Play(p)), scratch.play(c, Move::Play(p)));
                }
                c = c.opp();
                assert_eq!(twin.hash(), scratch.hash());
            }
            for p in twin.points() {
                assert_eq!(twin.cell(p), scratch.cell(p));
                if twin.cell(p).color().is_some() {
                    assert_eq!(twin.liberties(p), scratch.liberties(p));
                    assert_eq!(twin.atari_liberty(p), scratch.atari_liberty(p));
                }
            }
        }
    }

    #[test]
    fn undo_restores_every_field() {
        let mut rng = crate::playout::Rng::new(29);
        let (mut taken, mut kos, mut undone) = (0, 0, 0);
        for (w, h) in [(5usize, 5usize), (7, 7), (9, 9), (13, 9), (19, 19)] {
            for _ in 0..6 {
                let mut b = Board::new_rect(w, h);
                let mut undo = Undo::default();
                // The board before each recorded move, to compare with.
                let mut before: Vec<Board> = Vec::new();
                let mut c = Color::Black;
                for _ in 0..w * h * 4 {
                    // Mostly forward (so that boards fill up and chains
                    // get captured), sometimes back a few moves.
                    if !before.is_empty() && rng.below(4) == 0 {
                        for _ in 0..rng.below(3) + 1 {
                            let Some(old) = before.pop() else { break };
                            b.undo(&mut undo);
                            assert_same(&b, &old);
                            undone += 1;
                            c = c.opp();
                        }
                        continue;
                    }
                    let e = b.empties().len();
                    let m = if e == 0 || rng.below(20) == 0 {
                        Move::Pass
                    } else {
                        Move::Play(b.empty_point(rng.below(e)))
                    };
                    if !b.is_legal(c, m) {
                        continue;
                    }
                    before.push(b.clone());
                    taken += b.play_undoable(c, m, &mut undo);
                    kos += b.ko().is_some() as u32;
                    assert_eq!(undo.len(), before.len());
                    c = c.opp();
                }
                // All the way back to the empty board.
                while let Some(old) = before.pop() {
                    b.undo(&mut undo);
                    assert_same(&b, &old);
                }
                assert!(undo.is_empty() && undo.changes.is_empty());
                assert_same(&b, &Board::new_rect(w, h));
            }
        }
        assert!(
            taken > 1000 && kos > 20 && undone > 1000,
            "{taken} {kos} {undone}"
        );
    }

    #[test]
    fn undo_takes_back_a_ko_capture_and_a_merge() {
        let mut b = test_util::from_rows(&[
            ". . . . .",
            ". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
        ]);
        let [c3, b3, a4] = ["C3", "B3", "A4"].map(|v| test_util::point_on(v, &b));
        let start = b.clone();
        let mut undo = Undo::default();
        assert_eq!(b.play_undoable(Color::Black, Move::Play(c3), &mut undo), 1);
        assert_eq!(b.ko(), Some((b3, Color::White)));
        let after_ko = b.clone();
        // A merge on top (A4 joins A3 and B4), then a pass.
        b.play_undoable(Color::Black, Move::Play(a4), &mut undo);
        b.play_undoable(Color::White, Move::Pass, &mut undo);
        b.undo_to(&mut undo, 1);
        assert_same(&b, &after_ko);
        b.undo(&mut undo);
        assert_same(&b, &start);
        // Nothing left to take back: a no-op.
        b.undo(&mut undo);
        assert_same(&b, &start);
    }

    #[test]
    fn area_counts_regions() {
        let b = Board::new(5);
        assert_eq!(b.area(), [0, 0]);
        let mut b = Board::new(5);
        b.play(Color::Black, Move::Play(Point::from_xy(2, 2)));
        assert_eq!(b.area(), [25, 0]);
    }

    /// A 13x9 board from a 13x9 vertex.
    fn r(s: &str) -> Point {
        test_util::point_on(s, &Board::new_rect(13, 9))
    }

    #[test]
    fn rectangular_vertices_and_points() {
        let b = Board::new_rect(13, 9);
        assert_eq!((b.width(), b.height(), b.size()), (13, 9, 13));
        assert!(!b.is_square());
        assert_eq!(b.points().count(), 117);
        assert_eq!(b.empties().len(), 117);
        assert!(b.is_empty_board());
        // Columns A..N without I, rows 1..9.
        assert_eq!(vertex_name(r("N9")), "N9");
        assert_eq!(b.parse_move("N10"), None);
        assert_eq!(b.parse_move("O1"), None);
        assert_eq!(b.parse_move("J1"), Some(Move::Play(Point::from_xy(8, 0))));
        assert_eq!(
            parse_vertex_rect("A13", 9, 13),
            Some(Move::Play(Point::from_xy(0, 12)))
        );
        assert_eq!(parse_vertex_rect("K1", 9, 13), None);
        // Every point handed out is on the board, and only those.
        let on = b.points().filter(|&p| b.on_board(p)).count();
        assert_eq!(on, 117);
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Point::from_xy(x, y);
                assert_eq!(b.on_board(p), x < 13 && y < 9, "{x} {y}");
                assert_eq!(b.at(x as isize, y as isize).is_some(), x < 13 && y < 9);
            }
        }
        assert_eq!(b.at(-1, 0), None);
        assert_eq!(b.offset(r("N9"), 1, 0), None);
        assert_eq!(b.offset(r("N9"), 0, -8), Some(r("N1")));
        assert_eq!(b.edge_distance(r("G5")), 4);
        assert_eq!(b.edge_distance(r("F5")), 4);
        assert_eq!(b.edge_distance(r("E5")), 4);
        assert_eq!(b.edge_distance(r("D5")), 3);
        // The drawing: 13 columns, 9 rows, the top row first.
        let text = b.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0].trim(), "A B C D E F G H J K L M N");
        assert!(lines[1].starts_with(" 9 . "), "{}", lines[1]);
        assert!(lines[1].contains("WHITE (O) has captured 0 stones"));
        assert!(lines[2].contains("BLACK (X) has captured 0 stones"));
        assert!(lines[9].starts_with(" 1 "));
        assert_eq!(lines[9].matches('.').count(), 13);
        // A 9x13 board draws 13 rows of 9.
        let tall = Board::new_rect(9, 13).render();
        assert_eq!(tall.lines().count(), 15);
        assert!(tall.lines().nth(1).is_some_and(|l| l.starts_with("13 ")));
    }

    #[test]
    fn corner_captures_on_a_13x9_board() {
        // A lone black stone in each corner, taken by two white stones.
        for (corner, a, b2) in [
            ("A1", "A2", "B1"),
            ("N1", "M1", "N2"),
            ("A9", "A8", "B9"),
            ("N9", "M9", "N8"),
        ] {
            let mut b = Board::new_rect(13, 9);
            b.play(Color::Black, Move::Play(r(corner)));
            assert_eq!(b.liberties(r(corner)).len(), 2, "{corner}");
            b.play(Color::White, Move::Play(r(a)));
            assert_eq!(b.atari_liberty(r(corner)), Some(r(b2)), "{corner}");
            assert_eq!(b.play(Color::White, Move::Play(r(b2))), 1, "{corner}");
            assert_eq!(b.cell(r(corner)), Cell::Empty, "{corner}");
            assert_eq!(b.captures(Color::White), 1);
            // Playing back into the corner is suicide.
            assert!(b.is_suicide(Color::Black, r(corner)), "{corner}");
            assert_eq!(b.stone_count(), 2);
        }
        // A two-stone string along the short side's edge.
        let mut b = Board::new_rect(13, 9);
        for v in ["N5", "N6"] {
            b.play(Color::Black, Move::Play(r(v)));
        }
        assert_eq!(b.liberties(r("N5")).len(), 4);
        for v in ["N4", "N7", "M5", "M6"] {
            b.play(Color::White, Move::Play(r(v)));
        }
        assert_eq!(b.captures(Color::White), 2);
        assert_eq!(b.area(), [0, 117]);
    }

    #[test]
    fn empty_7x5_has_35_legal_points() {
        let b = Board::new_rect(7, 5);
        let legal = b
            .points()
            .filter(|&p| b.is_legal(Color::Black, Move::Play(p)))
            .count();
        assert_eq!(legal, 35);
        let mut b = Board::new_rect(7, 5);
        b.play(Color::Black, Move::Play(Point::from_xy(3, 2)));
        assert_eq!(b.area(), [35, 0]);
    }

    #[test]
    fn rectangular_chains_and_copies_stay_consistent() {
        let mut rng = crate::playout::Rng::new(23);
        // A scratch board that held a wider, then a taller position.
        let mut scratch = Board::new(19);
        for (w, h) in [
            (13usize, 9usize),
            (9, 13),
            (19, 5),
            (5, 19),
            (25, 2),
            (2, 25),
        ] {
            let mut b = Board::new_rect(w, h);
            let mut c = Color::Black;
            for _ in 0..w * h * 2 {
                let e = b.empties().len();
                if e == 0 {
                    break;
                }
                let p = b.empty_point(rng.below(e));
                assert!(b.on_board(p));
                if b.is_legal(c, Move::Play(p)) {
                    b.play(c, Move::Play(p));
                }
                c = c.opp();
            }
            for q in b.points() {
                if b.cell(q).color().is_some() {
                    let libs = b.liberties(q);
                    assert!(!libs.is_empty());
                    assert!(libs.iter().all(|&l| b.on_board(l)));
                    let want = if libs.len() == 1 { Some(libs[0]) } else { None };
                    assert_eq!(b.atari_liberty(q), want);
                }
            }
            let a = b.area();
            assert!((a[0] + a[1]) as usize <= w * h);
            scratch.copy_from(&b);
            assert_eq!((scratch.width(), scratch.height()), (w, h));
            assert_eq!(scratch.hash(), b.hash());
            assert_eq!(scratch.render(), b.render());
            assert_eq!(scratch.area(), b.area());
        }
    }
}
