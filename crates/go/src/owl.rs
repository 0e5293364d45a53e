//! Life and death of whole dragons, and semeais (capturing races): the
//! reading behind GNU Go's `owl_*` and `*analyze_semeai` commands (GNU Go
//! calls its reader "owl"; this one is tengen's own, written from the GNU
//! Go manual's description and checked against `gnugo --mode gtp`, see
//! tests/test_gtp_owl.py and docs/go.md).
//!
//! A bounded depth-first search over copies of the board. The goal is a
//! dragon's stones; stones of its colour that join a goal string during
//! the search join the goal. The attacker wins when every stone the
//! dragon had at the start is captured.
//!
//! At each position a static estimate (`Estimate`):
//!
//! - eyes: the eye spaces of `eyes.rs` next to the goal, their values
//!   summed digit by digit (`Eyes::dragon_eyes`); the dragon lives when
//!   it has two eyes with the attacker to move;
//! - escape: the empty points within `ESCAPE_REACH` steps of the goal
//!   through empty points that touch no opponent stone (`escape`); below
//!   the root, a dragon with `ESCAPE_ROOM` of them has run out;
//! - hopeless: fewer than two eyes even with the defender to move,
//!   escape under `DEAD_ROOM`, and nothing the tactical reader can capture next
//!   to the goal and no goal string it can save: the dragon is dead
//!   (below the root; at the root both sides still read).
//!
//! Candidate moves, scored and tried best first (ties in GNU Go's board
//! order): the eyes' vital points (`Evaluation::attack`/`defense`), the
//! half eyes' attack and defence points, the tactical reader's attack and
//! defence of goal strings and of opponent strings next to the goal
//! (captures that make eyes or escape, rescues of cutting stones), the
//! points of the goal's eye spaces, the goal's liberties (the outward
//! ones first). The root tries `ROOT_WIDTH` moves, deeper positions
//! fewer.
//!
//! Ko: a move forbidden only by the ko ban may be made once per line, as
//! after a ko threat; a result that needs it is at best `KO_B` for the
//! side that made it (and so at least `KO_A` for the other side), as in
//! `reading.rs`. When the node budget or the depth runs out, the dragon
//! counts as alive (the attack failed), as GNU Go assumes.
//!
//! Semeai (`Owl::semeai`): dragon A (its colour moves first) against
//! dragon B. The search plays both sides: a side captures, fills the
//! other's liberties (outside ones first), plays eye vital points,
//! extends its own short strings, or passes; two passes in a row leave
//! both alive (seki). The capture of every stone one dragon had ends
//! it; with the owl estimate, two eyes against fewer than two (or two
//! against two) end it too. At the budget's end (or after twice the
//! plies of the two dragons' liberties, plus 6) the liberty counts
//! decide, an eye worth one liberty more. The
//! result is A's (`WIN`: it lives) and A's against B (`WIN`: B dies),
//! GNU Go's two codes, and A's first move.

use crate::benson::{Unconditional, UnconditionalMap};
use crate::board::{Board, Cell, Color, Illegal, Move, Point};
use crate::eyes::{EyeValue, Eyes, HalfKind};
use crate::reading::{Answer, Reader, KO_A, KO_B, LOSS, WIN};
use std::collections::HashMap;
use std::rc::Rc;

/// Positions a question estimates by default (each estimate builds an
/// eye analysis).
pub const NODE_BUDGET: u64 = 120;
/// Positions each tactical question of the estimate may visit.
const TACTICAL_BUDGET: u64 = 1_000;
/// Positions each tactical question of the eye analysis may visit.
const EYE_BUDGET: u64 = 400;
/// Plies a line may run.
const MAX_DEPTH: u32 = 14;
/// Steps the escape measure looks.
const ESCAPE_REACH: usize = 4;
/// Escape (see `escape`) from which a dragon has run out.
const ESCAPE_ROOM: usize = 6;
/// Plies from which escape counts.
const ESCAPE_DEPTH: u32 = 1;
/// Escape under which a dragon without eyes is dead.
const DEAD_ROOM: usize = 2;
/// Moves tried at the root and below.
const ROOT_WIDTH: usize = 8;

/// The moves tried `depth` plies below the question.
fn width(depth: u32) -> usize {
    match depth {
        0 => ROOT_WIDTH,
        1 | 2 => 6,
        3 | 4 => 4,
        5 | 6 => 2,
        _ => 1,
    }
}

/// The result the other side gets when one side's best is `r`.
fn flip(r: u8) -> u8 {
    match r {
        WIN => LOSS,
        KO_A => KO_B,
        KO_B => KO_A,
        _ => WIN,
    }
}

/// Rank of a point in GNU Go's board order (rows from the top).
fn rank(b: &Board, p: Point) -> (usize, usize) {
    (b.height() - p.y(), p.x())
}

fn on_board(b: &Board, p: Point) -> bool {
    b.cell(p) != Cell::Edge
}

/// The dragon being read: its colour, the stones it had at the start, and
/// its stones now.
#[derive(Clone, Debug)]
struct Goal {
    color: Color,
    original: Rc<Vec<Point>>,
    stones: Vec<Point>,
}

impl Goal {
    fn new(b: &Board, stones: &[Point]) -> Option<Goal> {
        let color = stones.iter().find_map(|&s| b.cell(s).color())?;
        let original: Vec<Point> = stones
            .iter()
            .copied()
            .filter(|&s| b.cell(s).color() == Some(color))
            .collect();
        let mut g = Goal {
            color,
            original: Rc::new(original.clone()),
            stones: original,
        };
        g.stones = g.grown(b, None);
        Some(g)
    }

