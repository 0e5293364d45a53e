//! Grammar shared by the UCI family (UCI, UCCI, USI): `setoption`,
//! `position`, `go`, `info` and `option` are each read and written by one
//! algorithm here; a [`Dialect`] supplies the words that differ (the FEN
//! keyword, the `go` keywords, how a score or an option prints).

use crate::lexer::tokens;
use std::fmt;

/// The three dialects of the UCI family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Chess (and any game a UCI GUI picks with `UCI_Variant`).
    Uci,
    /// Xiangqi, the Chinese dialect.
    Ucci,
    /// Shogi, Shogidokoro's dialect.
    Usi,
}

impl Dialect {
    /// The handshake a GUI opens with.
    pub fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Usi => "usi",
        }
    }

    /// The engine's answer that ends the handshake.
    pub fn ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
            Dialect::Usi => "usiok",
        }
    }

    /// The word that introduces a position in `position`.
    pub fn fen_word(self) -> &'static str {
        match self {
            Dialect::Usi => "sfen",
            _ => "fen",
        }
    }

    /// The fewest fields a FEN may have: UCCI needs the side to move
    /// (guessing it would search the wrong side), USI board, side and hand.
    fn fen_fields(self) -> usize {
        match self {
            Dialect::Uci => 1,
            Dialect::Ucci => 2,
            Dialect::Usi => 3,
        }
    }

    /// The word of `info` that carries free text to the line's end.
    pub fn text_word(self) -> &'static str {
        match self {
            Dialect::Ucci => "message",
            _ => "string",
        }
    }

    /// Whether `option` lines name the option after a `name` keyword.
    fn option_name_word(self) -> bool {
        self != Dialect::Ucci
    }

    /// The order in which `info` fields print.
    fn info_order(self) -> &'static [Field] {
        use Field::*;
        match self {
            Dialect::Uci => &[
                Depth,
                SelDepth,
                MultiPv,
                Score,
                Wdl,
                Nodes,
                Nps,
                HashFull,
                TbHits,
                Time,
                CurrMove,
                CurrMoveNumber,
                Pv,
            ],
            Dialect::Usi => &[
                Depth,
                SelDepth,
                MultiPv,
                Score,
                CurrMove,
                CurrMoveNumber,
                Time,
                Nodes,
                Nps,
                HashFull,
                TbHits,
                Wdl,
                Pv,
            ],
            Dialect::Ucci => &[
                Depth,
                SelDepth,
                MultiPv,
                Score,
                Pv,
                Time,
                Nodes,
                Nps,
                HashFull,
                TbHits,
                Wdl,
                CurrMove,
                CurrMoveNumber,
            ],
        }
    }
}

/// Byte index of `word` as a whole blank-separated word in `s`.
pub fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(i) = s[start..].find(word) {
        let at = start + i;
        let before = at == 0 || s[..at].ends_with(|c: char| c.is_ascii_whitespace());
        let end = at + word.len();
        let after = end == s.len() || s[end..].starts_with(|c: char| c.is_ascii_whitespace());
        if before && after {
            return Some(at);
        }
        start = end;
    }
    None
}

/// `s` without leading and trailing blanks, the blanks the lexer splits
/// on (ASCII whitespace). `str::trim` would also strip Unicode spaces and
/// the vertical tab, which the lexer keeps inside tokens, so a value
/// printed back would differ from the one read.
pub fn trim_blanks(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The text of `line` after its first whole word `word`, trimmed.
pub fn after_word<'a>(line: &'a str, word: &str) -> &'a str {
    match find_word(line, word) {
        Some(i) => trim_blanks(&line[i + word.len()..]),
        None => "",
    }
}

/// `name <id> [value <x>]`, the text after `setoption`, the way UCI and
/// USI write it (and UCCI GUIs that borrow the form). The id runs to the
/// first whole word `value`; the value is the rest of the line as sent
/// (inner blanks kept: it may be a file path), `None` when absent or
/// empty.
pub fn setoption(body: &str) -> Result<(String, Option<String>), String> {
    let Some(after) = trim_blanks(body).strip_prefix("name") else {
        return Err("setoption needs 'name <id> [value <x>]'".into());
    };
    if !after.is_empty() && !after.starts_with(|c: char| c.is_ascii_whitespace()) {
        return Err("setoption needs 'name <id> [value <x>]'".into());
    }
    let after = trim_blanks(after);
    let (name, value) = match find_word(after, "value") {
        Some(i) => (trim_blanks(&after[..i]), Some(trim_blanks(&after[i + 5..]))),
        None => (after, None),
    };
    if name.is_empty() {
        return Err("setoption name needs an option name".into());
    }
    Ok((
        name.to_string(),
        value.filter(|v| !v.is_empty()).map(str::to_string),
    ))
}

