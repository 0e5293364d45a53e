//! The UCI front-end: chess (and Chess960), and any alpha-beta game a UCI
//! GUI selects with `UCI_Variant`.

use crate::games::Game;
use crate::io::Output;
use crate::session::{AbGame, Flags, Session};
use crate::skill::Skill;
use crate::Start;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tengen_core::options::{OptionKind, OptionValue, Options};
use tengen_core::report::{Bound, Event, Report};
use tengen_core::score::wdl;
use tengen_core::{SearchLimits, TimeControl};
use tengen_protocol::uci::{self, Command, Info, Reply, Score};
use tengen_search::Position;

type Move<G> = <<G as AbGame>::Pos as Position>::Move;

/// Games a UCI GUI can pick with `UCI_Variant`.
const VARIANTS: &[Game] = &[Game::Chess, Game::Xiangqi];

fn uci_options() -> Options {
    let mut o = Options::new();
    o.add(
        "Hash",
        OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
        },
    )
    .add(
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    )
    .add("Clear Hash", OptionKind::Button)
    .add("Ponder", OptionKind::Check { default: false })
    .add(
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    )
    .add(
        "Move Overhead",
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    )
    .add("UCI_Chess960", OptionKind::Check { default: false })
    .add("UCI_ShowWDL", OptionKind::Check { default: false })
    .add("UCI_LimitStrength", OptionKind::Check { default: false })
    .add(
        "UCI_Elo",
        OptionKind::Spin {
            default: Skill::MAX_ELO as i64,
            min: Skill::MIN_ELO as i64,
            max: Skill::MAX_ELO as i64,
        },
    )
    .add("UCI_AnalyseMode", OptionKind::Check { default: false })
    .add(
        "UCI_Variant",
        OptionKind::Combo {
            default: "chess".into(),
            vars: VARIANTS.iter().map(|g| g.name().to_string()).collect(),
        },
    );
    o
}

/// Prints an option the UCI way (USI prints them alike).
pub(crate) fn option_line(name: &str, kind: &OptionKind) -> String {
    match kind {
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::String { default } => {
            let d = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {name} type string default {d}")
        }
    }
}

/// Why a front-end loop ended.
enum Exit {
    Quit,
    /// The GUI chose another game with `UCI_Variant`.
    Switch(Game),
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let mut options = uci_options();
    let mut game = start.game.unwrap_or(Game::Chess);
    let mut pending = start.first;
    loop {
        if !VARIANTS.contains(&game) {
            out.line(&format!(
                "info string tengen cannot play {game} over UCI yet; playing chess"
            ));
            game = Game::Chess;
        }
        let _ = options.set("UCI_Variant", Some(game.name()));
        // Each playable variant gets its own monomorphised front-end.
        let exit = match game {
            Game::Xiangqi => Frontend::<crate::games::xiangqi::XiangqiGame>::new(
                &options,
                out.clone(),
            )
            .run(&mut options, &input, pending.take()),
            _ => Frontend::<crate::games::chess::ChessGame>::new(&options, out.clone()).run(
                &mut options,
                &input,
                pending.take(),
            ),
        };
        match exit {
            Exit::Quit => return 0,
            Exit::Switch(g) => game = g,
        }
    }
}

struct Frontend<G: AbGame> {
    session: Session<G>,
    pos: G::Pos,
    out: Output,
    debug: bool,
}

impl<G: AbGame> Frontend<G> {
    fn new(options: &Options, out: Output) -> Self {
        let mut session = Session::new(options.int("Hash").max(1) as usize);
        session.with_searcher(|s| s.set_threads(options.int("Threads").max(1) as usize));
        Frontend {
            session,
            pos: G::startpos(),
            out,
            debug: false,
        }
    }

