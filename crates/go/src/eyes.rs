//! Eye spaces, half eyes and eye values in GNU Go's sense (GNU Go manual,
//! "Eyes and Half Eyes"; the code is tengen's own, written from the
//! manual's descriptions and checked against `gnugo --mode gtp`, see
//! tests/test_gtp_eyes.py and docs/go.md).
//!
//! 1. Lively stones: a string is lively unless the tactical reader
//!    captures it and cannot defend it. Strings that are not lively are
//!    invisible to what follows (their points count as empty).
//! 2. Domains (the manual's `make_primary_domains`): a colour's domain
//!    holds its lively stones, every other point next to one, and, grown
//!    until nothing changes, every other point with a diagonal neighbour
//!    `a` and an orthogonal neighbour `b` next to `a` both in the domain
//!    and both off the first line, unless a lively opponent stone stands
//!    on the other point next to both (`d`), or on both points that
//!    extend the line `a`-`b` beyond either end; a corner joins when one
//!    of its two neighbours is in the domain and no lively opponent stone
//!    stands on its three neighbours.
//! 3. Eye space of a colour: the points (empty, or stones that are not
//!    lively) in its domain and not the opponent's, marginal when next to
//!    a point of the opponent's domain only; and the points in both
//!    domains next to a point of this colour's domain only, always
//!    marginal. Eyes are the parts connected through orthogonal steps
//!    that do not join two marginal points (GNU Go's eye spaces split
//!    there; found by comparing); an eye's origin is its first point in
//!    GNU Go's board order.
//! 4. Half and false eyes (the manual's topological analysis): for an eye
//!    point with at most one neighbour in its eye, each diagonal is worth
//!    0 (own stone, opponent stone that is captured for good, point the
//!    opponent cannot hold), 1 (opponent stone that can be captured and
//!    saved, point the opponent can hold), 2 (opponent stone that cannot
//!    be captured), 3/4 (a point the opponent holds only through a ko);
//!    off the board 1, off both edges 0. A sum of 4 or more: a false eye
//!    (the point becomes marginal); above 2: a half eye, whose first
//!    attack point joins the eye's graph as a marginal point.
//! 5. Eye value (four digits, the manual's "Eye Local Game Values"): the
//!    eye's graph is played out as the manual's local game (the owner
//!    fills any point; the attacker plays on a proper point or takes a
//!    marginal one, which makes its neighbours marginal; the attacker's
//!    stones inside are captured when they have no point left to breathe
//!    and no link to a taken point), by exact minimax with passes:
//!    attacker first and the owner tenukis once when it chooses,
//!    attacker first, owner first, the owner twice in a row first (this
//!    reading of the last digit agrees with GNU Go more often than an
//!    attacker's tenuki at its choosing). An eye is a part
//!    of the graph with proper points only. Graphs of more than
//!    `MAX_GRAPH` points get GNU Go's guess for eye spaces its database
//!    lacks: two eyes when the eye's size less twice its marginal points
//!    is over 3, one when it is over 0, else none.
//!
//! The dragon status and the search can ask `Eyes::evaluation` of an eye
//! and `Eyes::dragon_eyes` of a dragon.

use crate::board::{Board, Color, Point};
use crate::reading::{Reader, KO_A, KO_B, LOSS, WIN};
use crate::worm::board_order;
use std::collections::HashMap;

/// The largest eye graph solved exactly; larger ones are guessed.
pub const MAX_GRAPH: usize = 9;

/// The four numbers of eyes of GNU Go's eye values: the attacker moves
/// first and the owner tenukis once (`a`), the attacker moves first (`b`),
/// the owner moves first (`c`), the owner moves first and the attacker
/// tenukis once (`d`). Each is 0, 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EyeValue {
    pub a: u8,
    pub b: u8,
    pub c: u8,
    pub d: u8,
}

impl EyeValue {
    /// The digits as GNU Go prints them (`1122`).
    pub fn digits(&self) -> String {
        format!("{}{}{}{}", self.a, self.b, self.c, self.d)
    }

    /// Eyes when the attacker moves first.
    pub fn min(&self) -> u8 {
        self.b
    }

    /// Eyes when the owner moves first.
    pub fn max(&self) -> u8 {
        self.c
    }
}

/// One point's eye-space data for one colour (GNU Go's `eye_data`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct EyePoint {
    /// The eye's owner; `None`: not in this colour's eye space.
    pub color: Option<Color>,
    pub origin: Option<Point>,
    /// Points of the eye, and how many of them are marginal.
    pub esize: usize,
    pub msize: usize,
    pub value: EyeValue,
    pub marginal: bool,
    /// Orthogonal neighbours in the same eye, and how many are marginal.
    pub neighbors: usize,
    pub marginal_neighbors: usize,
}

/// The topological kind of an eye point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HalfKind {
    #[default]
    None,
    Half,
    False,
}

