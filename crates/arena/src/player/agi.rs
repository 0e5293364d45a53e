//! AGI engines (gomoku, renju, 15x15 only): `AGI`/`AGIOK`, `SETRULE`,
//! then the whole game as `POSITION MOVES ...` and `GO TIME <ms left>`
//! before every move, answered by `BESTMOVE`.

use super::ucilike::fault_text;
use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Thought};
use crate::process::Transcript;
use crate::record::GameSetup;
use std::time::Instant;
use tengen_protocol::host::agi::{parse_reply, Command, Reply};

pub struct AgiPlayer {
    conn: Conn,
    started_once: bool,
}

/// Gomocup `x,y` (the arena's wire form) to AGI's two hex digits.
fn to_agi(xy: &str) -> Option<String> {
    let (x, y) = xy.split_once(',')?;
    let (x, y): (u32, u32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < 15 && y < 15).then(|| format!("{:X}{:X}", y, x + 1))
}

/// AGI point back to `x,y`; `None` for anything else.
fn from_agi(p: &str) -> Option<String> {
    let b = p.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let row = (b[0] as char).to_digit(16)?;
    let col = (b[1] as char).to_digit(16)?;
    (row <= 14 && (1..=15).contains(&col)).then(|| format!("{},{}", col - 1, row))
}

impl AgiPlayer {
    pub fn new(cfg: EngineConfig, label: String, transcript: Option<Transcript>) -> Self {
        AgiPlayer {
            conn: Conn::new(cfg, label, transcript),
            started_once: false,
        }
    }

    fn sync(&mut self) -> Result<(), String> {
        self.conn
            .send(&Command::IsReady.to_string())
            .map_err(|e| fault_text(&e))?;
        let deadline = Instant::now() + self.conn.cfg.handshake_timeout;
        self.conn
            .wait_for(deadline, |l| {
                matches!(parse_reply(l), Reply::ReadyOk).then_some(())
            })
            .map(|_| ())
            .map_err(|e| format!("no READYOK: {}", fault_text(&e)))
    }
}

impl Player for AgiPlayer {
    fn name(&self) -> &str {
        &self.conn.cfg.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), String> {
        if setup.board_size.unwrap_or(15) != 15 {
            return Err("AGI is played on 15x15 only".into());
        }
        if !self.conn.alive() {
            if self.started_once && !self.conn.cfg.restart {
                return Err("the engine is gone and restart is off".into());
            }
            self.started_once = true;
            self.conn.spawn()?;
            self.conn
                .send(&Command::Agi.to_string())
                .map_err(|e| fault_text(&e))?;
            let deadline = Instant::now() + self.conn.cfg.handshake_timeout;
            self.conn
                .wait_for(deadline, |l| {
                    matches!(parse_reply(l), Reply::AgiOk).then_some(())
                })
                .map_err(|e| format!("no AGIOK: {}", fault_text(&e)))?;
            let lines: Vec<String> = self.conn.cfg.init.clone();
            for line in lines {
                self.conn.send(&line).map_err(|e| fault_text(&e))?;
            }
        }
        // Rule 4 (renju) is the only one with forbidden points.
        let word = if setup.rule == Some(4) {
            "FORBIDDEN"
        } else {
            "UNFORBIDDEN"
        };
        self.conn
            .send(&Command::SetRule(vec![word.into()]).to_string())
            .map_err(|e| fault_text(&e))?;
        self.sync()
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let moves: Option<Vec<String>> = req.moves.iter().map(|m| to_agi(m)).collect();
        let moves = moves.ok_or_else(|| Fault::Protocol("a move is off the 15x15 board".into()))?;
        self.conn.send(&Command::Position { moves }.to_string())?;
        let me = req.clocks[req.to_move.index()];
        let time = me
            .movetime_ms
            .unwrap_or(me.left_ms + me.byoyomi_ms.unwrap_or(0));
        let sent = self.conn.send(
            &Command::Go {
                time_ms: Some(time),
            }
            .to_string(),
        )?;
        let result = self
            .conn
            .wait_for(sent + req.timeout, |l| match parse_reply(l) {
                Reply::BestMove(p) => Some(Some(p)),
                Reply::Change => Some(None),
                _ => None,
            });
        match result {
            Ok((Some(p), at)) => {
                let elapsed = at.saturating_duration_since(sent);
                // An unreadable point is passed on as is: the referee
                // rules it illegal and says why.
                let mv = from_agi(&p).unwrap_or(p);
                Ok(Thought {
                    answer: Answer::Move(mv),
                    elapsed,
                    score: None,
                    depth: None,
                })
            }
            Ok((None, _)) => Err(Fault::Protocol(
                "BESTMOVE CHANGE without a swap rule".into(),
            )),
            Err(Fault::Timeout) => {
                let _ = self.conn.send(&Command::Stop.to_string());
                self.conn.kill();
                Err(Fault::Timeout)
            }
            Err(e) => {
                self.conn.kill();
                Err(e)
            }
        }
    }

    fn abandon(&mut self) {
        self.conn.kill();
    }

    fn quit(&mut self) {
        self.conn.shutdown(&Command::Quit.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_convert_both_ways() {
        assert_eq!(to_agi("7,7").as_deref(), Some("78"));
        assert_eq!(to_agi("0,0").as_deref(), Some("01"));
        assert_eq!(to_agi("14,14").as_deref(), Some("EF"));
        assert_eq!(to_agi("15,0"), None);
        assert_eq!(from_agi("78").as_deref(), Some("7,7"));
        assert_eq!(from_agi("EF").as_deref(), Some("14,14"));
        assert_eq!(from_agi("00"), None);
        assert_eq!(from_agi("F1"), None);
    }
}
