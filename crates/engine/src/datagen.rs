//! `tengen datagen`: self-play games at a fixed node count, written as
//! training data for a network (format: `tengen_nnue::data`).
//!
//! Each game starts from a few random plies played from the start
//! position (redrawn while the side to move is more than
//! [`OPENING_MARGIN`] ahead or behind by a search), then both sides play
//! the searcher's best move at `--nodes` nodes with the game's
//! evaluation: the hand-made one, or the network `--eval-file` loaded
//! (shogi: its built-in network unless `--eval-file` says otherwise).
//! Every position is kept except those in check, those whose best move
//! is a capture or a promotion, and those with a mate score; when the
//! game ends (shogi: also by an entering-king declaration) each kept
//! position gets its result.
//!
//! With `--engine`, an outside engine (UCI; USI for shogi) plays and
//! scores instead, one process per thread: it is told the position after
//! the opening and the moves since (so it sees repetitions), searches
//! `--nodes` nodes a move and starts every game and opening with
//! `ucinewgame`/`usinewgame`, so a single-threaded engine plays the same
//! game again for the same index. Its move must be legal here, or the run
//! stops with the move named.
//!
//! Game `i` of a run depends only on the seed and `i`, so a run is
//! reproducible, and resumable: every thread appends finished games to
//! its own shard `DIR/<game>-<thread>.bin` and then logs
//! `<game index> <shard length>` to `DIR/<game>-<thread>.log`. On start,
//! every shard is cut back to the length its log last vouched for (what a
//! killed run wrote after that is dropped), the logged games are skipped,
//! and the rest are played. `DIR/run.txt` holds the settings a run was
//! started with; another seed, node count or opening length in the same
//! directory is refused.

use crate::games::Game;
use clap::Args;
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tengen_core::splitmix::{self, SplitMix64};
use tengen_core::{SearchLimits, Signals};
use tengen_nnue::data::{self, Layout, Sample, Wdl, HEADER_SIZE};
use tengen_search::{Evaluator, Position, Searcher};
use tengen_train::relabel::{Engine, Score};

#[derive(Args, Clone, Debug)]
pub struct DatagenArgs {
    /// chess, xiangqi or shogi.
    #[arg(long)]
    pub game: Game,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games in the whole run (a resumed run plays the ones missing).
    #[arg(long)]
    pub games: u64,
    /// Directory for the shards, logs and `run.txt`.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each game (this many, or one more).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Hash per thread, MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// An outside engine that plays and scores the games instead of
    /// tengen's search, at `--nodes` nodes a move: UCI for chess and
    /// xiangqi (Fairy-Stockfish with `UCI_Variant=xiangqi`), USI for
    /// shogi. One process per thread.
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// An option for `--engine`, `Name=Value` (may be repeated).
    #[arg(long = "engine-option")]
    pub engine_options: Vec<String>,
}

/// Openings where a search finds one side this far ahead are redrawn.
const OPENING_MARGIN: i32 = 300;
/// A side this far ahead (both sides agreeing) for [`WIN_PLIES`] plies in
/// a row wins by adjudication.
const WIN_SCORE: i32 = 1500;
const WIN_PLIES: u32 = 6;
/// After [`DRAW_AFTER`] plies, scores within ±[`DRAW_SCORE`] for
/// [`DRAW_PLIES`] plies in a row are a draw by adjudication.
const DRAW_AFTER: u32 = 100;
const DRAW_SCORE: i32 = 15;
const DRAW_PLIES: u32 = 12;
/// Games this long are drawn.
const MAX_PLIES: u32 = 600;

/// What datagen needs from a game beyond the searcher's view.
pub trait DataGame: Position {
    type Eval: Evaluator<Self> + Default;
    const LAYOUT: Layout;
    /// The network `--eval-file` loaded for this game, if any (then it
    /// plays and labels instead of the hand-made evaluation).
    fn network() -> Option<std::sync::Arc<tengen_nnue::network::Network>>;
    fn start() -> Self;
    fn legal(&self) -> Vec<Self::Move>;
    fn play(&mut self, m: Self::Move);
    /// `None` while the game goes on; `Some(None)` a draw;
    /// `Some(Some(true))` a win of the first player (White, Red).
    fn ending(&self) -> Option<Option<bool>>;
    fn second_to_move(&self) -> bool;
    /// The position as a sample (score, result left for the caller).
    fn sample(&self, best: Self::Move) -> Sample;
    /// Whether an outside engine for this game speaks USI (else UCI).
    const USI: bool = false;
    /// The position as an outside engine reads it (FEN; SFEN in shogi).
    fn fen(&self) -> String;
    /// An outside engine's move, if it is legal here.
    fn parse_external(&self, text: &str) -> Option<Self::Move>;
}