/// One point's half-eye data (GNU Go's `half_eye_data`).
#[derive(Clone, Debug, PartialEq)]
pub struct HalfEye {
    /// The sum of the diagonal values; 10 where the point was not
    /// examined.
    pub value: f32,
    pub kind: HalfKind,
    /// Where the opponent plays to spoil the eye, and where its owner
    /// plays to secure it (one per diagonal that is worth 1 or a ko).
    pub attacks: Vec<Point>,
    pub defenses: Vec<Point>,
}

impl Default for HalfEye {
    fn default() -> HalfEye {
        HalfEye {
            value: 10.0,
            kind: HalfKind::None,
            attacks: Vec::new(),
            defenses: Vec::new(),
        }
    }
}

/// The result of evaluating one eye: its value and, when the two sides'
/// first moves give different numbers of eyes, where each should play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Evaluation {
    pub value: EyeValue,
    pub attack: Option<Point>,
    pub defense: Option<Point>,
}

/// The eye spaces of both colours on one board.
pub struct Eyes {
    /// The board's width and height.
    dims: (usize, usize),
    lively: Vec<bool>,
    domain: [Vec<bool>; 2],
    points: [Vec<EyePoint>; 2],
    half: Vec<HalfEye>,
    evaluations: [HashMap<Point, Evaluation>; 2],
}

/// The point `(dx, dy)` away from `p`, if on the board.
fn offset((w, h): (usize, usize), p: Point, dx: isize, dy: isize) -> Option<Point> {
    let x = p.x() as isize + dx;
    let y = p.y() as isize + dy;
    (x >= 0 && y >= 0 && x < w as isize && y < h as isize)
        .then(|| Point::from_xy(x as usize, y as usize))
}

