//! GTP v2 (Go), controller side. A response is `=` or `?`, an optional
//! id, text, and ends with an empty line; `ResponseReader` assembles one
//! from the engine's lines.

use std::fmt;

/// A colour as GTP writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Black,
    White,
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "b",
            Color::White => "w",
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    BoardSize(u32),
    ClearBoard,
    Komi(f64),
    /// Vertices like `D4` or `pass`.
    Play {
        color: Color,
        vertex: String,
    },
    GenMove(Color),
    /// Canadian byo-yomi in seconds; `byo_stones = 0` means no byo-yomi.
    TimeSettings {
        main_s: u64,
        byo_s: u64,
        byo_stones: u32,
    },
    TimeLeft {
        color: Color,
        seconds: u64,
        stones: u32,
    },
    FinalScore,
    FinalStatusList(String),
    /// Anything the config's init strings ask for.
    Raw(String),
    Quit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::ProtocolVersion => f.write_str("protocol_version"),
            Command::Name => f.write_str("name"),
            Command::Version => f.write_str("version"),
            Command::BoardSize(n) => write!(f, "boardsize {n}"),
            Command::ClearBoard => f.write_str("clear_board"),
            Command::Komi(k) => write!(f, "komi {k}"),
            Command::Play { color, vertex } => write!(f, "play {color} {vertex}"),
            Command::GenMove(c) => write!(f, "genmove {c}"),
            Command::TimeSettings {
                main_s,
                byo_s,
                byo_stones,
            } => {
                write!(f, "time_settings {main_s} {byo_s} {byo_stones}")
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                write!(f, "time_left {color} {seconds} {stones}")
            }
            Command::FinalScore => f.write_str("final_score"),
            Command::FinalStatusList(s) => write!(f, "final_status_list {s}"),
            Command::Raw(s) => f.write_str(s),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// One complete response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub id: Option<u64>,
    /// The text after `=`/`?`, lines joined with `\n`, trimmed.
    pub text: String,
}

/// Collects lines until a response is complete. Lines before the first
/// `=`/`?` (banners, stray output) are ignored, as GoGui does.
#[derive(Debug, Default)]
pub struct ResponseReader {
    started: Option<(bool, Option<u64>)>,
    lines: Vec<String>,
}

impl ResponseReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one line; returns the response when this line ends it.
    pub fn feed(&mut self, line: &str) -> Option<Response> {
        let line = line.trim_end_matches(['\r', '\n']);
        match self.started {
            None => {
                let ok = match line.chars().next() {
                    Some('=') => true,
                    Some('?') => false,
                    _ => return None,
                };
                let rest = &line[1..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                let id = digits.parse::<u64>().ok();
                self.started = Some((ok, id));
                self.lines.push(rest[digits.len()..].trim().to_string());
                None
            }
            Some((ok, id)) => {
                if line.trim().is_empty() {
                    self.started = None;
                    let text = std::mem::take(&mut self.lines)
                        .join("\n")
                        .trim()
                        .to_string();
                    Some(Response { ok, id, text })
                } else {
                    self.lines.push(line.to_string());
                    None
                }
            }
        }
    }
}

/// Parses a `final_score` answer (`B+3.5`, `W+0.5`, `0`) into Black's
/// margin (negative when White leads).
pub fn parse_final_score(text: &str) -> Option<f64> {
    let t = text.trim();
    if t == "0" {
        return Some(0.0);
    }
    let (sign, rest) = match t.get(..2) {
        Some("B+") | Some("b+") => (1.0, &t[2..]),
        Some("W+") | Some("w+") => (-1.0, &t[2..]),
        _ => return None,
    };
    rest.parse::<f64>().ok().map(|v| sign * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembles_responses() {
        let mut r = ResponseReader::new();
        assert_eq!(r.feed("GNU Go banner"), None);
        assert_eq!(r.feed("=3 D4"), None);
        assert_eq!(
            r.feed(""),
            Some(Response {
                ok: true,
                id: Some(3),
                text: "D4".into()
            })
        );
        assert_eq!(r.feed("? illegal move"), None);
        assert_eq!(
            r.feed("\r"),
            Some(Response {
                ok: false,
                id: None,
                text: "illegal move".into()
            })
        );
        assert_eq!(r.feed("= A1 B2"), None);
        assert_eq!(r.feed("C3"), None);
        assert_eq!(
            r.feed(""),
            Some(Response {
                ok: true,
                id: None,
                text: "A1 B2\nC3".into()
            })
        );
    }

    #[test]
    fn prints_and_scores() {
        let c = Command::Play {
            color: Color::White,
            vertex: "Q16".into(),
        };
        assert_eq!(c.to_string(), "play w Q16");
        assert_eq!(
            Command::TimeSettings {
                main_s: 60,
                byo_s: 30,
                byo_stones: 25
            }
            .to_string(),
            "time_settings 60 30 25"
        );
        assert_eq!(parse_final_score("B+3.5"), Some(3.5));
        assert_eq!(parse_final_score("W+0.5"), Some(-0.5));
        assert_eq!(parse_final_score("0"), Some(0.0));
        assert_eq!(parse_final_score("junk"), None);
    }
}
