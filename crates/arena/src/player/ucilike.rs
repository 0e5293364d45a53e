//! UCI (chess), UCCI (xiangqi) and USI (shogi): three dialects of one
//! flow — hello/ok handshake, options, `isready`, then `position` + `go`
//! answered by `info` lines and one `bestmove`.

use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Thought};
use crate::process::Transcript;
use crate::record::{GameSetup, Side};
use std::time::{Duration, Instant};
use tengen_protocol::host::{ucci, uci, usi, EngineScore, SearchInfo};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
    Usi,
}

/// A reply reduced to what the flow needs.
enum Line {
    Ok,
    ReadyOk,
    Info(SearchInfo),
    /// The answer and the move the engine expects in reply (`ponder`).
    Answer(Answer, Option<String>),
    Other,
}

impl Dialect {
    fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Usi => "usi",
        }
    }

    fn parse(self, line: &str) -> Line {
        match self {
            Dialect::Uci => match uci::parse_reply(line) {
                uci::Reply::UciOk => Line::Ok,
                uci::Reply::ReadyOk => Line::ReadyOk,
                uci::Reply::Info(i) => Line::Info(uci::search_info(&i)),
                uci::Reply::BestMove { mv, .. } if mv == "(none)" || mv == "0000" => {
                    Line::Answer(Answer::NoMove, None)
                }
                uci::Reply::BestMove { mv, ponder } => Line::Answer(Answer::Move(mv), ponder),
                _ => Line::Other,
            },
            Dialect::Ucci => match ucci::parse_reply(line) {
                ucci::Reply::UcciOk => Line::Ok,
                ucci::Reply::ReadyOk => Line::ReadyOk,
                ucci::Reply::Info(i) => Line::Info(ucci::search_info(&i)),
                // UCCI's `resign` flag gives the game up instead of the
                // move. A `draw` offer is not accepted: the arena's draws
                // come only from its own rules (adjudication, move limit,
                // the referee), so the move stands and the game goes on.
                ucci::Reply::BestMove { resign: true, .. } => Line::Answer(Answer::Resign, None),
                ucci::Reply::BestMove { mv, ponder, .. } => Line::Answer(Answer::Move(mv), ponder),
                ucci::Reply::NoBestMove => Line::Answer(Answer::NoMove, None),
                _ => Line::Other,
            },
            Dialect::Usi => match usi::parse_reply(line) {
                usi::Reply::UsiOk => Line::Ok,
                usi::Reply::ReadyOk => Line::ReadyOk,
                usi::Reply::Info(i) => Line::Info(usi::search_info(&i)),
                usi::Reply::BestMove(usi::BestMove::Move { mv, ponder }) => {
                    Line::Answer(Answer::Move(mv), ponder)
                }
                usi::Reply::BestMove(usi::BestMove::Resign) => Line::Answer(Answer::Resign, None),
                usi::Reply::BestMove(usi::BestMove::Win) => Line::Answer(Answer::ClaimWin, None),
                _ => Line::Other,
            },
        }
    }

    fn set_option(self, name: &str, value: &str) -> String {
        match self {
            Dialect::Uci => uci::Command::SetOption {
                name: name.into(),
                value: Some(value.into()),
            }
            .to_string(),
            Dialect::Ucci => ucci::Command::SetOption {
                name: name.into(),
                value: Some(value.into()),
            }
            .to_string(),
            Dialect::Usi => usi::Command::SetOption {
                name: name.into(),
                value: Some(value.into()),
            }
            .to_string(),
        }
    }

    fn position(self, start: Option<&str>, moves: &[String]) -> String {
        let (fen, moves) = (start.map(str::to_string), moves.to_vec());
        match self {
            Dialect::Uci => uci::Command::Position { fen, moves }.to_string(),
            Dialect::Ucci => ucci::Command::Position { fen, moves }.to_string(),
            Dialect::Usi => usi::Command::Position { sfen: fen, moves }.to_string(),
        }
    }

    /// The option that tells an engine it will be asked to ponder.
    fn ponder_option(self) -> Option<&'static str> {
        match self {
            Dialect::Uci => Some("Ponder"),
            Dialect::Usi => Some("USI_Ponder"),
            Dialect::Ucci => None,
        }
    }

    /// `go` for a move request; `ponder` makes it `go ponder` (the clocks
    /// are those the engine will have if the expected move comes).
    fn go(self, req: &MoveRequest<'_>, cfg: &EngineConfig, ponder: bool) -> String {
        let first = &req.clocks[Side::First.index()];
        let second = &req.clocks[Side::Second.index()];
        let me = &req.clocks[req.to_move.index()];
        let opp = &req.clocks[req.to_move.other().index()];
        let timed =
            me.movetime_ms.is_some() || me.left_ms > 0 || me.inc_ms > 0 || me.byoyomi_ms.is_some();
        match self {
            Dialect::Uci => {
                let mut go = uci::Go {
                    ponder,
                    depth: cfg.depth,
                    nodes: cfg.nodes,
                    ..uci::Go::default()
                };
                let ms = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
                if let Some(mt) = me.movetime_ms {
                    go.movetime = Some(ms(mt));
                } else if timed {
                    // UCI has no byo-yomi: offer the period as usable time.
                    let usable =
                        |c: &crate::clock::ClockView| c.left_ms + c.byoyomi_ms.unwrap_or(0);
                    go.wtime = Some(ms(usable(first)));
                    go.btime = Some(ms(usable(second)));
                    go.winc = (first.inc_ms > 0).then_some(ms(first.inc_ms));
                    go.binc = (second.inc_ms > 0).then_some(ms(second.inc_ms));
                    go.movestogo = me.movestogo;
                }
                uci::Command::Go(go).to_string()
            }
            Dialect::Ucci => {
                let mut go = ucci::Go {
                    ponder,
                    ..ucci::Go::default()
                };
                // UCCI's grammar takes one mode (depth, else nodes, else the
                // clocks) and one of movestogo/increment per clock.
                if cfg.depth.is_some() {
                    go.depth = cfg.depth;
                } else if cfg.nodes.is_some() {
                    go.nodes = cfg.nodes;
                } else if let Some(mt) = me.movetime_ms {
                    go.time = Some(mt);
                    go.movestogo = Some(1);
                } else if timed {
                    go.time = Some(me.left_ms + me.byoyomi_ms.unwrap_or(0));
                    go.movestogo = me.movestogo;
                    go.increment = (me.movestogo.is_none() && me.inc_ms > 0).then_some(me.inc_ms);
                    go.opptime = Some(opp.left_ms + opp.byoyomi_ms.unwrap_or(0));
                    go.oppmovestogo = opp.movestogo;
                    go.oppincrement =
                        (opp.movestogo.is_none() && opp.inc_ms > 0).then_some(opp.inc_ms);
                }
                ucci::Command::Go(go).to_string()
            }
            Dialect::Usi => {
                let mut go = usi::Go {
                    ponder,
                    depth: cfg.depth,
                    nodes: cfg.nodes,
                    ..usi::Go::default()
                };
                if let Some(mt) = me.movetime_ms {
                    go.btime = Some(0);
                    go.wtime = Some(0);
                    go.byoyomi = Some(mt);
                } else if timed {
                    if me.inc_ms > 0 || opp.inc_ms > 0 {
                        // USI counts `binc` as usable for this move; our
                        // clock credits it after the move (ClockView::usi).
                        (go.btime, go.binc) = first.usi_fischer();
                        (go.wtime, go.winc) = second.usi_fischer();
                    } else {
                        go.btime = Some(first.left_ms);
                        go.wtime = Some(second.left_ms);
                        go.byoyomi = Some(me.byoyomi_ms.unwrap_or(0));
                    }
                }
                usi::Command::Go(go).to_string()
            }
        }
    }
}

