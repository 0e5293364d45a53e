//! Iterative deepening, aspiration windows, principal variation search and
//! quiescence, run by every thread of a Lazy SMP pool.
//!
//! Reads top to bottom like the search itself: `Searcher::search` starts
//! the threads, `Worker::iterate` deepens, `Worker::negamax` searches one
//! node, `Worker::quiesce` settles captures.

use crate::history::{bonus, History};
use crate::picker::{MovePicker, Stage};
use crate::position::{GenKind, Position, Ruling, SearchParams};
use crate::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tengen_core::report::{Event, Report};
use tengen_core::score::MAX_PLY;
use tengen_core::{Bound, Score, SearchLimits, Signals, TimeManager, TranspositionTable};

const INF: i32 = Score::INFINITE;

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// A transposition-table entry as [`Searcher::probe`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe<M> {
    pub mv: Option<M>,
    pub score: Score,
    /// Remaining depth the entry was searched to (quiescence entries are
    /// zero or below).
    pub depth: i32,
    /// `Lower`: the score is at least `score`; `Upper`: at most.
    pub bound: Bound,
}

/// One root move and what the last iteration learned about it.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    prev_score: i32,
    /// Score to show: may be a bound while an aspiration window fails.
    shown: i32,
    seldepth: u32,
    pv: Vec<M>,
    /// Nodes this thread has searched under the move, over all iterations:
    /// the share of the best move tells how settled the choice is.
    nodes: u64,
}

/// State every thread shares during one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    signals: &'a Signals,
    /// Set by the main thread when it is done or out of time: helpers stop.
    abort: AtomicBool,
    nodes: Vec<PaddedCounter>,
    start: Instant,
    limits: &'a SearchLimits,
    time: Option<TimeManager>,
}

#[repr(align(64))]
#[derive(Default)]
struct PaddedCounter(AtomicU64);

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Time since the move's clock started: the ponderhit, for a search
    /// that began as ponder.
    fn thinking_time(&self) -> Duration {
        let e = self.start.elapsed();
        if self.limits.ponder {
            e.saturating_sub(Duration::from_millis(self.signals.ponderhit_at_ms()))
        } else {
            e
        }
    }

    /// The search may end on its own only outside ponder and infinite mode.
    fn may_stop_by_itself(&self) -> bool {
        !self.limits.infinite && !self.signals.pondering()
    }
}

/// Per-ply scratch of one thread.
#[derive(Clone)]
struct Frame<M> {
    static_eval: i32,
    /// History index of the move made from this ply (None: null move).
    moved: Option<usize>,
    excluded: Option<M>,
    pv: Vec<M>,
    /// Beta cutoffs at this ply since the grandparent was entered.
    cutoffs: u32,
}

/// The persistent part of a thread: its move-ordering memory.
pub struct ThreadState<P: Position> {
    history: History<P>,
}

impl<P: Position> ThreadState<P> {
    fn new() -> Self {
        ThreadState {
            history: History::new(),
        }
    }
}

/// The searcher: a transposition table and a pool of thread states.
pub struct Searcher<P: Position, E: Evaluator<P>> {
    /// Shared so that a front-end can read it while a search runs (UCCI
    /// `probe`); the table itself is lock-free.
    tt: Arc<TranspositionTable>,
    threads: Vec<ThreadState<P>>,
    _eval: std::marker::PhantomData<E>,
}

