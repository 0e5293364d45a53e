//! Engines as players: one implementation per protocol family behind the
//! [`Player`] trait, so a game never knows which protocol it talks to.
//! A player starts its process lazily, restarts it after a crash or a
//! hang (at the next game), and turns every protocol's way of failing
//! into a [`Fault`] the game can rule on.

mod agi;
mod analysis;
mod cecp;
mod gomocup;
mod gtp;
mod ucilike;

use crate::clock::ClockView;
use crate::process::{Launch, Process, Recv, Transcript};
use crate::record::{GameSetup, Side};
use std::time::{Duration, Instant};
use tengen_games::Protocol;
use tengen_protocol::host::EngineScore;

pub use agi::AgiPlayer;
pub use analysis::{
    make_analyser, parse_go_analysis, Analyser, AnalysisEvent, AnalysisRequest, Candidate,
    GoAnalysis,
};
pub use cecp::CecpPlayer;
pub use gomocup::GomocupPlayer;
pub use gtp::GtpPlayer;
pub use ucilike::{Dialect, MateAnswer, UciLikePlayer};

/// Everything needed to start and configure one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    pub launch: Launch,
    pub proto: Protocol,
    /// Options in the protocol's own form (`setoption`, GTP commands...).
    pub options: Vec<(String, String)>,
    /// Raw lines sent after the handshake, before the first game.
    pub init: Vec<String>,
    pub handshake_timeout: Duration,
    /// Restart the engine after a crash or hang (otherwise it forfeits).
    pub restart: bool,
    /// Think on the opponent's time (`go ponder` on the expected reply).
    pub ponder: bool,
    /// Search limits sent with every move, beside (or instead of) the clock.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl EngineConfig {
    pub fn new(name: &str, cmd: &str, proto: Protocol) -> Self {
        EngineConfig {
            name: name.to_string(),
            launch: Launch {
                cmd: cmd.to_string(),
                args: Vec::new(),
                dir: None,
            },
            proto,
            options: Vec::new(),
            init: Vec::new(),
            handshake_timeout: Duration::from_secs(10),
            restart: true,
            ponder: false,
            depth: None,
            nodes: None,
        }
    }
}

/// A request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// The start position in the protocol's notation (`None`: standard).
    pub start: Option<&'a str>,
    /// Every move from the start, in wire notation.
    pub moves: &'a [String],
    pub to_move: Side,
    /// Both clocks, indexed by [`Side::index`].
    pub clocks: [ClockView; 2],
    /// How long to wait for the move before the flag falls.
    pub timeout: Duration,
    /// Go's clean-up phase: capture dead stones before passing.
    pub cleanup: bool,
}

/// The engine's answer to a move request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Move(String),
    Resign,
    /// The engine says it has no move (UCCI `nobestmove`, UCI `(none)`).
    NoMove,
    /// USI `bestmove win`: an entering-king declaration.
    ClaimWin,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub answer: Answer,
    /// From sending the search command to the answer's arrival.
    pub elapsed: Duration,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    /// The main line the engine gave last, from its move on, in the
    /// arena's wire notation (empty where the protocol gives none).
    pub pv: Vec<String>,
}

/// An answer in Gomocup's swap2 opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Take the other colour.
    Swap,
    /// Stones to add (points in wire notation).
    Stones(Vec<String>),
}

/// How an engine failed to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer within the time left.
    Timeout,
    /// The process died or closed its output.
    Crashed(String),
    /// It answered something the protocol does not allow.
    Protocol(String),
}

