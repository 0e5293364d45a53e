//! CECP, the Chess Engine Communication Protocol of XBoard and WinBoard
//! (version 2, with the version 1 forms GUIs still send).
//!
//! Engine side: [`Command::parse`] reads what a GUI sends, [`Reply`]
//! prints what the engine answers. Host side (the arena): [`Command`]
//! prints what a GUI sends and [`Reply::parse`] reads an engine's output
//! (it never fails: an unreadable line is [`Reply::Unknown`]).
//!
//! `edit` mode has its own little language (`#`, `c`, `Pa4`, `.`), read
//! by [`EditLine::parse`] while the engine is in that mode.
//!
//! Moves travel as text: the game crates check them. Times are typed:
//! `time`/`otim` in centiseconds, `level`'s base in seconds and its
//! increment in milliseconds, `st` in milliseconds.

use crate::lexer::tokens;
use std::fmt;

/// A game result, as `result` and the engine's claims write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished (a GUI's `result *`).
    Unknown,
}

impl GameResult {
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `level MPS BASE INC`: moves per period (0: the whole game), the base
/// time in seconds (written as minutes or `min:sec`), the increment in
/// milliseconds (written in seconds, fractions allowed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    pub mps: u32,
    pub base_s: u64,
    pub inc_ms: u64,
}

impl Level {
    fn parse(args: &[&str]) -> Result<Level, String> {
        if args.len() != 3 {
            return Err(format!(
                "level needs MPS BASE INC, got {} value(s)",
                args.len()
            ));
        }
        let mps: u32 = args[0]
            .parse()
            .map_err(|_| format!("moves per period '{}' is not a number", args[0]))?;
        let base_s = parse_base(args[1])?;
        let inc_ms = parse_seconds(args[2])
            .ok_or_else(|| format!("increment '{}' is not a number of seconds", args[2]))?;
        Ok(Level {
            mps,
            base_s,
            inc_ms,
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, s) = (self.base_s / 60, self.base_s % 60);
        write!(f, "level {} ", self.mps)?;
        if s == 0 {
            write!(f, "{m}")?;
        } else {
            write!(f, "{m}:{s:02}")?;
        }
        write!(f, " {}", Seconds(self.inc_ms))
    }
}

/// Milliseconds printed as seconds: `2`, `0.5`, `1.25`.
struct Seconds(u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        if ms == 0 {
            write!(f, "{s}")
        } else {
            let frac = format!("{ms:03}");
            write!(f, "{s}.{}", frac.trim_end_matches('0'))
        }
    }
}

/// A base time: minutes (`5`, `0.5`) or `min:sec` (`2:30`), in seconds.
fn parse_base(s: &str) -> Result<u64, String> {
    let bad = || format!("base time '{s}' is not minutes or min:sec");
    if let Some((m, sec)) = s.split_once(':') {
        let m: u64 = m.parse().map_err(|_| bad())?;
        let sec: u64 = sec.parse().map_err(|_| bad())?;
        if sec >= 60 || m > 1 << 32 {
            return Err(bad());
        }
        return Ok(m * 60 + sec);
    }
    // Whole or fractional minutes, no more than `min:sec` takes.
    let ms = parse_seconds(s).ok_or_else(bad)?;
    if ms / 1000 > 1 << 32 {
        return Err(bad());
    }
    // `ms` read minutes as if they were seconds: scale by 60, in seconds.
    Ok(ms * 60 / 1000)
}

/// A non-negative decimal number of seconds (`3`, `0.5`, `.25`) in
/// milliseconds; at most three decimals count.
fn parse_seconds(s: &str) -> Option<u64> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || int.len() > 12 {
        return None;
    }
    let whole: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut ms = 0u64;
    for (i, b) in frac.bytes().take(3).enumerate() {
        ms += u64::from(b - b'0') * [100, 10, 1][i];
    }
    Some(whole * 1000 + ms)
}

/// What `exclude`/`include` names: one move or all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSet {
    All,
    Move(String),
}

impl fmt::Display for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveSet::All => f.write_str("all"),
            MoveSet::Move(m) => f.write_str(m),
        }
    }
}

