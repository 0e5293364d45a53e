//! UCCI (xiangqi), engine side: the GUI's commands parsed, the engine's
//! replies printed. Moves travel as strings; the game crate checks them.
//! (The controller side, for the arena, is in `host::ucci`.)

use crate::grammar::{self, Arity, Dialect, GoOut};
use crate::lexer::tokens;
use std::fmt;

pub use crate::grammar::{Bound, Info, OptionType, Score};

/// A parsed `go`. Times are in the GUI's unit (seconds, or milliseconds
/// after `setoption usemillisec true`); the front-end converts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub ponder: bool,
    /// The opponent offers a draw with this move.
    pub draw: bool,
    pub depth: Option<u32>,
    /// `go infinite` or `go depth infinite`.
    pub infinite: bool,
    pub nodes: Option<u64>,
    pub time: Option<u64>,
    pub movestogo: Option<u32>,
    pub increment: Option<u64>,
    pub opptime: Option<u64>,
    pub oppmovestogo: Option<u32>,
    pub oppincrement: Option<u64>,
    /// `go perft N`: count the move tree instead of searching.
    pub perft: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ucci,
    IsReady,
    /// Name in lower case; value the rest of the line, if any.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `fen` is `None` for `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    BanMoves(Vec<String>),
    Go(Go),
    PonderHit {
        draw: bool,
    },
    Stop,
    Probe {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Quit,
    /// A command UCCI does not define (ignored by the engine).
    Unknown(String),
}

/// Parses one line. `Ok(None)` for a blank line; `Err` names what is
/// malformed in a known command (which then changes nothing).
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let toks = tokens(line);
    let Some(&word) = toks.first() else {
        return Ok(None);
    };
    let rest = &toks[1..];
    let cmd = match word {
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(rest)?,
        "position" => {
            let (fen, moves) = grammar::position("position", rest, Dialect::Ucci)?;
            Command::Position { fen, moves }
        }
        "probe" => {
            let (fen, moves) = grammar::position("probe", rest, Dialect::Ucci)?;
            Command::Probe { fen, moves }
        }
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
        "go" => Command::Go(parse_go(rest)?),
        "ponderhit" => match rest {
            [] => Command::PonderHit { draw: false },
            ["draw"] => Command::PonderHit { draw: true },
            _ => {
                return Err(format!(
                    "ponderhit takes only 'draw', got '{}'",
                    rest.join(" ")
                ))
            }
        },
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        other => Command::Unknown(other.to_string()),
    };
    Ok(Some(cmd))
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    // The UCI form `setoption name X value Y` is tolerated (cchess sends it).
    if rest.first() == Some(&"name") {
        // Names are read in any case (and kept lowercased), so is the
        // first `value` keyword: a name printed lowercased must not gain
        // one.
        let mut words = rest.to_vec();
        if let Some(w) = words.iter_mut().find(|w| w.eq_ignore_ascii_case("value")) {
            *w = "value";
        }
        let (name, value) = grammar::setoption(&words.join(" "))?;
        return Ok(Command::SetOption {
            name: name.to_ascii_lowercase(),
            value,
        });
    }
    let Some(name) = rest.first() else {
        return Err("setoption needs an option name".into());
    };
    let value = (rest.len() > 1).then(|| rest[1..].join(" "));
    Ok(Command::SetOption {
        name: name.to_ascii_lowercase(),
        value,
    })
}

