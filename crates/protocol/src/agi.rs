//! AGI ("Amoyman Gobang Interface"): GUI commands and engine messages,
//! parsed and printed for both sides. Keywords are case-insensitive.
//! Points are two hex digits, row `0`-`E` then column `1`-`F`; lists of
//! points are written without separators and, as in the draft's own
//! example (`GO SEARCH 67596A6BINFINITE`), may run straight into the next
//! keyword: a list is the longest run of hex pairs.

use std::fmt;

/// A point as written on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pt {
    /// 0..=14, top to bottom.
    pub row: u8,
    /// 1..=15, left to right.
    pub col: u8,
}

impl fmt::Display for Pt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}{:X}", self.row, self.col)
    }
}

impl Pt {
    pub fn parse(s: &str) -> Result<Pt, String> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(format!("'{s}' is not a point (two hex digits)"));
        }
        pair(b[0], b[1])
    }
}

fn pair(r: u8, c: u8) -> Result<Pt, String> {
    let row = (r as char).to_digit(16);
    let col = (c as char).to_digit(16);
    match (row, col) {
        (Some(row @ 0..=14), Some(col @ 1..=15)) => Ok(Pt {
            row: row as u8,
            col: col as u8,
        }),
        _ => Err(format!(
            "'{}{}' is not a point (row 0-E, column 1-F)",
            r as char, c as char
        )),
    }
}

/// Writes a list of points the AGI way: concatenated.
pub fn points_to_string(pts: &[Pt]) -> String {
    pts.iter().map(|p| p.to_string()).collect()
}

/// Keywords that begin with two hex digits: a point list stops there.
const HEX_WORDS: &[&str] = &["DEPTH", "BESTMOVE"];

/// Reads a list of points from the start of `s`: hex pairs, optionally
/// separated by blanks, up to the first other character (or a keyword
/// such as `DEPTH` that looks like hex). Returns the points and the rest.
pub fn take_points(s: &str) -> Result<(Vec<Pt>, &str), String> {
    let mut pts = Vec::new();
    let mut rest = s.trim_start();
    loop {
        let b = rest.as_bytes();
        let upper = rest
            .get(..8.min(rest.len()))
            .unwrap_or("")
            .to_ascii_uppercase();
        if HEX_WORDS.iter().any(|w| upper.starts_with(w)) {
            break;
        }
        match (b.first(), b.get(1)) {
            (Some(&x), Some(&y)) if x.is_ascii_hexdigit() && y.is_ascii_hexdigit() => {
                pts.push(pair(x, y)?);
                rest = &rest[2..];
            }
            (Some(&x), _) if x.is_ascii_hexdigit() => {
                return Err(format!("odd-length point list at '{rest}'"));
            }
            _ => break,
        }
        let trimmed = rest.trim_start();
        if trimmed.len() != rest.len() {
            // Blanks: go on only if another pair follows.
            let t = trimmed.as_bytes();
            let more = matches!((t.first(), t.get(1)), (Some(x), Some(y)) if x.is_ascii_hexdigit() && y.is_ascii_hexdigit());
            if !more {
                break;
            }
            rest = trimmed;
        }
    }
    Ok((pts, rest))
}

/// Colour swap rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap {
    None,
    /// After black's first stone.
    First,
    /// After the third stone.
    Third,
}

/// Fifth-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fifth {
    /// A normal fifth move.
    One,
    /// Two offers, the opponent keeps one.
    Twine,
    /// Several offers (Yamaguchi-style).
    Multi,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoTime {
    /// Think until `STOP`.
    Infinite,
    /// Remaining game time in milliseconds.
    Remaining(u64),
}

