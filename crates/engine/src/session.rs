//! A game session for the alpha-beta games (chess, xiangqi, shogi): the
//! searcher, the thread a search runs on, and the signals that stop it.
//!
//! The front-end's reader loop stays free while a search runs: `go`
//! returns at once, `stop`/`ponderhit` flip atomics, and the search thread
//! prints its own final reply through the `on_done` callback, so exactly
//! one terminal reply follows every `go`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;
use tengen_core::report::Event;
use tengen_core::timeman::GameTime;
use tengen_core::TranspositionTable;
use tengen_core::{SearchLimits, Signals};
use tengen_search::{Evaluator, Position, Probe, SearchResult, Searcher};

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Notation and rule switches a front-end passes to its game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// Chess960 castling notation (king takes rook) and FEN castling.
    pub chess960: bool,
    /// Set by the UCI front-end: xiangqi moves with ranks 1-10 (`h3e3`)
    /// as UCI GUIs write them, instead of ICCS ranks 0-9 (`h2e2`).
    pub uci_ranks: bool,
}

/// What a front-end needs from an alpha-beta game beyond [`Position`]:
/// reading and writing positions and moves in the protocol's notation.
pub trait AbGame: Send + 'static {
    type Pos: Position;
    type Eval: Evaluator<Self::Pos> + Default;
    /// The game's time parameters (increment horizon, default margin).
    const TIME: GameTime;

    fn startpos() -> Self::Pos;
    /// Parses a FEN/SFEN, naming what is wrong on failure.
    fn from_fen(fen: &str, flags: Flags) -> Result<Self::Pos, String>;
    /// Parses a move, accepting it only when legal.
    fn parse_move(
        pos: &Self::Pos,
        text: &str,
        flags: Flags,
    ) -> Result<<Self::Pos as Position>::Move, String>;
    fn move_name(pos: &Self::Pos, m: <Self::Pos as Position>::Move, flags: Flags) -> String;
    /// Move counts per root move at `depth` (for `go perft`).
    fn divide(pos: &mut Self::Pos, depth: u32) -> Vec<(<Self::Pos as Position>::Move, u64)>;
    /// Plies played since the game started (for time management).
    fn game_ply(pos: &Self::Pos) -> u32;
    /// Whether the first player (White, Red, Sente) is to move: UCI's
    /// `wtime` and USI's `btime` name that player's clock.
    fn first_player_to_move(pos: &Self::Pos) -> bool;

    /// The position of a `position` command: the start position or `fen`,
    /// then `moves`, every step checked.
    fn position(fen: Option<&str>, moves: &[String], flags: Flags) -> Result<Self::Pos, String> {
        let mut pos = match fen {
            None => Self::startpos(),
            Some(fen) => Self::from_fen(fen, flags).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
        };
        for (i, text) in moves.iter().enumerate() {
            let m = Self::parse_move(&pos, text, flags)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            pos.make(m);
        }
        Ok(pos)
    }

    /// Sets the number of plies without capture that draws (UCCI's
    /// `drawmoves`); games without such a rule ignore it.
    fn set_move_limit(_pos: &mut Self::Pos, _plies: u32) {}

    /// Loads a network file for this game's evaluation (`EvalFile`):
    /// the line to show, or why the file was refused while the
    /// evaluation stays as it was.
    fn load_eval_file(_path: &str) -> Result<String, String> {
        Err("this game has no learned evaluation".into())
    }

    /// Whether the side to move may declare a win now (shogi's
    /// entering-king rule, USI `bestmove win`).
    fn can_declare_win(_pos: &Self::Pos) -> bool {
        false
    }

    /// A mate search (USI `go mate`) within `time`, ended early when
    /// `stop` is set, with a table of `entries`: the answer and the nodes
    /// searched. `None`: this game has no mate solver.
    fn solve_mate(
        _pos: &Self::Pos,
        _time: Option<std::time::Duration>,
        _stop: &AtomicBool,
        _entries: usize,
    ) -> Option<(Tsume<Move<Self>>, u64)> {
        None
    }
}

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tsume<M> {
    /// A mating line, the attacker's move first.
    Mate(Vec<M>),
    /// No mate exists.
    NoMate,
    /// The time ran out (or a stop came) first.
    Timeout,
}

type Move<G> = <<G as AbGame>::Pos as Position>::Move;

