//! CECP (the xboard/WinBoard protocol, version 2 and the version 1 forms)
//! over the alpha-beta [`Session`]: chess, Fischer random, xiangqi and
//! shogi, in XBoard's own notation for each (`cecp/wire.rs`).
//!
//! The engine keeps the game itself: the positions since `new` (or
//! `setboard`/`edit`) for `undo` and `remove`, which side it plays (none
//! in force mode), the clocks `time`/`otim`/`level`/`st` describe. A
//! search runs on the session's thread and prints `move X` itself; the
//! move also lands in a slot the loop reads before the next command, so
//! the GUI's reply always meets a board that has the engine's move on it.
//! `?` stops the search (the move follows); `force`, `new`, `undo`,
//! `result`, `setboard`, `edit` and a switch of variant end it without a
//! move. `analyze` runs an infinite search that restarts after each move
//! or take-back, `.` prints a status line and `exit` ends it.

mod wire;

use crate::games::chess::ChessGame;
use crate::games::shogi::ShogiGame;
use crate::games::xiangqi::XiangqiGame;
use crate::games::Game;
use crate::io::Output;
use crate::session::Session;
use crate::Start;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tengen_core::options::{OptionKind, OptionValue, Options};
use tengen_core::report::{Bound, Event};
use tengen_core::{Score, SearchLimits, TimeControl};
use tengen_protocol::cecp::{
    self, Command, EditLine, FeatureValue, Level, MoveSet, OptionDecl, Reply,
};
use tengen_search::{GenKind, Position};
use wire::{CecpGame, Move};

/// The variants tengen plays, as `variant` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Normal,
    Fischer,
    Xiangqi,
    Shogi,
}

impl Variant {
    fn parse(name: &str) -> Option<Variant> {
        Some(match name {
            "normal" => Variant::Normal,
            "fischerandom" => Variant::Fischer,
            "xiangqi" => Variant::Xiangqi,
            "shogi" => Variant::Shogi,
            _ => return None,
        })
    }

    fn game(self) -> Game {
        match self {
            Variant::Normal | Variant::Fischer => Game::Chess,
            Variant::Xiangqi => Game::Xiangqi,
            Variant::Shogi => Game::Shogi,
        }
    }
}

const VARIANTS: &str = "normal,fischerandom,xiangqi,shogi";

/// Resign when the search proves a mate against us.
const RESIGN_MATE: bool = true;
/// Accept a draw offer when the last score was below this (centipawns).
const ACCEPT_DRAW_BELOW: i32 = -60;
/// Default thinking time with no clock, no `st`, no depth given.
const DEFAULT_MOVE_MS: u64 = 5000;

/// Settings that outlive a switch of game.
struct Settings {
    protover: u32,
    post: bool,
    level: Option<Level>,
    st_ms: Option<u64>,
    sd: Option<u32>,
    nps: Option<u64>,
    time_cs: Option<i64>,
    otim_cs: Option<i64>,
    hash_mb: usize,
    threads: usize,
    options: Options,
    /// Which side the engine plays: `Some(true)` the first player (White,
    /// Red, Sente), `None` force mode.
    engine_first: Option<bool>,
    variant: Variant,
    /// `hard`: think on the opponent's time, on the reply our search
    /// predicted (`easy` turns it off).
    ponder: bool,
}

/// The engine's options, one word each: python-chess reads an option's
/// name as the first word of its declaration.
fn options() -> Options {
    let mut o = Options::new();
    o.add(
        "MoveOverhead",
        OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    )
    .add("Resign", OptionKind::Check { default: true })
    .add(
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 64,
        },
    )
    .add("ClearHash", OptionKind::Button);
    o
}

/// An option as a `feature option="..."` declaration.
fn declare(name: &str, kind: &OptionKind) -> OptionDecl {
    let kind = match kind {
        OptionKind::Check { default } => cecp::OptionKind::Check(*default),
        OptionKind::Spin { default, min, max } => cecp::OptionKind::Spin {
            default: *default,
            min: *min,
            max: *max,
        },
        OptionKind::Combo { default, vars } => cecp::OptionKind::Combo {
            default: vars.iter().position(|v| v == default).unwrap_or(0),
            choices: vars.clone(),
        },
        OptionKind::Button => cecp::OptionKind::Button,
        OptionKind::String { default } => cecp::OptionKind::String(default.clone()),
    };
    OptionDecl {
        name: name.to_string(),
        kind,
    }
}

