//! UCI (April 2006 text plus the modern extensions): the commands a GUI
//! sends, parsed for the engine side, and printed for the host side.

use crate::grammar::{self, Arity, Dialect, GoOut};
use crate::lexer::tokens;
use std::fmt;

pub use crate::grammar::{Bound, Info, OptionType, Score};

/// The fields of `go`. Times are in milliseconds and may be negative from
/// sloppy GUIs; the engine clamps them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    /// `go perft N`, the Stockfish extension for move-generator checks.
    pub perft: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `fen` is `None` for `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// UCI's `go` keywords and what follows each.
pub const GO_KEYWORDS: &[(&str, Arity)] = &[
    ("searchmoves", Arity::List),
    ("ponder", Arity::Flag),
    ("wtime", Arity::One),
    ("btime", Arity::One),
    ("winc", Arity::One),
    ("binc", Arity::One),
    ("movestogo", Arity::One),
    ("depth", Arity::One),
    ("nodes", Arity::One),
    ("mate", Arity::One),
    ("movetime", Arity::One),
    ("infinite", Arity::Flag),
    ("perft", Arity::One),
];

/// Parses one line. `Ok(None)`: nothing to do (blank line, or no known
/// command word anywhere: the spec says to skip unknown tokens).
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let toks = tokens(line);
    let Some(start) = toks.iter().position(|t| COMMANDS.contains(t)) else {
        return Ok(None);
    };
    let cmd = toks[start];
    let args = &toks[start + 1..];
    Ok(Some(match cmd {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "debug" => match args.first() {
            Some(&"on") | None => Command::Debug(true),
            Some(&"off") => Command::Debug(false),
            Some(other) => return Err(format!("debug expects on or off, got '{other}'")),
        },
        "setoption" => {
            let (name, value) = grammar::setoption(grammar::after_word(line, "setoption"))?;
            Command::SetOption { name, value }
        }
        "position" => {
            let (fen, moves) = grammar::position("position", args, Dialect::Uci)?;
            Command::Position { fen, moves }
        }
        "go" => Command::Go(parse_go(args)?),
        _ => return Ok(None),
    }))
}

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    grammar::go(args, GO_KEYWORDS, |(key, words)| {
        match key {
            // python-chess sends 0000 for "no restriction".
            "searchmoves" => {
                go.searchmoves = words
                    .iter()
                    .filter(|w| **w != "0000")
                    .map(|w| w.to_string())
                    .collect()
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = Some(grammar::number(key, words)?),
            "btime" => go.btime = Some(grammar::number(key, words)?),
            "winc" => go.winc = Some(grammar::number(key, words)?),
            "binc" => go.binc = Some(grammar::number(key, words)?),
            "movestogo" => go.movestogo = Some(grammar::number(key, words)?),
            "depth" => go.depth = Some(grammar::number(key, words)?),
            "nodes" => go.nodes = Some(grammar::number(key, words)?),
            "mate" => go.mate = Some(grammar::number(key, words)?),
            "movetime" => go.movetime = Some(grammar::number(key, words)?),
            _ => go.perft = Some(grammar::number(key, words)?),
        }
        Ok(())
    })?;
    Ok(go)
}

impl fmt::Display for Go {
    /// Prints the parameters as a GUI sends them (host side).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |v: Option<i64>| GoOut::Num(v.map(i128::from));
        grammar::write_go(
            f,
            &[
                ("ponder", GoOut::Flag(self.ponder)),
                ("wtime", n(self.wtime)),
                ("btime", n(self.btime)),
                ("winc", n(self.winc)),
                ("binc", n(self.binc)),
                ("movestogo", GoOut::Num(self.movestogo.map(i128::from))),
                ("depth", GoOut::Num(self.depth.map(i128::from))),
                ("nodes", GoOut::Num(self.nodes.map(i128::from))),
                ("mate", GoOut::Num(self.mate.map(i128::from))),
                ("movetime", n(self.movetime)),
                ("perft", GoOut::Num(self.perft.map(i128::from))),
                ("infinite", GoOut::Flag(self.infinite)),
                ("searchmoves", GoOut::List(&self.searchmoves)),
            ],
        )
    }
}

impl fmt::Display for Command {
    /// Prints the command as a GUI sends it (the host side); `parse` reads
    /// it back to an equal command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Register => f.write_str("register later"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { fen, moves } => {
                grammar::write_position(f, "position", Dialect::Uci, fen, moves)
            }
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// A line from a UCI engine: printed by the engine, read by a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name …`, `id author …`.
    Id {
        key: String,
        value: String,
    },
    UciOk,
    ReadyOk,
    Option {
        name: String,
        kind: OptionType,
    },
    /// `mv` is `(none)` (or `0000`) when there is no legal move.
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    Info(Info),
    /// Anything else: banners, debug output, garbage (kept whole).
    Unknown(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { key, value } => write!(f, "id {key} {}", grammar::one_line(value)),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Option { name, kind } => grammar::write_option(f, Dialect::Uci, name, kind),
            Reply::BestMove { mv, ponder } => {
                write!(f, "bestmove {mv}")?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            Reply::Info(info) => info.write(f, Dialect::Uci),
            Reply::Unknown(line) => f.write_str(line),
        }
    }
}

