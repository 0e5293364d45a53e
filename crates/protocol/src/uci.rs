//! UCI (April 2006 text plus the modern extensions): the commands a GUI
//! sends, parsed for the engine side, and printed for the host side.

use crate::grammar;
use crate::lexer::{int, tokens};
use std::fmt;

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

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
    SetOption { name: String, value: Option<String> },
    Register,
    UciNewGame,
    Position { start: Start, moves: Vec<String> },
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

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
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
        "setoption" => parse_setoption(line)?,
        "position" => parse_position(args)?,
        "go" => Command::Go(parse_go(args)?),
        _ => return Ok(None),
    }))
}

fn parse_setoption(line: &str) -> Result<Command, String> {
    let (name, value) = grammar::setoption(grammar::after_word(line, "setoption"))?;
    Ok(Command::SetOption { name, value })
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let moves_at = args.iter().position(|t| *t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves = moves_at
        .map(|i| args[i + 1..].iter().map(|s| s.to_string()).collect())
        .unwrap_or_default();
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => Start::StartPos,
        Some(&"startpos") => return Err(format!("unexpected '{}' after startpos", head[1])),
        Some(&"fen") if head.len() > 1 => Start::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err("position fen needs a FEN".into()),
        Some(other) => return Err(format!("position expects startpos or fen, got '{other}'")),
        None => return Err("position expects startpos or fen".into()),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1);
        let mut used = 2;
        match key {
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() && !GO_KEYWORDS.contains(&args[j]) {
                    // python-chess sends 0000 for "no restriction".
                    if args[j] != "0000" {
                        go.searchmoves.push(args[j].to_string());
                    }
                    j += 1;
                }
                used = j - i;
            }
            "ponder" => {
                go.ponder = true;
                used = 1;
            }
            "infinite" => {
                go.infinite = true;
                used = 1;
            }
            "wtime" => go.wtime = Some(int(key, val)?),
            "btime" => go.btime = Some(int(key, val)?),
            "winc" => go.winc = Some(int(key, val)?),
            "binc" => go.binc = Some(int(key, val)?),
            "movestogo" => go.movestogo = Some(int(key, val)?),
            "depth" => go.depth = Some(int(key, val)?),
            "nodes" => go.nodes = Some(int(key, val)?),
            "mate" => go.mate = Some(int(key, val)?),
            "movetime" => go.movetime = Some(int(key, val)?),
            "perft" => go.perft = Some(int(key, val)?),
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += used;
    }
    Ok(go)
}

impl fmt::Display for Go {
    /// Prints the parameters as a GUI sends them (host side).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        if self.ponder {
            write!(f, " ponder")?;
        }
        // i128 holds every field's range (nodes is a u64, clocks are i64)
        // without wrapping a large count to a negative one.
        let fields: [(&str, Option<i128>); 10] = [
            ("wtime", self.wtime.map(i128::from)),
            ("btime", self.btime.map(i128::from)),
            ("winc", self.winc.map(i128::from)),
            ("binc", self.binc.map(i128::from)),
            ("movestogo", self.movestogo.map(i128::from)),
            ("depth", self.depth.map(i128::from)),
            ("nodes", self.nodes.map(i128::from)),
            ("mate", self.mate.map(i128::from)),
            ("movetime", self.movetime.map(i128::from)),
            ("perft", self.perft.map(i128::from)),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if self.infinite {
            write!(f, " infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
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
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// A score as UCI prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    Cp(i32),
    Mate(i32),
}

/// Builds an `info` line field by field, in the order GUIs expect.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<usize>,
    pub score: Option<UciScore>,
    /// "lowerbound" or "upperbound".
    pub bound: Option<&'static str>,
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub time: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<usize>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
            if let Some(s) = self.seldepth {
                write!(f, " seldepth {s}")?;
            }
        }
        if let Some(m) = self.multipv {
            write!(f, " multipv {m}")?;
        }
        match self.score {
            Some(UciScore::Cp(v)) => write!(f, " score cp {v}")?,
            Some(UciScore::Mate(v)) => write!(f, " score mate {v}")?,
            None => {}
        }
        if let (Some(b), Some(_)) = (self.bound, self.score) {
            write!(f, " {b}")?;
        }
        if let Some((w, d, l)) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(n) = self.nps {
            write!(f, " nps {n}")?;
        }
        if let Some(h) = self.hashfull {
            write!(f, " hashfull {h}")?;
        }
        if let Some(t) = self.tbhits {
            write!(f, " tbhits {t}")?;
        }
        if let Some(t) = self.time {
            write!(f, " time {t}")?;
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(s) = &self.string {
            // `string` must be last and must not break the line.
            write!(f, " string {}", s.replace(['\n', '\r'], " "))?;
        }
        Ok(())
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
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()],
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1").unwrap(),
            Some(Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
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
            score: Some(UciScore::Mate(-2)),
            bound: Some("lowerbound"),
            nodes: Some(100),
            time: Some(3),
            pv: vec!["e2e4".into()],
            ..Default::default()
        };
        assert_eq!(
            info.to_string(),
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