/// Xiangqi over UCI (Fairy-Stockfish, tengen) counts ranks 1..10; the
/// arena and UCCI count 0..9 (ICCS): `h2e2` is `h3e3` on the wire.
fn iccs_to_uci(mv: &str) -> String {
    let b = mv.as_bytes();
    let rank = |c: u8| (c as char).to_digit(10).map(|d| d + 1);
    match (b.len(), b.first(), b.get(2)) {
        (4, Some(f1), Some(f2)) => match (rank(b[1]), rank(b[3])) {
            (Some(r1), Some(r2)) => format!("{}{r1}{}{r2}", *f1 as char, *f2 as char),
            _ => mv.to_string(),
        },
        _ => mv.to_string(),
    }
}

/// The inverse of [`iccs_to_uci`]; anything unreadable stays as it is so
/// that the referee rules on what the engine really sent.
fn uci_to_iccs(mv: &str) -> String {
    let split = |s: &str| -> Option<(char, u32, usize)> {
        let f = s.chars().next().filter(char::is_ascii_lowercase)?;
        let digits: String = s[1..].chars().take_while(char::is_ascii_digit).collect();
        let r: u32 = digits.parse().ok()?;
        Some((f, r, 1 + digits.len()))
    };
    let convert = || -> Option<String> {
        let (f1, r1, n1) = split(mv)?;
        let (f2, r2, n2) = split(&mv[n1..])?;
        if n1 + n2 != mv.len() || !(1..=10).contains(&r1) || !(1..=10).contains(&r2) {
            return None;
        }
        Some(format!("{f1}{}{f2}{}", r1 - 1, r2 - 1))
    };
    convert().unwrap_or_else(|| mv.to_string())
}

