//! Tactical reading: can a string (worm) be captured, can it be saved?
//!
//! A depth-first search that plays and takes back moves on one copy of
//! the board (`Board::undo`), under a node budget and
//! a depth limit, in the spirit of GNU Go's reading code (the algorithm is
//! this file's own):
//!
//! - the attacker tries the liberties of a string with one, two or (near
//!   the root) three or four liberties, and near the root also the empty points
//!   next to those liberties (nets / geta) and the liberties of its own
//!   strings in atari next to the target (saving a cutting stone);
//! - the defender extends at its liberties, captures a neighbouring
//!   string in atari, and at two liberties also puts a neighbour with two
//!   liberties in atari (counter-atari) near the root;
//! - a string with five or more liberties is safe, four liberties are
//!   read only within `FOUR_LIB_DEPTH` plies of the question and three
//!   within `THREE_LIB_DEPTH` (so a loose ladder or a net is seen when it
//!   starts close to the question);
//! - snapbacks come out by themselves: the attacker may throw in a stone
//!   the defender captures, after which the string is in atari again.
//!
//! Ko: a move forbidden only by the ko ban may still be made once per
//! line (as if after a ko threat). A result that needs it, or that the
//! opponent can only contest by it, is a ko result, coded as GNU Go does:
//! `KO_A` — the side wins the ko by taking first; `KO_B` — the side must
//! first find a ko threat. When the budget runs out the string counts as
//! safe (the attacker failed to prove a capture), as GNU Go's depth limits
//! do.

use crate::board::{Board, Cell, Color, Illegal, Move, Point, Undo};

/// Result codes, best first for the side that asked (ordered so that a
/// larger value is better for it).
pub const WIN: u8 = 3;
pub const KO_A: u8 = 2;
pub const KO_B: u8 = 1;
pub const LOSS: u8 = 0;

