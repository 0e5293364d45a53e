//! Host side of every protocol: the commands a controller (a GUI, the
//! arena) prints to an engine, and the engine replies it parses.
//!
//! One file per protocol. Nothing here knows a game's rules: moves and
//! positions travel as strings, and the arena checks them with the rules
//! crates. Parsers never fail on garbage: an unrecognised line becomes
//! `Other`, so one stray line from an engine never ends a match.

pub mod ucci;
pub mod uci;
pub mod usi;

use crate::grammar::{Info, Score};

/// An evaluation an engine reported, from the side to move's view (as
/// UCI, UCCI and USI all define it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns (or the game's own small unit).
    Cp(i32),
    /// Mate in this many moves (UCI) or plies (USI); negative when the
    /// engine is being mated.
    Mate(i32),
}

impl EngineScore {
    /// A single number for adjudication thresholds: mates map far beyond
    /// any material score, keeping their sign.
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n >= 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }
}

/// The fields of an `info` line a controller cares about. Fields an
/// engine leaves out stay `None`; a malformed value drops only that field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<EngineScore>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub multipv: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// What a controller keeps from an `info` line of any dialect.
pub fn search_info(info: &Info) -> SearchInfo {
    SearchInfo {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score.map(|s| match s {
            Score::Cp(cp) => EngineScore::Cp(cp),
            Score::Mate(n) => EngineScore::Mate(n),
            Score::MatePlus => EngineScore::Mate(1),
            Score::MateMinus => EngineScore::Mate(-1),
        }),
        nodes: info.nodes,
        nps: info.nps,
        time_ms: info.time,
        multipv: info.multipv.and_then(|m| u32::try_from(m).ok()),
        pv: info.pv.clone(),
        string: info.string.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_fields_and_pv() {
        let info = Info::parse("info depth 12 seldepth 18 score cp -31 upperbound nodes 12345 nps 900 time 15 pv e2e4 e7e5 hashfull 3");
        let seen = search_info(&info);
        assert_eq!(seen.depth, Some(12));
        assert_eq!(seen.seldepth, Some(18));
        assert_eq!(seen.score, Some(EngineScore::Cp(-31)));
        assert_eq!(seen.nodes, Some(12345));
        assert_eq!(seen.time_ms, Some(15));
        assert_eq!(seen.pv, vec!["e2e4", "e7e5"]);
        assert_eq!(info.hashfull, Some(3));
    }

    #[test]
    fn mate_scores_and_garbage() {
        let info = search_info(&Info::parse("info score mate -3 depth x"));
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
        assert_eq!(info.depth, None);
        assert!(EngineScore::Mate(-3).as_cp() < -99_000);
        assert!(EngineScore::Mate(2).as_cp() > 99_000);
        let info = search_info(&Info::parse("info string hello  world"));
        assert_eq!(info.string.as_deref(), Some("hello  world"));
        let info = search_info(&Info::parse("info score mate + nodes 3"));
        assert_eq!(info.score, Some(EngineScore::Mate(1)));
    }
}
