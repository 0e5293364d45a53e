//! The player: threat-space search first (our VCF, then our VCT), then an
//! iterative-deepening alpha-beta over a few candidate moves ranked by
//! their line shapes and a history of cut-offs, with forced replies to
//! fours searched without spending depth and late quiet moves searched
//! shallower first.

use crate::board::{shape_value, Board, Color, Outcome, Point, Rule, Sq, MAX_CELLS};
use crate::threat::{self, level, playable, Level, ThreatSearch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tengen_core::history::gravity;
use tengen_core::report::Bound;
use tengen_core::timeman::TimeManager;
use tengen_core::tt::TranspositionTable;

/// Score of a won game; a win in n plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are proven results.
pub const PROVEN: i32 = WIN - 1000;
/// A position the side to move wins by an unstoppable threat (an open
/// four to come), not yet proven move by move.
const THREAT_WIN: i32 = 10_000;
const MAX_PLY: usize = 64;
/// Threat-search nodes for each move the root's safety net checks.
const SAFETY_NODES: u64 = 10_000;
/// Threat moves of the opponent's VCT the safety net looks for.
const SAFETY_VCT_DEPTH: u32 = 4;
/// The share of the hard limit the alpha-beta may use (per mille); the
/// rest is kept for the safety net.
const SEARCH_SHARE: u32 = 900;
/// Attacking moves of the VCF tried inside the tree.
const NODE_VCF_DEPTH: u32 = 8;
/// Threat-search nodes one tree node may spend on that VCF.
const NODE_VCF_BUDGET: u64 = 24;
/// Moves searched at a node, by remaining depth (6 or more, 3-5, less).
const WIDTHS: [usize; 3] = [20, 14, 10];
/// Quiet moves from this index on are searched shallower first.
const LMR_FROM: usize = 3;
/// A history entry counts an eighth in the ordering score: at most
/// 2,048, where the freestyle table's ordering values reach 192,280, so
/// it reorders moves of similar shape.
const HISTORY_DIV: i32 = 8;
/// At most this many moves of a node that failed low are penalised at its
/// cut-off (a node searches at most 20 unless a defence set is larger).
const HISTORY_FAILED: usize = 32;

pub const BENCH_DEPTH: u32 = 6;

/// Fixed positions for `tengen bench --game gomoku` (Gomocup `x,y` moves).
pub const BENCH_POSITIONS: &[(Rule, &str)] = &[
    (Rule::Freestyle, "7,7"),
    (Rule::Freestyle, "7,7 8,8 8,7 6,7 7,8 7,6"),
    (Rule::Standard, "7,7 7,8 8,8 6,6 9,9 8,9 6,8"),
    (Rule::Renju, "7,7 8,7 8,8 9,9 6,8 9,7 7,9"),
    (Rule::Renju, "7,7 6,8 8,8 9,9 8,6 8,7 6,6 7,6 9,7"),
    (Rule::Freestyle, "7,7 8,6 8,8 6,8 9,9 10,10 7,9 6,10 9,7"),
];

/// What to search for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The move's time, as the shared time manager plans it (`soft`: no
    /// new iteration after it; `hard`: stop there). `None`: no clock.
    pub time: Option<TimeManager>,
    /// Restrict the root to these points (AGI `GO SEARCH`).
    pub root: Option<Vec<Point>>,
}

/// Progress reports.
#[derive(Clone, Debug)]
pub enum Event {
    Iteration {
        depth: u32,
        score: i32,
        pv: Vec<Point>,
        nodes: u64,
        elapsed: Duration,
    },
    /// A proven winning line for the side to move.
    Win(Vec<Point>),
    /// Every root move was proven to lose; the move that loses slowest.
    Lose(Point),
    /// The root moves the alpha-beta search will look at, best first.
    RootMoves(Vec<Point>),
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Point>,
    pub ponder: Option<Point>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Point>,
}

/// A score relative to the root as the table keeps it, relative to the
/// node (a win in n plies from here), so that a transposition reached at
/// another ply reads the right distance.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

