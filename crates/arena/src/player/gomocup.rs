//! Gomocup "pbrain" brains (gomoku, renju). The brain keeps its own board:
//! the player sends only the opponent's last move (`TURN`) when the brain
//! is in step, and the whole board (`BOARD`) otherwise; `INFO` lines carry
//! the rule at the start and the clock before a move whenever it changed.

use super::ucilike::fault_text;
use super::{Answer, Conn, EngineConfig, Fault, MoveRequest, Player, Swap2Answer, Thought};
use crate::process::Transcript;
use crate::record::{GameSetup, Side};
use std::time::{Duration, Instant};
use tengen_protocol::gomocup::{parse_reply, parse_xy, Command, Reply, Xy};

/// How late a swap2 answer may come after its turn time.
const SWAP2_GRACE: Duration = Duration::from_secs(10);

pub struct GomocupPlayer {
    conn: Conn,
    started_once: bool,
    /// Moves on the brain's board, in order.
    seen: Vec<String>,
    size: u32,
    /// Whether this game has a clock for the brain (`tc=`/`st=`); without
    /// one it plays under `max_node`/`max_depth` alone.
    timed: bool,
    /// The clock `INFO` values the brain has had this game: a value is sent
    /// again only when it changes. Some brains (Rapfi 0.43) drop a command
    /// that comes in while they finish a move, and then read the rest of
    /// an `INFO` line as a command of its own; a fixed turn time restated
    /// before every move only gave that race more chances.
    clock_info: Vec<(&'static str, u64)>,
}

/// The turn time an untimed brain is given: the arena's hang limit, so
/// that only the node or depth limit ends its search.
const UNTIMED_TURN_MS: u64 = 600_000;

impl GomocupPlayer {
    pub fn new(cfg: EngineConfig, label: String, transcript: Option<Transcript>) -> Self {
        GomocupPlayer {
            conn: Conn::new(cfg, label, transcript),
            started_once: false,
            seen: Vec::new(),
            size: 15,
            timed: true,
            clock_info: Vec::new(),
        }
    }

    /// Waits for `OK` (after START/RESTART); `ERROR`/`UNKNOWN` fail.
    fn expect_ok(&mut self, what: &str) -> Result<(), String> {
        let deadline = Instant::now() + self.conn.cfg.handshake_timeout;
        let reply = self.conn.wait_for(deadline, |l| match parse_reply(l) {
            Ok(Reply::Ok) => Some(Ok(())),
            Ok(Reply::Error(e)) | Ok(Reply::Unknown(e)) => Some(Err(e)),
            _ => None,
        });
        match reply {
            Ok((Ok(()), _)) => Ok(()),
            Ok((Err(e), _)) => Err(format!("'{what}' refused: {e}")),
            Err(e) => Err(format!("no OK after '{what}': {}", fault_text(&e))),
        }
    }