    /// Whole chains of the goal's stones still on the board, plus `added`'s.
    fn grown(&self, b: &Board, added: Option<Point>) -> Vec<Point> {
        let mut seen: Vec<u16> = Vec::new();
        let mut out = Vec::new();
        for s in self.stones.iter().copied().chain(added) {
            if b.cell(s).color() != Some(self.color) || seen.contains(&b.chain_id(s)) {
                continue;
            }
            seen.push(b.chain_id(s));
            out.extend(b.chain_stones(s));
        }
        out.sort_by_key(|&p| rank(b, p));
        out
    }

    fn after(&self, b: &Board, added: Option<Point>) -> Goal {
        Goal {
            color: self.color,
            original: self.original.clone(),
            stones: self.grown(b, added),
        }
    }

    /// Every stone the dragon had at the start is gone.
    fn captured(&self, b: &Board) -> bool {
        !self
            .original
            .iter()
            .any(|&s| b.cell(s).color() == Some(self.color))
    }

    fn key(&self) -> u64 {
        self.stones.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
            (h ^ p.index() as u64).wrapping_mul(0x1000_0000_01b3)
        })
    }

    /// One stone of each goal string.
    fn strings(&self, b: &Board) -> Vec<Point> {
        let mut seen: Vec<u16> = Vec::new();
        let mut out = Vec::new();
        for &s in &self.stones {
            if !seen.contains(&b.chain_id(s)) {
                seen.push(b.chain_id(s));
                out.push(s);
            }
        }
        out
    }

    /// The goal's liberties, in board order.
    fn liberties(&self, b: &Board) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::new();
        for &s in &self.stones {
            for q in b.neighbors(s) {
                if b.cell(q) == Cell::Empty && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
        out.sort_by_key(|&p| rank(b, p));
        out
    }

    /// One stone of each opponent string touching the goal.
    fn enemies(&self, b: &Board) -> Vec<Point> {
        let mut seen: Vec<u16> = Vec::new();
        let mut out = Vec::new();
        for &s in &self.stones {
            for q in b.neighbors(s) {
                if b.cell(q).color() == Some(self.color.opp()) && !seen.contains(&b.chain_id(q)) {
                    seen.push(b.chain_id(q));
                    out.push(q);
                }
            }
        }
        out
    }
}

/// Scored candidate moves, best kept per point.
#[derive(Default)]
struct Candidates(Vec<(i32, Point)>);

impl Candidates {
    fn add(&mut self, p: Option<Point>, score: i32) {
        let Some(p) = p else { return };
        match self.0.iter_mut().find(|(_, q)| *q == p) {
            Some(e) => e.0 = e.0.max(score),
            None => self.0.push((score, p)),
        }
    }

    fn sorted(mut self, b: &Board) -> Vec<Point> {
        self.0
            .sort_by_key(|&(s, p)| (std::cmp::Reverse(s), rank(b, p)));
        self.0.into_iter().map(|(_, p)| p).collect()
    }
}

/// What the search knows of a position without reading on.
struct Estimate {
    eyes: EyeValue,
    room: usize,
    /// Something the defender can capture next to the goal, or a goal
    /// string under attack it can save.
    resources: bool,
    /// A goal string the tactical reader can capture.
    weak: bool,
    attacker: Vec<Point>,
    defender: Vec<Point>,
}

impl Estimate {
    fn alive(&self) -> bool {
        self.eyes.min() >= 2
    }

    /// Run out: room to run and no string that can be captured.
    fn escaped(&self, depth: u32) -> bool {
        depth >= ESCAPE_DEPTH && self.room >= ESCAPE_ROOM && !self.weak
    }

    /// The judgement where reading stops: the dragon lives if it may
    /// still make two eyes, has some room, or something to capture.
    fn promising(&self) -> bool {
        self.eyes.max() >= 2 || self.room >= ESCAPE_ROOM / 2 || self.resources
    }

    fn hopeless(&self) -> bool {
        self.eyes.max() < 2 && self.room < DEAD_ROOM && !self.resources
    }
}

/// The outcome of a semeai: A's defence code, A's attack code on B, and
/// A's move (`None`: no move needed or none helps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemeaiResult {
    pub a: u8,
    pub b: u8,
    pub point: Option<Point>,
}

/// Semeai values, from A's side.
const A_DIES: u8 = 0;
const SEKI: u8 = 1;
const B_DIES: u8 = 2;

/// A board: its hash and its ko.
type BoardKey = (u64, Option<(Point, Color)>);
/// A search position: the board, the goal, attacker to move, ko allowed.
type Key = (BoardKey, u64, bool, bool);
/// A semeai position: the board, A to move, after a pass.
type RaceKey = (BoardKey, bool, bool);

/// The life-and-death reader. One reader may answer many questions on
/// one board; each question gets the full node budget.
pub struct Owl {
    budget: u64,
    nodes: u64,
    /// Some line of the last question was judged where the budget or the
    /// depth ran out (GNU Go's "uncertain" results).
    cut: bool,
    reader: Reader,
    eyes: HashMap<BoardKey, Rc<Eyes>>,
    memo: HashMap<Key, Answer>,
}

impl Owl {
    /// A reader visiting at most `budget` positions per question.
    pub fn new(budget: u64) -> Owl {
        Owl {
            budget,
            nodes: 0,
            cut: false,
            reader: Reader::new(TACTICAL_BUDGET),
            eyes: HashMap::new(),
            memo: HashMap::new(),
        }
    }

    fn start(&mut self) {
        self.nodes = 0;
        self.cut = false;
        self.memo.clear();
    }

