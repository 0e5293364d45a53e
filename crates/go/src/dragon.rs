//! Dragons in GNU Go's sense: strings ("worms") of one colour that are
//! treated as one unit because they are, for practical purposes,
//! connected, and a simple life-and-death status for each.
//!
//! Amalgamation (GNU Go does it with a pattern database and its
//! connection reader; this is tengen's own rule set, built on the tactical
//! reader and the connection reader of `connection.rs`). Two worms of one
//! colour join when two of their stones stand in one of these shapes:
//!
//! - a diagonal whose two shared neighbours are empty;
//! - a diagonal, a one-point jump, whose open point the opponent cannot
//!   occupy (a stone there would have no liberty and capture nothing),
//!   even when a worm can be captured;
//! - (both worms safe from here on) a diagonal with one opponent stone on
//!   a shared neighbour, or a one-point jump over an empty point, when an
//!   opponent stone on the empty point can be captured (the owner to
//!   move) or the connection reader cannot cut the two;
//! - a crosscut (opponent stones on both shared neighbours) where the
//!   reader captures one of them and either cannot defend it or the
//!   connection reader cannot cut;
//! - a knight's move with both points between empty, when whichever the
//!   opponent takes is captured, or the owner takes the other and an
//!   opponent stone on the diagonal cut left over is captured; else,
//!   like a knight's move with one opponent stone between and a two-point
//!   jump over empty points, when the connection reader cannot cut;
//! - a one-point jump, knight's move, two-point jump or large knight's
//!   move in open ground: no opponent stone on the rectangle spanned by
//!   the two stones grown by one line.
//!
//! A worm is safe when the tactical reader cannot capture it (a ko
//! counts as a capture); unsafe worms join only by the first two rules.
//! Joining is transitive.
//!
//! The dragon's origin is GNU Go's: the first stone (board order, rows from
//! the top) of its largest worm; its stones are listed in board order and
//! its effective size is the sum of its worms' (`worm.rs`).
//!
//! Status (`Verdict`), in this order:
//!
//! 1. a worm of the dragon is pass-alive (Benson, `benson.rs`): alive;
//! 2. every stone lies in the opponent's unconditional territory: dead;
//! 3. a dragon of one worm that the tactical reader captures: critical
//!    (attack and defence point) when the reader also defends it, else
//!    dead;
//! 4. eyes and room: an eye is an empty region (connected empty points)
//!    touching the dragon and no opponent stone, one eye if it has at most
//!    five points, two if more; an opponent worm next to the dragon that
//!    the reader captures and cannot defend counts one eye. Room is the
//!    number of empty points within three steps (through empty points)
//!    that the dragon reaches strictly before any opponent stone. Two eyes
//!    or more, or room of at least `ROOM_ALIVE`: alive; fewer than two eyes
//!    with room under `ROOM_DEAD` and no liberty shared with an opponent
//!    worm the reader can capture: dead; otherwise alive.

use crate::benson::{Unconditional, UnconditionalMap};
use crate::board::{Board, Cell, Color, Point};
use crate::connection::Connector;
use crate::reading::{Answer, Reader, LOSS};
use crate::worm::{board_order, Worms};

/// Positions each connection question of the amalgamation may visit.
pub const CONNECTION_BUDGET: u64 = 3_000;
/// Room (see the module text) from which a dragon with fewer than two eyes
/// is still alive.
pub const ROOM_ALIVE: usize = 10;
/// Room under which a dragon with fewer than two eyes is dead.
pub const ROOM_DEAD: usize = 6;
/// The largest empty region that counts as one eye (larger: two).
const ONE_EYE_MAX: usize = 5;
/// Steps through empty points that room counts.
const ROOM_REACH: u8 = 3;

/// One dragon.
#[derive(Clone, Debug, PartialEq)]
pub struct Dragon {
    /// GNU Go's origin: the first stone of the largest worm.
    pub origin: Point,
    pub color: Color,
    /// Every stone, in board order.
    pub stones: Vec<Point>,
    /// Origins of its worms: the dragon's origin first, then board order.
    pub worms: Vec<Point>,
    /// Sum of the worms' effective sizes.
    pub effective_size: f32,
}

