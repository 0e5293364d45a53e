//! UCCI (xiangqi), controller side. The arena always turns on
//! `usemillisec`, so every time below is in milliseconds.

use super::{parse_info, tokens, SearchInfo};
use std::fmt;

/// Clock fields of a UCCI `go`: our clock first, the opponent's after.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `go ponder`: think on the opponent's time until `ponderhit`.
    pub ponder: bool,
    pub time: Option<u64>,
    pub movestogo: Option<u32>,
    pub increment: Option<u64>,
    pub opptime: Option<u64>,
    pub oppmovestogo: Option<u32>,
    pub oppincrement: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ucci,
    IsReady,
    /// UCCI options have no `name`/`value` keywords.
    SetOption {
        name: String,
        value: String,
    },
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    BanMoves(Vec<String>),
    Go(Go),
    Stop,
    Quit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ucci => f.write_str("ucci"),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => write!(f, "setoption {name} {value}"),
            Command::Position { fen, moves } => {
                match fen {
                    Some(fen) => write!(f, "position fen {fen}")?,
                    None => f.write_str("position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::BanMoves(moves) => write!(f, "banmoves {}", moves.join(" ")),
            Command::Go(go) => {
                f.write_str("go")?;
                if go.ponder {
                    f.write_str(" ponder")?;
                }
                if let Some(d) = go.depth {
                    return write!(f, " depth {d}");
                }
                if let Some(n) = go.nodes {
                    return write!(f, " nodes {n}");
                }
                // The grammar allows one of movestogo/increment per clock.
                if let Some(t) = go.time {
                    write!(f, " time {t}")?;
                    if let Some(m) = go.movestogo {
                        write!(f, " movestogo {m}")?;
                    } else if let Some(i) = go.increment {
                        write!(f, " increment {i}")?;
                    }
                }
                if let Some(t) = go.opptime {
                    write!(f, " opptime {t}")?;
                    if let Some(m) = go.oppmovestogo {
                        write!(f, " oppmovestogo {m}")?;
                    } else if let Some(i) = go.oppincrement {
                        write!(f, " oppincrement {i}")?;
                    }
                }
                Ok(())
            }
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

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
            value: "true".into(),
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
