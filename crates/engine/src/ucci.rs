//! The UCCI front-end (xiangqi). The reader loop stays free while a search
//! runs on its own thread: `isready`, `stop`, `ponderhit`, `probe` and
//! `quit` are answered at once, and the search thread prints the one
//! `bestmove`/`nobestmove` that ends every `go`.

use crate::games::xiangqi::XiangqiGame;
use crate::io::Output;
use crate::session::Session;
use crate::Start;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::Duration;
use tengen_core::options::{OptionError, OptionKind, OptionValue, Options};
use tengen_core::report::Event;
use tengen_core::timeman::XIANGQI;
use tengen_core::{Bound, Score, SearchLimits, TimeControl};
use tengen_protocol::ucci::{self, Command, Info, OptionType, PopHash, Reply};
use tengen_search::SearchResult;
use tengen_xiangqi::eval::evaluate;
use tengen_xiangqi::{format_move, parse_move, play_moves, Board, Move, Notation, HORSE_VALUE};

/// A score in UCCI units (100 = a horse); mates as ±(10000 - plies).
fn ucci_score(s: Score) -> i32 {
    match s.mate_plies() {
        Some(p) if p > 0 => 10_000 - p,
        Some(p) => -10_000 - p,
        None => s.0 * 100 / HORSE_VALUE,
    }
}

/// Resign when the search sees this much (internal units) against us,
/// accept an offered draw when worse than this.
const RESIGN_BELOW: i32 = -2500;
const ACCEPT_DRAW_BELOW: i32 = -60;
/// Offer a draw from this move number on when the score is this level.
const OFFER_DRAW_AFTER_MOVE: u32 = 60;
const OFFER_DRAW_WITHIN: i32 = 5;

/// Settings the GUI can change.
struct Settings {
    millis: bool,
    batch: bool,
    debug: bool,
    ponder: bool,
    hash_mb: usize,
    threads: usize,
    /// Moves each side without capture before a draw.
    draw_moves: u32,
}

/// Combo options whose only value is the one we play with.
const FIXED_COMBOS: [(&str, &str); 5] = [
    ("idle", "none"),
    ("pruning", "large"),
    ("knowledge", "large"),
    ("randomness", "none"),
    ("style", "normal"),
];

/// Every option UCCI GUIs can set, in `ucciok` order. `setoption` goes
/// through [`Options::set`], which refuses a bad or out-of-range value and
/// changes nothing; the front-end then applies what was stored.
fn ucci_options() -> Options {
    let mut o = Options::new();
    for name in ["usemillisec", "batch", "debug", "ponder"] {
        o.add(name, OptionKind::Check { default: false });
    }
    // hashsize and threads 0: "the engine decides" (16 MB, one thread).
    o.add(
        "hashsize",
        OptionKind::Spin {
            default: 16,
            min: 0,
            max: 65_536,
        },
    )
    .add(
        "threads",
        OptionKind::Spin {
            default: 1,
            min: 0,
            max: 256,
        },
    )
    .add(
        "drawmoves",
        OptionKind::Spin {
            default: 60,
            min: 1,
            max: 1000,
        },
    );
    for (name, only) in FIXED_COMBOS {
        o.add(
            name,
            OptionKind::Combo {
                default: only.into(),
                vars: vec![only.into()],
            },
        );
    }
    o.add("newgame", OptionKind::Button);
    o
}

struct Frontend {
    out: Output,
    options: Options,
    settings: Settings,
    board: Board,
    banned: Vec<Move>,
    /// The search, its thread and its signals, shared with UCI and USI.
    session: Session<XiangqiGame>,
    /// A draw offer pending for the running search.
    draw_offer: Arc<AtomicBool>,
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let mut fe = Frontend::new(out);
    if let Some(game) = start.game {
        if game != crate::games::Game::Xiangqi {
            fe.message(&format!("UCCI plays xiangqi; --game {game} is ignored"));
        }
    }
    let mut booted = false;
    let first = start.first.into_iter();
    for line in first.chain(input.iter()) {
        let flow = if booted {
            fe.handle(&line)
        } else {
            // Boot: only `ucci` opens the session (blank lines are skipped).
            match ucci::parse(&line) {
                Ok(Some(Command::Ucci)) => {
                    booted = true;
                    fe.handle(&line)
                }
                Ok(Some(Command::Quit)) => Flow::Quit,
                _ => Flow::Continue,
            }
        };
        if flow == Flow::Quit {
            break;
        }
        if fe.settings.batch && !fe.session.pondering() {
            // Batch mode reads nothing while thinking; a ponder or
            // infinite search still listens, or nothing could end it.
            fe.session.wait();
        }
    }
    fe.quit();
    0
}

