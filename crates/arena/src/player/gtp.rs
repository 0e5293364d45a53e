//! GTP (Go). Unlike the UCI family, a GTP engine keeps its own board: the
//! player remembers which moves the engine has seen and only sends the
//! new ones (`play`), replaying from `clear_board` when they diverge.

use super::ucilike::fault_text;
use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Thought};
use crate::clock::Overtime;
use crate::process::Transcript;
use crate::record::{GameSetup, Side};
use std::time::{Duration, Instant};
use tengen_protocol::gtp::{Color, Request, Response, ResponseReader};

pub struct GtpPlayer {
    conn: Conn,
    started_once: bool,
    /// Moves on the engine's board, in order.
    seen: Vec<String>,
    /// `known_command` says yes to `final_status_list`.
    knows_status: bool,
    /// `known_command` says yes to `kgs-genmove_cleanup`.
    knows_cleanup: bool,
    /// Live analysis: `Some(true)` kata-analyze, `Some(false)`
    /// lz-analyze, `None` neither (or not asked yet).
    analysis_kind: Option<bool>,
    /// This game's handicap (0: none) and the points the engine must have
    /// placed its stones on, sorted.
    handicap: (u32, Vec<String>),
}

fn color(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}

impl GtpPlayer {
    pub fn new(cfg: EngineConfig, label: String, transcript: Option<Transcript>) -> Self {
        GtpPlayer {
            conn: Conn::new(cfg, label, transcript),
            started_once: false,
            seen: Vec::new(),
            knows_status: false,
            knows_cleanup: false,
            analysis_kind: None,
            handicap: (0, Vec::new()),
        }
    }

