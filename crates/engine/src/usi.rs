//! The USI front-end (shogi), Shogidokoro dialect: `go mate` is a tsume
//! search with a time limit in milliseconds, `bestmove resign|win`,
//! `gameover`, and `btime`/`binc` belong to sente.

use crate::games::shogi::ShogiGame;
use crate::io::Output;
use crate::session::{AbGame, Session};
use crate::uci::option_line;
use crate::Start;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use tengen_core::options::{OptionError, OptionKind, OptionValue, Options};
use tengen_core::report::{Bound, Event, Report};
use tengen_core::timeman::SHOGI;
use tengen_core::Signals;
use tengen_core::{SearchLimits, TimeControl};

use tengen_protocol::usi::{self, BestMove, Checkmate, Command, Info, MateLimit, Reply, Score};
use tengen_shogi::{Color, Game, Move, TsumeLimits, TsumeResult};

/// The options a USI GUI sees, all kept in [`Options`].
fn usi_options() -> Options {
    let spin = |default, min, max| OptionKind::Spin { default, min, max };
    let mut o = Options::new();
    o.add("USI_Hash", spin(64, 1, 65_536))
        .add("USI_Ponder", OptionKind::Check { default: false })
        .add("Threads", spin(1, 1, 256))
        .add("MultiPV", spin(1, 1, 64))
        // Time kept back from every move for process and GUI latency.
        .add("MoveOverhead", spin(120, 0, 5000))
        // Thinking time of a bare `go` (no clock, no limit), as cshogi sends.
        .add("DefaultMoveTime", spin(1000, 1, 600_000))
        // A network file for the evaluation; `<default>` is the built-in
        // one, `<empty>` the hand-made evaluation.
        .add(
            "EvalFile",
            OptionKind::String {
                default: "<default>".into(),
            },
        );
    o
}