/// A command a GUI sends to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Xboard,
    Protover(u32),
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    Quit,
    Random,
    Force,
    Go,
    PlayOther,
    /// Version 1: White / Black is to move, the engine plays the other.
    White,
    Black,
    Level(Level),
    /// `st`: time per move, in milliseconds.
    St(u64),
    Sd(u32),
    Nps(u64),
    /// `time`: the engine's clock, centiseconds (may be negative).
    Time(i64),
    /// `otim`: the opponent's clock, centiseconds.
    Otim(i64),
    UserMove(String),
    /// A bare move (version 1 GUIs, or `usermove=0`).
    Move(String),
    /// `?`: move now.
    MoveNow,
    Ping(i64),
    Draw,
    Result {
        result: GameResult,
        comment: String,
    },
    SetBoard(String),
    Edit,
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    NoPost,
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: an analysis status line, please.
    Status,
    Name(String),
    Rating {
        engine: i32,
        opponent: i32,
    },
    Ics(String),
    Computer,
    Pause,
    Resume,
    Memory(u64),
    Cores(u32),
    EgtPath {
        kind: String,
        path: String,
    },
    /// `option NAME[=VALUE]`.
    Option {
        name: String,
        value: Option<String>,
    },
    Exclude(MoveSet),
    Include(MoveSet),
    /// Anything else, kept whole (the engine answers `Error`).
    Unknown(String),
}

/// Castling written as XBoard may send it.
const CASTLES: [&str; 4] = ["O-O", "O-O-O", "0-0", "0-0-0"];

/// Whether a word looks like a move in any notation CECP GUIs use:
/// coordinates (`e2e4`, `e7e8q`, `h2e2`, `c3c4+`), drops (`P@e5`), SAN
/// (`Nf3`, `exd5`) or castling.
pub fn looks_like_move(w: &str) -> bool {
    if CASTLES.contains(&w) {
        return true;
    }
    let ok_chars = w
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"@+=*-#!?x".contains(&b));
    let first_ok = w.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    let has_digit = w.bytes().any(|b| b.is_ascii_digit());
    (2..=10).contains(&w.len()) && ok_chars && first_ok && has_digit
}

/// What follows `word` at the start of `line` (blanks trimmed).
fn rest_after<'a>(line: &'a str, word: &str) -> &'a str {
    let blank = |c: char| c.is_ascii_whitespace();
    let t = line.trim_start_matches(blank);
    t.strip_prefix(word).unwrap_or("").trim_matches(blank)
}

fn one<T: std::str::FromStr>(cmd: &str, args: &[&str]) -> Result<T, String> {
    match args {
        [v] => v
            .parse()
            .map_err(|_| format!("{cmd} expects a number, got '{v}'")),
        [] => Err(format!("{cmd} needs a value")),
        _ => Err(format!("{cmd} takes one value")),
    }
}

fn no_args(cmd: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("{cmd} takes no arguments"))
    }
}