/// A dragon's life-and-death status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Critical,
    Dead,
}

impl Status {
    /// GNU Go's word.
    pub fn name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Critical => "critical",
            Status::Dead => "dead",
        }
    }
}

/// Which rule of the module text decided a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Benson: a pass-alive worm.
    PassAlive,
    /// In the opponent's unconditional territory.
    Unconditional,
    /// The tactical reader on a one-worm dragon.
    Tactical,
    /// Counting eyes and room.
    Eyes,
}

/// The status of one dragon and what it was found from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    pub status: Status,
    pub reason: Reason,
    /// A move that kills (critical and tactically dead dragons).
    pub attack: Option<Point>,
    /// A move that saves (critical dragons).
    pub defense: Option<Point>,
    /// Eyes counted (at most 2 from regions, plus lunches).
    pub eyes: usize,
    /// Room, as in the module text.
    pub room: usize,
    /// An opponent worm next to the dragon the reader captures (its
    /// origin), the one with fewest liberties, then first in board order.
    pub lunch: Option<Point>,
}

/// The dragons of a board.
#[derive(Clone, Debug)]
pub struct Dragons {
    /// Per point index: the dragon holding the stone.
    of_point: Vec<Option<usize>>,
    /// Ordered by origin in board order.
    list: Vec<Dragon>,
}

fn slots(b: &Board) -> usize {
    b.slots()
}

/// Rank of a point in GNU Go's board order.
fn rank(b: &Board, p: Point) -> (usize, usize) {
    (b.height() - p.y(), p.x())
}

/// The point at `(x + dx, y + dy)` when it is on the board.
fn offset(b: &Board, p: Point, dx: isize, dy: isize) -> Option<Point> {
    b.offset(p, dx, dy)
}

/// Union-find over point indices.
struct Union(Vec<usize>);

impl Union {
    fn find(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut j = i;
        while self.0[j] != r {
            let next = self.0[j];
            self.0[j] = r;
            j = next;
        }
        r
    }

    fn join(&mut self, i: usize, j: usize) {
        let (a, b) = (self.find(i), self.find(j));
        if a != b {
            self.0[b] = a;
        }
    }
}

/// The shapes two stones may stand in (offsets with `dx > 0`, or `dx == 0`
/// and `dy > 0`, so each pair is seen once).
const SHAPES: &[(isize, isize)] = &[
    (1, 1),
    (1, -1),
    (2, 0),
    (0, 2),
    (1, 2),
    (1, -2),
    (2, 1),
    (2, -1),
    (3, 0),
    (0, 3),
    (3, 1),
    (3, -1),
    (1, 3),
    (1, -3),
];

/// Everything the amalgamation asks of the readers, cached per worm.
struct Safety<'a> {
    board: &'a Board,
    reader: Reader,
    attacks: Vec<Option<Answer>>,
}

impl Safety<'_> {
    fn attack(&mut self, p: Point) -> Answer {
        let o = self.origin(p);
        if let Some(a) = self.attacks[o.index()] {
            return a;
        }
        let a = self.reader.attack(self.board, o);
        self.attacks[o.index()] = Some(a);
        a
    }

    fn origin(&self, p: Point) -> Point {
        self.board
            .chain_stones(p)
            .into_iter()
            .min_by_key(|&s| rank(self.board, s))
            .unwrap_or(p)
    }

    fn safe(&mut self, p: Point) -> bool {
        self.attack(p).code == LOSS
    }
}