const ORTHO: [(isize, isize); 4] = [(0, 1), (-1, 0), (1, 0), (0, -1)];
const DIAG: [(isize, isize); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

impl Eyes {
    /// Analyses the board; the reader visits at most `budget` positions
    /// per tactical question.
    pub fn new(b: &Board, budget: u64) -> Eyes {
        let dims = (b.width(), b.height());
        let slots = b.slots();
        let mut reader = Reader::new(budget);
        // Lively strings, one verdict per chain.
        let mut by_chain: HashMap<u16, bool> = HashMap::new();
        let mut lively = vec![false; slots];
        for p in b.points() {
            if b.cell(p).color().is_some() {
                let id = b.chain_id(p);
                let l = *by_chain.entry(id).or_insert_with(|| {
                    reader.attack(b, p).code == LOSS || reader.defend(b, p).code != LOSS
                });
                lively[p.index()] = l;
            }
        }
        let mut eyes = Eyes {
            dims,
            lively,
            domain: [vec![false; slots], vec![false; slots]],
            points: [
                vec![EyePoint::default(); slots],
                vec![EyePoint::default(); slots],
            ],
            half: vec![HalfEye::default(); slots],
            evaluations: [HashMap::new(), HashMap::new()],
        };
        for c in [Color::Black, Color::White] {
            eyes.domain[c.index()] = eyes.primary_domain(b, c);
        }
        for c in [Color::Black, Color::White] {
            eyes.partition(b, c);
            eyes.topology(b, c, &mut reader);
            eyes.count(b, c);
            eyes.evaluate_all(b, c);
        }
        eyes
    }

    fn on_first_line(&self, p: Point) -> bool {
        let (w, h) = self.dims;
        p.x() == 0 || p.y() == 0 || p.x() == w - 1 || p.y() == h - 1
    }

    /// A lively stone of colour `c` on `p`.
    fn lively_stone(&self, b: &Board, p: Option<Point>, c: Color) -> bool {
        p.is_some_and(|p| b.cell(p).color() == Some(c) && self.lively[p.index()])
    }

    /// Whether `p` holds a lively stone (of either colour).
    pub fn is_lively(&self, b: &Board, p: Point) -> bool {
        b.cell(p).color().is_some() && self.lively[p.index()]
    }

    fn primary_domain(&self, b: &Board, c: Color) -> Vec<bool> {
        let n = self.dims;
        let mut dom = vec![false; self.lively.len()];
        let opp = c.opp();
        let free = |p: Point| !self.is_lively(b, p);
        for p in b.points() {
            let next_to_one = || {
                ORTHO
                    .iter()
                    .any(|&(dx, dy)| self.lively_stone(b, offset(n, p, dx, dy), c))
            };
            dom[p.index()] = self.lively_stone(b, Some(p), c) || (free(p) && next_to_one());
        }
        let corner =
            |p: Point| (p.x() == 0 || p.x() == n.0 - 1) && (p.y() == 0 || p.y() == n.1 - 1);
        loop {
            let mut changed = false;
            for p in b.points() {
                if dom[p.index()] || !free(p) {
                    continue;
                }
                let at = |dx: isize, dy: isize| offset(n, p, dx, dy);
                let inside = |q: Option<Point>| q.is_some_and(|q| dom[q.index()]);
                let enemy = |q: Option<Point>| self.lively_stone(b, q, opp);
                let joins = if corner(p) {
                    let sx = if p.x() == 0 { 1 } else { -1 };
                    let sy = if p.y() == 0 { 1 } else { -1 };
                    let (bq, cq, dq) = (at(sx, 0), at(0, sy), at(sx, sy));
                    (inside(bq) || inside(cq)) && !enemy(bq) && !enemy(cq) && !enemy(dq)
                } else {
                    let mut any = false;
                    let low = |q: Option<Point>| q.is_some_and(|q| self.on_first_line(q));
                    for &(dx, dy) in &DIAG {
                        let a = at(dx, dy);
                        if !inside(a) || low(a) {
                            continue;
                        }
                        // The two orthogonal neighbours of p next to a.
                        for (o, other) in [((dx, 0), (0, dy)), ((0, dy), (dx, 0))] {
                            let bq = at(o.0, o.1);
                            if !inside(bq) || low(bq) {
                                continue;
                            }
                            if enemy(at(other.0, other.1)) {
                                continue;
                            }
                            // Beyond a and beyond b on the line a-b.
                            let (ux, uy) = (dx - o.0, dy - o.1);
                            let beyond_a = at(dx + ux, dy + uy);
                            let beyond_b = at(o.0 - ux, o.1 - uy);
                            if enemy(beyond_a) && enemy(beyond_b) {
                                continue;
                            }
                            any = true;
                        }
                    }
                    any
                };
                if joins {
                    dom[p.index()] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        dom
    }

    /// Marks colour `c`'s eye space and its marginal points.
    fn partition(&mut self, b: &Board, c: Color) {
        let n = self.dims;
        let (me, them) = (c.index(), c.opp().index());
        for p in b.points() {
            if self.is_lively(b, p) {
                continue;
            }
            let mine = self.domain[me][p.index()];
            let theirs = self.domain[them][p.index()];
            let only = |q: Point, x: usize, y: usize| {
                self.domain[x][q.index()] && !self.domain[y][q.index()]
            };
            let e = &mut self.points[me][p.index()];
            if mine && !theirs {
                e.color = Some(c);
                e.marginal = ORTHO
                    .iter()
                    .filter_map(|&(dx, dy)| offset(n, p, dx, dy))
                    .any(|q| only(q, them, me));
            } else if mine && theirs {
                let near = ORTHO
                    .iter()
                    .filter_map(|&(dx, dy)| offset(n, p, dx, dy))
                    .any(|q| only(q, me, them));
                if near {
                    e.color = Some(c);
                    e.marginal = true;
                }
            }
        }
    }

    fn in_space(&self, c: Color, p: Point) -> bool {
        self.points[c.index()][p.index()].color == Some(c)
    }

    /// The topological value of the diagonal `d` of an eye of colour `c`.
    fn diagonal_value(
        &self,
        b: &Board,
        c: Color,
        d: Point,
        reader: &mut Reader,
        attacks: &mut Vec<Point>,
        defenses: &mut Vec<Point>,
    ) -> f32 {
        let opp = c.opp();
        match b.cell(d).color() {
            Some(x) if x == c => 0.0,
            Some(_) => {
                let att = reader.attack(b, d);
                if att.code == LOSS {
                    return 2.0;
                }
                let def = reader.defend(b, d);
                if def.code == LOSS {
                    return 0.0;
                }
                if let Some(p) = def.point {
                    attacks.push(p);
                }
                if let Some(p) = att.point {
                    defenses.push(p);
                }
                match att.code {
                    WIN => 1.0,
                    KO_A => 1.25,
                    _ => 1.25,
                }
            }
            None => {
                let Some(after) = b.after(opp, d) else {
                    return 0.0;
                };
                let code = reader.attack(&after, d).code;
                let v = match code {
                    LOSS => 1.0,
                    KO_A | KO_B => 0.75,
                    _ => 0.0,
                };
                if v > 0.0 {
                    attacks.push(d);
                    defenses.push(d);
                }
                v
            }
        }
    }

    /// Half and false eyes of colour `c`.
    fn topology(&mut self, b: &Board, c: Color, reader: &mut Reader) {
        let n = self.dims;
        for p in board_order(b) {
            if !self.in_space(c, p) || self.points[c.index()][p.index()].marginal {
                continue;
            }
            let inner = ORTHO
                .iter()
                .filter_map(|&(dx, dy)| offset(n, p, dx, dy))
                .filter(|&q| self.in_space(c, q))
                .count();
            if inner > 1 {
                continue;
            }
            let mut sum = 0.0f32;
            let mut attacks = Vec::new();
            let mut defenses = Vec::new();
            for &(dx, dy) in &DIAG {
                let x = p.x() as isize + dx;
                let y = p.y() as isize + dy;
                let off_x = x < 0 || x >= n.0 as isize;
                let off_y = y < 0 || y >= n.1 as isize;
                if off_x && off_y {
                    continue;
                }
                if off_x || off_y {
                    sum += 1.0;
                    continue;
                }
                let d = Point::from_xy(x as usize, y as usize);
                sum += self.diagonal_value(b, c, d, reader, &mut attacks, &mut defenses);
            }
            let kind = if sum >= 4.0 {
                HalfKind::False
            } else if sum > 2.0 {
                HalfKind::Half
            } else {
                HalfKind::None
            };
            if kind == HalfKind::False {
                self.points[c.index()][p.index()].marginal = true;
            }
            self.half[p.index()] = HalfEye {
                value: sum,
                kind,
                attacks,
                defenses,
            };
        }
    }

    /// Origins, sizes and neighbour counts of colour `c`'s eyes.
    fn count(&mut self, b: &Board, c: Color) {
        let n = self.dims;
        let me = c.index();
        let order = board_order(b);
        for &p in &order {
            if !self.in_space(c, p) || self.points[me][p.index()].origin.is_some() {
                continue;
            }
            let mut eye = vec![p];
            self.points[me][p.index()].origin = Some(p);
            let mut k = 0;
            while k < eye.len() {
                let q = eye[k];
                k += 1;
                let qm = self.points[me][q.index()].marginal;
                for &(dx, dy) in &ORTHO {
                    if let Some(r) = offset(n, q, dx, dy) {
                        // Two marginal points do not link an eye.
                        let link = !(qm && self.points[me][r.index()].marginal);
                        if link
                            && self.in_space(c, r)
                            && self.points[me][r.index()].origin.is_none()
                        {
                            self.points[me][r.index()].origin = Some(p);
                            eye.push(r);
                        }
                    }
                }
            }
            let msize = eye
                .iter()
                .filter(|q| self.points[me][q.index()].marginal)
                .count();
            for &q in &eye {
                let (mut nb, mut mnb) = (0, 0);
                for &(dx, dy) in &ORTHO {
                    if let Some(r) = offset(n, q, dx, dy) {
                        if self.in_space(c, r) && self.points[me][r.index()].origin == Some(p) {
                            nb += 1;
                            mnb += usize::from(self.points[me][r.index()].marginal);
                        }
                    }
                }
                let e = &mut self.points[me][q.index()];
                e.esize = eye.len();
                e.msize = msize;
                e.neighbors = nb;
                e.marginal_neighbors = mnb;
            }
        }
    }

    fn evaluate_all(&mut self, b: &Board, c: Color) {
        let me = c.index();
        let origins: Vec<Point> = board_order(b)
            .into_iter()
            .filter(|&p| self.points[me][p.index()].origin == Some(p))
            .collect();
        for o in origins {
            let ev = self.solve(b, c, o);
            self.evaluations[me].insert(o, ev);
        }
        for p in b.points() {
            if let Some(o) = self.points[me][p.index()].origin {
                self.points[me][p.index()].value = self.evaluations[me][&o].value;
            }
        }
    }

    /// The eye with origin `o` as a local game.
    fn solve(&self, b: &Board, c: Color, o: Point) -> Evaluation {
        let me = c.index();
        let members: Vec<Point> = board_order(b)
            .into_iter()
            .filter(|&p| self.points[me][p.index()].origin == Some(o))
            .collect();
        // Each vertex: where the attacker and where the owner plays it.
        let mut verts: Vec<(Point, Point)> = members.iter().map(|&p| (p, p)).collect();
        let mut states: Vec<V> = members
            .iter()
            .map(|&p| {
                if b.cell(p).color() == Some(c.opp()) {
                    V::X
                } else if self.points[me][p.index()].marginal {
                    V::Bang
                } else {
                    V::Dot
                }
            })
            .collect();
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for (i, &p) in members.iter().enumerate() {
            for (j, &q) in members.iter().enumerate().skip(i + 1) {
                let adjacent = (p.x() as isize - q.x() as isize).abs()
                    + (p.y() as isize - q.y() as isize).abs()
                    == 1;
                if adjacent {
                    edges.push((i, j));
                }
            }
        }
        // A half eye's key point joins the graph as a marginal point.
        for (i, &p) in members.iter().enumerate() {
            let h = &self.half[p.index()];
            if h.kind != HalfKind::Half || states[i] == V::Bang {
                continue;
            }
            let Some(&key) = h.attacks.first() else {
                continue;
            };
            let defense = h.defenses.first().copied().unwrap_or(key);
            let j = match verts.iter().position(|&(v, _)| v == key && key != p) {
                Some(j) => j,
                None => {
                    verts.push((key, defense));
                    states.push(V::Bang);
                    verts.len() - 1
                }
            };
            if j != i && !edges.contains(&(i.min(j), i.max(j))) {
                edges.push((i.min(j), i.max(j)));
            }
        }
        if verts.len() > MAX_GRAPH {
            // Too big to read out: GNU Go's guess for an eye space its
            // database does not hold, from its size and its marginal
            // points (two eyes when the proper points outnumber the
            // marginal ones by more than three, one when by any).
            let esize = members.len() as isize;
            let msize = members
                .iter()
                .filter(|p| self.points[me][p.index()].marginal)
                .count() as isize;
            let n = match esize - 2 * msize {
                d if d > 3 => 2,
                d if d > 0 => 1,
                _ => 0,
            };
            return Evaluation {
                value: EyeValue {
                    a: n,
                    b: n,
                    c: n,
                    d: n,
                },
                attack: None,
                defense: None,
            };
        }
        let key = (verts.len(), edges.clone(), encode(&states));
        let cached = SOLVED.with(|m| m.borrow().get(&key).copied());
        let (value, attack, defense) = cached.unwrap_or_else(|| {
            let solved = solve_graph(verts.len(), &edges, &states);
            SOLVED.with(|m| {
                let mut m = m.borrow_mut();
                if m.len() >= SOLVED_MAX {
                    m.clear();
                }
                m.insert(key, solved);
            });
            solved
        });
        Evaluation {
            value,
            attack: attack.map(|i| verts[i].0),
            defense: defense.map(|i| verts[i].1),
        }
    }

    /// Colour `c`'s eye-space data at `p`.
    pub fn point(&self, c: Color, p: Point) -> EyePoint {
        self.points[c.index()][p.index()]
    }

    /// The half-eye data at `p`.
    pub fn half_eye(&self, p: Point) -> &HalfEye {
        &self.half[p.index()]
    }

    /// Whether `p` is in colour `c`'s domain.
    pub fn in_domain(&self, c: Color, p: Point) -> bool {
        self.domain[c.index()][p.index()]
    }

    /// The evaluation of colour `c`'s eye through `p` (`None`: `p` is not
    /// in `c`'s eye space).
    pub fn evaluation(&self, c: Color, p: Point) -> Option<Evaluation> {
        let o = self.points[c.index()][p.index()].origin?;
        self.evaluations[c.index()].get(&o).copied()
    }

    /// The eyes of the dragon made of `stones` (colour `c`): the sum of
    /// the values of `c`'s eyes next to one of its stones, each digit
    /// capped at 2 (the search's eye count for a dragon).
    pub fn dragon_eyes(&self, b: &Board, stones: &[Point], c: Color) -> EyeValue {
        let mut origins: Vec<Point> = Vec::new();
        for &s in stones {
            for q in b.neighbors(s) {
                if b.cell(q) == crate::board::Cell::Edge {
                    continue;
                }
                if let Some(o) = self.points[c.index()][q.index()].origin {
                    if !origins.contains(&o) {
                        origins.push(o);
                    }
                }
            }
        }
        let mut sum = EyeValue::default();
        for o in origins {
            if let Some(ev) = self.evaluations[c.index()].get(&o) {
                let v = ev.value;
                sum.a = (sum.a + v.a).min(2);
                sum.b = (sum.b + v.b).min(2);
                sum.c = (sum.c + v.c).min(2);
                sum.d = (sum.d + v.d).min(2);
            }
        }
        sum
    }

    /// GNU Go's `eval_eye` choice: the black eye through `p`, else the
    /// white one.
    pub fn eval_eye(&self, p: Point) -> Option<Evaluation> {
        self.evaluation(Color::Black, p)
            .or_else(|| self.evaluation(Color::White, p))
    }

    /// The analysed board's width and height.
    pub fn board_dims(&self) -> (usize, usize) {
        self.dims
    }
}

/// Local games solved so far (by vertex count, edges and start states):
/// the same eye shapes come back position after position (the owl reader
/// asks for thousands of analyses).
type Solved = (EyeValue, Option<usize>, Option<usize>);

/// Entries kept before the cache of solved local games starts afresh.
const SOLVED_MAX: usize = 50_000;

/// A local game: vertex count, edges, start states.
type GraphKey = (usize, Vec<(usize, usize)>, u64);

thread_local! {
    static SOLVED: std::cell::RefCell<HashMap<GraphKey, Solved>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The value of an eye graph and the vertices of the best first moves
/// of the attacker and of the owner (when the two values differ).
fn solve_graph(n: usize, edges: &[(usize, usize)], states: &[V]) -> Solved {
    let mut game = Game::new(n, edges);
    let s = game.normalise(encode(states));
    let value = EyeValue {
        b: game.value(s, Side::Attacker, Debt::None),
        c: game.value(s, Side::Owner, Debt::None),
        d: game.twice(s, Side::Owner),
        a: game.value(s, Side::Attacker, Debt::Owner),
    };
    if value.b == value.c {
        return (value, None, None);
    }
    let att = game.best_moves(s, Side::Attacker);
    let def = game.best_moves(s, Side::Owner);
    let pick = |mine: &[usize], theirs: &[usize]| {
        mine.iter()
            .find(|m| theirs.contains(m))
            .or(mine.first())
            .copied()
    };
    (value, pick(&att, &def), pick(&def, &att))
}

/// The largest eye graph [`analyze_graph`] reads out (vertices).
pub const MAX_ANALYZED_GRAPH: usize = 10;

/// A vertex of an eye graph as GNU Go writes them (`analyze_eyegraph`):
/// a proper point (`.`), a marginal one (`!`), an attacker stone (`X`),
/// an attacker stone on a margin, joined to the outside (`$`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphVertex {
    Proper,
    Marginal,
    Stone,
    Outside,
}

/// An eye graph's value as GNU Go's `analyze_eyegraph` reads it (the
/// first digit is the attacker's two moves in a row, the last the
/// owner's; the middle two alternate play, attacker or owner first) and
/// its vital points: the attacker's moves, then the owner's (vertex
/// indices, ascending). When the two sides' first moves give different
/// numbers of eyes, the moves that reach each side's number; otherwise,
/// when the attacker moving twice gets fewer eyes, its first moves
/// towards that (ko threats), and when the owner moving twice gets more,
/// its first moves towards that. `None` for a graph of more than
/// [`MAX_ANALYZED_GRAPH`] vertices.
pub fn analyze_graph(
    edges: &[(usize, usize)],
    vertices: &[GraphVertex],
) -> Option<(EyeValue, Vec<usize>, Vec<usize>)> {
    let n = vertices.len();
    if n > MAX_ANALYZED_GRAPH {
        return None;
    }
    let states: Vec<V> = vertices
        .iter()
        .map(|v| match v {
            GraphVertex::Proper => V::Dot,
            GraphVertex::Marginal => V::Bang,
            GraphVertex::Stone => V::X,
            GraphVertex::Outside => V::Out,
        })
        .collect();
    let (mut value, _, _) = solve_graph(n, edges, &states);
    let mut game = Game::new(n, edges);
    let s = game.normalise(encode(&states));
    value.a = game.twice(s, Side::Attacker);
    // The moves of `side` after which `next` moving first gets a
    // number `keep` accepts.
    let mut threats = |side: Side, next: Side, keep: &dyn Fn(u8) -> bool| -> Vec<usize> {
        let mut out = Vec::new();
        for (i, t) in game.moves(s, side) {
            if keep(game.value(t, next, Debt::None)) {
                out.push(i);
            }
        }
        out
    };
    let (attacks, defenses) = if value.b < value.c {
        (
            threats(Side::Attacker, Side::Owner, &|v| v == value.b),
            threats(Side::Owner, Side::Attacker, &|v| v == value.c),
        )
    } else {
        let attacks = if value.a < value.b {
            threats(Side::Attacker, Side::Attacker, &|v| v == value.a)
        } else {
            Vec::new()
        };
        let defenses = if value.d > value.c {
            threats(Side::Owner, Side::Owner, &|v| v == value.d)
        } else {
            Vec::new()
        };
        (attacks, defenses)
    };
    Some((value, attacks, defenses))
}

/// A vertex of the local game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    /// A proper eye point.
    Dot = 0,
    /// A marginal point.
    Bang = 1,
    /// An attacker stone inside.
    X = 2,
    /// The owner has filled it.
    Filled = 3,
    /// The attacker holds it, linked to the outside.
    Out = 4,
}

fn encode(states: &[V]) -> u64 {
    states
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &v)| acc | ((v as u64) << (3 * i)))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Attacker,
    Owner,
}

/// Whether the owner still owes one tenuki.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Debt {
    None,
    Owner,
}