/// The number GNU Go's GTP commands print for a result: 0 fail, 1 win,
/// 2 ko A (wins the ko by taking first), 3 ko B (needs a threat first).
pub fn gtp_code(r: u8) -> u8 {
    match r {
        WIN => 1,
        KO_A => 2,
        KO_B => 3,
        _ => 0,
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

/// Plies a line may run (a ladder across a 25x25 board fits).
const MAX_DEPTH: u32 = 100;
/// Depth up to which three-liberty strings are attacked.
const THREE_LIB_DEPTH: u32 = 9;
/// Depth up to which four-liberty strings are attacked.
const FOUR_LIB_DEPTH: u32 = 4;
/// Depth up to which the attacker tries nets and the defender
/// counter-ataris.
const WIDE_DEPTH: u32 = 7;

/// A reader with a node budget. One reader may answer many questions;
/// each top-level call gets the full budget.
#[derive(Clone)]
pub struct Reader {
    budget: u64,
    nodes: u64,
    ladder_only: bool,
    total: u64,
    /// The board a question is read on (at most one: the search plays
    /// and takes back moves on it), kept between questions.
    pool: Vec<Box<Board>>,
    /// The moves played on it, for taking them back.
    undo: Undo,
}

/// A reading result: the code (`WIN`, `KO_A`, `KO_B`, `LOSS`) and the
/// move that achieves it (`None`: no move needed, or none found).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub code: u8,
    pub point: Option<Point>,
}

impl Answer {
    pub(crate) fn new(code: u8, point: Option<Point>) -> Answer {
        Answer { code, point }
    }
}

impl Reader {
    /// A general tactical reader visiting at most `budget` positions per
    /// question.
    pub fn new(budget: u64) -> Reader {
        Reader {
            budget,
            nodes: 0,
            ladder_only: false,
            total: 0,
            pool: Vec::new(),
            undo: Undo::default(),
        }
    }

    /// A ladder reader: the attacker only plays liberties of a string with
    /// two liberties, the defender only extends or captures a neighbour in
    /// atari (GNU Go's `simple_ladder`).
    pub fn ladder(budget: u64) -> Reader {
        Reader {
            ladder_only: true,
            ..Reader::new(budget)
        }
    }

    /// Positions visited over every question so far.
    pub fn total_nodes(&self) -> u64 {
        self.total
    }

    fn start(&mut self) {
        self.nodes = 0;
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget
    }

    /// Runs `f` on the reader's own copy of `b`, on which the search
    /// plays and takes back its moves: one copy a question.
    fn on_copy<T>(&mut self, b: &Board, f: impl FnOnce(&mut Self, &mut Board) -> T) -> T {
        let mut work = match self.pool.pop() {
            Some(mut spare) => {
                spare.copy_from(b);
                spare
            }
            None => Box::new(b.clone()),
        };
        let out = f(self, &mut work);
        self.pool.push(work);
        out
    }

    /// Can the string at `s` be captured with its opponent to move?
    /// Empty `s`: `LOSS`.
    pub fn attack(&mut self, b: &Board, s: Point) -> Answer {
        if self.att_gives_up(b, s, 0) {
            // Answered before any move (most strings have many
            // liberties): not worth a copy.
            self.start();
            return Answer::new(LOSS, None);
        }
        self.on_copy(b, |r, w| r.attack_in(w, s))
    }

    /// `attack` on `b` itself, left as it was.
    pub(crate) fn attack_in(&mut self, b: &mut Board, s: Point) -> Answer {
        self.start();
        let a = match b.cell(s).color() {
            Some(_) => self.att(b, s, 0, true),
            None => Answer::new(LOSS, None),
        };
        self.total += self.nodes;
        a
    }

    /// Can the string at `s` be saved with its owner to move? A string that
    /// cannot be captured anyway is `WIN` with no move.
    pub fn defend(&mut self, b: &Board, s: Point) -> Answer {
        if self.att_gives_up(b, s, 0) {
            self.start();
            return match b.cell(s).color() {
                Some(_) => Answer::new(WIN, None),
                None => Answer::new(LOSS, None),
            };
        }
        self.on_copy(b, |r, w| r.defend_in(w, s))
    }

    /// `defend` on `b` itself, left as it was.
    pub(crate) fn defend_in(&mut self, b: &mut Board, s: Point) -> Answer {
        self.start();
        let a = match b.cell(s).color() {
            Some(_) => {
                if self.att(b, s, 0, true).code == LOSS {
                    Answer::new(WIN, None)
                } else {
                    self.start();
                    self.def(b, s, 0, true)
                }
            }
            None => Answer::new(LOSS, None),
        };
        self.total += self.nodes;
        a
    }

    /// Does the attacker's move at `m` capture the string at `s` (the
    /// result for the attacker after it, with the defender to move)?
    /// Illegal moves answer `LOSS`.
    /// As GNU Go's, a string that cannot be saved anyway is not attacked
    /// by any move (`LOSS`).
    pub fn does_attack(&mut self, b: &Board, m: Point, s: Point) -> u8 {
        self.on_copy(b, |r, w| r.does_attack_in(w, m, s))
    }

    fn does_attack_in(&mut self, b: &mut Board, m: Point, s: Point) -> u8 {
        self.start();
        let r = match b.cell(s).color() {
            Some(d) if self.def(b, s, 0, true).code != LOSS => {
                self.start();
                self.try_move(b, d.opp(), m, s, 0, true, false)
            }
            _ => LOSS,
        };
        self.total += self.nodes;
        r
    }

    /// Does the defender's move at `m` save the string at `s`?
    /// As GNU Go's, a string that cannot be captured anyway is not defended
    /// by any move (`LOSS`).
    pub fn does_defend(&mut self, b: &Board, m: Point, s: Point) -> u8 {
        self.on_copy(b, |r, w| r.does_defend_in(w, m, s))
    }

    fn does_defend_in(&mut self, b: &mut Board, m: Point, s: Point) -> u8 {
        self.start();
        let r = match b.cell(s).color() {
            Some(d) if self.att(b, s, 0, true).code != LOSS => {
                self.start();
                self.try_move(b, d, m, s, 0, true, true)
            }
            _ => LOSS,
        };
        self.total += self.nodes;
        r
    }

    /// Can the attacker capture at least one of two strings (of one
    /// colour)? The best code of a move that attacks either.
    pub fn attack_either(&mut self, b: &Board, s1: Point, s2: Point) -> u8 {
        let a1 = self.attack(b, s1).code;
        if a1 == WIN {
            return WIN;
        }
        let a2 = self.attack(b, s2).code;
        if a2 == WIN {
            return WIN;
        }
        // One move that threatens both: each candidate must leave one of
        // the two without a defence.
        let mut best = a1.max(a2);
        let (Some(d1), Some(d2)) = (b.cell(s1).color(), b.cell(s2).color()) else {
            return best;
        };
        if d1 != d2 {
            return best;
        }
        let att = d1.opp();
        let mut cands = Vec::new();
        for s in [s1, s2] {
            for l in b.liberties(s) {
                if !cands.contains(&l) {
                    cands.push(l);
                }
            }
        }
        for m in cands {
            let Some(b2) = b.after(att, m) else {
                continue;
            };
            if b2.cell(s1) != b.cell(s1) || b2.cell(s2) != b.cell(s2) {
                return WIN;
            }
            // The defender must save both with one move.
            let r = flip(self.defend_both(&b2, s1, s2));
            best = best.max(r);
            if best == WIN {
                return WIN;
            }
        }
        best
    }

    /// Can the owner save both strings (of one colour) with one move?
    pub fn defend_both(&mut self, b: &Board, s1: Point, s2: Point) -> u8 {
        let (Some(d), Some(d2)) = (b.cell(s1).color(), b.cell(s2).color()) else {
            return LOSS;
        };
        if d != d2 {
            return LOSS;
        }
        let a1 = self.attack(b, s1).code;
        let a2 = self.attack(b, s2).code;
        if a1 == LOSS && a2 == LOSS {
            return WIN;
        }
        if a1 != LOSS && a2 == LOSS {
            return self.defend(b, s1).code;
        }
        if a2 != LOSS && a1 == LOSS {
            return self.defend(b, s2).code;
        }
        // Both are threatened: look for one move after which neither falls.
        let mut cands = Vec::new();
        for s in [s1, s2] {
            for c in self.defence_moves(b, s, 0) {
                if !cands.contains(&c) {
                    cands.push(c);
                }
            }
        }
        let mut best = LOSS;
        for m in cands {
            let Some(b2) = b.after(d, m) else {
                continue;
            };
            let r1 = flip(self.attack(&b2, s1).code);
            let r2 = flip(self.attack(&b2, s2).code);
            best = best.max(r1.min(r2));
            if best == WIN {
                break;
            }
        }
        best
    }

    /// Whether `att` answers `LOSS` at once, before any move: a string
    /// with too many liberties, too deep, or out of budget (an empty `s`
    /// is `att`'s `WIN`, not this).
    fn att_gives_up(&self, b: &Board, s: Point, depth: u32) -> bool {
        (b.cell(s).color().is_some() && self.too_many_libs(b.liberties(s).len(), depth))
            || depth >= MAX_DEPTH
            || self.out_of_budget_after_start()
    }

    /// `out_of_budget` as `start` leaves it (no node visited yet).
    fn out_of_budget_after_start(&self) -> bool {
        self.budget == 0
    }

    /// Whether the attacker gives up on a string with `libs` liberties.
    fn too_many_libs(&self, libs: usize, depth: u32) -> bool {
        let limit = if self.ladder_only {
            2
        } else if depth < FOUR_LIB_DEPTH {
            4
        } else if depth < THREE_LIB_DEPTH {
            3
        } else {
            2
        };
        libs > limit
    }

    /// Attacker to move against the string at `s` (still on the board).
    fn att(&mut self, b: &mut Board, s: Point, depth: u32, ko_ok: bool) -> Answer {
        let d = match b.cell(s).color() {
            Some(d) => d,
            None => return Answer::new(WIN, None),
        };
        let libs = b.liberties(s);
        if self.too_many_libs(libs.len(), depth) || depth >= MAX_DEPTH || self.out_of_budget() {
            return Answer::new(LOSS, None);
        }
        let a = d.opp();
        let mut cands: Vec<Point> = Vec::with_capacity(12);
        if libs.len() == 1 {
            cands.push(libs[0]);
        } else {
            // Liberties, the one that leaves the defender fewest liberties
            // at the other first.
            // Ties in GNU Go's board order (rows top-down).
            let mut scored: Vec<(usize, std::cmp::Reverse<usize>, usize, Point)> = libs
                .iter()
                .map(|&l| {
                    let others = libs.iter().filter(|&&o| o != l);
                    let escape = others.map(|&o| b.libs_after(d, o, 4)).max().unwrap_or(0);
                    (escape, std::cmp::Reverse(l.y()), l.x(), l)
                })
                .collect();
            scored.sort();
            cands.extend(scored.iter().map(|&(_, _, _, l)| l));
            if !self.ladder_only && depth < WIDE_DEPTH {
                // Save an own cutting string in atari next to the target.
                for l in self.adjacent_atari_libs(b, s) {
                    push_new(&mut cands, l.1);
                }
                // Nets: empty points next to the liberties.
                if libs.len() == 2 {
                    for &l in &libs {
                        for n in b.neighbors(l) {
                            if b.cell(n) == Cell::Empty {
                                push_new(&mut cands, n);
                            }
                        }
                    }
                }
            }
        }
        let mut best = Answer::new(LOSS, None);
        for m in cands {
            let r = self.try_move(b, a, m, s, depth, ko_ok, false);
            if r > best.code {
                best = Answer::new(r, Some(m));
                if r == WIN {
                    break;
                }
            }
            if self.out_of_budget() {
                break;
            }
        }
        best
    }

    /// Defender to move: can the string at `s` live on?
    fn def(&mut self, b: &mut Board, s: Point, depth: u32, ko_ok: bool) -> Answer {
        if b.cell(s).color().is_none() {
            return Answer::new(LOSS, None);
        }
        if depth >= MAX_DEPTH || self.out_of_budget() {
            return Answer::new(WIN, None);
        }
        let d = b.cell(s).color().unwrap_or(Color::Black);
        let mut best = Answer::new(LOSS, None);
        for m in self.defence_moves(b, s, depth) {
            let r = self.try_move(b, d, m, s, depth, ko_ok, true);
            if r > best.code {
                best = Answer::new(r, Some(m));
                if r == WIN {
                    break;
                }
            }
            if self.out_of_budget() {
                break;
            }
        }
        best
    }

    /// Candidate defences of the string at `s`, in the order tried.
    fn defence_moves(&self, b: &Board, s: Point, depth: u32) -> Vec<Point> {
        let Some(d) = b.cell(s).color() else {
            return Vec::new();
        };
        let libs = b.liberties(s);
        let mut cands: Vec<Point> = Vec::with_capacity(12);
        // Captures of attackers in atari first: they gain liberties for sure.
        let mut caps = self.adjacent_atari_libs(b, s);
        caps.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (_, l) in caps {
            push_new(&mut cands, l);
        }
        let mut ext: Vec<(usize, Point)> =
            libs.iter().map(|&l| (b.libs_after(d, l, 5), l)).collect();
        ext.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (_, l) in ext {
            push_new(&mut cands, l);
        }
        if !self.ladder_only && libs.len() >= 2 && depth < WIDE_DEPTH {
            // Counter-atari on a neighbour with two liberties.
            for l in self.adjacent_libs_of(b, s, 2) {
                push_new(&mut cands, l);
            }
            // Second-order liberties: running one step further out.
            if libs.len() == 2 {
                for &l in &libs {
                    for n in b.neighbors(l) {
                        if b.cell(n) == Cell::Empty && b.libs_after(d, n, 3) >= 3 {
                            push_new(&mut cands, n);
                        }
                    }
                }
            }
        }
        cands
    }

    /// Liberties of the opponent strings next to the string at `s` that are
    /// in atari, with the size of each.
    fn adjacent_atari_libs(&self, b: &Board, s: Point) -> Vec<(usize, Point)> {
        let mut out = Vec::new();
        let Some(d) = b.cell(s).color() else {
            return out;
        };
        let mut seen: Vec<u16> = Vec::new();
        for st in b.chain_stones(s) {
            for n in b.neighbors(st) {
                if b.cell(n).color() == Some(d.opp()) {
                    let id = b.chain_id(n);
                    if seen.contains(&id) {
                        continue;
                    }
                    seen.push(id);
                    if let Some(l) = b.atari_liberty(n) {
                        out.push((b.chain_size(n), l));
                    }
                }
            }
        }
        out
    }

    /// Liberties of the opponent strings next to `s` that have exactly
    /// `n` liberties.
    fn adjacent_libs_of(&self, b: &Board, s: Point, n: usize) -> Vec<Point> {
        let mut out = Vec::new();
        let Some(d) = b.cell(s).color() else {
            return out;
        };
        let mut seen: Vec<u16> = Vec::new();
        for st in b.chain_stones(s) {
            for q in b.neighbors(st) {
                if b.cell(q).color() == Some(d.opp()) {
                    let id = b.chain_id(q);
                    if seen.contains(&id) {
                        continue;
                    }
                    seen.push(id);
                    let libs = b.liberties(q);
                    if libs.len() == n {
                        for l in libs {
                            push_new(&mut out, l);
                        }
                    }
                }
            }
        }
        out
    }

    /// Plays `m` for `c` (the attacker when `defending` is false) and reads
    /// on; the result is for `c`. A move the ko ban forbids is made at most
    /// once per line and caps the result at `KO_B`.
    #[allow(clippy::too_many_arguments)]
    fn try_move(
        &mut self,
        b: &mut Board,
        c: Color,
        m: Point,
        s: Point,
        depth: u32,
        ko_ok: bool,
        defending: bool,
    ) -> u8 {
        let mut ko_next = ko_ok;
        let mut cap = WIN;
        match b.check(c, Move::Play(m)) {
            Ok(()) => {}
            Err(Illegal::Ko) if ko_ok => {
                ko_next = false;
                cap = KO_B;
            }
            Err(_) => return LOSS,
        }
        let target = b.cell(s);
        self.nodes += 1;
        b.play_undoable(c, Move::Play(m), &mut self.undo);
        let r = if b.cell(s) != target {
            // Captured (only the attacker's move can do that); taking a ko
            // the defender may retake wins only the ko (GNU Go: KO_A).
            if defending {
                LOSS
            } else if b.ko().is_some_and(|(_, who)| who == c.opp()) {
                KO_A
            } else {
                WIN
            }
        } else if defending {
            let libs = b.liberties(s).len();
            let safe = if self.ladder_only {
                3
            } else if depth + 1 < FOUR_LIB_DEPTH {
                5
            } else if depth + 1 < THREE_LIB_DEPTH {
                4
            } else {
                3
            };
            if libs >= safe {
                WIN
            } else {
                flip(self.att(b, s, depth + 1, ko_next).code)
            }
        } else {
            flip(self.def(b, s, depth + 1, ko_next).code)
        };
        b.undo(&mut self.undo);
        r.min(cap)
    }
}

fn push_new(v: &mut Vec<Point>, p: Point) {
    if !v.contains(&p) {
        v.push(p);
    }
}

/// Whether `c`'s stone at `m`, played on `before` to give `after`, is left
/// in atari having captured nothing: the opponent takes it at once, so the
/// readers do not try such moves.
pub fn taken_at_once(before: &Board, after: &Board, c: Color, m: Point) -> bool {
    after.liberties(m).len() == 1 && after.captures(c) == before.captures(c)
}

/// Whether the string at `s` (two liberties) is caught in a ladder, with
/// its opponent to move. A cheap question for playouts and priors.
pub fn ladder_captures(b: &Board, s: Point, budget: u64) -> bool {
    Reader::ladder(budget).attack(b, s).code == WIN
}

/// Whether extending the string at `s` (in atari) at its liberty `lib`
/// runs into a ladder that captures it (or leaves it in atari).
pub fn escape_fails(b: &Board, c: Color, lib: Point, budget: u64) -> bool {
    let Some(b2) = b.after(c, lib) else {
        return true;
    };
    match b2.liberties(lib).len() {
        0 | 1 => true,
        2 => ladder_captures(&b2, lib, budget),
        _ => false,
    }
}

/// A cheap ladder follower for the playouts: one copy of the board, no
/// branching. The string at `s` (two liberties, its opponent to move) is
/// chased by ataris on the liberty after which the other liberty gives
/// it at most two; it escapes when no such atari exists or when an
/// extension reaches three liberties. When it could capture a chaser in
/// atari, the ladder reader (`Reader::ladder`) decides. `true`: caught.
pub fn ladder_follow(b: &Board, s: Point, max_steps: usize) -> bool {
    with_scratch(b, |board, undo| ladder_follow_in(board, undo, s, max_steps))
}

thread_local! {
    /// A board per thread for the follower's copy (no allocation and
    /// only the rows in use copied; see `Board::copy_from`).
    static SCRATCH: std::cell::RefCell<Vec<Board>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The follower's records of the moves it plays (a branch, or a
    /// follow on the caller's board, takes them back).
    static UNDO: std::cell::RefCell<Vec<Undo>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The follower's ladder reader (it reads on the follower's board),
    /// kept so its move record's allocation is reused.
    static FALLBACK: std::cell::RefCell<Reader> = std::cell::RefCell::new(Reader::ladder(FOLLOW_FALLBACK));
}