impl Dragons {
    /// The dragons of `b`, the tactical reader given `budget` positions per
    /// question.
    pub fn new(b: &Board, budget: u64) -> Dragons {
        let worms = Worms::new(b);
        let len = slots(b);
        let order = board_order(b);
        let mut safety = Safety {
            board: b,
            reader: Reader::new(budget),
            attacks: vec![None; len],
        };
        let mut connector = Connector::new(CONNECTION_BUDGET);
        let mut union = Union((0..len).collect());
        for &p in &order {
            if let Some(c) = b.cell(p).color() {
                for q in b.neighbors(p) {
                    if b.cell(q).color() == Some(c) {
                        union.join(p.index(), q.index());
                    }
                }
            }
        }
        for &p in &order {
            let Some(c) = b.cell(p).color() else { continue };
            for &(dx, dy) in SHAPES {
                let Some(q) = offset(b, p, dx, dy) else {
                    continue;
                };
                if b.cell(q).color() != Some(c) || union.find(p.index()) == union.find(q.index()) {
                    continue;
                }
                if linked(b, p, q, dx, dy, c, &mut safety, &mut connector) {
                    union.join(p.index(), q.index());
                }
            }
        }
        // Group the stones; the origin is the first stone of the largest
        // worm (GNU Go's choice).
        let mut groups: std::collections::BTreeMap<usize, Vec<Point>> = Default::default();
        for &p in &order {
            if b.cell(p).color().is_some() {
                groups.entry(union.find(p.index())).or_default().push(p);
            }
        }
        let mut list: Vec<Dragon> = groups
            .into_values()
            .map(|stones| {
                let color = b.cell(stones[0]).color().unwrap_or(Color::Black);
                let mut worm_origins: Vec<Point> = Vec::new();
                for &s in &stones {
                    if let Some(w) = worms.get(s) {
                        if !worm_origins.contains(&w.origin) {
                            worm_origins.push(w.origin);
                        }
                    }
                }
                let size_of = |o: Point| worms.get(o).map(|w| w.size).unwrap_or(0);
                let origin = worm_origins
                    .iter()
                    .copied()
                    .min_by_key(|&o| (std::cmp::Reverse(size_of(o)), rank(b, o)))
                    .unwrap_or(stones[0]);
                let mut effective_size = 0f32;
                for &o in &worm_origins {
                    let e = worms.get(o).map(|w| w.effective_size).unwrap_or(0.0);
                    effective_size += e;
                }
                let mut worms_listed = vec![origin];
                worms_listed.extend(worm_origins.iter().copied().filter(|&o| o != origin));
                Dragon {
                    origin,
                    color,
                    stones,
                    worms: worms_listed,
                    effective_size,
                }
            })
            .collect();
        list.sort_by_key(|d| rank(b, d.origin));
        let mut of_point = vec![None; len];
        for (i, d) in list.iter().enumerate() {
            for s in &d.stones {
                of_point[s.index()] = Some(i);
            }
        }
        Dragons { of_point, list }
    }

    /// Every dragon, ordered by origin in board order.
    pub fn all(&self) -> &[Dragon] {
        &self.list
    }

    /// The index (into `all`) of the dragon holding the stone at `p`.
    pub fn index_of(&self, p: Point) -> Option<usize> {
        self.of_point.get(p.index()).copied().flatten()
    }

    /// The dragon holding the stone at `p`.
    pub fn at(&self, p: Point) -> Option<&Dragon> {
        self.index_of(p).map(|i| &self.list[i])
    }

    /// Whether the stones at `p` and `q` belong to one dragon.
    pub fn same(&self, p: Point, q: Point) -> bool {
        matches!((self.index_of(p), self.index_of(q)), (Some(a), Some(b)) if a == b)
    }

    /// The dragons of the other colour next to dragon `i`: touching it, or
    /// both one step from a common empty point; in order of first contact
    /// along the dragon's stones (board order).
    pub fn neighbors(&self, b: &Board, i: usize) -> Vec<usize> {
        let d = &self.list[i];
        let mut out = Vec::new();
        let add = |p: Point, out: &mut Vec<usize>| {
            if b.cell(p).color() == Some(d.color.opp()) {
                if let Some(j) = self.index_of(p) {
                    if !out.contains(&j) {
                        out.push(j);
                    }
                }
            }
        };
        for &s in &d.stones {
            for q in b.neighbors(s) {
                add(q, &mut out);
                if b.cell(q) == Cell::Empty {
                    for r in b.neighbors(q) {
                        add(r, &mut out);
                    }
                }
            }
        }
        out
    }