impl Command {
    /// Reads a line. `Ok(None)` for a blank line; `Err` names what is
    /// wrong with a known command's arguments (the engine answers
    /// `Error (reason): line`).
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let toks = tokens(line);
        let Some((&word, args)) = toks.split_first() else {
            return Ok(None);
        };
        let line = toks.join(" ");
        let rest = rest_after(&line, word);
        let cmd = match word {
            "xboard" => Command::Xboard,
            "protover" => Command::Protover(one(word, args)?),
            "accepted" => Command::Accepted(rest.to_string()),
            "rejected" => Command::Rejected(rest.to_string()),
            "new" => Command::New,
            "variant" => match args {
                [v] => Command::Variant(v.to_string()),
                [] => return Err("variant needs a name".into()),
                _ => return Err("variant takes one name".into()),
            },
            "quit" => Command::Quit,
            "random" => Command::Random,
            "force" => Command::Force,
            "go" => Command::Go,
            "playother" => Command::PlayOther,
            "white" => Command::White,
            "black" => Command::Black,
            "level" => Command::Level(Level::parse(args)?),
            "st" => match args {
                [v] => Command::St(
                    parse_seconds(v).ok_or_else(|| format!("st expects seconds, got '{v}'"))?,
                ),
                _ => return Err("st takes one number of seconds".into()),
            },
            "sd" => Command::Sd(one(word, args)?),
            "nps" => Command::Nps(one(word, args)?),
            "time" => Command::Time(one(word, args)?),
            "otim" => Command::Otim(one(word, args)?),
            "usermove" => match args {
                [m] => Command::UserMove(m.to_string()),
                [] => return Err("usermove needs a move".into()),
                _ => return Err("usermove takes one move".into()),
            },
            "?" => Command::MoveNow,
            "ping" => Command::Ping(one(word, args)?),
            "draw" => Command::Draw,
            "result" => match args.first() {
                Some(r) => Command::Result {
                    result: GameResult::parse(r)
                        .ok_or_else(|| format!("'{r}' is not 1-0, 0-1, 1/2-1/2 or *"))?,
                    comment: comment_of(rest_after(rest, r)),
                },
                None => return Err("result needs a result".into()),
            },
            "setboard" => {
                if rest.is_empty() {
                    return Err("setboard needs a FEN".into());
                }
                Command::SetBoard(args.join(" "))
            }
            "edit" => Command::Edit,
            "hint" => Command::Hint,
            "bk" => Command::Bk,
            "undo" => Command::Undo,
            "remove" => Command::Remove,
            "hard" => Command::Hard,
            "easy" => Command::Easy,
            "post" => Command::Post,
            "nopost" => Command::NoPost,
            "analyze" => Command::Analyze,
            "exit" => Command::Exit,
            "." => Command::Status,
            "name" => Command::Name(args.join(" ")),
            "rating" => match args {
                [a, b] => Command::Rating {
                    engine: a.parse().map_err(|_| format!("rating '{a}'"))?,
                    opponent: b.parse().map_err(|_| format!("rating '{b}'"))?,
                },
                _ => return Err("rating needs two numbers".into()),
            },
            "ics" => Command::Ics(args.join(" ")),
            "computer" => Command::Computer,
            "pause" => Command::Pause,
            "resume" => Command::Resume,
            "memory" => Command::Memory(one(word, args)?),
            "cores" => Command::Cores(one(word, args)?),
            "egtpath" => match args {
                [kind, path @ ..] if !path.is_empty() => Command::EgtPath {
                    kind: kind.to_string(),
                    path: path.join(" "),
                },
                _ => return Err("egtpath needs a type and a path".into()),
            },
            "option" => {
                if rest.is_empty() {
                    return Err("option needs a name".into());
                }
                let norm = args.join(" ");
                match norm.split_once('=') {
                    Some((n, v)) => Command::Option {
                        name: n.trim().to_string(),
                        value: Some(v.trim().to_string()),
                    },
                    None => Command::Option {
                        name: norm,
                        value: None,
                    },
                }
            }
            "exclude" | "include" => {
                let set = match args {
                    ["all"] => MoveSet::All,
                    [m] => MoveSet::Move(m.to_string()),
                    _ => return Err(format!("{word} takes one move or 'all'")),
                };
                if word == "exclude" {
                    Command::Exclude(set)
                } else {
                    Command::Include(set)
                }
            }
            w if args.is_empty() && looks_like_move(w) => Command::Move(w.to_string()),
            _ => Command::Unknown(toks.join(" ")),
        };
        // Commands that take nothing refuse trailing words, so that what
        // is read always prints back the same.
        match &cmd {
            Command::Xboard
            | Command::New
            | Command::Quit
            | Command::Random
            | Command::Force
            | Command::Go
            | Command::PlayOther
            | Command::White
            | Command::Black
            | Command::MoveNow
            | Command::Draw
            | Command::Edit
            | Command::Hint
            | Command::Bk
            | Command::Undo
            | Command::Remove
            | Command::Hard
            | Command::Easy
            | Command::Post
            | Command::NoPost
            | Command::Analyze
            | Command::Exit
            | Command::Status
            | Command::Computer
            | Command::Pause
            | Command::Resume => no_args(word, args)?,
            _ => {}
        }
        Ok(Some(cmd))
    }
}

/// The `{...}` comment of a result, without its braces; blanks folded.
fn comment_of(rest: &str) -> String {
    let t = rest.trim();
    let t = t.strip_prefix('{').unwrap_or(t);
    let t = t.strip_suffix('}').unwrap_or(t);
    tokens(t).join(" ")
}

