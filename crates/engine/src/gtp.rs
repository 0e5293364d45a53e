//! GTP v2 front-end for Go: every standard command, the GNU Go extensions
//! that make sense for any engine, and the analysis commands of Lizzie,
//! Sabaki and GoGui (`lz-analyze`, `kata-analyze`, `gogui-analyze_commands`).
//!
//! Lines come from the stdin reader thread. Every search runs as a job of
//! the background player (`crate::background`) while this loop keeps
//! reading: lines that arrive meanwhile are queued and answered in order
//! after the running command, `quit` and GoGui's `# interrupt` end a move
//! search at once with what it has, and analysis commands stream until the
//! next line arrives.

use crate::background::{Incoming, Job};
use crate::io::Output;
use crate::Start;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tengen_core::clock::{Clock, Control, Overtime};
use tengen_core::timeman::{TimeControl, GO};
use tengen_core::TimeManager;
use tengen_go::board::{move_name, parse_vertex, vertex_name, Cell, Color, Move, Point};
use tengen_go::game::{fixed_handicap_rect, fmt_num, Game, KoRule, Score};
use tengen_go::mcts::{dynamic_komi, Analysis, Limits, RootFilter, Searcher};
use tengen_go::rules::Rules;
use tengen_go::sgf;
use tengen_go::status::Status;
use tengen_protocol::gtp::{is_interrupt, preprocess, Command, Response};

mod dragon;
mod eyes;
mod orientation;
mod owl;
mod search_area;
mod surround;
mod tactics;
mod values;
mod worm;

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "help",
    "quit",
    "boardsize",
    "query_boardsize",
    "clear_board",
    "komi",
    "get_komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "get_handicap",
    "play",
    "black",
    "white",
    "genmove",
    "genmove_black",
    "genmove_white",
    "reg_genmove",
    "gg_genmove",
    "restricted_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "gg-undo",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "final_score",
    "final_status",
    "final_status_list",
    "estimate_score",
    "new_score",
    "report_uncertainty",
    "loadsgf",
    "printsgf",
    "showboard",
    "is_legal",
    "all_legal",
    "captures",
    "color",
    "list_stones",
    "countlib",
    "findlib",
    "accuratelib",
    "last_move",
    "move_history",
    "top_moves",
    "top_moves_black",
    "top_moves_white",
    "echo",
    "echo_err",
    "cputime",
    "level",
    "set_random_seed",
    "get_random_seed",
    "advance_random_seed",
    "clear_cache",
    "kgs-rules",
    "rectangular_boardsize",
    "kata-get-rules",
    "kata-set-rules",
    "kata-set-rule",
    "kgs-game_over",
    "lz-analyze",
    "kata-analyze",
    "analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "genmove_analyze",
    "gogui-analyze_commands",
    "gogui_analyze_commands",
    "gogui-play_sequence",
    "gogui-setup",
    "gogui-undo_setup",
    "gogui-title",
    "gogui-interrupt",
    "set_position",
    "stop",
    "tengen-ko_rule",
    "tengen-threads",
    "tengen-playouts",
    "tengen-ownership",
    "tengen-playout_ladders",
    "tengen-playout_twolibs",
    "tengen-playout_nakade",
    "tengen-playout_gammas",
    "tengen-priors",
    "tengen-gammas",
    "tengen-prior_bonus",
    "tengen-dynamic_komi",
    "tengen-widening",
];

/// A failure reply's text.
type Fail = String;

/// `on` or `off` into a process-wide playout switch (A/B matches).
fn set_switch(switch: &std::sync::atomic::AtomicBool, a: &[String]) -> Result<String, Fail> {
    match a.first().map(|s| s.as_str()) {
        Some(v @ ("on" | "off")) => {
            switch.store(v == "on", std::sync::atomic::Ordering::Relaxed);
            Ok(String::new())
        }
        _ => Err(syntax()),
    }
}

fn syntax() -> Fail {
    "syntax error".into()
}

/// GNU Go's analysis commands, by the module that answers them.
const ANALYSIS_COMMANDS: [&[&str]; 6] = [
    tactics::COMMANDS,
    eyes::COMMANDS,
    surround::COMMANDS,
    owl::COMMANDS,
    values::COMMANDS,
    search_area::COMMANDS,
];

/// Every command the session answers, as `list_commands` prints them.
fn all_commands() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .chain(ANALYSIS_COMMANDS.iter().flat_map(|list| list.iter()))
        .chain(orientation::COMMANDS)
        .copied()
}

/// How genmove-like commands search and report.
#[derive(Clone)]
struct Stream {
    interval: Option<Duration>,
    kata: bool,
    ownership: bool,
    max_moves: usize,
    /// GNU Go's board orientation and the board's width and height, to
    /// move the vertices of streamed lines back to the outside frame.
    orient: u8,
    dims: (usize, usize),
}

struct Session {
    game: Game,
    searcher: Searcher,
    threads: usize,
    level: u32,
    /// Each player's clock under the game's time settings (the shared
    /// model in `tengen_core::clock`); `None` while no limit is set, when
    /// moves are budgeted by level.
    clocks: [Option<Clock>; 2],
    out: Output,
    /// Dead stones estimated for the current position (hash, list).
    dead_cache: Option<(u64, usize, Status, Analysis)>,
    /// The last search for a move (genmove-likes, `top_moves`,
    /// `experimental_score`): what GNU Go's move-valuation commands are
    /// answered from (`values.rs`).
    last_values: Option<Analysis>,
    started: Instant,
    /// Lines from the reader thread, and those read ahead while a search
    /// watched the input (handled next, in order).
    input: Receiver<String>,
    pending: VecDeque<String>,
    /// Positions before each `gogui-setup` / `set_position`.
    setup_undo: Vec<Game>,
    /// `tengen-playouts n`: this many playouts a move whatever the clock
    /// says (fixed-work matches on a loaded machine); `None` when off.
    fixed_playouts: Option<u64>,
    /// Positions pushed by `trymove`/`tryko` (see `tactics`).
    try_stack: Vec<tengen_go::board::Board>,
    /// GNU Go's search area for genmove (see `search_area`).
    area: search_area::SearchArea,
    /// GNU Go's board orientation (see `orientation`): 0..7.
    orient: u8,
    /// GNU Go's `report_uncertainty`: owl and semeai answers whose
    /// reading was cut short by a budget say ` uncertain`.
    report_uncertainty: bool,
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let mut s = Session::new(input, out.clone());
    s.pending.extend(start.first);
    loop {
        let raw = match s.pending.pop_front() {
            Some(l) => l,
            None => match s.input.recv() {
                Ok(l) => l,
                Err(_) => return 0,
            },
        };
        let Some(line) = preprocess(&raw) else {
            continue;
        };
        let Some(cmd) = Command::parse(&line) else {
            // A line holding only an id: answer it, as GNU Go does.
            if let Some(id) = Command::bare_id(&line) {
                out.raw(&Response::failure(Some(id), "syntax error").to_string());
            }
            continue;
        };
        let quit = cmd.name == "quit";
        if let Some(resp) = s.handle(&cmd) {
            out.raw(&resp.to_string());
        }
        if quit {
            return 0;
        }
    }
}

/// How a search job reacts to input that arrives while it runs.
#[derive(Clone, Copy, PartialEq)]
enum Watch {
    /// A move or an estimate: lines queue up, to be answered in order once
    /// the search has answered; `quit` and GoGui's interrupt line end the
    /// search now with what it has (the `quit` is then answered next).
    Move,
    /// `lz-analyze` and friends: any line, or the end of the input, ends
    /// the stream; the line is then handled normally.
    Analysis,
}

/// True when a raw input line is a `quit` command (with or without id).
fn is_quit(raw: &str) -> bool {
    preprocess(raw)
        .and_then(|l| Command::parse(&l))
        .is_some_and(|c| c.name == "quit")
}