    /// The status of dragon `i` (see the module text), with the readers
    /// given `budget` positions per question.
    pub fn verdict(
        &self,
        b: &Board,
        i: usize,
        unconditional: &UnconditionalMap,
        budget: u64,
    ) -> Verdict {
        let d = &self.list[i];
        let mut reader = Reader::new(budget);
        let lunches = lunches(b, d, &mut reader);
        let lunch = lunches.first().map(|&(o, _)| o);
        let eyes_from_lunch = lunches.iter().filter(|&&(_, dead)| dead).count();
        let (region_eyes, room) = eyes_and_room(b, d);
        let eyes = region_eyes + eyes_from_lunch;
        let mut v = Verdict {
            status: Status::Alive,
            reason: Reason::Eyes,
            attack: None,
            defense: None,
            eyes,
            room,
            lunch,
        };
        let states: Vec<Unconditional> = d
            .stones
            .iter()
            .map(|&s| unconditional.status(b, s))
            .collect();
        if states.contains(&Unconditional::Alive) {
            v.reason = Reason::PassAlive;
            return v;
        }
        if states.iter().all(|&s| s == Unconditional::Dead) {
            v.status = Status::Dead;
            v.reason = Reason::Unconditional;
            return v;
        }
        if d.worms.len() == 1 {
            let a = reader.attack(b, d.origin);
            if a.code != LOSS {
                let def = reader.defend(b, d.origin);
                v.reason = Reason::Tactical;
                v.attack = a.point;
                if def.code != LOSS {
                    v.status = Status::Critical;
                    v.defense = def.point;
                } else {
                    v.status = Status::Dead;
                }
                return v;
            }
        }
        if eyes >= 2 || room >= ROOM_ALIVE {
            return v;
        }
        if room < ROOM_DEAD && lunches.is_empty() {
            v.status = Status::Dead;
        }
        v
    }
}

/// Whether the stones `p` and `q` (colour `c`, different dragons so far,
/// `q` at `(dx, dy)` from `p`) link their worms.
#[allow(clippy::too_many_arguments)]
fn linked(
    b: &Board,
    p: Point,
    q: Point,
    dx: isize,
    dy: isize,
    c: Color,
    safety: &mut Safety,
    connector: &mut Connector,
) -> bool {
    let opp = Some(c.opp());
    let at = |ddx: isize, ddy: isize| offset(b, p, ddx, ddy);
    let (adx, ady) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    // The points between the two stones.
    let between: Vec<Point> = match (adx, ady) {
        (1, 1) => [at(dx, 0), at(0, dy)].into_iter().flatten().collect(),
        (2, 0) | (0, 2) | (3, 0) | (0, 3) => (1..adx.max(ady))
            .filter_map(|k| at(sx * k, sy * k))
            .collect(),
        (2, 1) => [at(sx, 0), at(sx, dy)].into_iter().flatten().collect(),
        (1, 2) => [at(0, sy), at(dx, sy)].into_iter().flatten().collect(),
        _ => Vec::new(),
    };
    let empty = |r: &Point| b.cell(*r) == Cell::Empty;
    let enemy = |r: &Point| b.cell(*r).color() == opp;
    let blocked = |r: &Point| empty(r) && b.is_suicide(c.opp(), *r);
    let disconnect = |connector: &mut Connector| connector.disconnect(b, p, q).code == LOSS;
    match (adx, ady) {
        (1, 1) => {
            if between.iter().any(blocked) && between.iter().all(|r| empty(r) || enemy(r)) {
                return true;
            }
            if between.iter().all(empty) {
                return true;
            }
            if !(safety.safe(p) && safety.safe(q)) {
                return false;
            }
            let enemies: Vec<Point> = between.iter().copied().filter(enemy).collect();
            match enemies.len() {
                0 => true,
                1 => {
                    let gap: Vec<Point> = between.iter().copied().filter(empty).collect();
                    wedges_fail(b, c, &gap, &mut safety.reader) || disconnect(connector)
                }
                _ => {
                    enemies.iter().any(|&e| safety.attack(e).code != LOSS)
                        && (enemies
                            .iter()
                            .any(|&e| safety.reader.defend(b, e).code == LOSS)
                            || disconnect(connector))
                }
            }
        }
        (2, 0) | (0, 2) => {
            if between.iter().all(blocked) {
                return true;
            }
            if !(between.iter().all(empty) && safety.safe(p) && safety.safe(q)) {
                return false;
            }
            open_ground(b, p, q, c)
                || wedges_fail(b, c, &between, &mut safety.reader)
                || disconnect(connector)
        }
        (2, 1) | (1, 2) | (3, 0) | (0, 3) => {
            if !(safety.safe(p) && safety.safe(q)) {
                return false;
            }
            let empties = between.iter().filter(|r| empty(r)).count();
            let enemies = between.iter().filter(|r| enemy(r)).count();
            let knight = adx + ady == 3 && adx != 3 && ady != 3;
            let shape_ok = empties == between.len() || (knight && empties == 1 && enemies == 1);
            if !shape_ok {
                return false;
            }
            if empties == between.len() && open_ground(b, p, q, c) {
                return true;
            }
            (knight && empties == 2 && knight_holds(b, c, p, q, &between, &mut safety.reader))
                || disconnect(connector)
        }
        _ => safety.safe(p) && safety.safe(q) && open_ground(b, p, q, c),
    }
}

