//! The UCI family's one front-end: UCI (chess, or xiangqi through
//! `UCI_Variant`), UCCI (xiangqi) and USI (shogi) share this loop, the
//! [`Session`] a search runs in and the option table of `core::Options`.
//! The [`Dialect`] decides the words: the handshake, how options are
//! announced, the FEN keyword, the `go` keywords and the clock they
//! describe, how a score prints, the forms of `bestmove`, and the
//! commands only one dialect has (USI `gameover` and `go mate`, UCCI
//! `banmoves`, `probe` and the draw offers).

use crate::games::chess::ChessGame;
use crate::games::shogi::ShogiGame;
use crate::games::xiangqi::XiangqiGame;
use crate::games::Game;
use crate::io::Output;
use crate::session::{AbGame, Flags, Session, Tsume};
use crate::skill::Skill;
use crate::Start;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tengen_core::clock::Credit;
use tengen_core::options::{OptionError, OptionKind, OptionValue, Options};
use tengen_core::report::{Bound, Event, Report};
use tengen_core::score::wdl;
use tengen_core::{Score, SearchLimits, TimeControl};
use tengen_protocol::grammar::{self, Dialect, Info, OptionType};
use tengen_protocol::{ucci, uci, usi};
use tengen_search::{Evaluator, GenKind, Position, SearchResult};

type Move<G> = <<G as AbGame>::Pos as Position>::Move;

/// Games a UCI GUI can pick with `UCI_Variant`.
const VARIANTS: &[Game] = &[Game::Chess, Game::Xiangqi];

/// UCCI: resign when the search sees this much (internal units) against
/// us, accept an offered draw when worse than this.
const RESIGN_BELOW: i32 = -2500;
const ACCEPT_DRAW_BELOW: i32 = -60;
/// UCCI: offer a draw from this move number on when the score is this level.
const OFFER_DRAW_AFTER_MOVE: u32 = 60;
const OFFER_DRAW_WITHIN: i32 = 5;

/// UCCI combo options whose only value is the one we play with.
const FIXED_COMBOS: [(&str, &str); 5] = [
    ("idle", "none"),
    ("pruning", "large"),
    ("knowledge", "large"),
    ("randomness", "none"),
    ("style", "normal"),
];

fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

/// Every option a GUI of dialect `d` sees, in announcement order.
fn options(d: Dialect) -> Options {
    let mut o = Options::new();
    match d {
        Dialect::Uci => {
            o.add("Hash", spin(16, 1, 65_536))
                .add("Threads", spin(1, 1, 256))
                .add("Clear Hash", OptionKind::Button)
                .add("Ponder", check(false))
                .add("MultiPV", spin(1, 1, 256))
                .add("Move Overhead", spin(10, 0, 5000))
                .add("UCI_Chess960", check(false))
                .add("UCI_ShowWDL", check(false))
                .add("UCI_LimitStrength", check(false))
                .add(
                    "UCI_Elo",
                    spin(
                        Skill::MAX_ELO as i64,
                        Skill::MIN_ELO as i64,
                        Skill::MAX_ELO as i64,
                    ),
                )
                .add("UCI_AnalyseMode", check(false))
                // A network file for the evaluation (chess or xiangqi, by
                // the file's header); `<default>` and `<empty>` are the
                // built-in hand-made evaluation.
                .add(
                    "EvalFile",
                    OptionKind::String {
                        default: "<default>".into(),
                    },
                )
                .add(
                    "UCI_Variant",
                    OptionKind::Combo {
                        default: "chess".into(),
                        vars: VARIANTS.iter().map(|g| g.name().to_string()).collect(),
                    },
                );
        }
        Dialect::Usi => {
            o.add("USI_Hash", spin(64, 1, 65_536))
                .add("USI_Ponder", check(false))
                .add("Threads", spin(1, 1, 256))
                .add("MultiPV", spin(1, 1, 64))
                // Time kept back from every move for process and GUI latency.
                .add("MoveOverhead", spin(120, 0, 5000))
                // Thinking time of a bare `go` (no clock, no limit), as
                // cshogi sends.
                .add("DefaultMoveTime", spin(1000, 1, 600_000))
                // A network file for the evaluation; `<default>` is the
                // built-in one, `<empty>` the hand-made evaluation.
                .add(
                    "EvalFile",
                    OptionKind::String {
                        default: "<default>".into(),
                    },
                );
        }
        Dialect::Ucci => {
            for name in ["usemillisec", "batch", "debug", "ponder"] {
                o.add(name, check(false));
            }
            // hashsize and threads 0: "the engine decides" (16 MB, one
            // thread).
            o.add("hashsize", spin(16, 0, 65_536))
                .add("threads", spin(1, 0, 256))
                // Moves each side without capture before a draw.
                .add("drawmoves", spin(60, 1, 1000));
            for (name, only) in FIXED_COMBOS {
                o.add(
                    name,
                    OptionKind::Combo {
                        default: only.into(),
                        vars: vec![only.into()],
                    },
                );
            }
            // UCCI names its options in lower case; as UCI's `EvalFile`.
            o.add(
                "evalfile",
                OptionKind::String {
                    default: "<default>".into(),
                },
            );
            o.add("newgame", OptionKind::Button);
        }
    }
    o
}

/// The dialect's names for the options every dialect has.
struct Names {
    hash: &'static str,
    threads: &'static str,
}

fn names(d: Dialect) -> Names {
    match d {
        Dialect::Uci => Names {
            hash: "Hash",
            threads: "Threads",
        },
        Dialect::Usi => Names {
            hash: "USI_Hash",
            threads: "Threads",
        },
        Dialect::Ucci => Names {
            hash: "hashsize",
            threads: "threads",
        },
    }
}

