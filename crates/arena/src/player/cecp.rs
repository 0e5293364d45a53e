//! CECP (xboard/WinBoard protocol) engines: chess, Fischer random,
//! xiangqi and shogi.
//!
//! Start-up: `xboard`, `protover 2`, then the engine's `feature` lines
//! until `done=1` (longer after `done=0`); an engine that sends no feature
//! within two seconds is a version 1 engine (bare moves, no `setboard`,
//! no `ping`). Each feature is answered `accepted`/`rejected`.
//!
//! A game: `new`, `variant`, the clock (`level` or `st`, `sd`), `post`,
//! `easy`/`hard`, `force`, the start position (`setboard`), then for
//! each move the engine is asked for: `force`, the moves it has not seen
//! (`usermove X` or bare), `time`/`otim` in centiseconds, `go`, and its
//! `move X` (or the old `My move is: X`) read back. At the end `result`.
//!
//! Notation: the arena writes chess in UCI form, xiangqi in ICCS and
//! shogi in USI. Chess goes over as coordinates (SAN with `san=1`; in
//! Fischer random castling is `O-O`/`O-O-O`, as XBoard sends it), xiangqi
//! as is (XBoard's ranks 0-9 are ICCS), shogi in XBoard's coordinates
//! (`c3c4`, `P@e5`) — or in USI form for a version 1 engine such as GNU
//! Shogi, which reads and writes its own notation (XBoard's "alpha rank").

use super::ucilike::fault_text;
use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Thought};
use crate::clock::TimeControl;
use crate::process::Transcript;
use crate::record::{GameSetup, Side};
use std::time::{Duration, Instant};
use tengen_protocol::cecp::{self, Command, FeatureValue, GameResult, Level, Reply};
use tengen_protocol::host::EngineScore;

/// How long a version 1 engine may stay silent before we go on without
/// its features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// How long a move may trail a result claim that is not a resignation.
const CLAIM_GRACE: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    Chess,
    Fischer,
    Xiangqi,
    Shogi,
}

impl Variant {
    fn from_setup(setup: &GameSetup) -> Variant {
        match setup.variant {
            Some("xiangqi") => Variant::Xiangqi,
            Some("shogi") => Variant::Shogi,
            _ if setup.chess960 => Variant::Fischer,
            _ => Variant::Chess,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Variant::Chess => "normal",
            Variant::Fischer => "fischerandom",
            Variant::Xiangqi => "xiangqi",
            Variant::Shogi => "shogi",
        }
    }

    fn chess(self) -> bool {
        matches!(self, Variant::Chess | Variant::Fischer)
    }
}

/// What the engine announced.
#[derive(Clone, Debug)]
struct Features {
    v2: bool,
    usermove: bool,
    ping: bool,
    setboard: bool,
    san: bool,
    reuse: bool,
    variants: Option<Vec<String>>,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            v2: false,
            usermove: false,
            ping: false,
            setboard: false,
            san: false,
            reuse: true,
            variants: None,
        }
    }
}

impl Features {
    /// Records one feature; whether we accept it.
    fn take(&mut self, key: &str, value: &FeatureValue) -> bool {
        let on = matches!(value, FeatureValue::Int(n) if *n != 0);
        match (key, value) {
            ("usermove", _) => self.usermove = on,
            ("ping", _) => self.ping = on,
            ("setboard", _) => self.setboard = on,
            ("san", _) => self.san = on,
            ("reuse", _) => self.reuse = on,
            ("variants", FeatureValue::Str(list)) => {
                self.variants = Some(list.split(',').map(|v| v.trim().to_string()).collect())
            }
            // Signals are never sent; what the rest say is information.
            (
                "sigint" | "sigterm" | "myname" | "time" | "draw" | "playother" | "analyze"
                | "colors" | "name" | "nps" | "debug" | "memory" | "smp" | "exclude" | "pause"
                | "done" | "option" | "ics" | "egt" | "setscore" | "highlight" | "nps_base",
                _,
            ) => {}
            _ => return false,
        }
        true
    }
}

