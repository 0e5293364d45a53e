//! USI (shogi), Shogidokoro dialect, both sides: the GUI's commands
//! ([`Command`]: parsed by the engine, printed by a host) and the engine's
//! replies ([`Reply`]: printed by the engine, parsed by a host). Moves and
//! SFENs travel as strings; the shogi crate checks them.

use crate::grammar::{self, find_word};
use crate::lexer::tokens;
use std::fmt;

/// `go mate` limit: Shogidokoro's meaning, a time in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    Millis(u64),
    Infinite,
}

/// A parsed `go`. Times in milliseconds. `b*` is sente's clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub ponder: bool,
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub byoyomi: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub infinite: bool,
    pub mate: Option<MateLimit>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub movestogo: Option<u32>,
    pub searchmoves: Vec<String>,
    /// `go perft N` (an extension): count the move tree.
    pub perft: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Lose,
    Draw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    Debug(bool),
    IsReady,
    /// `value` is the rest of the line (file paths may hold spaces).
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register(String),
    UsiNewGame,
    /// `sfen` is `None` for `startpos`, else the SFEN fields.
    Position {
        sfen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    /// cshogi sends a bare `gameover`.
    GameOver(Option<GameResult>),
    Quit,
    /// A command USI does not define (the engine ignores it).
    Unknown(String),
}

fn number<T: std::str::FromStr>(field: &str, tok: Option<&&str>) -> Result<T, String> {
    let t = tok.ok_or_else(|| format!("'{field}' needs a value"))?;
    t.parse::<T>()
        .map_err(|_| format!("'{field}' expects a non-negative number, got '{t}'"))
}

/// Parses one GUI line. `Ok(None)` for a blank line; `Err` names what is
/// malformed in a known command (which must then change nothing).
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let toks = tokens(line);
    let Some(&word) = toks.first() else {
        return Ok(None);
    };
    let rest = &toks[1..];
    let cmd = match word {
        "usi" => Command::Usi,
        "debug" => Command::Debug(rest.first() != Some(&"off")),
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(line)?,
        "register" => Command::Register(rest.join(" ")),
        "usinewgame" => Command::UsiNewGame,
        "position" => parse_position(rest)?,
        "go" => Command::Go(parse_go(rest)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "gameover" => Command::GameOver(match rest.first() {
            None => None,
            Some(&"win") => Some(GameResult::Win),
            Some(&"lose") => Some(GameResult::Lose),
            Some(&"draw") => Some(GameResult::Draw),
            Some(other) => return Err(format!("gameover takes win, lose or draw, got '{other}'")),
        }),
        "quit" => Command::Quit,
        other => Command::Unknown(other.to_string()),
    };
    Ok(Some(cmd))
}