impl Frontend {
    fn new(out: Output) -> Self {
        Frontend {
            out,
            options: ucci_options(),
            settings: Settings {
                millis: false,
                batch: false,
                debug: false,
                ponder: false,
                hash_mb: 16,
                threads: 1,
                draw_moves: 60,
            },
            board: Board::startpos(),
            banned: Vec::new(),
            session: Session::new(16),
            draw_offer: Arc::new(AtomicBool::new(false)),
        }
    }

    fn reply(&self, r: Reply) {
        self.out.line(&r.to_string());
    }

    fn message(&self, text: &str) {
        self.reply(Reply::Info(Info::text(text)));
    }

    fn thinking(&self) -> bool {
        self.session.searching()
    }

    fn quit(&mut self) {
        self.session.stop();
        self.session.wait();
        self.reply(Reply::Bye);
    }

    fn handle(&mut self, line: &str) -> Flow {
        let cmd = match ucci::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.message(&format!("error: {e}"));
                // `probe` is always answered, even a malformed one.
                if line.split_whitespace().next() == Some("probe") {
                    self.reply(Reply::PopHash(PopHash::default()));
                }
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Ucci => self.ucci(),
            Command::IsReady => self.reply(Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => match self.position(fen.as_deref(), &moves) {
                Ok(b) => {
                    self.board = b;
                    self.banned.clear();
                }
                Err(e) => self.message(&format!("error: position not changed: {e}")),
            },
            Command::BanMoves(moves) => {
                let parsed: Result<Vec<Move>, String> = moves
                    .iter()
                    .map(|m| parse_move(&self.board, m, Notation::Iccs))
                    .collect();
                match parsed {
                    Ok(list) => self.banned = list,
                    Err(e) => self.message(&format!("error: banmoves ignored: {e}")),
                }
            }
            Command::Go(go) => self.go(go),
            Command::PonderHit { draw } => {
                if self.session.pondering() {
                    if draw {
                        self.draw_offer.store(true, Ordering::Release);
                    }
                    self.session.ponderhit();
                }
            }
            Command::Stop => {
                if self.thinking() {
                    self.session.stop();
                    self.session.wait();
                } else {
                    // UCCI: a stop while idle gets `nobestmove`.
                    self.session.wait();
                    self.reply(Reply::NoBestMove);
                }
            }
            Command::Probe { fen, moves } => self.probe(fen.as_deref(), &moves),
            Command::Quit => return Flow::Quit,
            Command::Unknown(word) => {
                if self.settings.debug {
                    self.message(&format!("unknown command '{word}' ignored"));
                }
            }
        }
        Flow::Continue
    }

