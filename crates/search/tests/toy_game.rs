//! The generic searcher on a game small enough to know every answer:
//! tic-tac-toe, where perfect play draws.

use std::time::{Duration, Instant};
use tengen_core::report::Event;
use tengen_core::{Score, SearchLimits, Signals};
use tengen_search::{Evaluator, GenKind, Position, Ruling, SearchParams, Searcher};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug, Default)]
struct Board {
    cells: [u8; 9], // 0 empty, 1 X, 2 O
    to_move: u8,    // 1 or 2
}

impl Board {
    fn from(s: &str) -> Board {
        let mut b = Board::default();
        let mut n = 0;
        for (i, c) in s.chars().enumerate() {
            b.cells[i] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
            n += (b.cells[i] != 0) as usize;
        }
        b.to_move = if n % 2 == 0 { 1 } else { 2 };
        b
    }

    fn someone_won(&self) -> bool {
        LINES
            .iter()
            .any(|l| self.cells[l[0]] != 0 && l.iter().all(|&i| self.cells[i] == self.cells[l[0]]))
    }
}

impl Position for Board {
    type Move = u8;
    const HISTORY_SIZE: usize = 18;
    const PARAMS: SearchParams = SearchParams::CHESS_LIKE;

    fn key(&self) -> u64 {
        let mut k = self.to_move as u64;
        for c in self.cells {
            k = k * 3 + c as u64;
        }
        k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn in_check(&self) -> bool {
        false
    }
    fn generate(&self, kind: GenKind, moves: &mut Vec<u8>) {
        if kind == GenKind::Tactical || self.someone_won() {
            return;
        }
        moves.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
    }
    fn is_legal(&self, m: u8) -> bool {
        m < 9 && self.cells[m as usize] == 0 && !self.someone_won()
    }
    fn make(&mut self, m: u8) {
        self.cells[m as usize] = self.to_move;
        self.to_move = 3 - self.to_move;
    }
    fn unmake(&mut self, m: u8) {
        self.cells[m as usize] = 0;
        self.to_move = 3 - self.to_move;
    }
    fn make_null(&mut self) {
        self.to_move = 3 - self.to_move;
    }
    fn unmake_null(&mut self) {
        self.to_move = 3 - self.to_move;
    }
    fn null_move_ok(&self) -> bool {
        false
    }
    fn is_tactical(&self, _m: u8) -> bool {
        false
    }
    fn tactical_value(&self, _m: u8) -> i32 {
        0
    }
    fn see_ge(&self, _m: u8, threshold: i32) -> bool {
        threshold <= 0
    }
    fn history_index(&self, m: u8) -> usize {
        m as usize + 9 * (self.to_move as usize - 1)
    }
    fn encode(m: u8) -> u16 {
        m as u16 + 1
    }
    fn decode(&self, code: u16) -> Option<u8> {
        let m = code.checked_sub(1)? as u8;
        self.is_legal(m).then_some(m)
    }
    fn ruling(&self, _ply: usize) -> Option<Ruling> {
        None
    }
    fn no_moves_score(&self, ply: usize) -> Score {
        if self.someone_won() {
            Score::mated_in(ply as i32)
        } else {
            Score::DRAW
        }
    }
}

#[derive(Clone, Default)]
struct CountLines;

impl Evaluator<Board> for CountLines {
    fn evaluate(&mut self, b: &Board) -> i32 {
        // Open lines for the side to move minus open lines for the other.
        let me = b.to_move;
        let mut s = 0;
        for l in LINES {
            let mine = l.iter().any(|&i| b.cells[i] == me);
            let theirs = l.iter().any(|&i| b.cells[i] == 3 - me);
            s += mine as i32 - theirs as i32;
        }
        s * 10
    }
}

fn run(
    board: &Board,
    limits: SearchLimits,
    threads: usize,
) -> (tengen_search::SearchResult<u8>, Vec<Event<u8>>) {
    let mut s: Searcher<Board, CountLines> = Searcher::new(1);
    s.set_threads(threads);
    let mut events = Vec::new();
    let r = s.search(
        board,
        &CountLines,
        &limits,
        &Signals::new(),
        None,
        &mut |e| events.push(e),
    );
    (r, events)
}

#[test]
fn perfect_play_draws() {
    for threads in [1, 3] {
        let (r, _) = run(&Board::from("........."), SearchLimits::depth(9), threads);
        assert_eq!(r.score, Score::DRAW, "threads {threads}");
        assert!(r.best.is_some());
    }
}

#[test]
fn finds_the_winning_move() {
    // x x .
    // o o .
    // . . .   x to move wins at 2.
    let (r, _) = run(&Board::from("xx.oo...."), SearchLimits::depth(5), 1);
    assert_eq!(r.best, Some(2));
    assert_eq!(r.score, Score::mate_in(1));
}

#[test]
fn blocks_the_threat_and_takes_the_win() {
    // x . x / . o . / o . . with o to move: o must block at 1 (x threatens
    // the top row); anything else loses.
    let (r, _) = run(&Board::from("x.x.o.o.."), SearchLimits::depth(8), 1);
    assert_eq!(r.best, Some(1));
    // o . o / . x . / x . x with o to move: o completes the top row.
    let (r, _) = run(&Board::from("o.o.x.x.x"), SearchLimits::depth(8), 1);
    assert_eq!(r.best, Some(1));
    assert_eq!(r.score, Score::mate_in(1));
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let (r, _) = run(&Board::from("xxxoo...."), SearchLimits::depth(3), 1);
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::mated_in(0));
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut limits = SearchLimits::depth(4);
    limits.multipv = 3;
    let (_, events) = run(&Board::from("........."), limits, 1);
    let last_depth: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Line(r) if r.depth == 4 => Some(r.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(last_depth.len(), 3);
    let firsts: std::collections::HashSet<_> = last_depth.iter().map(|r| r.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!(
        last_depth.iter().map(|r| r.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
}

#[test]
fn infinite_search_waits_for_stop() {
    let signals = Signals::new();
    let s2 = signals.clone();
    let t = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        s2.stop();
    });
    let mut s: Searcher<Board, CountLines> = Searcher::new(1);
    let r = s.search(
        &Board::from("xx.oo...."),
        &CountLines,
        &SearchLimits::infinite(),
        &signals,
        None,
        &mut |_| {},
    );
    stopper.join().unwrap();
    assert!(t.elapsed() >= Duration::from_millis(150));
    assert_eq!(r.best, Some(2));
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut s: Searcher<Board, CountLines> = Searcher::new(1);
    let r = s.search(
        &Board::from("xx.oo...."),
        &CountLines,
        &SearchLimits::depth(4),
        &Signals::new(),
        Some(&[5, 6]),
        &mut |_| {},
    );
    assert!(matches!(r.best, Some(5) | Some(6)));
}

/// An evaluator that replays the searcher's push/pop hooks on a board of
/// its own and checks, at every evaluation, that it stands where the
/// searcher does: the hooks must follow every make and unmake. It counts
/// evaluations and positions made (every push, null moves included).
#[derive(Clone, Default)]
struct Shadow {
    board: Option<Board>,
    stack: Vec<Option<u8>>,
    evaluations: std::sync::Arc<std::sync::atomic::AtomicU64>,
    makes: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Shadow {
    fn make(&mut self, pos: &Board, m: Option<u8>) {
        let mine = self.board.as_mut().expect("reset before the first push");
        assert_eq!(mine.key(), pos.key(), "push from the wrong position");
        match m {
            Some(m) => mine.make(m),
            None => mine.make_null(),
        }
        self.stack.push(m);
        self.makes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Evaluator<Board> for Shadow {
    fn evaluate(&mut self, b: &Board) -> i32 {
        let mine = self
            .board
            .as_ref()
            .expect("reset before the first evaluation");
        assert_eq!(mine.key(), b.key(), "the hooks lost track of the tree");
        self.evaluations
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        CountLines.evaluate(b)
    }

    fn reset(&mut self, root: &Board) {
        self.board = Some(root.clone());
        self.stack.clear();
    }

    fn push(&mut self, pos: &Board, m: u8) {
        self.make(pos, Some(m));
    }

    fn push_null(&mut self, pos: &Board) {
        self.make(pos, None);
    }

    fn pop(&mut self) {
        let mine = self.board.as_mut().expect("reset before the first pop");
        match self.stack.pop().expect("a pop without a push") {
            Some(m) => mine.unmake(m),
            None => mine.unmake_null(),
        }
    }
}

/// A depth-7 search from an early position under [`Shadow`]; returns the
/// result with the evaluations and positions made.
fn shadow_search(threads: usize) -> (tengen_search::SearchResult<u8>, u64, u64) {
    let eval = Shadow::default();
    let mut s: Searcher<Board, Shadow> = Searcher::new(1);
    s.set_threads(threads);
    let r = s.search(
        &Board::from("x...o...."),
        &eval,
        &SearchLimits::depth(7),
        &Signals::new(),
        None,
        &mut |_| {},
    );
    let load = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
    (r, load(&eval.evaluations), load(&eval.makes))
}

#[test]
fn evaluator_hooks_follow_every_make_and_unmake() {
    for threads in [1, 2] {
        let (r, evaluations, _) = shadow_search(threads);
        assert!(r.best.is_some());
        assert!(evaluations > 100);
    }
}

#[test]
fn each_visited_position_counts_as_one_node() {
    // `nodes` is what `go nodes` limits and what nps is made of: one per
    // position entered (plus the rare re-search of a node in place, such
    // as a verification search), never one for the move and another for
    // the node it leads to.
    let (r, _, makes) = shadow_search(1);
    assert!(makes > 100, "{makes}");
    assert!(
        r.nodes >= makes && r.nodes <= makes + makes / 10 + 10,
        "{} nodes for {makes} positions made",
        r.nodes
    );
}

#[test]
fn a_node_limit_stops_the_search_at_that_node() {
    // Reports between checks flush the node count; the limit must still
    // be met exactly, not a report's worth of nodes later.
    for n in [60, 100, 300, 777, 1500, 4000] {
        let limits = SearchLimits {
            nodes: Some(n),
            ..SearchLimits::depth(60)
        };
        let (r, events) = run(&Board::from("........."), limits, 1);
        assert!(r.best.is_some());
        assert_eq!(r.nodes, n, "go nodes {n}");
        let reported = events.iter().filter_map(|e| match e {
            Event::Line(l) => Some(l.nodes),
            _ => None,
        });
        assert!(reported.max().is_some_and(|m| m <= n), "go nodes {n}");
    }
}