/// Why a game loop ended.
enum Exit {
    Quit,
    Switch(Variant),
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let variant = match start.game {
        Some(Game::Xiangqi) => Variant::Xiangqi,
        Some(Game::Shogi) => Variant::Shogi,
        _ => Variant::Normal,
    };
    let mut settings = Settings {
        protover: 1,
        post: false,
        level: None,
        st_ms: None,
        sd: None,
        nps: None,
        time_cs: None,
        otim_cs: None,
        hash_mb: 16,
        threads: 1,
        options: options(),
        engine_first: Some(false),
        variant,
        ponder: false,
    };
    if let Some(g) = start
        .game
        .filter(|g| !matches!(g, Game::Chess | Game::Xiangqi | Game::Shogi))
    {
        out.line(
            &Reply::TellUserError(format!("tengen plays {g} over other protocols")).to_string(),
        );
    }
    let mut first = start.first;
    loop {
        let exit = match settings.variant.game() {
            Game::Xiangqi => Frontend::<XiangqiGame>::new(&settings, out.clone()).run(
                &mut settings,
                &input,
                first.take(),
            ),
            Game::Shogi => Frontend::<ShogiGame>::new(&settings, out.clone()).run(
                &mut settings,
                &input,
                first.take(),
            ),
            _ => Frontend::<ChessGame>::new(&settings, out.clone()).run(
                &mut settings,
                &input,
                first.take(),
            ),
        };
        match exit {
            Exit::Quit => return 0,
            Exit::Switch(v) => settings.variant = v,
        }
    }
}

/// How often the input loop looks for our finished move while it waits
/// for the GUI, to start pondering (`hard`).
const PONDER_POLL: Duration = Duration::from_millis(5);

/// What the search thread hands back: the move it played (none when it
/// resigned or had none) for the search numbered `gen`.
struct Played<M> {
    gen: u64,
    mv: Option<M>,
    /// The reply the search expects (to ponder on).
    ponder: Option<M>,
}

/// The running search, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Thinking {
    Idle,
    /// On our own move: it ends in `move` (or a resignation).
    Move,
    /// Analyze mode: infinite, ends without a move.
    Analysis,
    /// `hard`: on the opponent's time, from the position after the reply
    /// we expect. The GUI playing that reply turns it into `Move` (its
    /// clock starting then); anything else abandons it.
    Ponder,
}

/// The last reported line, for `.`, `hint` and `draw`.
#[derive(Clone, Debug, Default)]
struct LastLine {
    depth: u32,
    time_ms: u64,
    nodes: u64,
    first: String,
    second: Option<String>,
}

struct Frontend<G: CecpGame> {
    session: Session<G>,
    out: Output,
    /// Positions since the game's start; the last is the current one.
    history: Vec<G::Pos>,
    chess960: bool,
    thinking: Thinking,
    gen: u64,
    played: Arc<Mutex<Option<Played<Move<G>>>>>,
    last: Arc<Mutex<LastLine>>,
    last_score: Arc<AtomicI32>,
    analyzing: bool,
    /// After `result` (or our own claim): no moves until `new`.
    game_over: bool,
    excluded: Vec<Move<G>>,
    /// Edit mode: the board being built, and whether pieces are White's.
    edit: Option<(Grid, bool)>,
    /// The reply our last search expects, to ponder on once our move is
    /// on the board.
    expected: Option<Move<G>>,
    /// While pondering: the reply pondered on.
    ponder_move: Option<Move<G>>,
    /// When our last own-move search started (a ponder search starts
    /// with our clock less what that search used).
    move_started: std::time::Instant,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

impl<G: CecpGame> Frontend<G> {
    fn new(settings: &Settings, out: Output) -> Self {
        let mut session = Session::new(settings.hash_mb);
        if settings.threads > 1 {
            session.with_searcher(|s| s.set_threads(settings.threads));
        }
        Frontend {
            session,
            out,
            history: vec![G::startpos()],
            chess960: settings.variant == Variant::Fischer,
            thinking: Thinking::Idle,
            gen: 0,
            played: Arc::new(Mutex::new(None)),
            last: Arc::default(),
            last_score: Arc::new(AtomicI32::new(0)),
            analyzing: false,
            game_over: false,
            excluded: Vec::new(),
            edit: None,
            expected: None,
            ponder_move: None,
            move_started: std::time::Instant::now(),
        }
    }

    fn pos(&self) -> &G::Pos {
        // `history` is never empty: it starts with one position and
        // `undo` keeps the first.
        &self.history[self.history.len() - 1]
    }

    fn reply(&self, r: Reply) {
        self.out.line(&r.to_string());
    }

    fn error(&self, reason: &str, command: &str) {
        self.reply(Reply::Error {
            reason: reason.into(),
            command: command.into(),
        });
    }