    fn ucci(&self) {
        let version = env!("CARGO_PKG_VERSION");
        let mut lines = vec![
            Reply::Id {
                kind: "name",
                text: format!("tengen {version}"),
            },
            Reply::Id {
                kind: "copyright",
                text: "the tengen developers, GPL-3.0-or-later".into(),
            },
            Reply::Id {
                kind: "author",
                text: "the tengen developers".into(),
            },
        ];
        for opt in self.options.iter() {
            let kind = match &opt.kind {
                OptionKind::Check { default } => OptionType::Check(*default),
                OptionKind::Spin { default, min, max } => OptionType::Spin {
                    min: *min,
                    max: *max,
                    default: *default,
                },
                OptionKind::Combo { default, vars } => OptionType::Combo {
                    vars: vars.clone(),
                    default: default.clone(),
                },
                OptionKind::Button => OptionType::Button,
                OptionKind::String { default } => OptionType::String(default.clone()),
            };
            lines.push(Reply::Option {
                name: opt.name.clone(),
                kind,
            });
        }
        lines.push(Reply::UcciOk);
        let text: Vec<String> = lines.iter().map(|r| r.to_string()).collect();
        self.out.lines(text.iter().map(String::as_str));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let name = name.trim().to_ascii_lowercase();
        if matches!(name.as_str(), "hashsize" | "threads" | "newgame") && self.thinking() {
            self.message(&format!("option {name} not changed while thinking"));
            return;
        }
        // UCCI: a check option named without a value is switched on.
        let is_check = self
            .options
            .iter()
            .any(|o| o.name == name && matches!(o.kind, OptionKind::Check { .. }));
        let value = if is_check && value.is_none() {
            Some("true")
        } else {
            value
        };
        let before = self.options.get(&name).cloned();
        let stored = match self.options.set(&name, value) {
            Ok((_, v)) => v,
            Err(OptionError::Unknown(_)) => {
                // GUIs send options nobody declared: accepted silently.
                if self.settings.debug {
                    self.message(&format!("option {name} is not used by this engine"));
                }
                return;
            }
            Err(e) => {
                self.message(&format!("error: {e}; unchanged"));
                return;
            }
        };
        let int = |v: &OptionValue| match v {
            OptionValue::Int(n) => *n,
            _ => 0,
        };
        let on = matches!(stored, OptionValue::Bool(true));
        match name.as_str() {
            "usemillisec" => self.settings.millis = on,
            "batch" => self.settings.batch = on,
            "debug" => self.settings.debug = on,
            "ponder" => self.settings.ponder = on,
            "hashsize" => {
                let n = int(&stored);
                let mb = if n == 0 { 16 } else { n as usize };
                match self.session.with_searcher(|s| s.set_hash(mb)) {
                    Ok(()) => self.settings.hash_mb = mb,
                    Err(e) => {
                        // The table stays as it was, and so does the option.
                        if let Some(old) = before {
                            let old = int(&old).to_string();
                            let _ = self.options.set(&name, Some(&old));
                        }
                        self.message(&format!("error: hashsize {n} refused: {e}"));
                    }
                }
            }
            "threads" => {
                let n = int(&stored);
                let t = if n == 0 { 1 } else { n as usize };
                self.settings.threads = t;
                self.session.with_searcher(|s| s.set_threads(t));
            }
            "drawmoves" => {
                let n = int(&stored) as u32;
                self.settings.draw_moves = n;
                self.board.set_move_limit(2 * n);
            }
            "newgame" => {
                self.session.with_searcher(|s| s.clear());
                self.board = self.with_limit(Board::startpos());
                self.banned.clear();
            }
            // The fixed combos hold their one value: nothing to apply.
            _ => {}
        }
    }

    fn with_limit(&self, mut b: Board) -> Board {
        b.set_move_limit(2 * self.settings.draw_moves);
        b
    }

    /// The position a `position`/`probe` names, checked whole.
    fn position(&self, fen: Option<&str>, moves: &[String]) -> Result<Board, String> {
        let base = match fen {
            None => Board::startpos(),
            Some(f) => Board::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        };
        let b = play_moves(
            &self.with_limit(base),
            moves.iter().map(String::as_str),
            Notation::Iccs,
        )?;
        Ok(b)
    }

    fn probe(&self, fen: Option<&str>, moves: &[String]) {
        let b = match self.position(fen, moves) {
            Ok(b) => b,
            Err(e) => {
                self.message(&format!("error: {e}"));
                self.reply(Reply::PopHash(PopHash::default()));
                return;
            }
        };
        // Straight from the transposition table, so every position the
        // search met is known, during a search too.
        let hash = match self.session.probe(&b) {
            Some(p) => {
                let score = ucci_score(p.score);
                let depth = p.depth.max(0) as u32;
                let lower = matches!(p.bound, Bound::Lower | Bound::Exact);
                let upper = matches!(p.bound, Bound::Upper | Bound::Exact);
                PopHash {
                    bestmove: p.mv.map(|m| format_move(m, Notation::Iccs)),
                    lowerbound: lower.then_some((score, depth)),
                    upperbound: upper.then_some((score, depth)),
                }
            }
            None => PopHash::default(),
        };
        self.reply(Reply::PopHash(hash));
    }