pub struct CecpPlayer {
    conn: Conn,
    started_once: bool,
    features: Features,
    variant: Variant,
    setup: GameSetup,
    /// The start position and the moves (arena notation) on the engine's
    /// board; `None` until the game's position has been sent.
    board: Option<(Option<String>, Vec<String>)>,
    /// The side the engine played last (for `result`).
    side: Option<Side>,
    ping: i64,
    games: u32,
}

impl CecpPlayer {
    pub fn new(cfg: EngineConfig, label: String, transcript: Option<Transcript>) -> Self {
        CecpPlayer {
            conn: Conn::new(cfg, label, transcript),
            started_once: false,
            features: Features::default(),
            variant: Variant::Chess,
            setup: GameSetup::default(),
            board: None,
            side: None,
            ping: 0,
            games: 0,
        }
    }

    fn send(&mut self, cmd: &Command) -> Result<Instant, Fault> {
        self.conn.send(&cmd.to_string())
    }

    fn handshake(&mut self) -> Result<(), String> {
        self.conn.spawn()?;
        self.features = Features::default();
        self.board = None;
        self.send(&Command::Xboard).map_err(|e| fault_text(&e))?;
        self.send(&Command::Protover(2))
            .map_err(|e| fault_text(&e))?;
        let start = Instant::now();
        let long = start + self.conn.cfg.handshake_timeout;
        let mut deadline = start + FEATURE_WAIT;
        let mut answers = Vec::new();
        loop {
            let got = self.conn.wait_for(deadline, |l| Some(Reply::parse(l)));
            let reply = match got {
                Ok((r, _)) => r,
                // No (more) features: a version 1 engine, or one that
                // forgot `done=1`.
                Err(Fault::Timeout) => break,
                Err(e) => {
                    return Err(format!(
                        "no features after 'protover 2': {}",
                        fault_text(&e)
                    ))
                }
            };
            let Reply::Feature(list) = reply else {
                continue;
            };
            self.features.v2 = true;
            let mut done = None;
            for (k, v) in &list {
                let ok = self.features.take(k, v);
                answers.push(if ok {
                    Command::Accepted(k.clone())
                } else {
                    Command::Rejected(k.clone())
                });
                if k == "done" {
                    done = Some(matches!(v, FeatureValue::Int(n) if *n != 0));
                }
            }
            for a in answers.drain(..) {
                self.send(&a).map_err(|e| fault_text(&e))?;
            }
            match done {
                Some(true) => break,
                // `done=0`: the engine asks for time to start up.
                Some(false) => deadline = long,
                None if deadline < long => deadline = Instant::now() + FEATURE_WAIT,
                None => {}
            }
        }
        let mut lines: Vec<String> = self
            .conn
            .cfg
            .options
            .iter()
            .map(|(n, v)| {
                Command::Option {
                    name: n.clone(),
                    value: (!v.is_empty()).then(|| v.clone()),
                }
                .to_string()
            })
            .collect();
        lines.extend(self.conn.cfg.init.iter().cloned());
        for line in lines {
            self.conn.send(&line).map_err(|e| fault_text(&e))?;
        }
        self.sync()
            .map_err(|e| format!("no pong: {}", fault_text(&e)))
    }

