//! Connection reading: can two strings of one colour be joined into one
//! (their owner to move), can they be cut apart (the opponent to move)?
//!
//! An alternating depth-first search over copies of the board, under a
//! node budget and a depth limit, on top of the tactical reader
//! (`reading`): the strings are connected when they are one chain that
//! the tactical reader cannot capture, cut when either is captured or
//! when the search runs out of moves, depth or budget (an unproven
//! connection fails, as an unproven capture does in `reading`).
//!
//! Moves tried (for both sides): the common liberties of the two strings,
//! the liberties of each that touch a liberty of the other (the points of
//! a one- or two-point gap), and the liberties of an opposing string that
//! touches both and is in atari (capturing a cutting stone); the joining
//! side first tries the tactical reader's capture of a cutting string,
//! the cutting side first its defence of a threatened cutting string, and
//! the cutting side wins at once when the tactical reader captures either
//! string. The cutting side never plays a stone into atari that captures
//! nothing (it is taken back), and two common liberties are a connection. Only results 1 (win) and 0 (fail) come out:
//! ko is not read here (a move the ko ban forbids is not made).

use crate::board::{Board, Point};
use crate::reading::{taken_at_once, Answer, Reader, LOSS, WIN};

/// Plies a connection line may run.
const MAX_DEPTH: u32 = 8;
/// Positions each tactical question inside the search may visit.
const TACTICAL_BUDGET: u64 = 5_000;

/// A connection reader with a node budget (positions of its own search;
/// the tactical questions inside have their own small budget).
pub struct Connector {
    budget: u64,
    nodes: u64,
    tactics: Reader,
}

impl Connector {
    pub fn new(budget: u64) -> Connector {
        Connector {
            budget,
            nodes: 0,
            tactics: Reader::new(TACTICAL_BUDGET),
        }
    }

    /// Can the owner of the strings at `s1` and `s2` (same colour), to
    /// move, connect them? `WIN` with no move when they are one string.
    pub fn connect(&mut self, b: &Board, s1: Point, s2: Point) -> Answer {
        self.nodes = 0;
        if b.cell(s1).color().is_none() || b.cell(s1) != b.cell(s2) {
            return answer(LOSS, None);
        }
        if b.chain_id(s1) == b.chain_id(s2) {
            return answer(WIN, None);
        }
        self.join(b, s1, s2, 0)
    }

    /// Can the opponent of the strings at `s1` and `s2`, to move, keep them
    /// apart? `LOSS` when they are one string.
    pub fn disconnect(&mut self, b: &Board, s1: Point, s2: Point) -> Answer {
        self.nodes = 0;
        if b.cell(s1).color().is_none() || b.cell(s1) != b.cell(s2) {
            return answer(LOSS, None);
        }
        if b.chain_id(s1) == b.chain_id(s2) {
            return answer(LOSS, None);
        }
        self.cut(b, s1, s2, 0)
    }

    /// The strings' owner to move: a move that connects them, or `LOSS`.
    fn join(&mut self, b: &Board, s1: Point, s2: Point, depth: u32) -> Answer {
        self.nodes += 1;
        let Some(c) = b.cell(s1).color() else {
            return answer(LOSS, None);
        };
        if depth >= MAX_DEPTH || self.nodes >= self.budget {
            return answer(LOSS, None);
        }
        // Capturing a cutting string first (the tactical reader's move).
        let mut moves = Vec::new();
        for x in cutting_strings(b, s1, s2) {
            if let Answer {
                code: WIN,
                point: Some(p),
            } = self.tactics.attack(b, x)
            {
                push_new(&mut moves, p);
            }
        }
        for p in self.candidates(b, s1, s2, false) {
            push_new(&mut moves, p);
        }
        for m in moves {
            let Some(after) = b.after(c, m) else {
                continue;
            };
            if after.cell(s1).color() != Some(c) || after.cell(s2).color() != Some(c) {
                continue;
            }
            let won = if after.chain_id(s1) == after.chain_id(s2) {
                self.safe(&after, s1)
            } else {
                self.cut(&after, s1, s2, depth + 1).code == LOSS
            };
            if won {
                return answer(WIN, Some(m));
            }
            if self.nodes >= self.budget {
                break;
            }
        }
        answer(LOSS, None)
    }

    /// The opponent to move: a move that keeps the strings apart for good,
    /// or `LOSS`.
    fn cut(&mut self, b: &Board, s1: Point, s2: Point, depth: u32) -> Answer {
        self.nodes += 1;
        let Some(c) = b.cell(s1).color() else {
            return answer(WIN, None);
        };
        if b.chain_id(s1) == b.chain_id(s2) {
            return answer(LOSS, None);
        }
        if depth >= MAX_DEPTH || self.nodes >= self.budget {
            return answer(WIN, None);
        }
        // Capturing either string cuts.
        for s in [s1, s2] {
            let a = self.tactics.attack(b, s);
            if a.code == WIN {
                return answer(WIN, a.point);
            }
        }
        // Two common liberties: whichever the cutter takes, the other joins.
        let l2 = b.liberties(s2);
        if b.liberties(s1).iter().filter(|p| l2.contains(p)).count() >= 2 {
            return answer(LOSS, None);
        }
        // Saving a threatened cutting string first.
        let mut moves = Vec::new();
        for x in cutting_strings(b, s1, s2) {
            if self.tactics.attack(b, x).code != LOSS {
                if let Some(p) = self.tactics.defend(b, x).point {
                    push_new(&mut moves, p);
                }
            }
        }
        for p in self.candidates(b, s1, s2, true) {
            push_new(&mut moves, p);
        }
        if moves.is_empty() {
            // Nothing joins them: they are apart whatever is played.
            return answer(WIN, None);
        }
        for m in moves {
            let Some(after) = b.after(c.opp(), m) else {
                continue;
            };
            if after.cell(s1).color() != Some(c) || after.cell(s2).color() != Some(c) {
                return answer(WIN, Some(m));
            }
            // A wedge left in atari that took nothing is taken back.
            if taken_at_once(b, &after, c.opp(), m) {
                continue;
            }
            if self.join(&after, s1, s2, depth + 1).code == LOSS {
                return answer(WIN, Some(m));
            }
        }
        answer(LOSS, None)
    }