fn blank_sample(pieces: Vec<(u8, u8)>, second: bool) -> Sample {
    Sample {
        pieces,
        black_to_move: second,
        score: 0,
        result: Wdl::Draw,
        halfmove: 0,
        fullmove: 0,
        best: 0,
    }
}

impl DataGame for tengen_chess::Board {
    type Eval = tengen_chess::ChessEval;
    const LAYOUT: Layout = Layout::Chess;

    fn network() -> Option<std::sync::Arc<tengen_nnue::network::Network>> {
        tengen_chess::nnue::current_network()
    }

    fn start() -> Self {
        tengen_chess::Board::startpos()
    }

    fn legal(&self) -> Vec<Self::Move> {
        self.legal_moves()
    }

    fn play(&mut self, m: Self::Move) {
        tengen_chess::Board::play(self, m);
    }

    fn ending(&self) -> Option<Option<bool>> {
        self.outcome()
            .map(|o| o.winner.map(|c| c == tengen_chess::Color::White))
    }

    fn second_to_move(&self) -> bool {
        self.side_to_move() == tengen_chess::Color::Black
    }

    fn sample(&self, best: Self::Move) -> Sample {
        let pieces = (0..64)
            .filter_map(|i| {
                let sq = tengen_chess::Square::from_index(i);
                self.piece_at(sq)
                    .map(|p| (i as u8, (p.color.index() * 8 + p.kind.index()) as u8))
            })
            .collect();
        Sample {
            halfmove: self.halfmove_clock().min(255) as u8,
            fullmove: self.fullmove_number().min(u16::MAX as u32) as u16,
            best: best.to_u16(),
            ..blank_sample(pieces, self.second_to_move())
        }
    }

    fn fen(&self) -> String {
        self.to_fen(false)
    }

    fn parse_external(&self, text: &str) -> Option<Self::Move> {
        self.parse_uci_move(text, false).ok()
    }
}

impl DataGame for tengen_xiangqi::Board {
    type Eval = tengen_xiangqi::XiangqiNetEval;
    const LAYOUT: Layout = Layout::Xiangqi;

    fn network() -> Option<std::sync::Arc<tengen_nnue::network::Network>> {
        tengen_xiangqi::nnue::current_network()
    }

    fn start() -> Self {
        tengen_xiangqi::Board::startpos()
    }

    fn legal(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v
    }

    fn play(&mut self, m: Self::Move) {
        self.make(m);
    }

    fn ending(&self) -> Option<Option<bool>> {
        use tengen_xiangqi::rules::Outcome;
        match self.outcome() {
            Outcome::Ongoing => None,
            Outcome::Draw(_) => Some(None),
            Outcome::Win(c, _) => Some(Some(c == tengen_xiangqi::Color::Red)),
        }
    }

    fn second_to_move(&self) -> bool {
        self.side_to_move() == tengen_xiangqi::Color::Black
    }

    fn sample(&self, _best: Self::Move) -> Sample {
        let mut pieces: Vec<(u8, u8)> = self
            .pieces()
            .map(|(sq, p)| {
                (
                    sq.index() as u8,
                    (p.color.index() * 8 + p.kind.index()) as u8,
                )
            })
            .collect();
        pieces.sort_unstable();
        Sample {
            halfmove: self.halfmove_clock().min(255) as u8,
            ..blank_sample(pieces, self.second_to_move())
        }
    }

    fn fen(&self) -> String {
        tengen_xiangqi::Board::fen(self)
    }

    /// Fairy-Stockfish numbers ranks 1..10 under UCI.
    fn parse_external(&self, text: &str) -> Option<Self::Move> {
        tengen_xiangqi::notation::parse_move(self, text, tengen_xiangqi::notation::Notation::Uci)
            .ok()
    }
}

impl DataGame for tengen_shogi::Game {
    type Eval = tengen_shogi::SearchEval;
    const LAYOUT: Layout = Layout::Shogi;

    fn network() -> Option<std::sync::Arc<tengen_nnue::network::Network>> {
        tengen_shogi::nnue::current_network()
    }

    fn start() -> Self {
        tengen_shogi::Game::startpos()
    }

    fn legal(&self) -> Vec<Self::Move> {
        self.board().moves(tengen_shogi::Gen::All)
    }

    fn play(&mut self, m: Self::Move) {
        tengen_shogi::Game::play(self, m);
    }

    /// Checkmate and fourfold repetition by the rules, and a win the side
    /// to move may declare (entering king).
    fn ending(&self) -> Option<Option<bool>> {
        use tengen_shogi::{Color, Outcome};
        let stm = self.board().side_to_move();
        match self.outcome() {
            Some(Outcome::Draw) => Some(None),
            Some(Outcome::Win { winner, .. }) => Some(Some(winner == Color::Black)),
            None if self.board().can_declare_win() => Some(Some(stm == Color::Black)),
            None => None,
        }
    }