    /// The side that makes a game's first move: White after handicap
    /// stones.
    fn first_side(&self) -> Side {
        if self.handicap.0 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// Places the game's handicap stones (after `clear_board`), and
    /// checks that the engine put them where the referee did: an engine
    /// with other fixed points would play another game.
    fn place_handicap(&mut self) -> Result<(), String> {
        let (n, expected) = self.handicap.clone();
        if n == 0 {
            return Ok(());
        }
        let cmd = Request::FixedHandicap(n).to_string();
        let reply = self.must(&cmd)?;
        let mut got: Vec<String> = reply
            .split_whitespace()
            .map(|v| v.to_ascii_uppercase())
            .collect();
        got.sort();
        if got != expected {
            return Err(format!(
                "'{cmd}' placed {}, not the fixed points {}",
                got.join(" "),
                expected.join(" ")
            ));
        }
        Ok(())
    }

    /// Sends a command and waits for its whole response.
    fn ask(&mut self, cmd: &str, timeout: Duration) -> Result<(Response, Instant, Instant), Fault> {
        let sent = self.conn.send(cmd)?;
        let mut reader = ResponseReader::new();
        let (resp, at) = self.conn.wait_for(sent + timeout, |l| reader.feed(l))?;
        Ok((resp, sent, at))
    }

    /// A command that must succeed.
    fn must(&mut self, cmd: &str) -> Result<String, String> {
        let timeout = self.conn.cfg.handshake_timeout;
        match self.ask(cmd, timeout) {
            Ok((r, ..)) if r.ok => Ok(r.text),
            Ok((r, ..)) => Err(format!("'{cmd}' failed: {}", r.text)),
            Err(e) => Err(format!("'{cmd}': {}", fault_text(&e))),
        }
    }

    fn handshake(&mut self) -> Result<(), String> {
        self.conn.spawn()?;
        self.must(&Request::ProtocolVersion.to_string())?;
        let mut lines: Vec<String> = self
            .conn
            .cfg
            .options
            .iter()
            .map(|(n, v)| {
                if v.is_empty() {
                    n.clone()
                } else {
                    format!("{n} {v}")
                }
            })
            .collect();
        lines.extend(self.conn.cfg.init.iter().cloned());
        for line in lines {
            self.must(&line)?;
        }
        self.knows_status = self.knows("final_status_list");
        self.knows_cleanup = self.knows("kgs-genmove_cleanup");
        Ok(())
    }

    /// `known_command NAME` answered `true` (engines without
    /// `known_command` know nothing optional).
    fn knows(&mut self, name: &str) -> bool {
        let timeout = self.conn.cfg.handshake_timeout;
        matches!(
            self.ask(&format!("known_command {name}"), timeout),
            Ok((r, ..)) if r.ok && r.text.trim() == "true"
        )
    }

    /// Brings the engine's board to `moves`: only the new ones when it is
    /// in step, otherwise a replay from `clear_board`.
    fn sync(&mut self, moves: &[String]) -> Result<(), Fault> {
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let timeout = self.conn.cfg.handshake_timeout;
        let in_sync = self.seen.len() <= moves.len() && moves[..self.seen.len()] == self.seen[..];
        if !in_sync {
            let (r, ..) = self.ask(&Request::ClearBoard.to_string(), timeout)?;
            if !r.ok {
                return Err(Fault::Protocol(format!("clear_board failed: {}", r.text)));
            }
            self.seen.clear();
            self.place_handicap().map_err(Fault::Protocol)?;
        }
        let first = self.first_side();
        for (k, mv) in moves.iter().enumerate().skip(self.seen.len()) {
            let side = if k % 2 == 0 { first } else { first.other() };
            let cmd = Request::Play {
                color: color(side),
                vertex: mv.clone(),
            };
            let (r, ..) = self.ask(&cmd.to_string(), timeout)?;
            if !r.ok {
                return Err(Fault::Protocol(format!("refused '{cmd}': {}", r.text)));
            }
            self.seen.push(mv.clone());
        }
        Ok(())
    }

    fn status_list(&mut self, moves: &[String]) -> Result<Option<Vec<String>>, Fault> {
        if !self.knows_status {
            return Ok(None);
        }
        self.sync(moves)?;
        // Scoring is not on the clock; a slow engine still gets a bound.
        let timeout = self.conn.cfg.handshake_timeout.max(Duration::from_secs(30));
        let cmd = Request::FinalStatusList("dead".into()).to_string();
        let (r, ..) = self.ask(&cmd, timeout)?;
        Ok(r.ok.then(|| r.text.split_whitespace().map(str::to_string).collect()))
    }
}

impl GtpPlayer {
    /// One move request: bring the engine up to date, then ask.
    fn exchange(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        self.sync(req.moves)?;
        let timeout = self.conn.cfg.handshake_timeout;
        let me = req.clocks[req.to_move.index()];
        if me.left_ms > 0 || me.byoyomi_ms.is_some() || me.movestogo.is_some() {
            let cmd = Request::TimeLeft {
                color: color(req.to_move),
                seconds: me.left_ms / 1000,
                stones: if me.movestogo.is_some() {
                    me.movestogo.unwrap_or(0)
                } else {
                    0
                },
            };
            let _ = self.ask(&cmd.to_string(), timeout)?;
        }
        let genmove = if req.cleanup && self.knows_cleanup {
            format!("kgs-genmove_cleanup {}", color(req.to_move))
        } else {
            Request::GenMove(color(req.to_move)).to_string()
        };
        match self.ask(&genmove, req.timeout) {
            Ok((r, sent, at)) => {
                let elapsed = at.saturating_duration_since(sent);
                if !r.ok {
                    return Err(Fault::Protocol(format!("genmove failed: {}", r.text)));
                }
                let text = r.text.trim().to_string();
                let answer = if text.eq_ignore_ascii_case("resign") {
                    Answer::Resign
                } else {
                    self.seen.push(text.clone());
                    Answer::Move(text)
                };
                Ok(Thought {
                    answer,
                    elapsed,
                    score: None,
                    depth: None,
                    pv: Vec::new(),
                })
            }
            Err(e) => {
                // A GTP engine cannot be told to stop: a late or dead one
                // is killed and restarted for the next game.
                self.conn.kill();
                Err(e)
            }
        }
    }
}

/// Live analysis over GTP: `kata-analyze` (with ownership) or
/// `lz-analyze`, whichever the engine lists; any command ends it.
impl super::Analyser for GtpPlayer {
    fn start(&mut self, req: &super::AnalysisRequest<'_>) -> Result<(), String> {
        if !self.conn.alive() || self.analysis_kind.is_none() {
            self.new_game(req.setup)?;
            self.analysis_kind = if self.knows("kata-analyze") {
                Some(true)
            } else if self.knows("lz-analyze") {
                Some(false)
            } else {
                None
            };
        }
        let Some(kata) = self.analysis_kind else {
            return Err(format!(
                "no live analysis: {} lists neither kata-analyze nor lz-analyze",
                self.conn.cfg.name
            ));
        };
        self.sync(req.moves).map_err(|e| fault_text(&e))?;
        let first = self.first_side();
        let side = if req.moves.len().is_multiple_of(2) {
            first
        } else {
            first.other()
        };
        let cmd = if kata {
            format!("kata-analyze {} interval 25 ownership true", color(side))
        } else {
            format!("lz-analyze {} 25", color(side))
        };
        self.conn.send(&cmd).map_err(|e| fault_text(&e))?;
        Ok(())
    }

