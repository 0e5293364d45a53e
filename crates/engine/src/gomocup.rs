//! Gomocup (pbrain) front-end: the manager's commands on a gomoku board,
//! the search on its own thread while stdin keeps being read (`END`,
//! `INFO` and `YXSTOP` are honoured mid-think), time limits from
//! `timeout_turn` / `time_left` through the core time manager.

use crate::background::{gomoku_outcome, gomoku_search, Incoming};
use crate::io::Output;
use crate::Start;
use std::collections::VecDeque;
use std::sync::mpsc::Receiver;
use std::time::Duration;
use tengen_core::{TimeControl, TimeManager};
use tengen_gomoku::search::{Event, Limits, SearchResult, Searcher, PROVEN};
use tengen_gomoku::{opening, Board, Color, Outcome, Point, Rule};
use tengen_protocol::gomocup::{Command, CommandReader, Reply, Xy};

/// `time_left` value meaning "no match clock".
const UNLIMITED: i64 = 2_147_483_647;

struct Front {
    out: Output,
    reader: CommandReader,
    width: usize,
    height: usize,
    rule: Rule,
    board: Option<Board>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<i64>,
    max_memory: u64,
    /// Yixin's extensions, as Rapfi and Yixin-Board send them: a node or
    /// depth limit per move (unset by a value of 0 or less).
    max_node: Option<u64>,
    max_depth: Option<u32>,
    searcher: Option<Searcher>,
    /// The table size `searcher` was made with, in MiB.
    searcher_mb: usize,
}

enum Flow {
    Go,
    Quit,
}

pub fn run(start: Start, input: Receiver<String>, out: Output) -> u8 {
    let mut fe = Front::new(out);
    let mut queue: VecDeque<String> = start.first.into_iter().collect();
    loop {
        let line = match queue.pop_front() {
            Some(l) => l,
            None => match input.recv() {
                Ok(l) => l,
                Err(_) => return 0,
            },
        };
        let Some(parsed) = fe.reader.feed(&line) else {
            continue;
        };
        let flow = match parsed {
            Ok(cmd) => fe.handle(cmd, &input, &mut queue),
            Err(e) => {
                fe.reply(Reply::Error(e));
                Flow::Go
            }
        };
        if let Flow::Quit = flow {
            return 0;
        }
    }
}

fn to_point(p: Xy) -> Option<Point> {
    Point::new(p.x as usize, p.y as usize)
}

fn to_xy(p: Point) -> Xy {
    Xy {
        x: p.x as u32,
        y: p.y as u32,
    }
}

impl Front {
    fn new(out: Output) -> Front {
        Front {
            out,
            reader: CommandReader::new(),
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            board: None,
            timeout_turn: 5000,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            max_node: None,
            max_depth: None,
            searcher: None,
            searcher_mb: 0,
        }
    }

    fn reply(&self, r: Reply) {
        self.out.line(&r.to_string());
    }

    fn new_board(&self) -> Result<Board, String> {
        Board::new(self.width, self.height, self.rule)
    }

