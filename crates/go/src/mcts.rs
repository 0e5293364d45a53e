//! Monte-Carlo tree search: UCT with RAVE (AMAF) and heuristic priors,
//! several threads sharing one tree under a lock with virtual loss, tree
//! reuse between moves, ownership statistics for dead-stone estimation.
//!
//! Values are stored from the point of view of the player who made the
//! move leading to a node.

use crate::board::{Board, Cell, Color, Move, Point, POINTS};
use crate::features;
use crate::game::Game;
use crate::gammas;
use crate::patterns;
use crate::playout::{self, is_bad_self_atari, Rng, LADDER_STEPS};
use crate::reading;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tengen_core::workers;

/// RAVE equivalence: visits after which AMAF and real values weigh equally.
const RAVE_EQUIV: f64 = 3000.0;
/// Virtual losses added per thread passing through a node.
const VIRTUAL_LOSS: u32 = 2;
/// What a jigo is worth to the player to move at the root (a win 1, a
/// loss 0): less than half, so a win is worth the risk of a jigo.
const JIGO: f64 = 0.4;
/// A leaf is expanded once it has this many visits.
const EXPAND_AT: u32 = 2;
/// The tree stops growing at this many nodes (about 100 MB).
const MAX_NODES: usize = 1_000_000;

#[derive(Clone, Debug)]
struct Node {
    mv: Move,
    /// Who played `mv`.
    color: Color,
    visits: u32,
    wins: f64,
    rave_visits: u32,
    rave_wins: f64,
    /// Prior (heuristic) probability-like weight, for reports.
    prior: f32,
    /// The prior's virtual visits and wins, counted in `visits` and
    /// `wins` (reports subtract them).
    prior_visits: u32,
    prior_wins: f64,
    virtual_loss: u32,
    /// Children: indices into the arena, empty until expanded.
    children: Vec<u32>,
    expanded: bool,
}

impl Node {
    fn new(mv: Move, color: Color, prior_visits: u32, prior_wins: f64, prior: f32) -> Node {
        Node {
            mv,
            color,
            visits: prior_visits,
            wins: prior_wins,
            rave_visits: 0,
            rave_wins: 0.0,
            prior,
            prior_visits,
            prior_wins,
            virtual_loss: 0,
            children: Vec::new(),
            expanded: false,
        }
    }

    /// Adds `k` virtual wins to the prior (and so to the real value).
    fn add_prior_wins(&mut self, k: u32) {
        self.visits += k;
        self.wins += k as f64;
        self.prior_visits += k;
        self.prior_wins += k as f64;
    }

    /// Starts the AMAF value at the prior's win rate with `rave_visits`
    /// virtual samples (Gelly and Silver 2007).
    fn seed_rave(&mut self, rave_visits: u32) {
        self.rave_visits = rave_visits;
        self.rave_wins = self.prior_wins / self.prior_visits.max(1) as f64 * rave_visits as f64;
    }

    fn value(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f64
        }
    }
}

/// Shared search state.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    /// Ownership sum (black +1, white -1) over root playouts, per point.
    own_sum: Vec<f64>,
    own_n: u64,
    margin_sum: f64,
    margin_sq: f64,
}

/// What limits a search.
#[derive(Clone, Debug)]
pub struct Limits {
    pub playouts: Option<u64>,
    /// Do not start playouts past this.
    pub time: Option<Duration>,
    pub threads: usize,
    /// Points added to White's compensation in the search's scoring only
    /// (`dynamic_komi`); 0 for analysis and for even games.
    pub extra_komi: f64,
}

/// What one handicap stone is worth at the start of a game, in points of
/// komi: Pachi's default, and about the value of the first move.
const HANDICAP_STONE_VALUE: f64 = 7.0;
/// Moves over which the handicap's extra komi falls to nothing on 19x19
/// (as in Pachi and Ray); other boards scale it by their area.
const DYNAMIC_KOMI_MOVES_19: f64 = 200.0;

/// GTP `tengen-dynamic_komi on|off` (A/B matches); off by default: on
/// 9x9 with two stones it lost games from both sides (docs/strength.md,
/// "Dynamic komi in handicap games").
static DYNAMIC_KOMI: AtomicBool = AtomicBool::new(false);

/// Turns the handicap's dynamic komi on or off for the whole process.
pub fn set_dynamic_komi(on: bool) {
    DYNAMIC_KOMI.store(on, Ordering::Relaxed);
}

/// Whether `dynamic_komi` gives anything.
pub fn dynamic_komi_on() -> bool {
    DYNAMIC_KOMI.load(Ordering::Relaxed)
}

/// Linear dynamic komi for a handicap game (Baudis 2011; Pachi's
/// `linear`, Ray's `DK_LINEAR`): extra komi for White worth the handicap
/// stones at the start, falling linearly to nothing over the first 200
/// moves on 19x19 (scaled by the board's area elsewhere: 45 on 9x9). The
/// idea: nearly every playout of a handicap game is Black's, so Black's
/// search, seeing every move win, has no reason to keep its lead;
/// counting the stones as komi keeps the win rates where the search can
/// tell moves apart. Nothing below two stones (one stone is the even game
/// without komi) and nothing in even games. `moves`: moves played since
/// the handicap was placed.
pub fn linear_dynamic_komi(handicap: usize, moves: usize, area: usize) -> f64 {
    if handicap < 2 {
        return 0.0;
    }
    let span = (DYNAMIC_KOMI_MOVES_19 * area as f64 / 361.0).max(1.0);
    let left = (1.0 - moves as f64 / span).max(0.0);
    HANDICAP_STONE_VALUE * handicap as f64 * left
}

/// The extra komi for `color`'s search: `linear_dynamic_komi` for Black
/// when switched on (off by default), never for White. Measured on 9x9
/// with two stones (docs/strength.md, "Dynamic komi in handicap games"),
/// it lost games from both sides, White's most clearly (Pachi's source,
/// too, advises against it for White): as White, 10 of its 23 losses
/// were resignations on the first move after the extra had gone.
pub fn dynamic_komi(handicap: usize, moves: usize, area: usize, color: Color) -> f64 {
    if color == Color::White || !dynamic_komi_on() {
        return 0.0;
    }
    linear_dynamic_komi(handicap, moves, area)
}

/// One root candidate, for `lz-analyze` and friends.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side to move at the root.
    pub winrate: f64,
    pub prior: f64,
    pub lcb: f64,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub candidates: Vec<Candidate>,
    pub playouts: u64,
    /// Root win rate of the side to move.
    pub winrate: f64,
    /// Mean final margin for Black, komi included.
    pub score_mean: f64,
    pub score_stdev: f64,
    /// Per on-board point (row by row from A1), black +1 .. white -1.
    pub ownership: Vec<f64>,
    pub elapsed: Duration,
}

