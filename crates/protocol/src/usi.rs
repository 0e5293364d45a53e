//! USI (shogi), Shogidokoro dialect, both sides: the GUI's commands
//! ([`Command`]: parsed by the engine, printed by a host) and the engine's
//! replies ([`Reply`]: printed by the engine, parsed by a host). Moves and
//! SFENs travel as strings; the shogi crate checks them.

use crate::grammar::{self, Arity, Dialect, GoOut};
use crate::lexer::tokens;
use std::fmt;

pub use crate::grammar::{Bound, Info, OptionType, Score};

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
        "setoption" => {
            let (name, value) = grammar::setoption(grammar::after_word(line, "setoption"))?;
            Command::SetOption { name, value }
        }
        "register" => Command::Register(rest.join(" ")),
        "usinewgame" => Command::UsiNewGame,
        "position" => {
            let (sfen, moves) = grammar::position("position", rest, Dialect::Usi)?;
            Command::Position { sfen, moves }
        }
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

/// USI's `go` keywords and what follows each (`mate` alone means
/// `mate infinite`, as cshogi sends it).
pub const GO_KEYWORDS: &[(&str, Arity)] = &[
    ("ponder", Arity::Flag),
    ("btime", Arity::One),
    ("wtime", Arity::One),
    ("byoyomi", Arity::One),
    ("binc", Arity::One),
    ("winc", Arity::One),
    ("depth", Arity::One),
    ("nodes", Arity::One),
    ("movetime", Arity::One),
    ("movestogo", Arity::One),
    ("perft", Arity::One),
    ("mate", Arity::Optional),
    ("infinite", Arity::Flag),
    ("searchmoves", Arity::List),
];

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    grammar::go(rest, GO_KEYWORDS, |(key, words)| {
        match key {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "btime" => go.btime = Some(grammar::number(key, words)?),
            "wtime" => go.wtime = Some(grammar::number(key, words)?),
            "byoyomi" => go.byoyomi = Some(grammar::number(key, words)?),
            "binc" => go.binc = Some(grammar::number(key, words)?),
            "winc" => go.winc = Some(grammar::number(key, words)?),
            "depth" => go.depth = Some(grammar::number(key, words)?),
            "nodes" => go.nodes = Some(grammar::number(key, words)?),
            "movetime" => go.movetime = Some(grammar::number(key, words)?),
            "movestogo" => go.movestogo = Some(grammar::number(key, words)?),
            "perft" => go.perft = Some(grammar::number(key, words)?),
            "mate" => {
                go.mate = Some(match words {
                    [] | ["infinite"] => MateLimit::Infinite,
                    _ => MateLimit::Millis(grammar::number(key, words)?),
                })
            }
            _ => go.searchmoves.extend(words.iter().map(|w| w.to_string())),
        }
        Ok(())
    })?;
    Ok(go)
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |v: Option<u64>| GoOut::Num(v.map(i128::from));
        let mate = match self.mate {
            Some(MateLimit::Millis(ms)) => Some(ms.to_string()),
            Some(MateLimit::Infinite) => Some("infinite".to_string()),
            None => None,
        };
        grammar::write_go(
            f,
            &[
                ("ponder", GoOut::Flag(self.ponder)),
                ("btime", n(self.btime)),
                ("wtime", n(self.wtime)),
                ("byoyomi", n(self.byoyomi)),
                ("binc", n(self.binc)),
                ("winc", n(self.winc)),
                ("depth", n(self.depth.map(u64::from))),
                ("nodes", n(self.nodes)),
                ("movetime", n(self.movetime)),
                ("movestogo", n(self.movestogo.map(u64::from))),
                ("perft", n(self.perft.map(u64::from))),
                ("mate", GoOut::Word(mate.as_deref())),
                ("infinite", GoOut::Flag(self.infinite)),
                ("searchmoves", GoOut::List(&self.searchmoves)),
            ],
        )
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
                grammar::write_position(f, "position", Dialect::Usi, sfen, moves)
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
    Option { name: String, kind: OptionType },
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
            Reply::Option { name, kind } => grammar::write_option(f, Dialect::Usi, name, kind),
            Reply::UsiOk => write!(f, "usiok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info(i) => i.write(f, Dialect::Usi),
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
    let line = grammar::trim_blanks(line);
    let toks = tokens(line);
    match toks.as_slice() {
        ["id", "name", ..] => Reply::IdName(grammar::rest_of_line(line, toks[1]).to_string()),
        ["id", "author", ..] => Reply::IdAuthor(grammar::rest_of_line(line, toks[1]).to_string()),
        // Names may hold spaces in other engines: read up to ` type `.
        ["option", "name", ..] => match grammar::parse_option(line) {
            Some((name, kind)) => Reply::Option { name, kind },
            None => Reply::Unknown(line.to_string()),
        },
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
        ["info", ..] => Reply::Info(Info::parse(line)),
        _ => Reply::Unknown(line.to_string()),
    }
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
                kind: OptionType::String(String::new())
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