pub struct Searcher {
    /// The shared alpha-beta table of `tengen-core`: four-entry buckets
    /// kept by depth and age, safe to share between threads.
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    nodes: u64,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    aborted: bool,
    killers: [[u16; 2]; MAX_PLY + 8],
    /// The VCF searcher of the tree's nodes (its refutation cache lives
    /// for one `think`).
    ts: ThreatSearch,
    /// Its budget per node; 0 turns it off.
    node_vcf: u64,
    /// Whether a position of the opening book is answered from it.
    book: bool,
    /// Butterfly history, `[point][colour]`: raised by depth² for a move
    /// that cut the search off, lowered as much for the moves tried
    /// before it at that node (the shared `gravity` rule, bounded at
    /// ±16,384); added to the ordering score.
    history: Vec<[i32; 2]>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: TranspositionTable::new(hash_mb.clamp(1, 4096)),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            start: Instant::now(),
            hard: None,
            node_limit: None,
            aborted: false,
            killers: [[0; 2]; MAX_PLY + 8],
            ts: ThreatSearch::new(0),
            node_vcf: NODE_VCF_BUDGET,
            book: true,
            history: vec![[0; 2]; MAX_CELLS],
        }
    }

    /// Whether positions of the built-in opening book (`book.rs`) are
    /// answered from it (the default) or searched.
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Sets the threat-search nodes each tree node may spend on a VCF of
    /// the side to move (0: none).
    pub fn set_node_vcf(&mut self, budget: u64) {
        self.node_vcf = budget;
    }

    /// The flag a front-end sets to stop the search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    pub fn set_stop_flag(&mut self, f: Arc<AtomicBool>) {
        self.stop = f;
    }

    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
    }

    /// Replaces the table by an empty one of `mb` mebibytes, or keeps the
    /// current one and says why when the machine cannot hold it.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.tt.try_resize(mb.max(1))
    }

    /// The table's size in mebibytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Per mille of the table written by the current search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    fn time_up(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stop.load(Ordering::Relaxed) || self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes & 255 == 0 {
            if let Some(h) = self.hard {
                if self.start.elapsed() >= h {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Picks a move for the side to move of `board`.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        report: &mut dyn FnMut(&Event),
    ) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.tt.new_search();
        let hard = limits.time.map(|t| t.hard);
        self.hard = hard.map(|h| h * SEARCH_SHARE / 1000);
        self.node_limit = limits.nodes;
        self.killers = [[0; 2]; MAX_PLY + 8];
        // Last move's history still says something about this one.
        for h in self.history.iter_mut() {
            h[0] /= 4;
            h[1] /= 4;
        }
        self.ts = ThreatSearch::new(0);
        self.ts.stop = Some(self.stop.clone());
        self.ts.deadline = hard.map(|h| self.start + h);
        let mut b = board.clone();
        let me = b.to_move();
        let mut result = SearchResult::default();
        if b.outcome() != Outcome::Ongoing {
            return result;
        }
        if self.book && limits.root.is_none() {
            if let Some((p, score)) = crate::book::builtin().lookup(&b) {
                report(&Event::Iteration {
                    depth: 0,
                    score,
                    pv: vec![p],
                    nodes: 0,
                    elapsed: self.start.elapsed(),
                });
                return self.finish(result, p, None, score, 0, vec![p]);
            }
        }
        let root_filter: Option<Vec<Sq>> = limits
            .root
            .as_ref()
            .map(|pts| pts.iter().filter_map(|&p| b.sq(p)).collect());
        let allowed = |sq: Sq| root_filter.as_ref().is_none_or(|f| f.contains(&sq));
        let mut root: Vec<Sq> = if b.stones() == 0 && root_filter.is_none() {
            threat::near(&b)
        } else {
            let mut v: Vec<Sq> = b
                .squares()
                .filter(|&s| allowed(s) && playable(&b, s, me))
                .collect();
            if root_filter.is_none() {
                let close = threat::near(&b);
                let close: Vec<Sq> = close.into_iter().filter(|&s| playable(&b, s, me)).collect();
                if !close.is_empty() {
                    v = close;
                }
            }
            v
        };
        if root.is_empty() {
            return result;
        }
        // Immediate five.
        if let Some(&f) = root.iter().find(|&&s| b.makes_five(s, me)) {
            let p = b.point(f);
            report(&Event::Win(vec![p]));
            return self.finish(result, p, None, WIN - 1, 1, vec![p]);
        }
        // Their five points must be blocked.
        let theirs = threat::five_points(&b, me.other(), None);
        if !theirs.is_empty() {
            let blocks: Vec<Sq> = theirs
                .iter()
                .copied()
                .filter(|s| root.contains(s))
                .collect();
            if blocks.len() != theirs.len() || theirs.len() > 1 {
                let p = b.point(blocks.first().copied().unwrap_or(root[0]));
                report(&Event::Lose(p));
                return self.finish(result, p, None, -(WIN - 2), 1, vec![p]);
            }
            root = blocks;
        }
        // Our VCF, then our VCT, on a budget.
        if root_filter.is_none() && theirs.is_empty() {
            let mut ts = ThreatSearch::new(self.threat_budget(limits, 50_000));
            ts.stop = Some(self.stop.clone());
            // The threat search gets a third of the move's time at most.
            ts.deadline = hard.map(|h| self.start + h / 3);
            let vcf = ts.vcf(&mut b, 30);
            let line = match vcf {
                Some(l) => Some(l),
                None => {
                    ts.budget = ts.nodes + self.threat_budget(limits, 100_000);
                    ts.vct(&mut b, 6, 12)
                }
            };
            self.nodes += ts.nodes;
            if let Some(line) = line {
                if let Some(&first) = line.first() {
                    let pts: Vec<Point> = line.iter().map(|&s| b.point(s)).collect();
                    report(&Event::Win(pts.clone()));
                    let ponder = pts.get(1).copied();
                    return self.finish(result, b.point(first), ponder, PROVEN, 1, pts);
                }
            }
        }
        if root.len() == 1 {
            let p = b.point(root[0]);
            result.best = Some(p);
            result.pv = vec![p];
            result.nodes = self.nodes;
            return result;
        }
        // Against an open three or a four-three, only the defence set.
        if theirs.is_empty() {
            let sc = threat::scan(&b);
            // (An empty set means the game is lost: then every move is
            // searched, for the one that loses slowest.)
            if let Some(set) = threat::defence_set(&mut b, &root, &sc) {
                if !set.is_empty() {
                    root.retain(|s| set.contains(s));
                }
            }
        }
        if root.len() == 1 {
            let p = b.point(root[0]);
            result.best = Some(p);
            result.pv = vec![p];
            result.nodes = self.nodes;
            return result;
        }
        // Order the root once by shape, then iterate.
        let mut ordered = self.order(&b, &root, 0, 0);
        ordered.truncate(24);
        report(&Event::RootMoves(
            ordered.iter().map(|&(_, s)| b.point(s)).collect(),
        ));
        let max_depth = limits.depth.unwrap_or(60).clamp(1, 60);
        let mut best = ordered[0].1;
        let mut best_score = 0;
        for depth in 1..=max_depth {
            let mut alpha = -WIN - 1;
            let beta = WIN + 1;
            let mut iter_best = None;
            let mut scores = Vec::with_capacity(ordered.len());
            for (i, &(_, m)) in ordered.iter().enumerate() {
                b.make(m);
                let score = if i == 0 {
                    -self.negamax(&mut b, depth as i32 - 1, -beta, -alpha, 1)
                } else {
                    let s = -self.negamax(&mut b, depth as i32 - 1, -alpha - 1, -alpha, 1);
                    if s > alpha && !self.aborted {
                        -self.negamax(&mut b, depth as i32 - 1, -beta, -alpha, 1)
                    } else {
                        s
                    }
                };
                b.unmake();
                if self.aborted {
                    break;
                }
                scores.push((score, m));
                if score > alpha {
                    alpha = score;
                    iter_best = Some(m);
                }
            }
            if self.aborted && iter_best.is_none() {
                break;
            }
            if let Some(m) = iter_best {
                best = m;
                best_score = alpha;
            }
            // Best first for the next iteration; the rest by their scores.
            if !self.aborted {
                ordered.sort_by_key(|&(_, m)| {
                    let s = scores.iter().find(|x| x.1 == m).map_or(-WIN * 2, |x| x.0);
                    std::cmp::Reverse(s)
                });
            }
            let pv = self.pv(&mut b, best);
            result.depth = depth;
            result.pv = pv.iter().map(|&s| b.point(s)).collect();
            report(&Event::Iteration {
                depth,
                score: best_score,
                pv: result.pv.clone(),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
            });
            if self.aborted || best_score.abs() >= PROVEN {
                break;
            }
            if limits.time.is_some_and(|t| self.start.elapsed() >= t.soft) {
                break;
            }
        }
        if best_score <= -PROVEN {
            report(&Event::Lose(b.point(best)));
        }
        // Safety net: the pruned search may miss a VCF or a VCT it lets
        // them have. Prefer the best-ranked move after which they have
        // none; a move whose check ran out of budget is not trusted.
        if best_score > -PROVEN && best_score < PROVEN && root_filter.is_none() {
            let mut ts = ThreatSearch::new(0);
            ts.stop = Some(self.stop.clone());
            ts.deadline = hard.map(|h| self.start + h);
            let per_check = limits
                .nodes
                .map_or(SAFETY_NODES, |n| (n / 20).clamp(2_000, SAFETY_NODES));
            let mut gives_win = |b: &mut Board, m: Sq| -> Option<bool> {
                ts.budget = ts.nodes + per_check;
                b.make(m);
                let found = ts.vct(b, SAFETY_VCT_DEPTH, 16).is_some();
                b.unmake();
                if found {
                    Some(true)
                } else if ts.exhausted() {
                    None
                } else {
                    Some(false)
                }
            };
            if gives_win(&mut b, best) == Some(true) {
                let alternatives: Vec<Sq> = ordered
                    .iter()
                    .map(|&(_, m)| m)
                    .filter(|&m| m != best)
                    .take(8)
                    .collect();
                if let Some(&safe) = alternatives
                    .iter()
                    .find(|&&m| gives_win(&mut b, m) == Some(false))
                {
                    best = safe;
                    result.pv = vec![b.point(safe)];
                }
            }
            self.nodes += ts.nodes;
        }
        let p = b.point(best);
        let ponder = result.pv.get(1).copied();
        let pv = if result.pv.first() == Some(&p) {
            result.pv.clone()
        } else {
            vec![p]
        };
        let depth = result.depth;
        self.finish(result, p, ponder, best_score, depth, pv)
    }

    fn threat_budget(&self, limits: &Limits, default: u64) -> u64 {
        // The deadline bounds a timed search; nodes bound the rest. A
        // node-limited search gives the threat search a third of its
        // nodes, so that fixed-node games do not depend on the clock.
        let by_time = limits
            .time
            .map(|t| (t.hard.as_millis() as u64 * 2_000).max(2_000));
        let by_nodes = limits.nodes.map(|n| (n / 3).max(2_000));
        match (by_time, by_nodes) {
            (Some(t), Some(n)) => t.min(n),
            (Some(t), None) => t,
            (None, Some(n)) => n,
            (None, None) => default,
        }
    }

    fn finish(
        &self,
        mut r: SearchResult,
        best: Point,
        ponder: Option<Point>,
        score: i32,
        depth: u32,
        pv: Vec<Point>,
    ) -> SearchResult {
        r.best = Some(best);
        r.ponder = ponder;
        r.score = score;
        r.depth = depth;
        r.nodes = self.nodes;
        r.pv = pv;
        r
    }

    fn pv(&self, b: &mut Board, first: Sq) -> Vec<Sq> {
        let mut line = vec![first];
        b.make(first);
        let mut made = 1;
        while made < 12 && b.outcome() == Outcome::Ongoing {
            let Some(e) = self.tt.probe(b.hash()).filter(|e| e.mv != 0) else {
                break;
            };
            let m = e.mv as Sq;
            if !b.is_empty(m) || !playable(b, m, b.to_move()) {
                break;
            }
            line.push(m);
            b.make(m);
            made += 1;
        }
        for _ in 0..made {
            b.unmake();
        }
        line
    }

    /// Candidate moves with their ordering scores, best first.
    fn order(&self, b: &Board, cells: &[Sq], tt_move: u16, ply: usize) -> Vec<(i32, Sq)> {
        let me = b.to_move();
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        let mut v: Vec<(i32, Sq)> = cells
            .iter()
            .map(|&s| {
                let mut score = move_score(b, s, me);
                if s as u16 == tt_move {
                    score += 1_000_000;
                } else if killers.contains(&(s as u16)) {
                    score += 500;
                }
                if s as u16 != tt_move {
                    let h = self.history.get(s).map_or(0, |h| h[me.index()]);
                    score += h / HISTORY_DIV;
                }
                (score, s)
            })
            .collect();
        v.sort_by_key(|x| std::cmp::Reverse(x.0));
        v
    }

    /// History update at a cut-off by `m` after the `failed` moves.
    fn reward(&mut self, me: Color, m: Sq, failed: &[Sq], depth: i32) {
        let bonus = (depth * depth).min(400);
        let mut bump = |s: Sq, delta: i32| {
            if let Some(h) = self.history.get_mut(s) {
                let e = &mut h[me.index()];
                *e = gravity(*e, delta);
            }
        };
        bump(m, bonus);
        for &q in failed {
            bump(q, -bonus);
        }
    }

    /// A win the side to move holds by threats alone, as a score: an open
    /// four (or double four) to make; a four-three when the opponent has no
    /// four to interpose; or a short VCF found on a small budget when the
    /// side to move has fours.
    fn threat_win(&mut self, b: &mut Board, sc: &threat::Scan, ply: usize) -> Option<i32> {
        let ply = ply as i32;
        match sc.best {
            Some((l, _)) if l >= Level::WinThreat => return Some(WIN - ply - 3),
            Some((Level::FourThree, _)) if !sc.their_four => return Some(WIN - ply - 5),
            _ => {}
        }
        if sc.fours.is_empty() || self.node_vcf == 0 {
            return None;
        }
        self.ts.budget = self.ts.nodes + self.node_vcf;
        let before = self.ts.nodes;
        let line = self.ts.vcf(b, NODE_VCF_DEPTH);
        self.nodes += self.ts.nodes - before;
        line.map(|l| WIN - ply - l.len() as i32)
    }

    fn negamax(&mut self, b: &mut Board, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.time_up() {
            return 0;
        }
        match b.outcome() {
            Outcome::Win(..) => return -(WIN - ply as i32),
            Outcome::Draw => return 0,
            Outcome::Ongoing => {}
        }
        let me = b.to_move();
        let you = me.other();
        if b.five_count(me) > 0 {
            return WIN - ply as i32 - 1;
        }
        let theirs = if b.five_count(you) > 0 {
            threat::five_points(b, you, b.last_move())
        } else {
            Vec::new()
        };
        if theirs.len() >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if ply >= MAX_PLY {
            return evaluate(b);
        }
        if let Some(&f) = theirs.first() {
            // Forced block: no depth spent.
            if !playable(b, f, me) {
                return -(WIN - ply as i32 - 2);
            }
            b.make(f);
            let s = -self.negamax(b, depth, -beta, -alpha, ply + 1);
            b.unmake();
            return s;
        }
        if depth <= 0 {
            let sc = threat::scan(b);
            return self.threat_win(b, &sc, ply).unwrap_or_else(|| evaluate(b));
        }
        let key = b.hash();
        let mut tt_move = 0u16;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if e.depth >= depth {
                let s = from_tt(e.score, ply);
                if e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s >= beta)
                    || (e.bound == Bound::Upper && s <= alpha)
                {
                    return s;
                }
            }
        }
        let cells = threat::near(b);
        let sc = threat::scan(b);
        if let Some(win) = self.threat_win(b, &sc, ply) {
            return win;
        }
        // A search that must defend tries only the defence set.
        let defence = threat::defence_set(b, &cells, &sc);
        if defence.as_ref().is_some_and(|set| set.is_empty()) {
            // No answer and no four: their open four comes.
            return -(WIN - ply as i32 - 4);
        }
        let moves = self.order(b, defence.as_deref().unwrap_or(&cells), tt_move, ply);
        let mut width = match depth {
            d if d >= 6 => WIDTHS[0],
            d if d >= 3 => WIDTHS[1],
            _ => WIDTHS[2],
        };
        // One answer only: a forced reply, searched without spending depth.
        let mut child_depth = depth - 1;
        if let Some(set) = &defence {
            width = width.max(set.len());
            if set.len() == 1 {
                child_depth = depth;
            }
        }
        let their_threat = defence.is_some();
        let orig_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = 0u16;
        let mut searched = 0;
        // Moves that did not raise alpha, for the history's penalty (on
        // the stack: no allocation per node).
        let mut failed = [0 as Sq; HISTORY_FAILED];
        let mut n_failed = 0;
        for &(_, m) in moves.iter() {
            if searched >= width {
                break;
            }
            if !playable(b, m, me) {
                continue;
            }
            let r = reduction(b, m, depth, searched, their_threat);
            b.make(m);
            let s = if searched == 0 {
                -self.negamax(b, child_depth, -beta, -alpha, ply + 1)
            } else {
                let mut s = -self.negamax(b, child_depth - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(b, child_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(b, child_depth, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            b.unmake();
            searched += 1;
            if self.aborted {
                return 0;
            }
            if s <= alpha && n_failed < HISTORY_FAILED {
                failed[n_failed] = m;
                n_failed += 1;
            }
            if s > best {
                best = s;
                best_move = m as u16;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                self.reward(me, m, &failed[..n_failed], depth);
                if let Some(k) = self.killers.get_mut(ply) {
                    if k[0] != m as u16 {
                        k[1] = k[0];
                        k[0] = m as u16;
                    }
                }
                break;
            }
        }
        if searched == 0 {
            // Nothing playable (all points forbidden or none near): lost
            // if they threaten, otherwise judge statically.
            return if their_threat {
                -(WIN - ply as i32 - 4)
            } else {
                evaluate(b)
            };
        }
        let bound = if best <= orig_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // No static evaluation is kept: the searcher never reads one back.
        self.tt
            .store(key, best_move, to_tt(best, ply), 0, depth, bound);
        best
    }
}

/// Plies by which the `searched`-th move `m` (from 0) of a node at
/// `depth` is searched shallower first: late moves that neither make nor
/// stop an open three or a four lose one ply, two when deep and later
/// still. None while the opponent threatens: every answer counts then.
fn reduction(b: &Board, m: Sq, depth: i32, searched: usize, their_threat: bool) -> i32 {
    if searched < LMR_FROM || depth < 3 || their_threat {
        return 0;
    }
    let me = b.to_move();
    let quiet = level(b.shapes(m, me)) < Level::OpenThree
        && level(b.shapes(m, me.other())) < Level::OpenThree;
    match quiet {
        false => 0,
        true if depth >= 6 && searched >= 2 * LMR_FROM => 2,
        true => 1,
    }
}

/// Ordering score of `me` playing the empty `s`: attack plus defence,
/// from the learned tables when the board has them.
pub fn move_score(b: &Board, s: Sq, me: Color) -> i32 {
    let you = me.other();
    let own = b.shapes(s, me);
    let opp = b.shapes(s, you);
    let (mut a, mut d) = match b.learned() {
        Some(t) => (
            t.policy[me.index()][b.point_code(s, me)][0],
            t.policy[you.index()][b.point_code(s, you)][1],
        ),
        None => (
            level_value(level(own)) + own.iter().map(|&x| shape_value(x)).sum::<i32>(),
            (level_value(level(opp)) + opp.iter().map(|&x| shape_value(x)).sum::<i32>()) * 9 / 10,
        ),
    };
    if b.rule() == Rule::Renju {
        // Black's forbidden points are no threat for white to block, and a
        // forbidden point is no move for black.
        if you == Color::Black && level(opp) >= Level::DoubleThree && b.is_forbidden(s, you) {
            d = 0;
        }
        if me == Color::Black && level(own) >= Level::DoubleThree && b.is_forbidden(s, me) {
            a = if b.learned().is_some() {
                -100_000_000
            } else {
                -100_000
            };
        }
    }
    a + d
}

/// The move ordering's bonus for the threat a move makes (also the
/// pattern fitter's, `examples/pattern_fit.rs`, which must order as the
/// search does).
pub fn level_value(l: Level) -> i32 {
    match l {
        Level::Five => 100_000,
        Level::WinThreat => 20_000,
        Level::FourThree => 8_000,
        Level::DoubleThree => 3_000,
        Level::Four => 700,
        Level::OpenThree => 500,
        Level::Three => 60,
        Level::Two => 20,
        Level::None => 0,
    }
}

/// Static evaluation from the side to move's view: the learned pattern
/// values when the board has them, else the hand-made shape totals.
pub fn evaluate(b: &Board) -> i32 {
    let me = b.to_move();
    let you = me.other();
    if let Some(t) = b.learned() {
        let v = b.learned_sums(me)[0] - b.learned_sums(you)[1] + t.bias[me.index()];
        return v.clamp(-THREAT_WIN + 1, THREAT_WIN - 1);
    }
    let mine = b.totals(me);
    let theirs = b.totals(you);
    // The side to move gets a tempo bonus: its threats come first.
    let base = (mine * 7 - theirs * 5) / 5;
    base.clamp(-THREAT_WIN + 1, THREAT_WIN - 1)
}

/// Searches with a node budget only (deterministic): for tests and bench.
pub fn best_move(b: &Board, depth: u32) -> SearchResult {
    let mut s = Searcher::new(4);
    s.think(
        b,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        &mut |_| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: Rule, moves: &str) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for m in moves.split_whitespace() {
            b.play(Point::parse_xy(m).unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn only_late_quiet_moves_are_reduced() {
        // Black 7,7 and 8,7; white 5,3 and 6,3; black to move.
        let b = board(Rule::Freestyle, "7,7 5,3 8,7 6,3");
        let sq = |x, y| b.sq(Point::new(x, y).unwrap()).unwrap();
        let far = sq(2, 12);
        assert_eq!(reduction(&b, far, 3, LMR_FROM, false), 1);
        assert_eq!(reduction(&b, far, 6, 2 * LMR_FROM, false), 2);
        assert_eq!(reduction(&b, far, 2, LMR_FROM, false), 0, "too shallow");
        assert_eq!(reduction(&b, far, 6, LMR_FROM - 1, false), 0, "too early");
        assert_eq!(reduction(&b, far, 6, 2 * LMR_FROM, true), 0, "under threat");
        // Making our open three, or stopping theirs, is never reduced.
        assert_eq!(reduction(&b, sq(9, 7), 6, 2 * LMR_FROM, false), 0);
        assert_eq!(reduction(&b, sq(7, 3), 6, 2 * LMR_FROM, false), 0);
    }

    #[test]
    fn history_moves_a_cutting_move_up_for_its_colour_only() {
        let b = board(Rule::Freestyle, "7,7 8,8 6,8");
        let mut s = Searcher::new(1);
        let cells = threat::near(&b);
        let me = b.to_move();
        let rank = |s: &Searcher, b: &Board, m: Sq| {
            s.order(b, &cells, 0, 0)
                .iter()
                .position(|x| x.1 == m)
                .unwrap()
        };
        let before = s.order(&b, &cells, 0, 0);
        let (first, late) = (before[0].1, before[before.len() / 2].1);
        for _ in 0..30 {
            s.reward(me, late, &[first], 10);
        }
        assert!(
            rank(&s, &b, late) < before.len() / 2,
            "the cutting move rises"
        );
        assert!(rank(&s, &b, first) > 0, "the move tried before it sinks");
        // The other colour's history is untouched.
        assert_eq!(s.history[late][me.other().index()], 0);
        assert_eq!(s.history[first][me.other().index()], 0);
        s.clear();
        assert_eq!(s.order(&b, &cells, 0, 0), before, "clear forgets it");
    }

    #[test]
    fn takes_a_five_and_blocks_a_four() {
        let b = board(Rule::Freestyle, "7,7 0,0 8,7 0,1 9,7 0,2 10,7 14,14");
        let r = best_move(&b, 2);
        let p = r.best.unwrap();
        assert!(p == Point { x: 6, y: 7 } || p == Point { x: 11, y: 7 });
        let b = board(Rule::Freestyle, "7,7 0,0 8,7 0,1 9,7 0,2 10,7");
        let r = best_move(&b, 2);
        let p = r.best.unwrap();
        assert!(p == Point { x: 6, y: 7 } || p == Point { x: 11, y: 7 });
    }

    #[test]
    fn hand_made_values_still_play() {
        // The A/B switch: a board without learned tables searches with
        // the hand-made values and still takes and blocks fives.
        let mut b = board(Rule::Freestyle, "7,7 0,0 8,7 0,1 9,7 0,2 10,7");
        assert!(b.learned().is_some(), "freestyle has a learned table");
        b.set_learned(None);
        let p = best_move(&b, 3).best.unwrap();
        assert!(p == Point { x: 6, y: 7 } || p == Point { x: 11, y: 7 });
        let mut b = board(Rule::Renju, "7,7 8,8 8,7");
        b.set_learned(None);
        let hand = best_move(&b, 3);
        b.set_learned(crate::learned::builtin(Rule::Renju));
        let learned = best_move(&b, 3);
        assert!(hand.best.is_some() && learned.best.is_some());
    }

    #[test]
    fn opens_in_the_centre_and_answers_nearby() {
        let b = Board::new(15, 15, Rule::Renju).unwrap();
        assert_eq!(best_move(&b, 3).best, Some(Point { x: 7, y: 7 }));
        let b = board(Rule::Renju, "7,7");
        let p = best_move(&b, 3).best.unwrap();
        assert!((p.x as i32 - 7).abs() <= 1 && (p.y as i32 - 7).abs() <= 1);
    }

    #[test]
    fn black_never_plays_a_forbidden_point() {
        // (7,7) is a double three for black and the obvious shape move.
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (p, c) in [
            ((5, 7), Color::Black),
            ((6, 7), Color::Black),
            ((7, 5), Color::Black),
            ((7, 6), Color::Black),
        ] {
            b.place(Point::new(p.0, p.1).unwrap(), c).unwrap();
        }
        for p in [(0, 0), (14, 0), (0, 14), (14, 14)] {
            b.place(Point::new(p.0, p.1).unwrap(), Color::White)
                .unwrap();
        }
        b.set_to_move(Color::Black);
        let r = best_move(&b, 3);
        assert_ne!(r.best, Some(Point { x: 7, y: 7 }));
        let sq = b.sq(r.best.unwrap()).unwrap();
        assert!(!b.is_forbidden(sq, Color::Black));
    }

    #[test]
    fn a_forbidden_double_four_is_never_played_by_black() {
        // Two closed black threes meet at (7,7): a stone there makes two
        // fours. In freestyle that is a win; under renju it is a forbidden
        // double four, so black may only win some other way: the search
        // must neither play it nor use it in the line it reports.
        let place = |rule: Rule| {
            let mut b = Board::new(15, 15, rule).unwrap();
            for (x, y) in [(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)] {
                b.place(Point::new(x, y).unwrap(), Color::Black).unwrap();
            }
            for (x, y) in [(3, 7), (7, 3), (6, 5), (0, 0), (14, 0), (0, 14), (14, 14)] {
                b.place(Point::new(x, y).unwrap(), Color::White).unwrap();
            }
            b.set_to_move(Color::Black);
            b
        };
        let centre = Point { x: 7, y: 7 };
        let free = best_move(&place(Rule::Freestyle), 4);
        assert!(free.score >= PROVEN, "freestyle score {}", free.score);
        let b = place(Rule::Renju);
        assert!(b.is_forbidden(b.sq(centre).unwrap(), Color::Black));
        for depth in [2, 4] {
            let r = best_move(&b, depth);
            assert_ne!(r.best, Some(centre));
            // Replay the reported line: no black stone on a forbidden point.
            let mut line = b.clone();
            for &p in &r.pv {
                let sq = line.sq(p).unwrap();
                if line.outcome() != Outcome::Ongoing || !line.is_empty(sq) {
                    break;
                }
                if line.to_move() == Color::Black {
                    assert!(!line.is_forbidden(sq, Color::Black), "{p:?} in {:?}", r.pv);
                }
                line.make(sq);
            }
        }
    }
}