fn words(s: &str) -> String {
    tokens(s).join(" ")
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Xboard => f.write_str("xboard"),
            Command::Protover(n) => write!(f, "protover {n}"),
            Command::Accepted(x) => write!(f, "accepted {}", words(x)),
            Command::Rejected(x) => write!(f, "rejected {}", words(x)),
            Command::New => f.write_str("new"),
            Command::Variant(v) => write!(f, "variant {v}"),
            Command::Quit => f.write_str("quit"),
            Command::Random => f.write_str("random"),
            Command::Force => f.write_str("force"),
            Command::Go => f.write_str("go"),
            Command::PlayOther => f.write_str("playother"),
            Command::White => f.write_str("white"),
            Command::Black => f.write_str("black"),
            Command::Level(l) => l.fmt(f),
            Command::St(ms) => write!(f, "st {}", Seconds(*ms)),
            Command::Sd(d) => write!(f, "sd {d}"),
            Command::Nps(n) => write!(f, "nps {n}"),
            Command::Time(cs) => write!(f, "time {cs}"),
            Command::Otim(cs) => write!(f, "otim {cs}"),
            Command::UserMove(m) => write!(f, "usermove {m}"),
            Command::Move(m) => f.write_str(m),
            Command::MoveNow => f.write_str("?"),
            Command::Ping(n) => write!(f, "ping {n}"),
            Command::Draw => f.write_str("draw"),
            Command::Result { result, comment } => write!(f, "result {result} {{{comment}}}"),
            Command::SetBoard(fen) => write!(f, "setboard {}", words(fen)),
            Command::Edit => f.write_str("edit"),
            Command::Hint => f.write_str("hint"),
            Command::Bk => f.write_str("bk"),
            Command::Undo => f.write_str("undo"),
            Command::Remove => f.write_str("remove"),
            Command::Hard => f.write_str("hard"),
            Command::Easy => f.write_str("easy"),
            Command::Post => f.write_str("post"),
            Command::NoPost => f.write_str("nopost"),
            Command::Analyze => f.write_str("analyze"),
            Command::Exit => f.write_str("exit"),
            Command::Status => f.write_str("."),
            Command::Name(n) => write!(f, "name {}", words(n)),
            Command::Rating { engine, opponent } => write!(f, "rating {engine} {opponent}"),
            Command::Ics(h) => write!(f, "ics {}", words(h)),
            Command::Computer => f.write_str("computer"),
            Command::Pause => f.write_str("pause"),
            Command::Resume => f.write_str("resume"),
            Command::Memory(mb) => write!(f, "memory {mb}"),
            Command::Cores(n) => write!(f, "cores {n}"),
            Command::EgtPath { kind, path } => write!(f, "egtpath {kind} {}", words(path)),
            Command::Option { name, value } => match value {
                Some(v) => write!(f, "option {}={}", words(name), words(v)),
                None => write!(f, "option {}", words(name)),
            },
            Command::Exclude(s) => write!(f, "exclude {s}"),
            Command::Include(s) => write!(f, "include {s}"),
            Command::Unknown(text) => f.write_str(text),
        }
    }
}

/// A line in `edit` mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditLine {
    /// `#`: clear the board.
    Clear,
    /// `c`: the pieces that follow are of the other colour.
    Color,
    /// `Pa4`: a piece letter (as the variant's FEN writes it, `x` to
    /// empty the square) and a square in the variant's coordinates.
    Place { piece: char, square: String },
    /// `.`: leave edit mode.
    Done,
}

impl EditLine {
    pub fn parse(line: &str) -> Result<Option<EditLine>, String> {
        let t = line.trim();
        Ok(Some(match t {
            "" => return Ok(None),
            "#" => EditLine::Clear,
            "c" | "C" => EditLine::Color,
            "." => EditLine::Done,
            _ => {
                let mut chars = t.chars();
                let piece = chars.next().unwrap_or(' ');
                let square: String = chars.collect();
                let sq_ok = square.len() >= 2
                    && square.len() <= 3
                    && square.as_bytes()[0].is_ascii_lowercase()
                    && square[1..].bytes().all(|b| b.is_ascii_digit());
                if !piece.is_ascii_alphabetic() || !sq_ok {
                    return Err(format!("'{t}' is not #, c, . or a piece and a square"));
                }
                EditLine::Place { piece, square }
            }
        }))
    }
}

impl fmt::Display for EditLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditLine::Clear => f.write_str("#"),
            EditLine::Color => f.write_str("c"),
            EditLine::Place { piece, square } => write!(f, "{piece}{square}"),
            EditLine::Done => f.write_str("."),
        }
    }
}

/// A feature's value: a number or a quoted string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeatureValue {
    Int(i64),
    Str(String),
}

impl fmt::Display for FeatureValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeatureValue::Int(n) => write!(f, "{n}"),
            // A quote cannot live inside a quoted value.
            FeatureValue::Str(s) => write!(f, "\"{}\"", s.replace('"', "'")),
        }
    }
}

/// An engine option, as `feature option="..."` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Slider {
        default: i64,
        min: i64,
        max: i64,
    },
    Check(bool),
    String(String),
    File(String),
    Path(String),
    /// The choices and which is the default.
    Combo {
        choices: Vec<String>,
        default: usize,
    },
    Button,
    Save,
    Reset,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionKind,
}