/// Parses one engine line (host side: the arena reads UCI engines with
/// it). Never fails: what it cannot read becomes [`Reply::Unknown`].
pub fn parse_reply(line: &str) -> Reply {
    let line = grammar::trim_blanks(line);
    let t = tokens(line);
    match t.as_slice() {
        ["id", key, ..] => Reply::Id {
            key: key.to_string(),
            value: grammar::rest_of_line(line, t[1]).to_string(),
        },
        ["uciok"] => Reply::UciOk,
        ["readyok"] => Reply::ReadyOk,
        ["option", ..] => match grammar::parse_option(line) {
            Some((name, kind)) => Reply::Option { name, kind },
            None => Reply::Unknown(line.to_string()),
        },
        ["bestmove", mv, rest @ ..] => Reply::BestMove {
            mv: mv.to_string(),
            ponder: match rest {
                ["ponder", p, ..] => Some(p.to_string()),
                _ => None,
            },
        },
        ["info", ..] => Reply::Info(Info::parse(line)),
        _ => Reply::Unknown(line.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_count_beyond_i64_prints_back_unchanged() {
        // Found by the uci_line fuzz target: the count was printed through
        // an i64 cast as a negative number, which no longer parsed.
        let line = "go nodes 12458222611133191510";
        let Ok(Some(Command::Go(go))) = parse(line) else {
            panic!("{line} did not parse");
        };
        assert_eq!(go.nodes, Some(12_458_222_611_133_191_510));
        assert_eq!(go.to_string(), line);
    }

    #[test]
    fn parses_position_and_go() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5").unwrap(),
            Some(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()],
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1").unwrap(),
            Some(Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![],
            })
        );
        let Some(Command::Go(go)) =
            parse("go wtime -5 btime 300 winc 10 searchmoves e2e4 d2d4 depth 3").unwrap()
        else {
            panic!("not a go")
        };
        assert_eq!(go.wtime, Some(-5));
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
        let Some(Command::Go(go)) = parse("go searchmoves 0000").unwrap() else {
            panic!("not a go")
        };
        assert!(go.searchmoves.is_empty());
    }

    #[test]
    fn setoption_names_and_values_keep_spaces() {
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption  name Book File value C:/my books/a.bin").unwrap(),
            Some(Command::SetOption {
                name: "Book File".into(),
                value: Some("C:/my books/a.bin".into())
            })
        );
    }

    #[test]
    fn skips_unknown_leading_tokens_and_rejects_garbage() {
        assert_eq!(parse("joho debug on").unwrap(), Some(Command::Debug(true)));
        assert_eq!(parse("   \t ").unwrap(), None);
        assert_eq!(parse("xyzzy").unwrap(), None);
        assert!(parse("go depth x").is_err());
        assert!(parse("go wtime").is_err());
        assert!(parse("go depth 99999999999999").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn go_round_trips_through_display() {
        let line = "go ponder wtime 1000 btime 900 winc 10 binc 10 movestogo 5 infinite";
        let Some(Command::Go(go)) = parse(line).unwrap() else {
            panic!("not a go")
        };
        assert_eq!(go.to_string(), line);
    }

    #[test]
    fn commands_round_trip_through_display() {
        for line in [
            "uci",
            "debug off",
            "isready",
            "setoption name Skill Level value 0",
            "setoption name Clear Hash",
            "ucinewgame",
            "position startpos moves e2e4 e7e5",
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1",
            "go wtime 1000 btime 900 winc 10 binc 10",
            "stop",
            "ponderhit",
            "quit",
        ] {
            let cmd = parse(line).unwrap().unwrap();
            assert_eq!(cmd.to_string(), line);
        }
    }

    #[test]
    fn info_prints_fields_in_order() {
        let info = Info {
            depth: Some(5),
            seldepth: Some(7),
            multipv: Some(1),
            score: Some(Score::Mate(-2)),
            bound: Some(Bound::Lower),
            nodes: Some(100),
            time: Some(3),
            pv: vec!["e2e4".into()],
            ..Default::default()
        };
        assert_eq!(
            Reply::Info(info).to_string(),
            "info depth 5 seldepth 7 multipv 1 score mate -2 lowerbound nodes 100 time 3 pv e2e4"
        );
    }

    #[test]
    fn never_panics_on_random_lines() {
        let words = [
            "go",
            "position",
            "fen",
            "startpos",
            "moves",
            "setoption",
            "name",
            "value",
            "depth",
            "wtime",
            "-1",
            "99999999999999999999",
            "searchmoves",
            "\u{0}",
            "é",
            "",
            "debug",
        ];
        let mut x: u64 = 0x1234_5678;
        for _ in 0..20_000 {
            let mut line = String::new();
            for _ in 0..(x % 9) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                line.push_str(words[(x % words.len() as u64) as usize]);
                line.push(' ');
            }
            let _ = parse(&line);
        }
    }
}