    fn go(&mut self, go: ucci::Go) {
        if self.thinking() {
            // A `go` while thinking: finish the old search first.
            self.session.stop();
        }
        self.session.wait();
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let root = self.board.clone();
        let mut legal = Vec::new();
        root.legal_moves(&mut legal);
        legal.retain(|m| !self.banned.contains(m));
        if go.depth == Some(0) && !go.infinite {
            self.reply(Reply::Info(Info {
                depth: Some(0),
                score: Some(ucci::Score::Cp(ucci_score(Score(evaluate(&root))))),
                ..Info::default()
            }));
            self.reply(Reply::NoBestMove);
            return;
        }
        let mut limits = self.limits(&go, &root);
        // UCCI's `go infinite` waits for `stop` like a ponder search.
        limits.ponder = go.ponder || go.infinite;
        self.draw_offer.store(go.draw, Ordering::Release);
        let nothing_to_play = legal.is_empty();
        if nothing_to_play && !limits.ponder {
            // Mated, stalemated, or every move banned.
            self.reply(Reply::NoBestMove);
            return;
        }
        // Every move banned while pondering: the search gets the banned
        // moves only to have something to hold until stop/ponderhit,
        // and its answer is `nobestmove` whatever it found.
        let root_moves = if self.banned.is_empty() {
            Vec::new()
        } else if nothing_to_play {
            self.banned.clone()
        } else {
            legal
        };
        let out = self.out.clone();
        let on_event = move |e: Event<Move>| print_event(&out, e);
        let out = self.out.clone();
        let draw_offer = Arc::clone(&self.draw_offer);
        let done_root = root.clone();
        self.session
            .go(root, limits, root_moves, on_event, move |r| {
                let offered = draw_offer.load(Ordering::Acquire);
                let reply = if nothing_to_play {
                    Reply::NoBestMove
                } else {
                    final_reply(&r, offered, done_root.fullmove_number())
                };
                out.line(&reply.to_string());
            });
    }

    fn limits(&self, go: &ucci::Go, root: &Board) -> SearchLimits {
        let unit = |v: u64| {
            if self.settings.millis {
                Duration::from_millis(v)
            } else {
                Duration::from_secs(v.min(1 << 40))
            }
        };
        let mut l = SearchLimits {
            multipv: 1,
            ponder: go.ponder,
            infinite: go.infinite,
            depth: go.depth,
            nodes: go.nodes,
            overhead: XIANGQI.overhead,
            game_ply: (root.fullmove_number().max(1) - 1).saturating_mul(2)
                + (root.side_to_move() == tengen_xiangqi::Color::Black) as u32,
            ..SearchLimits::default()
        };
        if let Some(t) = go.time {
            let increment = go.increment.map(unit).unwrap_or_default();
            l.time = Some(TimeControl {
                remaining: unit(t),
                increment,
                moves_to_go: go.movestogo.or_else(|| XIANGQI.horizon(increment)),
                opponent_remaining: go.opptime.map(unit),
                ..TimeControl::default()
            });
        }
        if l.is_unbounded() && !l.infinite {
            // A bare `go`: our own default limit, ended by ourselves.
            l.move_time = Some(Duration::from_secs(5));
        }
        l
    }

