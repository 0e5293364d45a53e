//! Break-in reading (GNU Go's `break_in` and `block_off`): can a string
//! reach an area, a set of points that may hold stones of its colour
//! (its owner to move: `break_in`), or can the opponent keep it out
//! (the opponent to move: `block_off`)?
//!
//! tengen's own reader, written from GNU Go's description of the two
//! questions: an alternating depth-first search over copies of the board,
//! under a node budget and a depth limit, on top of the tactical reader
//! (`reading`). The string has broken in when one of its stones stands on
//! a point of the area (a stone of its colour in the area that joins it
//! counts) and it cannot be captured at once or in a ladder (what GNU
//! Go's break-in reading asks too); it is kept out when it is captured,
//! when the area lies beyond `REACH` stones of its
//! colour (a path through empty points and its own stones, stones of the
//! area included), or when the search runs out of depth or budget (an
//! unproven break-in fails, as an unproven capture does in `reading`).
//! The search sees the string's group: the string and the strings of its
//! colour linked to it twice (two common liberties: whichever the
//! opponent takes, the other joins, as in `connection`). A group with a
//! stone in the area, or two liberties that enter it, is virtually in:
//! the opponent may then only cut a link or take an entry.
//!
//! Moves, for both sides: the string's liberties in the area, its
//! liberties next to a stone of its colour in the area, the empty points
//! on a shortest path to the area within two stones of the group (points
//! of the area first: a jump into the area is the breaker's usual move,
//! as GNU Go's), captures of and ataris on opposing strings next to the
//! group (breaker), saving such strings and cutting links (blocker).
//! Only results 1 (win) and 0 (fail) come out: ko is not read (a move the
//! ko ban forbids is not made).

use crate::board::{Board, Cell, Color, Point, POINTS};
use crate::reading::{taken_at_once, Answer, Reader, LOSS, WIN};
use crate::worm::adjacent_opponents;

/// Plies a line may run.
const MAX_DEPTH: u32 = 10;
/// Positions each tactical question inside the search may visit.
const TACTICAL_BUDGET: u64 = 2_000;
/// Stones of its colour beyond which the area is out of the string's
/// reach (the blocker needs no move).
const REACH: u32 = 4;
/// Moves tried at each ply: the first entry at the root, the last from
/// there on.
const WIDTH: [usize; 4] = [8, 6, 4, 3];
const FAR: u32 = u32::MAX / 4;

/// A break-in reader with a node budget (positions of its own search; the
/// tactical questions inside have their own small budget).
pub struct BreakIn {
    budget: u64,
    nodes: u64,
    tactics: Reader,
    ladder: Reader,
    goal: Vec<bool>,
}

impl BreakIn {
    pub fn new(budget: u64) -> BreakIn {
        BreakIn {
            budget,
            nodes: 0,
            tactics: Reader::new(TACTICAL_BUDGET),
            ladder: Reader::ladder(TACTICAL_BUDGET),
            goal: vec![false; POINTS],
        }
    }

    /// Positions visited by the last question.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Can the string at `s`, its owner to move, reach the area `goal`?
    /// `WIN` with no move when it is in the area already; `LOSS` for an
    /// empty `s`.
    pub fn break_in(&mut self, b: &Board, s: Point, goal: &[Point]) -> Answer {
        self.start(goal);
        if b.cell(s).color().is_none() {
            return Answer::new(LOSS, None);
        }
        if self.in_goal(b, s) {
            return Answer::new(WIN, None);
        }
        self.enter(b, s, 0)
    }

    /// Can the opponent of the string at `s`, to move, keep it out of the
    /// area `goal`? `WIN` with no move when no move is needed; `WIN` for
    /// an empty `s`.
    pub fn block_off(&mut self, b: &Board, s: Point, goal: &[Point]) -> Answer {
        self.start(goal);
        if b.cell(s).color().is_none() {
            return Answer::new(WIN, None);
        }
        self.block(b, s, 0)
    }

    fn start(&mut self, goal: &[Point]) {
        self.nodes = 0;
        self.goal.iter_mut().for_each(|g| *g = false);
        for &p in goal {
            if p.index() < POINTS {
                self.goal[p.index()] = true;
            }
        }
    }

    fn in_goal(&self, b: &Board, s: Point) -> bool {
        b.chain_stones(s).iter().any(|p| self.goal[p.index()])
    }