pub trait Player: Send {
    fn name(&self) -> &str;
    /// Starts (or restarts) the engine if needed and prepares a new game.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), String>;
    fn think(&mut self, req: &MoveRequest<'_>) -> Result<Thought, Fault>;
    /// Gomocup's swap2 opening: the stones so far (none, three or five);
    /// the engine places stones or swaps colours within about `turn`.
    /// Errors name the fault.
    fn swap2(
        &mut self,
        _setup: &GameSetup,
        _stones: &[String],
        _timeout: Duration,
    ) -> Result<Swap2Answer, String> {
        Err("swap2 needs a Gomocup brain".into())
    }
    /// Go: the engine's list of dead stones after `moves` (GTP
    /// `final_status_list dead`); `None` when it cannot tell.
    fn dead_stones(&mut self, _moves: &[String]) -> Result<Option<Vec<String>>, Fault> {
        Ok(None)
    }
    /// The reply this engine expects to the move it just made, when it
    /// ponders (in the arena's notation).
    fn ponder_move(&self) -> Option<String> {
        None
    }
    /// Think on the opponent's time: `req` is the position after the
    /// expected reply, with this engine to move and the clocks as they
    /// stand. The next [`Player::think`] either continues that search
    /// (`ponderhit`) or stops it.
    fn ponder(&mut self, _req: &MoveRequest<'_>) {}
    /// The game is over; `won` is from this engine's view, `None` a draw.
    fn game_over(&mut self, _won: Option<bool>) {}
    /// Drops an engine left in an unknown state (a failed start, a broken
    /// exchange); the next game starts it afresh.
    fn abandon(&mut self);
    fn quit(&mut self);
}

/// Builds the player for a config.
pub fn make_player(
    cfg: &EngineConfig,
    label: String,
    transcript: Option<Transcript>,
) -> Box<dyn Player> {
    match cfg.proto {
        Protocol::Uci => Box::new(UciLikePlayer::new(
            cfg.clone(),
            Dialect::Uci,
            label,
            transcript,
        )),
        Protocol::Ucci => Box::new(UciLikePlayer::new(
            cfg.clone(),
            Dialect::Ucci,
            label,
            transcript,
        )),
        Protocol::Usi => Box::new(UciLikePlayer::new(
            cfg.clone(),
            Dialect::Usi,
            label,
            transcript,
        )),
        Protocol::Gtp => Box::new(GtpPlayer::new(cfg.clone(), label, transcript)),
        Protocol::Gomocup => Box::new(GomocupPlayer::new(cfg.clone(), label, transcript)),
        Protocol::Agi => Box::new(AgiPlayer::new(cfg.clone(), label, transcript)),
        Protocol::Cecp => Box::new(CecpPlayer::new(cfg.clone(), label, transcript)),
    }
}

/// A process plus the bookkeeping every protocol shares.
pub(crate) struct Conn {
    pub cfg: EngineConfig,
    pub label: String,
    pub transcript: Option<Transcript>,
    pub proc: Option<Process>,
}

impl Conn {
    pub fn new(cfg: EngineConfig, label: String, transcript: Option<Transcript>) -> Self {
        Conn {
            cfg,
            label,
            transcript,
            proc: None,
        }
    }

    /// True when the engine runs and can take commands.
    pub fn alive(&mut self) -> bool {
        self.proc.as_mut().is_some_and(Process::alive)
    }

    pub fn spawn(&mut self) -> Result<(), String> {
        self.proc = None;
        let p = Process::spawn(&self.cfg.launch, &self.label, self.transcript.clone())?;
        self.proc = Some(p);
        Ok(())
    }

    pub fn send(&mut self, line: &str) -> Result<Instant, Fault> {
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| Fault::Crashed("engine is not running".into()))?;
        p.send(line).map_err(Fault::Crashed)
    }

    /// Reads lines until `pick` returns a value, or the deadline passes.
    pub fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<(T, Instant), Fault> {
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| Fault::Crashed("engine is not running".into()))?;
        loop {
            match p.recv(deadline) {
                Recv::Line(at, line) => {
                    if let Some(v) = pick(&line) {
                        return Ok((v, at));
                    }
                }
                Recv::Timeout => return Err(Fault::Timeout),
                Recv::Closed => return Err(Fault::Crashed("the engine exited".into())),
            }
        }
    }

    /// Kills a hung engine; it is restarted at the next game.
    pub fn kill(&mut self) {
        if let Some(p) = self.proc.as_mut() {
            p.note("killed: it did not answer in time");
            p.kill();
        }
        self.proc = None;
    }

    pub fn shutdown(&mut self, quit_line: &str) {
        if let Some(p) = self.proc.as_mut() {
            p.shutdown(quit_line, Duration::from_secs(1));
        }
        self.proc = None;
    }
}