    /// Whether the last question's answer rests on a line cut short by
    /// the node budget or the depth (GNU Go's `report_uncertainty`).
    pub fn uncertain(&self) -> bool {
        self.cut
    }

    fn eyes_of(&mut self, b: &Board) -> Rc<Eyes> {
        let key = (b.hash(), b.ko());
        if let Some(e) = self.eyes.get(&key) {
            return e.clone();
        }
        if self.eyes.len() > 4_096 {
            self.eyes.clear();
        }
        let e = Rc::new(Eyes::new(b, EYE_BUDGET));
        self.eyes.insert(key, e.clone());
        e
    }

    /// Can the dragon of `stones` (asked at its stone `target`) be
    /// killed, its opponent to move? The code (`WIN`, `KO_A`, `KO_B`,
    /// `LOSS`) and the killing move. When `target` lies in the opponent's
    /// unconditional territory no move is needed, and the code is
    /// `KO_B`, as GNU Go 3.8 answers (its `owl_attack` returns 1 there,
    /// which is its code for a ko); a pass-alive dragon cannot be killed.
    pub fn attack(&mut self, b: &Board, target: Point, stones: &[Point]) -> Answer {
        let Some(goal) = Goal::new(b, stones) else {
            return Answer::new(LOSS, None);
        };
        match unconditional(b, target, &goal) {
            Some(Unconditional::Dead) => return Answer::new(KO_B, None),
            Some(Unconditional::Alive) => return Answer::new(LOSS, None),
            _ => {}
        }
        self.start();
        self.attack_node(b, &goal, 0, true)
    }

    /// Can the dragon of `stones` (asked at `target`) be saved, its
    /// owner to move? `WIN` with no move when it lives whatever the
    /// opponent does first.
    pub fn defend(&mut self, b: &Board, target: Point, stones: &[Point]) -> Answer {
        let Some(goal) = Goal::new(b, stones) else {
            return Answer::new(LOSS, None);
        };
        match unconditional(b, target, &goal) {
            Some(Unconditional::Dead) => return Answer::new(LOSS, None),
            Some(Unconditional::Alive) => return Answer::new(WIN, None),
            _ => {}
        }
        self.start();
        self.defend_node(b, &goal, 0, true)
    }

    /// Does the opponent's move at `m` kill the dragon of `stones` (the
    /// attacker's code once the owner has answered)? As GNU Go's, a
    /// pass-alive dragon is never killed, and a dragon that is dead
    /// anyway is killed by any legal move.
    pub fn does_attack(&mut self, b: &Board, m: Point, target: Point, stones: &[Point]) -> u8 {
        let Some(goal) = Goal::new(b, stones) else {
            return LOSS;
        };
        if unconditional(b, target, &goal) == Some(Unconditional::Alive) {
            return LOSS;
        }
        let Some(after) = b.after(goal.color.opp(), m) else {
            return LOSS;
        };
        self.start();
        let g = goal.after(&after, None);
        if g.captured(&after) {
            return WIN;
        }
        flip(self.defend_node(&after, &g, 1, true).code)
    }

    /// Does the owner's move at `m` save the dragon of `stones`? As GNU
    /// Go's, a dragon that cannot be killed anyway is saved by any legal
    /// move, and one lying in unconditional territory by none.
    pub fn does_defend(&mut self, b: &Board, m: Point, target: Point, stones: &[Point]) -> u8 {
        let Some(goal) = Goal::new(b, stones) else {
            return LOSS;
        };
        if unconditional(b, target, &goal) == Some(Unconditional::Dead) {
            return LOSS;
        }
        let Some(after) = b.after(goal.color, m) else {
            return LOSS;
        };
        self.start();
        let g = goal.after(&after, Some(m));
        if g.captured(&after) {
            return LOSS;
        }
        flip(self.attack_node(&after, &g, 1, true).code)
    }

    /// GNU Go's `owl_threaten_attack`: can the opponent kill the dragon
    /// of `stones` (asked at `target`) with two moves in a row? The two
    /// moves; each of the attacker's first candidates is tried, then the
    /// dragon attacked again. As GNU Go's, when the first move captures
    /// the stone asked, no move is named (`(None, None)`) if the rest of
    /// the dragon is gone or can be attacked too.
    pub fn threaten_attack(
        &mut self,
        b: &Board,
        target: Point,
        stones: &[Point],
    ) -> Option<(Option<Point>, Option<Point>)> {
        let goal = Goal::new(b, stones)?;
        self.start();
        let first = self.estimate(b, &goal).attacker;
        let mut cut = false;
        for m in first.into_iter().take(ROOT_WIDTH) {
            let Some((child, _, _)) = Owl::play(b, goal.color.opp(), m, false) else {
                continue;
            };
            let g = goal.after(&child, None);
            if g.captured(&child) {
                return Some((None, None));
            }
            self.start();
            let ans = self.attack_node(&child, &g, 0, true);
            cut |= self.cut;
            if child.cell(target) == Cell::Empty {
                if ans.code != LOSS {
                    return Some((None, None));
                }
            } else if ans.code == WIN {
                return Some((Some(m), ans.point));
            }
        }
        self.cut = cut;
        None
    }