impl<P: Position, E: Evaluator<P>> Searcher<P, E> {
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            threads: vec![ThreadState::new()],
            _eval: std::marker::PhantomData,
        }
    }

    /// Resizes the table (emptying it), or keeps the current one and says
    /// why when the machine cannot hold `mb` mebibytes.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let mut fresh = TranspositionTable::new(1);
        fresh.try_resize(mb)?;
        self.tt = Arc::new(fresh);
        Ok(())
    }

    /// The table, for [`Searcher::probe_table`] while this searcher is
    /// busy searching.
    pub fn table(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// What the transposition table knows about `pos`: its hash move (when
    /// legal there), and the stored score with its depth and bound, from
    /// the side to move, mate distances counted from `pos`.
    pub fn probe(&self, pos: &P) -> Option<Probe<P::Move>> {
        Self::probe_table(&self.tt, pos)
    }

    /// [`Searcher::probe`] on a table taken with [`Searcher::table`].
    pub fn probe_table(tt: &TranspositionTable, pos: &P) -> Option<Probe<P::Move>> {
        let hit = tt.probe(pos.key())?;
        Some(Probe {
            mv: pos.decode(hit.mv),
            score: Score::from_tt(hit.score, 0),
            depth: hit.depth,
            bound: hit.bound,
        })
    }

    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 1024);
        self.threads.truncate(n);
        while self.threads.len() < n {
            self.threads.push(ThreadState::new());
        }
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Forgets everything learned: table and histories (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.history.clear();
        }
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `root` within `limits`. `root_moves` restricts the moves
    /// considered at the root (UCI `searchmoves`). Blocks until done; in
    /// ponder or infinite mode it returns only after `stop`/`ponderhit`.
    pub fn search(
        &mut self,
        root: &P,
        eval: &E,
        limits: &SearchLimits,
        signals: &Signals,
        root_moves: Option<&[P::Move]>,
        on_event: &mut dyn FnMut(Event<P::Move>),
    ) -> SearchResult<P::Move> {
        let start = Instant::now();
        self.tt.new_search();
        let mut legal = Vec::new();
        root.generate(GenKind::All, &mut legal);
        if let Some(only) = root_moves.filter(|r| !r.is_empty()) {
            legal.retain(|m| only.contains(m));
        }
        let time = limits
            .move_time
            .map(|t| TimeManager::fixed(t, limits.overhead))
            .or_else(|| {
                limits
                    .time
                    .as_ref()
                    .map(|tc| TimeManager::new(tc, limits.overhead, limits.game_ply))
            });
        let shared = Shared {
            tt: &self.tt,
            signals,
            abort: AtomicBool::new(false),
            nodes: (0..self.threads.len())
                .map(|_| PaddedCounter::default())
                .collect(),
            start,
            limits,
            time,
        };
        if legal.is_empty() {
            wait_for_release(&shared);
            return SearchResult {
                best: None,
                ponder: None,
                score: root.no_moves_score(0),
                depth: 0,
                nodes: 0,
            };
        }
        let roots: Vec<RootMove<P::Move>> = legal
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                shown: -INF,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();

        let (main_state, helper_states) = match self.threads.split_first_mut() {
            Some(split) => split,
            None => unreachable!("the pool always has a main thread"),
        };
        let result = std::thread::scope(|scope| {
            for (i, state) in helper_states.iter_mut().enumerate() {
                let shared = &shared;
                let roots = roots.clone();
                let pos = root.clone();
                let eval = eval.clone();
                scope.spawn(move || {
                    let mut quiet = |_: Event<P::Move>| {};
                    let mut w = Worker::new(i + 1, &mut quiet, shared, state, pos, eval, roots);
                    w.iterate();
                });
            }
            let mut w = Worker::new(
                0,
                on_event,
                &shared,
                main_state,
                root.clone(),
                eval.clone(),
                roots,
            );
            w.iterate();
            shared.abort.store(true, Ordering::Release);
            w.result()
        });
        SearchResult {
            nodes: shared.total_nodes(),
            ..result
        }
    }
}

