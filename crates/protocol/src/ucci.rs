//! UCCI (xiangqi), engine side: the GUI's commands parsed, the engine's
//! replies printed. Moves travel as strings; the game crate checks them.
//! (The controller side, for the arena, is in `host::ucci`.)

use crate::grammar;
use crate::lexer::tokens;
use std::fmt;

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

fn number<T: std::str::FromStr>(field: &str, tok: Option<&str>) -> Result<T, String> {
    let t = tok.ok_or_else(|| format!("'{field}' needs a value"))?;
    t.parse::<T>()
        .map_err(|_| format!("'{field}' expects a non-negative number, got '{t}'"))
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
            let (fen, moves) = parse_position(rest, "position")?;
            Command::Position { fen, moves }
        }
        "probe" => {
            let (fen, moves) = parse_position(rest, "probe")?;
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
        let (name, value) = grammar::setoption(&rest.join(" "))?;
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

fn parse_position(rest: &[&str], what: &str) -> Result<(Option<String>, Vec<String>), String> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves: Vec<String> = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok((None, moves)),
        Some(&"startpos") => Err(format!("{what} startpos: unexpected '{}'", head[1])),
        // The counters and the `-` fields may be left out, the side to
        // move may not: guessing it would silently search the wrong side.
        Some(&"fen") if head.len() == 2 => Err(format!(
            "{what} fen: the FEN '{}' needs the side to move after the board",
            head[1]
        )),
        Some(&"fen") if head.len() > 2 => Ok((Some(head[1..].join(" ")), moves)),
        Some(&"fen") => Err(format!("{what} fen needs a FEN")),
        Some(other) => Err(format!(
            "{what}: expected 'fen' or 'startpos', got '{other}'"
        )),
        None => Err(format!("{what}: expected 'fen' or 'startpos'")),
    }
}

/// A clock value: GUIs send negative times when a flag has fallen (or a
/// clock was overdrawn by lag); they count as zero.
fn clock(field: &str, tok: Option<&str>) -> Result<u64, String> {
    let t = tok.ok_or_else(|| format!("'{field}' needs a value"))?;
    t.parse::<i64>()
        .map(|v| v.max(0) as u64)
        .map_err(|_| format!("'{field}' expects a number, got '{t}'"))
}

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let val = rest.get(i + 1).copied();
        i += 2;
        match key {
            "ponder" => {
                go.ponder = true;
                i -= 1;
            }
            "draw" => {
                go.draw = true;
                i -= 1;
            }
            "infinite" => {
                go.infinite = true;
                i -= 1;
            }
            "depth" if val == Some("infinite") => go.infinite = true,
            "depth" => go.depth = Some(number("depth", val)?),
            "nodes" => go.nodes = Some(number("nodes", val)?),
            "time" => go.time = Some(clock("time", val)?),
            "movestogo" => go.movestogo = Some(number("movestogo", val)?),
            "increment" => go.increment = Some(clock("increment", val)?),
            "opptime" => go.opptime = Some(clock("opptime", val)?),
            "oppmovestogo" => go.oppmovestogo = Some(number("oppmovestogo", val)?),
            "oppincrement" => go.oppincrement = Some(clock("oppincrement", val)?),
            "perft" => go.perft = Some(number("perft", val)?),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
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
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if self.draw {
            f.write_str(" draw")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        let fields: [(&str, Option<u64>); 9] = [
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("time", self.time),
            ("movestogo", self.movestogo.map(u64::from)),
            ("increment", self.increment),
            ("opptime", self.opptime),
            ("oppmovestogo", self.oppmovestogo.map(u64::from)),
            ("oppincrement", self.oppincrement),
            ("perft", self.perft.map(u64::from)),
        ];
        for (name, value) in fields {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        Ok(())
    }
}

/// `fen …` or `startpos`, then the moves: `position` and `probe` share it.
fn write_position(
    f: &mut fmt::Formatter<'_>,
    word: &str,
    fen: &Option<String>,
    moves: &[String],
) -> fmt::Result {
    match fen {
        Some(fen) => write!(f, "{word} fen {fen}")?,
        None => write!(f, "{word} startpos")?,
    }
    if !moves.is_empty() {
        write!(f, " moves {}", moves.join(" "))?;
    }
    Ok(())
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
            Command::Position { fen, moves } => write_position(f, "position", fen, moves),
            Command::BanMoves(moves) => write!(f, "banmoves {}", moves.join(" ")),
            Command::Go(go) => write!(f, "{go}"),
            Command::PonderHit { draw: false } => f.write_str("ponderhit"),
            Command::PonderHit { draw: true } => f.write_str("ponderhit draw"),
            Command::Stop => f.write_str("stop"),
            Command::Probe { fen, moves } => write_position(f, "probe", fen, moves),
            Command::Quit => f.write_str("quit"),
            Command::Unknown(word) => f.write_str(word),
        }
    }
}

/// An `option` line's type, in UCCI's syntax (no `name` keyword).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    Check(bool),
    Spin { min: i64, max: i64, default: i64 },
    Combo { vars: Vec<String>, default: String },
    Button,
    String(String),
    Label(String),
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

/// One `info` line: the fields present are printed in UCCI's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    /// From the side to move; 100 = a horse or cannon.
    pub score: Option<i32>,
    pub pv: Vec<String>,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub currmove: Option<String>,
    pub message: Option<String>,
}

