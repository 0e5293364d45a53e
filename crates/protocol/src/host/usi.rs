//! USI (shogi), controller side. Note the colours: `b` is sente (black,
//! moves first), `w` is gote.

use super::{parse_info, tokens, SearchInfo};

/// Commands are the engine side's own types: one definition of USI's
/// messages, parsed by the engine and printed by the controller.
pub use crate::usi::{Command, GameResult, Go};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        key: String,
        value: String,
    },
    UsiOk,
    ReadyOk,
    Option(String),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: an entering-king declaration.
    Win,
    Info(SearchInfo),
    Other(String),
}

pub const INFO_KEYWORDS: &[&str] = &[
    "depth", "seldepth", "time", "nodes", "pv", "multipv", "score", "currmove", "hashfull", "nps",
    "string",
];

pub fn parse_reply(line: &str) -> Reply {
    let t = tokens(line);
    match t.first().copied() {
        Some("id") if t.len() >= 2 => Reply::Id {
            key: t[1].to_string(),
            value: t[2..].join(" "),
        },
        Some("usiok") => Reply::UsiOk,
        Some("readyok") => Reply::ReadyOk,
        Some("option") => Reply::Option(t[1..].join(" ")),
        Some("bestmove") if t.len() >= 2 => match t[1] {
            "resign" => Reply::Resign,
            "win" => Reply::Win,
            mv => Reply::BestMove {
                mv: mv.to_string(),
                ponder: match (t.get(2), t.get(3)) {
                    (Some(&"ponder"), Some(m)) => Some(m.to_string()),
                    _ => None,
                },
            },
        },
        Some("info") => Reply::Info(parse_info(&t[1..], INFO_KEYWORDS)),
        _ => Reply::Other(line.trim_end().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let go = Go {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(1000),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_string(),
            "go btime 0 wtime 0 byoyomi 1000"
        );
        assert_eq!(
            Command::GameOver(Some(GameResult::Lose)).to_string(),
            "gameover lose"
        );
        let ponder = Go {
            ponder: true,
            btime: Some(5),
            wtime: Some(6),
            ..Go::default()
        };
        assert_eq!(Command::Go(ponder).to_string(), "go ponder btime 5 wtime 6");
        assert_eq!(parse_reply("bestmove resign"), Reply::Resign);
        assert_eq!(parse_reply("bestmove win"), Reply::Win);
        assert_eq!(
            parse_reply("bestmove 7g7f ponder 3c3d"),
            Reply::BestMove {
                mv: "7g7f".into(),
                ponder: Some("3c3d".into())
            }
        );
        let pos = Command::Position {
            sfen: None,
            moves: vec!["7g7f".into()],
        };
        assert_eq!(pos.to_string(), "position startpos moves 7g7f");
    }
}