/// `position`'s (and UCCI `probe`'s) arguments: `startpos` or
/// `<fen word> <fields…>`, then `moves <m…>`. Returns the FEN (`None` for
/// the start position) and the moves. `what` names the command in errors.
pub fn position(
    what: &str,
    args: &[&str],
    d: Dialect,
) -> Result<(Option<String>, Vec<String>), String> {
    let fen_word = d.fen_word();
    let moves_at = args.iter().position(|&t| t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves = match moves_at {
        Some(i) => args[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok((None, moves)),
        Some(&"startpos") => Err(format!("{what} startpos: unexpected '{}'", head[1])),
        Some(w) if *w == fen_word && head.len() > d.fen_fields() => {
            Ok((Some(head[1..].join(" ")), moves))
        }
        Some(w) if *w == fen_word && head.len() > 1 => Err(format!(
            "{what} {fen_word}: the {} '{}' has too few fields (at least {}: the side to move is needed)",
            fen_word.to_ascii_uppercase(),
            head[1..].join(" "),
            d.fen_fields()
        )),
        Some(w) if *w == fen_word => Err(format!("{what} {fen_word} needs a position")),
        Some(other) => Err(format!(
            "{what}: expected '{fen_word}' or 'startpos', got '{other}'"
        )),
        None => Err(format!("{what}: expected '{fen_word}' or 'startpos'")),
    }
}

/// Prints what [`position`] reads.
pub fn write_position(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    d: Dialect,
    fen: &Option<String>,
    moves: &[String],
) -> fmt::Result {
    match fen {
        Some(fen) => write!(f, "{what} {} {fen}", d.fen_word())?,
        None => write!(f, "{what} startpos")?,
    }
    if !moves.is_empty() {
        write!(f, " moves {}", moves.join(" "))?;
    }
    Ok(())
}

/// How many words follow a `go` keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// None (`ponder`, `infinite`).
    Flag,
    /// Exactly one (`wtime 1000`).
    One,
    /// One if the line goes on (USI's bare `go mate`).
    Optional,
    /// Every word up to the next keyword (`searchmoves`).
    List,
}

/// One `go` argument as read: its keyword and the words that followed.
pub type GoArg<'a> = (&'static str, &'a [&'a str]);

/// Walks `go`'s arguments by the dialect's keyword table, handing each
/// keyword and its words to `set` (which parses the values). A word that is
/// no keyword is an error.
pub fn go<'a>(
    args: &'a [&'a str],
    keys: &[(&'static str, Arity)],
    mut set: impl FnMut(GoArg<'a>) -> Result<(), String>,
) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let Some(&(key, arity)) = keys.iter().find(|(k, _)| *k == args[i]) else {
            return Err(format!("unknown go parameter '{}'", args[i]));
        };
        let from = i + 1;
        let to = match arity {
            Arity::Flag => from,
            Arity::One => from + 1,
            Arity::Optional => (from + 1).min(args.len()),
            Arity::List => {
                let n = args[from..]
                    .iter()
                    .position(|w| keys.iter().any(|(k, _)| k == w));
                from + n.unwrap_or(args.len() - from)
            }
        };
        if to > args.len() {
            return Err(format!("'{key}' needs a value"));
        }
        set((key, &args[from..to]))?;
        i = to;
    }
    Ok(())
}

/// A `go` value: a number (of any of the fields' types), or absent.
pub fn number<T: std::str::FromStr>(key: &str, words: &[&str]) -> Result<T, String> {
    let w = words
        .first()
        .ok_or_else(|| format!("'{key}' needs a value"))?;
    w.parse::<T>()
        .map_err(|_| format!("'{key}' expects a number in range, got '{w}'"))
}

/// One `go` argument as printed.
pub enum GoOut<'a> {
    Flag(bool),
    /// i128 holds every field's range (u64 node counts, i64 clocks).
    Num(Option<i128>),
    Word(Option<&'a str>),
    List(&'a [String]),
}

/// Prints `go` and every argument that is set, in the order given.
pub fn write_go(f: &mut fmt::Formatter<'_>, args: &[(&str, GoOut<'_>)]) -> fmt::Result {
    f.write_str("go")?;
    for (key, value) in args {
        match value {
            GoOut::Flag(true) => write!(f, " {key}")?,
            GoOut::Num(Some(v)) => write!(f, " {key} {v}")?,
            GoOut::Word(Some(v)) => write!(f, " {key} {v}")?,
            GoOut::List(l) if !l.is_empty() => write!(f, " {key} {}", l.join(" "))?,
            _ => {}
        }
    }
    Ok(())
}

