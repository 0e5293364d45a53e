//! UCCI (xiangqi), controller side. The arena always turns on
//! `usemillisec`, so every time below is in milliseconds.

use super::{parse_info, tokens, SearchInfo};

/// Commands are the engine side's own types: one definition of UCCI's
/// messages, parsed by the engine and printed by the controller.
pub use crate::ucci::{Command, Go};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        key: String,
        value: String,
    },
    UcciOk,
    ReadyOk,
    Option(String),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// The engine has no move (it is mated or stalemated).
    NoBestMove,
    Info(SearchInfo),
    Bye,
    Other(String),
}

pub const INFO_KEYWORDS: &[&str] = &[
    "depth", "seldepth", "time", "nodes", "pv", "score", "currmove", "message", "string", "nps",
];

pub fn parse_reply(line: &str) -> Reply {
    let t = tokens(line);
    match t.first().copied() {
        Some("id") if t.len() >= 2 => Reply::Id {
            key: t[1].to_string(),
            value: t[2..].join(" "),
        },
        Some("ucciok") => Reply::UcciOk,
        Some("readyok") => Reply::ReadyOk,
        Some("option") => Reply::Option(t[1..].join(" ")),
        Some("bestmove") if t.len() >= 2 => Reply::BestMove {
            mv: t[1].to_string(),
            ponder: match (t.get(2), t.get(3)) {
                (Some(&"ponder"), Some(m)) => Some(m.to_string()),
                _ => None,
            },
        },
        Some("nobestmove") => Reply::NoBestMove,
        Some("bye") => Reply::Bye,
        Some("info") => Reply::Info(parse_info(&t[1..], INFO_KEYWORDS)),
        _ => Reply::Other(line.trim_end().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_follows_the_grammar() {
        let go = Go {
            time: Some(5000),
            increment: Some(100),
            opptime: Some(4000),
            oppincrement: Some(100),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_string(),
            "go time 5000 increment 100 opptime 4000 oppincrement 100"
        );
        let ponder = Go {
            ponder: true,
            time: Some(7),
            ..Go::default()
        };
        assert_eq!(Command::Go(ponder).to_string(), "go ponder time 7");
        let opt = Command::SetOption {
            name: "usemillisec".into(),
            value: Some("true".into()),
        };
        assert_eq!(opt.to_string(), "setoption usemillisec true");
    }

    #[test]
    fn parses_replies() {
        assert_eq!(parse_reply("nobestmove"), Reply::NoBestMove);
        assert_eq!(
            parse_reply("bestmove h2e2"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: None
            }
        );
        assert_eq!(parse_reply("ucciok"), Reply::UcciOk);
    }
}
