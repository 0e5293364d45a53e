//! Live analysis: an engine thinks on a position without a limit and
//! streams what it finds until it is told to stop. The UCI family (UCI,
//! UCCI, USI) does it with `go infinite`; GTP engines that list
//! `kata-analyze` or `lz-analyze` with those (candidate moves, and
//! ownership from `kata-analyze`); the gomoku protocols have no such
//! command, and [`make_analyser`] says so.

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
    /// GTP analysis: the candidate moves, best first.
    Candidates(GoAnalysis),
    /// The search ended (after `stop`, or by itself): its best move.
    Done(Option<String>),
}

/// One candidate move of a GTP engine's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// A GTP vertex (or `pass`).
    pub mv: String,
    pub visits: u64,
    /// The side to move's chance, 0..1.
    pub winrate: f64,
    /// Points ahead for the side to move (`kata-analyze`'s `scoreLead`).
    pub score_lead: Option<f64>,
    pub pv: Vec<String>,
}

/// One `info` line of `kata-analyze`/`lz-analyze`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoAnalysis {
    pub candidates: Vec<Candidate>,
    /// Each point's owner, row by row from the top left, +1 for the side
    /// to move (`kata-analyze ... ownership true`); empty when not given.
    pub ownership: Vec<f32>,
}

/// Reads one analysis line (`info move D4 visits 10 winrate 0.51 ... pv D4
/// Q16 info move ...`). `kata` lines give the winrate as 0..1, `lz` lines
/// as 0..10000.
pub fn parse_go_analysis(line: &str, kata: bool) -> Option<GoAnalysis> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let mut out = GoAnalysis::default();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "info" => {
                out.candidates.push(Candidate {
                    mv: String::new(),
                    visits: 0,
                    winrate: 0.0,
                    score_lead: None,
                    pv: Vec::new(),
                });
                i += 1;
            }
            "ownership" => {
                out.ownership = words[i + 1..]
                    .iter()
                    .map_while(|w| w.parse::<f32>().ok())
                    .collect();
                break;
            }
            "pv" => {
                let c = out.candidates.last_mut()?;
                let mut j = i + 1;
                while j < words.len() && !matches!(words[j], "info" | "ownership") {
                    c.pv.push(words[j].to_string());
                    j += 1;
                }
                i = j;
            }
            key => {
                let value = words.get(i + 1).copied().unwrap_or("");
                let c = out.candidates.last_mut()?;
                match key {
                    "move" => c.mv = value.to_string(),
                    "visits" => c.visits = value.parse().unwrap_or(0),
                    "winrate" => {
                        let w: f64 = value.parse().unwrap_or(0.0);
                        c.winrate = if kata { w } else { w / 10_000.0 };
                    }
                    "scoreLead" => c.score_lead = value.parse().ok(),
                    _ => {}
                }
                i += 2;
            }
        }
    }
    out.candidates.retain(|c| !c.mv.is_empty());
    (!out.candidates.is_empty()).then_some(out)
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
    use super::{Dialect, GtpPlayer, UciLikePlayer};
    let dialect = match cfg.proto {
        Protocol::Uci => Dialect::Uci,
        Protocol::Ucci => Dialect::Ucci,
        Protocol::Usi => Dialect::Usi,
        Protocol::Gtp => {
            return Ok(Box::new(GtpPlayer::new(cfg.clone(), label, transcript)));
        }
        other => {
            return Err(format!(
                "no live analysis: {} speaks {}, which has no analysis command",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kata_and_lz_analysis_lines() {
        let a = parse_go_analysis(
            "info move D4 visits 12 utility 0.1 winrate 0.61 scoreLead 2.5 order 0 pv D4 Q16 \
             info move Q16 visits 5 winrate 0.55 order 1 pv Q16 ownership 0.5 -0.25 1",
            true,
        )
        .unwrap();
        assert_eq!(a.candidates.len(), 2);
        assert_eq!(a.candidates[0].mv, "D4");
        assert_eq!(a.candidates[0].visits, 12);
        assert_eq!(a.candidates[0].score_lead, Some(2.5));
        assert_eq!(a.candidates[0].pv, vec!["D4", "Q16"]);
        assert_eq!(a.candidates[1].pv, vec!["Q16"]);
        assert_eq!(a.ownership, vec![0.5, -0.25, 1.0]);
        let lz = parse_go_analysis(
            "info move C3 visits 7 winrate 4500 prior 100 lcb 4000 order 0 pv C3",
            false,
        )
        .unwrap();
        assert!((lz.candidates[0].winrate - 0.45).abs() < 1e-9);
        assert!(parse_go_analysis("= ", true).is_none());
        assert!(parse_go_analysis("info visits 3", true).is_none());
    }
}