    /// The string's owner to move: a move that takes it into the area for
    /// good, or `LOSS`.
    fn enter(&mut self, b: &Board, s: Point, depth: u32) -> Answer {
        self.nodes += 1;
        let Some(c) = b.cell(s).color() else {
            return Answer::new(LOSS, None);
        };
        if self.in_goal(b, s) {
            return Answer::new(WIN, None);
        }
        if depth >= MAX_DEPTH || self.nodes >= self.budget {
            return Answer::new(LOSS, None);
        }
        let group = Group::new(b, s, c);
        let paths = Paths::new(b, &group, c, &self.goal);
        if paths.reach > REACH + 1 {
            return Answer::new(LOSS, None);
        }
        let mut moves = Vec::new();
        let opposing = adjacent_opponents(b, &group.stones, c);
        // Captures of opposing strings in atari next to the group.
        for &x in &opposing {
            if let Some(l) = b.atari_liberty(x) {
                push_new(&mut moves, l);
            }
        }
        // Virtually in: making a link solid.
        if group.stones.iter().any(|p| self.goal[p.index()]) {
            for &p in &group.links {
                push_new(&mut moves, p);
            }
        }
        for p in self.candidates(b, &group, c, &paths) {
            push_new(&mut moves, p);
        }
        // Ataris on opposing strings with two liberties, in the area first.
        let mut ataris: Vec<Point> = opposing
            .iter()
            .filter(|&&x| b.liberties(x).len() == 2)
            .flat_map(|&x| b.liberties(x))
            .collect();
        ataris.sort_by_key(|p| !self.goal[p.index()]);
        for p in ataris {
            push_new(&mut moves, p);
        }
        moves.truncate(width(depth));
        for m in moves {
            let Some(after) = b.after(c, m) else {
                continue;
            };
            if after.cell(s).color() != Some(c) {
                continue;
            }
            // A stone left in atari that took nothing is taken at once.
            if taken_at_once(b, &after, c, m) {
                continue;
            }
            if self.block(&after, s, depth + 1).code == LOSS {
                return Answer::new(WIN, Some(m));
            }
            if self.nodes >= self.budget {
                break;
            }
        }
        Answer::new(LOSS, None)
    }

    /// The opponent to move: a move that keeps the string out for good, or
    /// `LOSS`.
    fn block(&mut self, b: &Board, s: Point, depth: u32) -> Answer {
        self.nodes += 1;
        let Some(c) = b.cell(s).color() else {
            return Answer::new(WIN, None);
        };
        // A string in atari is taken, one with two liberties read as a
        // ladder (GNU Go's break-in reading asks the same).
        let attack = match b.liberties(s).len() {
            1 => self.tactics.attack(b, s),
            2 => self.ladder.attack(b, s),
            _ => Answer::new(LOSS, None),
        };
        if attack.code == WIN {
            return Answer::new(WIN, attack.point);
        }
        if self.in_goal(b, s) {
            return Answer::new(LOSS, None);
        }
        let group = Group::new(b, s, c);
        let entries = self.entries(b, &group, c);
        let mut moves;
        if group.stones.iter().any(|p| self.goal[p.index()]) || entries.len() >= 2 {
            // In but for a cut: only cutting a link or taking an entry may
            // keep it out.
            if depth >= MAX_DEPTH || self.nodes >= self.budget {
                return Answer::new(LOSS, None);
            }
            moves = group.links.clone();
            for p in entries {
                push_new(&mut moves, p);
            }
        } else {
            let paths = Paths::new(b, &group, c, &self.goal);
            if paths.reach > REACH || depth >= MAX_DEPTH || self.nodes >= self.budget {
                return Answer::new(WIN, None);
            }
            moves = self.candidates(b, &group, c, &paths);
            // Saving a wall string in atari next to the group.
            for x in adjacent_opponents(b, &group.stones, c) {
                if b.in_atari(x) {
                    if let Some(p) = self.tactics.defend(b, x).point {
                        push_new(&mut moves, p);
                    }
                }
            }
            for &p in &group.links {
                push_new(&mut moves, p);
            }
        }
        moves.truncate(width(depth));
        let o = c.opp();
        for m in moves {
            let Some(after) = b.after(o, m) else {
                continue;
            };
            if after.cell(s).color() != Some(c) {
                return Answer::new(WIN, Some(m));
            }
            if taken_at_once(b, &after, o, m) {
                continue;
            }
            if self.enter(&after, s, depth + 1).code == LOSS {
                return Answer::new(WIN, Some(m));
            }
            if self.nodes >= self.budget {
                break;
            }
        }
        Answer::new(LOSS, None)
    }