fn cpu_seconds() -> Option<f64> {
    // Linux: utime and stime (fields 14 and 15) in clock ticks of 1/100 s.
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

fn parse_color(s: Option<&String>) -> Result<Color, Fail> {
    s.and_then(|c| Color::parse(c)).ok_or_else(syntax)
}

fn parse_int<T: std::str::FromStr>(s: Option<&String>) -> Result<T, Fail> {
    s.and_then(|v| v.parse::<T>().ok()).ok_or_else(syntax)
}

fn parse_float(s: Option<&String>) -> Result<f64, Fail> {
    s.and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .ok_or_else(syntax)
}

/// Our own clock says the flag fell, yet the controller asks for more
/// moves (its clock forgives latency, or it sends no `time_left`): in
/// sudden death, play at once until `time_left` says otherwise; in
/// byo-yomi, go on as in a fresh period. (Zero time left in a Canadian
/// period never ran out again when no `time_left` came, so every later
/// move was played in 5 ms.)
fn after_overrun(clock: &mut Clock) {
    match clock.control().overtime {
        Overtime::None => clock.set_reported(Duration::ZERO, 0),
        Overtime::Japanese { period, .. } => clock.set_reported(period, 1),
        Overtime::Canadian { period, stones } => clock.set_reported(period, stones.max(1)),
    }
}

/// GTP's `time_left` counts whole seconds, so a report of `t` means
/// somewhere from `t` to `t + 1` s, and a controller that rounds down
/// reports 0 s for the last 0.9 s of a period. Where our own estimate
/// (the clock charged with our measured think times) lies inside that
/// second, in the same phase (main time, or the same stones left of a
/// Canadian period), it is the finer figure and is kept. (Under
/// `time_settings 0 1 3`, three stones a second, the report `0 2` after
/// the first stone of each period made every second and third stone an
/// instant move.)
fn finer_than_report(clock: &Clock, t: f64, left: Duration, stones: u32) -> bool {
    let same_phase = if stones == 0 {
        !clock.in_overtime()
    } else {
        matches!(clock.control().overtime, Overtime::Canadian { .. })
            && clock.in_overtime()
            && clock.stones_left() == stones
    };
    let own = clock.left();
    same_phase && t.fract() == 0.0 && own >= left && own < left + Duration::from_secs(1)
}

fn join_points(v: &[Point]) -> String {
    v.iter()
        .map(|&p| vertex_name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Session {
    fn new(input: Receiver<String>, out: Output) -> Session {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(8);
        Session {
            game: Game::new(19, 7.5),
            searcher: Searcher::default(),
            threads,
            level: 5,
            clocks: [None, None],
            out,
            dead_cache: None,
            last_values: None,
            started: Instant::now(),
            input,
            pending: VecDeque::new(),
            setup_undo: Vec::new(),
            fixed_playouts: None,
            try_stack: Vec::new(),
            area: search_area::SearchArea::default(),
            orient: 0,
            report_uncertainty: false,
        }
    }

    /// The board's width and height.
    fn dims(&self) -> (usize, usize) {
        (self.game.width(), self.game.height())
    }

    fn point(&self, s: Option<&String>) -> Result<Point, Fail> {
        match s.and_then(|v| self.game.parse_move(v)) {
            Some(Move::Play(p)) => Ok(p),
            Some(Move::Pass) => Err("invalid coordinate".into()),
            None => Err(syntax()),
        }
    }

    fn mv(&self, s: Option<&String>) -> Result<Move, Fail> {
        s.and_then(|v| self.game.parse_move(v)).ok_or_else(syntax)
    }

    /// Handles one command; `None` when the reply was already streamed.
    /// Under a board orientation the vertices of the command are moved
    /// into the game's frame and those of the reply back out.
    fn handle(&mut self, cmd: &Command) -> Option<Response> {
        if self.orient == 0 {
            return self.handle_core(cmd);
        }
        let inner = orientation::command_in(cmd, self.orient, self.dims());
        let mut resp = self.handle_core(&inner)?;
        if resp.ok {
            resp.text = orientation::reply_out(&cmd.name, &resp.text, self.orient, self.dims());
        }
        Some(resp)
    }

    fn handle_core(&mut self, cmd: &Command) -> Option<Response> {
        let id = cmd.id;
        let a = &cmd.args;
        if tactics::MUTATING.contains(&cmd.name.as_str()) {
            self.try_stack.clear();
        }
        let dims = self.dims();
        if let Some(result) = self
            .tactical(&cmd.name, a)
            .or_else(|| self.eyes_command(&cmd.name, a))
            .or_else(|| self.surround_command(&cmd.name, a))
            .or_else(|| self.owl_command(&cmd.name, a))
            .or_else(|| self.values_command(&cmd.name, a))
            .or_else(|| {
                self.area
                    .command(&cmd.name, a, dims, self.game.board().points())
            })
        {
            return Some(match result {
                Ok(text) => Response::success(id, text),
                Err(text) => Response::failure(id, text),
            });
        }
        let result: Result<String, Fail> = match cmd.name.as_str() {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("tengen".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(a
                .first()
                .is_some_and(|n| all_commands().any(|c| c == n))
                .to_string()),
            "list_commands" | "help" => Ok(all_commands().collect::<Vec<_>>().join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => self.boardsize(a),
            "rectangular_boardsize" => self.rectangular_boardsize(a),
            // A square board answers its side, as GNU Go does; a
            // rectangular one its width and height, in the order
            // `rectangular_boardsize` takes them.
            "query_boardsize" => Ok(if self.game.board().is_square() {
                self.game.width().to_string()
            } else {
                format!("{} {}", self.game.width(), self.game.height())
            }),
            "orientation" => orientation::parse(a)
                .and_then(|n| {
                    let (w, h) = self.dims();
                    orientation::fits(n, w, h).map(|()| n)
                })
                .map(|n| {
                    // As GNU Go: a new orientation starts on an empty board.
                    self.orient = n;
                    self.game.clear();
                    self.setup_undo.clear();
                    self.reset_search();
                    String::new()
                }),
            "query_orientation" => Ok(self.orient.to_string()),
            "clear_board" => {
                self.game.clear();
                self.setup_undo.clear();
                self.reset_search();
                // The last game's search tree is gone: give its memory back.
                crate::memory::release_free_memory();
                Ok(String::new())
            }
            "komi" => parse_float(a.first()).map(|k| {
                self.game.set_komi(k);
                self.reset_search();
                String::new()
            }),
            "get_komi" => Ok(fmt_num(self.game.komi())),
            "fixed_handicap" => self.fixed_handicap(a),
            "place_free_handicap" => self.place_free_handicap(a),
            "set_free_handicap" => self.set_free_handicap(a),
            "get_handicap" => Ok(self.game.handicap().len().to_string()),
            "play" => self.play(a),
            "black" | "white" => {
                let mut args = vec![cmd.name.clone()];
                args.extend(a.iter().cloned());
                self.play(&args)
            }
            "genmove" | "reg_genmove" | "gg_genmove" | "kgs-genmove_cleanup" => {
                // GNU Go's gg_genmove, like reg_genmove, only names the
                // move; the color may be followed by a seed it ignores.
                let play = !matches!(cmd.name.as_str(), "reg_genmove" | "gg_genmove");
                let cleanup = cmd.name == "kgs-genmove_cleanup";
                parse_color(a.first()).map(|c| self.genmove(c, play, cleanup, &[], None, id).1)
            }
            "genmove_black" => Ok(self.genmove(Color::Black, true, false, &[], None, id).1),
            "genmove_white" => Ok(self.genmove(Color::White, true, false, &[], None, id).1),
            "restricted_genmove" => self.restricted_genmove(a, id),
            "undo" => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "gg-undo" => self.gg_undo(a),
            "time_settings" => self.time_settings(a),
            "kgs-time_settings" => self.kgs_time_settings(a),
            "time_left" => self.time_left(a),
            "final_score" => Ok(self.final_score().to_string()),
            // GNU Go 3.8 answers `new_score` with its `estimate_score`.
            "estimate_score" | "new_score" => Ok(self.estimate_score()),
            // GNU Go compares the argument's first letters only.
            "report_uncertainty" => match a.first() {
                Some(v) if v.starts_with("on") => {
                    self.report_uncertainty = true;
                    Ok(String::new())
                }
                Some(v) if v.starts_with("off") => {
                    self.report_uncertainty = false;
                    Ok(String::new())
                }
                _ => Err("invalid argument".into()),
            },
            "final_status" => self.final_status(a),
            "final_status_list" => self.final_status_list(a),
            "loadsgf" => self.loadsgf(a),
            "printsgf" => self.printsgf(a),
            "showboard" => Ok(format!("\n{}", self.read_board().render())),
            "is_legal" => parse_color(a.first()).and_then(|c| {
                let m = self.mv(a.get(1))?;
                Ok(if self.game.is_legal(c, m) { "1" } else { "0" }.to_string())
            }),
            "all_legal" => parse_color(a.first()).map(|c| join_points(&self.game.legal_points(c))),
            "captures" => parse_color(a.first()).map(|c| self.game.board().captures(c).to_string()),
            "color" => self.point(a.first()).map(|p| {
                match self.read_board().cell(p) {
                    Cell::Black => "black",
                    Cell::White => "white",
                    _ => "empty",
                }
                .to_string()
            }),
            "list_stones" => {
                parse_color(a.first()).map(|c| join_points(&self.read_board().stones(c)))
            }
            "countlib" | "findlib" => self.point(a.first()).and_then(|p| {
                if self.read_board().cell(p).color().is_none() {
                    return Err("vertex must not be empty".into());
                }
                let libs = self.read_board().liberties(p);
                Ok(if cmd.name == "countlib" {
                    libs.len().to_string()
                } else {
                    join_points(&tactics::gnugo_order(libs))
                })
            }),
            "accuratelib" => self.accuratelib(a),
            "last_move" => match self.game.moves().last() {
                Some(p) => Ok(format!("{} {}", p.color.name(), move_name(p.mv))),
                None => Err("no previous move known".into()),
            },
            "move_history" => Ok(self
                .game
                .moves()
                .iter()
                .rev()
                .map(|p| format!("{} {}", p.color.name(), move_name(p.mv)))
                .collect::<Vec<_>>()
                .join("\n")),
            "top_moves" | "top_moves_black" | "top_moves_white" => {
                let c = match cmd.name.as_str() {
                    "top_moves_black" => Color::Black,
                    "top_moves_white" => Color::White,
                    _ => self.game.to_move(),
                };
                Ok(self.top_moves(c))
            }
            "echo" => Ok(a.join(" ")),
            "echo_err" => {
                eprintln!("{}", a.join(" "));
                Ok(a.join(" "))
            }
            "cputime" => Ok(format!(
                "{:.3}",
                cpu_seconds().unwrap_or_else(|| self.started.elapsed().as_secs_f64())
            )),
            "level" => parse_int::<u32>(a.first()).map(|l| {
                self.level = l.clamp(1, 100);
                String::new()
            }),
            "set_random_seed" => parse_int::<u64>(a.first()).map(|s| {
                self.searcher.set_seed(s);
                String::new()
            }),
            "get_random_seed" => Ok(self.searcher.seed().to_string()),
            "advance_random_seed" => parse_int::<u64>(a.first()).map(|n| {
                let s = self.searcher.seed().wrapping_add(n);
                self.searcher.set_seed(s);
                String::new()
            }),
            "clear_cache" => {
                self.reset_search();
                Ok(String::new())
            }
            "kgs-rules" | "kata-set-rules" | "kata-set-rule" => self.set_rules(&cmd.name, a),
            "kata-get-rules" => Ok(self.game.rules().to_json()),
            "kgs-game_over" | "stop" | "gogui-interrupt" => Ok(String::new()),
            "lz-analyze" | "kata-analyze" | "analyze" => {
                return self.analyze(cmd);
            }
            "lz-genmove_analyze" | "kata-genmove_analyze" | "genmove_analyze" => {
                return self.genmove_analyze(cmd);
            }
            // The second name is older GoGui's.
            "gogui-analyze_commands" | "gogui_analyze_commands" => Ok(gogui_commands()),
            "gogui-play_sequence" => self.play_sequence(a),
            "gogui-setup" => self.setup(a, false),
            "set_position" => self.setup(a, true),
            "gogui-undo_setup" => match self.setup_undo.pop() {
                Some(g) => {
                    self.game = g;
                    self.reset_search();
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            "gogui-title" => Ok(format!("tengen {}", env!("CARGO_PKG_VERSION"))),
            "tengen-ko_rule" => match a.first() {
                None => Ok(format!("{:?}", self.game.ko_rule()).to_lowercase()),
                Some(r) => KoRule::parse(r)
                    .map(|r| {
                        self.game.set_ko_rule(r);
                        String::new()
                    })
                    .ok_or_else(syntax),
            },
            "tengen-ownership" => {
                let (_, an) = self.dead_stones();
                let (w, h) = self.dims();
                let rows: Vec<String> = (0..h)
                    .rev()
                    .map(|y| {
                        (0..w)
                            .map(|x| {
                                format!(
                                    "{:.2}",
                                    an.ownership.get(y * w + x).copied().unwrap_or(0.0)
                                )
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                Ok(rows.join("\n"))
            }
            "tengen-playouts" => match a.first() {
                None => Ok(self.fixed_playouts.unwrap_or(0).to_string()),
                Some(v) => match v.parse::<u64>() {
                    Ok(n) => {
                        self.fixed_playouts = (n > 0).then_some(n.min(100_000_000));
                        Ok(String::new())
                    }
                    Err(_) => Err(syntax()),
                },
            },
            "tengen-playout_ladders" => set_switch(&tengen_go::playout::PLAYOUT_LADDERS, a),
            "tengen-playout_twolibs" => set_switch(&tengen_go::playout::PLAYOUT_TWO_LIBS, a),
            "tengen-playout_nakade" => set_switch(&tengen_go::playout::PLAYOUT_NAKADE, a),
            "tengen-playout_gammas" => set_switch(&tengen_go::playout::PLAYOUT_GAMMAS, a),
            // Progressive widening (mcts::widening_count); a kept tree's
            // children are in another order, so it goes.
            "tengen-widening" => set_switch(&tengen_go::mcts::WIDENING, a).inspect(|_| {
                self.reset_search();
            }),
            // The tree's priors: learned move strengths or the old hand
            // rules (A/B matches); without an argument, which is in use.
            "tengen-priors" => match a.first().map(|s| s.as_str()) {
                None => Ok(if tengen_go::gammas::learned_priors() {
                    "learned".into()
                } else {
                    "hand".into()
                }),
                Some("learned") | Some("hand") => {
                    tengen_go::gammas::set_learned_priors(
                        a.first().is_some_and(|s| s == "learned"),
                    );
                    Ok(String::new())
                }
                _ => Err(syntax()),
            },
            // Virtual wins added to the learned priors (mcts::prior_bonus):
            // a count, or `default` (by board size); without an argument,
            // the count in use on this board.
            "tengen-prior_bonus" => match a.first().map(|v| v.as_str()) {
                None => {
                    let (w, h) = self.dims();
                    Ok(tengen_go::mcts::prior_bonus(w.min(h)).to_string())
                }
                Some(v) => {
                    let bonus = match v {
                        "default" => Ok(None),
                        n => match n.parse::<u32>() {
                            Ok(n) if n <= 100_000 => Ok(Some(n)),
                            _ => Err(syntax()),
                        },
                    };
                    bonus.map(|bonus| {
                        tengen_go::mcts::set_prior_bonus(bonus);
                        self.reset_search();
                        String::new()
                    })
                }
            },
            // The handicap's dynamic komi (mcts::dynamic_komi): `on` or
            // `off` for every game (A/B matches); without an argument, the
            // extra komi Black's search would give White here.
            "tengen-dynamic_komi" => match a.first().map(|v| v.as_str()) {
                None => Ok(fmt_num(self.extra_komi(Color::Black))),
                Some(v @ ("on" | "off")) => {
                    tengen_go::mcts::set_dynamic_komi(v == "on");
                    self.reset_search();
                    Ok(String::new())
                }
                Some(_) => Err(syntax()),
            },
            // The learned move strengths of the tree's priors for this
            // board's class: a table file from `pattern_fit` (A/B matches
            // of a new fit), `embedded` for the built-in one; without an
            // argument, which is in use.
            "tengen-gammas" => {
                let (w, h) = self.dims();
                let size = w.min(h);
                match a.join(" ").as_str() {
                    "" => {
                        Ok(tengen_go::gammas::loaded_from(size)
                            .unwrap_or_else(|| "embedded".into()))
                    }
                    "embedded" => {
                        tengen_go::gammas::unload(size);
                        self.reset_search();
                        Ok(String::new())
                    }
                    path => std::fs::read_to_string(path)
                        .map_err(|e| format!("cannot read {path}: {e}"))
                        .and_then(|text| tengen_go::gammas::load(size, &text, path))
                        .map(|n| {
                            self.reset_search();
                            n.to_string()
                        }),
                }
            }
            "tengen-threads" => parse_int::<usize>(a.first()).map(|n| {
                self.threads = n.clamp(1, 256);
                String::new()
            }),
            _ => Err("unknown command".into()),
        };
        Some(match result {
            Ok(text) => Response::success(id, text),
            Err(text) => Response::failure(id, text),
        })
    }

    fn reset_search(&mut self) {
        self.searcher.clear();
        self.dead_cache = None;
        self.last_values = None;
    }

    /// Searches the current position for `c` on the background player's
    /// thread while this one keeps reading input (see `Watch`). `report`
    /// runs on the search thread every few milliseconds with a way to
    /// build the analysis so far (for streaming).
    fn search_job(
        &mut self,
        c: Color,
        limits: Limits,
        filter: RootFilter,
        watch: Watch,
        mut report: impl FnMut(&dyn Fn() -> Analysis) + Send + 'static,
    ) -> Analysis {
        let seed = self.searcher.seed();
        // The searcher (and the tree it keeps between moves) travels to
        // the job and comes back with the result.
        let mut searcher = std::mem::replace(&mut self.searcher, Searcher::new(seed));
        let game = self.game.clone();
        let job = Job::start("go-search", move |stop| {
            let a = searcher.search(&game, c, &limits, &filter, &mut |now| {
                report(now);
                stop.load(Ordering::Relaxed)
            });
            (searcher, a)
        });
        let job = match job {
            Ok(job) => job,
            Err(e) => {
                // No thread to be had: a short search here, so that the
                // command still gets its answer.
                eprintln!("tengen: GTP: {e}");
                let quick = Limits {
                    playouts: Some(1),
                    time: None,
                    threads: 1,
                    extra_komi: 0.0,
                };
                return self.searcher.search(
                    &self.game,
                    c,
                    &quick,
                    &RootFilter::default(),
                    &mut |_| true,
                );
            }
        };
        let pending = &mut self.pending;
        let done = job.wait_reading(&self.input, |got| match got {
            Incoming::Line(line) if is_interrupt(&line) => true,
            Incoming::Line(line) => {
                let stop = watch == Watch::Analysis || is_quit(&line);
                pending.push_back(line);
                stop
            }
            Incoming::Closed => watch == Watch::Analysis,
        });
        match done {
            Some((searcher, a)) => {
                self.searcher = searcher;
                a
            }
            None => {
                // The search thread panicked: start afresh with an empty
                // answer rather than take the engine down.
                let quick = Limits {
                    playouts: Some(1),
                    time: None,
                    threads: 1,
                    extra_komi: 0.0,
                };
                self.searcher
                    .search(&self.game, c, &quick, &RootFilter::default(), &mut |_| true)
            }
        }
    }

    fn boardsize(&mut self, a: &[String]) -> Result<String, Fail> {
        let n: usize = parse_int(a.first())?;
        self.set_board(n, n)
    }

    /// KataGo's `rectangular_boardsize W H`: `W` columns, `H` rows (KataGo
    /// also takes `W:H`, and a single `N` for a square board). Each side
    /// 2..=25, as for `boardsize`.
    fn rectangular_boardsize(&mut self, a: &[String]) -> Result<String, Fail> {
        let side = |s: &str| s.parse::<usize>().map_err(|_| syntax());
        let (w, h) = match a {
            [w, h] => (side(w)?, side(h)?),
            [one] => match one.split_once(':') {
                Some((w, h)) => (side(w)?, side(h)?),
                None => {
                    let n = side(one)?;
                    (n, n)
                }
            },
            _ => return Err(syntax()),
        };
        if (2..=25).contains(&w) && (2..=25).contains(&h) {
            // Under GNU Go's quarter-turn or diagonal orientations a
            // rectangle would change its shape between the two frames.
            orientation::fits(self.orient, w, h)?;
        }
        self.set_board(w, h)
    }

    /// A new empty board `w` x `h` (komi and rules kept).
    fn set_board(&mut self, w: usize, h: usize) -> Result<String, Fail> {
        if !(2..=25).contains(&w) || !(2..=25).contains(&h) {
            return Err("unacceptable size".into());
        }
        let komi = self.game.komi();
        let rules = self.game.rules();
        self.game = Game::new_rect(w, h, komi);
        self.game.set_rules(rules);
        self.area.clear_mask();
        self.setup_undo.clear();
        self.reset_search();
        Ok(String::new())
    }

    fn fixed_handicap(&mut self, a: &[String]) -> Result<String, Fail> {
        let n: usize = parse_int(a.first())?;
        if !self.game.board().is_empty_board() || !self.game.moves().is_empty() {
            return Err("board not empty".into());
        }
        let (w, h) = self.dims();
        let pts = fixed_handicap_rect(w, h, n).ok_or("invalid number of stones")?;
        if !self.game.set_handicap(&pts) {
            return Err("invalid number of stones".into());
        }
        self.reset_search();
        Ok(join_points(&pts))
    }

    fn place_free_handicap(&mut self, a: &[String]) -> Result<String, Fail> {
        let n: usize = parse_int(a.first())?;
        let (w, h) = self.dims();
        if !self.game.board().is_empty_board() || !self.game.moves().is_empty() {
            return Err("board not empty".into());
        }
        if n < 2 || n >= w * h {
            return Err("invalid number of stones".into());
        }
        // The fixed points first, then points far from every stone so far.
        let mut pts = fixed_handicap_rect(w, h, n.min(9))
            .or_else(|| fixed_handicap_rect(w, h, n.min(4)))
            .unwrap_or_default();
        let board = self.game.board();
        let all: Vec<Point> = board.points().collect();
        while pts.len() < n {
            let far = all
                .iter()
                .copied()
                .filter(|p| !pts.contains(p))
                .max_by_key(|p| {
                    let d = pts
                        .iter()
                        .map(|q| p.x().abs_diff(q.x()) + p.y().abs_diff(q.y()))
                        .min()
                        .unwrap_or(w + h);
                    let line = board.edge_distance(*p);
                    (d.min(4), line.min(3), usize::MAX - p.index())
                });
            match far {
                Some(p) => pts.push(p),
                None => break,
            }
        }
        pts.truncate(n);
        if !self.game.set_handicap(&pts) {
            return Err("invalid number of stones".into());
        }
        self.reset_search();
        Ok(join_points(&pts))
    }

    fn set_free_handicap(&mut self, a: &[String]) -> Result<String, Fail> {
        if !self.game.board().is_empty_board() || !self.game.moves().is_empty() {
            return Err("board not empty".into());
        }
        let mut pts = Vec::new();
        for v in a {
            match self.game.parse_move(v) {
                Some(Move::Play(p)) if !pts.contains(&p) => pts.push(p),
                Some(_) => return Err("bad vertex list".into()),
                None => return Err(syntax()),
            }
        }
        if pts.len() < 2 || pts.len() >= self.game.board().area_points() {
            return Err("bad vertex list".into());
        }
        if !self.game.set_handicap(&pts) {
            return Err("bad vertex list".into());
        }
        self.reset_search();
        Ok(String::new())
    }

    fn play(&mut self, a: &[String]) -> Result<String, Fail> {
        if a.len() < 2 {
            return Err(syntax());
        }
        let c = parse_color(a.first())?;
        let m = self.mv(a.get(1))?;
        self.game
            .play(c, m)
            .map_err(|_| "illegal move".to_string())?;
        self.dead_cache = None;
        Ok(String::new())
    }

    /// `color vertex` pairs as setup stones, all or nothing; with `clear`
    /// (KataGo's `set_position`) on an empty board, else on the current
    /// one (GoGui's `gogui-setup`). The position before is kept for
    /// `gogui-undo_setup`.
    fn setup(&mut self, a: &[String], clear: bool) -> Result<String, Fail> {
        if !a.len().is_multiple_of(2) {
            return Err(syntax());
        }
        let mut stones = Vec::new();
        for pair in a.chunks(2) {
            let c = parse_color(pair.first())?;
            let p = self.point(pair.get(1)).map_err(|_| syntax())?;
            if stones.iter().any(|&(_, q)| q == p) {
                return Err("illegal setup".into());
            }
            stones.push((c, p));
        }
        let mut g = self.game.clone();
        if clear {
            g.clear();
        }
        if !g.setup(&stones) {
            return Err("illegal setup".into());
        }
        self.setup_undo.push(std::mem::replace(&mut self.game, g));
        self.reset_search();
        Ok(String::new())
    }

    fn play_sequence(&mut self, a: &[String]) -> Result<String, Fail> {
        if !a.len().is_multiple_of(2) {
            return Err(syntax());
        }
        let mut g = self.game.clone();
        for pair in a.chunks(2) {
            let c = parse_color(pair.first())?;
            let m = self.mv(pair.get(1))?;
            g.play(c, m).map_err(|_| "illegal move".to_string())?;
        }
        self.game = g;
        self.dead_cache = None;
        Ok(String::new())
    }

    fn gg_undo(&mut self, a: &[String]) -> Result<String, Fail> {
        let n: usize = if a.is_empty() {
            1
        } else {
            parse_int(a.first())?
        };
        if n > self.game.moves().len() {
            return Err("cannot undo".into());
        }
        for _ in 0..n {
            self.game.undo();
        }
        Ok(String::new())
    }

    /// GNU Go's `accuratelib`: the liberties (a list, rows top-down) a
    /// stone would have after its captures; empty for a suicide.
    fn accuratelib(&self, a: &[String]) -> Result<String, Fail> {
        let (c, p) = self.color_and_empty_point(a)?;
        Ok(tactics::join(&tactics::gnugo_order(tactics::libs_of_move(
            self.read_board(),
            c,
            p,
        ))))
    }

    fn time_settings(&mut self, a: &[String]) -> Result<String, Fail> {
        if a.len() != 3 {
            return Err(syntax());
        }
        let main: u64 = parse_int(a.first())?;
        let period: u64 = parse_int(a.get(1))?;
        let stones: u32 = parse_int(a.get(2))?;
        let secs = Duration::from_secs;
        self.set_control(Control::gtp(secs(main), secs(period), stones));
        Ok(String::new())
    }

    fn kgs_time_settings(&mut self, a: &[String]) -> Result<String, Fail> {
        let kind = a
            .first()
            .map(|s| s.to_ascii_lowercase())
            .ok_or_else(syntax)?;
        let secs =
            |i: usize| -> Result<Duration, Fail> { parse_int(a.get(i)).map(Duration::from_secs) };
        let control = match kind.as_str() {
            "none" => None,
            "absolute" => Some(Control::sudden_death(secs(1)?)),
            "canadian" => Control::gtp(secs(1)?, secs(2)?, parse_int(a.get(3))?),
            "byoyomi" => Some(Control::kgs_byoyomi(
                secs(1)?,
                secs(2)?,
                parse_int(a.get(3))?,
            )),
            _ => return Err(syntax()),
        };
        self.set_control(control);
        Ok(String::new())
    }

    fn set_control(&mut self, control: Option<Control>) {
        let clock = control.map(Clock::new);
        self.clocks = [clock.clone(), clock];
    }

    fn time_left(&mut self, a: &[String]) -> Result<String, Fail> {
        if a.len() != 3 {
            return Err(syntax());
        }
        let c = parse_color(a.first())?;
        let t: f64 = parse_float(a.get(1))?;
        let s: u32 = parse_int(a.get(2))?;
        // Under no time limit the report changes nothing.
        if let Some(clock) = &mut self.clocks[c.index()] {
            let left = Duration::try_from_secs_f64(t.max(0.0)).unwrap_or(Duration::MAX);
            if !finer_than_report(clock, t, left, s) {
                clock.set_reported(left, s);
            }
        }
        Ok(String::new())
    }

    /// The handicap's dynamic komi for `c`'s search here (0 when off).
    fn extra_komi(&self, c: Color) -> f64 {
        dynamic_komi(
            self.game.handicap().len(),
            self.game.moves().len(),
            self.game.board().area_points(),
            c,
        )
    }

    /// Search limits for a move of `c` under the clock.
    fn limits(&self, c: Color) -> Limits {
        if let Some(n) = self.fixed_playouts {
            return Limits {
                playouts: Some(n),
                time: None,
                threads: self.threads,
                extra_komi: 0.0,
            };
        }
        let Some(clock) = &self.clocks[c.index()] else {
            return Limits {
                playouts: Some(2000 * self.level as u64),
                time: None,
                threads: self.threads,
                extra_komi: 0.0,
            };
        };
        let ply = self.game.moves().len() as u32 / 2;
        let tc = clock.time_control();
        let tm = TimeManager::new(&tc, overhead(&tc), ply);
        Limits {
            playouts: None,
            time: Some(mcts_budget(&tc, &tm)),
            threads: self.threads,
            extra_komi: 0.0,
        }
    }

    /// Runs a search for `c` and picks a move; returns (move, reply text).
    fn genmove(
        &mut self,
        c: Color,
        play: bool,
        cleanup: bool,
        allow: &[Point],
        stream: Option<&Stream>,
        id: Option<u64>,
    ) -> (Option<Analysis>, String) {
        let start = Instant::now();
        let mut limits = self.limits(c);
        // A handicap game's stones count as komi for a while (not in the
        // clean-up phase, which only removes dead stones).
        if !cleanup {
            limits.extra_komi = self.extra_komi(c);
        }
        // The points the move may take: `allow` (restricted_genmove)
        // within GNU Go's search area, when one is set.
        let restrict: Option<Vec<Point>> = match (self.area.allowed(), allow) {
            (None, []) => None,
            (None, some) => Some(some.to_vec()),
            (Some(mask), []) => Some(mask.to_vec()),
            (Some(mask), some) => Some(some.iter().copied().filter(|p| mask.contains(p)).collect()),
        };
        let (mv, analysis) = self.choose(c, &limits, cleanup, restrict.as_deref(), stream, id);
        let text = match mv {
            None => "resign".to_string(),
            Some(m) => {
                if play {
                    // The chosen move is legal by construction; keep the
                    // board unchanged if it somehow is not.
                    let _ = self.game.play(c, m);
                    self.dead_cache = None;
                }
                move_name(m)
            }
        };
        // Our own clock estimate, until the controller sends time_left.
        if let Some(clock) = &mut self.clocks[c.index()] {
            if clock.charge(start.elapsed(), Duration::ZERO).is_err() {
                after_overrun(clock);
            }
        }
        (analysis, text)
    }

    /// `None` means resign. `restrict`: only these points (and pass).
    fn choose(
        &mut self,
        c: Color,
        limits: &Limits,
        cleanup: bool,
        restrict: Option<&[Point]>,
        stream: Option<&Stream>,
        id: Option<u64>,
    ) -> (Option<Move>, Option<Analysis>) {
        let opp_passed = self
            .game
            .moves()
            .last()
            .is_some_and(|p| p.mv == Move::Pass && p.color == c.opp());
        let winning_as_is = {
            let s = self.game.tromp_taylor().0;
            if c == Color::Black {
                s > 0.0
            } else {
                s < 0.0
            }
        };
        // Ending the game now wins under Tromp-Taylor: pass.
        if opp_passed && winning_as_is && !cleanup && restrict.is_none() && stream.is_none() {
            return (Some(Move::Pass), None);
        }
        let filter = RootFilter {
            allow: restrict.unwrap_or_default().to_vec(),
            avoid: Vec::new(),
            no_pass: cleanup,
            pass_only: restrict.is_some_and(<[Point]>::is_empty),
        };
        let out = self.out.clone();
        let mut last_report = Instant::now();
        let head = Response::head(true, id);
        // The head goes out before the search starts so that streamed
        // lines always follow it.
        if stream.is_some() {
            out.line(&head);
        }
        let streaming = stream.cloned();
        let a = self.search_job(c, limits.clone(), filter, Watch::Move, move |now| {
            if let Some(st) = &streaming {
                if st.interval.is_some_and(|i| last_report.elapsed() >= i) {
                    last_report = Instant::now();
                    out.line(&info_line(&now(), c, st));
                }
            }
        });
        if let Some(st) = stream {
            self.out.line(&info_line(&a, c, st));
        }
        self.last_values = Some(a.clone());
        let area = self.game.board().area_points();
        let best = a.candidates.first().cloned();
        let Some(best) = best else {
            return (Some(Move::Pass), Some(a));
        };
        // Resign when clearly lost after a real search, and never while
        // the win rate is measured against a handicap's extra komi (Black
        // may look lost under it and still be ahead).
        if best.winrate < 0.05
            && a.playouts >= 1000
            && self.game.moves().len() > area / 3
            && !cleanup
            && limits.extra_komi == 0.0
        {
            return (None, Some(a));
        }
        let mut choice = best.mv;
        if choice == Move::Pass && !winning_as_is {
            // Passing would let the game end lost: play on if we can.
            if let Some(alt) = a
                .candidates
                .iter()
                .find(|k| k.mv != Move::Pass && k.visits > 0)
            {
                choice = alt.mv;
            } else if let Some(alt) = a.candidates.iter().find(|k| k.mv != Move::Pass) {
                choice = alt.mv;
            }
        }
        if !self.game.is_legal(c, choice) {
            choice = Move::Pass;
        }
        (Some(choice), Some(a))
    }

    fn restricted_genmove(&mut self, a: &[String], id: Option<u64>) -> Result<String, Fail> {
        let c = parse_color(a.first())?;
        let mut allow = Vec::new();
        for v in &a[1..] {
            match self.game.parse_move(v) {
                Some(Move::Play(p)) => allow.push(p),
                _ => return Err(syntax()),
            }
        }
        if allow.is_empty() {
            return Err(syntax());
        }
        if !allow.iter().any(|&p| self.game.is_legal(c, Move::Play(p))) {
            return Ok("pass".into());
        }
        // As in GNU Go, the move is named, not played.
        Ok(self.genmove(c, false, false, &allow, None, id).1)
    }

    /// Stone status (dead from the ownership statistics of a short search,
    /// seki from the board) for the current position.
    fn dead_stones(&mut self) -> (Status, Analysis) {
        let key = (self.game.board().hash(), self.game.moves().len());
        if let Some((h, n, st, a)) = &self.dead_cache {
            if (*h, *n) == key {
                return (st.clone(), a.clone());
            }
        }
        let c = self.game.to_move();
        let limits = Limits {
            playouts: Some(4000 + 500 * self.level as u64),
            time: Some(Duration::from_secs(10)),
            threads: self.threads,
            extra_komi: 0.0,
        };
        let a = self.search_job(c, limits, RootFilter::default(), Watch::Move, |_| {});
        let st = Status::estimate(self.game.board(), &a.ownership);
        self.dead_cache = Some((key.0, key.1, st.clone(), a.clone()));
        (st, a)
    }

    fn final_score(&mut self) -> Score {
        let (st, _) = self.dead_stones();
        self.game.final_score(&st.dead, &st.seki)
    }

    /// `kata-set-rules`, `kata-set-rule`, `kgs-rules`: the new rules, or
    /// why they are refused (the old ones stay).
    fn set_rules(&mut self, name: &str, a: &[String]) -> Result<String, Fail> {
        let current = self.game.rules();
        let rules = match name {
            "kata-set-rules" => Rules::parse(&a.join(" "), current)?,
            "kata-set-rule" => {
                let [key, value] = a else {
                    return Err("Expected two arguments for kata-set-rule".into());
                };
                let mut r = current;
                r.set(key, value)?;
                r
            }
            // kgsGtp's names: KGS's Chinese rules use positional superko,
            // and its New Zealand rules are played without suicide here.
            _ => match a.first().map(String::as_str) {
                Some("chinese") => Rules::named("chinese-kgs"),
                Some("new_zealand") => Rules::named("new-zealand").map(|r| Rules {
                    suicide: false,
                    ..r
                }),
                Some(other) => Rules::named(other),
                None => None,
            }
            .ok_or_else(|| format!("Unknown rules '{}'", a.join(" ")))?,
        };
        if let Some(why) = rules.unsupported() {
            return Err(format!("Rules not supported: {why}"));
        }
        self.game.set_rules(rules);
        self.reset_search();
        Ok(String::new())
    }

    /// GNU Go's `estimate_score` (and `new_score`) format: the winner
    /// and margin (`W+` for a jigo, as GNU Go), then the bounds as
    /// White's lead (`%3.1f`): the playouts' mean margin, plus and minus
    /// one standard deviation.
    fn estimate_score(&mut self) -> String {
        let (_, a) = self.dead_stones();
        // White's lead, as GNU Go counts; + 0.0 turns -0.0 into 0.0.
        let white = -a.score_mean + 0.0;
        let sd = a.score_stdev;
        let lead = if white >= 0.0 {
            format!("W+{white:.1}")
        } else {
            format!("B+{:.1}", -white)
        };
        format!(
            "{lead} (upper bound: {:.1}, lower: {:.1})",
            white + sd + 0.0,
            white - sd + 0.0
        )
    }

    fn final_status(&mut self, a: &[String]) -> Result<String, Fail> {
        let p = self.point(a.first())?;
        let (st, _) = self.dead_stones();
        let b = self.game.board();
        Ok(match b.cell(p) {
            Cell::Black | Cell::White if st.is_dead(p) => "dead".into(),
            Cell::Black | Cell::White if st.is_seki(p) => "seki".into(),
            Cell::Black | Cell::White => "alive".into(),
            _ => match b.owners_with(&st.dead)[p.index()] {
                Some(Color::Black) => "black_territory".into(),
                Some(Color::White) => "white_territory".into(),
                None => "dame".into(),
            },
        })
    }

    fn final_status_list(&mut self, a: &[String]) -> Result<String, Fail> {
        let kind = a.first().ok_or_else(syntax)?.as_str();
        if !matches!(
            kind,
            "alive" | "dead" | "seki" | "black_territory" | "white_territory" | "dame"
        ) {
            return Err(syntax());
        }
        let (st, _) = self.dead_stones();
        let b = self.game.board();
        let owners = b.owners_with(&st.dead);
        let pts: Vec<Point> = b
            .points()
            .filter(|&p| {
                let stone = b.cell(p).color().is_some();
                let dead = st.is_dead(p);
                match kind {
                    "alive" => stone && !dead && !st.is_seki(p),
                    "dead" => dead,
                    "seki" => st.is_seki(p),
                    "black_territory" => {
                        (!stone || dead) && owners[p.index()] == Some(Color::Black)
                    }
                    "white_territory" => {
                        (!stone || dead) && owners[p.index()] == Some(Color::White)
                    }
                    _ => (!stone || dead) && owners[p.index()].is_none(),
                }
            })
            .collect();
        // One group per line is what GNU Go does; one line is fine too.
        Ok(join_points(&pts))
    }

    fn top_moves(&mut self, c: Color) -> String {
        let a = self.value_search(c);
        self.last_values = Some(a.clone());
        a.candidates
            .iter()
            .filter(|k| k.visits > 0)
            .take(10)
            .map(|k| format!("{} {:.2}", move_name(k.mv), k.winrate * 100.0))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn loadsgf(&mut self, a: &[String]) -> Result<String, Fail> {
        let path = a.first().ok_or_else(syntax)?;
        // A move number, or (as the specification allows and GNU Go does)
        // a vertex: the position before the first move played there.
        let upto = match a.get(1) {
            None => None,
            Some(v) => match v.parse::<usize>() {
                Ok(n) => Some(sgf::Upto::Number(n)),
                Err(_) => match parse_vertex(v, tengen_go::board::MAX_SIZE) {
                    Some(Move::Play(p)) => Some(sgf::Upto::Vertex(p)),
                    _ => return Err(syntax()),
                },
            },
        };
        let text = std::fs::read_to_string(path).map_err(|_| "cannot load file".to_string())?;
        let rec = sgf::parse(&text).map_err(|_| "cannot load file".to_string())?;
        let (game, next) = sgf::load(&rec, upto, self.game.ko_rule())
            .map_err(|_| "cannot load file".to_string())?;
        // The file is in the outside frame; the game lives in the
        // orientation's (GNU Go rotates the record as it loads it).
        let game = if self.orient == 0 {
            game
        } else {
            orientation::fits(self.orient, game.width(), game.height())?;
            tengen_go::symmetry::transform_game(&game, self.orient)
                .ok_or_else(|| "cannot load file".to_string())?
        };
        let rules = self.game.rules();
        self.game = game;
        self.game.set_rules(rules);
        self.reset_search();
        Ok(next.name().to_string())
    }

    fn printsgf(&mut self, a: &[String]) -> Result<String, Fail> {
        let text = sgf::write(&self.game, None);
        match a.first() {
            Some(path) => {
                std::fs::write(path, &text).map_err(|_| "cannot write file".to_string())?;
                Ok(String::new())
            }
            None => Ok(text.trim_end().to_string()),
        }
    }

    /// Parses `[color] [interval] [key value...]` of the analysis commands.
    fn analysis_args(
        &self,
        a: &[String],
        kata: bool,
    ) -> Result<(Color, Stream, Vec<Point>, Vec<Point>), Fail> {
        let mut i = 0;
        let mut color = self.game.to_move();
        let mut st = Stream {
            interval: Some(Duration::from_millis(1000)),
            kata,
            ownership: false,
            max_moves: 362,
            orient: self.orient,
            dims: self.dims(),
        };
        let mut avoid = Vec::new();
        let mut allow = Vec::new();
        if let Some(c) = a.first().and_then(|s| Color::parse(s)) {
            color = c;
            i += 1;
        }
        if let Some(n) = a.get(i).and_then(|s| s.parse::<u64>().ok()) {
            st.interval = Some(Duration::from_millis(n * 10));
            i += 1;
        }
        while i < a.len() {
            let key = a[i].as_str();
            let val = a.get(i + 1);
            match key {
                "interval" => {
                    st.interval = Some(Duration::from_millis(parse_int::<u64>(val)? * 10))
                }
                "minmoves" => {
                    parse_int::<u64>(val)?;
                }
                "maxmoves" => st.max_moves = parse_int::<usize>(val)?.max(1),
                "ownership" => st.ownership = val.map(|v| v == "true").ok_or_else(syntax)?,
                "ownershipStdev"
                | "movesOwnership"
                | "movesOwnershipStdev"
                | "pvVisits"
                | "pvEdgeVisits"
                | "rootInfo" => {
                    val.ok_or_else(syntax)?;
                }
                "avoid" | "allow" => {
                    // avoid <color> <v,v,...> <depth>
                    parse_color(val)?;
                    let list = a.get(i + 2).ok_or_else(syntax)?;
                    parse_int::<u32>(a.get(i + 3))?;
                    for v in list.split(',') {
                        match self.game.parse_move(v) {
                            Some(Move::Play(p)) => {
                                if key == "avoid" {
                                    avoid.push(p)
                                } else {
                                    allow.push(p)
                                }
                            }
                            Some(Move::Pass) => {}
                            None => return Err(syntax()),
                        }
                    }
                    i += 2;
                }
                _ => return Err(syntax()),
            }
            i += 2;
        }
        Ok((color, st, avoid, allow))
    }

    /// `lz-analyze` / `kata-analyze`: stream until any input arrives.
    fn analyze(&mut self, cmd: &Command) -> Option<Response> {
        let kata = cmd.name == "kata-analyze";
        let (color, st, avoid, allow) = match self.analysis_args(&cmd.args, kata) {
            Ok(x) => x,
            Err(e) => return Some(Response::failure(cmd.id, e)),
        };
        self.out.line(&Response::head(true, cmd.id));
        let filter = RootFilter {
            allow,
            avoid,
            ..RootFilter::default()
        };
        let limits = Limits {
            playouts: None,
            time: None,
            threads: self.threads,
            extra_komi: 0.0,
        };
        let out = self.out.clone();
        let mut last = Instant::now();
        self.search_job(color, limits, filter, Watch::Analysis, move |now| {
            if st.interval.is_some_and(|i| last.elapsed() >= i) {
                last = Instant::now();
                out.line(&info_line(&now(), color, &st));
            }
        });
        // The empty line that ends the response.
        self.out.raw("\n");
        None
    }

    /// `*-genmove_analyze`: info lines, then `play <move>`, then the end.
    fn genmove_analyze(&mut self, cmd: &Command) -> Option<Response> {
        let kata = cmd.name == "kata-genmove_analyze";
        let (color, st, _, _) = match self.analysis_args(&cmd.args, kata) {
            Ok(x) => x,
            Err(e) => return Some(Response::failure(cmd.id, e)),
        };
        let (_, text) = self.genmove(color, true, false, &[], Some(&st), cmd.id);
        let text = orientation::line_out(&text, self.orient, self.dims());
        self.out.raw(&format!("play {text}\n\n"));
        None
    }
}

/// One analysis line holding every candidate.
fn info_line(a: &Analysis, color: Color, st: &Stream) -> String {
    let mut parts = Vec::new();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let score = a.score_mean * sign;
    for (order, k) in a
        .candidates
        .iter()
        .filter(|k| k.visits > 0)
        .take(st.max_moves)
        .enumerate()
    {
        let pv =
            k.pv.iter()
                .map(|&m| move_name(m))
                .collect::<Vec<_>>()
                .join(" ");
        let mv = move_name(k.mv);
        if st.kata {
            parts.push(format!(
                "info move {mv} visits {} utility {:.4} winrate {:.6} scoreMean {:.2} scoreStdev {:.2} scoreLead {:.2} scoreSelfplay {:.2} prior {:.6} lcb {:.6} utilityLcb {:.4} order {order} pv {pv}",
                k.visits,
                k.winrate * 2.0 - 1.0,
                k.winrate,
                score,
                a.score_stdev,
                score,
                score,
                k.prior,
                k.lcb,
                k.lcb * 2.0 - 1.0,
            ));
        } else {
            parts.push(format!(
                "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                k.visits,
                (k.winrate * 10000.0).round() as i64,
                (k.prior * 10000.0).round() as i64,
                (k.lcb * 10000.0).round() as i64,
            ));
        }
    }
    let mut line = orientation::line_out(&parts.join(" "), st.orient, st.dims);
    if st.kata && st.ownership {
        // Row-major from the top-left, side to move's view.
        let (w, h) = st.dims;
        let mut own = Vec::with_capacity(a.ownership.len());
        for y in (0..h).rev() {
            for x in 0..w {
                let v = a.ownership.get(y * w + x).copied().unwrap_or(0.0) * sign;
                own.push(format!("{v:.3}"));
            }
        }
        line.push_str(" ownership ");
        line.push_str(&own.join(" "));
    }
    line
}

fn gogui_commands() -> String {
    [
        "dboard/Ownership/tengen-ownership",
        "none/Final score/final_score",
        "plist/Dead stones/final_status_list dead",
        "plist/Alive stones/final_status_list alive",
        "plist/Seki stones/final_status_list seki",
        "string/Estimate score/estimate_score",
        "pspairs/Top moves/top_moves",
        "plist/All legal/all_legal %c",
        "string/Last move/last_move",
        "string/Move history/move_history",
        "string/Liberties/countlib %p",
        "plist/Find liberties/findlib %p",
        "none/Set ko rule/tengen-ko_rule %s",
    ]
    .join("\n")
}

/// The search time for one move. MCTS has no iterations to finish, so
/// the soft limit is the target; but a one-move byo-yomi period with no
/// main time before it is lost unless used, and the search stops within
/// milliseconds of its deadline, so there it takes the whole usable
/// period (the hard limit, which already keeps the latency margin). The
/// alpha-beta games keep the soft limit there: an iteration cut off at
/// the hard limit is wasted.
fn mcts_budget(tc: &TimeControl, tm: &TimeManager) -> Duration {
    if period_alone(tc).is_some() && tc.byoyomi_moves <= 1 {
        tm.hard
    } else {
        tm.soft.min(tm.hard)
    }
}

/// The time a move gets from a byo-yomi period when no main time is left
/// (a Canadian period shared evenly by its stones); `None` while main
/// time remains or without a period.
fn period_alone(tc: &TimeControl) -> Option<Duration> {
    let period = if tc.byoyomi_moves > 1 {
        tc.byoyomi / tc.byoyomi_moves
    } else {
        tc.byoyomi
    };
    (tc.remaining.is_zero() && !period.is_zero()).then_some(period)
}

/// The margin kept for latency: the game's (400 ms, for servers and a
/// busy machine), but at most a fifth of a byo-yomi period that has no
/// main time before it (and at least 100 ms), so that at one second a
/// move the search gets 0.8 s instead of half of it.
fn overhead(tc: &TimeControl) -> Duration {
    period_alone(tc).map_or(GO.overhead, |period| {
        (period / 5).clamp(Duration::from_millis(100), GO.overhead)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `time_settings 0 1 1` (the arena's `st=1`) and a move that ran a
    /// little over the period: the next move still gets its period.
    #[test]
    fn an_overrun_in_byo_yomi_starts_a_fresh_period() {
        let s = Duration::from_secs;
        for control in [
            Control::gtp(s(0), s(1), 1),
            Control::gtp(s(0), s(30), 5),
            Some(Control::kgs_byoyomi(s(0), s(1), 3)),
        ] {
            let Some(control) = control else {
                panic!("a valid control")
            };
            let mut clock = Clock::new(control);
            assert!(clock
                .charge(Duration::from_millis(30_500), Duration::ZERO)
                .is_err());
            after_overrun(&mut clock);
            assert!(clock.usable() >= Duration::from_millis(900), "{control:?}");
        }
        // Sudden death: nothing left, play at once.
        let mut clock = Clock::new(Control::sudden_death(s(1)));
        assert!(clock.charge(s(2), Duration::ZERO).is_err());
        after_overrun(&mut clock);
        assert_eq!(clock.usable(), Duration::ZERO);
    }

    /// One second a move (`time_settings 0 1 1`, the arena's `st=1`)
    /// leaves the search about 0.7 s; long periods keep the full margin.
    #[test]
    fn short_byo_yomi_periods_keep_a_proportional_margin() {
        let s = Duration::from_secs;
        let limit = |control: Option<Control>| {
            let Some(control) = control else {
                panic!("a valid control")
            };
            let tc = Clock::new(control).time_control();
            TimeManager::new(&tc, overhead(&tc), 10)
        };
        let one = limit(Control::gtp(s(0), s(1), 1));
        assert!(one.soft >= Duration::from_millis(650), "{one:?}");
        assert!(one.hard <= Duration::from_millis(850), "{one:?}");
        let canadian = limit(Control::gtp(s(0), s(30), 5));
        assert!(
            canadian.hard <= Duration::from_millis(5_600),
            "{canadian:?}"
        );
        let japanese = limit(Some(Control::kgs_byoyomi(s(0), s(30), 5)));
        assert!(
            japanese.hard <= Duration::from_millis(29_600),
            "{japanese:?}"
        );
        // Main time left: the game's margin.
        let tc = Clock::new(Control::sudden_death(s(60))).time_control();
        assert_eq!(overhead(&tc), GO.overhead);
    }

    fn session() -> Session {
        let (_tx, rx) = std::sync::mpsc::channel();
        Session::new(rx, Output::new(Box::new(std::io::sink())))
    }

    fn send(s: &mut Session, line: &str) {
        let cmd = Command::parse(line).expect("a command");
        let resp = s.handle(&cmd).expect("a response").to_string();
        assert!(resp.starts_with('='), "{line}: {resp}");
    }

    fn budget(s: &Session) -> Option<Duration> {
        s.limits(Color::Black).time
    }

    #[test]
    fn no_time_limit_plays_by_level() {
        let mut s = session();
        assert_eq!(budget(&s), None);
        send(&mut s, "time_settings 0 10 0");
        assert_eq!(budget(&s), None, "byo-yomi with no stones means no limit");
        send(&mut s, "time_left black 3 0");
        assert_eq!(budget(&s), None);
    }

    #[test]
    fn each_time_system_budgets_within_what_is_left() {
        let cases = [
            ("time_settings 0 2 1", Duration::from_secs(2)),
            ("time_settings 60 0 0", Duration::from_secs(60)),
            ("kgs-time_settings byoyomi 0 5 3", Duration::from_secs(5)),
            ("kgs-time_settings canadian 0 30 10", Duration::from_secs(3)),
            ("kgs-time_settings absolute 600", Duration::from_secs(600)),
        ];
        for (line, cap) in cases {
            let mut s = session();
            send(&mut s, line);
            let t = budget(&s).unwrap_or_else(|| panic!("{line}: no time budget"));
            assert!(t > Duration::ZERO && t < cap, "{line}: {t:?}");
        }
        let mut s = session();
        send(&mut s, "kgs-time_settings none");
        assert_eq!(budget(&s), None);
    }

    /// A one-move period with no main time is spent up to the latency
    /// margin; a Canadian period and main time keep the soft target.
    #[test]
    fn a_one_move_period_is_spent_up_to_the_margin() {
        let ms = Duration::from_millis;
        let mut s = session();
        send(&mut s, "time_settings 0 2 1");
        assert_eq!(budget(&s), Some(ms(2_000) - overhead_of(&s)));
        let mut s = session();
        send(&mut s, "time_settings 0 30 10");
        let canadian = budget(&s).unwrap();
        assert!(canadian < ms(3_000) - overhead_of(&s), "{canadian:?}");
        let mut s = session();
        send(&mut s, "kgs-time_settings byoyomi 60 2 1");
        let main = budget(&s).unwrap();
        assert!(main < ms(60_000) / 20, "main time is shared: {main:?}");
    }

    fn overhead_of(s: &Session) -> Duration {
        let clock = s.clocks[Color::Black.index()].as_ref();
        overhead(&clock.map(|c| c.time_control()).unwrap_or_default())
    }

    #[test]
    fn time_left_replaces_the_estimate() {
        let mut s = session();
        send(&mut s, "time_settings 600 0 0");
        let full = budget(&s).unwrap();
        send(&mut s, "time_left black 6 0");
        let low = budget(&s).unwrap();
        assert!(low < full / 10, "{low:?} against {full:?}");
        assert_eq!(
            s.limits(Color::White).time,
            Some(full),
            "white's clock is its own"
        );
        // Canadian overtime as reported: 10 s left for 5 stones.
        send(&mut s, "time_settings 0 30 10");
        send(&mut s, "time_left black 10 5");
        assert!(budget(&s).unwrap() <= Duration::from_secs(2));
    }

    /// A whole-second report that our own finer estimate falls inside
    /// (0.83 s of a three-stone, one-second period reported as `0 2`)
    /// keeps the estimate; one it does not fall inside replaces it.
    #[test]
    fn a_whole_second_report_keeps_the_finer_estimate_inside_it() {
        let mut s = session();
        send(&mut s, "time_settings 0 1 3");
        if let Some(clock) = &mut s.clocks[Color::Black.index()] {
            clock.set_reported(Duration::from_millis(830), 2);
        }
        send(&mut s, "time_left black 0 2");
        let kept = budget(&s).unwrap();
        assert!(kept >= Duration::from_millis(200), "{kept:?}");
        // Another stone count, or a report the estimate is not inside:
        // the report wins (0 s for 2 stones: play at once).
        send(&mut s, "time_left black 0 1");
        assert!(budget(&s).unwrap() < kept);
        if let Some(clock) = &mut s.clocks[Color::Black.index()] {
            clock.set_reported(Duration::from_millis(2_500), 2);
        }
        send(&mut s, "time_left black 0 2");
        assert!(budget(&s).unwrap() < Duration::from_millis(50));
        // Main time: 59.4 s of our own inside a report of 59 s.
        send(&mut s, "time_settings 600 0 0");
        if let Some(clock) = &mut s.clocks[Color::Black.index()] {
            clock.set_reported(Duration::from_millis(59_400), 0);
        }
        let own = budget(&s).unwrap();
        send(&mut s, "time_left black 59 0");
        assert_eq!(budget(&s).unwrap(), own);
        send(&mut s, "time_left black 58 0");
        assert!(budget(&s).unwrap() < own);
    }

    /// The reply to one command line: (success, text).
    fn ask(s: &mut Session, line: &str) -> (bool, String) {
        let cmd = Command::parse(line).expect("a command");
        let resp = s.handle(&cmd).expect("a response");
        (resp.ok, resp.text)
    }

    fn ok(s: &mut Session, line: &str) -> String {
        let (good, text) = ask(s, line);
        assert!(good, "{line}: ? {text}");
        text
    }

    fn fail(s: &mut Session, line: &str) -> String {
        let (good, text) = ask(s, line);
        assert!(!good, "{line}: = {text}");
        text
    }

    /// Every word of a reply that names a vertex names one of this board.
    fn vertices_on_board(s: &Session, line: &str, text: &str) {
        for word in text.split_whitespace() {
            for w in word.trim_end_matches(':').split(',') {
                if parse_vertex(w, tengen_go::board::MAX_SIZE).is_some() {
                    assert!(
                        s.game.parse_move(w).is_some(),
                        "{line}: {w} is off the {}x{} board in {text:?}",
                        s.game.width(),
                        s.game.height()
                    );
                }
            }
        }
    }

    #[test]
    fn a_gammas_file_replaces_the_table_of_its_board_class() {
        let mut s = session();
        ok(&mut s, "boardsize 19");
        assert_eq!(ok(&mut s, "tengen-gammas"), "embedded");
        // The embedded 19x19 table's own file: the values, and so every
        // other test's searches, stay the same while it is loaded.
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../go/src/tables/gammas19.txt");
        let n = ok(&mut s, &format!("tengen-gammas {file}"));
        assert_eq!(n, tengen_go::gammas::embedded(19).len().to_string());
        assert_eq!(ok(&mut s, "tengen-gammas"), file);
        // A file without strengths, or no file, is refused and changes
        // nothing.
        let bad = std::env::temp_dir().join(format!("tengen-gammas-{}.txt", std::process::id()));
        std::fs::write(&bad, "# nothing here\nshape3 x y\n").expect("temp file");
        let text = fail(&mut s, &format!("tengen-gammas {}", bad.display()));
        assert!(text.contains("no move strengths"), "{text}");
        let _ = std::fs::remove_file(&bad);
        let text = fail(&mut s, "tengen-gammas /nonexistent/gammas.txt");
        assert!(text.starts_with("cannot read"), "{text}");
        assert_eq!(ok(&mut s, "tengen-gammas"), file);
        // Small boards have their own table.
        ok(&mut s, "boardsize 9");
        assert_eq!(ok(&mut s, "tengen-gammas"), "embedded");
        ok(&mut s, "boardsize 19");
        ok(&mut s, "tengen-gammas embedded");
        assert_eq!(ok(&mut s, "tengen-gammas"), "embedded");
    }

    #[test]
    fn a_rectangular_board_end_to_end() {
        let mut s = session();
        ok(&mut s, "tengen-playouts 300");
        ok(&mut s, "rectangular_boardsize 13 9");
        assert_eq!(ok(&mut s, "query_boardsize"), "13 9");
        ok(&mut s, "play b N9");
        ok(&mut s, "play w A1");
        fail(&mut s, "play w N10");
        fail(&mut s, "play w O1");
        assert_eq!(ok(&mut s, "color N9"), "black");
        let board = ok(&mut s, "showboard");
        let rows: Vec<&str> = board.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(rows.len(), 11, "{board}");
        assert_eq!(rows[0].trim(), "A B C D E F G H J K L M N");
        assert!(
            rows[1].starts_with(" 9 ") && rows[1].contains(" X 9"),
            "{board}"
        );
        assert!(rows[9].starts_with(" 1 O "), "{board}");
        assert_eq!(ok(&mut s, "all_legal black").split(' ').count(), 115);
        for _ in 0..4 {
            for c in ["b", "w"] {
                let mv = ok(&mut s, &format!("genmove {c}"));
                if mv != "pass" && mv != "resign" {
                    assert!(s.game.parse_move(&mv).is_some(), "{mv}");
                    assert_ne!(ok(&mut s, &format!("color {mv}")), "empty");
                }
            }
        }
        let score = ok(&mut s, "final_score");
        assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"));
        for kind in [
            "alive",
            "dead",
            "seki",
            "black_territory",
            "white_territory",
            "dame",
        ] {
            let line = format!("final_status_list {kind}");
            let text = ok(&mut s, &line);
            vertices_on_board(&s, &line, &text);
        }
        let own = ok(&mut s, "tengen-ownership");
        assert_eq!(own.lines().count(), 9);
        assert!(own.lines().all(|l| l.split(' ').count() == 13), "{own}");
        // kata-analyze's ownership: one value per point.
        let a = s.value_search(Color::Black);
        let st = Stream {
            interval: None,
            kata: true,
            ownership: true,
            max_moves: 5,
            orient: 0,
            dims: (13, 9),
        };
        let line = info_line(&a, Color::Black, &st);
        let tail = line.split(" ownership ").nth(1).unwrap_or("");
        assert_eq!(tail.split(' ').count(), 117);
        // SGF: written as SZ[13:9], and loaded back.
        let sgf = ok(&mut s, "printsgf");
        assert!(sgf.contains("SZ[13:9]"), "{sgf}");
        let path = std::env::temp_dir().join(format!("tengen-rect-{}.sgf", std::process::id()));
        std::fs::write(&path, &sgf).expect("a temporary file");
        let moves = s.game.moves().to_vec();
        ok(&mut s, "boardsize 9");
        assert_eq!(ok(&mut s, "query_boardsize"), "9");
        ok(&mut s, &format!("loadsgf {}", path.display()));
        let _ = std::fs::remove_file(&path);
        assert_eq!(ok(&mut s, "query_boardsize"), "13 9");
        assert_eq!(s.game.moves(), &moves[..]);
        // clear_board keeps the shape; boardsize goes back to square.
        ok(&mut s, "clear_board");
        assert_eq!(ok(&mut s, "query_boardsize"), "13 9");
        assert_eq!(ok(&mut s, "fixed_handicap 4"), "D3 K7 D7 K3");
        ok(&mut s, "clear_board");
        let free = ok(&mut s, "place_free_handicap 6");
        assert_eq!(free.split(' ').count(), 6);
        vertices_on_board(&s, "place_free_handicap", &free);
        ok(&mut s, "boardsize 13");
        assert_eq!(ok(&mut s, "query_boardsize"), "13");
        // KataGo's other spellings; bad sizes change nothing.
        ok(&mut s, "rectangular_boardsize 9:13");
        assert_eq!(ok(&mut s, "query_boardsize"), "9 13");
        ok(&mut s, "rectangular_boardsize 7");
        assert_eq!(ok(&mut s, "query_boardsize"), "7");
        for bad in ["rectangular_boardsize 9 26", "rectangular_boardsize 1 9"] {
            assert_eq!(fail(&mut s, bad), "unacceptable size");
        }
        for bad in [
            "rectangular_boardsize",
            "rectangular_boardsize x 9",
            "rectangular_boardsize 9 9 9",
        ] {
            assert_eq!(fail(&mut s, bad), "syntax error");
        }
        assert_eq!(ok(&mut s, "query_boardsize"), "7");
    }

    #[test]
    fn orientations_on_a_rectangular_board() {
        let mut s = session();
        ok(&mut s, "rectangular_boardsize 13 9");
        // A quarter turn would swap the sides: refused, nothing changes.
        ok(&mut s, "play b C3");
        for n in [1, 3, 4, 6] {
            assert!(fail(&mut s, &format!("orientation {n}")).contains("13x9"));
        }
        assert_eq!(ok(&mut s, "query_orientation"), "0");
        assert_eq!(ok(&mut s, "list_stones black"), "C3");
        // Upside down: C3 lies on C7 inside, and comes back out as C3.
        ok(&mut s, "orientation 5");
        ok(&mut s, "play b C3");
        assert_eq!(ok(&mut s, "list_stones black"), "C3");
        assert_eq!(
            s.game.board().stones(Color::Black),
            [s.game
                .parse_move("C7")
                .map_or(Point::from_xy(0, 0), |m| match m {
                    Move::Play(p) => p,
                    Move::Pass => Point::from_xy(0, 0),
                })]
        );
        // Under a quarter turn only square boards may be set.
        ok(&mut s, "boardsize 9");
        ok(&mut s, "orientation 1");
        assert!(fail(&mut s, "rectangular_boardsize 13 9").contains("13x9"));
        assert_eq!(ok(&mut s, "query_boardsize"), "9");
        ok(&mut s, "rectangular_boardsize 11 11");
        ok(&mut s, "orientation 0");
        ok(&mut s, "rectangular_boardsize 13 9");
        assert!(!ok(&mut s, "invariant_hash").is_empty());
    }

    /// Every GNU Go analysis command on rectangular positions, with no
    /// argument, a vertex, a colour and a vertex, and two vertices: no
    /// panic, and every vertex in a reply is on the board.
    #[test]
    fn analysis_commands_stay_on_a_rectangular_board() {
        let commands: Vec<&str> = ANALYSIS_COMMANDS.concat();
        for (w, h) in [(9usize, 5usize), (5, 9)] {
            let mut s = session();
            ok(&mut s, "tengen-playouts 200");
            ok(&mut s, &format!("rectangular_boardsize {w} {h}"));
            // A random middle game.
            let mut rng = tengen_go::playout::Rng::new(w as u64 * 31 + h as u64);
            let mut c = Color::Black;
            for _ in 0..w * h * 2 / 3 {
                let e = s.game.board().empties().len();
                let p = s.game.board().empty_point(rng.below(e));
                if s.game.is_legal(c, Move::Play(p)) {
                    ok(&mut s, &format!("play {} {}", c.name(), vertex_name(p)));
                }
                c = c.opp();
            }
            let b = s.game.board().clone();
            let black = b.stones(Color::Black);
            let white = b.stones(Color::White);
            let empty: Vec<Point> = b.points().filter(|&p| b.cell(p) == Cell::Empty).collect();
            let pick = |v: &[Point]| v.first().map(|&p| vertex_name(p)).unwrap_or("A1".into());
            let (vb, vw, ve) = (pick(&black), pick(&white), pick(&empty));
            let corner = vertex_name(Point::from_xy(w - 1, h - 1));
            let off = vertex_name(Point::from_xy(w, h));
            let args = [
                String::new(),
                vb.clone(),
                vw.clone(),
                ve.clone(),
                corner.clone(),
                off.clone(),
                format!("black {ve}"),
                format!("white {corner}"),
                format!("{vb} {vw}"),
                format!("{vw} {ve}"),
                format!("{vb} {off}"),
            ];
            for name in &commands {
                for arg in &args {
                    let line = format!("{name} {arg}");
                    let (good, text) = ask(&mut s, &line);
                    if good {
                        vertices_on_board(&s, &line, &text);
                    }
                }
                // Whatever a command left pushed (trymove), the game stays.
                s.try_stack.clear();
            }
            assert_eq!((s.game.width(), s.game.height()), (w, h));
        }
    }
}