/// UCCI's `go` keywords and what follows each.
pub const GO_KEYWORDS: &[(&str, Arity)] = &[
    ("ponder", Arity::Flag),
    ("draw", Arity::Flag),
    ("infinite", Arity::Flag),
    ("depth", Arity::One),
    ("nodes", Arity::One),
    ("time", Arity::One),
    ("movestogo", Arity::One),
    ("increment", Arity::One),
    ("opptime", Arity::One),
    ("oppmovestogo", Arity::One),
    ("oppincrement", Arity::One),
    ("perft", Arity::One),
];

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    grammar::go(rest, GO_KEYWORDS, |(key, words)| {
        // GUIs send negative times when a flag has fallen (or a clock
        // was overdrawn by lag); they count as zero.
        let clock = || grammar::number::<i64>(key, words).map(|v| v.max(0) as u64);
        match key {
            "ponder" => go.ponder = true,
            "draw" => go.draw = true,
            "infinite" => go.infinite = true,
            "depth" if words == ["infinite"] => go.infinite = true,
            "depth" => go.depth = Some(grammar::number(key, words)?),
            "nodes" => go.nodes = Some(grammar::number(key, words)?),
            "time" => go.time = Some(clock()?),
            "movestogo" => go.movestogo = Some(grammar::number(key, words)?),
            "increment" => go.increment = Some(clock()?),
            "opptime" => go.opptime = Some(clock()?),
            "oppmovestogo" => go.oppmovestogo = Some(grammar::number(key, words)?),
            "oppincrement" => go.oppincrement = Some(clock()?),
            _ => go.perft = Some(grammar::number(key, words)?),
        }
        Ok(())
    })?;
    if go.ponder && go.draw {
        return Err("go: 'ponder' and 'draw' never come together".into());
    }
    Ok(go)
}

impl fmt::Display for Go {
    /// Every field that is set, in an order [`parse`] reads back. Which
    /// fields a host sets is its choice: UCCI's grammar wants one mode
    /// (`depth`, `nodes` or the clocks) and one of `movestogo`/`increment`
    /// per clock, which the arena keeps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |v: Option<u64>| GoOut::Num(v.map(i128::from));
        grammar::write_go(
            f,
            &[
                ("ponder", GoOut::Flag(self.ponder)),
                ("draw", GoOut::Flag(self.draw)),
                ("infinite", GoOut::Flag(self.infinite)),
                ("depth", n(self.depth.map(u64::from))),
                ("nodes", n(self.nodes)),
                ("time", n(self.time)),
                ("movestogo", n(self.movestogo.map(u64::from))),
                ("increment", n(self.increment)),
                ("opptime", n(self.opptime)),
                ("oppmovestogo", n(self.oppmovestogo.map(u64::from))),
                ("oppincrement", n(self.oppincrement)),
                ("perft", n(self.perft.map(u64::from))),
            ],
        )
    }
}

impl fmt::Display for Command {
    /// The command as a host sends it (UCCI's own `setoption` form, with
    /// no `name`/`value` keywords).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ucci => f.write_str("ucci"),
            Command::IsReady => f.write_str("isready"),
            // A name UCCI's one-word form cannot carry (it came in the UCI
            // form the parser tolerates) goes back in that form.
            Command::SetOption { name, value }
                if name == "name" || name.contains(|c: char| c.is_ascii_whitespace()) =>
            {
                match value {
                    Some(v) => write!(f, "setoption name {name} value {v}"),
                    None => write!(f, "setoption name {name}"),
                }
            }
            Command::SetOption { name, value } => match value {
                Some(v) => write!(f, "setoption {name} {v}"),
                None => write!(f, "setoption {name}"),
            },
            Command::Position { fen, moves } => {
                grammar::write_position(f, "position", Dialect::Ucci, fen, moves)
            }
            Command::BanMoves(moves) => write!(f, "banmoves {}", moves.join(" ")),
            Command::Go(go) => write!(f, "{go}"),
            Command::PonderHit { draw: false } => f.write_str("ponderhit"),
            Command::PonderHit { draw: true } => f.write_str("ponderhit draw"),
            Command::Stop => f.write_str("stop"),
            Command::Probe { fen, moves } => {
                grammar::write_position(f, "probe", Dialect::Ucci, fen, moves)
            }
            Command::Quit => f.write_str("quit"),
            Command::Unknown(word) => f.write_str(word),
        }
    }
}

/// What the engine prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name|copyright|author|user <text>`
    Id {
        kind: &'static str,
        text: String,
    },
    Option {
        name: String,
        kind: OptionType,
    },
    UcciOk,
    ReadyOk,
    Info(Info),
    BestMove {
        mv: String,
        ponder: Option<String>,
        draw: bool,
        resign: bool,
    },
    NoBestMove,
    PopHash(PopHash),
    Bye,
    /// A line the host side cannot read (kept whole, printed back as is):
    /// a stray line from an engine must never end a match.
    Unknown(String),
}