/// Frees this thread's scratch boards and the follower reader's spare
/// boards. A search thread calls it when its search ends: those boards
/// are allocated mid-search among the tree's nodes, and kept alive they
/// pin the pages around them, so the allocator cannot hand back the
/// freed tree at a new game (`docs/reliability.md`, "Memory"). They come
/// back at the next search's first ladder, a few boards' allocation.
pub fn release_scratch() {
    SCRATCH.with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            *s = Vec::new();
        }
    });
    UNDO.with(|u| {
        if let Ok(mut u) = u.try_borrow_mut() {
            *u = Vec::new();
        }
    });
    FALLBACK.with(|r| {
        if let Ok(mut r) = r.try_borrow_mut() {
            r.pool = Vec::new();
            r.undo = Undo::default();
        }
    });
}

/// Runs `f` on a copy of `b` taken from the thread's scratch boards.
fn with_scratch<T>(b: &Board, f: impl FnOnce(&mut Board, &mut Undo) -> T) -> T {
    let mut board = SCRATCH
        .with(|s| s.borrow_mut().pop())
        .unwrap_or_else(|| b.clone());
    board.copy_from(b);
    // The copy is thrown away after: its moves need no taking back.
    let out = with_undo(|undo| f(&mut board, undo));
    SCRATCH.with(|s| s.borrow_mut().push(board));
    out
}