/// Which moves the root may choose.
#[derive(Clone, Debug, Default)]
pub struct RootFilter {
    /// Only these points (plus pass) when non-empty.
    pub allow: Vec<Point>,
    pub avoid: Vec<Point>,
    /// KGS cleanup: no pass while the opponent has stones we own.
    pub no_pass: bool,
    /// No point at all, only pass (a search area with no point in it).
    pub pass_only: bool,
}

/// A tree kept between moves: the moves to its root, the board's width
/// and height, White's compensation (bits) and the tree.
type Kept = (Vec<crate::game::Played>, (usize, usize), u64, Tree);

/// The player: keeps its tree between moves.
pub struct Searcher {
    tree: Option<Kept>,
    seed: u64,
}

impl Default for Searcher {
    fn default() -> Self {
        Self::new(0x7e57_9e4e)
    }
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher { tree: None, seed }
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.tree = None;
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn clear(&mut self) {
        self.tree = None;
    }

    /// Takes the kept tree if the game continued from its root, re-rooted
    /// at the current position.
    fn reuse(&mut self, game: &Game, color: Color) -> Option<Tree> {
        let (moves, dims, komi_bits, tree) = self.tree.take()?;
        if dims != (game.width(), game.height()) || komi_bits != game.compensation().to_bits() {
            return None;
        }
        let now = game.moves();
        if now.len() < moves.len() || now[..moves.len()] != moves[..] {
            return None;
        }
        let mut at = 0u32;
        for p in &now[moves.len()..] {
            let node = &tree.nodes[at as usize];
            at = *node.children.iter().find(|&&c| {
                tree.nodes[c as usize].mv == p.mv && tree.nodes[c as usize].color == p.color
            })?;
        }
        // The root's children must be moves of `color`.
        let root = &tree.nodes[at as usize];
        if let Some(&c) = root.children.first() {
            if tree.nodes[c as usize].color != color {
                return None;
            }
        }
        let mut nodes = Vec::with_capacity(tree.nodes.len());
        copy_subtree(&tree.nodes, at, &mut nodes);
        Some(Tree {
            nodes,
            own_sum: vec![0.0; POINTS],
            own_n: 0,
            margin_sum: 0.0,
            margin_sq: 0.0,
        })
    }

    /// Searches the position for `color` within `limits`. `poll` runs on
    /// the calling thread every few milliseconds; it may build the current
    /// analysis through the closure it gets, and returns true to stop.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        filter: &RootFilter,
        poll: &mut dyn FnMut(&dyn Fn() -> Analysis) -> bool,
    ) -> Analysis {
        let stop = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let root_board = game.board().clone();
        let mut tree = self.reuse(game, color).unwrap_or_else(|| Tree {
            nodes: vec![Node::new(Move::Pass, color.opp(), 0, 0.0, 1.0)],
            own_sum: vec![0.0; POINTS],
            own_n: 0,
            margin_sum: 0.0,
            margin_sq: 0.0,
        });
        // Root children: every legal move under the game's full rules.
        let root_moves = root_candidates(game, color, filter);
        // The moves before the root's last one and the last itself, for
        // the learned priors' distance features.
        let root_prev = recent_points(game);
        // A reused root keeps the children that the full rules and the
        // filter allow; if one is missing the root is expanded afresh.
        let kids: Vec<u32> = tree.nodes[0]
            .children
            .iter()
            .copied()
            .filter(|&c| root_moves.contains(&tree.nodes[c as usize].mv))
            .collect();
        if !tree.nodes[0].expanded || kids.len() != root_moves.len() {
            tree.nodes.truncate(1);
            tree.nodes[0].children.clear();
            expand(
                &mut tree.nodes,
                0,
                &root_board,
                color,
                &root_moves,
                root_prev[0],
                priors_for(&root_board),
            );
        } else {
            tree.nodes[0].children = kids;
        }
        let passes = trailing_passes(game);
        let threads = limits.threads.max(1);
        let seed = self.seed ^ (game.moves().len() as u64 * 0x9E37_79B9);
        // The search scores under the dynamic komi too; a tree kept from
        // the last move (scored under a slightly larger one, the extra
        // falls by a fraction of a point a move) is reused all the same.
        let komi = game.compensation() + limits.extra_komi;
        let run = Arc::new(Run {
            tree: Mutex::new(tree),
            root_board,
            color,
            komi,
            passes,
            widen: WIDENING.load(Ordering::Relaxed),
            root_prev,
            done: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            stop: stop.clone(),
            playouts: limits.playouts,
            time: limits.time,
            start,
        });
        // Threads 1.. are kept workers (`tengen_core::workers`: a thread
        // started per move would leave the allocator an arena per move);
        // thread 0 is this one, which also polls between iterations.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|t| {
                let run = run.clone();
                workers::run("go-search", move || {
                    let mut rng = Rng::new(seed.wrapping_add(t as u64 * 0x1234_5678_9ABC));
                    while !run.finished.load(Ordering::Relaxed) && !run.out_of_budget() {
                        run.iteration(&mut rng);
                    }
                    crate::reading::release_scratch();
                })
                .ok()
            })
            .collect();
        let mut rng = Rng::new(seed);
        let mut polled = Instant::now();
        while !run.out_of_budget() {
            run.iteration(&mut rng);
            if polled.elapsed() >= POLL {
                polled = Instant::now();
                let now = || {
                    let tree = lock(&run.tree);
                    analyse(
                        &tree,
                        &run.root_board,
                        komi,
                        run.done.load(Ordering::Relaxed),
                        start,
                    )
                };
                if poll(&now) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        run.finished.store(true, Ordering::Relaxed);
        crate::reading::release_scratch();
        for h in helpers {
            h.join();
        }
        let done = run.done.load(Ordering::Relaxed);
        // The helpers dropped their handles on the run before they
        // finished, so this is the only one left.
        let (tree, root_board) = match Arc::try_unwrap(run) {
            Ok(r) => (
                r.tree.into_inner().unwrap_or_else(|p| p.into_inner()),
                r.root_board,
            ),
            Err(r) => (std::mem::take(&mut *lock(&r.tree)), r.root_board.clone()),
        };
        let a = analyse(&tree, &root_board, komi, done, start);
        self.tree = Some((
            game.moves().to_vec(),
            (game.width(), game.height()),
            game.compensation().to_bits(),
            tree,
        ));
        a
    }
}

/// How often the searching thread hands the caller the analysis so far.
const POLL: Duration = Duration::from_millis(3);