    fn second_to_move(&self) -> bool {
        self.board().side_to_move() == tengen_shogi::Color::White
    }

    /// The board's pieces and both hands as the network's feature set
    /// sees them (`tengen_shogi::nnue::pieces`).
    fn sample(&self, best: Self::Move) -> Sample {
        let mut pieces = Vec::with_capacity(40);
        tengen_shogi::nnue::pieces(self.board(), &mut pieces);
        Sample {
            halfmove: self.game_ply().min(255) as u8,
            best: best.bits(),
            ..blank_sample(pieces, self.second_to_move())
        }
    }

    const USI: bool = true;

    fn fen(&self) -> String {
        self.board().to_sfen()
    }

    fn parse_external(&self, text: &str) -> Option<Self::Move> {
        self.board().parse_move(text).ok()
    }
}

/// A game's generator: SplitMix64, seeded from the run's seed and the
/// game's number, so that a resumed run replays the same openings.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64, game: u64) -> Rng {
        let mut r = Rng(SplitMix64::new(seed ^ game.wrapping_mul(splitmix::GAMMA)));
        r.next();
        r
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Modulo, not multiply-shift: the draws of earlier runs stay the same.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One finished game: its records, packed.
struct Played {
    records: Vec<Vec<u8>>,
}

/// Who plays and scores the games: tengen's searcher, or an outside
/// engine (`--engine`).
enum Player<G: DataGame> {
    Own(Box<Searcher<G, G::Eval>>, G::Eval),
    External(Engine),
}

/// A move and its score, side to move's view.
struct Thought<M> {
    best: Option<M>,
    /// An outside engine gave the game up (`resign`, `Some(false)`) or
    /// declared it won (USI `win`, `Some(true)`), side to move's view.
    verdict: Option<bool>,
    /// The move as an outside engine wrote it.
    text: Option<String>,
    score: i32,
    /// A mate score (or none given): the position is not kept.
    mate: bool,
}

/// What an outside engine's mate score stands for in the adjudication.
const EXTERNAL_MATE: i32 = 30_000;

/// The game so far as an outside engine is told it: the position after
/// the random opening and the moves since, in the engine's own words, so
/// that it sees repetitions.
#[derive(Default)]
struct Line {
    fen: String,
    moves: Vec<String>,
}

impl<G: DataGame> Player<G> {
    fn start(args: &DatagenArgs) -> Result<Self, String> {
        match &args.engine {
            None => Ok(Player::Own(
                Box::new(Searcher::new(args.hash)),
                G::Eval::default(),
            )),
            Some(cmd) => Engine::start(cmd, &[], &args.engine_options, args.nodes, G::USI)
                .map(Player::External)
                .map_err(|e| format!("{}: {e}", cmd.display())),
        }
    }

    /// Forgets what earlier searches learned (a new game or opening).
    fn clear(&mut self) -> Result<(), String> {
        match self {
            Player::Own(searcher, _) => {
                searcher.clear();
                Ok(())
            }
            Player::External(engine) => engine.new_game().map_err(|e| format!("engine: {e}")),
        }
    }

    fn think(&mut self, pos: &G, line: &Line, nodes: u64) -> Result<Thought<G::Move>, String> {
        match self {
            Player::Own(searcher, eval) => {
                let limits = SearchLimits {
                    nodes: Some(nodes),
                    multipv: 1,
                    ..Default::default()
                };
                let r = searcher.search(pos, eval, &limits, &Signals::new(), None, &mut |_| {});
                Ok(Thought {
                    best: r.best,
                    verdict: None,
                    text: None,
                    score: r.score.0,
                    mate: r.score.is_mate(),
                })
            }
            Player::External(engine) => {
                let (text, score) = engine
                    .search(&line.fen, &line.moves)
                    .map_err(|e| format!("engine: {e}"))?;
                let (best, verdict) = match text.as_deref() {
                    None | Some("(none)" | "0000") => (None, None),
                    Some("resign") => (None, Some(false)),
                    Some("win") => (None, Some(true)),
                    Some(t) => (
                        Some(pos.parse_external(t).ok_or_else(|| {
                            format!("engine: '{t}' is not a legal move in {}", pos.fen())
                        })?),
                        None,
                    ),
                };
                let (score, mate) = match score {
                    Some(Score::Cp(cp)) => (cp, false),
                    Some(Score::Mate(m)) if m > 0 => (EXTERNAL_MATE, true),
                    Some(Score::Mate(_)) => (-EXTERNAL_MATE, true),
                    None => (0, true),
                };
                Ok(Thought {
                    best,
                    verdict,
                    text,
                    score,
                    mate,
                })
            }
        }
    }
}