/// A `pophash` reply; all empty prints a bare `pophash`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PopHash {
    pub bestmove: Option<String>,
    pub lowerbound: Option<(i32, u32)>,
    pub upperbound: Option<(i32, u32)>,
}

/// Keeps a message on one line: line breaks would start a new command.
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { kind, text } => write!(f, "id {kind} {}", one_line(text)),
            Reply::Option { name, kind } => {
                write!(f, "option {name} type ")?;
                match kind {
                    OptionType::Check(d) => write!(f, "check default {d}"),
                    OptionType::Spin { min, max, default } => {
                        write!(f, "spin min {min} max {max} default {default}")
                    }
                    OptionType::Combo { vars, default } => {
                        f.write_str("combo")?;
                        for v in vars {
                            write!(f, " var {v}")?;
                        }
                        write!(f, " default {default}")
                    }
                    OptionType::Button => f.write_str("button"),
                    OptionType::String(d) => write!(f, "string default {}", one_line(d)),
                    OptionType::Label(d) => write!(f, "label default {}", one_line(d)),
                }
            }
            Reply::UcciOk => f.write_str("ucciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => write!(f, "{info}"),
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

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(t) = self.time_ms {
            write!(f, " time {t}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(m) = &self.message {
            write!(f, " message {}", one_line(m))?;
        }
        Ok(())
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
                    rest_of_line(line, t[1]).to_string()
                },
            }
        }
        ["option", name, "type", rest @ ..] => match parse_option_type(rest) {
            Some(kind) => Reply::Option {
                name: name.to_string(),
                kind,
            },
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
        ["info", ..] => Reply::Info(parse_info(line)),
        _ => unknown(),
    }
}

/// The text of `line` after its token `word` (a slice of `line`), inner
/// blanks kept as the engine printed them.
fn rest_of_line<'a>(line: &'a str, word: &str) -> &'a str {
    let end = (word.as_ptr() as usize - line.as_ptr() as usize) + word.len();
    line.get(end..)
        .unwrap_or("")
        .trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The words of an `option` line after `type`; `None` when malformed.
fn parse_option_type(t: &[&str]) -> Option<OptionType> {
    // The text after `default` to the line's end (string defaults may
    // hold blanks; an absent one is empty).
    let default_text = || {
        t.iter()
            .position(|w| *w == "default")
            .map(|i| t[i + 1..].join(" "))
            .unwrap_or_default()
    };
    let after = |key: &str| {
        t.iter()
            .position(|w| *w == key)
            .and_then(|i| t.get(i + 1))
            .copied()
    };
    Some(match t.first().copied()? {
        "check" => OptionType::Check(after("default")?.parse().ok()?),
        "spin" => OptionType::Spin {
            min: after("min")?.parse().ok()?,
            max: after("max")?.parse().ok()?,
            default: after("default")?.parse().ok()?,
        },
        "combo" => OptionType::Combo {
            vars: t
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect(),
            default: after("default")?.to_string(),
        },
        "button" => OptionType::Button,
        "string" => OptionType::String(default_text()),
        "label" => OptionType::Label(default_text()),
        _ => return None,
    })
}

/// The words that end a `pv` list or a field's value.
const INFO_KEYWORDS: &[&str] = &[
    "depth", "seldepth", "time", "nodes", "pv", "score", "currmove", "message", "string", "nps",
];

/// An `info` line; a malformed value drops only its field. `message` (and
/// UCI's `string`) run to the line's end.
fn parse_info(line: &str) -> Info {
    let t = tokens(line);
    let mut info = Info::default();
    let mut i = 1;
    while i < t.len() {
        let next = t.get(i + 1).copied();
        match t[i] {
            "depth" => info.depth = next.and_then(|v| v.parse().ok()),
            // UCCI's bare `score 31`; UCI's `score cp 31` is read too.
            "score" => {
                let v = if next == Some("cp") {
                    i += 1;
                    t.get(i + 1).copied()
                } else {
                    next
                };
                info.score = v.and_then(|v| v.parse().ok());
            }
            "time" => info.time_ms = next.and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = next.and_then(|v| v.parse().ok()),
            "currmove" => info.currmove = next.map(str::to_string),
            "pv" => {
                let end = t[i + 1..]
                    .iter()
                    .position(|w| INFO_KEYWORDS.contains(w))
                    .map_or(t.len(), |n| i + 1 + n);
                info.pv = t[i + 1..end].iter().map(|m| m.to_string()).collect();
                i = end;
                continue;
            }
            "message" | "string" => {
                info.message = Some(rest_of_line(line, t[i]).to_string());
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

impl Info {
    pub fn message(text: impl Into<String>) -> Info {
        Info {
            message: Some(text.into()),
            ..Info::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            score: Some(18),
            pv: vec!["h2e2".into(), "h9g7".into()],
            ..Info::default()
        };
        assert_eq!(r(Reply::Info(info)), "info depth 7 score 18 pv h2e2 h9g7");
        let info = Info {
            time_ms: Some(2100),
            nodes: Some(1800000),
            ..Info::default()
        };
        assert_eq!(r(Reply::Info(info)), "info time 2100 nodes 1800000");
        assert_eq!(
            r(Reply::Info(Info::message("bad\nFEN"))),
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