    fn start(&mut self, setup: &GameSetup) -> Result<(), String> {
        self.size = setup.board_size.unwrap_or(15);
        let start = Command::Start(self.size).to_string();
        self.conn.send(&start).map_err(|e| fault_text(&e))?;
        self.expect_ok(&start)?;
        let mut lines: Vec<String> = self
            .conn
            .cfg
            .options
            .iter()
            .map(|(k, v)| Command::Info(k.clone(), v.clone()).to_string())
            .collect();
        lines.extend(self.conn.cfg.init.iter().cloned());
        if let Some(rule) = setup.rule {
            lines.push(Command::Info("rule".into(), rule.to_string()).to_string());
        }
        lines.push(Command::Info("game_type".into(), "1".into()).to_string());
        // Node and depth limits travel as the `max_node`/`max_depth` keys
        // that Yixin-Board and Rapfi-style managers send (brains that do
        // not know them ignore them, as the protocol asks).
        if let Some(n) = self.conn.cfg.nodes {
            lines.push(Command::Info("max_node".into(), n.to_string()).to_string());
        }
        if let Some(d) = self.conn.cfg.depth {
            lines.push(Command::Info("max_depth".into(), d.to_string()).to_string());
        }
        self.timed = setup.time_settings.is_some();
        if !self.timed {
            // No clock: a generous turn and an unlimited match, sent once
            // (timeout_turn 0 would mean "as fast as possible").
            lines.push(
                Command::Info("timeout_turn".into(), UNTIMED_TURN_MS.to_string()).to_string(),
            );
            lines.push(Command::Info("timeout_match".into(), "0".into()).to_string());
        }
        for line in lines {
            self.conn.send(&line).map_err(|e| fault_text(&e))?;
        }
        self.seen.clear();
        // What the brain now has, so the first move does not repeat it.
        self.clock_info.clear();
        if !self.timed {
            self.clock_info
                .extend([("timeout_turn", UNTIMED_TURN_MS), ("timeout_match", 0)]);
        }
        Ok(())
    }
}

fn point(wire: &str) -> Option<Xy> {
    parse_xy(wire).ok()
}

impl GomocupPlayer {
    /// One move request: bring the engine up to date, then ask.
    fn exchange(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault> {
        if let Some(p) = self.conn.proc.as_mut() {
            p.drain();
        }
        let me = req.clocks[req.to_move.index()];
        let mut info = Vec::new();
        if !self.timed {
            // Untimed: node or depth limits (sent with the game's settings)
            // end the search (the game's `START` sent the turn and the
            // match time; they go out again only if they changed).
            info.push(("timeout_turn", UNTIMED_TURN_MS));
        } else if let Some(mt) = me.movetime_ms {
            info.push(("timeout_turn", mt));
            info.push(("timeout_match", 0));
        } else {
            // Whole-game time: the remaining time is the budget; a move
            // may use at most what is left plus the increment.
            info.push((
                "timeout_turn",
                me.left_ms + me.inc_ms + me.byoyomi_ms.unwrap_or(0),
            ));
            info.push(("time_left", me.left_ms + me.byoyomi_ms.unwrap_or(0)));
        }
        for (k, v) in info {
            if self.clock_info.contains(&(k, v)) {
                continue;
            }
            self.conn
                .send(&Command::Info(k.into(), v.to_string()).to_string())?;
            self.clock_info.retain(|&(key, _)| key != k);
            self.clock_info.push((k, v));
        }
        let n = self.seen.len();
        let in_step = n <= req.moves.len() && req.moves[..n] == self.seen[..];
        let cmd = if in_step && req.moves.is_empty() {
            Command::Begin
        } else if in_step && req.moves.len() == n + 1 {
            let p = point(&req.moves[n])
                .ok_or_else(|| Fault::Protocol(format!("bad point {}", req.moves[n])))?;
            Command::Turn(p)
        } else {
            // Owner by colour: the side to move owns the stones played on
            // its turns.
            let mut stones = Vec::new();
            for (k, mv) in req.moves.iter().enumerate() {
                let p = point(mv).ok_or_else(|| Fault::Protocol(format!("bad point {mv}")))?;
                let side = if k % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                stones.push((
                    p,
                    // BOARD's field: 1 the brain's own stone, 2 the opponent's.
                    if side == req.to_move { 1 } else { 2 },
                ));
            }
            Command::Board(stones)
        };
        let sent = self.conn.send(&cmd.to_string())?;
        self.seen = req.moves.to_vec();
        let result = self
            .conn
            .wait_for(sent + req.timeout, |l| match parse_reply(l) {
                Ok(Reply::Move(p)) | Ok(Reply::Suggest(p)) => Some(Ok(p)),
                Ok(Reply::Error(e)) | Ok(Reply::Unknown(e)) => Some(Err(e)),
                _ => None,
            });
        match result {
            Ok((Ok(p), at)) => {
                let mv = p.to_string();
                self.seen.push(mv.clone());
                Ok(Thought {
                    answer: Answer::Move(mv),
                    elapsed: at.saturating_duration_since(sent),
                    score: None,
                    depth: None,
                    pv: Vec::new(),
                })
            }
            Ok((Err(e), _)) => Err(Fault::Protocol(format!(
                "brain answered ERROR/UNKNOWN: {e}"
            ))),
            Err(e) => {
                // A late brain cannot be interrupted reliably: kill it; it
                // is restarted for the next game.
                self.conn.kill();
                Err(e)
            }
        }
    }
}

impl Player for GomocupPlayer {
    fn name(&self) -> &str {
        &self.conn.cfg.name
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), String> {
        if !self.conn.alive() {
            if self.started_once && !self.conn.cfg.restart {
                return Err("the brain is gone and restart is off".into());
            }
            self.started_once = true;
            self.conn.spawn()?;
        }
        // START on a running brain resets it, as the protocol allows.
        self.start(setup)
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

    fn swap2(
        &mut self,
        setup: &GameSetup,
        stones: &[String],
        turn: Duration,
    ) -> Result<Swap2Answer, String> {
        self.new_game(setup)?;
        let turn_ms = u64::try_from(turn.as_millis()).unwrap_or(u64::MAX);
        let board: Vec<Xy> = stones
            .iter()
            .map(|w| point(w).ok_or_else(|| format!("'{w}' is not a point")))
            .collect::<Result<_, _>>()?;
        let lines = [
            Command::Info("timeout_turn".into(), turn_ms.to_string()),
            Command::Swap2Board(board),
        ];
        let mut sent = Instant::now();
        for line in &lines {
            sent = self
                .conn
                .send(&line.to_string())
                .map_err(|e| fault_text(&e))?;
        }
        // One line answers: SWAP, or the stones as `x,y x,y ...`. The
        // opening is off the clock; a late answer is still a fault.
        let reply = self.conn.wait_for(sent + turn + SWAP2_GRACE, |l| {
            if l.trim().is_empty() {
                return None;
            }
            let stones = |p: Vec<Xy>| Swap2Answer::Stones(p.iter().map(Xy::to_string).collect());
            match parse_reply(l) {
                Ok(Reply::Message(_) | Reply::Debug(_) | Reply::Ok | Reply::About(_)) => None,
                Ok(Reply::Swap) => Some(Ok(Swap2Answer::Swap)),
                Ok(Reply::Error(_) | Reply::Unknown(_)) => {
                    Some(Err(format!("it answered '{}'", l.trim())))
                }
                Ok(Reply::Points(p)) => Some(Ok(stones(p))),
                Ok(Reply::Move(p) | Reply::Suggest(p)) => Some(Ok(stones(vec![p]))),
                Err(e) => Some(Err(e)),
            }
        });
        match reply {
            Ok((answer, _)) => answer,
            Err(e) => {
                self.conn.kill();
                Err(format!("no answer to SWAP2BOARD: {}", fault_text(&e)))
            }
        }
    }

    fn abandon(&mut self) {
        self.conn.kill();
    }

    fn quit(&mut self) {
        if let Some(p) = self.conn.proc.as_mut() {
            p.shutdown("END", Duration::from_secs(1));
        }
        self.conn.proc = None;
    }
}
