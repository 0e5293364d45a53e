//! The USI front-end (shogi), Shogidokoro dialect: `go mate` is a tsume
//! search with a time limit in milliseconds, `bestmove resign|win`,
//! `gameover`, and `btime`/`binc` belong to sente.

use crate::games::shogi::ShogiGame;
use crate::io::Output;
use crate::session::{AbGame, Session};
use crate::Start;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tengen_core::report::{Bound, Event, Report};
use tengen_core::timeman::sudden_death_horizon;
use tengen_core::{SearchLimits, TimeControl};

/// Moves the clock is spread over under an increment with no `movestogo`.
/// At 10 s + 0.1 s the shared ~40-move default thought 263 ms a move over
/// the first 20 moves where Fairy-Stockfish 11.1 thought 570 ms (10-game
/// tengen-arena trial, `scripts/usi_time_use.py` on its transcript), and
/// its score pulls ahead by ply 20-30; shogi games run longer than
/// xiangqi ones, so the horizon is a little longer than xiangqi's 12.
/// With 16: 387 ms against its 408 ms (docs/strength.md, "Shogi").
const SHOGI_HORIZON: u32 = tengen_core::timeman::SHOGI.increment_horizon.unwrap();
use tengen_protocol::usi::{
    self, BestMove, Checkmate, Command, Info, InfoScore, MateLimit, Reply, ScoreBound,
};
use tengen_shogi::{Color, Game, Move, TsumeLimits, TsumeResult};

/// Declared options: (name, line after `type`).
const OPTIONS: &[(&str, &str)] = &[
    ("USI_Hash", "spin default 64 min 1 max 65536"),
    ("USI_Ponder", "check default false"),
    ("Threads", "spin default 1 min 1 max 256"),
    ("MultiPV", "spin default 1 min 1 max 64"),
    // Time kept back from every move for process and GUI latency.
    ("MoveOverhead", "spin default 120 min 0 max 5000"),
    // Thinking time of a bare `go` (no clock, no limit), as cshogi sends.
    ("DefaultMoveTime", "spin default 1000 min 1 max 600000"),
    // A network file for the evaluation; `<default>` is the built-in one,
    // `<empty>` the hand-made evaluation.
    ("EvalFile", "string default <default>"),
];

/// Values of the options the engine uses.
struct Settings {
    hash: usize,
    threads: usize,
    multipv: usize,
    overhead_ms: u64,
    default_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash: 64,
            threads: 1,
            multipv: 1,
            overhead_ms: 120,
            default_ms: 1000,
        }
    }
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let settings = Settings::default();
    let mut fe = Frontend {
        session: Session::new(settings.hash),
        pos: Game::startpos(),
        out,
        settings,
        mate: None,
    };
    let mut first = start.first;
    loop {
        let line = match first.take() {
            Some(l) => l,
            None => match input.recv() {
                Ok(l) => l,
                Err(_) => {
                    fe.halt();
                    return 0;
                }
            },
        };
        let cmd = match usi::parse(&line) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                fe.info(&format!("error: {e}; command ignored"));
                continue;
            }
        };
        if fe.handle(cmd) {
            return 0;
        }
    }
}

/// A running `go mate`.
struct MateJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

struct Frontend {
    session: Session<ShogiGame>,
    pos: Game,
    out: Output,
    settings: Settings,
    mate: Option<MateJob>,
}

impl Frontend {
    fn info(&self, text: &str) {
        let info = Info {
            string: Some(text.to_string()),
            ..Default::default()
        };
        self.out.line(&info.to_string());
    }