    /// `ping N` and its `pong N` where the engine has them.
    fn sync(&mut self) -> Result<(), Fault> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.send(&Command::Ping(n))?;
        let deadline = Instant::now() + self.conn.cfg.handshake_timeout;
        self.conn
            .wait_for(deadline, |l| {
                (Reply::parse(l) == Reply::Pong(n)).then_some(())
            })
            .map(|_| ())
    }

    /// `new`, the variant, the clock and force mode.
    fn start_game(&mut self) -> Result<(), Fault> {
        self.send(&Command::New)?;
        // Version 1 engines play one game and know no `variant`.
        if self.variant != Variant::Chess && self.features.v2 {
            self.send(&Command::Variant(self.variant.name().into()))?;
        }
        match self.setup.time_settings {
            Some(tc) => {
                for c in time_commands(&tc) {
                    self.send(&c)?;
                }
            }
            None => self.send(&Command::St(1000)).map(|_| ())?,
        }
        if let Some(d) = self.conn.cfg.depth {
            self.send(&Command::Sd(d))?;
        }
        // In version 1 (GNU Chess 4, GNU Shogi) `post` and `easy` are
        // toggles whose state is unknown: only version 2 engines get them.
        if self.features.v2 {
            self.send(&Command::Post)?;
            let pondering = if self.conn.cfg.ponder {
                Command::Hard
            } else {
                Command::Easy
            };
            self.send(&pondering)?;
        }
        self.send(&Command::Force)?;
        self.board = None;
        Ok(())
    }

    /// A move in arena notation as this engine reads it; `pos` is the
    /// chess position before it (for SAN and castling).
    fn to_wire(&self, mv: &str, pos: Option<&tengen_chess::Board>) -> String {
        match self.variant {
            Variant::Chess | Variant::Fischer => {
                let chess960 = self.variant == Variant::Fischer;
                let Some(b) = pos else {
                    return mv.to_string();
                };
                let Ok(m) = b.parse_uci_move(mv, chess960) else {
                    return mv.to_string();
                };
                if self.features.san {
                    b.to_san(m)
                } else if chess960 && m.is_castle() {
                    if m.to().file() > m.from().file() {
                        "O-O".into()
                    } else {
                        "O-O-O".into()
                    }
                } else {
                    b.move_to_uci(m, false)
                }
            }
            Variant::Xiangqi => mv.to_string(),
            // A version 1 shogi engine (GNU Shogi) keeps USI coordinates.
            Variant::Shogi if !self.features.v2 => mv.to_string(),
            Variant::Shogi => usi_to_xboard(mv).unwrap_or_else(|| mv.to_string()),
        }
    }

    /// The engine's move in arena notation; anything unreadable stays as
    /// it is for the referee to refuse.
    fn arena_move(&self, mv: &str, pos: Option<&tengen_chess::Board>) -> String {
        match self.variant {
            Variant::Chess | Variant::Fischer => {
                let chess960 = self.variant == Variant::Fischer;
                let Some(b) = pos else {
                    return mv.to_string();
                };
                let castle = match mv.trim_end_matches(['+', '#']) {
                    "O-O" | "0-0" => Some(true),
                    "O-O-O" | "0-0-0" => Some(false),
                    _ => None,
                };
                let found = match castle {
                    Some(king_side) => b
                        .legal_moves()
                        .into_iter()
                        .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side),
                    None => b
                        .parse_uci_move(mv, chess960)
                        .or_else(|_| b.parse_uci_move(mv, false))
                        .or_else(|_| b.parse_san(mv))
                        .ok(),
                };
                found.map_or_else(|| mv.to_string(), |m| b.move_to_uci(m, chess960))
            }
            Variant::Xiangqi => mv.to_string(),
            Variant::Shogi => {
                if mv.starts_with(|c: char| c.is_ascii_digit()) || mv.contains('*') {
                    mv.to_string()
                } else {
                    xboard_to_usi(mv).unwrap_or_else(|| mv.to_string())
                }
            }
        }
    }

    /// The chess position after `moves` from `start` (`None` for other
    /// games or an unreadable line).
    fn chess_board(&self, start: Option<&str>, moves: &[String]) -> Option<tengen_chess::Board> {
        if !self.variant.chess() {
            return None;
        }
        let chess960 = self.variant == Variant::Fischer;
        let mut b = match start {
            Some(fen) => tengen_chess::Board::from_fen(fen).ok()?,
            None => tengen_chess::Board::startpos(),
        };
        for mv in moves {
            let m = b.parse_uci_move(mv, chess960).ok()?;
            b.play(m);
        }
        Some(b)
    }

    /// Brings the engine's board to `start` + `moves` (in force mode).
    /// Returns the moves sent, as the engine reads them.
    fn catch_up(&mut self, start: Option<&str>, moves: &[String]) -> Result<Vec<String>, Fault> {
        self.send(&Command::Force)?;
        let in_sync = match &self.board {
            Some((s, seen)) => {
                s.as_deref() == start && seen.len() <= moves.len() && moves.starts_with(seen)
            }
            None => false,
        };
        let from = if in_sync {
            self.board.as_ref().map_or(0, |(_, seen)| seen.len())
        } else {
            if self.board.is_some() {
                // Out of step: the game again from its start.
                self.start_game()?;
            }
            if let Some(fen) = start {
                if !self.features.setboard {
                    return Err(Fault::Protocol(
                        "the engine has no setboard for this start position".into(),
                    ));
                }
                let fen = self.start_fen(fen);
                self.send(&Command::SetBoard(fen))?;
            }
            0
        };
        let mut pos = self.chess_board(start, &moves[..from]);
        let mut sent = Vec::new();
        for mv in &moves[from..] {
            let wire = self.to_wire(mv, pos.as_ref());
            sent.push(wire.clone());
            let cmd = if self.features.usermove {
                Command::UserMove(wire)
            } else {
                Command::Move(wire)
            };
            self.send(&cmd)?;
            if let Some(b) = pos.as_mut() {
                if let Ok(m) = b.parse_uci_move(mv, self.variant == Variant::Fischer) {
                    b.play(m);
                }
            }
        }
        self.board = Some((start.map(str::to_string), moves.to_vec()));
        Ok(sent)
    }

    /// The start position as XBoard writes it for this variant.
    fn start_fen(&self, fen: &str) -> String {
        match self.variant {
            Variant::Xiangqi => xiangqi_fen(fen),
            Variant::Shogi => sfen_to_xboard(fen).unwrap_or_else(|| fen.to_string()),
            _ => fen.to_string(),
        }
    }
}