impl OptionDecl {
    /// Reads `NAME -spin 16 1 1024` (the text inside the quotes).
    pub fn parse(text: &str) -> Option<OptionDecl> {
        let at = text.find(" -")?;
        let name = text[..at].trim().to_string();
        let rest = text[at + 2..].trim();
        let (kind, args) = rest.split_once(' ').unwrap_or((rest, ""));
        let nums: Vec<i64> = args
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        let kind = match kind {
            "spin" | "slider" => {
                let [default, min, max] = nums[..] else {
                    return None;
                };
                if kind == "spin" {
                    OptionKind::Spin { default, min, max }
                } else {
                    OptionKind::Slider { default, min, max }
                }
            }
            "check" => match args.trim() {
                "0" => OptionKind::Check(false),
                "1" => OptionKind::Check(true),
                _ => return None,
            },
            "string" => OptionKind::String(args.trim().to_string()),
            "file" => OptionKind::File(args.trim().to_string()),
            "path" => OptionKind::Path(args.trim().to_string()),
            "combo" => {
                let mut default = None;
                let mut choices = Vec::new();
                for (i, c) in args.split("///").enumerate() {
                    let c = c.trim();
                    match c.strip_prefix('*') {
                        // One choice is marked the default; a second
                        // star could be either, so such a list is refused.
                        Some(_) if default.is_some() => return None,
                        Some(d) => {
                            default = Some(i);
                            choices.push(d.trim().to_string());
                        }
                        None => choices.push(c.to_string()),
                    }
                }
                OptionKind::Combo {
                    choices,
                    default: default.unwrap_or(0),
                }
            }
            "button" if args.trim().is_empty() => OptionKind::Button,
            "save" if args.trim().is_empty() => OptionKind::Save,
            "reset" if args.trim().is_empty() => OptionKind::Reset,
            _ => return None,
        };
        (!name.is_empty()).then_some(OptionDecl { name, kind })
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => write!(f, "spin {default} {min} {max}"),
            OptionKind::Slider { default, min, max } => write!(f, "slider {default} {min} {max}"),
            OptionKind::Check(b) => write!(f, "check {}", u8::from(*b)),
            OptionKind::String(s) => write!(f, "string {s}"),
            OptionKind::File(s) => write!(f, "file {s}"),
            OptionKind::Path(s) => write!(f, "path {s}"),
            OptionKind::Combo { choices, default } => {
                f.write_str("combo")?;
                for (i, c) in choices.iter().enumerate() {
                    let sep = if i == 0 { " " } else { " /// " };
                    let star = if i == *default { "*" } else { "" };
                    write!(f, "{sep}{star}{c}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::Save => f.write_str("save"),
            OptionKind::Reset => f.write_str("reset"),
        }
    }
}

/// A thinking line: `ply score time nodes pv`. The score is in
/// centipawns from the engine's side (mates as ±(100000 + moves)); the
/// time in centiseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    pub ply: u32,
    pub score: i32,
    pub time_cs: u64,
    pub nodes: u64,
    /// The moves (and whatever else the engine wrote after the nodes).
    pub pv: String,
}

/// The score of a mate in `moves` moves (negative: we are mated).
pub fn mate_score(moves: i32) -> i32 {
    if moves >= 0 {
        100_000 + moves
    } else {
        -100_000 + moves
    }
}

/// The moves to mate a thinking score means, if it is a mate score.
pub fn score_mate(score: i32) -> Option<i32> {
    match score {
        s if (100_000..101_000).contains(&s) => Some(s - 100_000),
        s if (-100_999..=-100_000).contains(&s) => Some(s + 100_000),
        _ => None,
    }
}

/// What an engine prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `feature a=1 b="x y"`, in order.
    Feature(Vec<(String, FeatureValue)>),
    Move(String),
    /// Old engines' `My move is: e2e4` (read by the host; never printed
    /// by tengen).
    MyMoveIs(String),
    /// The GNU Chess 4 form (GNU Shogi): `12. ... 7g7f` for the engine's
    /// own move; whatever follows the move (a score) is dropped.
    NumberedMove {
        number: u32,
        mv: String,
    },
    Pong(i64),
    /// `Illegal move (reason): MOVE` or `Illegal move: MOVE`.
    IllegalMove {
        reason: Option<String>,
        mv: String,
    },
    /// `Error (reason): COMMAND`.
    Error {
        reason: String,
        command: String,
    },
    Thinking(Thinking),
    /// A result claim: `1-0 {White mates}`.
    Result {
        result: GameResult,
        comment: String,
    },
    Resign,
    OfferDraw,
    TellUser(String),
    TellUserError(String),
    /// `Hint: e2e4`.
    Hint(String),
    /// `# text`: debug output the GUI ignores.
    Debug(String),
    Unknown(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Feature(list) => {
                f.write_str("feature")?;
                for (k, v) in list {
                    write!(f, " {k}={v}")?;
                }
                Ok(())
            }
            Reply::Move(m) => write!(f, "move {m}"),
            Reply::MyMoveIs(m) => write!(f, "My move is: {m}"),
            Reply::NumberedMove { number, mv } => write!(f, "{number}. ... {mv}"),
            Reply::Pong(n) => write!(f, "pong {n}"),
            Reply::IllegalMove { reason, mv } => match reason {
                Some(r) => write!(f, "Illegal move ({}): {mv}", paren_safe(r)),
                None => write!(f, "Illegal move: {mv}"),
            },
            Reply::Error { reason, command } => {
                write!(f, "Error ({}): {}", paren_safe(reason), words(command))
            }
            Reply::Thinking(t) => {
                write!(f, "{} {} {} {}", t.ply, t.score, t.time_cs, t.nodes)?;
                if !t.pv.is_empty() {
                    write!(f, " {}", t.pv)?;
                }
                Ok(())
            }
            Reply::Result { result, comment } => write!(f, "{result} {{{}}}", brace_safe(comment)),
            Reply::Resign => f.write_str("resign"),
            Reply::OfferDraw => f.write_str("offer draw"),
            Reply::TellUser(t) => write!(f, "telluser {t}"),
            Reply::TellUserError(t) => write!(f, "tellusererror {t}"),
            Reply::Hint(m) => write!(f, "Hint: {m}"),
            Reply::Debug(t) => write!(f, "# {t}"),
            Reply::Unknown(t) => f.write_str(t),
        }
    }
}