/// A random opening that the player calls roughly level.
fn opening<G: DataGame>(
    rng: &mut Rng,
    args: &DatagenArgs,
    player: &mut Player<G>,
) -> Result<G, String> {
    loop {
        let mut pos = G::start();
        let plies = args.random_plies + (rng.next() & 1) as u32;
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal();
            if moves.is_empty() || pos.ending().is_some() {
                ok = false;
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play(m);
        }
        if !ok || pos.ending().is_some() {
            continue;
        }
        player.clear()?;
        let line = Line {
            fen: pos.fen(),
            moves: Vec::new(),
        };
        let t = player.think(&pos, &line, args.nodes)?;
        if t.best.is_some() && !t.mate && t.score.abs() <= OPENING_MARGIN {
            return Ok(pos);
        }
    }
}

/// Plays game `index` of the run.
fn play_game<G: DataGame>(
    index: u64,
    args: &DatagenArgs,
    player: &mut Player<G>,
) -> Result<Played, String> {
    let mut rng = Rng::new(args.seed, index);
    let mut pos = opening::<G>(&mut rng, args, player)?;
    player.clear()?;
    let mut line = Line::default();
    if matches!(player, Player::External(_)) {
        line.fen = pos.fen();
    }
    let mut kept: Vec<Sample> = Vec::new();
    let mut ply = 0u32;
    let (mut white_ahead, mut black_ahead, mut level) = (0u32, 0u32, 0u32);
    let first_won: Option<bool> = loop {
        if let Some(end) = pos.ending() {
            break end;
        }
        if ply >= MAX_PLIES {
            break None;
        }
        let t = player.think(&pos, &line, args.nodes)?;
        if let Some(stm_wins) = t.verdict {
            break Some(stm_wins != pos.second_to_move());
        }
        let Some(best) = t.best else {
            break pos.ending().unwrap_or(None);
        };
        let stm = t.score;
        let white = if pos.second_to_move() { -stm } else { stm };
        white_ahead = if white >= WIN_SCORE {
            white_ahead + 1
        } else {
            0
        };
        black_ahead = if white <= -WIN_SCORE {
            black_ahead + 1
        } else {
            0
        };
        level = if ply >= DRAW_AFTER && white.abs() <= DRAW_SCORE {
            level + 1
        } else {
            0
        };
        if !t.mate && !pos.in_check() && !pos.is_tactical(best) {
            let mut s = pos.sample(best);
            s.score = stm.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            kept.push(s);
        }
        if white_ahead >= WIN_PLIES {
            break Some(true);
        }
        if black_ahead >= WIN_PLIES {
            break Some(false);
        }
        if level >= DRAW_PLIES {
            break None;
        }
        if let Some(text) = t.text {
            line.moves.push(text);
        }
        pos.play(best);
        ply += 1;
    };
    let records = kept
        .into_iter()
        .filter_map(|mut s| {
            let first_view = match first_won {
                None => Wdl::Draw,
                Some(true) => Wdl::Win,
                Some(false) => Wdl::Loss,
            };
            s.result = if s.black_to_move {
                first_view.flip()
            } else {
                first_view
            };
            data::pack(G::LAYOUT, &s).ok()
        })
        .collect();
    Ok(Played { records })
}

/// The settings that must match for a directory to be resumed.
/// With a network (`--eval-file`), its id is part of the settings, so
/// data of two labellers never share a directory; without one the text
/// is what runs with the hand-made evaluation always wrote.
fn manifest(args: &DatagenArgs, network: Option<u32>) -> String {
    let mut m = format!(
        "game {}\nseed {}\nnodes {}\nrandom_plies {}\nformat tengen-nnue data v1\n",
        args.game.name(),
        args.seed,
        args.nodes,
        args.random_plies
    );
    if let Some(cmd) = &args.engine {
        // The outside engine plays and scores; tengen's network does not.
        m.push_str(&format!("engine {}\n", cmd.display()));
        for o in &args.engine_options {
            m.push_str(&format!("engine-option {o}\n"));
        }
    } else if let Some(id) = network {
        m.push_str(&format!("network {id:08x}\n"));
    }
    m
}