/// A score in an `info` line, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCCI: hundredths of a horse, printed bare).
    Cp(i32),
    /// Mate in this many moves (UCI) or plies (USI); negative when mated.
    Mate(i32),
    /// USI `score mate +`: the engine mates, distance unknown.
    MatePlus,
    /// USI `score mate -`: the engine is mated, distance unknown.
    MateMinus,
}

/// A score that is only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

/// The fields of `info`, in the three dialects' spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Depth,
    SelDepth,
    MultiPv,
    Score,
    Wdl,
    Nodes,
    Nps,
    HashFull,
    TbHits,
    Time,
    CurrMove,
    CurrMoveNumber,
    Pv,
}

/// Words that end a `pv` list (every dialect's field names).
const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "wdl",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "sbhits",
    "cpuload",
    "time",
    "currmove",
    "currmovenumber",
    "currline",
    "refutation",
    "pv",
    "string",
    "message",
];

/// One `info` line of any dialect. Fields left out stay `None`; the text
/// (`string`, UCCI's `message`) prints last and runs to the line's end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<usize>,
    pub score: Option<Score>,
    /// Printed only beside a score.
    pub bound: Option<Bound>,
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// Milliseconds.
    pub time: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<usize>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// Keeps free text on one line: a line break would start a new message.
pub fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl Info {
    /// An `info` line that carries only text.
    pub fn text(text: impl Into<String>) -> Info {
        Info {
            string: Some(text.into()),
            ..Info::default()
        }
    }

    /// The line the way dialect `d` writes it.
    pub fn line(&self, d: Dialect) -> String {
        Printed(|f: &mut fmt::Formatter<'_>| self.write(f, d)).to_string()
    }

    /// Prints the line the way dialect `d` writes it.
    pub fn write(&self, f: &mut fmt::Formatter<'_>, d: Dialect) -> fmt::Result {
        f.write_str("info")?;
        for field in d.info_order() {
            match field {
                Field::Depth => num(f, "depth", self.depth)?,
                Field::SelDepth => num(f, "seldepth", self.seldepth)?,
                Field::MultiPv => num(f, "multipv", self.multipv)?,
                Field::Score => {
                    let Some(score) = self.score else { continue };
                    match (score, d) {
                        (Score::Cp(v), Dialect::Ucci) => write!(f, " score {v}")?,
                        (Score::Cp(v), _) => write!(f, " score cp {v}")?,
                        (Score::Mate(v), _) => write!(f, " score mate {v}")?,
                        (Score::MatePlus, _) => f.write_str(" score mate +")?,
                        (Score::MateMinus, _) => f.write_str(" score mate -")?,
                    }
                    match self.bound {
                        Some(Bound::Lower) => f.write_str(" lowerbound")?,
                        Some(Bound::Upper) => f.write_str(" upperbound")?,
                        None => {}
                    }
                }
                Field::Wdl => {
                    if let Some((w, dr, l)) = self.wdl {
                        write!(f, " wdl {w} {dr} {l}")?;
                    }
                }
                Field::Nodes => num(f, "nodes", self.nodes)?,
                Field::Nps => num(f, "nps", self.nps)?,
                Field::HashFull => num(f, "hashfull", self.hashfull)?,
                Field::TbHits => num(f, "tbhits", self.tbhits)?,
                Field::Time => num(f, "time", self.time)?,
                Field::CurrMove => {
                    if let Some(m) = &self.currmove {
                        write!(f, " currmove {m}")?;
                    }
                }
                Field::CurrMoveNumber => num(f, "currmovenumber", self.currmovenumber)?,
                Field::Pv => {
                    if !self.pv.is_empty() {
                        write!(f, " pv {}", self.pv.join(" "))?;
                    }
                }
            }
        }
        if let Some(s) = &self.string {
            write!(f, " {} {}", d.text_word(), one_line(s))?;
        }
        Ok(())
    }

    /// Reads an `info` line (the word `info` included) of any dialect:
    /// every score form (`cp`, `mate N`, `mate +`, UCCI's bare number) and
    /// both text words are understood. Never fails: a malformed value
    /// drops only its field, an unknown word is skipped.
    pub fn parse(line: &str) -> Info {
        let t = tokens(line);
        let mut info = Info::default();
        let mut i = 1;
        while i < t.len() {
            let word = t[i];
            let next = t.get(i + 1).copied();
            fn val<T: std::str::FromStr>(w: Option<&str>) -> Option<T> {
                w.and_then(|v| v.parse().ok())
            }
            i += 2;
            match word {
                "depth" => info.depth = val(next),
                "seldepth" => info.seldepth = val(next),
                "multipv" => info.multipv = val(next),
                "nodes" => info.nodes = val(next),
                "nps" => info.nps = val(next),
                "hashfull" => info.hashfull = val(next),
                "tbhits" => info.tbhits = val(next),
                "time" => info.time = val(next),
                "currmove" => info.currmove = next.map(str::to_string),
                "currmovenumber" => info.currmovenumber = val(next),
                "score" => {
                    let value = t.get(i).copied();
                    info.score = match (next, value) {
                        (Some("cp"), v) => v.and_then(|v| v.parse().ok()).map(Score::Cp),
                        (Some("mate"), Some("+")) => Some(Score::MatePlus),
                        (Some("mate"), Some("-")) => Some(Score::MateMinus),
                        (Some("mate"), v) => v.and_then(|v| v.parse().ok()).map(Score::Mate),
                        (bare, _) => {
                            i -= 1;
                            bare.and_then(|v| v.parse().ok()).map(Score::Cp)
                        }
                    };
                    i += 1;
                    let bound = match t.get(i).copied() {
                        Some("lowerbound") => Some(Bound::Lower),
                        Some("upperbound") => Some(Bound::Upper),
                        _ => None,
                    };
                    i += bound.is_some() as usize;
                    // A bound belongs to a score: none without one.
                    info.bound = bound.filter(|_| info.score.is_some());
                }
                "wdl" => {
                    let v = |k: usize| t.get(i - 1 + k).and_then(|v| v.parse().ok());
                    info.wdl = v(0).zip(v(1)).zip(v(2)).map(|((w, d), l)| (w, d, l));
                    i += 2;
                }
                "pv" => {
                    i -= 1;
                    let end = t[i..]
                        .iter()
                        .position(|w| INFO_KEYWORDS.contains(w))
                        .map_or(t.len(), |n| i + n);
                    info.pv = t[i..end].iter().map(|m| m.to_string()).collect();
                    i = end;
                }
                "string" | "message" => {
                    info.string = Some(rest_of_line(line, word).to_string());
                    break;
                }
                _ => i -= 1,
            }
        }
        info
    }
}

fn num<T: fmt::Display>(f: &mut fmt::Formatter<'_>, key: &str, v: Option<T>) -> fmt::Result {
    match v {
        Some(v) => write!(f, " {key} {v}"),
        None => Ok(()),
    }
}

/// The text of `line` after its token `word` (a slice of `line`), inner
/// blanks kept as sent.
pub fn rest_of_line<'a>(line: &'a str, word: &str) -> &'a str {
    let start = (word.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    let end = start + word.len();
    trim_blanks(line.get(end..).unwrap_or(""))
}

