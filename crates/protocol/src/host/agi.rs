//! AGI (gomoku/renju), GUI side. Points are two hex digits, row `0`–`E`
//! then column `1`–`F`; positions and move lists are points run together.

use super::{tokens, EngineScore, SearchInfo};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Agi,
    /// The rule words as they go on the wire, e.g. `FORBIDDEN`.
    SetRule(Vec<String>),
    IsReady,
    /// Moves in the order played, black first.
    Position {
        moves: Vec<String>,
    },
    /// Remaining game time in ms; `None` is a bare `GO`.
    Go {
        time_ms: Option<u64>,
    },
    Stop,
    Quit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Agi => f.write_str("AGI"),
            Command::SetRule(words) => write!(f, "SETRULE {}", words.join(" ")),
            Command::IsReady => f.write_str("ISREADY"),
            Command::Position { moves } if moves.is_empty() => f.write_str("POSITION"),
            Command::Position { moves } => write!(f, "POSITION MOVES {}", moves.concat()),
            Command::Go { time_ms: Some(t) } => write!(f, "GO TIME {t}"),
            Command::Go { time_ms: None } => f.write_str("GO"),
            Command::Stop => f.write_str("STOP"),
            Command::Quit => f.write_str("QUIT"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        key: String,
        value: String,
    },
    Option(String),
    AgiOk,
    ReadyOk,
    Info(SearchInfo),
    BestMove(String),
    /// `BESTMOVE CHANGE`: the engine takes the colour swap.
    Change,
    Bye,
    Other(String),
}

pub fn parse_reply(line: &str) -> Reply {
    let t = tokens(line);
    let upper: Vec<String> = t.iter().map(|s| s.to_ascii_uppercase()).collect();
    match upper.first().map(String::as_str) {
        Some("ID") if t.len() >= 2 => Reply::Id {
            key: upper[1].clone(),
            value: t[2..].join(" "),
        },
        Some("OPTION") => Reply::Option(t[1..].join(" ")),
        Some("AGIOK") => Reply::AgiOk,
        Some("READYOK") => Reply::ReadyOk,
        Some("BYE") => Reply::Bye,
        Some("BESTMOVE") if t.len() >= 2 => {
            if upper[1] == "CHANGE" {
                Reply::Change
            } else {
                Reply::BestMove(upper[1].clone())
            }
        }
        Some("INFO") => {
            let mut info = SearchInfo::default();
            let mut i = 1;
            while i + 1 < t.len() {
                match upper[i].as_str() {
                    "DEPTH" => info.depth = t[i + 1].parse().ok(),
                    "SCORE" => info.score = t[i + 1].parse().ok().map(EngineScore::Cp),
                    "NPS" => info.nps = t[i + 1].parse().ok(),
                    "PV" => info.pv = vec![upper[i + 1].clone()],
                    _ => {}
                }
                i += 2;
            }
            Reply::Info(info)
        }
        _ => Reply::Other(line.trim_end().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let pos = Command::Position {
            moves: vec!["78".into(), "68".into(), "69".into()],
        };
        assert_eq!(pos.to_string(), "POSITION MOVES 786869");
        assert_eq!(
            Command::Go {
                time_ms: Some(5000)
            }
            .to_string(),
            "GO TIME 5000"
        );
        assert_eq!(parse_reply("bestmove 7a"), Reply::BestMove("7A".into()));
        assert_eq!(parse_reply("BESTMOVE CHANGE"), Reply::Change);
        match parse_reply("INFO DEPTH 5 SCORE -40") {
            Reply::Info(i) => {
                assert_eq!(i.depth, Some(5));
                assert_eq!(i.score, Some(EngineScore::Cp(-40)));
            }
            other => panic!("{other:?}"),
        }
    }
}