/// Whether every opponent stone played on one of the empty points `gaps`
/// (between two stones of `c`) can be captured, `c` to move (an illegal
/// wedge fails too).
fn wedges_fail(b: &Board, c: Color, gaps: &[Point], reader: &mut Reader) -> bool {
    !gaps.is_empty()
        && gaps.iter().all(|&x| match b.after(c.opp(), x) {
            None => true,
            Some(after) => reader.attack(&after, x).code != LOSS,
        })
}

/// A knight's move `p`-`q` with both points between (`between`) empty:
/// whichever of them the opponent takes, the wedge can be captured, or
/// the owner takes the other and the diagonal cut left over fails (an
/// opponent stone there can be captured).
fn knight_holds(
    b: &Board,
    c: Color,
    p: Point,
    q: Point,
    between: &[Point],
    reader: &mut Reader,
) -> bool {
    between.iter().all(|&w| {
        let Some(other) = between.iter().copied().find(|&o| o != w) else {
            return false;
        };
        let Some(b1) = b.after(c.opp(), w) else {
            return true;
        };
        if reader.attack(&b1, w).code != LOSS {
            return true;
        }
        let Some(b2) = b1.after(c, other) else {
            return false;
        };
        // The stone `other` touches one of `p`, `q`; the cut is the
        // empty point next to both `other` and the other stone.
        let far = if b2.neighbors(other).contains(&p) {
            q
        } else {
            p
        };
        let cut = b2
            .neighbors(other)
            .into_iter()
            .find(|&x| b2.cell(x) == Cell::Empty && b2.neighbors(x).contains(&far));
        match cut {
            None => true,
            Some(x) => wedges_fail(&b2, c, &[x], reader),
        }
    })
}

/// No opponent stone on the rectangle spanned by `p` and `q` grown by one
/// line (clipped at the edge), and nothing but empty points between them.
fn open_ground(b: &Board, p: Point, q: Point, c: Color) -> bool {
    let (w, h) = (b.width() as isize, b.height() as isize);
    let (x0, x1) = (p.x().min(q.x()) as isize - 1, p.x().max(q.x()) as isize + 1);
    let (y0, y1) = (p.y().min(q.y()) as isize - 1, p.y().max(q.y()) as isize + 1);
    for x in x0.max(0)..=x1.min(w - 1) {
        for y in y0.max(0)..=y1.min(h - 1) {
            let r = Point::from_xy(x as usize, y as usize);
            if b.cell(r).color() == Some(c.opp()) {
                return false;
            }
        }
    }
    true
}

