//! Threat levels of a point and threat-space search: VCF (victory by
//! continuous fours) and VCT (fours and threes), with black's renju
//! forbidden points respected on both sides: black never plays one, and a
//! four whose only defence is a forbidden point for black wins for white.

use crate::board::{Board, Color, Outcome, Rule, Sq};
use crate::pattern::Shape;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What one stone of a colour on a point threatens, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    None,
    Two,
    Three,
    /// An open three: next move makes a straight four.
    OpenThree,
    DoubleThree,
    Four,
    FourThree,
    /// Two completion points: a straight four or two fours.
    WinThreat,
    Five,
}

/// The level of a stone whose four line shapes are `s`.
pub fn level(s: [Shape; 4]) -> Level {
    let mut fours = 0;
    let mut open_fours = 0;
    let mut threes = 0;
    let mut twos = 0;
    let mut closed = 0;
    for sh in s {
        match sh {
            Shape::Five => return Level::Five,
            Shape::OpenFour => open_fours += 1,
            Shape::FourFour => fours += 2,
            Shape::Four => fours += 1,
            Shape::OpenThree => threes += 1,
            Shape::Three => closed += 1,
            Shape::OpenTwo => twos += 1,
            _ => {}
        }
    }
    if open_fours > 0 || fours >= 2 {
        Level::WinThreat
    } else if fours == 1 && threes > 0 {
        Level::FourThree
    } else if fours == 1 {
        Level::Four
    } else if threes >= 2 {
        Level::DoubleThree
    } else if threes == 1 {
        Level::OpenThree
    } else if closed > 0 || twos >= 2 {
        Level::Three
    } else if twos == 1 {
        Level::Two
    } else {
        Level::None
    }
}

/// The empty squares within two king steps of some stone (every four
/// and three point is among them); the centre on an empty board, and
/// beside the others while at most two stones stand.
pub fn near(b: &Board) -> Vec<Sq> {
    let centre = crate::board::Point::new(b.width() / 2, b.height() / 2).and_then(|p| b.sq(p));
    if b.stones() == 0 {
        return centre.into_iter().collect();
    }
    let mut v = b.near_squares();
    // With a stone or two far from the centre (an edge opening, a swap
    // decision on one), the centre is still the natural move.
    if b.stones() <= 2 {
        if let Some(c) = centre.filter(|&c| b.is_empty(c) && !v.contains(&c)) {
            v.push(c);
        }
    }
    v
}

/// Whether `c` may play the empty `sq` (black's forbidden points under
/// renju are not playable).
pub fn playable(b: &Board, sq: Sq, c: Color) -> bool {
    b.is_empty(sq) && !(b.rule() == Rule::Renju && c == Color::Black && b.is_forbidden(sq, c))
}