    fn flags(options: &Options) -> Flags {
        Flags {
            chess960: options.bool("UCI_Chess960"),
            uci_ranks: true,
        }
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    fn run(
        &mut self,
        options: &mut Options,
        input: &Receiver<String>,
        first: Option<String>,
    ) -> Exit {
        let mut first = first;
        loop {
            let line = match first.take() {
                Some(l) => l,
                None => match input.recv() {
                    Ok(l) => l,
                    // The GUI closed our stdin: same as quit.
                    Err(_) => {
                        self.session.stop();
                        self.session.wait();
                        return Exit::Quit;
                    }
                },
            };
            let cmd = match uci::parse(&line) {
                Ok(Some(c)) => c,
                Ok(None) => {
                    if !line.trim().is_empty() {
                        self.info(&format!("unknown command: {}", line.trim()));
                    }
                    continue;
                }
                Err(e) => {
                    self.info(&format!("error: {e}; command ignored"));
                    continue;
                }
            };
            if let Some(exit) = self.handle(cmd, options) {
                return exit;
            }
        }
    }

    fn handle(&mut self, cmd: Command, options: &mut Options) -> Option<Exit> {
        match cmd {
            Command::Uci => {
                let mut lines = vec![
                    format!("id name tengen {}", env!("CARGO_PKG_VERSION")),
                    "id author the tengen developers".to_string(),
                ];
                lines.extend(options.iter().map(|o| option_line(&o.name, &o.kind)));
                lines.push("uciok".into());
                self.out.lines(lines.iter().map(String::as_str));
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::Register => self.info("no registration needed"),
            Command::SetOption { name, value } => return self.set_option(options, &name, value),
            Command::UciNewGame => {
                self.finish_search();
                self.session.with_searcher(|s| s.clear());
                self.pos = G::startpos();
            }
            Command::Position { fen, moves } => {
                self.finish_search();
                match self.parse_position(fen.as_deref(), &moves, Self::flags(options)) {
                    Ok(p) => self.pos = p,
                    Err(e) => self.info(&format!("error: {e}; position unchanged")),
                }
            }
            Command::Go(go) => {
                self.finish_search();
                if let Some(depth) = go.perft {
                    self.perft(depth, Self::flags(options));
                } else {
                    self.go(go, options);
                }
            }
            Command::Stop => self.session.stop(),
            Command::PonderHit => {
                if self.session.pondering() {
                    self.session.ponderhit();
                }
            }
            Command::Quit => {
                self.session.stop();
                self.session.wait();
                return Some(Exit::Quit);
            }
        }
        None
    }

    /// A command that needs the position or the searcher arrived while a
    /// search runs (a GUI out of step): end that search properly first.
    fn finish_search(&mut self) {
        if self.session.searching() {
            self.session.stop();
        }
        self.session.wait();
    }

    fn set_option(
        &mut self,
        options: &mut Options,
        name: &str,
        value: Option<String>,
    ) -> Option<Exit> {
        if self.session.searching() {
            self.info(&format!("option '{name}' not changed: a search is running"));
            return None;
        }
        let old = options.clone();
        match options.set(name, value.as_deref()) {
            Err(e) => self.info(&format!("error: {e}")),
            Ok((name, v)) => match (name.as_str(), v) {
                ("Hash", OptionValue::Int(mb)) => {
                    if let Err(e) = self.session.with_searcher(|s| s.set_hash(mb as usize)) {
                        // The old table stays, and so does the option.
                        *options = old;
                        self.info(&format!("error: Hash unchanged: {e}"));
                    }
                }
                ("Threads", OptionValue::Int(n)) => {
                    self.session.with_searcher(|s| s.set_threads(n as usize))
                }
                ("Clear Hash", _) => self.session.with_searcher(|s| s.clear()),
                ("UCI_Variant", OptionValue::Text(v)) => {
                    if let Ok(g) = v.parse::<Game>() {
                        return Some(Exit::Switch(g));
                    }
                }
                _ => {}
            },
        }
        None
    }

    fn parse_position(
        &self,
        fen: Option<&str>,
        moves: &[String],
        flags: Flags,
    ) -> Result<G::Pos, String> {
        let mut pos = match fen {
            None => G::startpos(),
            Some(fen) => G::from_fen(fen, flags).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
        };
        for (i, text) in moves.iter().enumerate() {
            let m = G::parse_move(&pos, text, flags)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            pos.make(m);
        }
        Ok(pos)
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
        lines.push(String::new());
        self.out.lines(lines.iter().map(String::as_str));
    }

    fn go(&mut self, go: uci::Go, options: &Options) {
        let flags = Self::flags(options);
        let mut root_moves = Vec::new();
        for text in &go.searchmoves {
            match G::parse_move(&self.pos, text, flags) {
                Ok(m) => root_moves.push(m),
                Err(e) => self.info(&format!("searchmoves: '{text}' ignored: {e}")),
            }
        }
        let skill = Skill::from_options(options);
        let mut limits = self.limits(&go, options);
        skill.adjust(&mut limits);

        let out = self.out.clone();
        let root = self.pos.clone();
        let show_wdl = options.bool("UCI_ShowWDL");
        let game_ply = G::game_ply(&root);
        let events_root = root.clone();
        // The latest exact line per rank, for strength limiting.
        let lines: Arc<Mutex<Vec<Report<Move<G>>>>> = Arc::default();
        let lines_seen = Arc::clone(&lines);
        let on_event = move |ev: Event<Move<G>>| match ev {
            Event::Line(r) => {
                out.line(&report_line::<G>(
                    &events_root,
                    &r,
                    flags,
                    show_wdl,
                    game_ply,
                ));
                if r.bound == Bound::Exact {
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
                let info = Info {
                    depth: Some(depth),
                    currmove: Some(G::move_name(&events_root, mv, flags)),
                    currmovenumber: Some(number),
                    ..Default::default()
                };
                out.line(&Reply::Info(info).to_string());
            }
            Event::Stats {
                depth,
                nodes,
                time_ms,
                hashfull,
            } => {
                let info = Info {
                    depth: Some(depth),
                    nodes: Some(nodes),
                    nps: Some(nodes * 1000 / time_ms.max(1)),
                    hashfull: Some(hashfull),
                    time: Some(time_ms),
                    ..Default::default()
                };
                out.line(&Reply::Info(info).to_string());
            }
        };
        let out = self.out.clone();
        let done_root = root.clone();
        self.session
            .go(root, limits, root_moves, on_event, move |result| {
                let best = match lines.lock() {
                    Ok(l) if skill.active() => skill.pick(&l, result.best),
                    _ => result.best,
                };
                let line = match best {
                    None => "bestmove (none)".to_string(),
                    Some(m) => {
                        let mut text = format!("bestmove {}", G::move_name(&done_root, m, flags));
                        let ponder = if Some(m) == result.best {
                            result.ponder
                        } else {
                            None
                        };
                        if let Some(p) = ponder {
                            let mut after = done_root.clone();
                            after.make(m);
                            text.push_str(&format!(" ponder {}", G::move_name(&after, p, flags)));
                        }
                        text
                    }
                };
                out.line(&line);
            });
    }

    /// Translates `go` into limits for the side to move.
    fn limits(&self, go: &uci::Go, options: &Options) -> SearchLimits {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let first_to_move = G::first_player_to_move(&self.pos);
        let (mine, mine_inc, theirs) = if first_to_move {
            (go.wtime, go.winc, go.btime)
        } else {
            (go.btime, go.binc, go.wtime)
        };
        let time = mine.map(|t| TimeControl {
            remaining: ms(t),
            increment: ms(mine_inc.unwrap_or(0)),
            moves_to_go: go.movestogo.filter(|&m| m > 0),
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
            limits.depth = Some(
                limits
                    .depth
                    .unwrap_or(u32::MAX)
                    .min((2 * m).saturating_sub(1).max(1)),
            );
        }
        if limits.is_unbounded() && !limits.ponder {
            // A bare `go`: the spec leaves it open; search until stopped.
            limits.infinite = true;
        }
        limits
    }
}

/// One `info` line for a reported principal variation.
fn report_line<G: AbGame>(
    root: &G::Pos,
    r: &Report<<G::Pos as Position>::Move>,
    flags: Flags,
    show_wdl: bool,
    game_ply: u32,
) -> String {
    let mut pos = root.clone();
    let mut pv = Vec::with_capacity(r.pv.len());
    for &m in &r.pv {
        pv.push(G::move_name(&pos, m, flags));
        pos.make(m);
    }
    let score = match r.score.mate_moves() {
        Some(m) => Score::Mate(m),
        None => Score::Cp(r.score.0),
    };
    let info = Info {
        depth: Some(r.depth),
        seldepth: Some(r.seldepth),
        multipv: Some(r.multipv),
        score: Some(score),
        bound: match r.bound {
            Bound::Lower => Some(uci::Bound::Lower),
            Bound::Upper => Some(uci::Bound::Upper),
            _ => None,
        },
        wdl: show_wdl.then(|| wdl(r.score, game_ply)),
        nodes: Some(r.nodes),
        nps: Some(r.nps()),
        hashfull: Some(r.hashfull),
        tbhits: Some(0),
        time: Some(r.time_ms),
        pv,
        ..Default::default()
    };
    Reply::Info(info).to_string()
}