/// One search's shared state: the tree and what bounds the search.
struct Run {
    tree: Mutex<Tree>,
    root_board: Board,
    color: Color,
    komi: f64,
    passes: u32,
    /// Progressive widening (`WIDENING` when the search started).
    widen: bool,
    /// The move before the root position's last one, and the last (points;
    /// `None` for a pass or nothing).
    root_prev: [Option<Point>; 2],
    done: AtomicU64,
    finished: AtomicBool,
    stop: Arc<AtomicBool>,
    playouts: Option<u64>,
    time: Option<Duration>,
    start: Instant,
}

impl Run {
    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .playouts
                .is_some_and(|n| self.done.load(Ordering::Relaxed) >= n)
            || self.time.is_some_and(|t| self.start.elapsed() >= t)
    }

    fn iteration(&self, rng: &mut Rng) {
        one_iteration(self, rng);
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}

fn lock(m: &Mutex<Tree>) -> std::sync::MutexGuard<'_, Tree> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn copy_subtree(src: &[Node], at: u32, out: &mut Vec<Node>) -> u32 {
    let idx = out.len() as u32;
    let mut n = src[at as usize].clone();
    n.children.clear();
    n.virtual_loss = 0;
    out.push(n);
    let kids: Vec<u32> = src[at as usize]
        .children
        .iter()
        .map(|&c| copy_subtree(src, c, out))
        .collect();
    out[idx as usize].children = kids;
    idx
}

/// The points of the game's second-to-last and last moves.
fn recent_points(game: &Game) -> [Option<Point>; 2] {
    let point = |k: usize| {
        let m = game.moves();
        m.len().checked_sub(k).and_then(|i| match m[i].mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        })
    };
    [point(2), point(1)]
}

fn trailing_passes(game: &Game) -> u32 {
    game.moves()
        .iter()
        .rev()
        .take(2)
        .take_while(|p| p.mv == Move::Pass)
        .count() as u32
}

/// Legal root moves (full rules, superko included), pass included unless
/// the filter forbids it.
fn root_candidates(game: &Game, color: Color, filter: &RootFilter) -> Vec<Move> {
    let b = game.board();
    let mut v: Vec<Move> = b
        .points()
        .filter(|_| !filter.pass_only)
        .filter(|p| filter.allow.is_empty() || filter.allow.contains(p))
        .filter(|p| !filter.avoid.contains(p))
        .filter(|&p| !b.is_eyeish(color, p))
        .filter(|&p| game.is_legal(color, Move::Play(p)))
        .map(Move::Play)
        .collect();
    // On big boards a first- or second-line move with no stone near it is
    // never worth its tempo, but the AMAF values of light playouts like
    // them; drop them at the root unless nothing else is left.
    if b.short_side() >= 13 && filter.allow.is_empty() {
        let kept: Vec<Move> = v
            .iter()
            .copied()
            .filter(|&m| match m {
                Move::Play(p) => !is_lonely_edge_move(b, p),
                Move::Pass => true,
            })
            .collect();
        if !kept.is_empty() {
            v = kept;
        }
    }
    if !filter.no_pass || v.is_empty() {
        v.push(Move::Pass);
    }
    v
}

/// A point on the first two lines with no stone within two points (a
/// 5x5 square around it).
fn is_lonely_edge_move(b: &Board, p: Point) -> bool {
    if b.edge_distance(p) > 1 {
        return false;
    }
    let (x0, x1) = (p.x().saturating_sub(2), (p.x() + 2).min(b.width() - 1));
    let (y0, y1) = (p.y().saturating_sub(2), (p.y() + 2).min(b.height() - 1));
    !(y0..=y1).any(|y| (x0..=x1).any(|x| b.cell(Point::from_xy(x, y)) != Cell::Empty))
}

/// The hand-made priors' win rate for `m`: their ranking of the moves,
/// the learned model's baseline in `examples/pattern_fit.rs`.
pub fn hand_prior(b: &Board, c: Color, m: Move) -> f64 {
    let (v, w, _) = prior_for(b, c, m);
    w / v as f64
}

