//! UCI, controller side: the commands a GUI prints and the replies it
//! reads (chess; the UCCI and USI dialects have their own files).

use super::{parse_info, tokens, SearchInfo};

/// Commands are the engine side's own types: one definition of UCI's
/// messages, parsed by the engine and printed by the controller.
pub use crate::uci::{Command, Go, Start};

/// A line from a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        key: String,
        value: String,
    },
    UciOk,
    ReadyOk,
    /// The option line, kept whole (the arena only lists them).
    Option(String),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    Info(SearchInfo),
    /// Anything else: banners, debug output, garbage.
    Other(String),
}

/// Field names that end a `pv` list on an `info` line.
pub const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
];

/// Parses one engine line. Never fails: unknown lines are `Other`.
pub fn parse_reply(line: &str) -> Reply {
    let t = tokens(line);
    match t.first().copied() {
        Some("id") if t.len() >= 2 => Reply::Id {
            key: t[1].to_string(),
            value: t[2..].join(" "),
        },
        Some("uciok") => Reply::UciOk,
        Some("readyok") => Reply::ReadyOk,
        Some("option") => Reply::Option(t[1..].join(" ")),
        Some("bestmove") if t.len() >= 2 => Reply::BestMove {
            mv: t[1].to_string(),
            ponder: match (t.get(2), t.get(3)) {
                (Some(&"ponder"), Some(m)) => Some(m.to_string()),
                _ => None,
            },
        },
        Some("info") => Reply::Info(parse_info(&t[1..], INFO_KEYWORDS)),
        _ => Reply::Other(line.trim_end().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::EngineScore;

    #[test]
    fn prints_commands_as_guis_do() {
        let pos = Command::Position {
            start: Start::StartPos,
            moves: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(pos.to_string(), "position startpos moves e2e4 e7e5");
        let fen = Command::Position {
            start: Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec![],
        };
        assert_eq!(fen.to_string(), "position fen 8/8/8/8/8/8/8/K6k w - - 0 1");
        let go = Command::Go(Go {
            wtime: Some(1000),
            btime: Some(900),
            winc: Some(10),
            binc: Some(10),
            ..Go::default()
        });
        assert_eq!(go.to_string(), "go wtime 1000 btime 900 winc 10 binc 10");
        let opt = Command::SetOption {
            name: "Skill Level".into(),
            value: Some("0".into()),
        };
        assert_eq!(opt.to_string(), "setoption name Skill Level value 0");
    }

    #[test]
    fn parses_replies() {
        assert_eq!(parse_reply("uciok\r"), Reply::UciOk);
        assert_eq!(
            parse_reply("bestmove e2e4 ponder e7e5"),
            Reply::BestMove {
                mv: "e2e4".into(),
                ponder: Some("e7e5".into())
            }
        );
        assert_eq!(
            parse_reply("bestmove  a7a8q"),
            Reply::BestMove {
                mv: "a7a8q".into(),
                ponder: None
            }
        );
        assert_eq!(
            parse_reply("id name Stockfish 15.1"),
            Reply::Id {
                key: "name".into(),
                value: "Stockfish 15.1".into()
            }
        );
        match parse_reply("info depth 3 score mate 2 pv a1a8 wdl 1000 0 0") {
            Reply::Info(i) => {
                assert_eq!(i.score, Some(EngineScore::Mate(2)));
                assert_eq!(i.pv, vec!["a1a8"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_reply("bestmove"), Reply::Other("bestmove".into()));
        assert_eq!(parse_reply(""), Reply::Other(String::new()));
    }
}