    /// Is the (joined) string at `s` safe from a tactical capture with the
    /// opponent to move?
    fn safe(&mut self, b: &Board, s: Point) -> bool {
        let libs = b.liberties(s).len();
        libs >= 3 || (libs == 2 && self.tactics.attack(b, s).code == LOSS)
    }

    /// Moves that may join or cut the two strings, the most direct first:
    /// common liberties, gap points, captures of cutting stones in atari.
    fn candidates(&self, b: &Board, s1: Point, s2: Point, cutting: bool) -> Vec<Point> {
        let l1 = b.liberties(s1);
        let l2 = b.liberties(s2);
        let mut out: Vec<Point> = l1.iter().copied().filter(|p| l2.contains(p)).collect();
        let touches = |p: Point, libs: &[Point]| b.neighbors(p).iter().any(|n| libs.contains(n));
        for &p in &l1 {
            if touches(p, &l2) && !out.contains(&p) {
                out.push(p);
            }
        }
        for &p in &l2 {
            if touches(p, &l1) && !out.contains(&p) {
                out.push(p);
            }
        }
        // Opposing strings that touch both: in atari (for the side that
        // joins also with two liberties), their liberties.
        for x in cutting_strings(b, s1, s2) {
            let libs = b.liberties(x);
            if libs.len() == 1 || (!cutting && libs.len() == 2) {
                for l in libs {
                    push_new(&mut out, l);
                }
            }
        }
        out
    }
}

fn push_new(v: &mut Vec<Point>, p: Point) {
    if !v.contains(&p) {
        v.push(p);
    }
}

/// The opposing strings that touch both strings (one stone of each).
fn cutting_strings(b: &Board, s1: Point, s2: Point) -> Vec<Point> {
    let Some(c) = b.cell(s1).color() else {
        return Vec::new();
    };
    let stones2 = b.chain_stones(s2);
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for s in b.chain_stones(s1) {
        for n in b.neighbors(s) {
            if b.cell(n).color() != Some(c.opp()) || seen.contains(&b.chain_id(n)) {
                continue;
            }
            seen.push(b.chain_id(n));
            if b.chain_stones(n)
                .iter()
                .any(|&q| b.neighbors(q).iter().any(|r| stones2.contains(r)))
            {
                out.push(n);
            }
        }
    }
    out
}

fn answer(code: u8, point: Option<Point>) -> Answer {
    Answer { code, point }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_util::{show, stones};
    use crate::board::{Color, Move};

    fn v(s: &str) -> Point {
        crate::board::test_util::point(s, 9)
    }

    const B: Color = Color::Black;
    const W: Color = Color::White;

    #[test]
    fn answers_gnugo_gives_on_simple_shapes() {
        // GNU Go 3.8 on the same boards (9x9).
        let mut r = Connector::new(20_000);
        // A one-point jump: connected by D3. (GNU Go also says it cannot
        // be cut; this reader, which reads only the gap and not a fight
        // through a third stone, lets the wedge at D3 cut.)
        let b = stones(&[(B, "C3"), (B, "E3")]);
        assert_eq!(show(r.connect(&b, v("C3"), v("E3"))), "1 D3");
        // One string: connected, no cut.
        let b = stones(&[(B, "C3"), (B, "C4")]);
        assert_eq!(show(r.connect(&b, v("C3"), v("C4"))), "1 PASS");
        assert_eq!(show(r.disconnect(&b, v("C3"), v("C4"))), "0");
        // A white stone in between with one liberty: capturing it joins.
        // (GNU Go: disconnect 0; here White's extension to D2 cuts.)
        let b = stones(&[(B, "C3"), (B, "E3"), (W, "D3"), (B, "D4")]);
        assert_eq!(show(r.connect(&b, v("C3"), v("E3"))), "1 D2");
        // The white stone with two liberties: White to move cuts (GNU Go:
        // disconnect 1 D2; it also lets Black connect by D4, capturing
        // the wedge in a long chase along the edge that the tactical
        // reader's depth does not reach).
        let b = stones(&[(B, "C3"), (B, "E3"), (W, "D3")]);
        let cut = r.disconnect(&b, v("C3"), v("E3"));
        assert_eq!(cut.code, WIN);
        // The cutting move really cuts: after it, no connection.
        let Some(p) = cut.point else {
            panic!("a cut needs a move")
        };
        let mut after = b.clone();
        after.play(W, Move::Play(p));
        assert_eq!(r.connect(&after, v("C3"), v("E3")).code, LOSS);
    }

    #[test]
    fn a_bamboo_joint_holds_and_far_strings_do_not_connect() {
        let mut r = Connector::new(20_000);
        let b = stones(&[(B, "C3"), (B, "C4"), (B, "E3"), (B, "E4")]);
        assert_eq!(r.disconnect(&b, v("C3"), v("E4")).code, LOSS);
        assert_eq!(r.connect(&b, v("C3"), v("E4")).code, WIN);
        let b = stones(&[(B, "B2"), (B, "H8")]);
        assert_eq!(r.connect(&b, v("B2"), v("H8")).code, LOSS);
        assert_eq!(r.disconnect(&b, v("B2"), v("H8")).code, WIN);
    }
}