    fn run(
        mut self,
        settings: &mut Settings,
        input: &Receiver<String>,
        first: Option<String>,
    ) -> Exit {
        let mut first = first;
        loop {
            let line = loop {
                if let Some(l) = first.take() {
                    break Some(l);
                }
                // Pondering starts as soon as our move is out, not when
                // the next line comes: watch for it while we think.
                if self.thinking == Thinking::Move && settings.ponder {
                    match input.recv_timeout(PONDER_POLL) {
                        Ok(l) => break Some(l),
                        Err(RecvTimeoutError::Timeout) => {
                            self.sync();
                            self.start_ponder(settings);
                        }
                        Err(RecvTimeoutError::Disconnected) => break None,
                    }
                } else {
                    break input.recv().ok();
                }
            };
            let Some(line) = line else {
                self.abandon();
                return Exit::Quit;
            };
            self.sync();
            if self.edit.is_some() {
                self.edit_line(&line, settings);
                continue;
            }
            let cmd = match Command::parse(&line) {
                Ok(Some(c)) => c,
                Ok(None) => continue,
                Err(e) => {
                    self.error(&e, line.trim());
                    continue;
                }
            };
            if let Some(exit) = self.handle(cmd, settings) {
                self.abandon();
                return exit;
            }
            self.start_ponder(settings);
        }
    }

    /// Takes the engine's move from the search thread onto the board.
    fn sync(&mut self) {
        let played = lock(&self.played).take();
        if let Some(p) = played {
            if p.gen == self.gen && self.thinking == Thinking::Move {
                self.thinking = Thinking::Idle;
                self.expected = p.ponder;
                match p.mv {
                    Some(m) => {
                        let mut next = self.pos().clone();
                        next.make(m);
                        if G::outcome(&next).is_some() {
                            self.game_over = true;
                        }
                        self.history.push(next);
                        self.excluded.clear();
                    }
                    // Resigned (or no move): the game is over for us.
                    None => self.game_over = true,
                }
            }
        }
    }

    /// Ends any search without a move.
    fn abandon(&mut self) {
        if self.thinking != Thinking::Idle || self.session.searching() {
            self.session.abandon();
        }
        self.gen += 1;
        self.thinking = Thinking::Idle;
        self.ponder_move = None;
        self.expected = None;
        *lock(&self.played) = None;
    }

    /// With `hard`, once our move is on the board and the opponent is to
    /// move: search the position after the reply we expect, in ponder
    /// mode, so that the GUI playing it finds the search under way.
    fn start_ponder(&mut self, s: &Settings) {
        if !s.ponder
            || self.thinking != Thinking::Idle
            || self.game_over
            || self.analyzing
            || s.engine_first != Some(!self.first_to_move())
        {
            return;
        }
        let Some(m) = self.expected.take() else {
            return;
        };
        if !self.pos().is_legal(m) {
            return;
        }
        let mut after = self.pos().clone();
        after.make(m);
        if G::outcome(&after).is_some() {
            return;
        }
        // Our clock as it will be: the last `time` less what our last
        // search used (the GUI's next `time` comes with its move).
        let used = self.move_started.elapsed();
        self.history.push(after);
        let mut limits = self.limits(s);
        self.history.pop();
        if let Some(tc) = &mut limits.time {
            tc.remaining = tc.remaining.saturating_sub(used);
        }
        limits.ponder = true;
        self.ponder_move = Some(m);
        let mut root = self.pos().clone();
        root.make(m);
        self.search_from(root, limits, Vec::new(), s, Thinking::Ponder);
    }

    /// Lets an own-move search finish (its move printed and played) and
    /// ends an analysis, before a change to the searcher.
    fn quiesce(&mut self) {
        match self.thinking {
            Thinking::Ponder => self.abandon(),
            Thinking::Move => {
                self.session.wait();
                self.sync();
                // The search thread has been joined: its move, if it had
                // one, was taken just now.
                self.thinking = Thinking::Idle;
            }
            Thinking::Analysis => self.abandon(),
            Thinking::Idle => {}
        }
    }

    fn first_to_move(&self) -> bool {
        G::first_player_to_move(self.pos())
    }