/// Runs `f` with one of the thread's move records, empty.
fn with_undo<T>(f: impl FnOnce(&mut Undo) -> T) -> T {
    let mut undo = UNDO.with(|u| u.borrow_mut().pop()).unwrap_or_default();
    let out = f(&mut undo);
    undo.clear();
    UNDO.with(|u| u.borrow_mut().push(undo));
    out
}

/// Budget of the ladder reader when the follower meets a counter-capture.
const FOLLOW_FALLBACK: u64 = 300;

fn ladder_follow_in(b: &mut Board, undo: &mut Undo, s: Point, max_steps: usize) -> bool {
    follow(b, undo, s, max_steps, FOLLOW_BRANCHES)
}

/// Times a follow may try both ataris when they look alike.
const FOLLOW_BRANCHES: u32 = 2;

fn follow(b: &mut Board, undo: &mut Undo, s: Point, max_steps: usize, mut branches: u32) -> bool {
    let Some(d) = b.cell(s).color() else {
        return true;
    };
    let a = d.opp();
    for step in 0..max_steps {
        let libs = match b.liberties_upto(s, 3) {
            // With the attacker to move, one liberty is a capture.
            (0 | 1, _) => return true,
            (2, Some(two)) => two,
            _ => return false,
        };
        if counter_capture(b, s) {
            // Subtle: the real ladder reader decides.
            return FALLBACK.with(|r| r.borrow_mut().attack_in(b, s).code == WIN);
        }
        // The ataris after which the other liberty gives at most two, the
        // one that gives fewest first.
        let mut found = [(0usize, libs[0], libs[1]); 2];
        let mut n = 0;
        for (l, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if !b.is_legal(a, Move::Play(l)) || b.libs_after(a, l, 2) < 2 {
                continue;
            }
            // Extending at `other` after the atari: its liberties less `l`.
            let ext = b.libs_after(d, other, 4).saturating_sub(1);
            if ext <= 2 {
                found[n] = (ext, l, other);
                n += 1;
            }
        }
        let options = &mut found[..n];
        // Stable: of two alike, the first found stays first.
        options.sort_by_key(|o| o.0);
        let (l, other) = match &*options {
            [] => return false,
            [(_, l, o)] => (*l, *o),
            [(_, l, o), (_, l2, o2), ..] => {
                if branches > 0 {
                    branches -= 1;
                    // The first on this board, then back to try the second.
                    let mark = undo.len();
                    let caught = match chase(b, undo, s, *l, *o) {
                        Some(done) => done,
                        None => follow(b, undo, s, max_steps - step, branches),
                    };
                    b.undo_to(undo, mark);
                    if caught {
                        return true;
                    }
                    (*l2, *o2)
                } else {
                    (*l, *o)
                }
            }
        };
        if let Some(done) = chase(b, undo, s, l, other) {
            return done;
        }
    }
    false
}

