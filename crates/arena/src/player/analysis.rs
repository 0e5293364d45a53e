//! Live analysis: an engine thinks on a position without a limit
//! (`go infinite`) and streams its lines until it is told to stop. The
//! UCI family (UCI, UCCI, USI) has it; GTP's `kata-analyze`/`lz-analyze`
//! and the gomoku protocols do not yet, and [`make_analyser`] says so.

use super::{EngineConfig, Fault};
use crate::process::Transcript;
use crate::record::GameSetup;
use std::time::Instant;
use tengen_games::Protocol;
use tengen_protocol::host::SearchInfo;

/// A position to analyse.
#[derive(Clone, Debug)]
pub struct AnalysisRequest<'a> {
    pub setup: &'a GameSetup,
    /// The start position in the protocol's notation (`None`: standard).
    pub start: Option<&'a str>,
    /// Every move from the start, in the arena's wire notation.
    pub moves: &'a [String],
    /// How many lines to ask for (`MultiPV`).
    pub multipv: u32,
}

/// What an analysing engine says.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisEvent {
    /// One `info` line; its PV is in the arena's wire notation.
    Info(SearchInfo),
    /// The search ended (after `stop`, or by itself): its best move.
    Done(Option<String>),
}

/// An engine that can analyse without playing.
pub trait Analyser: Send {
    /// Starts the engine if needed and begins an unlimited search.
    fn start(&mut self, req: &AnalysisRequest<'_>) -> Result<(), String>;
    /// The next event, or `None` when nothing came before `deadline`.
    fn poll(&mut self, deadline: Instant) -> Result<Option<AnalysisEvent>, Fault>;
    /// Ends the search (`stop`) and waits for its best move; an engine
    /// that does not answer within 2 s is killed.
    fn stop(&mut self) -> Result<(), Fault>;
    fn quit(&mut self);
}

/// The analyser for a config, or why this engine has no live analysis.
pub fn make_analyser(
    cfg: &EngineConfig,
    label: String,
    transcript: Option<Transcript>,
) -> Result<Box<dyn Analyser>, String> {
    use super::{Dialect, UciLikePlayer};
    let dialect = match cfg.proto {
        Protocol::Uci => Dialect::Uci,
        Protocol::Ucci => Dialect::Ucci,
        Protocol::Usi => Dialect::Usi,
        other => {
            return Err(format!(
                "no live analysis: {} speaks {}, which has no infinite search here yet",
                cfg.name,
                other.name()
            ))
        }
    };
    Ok(Box::new(UciLikePlayer::new(
        cfg.clone(),
        dialect,
        label,
        transcript,
    )))
}