    /// GNU Go's `owl_threaten_defense`: can the owner save the dragon of
    /// `stones` (asked at `target`) with two moves in a row? The two
    /// moves (the second `None` when one is enough). A dragon in the
    /// opponent's unconditional territory cannot.
    pub fn threaten_defense(
        &mut self,
        b: &Board,
        target: Point,
        stones: &[Point],
    ) -> Option<(Point, Option<Point>)> {
        let goal = Goal::new(b, stones)?;
        if unconditional(b, target, &goal) == Some(Unconditional::Dead) {
            return None;
        }
        self.start();
        let first = self.estimate(b, &goal).defender;
        let mut cut = false;
        for m in first.into_iter().take(ROOT_WIDTH) {
            let Some((child, _, _)) = Owl::play(b, goal.color, m, false) else {
                continue;
            };
            let g = goal.after(&child, Some(m));
            if g.captured(&child) {
                continue;
            }
            self.start();
            let ans = self.defend_node(&child, &g, 0, true);
            cut |= self.cut;
            if ans.code == WIN {
                return Some((m, ans.point));
            }
        }
        self.cut = cut;
        None
    }

    /// GNU Go's `owl_connection_defends`: after the owner of the dragons
    /// of `a` and `b` (one colour) plays `m`, joining them, can the
    /// opponent not kill the whole? `WIN` or `LOSS` (a ko counts as a
    /// kill); `LOSS` for an illegal move or a dragon in the opponent's
    /// unconditional territory.
    pub fn connection_defends(&mut self, b: &Board, m: Point, a: &[Point], other: &[Point]) -> u8 {
        let (Some(ga), Some(gb)) = (Goal::new(b, a), Goal::new(b, other)) else {
            return LOSS;
        };
        if ga.color != gb.color
            || [&ga, &gb].iter().any(|g| {
                g.original
                    .first()
                    .is_some_and(|&s| unconditional(b, s, g) == Some(Unconditional::Dead))
            })
        {
            return LOSS;
        }
        let Some(after) = b.after(ga.color, m) else {
            return LOSS;
        };
        let mut joined: Vec<Point> = ga.stones.clone();
        joined.extend(gb.stones.iter().copied());
        joined.push(m);
        let Some(goal) = Goal::new(&after, &joined) else {
            return LOSS;
        };
        self.start();
        if self.attack_node(&after, &goal, 1, true).code == LOSS {
            WIN
        } else {
            LOSS
        }
    }

    /// GNU Go's `owl_substantial`: would capturing the string at `s` give
    /// its neighbours a living dragon? Strings of more than six stones
    /// are; strings with more than ten liberties are not; one next to a
    /// dragon `alive` (asked of a stone) calls is. Otherwise the
    /// opponent fills the string's liberties (the next one when one is
    /// illegal; none left to try: not substantial), and the stones that
    /// took it, with the neighbouring dragons' stones `around`, are read
    /// as one dragon with the string's colour to move.
    pub fn substantial(
        &mut self,
        b: &Board,
        s: Point,
        around: &[Point],
        alive: impl Fn(Point) -> bool,
    ) -> bool {
        let Some(c) = b.cell(s).color() else {
            return false;
        };
        if b.chain_size(s) > 6 {
            return true;
        }
        let mut libs = b.liberties(s);
        if libs.len() > 10 {
            return false;
        }
        libs.sort_by_key(|&p| rank(b, p));
        let chain = b.chain_stones(s);
        if crate::worm::adjacent_opponents(b, &chain, c)
            .into_iter()
            .any(alive)
        {
            return true;
        }
        let mut board = b.clone();
        let mut filled: Vec<Point> = around.to_vec();
        let mut k = 0;
        while k < libs.len() {
            if board.is_legal(c.opp(), Move::Play(libs[k])) {
                board.play(c.opp(), Move::Play(libs[k]));
                filled.push(libs[k]);
            } else if k + 1 < libs.len() && board.is_legal(c.opp(), Move::Play(libs[k + 1])) {
                board.play(c.opp(), Move::Play(libs[k + 1]));
                filled.push(libs[k + 1]);
                libs.swap(k, k + 1);
            } else {
                return false;
            }
            k += 1;
        }
        let Some(goal) = Goal::new(&board, &filled) else {
            return false;
        };
        self.start();
        self.attack_node(&board, &goal, 0, true).code == LOSS
    }

    /// The static estimate of the goal on `b`.
    fn estimate(&mut self, b: &Board, goal: &Goal) -> Estimate {
        self.nodes += 1;
        let eyes = self.eyes_of(b);
        let c = goal.color;
        // The goal's eye spaces: vital points, half eyes, points.
        let origins = goal_eyes(b, &eyes, goal);
        let value = eye_sum(&eyes, c, &origins);
        let room = escape(b, &goal.stones, c);
        let mut att = Candidates::default();
        let mut def = Candidates::default();
        for &o in &origins {
            if let Some(ev) = eyes.evaluation(c, o) {
                if ev.value.min() < ev.value.max() {
                    att.add(ev.attack, 100);
                    def.add(ev.defense, 100);
                }
            }
        }
        if !origins.is_empty() {
            for p in b.points() {
                let ep = eyes.point(c, p);
                if !ep.origin.is_some_and(|o| origins.contains(&o)) {
                    continue;
                }
                let h = eyes.half_eye(p);
                if h.kind != HalfKind::None {
                    for &a in &h.attacks {
                        att.add(Some(a), 80);
                    }
                    for &d in &h.defenses {
                        def.add(Some(d), 80);
                    }
                }
                if b.cell(p) == Cell::Empty {
                    let inner = ep.neighbors as i32;
                    let bonus = if ep.marginal { 0 } else { 5 };
                    att.add(Some(p), 45 + bonus + 3 * inner);
                    def.add(Some(p), 45 + bonus + 3 * inner);
                }
            }
        }
        // Tactics: goal strings under attack, opponent strings next to it.
        let mut resources = false;
        let mut weak = false;
        for s in goal.strings(b) {
            if b.liberties(s).len() > 3 {
                continue;
            }
            let a = self.reader.attack(b, s);
            if a.code != LOSS {
                weak = true;
                att.add(a.point, if a.code == WIN { 90 } else { 65 });
                let d = self.reader.defend(b, s);
                if d.code != LOSS {
                    resources = true;
                    def.add(d.point, 92);
                }
            }
        }
        for e in goal.enemies(b) {
            if b.liberties(e).len() > 3 {
                continue;
            }
            let a = self.reader.attack(b, e);
            if a.code != LOSS {
                resources = true;
                def.add(a.point, 85);
                let d = self.reader.defend(b, e);
                if d.code != LOSS {
                    att.add(d.point, 75);
                }
            }
        }
        // Liberties: outward ones (more empty neighbours) first.
        for l in goal.liberties(b) {
            let open = b
                .neighbors(l)
                .iter()
                .filter(|&&q| b.cell(q) == Cell::Empty)
                .count() as i32;
            let touching = b
                .neighbors(l)
                .iter()
                .filter(|&&q| goal.stones.contains(&q))
                .count() as i32;
            att.add(Some(l), 30 + 4 * open + touching);
            def.add(Some(l), 30 + 4 * open - touching);
        }
        Estimate {
            eyes: value,
            room,
            resources,
            weak,
            attacker: att.sorted(b),
            defender: def.sorted(b),
        }
    }