    fn handle(
        &mut self,
        cmd: Command,
        input: &Receiver<String>,
        queue: &mut VecDeque<String>,
    ) -> Flow {
        match cmd {
            Command::Start(n) => self.start(n as usize, n as usize),
            Command::RectStart(w, h) => self.start(w as usize, h as usize),
            Command::Restart => match self.new_board() {
                Ok(b) if self.board.is_some() => {
                    self.board = Some(b);
                    // A new game: nothing of the last one's hash carries
                    // over, so a node-limited move is the same every game.
                    if let Some(s) = self.searcher.as_mut() {
                        s.clear();
                    }
                    self.reply(Reply::Ok);
                }
                Ok(_) => self.reply(Reply::Error("no game started (send START first)".into())),
                Err(e) => self.reply(Reply::Error(e)),
            },
            Command::Begin => {
                let fresh = self.board.as_ref().map(|b| b.stones() == 0);
                match fresh {
                    Some(true) => return self.think(input, queue),
                    Some(false) => self.reply(Reply::Error("BEGIN on a board with stones".into())),
                    None => self.reply(Reply::Error("no game started (send START first)".into())),
                }
            }
            Command::Turn(p) => {
                let Some(board) = self.board.as_mut() else {
                    self.reply(Reply::Error("no game started (send START first)".into()));
                    return Flow::Go;
                };
                let res = match to_point(p) {
                    Some(pt) => {
                        let c = board.to_move();
                        board.place(pt, c).map_err(|e| e.to_string())
                    }
                    None => Err(format!("{p} is off the board")),
                };
                match res {
                    Ok(()) => return self.think(input, queue),
                    Err(e) => self.reply(Reply::Error(e)),
                }
            }
            Command::Play(p) => {
                let Some(board) = self.board.as_mut() else {
                    self.reply(Reply::Error("no game started (send START first)".into()));
                    return Flow::Go;
                };
                let res = match to_point(p) {
                    Some(pt) => {
                        let c = board.to_move();
                        board.place(pt, c).map_err(|e| e.to_string())
                    }
                    None => Err(format!("{p} is off the board")),
                };
                match res {
                    Ok(()) => self.reply(Reply::Move(p)),
                    Err(e) => self.reply(Reply::Error(e)),
                }
            }
            Command::Board(stones) => match self.board_from(&stones) {
                Ok(b) => {
                    self.board = Some(b);
                    return self.think(input, queue);
                }
                Err(e) => self.reply(Reply::Error(e)),
            },
            Command::Swap2Board(pts) => self.swap2(&pts),
            Command::Takeback(p) => {
                let res = match (self.board.as_mut(), to_point(p)) {
                    (Some(b), Some(pt)) => b.take_back(pt),
                    (None, _) => Err("no game started".into()),
                    (_, None) => Err(format!("{p} is off the board")),
                };
                match res {
                    Ok(()) => self.reply(Reply::Ok),
                    Err(e) => self.reply(Reply::Error(e)),
                }
            }
            Command::Info(k, v) => self.info(&k, &v),
            Command::About => self.reply(Reply::About(vec![
                ("name".into(), "tengen".into()),
                ("version".into(), env!("CARGO_PKG_VERSION").into()),
                ("author".into(), "tengen developers".into()),
                ("country".into(), "-".into()),
            ])),
            Command::End => return Flow::Quit,
            Command::Unknown(text) => {
                let word = text
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                // A stop that arrives after the move was sent: nothing to do.
                if word != "YXSTOP" && word != "STOP" {
                    self.reply(Reply::Unknown(format!(
                        "command '{}' is not supported",
                        word
                    )));
                }
            }
        }
        Flow::Go
    }