/// `level`/`st` (and nothing else) for a time control.
fn time_commands(tc: &TimeControl) -> Vec<Command> {
    if let Some(ms) = tc.movetime_ms {
        return vec![Command::St(ms.max(1))];
    }
    // Byo-yomi has no CECP form: its period joins the base.
    let overtime = match tc.overtime {
        crate::clock::Overtime::None => 0,
        crate::clock::Overtime::Japanese { period_ms, .. }
        | crate::clock::Overtime::Canadian { period_ms, .. } => period_ms,
    };
    let base_s = ((tc.base_ms + overtime) / 1000).max(1);
    vec![Command::Level(Level {
        mps: tc.moves.unwrap_or(0),
        base_s,
        inc_ms: tc.inc_ms,
    })]
}

/// Xiangqi FEN with XBoard's letters (`H` horse, `E` elephant).
fn xiangqi_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board: String = fields
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| match c {
            'N' => 'H',
            'n' => 'h',
            'B' => 'E',
            'b' => 'e',
            c => c,
        })
        .collect();
    let rest: Vec<&str> = fields.collect();
    let side = rest.first().copied().unwrap_or("w");
    format!("{board} {side} - - 0 1")
}

/// An SFEN as XBoard's shogi FEN: the board, holdings in brackets, `w`
/// when Sente is to move.
fn sfen_to_xboard(sfen: &str) -> Option<String> {
    let sfen = sfen.trim().strip_prefix("sfen ").unwrap_or(sfen.trim());
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let (board, side, hand) = (f.first()?, f.get(1)?, f.get(2).copied().unwrap_or("-"));
    let side = match *side {
        "b" => 'w',
        "w" => 'b',
        _ => return None,
    };
    let mut holdings = String::new();
    let mut count = 0u32;
    for c in hand.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d;
        } else {
            for _ in 0..count.max(1) {
                holdings.push(c);
            }
            count = 0;
        }
    }
    if holdings.is_empty() {
        holdings.push('-');
    }
    Some(format!("{board}[{holdings}] {side} 0 1"))
}