/// A `pophash` reply; all empty prints a bare `pophash`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PopHash {
    pub bestmove: Option<String>,
    pub lowerbound: Option<(i32, u32)>,
    pub upperbound: Option<(i32, u32)>,
}

use grammar::one_line;

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { kind, text } => write!(f, "id {kind} {}", one_line(text)),
            Reply::Option { name, kind } => grammar::write_option(f, Dialect::Ucci, name, kind),
            Reply::UcciOk => f.write_str("ucciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => info.write(f, Dialect::Ucci),
            Reply::BestMove {
                mv,
                ponder,
                draw,
                resign,
            } => {
                write!(f, "bestmove {mv}")?;
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                if *draw {
                    f.write_str(" draw")?;
                }
                if *resign {
                    f.write_str(" resign")?;
                }
                Ok(())
            }
            Reply::NoBestMove => f.write_str("nobestmove"),
            Reply::PopHash(p) => {
                f.write_str("pophash")?;
                if let Some(m) = &p.bestmove {
                    write!(f, " bestmove {m}")?;
                }
                if let Some((v, d)) = p.lowerbound {
                    write!(f, " lowerbound {v} depth {d}")?;
                }
                if let Some((v, d)) = p.upperbound {
                    write!(f, " upperbound {v} depth {d}")?;
                }
                Ok(())
            }
            Reply::Bye => f.write_str("bye"),
            Reply::Unknown(line) => f.write_str(line),
        }
    }
}

