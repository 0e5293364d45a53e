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
    /// `draw` and `resign` are UCCI's trailing flags: an offer of a draw
    /// with this move, and a resignation instead of it.
    BestMove {
        mv: String,
        ponder: Option<String>,
        draw: bool,
        resign: bool,
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
        Some("bestmove") if t.len() >= 2 => {
            // The flags are read wherever they stand after the move: an
            // engine that puts `draw` before `ponder` still offers it, and
            // an unknown word must not hide a `resign` behind it.
            let rest = &t[2..];
            let ponder = rest
                .iter()
                .position(|w| *w == "ponder")
                .and_then(|i| rest.get(i + 1))
                .filter(|m| !matches!(**m, "draw" | "resign"))
                .map(|m| m.to_string());
            Reply::BestMove {
                mv: t[1].to_string(),
                ponder,
                draw: rest.contains(&"draw"),
                resign: rest.contains(&"resign"),
            }
        }
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
                ponder: None,
                draw: false,
                resign: false,
            }
        );
        assert_eq!(parse_reply("ucciok"), Reply::UcciOk);
        // The flags the arena once dropped: a draw offer with a ponder
        // move, and a resignation.
        assert_eq!(
            parse_reply("bestmove h2e2 ponder h9g7 draw"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: Some("h9g7".into()),
                draw: true,
                resign: false,
            }
        );
        assert_eq!(
            parse_reply("bestmove h2e2 resign"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: None,
                draw: false,
                resign: true,
            }
        );
    }
}
