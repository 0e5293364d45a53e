//! AGI engines (gomoku, renju, 15x15 only): `AGI`/`AGIOK`, `SETRULE`,
//! then the whole game as `POSITION MOVES ...` and `GO TIME <ms left>`
//! before every move, answered by `BESTMOVE`.

use super::ucilike::fault_text;
use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Thought};
use crate::process::Transcript;
use crate::record::GameSetup;
use std::time::Instant;
use tengen_protocol::agi::{parse_message, Best, Command, GoTime, Message, Pt};

pub struct AgiPlayer {
    conn: Conn,
    started_once: bool,
}

/// Gomocup `x,y` (the arena's wire form) to an AGI point.
fn to_agi(xy: &str) -> Option<Pt> {
    let (x, y) = xy.split_once(',')?;
    let (x, y): (u8, u8) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < 15 && y < 15).then_some(Pt { row: y, col: x + 1 })
}

/// An AGI point back to `x,y`.
fn from_agi(p: Pt) -> String {
    format!("{},{}", p.col - 1, p.row)
}

/// What a `BESTMOVE` line asks for: a point (as `x,y`, or the line's own
/// word when it is no single point, for the referee to rule illegal and
/// say why), or the colour swap (`None`). Other lines: not an answer.
fn best_move(line: &str) -> Option<Option<String>> {
    match parse_message(line) {
        Ok(Message::BestMove {
            best: Best::Change, ..
        }) => Some(None),
        Ok(Message::BestMove {
            best: Best::Points(p),
            ..
        }) if p.len() == 1 => Some(Some(from_agi(p[0]))),
        _ => {
            let mut words = line.split_whitespace();
            let first = words.next()?;
            first
                .eq_ignore_ascii_case("BESTMOVE")
                .then(|| Some(words.next().unwrap_or("").to_string()))
        }
    }
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
                matches!(parse_message(l), Ok(Message::ReadyOk)).then_some(())
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
                    matches!(parse_message(l), Ok(Message::AgiOk)).then_some(())
                })
                .map_err(|e| format!("no AGIOK: {}", fault_text(&e)))?;
            let lines: Vec<String> = self.conn.cfg.init.clone();
            for line in lines {
                self.conn.send(&line).map_err(|e| fault_text(&e))?;
            }
        }
        // Rule 4 (renju) is the only one with forbidden points.
        let rule = Command::SetRule {
            forbidden: Some(setup.rule == Some(4)),
            swap: None,
            fifth: None,
        };
        self.conn
            .send(&rule.to_string())
            .map_err(|e| fault_text(&e))?;
        self.sync()
    }

    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let moves: Option<Vec<Pt>> = req.moves.iter().map(|m| to_agi(m)).collect();
        let moves = moves.ok_or_else(|| Fault::Protocol("a move is off the 15x15 board".into()))?;
        let position = Command::Position {
            statu: Vec::new(),
            moves,
        };
        self.conn.send(&position.to_string())?;
        let me = req.clocks[req.to_move.index()];
        let time = me
            .movetime_ms
            .unwrap_or(me.left_ms + me.byoyomi_ms.unwrap_or(0));
        let sent = self.conn.send(
            &Command::Go {
                search: Vec::new(),
                ponder: false,
                time: Some(GoTime::Remaining(time)),
            }
            .to_string(),
        )?;
        let result = self.conn.wait_for(sent + req.timeout, best_move);
        match result {
            Ok((Some(p), at)) => {
                let elapsed = at.saturating_duration_since(sent);
                Ok(Thought {
                    answer: Answer::Move(p),
                    elapsed,
                    score: None,
                    depth: None,
                    pv: Vec::new(),
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
        let hex = |xy: &str| to_agi(xy).map(|p| p.to_string());
        assert_eq!(hex("7,7").as_deref(), Some("78"));
        assert_eq!(hex("0,0").as_deref(), Some("01"));
        assert_eq!(hex("14,14").as_deref(), Some("EF"));
        assert_eq!(hex("15,0"), None);
        assert_eq!(best_move("BESTMOVE 78"), Some(Some("7,7".into())));
        assert_eq!(
            best_move("bestmove EF ponder 78"),
            Some(Some("14,14".into()))
        );
        assert_eq!(best_move("BESTMOVE CHANGE"), Some(None));
        // Not a point: handed on for the referee to refuse.
        assert_eq!(best_move("BESTMOVE F1"), Some(Some("F1".into())));
        assert_eq!(best_move("BESTMOVE 00"), Some(Some("00".into())));
        assert_eq!(best_move("INFO DEPTH 3"), None);
    }
}