/// GUI → engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Agi,
    SetRule {
        forbidden: Option<bool>,
        swap: Option<Swap>,
        fifth: Option<Fifth>,
    },
    SetOption {
        own_book: Option<bool>,
        ponder: Option<bool>,
    },
    IsReady,
    /// `STATU` stones then `MOVES`; together one alternating sequence
    /// from black.
    Position {
        statu: Vec<Pt>,
        moves: Vec<Pt>,
    },
    Go {
        search: Vec<Pt>,
        ponder: bool,
        time: Option<GoTime>,
    },
    Stop,
    DoMove(Vec<Pt>),
    Quit,
}

/// Splits the leading keyword (letters only) off `s`.
fn keyword(s: &str) -> (String, &str) {
    let s = s.trim_start();
    let n = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    (s[..n].to_ascii_uppercase(), &s[n..])
}

fn on_off(s: &str) -> Result<(bool, &str), String> {
    let (w, rest) = keyword(s);
    match w.as_str() {
        "ON" | "TRUE" => Ok((true, rest)),
        "OFF" | "FALSE" => Ok((false, rest)),
        _ => Err(format!("expected ON or OFF, got '{}'", s.trim())),
    }
}

/// SETRULE words, longest first so that `UNFORBIDDEN` is not read as
/// `UN` + `FORBIDDEN` and `FIVEMULTIPLE` not as `FIVEMULTI` + junk.
const RULE_WORDS: &[&str] = &[
    "UNFORBIDDEN",
    "FORBIDDEN",
    "FIRSTCHANGE",
    "THIRDCHANGE",
    "NOCHANGE",
    "FIVEMULTIPLE",
    "FIVEMULITY",
    "FIVEMULTI",
    "FIVETWINE",
    "TIVETWINE",
    "FIVEONE",
];

fn parse_setrule(rest: &str) -> Result<Command, String> {
    let text: String = rest
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let (mut forbidden, mut swap, mut fifth) = (None, None, None);
    let mut s = text.as_str();
    while !s.is_empty() {
        let Some(w) = RULE_WORDS.iter().find(|w| s.starts_with(**w)) else {
            return Err(format!("unknown rule '{s}'"));
        };
        match *w {
            "UNFORBIDDEN" => forbidden = Some(false),
            "FORBIDDEN" => forbidden = Some(true),
            "FIRSTCHANGE" => swap = Some(Swap::First),
            "THIRDCHANGE" => swap = Some(Swap::Third),
            "NOCHANGE" => swap = Some(Swap::None),
            "FIVETWINE" | "TIVETWINE" => fifth = Some(Fifth::Twine),
            "FIVEONE" => fifth = Some(Fifth::One),
            _ => fifth = Some(Fifth::Multi),
        }
        s = &s[w.len()..];
    }
    Ok(Command::SetRule {
        forbidden,
        swap,
        fifth,
    })
}