fn paren_safe(s: &str) -> String {
    words(&s.replace(['(', ')'], ""))
}

fn brace_safe(s: &str) -> String {
    words(&s.replace(['{', '}'], ""))
}

/// Reads `a=1 b="x y" c=2` into pairs; stops at the first malformed one.
fn parse_features(s: &str) -> Vec<(String, FeatureValue)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = &rest[..eq];
        if key.is_empty() || key.contains(char::is_whitespace) {
            break;
        }
        let after = &rest[eq + 1..];
        if let Some(q) = after.strip_prefix('"') {
            let Some(end) = q.find('"') else { break };
            out.push((key.to_string(), FeatureValue::Str(q[..end].to_string())));
            rest = q[end + 1..].trim_start();
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            let Ok(n) = after[..end].parse::<i64>() else {
                break;
            };
            out.push((key.to_string(), FeatureValue::Int(n)));
            rest = after[end..].trim_start();
        }
    }
    out
}

fn parse_signed<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.strip_prefix('+').unwrap_or(s).parse().ok()
}

impl Reply {
    /// Reads one line of engine output; never fails.
    pub fn parse(line: &str) -> Reply {
        let toks = tokens(line);
        // Read from the words, so that what prints back reads the same.
        let joined = toks.join(" ");
        let t = joined.as_str();
        let unknown = || Reply::Unknown(toks.join(" "));
        let Some((&first, args)) = toks.split_first() else {
            return Reply::Unknown(String::new());
        };
        match first {
            "feature" => {
                let list = parse_features(rest_after(t, "feature"));
                return if list.is_empty() {
                    unknown()
                } else {
                    Reply::Feature(list)
                };
            }
            "move" => {
                return match args {
                    [m] => Reply::Move(m.to_string()),
                    _ => unknown(),
                }
            }
            "pong" => {
                return match args {
                    [n] => n.parse().map(Reply::Pong).unwrap_or_else(|_| unknown()),
                    _ => unknown(),
                }
            }
            "resign" if args.is_empty() => return Reply::Resign,
            "offer" if args == ["draw"] => return Reply::OfferDraw,
            "telluser" => return Reply::TellUser(args.join(" ")),
            "tellusererror" => return Reply::TellUserError(args.join(" ")),
            "Hint:" => {
                return match args {
                    [m] => Reply::Hint(m.to_string()),
                    _ => unknown(),
                }
            }
            "#" => return Reply::Debug(args.join(" ")),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("My move is") {
            let m = rest.trim_start().trim_start_matches(':').trim();
            return match tokens(m)[..] {
                [m] => Reply::MyMoveIs(m.to_string()),
                _ => unknown(),
            };
        }
        if let Some(rest) = t.strip_prefix("Illegal move") {
            let rest = rest.trim_start();
            let (reason, tail) = match rest.strip_prefix('(') {
                Some(r) => match r.split_once(')') {
                    Some((reason, tail)) if !reason.contains('(') => (Some(words(reason)), tail),
                    _ => return unknown(),
                },
                None => (None, rest),
            };
            let mv = tail.trim_start().trim_start_matches(':').trim();
            return match tokens(mv)[..] {
                [m] => Reply::IllegalMove {
                    reason,
                    mv: m.to_string(),
                },
                _ => unknown(),
            };
        }
        if let Some(rest) = t.strip_prefix("Error") {
            if let Some(r) = rest.trim_start().strip_prefix('(') {
                if let Some((reason, tail)) = r.split_once(')').filter(|(r, _)| !r.contains('(')) {
                    let command = tail.trim_start().trim_start_matches(':').trim();
                    return Reply::Error {
                        reason: words(reason),
                        command: words(command),
                    };
                }
            }
            return unknown();
        }
        if let Some(result) = GameResult::parse(first) {
            let rest = rest_after(t, first);
            if rest.starts_with('{') && rest.ends_with('}') && result != GameResult::Unknown {
                let inner = &rest[1..rest.len() - 1];
                if !inner.contains(['{', '}']) {
                    return Reply::Result {
                        result,
                        comment: words(inner),
                    };
                }
            }
            return unknown();
        }
        if let [num, "...", mv, ..] = toks[..] {
            if let Some(number) = num.strip_suffix('.').and_then(|n| n.parse::<u32>().ok()) {
                return Reply::NumberedMove {
                    number,
                    mv: mv.to_string(),
                };
            }
        }
        // A thinking line: four numbers, then the rest.
        if toks.len() >= 4 {
            let ply = toks[0].trim_end_matches(['.', '&']).parse::<u32>();
            let score = parse_signed::<i32>(toks[1]);
            let time = toks[2].parse::<u64>();
            let nodes = toks[3].parse::<u64>();
            if let (Ok(ply), Some(score), Ok(time_cs), Ok(nodes)) = (ply, score, time, nodes) {
                return Reply::Thinking(Thinking {
                    ply,
                    score,
                    time_cs,
                    nodes,
                    pv: toks[4..].join(" "),
                });
            }
        }
        unknown()
    }
}

/// The features tengen announces, in order: `done=0` first is sent by the
/// engine itself.
pub fn feature(key: &str, value: FeatureValue) -> Reply {
    Reply::Feature(vec![(key.to_string(), value)])
}

#[cfg(test)]
mod tests {
    /// Found by `cecp_command`: fractional minutes past the bound that
    /// `min:sec` keeps were read, then printed as a `min:sec` that was
    /// refused. Both forms now keep the same bound.
    #[test]
    fn huge_base_times_are_refused_in_both_forms() {
        use super::*;
        assert!(Command::parse("level 2211 666666666611.28996 23.20529").is_err());
        assert!(Command::parse("level 0 4294967297:00 0").is_err());
        let ok = Command::parse("level 40 4294967296.5 0");
        let Ok(Some(cmd)) = ok else { panic!("{ok:?}") };
        assert_eq!(Command::parse(&cmd.to_string()), Ok(Some(cmd)));
    }