/// The points where `c` would complete a five. With `around`, only the
/// lines through that point are scanned (fives a move just made).
pub fn five_points(b: &Board, c: Color, around: Option<Sq>) -> Vec<Sq> {
    let mut out = Vec::new();
    if b.five_count(c) == 0 {
        return out;
    }
    if let Some(m) = around {
        for d in b.dirs() {
            for k in (-4..=-1).chain(1..=4) {
                if let Some(q) = m.checked_add_signed(k * d) {
                    if b.is_empty(q) && b.makes_five(q, c) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.extend(b.squares().filter(|&q| b.is_empty(q) && b.makes_five(q, c)));
    }
    out
}

/// The first playable point where `c` threatens at `min` level or above.
pub fn has_threat(b: &Board, c: Color, min: Level, cells: &[Sq]) -> Option<Sq> {
    cells
        .iter()
        .copied()
        .find(|&q| b.is_empty(q) && level(b.shapes(q, c)) >= min && playable(b, q, c))
}

/// The points of the side to move's threats and the opponent's, read from
/// the line shapes of the candidate cells in one pass.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Our strongest playable four-or-better threat and one point where we
    /// make it.
    pub best: Option<(Level, Sq)>,
    /// Our playable four points (fours, four-threes, open fours...).
    pub fours: Vec<Sq>,
    /// The opponent's playable points that win unless answered now: open
    /// four or double four next move (they have an open three or a
    /// split four pair).
    pub their_wins: Vec<Sq>,
    /// The opponent's playable four-three points.
    pub their_four_threes: Vec<Sq>,
    /// Whether the opponent has any playable four point.
    pub their_four: bool,
}

/// Reads both sides' threats for the side to move of `b`, from the cells
/// where either side makes a four (every threat `Scan` records has one).
/// Black's forbidden points under renju count for neither side.
pub fn scan(b: &Board) -> Scan {
    let me = b.to_move();
    let you = me.other();
    let mut out = Scan::default();
    for q in b.four_squares(me) {
        let mine = level(b.shapes(q, me));
        if mine >= Level::Four && playable(b, q, me) {
            if out.best.is_none_or(|(l, _)| mine > l) {
                out.best = Some((mine, q));
            }
            out.fours.push(q);
        }
    }
    for q in b.four_squares(you) {
        let theirs = level(b.shapes(q, you));
        if theirs >= Level::Four && playable(b, q, you) {
            out.their_four = true;
            if theirs >= Level::WinThreat {
                out.their_wins.push(q);
            } else if theirs == Level::FourThree {
                out.their_four_threes.push(q);
            }
        }
    }
    out
}

/// Whether the empty `q` lies within five cells of `t` on one of its four
/// lines (or is `t`): only such a stone can change `t`'s line shapes.
fn on_lines_of(b: &Board, q: Sq, t: Sq) -> bool {
    if q == t {
        return true;
    }
    let (pq, pt) = (b.point(q), b.point(t));
    let dx = pq.x as i32 - pt.x as i32;
    let dy = pq.y as i32 - pt.y as i32;
    let reach = dx.abs().max(dy.abs());
    reach <= 5 && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
}

/// The defence set: when the opponent of the side to move has a threat
/// that wins unless answered at once — an open three (a point making an
/// open four or a double four) or, failing that, a four-three point — the
/// moves that can still save the game are our own fours (each gains a
/// tempo) and the points that take away every such threat (found by
/// playing each candidate and looking at the threat points again: our
/// stone can only weaken their shapes, so no new threat appears). `None`
/// when they threaten nothing of the kind, or when no single point answers
/// all their four-threes (then the caller searches every move: a quiet move
/// may still prepare a counter-four). When no point stops their open four
/// to come, the set is our fours alone, possibly none.
pub fn defence_set(b: &mut Board, cells: &[Sq], scan: &Scan) -> Option<Vec<Sq>> {
    let (threats, floor) = if !scan.their_wins.is_empty() {
        (&scan.their_wins, Level::WinThreat)
    } else if !scan.their_four_threes.is_empty() {
        (&scan.their_four_threes, Level::FourThree)
    } else {
        return None;
    };
    let me = b.to_move();
    let you = me.other();
    let mut out = scan.fours.clone();
    let mut answers = 0;
    for &q in cells {
        if !b.is_empty(q)
            || out.contains(&q)
            || !threats.iter().all(|&t| on_lines_of(b, q, t))
            || !playable(b, q, me)
        {
            continue;
        }
        b.make(q);
        let still = threats
            .iter()
            .any(|&t| b.is_empty(t) && level(b.shapes(t, you)) >= floor && playable(b, t, you));
        b.unmake();
        if !still {
            out.push(q);
            answers += 1;
        }
    }
    if answers > 0 || floor == Level::WinThreat {
        // Against an open four to come that no point stops, only our fours
        // can still help (an empty set: the game is lost).
        Some(out)
    } else {
        None
    }
}

/// Threat-space search with a node budget and a cache of refuted nodes.
pub struct ThreatSearch {
    pub nodes: u64,
    pub budget: u64,
    /// Give up at this instant (the caller's share of the move time).
    pub deadline: Option<Instant>,
    /// Give up when this flag is raised (the front-end's stop).
    pub stop: Option<Arc<AtomicBool>>,
    out_of_time: bool,
    vcf_failed: HashMap<u64, u32>,
    vct_failed: HashMap<u64, u32>,
}

impl ThreatSearch {
    pub fn new(budget: u64) -> Self {
        ThreatSearch {
            nodes: 0,
            budget,
            deadline: None,
            stop: None,
            out_of_time: false,
            vcf_failed: HashMap::new(),
            vct_failed: HashMap::new(),
        }
    }

    pub fn exhausted(&mut self) -> bool {
        if self.out_of_time || self.nodes >= self.budget {
            return true;
        }
        if self.nodes & 63 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
            self.out_of_time = late || stopped;
        }
        self.out_of_time
    }

    /// A VCF for the side to move: its moves and the forced replies, ending
    /// with the five. `depth` bounds the number of attacking moves.
    pub fn vcf(&mut self, b: &mut Board, depth: u32) -> Option<Vec<Sq>> {
        let a = b.to_move();
        let d = a.other();
        self.nodes += 1;
        if b.outcome() != Outcome::Ongoing || self.exhausted() {
            return None;
        }
        if let Some(&f) = five_points(b, a, None).first() {
            return Some(vec![f]);
        }
        let theirs = five_points(b, d, b.last_move());
        if theirs.len() >= 2 || depth == 0 {
            return None;
        }
        let key = b.hash();
        if self.vcf_failed.get(&key).is_some_and(|&dp| dp >= depth) {
            return None;
        }
        let mut cands: Vec<(Level, Sq)> = if let Some(&f) = theirs.first() {
            let lv = level(b.shapes(f, a));
            if lv >= Level::Four && playable(b, f, a) {
                vec![(lv, f)]
            } else {
                Vec::new()
            }
        } else {
            b.four_squares(a)
                .filter_map(|q| {
                    let lv = level(b.shapes(q, a));
                    (lv >= Level::Four).then_some((lv, q))
                })
                .collect()
        };
        cands.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (_, m) in cands {
            if !playable(b, m, a) {
                continue;
            }
            b.make(m);
            let fives = five_points(b, a, Some(m));
            let result = match fives.as_slice() {
                [] => None,
                [f] => {
                    let f = *f;
                    if !playable(b, f, d) {
                        // The only defence is forbidden for black.
                        Some(vec![m])
                    } else {
                        b.make(f);
                        let r = if b.outcome() == Outcome::Ongoing {
                            self.vcf(b, depth - 1)
                        } else {
                            None
                        };
                        b.unmake();
                        r.map(|rest| {
                            let mut line = vec![m, f];
                            line.extend(rest);
                            line
                        })
                    }
                }
                _ => Some(vec![m]),
            };
            b.unmake();
            if result.is_some() {
                return result;
            }
            if self.exhausted() {
                return None;
            }
        }
        self.vcf_failed.insert(key, depth);
        None
    }

    /// A VCT for the side to move (threes and fours). Returns the first
    /// moves of the winning line (one defence followed).
    pub fn vct(&mut self, b: &mut Board, depth: u32, vcf_depth: u32) -> Option<Vec<Sq>> {
        let a = b.to_move();
        let d = a.other();
        self.nodes += 1;
        if b.outcome() != Outcome::Ongoing || self.exhausted() {
            return None;
        }
        if let Some(line) = self.vcf(b, vcf_depth) {
            return Some(line);
        }
        if depth == 0 || !five_points(b, d, b.last_move()).is_empty() {
            return None;
        }
        let key = b.hash();
        if self.vct_failed.get(&key).is_some_and(|&dp| dp >= depth) {
            return None;
        }
        let area = near(b);
        let mut cands: Vec<(Level, Sq)> = area
            .iter()
            .filter_map(|&q| {
                let lv = level(b.shapes(q, a));
                (lv >= Level::OpenThree).then_some((lv, q))
            })
            .collect();
        cands.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (lv, m) in cands {
            if !playable(b, m, a) {
                continue;
            }
            b.make(m);
            let r = if lv >= Level::Four {
                // A four: the reply is forced.
                let fives = five_points(b, a, Some(m));
                match fives.as_slice() {
                    [f] if playable(b, *f, d) => {
                        let f = *f;
                        b.make(f);
                        let r = if b.outcome() == Outcome::Ongoing {
                            self.vct(b, depth - 1, vcf_depth)
                        } else {
                            None
                        };
                        b.unmake();
                        r.map(|rest| {
                            let mut line = vec![m, f];
                            line.extend(rest);
                            line
                        })
                    }
                    [_] => Some(vec![m]),
                    [] => None,
                    _ => Some(vec![m]),
                }
            } else {
                self.defend_three(b, m, depth, vcf_depth)
            };
            b.unmake();
            if r.is_some() {
                return r;
            }
            if self.exhausted() {
                return None;
            }
        }
        self.vct_failed.insert(key, depth);
        None
    }

    /// The defender answers the attacker's threat made by `m` (defender to
    /// move). The attacker wins if every defence still loses to a VCT.
    fn defend_three(
        &mut self,
        b: &mut Board,
        m: Sq,
        depth: u32,
        vcf_depth: u32,
    ) -> Option<Vec<Sq>> {
        let d = b.to_move();
        let a = d.other();
        // A counter-attack by fours that wins refutes the threat.
        if self.vcf(b, vcf_depth).is_some() {
            return None;
        }
        let area = near(b);
        // The attacker's winning threats now: a defence must remove them all.
        let threats: Vec<Sq> = area
            .iter()
            .copied()
            .filter(|&q| level(b.shapes(q, a)) >= Level::WinThreat && playable(b, q, a))
            .collect();
        if threats.is_empty() {
            return None;
        }
        let mut defences = Vec::new();
        for &q in &area {
            if self.exhausted() {
                return None;
            }
            if !playable(b, q, d) {
                continue;
            }
            let own = level(b.shapes(q, d));
            if own >= Level::Four {
                // Counter-four: gains a tempo, must be searched.
                defences.push(q);
                continue;
            }
            // A stone off the lines of some threat leaves that threat alone.
            if !threats.iter().all(|&t| on_lines_of(b, q, t)) {
                continue;
            }
            b.make(q);
            let still = has_threat(b, a, Level::WinThreat, &threats).is_some();
            b.unmake();
            if !still {
                defences.push(q);
            }
        }
        let mut first_line = None;
        for q in defences {
            b.make(q);
            let r = if b.outcome() != Outcome::Ongoing {
                None
            } else if !five_points(b, d, Some(q)).is_empty() {
                // A counter-four: the attacker must block, then go on.
                let fives = five_points(b, d, Some(q));
                match fives.as_slice() {
                    [f] if playable(b, *f, a) => {
                        let f = *f;
                        b.make(f);
                        let r = if b.outcome() == Outcome::Ongoing {
                            self.vct(b, depth - 1, vcf_depth)
                        } else {
                            None
                        };
                        b.unmake();
                        r
                    }
                    _ => None,
                }
            } else {
                self.vct(b, depth - 1, vcf_depth)
            };
            b.unmake();
            match r {
                Some(rest) => {
                    if first_line.is_none() {
                        let mut line = vec![m, q];
                        line.extend(rest);
                        first_line = Some(line);
                    }
                }
                None => return None,
            }
        }
        Some(first_line.unwrap_or_else(|| vec![m]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;

    fn board(
        rule: Rule,
        black: &[(usize, usize)],
        white: &[(usize, usize)],
        to_move: Color,
    ) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for &(x, y) in black {
            b.place(Point::new(x, y).unwrap(), Color::Black).unwrap();
        }
        for &(x, y) in white {
            b.place(Point::new(x, y).unwrap(), Color::White).unwrap();
        }
        b.set_to_move(to_move);
        b
    }

    #[test]
    fn finds_a_four_three_vcf() {
        // Black: a closed three on row 7 and two on column 10: 4-3 wins.
        let mut b = board(
            Rule::Freestyle,
            &[(5, 7), (6, 7), (7, 7), (8, 4), (8, 5)],
            &[(4, 7), (0, 0), (0, 2), (0, 4), (0, 6)],
            Color::Black,
        );
        let mut ts = ThreatSearch::new(100_000);
        let line = ts.vcf(&mut b, 10).expect("a VCF exists");
        assert!(line.len() >= 3);
        // Playing the line out ends in a black five.
        for (i, &sq) in line.iter().enumerate() {
            assert!(b.is_empty(sq), "step {i}");
            b.make(sq);
        }
        // It ends in a five or in two five points white cannot both stop.
        let won = b.outcome() == Outcome::Win(Color::Black, crate::WinReason::Five);
        assert!(won || five_points(&b, Color::Black, None).len() >= 2);
    }

    #[test]
    fn no_vcf_without_fours() {
        let mut b = board(Rule::Freestyle, &[(7, 7), (8, 8)], &[(6, 6)], Color::Black);
        let mut ts = ThreatSearch::new(100_000);
        assert!(ts.vcf(&mut b, 10).is_none());
    }

    #[test]
    fn white_wins_through_a_forbidden_defence() {
        // White's four can only be stopped on a point that is a double
        // three for black: under renju white wins at once.
        let mut b = board(
            Rule::Renju,
            &[(5, 7), (6, 7), (7, 5), (7, 6), (3, 3), (14, 14)],
            &[(4, 4), (5, 5), (6, 6), (0, 14), (14, 0)],
            Color::White,
        );
        let seven = b.sq(Point::new(7, 7).unwrap()).unwrap();
        assert!(b.is_forbidden(seven, Color::Black));
        let mut ts = ThreatSearch::new(100_000);
        let line = ts.vcf(&mut b, 4).expect("white wins");
        assert_eq!(line, vec![b.sq(Point::new(8, 8).unwrap()).unwrap()]);
    }

    #[test]
    fn finds_an_open_three_vct() {
        // Black has two open twos crossing: three-three in freestyle.
        let mut b = board(
            Rule::Freestyle,
            &[(6, 7), (7, 7), (9, 5), (9, 6)],
            &[(0, 0), (0, 14), (14, 0), (14, 14)],
            Color::Black,
        );
        let mut ts = ThreatSearch::new(1_000_000);
        assert!(ts.vcf(&mut b, 10).is_none());
        let line = ts.vct(&mut b, 4, 10).expect("a VCT exists");
        assert!(!line.is_empty());
    }

    fn sq(b: &Board, x: usize, y: usize) -> Sq {
        b.sq(Point::new(x, y).unwrap()).unwrap()
    }

    #[test]
    fn only_the_triple_point_saves_white() {
        // Three closed black threes meet at (7,7): a stone there makes
        // three fours. Blocking one line leaves a double four, so the
        // crossing is white's only defence.
        let b = board(
            Rule::Freestyle,
            &[
                (4, 7),
                (5, 7),
                (6, 7),
                (7, 4),
                (7, 5),
                (7, 6),
                (8, 8),
                (9, 9),
                (10, 10),
            ],
            &[
                (3, 7),
                (7, 3),
                (11, 11),
                (14, 14),
                (14, 12),
                (12, 14),
                (0, 14),
                (14, 0),
            ],
            Color::White,
        );
        let cells = near(&b);
        let sc = scan(&b);
        assert!(sc.fours.is_empty(), "white has no four");
        assert_eq!(sc.their_wins, vec![sq(&b, 7, 7)]);
        let mut b2 = b.clone();
        let set = defence_set(&mut b2, &cells, &sc).expect("white must defend");
        assert_eq!(set, vec![sq(&b, 7, 7)]);
        assert_eq!(b2.hash(), b.hash(), "the board is restored");
        // The whole player finds it too.
        let r = crate::search::best_move(&b, 4);
        assert_eq!(r.best, Point::new(7, 7));
    }

    #[test]
    fn renju_defence_set_ignores_blacks_forbidden_extension() {
        // Black's open three (4..6,7): its right end (7,7) would also make
        // a four on column 7, a double four. In freestyle that end is the
        // only defence (the left end leaves the double four); under renju
        // (7,7) is forbidden for black, so the left end alone threatens and
        // three points answer it.
        let black = [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)];
        let white = [(7, 3), (14, 14), (0, 14), (14, 0), (0, 0)];
        let free = board(Rule::Freestyle, &black, &white, Color::White);
        let renju = board(Rule::Renju, &black, &white, Color::White);
        let seven = sq(&renju, 7, 7);
        assert!(renju.is_forbidden(seven, Color::Black));
        for (b, mut want) in [(free, vec![(7, 7)]), (renju, vec![(2, 7), (3, 7), (7, 7)])] {
            let cells = near(&b);
            let sc = scan(&b);
            let mut b2 = b.clone();
            let mut got: Vec<(u8, u8)> = defence_set(&mut b2, &cells, &sc)
                .expect("white must defend")
                .into_iter()
                .map(|q| {
                    let p = b.point(q);
                    (p.x, p.y)
                })
                .collect();
            got.sort();
            want.sort();
            let want: Vec<(u8, u8)> = want.iter().map(|&(x, y)| (x as u8, y as u8)).collect();
            assert_eq!(got, want, "{:?}", b.rule());
        }
    }

    #[test]
    fn a_four_three_point_is_defended_and_fours_stay_in_the_set() {
        // Black: a closed three on row 7 and an open two on column 8 make
        // (8,7) a four-three point. White has a closed three of its own
        // (a four to play), which the defence set keeps.
        let b = board(
            Rule::Freestyle,
            &[(5, 7), (6, 7), (7, 7), (8, 5), (8, 6), (1, 1)],
            &[(4, 7), (10, 2), (11, 2), (12, 2), (0, 0), (0, 14)],
            Color::White,
        );
        let cells = near(&b);
        let sc = scan(&b);
        assert!(sc.their_wins.is_empty());
        assert_eq!(sc.their_four_threes, vec![sq(&b, 8, 7)]);
        let mut b2 = b.clone();
        let set = defence_set(&mut b2, &cells, &sc).expect("a four-three must be answered");
        for four in [sq(&b, 9, 2), sq(&b, 13, 2)] {
            assert!(set.contains(&four), "white's fours are kept");
        }
        // The crossing and the five point of the row answer; a far point does not.
        assert!(set.contains(&sq(&b, 8, 7)));
        assert!(!set.contains(&sq(&b, 2, 2)));
        // Every answer really leaves black without a four-three or better.
        for &q in &set {
            if sc.fours.contains(&q) {
                continue;
            }
            b2.make(q);
            // Black to move now: its strongest threat.
            let after = scan(&b2);
            b2.unmake();
            assert!(after.best.is_none_or(|(l, _)| l < Level::FourThree));
        }
    }

    #[test]
    fn no_defence_set_without_a_threat() {
        let mut b = board(Rule::Freestyle, &[(7, 7), (8, 8)], &[(6, 6)], Color::White);
        let cells = near(&b);
        let sc = scan(&b);
        assert!(defence_set(&mut b, &cells, &sc).is_none());
    }

    #[test]
    fn two_open_threes_far_apart_leave_no_defence() {
        // Black has open threes on row 3 and on row 11: no single white
        // stone stops both, and white has no four.
        let b = board(
            Rule::Freestyle,
            &[(5, 3), (6, 3), (7, 3), (5, 11), (6, 11), (7, 11)],
            &[(0, 0), (14, 0), (0, 14), (14, 14), (0, 7)],
            Color::White,
        );
        let cells = near(&b);
        let sc = scan(&b);
        assert_eq!(sc.their_wins.len(), 4, "both ends of both threes");
        let mut b2 = b.clone();
        assert_eq!(defence_set(&mut b2, &cells, &sc), Some(Vec::new()));
        // The player still answers with a move (the loss is reported).
        let r = crate::search::best_move(&b, 3);
        assert!(r.best.is_some());
        assert!(r.score <= -crate::search::PROVEN, "score {}", r.score);
    }
}