/// Parses one GUI line.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let (word, rest) = keyword(line);
    match word.as_str() {
        "AGI" => Ok(Command::Agi),
        "ISREADY" => Ok(Command::IsReady),
        "STOP" => Ok(Command::Stop),
        "QUIT" => Ok(Command::Quit),
        "SETRULE" => parse_setrule(rest),
        "SETOPTION" => {
            let (mut own_book, mut ponder) = (None, None);
            let mut s = rest;
            loop {
                let (w, r) = keyword(s);
                match w.as_str() {
                    "" if r.trim().is_empty() => break,
                    "OWNBOOK" => {
                        let (v, r) = on_off(r)?;
                        own_book = Some(v);
                        s = r;
                    }
                    "PONDER" => {
                        let (v, r) = on_off(r)?;
                        ponder = Some(v);
                        s = r;
                    }
                    _ => return Err(format!("unknown option '{}'", s.trim())),
                }
            }
            Ok(Command::SetOption { own_book, ponder })
        }
        "POSITION" => {
            let (mut statu, mut moves) = (Vec::new(), Vec::new());
            let mut s = rest;
            loop {
                let (w, r) = keyword(s);
                match w.as_str() {
                    "" if r.trim().is_empty() => break,
                    "STATU" | "STATUS" => {
                        let (p, r) = take_points(r)?;
                        statu.extend(p);
                        s = r;
                    }
                    "MOVES" => {
                        let (p, r) = take_points(r)?;
                        moves.extend(p);
                        s = r;
                    }
                    _ => return Err(format!("bad POSITION text '{}'", s.trim())),
                }
            }
            Ok(Command::Position { statu, moves })
        }
        "GO" => {
            let (mut search, mut ponder, mut time) = (Vec::new(), false, None);
            let mut s = rest;
            loop {
                let (w, r) = keyword(s);
                match w.as_str() {
                    "" if r.trim().is_empty() => break,
                    "SEARCH" => {
                        let (p, r) = take_points(r)?;
                        search.extend(p);
                        s = r;
                    }
                    "PONDER" => {
                        ponder = true;
                        s = r;
                    }
                    "INFINITE" => {
                        time = Some(GoTime::Infinite);
                        s = r;
                    }
                    "TIME" => {
                        let r = r.trim_start();
                        let (w2, r2) = keyword(r);
                        if w2 == "INFINITE" {
                            time = Some(GoTime::Infinite);
                            s = r2;
                        } else {
                            let n = r.bytes().take_while(u8::is_ascii_digit).count();
                            let ms = r[..n].parse::<u64>().map_err(|_| {
                                format!("TIME needs milliseconds, got '{}'", r.trim())
                            })?;
                            time = Some(GoTime::Remaining(ms));
                            s = &r[n..];
                        }
                    }
                    _ => return Err(format!("bad GO text '{}'", s.trim())),
                }
            }
            Ok(Command::Go {
                search,
                ponder,
                time,
            })
        }
        "DOMOVE" => {
            let (p, r) = take_points(rest)?;
            if p.is_empty() || !r.trim().is_empty() {
                return Err(format!("DOMOVE needs points, got '{}'", rest.trim()));
            }
            Ok(Command::DoMove(p))
        }
        "" => Err("empty command".into()),
        other => Err(format!("unknown command '{other}'")),
    }
}

impl fmt::Display for Command {
    /// The GUI's side: prints a command as sent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Agi => f.write_str("AGI"),
            Command::IsReady => f.write_str("ISREADY"),
            Command::Stop => f.write_str("STOP"),
            Command::Quit => f.write_str("QUIT"),
            Command::SetRule {
                forbidden,
                swap,
                fifth,
            } => {
                f.write_str("SETRULE")?;
                match forbidden {
                    Some(true) => f.write_str(" FORBIDDEN")?,
                    Some(false) => f.write_str(" UNFORBIDDEN")?,
                    None => {}
                }
                match swap {
                    Some(Swap::First) => f.write_str(" FIRSTCHANGE")?,
                    Some(Swap::Third) => f.write_str(" THIRDCHANGE")?,
                    Some(Swap::None) => f.write_str(" NOCHANGE")?,
                    None => {}
                }
                match fifth {
                    Some(Fifth::Twine) => f.write_str(" FIVETWINE"),
                    Some(Fifth::Multi) => f.write_str(" FIVEMULITY"),
                    Some(Fifth::One) => f.write_str(" FIVEONE"),
                    None => Ok(()),
                }
            }
            Command::SetOption { own_book, ponder } => {
                f.write_str("SETOPTION")?;
                let word = |b: bool| if b { "ON" } else { "OFF" };
                if let Some(b) = own_book {
                    write!(f, " OWNBOOK {}", word(*b))?;
                }
                if let Some(b) = ponder {
                    write!(f, " PONDER {}", word(*b))?;
                }
                Ok(())
            }
            Command::Position { statu, moves } => {
                f.write_str("POSITION")?;
                if !statu.is_empty() {
                    write!(f, " STATU {}", points_to_string(statu))?;
                }
                if !moves.is_empty() {
                    write!(f, " MOVES {}", points_to_string(moves))?;
                }
                Ok(())
            }
            Command::Go {
                search,
                ponder,
                time,
            } => {
                f.write_str("GO")?;
                if !search.is_empty() {
                    write!(f, " SEARCH {}", points_to_string(search))?;
                }
                if *ponder {
                    f.write_str(" PONDER")?;
                }
                match time {
                    Some(GoTime::Infinite) => f.write_str(" INFINITE"),
                    Some(GoTime::Remaining(ms)) => write!(f, " TIME {ms}"),
                    None => Ok(()),
                }
            }
            Command::DoMove(p) => write!(f, "DOMOVE {}", points_to_string(p)),
        }
    }
}