    /// Plays `m` for `c` on a copy of `b`: the new board and the cap on
    /// the result (`KO_B` when the ko ban had to be broken), or `None`.
    fn play(b: &Board, c: Color, m: Point, ko_ok: bool) -> Option<(Board, u8, bool)> {
        let (cap, ko_next) = match b.check(c, Move::Play(m)) {
            Ok(()) => (WIN, ko_ok),
            Err(Illegal::Ko) if ko_ok => (KO_B, false),
            Err(_) => return None,
        };
        let mut b2 = b.clone();
        b2.play(c, Move::Play(m));
        Some((b2, cap, ko_next))
    }

    fn attack_node(&mut self, b: &Board, goal: &Goal, depth: u32, ko_ok: bool) -> Answer {
        let none = |code| Answer { code, point: None };
        if goal.captured(b) {
            return none(WIN);
        }
        let key = ((b.hash(), b.ko()), goal.key(), true, ko_ok);
        if depth > 0 {
            if let Some(&a) = self.memo.get(&key) {
                return a;
            }
        }
        let est = self.estimate(b, goal);
        if est.alive() || est.escaped(depth) {
            return none(LOSS);
        }
        if depth > 0 && est.hopeless() {
            return none(WIN);
        }
        if self.nodes >= self.budget || depth >= MAX_DEPTH {
            self.cut = true;
            return none(if est.promising() { LOSS } else { WIN });
        }
        let att = goal.color.opp();
        let mut best = none(LOSS);
        let mut tried = 0;
        for &m in &est.attacker {
            if tried >= width(depth) {
                break;
            }
            let Some((child, cap, ko_next)) = Owl::play(b, att, m, ko_ok) else {
                continue;
            };
            // A stone that can be captured at once and takes nothing is
            // worth trying only inside the eye space (a throw-in).
            tried += 1;
            let g = goal.after(&child, None);
            let r = if g.captured(&child) {
                WIN
            } else {
                flip(self.defend_node(&child, &g, depth + 1, ko_next).code)
            }
            .min(cap);
            if r > best.code {
                best = Answer {
                    code: r,
                    point: Some(m),
                };
                if r == WIN {
                    break;
                }
            }
        }
        self.memo.insert(key, best);
        best
    }

    fn defend_node(&mut self, b: &Board, goal: &Goal, depth: u32, ko_ok: bool) -> Answer {
        let none = |code| Answer { code, point: None };
        if goal.captured(b) {
            return none(LOSS);
        }
        let key = ((b.hash(), b.ko()), goal.key(), false, ko_ok);
        if depth > 0 {
            if let Some(&a) = self.memo.get(&key) {
                return a;
            }
        }
        let est = self.estimate(b, goal);
        if est.alive() || est.escaped(depth) {
            return none(WIN);
        }
        if depth > 0 && est.hopeless() {
            return none(LOSS);
        }
        if self.nodes >= self.budget || depth >= MAX_DEPTH {
            self.cut = true;
            return none(if est.promising() { WIN } else { LOSS });
        }
        let mut best = none(LOSS);
        let mut tried = 0;
        for &m in &est.defender {
            if tried >= width(depth) {
                break;
            }
            let Some((child, cap, ko_next)) = Owl::play(b, goal.color, m, ko_ok) else {
                continue;
            };
            tried += 1;
            let g = goal.after(&child, Some(m));
            if g.captured(&child) {
                continue;
            }
            let r = flip(self.attack_node(&child, &g, depth + 1, ko_next).code).min(cap);
            if r > best.code {
                best = Answer {
                    code: r,
                    point: Some(m),
                };
                if r == WIN {
                    break;
                }
            }
        }
        self.memo.insert(key, best);
        best
    }

    /// The semeai between the dragons of `a` and `b` (opposite colours),
    /// A's colour to move. With `owl` the eye analysis judges the two
    /// dragons; without it (GNU Go's `tactical_analyze_semeai`) only
    /// captures and liberties count.
    pub fn semeai(&mut self, board: &Board, a: &[Point], b: &[Point], owl: bool) -> SemeaiResult {
        self.race(board, a, b, owl, true)
    }