/// The option's name in the table: USI GUIs use other spellings for ours,
/// UCCI names are lower case.
fn canonical(d: Dialect, name: &str) -> String {
    match d {
        Dialect::Usi => match name.trim().to_ascii_lowercase().as_str() {
            "hash" => "USI_Hash".into(),
            "usi_multipv" => "MultiPV".into(),
            _ => name.into(),
        },
        Dialect::Ucci => name.trim().to_ascii_lowercase(),
        Dialect::Uci => name.into(),
    }
}

/// The hash size in MB an option value asks for (UCCI's 0: "the engine
/// decides", 16 MB).
fn hash_mb(value: i64) -> usize {
    match value {
        v if v <= 0 => 16,
        v => v as usize,
    }
}

fn announce(d: Dialect, name: &str, kind: &OptionKind) -> String {
    let kind = match kind {
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
    grammar::option_line(d, name, &kind)
}

/// A command of any dialect, as the loop acts on it.
enum Cmd {
    Hello,
    IsReady,
    Register,
    SetOption(String, Option<String>),
    NewGame,
    Position(Option<String>, Vec<String>),
    Go(Go),
    Stop,
    PonderHit {
        draw: bool,
    },
    Quit,
    /// USI: the game ended; a running search ends without a reply.
    GameOver,
    /// UCCI: moves the next search must not play.
    BanMoves(Vec<String>),
    /// UCCI: what the hash table knows of a position.
    Probe(Option<String>, Vec<String>),
    /// A line with no command of the dialect in it.
    Unknown(String),
    Nothing,
}

/// `go` in any dialect: the limits for the side to move, worked out from
/// the dialect's clock, and the parts that are not limits.
struct Go {
    limits: SearchLimits,
    perft: Option<u32>,
    searchmoves: Vec<String>,
    /// USI `go mate`: a mate search with this time limit (`None`: none).
    tsume: Option<Option<Duration>>,
    /// UCCI: the opponent offers a draw.
    draw: bool,
    /// UCCI `go depth 0`: the static evaluation, no search.
    eval_only: bool,
}

/// Why a front-end loop ended.
enum Exit {
    Quit,
    /// The GUI chose another game with `UCI_Variant`.
    Switch(Game),
}

pub fn run(d: Dialect, start: Start, input: Receiver<String>, out: Output) -> u8 {
    let mut options = options(d);
    let mut pending = start.first;
    match d {
        Dialect::Usi => {
            Frontend::<ShogiGame>::new(d, &options, out).run(&mut options, &input, pending);
        }
        Dialect::Ucci => {
            if let Some(game) = start.game.filter(|g| *g != Game::Xiangqi) {
                out.line(
                    &Info::text(format!("UCCI plays xiangqi; --game {game} is ignored")).line(d),
                );
            }
            Frontend::<XiangqiGame>::new(d, &options, out).run(&mut options, &input, pending);
        }
        Dialect::Uci => {
            let mut game = start.game.unwrap_or(Game::Chess);
            loop {
                if !VARIANTS.contains(&game) {
                    let text = format!("tengen cannot play {game} over UCI yet; playing chess");
                    out.line(&Info::text(text).line(d));
                    game = Game::Chess;
                }
                let _ = options.set("UCI_Variant", Some(game.name()));
                // Each playable variant gets its own monomorphised loop.
                let first = pending.take();
                let exit =
                    match game {
                        Game::Xiangqi => Frontend::<XiangqiGame>::new(d, &options, out.clone())
                            .run(&mut options, &input, first),
                        _ => Frontend::<ChessGame>::new(d, &options, out.clone()).run(
                            &mut options,
                            &input,
                            first,
                        ),
                    };
                match exit {
                    Exit::Quit => break,
                    Exit::Switch(g) => game = g,
                }
            }
        }
    };
    0
}

struct Frontend<G: AbGame> {
    d: Dialect,
    session: Session<G>,
    pos: G::Pos,
    out: Output,
    /// UCCI: the moves `banmoves` excluded from the next search.
    banned: Vec<Move<G>>,
    /// UCCI: a draw offer pending for the running search.
    draw_offer: Arc<AtomicBool>,
}

impl<G: AbGame> Frontend<G> {
    fn new(d: Dialect, options: &Options, out: Output) -> Self {
        let n = names(d);
        let mut session = Session::new(hash_mb(options.int(n.hash)));
        let threads = options.int(n.threads).max(1) as usize;
        if threads > 1 {
            session.with_searcher(|s| s.set_threads(threads));
        }
        Frontend {
            d,
            session,
            pos: G::startpos(),
            out,
            banned: Vec::new(),
            draw_offer: Arc::new(AtomicBool::new(false)),
        }
    }

    fn flags(&self, options: &Options) -> Flags {
        Flags {
            chess960: options.bool("UCI_Chess960"),
            uci_ranks: self.d == Dialect::Uci,
        }
    }

    /// A free-text `info` line (`info string`, UCCI `info message`).
    fn say(&self, text: &str) {
        self.out.line(&Info::text(text).line(self.d));
    }

    fn run(
        mut self,
        options: &mut Options,
        input: &Receiver<String>,
        first: Option<String>,
    ) -> Exit {
        let mut first = first;
        // UCCI opens with `ucci`; until then only `quit` is heard.
        let mut booted = self.d != Dialect::Ucci;
        loop {
            let line = match first.take().map(Ok).unwrap_or_else(|| input.recv()) {
                Ok(l) => l,
                // The GUI closed our stdin: same as quit.
                Err(_) => return self.quit(),
            };
            let cmd = match self.read(&line, options) {
                Ok(cmd) => cmd,
                Err(_) if !booted => continue,
                Err(e) => {
                    self.say(&format!("error: {e}; command ignored"));
                    // UCCI: `probe` is always answered, even a malformed one.
                    if self.d == Dialect::Ucci && line.split_whitespace().next() == Some("probe") {
                        self.out.line("pophash");
                    }
                    continue;
                }
            };
            if !booted {
                match cmd {
                    Cmd::Hello => booted = true,
                    Cmd::Quit => return self.quit(),
                    _ => continue,
                }
            }
            if let Some(exit) = self.handle(cmd, options) {
                return exit;
            }
            if self.d == Dialect::Ucci && options.bool("batch") && !self.session.pondering() {
                // Batch mode reads nothing while thinking; a ponder or
                // infinite search still listens, or nothing could end it.
                self.session.wait();
            }
        }
    }

    /// Reads a line of the dialect into a [`Cmd`].
    fn read(&self, line: &str, options: &Options) -> Result<Cmd, String> {
        Ok(match self.d {
            Dialect::Uci => match uci::parse(line)? {
                None if line.trim().is_empty() => Cmd::Nothing,
                None => Cmd::Unknown(line.trim().to_string()),
                Some(c) => match c {
                    uci::Command::Uci => Cmd::Hello,
                    uci::Command::Debug(_) => Cmd::Nothing,
                    uci::Command::IsReady => Cmd::IsReady,
                    uci::Command::SetOption { name, value } => Cmd::SetOption(name, value),
                    uci::Command::Register => Cmd::Register,
                    uci::Command::UciNewGame => Cmd::NewGame,
                    uci::Command::Position { fen, moves } => Cmd::Position(fen, moves),
                    uci::Command::Go(go) => Cmd::Go(self.uci_go(go, options)),
                    uci::Command::Stop => Cmd::Stop,
                    uci::Command::PonderHit => Cmd::PonderHit { draw: false },
                    uci::Command::Quit => Cmd::Quit,
                },
            },
            Dialect::Usi => match usi::parse(line)? {
                None => Cmd::Nothing,
                Some(c) => match c {
                    usi::Command::Usi => Cmd::Hello,
                    usi::Command::Debug(_) | usi::Command::Register(_) => Cmd::Nothing,
                    usi::Command::IsReady => Cmd::IsReady,
                    usi::Command::SetOption { name, value } => Cmd::SetOption(name, value),
                    usi::Command::UsiNewGame => Cmd::NewGame,
                    usi::Command::Position { sfen, moves } => Cmd::Position(sfen, moves),
                    usi::Command::Go(go) => Cmd::Go(self.usi_go(go, options)),
                    usi::Command::Stop => Cmd::Stop,
                    usi::Command::PonderHit => Cmd::PonderHit { draw: false },
                    usi::Command::GameOver(_) => Cmd::GameOver,
                    usi::Command::Quit => Cmd::Quit,
                    usi::Command::Unknown(w) => Cmd::Unknown(w),
                },
            },
            Dialect::Ucci => match ucci::parse(line)? {
                None => Cmd::Nothing,
                Some(c) => match c {
                    ucci::Command::Ucci => Cmd::Hello,
                    ucci::Command::IsReady => Cmd::IsReady,
                    ucci::Command::SetOption { name, value } => Cmd::SetOption(name, value),
                    ucci::Command::Position { fen, moves } => Cmd::Position(fen, moves),
                    ucci::Command::BanMoves(moves) => Cmd::BanMoves(moves),
                    ucci::Command::Go(go) => Cmd::Go(self.ucci_go(go, options)),
                    ucci::Command::PonderHit { draw } => Cmd::PonderHit { draw },
                    ucci::Command::Stop => Cmd::Stop,
                    ucci::Command::Probe { fen, moves } => Cmd::Probe(fen, moves),
                    ucci::Command::Quit => Cmd::Quit,
                    ucci::Command::Unknown(w) => Cmd::Unknown(w),
                },
            },
        })
    }

    fn handle(&mut self, cmd: Cmd, options: &mut Options) -> Option<Exit> {
        match cmd {
            Cmd::Hello => self.hello(options),
            Cmd::IsReady => self.out.line("readyok"),
            Cmd::Register => self.say("no registration needed"),
            Cmd::SetOption(name, value) => return self.set_option(options, &name, value),
            Cmd::NewGame => {
                self.halt();
                self.session.with_searcher(|s| s.clear());
                self.pos = G::startpos();
            }
            Cmd::Position(fen, moves) => {
                // UCCI sets the position beside a running (ponder) search;
                // UCI and USI end the search first.
                if self.d != Dialect::Ucci {
                    self.halt();
                }
                match self.position(fen.as_deref(), &moves, options) {
                    Ok(p) => {
                        self.pos = p;
                        self.banned.clear();
                    }
                    Err(e) => self.say(&format!("error: {e}; position unchanged")),
                }
            }
            Cmd::Go(go) => self.go(go, options),
            Cmd::Stop => {
                if self.d == Dialect::Ucci && !self.session.searching() {
                    // UCCI: a stop while idle gets `nobestmove`.
                    self.session.wait();
                    self.out.line("nobestmove");
                } else {
                    self.session.stop();
                    if self.d == Dialect::Ucci {
                        self.session.wait();
                    }
                }
            }
            Cmd::PonderHit { draw } => {
                if self.session.pondering() {
                    if draw {
                        self.draw_offer.store(true, Ordering::Release);
                    }
                    self.session.ponderhit();
                }
            }
            // The game is over: a running search (pondering, usually)
            // ends without a `bestmove`, which no GUI expects now.
            Cmd::GameOver => self.session.abandon(),
            Cmd::BanMoves(moves) => {
                let flags = self.flags(options);
                let parsed: Result<Vec<_>, String> = moves
                    .iter()
                    .map(|m| G::parse_move(&self.pos, m, flags))
                    .collect();
                match parsed {
                    Ok(list) => self.banned = list,
                    Err(e) => self.say(&format!("error: banmoves ignored: {e}")),
                }
            }
            Cmd::Probe(fen, moves) => self.probe(fen.as_deref(), &moves, options),
            Cmd::Quit => return Some(self.quit()),
            Cmd::Unknown(text) => match self.d {
                Dialect::Uci => self.say(&format!("unknown command: {text}")),
                Dialect::Usi => self.say(&format!("unknown command '{text}' ignored")),
                Dialect::Ucci if options.bool("debug") => {
                    self.say(&format!("unknown command '{text}' ignored"))
                }
                Dialect::Ucci => {}
            },
            Cmd::Nothing => {}
        }
        None
    }

    fn hello(&self, options: &Options) {
        let d = self.d;
        let mut lines = vec![format!("id name tengen {}", env!("CARGO_PKG_VERSION"))];
        if d == Dialect::Ucci {
            lines.push("id copyright the tengen developers, GPL-3.0-or-later".into());
        }
        lines.push("id author the tengen developers".into());
        lines.extend(options.iter().map(|o| announce(d, &o.name, &o.kind)));
        lines.push(d.ok().into());
        self.out.lines(lines.iter().map(String::as_str));
    }

    /// Ends any search (its reply is printed) before the state changes.
    fn halt(&mut self) {
        if self.session.searching() {
            self.session.stop();
        }
        self.session.wait();
    }

    fn quit(&mut self) -> Exit {
        self.session.stop();
        self.session.wait();
        if self.d == Dialect::Ucci {
            self.out.line("bye");
        }
        Exit::Quit
    }

    fn set_option(
        &mut self,
        options: &mut Options,
        name: &str,
        value: Option<String>,
    ) -> Option<Exit> {
        let d = self.d;
        let n = names(d);
        let name = canonical(d, name);
        match d {
            Dialect::Uci if self.session.searching() => {
                self.say(&format!("option '{name}' not changed: a search is running"));
                return None;
            }
            Dialect::Ucci
                if self.session.searching()
                    && [n.hash, n.threads, "newgame"].contains(&name.as_str()) =>
            {
                self.say(&format!("option {name} not changed while thinking"));
                return None;
            }
            Dialect::Usi => self.halt(),
            _ => {}
        }
        // UCCI: a check option named without a value is switched on.
        let is_check = options
            .iter()
            .any(|o| o.name == name && matches!(o.kind, OptionKind::Check { .. }));
        let value = match value {
            None if d == Dialect::Ucci && is_check => Some("true".to_string()),
            v => v,
        };
        let old = options.clone();
        let (name, stored) = match options.set(&name, value.as_deref()) {
            Ok(set) => set,
            // GUIs send the saved options of other engines: USI and UCCI
            // ignore an option we never declared (UCCI says so in debug).
            Err(OptionError::Unknown(_)) if d != Dialect::Uci => {
                if d == Dialect::Ucci && options.bool("debug") {
                    self.say(&format!("option {name} is not used by this engine"));
                }
                return None;
            }
            Err(e) => {
                self.say(&format!("error: {e}; unchanged"));
                return None;
            }
        };
        let applied = match (name.as_str(), stored) {
            (h, OptionValue::Int(mb)) if h == n.hash => {
                self.session.with_searcher(|s| s.set_hash(hash_mb(mb)))
            }
            (t, OptionValue::Int(k)) if t == n.threads => {
                let k = k.max(1) as usize;
                self.session.with_searcher(|s| s.set_threads(k));
                Ok(())
            }
            ("Clear Hash", _) => {
                self.session.with_searcher(|s| s.clear());
                Ok(())
            }
            ("UCI_Variant", OptionValue::Text(v)) => {
                if let Ok(g) = v.parse::<Game>() {
                    return Some(Exit::Switch(g));
                }
                Ok(())
            }
            ("EvalFile" | "evalfile", OptionValue::Text(path)) => {
                G::load_eval_file(&path).map(|line| self.say(&line))
            }
            ("drawmoves", OptionValue::Int(moves)) => {
                G::set_move_limit(&mut self.pos, 2 * moves as u32);
                Ok(())
            }
            ("newgame", _) => {
                self.session.with_searcher(|s| s.clear());
                self.pos = G::startpos();
                G::set_move_limit(&mut self.pos, 2 * options.int("drawmoves") as u32);
                self.banned.clear();
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(e) = applied {
            // The engine keeps what it had, and so does the option table.
            *options = old;
            self.say(&format!(
                "error: {name} {} refused: {e}",
                value.unwrap_or_default()
            ));
        }
        None
    }

    /// The position a `position`/`probe` names, checked whole.
    fn position(
        &self,
        fen: Option<&str>,
        moves: &[String],
        options: &Options,
    ) -> Result<G::Pos, String> {
        let mut pos = G::position(fen, moves, self.flags(options))?;
        if self.d == Dialect::Ucci {
            G::set_move_limit(&mut pos, 2 * options.int("drawmoves") as u32);
        }
        Ok(pos)
    }

    /// UCCI `probe`: straight from the transposition table, so every
    /// position the search met is known, during a search too.
    fn probe(&self, fen: Option<&str>, moves: &[String], options: &Options) {
        let pos = match self.position(fen, moves, options) {
            Ok(p) => p,
            Err(e) => {
                self.say(&format!("error: {e}"));
                self.out.line("pophash");
                return;
            }
        };
        let hash = match self.session.probe(&pos) {
            Some(p) => {
                let score = ucci_score(p.score);
                let depth = p.depth.max(0) as u32;
                let lower = matches!(p.bound, Bound::Lower | Bound::Exact);
                let upper = matches!(p.bound, Bound::Upper | Bound::Exact);
                ucci::PopHash {
                    bestmove: p.mv.map(|m| G::move_name(&pos, m, self.flags(options))),
                    lowerbound: lower.then_some((score, depth)),
                    upperbound: upper.then_some((score, depth)),
                }
            }
            None => ucci::PopHash::default(),
        };
        self.out.line(&ucci::Reply::PopHash(hash).to_string());
    }

    fn go(&mut self, go: Go, options: &Options) {
        let d = self.d;
        self.halt();
        let flags = self.flags(options);
        if let Some(depth) = go.perft {
            return self.perft(depth, flags);
        }
        if let Some(time) = go.tsume {
            return self.go_mate(time, options);
        }
        let root = self.pos.clone();
        let mut root_moves = Vec::new();
        for text in &go.searchmoves {
            match G::parse_move(&root, text, flags) {
                Ok(m) => root_moves.push(m),
                Err(e) => self.say(&format!("searchmoves: '{text}' ignored: {e}")),
            }
        }
        let mut limits = go.limits;
        // Strength limiting: UCI's options (inactive in the other tables).
        let skill = Skill::from_options(options);
        skill.adjust(&mut limits);
        // UCCI: every banned move is left out; none left is no move.
        let mut nothing_to_play = false;
        if !self.banned.is_empty() {
            let mut legal = Vec::new();
            root.generate(GenKind::All, &mut legal);
            legal.retain(|m| !self.banned.contains(m));
            nothing_to_play = legal.is_empty();
            // Every move banned while pondering: the search gets the
            // banned moves only to have something to hold until
            // stop/ponderhit, and its answer is `nobestmove` regardless.
            root_moves = if nothing_to_play {
                self.banned.clone()
            } else {
                legal
            };
        } else if d == Dialect::Ucci {
            let mut legal = Vec::new();
            root.generate(GenKind::All, &mut legal);
            nothing_to_play = legal.is_empty();
        }
        if go.eval_only {
            let score = Score(G::Eval::default().evaluate(&root));
            let info = Info {
                depth: Some(0),
                score: Some(grammar::Score::Cp(ucci_score(score))),
                ..Info::default()
            };
            self.out.line(&info.line(d));
            self.out.line("nobestmove");
            return;
        }
        if nothing_to_play && !limits.ponder {
            // Mated, stalemated, or every move banned.
            self.out.line("nobestmove");
            return;
        }
        // USI: a valid entering-king declaration wins at once (unless the
        // GUI asked us to ponder or analyse, which must wait for a stop).
        let declare = G::can_declare_win(&root);
        if declare && !limits.ponder && !limits.infinite {
            self.out.line("bestmove win");
            return;
        }
        self.draw_offer.store(go.draw, Ordering::Release);

        let out = self.out.clone();
        let events_root = root.clone();
        let style = InfoStyle {
            d,
            show_wdl: options.bool("UCI_ShowWDL"),
            show_multipv: d == Dialect::Uci || limits.multipv > 1,
            game_ply: G::game_ply(&root),
        };
        // The latest exact line per rank, for strength limiting.
        let lines: Arc<Mutex<Vec<Report<Move<G>>>>> = Arc::default();
        let lines_seen = Arc::clone(&lines);
        let on_event = move |ev: Event<Move<G>>| match ev {
            Event::Line(r) => {
                let name = |pos: &G::Pos, m| G::move_name(pos, m, flags);
                let infos = style.line::<G>(&events_root, &r, name);
                let text: Vec<String> = infos.iter().map(|i| i.line(style.d)).collect();
                out.lines(text.iter().map(String::as_str));
                if r.bound == Bound::Exact && skill.active() {
                    if let Ok(mut l) = lines_seen.lock() {
                        let slot = r.multipv.saturating_sub(1);
                        if l.len() <= slot {
                            l.resize(slot + 1, r.clone());
                        }
                        l[slot] = r;
                    }
                }
            }
            Event::CurrMove { depth, mv, number } => {
                let ucci = style.d == Dialect::Ucci;
                let info = Info {
                    depth: (!ucci).then_some(depth),
                    currmove: Some(G::move_name(&events_root, mv, flags)),
                    currmovenumber: (!ucci).then_some(number),
                    ..Default::default()
                };
                out.line(&info.line(style.d));
            }
            Event::Stats {
                depth,
                nodes,
                time_ms,
                hashfull,
            } => {
                let ucci = style.d == Dialect::Ucci;
                let info = Info {
                    depth: (!ucci).then_some(depth),
                    nodes: Some(nodes),
                    nps: (!ucci).then_some(nodes.saturating_mul(1000) / time_ms.max(1)),
                    hashfull: (!ucci).then_some(hashfull),
                    time: Some(time_ms),
                    ..Default::default()
                };
                out.line(&info.line(style.d));
            }
        };
        let out = self.out.clone();
        let draw_offer = Arc::clone(&self.draw_offer);
        // USI: a ponder move only for a GUI that enabled pondering.
        let offer_ponder = d != Dialect::Usi || options.bool("USI_Ponder");
        self.session
            .go(root.clone(), limits, root_moves, on_event, move |result| {
                let best = match lines.lock() {
                    Ok(l) if skill.active() => skill.pick(&l, result.best),
                    _ => result.best,
                };
                let name = |pos: &G::Pos, m| G::move_name(pos, m, flags);
                // Only a ponder move that is legal after ours, and only
                // after the move the search chose.
                let ponder = best.zip(result.ponder).and_then(|(m, p)| {
                    let mut after = root.clone();
                    after.make(m);
                    let ok = offer_ponder && Some(m) == result.best && after.is_legal(p);
                    ok.then(|| name(&after, p))
                });
                let best = best.map(|m| name(&root, m));
                let line = match d {
                    Dialect::Uci => uci::Reply::BestMove {
                        mv: best.unwrap_or_else(|| "(none)".into()),
                        ponder,
                    }
                    .to_string(),
                    Dialect::Usi => usi::Reply::BestMove(match best {
                        _ if declare => usi::BestMove::Win,
                        None => usi::BestMove::Resign,
                        Some(mv) => usi::BestMove::Move { mv, ponder },
                    })
                    .to_string(),
                    Dialect::Ucci if nothing_to_play => ucci::Reply::NoBestMove.to_string(),
                    Dialect::Ucci => {
                        let offered = draw_offer.load(Ordering::Acquire);
                        ucci_final(&result, best, ponder, offered, G::game_ply(&root) / 2 + 1)
                            .to_string()
                    }
                };
                out.line(&line);
            });
    }

    fn perft(&mut self, depth: u32, flags: Flags) {
        let mut pos = self.pos.clone();
        let counts = G::divide(&mut pos, depth.max(1));
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        let mut lines: Vec<String> = counts
            .iter()
            .map(|(m, n)| format!("{}: {n}", G::move_name(&self.pos, *m, flags)))
            .collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        if self.d != Dialect::Ucci {
            lines.push(String::new());
        }
        self.out.lines(lines.iter().map(String::as_str));
    }

    /// USI `go mate`: a mate search run as a [`Session`] job, so `stop`,
    /// `gameover` and `quit` end it the way they end a search.
    fn go_mate(&mut self, time: Option<Duration>, options: &Options) {
        let pos = self.pos.clone();
        let out = self.out.clone();
        let flags = self.flags(options);
        let entries = ((options.int(names(self.d).hash) as usize) << 20) / 48;
        let solve = move |_: &mut _, signals: &tengen_core::Signals| {
            let start = Instant::now();
            let found = G::solve_mate(&pos, time, signals.stop_flag(), entries.max(1 << 16));
            let ms = start.elapsed().as_millis() as u64;
            (pos, found, ms)
        };
        self.session
            .job(256 << 20, false, solve, move |(pos, found, ms)| {
                let answer = match found {
                    Some((Tsume::Mate(line), nodes)) => {
                        let mut names = Vec::with_capacity(line.len());
                        let mut at = pos.clone();
                        for &m in &line {
                            names.push(G::move_name(&at, m, flags));
                            at.make(m);
                        }
                        let info = Info {
                            time: Some(ms),
                            nodes: Some(nodes),
                            nps: Some(nodes.saturating_mul(1000) / ms.max(1)),
                            score: Some(grammar::Score::Mate(line.len() as i32)),
                            pv: names.clone(),
                            ..Default::default()
                        };
                        out.line(&info.line(Dialect::Usi));
                        usi::Checkmate::Moves(names)
                    }
                    Some((Tsume::NoMate, _)) => usi::Checkmate::NoMate,
                    Some((Tsume::Timeout, _)) => usi::Checkmate::Timeout,
                    None => usi::Checkmate::NotImplemented,
                };
                out.line(&usi::Reply::Checkmate(answer).to_string());
            });
    }

    /// UCI `go`: the clock of the side to move, the increment credited
    /// after the move.
    fn uci_go(&self, go: uci::Go, options: &Options) -> Go {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let (mine, mine_inc, theirs) = if G::first_player_to_move(&self.pos) {
            (go.wtime, go.winc, go.btime)
        } else {
            (go.btime, go.binc, go.wtime)
        };
        let increment = ms(mine_inc.unwrap_or(0));
        let time = mine.map(|t| TimeControl {
            remaining: ms(t),
            increment,
            moves_to_go: go
                .movestogo
                .filter(|&m| m > 0)
                .or_else(|| G::TIME.horizon(increment)),
            opponent_remaining: theirs.map(ms),
            ..Default::default()
        });
        let mut limits = SearchLimits {
            time,
            move_time: go.movetime.map(ms),
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            multipv: options.int("MultiPV").max(1) as usize,
            overhead: ms(options.int("Move Overhead")),
            game_ply: G::game_ply(&self.pos),
        };
        if let Some(m) = go.mate {
            // A mate in n moves needs at most 2n-1 plies.
            let plies = (2 * m).saturating_sub(1).max(1);
            limits.depth = Some(limits.depth.unwrap_or(u32::MAX).min(plies));
        }
        if limits.is_unbounded() && !limits.ponder {
            // A bare `go`: the spec leaves it open; search until stopped.
            limits.infinite = true;
        }
        Go {
            limits,
            perft: go.perft,
            searchmoves: go.searchmoves,
            tsume: None,
            draw: false,
            eval_only: false,
        }
    }

    /// USI `go`: `b*` is sente's clock; an increment counts before the
    /// move (it is usable now); byo-yomi is spent whole once main time is.
    fn usi_go(&self, go: usi::Go, options: &Options) -> Go {
        let ms = Duration::from_millis;
        let overhead_ms = options.int("MoveOverhead") as u64;
        let (mine, inc, theirs) = if G::first_player_to_move(&self.pos) {
            (go.btime, go.binc, go.wtime)
        } else {
            (go.wtime, go.winc, go.btime)
        };
        let byoyomi = go.byoyomi.unwrap_or(0);
        let time = (mine.is_some() || byoyomi > 0 || inc.is_some()).then(|| TimeControl {
            remaining: ms(mine.unwrap_or(0)),
            increment: ms(inc.unwrap_or(0)),
            byoyomi: ms(byoyomi),
            byoyomi_moves: 0,
            moves_to_go: go
                .movestogo
                .filter(|&m| m > 0)
                .or_else(|| G::TIME.horizon(ms(inc.unwrap_or(0)))),
            opponent_remaining: theirs.map(ms),
            credit: Credit::BeforeMove,
        });
        let mut limits = SearchLimits {
            time,
            move_time: go.movetime.map(ms),
            depth: go.depth,
            nodes: go.nodes,
            mate: None,
            infinite: go.infinite,
            ponder: go.ponder,
            multipv: options.int("MultiPV").max(1) as usize,
            overhead: ms(overhead_ms),
            game_ply: G::game_ply(&self.pos),
        };
        if let Some(tc) = &limits.time {
            if tc.remaining.is_zero() && tc.byoyomi.is_zero() && tc.increment.is_zero() {
                // A clock of zero, no byo-yomi, no increment: move at once.
                limits.time = None;
                limits.move_time = Some(ms(overhead_ms.max(50)));
            } else if tc.remaining.is_zero() && tc.increment.is_zero() && limits.move_time.is_none()
            {
                // Main time spent, Japanese byo-yomi left: a period is lost
                // unless used, so think for all of it (less the overhead)
                // instead of stopping at the soft limit after an iteration.
                limits.move_time = Some(tc.byoyomi);
                limits.time = None;
            }
        }
        if limits.is_unbounded() && !limits.infinite && !limits.ponder {
            // A bare `go` (cshogi without a time control) waits for a move.
            limits.move_time = Some(ms(options.int("DefaultMoveTime") as u64));
        }
        let tsume = go.mate.map(|limit| match limit {
            usi::MateLimit::Millis(t) => Some(ms(t.saturating_sub(overhead_ms.min(t / 2)))),
            usi::MateLimit::Infinite => None,
        });
        Go {
            limits,
            perft: go.perft,
            searchmoves: go.searchmoves,
            tsume,
            draw: false,
            eval_only: false,
        }
    }

    /// UCCI `go`: our own clock in seconds (milliseconds after
    /// `usemillisec`); `go infinite` waits for `stop` like a ponder search.
    fn ucci_go(&self, go: ucci::Go, options: &Options) -> Go {
        let millis = options.bool("usemillisec");
        let unit = |v: u64| {
            if millis {
                Duration::from_millis(v)
            } else {
                Duration::from_secs(v.min(1 << 40))
            }
        };
        let mut limits = SearchLimits {
            multipv: 1,
            ponder: go.ponder || go.infinite,
            infinite: go.infinite,
            depth: go.depth,
            nodes: go.nodes,
            overhead: G::TIME.overhead,
            game_ply: G::game_ply(&self.pos),
            ..SearchLimits::default()
        };
        if let Some(t) = go.time {
            let increment = go.increment.map(unit).unwrap_or_default();
            limits.time = Some(TimeControl {
                remaining: unit(t),
                increment,
                moves_to_go: go.movestogo.or_else(|| G::TIME.horizon(increment)),
                opponent_remaining: go.opptime.map(unit),
                ..TimeControl::default()
            });
        }
        if limits.is_unbounded() && !limits.infinite {
            // A bare `go`: our own default limit, ended by ourselves.
            limits.move_time = Some(Duration::from_secs(5));
        }
        Go {
            limits,
            perft: go.perft,
            searchmoves: Vec::new(),
            tsume: None,
            draw: go.draw,
            eval_only: go.depth == Some(0) && !go.infinite,
        }
    }
}

/// How a dialect reports a principal variation.
#[derive(Clone, Copy)]
struct InfoStyle {
    d: Dialect,
    show_wdl: bool,
    show_multipv: bool,
    game_ply: u32,
}

impl InfoStyle {
    /// The `info` lines for one reported line: UCI's and USI's one line
    /// (mates in moves for UCI, in plies for USI), UCCI's two (score and
    /// moves, then time and nodes).
    fn line<G: AbGame>(
        &self,
        root: &G::Pos,
        r: &Report<Move<G>>,
        name: impl Fn(&G::Pos, Move<G>) -> String,
    ) -> Vec<Info> {
        let mut pos = root.clone();
        let mut pv = Vec::with_capacity(r.pv.len());
        for &m in &r.pv {
            pv.push(name(&pos, m));
            pos.make(m);
        }
        let score = match self.d {
            Dialect::Uci => r.score.mate_moves().map(grammar::Score::Mate),
            Dialect::Usi => r.score.mate_plies().map(grammar::Score::Mate),
            Dialect::Ucci => None,
        };
        let score = score.unwrap_or_else(|| match self.d {
            Dialect::Ucci => grammar::Score::Cp(ucci_score(r.score)),
            _ => grammar::Score::Cp(r.score.0),
        });
        if self.d == Dialect::Ucci {
            let moves = Info {
                depth: Some(r.depth),
                score: Some(score),
                pv,
                ..Info::default()
            };
            let stats = Info {
                time: Some(r.time_ms),
                nodes: Some(r.nodes),
                ..Info::default()
            };
            return vec![moves, stats];
        }
        let uci = self.d == Dialect::Uci;
        vec![Info {
            depth: Some(r.depth),
            seldepth: Some(r.seldepth.max(r.depth)),
            multipv: self.show_multipv.then_some(r.multipv),
            score: Some(score),
            bound: match r.bound {
                Bound::Lower => Some(grammar::Bound::Lower),
                Bound::Upper => Some(grammar::Bound::Upper),
                _ => None,
            },
            wdl: (uci && self.show_wdl).then(|| wdl(r.score, self.game_ply)),
            nodes: Some(r.nodes),
            nps: Some(r.nps()),
            hashfull: Some(r.hashfull),
            tbhits: uci.then_some(0),
            time: Some(r.time_ms),
            pv,
            ..Default::default()
        }]
    }
}

/// A score in UCCI units (100 = a horse); mates as ±(10000 - plies).
fn ucci_score(s: Score) -> i32 {
    match s.mate_plies() {
        Some(p) if p > 0 => 10_000 - p,
        Some(p) => -10_000 - p,
        None => s.0 * 100 / tengen_xiangqi::HORSE_VALUE,
    }
}

/// UCCI's `bestmove` with the draw and resign decisions, or `nobestmove`.
/// An offered draw is accepted when we stand worse; we offer one ourselves
/// late in a game the search calls dead level.
fn ucci_final<M>(
    r: &SearchResult<M>,
    best: Option<String>,
    ponder: Option<String>,
    draw_offered: bool,
    move_number: u32,
) -> ucci::Reply {
    let Some(mv) = best else {
        return ucci::Reply::NoBestMove;
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
    ucci::Reply::BestMove {
        mv,
        ponder,
        draw: (accept || offer) && !resign,
        resign,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::timeman::{TimeManager, SHOGI, XIANGQI};
    use tengen_xiangqi::HORSE_VALUE;

    fn result(score: i32, depth: u32) -> SearchResult<u16> {
        SearchResult {
            best: Some(1),
            ponder: None,
            score: Score(score),
            depth,
            nodes: 0,
        }
    }

    fn has(r: ucci::Reply, word: &str) -> bool {
        r.to_string().split(' ').any(|w| w == word)
    }

    fn decide(score: i32, depth: u32, offered: bool, move_number: u32) -> ucci::Reply {
        let r = result(score, depth);
        ucci_final(&r, Some("h2e2".into()), None, offered, move_number)
    }

    #[test]
    fn ucci_draw_and_resign_decisions() {
        assert!(has(decide(-100, 10, true, 20), "draw"), "accept when worse");
        assert!(
            !has(decide(50, 10, true, 20), "draw"),
            "decline when better"
        );
        assert!(!has(decide(0, 10, false, 20), "draw"), "no offer early");
        assert!(
            has(decide(0, 10, false, 80), "draw"),
            "offer when dead level"
        );
        assert!(has(decide(-3000, 10, false, 20), "resign"));
        assert!(has(decide(Score::mated_in(5).0, 3, false, 20), "resign"));
        assert!(!has(decide(-300, 10, false, 20), "resign"));
        // Lost, with a draw on offer: take the draw, never both words.
        let both = decide(-3000, 10, true, 20);
        assert!(has(both.clone(), "draw") && !has(both, "resign"));
        let none = ucci_final(&result(0, 1), None, None, false, 1);
        assert_eq!(none, ucci::Reply::NoBestMove);
    }

    #[test]
    fn ucci_clock_is_spent_early_and_never_runs_out() {
        let inc = Duration::from_millis(100);
        let plan = |ms: u64| {
            let tc = TimeControl {
                remaining: Duration::from_millis(ms),
                increment: inc,
                moves_to_go: XIANGQI.horizon(inc),
                ..TimeControl::default()
            };
            TimeManager::new(&tc, Duration::from_millis(50), 0)
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
    fn usi_increment_clock_is_spent_early_and_never_runs_out() {
        let inc = Duration::from_millis(100);
        let overhead = Duration::from_millis(options(Dialect::Usi).int("MoveOverhead") as u64);
        let plan = |ms: u64, ply: u32| {
            let tc = TimeControl {
                remaining: Duration::from_millis(ms),
                increment: inc,
                moves_to_go: SHOGI.horizon(inc),
                ..TimeControl::default()
            };
            TimeManager::new(&tc, overhead, ply)
        };
        // 10 s + 0.1 s: the opening gets about as long as Fairy-Stockfish
        // thinks there (~0.5 s), not the ~0.25 s of the 40-move default.
        let first = plan(10_000, 0);
        assert!(first.soft >= Duration::from_millis(300), "{first:?}");
        assert!(first.hard <= Duration::from_millis(2_500), "{first:?}");
        // Worst case: every move runs to its hard limit plus 10 ms of
        // latency; a 300-move game still never empties the clock.
        let mut clock = 10_000i64;
        for ply in 0..300 {
            clock -= plan(clock as u64, 2 * ply).hard.as_millis() as i64 + 10;
            assert!(clock > 100, "move {ply}: {clock}");
            clock += 100;
        }
        assert_eq!(SHOGI.horizon(Duration::ZERO), None);
    }

    #[test]
    fn scores_in_ucci_units() {
        assert_eq!(ucci_score(Score(HORSE_VALUE)), 100);
        assert_eq!(ucci_score(Score(-HORSE_VALUE / 2)), -50);
        assert_eq!(ucci_score(Score::mate_in(3)), 9997);
        assert_eq!(ucci_score(Score::mated_in(4)), -9996);
    }

    /// Each dialect announces its options in its own syntax, from one
    /// option table per dialect.
    #[test]
    fn options_are_announced_in_each_dialects_syntax() {
        let lines = |d: Dialect| -> Vec<String> {
            options(d)
                .iter()
                .map(|o| announce(d, &o.name, &o.kind))
                .collect()
        };
        let uci = lines(Dialect::Uci);
        assert!(uci.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
        assert!(uci.contains(&"option name Clear Hash type button".into()));
        let ucci = lines(Dialect::Ucci);
        assert!(ucci.contains(&"option hashsize type spin min 0 max 65536 default 16".into()));
        assert!(ucci.contains(&"option pruning type combo var large default large".into()));
        let usi = lines(Dialect::Usi);
        assert!(usi.contains(&"option name EvalFile type string default <default>".into()));
        assert_eq!(canonical(Dialect::Usi, "hash"), "USI_Hash");
        assert_eq!(canonical(Dialect::Ucci, "HashSize"), "hashsize");
    }
}