/// `INFO` fields; any subset on one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub score: Option<i64>,
    pub pv: Vec<Pt>,
    pub nps: Option<u64>,
    pub search: Vec<Pt>,
    pub win: Vec<Pt>,
    pub lose: Vec<Pt>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Best {
    /// One point, or several (fifth-move offers, a project extension).
    Points(Vec<Pt>),
    /// Take the colour swap.
    Change,
}

/// Engine → GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    IdName(String),
    IdAuthor(String),
    Options { own_book: bool, ponder: bool },
    AgiOk,
    ReadyOk,
    Info(Info),
    BestMove { best: Best, ponder: Option<Pt> },
    Bye,
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tf = |b: bool| if b { "TRUE" } else { "FALSE" };
        match self {
            Message::IdName(n) => write!(f, "ID NAME {n}"),
            Message::IdAuthor(a) => write!(f, "ID AUTHOR {a}"),
            Message::Options { own_book, ponder } => {
                write!(f, "OPTION OWNBOOK {} PONDER {}", tf(*own_book), tf(*ponder))
            }
            Message::AgiOk => f.write_str("AGIOK"),
            Message::ReadyOk => f.write_str("READYOK"),
            Message::Bye => f.write_str("BYE"),
            Message::Info(i) => {
                f.write_str("INFO")?;
                if let Some(d) = i.depth {
                    write!(f, " DEPTH {d}")?;
                }
                if let Some(s) = i.score {
                    write!(f, " SCORE {s}")?;
                }
                if !i.pv.is_empty() {
                    write!(f, " PV {}", points_to_string(&i.pv))?;
                }
                if let Some(n) = i.nps {
                    write!(f, " NPS {n}")?;
                }
                if !i.search.is_empty() {
                    write!(f, " SEARCH {}", points_to_string(&i.search))?;
                }
                if !i.win.is_empty() {
                    write!(f, " WIN {}", points_to_string(&i.win))?;
                }
                if !i.lose.is_empty() {
                    write!(f, " LOSE {}", points_to_string(&i.lose))?;
                }
                Ok(())
            }
            Message::BestMove { best, ponder } => {
                match best {
                    Best::Change => f.write_str("BESTMOVE CHANGE")?,
                    Best::Points(p) if p.is_empty() => f.write_str("BESTMOVE 00")?,
                    Best::Points(p) => write!(f, "BESTMOVE {}", points_to_string(p))?,
                }
                if let Some(p) = ponder {
                    write!(f, " PONDER {p}")?;
                }
                Ok(())
            }
        }
    }
}