    fn start(&mut self, w: usize, h: usize) {
        self.width = w;
        self.height = h;
        match self.new_board() {
            Ok(b) => {
                self.board = Some(b);
                // The table is allocated now, not on the first move: a
                // large one takes a good part of a short move's time.
                self.ready_searcher();
                self.reply(Reply::Ok);
            }
            Err(e) => {
                self.board = None;
                self.reply(Reply::Error(e));
            }
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        // Never answer INFO: a bad value is simply ignored.
        let num = value.trim().parse::<i64>().ok();
        match (key, num) {
            ("timeout_turn", Some(v)) => self.timeout_turn = v.max(0) as u64,
            ("timeout_match", Some(v)) => self.timeout_match = v.max(0) as u64,
            ("time_left", Some(v)) => self.time_left = Some(v),
            ("max_node", Some(v)) => self.max_node = (v > 0).then_some(v as u64),
            ("max_depth", Some(v)) => self.max_depth = (v > 0).then(|| v.min(60) as u32),
            ("max_memory", Some(v)) => {
                let v = v.max(0) as u64;
                if v != self.max_memory {
                    self.max_memory = v;
                    // Resized at once when idle; a search in progress
                    // keeps its table, resized by the next move's
                    // `take_searcher`.
                    if self.searcher.is_some() {
                        self.ready_searcher();
                    }
                }
            }
            ("rule", Some(v)) => {
                let rule = if v & 4 != 0 {
                    Rule::Renju
                } else if v & 1 != 0 || v & 8 != 0 {
                    // Caro is not built; exact five is its nearest rule.
                    Rule::Standard
                } else {
                    Rule::Freestyle
                };
                if rule != self.rule {
                    self.rule = rule;
                    self.rebuild();
                }
            }
            _ => {}
        }
    }

    /// Replays the stones under a changed rule.
    fn rebuild(&mut self) {
        let Some(old) = self.board.take() else { return };
        let Ok(mut b) = self.new_board() else {
            self.board = Some(old);
            return;
        };
        for (p, c) in old.history() {
            let _ = b.place(p, c);
        }
        b.set_to_move(old.to_move());
        b.rejudge();
        self.board = Some(b);
    }

    fn board_from(&self, stones: &[(Xy, u8)]) -> Result<Board, String> {
        if self.board.is_none() {
            return Err("no game started (send START first)".into());
        }
        let mut b = self.new_board()?;
        let own = stones.iter().filter(|s| s.1 == 1).count();
        let opp = stones.iter().filter(|s| s.1 == 2).count();
        // Colour from the counts; with an odd balance the first stone
        // (renju managers send move order) is black's.
        let me = if own == opp {
            Color::Black
        } else if own + 1 == opp {
            Color::White
        } else {
            match stones.first() {
                Some((_, 1)) => Color::Black,
                Some(_) => Color::White,
                None => Color::Black,
            }
        };
        for &(p, f) in stones {
            let c = match f {
                1 => me,
                2 => me.other(),
                // Winning-line markers of continuous games: not stones.
                _ => continue,
            };
            let pt = to_point(p).ok_or_else(|| format!("{p} is off the board"))?;
            b.place(pt, c).map_err(|e| format!("BOARD: {e}"))?;
        }
        b.set_to_move(me);
        b.rejudge();
        Ok(b)
    }

    /// The table size `max_memory` allows (64 MiB when unset).
    fn hash_mb(&self) -> usize {
        if self.max_memory == 0 {
            64
        } else {
            ((self.max_memory >> 20) / 3).clamp(1, 256) as usize
        }
    }

    /// The searcher, with a table of the size `max_memory` allows: the
    /// one held if it has that size, else a new one (the old table is
    /// freed first).
    fn take_searcher(&mut self) -> Searcher {
        let mb = self.hash_mb();
        if self.searcher_mb != mb {
            self.searcher = None;
        }
        self.searcher_mb = mb;
        self.searcher.take().unwrap_or_else(|| Searcher::new(mb))
    }

    /// Holds a searcher of the right size, made now rather than on a
    /// move's clock.
    fn ready_searcher(&mut self) {
        let s = self.take_searcher();
        self.searcher = Some(s);
    }

    /// Hard and soft limits for this move.
    fn limits(&self, ply: usize) -> Limits {
        let overhead = tengen_core::timeman::GOMOKU.overhead;
        let turn = if self.timeout_turn == 0 {
            TimeManager::fixed(Duration::from_millis(20), Duration::ZERO)
        } else {
            let margin = (self.timeout_turn / 10).min(300);
            TimeManager::fixed(
                Duration::from_millis(self.timeout_turn),
                overhead + Duration::from_millis(margin),
            )
        };
        let mut hard = turn.hard;
        let mut soft = turn.hard / 2;
        let match_left = match self.time_left {
            Some(UNLIMITED) => None,
            Some(t) => Some(t),
            None if self.timeout_match > 0 => Some(self.timeout_match as i64),
            None => None,
        };
        if let Some(t) = match_left {
            if t <= 0 {
                hard = Duration::from_millis(5);
                soft = hard;
            } else {
                let tc = TimeControl {
                    remaining: Duration::from_millis(t as u64),
                    ..TimeControl::default()
                };
                let tm = TimeManager::new(&tc, overhead, ply as u32);
                hard = hard.min(tm.hard);
                soft = soft.min(tm.soft);
            }
        }
        // A node or depth limit makes the move independent of the clock
        // (fixed-node matches): no soft stop, the hard one stays a safety.
        let fixed = self.max_node.is_some() || self.max_depth.is_some();
        let soft = if fixed { hard } else { soft.min(hard) };
        Limits {
            time: Some(TimeManager { soft, hard }),
            nodes: self.max_node,
            depth: self.max_depth,
            ..Limits::default()
        }
    }

    /// Searches the current board and answers with a move, reading input
    /// meanwhile.
    fn think(&mut self, input: &Receiver<String>, queue: &mut VecDeque<String>) -> Flow {
        let Some(board) = self.board.clone() else {
            self.reply(Reply::Error("no game started".into()));
            return Flow::Go;
        };
        if board.is_full() {
            self.reply(Reply::Error("board full".into()));
            return Flow::Go;
        }
        let limits = self.limits(board.stones());
        let searcher = self.take_searcher();
        let bg = match gomoku_search(searcher, &board, limits, Box::new(|_: &Event| {})) {
            Ok(bg) => bg,
            Err(e) => {
                self.reply(Reply::Error(e));
                return Flow::Go;
            }
        };
        let mut quit = false;
        let done = bg.wait_reading(input, |got| {
            let Incoming::Line(line) = got else {
                // Input closed: finish this move, then the queue.
                return false;
            };
            let word = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            // Commands sent ahead of the move wait their turn; with
            // nothing pending, END and stops act at once.
            let ahead = !queue.is_empty() || self.reader.in_block();
            match word.as_str() {
                _ if ahead => queue.push_back(line),
                "END" => {
                    quit = true;
                    return true;
                }
                "YXSTOP" | "STOP" => return true,
                "INFO" if !self.reader.in_block() => {
                    if let Some(Ok(Command::Info(k, v))) = self.reader.feed(&line) {
                        self.info(&k, &v);
                    }
                }
                _ => queue.push_back(line),
            }
            false
        });
        if quit {
            return Flow::Quit;
        }
        let (searcher, result) = gomoku_outcome(done);
        self.searcher = Some(searcher);
        self.answer(&board, &result);
        // A table size changed during the move: resized now, on the
        // opponent's time.
        self.ready_searcher();
        Flow::Go
    }

    fn answer(&mut self, board: &Board, r: &SearchResult) {
        let best = r.best.or_else(|| fallback(board));
        let Some(p) = best else {
            self.reply(Reply::Error("no legal move".into()));
            return;
        };
        let pv: Vec<String> = r.pv.iter().map(|p| p.xy()).collect();
        self.reply(Reply::Debug(format!(
            "depth {} eval {} nodes {} pv {}",
            r.depth,
            r.score,
            r.nodes,
            pv.join(" ")
        )));
        if r.score.abs() >= PROVEN && r.best.is_some() {
            let who = if r.score > 0 { "win" } else { "loss" };
            self.reply(Reply::Message(format!("tengen: forced {who} found")));
        }
        if let Some(b) = self.board.as_mut() {
            let c = b.to_move();
            if b.place(p, c).is_err() {
                self.reply(Reply::Error(
                    "internal: the chosen move is not playable".into(),
                ));
                return;
            }
        }
        self.reply(Reply::Move(to_xy(p)));
    }

    fn swap2(&mut self, pts: &[Xy]) {
        let Ok(mut b) = self.new_board() else {
            self.reply(Reply::Error("no game started".into()));
            return;
        };
        if self.board.is_none() {
            self.reply(Reply::Error("no game started (send START first)".into()));
            return;
        }
        for &p in pts {
            let placed = to_point(p)
                .ok_or_else(|| format!("{p} is off the board"))
                .and_then(|pt| {
                    let c = b.to_move();
                    b.place(pt, c).map_err(|e| e.to_string())
                });
            if let Err(e) = placed {
                self.reply(Reply::Error(format!("SWAP2BOARD: {e}")));
                return;
            }
        }
        let budget = Duration::from_millis(self.timeout_turn.clamp(50, 5000) * 2 / 3);
        match pts.len() {
            0 => {
                let three = opening::swap2_opening(&b, budget);
                if three.len() != 3 {
                    self.reply(Reply::Error("board too small for a swap2 opening".into()));
                    return;
                }
                for &p in &three {
                    let c = b.to_move();
                    let _ = b.place(p, c);
                }
                self.board = Some(b);
                self.reply(Reply::Points(three.into_iter().map(to_xy).collect()));
            }
            3 => match opening::swap2_choose(&b, budget) {
                opening::Swap2Choice::Swap => {
                    b.set_to_move(Color::White);
                    self.board = Some(b);
                    self.reply(Reply::Swap);
                }
                opening::Swap2Choice::Play(p) => {
                    let c = b.to_move();
                    let _ = b.place(p, c);
                    self.board = Some(b);
                    self.reply(Reply::Move(to_xy(p)));
                }
                opening::Swap2Choice::Balance(pair) => {
                    for p in pair {
                        let c = b.to_move();
                        let _ = b.place(p, c);
                    }
                    // White to move; which colour is ours the opponent
                    // decides, and the manager's next BOARD tells.
                    self.board = Some(b);
                    self.reply(Reply::Points(pair.into_iter().map(to_xy).collect()));
                }
            },
            5 => {
                // White to move: take black if white stands badly.
                if opening::should_swap(&b, budget / 2, true) {
                    b.set_to_move(Color::White);
                    self.board = Some(b);
                    self.reply(Reply::Swap);
                } else {
                    let mut s = self.take_searcher();
                    let lim = Limits {
                        time: Some(TimeManager {
                            soft: budget / 4,
                            hard: budget / 2,
                        }),
                        ..Limits::default()
                    };
                    let r = s.think(&b, &lim, &mut |_| {});
                    self.searcher = Some(s);
                    match r.best.or_else(|| fallback(&b)) {
                        Some(p) => {
                            let c = b.to_move();
                            let _ = b.place(p, c);
                            self.board = Some(b);
                            self.reply(Reply::Move(to_xy(p)));
                        }
                        None => self.reply(Reply::Error("no legal move".into())),
                    }
                }
            }
            n => self.reply(Reply::Error(format!(
                "SWAP2BOARD with {n} stones (expected 0, 3 or 5)"
            ))),
        }
    }
}

/// Any playable point, nearest the centre first (a decided or odd board).
fn fallback(b: &Board) -> Option<Point> {
    let (cx, cy) = (b.width() as i32 / 2, b.height() as i32 / 2);
    let mut moves = if b.outcome() == Outcome::Ongoing {
        b.legal_moves()
    } else {
        b.squares()
            .filter(|&s| b.is_empty(s))
            .map(|s| b.point(s))
            .collect()
    };
    moves.sort_by_key(|p| (p.x as i32 - cx).abs() + (p.y as i32 - cy).abs());
    moves.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_made_at_start_and_follows_max_memory_between_moves() {
        let (_tx, rx) = std::sync::mpsc::channel::<String>();
        let mut fe = Front::new(Output::new(Box::new(std::io::sink())));
        let mut queue = VecDeque::new();
        assert!(fe.searcher.is_none());
        fe.handle(Command::Start(15), &rx, &mut queue);
        assert_eq!(fe.searcher.as_ref().map(|s| s.hash_mb()), Some(64));
        // 80 MiB of memory: a third of it for the table, made at once.
        fe.info("max_memory", "83886080");
        assert_eq!(fe.searcher.as_ref().map(|s| s.hash_mb()), Some(26));
        // While a move is searched the front-end holds no searcher: the
        // new size waits for the next `ready_searcher`.
        let held = fe.searcher.take();
        fe.info("max_memory", "167772160");
        assert!(fe.searcher.is_none());
        fe.searcher = held;
        fe.ready_searcher();
        assert_eq!(fe.searcher.as_ref().map(|s| s.hash_mb()), Some(53));
    }
}