/// Cuts a shard back to what its log vouches for; returns the logged
/// games and the number of records kept.
fn repair_shard(bin: &Path, log: &Path, layout: Layout) -> Result<(Vec<u64>, u64), String> {
    let size = layout.record_size() as u64;
    let mut done = Vec::new();
    let mut good_len = HEADER_SIZE as u64;
    let mut good_log = 0u64;
    if let Ok(f) = File::open(log) {
        let mut pos = 0u64;
        for line in BufReader::new(f).split(b'\n') {
            let line = line.map_err(|e| format!("{}: {e}", log.display()))?;
            let text = String::from_utf8_lossy(&line);
            let mut it = text.split_whitespace();
            let (Some(Ok(game)), Some(Ok(len)), None) = (
                it.next().map(str::parse::<u64>),
                it.next().map(str::parse::<u64>),
                it.next(),
            ) else {
                break;
            };
            if len < good_len || !(len - HEADER_SIZE as u64).is_multiple_of(size) {
                break;
            }
            pos += line.len() as u64 + 1;
            done.push(game);
            good_len = len;
            good_log = pos;
        }
    }
    let actual = fs::metadata(bin).map(|m| m.len()).unwrap_or(0);
    if actual < good_len && good_len > HEADER_SIZE as u64 {
        return Err(format!(
            "{} holds {actual} bytes but its log vouches for {good_len}",
            bin.display()
        ));
    }
    if actual >= HEADER_SIZE as u64 {
        let mut h = [0u8; HEADER_SIZE];
        let mut f = File::open(bin).map_err(|e| format!("{}: {e}", bin.display()))?;
        std::io::Read::read_exact(&mut f, &mut h).map_err(|e| format!("{}: {e}", bin.display()))?;
        let found = data::read_header(&h).map_err(|e| format!("{}: {e}", bin.display()))?;
        if found != layout {
            return Err(format!("{} holds {} data", bin.display(), found.name()));
        }
    }
    let f = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(bin)
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    f.set_len(good_len)
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    drop(f);
    if good_len == HEADER_SIZE as u64 {
        fs::write(bin, data::header(layout)).map_err(|e| format!("{}: {e}", bin.display()))?;
    }
    if log.exists() {
        let f = OpenOptions::new()
            .write(true)
            .open(log)
            .map_err(|e| format!("{}: {e}", log.display()))?;
        f.set_len(good_log)
            .map_err(|e| format!("{}: {e}", log.display()))?;
    }
    Ok((done, (good_len - HEADER_SIZE as u64) / size))
}

fn shard_paths(dir: &Path, game: &str, t: usize) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{game}-{t}.bin")),
        dir.join(format!("{game}-{t}.log")),
    )
}

pub fn run(args: &DatagenArgs) -> Result<String, String> {
    match args.game {
        Game::Chess => generate::<tengen_chess::Board>(args),
        Game::Xiangqi => generate::<tengen_xiangqi::Board>(args),
        Game::Shogi => generate::<tengen_shogi::Game>(args),
        other => Err(format!(
            "datagen plays chess, xiangqi and shogi, not {}",
            other.name()
        )),
    }
}