/// Holds a finished search until the GUI releases it: in infinite or
/// ponder mode `bestmove` must wait for `stop` or `ponderhit`.
fn wait_for_release(shared: &Shared) {
    while !shared.signals.stopped() && !shared.may_stop_by_itself() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

struct Worker<'a, 'e, P: Position, E: Evaluator<P>> {
    id: usize,
    on_event: &'e mut dyn FnMut(Event<P::Move>),
    last_stats_ms: u64,
    shared: &'a Shared<'a>,
    state: &'a mut ThreadState<P>,
    pos: P,
    eval: E,
    roots: Vec<RootMove<P::Move>>,
    frames: Vec<Frame<P::Move>>,
    move_lists: Vec<Vec<P::Move>>,
    /// The move picker's score buffer of each ply, lent like `move_lists`.
    score_lists: Vec<Vec<i32>>,
    nodes: u64,
    /// `nodes` at which [`Worker::should_stop`] next does its real work:
    /// every 1,024 nodes, or sooner when a node limit is that close, so
    /// `go nodes N` stops at N exactly while the normal path stays one
    /// comparison per node.
    next_check: u64,
    seldepth: u32,
    completed_depth: u32,
    pv_index: usize,
    stopped: bool,
    lmr: Vec<[i8; 64]>,
}

/// Nodes between two looks at the clock, the signals and the node count.
const CHECK_EVERY: u64 = 1024;

/// How far a reduced or extended search may move the depth.
const P_MAX: usize = MAX_PLY as usize + 8;

impl<'a, 'e, P: Position, E: Evaluator<P>> Worker<'a, 'e, P, E> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        id: usize,
        on_event: &'e mut dyn FnMut(Event<P::Move>),
        shared: &'a Shared<'a>,
        state: &'a mut ThreadState<P>,
        pos: P,
        mut eval: E,
        roots: Vec<RootMove<P::Move>>,
    ) -> Self {
        state.history.new_search();
        eval.reset(&pos);
        let params = P::PARAMS;
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0i8; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let v = params.lmr_base
                            + (d as f64).ln() * (m as f64).ln() / params.lmr_divisor;
                        *r = v.clamp(0.0, 60.0) as i8;
                    }
                }
                row
            })
            .collect();
        Worker {
            id,
            on_event,
            last_stats_ms: 0,
            shared,
            state,
            pos,
            eval,
            roots,
            frames: vec![
                Frame {
                    static_eval: 0,
                    moved: None,
                    excluded: None,
                    pv: Vec::new(),
                    cutoffs: 0,
                };
                P_MAX + 4
            ],
            move_lists: (0..P_MAX + 4).map(|_| Vec::with_capacity(64)).collect(),
            score_lists: (0..P_MAX + 4).map(|_| Vec::with_capacity(64)).collect(),
            nodes: 0,
            next_check: match shared.limits.nodes {
                Some(n) if id == 0 => n.clamp(1, CHECK_EVERY),
                _ => CHECK_EVERY,
            },
            seldepth: 0,
            completed_depth: 0,
            pv_index: 0,
            stopped: false,
            lmr,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn params(&self) -> SearchParams {
        P::PARAMS
    }

    // ---------------------------------------------------------------
    // Iterative deepening
    // ---------------------------------------------------------------

    fn iterate(&mut self) {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .map(|d| d.clamp(1, MAX_PLY as u32 - 1))
            .unwrap_or(MAX_PLY as u32 - 1);
        let multipv = limits.multipv.clamp(1, self.roots.len());
        let mut best_changes = 0.0f64;
        let mut last_best = None;
        let mut last_score = 0;
        let single_reply = self.roots.len() == 1;

        // Helpers start a ply deeper on odd ids so threads spread over depths.
        let first = 1 + (self.id % 2) as u32;
        for depth in first..=max_depth {
            for rm in &mut self.roots {
                rm.prev_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth as i32);
                if self.stopped {
                    break;
                }
                // Keep the searched lines in order, then report them all
                // together once the last one is done.
                self.roots[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
                self.roots[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.is_main() && pv_index + 1 == multipv {
                    self.report_lines(depth, multipv);
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.is_main() {
                continue;
            }

            // Time and goal checks happen on the main thread only.
            let best = self.roots[0].mv;
            let score = self.roots[0].score;
            if last_best.is_some_and(|b| b != best) {
                best_changes += 1.0;
            }
            best_changes *= 0.5;
            last_best = Some(best);
            if let Some(m) = limits.mate {
                if let Some(moves) = Score(score).mate_moves() {
                    if moves > 0 && moves as u32 <= m {
                        break;
                    }
                }
            }
            if !self.shared.may_stop_by_itself() {
                continue;
            }
            if let Some(tm) = self.shared.time {
                if single_reply && limits.move_time.is_none() && depth >= 4 {
                    break;
                }
                let mut factor = 1.0 + best_changes;
                if depth > 4 && score < last_score - 30 {
                    factor *= 1.3;
                }
                factor *= self.effort_factor(depth);
                let soft = tm.soft.mul_f64(factor.min(2.5)).min(tm.hard);
                if limits.move_time.is_none() && self.shared.thinking_time() >= soft {
                    break;
                }
            }
            last_score = score;
        }
        if self.is_main() {
            // Never end early in ponder/infinite mode, even after the last
            // depth or a proven mate.
            wait_for_release(self.shared);
            if self.stopped {
                // Interrupted mid-iteration: show the line we will play.
                self.report_lines(self.completed_depth.max(1), multipv);
            }
        }
        self.flush_nodes();
    }

    /// Time scale from the best root move's share of the root's nodes.
    fn effort_factor(&self, depth: u32) -> f64 {
        let total = self.roots.iter().map(|r| r.nodes).sum();
        effort_scale(self.params().effort_time, self.roots[0].nodes, total, depth)
    }

    fn aspiration(&mut self, depth: i32) {
        let prev = self.roots[self.pv_index].prev_score;
        let mut delta = self.params().aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < Score::MATE_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.negamax(depth, alpha, beta, 0, false, true);
            // Safe even when interrupted: moves not searched this time keep
            // -INF, and a move that did raise alpha was searched in full.
            self.roots[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                self.report_bound(depth as u32, Bound::Upper);
            } else if score >= beta {
                beta = (score + delta).min(INF);
                self.report_bound(depth as u32, Bound::Lower);
            } else {
                return;
            }
            delta += delta / 2 + 5;
        }
    }

    // ---------------------------------------------------------------
    // Reports
    // ---------------------------------------------------------------

    fn report_lines(&mut self, depth: u32, multipv: usize) {
        self.flush_nodes();
        let time_ms = self.shared.elapsed_ms();
        let nodes = self.shared.total_nodes();
        let hashfull = self.shared.tt.hashfull();
        for (i, rm) in self.roots.iter().take(multipv).enumerate() {
            // A line not yet searched at this depth shows last depth's value.
            let (score, d) = if rm.score == -INF {
                (rm.prev_score, depth.saturating_sub(1).max(1))
            } else {
                (rm.score, depth)
            };
            if score == -INF {
                continue;
            }
            (self.on_event)(Event::Line(Report {
                depth: d,
                seldepth: rm.seldepth.max(d),
                multipv: i + 1,
                score: Score(score),
                bound: Bound::Exact,
                nodes,
                time_ms,
                hashfull,
                pv: rm.pv.clone(),
            }));
        }
    }

    fn report_bound(&mut self, depth: u32, bound: Bound) {
        if !self.is_main() || self.shared.elapsed_ms() < 2000 {
            return;
        }
        self.flush_nodes();
        let rm = &self.roots[self.pv_index];
        (self.on_event)(Event::Line(Report {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: self.pv_index + 1,
            score: Score(rm.shown),
            bound,
            nodes: self.shared.total_nodes(),
            time_ms: self.shared.elapsed_ms(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }));
    }

    fn result(&self) -> SearchResult<P::Move> {
        let best = &self.roots[0];
        let mut ponder = best.pv.get(1).copied();
        if ponder.is_none() {
            // Fall back on the table for a move to ponder on.
            let mut pos = self.pos.clone();
            pos.make(best.mv);
            ponder = self
                .shared
                .tt
                .probe(pos.key())
                .and_then(|h| pos.decode(h.mv));
        }
        let score = if best.score == -INF {
            best.prev_score
        } else {
            best.score
        };
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: Score(if score == -INF { 0 } else { score }),
            depth: self.completed_depth,
            nodes: 0,
        }
    }

    // ---------------------------------------------------------------
    // Stopping
    // ---------------------------------------------------------------

    /// Nodes this thread has searched so far in this search.
    fn own_nodes(&self) -> u64 {
        self.shared.nodes[self.id].0.load(Ordering::Relaxed) + self.nodes
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes[self.id]
            .0
            .fetch_add(self.nodes, Ordering::Relaxed);
        // `next_check` counts from the last flush: a flush between checks
        // (a report) must bring it nearer by what it flushed, or a node
        // limit would be checked that many nodes late.
        self.next_check = self.next_check.saturating_sub(self.nodes).max(1);
        self.nodes = 0;
    }

    /// Polled at every node; does real work once every
    /// [`CHECK_EVERY`] nodes, or when the node limit is reached.
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes < self.next_check {
            return false;
        }
        self.flush_nodes();
        let sh = self.shared;
        self.next_check = CHECK_EVERY;
        if let (Some(n), true) = (sh.limits.nodes, self.is_main()) {
            // Helpers' nodes count too (flushed every 1,024): with one
            // thread the stop comes exactly at the limit.
            let left = n.saturating_sub(sh.total_nodes());
            self.next_check = left.clamp(1, CHECK_EVERY);
        }
        if sh.signals.stopped() || sh.abort.load(Ordering::Acquire) {
            self.stopped = true;
            return true;
        }
        if !self.is_main() {
            return false;
        }
        let now = sh.elapsed_ms();
        if now >= self.last_stats_ms + 1000 {
            self.last_stats_ms = now;
            let ev = Event::Stats {
                depth: self.completed_depth + 1,
                nodes: sh.total_nodes(),
                time_ms: now,
                hashfull: sh.tt.hashfull(),
            };
            (self.on_event)(ev);
        }
        // Keep at least one completed iteration so a move is always known.
        if self.completed_depth == 0 {
            return false;
        }
        if let Some(n) = sh.limits.nodes {
            if sh.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if sh.may_stop_by_itself() {
            if let Some(tm) = sh.time {
                if sh.thinking_time() >= tm.hard {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            sh.abort.store(true, Ordering::Release);
        }
        self.stopped
    }

    // ---------------------------------------------------------------
    // The tree search
    // ---------------------------------------------------------------

    fn prev_moves(&self, ply: usize) -> (Option<usize>, Option<usize>) {
        let p1 = if ply >= 1 {
            self.frames[ply - 1].moved
        } else {
            None
        };
        let p2 = if ply >= 2 {
            self.frames[ply - 2].moved
        } else {
            None
        };
        (p1, p2)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        pv_node: bool,
    ) -> i32 {
        let root = ply == 0;
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, pv_node);
        }
        self.frames[ply].pv.clear();
        if self.should_stop() {
            return 0;
        }
        // Each position is counted once, here where it is entered (the
        // count `go nodes` limits and nps reports).
        self.nodes += 1;
        if pv_node {
            self.seldepth = self.seldepth.max(ply as u32 + 1);
        }

        if !root {
            match self.pos.ruling(ply) {
                Some(Ruling::Draw) => return self.draw_score(),
                Some(Ruling::Loss) => return Score::mated_in(ply as i32).0,
                Some(Ruling::Win) => return Score::mate_in(ply as i32).0,
                None => {}
            }
            if ply >= MAX_PLY as usize - 2 {
                return self.evaluate();
            }
            // Mate distance pruning: no line from here beats a mate found
            // nearer the root.
            alpha = alpha.max(Score::mated_in(ply as i32).0);
            beta = beta.min(Score::mate_in(ply as i32 + 1).0);
            if alpha >= beta {
                return alpha;
            }
        }

        let params = self.params();
        let excluded = self.frames[ply].excluded;
        let key = self.pos.key();
        let tt_hit = if excluded.is_none() {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = if root {
            Some(self.roots[self.pv_index].mv)
        } else {
            tt_hit.and_then(|h| self.pos.decode(h.mv))
        };
        let tt_score = tt_hit.map(|h| Score::from_tt(h.score, ply as i32).0);
        if let (Some(h), Some(s), false) = (tt_hit, tt_score, pv_node) {
            if h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                // A quiet move that keeps failing high earns history.
                if let Some(m) = tt_move {
                    if s >= beta && !self.pos.is_tactical(m) {
                        let (p1, p2) = self.prev_moves(ply);
                        let idx = self.pos.history_index(m);
                        self.state.history.update_quiet(idx, p1, p2, bonus(depth));
                    }
                }
                return s;
            }
        }

        let in_check = self.pos.in_check();
        // Only a node that evaluates and may store reads or teaches the
        // correction history (not in check, not a singular search).
        let correction_key = if in_check || excluded.is_some() {
            None
        } else {
            self.pos.correction_key()
        };
        // `raw_eval` is the evaluation as the table keeps it;
        // `static_eval` adds what the correction history has learned.
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else if excluded.is_some() {
            // Not stored: a singular search writes no table entry.
            (self.frames[ply].static_eval, self.frames[ply].static_eval)
        } else {
            let raw = match tt_hit.filter(|h| h.bound != Bound::None || h.eval != 0) {
                Some(h) => h.eval,
                None => self.evaluate(),
            };
            (raw, self.corrected(raw, correction_key))
        };
        // A TT score is a better estimate than the static eval when its
        // bound points the right way.
        let mut eval = static_eval;
        if let (Some(h), Some(s), false) = (tt_hit, tt_score, in_check) {
            if (h.bound == Bound::Lower && s > eval) || (h.bound == Bound::Upper && s < eval) {
                eval = s;
            }
        }
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].static_eval != -INF
            && static_eval > self.frames[ply - 2].static_eval;
        self.frames[ply + 1].excluded = None;
        if ply + 2 < self.frames.len() {
            self.state.history.killers[ply + 2] = [None; 2];
            self.frames[ply + 2].cutoffs = 0;
        }

        if !pv_node && !in_check && excluded.is_none() && beta.abs() < Score::MATE_BOUND {
            // Reverse futility: the position is so good that a quiet
            // search would not bring it back under beta.
            let margin = params.rfp_margin * (depth - improving as i32);
            if depth <= params.rfp_depth && eval - margin >= beta {
                return (eval + beta) / 2;
            }

            // Razoring: hopeless at low depth unless a capture saves it.
            if depth <= 3 && eval + params.futility_base * 2 + 150 * depth * depth < alpha {
                let v = self.quiesce(alpha - 1, alpha, ply, false);
                if v < alpha {
                    return v;
                }
            }

            // Null move: if passing still fails high, so will a real move.
            let last_was_null = ply >= 1 && self.frames[ply - 1].moved.is_none();
            if depth >= params.null_min_depth
                && !last_was_null
                && eval >= beta
                && static_eval >= beta - 20 * depth
                && self.pos.null_move_ok()
            {
                let r = params.null_base_reduction
                    + depth / params.null_depth_divisor
                    + ((eval - beta) / (2 * params.pawn)).min(3);
                self.frames[ply].moved = None;
                self.eval.push_null(&self.pos);
                self.pos.make_null();
                self.shared.tt.prefetch(self.pos.key());
                let v = -self.negamax(depth - r, -beta, -beta + 1, ply + 1, !cut_node, false);
                self.pos.unmake_null();
                self.eval.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= Score::MATE_BOUND { beta } else { v };
                    if depth < 12 {
                        return v;
                    }
                    // Verify at high depth against zugzwang.
                    let w = self.negamax(depth - r, beta - 1, beta, ply, false, false);
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move this node is
        // probably not worth a full-depth search.
        if tt_move.is_none() && depth >= 4 && (pv_node || cut_node) && !root {
            depth -= 1;
        }

        let (prev1, prev2) = self.prev_moves(ply);
        let counter = prev1.and_then(|p| self.state.history.counters[p]);
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        let scores = std::mem::take(&mut self.score_lists[ply]);
        let mut picker = if root {
            list.extend(self.roots[self.pv_index..].iter().map(|r| r.mv));
            MovePicker::in_order(list, scores)
        } else {
            self.pos.generate(GenKind::All, &mut list);
            MovePicker::new(
                &self.pos,
                list,
                scores,
                tt_move,
                &self.state.history,
                ply,
                counter,
                prev1,
                prev2,
                false,
            )
        };

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move: Option<P::Move> = None;
        let mut move_count = 0usize;
        let mut quiets_tried: Vec<P::Move> = Vec::new();
        let mut captures_tried: Vec<P::Move> = Vec::new();
        // Asked of the node's own position, once: inside the loop the
        // move being searched has already been made.
        let tt_capture = params.lmr_refinements && tt_move.is_some_and(|t| self.pos.is_tactical(t));
        let lmp_limit = if depth <= params.lmp_depth {
            let base = params.lmp_base + depth * depth;
            Some(if improving {
                base as usize
            } else {
                (base / 2) as usize
            })
        } else {
            None
        };

        while let Some((m, stage)) = picker.next(&self.pos, &self.state.history) {
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let tactical = self.pos.is_tactical(m);
            let hist_idx = self.pos.history_index(m);
            let quiet_hist = if tactical {
                0
            } else {
                self.state.history.quiet_score(hist_idx, prev1, prev2)
            };

            if root && self.is_main() && self.shared.elapsed_ms() > 1000 {
                (self.on_event)(Event::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: move_count + self.pv_index,
                });
            }

            // Whether `m` is known to give check (asked at most once).
            let mut known_check = false;
            // Shallow-depth pruning, once a non-losing line is secured.
            if !root && best_score > -Score::MATE_BOUND {
                let lmr_depth = (depth - self.reduction(depth, move_count) as i32).max(0);
                if !tactical {
                    if lmp_limit.is_some_and(|l| move_count > l) {
                        picker.skip_quiets();
                        continue;
                    }
                    let futile = !in_check
                        && lmr_depth <= params.futility_depth
                        && static_eval + params.futility_base + params.futility_per_ply * lmr_depth
                            <= alpha;
                    let prune = futile
                        || (lmr_depth <= 4 && quiet_hist < -3000 * depth)
                        || !self
                            .pos
                            .see_ge(m, params.see_quiet_margin * lmr_depth * lmr_depth);
                    // Quiet checks are spared (where the game can tell a
                    // check before making the move); asked only of moves
                    // about to be pruned.
                    if prune {
                        known_check = self.pos.gives_check(m);
                        if !known_check {
                            // After a futile quiet the later ones are as
                            // futile, unless a check among them is still
                            // worth a look.
                            if futile && !P::REPORTS_CHECKS {
                                picker.skip_quiets();
                            }
                            continue;
                        }
                    }
                } else if stage == Stage::BadTactical
                    && !self.pos.see_ge(m, params.see_capture_margin * depth)
                {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than the
            // rest? Then it deserves a deeper look.
            let mut extension = 0;
            if !root
                && depth >= 7
                && Some(m) == tt_move
                && excluded.is_none()
                && ply < 2 * self.completed_depth.max(1) as usize
            {
                if let (Some(h), Some(s)) = (tt_hit, tt_score) {
                    if h.bound != Bound::Upper
                        && h.depth >= depth - 3
                        && s.abs() < Score::MATE_BOUND
                    {
                        let singular_beta = s - 2 * depth;
                        self.frames[ply].excluded = Some(m);
                        let v = self.negamax(
                            (depth - 1) / 2,
                            singular_beta - 1,
                            singular_beta,
                            ply,
                            cut_node,
                            false,
                        );
                        self.frames[ply].excluded = None;
                        if self.stopped {
                            self.put_back(ply, picker);
                            return 0;
                        }
                        if v < singular_beta {
                            extension = 1;
                        } else if singular_beta >= beta {
                            // Several moves beat beta: multi-cut.
                            self.put_back(ply, picker);
                            return singular_beta;
                        } else if s >= beta {
                            extension = -1;
                        }
                    }
                }
            }

            self.frames[ply].moved = Some(hist_idx);
            // Under `safe_check_extension` the exchange test needs the
            // position before the move; where the game reports checks it
            // is run on checking moves only.
            let check_may_extend = extension == 0
                && ply < 2 * self.completed_depth.max(1) as usize + 4
                && (!params.safe_check_extension
                    || ((!P::REPORTS_CHECKS || known_check || self.pos.gives_check(m))
                        && self.pos.see_ge(m, 0)));
            let nodes_before = if root { self.own_nodes() } else { 0 };
            self.eval.push(&self.pos, m);
            self.pos.make(m);
            self.shared.tt.prefetch(self.pos.key());
            let gives_check = self.pos.in_check();
            if gives_check && check_may_extend {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            let mut score;
            if depth >= 3
                && move_count > 1 + pv_node as usize
                && (!tactical || stage == Stage::BadTactical)
            {
                let mut r = self.reduction(depth, move_count) as i32;
                r += !pv_node as i32;
                r += cut_node as i32;
                r -= (picker.is_refutation(m)) as i32;
                r -= gives_check as i32;
                r += !improving as i32;
                r -= (quiet_hist / 6000).clamp(-2, 2);
                if params.lmr_refinements {
                    // A capture as the hash move: the quiet moves after it
                    // are less likely to matter.
                    r += (!tactical && tt_capture) as i32;
                    // The siblings' replies keep refuting: this node is
                    // probably an all-node.
                    r += (self.frames[ply + 1].cutoffs > 3) as i32;
                }
                let reduced = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.negamax(reduced, -alpha - 1, -alpha, ply + 1, true, false);
                if score > alpha && reduced < new_depth {
                    let mut full = new_depth;
                    if params.lmr_refinements {
                        // Far above the best so far: look deeper; barely
                        // above it: the full depth is not needed.
                        full += (score > best_score + 40 + 2 * new_depth) as i32;
                        full -= (score < best_score + new_depth) as i32;
                    }
                    if full > reduced {
                        score = -self.negamax(full, -alpha - 1, -alpha, ply + 1, !cut_node, false);
                    }
                }
            } else if !pv_node || move_count > 1 {
                score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node, false);
            } else {
                score = -INF;
            }
            if pv_node && (move_count == 1 || (score > alpha && (root || score < beta))) {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, false, true);
            }
            self.pos.unmake(m);
            self.eval.pop();

            if self.stopped {
                self.put_back(ply, picker);
                return 0;
            }

            if root {
                let seldepth = self.seldepth;
                let child_pv = self.frames[ply + 1].pv.clone();
                let spent = self.own_nodes().saturating_sub(nodes_before);
                if let Some(rm) = self.roots.iter_mut().find(|r| r.mv == m) {
                    rm.nodes += spent;
                    if move_count == 1 || score > alpha {
                        rm.score = score;
                        rm.shown = score;
                        rm.seldepth = seldepth;
                        rm.pv.clear();
                        rm.pv.push(m);
                        rm.pv.extend_from_slice(&child_pv);
                    } else {
                        // Only the best move's score is exact.
                        rm.score = -INF;
                    }
                }
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node && !root {
                        let (head, tail) = self.frames.split_at_mut(ply + 1);
                        head[ply].pv.clear();
                        head[ply].pv.push(m);
                        head[ply].pv.extend_from_slice(&tail[0].pv);
                    }
                    if score >= beta {
                        self.frames[ply].cutoffs += 1 + tt_move.is_none() as u32;
                        self.update_cutoff_stats(m, depth, ply, &quiets_tried, &captures_tried);
                        break;
                    }
                    alpha = score;
                }
            }
            if tactical {
                captures_tried.push(m);
            } else {
                quiets_tried.push(m);
            }
        }
        self.put_back(ply, picker);

        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else {
                self.pos.no_moves_score(ply).0
            };
        }

        if excluded.is_none() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if pv_node && best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let code = best_move.map(P::encode).unwrap_or(0);
            self.shared.tt.store(
                key,
                code,
                Score(best_score).to_tt(ply as i32),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
            // Learn the evaluation's error where the result says
            // something about it: not after a capture (the exchange, not
            // the structure, decided), not when a bound points away from
            // the evaluation (a fail-high below it, a fail-low above it),
            // not for mate scores.
            if let Some(ck) = correction_key {
                let informative = match bound {
                    Bound::Lower => best_score > static_eval,
                    Bound::Upper => best_score < static_eval,
                    _ => true,
                };
                if informative
                    && best_score.abs() < Score::MATE_BOUND
                    && !best_move.is_some_and(|m| self.pos.is_tactical(m))
                {
                    self.state
                        .history
                        .correction
                        .update(ck, best_score - static_eval, depth);
                }
            }
        }
        best_score
    }

    /// `raw` plus the correction history's entry for `key`, kept off the
    /// mate scores.
    fn corrected(&self, raw: i32, key: Option<u64>) -> i32 {
        match key {
            Some(k) => (raw + self.state.history.correction.get(k))
                .clamp(-Score::MATE_BOUND + 1, Score::MATE_BOUND - 1),
            None => raw,
        }
    }

    fn update_cutoff_stats(
        &mut self,
        m: P::Move,
        depth: i32,
        ply: usize,
        quiets: &[P::Move],
        captures: &[P::Move],
    ) {
        let b = bonus(depth);
        let (p1, p2) = self.prev_moves(ply);
        let idx = self.pos.history_index(m);
        if self.pos.is_tactical(m) {
            self.state.history.update_capture(idx, b);
        } else {
            self.state.history.add_killer(ply, m);
            if let Some(p) = p1 {
                self.state.history.counters[p] = Some(m);
            }
            self.state.history.update_quiet(idx, p1, p2, b);
            for &q in quiets {
                let qi = self.pos.history_index(q);
                self.state.history.update_quiet(qi, p1, p2, -b);
            }
        }
        for &c in captures {
            let ci = self.pos.history_index(c);
            self.state.history.update_capture(ci, -b);
        }
    }

    fn reduction(&self, depth: i32, move_count: usize) -> i8 {
        self.lmr[(depth as usize).min(63)][move_count.min(63)]
    }

    fn draw_score(&self) -> i32 {
        // A sliver of noise keeps threads from locking onto one drawn line.
        1 - (self.nodes & 2) as i32
    }

    /// Takes a node's move list and score buffer back from its picker for
    /// the next node searched at `ply`.
    fn put_back(&mut self, ply: usize, picker: MovePicker<P::Move>) {
        let (moves, scores) = picker.into_buffers();
        self.move_lists[ply] = moves;
        self.score_lists[ply] = scores;
    }

    fn evaluate(&mut self) -> i32 {
        self.eval
            .evaluate(&self.pos)
            .clamp(-Score::MATE_BOUND + 1, Score::MATE_BOUND - 1)
    }

    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        self.frames[ply].pv.clear();
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        if pv_node {
            self.seldepth = self.seldepth.max(ply as u32 + 1);
        }
        if let Some(r) = self.pos.ruling(ply) {
            return match r {
                Ruling::Draw => self.draw_score(),
                Ruling::Loss => Score::mated_in(ply as i32).0,
                Ruling::Win => Score::mate_in(ply as i32).0,
            };
        }
        if ply >= MAX_PLY as usize - 2 {
            return self.evaluate();
        }
        let key = self.pos.key();
        let tt_hit = self.shared.tt.probe(key);
        if let Some(h) = tt_hit {
            let s = Score::from_tt(h.score, ply as i32).0;
            if !pv_node
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }
        let in_check = self.pos.in_check();
        let params = self.params();
        let mut best_score;
        let raw_eval;
        let static_eval;
        if in_check {
            best_score = -INF;
            raw_eval = -INF;
            static_eval = -INF;
        } else {
            raw_eval = match tt_hit {
                Some(h) if h.bound != Bound::None || h.eval != 0 => h.eval,
                _ => self.evaluate(),
            };
            static_eval = self.corrected(raw_eval, self.pos.correction_key());
            best_score = static_eval;
            if let Some(h) = tt_hit {
                let s = Score::from_tt(h.score, ply as i32).0;
                if (h.bound == Bound::Lower && s > best_score)
                    || (h.bound == Bound::Upper && s < best_score)
                {
                    best_score = s;
                }
            }
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let tt_move = tt_hit.and_then(|h| self.pos.decode(h.mv));
        let mut list = std::mem::take(&mut self.move_lists[ply]);
        list.clear();
        self.pos.generate(
            if in_check {
                GenKind::All
            } else {
                GenKind::Tactical
            },
            &mut list,
        );
        let (p1, p2) = self.prev_moves(ply);
        let scores = std::mem::take(&mut self.score_lists[ply]);
        let mut picker = MovePicker::new(
            &self.pos,
            list,
            scores,
            tt_move.filter(|&m| in_check || self.pos.is_tactical(m)),
            &self.state.history,
            ply,
            None,
            p1,
            p2,
            true,
        );
        let mut best_move = None;
        let mut move_count = 0;
        while let Some((m, _)) = picker.next(&self.pos, &self.state.history) {
            move_count += 1;
            if !in_check && best_score > -Score::MATE_BOUND {
                // Delta pruning: even winning the piece would not reach alpha.
                if static_eval + self.pos.tactical_value(m) + params.delta_margin <= alpha
                    && !self.pos.see_ge(m, 1)
                {
                    continue;
                }
                if !self.pos.see_ge(m, 0) {
                    continue;
                }
            }
            self.frames[ply].moved = Some(self.pos.history_index(m));
            self.eval.push(&self.pos, m);
            self.pos.make(m);
            self.shared.tt.prefetch(self.pos.key());
            let score = -self.quiesce(-beta, -alpha, ply + 1, pv_node);
            self.pos.unmake(m);
            self.eval.pop();
            if self.stopped {
                self.put_back(ply, picker);
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        let (head, tail) = self.frames.split_at_mut(ply + 1);
                        head[ply].pv.clear();
                        head[ply].pv.push(m);
                        head[ply].pv.extend_from_slice(&tail[0].pv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.put_back(ply, picker);
        if in_check && move_count == 0 {
            return self.pos.no_moves_score(ply).0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move.map(P::encode).unwrap_or(0),
            Score(best_score).to_tt(ply as i32),
            if in_check { 0 } else { raw_eval },
            0,
            bound,
        );
        best_score
    }
}

/// How much to scale the soft time limit by when the best root move took
/// `best` of the `total` nodes searched at the root: a move that takes
/// nearly all the effort is settled, and the search may end sooner; one
/// that shares it with others is not (Ethereal and its descendants scale
/// by the same share). Shallow iterations are too few nodes to tell.
fn effort_scale(weights: Option<(f64, f64)>, best: u64, total: u64, depth: u32) -> f64 {
    match weights {
        Some((base, per)) if depth >= 8 && total > 0 => {
            let others = 1.0 - best.min(total) as f64 / total as f64;
            (base + per * others).max(0.5)
        }
        _ => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::effort_scale;

    #[test]
    fn a_settled_best_move_shortens_the_think() {
        let w = Some((0.6, 2.0));
        // All nodes on the best move: the base alone.
        assert!((effort_scale(w, 1000, 1000, 12) - 0.6).abs() < 1e-9);
        // Half elsewhere: longer than the plain limit.
        assert!((effort_scale(w, 500, 1000, 12) - 1.6).abs() < 1e-9);
        // Never below half the limit.
        assert_eq!(effort_scale(Some((0.2, 2.0)), 1000, 1000, 12), 0.5);
    }

    #[test]
    fn no_scaling_when_off_shallow_or_empty() {
        assert_eq!(effort_scale(None, 10, 1000, 20), 1.0);
        assert_eq!(effort_scale(Some((0.6, 2.0)), 10, 1000, 7), 1.0);
        assert_eq!(effort_scale(Some((0.6, 2.0)), 0, 0, 20), 1.0);
    }
}
