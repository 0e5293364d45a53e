//! AGI front-end (15x15 gomoku/renju). The reader thread keeps feeding
//! commands while a search runs on its own thread: `ISREADY` is answered
//! at once, `STOP` ends a normal search with its `BESTMOVE` and a ponder
//! search silently, `QUIT` abandons any search. Malformed commands are
//! ignored with the reason on stderr (AGI has no error message).

use crate::background::{gomoku_outcome, gomoku_search, GomokuJob, Job};
use crate::io::Output;
use crate::Start;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tengen_core::{TimeControl, TimeManager};
use tengen_gomoku::search::{Event, Limits, SearchResult, Searcher, PROVEN};
use tengen_gomoku::{opening, Board, Color, Point, Rule};
use tengen_protocol::agi::{parse_command, Best, Command, Fifth, GoTime, Info, Message, Pt, Swap};

const SIZE: usize = 15;
/// Budget of a bare `GO`.
const DEFAULT_MOVE_MS: u64 = 2000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    /// Until `STOP`; the result is held back if the search ends early.
    Infinite,
    /// Never prints `BESTMOVE`.
    Ponder,
}

struct Running {
    bg: GomokuJob,
    mode: Mode,
    board: Board,
    /// `GO SEARCH`'s points (empty: any point).
    root: Vec<Point>,
}

/// A swap decision (`FIRSTCHANGE`/`THIRDCHANGE`) thinking on its own
/// thread, so that `ISREADY` is still answered at once; when it says "no
/// swap" the move search starts with what is left of the time.
struct Deciding {
    job: Job<bool>,
    search: Vec<Pt>,
    time: Option<GoTime>,
    started: Instant,
}

struct Front {
    out: Output,
    forbidden: bool,
    swap: Swap,
    fifth: Fifth,
    own_book: bool,
    ponder: bool,
    board: Board,
    searcher: Option<Searcher>,
    running: Option<Running>,
    deciding: Option<Deciding>,
    /// An infinite search that finished before `STOP`.
    held: Option<(Board, Vec<Point>, SearchResult)>,
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let Ok(board) = Board::new(SIZE, SIZE, Rule::Renju) else {
        return 1;
    };
    let mut fe = Front {
        out,
        forbidden: true,
        swap: Swap::None,
        fifth: Fifth::One,
        own_book: true,
        ponder: true,
        board,
        // Made now, not on the first move: allocating the table takes a
        // good part of a short move's time.
        searcher: Some(Searcher::new(64)),
        running: None,
        deciding: None,
        held: None,
    };
    let mut queue: VecDeque<String> = start.first.into_iter().collect();
    let mut closed = false;
    loop {
        let line = if let Some(l) = queue.pop_front() {
            l
        } else if fe.running.is_some() || fe.deciding.is_some() {
            if fe.deciding.as_ref().is_some_and(|d| d.job.is_finished()) {
                fe.decided(false);
                continue;
            }
            if fe.running.as_ref().is_some_and(|r| r.bg.is_finished()) {
                fe.finish();
                continue;
            }
            if closed {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            match input.recv_timeout(Duration::from_millis(5)) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    closed = true;
                    continue;
                }
            }
        } else {
            match input.recv() {
                Ok(l) => l,
                Err(_) => return 0,
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match parse_command(&line) {
            Ok(Command::Quit) => {
                fe.abandon();
                fe.send(Message::Bye);
                return 0;
            }
            Ok(cmd) => fe.handle(cmd),
            Err(e) => eprintln!("tengen: AGI: ignoring '{}': {e}", line.trim()),
        }
    }
}

fn to_point(p: Pt) -> Option<Point> {
    Point::new(p.col as usize - 1, p.row as usize)
}

fn to_pt(p: Point) -> Pt {
    Pt {
        row: p.y,
        col: p.x + 1,
    }
}

impl Front {
    fn send(&self, m: Message) {
        self.out.line(&m.to_string());
    }

    fn rule(&self) -> Rule {
        if self.forbidden {
            Rule::Renju
        } else {
            Rule::Freestyle
        }
    }

    /// Stops any search without a `BESTMOVE`.
    fn abandon(&mut self) {
        // A swap decision ends on its own budget; nobody waits for it.
        self.deciding = None;
        if let Some(r) = self.running.take() {
            r.bg.stop();
            let (s, _) = gomoku_outcome(r.bg.join());
            self.searcher = Some(s);
        }
        self.held = None;
    }

    /// Ends the running search: a normal or infinite one answers with its
    /// move, a ponder one stays silent.
    fn stop(&mut self) {
        if self.deciding.is_some() {
            self.decided(true);
            return;
        }
        if let Some((board, root, r)) = self.held.take() {
            self.best_move(&board, &root, &r);
            return;
        }
        if let Some(r) = self.running.take() {
            r.bg.stop();
            let (s, res) = gomoku_outcome(r.bg.join());
            self.searcher = Some(s);
            if r.mode != Mode::Ponder {
                self.best_move(&r.board, &r.root, &res);
            }
        }
    }