/// USI (`7g7f+`, `P*5e`) to XBoard's shogi coordinates (`c3c4+`, `P@e5`):
/// USI file 9 is XBoard's file a, USI rank a is XBoard's rank 9.
fn usi_to_xboard(usi: &str) -> Option<String> {
    let sq = |f: u8, r: u8| -> Option<String> {
        let f = (f as char).to_digit(10).filter(|d| (1..=9).contains(d))?;
        if !(b'a'..=b'i').contains(&r) {
            return None;
        }
        Some(format!(
            "{}{}",
            (b'a' + (9 - f) as u8) as char,
            9 - (r - b'a')
        ))
    };
    let b = usi.as_bytes();
    match b.len() {
        4 if b[1] == b'*' => Some(format!("{}@{}", b[0] as char, sq(b[2], b[3])?)),
        4 => Some(format!("{}{}", sq(b[0], b[1])?, sq(b[2], b[3])?)),
        5 if b[4] == b'+' => Some(format!("{}{}+", sq(b[0], b[1])?, sq(b[2], b[3])?)),
        _ => None,
    }
}

/// XBoard's shogi coordinates back to USI; `=` (no promotion) dropped.
fn xboard_to_usi(xb: &str) -> Option<String> {
    let sq = |c: u8, r: u8| -> Option<String> {
        if !(b'a'..=b'i').contains(&c) || !(b'1'..=b'9').contains(&r) {
            return None;
        }
        Some(format!(
            "{}{}",
            9 - (c - b'a'),
            (b'a' + (9 - (r - b'0'))) as char
        ))
    };
    let b = xb.as_bytes();
    match b.len() {
        4 if b[1] == b'@' => Some(format!("{}*{}", b[0] as char, sq(b[2], b[3])?)),
        4 => Some(format!("{}{}", sq(b[0], b[1])?, sq(b[2], b[3])?)),
        5 if b[4] == b'+' => Some(format!("{}{}+", sq(b[0], b[1])?, sq(b[2], b[3])?)),
        5 if b[4] == b'=' => Some(format!("{}{}", sq(b[0], b[1])?, sq(b[2], b[3])?)),
        _ => None,
    }
}

/// A reply reduced to what a move request needs.
enum Line {
    Answer(Answer, String),
    Score(EngineScore, u32),
    /// `Illegal move`: the move and our account of it.
    Refused(String, String),
    Other,
}

fn read(line: &str, side: Side) -> Line {
    match Reply::parse(line) {
        Reply::Move(m) | Reply::MyMoveIs(m) | Reply::NumberedMove { mv: m, .. } => {
            Line::Answer(Answer::Move(m.clone()), m)
        }
        Reply::Resign => Line::Answer(Answer::Resign, String::new()),
        Reply::Result { result, .. } => {
            // A claim in place of a move: giving up when it says we lost.
            let lost = matches!(
                (result, side),
                (GameResult::BlackWins, Side::First) | (GameResult::WhiteWins, Side::Second)
            );
            let answer = if lost { Answer::Resign } else { Answer::NoMove };
            Line::Answer(answer, String::new())
        }
        Reply::Thinking(t) => {
            let score = match cecp::score_mate(t.score) {
                Some(n) => EngineScore::Mate(n),
                None => EngineScore::Cp(t.score),
            };
            Line::Score(score, t.ply)
        }
        Reply::IllegalMove { reason, mv } => Line::Refused(
            mv.clone(),
            format!(
                "the engine refused {mv}{}",
                reason.map(|r| format!(" ({r})")).unwrap_or_default()
            ),
        ),
        // `Error` answers a command the engine does not know (version 1
        // engines meet `variant`, `post`...): nothing to act on.
        _ => Line::Other,
    }
}