    /// Found by `cecp_reply`: a combo with two starred choices read the
    /// last one as the default and printed the other without its star
    /// text's meaning; such a list is refused, and a default whose own
    /// text starts with a star reads back.
    #[test]
    fn combos_with_two_starred_choices_are_refused() {
        use super::*;
        assert_eq!(OptionDecl::parse("Style -combo *a /// *b"), None);
        let d = OptionDecl::parse("Style -combo a /// **b /// c");
        assert_eq!(
            d.as_ref().map(|d| &d.kind),
            Some(&OptionKind::Combo {
                choices: vec!["a".into(), "*b".into(), "c".into()],
                default: 1
            })
        );
        let again = d.as_ref().map(ToString::to_string).unwrap_or_default();
        assert_eq!(OptionDecl::parse(&again), d, "{again}");
    }
    use super::*;

    fn cmd(line: &str) -> Command {
        match Command::parse(line) {
            Ok(Some(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn commands_read_and_print_back() {
        for line in [
            "xboard",
            "protover 2",
            "new",
            "variant fischerandom",
            "force",
            "go",
            "playother",
            "level 40 5 0",
            "level 0 2:30 12",
            "level 0 1 0.5",
            "st 10",
            "st 0.5",
            "sd 8",
            "nps 5000",
            "time 30000",
            "otim -120",
            "usermove e2e4",
            "e7e8q",
            "P@e5",
            "O-O-O",
            "?",
            "ping 17",
            "draw",
            "result 1-0 {White mates}",
            "result * {}",
            "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "edit",
            "hint",
            "bk",
            "undo",
            "remove",
            "hard",
            "easy",
            "post",
            "nopost",
            "analyze",
            "exit",
            ".",
            "name Fairy-Max 5.0",
            "rating 2100 1900",
            "computer",
            "memory 64",
            "cores 2",
            "egtpath syzygy /tb/syzygy",
            "option Hash=32",
            "option Clear Hash",
            "exclude e2e4",
            "include all",
            "accepted usermove",
            "frobnicate 3 4",
        ] {
            let c = cmd(line);
            assert_eq!(c.to_string(), line, "{c:?}");
            assert_eq!(cmd(&c.to_string()), c);
        }
    }

    #[test]
    fn typed_values() {
        assert_eq!(
            cmd("level 40 0:30 0"),
            Command::Level(Level {
                mps: 40,
                base_s: 30,
                inc_ms: 0
            })
        );
        assert_eq!(
            cmd("level 0 0.5 2"),
            Command::Level(Level {
                mps: 0,
                base_s: 30,
                inc_ms: 2000
            })
        );
        assert_eq!(cmd("st 2.25"), Command::St(2250));
        assert_eq!(cmd("time -5"), Command::Time(-5));
        assert_eq!(
            cmd("result 1/2-1/2 {Draw by  repetition}"),
            Command::Result {
                result: GameResult::Draw,
                comment: "Draw by repetition".into()
            }
        );
        assert_eq!(cmd("e2e4"), Command::Move("e2e4".into()));
        assert_eq!(cmd("banana"), Command::Unknown("banana".into()));
    }

    #[test]
    fn malformed_arguments_are_errors() {
        for line in [
            "level 40 5",
            "level x 5 0",
            "level 0 5:75 0",
            "st fast",
            "sd",
            "ping x",
            "time",
            "usermove",
            "result 2-0",
            "setboard",
            "rating 1",
            "new game",
            "egtpath syzygy",
            "exclude a b",
            "protover",
        ] {
            assert!(Command::parse(line).is_err(), "{line}");
        }
        assert_eq!(Command::parse("   "), Ok(None));
    }

    #[test]
    fn edit_lines() {
        for (line, want) in [
            ("#", EditLine::Clear),
            ("c", EditLine::Color),
            (".", EditLine::Done),
            (
                "Pa4",
                EditLine::Place {
                    piece: 'P',
                    square: "a4".into(),
                },
            ),
            (
                "Ri0",
                EditLine::Place {
                    piece: 'R',
                    square: "i0".into(),
                },
            ),
        ] {
            assert_eq!(EditLine::parse(line), Ok(Some(want.clone())));
            assert_eq!(want.to_string(), line);
        }
        assert!(EditLine::parse("P4a").is_err());
        assert!(EditLine::parse("Pa").is_err());
    }

    #[test]
    fn replies_read_and_print_back() {
        for line in [
            "feature ping=1 setboard=1 myname=\"tengen 0.1\" done=1",
            "feature option=\"Hash -spin 16 1 65536\"",
            "move e2e4",
            "My move is: e7e5",
            "pong 3",
            "Illegal move (not legal here): e2e5",
            "Illegal move: e2e5",
            "Error (unknown command): frob",
            "12 35 104 123456 e2e4 e7e5 g1f3",
            "3 -100005 2 99",
            "1-0 {White mates}",
            "1/2-1/2 {Draw by repetition}",
            "resign",
            "offer draw",
            "telluser hello there",
            "tellusererror Illegal position",
            "Hint: e2e4",
            "# debug text",
            "3. ... 7g7f",
        ] {
            let r = Reply::parse(line);
            assert!(!matches!(r, Reply::Unknown(_)), "{line}: {r:?}");
            assert_eq!(r.to_string(), line);
        }
        assert_eq!(
            Reply::parse("My move is : e2e4"),
            Reply::MyMoveIs("e2e4".into())
        );
        assert_eq!(
            Reply::parse("4 +12 3 1000 e2e4"),
            Reply::Thinking(Thinking {
                ply: 4,
                score: 12,
                time_cs: 3,
                nodes: 1000,
                pv: "e2e4".into()
            })
        );
        assert!(matches!(Reply::parse("move"), Reply::Unknown(_)));
        assert_eq!(
            Reply::parse("1. ... 3a3b -3010"),
            Reply::NumberedMove {
                number: 1,
                mv: "3a3b".into()
            }
        );
        assert!(matches!(Reply::parse("1. 7g7f 0"), Reply::Unknown(_)));
    }

    #[test]
    fn option_declarations() {
        for text in [
            "Hash -spin 16 1 65536",
            "Ponder -check 0",
            "Clear Hash -button",
            "Style -combo Solid /// *Normal /// Risky",
            "Book -file book.bin",
            "Name -string hello world",
        ] {
            let d = OptionDecl::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(d.to_string(), text);
        }
        assert_eq!(OptionDecl::parse("Hash -spin x"), None);
        assert_eq!(mate_score(3), 100_003);
        assert_eq!(mate_score(-2), -100_002);
        assert_eq!(score_mate(-100_002), Some(-2));
        assert_eq!(score_mate(250), None);
    }
}