/// An option's type and values, as an `option` line announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    Check(bool),
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Combo {
        vars: Vec<String>,
        default: String,
    },
    Button,
    String(String),
    /// USI's file-name option.
    Filename(String),
    /// UCCI's read-only label.
    Label(String),
}

/// Prints `option …` the way dialect `d` announces it: UCI and USI with
/// `name` and the default first; UCCI without `name`, the default last.
pub fn write_option(
    f: &mut fmt::Formatter<'_>,
    d: Dialect,
    name: &str,
    kind: &OptionType,
) -> fmt::Result {
    // UCCI names are one word; one that is not (or is `name` itself)
    // goes in the UCI form, which every dialect's reader understands.
    let odd = name == "name" || name.contains(|c: char| c.is_ascii_whitespace());
    if d.option_name_word() || odd {
        write!(f, "option name {name} type ")?;
    } else {
        write!(f, "option {name} type ")?;
    }
    let text = |s: &str| {
        if s.is_empty() && d != Dialect::Ucci {
            "<empty>".to_string()
        } else {
            one_line(s)
        }
    };
    match (kind, d) {
        (OptionType::Check(v), _) => write!(f, "check default {v}"),
        (OptionType::Spin { min, max, default }, Dialect::Ucci) => {
            write!(f, "spin min {min} max {max} default {default}")
        }
        (OptionType::Spin { min, max, default }, _) => {
            write!(f, "spin default {default} min {min} max {max}")
        }
        (OptionType::Combo { vars, default }, Dialect::Ucci) => {
            f.write_str("combo")?;
            for v in vars {
                write!(f, " var {v}")?;
            }
            write!(f, " default {default}")
        }
        (OptionType::Combo { vars, default }, _) => {
            write!(f, "combo default {default}")?;
            for v in vars {
                write!(f, " var {v}")?;
            }
            Ok(())
        }
        (OptionType::Button, _) => f.write_str("button"),
        (OptionType::String(v), _) => write!(f, "string default {}", text(v)),
        (OptionType::Filename(v), _) => write!(f, "filename default {}", text(v)),
        (OptionType::Label(v), _) => write!(f, "label default {}", text(v)),
    }
}