fn generate<G: DataGame>(args: &DatagenArgs) -> Result<String, String> {
    let threads = args.threads.clamp(1, 256);
    let dir = &args.out;
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let manifest_path = dir.join("run.txt");
    let want = manifest(args, G::network().map(|n| n.id()));
    match fs::read_to_string(&manifest_path) {
        Ok(have) if have != want => {
            return Err(format!(
                "{} was started with other settings:\n{have}",
                manifest_path.display()
            ))
        }
        Ok(_) => {}
        Err(_) => fs::write(&manifest_path, &want)
            .map_err(|e| format!("{}: {e}", manifest_path.display()))?,
    }
    let name = args.game.name();
    // Repair every shard of earlier runs (there may be more than
    // `threads` of them) and collect the games they hold.
    let mut done = HashSet::new();
    let mut positions = 0u64;
    let mut t = 0;
    loop {
        let (bin, log) = shard_paths(dir, name, t);
        if t >= threads && !bin.exists() && !log.exists() {
            break;
        }
        let (games, records) = repair_shard(&bin, &log, G::LAYOUT)?;
        done.extend(games);
        positions += records;
        t += 1;
    }
    let todo: Vec<u64> = (0..args.games).filter(|g| !done.contains(g)).collect();
    let already = done.len() as u64;
    eprintln!(
        "datagen {name}: {already} games ({positions} positions) already in {}, {} to play on {threads} thread(s)",
        dir.display(),
        todo.len()
    );
    let next = AtomicUsize::new(0);
    let new_positions = AtomicU64::new(0);
    let new_games = AtomicU64::new(0);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let start = Instant::now();
    let last_report = Mutex::new(Instant::now());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (todo, next, new_positions, new_games, errors, last_report) = (
                &todo,
                &next,
                &new_positions,
                &new_games,
                &errors,
                &last_report,
            );
            scope.spawn(move || {
                let result = (|| -> Result<(), String> {
                    let (bin, log) = shard_paths(dir, name, t);
                    let mut shard = OpenOptions::new()
                        .append(true)
                        .open(&bin)
                        .map_err(|e| format!("{}: {e}", bin.display()))?;
                    let mut len = fs::metadata(&bin)
                        .map_err(|e| format!("{}: {e}", bin.display()))?
                        .len();
                    let mut logf = OpenOptions::new()
                        .append(true)
                        .create(true)
                        .open(&log)
                        .map_err(|e| format!("{}: {e}", log.display()))?;
                    let mut player = Player::<G>::start(args)?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&game) = todo.get(i) else {
                            return Ok(());
                        };
                        let played = play_game::<G>(game, args, &mut player)?;
                        let bytes: Vec<u8> = played.records.concat();
                        shard
                            .write_all(&bytes)
                            .and_then(|_| shard.flush())
                            .map_err(|e| format!("{}: {e}", bin.display()))?;
                        len += bytes.len() as u64;
                        logf.write_all(format!("{game} {len}\n").as_bytes())
                            .and_then(|_| logf.flush())
                            .map_err(|e| format!("{}: {e}", log.display()))?;
                        let p = new_positions
                            .fetch_add(played.records.len() as u64, Ordering::Relaxed)
                            + played.records.len() as u64;
                        let g = new_games.fetch_add(1, Ordering::Relaxed) + 1;
                        if let Ok(mut last) = last_report.lock() {
                            if last.elapsed().as_secs() >= 30 {
                                *last = Instant::now();
                                let secs = start.elapsed().as_secs_f64().max(1e-9);
                                eprintln!(
                                    "datagen {name}: {} games, {} positions; this run {g} games, {p} positions, {:.1} positions/s",
                                    already + g,
                                    positions + p,
                                    p as f64 / secs
                                );
                            }
                        }
                    }
                })();
                if let Err(e) = result {
                    if let Ok(mut v) = errors.lock() {
                        v.push(e);
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_default();
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let p = new_positions.load(Ordering::Relaxed);
    let g = new_games.load(Ordering::Relaxed);
    Ok(format!(
        "games {}\npositions {}\nthis run: {g} games, {p} positions in {:.1} s, {:.1} positions/s\n",
        already + g,
        positions + p,
        secs,
        p as f64 / secs
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(dir: &Path, games: u64, threads: usize) -> DatagenArgs {
        DatagenArgs {
            game: Game::Chess,
            threads,
            nodes: 300,
            games,
            out: dir.to_path_buf(),
            seed: 7,
            random_plies: 8,
            hash: 1,
            engine: None,
            engine_options: Vec::new(),
        }
    }

    fn read_all(dir: &Path, game: &str) -> Vec<Sample> {
        let mut all = Vec::new();
        for t in 0.. {
            let Ok(mut f) = File::open(dir.join(format!("{game}-{t}.bin"))) else {
                break;
            };
            let (layout, samples) = data::read_shard(&mut f).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(layout.name(), game);
            all.extend(samples);
        }
        all
    }

    /// A one-thread search of 2,000 nodes from `root` with `eval`, as the
    /// engine runs one with a trained network loaded.
    fn search_2000_nodes<P: Position, E: Evaluator<P>>(
        root: &P,
        eval: &E,
    ) -> tengen_search::SearchResult<P::Move> {
        let limits = SearchLimits {
            nodes: Some(2000),
            multipv: 1,
            ..Default::default()
        };
        Searcher::<P, E>::new(1).search(root, eval, &limits, &Signals::new(), None, &mut |_| {})
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tengen-datagen-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    /// Games are a function of the seed and their index: a run cut short
    /// and resumed (with another thread count, and with garbage a killed
    /// run left behind) holds exactly what one uninterrupted run holds.
    #[test]
    fn a_resumed_run_equals_an_uninterrupted_one() {
        let whole = temp_dir("whole");
        let parts = temp_dir("parts");
        run(&args(&whole, 4, 1)).unwrap_or_else(|e| panic!("{e}"));
        run(&args(&parts, 2, 2)).unwrap_or_else(|e| panic!("{e}"));
        // A killed run: half a record after the last logged game, and a
        // half-written log line.
        let mut f = OpenOptions::new()
            .append(true)
            .open(parts.join("chess-1.bin"))
            .unwrap_or_else(|e| panic!("{e}"));
        f.write_all(&[9; 40]).unwrap_or_else(|e| panic!("{e}"));
        let mut f = OpenOptions::new()
            .append(true)
            .open(parts.join("chess-1.log"))
            .unwrap_or_else(|e| panic!("{e}"));
        f.write_all(b"3 12").unwrap_or_else(|e| panic!("{e}"));
        let summary = run(&args(&parts, 4, 1)).unwrap_or_else(|e| panic!("{e}"));
        assert!(summary.starts_with("games 4\n"), "{summary}");
        let mut a = read_all(&whole, "chess");
        let mut b = read_all(&parts, "chess");
        assert!(a.len() > 20, "{} positions", a.len());
        let key = |s: &Sample| format!("{s:?}");
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
        // Nothing left to do: a second resume adds nothing.
        let again = run(&args(&parts, 4, 1)).unwrap_or_else(|e| panic!("{e}"));
        assert!(again.contains("this run: 0 games"), "{again}");
        // Another seed in the same directory is refused.
        let mut other = args(&parts, 4, 1);
        other.seed = 8;
        assert!(run(&other).is_err());
        for s in &a {
            assert!(s.pieces.len() <= 32);
            assert!(s.score.abs() < 20000);
        }
        let _ = fs::remove_dir_all(&whole);
        let _ = fs::remove_dir_all(&parts);
    }

    /// Runs with the hand-made evaluation keep the settings text they
    /// always had (so the running data job resumes); a network's id
    /// becomes part of it.
    #[test]
    fn a_network_is_part_of_the_run_settings() {
        let a = args(Path::new("x"), 1, 1);
        assert_eq!(
            manifest(&a, None),
            "game chess\nseed 7\nnodes 300\nrandom_plies 8\nformat tengen-nnue data v1\n"
        );
        let with = manifest(&a, Some(0x4f38_2afc));
        assert!(
            with.ends_with("format tengen-nnue data v1\nnetwork 4f382afc\n"),
            "{with}"
        );
    }

    #[test]
    fn kept_positions_are_quiet_and_not_in_check() {
        let dir = temp_dir("quiet");
        run(&args(&dir, 2, 1)).unwrap_or_else(|e| panic!("{e}"));
        let samples = read_all(&dir, "chess");
        assert!(!samples.is_empty());
        for s in &samples {
            let mut fen = String::new();
            for rank in (0..8u8).rev() {
                let mut empty = 0;
                for file in 0..8u8 {
                    let sq = rank * 8 + file;
                    match s.pieces.iter().find(|p| p.0 == sq) {
                        Some(&(_, code)) => {
                            if empty > 0 {
                                fen.push_str(&empty.to_string());
                                empty = 0;
                            }
                            let c = b"pnbrqk"[(code & 7) as usize] as char;
                            fen.push(if code < 8 { c.to_ascii_uppercase() } else { c });
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                }
                if rank > 0 {
                    fen.push('/');
                }
            }
            fen.push_str(if s.black_to_move {
                " b - - 0 1"
            } else {
                " w - - 0 1"
            });
            let b = tengen_chess::Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!b.is_check(), "{fen}");
            let best = tengen_chess::Move::from_u16(s.best);
            assert!(b.is_legal_move(best) || best.is_castle(), "{fen} {best:?}");
            assert!(!b.is_tactical(best), "{fen} {best:?}");
        }
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn xiangqi_games_are_written_too() {
        let dir = temp_dir("xq");
        let mut a = args(&dir, 1, 1);
        a.game = Game::Xiangqi;
        run(&a).unwrap_or_else(|e| panic!("{e}"));
        let samples = read_all(&dir, "xiangqi");
        assert!(!samples.is_empty());
        for s in &samples {
            let kings = s.pieces.iter().filter(|p| p.1 & 7 == 0).count();
            assert_eq!(kings, 2);
        }
        let _ = fs::remove_dir_all(&dir);
    }

    /// The whole pipeline in seconds: self-play data, a trainer run on it,
    /// the network file loaded as the engine's chess evaluation and used
    /// by a search.
    #[test]
    fn generated_data_trains_a_network_the_engine_loads() {
        let dir = temp_dir("e2e");
        let mut a = args(&dir.join("data"), 6, 1);
        a.seed = 11;
        run(&a).unwrap_or_else(|e| panic!("{e}"));
        let (layout, records) =
            tengen_train::load(&[dir.join("data")]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(layout, Layout::Chess);
        assert!(records.len() > 100, "{} positions", records.len());
        let cfg = tengen_train::Config {
            hidden: 32,
            epochs: 3,
            batch: 128,
            lr: 0.003,
            threads: 2,
            ..Default::default()
        };
        let mut losses = Vec::new();
        tengen_train::run::<tengen_nnue::features::Chess>(
            &cfg,
            &records,
            &dir.join("net"),
            &mut |r| losses.push(r.train_loss),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(losses.len(), 3);
        assert!(losses[2] < losses[0], "{losses:?}");
        let bytes = fs::read(dir.join("net").join("latest.nnue")).unwrap_or_default();
        let net = tengen_nnue::network::Network::from_bytes::<tengen_nnue::features::Chess>(&bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        let eval = tengen_chess::ChessEval::with_network(std::sync::Arc::new(net));
        assert!(eval.uses_network());
        let r = search_2000_nodes(&tengen_chess::Board::startpos(), &eval);
        assert!(r.best.is_some());
        // (`go nodes` overshoots a little, with the hand evaluation too.)
        assert!((2000..20_000).contains(&r.nodes), "{} nodes", r.nodes);
        let _ = fs::remove_dir_all(&dir);
    }

    /// Shogi's records: 42 bytes with both hands, every position quiet
    /// (not in check, the best move legal and neither a capture nor a
    /// promotion) and all 40 pieces present; a resumed run equals an
    /// uninterrupted one.
    #[test]
    fn shogi_games_are_written_quiet_and_resume() {
        let whole = temp_dir("shogi-whole");
        let parts = temp_dir("shogi-parts");
        let mut a = args(&whole, 2, 1);
        a.game = Game::Shogi;
        a.nodes = 200;
        run(&a).unwrap_or_else(|e| panic!("{e}"));
        let shard = fs::read(whole.join("shogi-0.bin")).unwrap_or_default();
        assert_eq!(shard[10..12], [3, 42]);
        assert_eq!((shard.len() - HEADER_SIZE) % 42, 0);
        let samples = read_all(&whole, "shogi");
        assert!(samples.len() > 20, "{} positions", samples.len());
        let mut with_hands = 0;
        for s in &samples {
            assert_eq!(s.pieces.len(), 40);
            with_hands += s.pieces.iter().any(|p| p.0 >= 81) as usize;
            let sfen = data::shogi_sfen(s).unwrap_or_default();
            let b = tengen_shogi::Board::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let mut again = Vec::new();
            tengen_shogi::nnue::pieces(&b, &mut again);
            assert_eq!(again, s.pieces, "{sfen}");
            assert!(!b.in_check(), "{sfen}");
            let best = tengen_shogi::Move::from_bits(s.best)
                .unwrap_or_else(|| panic!("{sfen}: move code {:#x}", s.best));
            assert!(b.is_legal(best), "{sfen} {best}");
            assert!(
                !best.is_promotion() && b.piece_at(best.to()).is_none(),
                "{sfen} {best}"
            );
        }
        assert!(with_hands > 0, "no position with a piece in hand");
        let mut a2 = a.clone();
        a2.out = parts.clone();
        a2.games = 1;
        run(&a2).unwrap_or_else(|e| panic!("{e}"));
        a2.games = 2;
        a2.threads = 2;
        run(&a2).unwrap_or_else(|e| panic!("{e}"));
        let mut b = read_all(&parts, "shogi");
        let mut a = samples;
        let key = |s: &Sample| format!("{s:?}");
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
        let _ = fs::remove_dir_all(&whole);
        let _ = fs::remove_dir_all(&parts);
    }

    /// Shogi's whole pipeline in seconds: self-play data, a residual wide
    /// network trained on it by `tengen-train`, the file loaded as the
    /// engine's shogi evaluation (hand-made plus the network) and used by
    /// a search.
    #[test]
    fn shogi_data_trains_a_network_the_engine_loads() {
        use tengen_nnue::features::Shogi;
        let dir = temp_dir("shogi-e2e");
        let mut a = args(&dir.join("data"), 3, 1);
        a.game = Game::Shogi;
        a.nodes = 200;
        a.seed = 11;
        run(&a).unwrap_or_else(|e| panic!("{e}"));
        let (layout, records) =
            tengen_train::load(&[dir.join("data")]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(layout, Layout::Shogi);
        assert!(records.len() > 50, "{} positions", records.len());
        let cfg = tengen_train::Config {
            hidden: 32,
            epochs: 3,
            batch: 64,
            lr: 0.003,
            threads: 2,
            base: Some(tengen_train::hand_eval(layout)),
            wide: true,
            ..Default::default()
        };
        let mut losses = Vec::new();
        tengen_train::run::<Shogi>(&cfg, &records, &dir.join("net"), &mut |r| {
            losses.push(r.train_loss)
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(losses.len(), 3);
        assert!(losses[2] < losses[0], "{losses:?}");
        let path = dir.join("net").join("latest.nnue");
        let bytes = fs::read(&path).unwrap_or_default();
        let net = tengen_nnue::network::Network::from_bytes::<Shogi>(&bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(net.residual && net.wide);
        let eval = tengen_shogi::SearchEval::with_network(Some(std::sync::Arc::new(net)));
        assert!(eval.uses_network());
        let r = search_2000_nodes(&tengen_shogi::Game::startpos(), &eval);
        assert!(r.best.is_some());
        let _ = fs::remove_dir_all(&dir);
    }
}