pub struct Session<G: AbGame> {
    searcher: Arc<Mutex<Searcher<G::Pos, G::Eval>>>,
    signals: Signals,
    started: Instant,
    worker: Option<JoinHandle<()>>,
    /// True from `go` until just before the final reply is printed, so a
    /// command that follows the reply never sees the search as running.
    busy: Arc<AtomicBool>,
    /// Set by [`Session::abandon`]: the running job ends without its
    /// reply (USI `gameover`: the game is over, no move is wanted).
    silenced: Arc<AtomicBool>,
    /// The searcher's table as the running job started with it, read by
    /// [`Session::probe`] while the job holds the searcher.
    table: Option<Arc<TranspositionTable>>,
}

impl<G: AbGame> Session<G> {
    pub fn new(hash_mb: usize) -> Self {
        Session {
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mb))),
            signals: Signals::new(),
            started: Instant::now(),
            worker: None,
            busy: Arc::new(AtomicBool::new(false)),
            silenced: Arc::new(AtomicBool::new(false)),
            table: None,
        }
    }

    /// True while a search has not yet handed over its final reply.
    pub fn searching(&self) -> bool {
        self.busy.load(Ordering::Acquire)
    }

    /// Runs `f` on the searcher once no search is running (option changes
    /// wait for the current search rather than racing it).
    pub fn with_searcher<R>(&mut self, f: impl FnOnce(&mut Searcher<G::Pos, G::Eval>) -> R) -> R {
        self.wait();
        f(&mut lock(&self.searcher))
    }

    /// What the transposition table knows about `pos` (UCCI `probe`),
    /// answered at once, during a search too.
    pub fn probe(&self, pos: &G::Pos) -> Option<Probe<Move<G>>> {
        if let Ok(s) = self.searcher.try_lock() {
            return s.probe(pos);
        }
        let table = self.table.as_ref()?;
        Searcher::<G::Pos, G::Eval>::probe_table(table, pos)
    }

    /// Starts a search on its own thread. A search still running is
    /// stopped and finished first (its reply printed), never overlapped.
    pub fn go(
        &mut self,
        root: G::Pos,
        limits: SearchLimits,
        root_moves: Vec<Move<G>>,
        mut on_event: impl FnMut(Event<Move<G>>) + Send + 'static,
        on_done: impl FnOnce(SearchResult<Move<G>>) + Send + 'static,
    ) {
        let ponder = limits.ponder;
        self.job(
            64 << 20,
            ponder,
            move |s, signals| {
                let eval = G::Eval::default();
                let only = (!root_moves.is_empty()).then_some(root_moves.as_slice());
                s.search(&root, &eval, &limits, signals, only, &mut on_event)
            },
            on_done,
        );
    }

    /// Runs any job on the search thread (USI `go mate`, a tsume solve)
    /// under the same rules as a search: one at a time, ended by
    /// [`Session::stop`] through the job's [`Signals`], its reply printed
    /// by `on_done` unless [`Session::abandon`]ed. `stack` is the thread's
    /// stack size; `ponder` starts the job in ponder mode.
    pub fn job<R: Send + 'static>(
        &mut self,
        stack: usize,
        ponder: bool,
        work: impl FnOnce(&mut Searcher<G::Pos, G::Eval>, &Signals) -> R + Send + 'static,
        on_done: impl FnOnce(R) + Send + 'static,
    ) {
        self.stop();
        self.wait();
        self.signals = Signals::new();
        self.signals.set_pondering(ponder);
        self.started = Instant::now();
        let signals = self.signals.clone();
        let searcher = Arc::clone(&self.searcher);
        self.table = Some(lock(&searcher).table());
        let busy = Arc::clone(&self.busy);
        busy.store(true, Ordering::Release);
        self.silenced = Arc::new(AtomicBool::new(false));
        let silenced = Arc::clone(&self.silenced);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(stack)
            .spawn(move || {
                let mut s = lock(&searcher);
                let result = work(&mut s, &signals);
                drop(s);
                busy.store(false, Ordering::Release);
                if !silenced.load(Ordering::Acquire) {
                    on_done(result);
                }
            });
        match spawned {
            Ok(handle) => self.worker = Some(handle),
            Err(e) => {
                self.busy.store(false, Ordering::Release);
                eprintln!("tengen: cannot start a search thread: {e}");
            }
        }
    }

    pub fn stop(&self) {
        self.signals.stop();
    }

    /// Stops the running job, if any, and waits for it without printing
    /// its final reply.
    pub fn abandon(&mut self) {
        self.silenced.store(true, Ordering::Release);
        self.signals.stop();
        self.wait();
    }

    /// The opponent played the predicted move: the ponder search goes on
    /// as a normal one, its clock starting now.
    pub fn ponderhit(&self) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.signals.ponderhit(ms);
    }

    pub fn pondering(&self) -> bool {
        self.searching() && self.signals.pondering()
    }

    /// Blocks until the current search (if any) has printed its reply.
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}