/// The GUI's side: reads one engine line. `ID NAME x AUTHOR y` on one line
/// yields the name only (the author is split off by [`parse_id_line`]).
pub fn parse_message(line: &str) -> Result<Message, String> {
    let (word, rest) = keyword(line);
    match word.as_str() {
        "AGIOK" => Ok(Message::AgiOk),
        "READYOK" => Ok(Message::ReadyOk),
        "BYE" => Ok(Message::Bye),
        "ID" => {
            let (name, _) = parse_id_line(rest);
            match name {
                Some(m) => Ok(m),
                None => Err(format!("bad ID line '{}'", line.trim())),
            }
        }
        "OPTION" => {
            let (mut own_book, mut ponder) = (false, false);
            let mut s = rest;
            loop {
                let (w, r) = keyword(s);
                match w.as_str() {
                    "" => break,
                    "OWNBOOK" => {
                        let (v, r) = on_off(r)?;
                        own_book = v;
                        s = r;
                    }
                    "PONDER" => {
                        let (v, r) = on_off(r)?;
                        ponder = v;
                        s = r;
                    }
                    _ => return Err(format!("bad OPTION line '{}'", line.trim())),
                }
            }
            Ok(Message::Options { own_book, ponder })
        }
        "INFO" => {
            let mut i = Info::default();
            let mut s = rest;
            loop {
                let (w, r) = keyword(s);
                let num = |r: &str| -> Result<(i64, usize), String> {
                    let r = r.trim_start();
                    let n = r
                        .bytes()
                        .enumerate()
                        .take_while(|&(k, b)| b.is_ascii_digit() || (k == 0 && b == b'-'))
                        .count();
                    r[..n]
                        .parse::<i64>()
                        .map(|v| (v, n))
                        .map_err(|_| format!("bad number in '{}'", line.trim()))
                };
                match w.as_str() {
                    "" => break,
                    "DEPTH" | "SCORE" | "NPS" => {
                        let (v, n) = num(r)?;
                        match w.as_str() {
                            "DEPTH" => i.depth = Some(v.max(0) as u32),
                            "SCORE" => i.score = Some(v),
                            _ => i.nps = Some(v.max(0) as u64),
                        }
                        s = &r.trim_start()[n..];
                    }
                    "PV" | "SEARCH" | "WIN" | "LOSE" => {
                        let (p, r2) = take_points(r)?;
                        match w.as_str() {
                            "PV" => i.pv = p,
                            "SEARCH" => i.search = p,
                            "WIN" => i.win = p,
                            _ => i.lose = p,
                        }
                        s = r2;
                    }
                    _ => return Err(format!("bad INFO line '{}'", line.trim())),
                }
            }
            Ok(Message::Info(i))
        }
        "BESTMOVE" => {
            let (w, r) = keyword(rest);
            let (best, r) = if w == "CHANGE" {
                (Best::Change, r)
            } else {
                let r0 = rest.trim_start();
                if let Some(r1) = r0.strip_prefix("00") {
                    (Best::Points(Vec::new()), r1)
                } else {
                    let (p, r1) = take_points(r0)?;
                    if p.is_empty() {
                        return Err(format!("bad BESTMOVE line '{}'", line.trim()));
                    }
                    (Best::Points(p), r1)
                }
            };
            let (w, r) = keyword(r);
            let ponder = match w.as_str() {
                "PONDER" => {
                    let (p, _) = take_points(r)?;
                    p.first().copied()
                }
                "" => None,
                _ => return Err(format!("bad BESTMOVE line '{}'", line.trim())),
            };
            Ok(Message::BestMove { best, ponder })
        }
        _ => Err(format!("unknown engine line '{}'", line.trim())),
    }
}