    /// The group's liberties that take it into the area at once: those in
    /// the area (most liberties for the new stone first), then those next
    /// to a stone of its colour in the area.
    fn entries(&self, b: &Board, group: &Group, c: Color) -> Vec<Point> {
        let mut out: Vec<Point> = group
            .libs
            .iter()
            .copied()
            .filter(|l| self.goal[l.index()])
            .collect();
        out.sort_by_key(|&l| std::cmp::Reverse(b.libs_after(c, l, 4)));
        for &l in &group.libs {
            if b.neighbors(l).iter().any(|&n| {
                self.goal[n.index()] && b.cell(n) == c.cell() && !group.stones.contains(&n)
            }) {
                push_new(&mut out, l);
            }
        }
        out
    }

    /// Points that take the group into the area or keep it out, the most
    /// direct first: its entries, then the empty points on a shortest
    /// path within two stones of it, points of the area first.
    fn candidates(&self, b: &Board, group: &Group, c: Color, paths: &Paths) -> Vec<Point> {
        let mut out = self.entries(b, group, c);
        let mut path: Vec<Point> = b
            .points()
            .filter(|&p| {
                b.cell(p) == Cell::Empty && paths.on_path(p) && paths.from_s[p.index()] <= 2
            })
            .collect();
        path.sort_by_key(|&p| {
            (
                !self.goal[p.index()],
                paths.from_s[p.index()],
                paths.to_goal[p.index()],
            )
        });
        for p in path {
            push_new(&mut out, p);
        }
        out
    }
}

/// The string and the strings of its colour linked to it twice (two
/// common liberties with what is joined so far: whichever the opponent
/// takes, the other joins), with their liberties and the linking points.
struct Group {
    stones: Vec<Point>,
    libs: Vec<Point>,
    links: Vec<Point>,
}

impl Group {
    fn new(b: &Board, s: Point, c: Color) -> Group {
        let mut g = Group {
            stones: b.chain_stones(s),
            libs: b.liberties(s),
            links: Vec::new(),
        };
        let mut ids = vec![b.chain_id(s)];
        loop {
            let mut grown = false;
            for i in 0..g.libs.len() {
                let l = g.libs[i];
                for n in b.neighbors(l) {
                    if b.cell(n) != c.cell() || ids.contains(&b.chain_id(n)) {
                        continue;
                    }
                    let libs = b.liberties(n);
                    let common: Vec<Point> = libs
                        .iter()
                        .copied()
                        .filter(|p| g.libs.contains(p))
                        .collect();
                    if common.len() < 2 {
                        continue;
                    }
                    ids.push(b.chain_id(n));
                    g.stones.extend(b.chain_stones(n));
                    for p in common {
                        push_new(&mut g.links, p);
                    }
                    for p in libs {
                        push_new(&mut g.libs, p);
                    }
                    grown = true;
                }
            }
            if !grown {
                return g;
            }
        }
    }
}

fn width(depth: u32) -> usize {
    WIDTH[(depth as usize).min(WIDTH.len() - 1)]
}

fn push_new(v: &mut Vec<Point>, p: Point) {
    if !v.contains(&p) {
        v.push(p);
    }
}

/// Stones of colour `c` needed to join the string to each point (from
/// the string) and each point to the area (from the area): a path runs
/// through empty points (one stone each) and stones of `c` (none), never
/// through the opponent's stones.
struct Paths {
    from_s: Vec<u32>,
    to_goal: Vec<u32>,
    /// Stones needed to take the string into the area.
    reach: u32,
}

impl Paths {
    fn new(b: &Board, group: &Group, c: Color, goal: &[bool]) -> Paths {
        let from_s = spread(b, c, group.stones.iter().map(|&p| (p, 0)));
        let seeds = b
            .points()
            .filter(|p| goal[p.index()])
            .filter_map(|p| match b.cell(p) {
                Cell::Empty => Some((p, 1)),
                cell if cell == c.cell() => Some((p, 0)),
                _ => None,
            });
        let to_goal = spread(b, c, seeds);
        let reach = b
            .points()
            .filter(|p| goal[p.index()])
            .map(|p| from_s[p.index()])
            .min()
            .unwrap_or(FAR);
        Paths {
            from_s,
            to_goal,
            reach,
        }
    }

    /// Is the empty point `p` on a shortest path from the string to the
    /// area (both distances count its own stone)?
    fn on_path(&self, p: Point) -> bool {
        let (a, g) = (self.from_s[p.index()], self.to_goal[p.index()]);
        a < FAR && g < FAR && a + g - 1 == self.reach
    }
}