/// `setoption name <id> [value <x>]`: the id is one token by the USI
/// rule, but tolerate spaces up to ` value `; the value keeps its spaces.
fn parse_setoption(line: &str) -> Result<Command, String> {
    let (name, value) = grammar::setoption(grammar::after_word(line, "setoption"))?;
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let (sfen, after) = match rest.first() {
        Some(&"startpos") => (None, &rest[1..]),
        Some(&"sfen") => {
            let end = rest
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(rest.len());
            let fields = &rest[1..end];
            if fields.len() < 3 {
                return Err("position sfen needs <board> <side> <hand> [<move number>]".into());
            }
            (Some(fields.join(" ")), &rest[end..])
        }
        Some(other) => {
            return Err(format!(
                "position needs 'startpos' or 'sfen', got '{other}'"
            ))
        }
        None => return Err("position needs 'startpos' or 'sfen'".into()),
    };
    let moves = match after.first() {
        None => Vec::new(),
        Some(&"moves") => after[1..].iter().map(|s| s.to_string()).collect(),
        Some(other) => {
            return Err(format!(
                "expected 'moves' after the position, got '{other}'"
            ))
        }
    };
    Ok(Command::Position { sfen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let t = rest[i];
        let next = rest.get(i + 1);
        let mut skip = 2;
        match t {
            "ponder" => {
                go.ponder = true;
                skip = 1;
            }
            "infinite" => {
                go.infinite = true;
                skip = 1;
            }
            "btime" => go.btime = Some(number(t, next)?),
            "wtime" => go.wtime = Some(number(t, next)?),
            "byoyomi" => go.byoyomi = Some(number(t, next)?),
            "binc" => go.binc = Some(number(t, next)?),
            "winc" => go.winc = Some(number(t, next)?),
            "depth" => go.depth = Some(number(t, next)?),
            "nodes" => go.nodes = Some(number(t, next)?),
            "movetime" => go.movetime = Some(number(t, next)?),
            "movestogo" => go.movestogo = Some(number(t, next)?),
            "perft" => go.perft = Some(number(t, next)?),
            "mate" => {
                go.mate = Some(match next {
                    None | Some(&"infinite") => MateLimit::Infinite,
                    Some(_) => MateLimit::Millis(number(t, next)?),
                });
                if next.is_none() {
                    skip = 1;
                }
            }
            "searchmoves" => {
                let mut j = i + 1;
                while j < rest.len() && !is_go_keyword(rest[j]) {
                    go.searchmoves.push(rest[j].to_string());
                    j += 1;
                }
                skip = j - i;
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += skip;
    }
    Ok(go)
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "ponder"
            | "infinite"
            | "btime"
            | "wtime"
            | "byoyomi"
            | "binc"
            | "winc"
            | "depth"
            | "nodes"
            | "movetime"
            | "movestogo"
            | "perft"
            | "mate"
            | "searchmoves"
    )
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        if self.ponder {
            write!(f, " ponder")?;
        }
        let fields: [(&str, Option<u64>); 9] = [
            ("btime", self.btime),
            ("wtime", self.wtime),
            ("byoyomi", self.byoyomi),
            ("binc", self.binc),
            ("winc", self.winc),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("movestogo", self.movestogo.map(u64::from)),
        ];
        for (name, v) in fields {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if let Some(n) = self.perft {
            write!(f, " perft {n}")?;
        }
        match self.mate {
            Some(MateLimit::Millis(ms)) => write!(f, " mate {ms}")?,
            Some(MateLimit::Infinite) => write!(f, " mate infinite")?,
            None => {}
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
    /// The command as a host sends it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Usi => write!(f, "usi"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value } => match value {
                Some(v) => write!(f, "setoption name {name} value {v}"),
                None => write!(f, "setoption name {name}"),
            },
            Command::Register(s) => write!(f, "register {s}"),
            Command::UsiNewGame => write!(f, "usinewgame"),
            Command::Position { sfen, moves } => {
                match sfen {
                    Some(s) => write!(f, "position sfen {s}")?,
                    None => write!(f, "position startpos")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(g) => write!(f, "{g}"),
            Command::Stop => write!(f, "stop"),
            Command::PonderHit => write!(f, "ponderhit"),
            Command::GameOver(r) => match r {
                None => write!(f, "gameover"),
                Some(GameResult::Win) => write!(f, "gameover win"),
                Some(GameResult::Lose) => write!(f, "gameover lose"),
                Some(GameResult::Draw) => write!(f, "gameover draw"),
            },
            Command::Quit => write!(f, "quit"),
            Command::Unknown(s) => write!(f, "{s}"),
        }
    }
}

/// A score in an `info` line, from the engine's (side to move's) view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoScore {
    Cp(i32),
    /// Plies to mate: positive, the engine mates.
    Mate(i32),
    /// `score mate +`: the engine mates, distance unknown.
    MatePlus,
    /// `score mate -`: the engine is mated, distance unknown.
    MateMinus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Lower,
    Upper,
}

/// One `info` line. `string` is printed alone (never beside `pv`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub time: Option<u64>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub score: Option<InfoScore>,
    pub bound: Option<ScoreBound>,
    pub multipv: Option<usize>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<usize>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        if let Some(s) = &self.string {
            return write!(f, " string {s}");
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
            if let Some(sd) = self.seldepth {
                write!(f, " seldepth {sd}")?;
            }
        }
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        if let Some(s) = self.score {
            match s {
                InfoScore::Cp(v) => write!(f, " score cp {v}")?,
                InfoScore::Mate(v) => write!(f, " score mate {v}")?,
                InfoScore::MatePlus => write!(f, " score mate +")?,
                InfoScore::MateMinus => write!(f, " score mate -")?,
            }
            match self.bound {
                Some(ScoreBound::Lower) => write!(f, " lowerbound")?,
                Some(ScoreBound::Upper) => write!(f, " upperbound")?,
                None => {}
            }
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
            if let Some(n) = self.currmovenumber {
                write!(f, " currmovenumber {n}")?;
            }
        }
        let nums: [(&str, Option<u64>); 4] = [
            ("time", self.time),
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
        ];
        for (name, v) in nums {
            if let Some(v) = v {
                write!(f, " {name} {v}")?;
            }
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move {
        mv: String,
        ponder: Option<String>,
    },
    Resign,
    /// Entering-king declaration.
    Win,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    Moves(Vec<String>),
    NoMate,
    Timeout,
    NotImplemented,
}

/// Engine → GUI messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    IdName(String),
    IdAuthor(String),
    /// An `option` declaration; `rest` is everything after `type`.
    Option {
        name: String,
        rest: String,
    },
    UsiOk,
    ReadyOk,
    Info(Info),
    BestMove(BestMove),
    Checkmate(Checkmate),
    Unknown(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(n) => write!(f, "id name {n}"),
            Reply::IdAuthor(a) => write!(f, "id author {a}"),
            Reply::Option { name, rest } => write!(f, "option name {name} type {rest}"),
            Reply::UsiOk => write!(f, "usiok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info(i) => write!(f, "{i}"),
            Reply::BestMove(BestMove::Move { mv, ponder }) => match ponder {
                Some(p) => write!(f, "bestmove {mv} ponder {p}"),
                None => write!(f, "bestmove {mv}"),
            },
            Reply::BestMove(BestMove::Resign) => write!(f, "bestmove resign"),
            Reply::BestMove(BestMove::Win) => write!(f, "bestmove win"),
            Reply::Checkmate(Checkmate::Moves(m)) => write!(f, "checkmate {}", m.join(" ")),
            Reply::Checkmate(Checkmate::NoMate) => write!(f, "checkmate nomate"),
            Reply::Checkmate(Checkmate::Timeout) => write!(f, "checkmate timeout"),
            Reply::Checkmate(Checkmate::NotImplemented) => write!(f, "checkmate notimplemented"),
            Reply::Unknown(s) => write!(f, "{s}"),
        }
    }
}

/// Parses one engine line (host side: the arena reads USI engines with
/// it). Never fails: what it cannot read
/// becomes [`Reply::Unknown`].
pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim();
    let toks = tokens(line);
    match toks.as_slice() {
        ["id", "name", ..] => Reply::IdName(after_words(line, 2)),
        ["id", "author", ..] => Reply::IdAuthor(after_words(line, 2)),
        ["option", "name", ..] => {
            // Names may hold spaces in other engines: read up to ` type `.
            let body = after_words(line, 2);
            match find_word(&body, "type") {
                Some(i) => Reply::Option {
                    name: body[..i].trim().to_string(),
                    rest: body[i + 4..].trim().to_string(),
                },
                None => Reply::Unknown(line.to_string()),
            }
        }
        ["usiok"] => Reply::UsiOk,
        ["readyok"] => Reply::ReadyOk,
        ["bestmove", "resign", ..] => Reply::BestMove(BestMove::Resign),
        ["bestmove", "win", ..] => Reply::BestMove(BestMove::Win),
        // A move with anything after it but `ponder <move>` is still the
        // answer: a host waiting on it must not time out over a stray word.
        ["bestmove", mv, rest @ ..] => Reply::BestMove(BestMove::Move {
            mv: mv.to_string(),
            ponder: match rest {
                ["ponder", p, ..] => Some(p.to_string()),
                _ => None,
            },
        }),
        ["checkmate", "nomate"] => Reply::Checkmate(Checkmate::NoMate),
        ["checkmate", "timeout"] => Reply::Checkmate(Checkmate::Timeout),
        ["checkmate", "notimplemented"] => Reply::Checkmate(Checkmate::NotImplemented),
        ["checkmate", moves @ ..] => Reply::Checkmate(Checkmate::Moves(
            moves.iter().map(|s| s.to_string()).collect(),
        )),
        ["info", rest @ ..] => Reply::Info(parse_info(rest, line)),
        _ => Reply::Unknown(line.to_string()),
    }
}