    fn handle(&mut self, cmd: Command, s: &mut Settings) -> Option<Exit> {
        match cmd {
            Command::Xboard | Command::Accepted(_) | Command::Rejected(_) => {}
            Command::Protover(n) => {
                s.protover = n;
                self.features(s);
            }
            Command::New => {
                self.abandon();
                self.session.with_searcher(|x| x.clear());
                s.engine_first = Some(false);
                s.st_ms = None;
                s.sd = None;
                self.analyzing = false;
                self.game_over = false;
                if s.variant != Variant::Normal {
                    // `new` is standard chess; a `variant` may follow.
                    s.variant = Variant::Normal;
                    if G::FILES != 8 {
                        return Some(Exit::Switch(Variant::Normal));
                    }
                }
                self.chess960 = false;
                self.set_history(G::startpos());
            }
            Command::Variant(name) => match Variant::parse(&name) {
                None => self.error("unsupported variant", &format!("variant {name}")),
                Some(v) => {
                    self.abandon();
                    s.variant = v;
                    if v.game() != current_game::<G>() {
                        return Some(Exit::Switch(v));
                    }
                    self.chess960 = v == Variant::Fischer;
                    self.set_history(G::startpos());
                }
            },
            Command::Quit => return Some(Exit::Quit),
            Command::Random | Command::Computer | Command::Pause | Command::Resume => {}
            Command::Name(_) | Command::Rating { .. } | Command::Ics(_) => {}
            Command::Hard => s.ponder = true,
            Command::Easy => {
                s.ponder = false;
                if self.thinking == Thinking::Ponder {
                    self.abandon();
                }
            }
            Command::EgtPath { .. } => {}
            Command::Force => {
                self.abandon();
                s.engine_first = None;
            }
            Command::Go => {
                self.abandon();
                self.analyzing = false;
                s.engine_first = Some(self.first_to_move());
                self.think(s);
            }
            Command::PlayOther => {
                self.abandon();
                s.engine_first = Some(!self.first_to_move());
            }
            Command::White | Command::Black => {
                self.abandon();
                // Version 1: the named side is to move, the engine plays
                // the other one.
                s.engine_first = Some(matches!(cmd, Command::Black));
            }
            Command::Level(l) => {
                s.level = Some(l);
                s.st_ms = None;
            }
            Command::St(ms) => s.st_ms = Some(ms),
            Command::Sd(d) => s.sd = Some(d.max(1)),
            Command::Nps(n) => s.nps = (n > 0).then_some(n),
            Command::Time(cs) => s.time_cs = Some(cs),
            Command::Otim(cs) => s.otim_cs = Some(cs),
            Command::UserMove(mv) | Command::Move(mv) => self.user_move(&mv, s),
            Command::MoveNow => {
                if self.thinking == Thinking::Move {
                    self.session.stop();
                }
            }
            Command::Ping(n) => {
                // After every earlier command, the move a `go` asked for
                // included.
                if self.thinking == Thinking::Move {
                    self.quiesce();
                }
                self.reply(Reply::Pong(n));
            }
            Command::Draw => {
                if self.last_score.load(Ordering::Acquire) < ACCEPT_DRAW_BELOW && !self.game_over {
                    self.reply(Reply::OfferDraw);
                }
            }
            Command::Result { .. } => {
                self.abandon();
                self.analyzing = false;
                self.game_over = true;
                s.engine_first = None;
            }
            Command::SetBoard(fen) => {
                self.abandon();
                self.load_fen(&fen, s);
            }
            Command::Edit => {
                self.abandon();
                let grid = Grid::from_placement(
                    &G::placement(self.pos()),
                    G::FILES,
                    G::RANKS,
                    G::FIRST_RANK,
                );
                self.edit = Some((grid, true));
            }
            Command::Hint => {
                let hint = match (self.thinking, self.ponder_move) {
                    (Thinking::Ponder, Some(m)) => Some(G::wire_name(self.pos(), m, self.chess960)),
                    _ => lock(&self.last).second.clone(),
                };
                if let Some(m) = hint {
                    self.reply(Reply::Hint(m));
                }
            }
            Command::Bk => self.out.lines([" tengen has no opening book", ""]),
            Command::Undo | Command::Remove => {
                let plies = if matches!(cmd, Command::Undo) { 1 } else { 2 };
                self.abandon();
                if self.history.len() > plies {
                    self.history.truncate(self.history.len() - plies);
                    self.excluded.clear();
                    self.game_over = false;
                    self.restart_analysis(s);
                } else {
                    let text = if plies == 1 { "undo" } else { "remove" };
                    self.error("no move to take back", text);
                }
            }
            Command::Post => s.post = true,
            Command::NoPost => s.post = false,
            Command::Analyze => {
                self.abandon();
                self.analyzing = true;
                self.restart_analysis(s);
            }
            Command::Exit => {
                if self.analyzing {
                    self.abandon();
                    self.analyzing = false;
                }
            }
            Command::Status => {
                if self.thinking == Thinking::Analysis {
                    let l = lock(&self.last).clone();
                    let mut legal = Vec::new();
                    self.pos().generate(GenKind::All, &mut legal);
                    self.out.line(&format!(
                        "stat01: {} {} {} {} {} {}",
                        l.time_ms / 10,
                        l.nodes,
                        l.depth,
                        0,
                        legal.len(),
                        l.first
                    ));
                }
            }
            Command::Memory(mb) => {
                self.quiesce();
                let mb = mb.clamp(1, 65_536) as usize;
                match self.session.with_searcher(|x| x.set_hash(mb)) {
                    Ok(()) => s.hash_mb = mb,
                    Err(e) => self.error(&e, &format!("memory {mb}")),
                }
                self.restart_analysis(s);
            }
            Command::Cores(n) => {
                self.quiesce();
                let n = n.clamp(1, 256) as usize;
                self.session.with_searcher(|x| x.set_threads(n));
                s.threads = n;
                self.restart_analysis(s);
            }
            Command::Option { name, value } => self.set_option(s, &name, value),
            Command::Exclude(set) => self.filter(&set, true, s),
            Command::Include(set) => self.filter(&set, false, s),
            Command::Unknown(text) => self.error("unknown command", &text),
        }
        None
    }