/// Names GUIs use for our options under other spellings.
fn canonical(name: &str) -> &str {
    match name.trim().to_ascii_lowercase().as_str() {
        "hash" => "USI_Hash",
        "usi_multipv" => "MultiPV",
        _ => name,
    }
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let options = usi_options();
    let mut fe = Frontend {
        session: Session::new(options.int("USI_Hash") as usize),
        pos: Game::startpos(),
        out,
        options,
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

struct Frontend {
    session: Session<ShogiGame>,
    pos: Game,
    out: Output,
    options: Options,
}

impl Frontend {
    fn info(&self, text: &str) {
        self.out.line(&Reply::Info(Info::text(text)).to_string());
    }

    /// Returns true on `quit`.
    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Usi => {
                let mut lines = vec![
                    Reply::IdName(format!("tengen {}", env!("CARGO_PKG_VERSION"))).to_string(),
                    Reply::IdAuthor("the tengen developers".into()).to_string(),
                ];
                lines.extend(self.options.iter().map(|o| option_line(&o.name, &o.kind)));
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
            Command::Stop => self.session.stop(),
            Command::PonderHit => {
                if self.session.pondering() {
                    self.session.ponderhit();
                }
            }
            // The game is over: a running search (pondering, usually)
            // ends without a `bestmove`, which no GUI expects now.
            Command::GameOver(_) => self.session.abandon(),
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
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        self.halt();
        let name = canonical(name);
        let old = self.options.clone();
        let (name, v) = match self.options.set(name, value) {
            Ok(set) => set,
            // GUIs (Shogidokoro) send the saved options of other engines:
            // an option we never declared is ignored silently.
            Err(OptionError::Unknown(_)) => return,
            Err(e) => {
                self.info(&format!("error: {e}; unchanged"));
                return;
            }
        };
        let applied = match (name.as_str(), v) {
            ("USI_Hash", OptionValue::Int(mb)) => {
                self.session.with_searcher(|s| s.set_hash(mb as usize))
            }
            ("Threads", OptionValue::Int(n)) => {
                self.session.with_searcher(|s| s.set_threads(n as usize));
                Ok(())
            }
            ("EvalFile", OptionValue::Text(path)) => tengen_shogi::nnue::load(path.trim()),
            _ => Ok(()),
        };
        if let Err(e) = applied {
            // The engine keeps what it had, and so does the option table.
            self.options = old;
            self.info(&format!("error: {name} unchanged: {e}"));
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

    /// `go mate`: a tsume solve run as a [`Session`] job, so `stop`,
    /// `gameover` and `quit` end it the way they end a search.
    fn go_mate(&mut self, limit: MateLimit) {
        let pos = self.pos.clone();
        let out = self.out.clone();
        let overhead = self.options.int("MoveOverhead") as u64;
        let time = match limit {
            MateLimit::Millis(ms) => Some(Duration::from_millis(
                ms.saturating_sub(overhead.min(ms / 2)),
            )),
            MateLimit::Infinite => None,
        };
        let max_entries = ((self.options.int("USI_Hash") as usize) << 20) / 48;
        let solve = move |_: &mut _, signals: &Signals| {
            let start = Instant::now();
            let limits = TsumeLimits {
                time,
                nodes: None,
                stop: Some(signals.stop_flag()),
                max_entries: max_entries.max(1 << 16),
            };
            let mut solver = tengen_shogi::dfpn::Solver::new(limits);
            let result = solver.solve(&pos);
            (result, solver.nodes(), start.elapsed().as_millis() as u64)
        };
        self.session.job(
            256 << 20,
            false,
            solve,
            move |(result, nodes, ms): (TsumeResult, u64, u64)| {
                let reply = match result {
                    TsumeResult::Mate(line) => {
                        out.line(
                            &Reply::Info(Info {
                                time: Some(ms),
                                nodes: Some(nodes),
                                nps: Some(nodes * 1000 / ms.max(1)),
                                score: Some(Score::Mate(line.len() as i32)),
                                pv: line.iter().map(Move::to_string).collect(),
                                ..Default::default()
                            })
                            .to_string(),
                        );
                        Checkmate::Moves(line.iter().map(Move::to_string).collect())
                    }
                    TsumeResult::NoMate => Checkmate::NoMate,
                    TsumeResult::Timeout => Checkmate::Timeout,
                };
                out.line(&Reply::Checkmate(reply).to_string());
            },
        );
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
                &Reply::Info(Info {
                    depth: Some(depth),
                    currmove: Some(mv.to_string()),
                    currmovenumber: Some(number),
                    ..Default::default()
                })
                .to_string(),
            ),
            Event::Stats {
                depth,
                nodes,
                time_ms,
                hashfull,
            } => out.line(
                &Reply::Info(Info {
                    depth: Some(depth),
                    time: Some(time_ms),
                    nodes: Some(nodes),
                    nps: Some(nodes * 1000 / time_ms.max(1)),
                    hashfull: Some(hashfull),
                    ..Default::default()
                })
                .to_string(),
            ),
        };
        let out = self.out.clone();
        let done_root = root.clone();
        // USI: a ponder move only for a GUI that enabled pondering.
        let offer_ponder = self.options.bool("USI_Ponder");
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
                                if !offer_ponder {
                                    return false;
                                }
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
        let overhead_ms = self.options.int("MoveOverhead") as u64;
        let default_ms = self.options.int("DefaultMoveTime") as u64;
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
                .or_else(|| SHOGI.horizon(ms(inc.unwrap_or(0)))),
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
            multipv: self.options.int("MultiPV").max(1) as usize,
            overhead: ms(overhead_ms),
            game_ply: ShogiGame::game_ply(&self.pos),
        };
        // A clock of zero with no byo-yomi and no increment: move at once.
        if let Some(tc) = &limits.time {
            if tc.remaining.is_zero() && tc.byoyomi.is_zero() && tc.increment.is_zero() {
                limits.time = None;
                limits.move_time = Some(ms(overhead_ms.max(50)));
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
            limits.move_time = Some(ms(default_ms));
        }
        limits
    }
}

/// One `info` line for a reported line; mate distances in plies.
fn report_line(r: &Report<Move>, show_multipv: bool) -> String {
    let score = match r.score.mate_plies() {
        Some(p) => Score::Mate(p),
        None => Score::Cp(r.score.0),
    };
    let bound = match r.bound {
        Bound::Lower => Some(usi::Bound::Lower),
        Bound::Upper => Some(usi::Bound::Upper),
        _ => None,
    };
    Reply::Info(Info {
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
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::timeman::TimeManager;

    #[test]
    fn increment_clock_is_spent_early_and_never_runs_out() {
        let inc = Duration::from_millis(100);
        let overhead = Duration::from_millis(usi_options().int("MoveOverhead") as u64);
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
}