/// One atari at `l` and the extension at `other`; `Some(caught)` when that
/// settles the ladder, `None` to go on.
fn chase(b: &mut Board, undo: &mut Undo, s: Point, l: Point, other: Point) -> Option<bool> {
    let d = b.cell(s).color()?;
    b.play_undoable(d.opp(), Move::Play(l), undo);
    if b.cell(s).color() != Some(d) {
        return Some(true);
    }
    if counter_capture(b, s) {
        return Some(FALLBACK.with(|r| r.borrow_mut().defend_in(b, s).code == LOSS));
    }
    if !b.is_legal(d, Move::Play(other)) {
        return Some(true);
    }
    b.play_undoable(d, Move::Play(other), undo);
    None
}

/// Whether an opponent string next to the string at `s` is in atari.
fn counter_capture(b: &Board, s: Point) -> bool {
    let Some(d) = b.cell(s).color() else {
        return false;
    };
    b.stones_of(s).any(|st| {
        b.neighbors(st)
            .iter()
            .any(|&n| b.cell(n).color() == Some(d.opp()) && b.in_atari(n))
    })
}

/// `escape_fails` by the cheap follower: one copy of the board.
pub fn escape_fails_fast(b: &Board, c: Color, lib: Point, max_steps: usize) -> bool {
    if !b.is_legal(c, Move::Play(lib)) {
        return true;
    }
    with_scratch(b, |b2, undo| escape_follow(b2, undo, c, lib, max_steps))
}