    /// GNU Go's `analyze_semeai_after_move`: `color` plays `m` first (on
    /// a copy), then B's colour moves and the race is read with the eye
    /// analysis; the codes are A's, as for [`Owl::semeai`], and the move
    /// is A's best next move when A lives. `None` when `m` is illegal.
    pub fn semeai_after_move(
        &mut self,
        board: &Board,
        color: Color,
        m: Point,
        a: &[Point],
        b: &[Point],
    ) -> Option<SemeaiResult> {
        let after = board.after(color, m)?;
        let mut r = self.race(&after, a, b, true, false);
        let cut = self.cut;
        r.point = None;
        if r.a != LOSS {
            r.point = self.race(&after, a, b, true, true).point;
        }
        self.cut |= cut;
        Some(r)
    }

    /// The race between A and B, A's colour to move when `a_first`.
    fn race(
        &mut self,
        board: &Board,
        a: &[Point],
        b: &[Point],
        owl: bool,
        a_first: bool,
    ) -> SemeaiResult {
        let (Some(ga), Some(gb)) = (Goal::new(board, a), Goal::new(board, b)) else {
            return SemeaiResult {
                a: LOSS,
                b: LOSS,
                point: None,
            };
        };
        if ga.color == gb.color {
            return SemeaiResult {
                a: LOSS,
                b: LOSS,
                point: None,
            };
        }
        self.start();
        let mut race = Race {
            owl: self,
            use_eyes: owl,
            memo: HashMap::new(),
        };
        let (v, point) = race.node(board, &ga, &gb, a_first, 0, false);
        SemeaiResult {
            a: if v >= SEKI { WIN } else { LOSS },
            b: if v == B_DIES { WIN } else { LOSS },
            point: if v == A_DIES { None } else { point },
        }
    }
}

/// The origins of colour `c`'s eyes next to the goal that the goal
/// encloses: at least two thirds of the points around the eye (next to
/// it, on the board, not in it) are goal stones. An eye space that open
/// is influence, not an eye, to the owl reader (a lone stone in the
/// open has none).
fn goal_eyes(b: &Board, eyes: &Eyes, goal: &Goal) -> Vec<Point> {
    let c = goal.color;
    let mut origins: Vec<Point> = Vec::new();
    for &s in &goal.stones {
        for q in b.neighbors(s) {
            if !on_board(b, q) {
                continue;
            }
            if let Some(o) = eyes.point(c, q).origin {
                if !origins.contains(&o) {
                    origins.push(o);
                }
            }
        }
    }
    origins.retain(|&o| {
        let members: Vec<Point> = b
            .points()
            .filter(|&p| eyes.point(c, p).origin == Some(o))
            .collect();
        let mut around: Vec<Point> = Vec::new();
        for &p in &members {
            for q in b.neighbors(p) {
                if on_board(b, q) && !members.contains(&q) && !around.contains(&q) {
                    around.push(q);
                }
            }
        }
        let walls = around.iter().filter(|q| goal.stones.contains(q)).count();
        3 * walls >= 2 * around.len()
    });
    origins
}

/// The values of the eyes `origins` (colour `c`) summed digit by digit,
/// each digit at most 2.
fn eye_sum(eyes: &Eyes, c: Color, origins: &[Point]) -> EyeValue {
    let mut sum = EyeValue::default();
    for &o in origins {
        if let Some(v) = eyes.evaluation(c, o).map(|ev| ev.value) {
            sum.a = (sum.a + v.a).min(2);
            sum.b = (sum.b + v.b).min(2);
            sum.c = (sum.c + v.c).min(2);
            sum.d = (sum.d + v.d).min(2);
        }
    }
    sum
}