    /// Returns true on `quit`.
    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Usi => {
                let mut lines = vec![
                    Reply::IdName(format!("tengen {}", env!("CARGO_PKG_VERSION"))).to_string(),
                    Reply::IdAuthor("the tengen developers".into()).to_string(),
                ];
                for (name, rest) in OPTIONS {
                    lines.push(format!("option name {name} type {rest}"));
                }
                lines.push(Reply::UsiOk.to_string());
                self.out.lines(lines.iter().map(String::as_str));
            }
            Command::Debug(_) | Command::Register(_) => {}
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UsiNewGame => {
                self.halt();
                self.session.with_searcher(|s| s.clear());
                self.pos = Game::startpos();
            }
            Command::Position { sfen, moves } => {
                self.halt();
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                let sfen = sfen.as_deref().unwrap_or("startpos");
                match Game::from_usi(sfen, &moves) {
                    Ok(p) => self.pos = p,
                    Err(e) => self.info(&format!("error: {e}; position unchanged")),
                }
            }
            Command::Go(go) => {
                self.halt();
                if let Some(depth) = go.perft {
                    self.perft(depth);
                } else if let Some(limit) = go.mate {
                    self.go_mate(limit);
                } else {
                    self.go(go);
                }
            }
            Command::Stop => {
                self.session.stop();
                if let Some(job) = &self.mate {
                    job.stop.store(true, Ordering::Release);
                }
            }
            Command::PonderHit => {
                if self.session.pondering() {
                    self.session.ponderhit();
                }
            }
            Command::GameOver(_) => self.halt(),
            Command::Quit => {
                self.halt();
                return true;
            }
            Command::Unknown(word) => self.info(&format!("unknown command '{word}' ignored")),
        }
        false
    }

    /// Ends any search (its reply is printed) before the state changes.
    fn halt(&mut self) {
        if self.session.searching() {
            self.session.stop();
        }
        self.session.wait();
        if let Some(job) = self.mate.take() {
            job.stop.store(true, Ordering::Release);
            let _ = job.handle.join();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        self.halt();
        let int = |lo: i64, hi: i64| -> Option<i64> {
            value
                .and_then(|v| v.trim().parse::<i64>().ok())
                .map(|v| v.clamp(lo, hi))
        };
        let bad = |s: &Self| s.info(&format!("bad value for option '{name}'; unchanged"));
        // Option names are case-insensitive in practice; unknown ones
        // (Shogidokoro sends saved options of other engines) are accepted.
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => match int(1, 65536) {
                Some(mb) => {
                    self.settings.hash = mb as usize;
                    self.session.with_searcher(|s| s.set_hash(mb as usize));
                }
                None => bad(self),
            },
            "threads" => match int(1, 256) {
                Some(n) => {
                    self.settings.threads = n as usize;
                    self.session.with_searcher(|s| s.set_threads(n as usize));
                }
                None => bad(self),
            },
            "multipv" | "usi_multipv" => match int(1, 64) {
                Some(n) => self.settings.multipv = n as usize,
                None => bad(self),
            },
            "moveoverhead" => match int(0, 5000) {
                Some(n) => self.settings.overhead_ms = n as u64,
                None => bad(self),
            },
            "defaultmovetime" => match int(1, 600_000) {
                Some(n) => self.settings.default_ms = n as u64,
                None => bad(self),
            },
            "evalfile" => {
                let path = value.map(str::trim).unwrap_or("");
                if let Err(e) = tengen_shogi::nnue::load(path) {
                    self.info(&format!("EvalFile unchanged: {e}"));
                }
            }
            _ => {}
        }
    }

    fn perft(&mut self, depth: u32) {
        let mut pos = self.pos.clone();
        let counts = ShogiGame::divide(&mut pos, depth.max(1));
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        let mut lines: Vec<String> = counts.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines.push(String::new());
        self.out.lines(lines.iter().map(String::as_str));
    }

    fn go_mate(&mut self, limit: MateLimit) {
        let stop = Arc::new(AtomicBool::new(false));
        let pos = self.pos.clone();
        let out = self.out.clone();
        let time = match limit {
            MateLimit::Millis(ms) => Some(Duration::from_millis(
                ms.saturating_sub(self.settings.overhead_ms.min(ms / 2)),
            )),
            MateLimit::Infinite => None,
        };
        let max_entries = (self.settings.hash << 20) / 48;
        let stop2 = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("tsume".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let start = Instant::now();
                let limits = TsumeLimits {
                    time,
                    nodes: None,
                    stop: Some(&stop2),
                    max_entries: max_entries.max(1 << 16),
                };
                let mut solver = tengen_shogi::dfpn::Solver::new(limits);
                let result = solver.solve(&pos);
                let ms = start.elapsed().as_millis() as u64;
                let nodes = solver.nodes();
                let reply = match result {
                    TsumeResult::Mate(line) => {
                        out.line(
                            &Info {
                                time: Some(ms),
                                nodes: Some(nodes),
                                nps: Some(nodes * 1000 / ms.max(1)),
                                score: Some(InfoScore::Mate(line.len() as i32)),
                                pv: line.iter().map(Move::to_string).collect(),
                                ..Default::default()
                            }
                            .to_string(),
                        );
                        Checkmate::Moves(line.iter().map(Move::to_string).collect())
                    }
                    TsumeResult::NoMate => Checkmate::NoMate,
                    TsumeResult::Timeout => Checkmate::Timeout,
                };
                out.line(&Reply::Checkmate(reply).to_string());
            });
        match spawned {
            Ok(handle) => self.mate = Some(MateJob { stop, handle }),
            Err(e) => {
                self.info(&format!("cannot start the tsume thread: {e}"));
                self.out.line("checkmate timeout");
            }
        }
    }

    fn go(&mut self, go: usi::Go) {
        let mut root_moves = Vec::new();
        for text in &go.searchmoves {
            match self.pos.board().parse_move(text) {
                Ok(m) => root_moves.push(m),
                Err(e) => self.info(&format!("searchmoves: '{text}' ignored: {e}")),
            }
        }
        let limits = self.limits(&go);
        let root = self.pos.clone();
        // A valid entering-king declaration wins at once (unless the GUI
        // asked us to ponder or analyse, which must wait for a stop).
        let declare = root.board().can_declare_win();
        if declare && !limits.ponder && !limits.infinite {
            self.out.line(&Reply::BestMove(BestMove::Win).to_string());
            return;
        }
        let out = self.out.clone();
        let multipv = limits.multipv;
        let on_event = move |ev: Event<Move>| match ev {
            Event::Line(r) => out.line(&report_line(&r, multipv > 1)),
            Event::CurrMove { depth, mv, number } => out.line(
                &Info {
                    depth: Some(depth),
                    currmove: Some(mv.to_string()),
                    currmovenumber: Some(number),
                    ..Default::default()
                }
                .to_string(),
            ),
            Event::Stats {
                depth,
                nodes,
                time_ms,
                hashfull,
            } => out.line(
                &Info {
                    depth: Some(depth),
                    time: Some(time_ms),
                    nodes: Some(nodes),
                    nps: Some(nodes * 1000 / time_ms.max(1)),
                    hashfull: Some(hashfull),
                    ..Default::default()
                }
                .to_string(),
            ),
        };
        let out = self.out.clone();
        let done_root = root.clone();
        self.session
            .go(root, limits, root_moves, on_event, move |result| {
                let reply = if declare {
                    BestMove::Win
                } else {
                    match result.best {
                        None => BestMove::Resign,
                        Some(m) => {
                            // Only a ponder move that is legal after ours.
                            let ponder = result.ponder.filter(|&p| {
                                let mut b = done_root.board().clone();
                                b.do_move(m);
                                b.is_legal(p)
                            });
                            BestMove::Move {
                                mv: m.to_string(),
                                ponder: ponder.map(|p| p.to_string()),
                            }
                        }
                    }
                };
                out.line(&Reply::BestMove(reply).to_string());
            });
    }

    /// Translates `go` into limits for the side to move.
    fn limits(&self, go: &usi::Go) -> SearchLimits {
        let ms = Duration::from_millis;
        let sente = self.pos.board().side_to_move() == Color::Black;
        let (mine, inc, theirs) = if sente {
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
                .or_else(|| sudden_death_horizon(ms(inc.unwrap_or(0)), SHOGI_HORIZON)),
            opponent_remaining: theirs.map(ms),
            credit: tengen_core::clock::Credit::BeforeMove,
        });
        let mut limits = SearchLimits {
            time,
            move_time: go.movetime.map(ms),
            depth: go.depth,
            nodes: go.nodes,
            mate: None,
            infinite: go.infinite,
            ponder: go.ponder,
            multipv: self.settings.multipv,
            overhead: ms(self.settings.overhead_ms),
            game_ply: ShogiGame::game_ply(&self.pos),
        };
        // A clock of zero with no byo-yomi and no increment: move at once.
        if let Some(tc) = &limits.time {
            if tc.remaining.is_zero() && tc.byoyomi.is_zero() && tc.increment.is_zero() {
                limits.time = None;
                limits.move_time = Some(ms(self.settings.overhead_ms.max(50)));
            }
        }
        // Main time spent, Japanese byo-yomi left: a period is lost unless
        // used, so think for all of it (less the overhead) instead of
        // stopping at the time manager's soft limit after an iteration.
        if let Some(tc) = &limits.time {
            if tc.remaining.is_zero()
                && tc.increment.is_zero()
                && !tc.byoyomi.is_zero()
                && limits.move_time.is_none()
            {
                limits.move_time = Some(tc.byoyomi);
                limits.time = None;
            }
        }
        if limits.is_unbounded() && !limits.infinite && !limits.ponder {
            // A bare `go` (cshogi without a time control) waits for a move.
            limits.move_time = Some(ms(self.settings.default_ms));
        }
        limits
    }
}