pub struct UciLikePlayer {
    conn: Conn,
    dialect: Dialect,
    started_once: bool,
    chess960: bool,
    /// The `UCI_Variant` the engine was last given.
    variant: Option<&'static str>,
    /// The reply the engine expects to its last move (arena notation),
    /// kept only when it ponders.
    ponder_move: Option<String>,
    /// The position (start, moves) the engine is pondering on.
    pondering: Option<(Option<String>, Vec<String>)>,
}

impl UciLikePlayer {
    pub fn new(
        cfg: EngineConfig,
        dialect: Dialect,
        label: String,
        transcript: Option<Transcript>,
    ) -> Self {
        UciLikePlayer {
            conn: Conn::new(cfg, label, transcript),
            dialect,
            started_once: false,
            chess960: false,
            variant: None,
            ponder_move: None,
            pondering: None,
        }
    }

    /// `position` for a move list in arena notation.
    fn position_line(&self, start: Option<&str>, moves: &[String]) -> String {
        if self.uci_xiangqi() {
            let moves: Vec<String> = moves.iter().map(|m| iccs_to_uci(m)).collect();
            self.dialect.position(start, &moves)
        } else {
            self.dialect.position(start, moves)
        }
    }

    /// Ends a ponder search that missed (or a game that ended): `stop`,
    /// and the `bestmove` it brings is thrown away. An engine that does
    /// not answer within 2 s hangs and is killed.
    fn stop_pondering(&mut self) -> Result<(), Fault> {
        self.pondering = None;
        self.conn.send("stop")?;
        let dialect = self.dialect;
        let answered = self
            .conn
            .wait_for(Instant::now() + Duration::from_secs(2), |l| {
                matches!(dialect.parse(l), Line::Answer(..)).then_some(())
            });
        match answered {
            Ok(_) => Ok(()),
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    /// Moves travel in xiangqi's UCI dialect (ranks 1..10).
    fn uci_xiangqi(&self) -> bool {
        self.dialect == Dialect::Uci && self.variant == Some("xiangqi")
    }

    fn handshake(&mut self) -> Result<(), String> {
        self.conn.spawn()?;
        self.chess960 = false;
        self.variant = None;
        self.ponder_move = None;
        self.pondering = None;
        let timeout = self.conn.cfg.handshake_timeout;
        let hello = self.dialect.hello();
        let dialect = self.dialect;
        self.conn.send(hello).map_err(|e| fault_text(&e))?;
        self.conn
            .wait_for(Instant::now() + timeout, |l| {
                matches!(dialect.parse(l), Line::Ok).then_some(())
            })
            .map_err(|e| format!("no {hello}ok after '{hello}': {}", fault_text(&e)))?;
        if dialect == Dialect::Ucci {
            self.conn
                .send("setoption usemillisec true")
                .map_err(|e| fault_text(&e))?;
        }
        let mut lines: Vec<String> = self
            .conn
            .cfg
            .options
            .iter()
            .map(|(n, v)| dialect.set_option(n, v))
            .collect();
        if self.conn.cfg.ponder {
            if let Some(name) = dialect.ponder_option() {
                lines.push(dialect.set_option(name, "true"));
            }
        }
        lines.extend(self.conn.cfg.init.iter().cloned());
        for line in lines {
            self.conn.send(&line).map_err(|e| fault_text(&e))?;
        }
        self.sync()
    }

    fn sync(&mut self) -> Result<(), String> {
        let dialect = self.dialect;
        self.conn.send("isready").map_err(|e| fault_text(&e))?;
        let deadline = Instant::now() + self.conn.cfg.handshake_timeout;
        self.conn
            .wait_for(deadline, |l| {
                matches!(dialect.parse(l), Line::ReadyOk).then_some(())
            })
            .map(|_| ())
            .map_err(|e| format!("no readyok after 'isready': {}", fault_text(&e)))
    }
}

pub(crate) fn fault_text(f: &Fault) -> String {
    match f {
        Fault::Timeout => "timed out".into(),
        Fault::Crashed(s) | Fault::Protocol(s) => s.clone(),
    }
}

impl Player for UciLikePlayer {
    fn name(&self) -> &str {
        &self.conn.cfg.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), String> {
        if !self.conn.alive() {
            if self.started_once && !self.conn.cfg.restart {
                return Err("the engine is gone and restart is off".into());
            }
            self.started_once = true;
            self.handshake()?;
        }
        if self.dialect == Dialect::Uci && setup.chess960 != self.chess960 {
            let line = self.dialect.set_option(
                "UCI_Chess960",
                if setup.chess960 { "true" } else { "false" },
            );
            self.conn.send(&line).map_err(|e| fault_text(&e))?;
            self.chess960 = setup.chess960;
        }
        if self.dialect == Dialect::Uci && setup.variant != self.variant {
            let name = setup.variant.unwrap_or("chess");
            let line = self.dialect.set_option("UCI_Variant", name);
            self.conn.send(&line).map_err(|e| fault_text(&e))?;
            self.variant = setup.variant;
        }
        let newgame = match self.dialect {
            Dialect::Uci => Some("ucinewgame"),
            Dialect::Usi => Some("usinewgame"),
            Dialect::Ucci => None,
        };
        if self.dialect == Dialect::Usi {
            // usinewgame follows the readyok, as Shogidokoro does.
            self.sync()?;
        }
        if let Some(line) = newgame {
            self.conn.send(line).map_err(|e| fault_text(&e))?;
        }
        if self.dialect != Dialect::Usi {
            self.sync()?;
        }
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        // A ponder search on the move that came goes on (`ponderhit`, the
        // clock starts now); on any other it is stopped and discarded.
        let mut hit = false;
        if let Some((start, moves)) = self.pondering.take() {
            if start.as_deref() == req.start && moves == req.moves {
                hit = true;
            } else {
                self.stop_pondering()?;
            }
        }
        let sent = if hit {
            self.conn.send("ponderhit")?
        } else {
            if let Some(p) = self.conn.proc.as_mut() {
                p.drain();
            }
            let position = self.position_line(req.start, req.moves);
            self.conn.send(&position)?;
            let go = self.dialect.go(req, &self.conn.cfg, false);
            self.conn.send(&go)?
        };
        let dialect = self.dialect;
        let (mut score, mut depth) = (None::<EngineScore>, None::<u32>);
        let mut pv: Vec<String> = Vec::new();
        let result = self
            .conn
            .wait_for(sent + req.timeout, |l| match dialect.parse(l) {
                Line::Info(i) => {
                    // Only the main line's score counts (multipv 1 or none).
                    if i.multipv.unwrap_or(1) == 1 {
                        if i.score.is_some() {
                            score = i.score;
                        }
                        if i.depth.is_some() {
                            depth = i.depth;
                        }
                        // A line cut short by the end of the search (the
                        // same first move, fewer moves) keeps the longer
                        // one before it.
                        let cut = i.pv.len() < pv.len() && i.pv.first() == pv.first();
                        if !i.pv.is_empty() && !cut {
                            pv = i.pv;
                        }
                    }
                    None
                }
                Line::Answer(a, p) => Some((a, p)),
                _ => None,
            });
        let xq = self.uci_xiangqi();
        let arena = |mv: String| if xq { uci_to_iccs(&mv) } else { mv };
        match result {
            Ok(((answer, ponder), at)) => Ok(Thought {
                answer: {
                    self.ponder_move = ponder.filter(|_| self.conn.cfg.ponder).map(arena);
                    match answer {
                        Answer::Move(mv) => Answer::Move(arena(mv)),
                        other => other,
                    }
                },
                elapsed: at.saturating_duration_since(sent),
                score,
                depth,
                pv: pv.into_iter().map(arena).collect(),
            }),
            Err(Fault::Timeout) => {
                // Ask for the move anyway so the engine is usable again; if
                // even that goes unanswered, it hangs: kill it.
                let _ = self.conn.send("stop");
                let late = self
                    .conn
                    .wait_for(Instant::now() + Duration::from_secs(2), |l| {
                        matches!(dialect.parse(l), Line::Answer(..)).then_some(())
                    });
                if late.is_err() {
                    self.conn.kill();
                }
                Err(Fault::Timeout)
            }
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    fn ponder_move(&self) -> Option<String> {
        self.ponder_move.clone()
    }

    fn ponder(&mut self, req: &MoveRequest<'_>) {
        self.ponder_move = None;
        if !self.conn.cfg.ponder || !self.conn.alive() {
            return;
        }
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let position = self.position_line(req.start, req.moves);
        let go = self.dialect.go(req, &self.conn.cfg, true);
        // A failed write shows at the next request as a crash.
        if self.conn.send(&position).is_ok() && self.conn.send(&go).is_ok() {
            self.pondering = Some((req.start.map(str::to_string), req.moves.to_vec()));
        }
    }

    fn game_over(&mut self, won: Option<bool>) {
        self.ponder_move = None;
        if self.pondering.is_some() && self.conn.alive() {
            let _ = self.stop_pondering();
        }
        if self.dialect == Dialect::Usi && self.conn.alive() {
            let result = match won {
                Some(true) => usi::GameResult::Win,
                Some(false) => usi::GameResult::Lose,
                None => usi::GameResult::Draw,
            };
            let _ = self
                .conn
                .send(&usi::Command::GameOver(Some(result)).to_string());
        }
    }

    fn abandon(&mut self) {
        self.conn.kill();
    }

    fn quit(&mut self) {
        self.conn.shutdown("quit");
    }
}

/// Live analysis over the UCI family: `MultiPV`, `position`, `go
/// infinite`, the `info` lines as they come, `stop`.
impl super::Analyser for UciLikePlayer {
    fn start(&mut self, req: &super::AnalysisRequest<'_>) -> Result<(), String> {
        if self.pondering.is_some() {
            self.stop_pondering().map_err(|e| fault_text(&e))?;
        }
        self.new_game(req.setup)?;
        let multipv = req.multipv.max(1).to_string();
        let line = self.dialect.set_option("MultiPV", &multipv);
        self.conn.send(&line).map_err(|e| fault_text(&e))?;
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let position = self.position_line(req.start, req.moves);
        self.conn.send(&position).map_err(|e| fault_text(&e))?;
        let go = match self.dialect {
            Dialect::Uci => uci::Command::Go(uci::Go {
                infinite: true,
                ..uci::Go::default()
            })
            .to_string(),
            Dialect::Ucci => ucci::Command::Go(ucci::Go {
                infinite: true,
                ..ucci::Go::default()
            })
            .to_string(),
            Dialect::Usi => usi::Command::Go(usi::Go {
                infinite: true,
                ..usi::Go::default()
            })
            .to_string(),
        };
        self.conn.send(&go).map_err(|e| fault_text(&e))?;
        Ok(())
    }

    fn poll(&mut self, deadline: Instant) -> Result<Option<super::AnalysisEvent>, Fault> {
        use super::AnalysisEvent;
        let dialect = self.dialect;
        let got = self.conn.wait_for(deadline, |l| match dialect.parse(l) {
            Line::Info(i) => Some(AnalysisEvent::Info(i)),
            Line::Answer(Answer::Move(mv), _) => Some(AnalysisEvent::Done(Some(mv))),
            Line::Answer(..) => Some(AnalysisEvent::Done(None)),
            _ => None,
        });
        let xq = self.uci_xiangqi();
        let arena = |mv: String| if xq { uci_to_iccs(&mv) } else { mv };
        match got {
            Ok((AnalysisEvent::Info(mut i), _)) => {
                i.pv = i.pv.into_iter().map(arena).collect();
                Ok(Some(AnalysisEvent::Info(i)))
            }
            Ok((AnalysisEvent::Done(mv), _)) => Ok(Some(AnalysisEvent::Done(mv.map(arena)))),
            Ok((other, _)) => Ok(Some(other)),
            Err(Fault::Timeout) => Ok(None),
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    fn stop(&mut self) -> Result<(), Fault> {
        self.stop_pondering()
    }

    fn quit(&mut self) {
        self.conn.shutdown("quit");
    }
}

/// What a USI engine answers to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// The mating sequence, in USI moves.
    Mate(Vec<String>),
    NoMate,
    Timeout,
    NotImplemented,
}

impl UciLikePlayer {
    /// USI `go mate <ms>` on a position: the engine's mate search, waited
    /// for `ms` plus 5 s (then `stop`; an engine silent 2 s more is killed).
    pub fn mate(
        &mut self,
        setup: &GameSetup,
        start: Option<&str>,
        moves: &[String],
        ms: u64,
    ) -> Result<MateAnswer, String> {
        use tengen_protocol::usi::{Checkmate, MateLimit};
        if self.dialect != Dialect::Usi {
            return Err("a mate search is USI's `go mate`".into());
        }
        self.new_game(setup)?;
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let position = self.position_line(start, moves);
        self.conn.send(&position).map_err(|e| fault_text(&e))?;
        let go = usi::Command::Go(usi::Go {
            mate: Some(MateLimit::Millis(ms)),
            ..usi::Go::default()
        })
        .to_string();
        let sent = self.conn.send(&go).map_err(|e| fault_text(&e))?;
        let pick = |l: &str| match usi::parse_reply(l) {
            usi::Reply::Checkmate(c) => Some(c),
            _ => None,
        };
        let answer = match self.conn.wait_for(
            sent + Duration::from_millis(ms) + Duration::from_secs(5),
            pick,
        ) {
            Ok((c, _)) => c,
            Err(Fault::Timeout) => {
                let _ = self.conn.send("stop");
                match self
                    .conn
                    .wait_for(Instant::now() + Duration::from_secs(2), pick)
                {
                    Ok((c, _)) => c,
                    Err(e) => {
                        self.conn.kill();
                        return Err(fault_text(&e));
                    }
                }
            }
            Err(e) => {
                self.conn.kill();
                return Err(fault_text(&e));
            }
        };
        Ok(match answer {
            Checkmate::Moves(m) => MateAnswer::Mate(m),
            Checkmate::NoMate => MateAnswer::NoMate,
            Checkmate::Timeout => MateAnswer::Timeout,
            Checkmate::NotImplemented => MateAnswer::NotImplemented,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(dialect: Dialect, line: &str) -> Option<(Answer, Option<String>)> {
        match dialect.parse(line) {
            Line::Answer(a, p) => Some((a, p)),
            _ => None,
        }
    }

    /// A UCCI engine's `resign` once read as a plain move, so the arena
    /// played on; a `draw` offer leaves the move standing.
    #[test]
    fn ucci_bestmove_flags() {
        assert_eq!(
            answer(Dialect::Ucci, "bestmove h2e2 resign"),
            Some((Answer::Resign, None))
        );
        assert_eq!(
            answer(Dialect::Ucci, "bestmove h2e2 ponder h9g7 draw"),
            Some((Answer::Move("h2e2".into()), Some("h9g7".into())))
        );
        assert_eq!(
            answer(Dialect::Ucci, "bestmove h2e2 draw resign"),
            Some((Answer::Resign, None))
        );
        assert_eq!(
            answer(Dialect::Ucci, "nobestmove"),
            Some((Answer::NoMove, None))
        );
    }

    /// UCCI's `go` takes one mode and one of movestogo/increment per
    /// clock; the printer sends what is set, so the choice is made here.
    #[test]
    fn ucci_go_sends_one_mode() {
        use crate::clock::ClockView;
        use tengen_games::Protocol;
        let clock = ClockView {
            left_ms: 60_000,
            inc_ms: 500,
            movestogo: None,
            byoyomi_ms: None,
            movetime_ms: None,
        };
        let req = MoveRequest {
            start: None,
            moves: &[],
            to_move: Side::First,
            clocks: [clock, clock],
            timeout: Duration::from_secs(1),
            cleanup: false,
        };
        let mut cfg = EngineConfig::new("x", "x", Protocol::Ucci);
        assert_eq!(
            Dialect::Ucci.go(&req, &cfg, false),
            "go time 60000 increment 500 opptime 60000 oppincrement 500"
        );
        cfg.nodes = Some(900);
        assert_eq!(Dialect::Ucci.go(&req, &cfg, true), "go ponder nodes 900");
        cfg.depth = Some(6);
        assert_eq!(Dialect::Ucci.go(&req, &cfg, false), "go depth 6");
        let period = ClockView {
            movestogo: Some(30),
            ..clock
        };
        let req = MoveRequest {
            clocks: [period, period],
            ..req
        };
        cfg.depth = None;
        cfg.nodes = None;
        assert_eq!(
            Dialect::Ucci.go(&req, &cfg, false),
            "go time 60000 movestogo 30 opptime 60000 oppmovestogo 30"
        );
    }

    #[test]
    fn xiangqi_ranks_between_iccs_and_uci() {
        assert_eq!(iccs_to_uci("h2e2"), "h3e3");
        assert_eq!(iccs_to_uci("b9c7"), "b10c8");
        assert_eq!(uci_to_iccs("b10c8"), "b9c7");
        assert_eq!(uci_to_iccs("h3e3"), "h2e2");
        for bad in ["b11c8", "b0c1", "h3", "h3e3x", "(none)", "3he3"] {
            assert_eq!(uci_to_iccs(bad), bad);
        }
        for a in ["a0i9", "e9e8", "c3c4"] {
            assert_eq!(uci_to_iccs(&iccs_to_uci(a)), a);
        }
    }
}