/// How far the stones `stones` (colour `c`) can run: the empty points
/// with no opponent stone within two steps (Manhattan distance) that
/// they reach in `ESCAPE_REACH` steps through empty points next to no
/// opponent stone.
fn escape(b: &Board, stones: &[Point], c: Color) -> usize {
    let mut seen = vec![false; b.slots()];
    let mut frontier: Vec<Point> = Vec::new();
    for &s in stones {
        seen[s.index()] = true;
        frontier.push(s);
    }
    let enemy = |p: Point| b.cell(p).color() == Some(c.opp());
    let near_enemy = |p: Point| b.neighbors(p).iter().any(|&q| enemy(q));
    let open = |p: Point| {
        let (x, y) = (p.x() as isize, p.y() as isize);
        !(-2isize..=2).any(|dx| {
            (-2isize..=2).any(|dy| {
                let (qx, qy) = (x + dx, y + dy);
                dx.abs() + dy.abs() <= 2 && b.at(qx, qy).is_some_and(enemy)
            })
        })
    };
    let mut count = 0;
    for _ in 0..ESCAPE_REACH {
        let mut next = Vec::new();
        for &p in &frontier {
            for q in b.neighbors(p) {
                if b.cell(q) != Cell::Empty || seen[q.index()] {
                    continue;
                }
                seen[q.index()] = true;
                if !near_enemy(q) {
                    count += usize::from(open(q));
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    count
}

/// Benson's verdict, as GNU Go's owl functions ask it: `Dead` when the
/// stone at `target` lies in the opponent's unconditional territory,
/// `Alive` when a string of the goal is pass-alive.
fn unconditional(b: &Board, target: Point, goal: &Goal) -> Option<Unconditional> {
    let map = UnconditionalMap::new(b);
    if map.status(b, target) == Unconditional::Dead {
        return Some(Unconditional::Dead);
    }
    goal.stones
        .iter()
        .any(|&s| map.status(b, s) == Unconditional::Alive)
        .then_some(Unconditional::Alive)
}

/// The semeai search (see the module text).
struct Race<'a> {
    owl: &'a mut Owl,
    use_eyes: bool,
    memo: HashMap<RaceKey, (u8, Option<Point>)>,
}

/// The fewest liberties among `goal`'s strings that touch `other`, or
/// among all its strings when none does.
fn race_liberties(b: &Board, goal: &Goal, other: &Goal) -> usize {
    let strings = goal.strings(b);
    let touching: Vec<Point> = strings
        .iter()
        .copied()
        .filter(|&s| {
            b.chain_stones(s).iter().any(|&p| {
                b.neighbors(p)
                    .iter()
                    .any(|q| other.stones.contains(q) || shares(b, *q, other))
            })
        })
        .collect();
    let set = if touching.is_empty() {
        &strings
    } else {
        &touching
    };
    set.iter().map(|&s| b.liberties(s).len()).min().unwrap_or(0)
}

/// Whether the empty point `q` is a liberty of `other`.
fn shares(b: &Board, q: Point, other: &Goal) -> bool {
    b.cell(q) == Cell::Empty && b.neighbors(q).iter().any(|r| other.stones.contains(r))
}

impl Race<'_> {
    /// The value (from A's side) and the best move of the side to move.
    fn node(
        &mut self,
        board: &Board,
        a: &Goal,
        b: &Goal,
        a_to_move: bool,
        depth: u32,
        passed: bool,
    ) -> (u8, Option<Point>) {
        if a.captured(board) {
            return (A_DIES, None);
        }
        if b.captured(board) {
            return (B_DIES, None);
        }
        let key = ((board.hash(), board.ko()), a_to_move, passed);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let (la, lb) = (race_liberties(board, a, b), race_liberties(board, b, a));
        let (mut ea, mut eb) = (EyeValue::default(), EyeValue::default());
        if self.use_eyes {
            let eyes = self.owl.eyes_of(board);
            ea = eye_sum(&eyes, a.color, &goal_eyes(board, &eyes, a));
            eb = eye_sum(&eyes, b.color, &goal_eyes(board, &eyes, b));
            let (a_lives, b_lives) = (ea.min() >= 2, eb.min() >= 2);
            if a_lives && b_lives {
                return (SEKI, None);
            }
            if a_lives && eb.max() < 2 && !a_to_move {
                return (B_DIES, None);
            }
            if b_lives && ea.max() < 2 && a_to_move {
                return (A_DIES, None);
            }
        }
        let max_depth = 2 * (la + lb) as u32 + 6;
        if self.owl.nodes >= self.owl.budget || depth >= max_depth.min(40) {
            self.owl.cut = true;
            // The liberty count decides: an eye is worth a liberty more.
            let bonus = |e: EyeValue| usize::from(e.max() >= 1);
            let (ra, rb) = (la + bonus(ea), lb + bonus(eb));
            let v = if a_to_move {
                if ra >= rb {
                    B_DIES
                } else {
                    A_DIES
                }
            } else if rb >= ra {
                A_DIES
            } else {
                B_DIES
            };
            return (v, None);
        }
        self.owl.nodes += 1;
        let (me, them) = if a_to_move { (a, b) } else { (b, a) };
        let moves = self.moves(board, me, them);
        let mut best: (u8, Option<Point>) = (if a_to_move { A_DIES } else { B_DIES }, None);
        let better = |v: u8, w: u8| if a_to_move { v > w } else { v < w };
        let target = if a_to_move { B_DIES } else { A_DIES };
        let mut tried = 0;
        for m in moves {
            if tried >= width(depth).max(3) {
                break;
            }
            let Some(child) = board.after(me.color, m) else {
                continue;
            };
            tried += 1;
            let (na, nb) = if a_to_move {
                (a.after(&child, Some(m)), b.after(&child, None))
            } else {
                (a.after(&child, None), b.after(&child, Some(m)))
            };
            let (v, _) = self.node(&child, &na, &nb, !a_to_move, depth + 1, false);
            if better(v, best.0) || best.1.is_none() && v == best.0 {
                best = (v, Some(m));
                if v == target {
                    break;
                }
            }
        }
        // Passing: twice in a row leaves both alive.
        if best.0 != target {
            let v = if passed {
                SEKI
            } else {
                let mut pb = board.clone();
                pb.play(me.color, Move::Pass);
                self.node(&pb, a, b, !a_to_move, depth + 1, true).0
            };
            if better(v, best.0) {
                best = (v, None);
            }
        }
        self.memo.insert(key, best);
        best
    }

    /// The side `me`'s moves against `them`, best first.
    fn moves(&mut self, board: &Board, me: &Goal, them: &Goal) -> Vec<Point> {
        let mut cand = Candidates::default();
        // Captures and rescues.
        for s in them.strings(board) {
            if let Some(l) = board.atari_liberty(s) {
                cand.add(Some(l), 120);
            }
        }
        for s in me.strings(board) {
            if let Some(l) = board.atari_liberty(s) {
                if board.libs_after(me.color, l, 3) >= 2 {
                    cand.add(Some(l), 110);
                }
                for e in me.enemies(board) {
                    if let Some(x) = board.atari_liberty(e) {
                        if board.chain_stones(e).iter().any(|p| {
                            board.neighbors(*p).iter().any(|q| {
                                board.chain_id(*q) == board.chain_id(s)
                                    && board.cell(*q) == board.cell(s)
                            })
                        }) {
                            cand.add(Some(x), 115);
                        }
                    }
                }
            }
        }
        // Eye vital points, both ways.
        if self.use_eyes {
            let eyes = self.owl.eyes_of(board);
            for (goal, mine) in [(me, true), (them, false)] {
                let mut seen: Vec<Point> = Vec::new();
                for &s in &goal.stones {
                    for q in board.neighbors(s) {
                        if !on_board(board, q) {
                            continue;
                        }
                        let Some(o) = eyes.point(goal.color, q).origin else {
                            continue;
                        };
                        if seen.contains(&o) {
                            continue;
                        }
                        seen.push(o);
                        if let Some(ev) = eyes.evaluation(goal.color, o) {
                            if ev.value.min() < ev.value.max() {
                                cand.add(if mine { ev.defense } else { ev.attack }, 100);
                            }
                        }
                    }
                }
            }
        }
        // The opponent's liberties: outside ones before shared ones; a
        // fill that leaves my own string in atari last.
        for l in them.liberties(board) {
            let shared = board.neighbors(l).iter().any(|q| me.stones.contains(q));
            let libs = board.libs_after(me.color, l, 3);
            let score = match (shared, libs) {
                (_, 0) => continue,
                (false, 1) => 20,
                (true, 1) => 5,
                (false, _) => 60,
                (true, _) => 40,
            };
            cand.add(Some(l), score);
        }
        // My own liberties that add liberties.
        for l in me.liberties(board) {
            if board.libs_after(me.color, l, 4) >= 3 {
                cand.add(Some(l), 30);
            }
        }
        cand.sorted(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{from_rows, point, point_on};

    fn stones(b: &Board, v: &str) -> Vec<Point> {
        b.chain_stones(point_on(v, b))
    }

    #[test]
    fn two_eyes_live() {
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O O O O O . . .",
            "X X X X X O . . .",
            "X . X . X O . . .",
            "X X X X X O . . .",
        ]);
        let mut owl = Owl::new(NODE_BUDGET);
        let g = stones(&b, "A1");
        assert_eq!(owl.attack(&b, g[0], &g).code, LOSS);
        assert_eq!(owl.defend(&b, g[0], &g).code, WIN);
    }

    #[test]
    fn bulky_five_with_the_vital_point_taken_dies() {
        // A black group around a bulky five in the corner; White has
        // taken the vital point.
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O O O O . . . .",
            "X X X O . . . . .",
            ". . X O . . . . .",
            ". O . X O . . . .",
        ]);
        let mut owl = Owl::new(NODE_BUDGET);
        let mut g = stones(&b, "A3");
        g.push(point("D1", 9));
        let a = owl.attack(&b, g[0], &g);
        assert_ne!(a.code, LOSS, "{a:?}");
        assert_eq!(owl.defend(&b, g[0], &g).code, LOSS);
    }

    #[test]
    fn straight_three_is_a_nakade() {
        // Black has a straight three on the edge: the middle point kills
        // and saves.
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O O O O O . . .",
            "X X X X X O . . .",
            ". . . . X O . . .",
        ]);
        // The white wall is alive (it is outside), the black group has a
        // straight four... make it three: fill A1.
        let mut b = b;
        assert!(b.setup_stone(Color::Black, point("A1", 9)));
        let g = stones(&b, "A2");
        let mut owl = Owl::new(NODE_BUDGET);
        let a = owl.attack(&b, g[0], &g);
        assert_eq!(a.code, WIN, "{a:?}");
        assert_eq!(a.point, Some(point("C1", 9)));
        let d = owl.defend(&b, g[0], &g);
        assert_eq!(d.code, WIN, "{d:?}");
        assert_eq!(d.point, Some(point("C1", 9)));
        assert_eq!(owl.does_attack(&b, point("C1", 9), g[0], &g), WIN);
        assert_eq!(owl.does_defend(&b, point("C1", 9), g[0], &g), WIN);
        assert_eq!(owl.does_defend(&b, point("B1", 9), g[0], &g), LOSS);
    }

    #[test]
    fn semeai_with_more_liberties_wins() {
        // The white string (two liberties, F1 and F2) is shut in between
        // Black's living wall and a black string with four (its corner
        // space): Black wins the race whoever starts (GNU Go 3.8 answers
        // the same: `1 1 F2` and `0 0 PASS`, with or without owl).
        let b = from_rows(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "X X X X X X . . .",
            "O O O O O X . . .",
            "X X X X O X X . .",
            ". . . X O . X . .",
            ". . . X O . X . .",
        ]);
        let black = stones(&b, "A3");
        let white = stones(&b, "E4");
        for owl_mode in [true, false] {
            let mut owl = Owl::new(NODE_BUDGET);
            let r = owl.semeai(&b, &black, &white, owl_mode);
            assert_eq!((r.a, r.b), (WIN, WIN), "{r:?}");
            assert_eq!(r.point, Some(point("F2", 9)));
            let r = owl.semeai(&b, &white, &black, owl_mode);
            assert_eq!((r.a, r.b, r.point), (LOSS, LOSS, None), "{r:?}");
        }
        let mut owl = Owl::new(NODE_BUDGET);
        assert_eq!(owl.attack(&b, white[0], &white).code, WIN);
        assert_eq!(owl.defend(&b, white[0], &white).code, LOSS);
    }

    #[test]
    fn never_panics_on_odd_questions() {
        let b = from_rows(&[". . .", ". X .", ". . ."]);
        let mut owl = Owl::new(NODE_BUDGET);
        assert_eq!(owl.attack(&b, point("A1", 3), &[]).code, LOSS);
        assert_eq!(owl.defend(&b, point("A1", 3), &[point("A1", 3)]).code, LOSS);
        let g = stones(&b, "B2");
        assert_eq!(owl.semeai(&b, &g, &g, true).a, LOSS);
        assert_eq!(owl.does_attack(&b, point("B2", 3), g[0], &g), LOSS);
        let a = owl.attack(&b, g[0], &g);
        assert!(a.code == LOSS || a.point.is_some());
    }
}