    fn perft(&self, depth: u32) {
        let mut b = self.board.clone();
        let mut lines = Vec::new();
        let mut total = 0;
        for (m, n) in tengen_xiangqi::perft::divide(&mut b, depth.max(1)) {
            lines.push(format!("{}: {n}", format_move(m, Notation::Iccs)));
            total += n;
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        self.out.lines(lines.iter().map(String::as_str));
    }
}

fn print_event(out: &Output, e: Event<Move>) {
    match e {
        Event::Line(r) => {
            let pv =
                r.pv.iter()
                    .map(|&m| format_move(m, Notation::Iccs))
                    .collect();
            let a = Info {
                depth: Some(r.depth),
                score: Some(ucci::Score::Cp(ucci_score(r.score))),
                pv,
                ..Info::default()
            };
            let b = Info {
                time: Some(r.time_ms),
                nodes: Some(r.nodes),
                ..Info::default()
            };
            let (a, b) = (Reply::Info(a).to_string(), Reply::Info(b).to_string());
            out.lines([a.as_str(), b.as_str()]);
        }
        Event::CurrMove { mv, .. } => {
            let i = Info {
                currmove: Some(format_move(mv, Notation::Iccs)),
                ..Info::default()
            };
            out.line(&Reply::Info(i).to_string());
        }
        Event::Stats { nodes, time_ms, .. } => {
            let i = Info {
                time: Some(time_ms),
                nodes: Some(nodes),
                ..Info::default()
            };
            out.line(&Reply::Info(i).to_string());
        }
    }
}

/// `bestmove` with the draw and resign decisions, or `nobestmove`. An
/// offered draw is accepted when we stand worse; we offer one ourselves
/// late in a game the search calls dead level.
fn final_reply(r: &SearchResult<Move>, draw_offered: bool, move_number: u32) -> Reply {
    let Some(best) = r.best else {
        return Reply::NoBestMove;
    };
    let losing_mate = r.score.mate_plies().is_some_and(|p| p < 0);
    let accept = draw_offered && r.score.0 < ACCEPT_DRAW_BELOW;
    let offer = !draw_offered
        && move_number >= OFFER_DRAW_AFTER_MOVE
        && r.depth >= 8
        && r.score.0.abs() <= OFFER_DRAW_WITHIN;
    // UCCI allows one of `draw` and `resign`: taking a draw beats
    // resigning, so an accepted offer wins over a lost position.
    let resign = !accept && (losing_mate || r.score.0 < RESIGN_BELOW);
    Reply::BestMove {
        mv: format_move(best, Notation::Iccs),
        ponder: r.ponder.map(|m| format_move(m, Notation::Iccs)),
        draw: (accept || offer) && !resign,
        resign,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(score: i32, depth: u32) -> SearchResult<Move> {
        let b = Board::startpos();
        let mut moves = Vec::new();
        b.legal_moves(&mut moves);
        SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score: Score(score),
            depth,
            nodes: 0,
        }
    }

    fn words(r: Reply) -> Vec<String> {
        r.to_string().split(' ').map(String::from).collect()
    }

    #[test]
    fn draw_and_resign_decisions() {
        let has = |r: Reply, w: &str| words(r).iter().any(|x| x == w);
        assert!(
            has(final_reply(&result(-100, 10), true, 20), "draw"),
            "accept when worse"
        );
        assert!(
            !has(final_reply(&result(50, 10), true, 20), "draw"),
            "decline when better"
        );
        assert!(
            !has(final_reply(&result(0, 10), false, 20), "draw"),
            "no offer early"
        );
        assert!(
            has(final_reply(&result(0, 10), false, 80), "draw"),
            "offer when dead level"
        );
        assert!(has(final_reply(&result(-3000, 10), false, 20), "resign"));
        assert!(has(
            final_reply(&result(Score::mated_in(5).0, 3), false, 20),
            "resign"
        ));
        assert!(!has(final_reply(&result(-300, 10), false, 20), "resign"));
        // Lost, with a draw on offer: take the draw, never both words.
        let both = final_reply(&result(-3000, 10), true, 20);
        assert!(has(both.clone(), "draw") && !has(both, "resign"));
        let none = SearchResult {
            best: None,
            ..result(0, 1)
        };
        assert_eq!(final_reply(&none, false, 1), Reply::NoBestMove);
    }

    #[test]
    fn clock_is_spent_early_and_never_runs_out() {
        let inc = Duration::from_millis(100);
        let plan = |ms: u64| {
            let tc = TimeControl {
                remaining: Duration::from_millis(ms),
                increment: inc,
                moves_to_go: XIANGQI.horizon(inc),
                ..TimeControl::default()
            };
            tengen_core::TimeManager::new(&tc, Duration::from_millis(50), 0)
        };
        // 10 s + 0.1 s: about as long as Fairy-Stockfish thinks (~0.6 s).
        let first = plan(10_000);
        assert!(first.soft >= Duration::from_millis(400), "{first:?}");
        assert!(first.hard <= Duration::from_millis(2_500), "{first:?}");
        // Worst case: every move runs to its hard limit plus 10 ms of
        // latency; a 200-move game still never empties the clock.
        let mut clock = 10_000i64;
        for _ in 0..200 {
            clock -= plan(clock as u64).hard.as_millis() as i64 + 10;
            assert!(clock > 100, "{clock}");
            clock += 100;
        }
        assert_eq!(XIANGQI.horizon(Duration::ZERO), None);
    }

    #[test]
    fn scores_in_ucci_units() {
        assert_eq!(ucci_score(Score(HORSE_VALUE)), 100);
        assert_eq!(ucci_score(Score(-HORSE_VALUE / 2)), -50);
        assert_eq!(ucci_score(Score::mate_in(3)), 9997);
        assert_eq!(ucci_score(Score::mated_in(4)), -9996);
    }
}