/// One `info` line for a reported line; mate distances in plies.
fn report_line(r: &Report<Move>, show_multipv: bool) -> String {
    let score = match r.score.mate_plies() {
        Some(p) => InfoScore::Mate(p),
        None => InfoScore::Cp(r.score.0),
    };
    let bound = match r.bound {
        Bound::Lower => Some(ScoreBound::Lower),
        Bound::Upper => Some(ScoreBound::Upper),
        _ => None,
    };
    Info {
        depth: Some(r.depth),
        seldepth: Some(r.seldepth.max(r.depth)),
        multipv: show_multipv.then_some(r.multipv),
        score: Some(score),
        bound,
        time: Some(r.time_ms),
        nodes: Some(r.nodes),
        nps: Some(r.nps()),
        hashfull: Some(r.hashfull),
        pv: r.pv.iter().map(Move::to_string).collect(),
        ..Default::default()
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::timeman::TimeManager;

    #[test]
    fn increment_clock_is_spent_early_and_never_runs_out() {
        let inc = Duration::from_millis(100);
        let overhead = Duration::from_millis(Settings::default().overhead_ms);
        let plan = |ms: u64, ply: u32| {
            let tc = TimeControl {
                remaining: Duration::from_millis(ms),
                increment: inc,
                moves_to_go: sudden_death_horizon(inc, SHOGI_HORIZON),
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
        assert_eq!(sudden_death_horizon(Duration::ZERO, SHOGI_HORIZON), None);
    }
}