    /// The search thread has ended on its own.
    fn finish(&mut self) {
        let Some(r) = self.running.take() else { return };
        let (s, res) = gomoku_outcome(r.bg.join());
        self.searcher = Some(s);
        match r.mode {
            Mode::Normal => self.best_move(&r.board, &r.root, &res),
            Mode::Infinite => self.held = Some((r.board, r.root, res)),
            Mode::Ponder => {}
        }
    }

    /// Answers the search's move, or any legal point of `root` (of the
    /// board when `root` is empty) if it found none; `BESTMOVE 00` when
    /// every point it may answer is taken, never a point outside `root`.
    fn best_move(&self, board: &Board, root: &[Point], r: &SearchResult) {
        let allowed = |p: &Point| root.is_empty() || root.contains(p);
        let best = r
            .best
            .filter(allowed)
            .or_else(|| board.legal_moves().into_iter().find(allowed));
        let ponder = r.ponder.filter(|_| best.is_some());
        self.send(Message::BestMove {
            best: Best::Points(best.map(to_pt).into_iter().collect()),
            ponder: ponder.map(to_pt),
        });
    }

    fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Agi => {
                self.send(Message::IdName(format!(
                    "tengen {}",
                    env!("CARGO_PKG_VERSION")
                )));
                self.send(Message::IdAuthor("tengen developers".into()));
                self.send(Message::Options {
                    own_book: true,
                    ponder: true,
                });
                self.send(Message::AgiOk);
            }
            Command::IsReady => self.send(Message::ReadyOk),
            Command::Stop => self.stop(),
            Command::Quit => {}
            Command::SetRule {
                forbidden,
                swap,
                fifth,
            } => {
                if let Some(f) = forbidden {
                    if f != self.forbidden {
                        self.forbidden = f;
                        self.rebuild();
                    }
                }
                if let Some(s) = swap {
                    self.swap = s;
                }
                if let Some(f) = fifth {
                    self.fifth = f;
                }
            }
            Command::SetOption { own_book, ponder } => {
                if let Some(b) = own_book {
                    self.own_book = b;
                }
                if let Some(p) = ponder {
                    self.ponder = p;
                }
            }
            Command::Position { statu, moves } => {
                self.settle();
                match self.build(statu.iter().chain(moves.iter())) {
                    Ok(b) => self.board = b,
                    Err(e) => eprintln!("tengen: AGI: POSITION ignored: {e}"),
                }
            }
            Command::DoMove(pts) => {
                self.settle();
                let mut b = self.board.clone();
                for p in pts {
                    let placed = to_point(p)
                        .ok_or_else(|| format!("{p} is off the board"))
                        .and_then(|pt| {
                            let c = b.to_move();
                            b.place(pt, c).map_err(|e| e.to_string())
                        });
                    if let Err(e) = placed {
                        eprintln!("tengen: AGI: DOMOVE ignored: {e}");
                        return;
                    }
                }
                self.board = b;
            }
            Command::Go {
                search,
                ponder,
                time,
            } => {
                self.settle();
                self.go(search, ponder, time);
            }
        }
    }

    /// Before a new position or search: a ponder search ends silently, a
    /// normal one answers first (every `GO` gets its `BESTMOVE`).
    fn settle(&mut self) {
        if self.held.is_some()
            || self.deciding.is_some()
            || self
                .running
                .as_ref()
                .is_some_and(|r| r.mode != Mode::Ponder)
        {
            self.stop();
        } else {
            self.abandon();
        }
    }

    fn rebuild(&mut self) {
        let stones: Vec<(Point, Color)> = self.board.history().collect();
        if let Ok(mut b) = Board::new(SIZE, SIZE, self.rule()) {
            for (p, c) in stones {
                let _ = b.place(p, c);
            }
            b.set_to_move(self.board.to_move());
            b.rejudge();
            self.board = b;
        }
    }

    /// One alternating sequence from black; the GUI referees, so stones
    /// are placed without judging them.
    fn build<'a>(&self, pts: impl Iterator<Item = &'a Pt>) -> Result<Board, String> {
        let mut b = Board::new(SIZE, SIZE, self.rule())?;
        for (i, &p) in pts.enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let pt = to_point(p).ok_or_else(|| format!("{p} is off the board"))?;
            b.place(pt, c).map_err(|e| e.to_string())?;
        }
        b.rejudge();
        Ok(b)
    }

    fn go(&mut self, search: Vec<Pt>, ponder: bool, time: Option<GoTime>) {
        let board = self.board.clone();
        let started = Instant::now();
        let n = board.stones();
        let me = board.to_move();
        // Opening rules: a swap offer for white, fifth-move alternatives.
        if !ponder {
            let swap_now = match self.swap {
                Swap::First => n == 1,
                Swap::Third => n == 3,
                Swap::None => false,
            };
            if swap_now && me == Color::White {
                let budget = match &time {
                    Some(GoTime::Remaining(ms)) => Duration::from_millis((ms / 30).clamp(10, 1500)),
                    _ => Duration::from_millis(1000),
                };
                let b = board.clone();
                let book = self.own_book;
                match Job::start("agi-swap", move |_| opening::should_swap(&b, budget, book)) {
                    Ok(job) => {
                        self.deciding = Some(Deciding {
                            job,
                            search,
                            time,
                            started,
                        });
                        return;
                    }
                    // No thread: decide here (ISREADY waits this once).
                    Err(_) => {
                        if opening::should_swap(&board, budget, self.own_book) {
                            self.send(Message::BestMove {
                                best: Best::Change,
                                ponder: None,
                            });
                            return;
                        }
                    }
                }
            }
            if n == 4 && me == Color::Black && self.fifth != Fifth::One {
                let k = if self.fifth == Fifth::Twine { 2 } else { 4 };
                let offers = opening::offers(&board, k);
                if !offers.is_empty() {
                    self.send(Message::BestMove {
                        best: Best::Points(offers.into_iter().map(to_pt).collect()),
                        ponder: None,
                    });
                    return;
                }
            }
        }
        self.search(board, search, ponder, time, started);
    }

    /// The swap decision has ended (or must end now: `stop_now`, for a
    /// `STOP`, `POSITION`, `DOMOVE` or `GO` that arrived meanwhile).
    fn decided(&mut self, stop_now: bool) {
        let Some(d) = self.deciding.take() else {
            return;
        };
        // A panicked decision thread counts as "no swap".
        if d.job.join().unwrap_or(false) {
            self.send(Message::BestMove {
                best: Best::Change,
                ponder: None,
            });
            return;
        }
        let board = self.board.clone();
        self.search(board, d.search, false, d.time, d.started);
        if stop_now {
            self.stop();
        }
    }

    /// Starts the move search of a `GO` on `board`.
    fn search(
        &mut self,
        board: Board,
        search: Vec<Pt>,
        ponder: bool,
        time: Option<GoTime>,
        started: Instant,
    ) {
        let n = board.stones();
        let root: Vec<Point> = search.iter().filter_map(|&p| to_point(p)).collect();
        let mut limits = Limits {
            root: (!search.is_empty()).then(|| root.clone()),
            ..Limits::default()
        };
        let mode = if ponder {
            Mode::Ponder
        } else if time == Some(GoTime::Infinite) {
            Mode::Infinite
        } else {
            Mode::Normal
        };
        let legal = board.legal_moves();
        if !search.is_empty() && !root.iter().any(|p| legal.contains(p)) {
            // Every point the GUI allows is taken: nothing to search, and
            // the answer is the impossible point, as the protocol says.
            let none = SearchResult::default();
            match mode {
                Mode::Normal => self.best_move(&board, &root, &none),
                Mode::Infinite => self.held = Some((board, root, none)),
                Mode::Ponder => {}
            }
            return;
        }
        if mode == Mode::Normal {
            let overhead = Duration::from_millis(30);
            let tm = match time {
                Some(GoTime::Remaining(0)) => {
                    TimeManager::fixed(Duration::from_millis(1), Duration::ZERO)
                }
                Some(GoTime::Remaining(ms)) => {
                    let tc = TimeControl {
                        remaining: Duration::from_millis(ms),
                        ..TimeControl::default()
                    };
                    TimeManager::new(&tc, overhead, n as u32)
                }
                _ => TimeManager::fixed(Duration::from_millis(DEFAULT_MOVE_MS), overhead),
            };
            let spent = started.elapsed();
            let left = |t: Duration| t.saturating_sub(spent).max(Duration::from_millis(1));
            limits.time = Some(TimeManager {
                soft: left(tm.soft),
                hard: left(tm.hard),
            });
        }
        let out = self.out.clone();
        let reporter = move |e: &Event| {
            let info = match e {
                Event::Iteration {
                    depth,
                    score,
                    pv,
                    nodes,
                    elapsed,
                } => Info {
                    depth: Some(*depth),
                    score: Some(*score as i64),
                    pv: pv.iter().map(|&p| to_pt(p)).collect(),
                    nps: Some((*nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64),
                    ..Info::default()
                },
                Event::Win(line) => Info {
                    score: Some(PROVEN as i64),
                    win: line.first().map(|&p| to_pt(p)).into_iter().collect(),
                    ..Info::default()
                },
                Event::RootMoves(moves) => Info {
                    search: moves.iter().map(|&p| to_pt(p)).collect(),
                    ..Info::default()
                },
                Event::Lose(p) => Info {
                    score: Some(-PROVEN as i64),
                    lose: vec![to_pt(*p)],
                    ..Info::default()
                },
            };
            out.line(&Message::Info(info).to_string());
        };
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(64));
        searcher.set_book(self.own_book);
        match gomoku_search(searcher, &board, limits, Box::new(reporter)) {
            Ok(bg) => {
                self.running = Some(Running {
                    bg,
                    mode,
                    board,
                    root,
                })
            }
            Err(e) => {
                eprintln!("tengen: AGI: {e}");
                if mode != Mode::Ponder {
                    self.best_move(&board, &root, &SearchResult::default());
                }
            }
        }
    }
}