/// `escape_fails_fast` on `b` itself, every move taken back after: no
/// copy at all, for the playouts (which own their board).
pub fn escape_fails_in(b: &mut Board, c: Color, lib: Point, max_steps: usize) -> bool {
    if !b.is_legal(c, Move::Play(lib)) {
        return true;
    }
    with_undo(|undo| {
        let out = escape_follow(b, undo, c, lib, max_steps);
        b.undo_to(undo, 0);
        out
    })
}

/// Whether `c`'s atari at `a` on a chain of two liberties leaves it no
/// way out at once: after it, the chain's extension at its other liberty
/// `other` is illegal or gets at most one liberty (counter-captures and
/// ladders are not read: the playouts' two-liberty attacks must stay
/// cheap). On `b` itself, the move taken back after. An illegal `a`
/// captures nothing.
pub fn atari_traps_in(b: &mut Board, c: Color, a: Point, other: Point) -> bool {
    if !b.is_legal(c, Move::Play(a)) {
        return false;
    }
    with_undo(|undo| {
        b.play_undoable(c, Move::Play(a), undo);
        let d = c.opp();
        let out = !b.is_legal(d, Move::Play(other)) || b.libs_after(d, other, 2) < 2;
        b.undo_to(undo, 0);
        out
    })
}

/// The extension at `lib` and the follow after it.
fn escape_follow(b: &mut Board, undo: &mut Undo, c: Color, lib: Point, max_steps: usize) -> bool {
    b.play_undoable(c, Move::Play(lib), undo);
    match b.liberties_upto(lib, 3).0 {
        0 | 1 => true,
        2 => ladder_follow_in(b, undo, lib, max_steps),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::board::test_util::from_rows as board;

    fn v(s: &str) -> Point {
        crate::board::test_util::point(s, 19)
    }

    #[test]
    fn a_stone_in_atari_is_captured_and_can_extend() {
        let b = board(&[
            ". . . . .",
            ". . O . .",
            ". O X O .",
            ". . . . .",
            ". . . . .",
        ]);
        let mut r = Reader::new(10_000);
        assert_eq!(r.attack(&b, v("C3")), Answer::new(WIN, Some(v("C2"))));
        // Extending gives two liberties on the edge side only: B2/D2/C1 —
        // three liberties, safe.
        let d = r.defend(&b, v("C3"));
        assert_eq!(d, Answer::new(WIN, Some(v("C2"))));
        // A lone stone with four liberties cannot be attacked.
        assert_eq!(r.attack(&b, v("C4")).code, LOSS);
    }

    fn stones(size: usize, list: &[(Color, &str)]) -> Board {
        let mut b = Board::new(size);
        for &(c, p) in list {
            assert!(b.setup_stone(c, v(p)), "{p}");
        }
        b
    }

    #[test]
    fn ladders_agree_with_gnugo() {
        use Color::{Black as B, White as W};
        // Answers of GNU Go 3.8 (`ladder_attack`, `attack`, `defend`) on
        // the same positions.
        let b = stones(19, &[(B, "D4"), (W, "C4"), (W, "D3"), (W, "E5")]);
        assert_eq!(Reader::ladder(10_000).attack(&b, v("D4")).code, WIN);
        assert_eq!(Reader::new(10_000).attack(&b, v("D4")).code, WIN);
        let b = stones(19, &[(B, "D4"), (W, "E4"), (W, "D3"), (W, "C5")]);
        assert_eq!(Reader::ladder(10_000).attack(&b, v("D4")).code, WIN);
        let d = Reader::new(100_000).defend(&b, v("D4"));
        assert_eq!(d, Answer::new(WIN, Some(v("C4"))));
        // A 9x9 stone in atari on the second line cannot escape.
        let b = stones(9, &[(B, "C2"), (W, "B2"), (W, "C3"), (W, "D2")]);
        let mut r = Reader::new(10_000);
        assert_eq!(r.attack(&b, v("C2")), Answer::new(WIN, Some(v("C1"))));
        assert_eq!(r.defend(&b, v("C2")).code, LOSS);
    }

    #[test]
    fn ladder_across_the_board_depends_on_the_breaker() {
        use Color::{Black as B, White as W};
        // Black D4 in atari; extending at D5 runs a ladder to the upper
        // right. GNU Go: no defence, except with a black stone on the
        // ladder's path (Q16, P16, Q17, R17, O15), then D5.
        let base = [(B, "D4"), (W, "C4"), (W, "D3"), (W, "E4"), (W, "C5")];
        let b = stones(19, &base);
        assert_eq!(b.liberties(v("D4")), vec![v("D5")]);
        let mut r = Reader::new(100_000);
        assert_eq!(r.defend(&b, v("D4")).code, LOSS, "the ladder works");
        assert!(escape_fails(&b, Color::Black, v("D5"), 10_000));
        for breaker in ["Q16", "P16", "Q17", "R17", "O15"] {
            let mut b2 = b.clone();
            assert!(b2.setup_stone(Color::Black, v(breaker)));
            assert!(
                !escape_fails(&b2, Color::Black, v("D5"), 10_000),
                "{breaker}"
            );
            let d = r.defend(&b2, v("D4"));
            assert_eq!(d, Answer::new(WIN, Some(v("D5"))), "{breaker}");
        }
        // A stone far from the path does not break it.
        let mut b3 = b.clone();
        assert!(b3.setup_stone(Color::Black, v("A19")));
        assert_eq!(r.defend(&b3, v("D4")).code, LOSS);
    }

    #[test]
    fn a_net_catches_what_a_ladder_does_not() {
        // Black C... a stone with two liberties that escapes a ladder but
        // is caught by a loose net (geta).
        let b = board(&[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . O . . . .",
            ". . . O X . . . .",
            ". . . O X . . . .",
            ". . . . O . . . .",
            ". . . . . . . . .",
        ]);
        // The black pair E3-E4 has liberties F3, F4 (and no more): a geta at
        // G5 or F5/F2... whatever the reader finds must be checked.
        let s = v("E4");
        assert_eq!(b.liberties(s), vec![v("F3"), v("F4")]);
        let mut r = Reader::new(100_000);
        let a = r.attack(&b, s);
        assert_eq!(a.code, WIN, "{a:?}");
        // And its move really works: after it, no defence.
        let p = a.point.unwrap_or(v("A1"));
        let mut b2 = b.clone();
        b2.play(Color::White, Move::Play(p));
        assert_eq!(r.defend(&b2, s).code, LOSS);
    }

    fn r_attack(b: &Board, s: Point) -> u8 {
        Reader::new(10_000).attack(b, s).code
    }

    #[test]
    fn the_cheap_follower_agrees_with_the_ladder_reader() {
        use Color::{Black as B, White as W};
        let base = [(B, "D4"), (W, "C4"), (W, "D3"), (W, "E4"), (W, "C5")];
        let b = stones(19, &base);
        assert!(escape_fails_fast(&b, B, v("D5"), 100));
        let mut same_board = b.clone();
        assert!(escape_fails_in(&mut same_board, B, v("D5"), 100));
        crate::board::test_util::assert_same(&same_board, &b);
        let mut b2 = b.clone();
        assert!(b2.setup_stone(B, v("Q16")));
        assert!(!escape_fails_fast(&b2, B, v("D5"), 100));
        // On random boards: strings with two liberties, attacker to move.
        let mut rng = crate::playout::Rng::new(9);
        let (mut same, mut total) = (0, 0);
        for _ in 0..60 {
            let mut b = Board::new(9);
            let mut c = B;
            for _ in 0..rng.below(50) + 10 {
                let e = b.empties().len();
                let p = b.empty_point(rng.below(e));
                if b.is_legal(c, Move::Play(p)) {
                    b.play(c, Move::Play(p));
                }
                c = c.opp();
            }
            for p in b.points() {
                if b.cell(p).color().is_some() && b.liberties(p).len() == 2 {
                    total += 1;
                    let full = Reader::ladder(100_000).attack(&b, p).code == WIN;
                    let fast = ladder_follow(&b, p, 100);
                    if full == fast {
                        same += 1;
                    } else if std::env::var("LADDER_DEBUG").is_ok() {
                        eprintln!(
                            "full {full} fast {fast} at {}\n{}",
                            crate::board::vertex_name(p),
                            b.render()
                        );
                    }
                }
            }
        }
        assert!(total > 300, "{total}");
        // The follower is a heuristic: it must agree nearly always.
        assert!(same * 100 >= total * 98, "{same}/{total}");
    }

    #[test]
    fn reading_leaves_the_board_as_it_was() {
        // The readers play and take back moves on the board they are
        // given: every field must come back, whatever the answer.
        let mut rng = crate::playout::Rng::new(31);
        let mut asked = 0;
        for size in [9usize, 13] {
            for _ in 0..12 {
                let mut b = Board::new(size);
                let mut c = Color::Black;
                for _ in 0..rng.below(size * size) + size {
                    let e = b.empties().len();
                    let p = b.empty_point(rng.below(e));
                    if b.is_legal(c, Move::Play(p)) {
                        b.play(c, Move::Play(p));
                    }
                    c = c.opp();
                }
                let before = b.clone();
                let mut work = b.clone();
                let mut r = Reader::new(2_000);
                let mut l = Reader::ladder(2_000);
                for p in before.points() {
                    if before.cell(p).color().is_none() || before.liberties(p).len() > 4 {
                        continue;
                    }
                    asked += 1;
                    // The follower on the board itself answers as on a copy.
                    for lib in before.liberties(p) {
                        let d = before.cell(p).color().unwrap_or(Color::Black);
                        let fast = escape_fails_fast(&before, d, lib, 100);
                        assert_eq!(escape_fails_in(&mut work, d, lib, 100), fast);
                        crate::board::test_util::assert_same(&work, &before);
                    }
                    let a = r.attack_in(&mut work, p);
                    crate::board::test_util::assert_same(&work, &before);
                    assert_eq!(a, r.attack(&before, p));
                    let d = r.defend_in(&mut work, p);
                    crate::board::test_util::assert_same(&work, &before);
                    assert_eq!(d, r.defend(&before, p));
                    l.attack_in(&mut work, p);
                    crate::board::test_util::assert_same(&work, &before);
                }
                crate::board::test_util::assert_same(&b, &before);
            }
        }
        assert!(asked > 200, "{asked}");
    }

    #[test]
    fn ko_results_are_coded() {
        // A white stone at B1... a basic ko: white C3 can be taken by black
        // at D3 but White may retake.
        let b = board(&[
            ". . . . .",
            ". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
        ]);
        // White B3 is in atari (liberty C3). Black C3 captures it... and
        // is itself then in atari from C3's white neighbours: a ko.
        assert_eq!(b.liberties(v("B3")), vec![v("C3")]);
        assert_eq!(r_attack(&b, v("B3")), KO_A);
        let mut b2 = b.clone();
        b2.play(Color::Black, Move::Play(v("C3")));
        // Now black C3 is in atari and White may not retake at once: White
        // attacking C3 needs a ko threat first.
        assert_eq!(b2.liberties(v("C3")), vec![v("B3")]);
        assert_eq!(r_attack(&b2, v("C3")), KO_B);
        assert_eq!(gtp_code(KO_B), 3);
        assert_eq!(gtp_code(KO_A), 2);
    }

    #[test]
    fn budgets_bound_the_work() {
        let mut rng = crate::playout::Rng::new(5);
        let mut b = Board::new(19);
        let mut c = Color::Black;
        for _ in 0..150 {
            let e = b.empties().len();
            let p = b.empty_point(rng.below(e));
            if b.is_legal(c, Move::Play(p)) {
                b.play(c, Move::Play(p));
            }
            c = c.opp();
        }
        let mut r = Reader::new(500);
        for p in b.points() {
            if b.cell(p).color().is_some() {
                let before = r.total_nodes();
                r.attack(&b, p);
                // The budget stops the search within one node fan-out.
                assert!(r.total_nodes() - before <= 500 + 20);
            }
        }
    }
}