    fn features(&self, s: &Settings) {
        let int = FeatureValue::Int;
        let text = |t: &str| FeatureValue::Str(t.to_string());
        let mut list = vec![cecp::feature("done", int(0))];
        let flags: Vec<(&str, FeatureValue)> = vec![
            ("ping", int(1)),
            ("setboard", int(1)),
            ("playother", int(1)),
            ("san", int(0)),
            ("usermove", int(1)),
            ("time", int(1)),
            ("draw", int(1)),
            ("sigint", int(0)),
            ("sigterm", int(0)),
            ("reuse", int(1)),
            ("analyze", int(1)),
            ("colors", int(0)),
            ("name", int(1)),
            ("nps", int(1)),
            ("memory", int(1)),
            ("smp", int(1)),
            ("exclude", int(1)),
            ("debug", int(1)),
            (
                "myname",
                text(&format!("tengen {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("variants", text(VARIANTS)),
        ];
        list.push(Reply::Feature(
            flags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        ));
        for o in s.options.iter() {
            let decl = declare(&o.name, &o.kind).to_string();
            list.push(cecp::feature("option", text(&decl)));
        }
        list.push(cecp::feature("done", int(1)));
        let lines: Vec<String> = list.iter().map(Reply::to_string).collect();
        self.out.lines(lines.iter().map(String::as_str));
    }

    fn set_history(&mut self, pos: G::Pos) {
        self.history = vec![pos];
        self.excluded.clear();
    }

    fn set_option(&mut self, s: &mut Settings, name: &str, value: Option<String>) {
        let old = s.options.clone();
        let stored = match s.options.set(name, value.as_deref()) {
            Ok((_, v)) => v,
            Err(e) => {
                let cmd = match &value {
                    Some(v) => format!("option {name}={v}"),
                    None => format!("option {name}"),
                };
                self.error(&e.to_string(), &cmd);
                return;
            }
        };
        if name.trim().eq_ignore_ascii_case("ClearHash") || stored == OptionValue::Pressed {
            self.quiesce();
            self.session.with_searcher(|x| x.clear());
            s.options = old;
            self.restart_analysis(s);
        }
    }

    fn filter(&mut self, set: &MoveSet, exclude: bool, s: &Settings) {
        let mut legal = Vec::new();
        self.pos().generate(GenKind::All, &mut legal);
        legal.retain(|&m| self.pos().is_legal(m));
        match set {
            MoveSet::All => {
                self.excluded = if exclude { legal } else { Vec::new() };
            }
            MoveSet::Move(text) => match G::parse_wire(self.pos(), text, self.chess960) {
                Ok(m) => {
                    self.excluded.retain(|&x| x != m);
                    if exclude {
                        self.excluded.push(m);
                    }
                }
                Err(e) => {
                    self.reply(Reply::IllegalMove {
                        reason: Some(e),
                        mv: text.clone(),
                    });
                    return;
                }
            },
        }
        if self.analyzing {
            self.abandon();
            self.restart_analysis(s);
        }
    }

    fn user_move(&mut self, text: &str, s: &mut Settings) {
        if self.thinking == Thinking::Ponder {
            let expected = self.ponder_move;
            match G::parse_wire(self.pos(), text, self.chess960) {
                Ok(m) if Some(m) == expected && s.engine_first == Some(!self.first_to_move()) => {
                    // Ponder hit: the running search becomes our move.
                    let mut next = self.pos().clone();
                    next.make(m);
                    self.history.push(next);
                    self.excluded.clear();
                    self.ponder_move = None;
                    self.thinking = Thinking::Move;
                    self.move_started = std::time::Instant::now();
                    self.session.ponderhit();
                    return;
                }
                _ => self.abandon(),
            }
        }
        if self.thinking == Thinking::Move {
            // Not the GUI's turn; take the move anyway, without ours.
            self.abandon();
        }
        let m = match G::parse_wire(self.pos(), text, self.chess960) {
            Ok(m) => m,
            Err(e) => {
                self.reply(Reply::IllegalMove {
                    reason: Some(e),
                    mv: text.to_string(),
                });
                return;
            }
        };
        if self.thinking == Thinking::Analysis {
            self.abandon();
        }
        let mut next = self.pos().clone();
        next.make(m);
        self.history.push(next);
        self.excluded.clear();
        if self.analyzing {
            self.restart_analysis(s);
            return;
        }
        let over = G::outcome(self.pos());
        if let Some((result, comment)) = over {
            self.game_over = true;
            if s.engine_first.is_some() {
                self.reply(Reply::Result { result, comment });
            }
            return;
        }
        if s.engine_first == Some(self.first_to_move()) && !self.game_over {
            self.think(s);
        }
    }

    /// `setboard` and the end of `edit`: the position replaces the game,
    /// or the GUI is told why not and the game stays.
    fn load_fen(&mut self, fen: &str, s: &Settings) {
        match G::from_wire_fen(fen, self.chess960) {
            Ok(p) => {
                self.set_history(p);
                self.game_over = false;
                self.restart_analysis(s);
            }
            Err(e) => self.reply(Reply::TellUserError(format!("Illegal position: {e}"))),
        }
    }

    fn restart_analysis(&mut self, s: &Settings) {
        if self.analyzing && self.thinking == Thinking::Idle {
            self.search(s, true);
        }
    }

    /// Our move: a claim when the game is already over, else a search.
    fn think(&mut self, s: &Settings) {
        if let Some((result, comment)) = G::outcome(self.pos()) {
            self.game_over = true;
            self.reply(Reply::Result { result, comment });
            return;
        }
        self.game_over = false;
        self.search(s, false);
    }

    fn limits(&self, s: &Settings) -> SearchLimits {
        let overhead = Duration::from_millis(s.options.int("MoveOverhead").max(0) as u64);
        let plies = (self.history.len() - 1) as u32;
        let game_ply = G::game_ply(self.pos());
        let mut limits = SearchLimits {
            depth: s.sd,
            multipv: s.options.int("MultiPV").max(1) as usize,
            overhead,
            game_ply,
            ..SearchLimits::default()
        };
        let cs = |v: i64| Duration::from_millis(v.max(0) as u64 * 10);
        if let Some(st) = s.st_ms {
            limits.move_time = Some(Duration::from_millis(st));
        } else if let Some(level) = s.level {
            let remaining = s
                .time_cs
                .map(cs)
                .unwrap_or(Duration::from_secs(level.base_s));
            // Our moves in this game so far, for the moves-per-period count.
            let ours = plies / 2;
            let moves_to_go = (level.mps > 0).then(|| level.mps - ours % level.mps);
            limits.time = Some(TimeControl {
                remaining,
                increment: Duration::from_millis(level.inc_ms),
                moves_to_go,
                opponent_remaining: s.otim_cs.map(cs),
                ..TimeControl::default()
            });
        } else if let Some(t) = s.time_cs {
            limits.time = Some(TimeControl {
                remaining: cs(t),
                opponent_remaining: s.otim_cs.map(cs),
                ..TimeControl::default()
            });
        } else if s.sd.is_none() {
            limits.move_time = Some(Duration::from_millis(DEFAULT_MOVE_MS));
        }
        if let Some(nps) = s.nps {
            // Node-count clock: the time we would spend, paid in nodes.
            let budget_ms = match (&limits.move_time, &limits.time) {
                (Some(t), _) => t.as_millis() as u64,
                (None, Some(tc)) => {
                    let mtg = u64::from(tc.moves_to_go.unwrap_or(30).max(1));
                    tc.remaining.as_millis() as u64 / mtg + tc.increment.as_millis() as u64
                }
                _ => DEFAULT_MOVE_MS,
            };
            limits.nodes = Some((nps.saturating_mul(budget_ms) / 1000).max(1));
            limits.move_time = None;
            limits.time = None;
        }
        limits
    }

    fn search(&mut self, s: &Settings, analysis: bool) {
        let root = self.pos().clone();
        let mut legal = Vec::new();
        root.generate(GenKind::All, &mut legal);
        legal.retain(|&m| root.is_legal(m));
        if legal.is_empty() {
            return;
        }
        let mut root_moves = Vec::new();
        if !self.excluded.is_empty() {
            root_moves = legal
                .iter()
                .copied()
                .filter(|m| !self.excluded.contains(m))
                .collect();
            if root_moves.is_empty() {
                if analysis {
                    return;
                }
                // Every move excluded in play: the filter is for analysis.
                root_moves.clear();
            }
        }
        let mut limits = if analysis {
            SearchLimits {
                infinite: true,
                multipv: s.options.int("MultiPV").max(1) as usize,
                game_ply: G::game_ply(&root),
                ..SearchLimits::default()
            }
        } else {
            self.limits(s)
        };
        if analysis {
            limits.ponder = false;
        }
        let mode = if analysis {
            Thinking::Analysis
        } else {
            Thinking::Move
        };
        self.move_started = std::time::Instant::now();
        self.search_from(root, limits, root_moves, s, mode);
    }

    /// Starts a search of `root`: analysis, our move, or pondering (which
    /// ends in our move if the GUI plays the expected reply).
    fn search_from(
        &mut self,
        root: G::Pos,
        limits: SearchLimits,
        root_moves: Vec<Move<G>>,
        s: &Settings,
        mode: Thinking,
    ) {
        let analysis = mode == Thinking::Analysis;
        self.gen += 1;
        let gen = self.gen;
        self.thinking = mode;
        *lock(&self.last) = LastLine::default();
        let chess960 = self.chess960;
        let post = s.post || analysis;
        let out = self.out.clone();
        let events_root = root.clone();
        let last = Arc::clone(&self.last);
        let on_event = move |ev: Event<Move<G>>| {
            if let Event::Line(r) = ev {
                if r.multipv != 1 && r.bound != Bound::Exact {
                    return;
                }
                let mut pos = events_root.clone();
                let mut pv = Vec::with_capacity(r.pv.len());
                for &m in &r.pv {
                    pv.push(G::wire_name(&pos, m, chess960));
                    pos.make(m);
                }
                if r.multipv == 1 {
                    let mut l = lock(&last);
                    l.depth = r.depth;
                    l.time_ms = r.time_ms;
                    l.nodes = r.nodes;
                    l.first = pv.first().cloned().unwrap_or_default();
                    l.second = pv.get(1).cloned();
                }
                if post {
                    let line = Reply::Thinking(cecp::Thinking {
                        ply: r.depth,
                        score: thinking_score(r.score),
                        time_cs: r.time_ms / 10,
                        nodes: r.nodes,
                        pv: pv.join(" "),
                    });
                    out.line(&line.to_string());
                }
            }
        };
        let out = self.out.clone();
        let played = Arc::clone(&self.played);
        let last_score = Arc::clone(&self.last_score);
        let resign = s.options.bool("Resign") && RESIGN_MATE;
        self.session
            .go(root.clone(), limits, root_moves, on_event, move |result| {
                if analysis {
                    return;
                }
                last_score.store(result.score.0, Ordering::Release);
                let lost = result.score.mate_plies().is_some_and(|p| p < 0);
                let Some(m) = result.best.filter(|_| !(resign && lost)) else {
                    *lock(&played) = Some(Played {
                        gen,
                        mv: None,
                        ponder: None,
                    });
                    out.line(&Reply::Resign.to_string());
                    return;
                };
                let name = G::wire_name(&root, m, chess960);
                let mut after = root.clone();
                after.make(m);
                let claim = G::outcome(&after);
                let ponder = result.ponder.filter(|&p| after.is_legal(p));
                *lock(&played) = Some(Played {
                    gen,
                    mv: Some(m),
                    ponder,
                });
                let mut lines = vec![Reply::Move(name).to_string()];
                if let Some((result, comment)) = claim {
                    lines.push(Reply::Result { result, comment }.to_string());
                }
                out.lines(lines.iter().map(String::as_str));
            });
    }

    fn edit_line(&mut self, line: &str, s: &Settings) {
        let parsed = match EditLine::parse(line) {
            Ok(Some(e)) => e,
            Ok(None) => return,
            Err(e) => {
                self.error(&e, line.trim());
                return;
            }
        };
        let Some((grid, white)) = self.edit.as_mut() else {
            return;
        };
        match parsed {
            EditLine::Clear => grid.clear(),
            EditLine::Color => *white = !*white,
            EditLine::Place { piece, square } => {
                let token = (piece != 'x' && piece != 'X').then(|| {
                    if *white {
                        piece.to_ascii_uppercase().to_string()
                    } else {
                        piece.to_ascii_lowercase().to_string()
                    }
                });
                if let Err(e) = grid.set(&square, token) {
                    self.error(&e, line.trim());
                }
            }
            EditLine::Done => {
                let fen = G::edit_fen(&grid.placement(), self.first_to_move());
                self.edit = None;
                self.load_fen(&fen, s);
            }
        }
    }
}

fn current_game<G: CecpGame>() -> Game {
    match (G::FILES, G::RANKS) {
        (9, 10) => Game::Xiangqi,
        (9, 9) => Game::Shogi,
        _ => Game::Chess,
    }
}

/// A score as XBoard's thinking output writes it: centipawns, mates as
/// ±(100000 + moves).
fn thinking_score(s: Score) -> i32 {
    match s.mate_moves() {
        Some(n) => cecp::mate_score(n),
        None => s.0,
    }
}

/// A board being edited: FEN tokens (`P`, `+p`) by row from the top and
/// file from a.
#[derive(Clone, Debug)]
struct Grid {
    cells: Vec<Vec<Option<String>>>,
    first_rank: u32,
}

impl Grid {
    fn from_placement(placement: &str, files: usize, ranks: usize, first_rank: u32) -> Grid {
        let mut cells = vec![vec![None; files]; ranks];
        for (row, text) in placement.split('/').enumerate().take(ranks) {
            let mut col = 0usize;
            let mut prefix = String::new();
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                } else if c == '+' {
                    prefix.push(c);
                } else {
                    if let Some(cell) = cells[row].get_mut(col) {
                        *cell = Some(format!("{prefix}{c}"));
                    }
                    prefix.clear();
                    col += 1;
                }
            }
        }
        Grid { cells, first_rank }
    }

    fn clear(&mut self) {
        for row in &mut self.cells {
            row.iter_mut().for_each(|c| *c = None);
        }
    }

    fn set(&mut self, square: &str, token: Option<String>) -> Result<(), String> {
        let bad = || format!("no square {square} on this board");
        let mut chars = square.chars();
        let file = chars.next().ok_or_else(bad)?;
        let rank: u32 = chars.as_str().parse().map_err(|_| bad())?;
        let col = (file as u32).checked_sub('a' as u32).ok_or_else(bad)? as usize;
        let ranks = self.cells.len() as u32;
        let r = rank.checked_sub(self.first_rank).ok_or_else(bad)?;
        if r >= ranks {
            return Err(bad());
        }
        let row = (ranks - 1 - r) as usize;
        let cell = self.cells[row].get_mut(col).ok_or_else(bad)?;
        *cell = token;
        Ok(())
    }

    fn placement(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for c in row {
                    match c {
                        None => empty += 1,
                        Some(t) => {
                            if empty > 0 {
                                s.push_str(&empty.to_string());
                                empty = 0;
                            }
                            s.push_str(t);
                        }
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        rows.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_edits_in_each_board_size() {
        let mut g = Grid::from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 8, 8, 1);
        assert_eq!(g.placement(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        g.clear();
        assert!(g.set("e1", Some("K".into())).is_ok());
        assert!(g.set("e8", Some("k".into())).is_ok());
        assert!(g.set("a4", Some("P".into())).is_ok());
        assert!(g.set("i1", Some("P".into())).is_err());
        assert!(g.set("a9", Some("P".into())).is_err());
        assert!(g.set("a0", Some("P".into())).is_err());
        assert_eq!(g.placement(), "4k3/8/8/8/P7/8/8/4K3");
        let mut x = Grid::from_placement("9/9/9/9/9/9/9/9/9/9", 9, 10, 0);
        assert!(x.set("e0", Some("K".into())).is_ok());
        assert!(x.set("e9", Some("k".into())).is_ok());
        assert_eq!(x.placement(), "4k4/9/9/9/9/9/9/9/9/4K4");
        let s = Grid::from_placement(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/+LNSGKGSNL",
            9,
            9,
            1,
        );
        assert_eq!(
            s.placement(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/+LNSGKGSNL"
        );
    }

    #[test]
    fn mate_scores_in_xboard_form() {
        assert_eq!(thinking_score(Score(35)), 35);
        assert_eq!(thinking_score(Score(Score::MATE - 3)), 100_002);
        assert_eq!(thinking_score(Score(-Score::MATE + 4)), -100_002);
    }
}