/// The opponent worms next to `d` that the reader captures, as (origin,
/// cannot be defended), fewest liberties first, then board order.
fn lunches(b: &Board, d: &Dragon, reader: &mut Reader) -> Vec<(Point, bool)> {
    let mut seen: Vec<u16> = Vec::new();
    let mut found: Vec<(usize, (usize, usize), Point, bool)> = Vec::new();
    for &s in &d.stones {
        for r in b.neighbors(s) {
            if b.cell(r).color() != Some(d.color.opp()) || seen.contains(&b.chain_id(r)) {
                continue;
            }
            seen.push(b.chain_id(r));
            let stones = b.chain_stones(r);
            let origin = stones
                .iter()
                .copied()
                .min_by_key(|&x| rank(b, x))
                .unwrap_or(r);
            if reader.attack(b, origin).code == LOSS {
                continue;
            }
            let dead = reader.defend(b, origin).code == LOSS;
            found.push((b.liberties(origin).len(), rank(b, origin), origin, dead));
        }
    }
    found.sort_by_key(|&(libs, rank, _, _)| (libs, rank));
    found.into_iter().map(|(_, _, o, dead)| (o, dead)).collect()
}

/// Eyes from the empty regions touching only `d`'s colour, and room.
fn eyes_and_room(b: &Board, d: &Dragon) -> (usize, usize) {
    let len = slots(b);
    let own = |p: Point| d.stones.contains(&p);
    // Regions.
    let mut seen = vec![false; len];
    let mut eyes = 0;
    for &s in &d.stones {
        for start in b.neighbors(s) {
            if b.cell(start) != Cell::Empty || seen[start.index()] {
                continue;
            }
            seen[start.index()] = true;
            let mut stack = vec![start];
            let mut size = 0;
            let mut touches_enemy = false;
            while let Some(x) = stack.pop() {
                size += 1;
                for y in b.neighbors(x) {
                    match b.cell(y) {
                        Cell::Empty if !seen[y.index()] => {
                            seen[y.index()] = true;
                            stack.push(y);
                        }
                        cell if cell.color() == Some(d.color.opp()) => touches_enemy = true,
                        _ => {}
                    }
                }
            }
            if !touches_enemy {
                eyes += if size <= ONE_EYE_MAX { 1 } else { 2 };
            }
        }
    }
    // Room: breadth-first from the dragon and from every opponent stone
    // at once; a point counts when the dragon alone reaches it first.
    const NONE: u8 = 0;
    const MINE: u8 = 1;
    const THEIRS: u8 = 2;
    const BOTH: u8 = 3;
    let mut owner = vec![NONE; len];
    let mut frontier: Vec<Point> = Vec::new();
    for p in b.points() {
        match b.cell(p).color() {
            Some(_) if own(p) => {
                owner[p.index()] = MINE;
                frontier.push(p);
            }
            Some(c) if c == d.color.opp() => {
                owner[p.index()] = THEIRS;
                frontier.push(p);
            }
            _ => {}
        }
    }
    let mut room = 0;
    for _ in 0..ROOM_REACH {
        let mut reached: Vec<(Point, u8)> = Vec::new();
        for &p in &frontier {
            let who = owner[p.index()];
            for q in b.neighbors(p) {
                if b.cell(q) != Cell::Empty || owner[q.index()] != NONE {
                    continue;
                }
                match reached.iter_mut().find(|(r, _)| *r == q) {
                    Some((_, w)) => *w |= who,
                    None => reached.push((q, who)),
                }
            }
        }
        frontier.clear();
        for (q, who) in reached {
            owner[q.index()] = who;
            if who == MINE {
                room += 1;
            }
            if who != BOTH {
                frontier.push(q);
            }
        }
    }
    (eyes.min(2), room)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{from_rows, point};

    fn dragons(rows: &[&str]) -> (Board, Dragons) {
        let b = from_rows(rows);
        let d = Dragons::new(&b, 20_000);
        (b, d)
    }

    fn names(d: &Dragon) -> Vec<String> {
        d.stones
            .iter()
            .map(|&p| crate::board::vertex_name(p))
            .collect()
    }

    #[test]
    fn diagonals_and_jumps_join_and_a_cut_does_not() {
        let (b, d) = dragons(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . X . X . . . .",
            ". . . X . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . O .",
            ". X . . . . O X .",
            ". . . . . . . . .",
        ]);
        let at = |v: &str| point(v, 9);
        // C7, E7 and D6: diagonals; the one-point jump to nothing else.
        assert!(d.same(at("C7"), at("D6")));
        assert!(d.same(at("C7"), at("E7")));
        // B2 is far away.
        assert!(!d.same(at("B2"), at("C7")));
        // H2 is cut off from the rest by the white diagonal.
        assert!(!d.same(at("H2"), at("B2")));
        // The white diagonal G2-H3 joins.
        assert!(d.same(at("G2"), at("H3")));
        let all = d.all();
        assert_eq!(all.len(), 4);
        // Ordered by origin in board order, stones in board order.
        assert_eq!(names(&all[0]), ["C7", "E7", "D6"]);
        assert_eq!(all[0].origin, at("C7"));
        let _ = b;
    }

    #[test]
    fn knights_moves_with_a_stone_of_the_opponent_near() {
        // GNU Go 3.8 (game 0 of docs/matches/go9-gnugo-090e72b.sgf.gz
        // after 20 moves) joins all of these; B5-D6 is a knight's move
        // with white D5 next to it (no open ground), C9-E8 one on the
        // edge; the crosscut D5 is alone.
        let (_, d) = dragons(&[
            ". . O . . . . . .",
            ". . . . O . . . .",
            ". . . . . O . . .",
            ". . . X X . . . .",
            ". X . O X . O . .",
            ". . . . . . . . .",
            ". . X O O O O . .",
            ". X . X X X . . .",
            ". . X . . . . . .",
        ]);
        let at = |v: &str| point(v, 9);
        assert!(d.same(at("B5"), at("D6")));
        assert!(d.same(at("C9"), at("E8")));
        assert!(d.same(at("E8"), at("F7")));
        assert!(d.same(at("B5"), at("C3")));
        assert!(!d.same(at("D5"), at("D3")));
        // A crosscut where neither cutting stone can be captured stays
        // two dragons.
        let (_, d) = dragons(&[
            ". . . . . . .",
            ". . . . . . .",
            ". . X O . . .",
            ". . O X . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        assert!(!d.same(point("C5", 7), point("D4", 7)));
        assert!(!d.same(point("D5", 7), point("C4", 7)));
    }

    #[test]
    fn origin_is_the_largest_worm() {
        let (_, d) = dragons(&[
            ". . . . .",
            ". X . . .",
            ". . X X .",
            ". . . . .",
            ". . . . .",
        ]);
        let dragon = d.at(point("B4", 5)).expect("dragon");
        assert_eq!(dragon.origin, point("C3", 5));
        assert_eq!(dragon.worms, vec![point("C3", 5), point("B4", 5)]);
        assert_eq!(dragon.stones.len(), 3);
    }

    #[test]
    fn a_capturable_stone_stays_alone_and_is_critical() {
        // The black stone at E5 in atari: critical, C5-type attack.
        let rows = [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . O . . . .",
            ". . . O X O . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let (b, d) = dragons(&rows);
        let at = |v: &str| point(v, 9);
        let i = d.index_of(at("E5")).expect("dragon");
        let u = UnconditionalMap::new(&b);
        let v = d.verdict(&b, i, &u, 20_000);
        assert_eq!(v.status, Status::Critical);
        assert_eq!(v.attack, Some(at("E4")));
        assert_eq!(v.defense, Some(at("E4")));
        // The white stones around are one dragon (diagonals) and alive.
        assert!(d.same(at("D5"), at("E6")));
        let w = d.index_of(at("D5")).expect("dragon");
        assert_eq!(d.verdict(&b, w, &u, 20_000).status, Status::Alive);
    }

    #[test]
    fn two_eyes_live_and_a_small_enclosed_group_dies() {
        let rows = [
            ". X . X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let (b, d) = dragons(&rows);
        let u = UnconditionalMap::new(&b);
        let i = d.index_of(point("A8", 9)).expect("dragon");
        // Two eyes (A9, C9): pass-alive.
        let v = d.verdict(&b, i, &u, 20_000);
        assert_eq!((v.status, v.reason), (Status::Alive, Reason::PassAlive));
        let rows = [
            ". . X X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let (b, d) = dragons(&rows);
        let u = UnconditionalMap::new(&b);
        let i = d.index_of(point("A8", 9)).expect("dragon");
        let v = d.verdict(&b, i, &u, 20_000);
        assert_eq!(v.status, Status::Dead);
        assert_eq!(v.eyes, 1);
    }
}