impl Player for CecpPlayer {
    fn name(&self) -> &str {
        &self.conn.cfg.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), String> {
        if self.conn.alive() && !self.features.reuse && self.games > 0 {
            // `reuse=0`: a fresh process for every game.
            self.conn.shutdown(&Command::Quit.to_string());
        }
        if !self.conn.alive() {
            if self.started_once && !self.conn.cfg.restart {
                return Err("the engine is gone and restart is off".into());
            }
            self.started_once = true;
            self.handshake()?;
        }
        self.variant = Variant::from_setup(setup);
        self.setup = setup.clone();
        self.side = None;
        if let Some(list) = &self.features.variants {
            if !list.iter().any(|v| v == self.variant.name()) {
                return Err(format!(
                    "the engine does not play {} (its variants: {})",
                    self.variant.name(),
                    list.join(",")
                ));
            }
        }
        self.games += 1;
        self.start_game().map_err(|e| fault_text(&e))?;
        self.sync()
            .map_err(|e| format!("no pong: {}", fault_text(&e)))
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        self.side = Some(req.to_move);
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let sent_moves = self.catch_up(req.start, req.moves)?;
        let me = &req.clocks[req.to_move.index()];
        let opp = &req.clocks[req.to_move.other().index()];
        if self.setup.time_settings.is_some() && me.movetime_ms.is_none() {
            let cs = |ms: u64| i64::try_from(ms / 10).unwrap_or(i64::MAX);
            self.send(&Command::Time(cs(me.left_ms + me.byoyomi_ms.unwrap_or(0))))?;
            self.send(&Command::Otim(
                cs(opp.left_ms + opp.byoyomi_ms.unwrap_or(0)),
            ))?;
        }
        let sent = self.send(&Command::Go)?;
        let side = req.to_move;
        let (mut score, mut depth) = (None::<EngineScore>, None::<u32>);
        let result = self
            .conn
            .wait_for(sent + req.timeout, |l| match read(l, side) {
                Line::Score(s, d) => {
                    score = Some(s);
                    depth = Some(d);
                    None
                }
                Line::Answer(a, raw) => Some(Ok((a, raw))),
                // Only a refusal of a move sent now counts: version 1
                // engines call unknown commands illegal moves too.
                Line::Refused(mv, why) if sent_moves.contains(&mv) => Some(Err(why)),
                Line::Refused(..) => None,
                Line::Other => None,
            });
        // A claim that is not a resignation may come just before the move
        // it goes with (a draw claimed by the repeating move): a moment's
        // grace for that move before the claim stands as "no move".
        let result = match result {
            Ok((Ok((Answer::NoMove, raw)), at)) => {
                let grace = (Instant::now() + CLAIM_GRACE).min(sent + req.timeout);
                let late = self.conn.wait_for(grace, |l| match read(l, side) {
                    Line::Answer(a @ Answer::Move(_), m) => Some((a, m)),
                    _ => None,
                });
                match late {
                    Ok((answer, at)) => Ok((Ok(answer), at)),
                    Err(_) => Ok((Ok((Answer::NoMove, raw)), at)),
                }
            }
            other => other,
        };
        match result {
            Ok((Ok((answer, raw)), at)) => {
                let answer = match answer {
                    Answer::Move(_) => {
                        let pos = self.chess_board(req.start, req.moves);
                        let mv = self.arena_move(&raw, pos.as_ref());
                        if let Some((_, seen)) = self.board.as_mut() {
                            seen.push(mv.clone());
                        }
                        Answer::Move(mv)
                    }
                    other => other,
                };
                Ok(Thought {
                    answer,
                    elapsed: at.saturating_duration_since(sent),
                    score,
                    depth,
                    pv: Vec::new(),
                })
            }
            Ok((Err(why), _)) => {
                // The engine's board is not the arena's: start it afresh.
                self.board = None;
                Err(Fault::Protocol(why))
            }
            Err(Fault::Timeout) => {
                // `?`: move now. If even that goes unanswered, it hangs.
                let _ = self.send(&Command::MoveNow);
                let late = self
                    .conn
                    .wait_for(Instant::now() + Duration::from_secs(2), |l| {
                        matches!(read(l, side), Line::Answer(..)).then_some(())
                    });
                if late.is_err() {
                    self.conn.kill();
                }
                self.board = None;
                Err(Fault::Timeout)
            }
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    fn game_over(&mut self, won: Option<bool>) {
        if !self.conn.alive() {
            return;
        }
        let first_won = match (won, self.side) {
            (None, _) => None,
            (Some(w), Some(Side::First)) => Some(w),
            (Some(w), Some(Side::Second)) => Some(!w),
            // It never moved: the side is unknown, say nothing wrong.
            (Some(_), None) => None,
        };
        let (result, comment) = match (won, first_won) {
            (None, _) => (GameResult::Draw, "Draw"),
            (_, Some(true)) => (GameResult::WhiteWins, "White wins"),
            (_, Some(false)) => (GameResult::BlackWins, "Black wins"),
            (Some(_), None) => (GameResult::Unknown, "Game over"),
        };
        let _ = self.send(&Command::Force);
        let _ = self.send(&Command::Result {
            result,
            comment: comment.into(),
        });
        self.board = None;
    }

    fn abandon(&mut self) {
        self.conn.kill();
        self.board = None;
    }

    fn quit(&mut self) {
        self.conn.shutdown(&Command::Quit.to_string());
        self.board = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogi_notation_both_ways() {
        assert_eq!(usi_to_xboard("7g7f").as_deref(), Some("c3c4"));
        assert_eq!(usi_to_xboard("8h2b+").as_deref(), Some("b2h8+"));
        assert_eq!(usi_to_xboard("P*5e").as_deref(), Some("P@e5"));
        assert_eq!(xboard_to_usi("c3c4").as_deref(), Some("7g7f"));
        assert_eq!(xboard_to_usi("b2h8=").as_deref(), Some("8h2b"));
        assert_eq!(xboard_to_usi("P@e5").as_deref(), Some("P*5e"));
        assert_eq!(xboard_to_usi("z9a1"), None);
        assert_eq!(
            sfen_to_xboard("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .as_deref(),
            Some("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
        );
        assert_eq!(
            sfen_to_xboard("4k4/9/9/9/9/9/9/9/4K4 w 2Pg 30").as_deref(),
            Some("4k4/9/9/9/9/9/9/9/4K4[PPg] b 0 1")
        );
    }

    #[test]
    fn xiangqi_fen_in_xboard_letters() {
        assert_eq!(
            xiangqi_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
    }

    #[test]
    fn levels_from_time_controls() {
        let tc = TimeControl::parse("40/60+0.5").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            time_commands(&tc)
                .iter()
                .map(Command::to_string)
                .collect::<Vec<_>>(),
            ["level 40 1 0.5"]
        );
        let tc = TimeControl::parse("10+0.1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(time_commands(&tc)[0].to_string(), "level 0 0:10 0.1");
        assert_eq!(
            time_commands(&TimeControl::movetime(250))[0].to_string(),
            "st 0.25"
        );
    }

    #[test]
    fn replies_as_answers() {
        assert!(matches!(
            read("move e2e4", Side::First),
            Line::Answer(Answer::Move(_), _)
        ));
        assert!(matches!(
            read("My move is: e7e5", Side::Second),
            Line::Answer(Answer::Move(_), _)
        ));
        assert!(matches!(
            read("0-1 {White resigns}", Side::First),
            Line::Answer(Answer::Resign, _)
        ));
        assert!(matches!(
            read("1-0 {White mates}", Side::First),
            Line::Answer(Answer::NoMove, _)
        ));
        assert!(matches!(
            read("9 100003 10 5000 e2e4", Side::First),
            Line::Score(EngineScore::Mate(3), 9)
        ));
        assert!(matches!(
            read("Illegal move: e2e5", Side::First),
            Line::Refused(..)
        ));
        assert!(matches!(
            read("1. ... 7g7f -3020", Side::First),
            Line::Answer(Answer::Move(_), _)
        ));
        assert!(matches!(read("tellics say hi", Side::First), Line::Other));
    }
}