/// The text after the first `n` words of `line`.
fn after_words(line: &str, n: usize) -> String {
    let mut s = line.trim_start();
    for _ in 0..n {
        s = s.trim_start();
        let end = s.find(|c: char| c.is_ascii_whitespace()).unwrap_or(s.len());
        s = &s[end..];
    }
    s.trim().to_string()
}

fn parse_info(rest: &[&str], line: &str) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while i < rest.len() {
        let next = rest.get(i + 1).copied();
        let num = |t: Option<&str>| t.and_then(|t| t.parse::<u64>().ok());
        match rest[i] {
            "string" => {
                let idx = find_word(line, "string").map_or(line.len(), |p| p + 6);
                info.string = Some(line[idx.min(line.len())..].trim().to_string());
                return info;
            }
            "pv" => {
                info.pv = rest[i + 1..].iter().map(|s| s.to_string()).collect();
                return info;
            }
            "depth" => info.depth = num(next).map(|v| v as u32),
            "seldepth" => info.seldepth = num(next).map(|v| v as u32),
            "time" => info.time = num(next),
            "nodes" => info.nodes = num(next),
            "nps" => info.nps = num(next),
            "hashfull" => info.hashfull = num(next).map(|v| v as u32),
            "multipv" => info.multipv = num(next).map(|v| v as usize),
            "currmove" => info.currmove = next.map(str::to_string),
            "currmovenumber" => info.currmovenumber = num(next).map(|v| v as usize),
            "score" => {
                let kind = next;
                let val = rest.get(i + 2).copied();
                info.score = match (kind, val) {
                    (Some("cp"), Some(v)) => v.parse().ok().map(InfoScore::Cp),
                    (Some("mate"), Some("+")) => Some(InfoScore::MatePlus),
                    (Some("mate"), Some("-")) => Some(InfoScore::MateMinus),
                    (Some("mate"), Some(v)) => v.parse().ok().map(InfoScore::Mate),
                    _ => None,
                };
                i += 3;
                match rest.get(i).copied() {
                    Some("lowerbound") => {
                        info.bound = Some(ScoreBound::Lower);
                        i += 1;
                    }
                    Some("upperbound") => {
                        info.bound = Some(ScoreBound::Upper);
                        i += 1;
                    }
                    _ => {}
                }
                continue;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn parses_the_commands_shogidokoro_sends() {
        assert_eq!(cmd("usi"), Command::Usi);
        assert_eq!(
            cmd("setoption name USI_Hash value 256"),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("256".into())
            }
        );
        assert_eq!(
            cmd("setoption name BookFile value C:\\My Books\\a value.bin"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some("C:\\My Books\\a value.bin".into())
            }
        );
        assert_eq!(
            cmd("position startpos moves 7g7f 3c3d"),
            Command::Position {
                sfen: None,
                moves: vec!["7g7f".into(), "3c3d".into()]
            }
        );
        assert_eq!(
            cmd("position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1"),
            Command::Position {
                sfen: Some("4k4/9/9/9/9/9/9/9/4K4 b - 1".into()),
                moves: vec![]
            }
        );
        let Command::Go(g) = cmd("go ponder btime 1000 wtime 2000 byoyomi 3000") else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!(
            (g.btime, g.wtime, g.byoyomi),
            (Some(1000), Some(2000), Some(3000))
        );
        let Command::Go(g) = cmd("go mate 60000") else {
            panic!()
        };
        assert_eq!(g.mate, Some(MateLimit::Millis(60000)));
        let Command::Go(g) = cmd("go mate infinite") else {
            panic!()
        };
        assert_eq!(g.mate, Some(MateLimit::Infinite));
        let Command::Go(g) = cmd("go searchmoves 7g7f 2g2f depth 3") else {
            panic!()
        };
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.depth, Some(3));
        assert_eq!(cmd("gameover"), Command::GameOver(None));
        assert_eq!(
            cmd("gameover lose"),
            Command::GameOver(Some(GameResult::Lose))
        );
        assert_eq!(parse("   ").unwrap(), None);
        assert!(parse("go btime x").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position sfen 9/9 b").is_err());
        assert!(parse("setoption").is_err());
        assert!(parse("gameover maybe").is_err());
    }

    #[test]
    fn commands_round_trip_through_the_printer() {
        for line in [
            "usi",
            "isready",
            "setoption name USI_Ponder value true",
            "usinewgame",
            "position startpos moves 7g7f",
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves 5i5h",
            "go ponder btime 1000 wtime 1000 byoyomi 500",
            "go btime 0 wtime 0 binc 100 winc 100",
            "go mate 1000",
            "go mate infinite",
            "go infinite",
            "stop",
            "ponderhit",
            "gameover win",
            "quit",
        ] {
            assert_eq!(cmd(line).to_string(), line);
        }
    }

    #[test]
    fn replies_round_trip() {
        for line in [
            "id name tengen 0.1",
            "usiok",
            "readyok",
            "bestmove 7g7f ponder 3c3d",
            "bestmove resign",
            "bestmove win",
            "checkmate G*5b",
            "checkmate nomate",
            "checkmate timeout",
            "info depth 3 seldepth 5 score cp 20 lowerbound time 10 nodes 100 nps 10000 pv 7g7f 3c3d",
            "info depth 5 score mate -4 nodes 10 pv 5a4a",
            "info score mate + nodes 10",
            "info string hello world",
        ] {
            assert_eq!(parse_reply(line).to_string(), line);
        }
        assert_eq!(
            parse_reply("option name Debug Log File type string default"),
            Reply::Option {
                name: "Debug Log File".into(),
                rest: "string default".into()
            }
        );
    }

    #[test]
    fn fuzzed_lines_never_panic() {
        // A tiny deterministic generator: tokens from the grammar mixed
        // with junk, so every branch sees odd inputs.
        let vocab = [
            "usi",
            "go",
            "position",
            "sfen",
            "startpos",
            "moves",
            "mate",
            "infinite",
            "btime",
            "byoyomi",
            "ponder",
            "setoption",
            "name",
            "value",
            "gameover",
            "win",
            "searchmoves",
            "7g7f",
            "-1",
            "99999999999999999999",
            "",
            "\u{3042}",
            "+",
            "info",
            "score",
            "bestmove",
            "checkmate",
            "type",
            "string",
            "pv",
            "cp",
            "lowerbound",
        ];
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20000 {
            let n = (next() % 8) as usize;
            let mut line = String::new();
            for _ in 0..n {
                let r = next();
                if r % 5 == 0 {
                    let c = char::from_u32((r >> 8) as u32 % 0x3000).unwrap_or('?');
                    line.push(c);
                } else {
                    line.push_str(vocab[(r >> 8) as usize % vocab.len()]);
                }
                line.push(if r % 7 == 0 { '\t' } else { ' ' });
            }
            let _ = parse(&line);
            let _ = parse_reply(&line);
        }
    }
}