    fn poll(&mut self, deadline: Instant) -> Result<Option<super::AnalysisEvent>, Fault> {
        let kata = self.analysis_kind.unwrap_or(false);
        let got = self.conn.wait_for(deadline, |l| {
            super::parse_go_analysis(l, kata)
                .map(super::AnalysisEvent::Candidates)
                .or_else(|| {
                    l.starts_with('?')
                        .then_some(super::AnalysisEvent::Done(None))
                })
        });
        match got {
            Ok((ev, _)) => Ok(Some(ev)),
            Err(Fault::Timeout) => Ok(None),
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    fn stop(&mut self) -> Result<(), Fault> {
        // Any line ends the stream; this one's answer marks the end.
        let sent = self.conn.send("known_command play")?;
        let done = self.conn.wait_for(sent + Duration::from_secs(2), |l| {
            (l.trim() == "= true").then_some(())
        });
        if let Err(e) = done {
            self.conn.kill();
            return Err(e);
        }
        Ok(())
    }

    fn quit(&mut self) {
        self.conn.shutdown("quit");
    }
}

impl Player for GtpPlayer {
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
        self.must(&Request::BoardSize(setup.board_size.unwrap_or(19)).to_string())?;
        self.must(&Request::ClearBoard.to_string())?;
        self.seen.clear();
        self.must(&Request::Komi(setup.komi.unwrap_or(7.5)).to_string())?;
        let size = setup.board_size.unwrap_or(19) as usize;
        self.handicap = match setup.handicap {
            0 => (0, Vec::new()),
            n => {
                let points = tengen_go::game::fixed_handicap(size, n as usize)
                    .ok_or_else(|| format!("no fixed handicap of {n} on {size}x{size}"))?;
                let mut names: Vec<String> = points
                    .into_iter()
                    .map(tengen_go::board::vertex_name)
                    .collect();
                names.sort();
                (n, names)
            }
        };
        self.place_handicap()?;
        if let Some(tc) = setup.time_settings {
            let secs = |ms: u64| ms.div_ceil(1000);
            let cmd = match tc.overtime {
                // A fixed time per move is a Canadian period of one stone
                // with no main time.
                _ if tc.movetime_ms.is_some() => Request::TimeSettings {
                    main_s: 0,
                    byo_s: (tc.movetime_ms.unwrap_or(1000) / 1000).max(1),
                    byo_stones: 1,
                },
                Overtime::Canadian { period_ms, stones } => Request::TimeSettings {
                    main_s: secs(tc.base_ms),
                    byo_s: secs(period_ms),
                    byo_stones: stones,
                },
                // GTP has no Japanese byo-yomi: one stone per period is the
                // Canadian equivalent of a single period.
                Overtime::Japanese { period_ms, .. } => Request::TimeSettings {
                    main_s: secs(tc.base_ms),
                    byo_s: secs(period_ms),
                    byo_stones: 1,
                },
                Overtime::None => Request::TimeSettings {
                    main_s: secs(tc.base_ms),
                    byo_s: 0,
                    byo_stones: 0,
                },
            };
            // Engines without time support may refuse; the arena's clock
            // still rules.
            let _ = self.ask(&cmd.to_string(), self.conn.cfg.handshake_timeout);
        }
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        // A half-finished exchange leaves replies in flight that would be
        // read as answers to later commands: drop the engine instead.
        let result = self.exchange(req);
        if result.is_err() {
            self.conn.kill();
        }
        result
    }

    fn dead_stones(&mut self, moves: &[String]) -> Result<Option<Vec<String>>, Fault> {
        let result = self.status_list(moves);
        if result.is_err() {
            self.conn.kill();
        }
        result
    }

    fn abandon(&mut self) {
        self.conn.kill();
    }

    fn quit(&mut self) {
        self.conn.shutdown("quit");
    }
}