/// The `option` line the way dialect `d` announces it.
pub fn option_line(d: Dialect, name: &str, kind: &OptionType) -> String {
    Printed(|f: &mut fmt::Formatter<'_>| write_option(f, d, name, kind)).to_string()
}

/// Prints through a closure (a line that needs its dialect to print).
struct Printed<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Printed<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// Reads an `option` line (the word `option` included) of any dialect:
/// the name runs to the word `type` (UCI names hold blanks). The values
/// are found by keyword wherever they stand. `None` when malformed.
pub fn parse_option(line: &str) -> Option<(String, OptionType)> {
    let t = tokens(line);
    let from = if t.get(1) == Some(&"name") { 2 } else { 1 };
    let at = from + t.get(from..)?.iter().position(|w| *w == "type")?;
    let name = t[from..at].join(" ");
    let rest = &t[at + 1..];
    if name.is_empty() {
        return None;
    }
    let after = |key: &str| {
        rest.iter()
            .position(|w| *w == key)
            .and_then(|i| rest.get(i + 1))
            .copied()
    };
    // A text default runs to the line's end; `<empty>` is UCI's empty.
    let text = || match rest.iter().position(|w| *w == "default") {
        Some(i) => {
            let s = rest_of_line(line, rest[i]);
            if s == "<empty>" {
                String::new()
            } else {
                s.to_string()
            }
        }
        None => String::new(),
    };
    let kind = match *rest.first()? {
        "check" => OptionType::Check(after("default")?.parse().ok()?),
        "spin" => OptionType::Spin {
            min: after("min")?.parse().ok()?,
            max: after("max")?.parse().ok()?,
            default: after("default")?.parse().ok()?,
        },
        "combo" => {
            // One pass from the left, each keyword taking the word after
            // it, so that a value which is itself `var` or `default` reads
            // as a value.
            let mut vars = Vec::new();
            let mut default = None;
            let mut i = 1;
            while i + 1 < rest.len() {
                match rest[i] {
                    "var" => vars.push(rest[i + 1].to_string()),
                    "default" if default.is_none() => default = Some(rest[i + 1].to_string()),
                    _ => {
                        i += 1;
                        continue;
                    }
                }
                i += 2;
            }
            OptionType::Combo {
                vars,
                default: default?,
            }
        }
        "button" => OptionType::Button,
        "string" => OptionType::String(text()),
        "filename" => OptionType::Filename(text()),
        "label" => OptionType::Label(text()),
        _ => return None,
    };
    Some((name, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combo_values_that_are_keywords_read_back() {
        // Found by the uci_reply fuzz target: a combo value `var` printed
        // as `var var` was read twice (each `var` took the next word, and
        // the words overlapped), so the option read back with other values.
        for d in [Dialect::Uci, Dialect::Ucci, Dialect::Usi] {
            for (vars, default) in [
                (vec!["var", "a"], "a"),
                (vec!["a", "var", "var", "b"], "var"),
                (vec!["default", "x"], "default"),
                (vec!["x", "default"], "x"),
            ] {
                let kind = OptionType::Combo {
                    vars: vars.iter().map(|v| v.to_string()).collect(),
                    default: default.to_string(),
                };
                let line = option_line(d, "Style", &kind);
                assert_eq!(
                    parse_option(&line),
                    Some(("Style".to_string(), kind)),
                    "{d:?}: {line}"
                );
            }
        }
    }

    #[test]
    fn setoption_forms() {
        let ok = |b: &str| setoption(b).unwrap();
        assert_eq!(ok("name Hash value 64"), ("Hash".into(), Some("64".into())));
        assert_eq!(ok("name Clear Hash"), ("Clear Hash".into(), None));
        assert_eq!(
            ok("name EvalFile value /a  b/nn.bin "),
            ("EvalFile".into(), Some("/a  b/nn.bin".into()))
        );
        assert_eq!(ok("name X value"), ("X".into(), None));
        // A vertical tab is no blank to the lexer, so it stays in the value.
        assert_eq!(
            ok("name X value 1 \u{b}"),
            ("X".into(), Some("1 \u{b}".into()))
        );
        assert_eq!(
            ok("name valueless value 1"),
            ("valueless".into(), Some("1".into()))
        );
        for bad in ["", "name", "name value 3", "Hash value 3", "names X"] {
            assert!(setoption(bad).is_err(), "{bad}");
        }
    }
}