/// Parses one engine line (host side: the arena reads UCCI engines with
/// it). Never fails: what it cannot read becomes [`Reply::Unknown`].
pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim_matches(|c: char| c.is_ascii_whitespace());
    let t = tokens(line);
    let unknown = || Reply::Unknown(line.to_string());
    match t.as_slice() {
        ["id", kind, rest @ ..] => {
            let kind = match *kind {
                "name" => "name",
                "copyright" => "copyright",
                "author" => "author",
                "user" => "user",
                _ => return unknown(),
            };
            Reply::Id {
                kind,
                text: if rest.is_empty() {
                    String::new()
                } else {
                    grammar::rest_of_line(line, t[1]).to_string()
                },
            }
        }
        ["option", ..] => match grammar::parse_option(line) {
            Some((name, kind)) => Reply::Option { name, kind },
            None => unknown(),
        },
        ["ucciok"] => Reply::UcciOk,
        ["readyok"] => Reply::ReadyOk,
        ["nobestmove", ..] => Reply::NoBestMove,
        ["bye"] => Reply::Bye,
        // The flags are read wherever they stand after the move: an engine
        // that puts `draw` before `ponder` still offers it, and an unknown
        // word must not hide a `resign` behind it.
        ["bestmove", mv, rest @ ..] => Reply::BestMove {
            mv: mv.to_string(),
            ponder: rest
                .iter()
                .position(|w| *w == "ponder")
                .and_then(|i| rest.get(i + 1))
                .filter(|m| !matches!(**m, "draw" | "resign"))
                .map(|m| m.to_string()),
            draw: rest.contains(&"draw"),
            resign: rest.contains(&"resign"),
        },
        ["pophash", rest @ ..] => {
            let mut p = PopHash::default();
            let mut i = 0;
            while i < rest.len() {
                let bound = || {
                    let v = rest.get(i + 1)?.parse().ok()?;
                    (rest.get(i + 2) == Some(&"depth")).then_some(())?;
                    Some((v, rest.get(i + 3)?.parse().ok()?))
                };
                match rest[i] {
                    "bestmove" => p.bestmove = rest.get(i + 1).map(|m| m.to_string()),
                    "lowerbound" => p.lowerbound = bound(),
                    "upperbound" => p.upperbound = bound(),
                    _ => {}
                }
                i += 1;
            }
            Reply::PopHash(p)
        }
        ["info", ..] => Reply::Info(Info::parse(line)),
        _ => unknown(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_form_setoption_value_keyword_in_any_case() {
        // Found by the ucci_command fuzz target: the name is lowercased,
        // so `vAlue` inside it became the keyword once printed, and the
        // command read back as another one. The keyword is now found in
        // any case, as UCCI reads names.
        for line in ["setoption name X vAlue Y", "setoption name X VALUE Y"] {
            let cmd = parse(line).unwrap().unwrap();
            assert_eq!(
                cmd,
                Command::SetOption {
                    name: "x".into(),
                    value: Some("Y".into())
                },
                "{line}"
            );
            assert_eq!(parse(&cmd.to_string()).unwrap(), Some(cmd));
        }
        // Only the first keyword: the value keeps its words and case.
        let cmd = parse("setoption name X value a VALUE b").unwrap().unwrap();
        assert_eq!(
            cmd,
            Command::SetOption {
                name: "x".into(),
                value: Some("a VALUE b".into())
            }
        );
    }

    fn p(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn commands() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("  \t ").unwrap(), None);
        assert_eq!(p("ucci"), Command::Ucci);
        assert_eq!(p("isready\r"), Command::IsReady);
        assert_eq!(
            p("setoption usemillisec true"),
            Command::SetOption {
                name: "usemillisec".into(),
                value: Some("true".into())
            }
        );
        assert_eq!(
            p("setoption newgame"),
            Command::SetOption {
                name: "newgame".into(),
                value: None
            }
        );
        assert_eq!(
            p("setoption bookfiles a.obk;b.obk c"),
            Command::SetOption {
                name: "bookfiles".into(),
                value: Some("a.obk;b.obk c".into())
            }
        );
        assert_eq!(
            p("setoption name Hashsize value 64"),
            Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            p("position startpos"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
        assert_eq!(
            p("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7"),
            Command::Position {
                fen: Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into()),
                moves: vec!["h2e2".into(), "h9g7".into()]
            }
        );
        assert_eq!(
            p("banmoves e2e6 h0g2"),
            Command::BanMoves(vec!["e2e6".into(), "h0g2".into()])
        );
        assert_eq!(p("ponderhit"), Command::PonderHit { draw: false });
        assert_eq!(p("ponderhit draw"), Command::PonderHit { draw: true });
        assert_eq!(p("stop"), Command::Stop);
        assert_eq!(p("quit"), Command::Quit);
        assert_eq!(
            p("probe startpos moves h2e2"),
            Command::Probe {
                fen: None,
                moves: vec!["h2e2".into()]
            }
        );
        assert_eq!(p("xyzzy 1 2"), Command::Unknown("xyzzy".into()));
    }

    #[test]
    fn go_grammar() {
        let Command::Go(g) = p("go time 300000 increment 2000 opptime 300000 oppincrement 2000")
        else {
            panic!()
        };
        assert_eq!(
            (g.time, g.increment, g.opptime, g.oppincrement),
            (Some(300000), Some(2000), Some(300000), Some(2000))
        );
        let Command::Go(g) = p("go ponder time 30 movestogo 10 opptime 20 oppmovestogo 5") else {
            panic!()
        };
        assert!(g.ponder && !g.draw);
        assert_eq!((g.movestogo, g.oppmovestogo), (Some(10), Some(5)));
        let Command::Go(g) = p("go draw depth 8") else {
            panic!()
        };
        assert!(g.draw);
        assert_eq!(g.depth, Some(8));
        let Command::Go(g) = p("go depth infinite") else {
            panic!()
        };
        assert!(g.infinite);
        let Command::Go(g) = p("go infinite") else {
            panic!()
        };
        assert!(g.infinite);
        let Command::Go(g) = p("go nodes 5000") else {
            panic!()
        };
        assert_eq!(g.nodes, Some(5000));
        let Command::Go(g) = p("go") else { panic!() };
        assert_eq!(g, Go::default());
        let Command::Go(g) = p("go perft 3") else {
            panic!()
        };
        assert_eq!(g.perft, Some(3));
        let Command::Go(g) = p("go time -140 increment 100 opptime -5") else {
            panic!()
        };
        assert_eq!(
            (g.time, g.opptime),
            (Some(0), Some(0)),
            "negative clocks count as zero"
        );
        for bad in [
            "go depth",
            "go depth x",
            "go depth -1",
            "go time x",
            "go nodes 1e9",
            "go sideways 3",
            "go ponder draw time 5",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_commands_are_errors() {
        for bad in [
            "position",
            "position fen",
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 moves e0e1",
            "position startpos extra",
            "position moves h2e2",
            "probe",
            "setoption",
            "setoption name",
            "ponderhit now",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replies() {
        let r = |x: Reply| x.to_string();
        assert_eq!(
            r(Reply::Id {
                kind: "name",
                text: "tengen 0.1".into()
            }),
            "id name tengen 0.1"
        );
        assert_eq!(
            r(Reply::Option {
                name: "usemillisec".into(),
                kind: OptionType::Check(false)
            }),
            "option usemillisec type check default false"
        );
        assert_eq!(
            r(Reply::Option {
                name: "hashsize".into(),
                kind: OptionType::Spin {
                    min: 0,
                    max: 4096,
                    default: 16
                }
            }),
            "option hashsize type spin min 0 max 4096 default 16"
        );
        assert_eq!(
            r(Reply::Option {
                name: "idle".into(),
                kind: OptionType::Combo {
                    vars: vec!["none".into()],
                    default: "none".into()
                }
            }),
            "option idle type combo var none default none"
        );
        assert_eq!(
            r(Reply::Option {
                name: "newgame".into(),
                kind: OptionType::Button
            }),
            "option newgame type button"
        );
        assert_eq!(r(Reply::UcciOk), "ucciok");
        assert_eq!(
            r(Reply::BestMove {
                mv: "h0g2".into(),
                ponder: Some("h9g7".into()),
                draw: true,
                resign: false
            }),
            "bestmove h0g2 ponder h9g7 draw"
        );
        assert_eq!(
            r(Reply::BestMove {
                mv: "h0g2".into(),
                ponder: None,
                draw: false,
                resign: true
            }),
            "bestmove h0g2 resign"
        );
        assert_eq!(r(Reply::NoBestMove), "nobestmove");
        assert_eq!(r(Reply::PopHash(PopHash::default())), "pophash");
        assert_eq!(
            r(Reply::PopHash(PopHash {
                bestmove: Some("h2e2".into()),
                lowerbound: Some((20, 7)),
                upperbound: Some((20, 7))
            })),
            "pophash bestmove h2e2 lowerbound 20 depth 7 upperbound 20 depth 7"
        );
        assert_eq!(r(Reply::Bye), "bye");
        let info = Info {
            depth: Some(7),
            score: Some(Score::Cp(18)),
            pv: vec!["h2e2".into(), "h9g7".into()],
            ..Info::default()
        };
        assert_eq!(r(Reply::Info(info)), "info depth 7 score 18 pv h2e2 h9g7");
        let info = Info {
            time: Some(2100),
            nodes: Some(1800000),
            ..Info::default()
        };
        assert_eq!(r(Reply::Info(info)), "info time 2100 nodes 1800000");
        assert_eq!(
            r(Reply::Info(Info::text("bad\nFEN"))),
            "info message bad FEN"
        );
    }

    /// Random lines, random tokens from the grammar, random bytes: the
    /// parser answers every one without panicking, and every `go` it
    /// accepts is consistent.
    #[test]
    fn fuzz() {
        let words = [
            "ucci",
            "isready",
            "setoption",
            "name",
            "value",
            "position",
            "fen",
            "startpos",
            "moves",
            "banmoves",
            "go",
            "ponder",
            "draw",
            "depth",
            "infinite",
            "nodes",
            "time",
            "movestogo",
            "increment",
            "opptime",
            "oppmovestogo",
            "oppincrement",
            "ponderhit",
            "stop",
            "probe",
            "quit",
            "perft",
            "h2e2",
            "0",
            "1",
            "-1",
            "99999999999999999999",
            "w",
            "b",
            "9",
            "\u{0}",
            "é",
            "",
        ];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let n = (next() % 8) as usize;
            let mut line = String::new();
            for _ in 0..n {
                if next() % 10 == 0 {
                    let len = (next() % 6) as usize;
                    for _ in 0..len {
                        line.push(char::from_u32((next() % 0x3000) as u32).unwrap_or('?'));
                    }
                } else {
                    line.push_str(words[(next() % words.len() as u64) as usize]);
                }
                line.push(if next() % 5 == 0 { '\t' } else { ' ' });
            }
            if let Ok(Some(Command::Go(g))) = parse(&line) {
                // Anything accepted is internally consistent.
                assert!(!(g.ponder && g.draw), "{line:?}");
            }
        }
    }
}