/// A 0-1 breadth-first spread from `seeds` (point, cost of the point):
/// an empty point costs one stone of `c`, a stone of `c` none; other
/// points are not entered.
fn spread(b: &Board, c: Color, seeds: impl Iterator<Item = (Point, u32)>) -> Vec<u32> {
    let mut dist = vec![FAR; POINTS];
    let mut queue = std::collections::VecDeque::new();
    for (p, d) in seeds {
        if d < dist[p.index()] {
            dist[p.index()] = d;
            if d == 0 {
                queue.push_front(p);
            } else {
                queue.push_back(p);
            }
        }
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[p.index()];
        for n in b.neighbors(p) {
            let cost = match b.cell(n) {
                Cell::Empty => 1,
                cell if cell == c.cell() => 0,
                _ => continue,
            };
            if d + cost < dist[n.index()] {
                dist[n.index()] = d + cost;
                if cost == 0 {
                    queue.push_front(n);
                } else {
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{show, stones};
    use crate::board::Move;

    fn v(s: &str) -> Point {
        crate::board::test_util::point(s, 9)
    }

    fn vs(list: &str) -> Vec<Point> {
        list.split_whitespace().map(v).collect()
    }

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn answers_gnugo_gives_on_simple_shapes() {
        // GNU Go 3.8's answers on the same boards (9x9).
        let mut r = BreakIn::new(2_000);
        let b = stones(&[(B, "C3")]);
        // The area next to the stone: in by playing there, out by taking it.
        assert_eq!(show(r.break_in(&b, v("C3"), &vs("C4"))), "1 C4");
        assert_eq!(show(r.block_off(&b, v("C3"), &vs("C4"))), "1 C4");
        // A stone in the area is in; the blocker cannot change that.
        assert_eq!(show(r.break_in(&b, v("C3"), &vs("C3"))), "1 PASS");
        assert_eq!(show(r.block_off(&b, v("C3"), &vs("C3"))), "0");
        // A far area: out of reach, no move needed.
        assert_eq!(show(r.break_in(&b, v("C3"), &vs("H8 J8 H9 J9"))), "0");
        assert_eq!(show(r.block_off(&b, v("C3"), &vs("H8 J8 H9 J9"))), "1 PASS");
        // A big area around the stone: in whoever moves.
        let area = vs("C4 C5 C6 D4 D5 D6 E4 E5 E6");
        assert_eq!(r.break_in(&b, v("C3"), &area).code, WIN);
    }

    #[test]
    fn a_wall_keeps_a_string_out_and_a_capture_lets_it_in() {
        let mut r = BreakIn::new(2_000);
        // A black string behind a solid white wall on the fourth line.
        let b = stones(&[
            (B, "C2"),
            (B, "D2"),
            (B, "E2"),
            (W, "B3"),
            (W, "C3"),
            (W, "D3"),
            (W, "E3"),
            (W, "F3"),
            (W, "F2"),
            (W, "G2"),
        ]);
        let area = vs("C5 D5 E5 C6 D6 E6");
        assert_eq!(r.break_in(&b, v("D2"), &area).code, LOSS);
        assert_eq!(show(r.block_off(&b, v("D2"), &area)), "1 PASS");
        // The wall with a stone in atari: capturing it opens the way.
        let b = stones(&[
            (B, "C2"),
            (B, "D2"),
            (B, "E2"),
            (W, "D3"),
            (B, "C3"),
            (B, "E3"),
            (B, "D5"),
        ]);
        let area = vs("D4 D5 D6 C5 E5");
        let a = r.break_in(&b, v("D2"), &area);
        assert_eq!(a.code, WIN);
        // The move really gets in: after it, the blocker cannot keep it out.
        let mut after = b.clone();
        after.play(B, Move::Play(a.point.expect("a move")));
        assert_eq!(r.block_off(&after, v("D2"), &area).code, LOSS);
    }

    #[test]
    fn the_budget_bounds_the_work() {
        let mut r = BreakIn::new(50);
        let b = stones(&[(B, "C3"), (W, "D4"), (W, "C5"), (B, "E3")]);
        let area = vs("C6 D6 E6 D5 E5 F5");
        r.break_in(&b, v("C3"), &area);
        assert!(r.nodes() <= 51);
        r.block_off(&b, v("C3"), &area);
        assert!(r.nodes() <= 51);
    }
}