struct Game {
    n: usize,
    adj: Vec<Vec<usize>>,
    memo: HashMap<(u64, u8), u8>,
}

impl Game {
    fn new(n: usize, edges: &[(usize, usize)]) -> Game {
        let mut adj = vec![Vec::new(); n];
        for &(i, j) in edges {
            adj[i].push(j);
            adj[j].push(i);
        }
        Game {
            n,
            adj,
            memo: HashMap::new(),
        }
    }

    fn get(&self, s: u64, i: usize) -> V {
        match (s >> (3 * i)) & 7 {
            0 => V::Dot,
            1 => V::Bang,
            2 => V::X,
            3 => V::Filled,
            _ => V::Out,
        }
    }

    fn set(s: u64, i: usize, v: V) -> u64 {
        (s & !(7 << (3 * i))) | ((v as u64) << (3 * i))
    }

    /// The attacker's stones that touch a taken point join the outside;
    /// proper points next to the outside become marginal; attacker stones
    /// with no breathing point are captured (they become proper points).
    fn normalise(&self, mut s: u64) -> u64 {
        loop {
            let mut changed = false;
            for i in 0..self.n {
                match self.get(s, i) {
                    V::X if self.adj[i].iter().any(|&j| self.get(s, j) == V::Out) => {
                        s = Self::set(s, i, V::Out);
                        changed = true;
                    }
                    V::Dot if self.adj[i].iter().any(|&j| self.get(s, j) == V::Out) => {
                        s = Self::set(s, i, V::Bang);
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                break;
            }
        }
        // Captures: attacker groups with no proper or marginal neighbour.
        let mut seen = vec![false; self.n];
        for i in 0..self.n {
            if seen[i] || self.get(s, i) != V::X {
                continue;
            }
            let group = self.group(s, i);
            for &g in &group {
                seen[g] = true;
            }
            if !self.breathes(s, &group) {
                for &g in &group {
                    s = Self::set(s, g, V::Dot);
                }
            }
        }
        s
    }

    fn group(&self, s: u64, i: usize) -> Vec<usize> {
        let mut group = vec![i];
        let mut k = 0;
        while k < group.len() {
            let g = group[k];
            k += 1;
            for &j in &self.adj[g] {
                if self.get(s, j) == V::X && !group.contains(&j) {
                    group.push(j);
                }
            }
        }
        group
    }

    fn breathes(&self, s: u64, group: &[usize]) -> bool {
        group.iter().any(|&g| {
            self.adj[g]
                .iter()
                .any(|&j| matches!(self.get(s, j), V::Dot | V::Bang | V::Out))
        })
    }

    /// Eyes when play stops: parts of the unfilled, untaken points that
    /// hold proper points only.
    fn score(&self, s: u64) -> u8 {
        let mut seen = vec![false; self.n];
        let mut eyes = 0;
        for i in 0..self.n {
            if seen[i] || matches!(self.get(s, i), V::Filled | V::Out) {
                continue;
            }
            let mut part = vec![i];
            seen[i] = true;
            let mut k = 0;
            let mut proper = true;
            while k < part.len() {
                let g = part[k];
                k += 1;
                if self.get(s, g) != V::Dot {
                    proper = false;
                }
                for &j in &self.adj[g] {
                    if !seen[j] && !matches!(self.get(s, j), V::Filled | V::Out) {
                        seen[j] = true;
                        part.push(j);
                    }
                }
            }
            eyes += u8::from(proper);
        }
        eyes.min(2)
    }

    /// The positions after each move of `side` (vertex, position).
    fn moves(&self, s: u64, side: Side) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for i in 0..self.n {
            let v = self.get(s, i);
            let next = match (side, v) {
                (Side::Owner, V::Dot | V::Bang) => Self::set(s, i, V::Filled),
                (Side::Attacker, V::Bang) => Self::set(s, i, V::Out),
                (Side::Attacker, V::Dot) => {
                    let t = Self::set(s, i, V::X);
                    let group = self.group(t, i);
                    if !self.breathes(t, &group) {
                        continue; // suicide
                    }
                    t
                }
                _ => continue,
            };
            out.push((i, self.normalise(next)));
        }
        out
    }

    fn value(&mut self, s: u64, side: Side, debt: Debt) -> u8 {
        self.search(s, side, debt, false)
    }

    fn search(&mut self, s: u64, side: Side, debt: Debt, passed: bool) -> u8 {
        let flags = (side == Side::Owner) as u8 | ((debt as u8) << 1) | ((passed as u8) << 3);
        if let Some(&v) = self.memo.get(&(s, flags)) {
            return v;
        }
        let other = match side {
            Side::Attacker => Side::Owner,
            Side::Owner => Side::Attacker,
        };
        let owes = side == Side::Owner && debt == Debt::Owner;
        // A pass ends play after the other side's pass.
        let mut best = if passed {
            if owes {
                self.search(s, other, Debt::None, false)
            } else {
                self.score(s)
            }
        } else if owes {
            self.search(s, other, Debt::None, false)
        } else {
            self.search(s, other, debt, true)
        };
        for (_, t) in self.moves(s, side) {
            let v = self.search(t, other, debt, false);
            best = match side {
                Side::Owner => best.max(v),
                Side::Attacker => best.min(v),
            };
        }
        self.memo.insert((s, flags), best);
        best
    }

    /// The value when `side` moves twice (or once, or not at all) and
    /// then play alternates with the other side to move.
    fn twice(&mut self, s: u64, side: Side) -> u8 {
        let other = match side {
            Side::Attacker => Side::Owner,
            Side::Owner => Side::Attacker,
        };
        let better = |x: u8, y: u8| match side {
            Side::Owner => x.max(y),
            Side::Attacker => x.min(y),
        };
        let mut best = self.value(s, other, Debt::None);
        for (_, t) in self.moves(s, side) {
            best = better(best, self.value(t, other, Debt::None));
            for (_, u) in self.moves(t, side) {
                best = better(best, self.value(u, other, Debt::None));
            }
        }
        best
    }

    /// The vertices whose move reaches the side's value (alternating
    /// play, no tenuki).
    fn best_moves(&mut self, s: u64, side: Side) -> Vec<usize> {
        let target = self.value(s, side, Debt::None);
        let other = match side {
            Side::Attacker => Side::Owner,
            Side::Owner => Side::Attacker,
        };
        let mut out = Vec::new();
        for (i, t) in self.moves(s, side) {
            if self.search(t, other, Debt::None, false) == target {
                out.push(i);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{from_rows, point, point_on};

    fn value(rows: &[&str], c: Color, v: &str) -> (EyeValue, Option<Evaluation>, EyePoint) {
        let b = from_rows(rows);
        let e = Eyes::new(&b, 20_000);
        let p = point_on(v, &b);
        (e.point(c, p).value, e.evaluation(c, p), e.point(c, p))
    }

    #[test]
    fn straight_three_is_one_and_a_half_eyes() {
        let (v, ev, ep) = value(
            &[
                ". . . X O . . . .",
                "X X X X O . . . .",
                "O O O O . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
                ". . . . . . . . .",
            ],
            Color::Black,
            "A9",
        );
        assert_eq!(v.digits(), "1122");
        let ev = ev.unwrap();
        assert_eq!(ev.attack, Some(point("B9", 9)));
        assert_eq!(ev.defense, Some(point("B9", 9)));
        assert_eq!((ep.esize, ep.msize, ep.neighbors), (3, 0, 1));
        assert_eq!(ep.origin, Some(point("A9", 9)));
    }

    #[test]
    fn small_eyes_and_margins() {
        let g = |s: &str| {
            let mut game = Game::new(
                s.len(),
                &(0..s.len().saturating_sub(1))
                    .map(|i| (i, i + 1))
                    .collect::<Vec<_>>(),
            );
            let states: Vec<V> = s
                .chars()
                .map(|ch| match ch {
                    '!' => V::Bang,
                    'X' => V::X,
                    _ => V::Dot,
                })
                .collect();
            let st = game.normalise(encode(&states));
            [
                game.value(st, Side::Attacker, Debt::Owner),
                game.value(st, Side::Attacker, Debt::None),
                game.value(st, Side::Owner, Debt::None),
                game.twice(st, Side::Owner),
            ]
        };
        assert_eq!(g("."), [1, 1, 1, 1]);
        assert_eq!(g("!"), [0, 0, 0, 0]);
        assert_eq!(g(".."), [1, 1, 1, 1]);
        assert_eq!(g("..."), [1, 1, 2, 2]);
        assert_eq!(g(".!"), [0, 0, 1, 1]);
        assert_eq!(g("....."), [2, 2, 2, 2]);
    }

    #[test]
    fn a_dragon_with_two_eyes_and_one_with_a_straight_three() {
        let b = from_rows(&[
            ". X . X O . . . .",
            "X X X X O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . O O O",
            "O O O O O O X X X",
            "X X X X X X X . .",
            ". . . X O . X . .",
        ]);
        let e = Eyes::new(&b, 20_000);
        let two = e.dragon_eyes(&b, &b.chain_stones(point("A8", 9)), Color::Black);
        assert_eq!(two.digits(), "2222");
        // The lower black group: a straight three on the left is 1122, the
        // corner space on the right two eyes or more.
        let low = e.dragon_eyes(&b, &b.chain_stones(point("A2", 9)), Color::Black);
        assert_eq!(low.min(), 2);
    }

    #[test]
    fn empty_board_is_nobody_s_eye_space() {
        let b = Board::new(9);
        let e = Eyes::new(&b, 1000);
        let p = point("E5", 9);
        assert_eq!(e.point(Color::Black, p).color, None);
        assert_eq!(e.eval_eye(p), None);
        assert_eq!(e.half_eye(p).value, 10.0);
    }

    #[test]
    fn a_half_eye_in_the_corner() {
        let b = from_rows(&[
            ". X . . X O . . .",
            "X . X X X O . . .",
            "O X O O O . . . .",
            ". O . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . X .",
            ". . . . . . . . .",
        ]);
        let e = Eyes::new(&b, 20_000);
        let a9 = point("A9", 9);
        assert_eq!(e.half_eye(a9).kind, HalfKind::Half);
        assert_eq!(e.point(Color::Black, a9).value.digits(), "0011");
    }

    #[test]
    fn eye_graphs_as_gnu_go_reads_them() {
        use GraphVertex::{Marginal, Proper};
        // A straight three: one eye or two, the middle point vital to both.
        let (v, att, def) = analyze_graph(&[(0, 1), (1, 2)], &[Proper; 3]).expect("small");
        assert_eq!(
            (v.digits(), att, def),
            ("1122".to_string(), vec![1], vec![1])
        );
        // A straight four: two eyes, but the attacker's two moves in a row
        // in the middle leave one.
        let (v, att, def) = analyze_graph(&[(0, 1), (1, 2), (2, 3)], &[Proper; 4]).expect("small");
        assert_eq!(
            (v.digits(), att, def),
            ("1222".to_string(), vec![1, 2], vec![])
        );
        // A lone marginal point: no eye.
        let (v, _, _) = analyze_graph(&[], &[Marginal]).expect("small");
        assert_eq!(v.digits(), "0000");
        assert!(analyze_graph(&[], &[Proper; MAX_ANALYZED_GRAPH + 1]).is_none());
    }
}