/// Reads the text after `ID`: `NAME <name> [AUTHOR <author>]` or
/// `AUTHOR <author>`. Names may contain spaces.
pub fn parse_id_line(rest: &str) -> (Option<Message>, Option<Message>) {
    let (w, r) = keyword(rest);
    match w.as_str() {
        "NAME" => {
            let r = r.trim();
            let upper = r.to_ascii_uppercase();
            match upper.find(" AUTHOR ") {
                Some(k) => (
                    Some(Message::IdName(r[..k].trim().to_string())),
                    Some(Message::IdAuthor(r[k + 8..].trim().to_string())),
                ),
                None => (Some(Message::IdName(r.to_string())), None),
            }
        }
        "AUTHOR" => (Some(Message::IdAuthor(r.trim().to_string())), None),
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Pt {
        Pt::parse(s).unwrap()
    }

    #[test]
    fn commands_are_case_insensitive_and_tolerant() {
        assert_eq!(parse_command("agi"), Ok(Command::Agi));
        assert_eq!(
            parse_command("SETRULE UNFORBIDDENFIRSTCHANGE"),
            Ok(Command::SetRule {
                forbidden: Some(false),
                swap: Some(Swap::First),
                fifth: None
            })
        );
        assert_eq!(
            parse_command("setrule tivetwine forbidden"),
            Ok(Command::SetRule {
                forbidden: Some(true),
                swap: None,
                fifth: Some(Fifth::Twine)
            })
        );
        assert!(parse_command("SETRULE FORBIDDENX").is_err());
        assert_eq!(
            parse_command("GO SEARCH 67596A6BINFINITE"),
            Ok(Command::Go {
                search: vec![pt("67"), pt("59"), pt("6A"), pt("6B")],
                ponder: false,
                time: Some(GoTime::Infinite)
            })
        );
        assert_eq!(
            parse_command("go ponder time 296500"),
            Ok(Command::Go {
                search: vec![],
                ponder: true,
                time: Some(GoTime::Remaining(296500))
            })
        );
        assert_eq!(
            parse_command("POSITION STATUS 78695A MOVES 68"),
            Ok(Command::Position {
                statu: vec![pt("78"), pt("69"), pt("5A")],
                moves: vec![pt("68")]
            })
        );
        assert_eq!(
            parse_command("SETOPTION PONDER OFF"),
            Ok(Command::SetOption {
                own_book: None,
                ponder: Some(false)
            })
        );
        assert_eq!(
            parse_command("DOMOVE 6789"),
            Ok(Command::DoMove(vec![pt("67"), pt("89")]))
        );
        for bad in [
            "POSITION MOVES 786",
            "POSITION MOVES 00",
            "POSITION MOVES F1",
            "DOMOVE",
            "GO TIME",
            "FOO",
            "",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn round_trips() {
        for line in [
            "AGI",
            "SETRULE FORBIDDEN THIRDCHANGE FIVEMULITY",
            "SETOPTION OWNBOOK OFF PONDER ON",
            "POSITION STATU 78695A MOVES 6867",
            "GO SEARCH 6789 PONDER TIME 300000",
            "GO INFINITE",
            "DOMOVE EF",
            "STOP",
            "QUIT",
        ] {
            let c = parse_command(line).unwrap();
            assert_eq!(c.to_string(), line);
        }
        for line in [
            "ID NAME tengen 0.1",
            "ID AUTHOR tengen developers",
            "OPTION OWNBOOK FALSE PONDER TRUE",
            "AGIOK",
            "READYOK",
            "INFO DEPTH 6 SCORE -35 PV 6789 NPS 410000",
            "INFO SEARCH 6789 WIN 67 LOSE 89",
            "BESTMOVE 67 PONDER 89",
            "BESTMOVE CHANGE",
            "BESTMOVE 6789",
            "BESTMOVE 00",
            "BYE",
        ] {
            let m = parse_message(line).unwrap();
            assert_eq!(m.to_string(), line);
        }
        let (n, a) = parse_id_line("NAME Amoyman 1.0 AUTHOR someone");
        assert_eq!(n, Some(Message::IdName("Amoyman 1.0".into())));
        assert_eq!(a, Some(Message::IdAuthor("someone".into())));
    }

    #[test]
    fn random_input_never_panics() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let alphabet: Vec<char> = "AGIGOSEARCHPONDERTIMEINFINITEPOSITIONSTATUMOVESDOMOVESETRULE 0123456789abcdefABCDEF\té-"
            .chars()
            .collect();
        for _ in 0..30_000 {
            let len = (seed % 40) as usize;
            let mut s = String::new();
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let _ = parse_command(&s);
            let _ = parse_message(&s);
        }
    }
}