/// Heuristic prior for a child: (virtual visits, virtual wins, weight).
fn prior_for(b: &Board, c: Color, m: Move) -> (u32, f64, f32) {
    let p = match m {
        Move::Pass => {
            // Passing early is rarely right; the tree will find out when it is.
            let filled = b.stone_count() as f64 / b.area_points() as f64;
            return if filled > 0.5 {
                (10, 5.0, 0.05)
            } else {
                (10, 1.0, 0.01)
            };
        }
        Move::Play(p) => p,
    };
    let mut score = 0.0f64;
    // Captures, atari escapes (ladder-aware) and ladder captures.
    let libs_here = b.libs_after(c, p, 3);
    let mut escape_checked = false;
    let mut ladder_checked = false;
    let mut opp_contacts = 0;
    for n in b.neighbors(p) {
        match b.cell(n).color() {
            Some(x) if x == c.opp() && b.in_atari(n) => {
                score += 3.0 + b.chain_size(n).min(5) as f64 * 0.5
            }
            Some(x) if x == c && b.in_atari(n) && !escape_checked => {
                escape_checked = true;
                if libs_here >= 3 {
                    score += 2.5;
                } else if libs_here == 2 {
                    if reading::escape_fails_fast(b, c, p, LADDER_STEPS) {
                        // Running into a working ladder only adds stones.
                        score -= 1.5;
                    } else {
                        score += 2.0;
                    }
                }
            }
            Some(x) if x == c.opp() => {
                opp_contacts += 1;
                if !ladder_checked && libs_here >= 2 && b.liberties(n).len() == 2 {
                    ladder_checked = true;
                    // An atari that starts a working ladder.
                    let mut b2 = b.clone();
                    b2.play(c, Move::Play(p));
                    if let Some(lib) = b2.atari_liberty(n) {
                        if reading::escape_fails_fast(&b2, c.opp(), lib, LADDER_STEPS) {
                            score += 2.0 + b.chain_size(n).min(6) as f64 * 0.3;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if is_bad_self_atari(b, c, p) {
        score -= 3.0;
    } else if libs_here == 2 && opp_contacts >= 2 {
        // A contact move left with two liberties that a ladder captures.
        let mut b2 = b.clone();
        b2.play(c, Move::Play(p));
        if b2.cell(p) != Cell::Empty && reading::ladder_follow(&b2, p, LADDER_STEPS) {
            score -= 1.5;
        }
    }
    if b.cell(p) == Cell::Empty && patterns::matches(b.ring_code(p)) {
        score += 1.0;
    }
    if let Some(Move::Play(last)) = b.last_move() {
        let d = last.x().abs_diff(p.x()) + last.y().abs_diff(p.y());
        if d <= 2 {
            score += 0.5;
        }
    }
    // Lines: first line is poor, third/fourth good on an emptyish board.
    let line = b.edge_distance(p);
    if b.short_side() >= 9 {
        let opening = b.stone_count() < b.area_points() / 4;
        if line == 0 {
            score -= 1.0;
        } else if line == 1 && opening {
            // Second-line moves on an open board are slow.
            score -= 0.5;
        } else if (line == 2 || line == 3) && opening {
            score += 0.5;
        }
    }
    let visits = 20u32;
    let winrate = (0.5 + score * 0.08).clamp(0.05, 0.95);
    (
        visits,
        winrate * visits as f64,
        (1.0 + score.max(-0.9)) as f32,
    )
}

/// Virtual visits of a learned prior.
const LEARNED_VISITS: u32 = 20;

/// Virtual AMAF visits of a learned prior at the same win rate (Gelly and
/// Silver 2007 start both values from the prior): without them the AMAF
/// value, weighted by its many early samples, drowns the prior within a
/// few dozen playouts. `TENGEN_GO_PRIOR_RAVE=n` overrides it (tuning).
fn learned_rave_visits() -> u32 {
    static N: OnceLock<u32> = OnceLock::new();
    *N.get_or_init(|| env_count("TENGEN_GO_PRIOR_RAVE", LEARNED_RAVE_VISITS))
}

const LEARNED_RAVE_VISITS: u32 = 20;

/// Virtual AMAF visits of a hand-made prior, at its win rate: the same
/// start as the learned priors get. 0 (the default until games show
/// otherwise) leaves AMAF to the playouts alone, and the hand priors then
/// count only in the real value, which AMAF outweighs early.
/// `TENGEN_GO_HAND_RAVE=n` sets it (tuning).
fn hand_rave_visits() -> u32 {
    static N: OnceLock<u32> = OnceLock::new();
    *N.get_or_init(|| env_count("TENGEN_GO_HAND_RAVE", HAND_RAVE_VISITS))
}

const HAND_RAVE_VISITS: u32 = 0;

/// A tuning count from the environment, `default` when unset or unreadable.
fn env_count(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The learned prior of a move whose strength is `gamma` among siblings
/// whose strongest has `best`: (virtual visits, virtual wins). The win
/// rate falls with the log of the strength ratio: 0.75 for the strongest,
/// 0.5 at a tenth of it, down to 0.1.
fn learned_prior(gamma: f64, best: f64) -> (u32, f64) {
    let r = if best > 0.0 { gamma / best } else { 1.0 };
    let wr = (0.75 + 0.11 * r.max(1e-9).ln()).clamp(0.1, 0.9);
    (LEARNED_VISITS, wr * LEARNED_VISITS as f64)
}

/// Virtual wins added to a learned prior in proportion to the square
/// root of the move's share of its siblings' strength (Pachi's pattern
/// prior: `sqrt(p) * 300` won playouts in the real value), on top of the
/// win-rate prior above. `BY_BOARD` (the default) means
/// `BIG_BOARD_BONUS` on boards of the big table's class and none below;
/// GTP `tengen-prior_bonus N` sets a count for the whole process (A/B
/// matches).
static PRIOR_BONUS: AtomicU32 = AtomicU32::new(BY_BOARD);
const BY_BOARD: u32 = u32::MAX;

/// The default bonus on 13x13 and up: 300, as Pachi's, screened on
/// 19x19 against none (docs/strength.md, "Session 42"). Smaller boards
/// keep none: not screened there, and 9x9 meets its target without.
const BIG_BOARD_BONUS: u32 = 300;

/// The prior bonus in use on a board whose short side is `size`.
pub fn prior_bonus(size: usize) -> u32 {
    match PRIOR_BONUS.load(Ordering::Relaxed) {
        BY_BOARD if size >= gammas::BIG_BOARD => BIG_BOARD_BONUS,
        BY_BOARD => 0,
        n => n,
    }
}

/// Sets the prior bonus for every board (`None`: back to the default).
pub fn set_prior_bonus(bonus: Option<u32>) {
    PRIOR_BONUS.store(
        bonus.map_or(BY_BOARD, |n| n.min(BY_BOARD - 1)),
        Ordering::Relaxed,
    );
}

/// GTP `tengen-widening on|off`: progressive widening (A/B matches);
/// off by default until games show it stronger.
pub static WIDENING: AtomicBool = AtomicBool::new(false);

/// Children a node of `visits` visits may select from under progressive
/// widening (Coulom 2007; Chaslot et al.'s "progressive unpruning"): the
/// two strongest by prior at first, one more each time `1 + visits/40`
/// grows by a factor of 1.4: 3 from about 16 visits, 4 at 40, 9 at 400, 15 at
/// 4,000, 22 at 40,000. A node reads its best-rated moves deeply before
/// the AMAF values of the others can pull the search towards them.
fn widening_count(visits: u32) -> usize {
    const START: usize = 2;
    const FIRST_VISITS: f64 = 40.0;
    const GROWTH: f64 = 1.4;
    START + ((1.0 + visits as f64 / FIRST_VISITS).ln() / GROWTH.ln()) as usize
}

/// How a node's children start.
#[derive(Clone, Copy)]
struct Priors<'a> {
    /// The learned move strengths; `None`: the hand-made priors.
    learned: Option<&'a gammas::Table>,
    /// `prior_bonus` when the node was expanded.
    bonus: u32,
    /// Children in order of prior, strongest first (progressive
    /// widening selects from the front of the list).
    sorted: bool,
}

/// The tree's priors for `b`: the learned table, or `None` for the
/// hand-made ones: those when asked for, or when no table is fitted for
/// this size (asked first: the table is parsed on first use, which
/// hand-made runs never pay; the root's expansion, before the search
/// threads start, pays it for learned runs).
fn priors_for(b: &Board) -> Priors<'static> {
    Priors {
        learned: gammas::learned_priors()
            .then(|| gammas::table(b.short_side()))
            .filter(|t| !t.is_empty()),
        bonus: prior_bonus(b.short_side()),
        sorted: WIDENING.load(Ordering::Relaxed),
    }
}

/// Expands node `at` (position `b`, `color` to move) with `moves`;
/// `prev2` is the point of the move before `b`'s last one.
fn expand(
    nodes: &mut Vec<Node>,
    at: usize,
    b: &Board,
    color: Color,
    moves: &[Move],
    prev2: Option<Point>,
    priors: Priors,
) {
    let mut kids = Vec::with_capacity(moves.len());
    let mut total = 0.0f32;
    let start = nodes.len();
    if let Some(table) = priors.learned {
        let g = table.gammas(b, color, moves, prev2);
        let best = g.iter().copied().fold(0.0f64, f64::max);
        // Only the bonus needs the siblings' total (none on 9x9 by default).
        let sum = if priors.bonus > 0 {
            strength_sum(moves, &g)
        } else {
            0.0
        };
        let rv = learned_rave_visits();
        // A table that rates a pass after a pass above 1 (the 19x19 one:
        // 1.35, and 995 when it was fitted on GNU Go's self-play, whose
        // games end that way; the 9x9 one rates it 0.34) is not trusted
        // on passes, which get the hand-made prior
        // instead (low until half the board is filled, even after). A
        // tree that trusts it, or merely starts a pass at an even win
        // rate, finds passing mid-game as good as a move in light
        // playouts: it passed five times in its first 19x19 game.
        let hand_pass = table.value(features::PASS, 1) > 1.0;
        for (&m, &gm) in moves.iter().zip(&g) {
            // The reported prior of a distrusted pass is a neutral
            // strength (1), not the table's, which would dwarf every move.
            let (v, w, pr) = if m == Move::Pass && hand_pass {
                let (v, w, _) = prior_for(b, color, m);
                (v, w, 1.0)
            } else {
                let (v, w) = learned_prior(gm, best);
                (v, w, gm as f32)
            };
            total += pr;
            kids.push(nodes.len() as u32);
            let mut node = Node::new(m, color, v, w, pr);
            node.seed_rave(rv);
            if priors.bonus > 0 && m != Move::Pass && sum > 0.0 {
                let k = priors.bonus as f64 * (gm / sum).sqrt();
                node.add_prior_wins(k.round() as u32);
            }
            nodes.push(node);
        }
    } else {
        let rv = hand_rave_visits();
        for &m in moves {
            let (v, w, pr) = prior_for(b, color, m);
            total += pr;
            kids.push(nodes.len() as u32);
            let mut node = Node::new(m, color, v, w, pr);
            node.seed_rave(rv);
            nodes.push(node);
        }
    }
    if total > 0.0 {
        for n in &mut nodes[start..] {
            n.prior /= total;
        }
    }
    if priors.sorted {
        // Stable: equal priors keep the moves' order.
        kids.sort_by(|&a, &b| nodes[b as usize].prior.total_cmp(&nodes[a as usize].prior));
    }
    nodes[at].children = kids;
    nodes[at].expanded = true;
}

/// The summed strengths `g` of `moves` other than a pass: what a move's
/// share in the prior bonus is taken of.
fn strength_sum(moves: &[Move], g: &[f64]) -> f64 {
    moves
        .iter()
        .zip(g)
        .filter(|(&m, _)| m != Move::Pass)
        .map(|(_, &x)| x)
        .sum()
}

/// Tree moves for a non-root node: reasonable points plus pass.
fn tree_moves(b: &Board, c: Color) -> Vec<Move> {
    let mut v: Vec<Move> = b
        .points()
        .filter(|&p| b.cell(p) == Cell::Empty && b.is_legal(c, Move::Play(p)) && !b.is_eyeish(c, p))
        .map(Move::Play)
        .collect();
    v.push(Move::Pass);
    v
}

/// The child to descend into; under progressive widening (`widen`, the
/// children sorted by prior) only the first `widening_count` compete.
fn select_child(nodes: &[Node], at: usize, widen: bool) -> usize {
    let parent = &nodes[at];
    let ln = ((parent.visits + parent.virtual_loss).max(1) as f64).ln();
    let mut best = usize::MAX;
    let mut best_v = f64::NEG_INFINITY;
    let open = if widen {
        widening_count(parent.visits)
    } else {
        usize::MAX
    };
    for &c in parent.children.iter().take(open) {
        let n = &nodes[c as usize];
        let visits = (n.visits + n.virtual_loss) as f64;
        let q = if visits > 0.0 { n.wins / visits } else { 0.5 };
        let v = if n.rave_visits > 0 {
            let rv = n.rave_visits as f64;
            let beta = rv / (rv + visits + visits * rv / RAVE_EQUIV);
            (1.0 - beta) * q + beta * (n.rave_wins / rv)
        } else {
            q
        };
        let explore = 0.15 * (ln / (visits + 1.0)).sqrt();
        let total = v + explore;
        if total > best_v {
            best_v = total;
            best = c as usize;
        }
    }
    best
}

/// One playout: selection down the tree, expansion, simulation, backup.
fn one_iteration(run: &Run, rng: &mut Rng) {
    let (shared, root_board, root_color) = (&run.tree, &run.root_board, run.color);
    let (komi, passes0, widen, root_prev) = (run.komi, run.passes, run.widen, run.root_prev);
    let mut board = root_board.clone();
    let mut path: Vec<usize> = vec![0];
    let mut to_move = root_color;
    let mut passes = passes0;
    // The move into each node of the path after the root (None: pass).
    let mut tree_moves_played: Vec<Option<(Point, Color)>> = Vec::new();
    // Selection, under the lock.
    let leaf_needs_expansion;
    {
        let mut tree = lock(shared);
        let mut at = 0usize;
        loop {
            let node = &tree.nodes[at];
            if !node.expanded || node.children.is_empty() || passes >= 2 {
                leaf_needs_expansion = !node.expanded && node.visits >= EXPAND_AT && passes < 2;
                break;
            }
            let c = select_child(&tree.nodes, at, widen);
            if c == usize::MAX {
                leaf_needs_expansion = false;
                break;
            }
            tree.nodes[c].virtual_loss += VIRTUAL_LOSS;
            let m = tree.nodes[c].mv;
            // A child chosen with a stale legality (simple ko differs by
            // path) is replaced by a pass for this iteration.
            let m = if board.is_legal(to_move, m) {
                m
            } else {
                Move::Pass
            };
            if let Move::Play(p) = m {
                tree_moves_played.push(Some((p, to_move)));
                passes = 0;
            } else {
                tree_moves_played.push(None);
                passes += 1;
            }
            board.play(to_move, m);
            to_move = to_move.opp();
            path.push(c);
            at = c;
        }
    }
    // Expansion outside the lock, inserted if nobody did it meanwhile.
    if leaf_needs_expansion {
        let moves = tree_moves(&board, to_move);
        let leaf = *path.last().unwrap_or(&0);
        // The move before the leaf's last one: in the tree, or the root's.
        let d = tree_moves_played.len();
        let prev2 = match d {
            0 => root_prev[0],
            1 => root_prev[1],
            _ => tree_moves_played[d - 2].map(|(p, _)| p),
        };
        let priors = priors_for(&board);
        let mut tree = lock(shared);
        if !tree.nodes[leaf].expanded && tree.nodes.len() < MAX_NODES {
            expand(
                &mut tree.nodes,
                leaf,
                &board,
                to_move,
                &moves,
                prev2,
                priors,
            );
        }
    }
    // Simulation.
    let (margin, first_play, owner) = if passes >= 2 {
        let a = board.area();
        (a[0] as f64 - a[1] as f64, vec![0u8; POINTS], Vec::new())
    } else {
        let out = playout::playout(&mut board, to_move, rng, passes);
        (out.black_margin, out.first_play, out.owner)
    };
    let black_margin = margin - komi;
    // Black's result: 1 win, 0 loss; a jigo is worth `JIGO` to the side
    // to move at the root, so the search prefers a win to a safe jigo
    // (integer komi on 9x9).
    let black_result = if black_margin > 0.0 {
        1.0
    } else if black_margin < 0.0 {
        0.0
    } else if root_color == Color::Black {
        JIGO
    } else {
        1.0 - JIGO
    };
    // Backup from the leaf up. The AMAF map of a node holds the moves
    // played from that node on: the playout's, then the tree moves below
    // it, each point keeping the colour that played it first.
    let mut amaf = first_play;
    let mut tree = lock(shared);
    for depth in (0..path.len()).rev() {
        let n = path[depth];
        {
            let node = &mut tree.nodes[n];
            if depth > 0 {
                node.virtual_loss = node.virtual_loss.saturating_sub(VIRTUAL_LOSS);
            }
            node.visits += 1;
            node.wins += result_for(node.color, black_result);
        }
        for k in 0..tree.nodes[n].children.len() {
            let c = tree.nodes[n].children[k] as usize;
            let child = &mut tree.nodes[c];
            if let Move::Play(p) = child.mv {
                if amaf[p.index()] == 1 + child.color.index() as u8 {
                    child.rave_visits += 1;
                    child.rave_wins += result_for(child.color, black_result);
                }
            }
        }
        if depth > 0 {
            if let Some((p, c)) = tree_moves_played[depth - 1] {
                amaf[p.index()] = 1 + c.index() as u8;
            }
        }
    }
    if !owner.is_empty() {
        for (i, &o) in owner.iter().enumerate() {
            match o {
                1 => tree.own_sum[i] += 1.0,
                2 => tree.own_sum[i] -= 1.0,
                _ => {}
            }
        }
        tree.own_n += 1;
        tree.margin_sum += black_margin;
        tree.margin_sq += black_margin * black_margin;
    }
}

/// A playout's result for the player `c` given Black's.
fn result_for(c: Color, black_result: f64) -> f64 {
    if c == Color::Black {
        black_result
    } else {
        1.0 - black_result
    }
}

fn principal_variation(nodes: &[Node], from: usize) -> Vec<Move> {
    let mut pv = vec![nodes[from].mv];
    let mut at = from;
    while pv.len() < 12 {
        let best = nodes[at]
            .children
            .iter()
            .copied()
            .filter(|&c| nodes[c as usize].rave_visits > 0 || nodes[c as usize].visits > 20)
            .max_by_key(|&c| nodes[c as usize].visits);
        match best {
            Some(c) if nodes[c as usize].visits > 25 => {
                pv.push(nodes[c as usize].mv);
                at = c as usize;
            }
            _ => break,
        }
    }
    pv
}

fn analyse(tree: &Tree, board: &Board, komi: f64, playouts: u64, start: Instant) -> Analysis {
    let nodes = &tree.nodes;
    let root = &nodes[0];
    let mut candidates: Vec<Candidate> = root
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            let (v, w) = (n.prior_visits, n.prior_wins);
            // Real visits only: the prior's virtual visits are not evidence.
            let real = n.visits.saturating_sub(v);
            let wr = if real > 0 {
                (n.wins - w) / real as f64
            } else {
                n.value()
            };
            let wr = wr.clamp(0.0, 1.0);
            let lcb = if real > 0 {
                (wr - 1.96 * (wr * (1.0 - wr) / real as f64).sqrt()).max(0.0)
            } else {
                0.0
            };
            Candidate {
                mv: n.mv,
                visits: real,
                winrate: wr,
                prior: n.prior as f64,
                lcb,
                pv: principal_variation(nodes, c as usize),
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let own_n = tree.own_n.max(1) as f64;
    let ownership = board
        .points()
        .map(|p| tree.own_sum[p.index()] / own_n)
        .collect::<Vec<_>>();
    debug_assert_eq!(ownership.len(), board.area_points());
    let mean = tree.margin_sum / own_n;
    let var = (tree.margin_sq / own_n - mean * mean).max(0.0);
    let winrate = candidates.first().map(|c| c.winrate).unwrap_or(0.5);
    let _ = komi;
    Analysis {
        candidates,
        playouts,
        winrate,
        score_mean: mean,
        score_stdev: var.sqrt(),
        ownership,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::move_name;

    fn play(g: &mut Game, c: Color, v: &str) {
        let m = g.parse_move(v).unwrap_or(Move::Pass);
        assert!(g.play(c, m).is_ok(), "{v}");
    }

    #[test]
    fn a_pass_gets_the_hand_prior_under_learned_priors() {
        // A table that rates a pass after a pass far above any move (the
        // 19x19 table fitted on GNU Go's self-play did): the tree must not
        // start that pass as a likely win (the first 19x19 game against
        // GNU Go passed mid-game five times). The embedded table's values
        // with that pass strength put back (a later line replaces).
        let text = format!("{}\npass 1 994.85\n", include_str!("tables/gammas19.txt"));
        let table = gammas::Table::parse(&text);
        let mut b = Board::new(19);
        for (c, v) in [
            (Color::Black, "D4"),
            (Color::White, "Q16"),
            (Color::Black, "pass"),
        ] {
            b.play(c, b.parse_move(v).unwrap_or(Move::Pass));
        }
        let moves = tree_moves(&b, Color::White);
        let g = table.gammas(&b, Color::White, &moves, None);
        let (pass_gamma, best_move) =
            moves
                .iter()
                .zip(&g)
                .fold((0.0, 0.0f64), |(p, m), (&mv, &x)| {
                    if mv == Move::Pass {
                        (x, m)
                    } else {
                        (p, m.max(x))
                    }
                });
        assert!(
            pass_gamma > best_move,
            "the table still rates the pass highly: {pass_gamma} {best_move}"
        );
        let mut nodes = vec![Node::new(Move::Pass, Color::Black, 0, 0.0, 1.0)];
        let priors = Priors {
            learned: Some(&table),
            bonus: 0,
            sorted: false,
        };
        expand(&mut nodes, 0, &b, Color::White, &moves, None, priors);
        let pass = nodes[1..]
            .iter()
            .find(|n| n.mv == Move::Pass)
            .map(|n| n.prior_wins / n.prior_visits as f64);
        let (v, w, _) = prior_for(&b, Color::White, Move::Pass);
        assert_eq!(pass, Some(w / v as f64));
        assert!(pass.is_some_and(|wr| wr <= 0.1 + 1e-9), "{pass:?}");
        // Nor does its reported prior outweigh the moves'.
        let prior = |mv: Move| {
            nodes[1..]
                .iter()
                .find(|n| n.mv == mv)
                .map_or(0.0, |n| n.prior)
        };
        let top = nodes[1..].iter().map(|n| n.prior).fold(0.0f32, f32::max);
        assert!(prior(Move::Pass) < top, "{} {top}", prior(Move::Pass));
        // The 9x9 table rates that pass below 1 and keeps its learned prior.
        gammas::set_learned_priors(true);
        let mut b = Board::new(9);
        for (c, v) in [(Color::Black, "E5"), (Color::White, "pass")] {
            b.play(c, b.parse_move(v).unwrap_or(Move::Pass));
        }
        assert!(gammas::table(9).value(features::PASS, 1) < 1.0);
        let moves = tree_moves(&b, Color::Black);
        let g = gammas::table(9).gammas(&b, Color::Black, &moves, None);
        let best = g.iter().copied().fold(0.0f64, f64::max);
        let mut nodes = vec![Node::new(Move::Pass, Color::White, 0, 0.0, 1.0)];
        expand(
            &mut nodes,
            0,
            &b,
            Color::Black,
            &moves,
            None,
            Priors {
                bonus: 0,
                ..priors_for(&b)
            },
        );
        let (k, node) = nodes[1..]
            .iter()
            .enumerate()
            .find(|(_, n)| n.mv == Move::Pass)
            .expect("pass is a tree move");
        assert_eq!(
            (node.prior_visits, node.prior_wins),
            learned_prior(g[k], best)
        );
    }

    #[test]
    fn the_prior_bonus_adds_wins_by_the_root_of_the_share() {
        let table = gammas::table(19);
        let mut b = Board::new(19);
        b.play(Color::Black, b.parse_move("Q16").unwrap_or(Move::Pass));
        let moves = tree_moves(&b, Color::White);
        let g = table.gammas(&b, Color::White, &moves, None);
        let sum = strength_sum(&moves, &g);
        let grown = |bonus: u32| {
            let mut nodes = vec![Node::new(Move::Pass, Color::Black, 0, 0.0, 1.0)];
            let priors = Priors {
                learned: Some(table),
                bonus,
                sorted: false,
            };
            expand(&mut nodes, 0, &b, Color::White, &moves, None, priors);
            nodes
        };
        let (plain, boosted) = (grown(0), grown(300));
        let mut added = 0;
        for (k, (p, q)) in plain[1..].iter().zip(&boosted[1..]).enumerate() {
            assert_eq!(p.mv, moves[k]);
            let extra = if p.mv == Move::Pass {
                0
            } else {
                (300.0 * (g[k] / sum).sqrt()).round() as u32
            };
            assert_eq!(q.prior_visits, p.prior_visits + extra, "{:?}", p.mv);
            assert_eq!(q.visits, q.prior_visits);
            assert!((q.prior_wins - p.prior_wins - extra as f64).abs() < 1e-9);
            // AMAF starts from the plain prior either way.
            assert_eq!((q.rave_visits, q.rave_wins), (p.rave_visits, p.rave_wins));
            added += extra;
        }
        // The shares sum to 1, so the roots sum to at least 1: at least
        // 300 wins are added, most to the strongest moves.
        assert!(added >= 290, "{added}");
        let strongest = (1..boosted.len())
            .max_by(|&i, &j| g[i - 1].total_cmp(&g[j - 1]))
            .unwrap_or(1);
        let rate = |n: &Node| n.prior_wins / n.prior_visits as f64;
        assert!(rate(&boosted[strongest]) > rate(&plain[strongest]));
    }

    #[test]
    fn the_prior_bonus_defaults_by_board_class() {
        // No test sets it (it is process-wide): the default is in force.
        assert_eq!(prior_bonus(19), BIG_BOARD_BONUS);
        assert_eq!(prior_bonus(gammas::BIG_BOARD), BIG_BOARD_BONUS);
        assert_eq!(prior_bonus(9), 0);
    }

    #[test]
    fn seeded_amaf_starts_at_the_prior_win_rate() {
        let mut n = Node::new(Move::Pass, Color::Black, 20, 15.0, 1.0);
        n.seed_rave(10);
        assert_eq!(n.rave_visits, 10);
        assert!((n.rave_wins - 7.5).abs() < 1e-12);
        n.seed_rave(0);
        assert_eq!((n.rave_visits, n.rave_wins), (0, 0.0));
    }

    #[test]
    fn finds_the_centre_on_3x3() {
        // 3x3 Go is solved: the centre wins the whole board for Black, the
        // only result that beats a komi of 8.5.
        for threads in [1, 2] {
            let g = Game::new(3, 8.5);
            let mut s = Searcher::new(threads as u64);
            let limits = Limits {
                playouts: Some(4000),
                time: None,
                threads,
                extra_komi: 0.0,
            };
            let a = s.search(
                &g,
                Color::Black,
                &limits,
                &RootFilter::default(),
                &mut |_| false,
            );
            assert_eq!(move_name(a.candidates[0].mv), "B2");
            assert!(a.winrate > 0.8, "{}", a.winrate);
            assert!(a.playouts >= 4000);
        }
    }

    /// One thread's search of `playouts` playouts for `c`, from a fresh
    /// searcher seeded `seed`, with `extra_komi` for White.
    fn search_alone(g: &Game, c: Color, playouts: u64, seed: u64, extra_komi: f64) -> Analysis {
        let limits = Limits {
            playouts: Some(playouts),
            time: None,
            threads: 1,
            extra_komi,
        };
        Searcher::new(seed).search(g, c, &limits, &RootFilter::default(), &mut |_| false)
    }

    #[test]
    fn the_search_scores_under_the_extra_komi() {
        // 3x3 with komi 8.5: Black's centre takes all 9 points and wins.
        // One point of extra komi makes 9.5, which no result beats.
        let a = search_alone(&Game::new(3, 8.5), Color::Black, 4000, 5, 1.0);
        assert!(a.winrate < 0.2, "{}", a.winrate);
        // Margins count the extra komi: never above 9 - 9.5.
        assert!(a.score_mean <= -0.5 + 1e-9, "{}", a.score_mean);
    }

    #[test]
    fn widening_opens_children_by_prior_as_visits_grow() {
        let counts: Vec<usize> = [0, 15, 17, 40, 400, 4000, 40_000]
            .iter()
            .map(|&n| widening_count(n))
            .collect();
        assert_eq!(counts, [2, 2, 3, 4, 9, 15, 22]);
        assert!((0..100_000)
            .step_by(97)
            .all(|n| widening_count(n) <= widening_count(n + 97)));
        // A 9x9 position expanded with sorted children: priors fall along
        // the list, and with widening the selection stays in front even
        // when a later child looks best.
        gammas::set_learned_priors(true);
        let mut b = Board::new(9);
        b.play(Color::Black, b.parse_move("E5").unwrap_or(Move::Pass));
        let moves = tree_moves(&b, Color::White);
        let mut nodes = vec![Node::new(Move::Pass, Color::Black, 0, 0.0, 1.0)];
        let priors = Priors {
            learned: Some(gammas::table(9)),
            bonus: 0,
            sorted: true,
        };
        expand(&mut nodes, 0, &b, Color::White, &moves, None, priors);
        let kids = nodes[0].children.clone();
        assert_eq!(kids.len(), moves.len());
        let priors: Vec<f32> = kids.iter().map(|&k| nodes[k as usize].prior).collect();
        assert!(priors.windows(2).all(|w| w[0] >= w[1]), "{priors:?}");
        let last = *kids.last().unwrap_or(&0) as usize;
        for &k in &kids {
            let n = &mut nodes[k as usize];
            (n.visits, n.wins, n.rave_visits, n.rave_wins) = (10, 2.0, 0, 0.0);
        }
        nodes[last].wins = 9.0;
        nodes[0].visits = 10 * kids.len() as u32;
        assert_eq!(select_child(&nodes, 0, false), last);
        let open = widening_count(nodes[0].visits);
        let picked = select_child(&nodes, 0, true);
        assert!(kids[..open].contains(&(picked as u32)), "{picked} {open}");
    }

    #[test]
    fn dynamic_komi_falls_linearly_to_nothing() {
        // No test switches it on (it is process-wide): off by default, and
        // never for White.
        assert!(!dynamic_komi_on());
        assert_eq!(dynamic_komi(4, 0, 361, Color::Black), 0.0);
        assert_eq!(dynamic_komi(4, 0, 361, Color::White), 0.0);
        let k = linear_dynamic_komi;
        assert_eq!(k(4, 0, 361), 28.0);
        assert!((k(4, 100, 361) - 14.0).abs() < 1e-9);
        assert!((k(3, 150, 361) - 5.25).abs() < 1e-9);
        assert_eq!(k(4, 200, 361), 0.0);
        assert_eq!(k(4, 350, 361), 0.0);
        // Even games and a single stone (no komi, Black first) get none.
        assert_eq!(k(0, 0, 361), 0.0);
        assert_eq!(k(1, 0, 361), 0.0);
        // Smaller boards: the same stones' worth over fewer moves.
        assert_eq!(k(2, 0, 81), 14.0);
        let span = 200.0 * 81.0 / 361.0;
        assert!((k(2, 22, 81) - 14.0 * (1.0 - 22.0 / span)).abs() < 1e-9);
        assert_eq!(k(2, 45, 81), 0.0);
    }

    #[test]
    fn captures_when_the_game_hangs_on_it() {
        // 5x5: White's two stones B3 C3 are in atari at D3; Black's wall
        // would be cut if they escaped.
        let mut g = Game::new(5, 0.5);
        for v in ["B3", "C3"] {
            play(&mut g, Color::White, v);
        }
        for v in ["A3", "B2", "C2", "B4", "C4"] {
            play(&mut g, Color::Black, v);
        }
        play(&mut g, Color::White, "D2");
        play(&mut g, Color::White, "D4");
        let a = search_alone(&g, Color::Black, 5000, 9, 0.0);
        assert_eq!(move_name(a.candidates[0].mv), "D3");
    }

    #[test]
    fn no_lonely_edge_moves_at_the_root_on_big_boards() {
        let line = |m: Move, n: usize| match m {
            Move::Play(p) => p.x().min(p.y()).min(n - 1 - p.x()).min(n - 1 - p.y()),
            Move::Pass => usize::MAX,
        };
        let mut g = Game::new(19, 7.5);
        let v = root_candidates(&g, Color::Black, &RootFilter::default());
        assert!(v.iter().all(|&m| line(m, 19) >= 2));
        assert_eq!(v.len(), 15 * 15 + 1);
        // Next to a stone the second line is open again (a 3-3 invasion
        // must be answered there), and 9x9 is left alone.
        play(&mut g, Color::White, "C3");
        let v = root_candidates(&g, Color::Black, &RootFilter::default());
        assert!(v.contains(&Move::Play(Point::from_xy(3, 1))), "D2");
        assert!(!v.contains(&Move::Play(Point::from_xy(10, 1))), "L2");
        let g = Game::new(9, 7.0);
        let v = root_candidates(&g, Color::Black, &RootFilter::default());
        assert_eq!(v.len(), 82);
    }

    #[test]
    fn tree_is_reused_after_two_moves() {
        let mut g = Game::new(7, 7.5);
        let mut s = Searcher::new(3);
        let limits = Limits {
            playouts: Some(2000),
            time: None,
            threads: 1,
            extra_komi: 0.0,
        };
        let a = s.search(
            &g,
            Color::Black,
            &limits,
            &RootFilter::default(),
            &mut |_| false,
        );
        let best = a.candidates[0].mv;
        let reply = a.candidates[0].pv.get(1).copied();
        assert!(g.play(Color::Black, best).is_ok());
        if let Some(r) = reply {
            assert!(g.play(Color::White, r).is_ok());
            let kept = s
                .reuse(&g, Color::Black)
                .map(|t| t.nodes[0].visits)
                .unwrap_or(0);
            assert!(kept > 0, "the subtree after {best:?} {r:?} was kept");
        }
    }

    #[test]
    fn searches_rectangular_boards() {
        // A few moves each way on 13x9 and 9x13: every candidate is a
        // legal point of the board, and the ownership map has one value
        // per point.
        for (w, h) in [(13usize, 9usize), (9, 13), (19, 5)] {
            let mut g = Game::new_rect(w, h, 7.5);
            let mut s = Searcher::new(5);
            let limits = Limits {
                playouts: Some(300),
                time: None,
                threads: 1,
                extra_komi: 0.0,
            };
            let mut c = Color::Black;
            for _ in 0..6 {
                let a = s.search(&g, c, &limits, &RootFilter::default(), &mut |_| false);
                assert_eq!(a.ownership.len(), w * h);
                for k in &a.candidates {
                    if let Move::Play(p) = k.mv {
                        assert!(g.board().on_board(p), "{w}x{h}: {}", move_name(k.mv));
                        assert!(g.is_legal(c, k.mv));
                    }
                }
                let best = a.candidates.first().map_or(Move::Pass, |k| k.mv);
                assert!(g.play(c, best).is_ok(), "{w}x{h}: {}", move_name(best));
                c = c.opp();
            }
        }
    }
}
