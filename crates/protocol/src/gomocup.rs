//! Gomocup ("pbrain") protocol: manager commands and brain replies, parsed
//! and printed for both sides. Points travel as plain `(x, y)` numbers;
//! whether they are on the board is the game's business.
//!
//! `BOARD` and `SWAP2BOARD` span several lines up to `DONE`, so the
//! manager side is read through a small stateful [`CommandReader`].

use std::fmt;

/// A point `x,y` as written on the wire (0-based column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xy {
    pub x: u32,
    pub y: u32,
}

impl fmt::Display for Xy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Parses `x,y` with optional spaces around the comma.
pub fn parse_xy(s: &str) -> Result<Xy, String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("'{}' is not a point x,y", s.trim()))?;
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{}' is not a point x,y", s.trim()))
    };
    Ok(Xy {
        x: num(a)?,
        y: num(b)?,
    })
}

/// A manager → brain command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(u32),
    RectStart(u32, u32),
    Restart,
    Begin,
    Turn(Xy),
    /// `BOARD` lines: point and field (1 own, 2 opponent, 3 marker).
    Board(Vec<(Xy, u8)>),
    Info(String, String),
    End,
    About,
    Takeback(Xy),
    Play(Xy),
    Swap2Board(Vec<Xy>),
    /// Any other command, kept verbatim (the brain answers `UNKNOWN`).
    Unknown(String),
}

impl fmt::Display for Command {
    /// The manager's side: prints a command as sent (multi-line ones with
    /// their data lines and `DONE`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(n) => write!(f, "START {n}"),
            Command::RectStart(w, h) => write!(f, "RECTSTART {w},{h}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(p) => write!(f, "TURN {p}"),
            Command::Board(stones) => {
                f.write_str("BOARD\n")?;
                for (p, c) in stones {
                    writeln!(f, "{p},{c}")?;
                }
                f.write_str("DONE")
            }
            Command::Info(k, v) => write!(f, "INFO {k} {v}"),
            Command::End => f.write_str("END"),
            Command::About => f.write_str("ABOUT"),
            Command::Takeback(p) => write!(f, "TAKEBACK {p}"),
            Command::Play(p) => write!(f, "PLAY {p}"),
            Command::Swap2Board(pts) => {
                f.write_str("SWAP2BOARD\n")?;
                for p in pts {
                    writeln!(f, "{p}")?;
                }
                f.write_str("DONE")
            }
            Command::Unknown(s) => f.write_str(s),
        }
    }
}

enum Pending {
    Board(Vec<(Xy, u8)>),
    Swap2(Vec<Xy>),
}

/// Turns manager lines into commands; holds `BOARD`/`SWAP2BOARD` data
/// lines until `DONE`.
#[derive(Default)]
pub struct CommandReader {
    pending: Option<Pending>,
    /// The first bad data line of a pending block, reported at `DONE`.
    bad: Option<String>,
}

impl CommandReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a `BOARD`/`SWAP2BOARD` block is open.
    pub fn in_block(&self) -> bool {
        self.pending.is_some()
    }

    /// Feeds one line. `None`: nothing complete yet (an empty line or a
    /// data line); `Some(Err)`: a malformed command, to answer `ERROR`.
    pub fn feed(&mut self, line: &str) -> Option<Result<Command, String>> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        if let Some(p) = self.pending.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let bad = self.bad.take();
                let done = self.pending.take()?;
                return Some(match bad {
                    Some(e) => Err(e),
                    None => Ok(match done {
                        Pending::Board(v) => Command::Board(v),
                        Pending::Swap2(v) => Command::Swap2Board(v),
                    }),
                });
            }
            match p {
                Pending::Board(v) => match parse_board_line(line) {
                    Ok(e) => v.push(e),
                    Err(e) => {
                        self.bad.get_or_insert(e);
                    }
                },
                Pending::Swap2(v) => match parse_xy(line) {
                    Ok(e) => v.push(e),
                    Err(e) => {
                        self.bad.get_or_insert(e);
                    }
                },
            }
            return None;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let cmd = word.to_ascii_uppercase();
        let r = match cmd.as_str() {
            "START" => rest
                .parse::<u32>()
                .map(Command::Start)
                .map_err(|_| format!("START needs a size, got '{rest}'")),
            "RECTSTART" => parse_xy(rest)
                .map(|p| Command::RectStart(p.x, p.y))
                .map_err(|_| format!("RECTSTART needs width,height, got '{rest}'")),
            "RESTART" => Ok(Command::Restart),
            "BEGIN" => Ok(Command::Begin),
            "TURN" => parse_xy(rest).map(Command::Turn),
            "TAKEBACK" => parse_xy(rest).map(Command::Takeback),
            "PLAY" => parse_xy(rest).map(Command::Play),
            "END" => Ok(Command::End),
            "ABOUT" => Ok(Command::About),
            "INFO" => {
                let (k, v) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if k.is_empty() {
                    Err("INFO needs a key".to_string())
                } else {
                    Ok(Command::Info(k.to_ascii_lowercase(), v.trim().to_string()))
                }
            }
            "BOARD" => {
                self.pending = Some(Pending::Board(Vec::new()));
                self.bad = None;
                return None;
            }
            "SWAP2BOARD" => {
                self.pending = Some(Pending::Swap2(Vec::new()));
                self.bad = None;
                return None;
            }
            _ => Ok(Command::Unknown(line.to_string())),
        };
        Some(r)
    }
}

fn parse_board_line(line: &str) -> Result<(Xy, u8), String> {
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [x, y, f] => {
            let p = parse_xy(&format!("{x},{y}"))?;
            match f.parse::<u8>() {
                Ok(v @ 1..=3) => Ok((p, v)),
                _ => Err(format!("bad field '{f}' in BOARD line '{line}'")),
            }
        }
        _ => Err(format!("bad BOARD line '{line}' (expected x,y,field)")),
    }
}

/// A brain → manager line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Xy),
    Ok,
    Error(String),
    Unknown(String),
    Message(String),
    Debug(String),
    Suggest(Xy),
    /// `key="value"` pairs of `ABOUT`.
    About(Vec<(String, String)>),
    Swap,
    /// Several points on one line (swap2 answers).
    Points(Vec<Xy>),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Move(p) => write!(f, "{p}"),
            Reply::Ok => f.write_str("OK"),
            Reply::Error(t) => write!(f, "ERROR {}", one_line(t)),
            Reply::Unknown(t) => write!(f, "UNKNOWN {}", one_line(t)),
            Reply::Message(t) => write!(f, "MESSAGE {}", one_line(t)),
            Reply::Debug(t) => write!(f, "DEBUG {}", one_line(t)),
            Reply::Suggest(p) => write!(f, "SUGGEST {p}"),
            Reply::About(kv) => {
                let parts: Vec<String> = kv
                    .iter()
                    .map(|(k, v)| format!("{k}=\"{}\"", one_line(v).replace('"', "'")))
                    .collect();
                f.write_str(&parts.join(", "))
            }
            Reply::Swap => f.write_str("SWAP"),
            Reply::Points(pts) => {
                let parts: Vec<String> = pts.iter().map(|p| p.to_string()).collect();
                f.write_str(&parts.join(" "))
            }
        }
    }
}

fn one_line(t: &str) -> String {
    t.replace(['\r', '\n'], " ")
}

/// The manager's side: reads one brain line.
pub fn parse_reply(line: &str) -> Result<Reply, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match word.to_ascii_uppercase().as_str() {
        "OK" if rest.is_empty() => return Ok(Reply::Ok),
        "SWAP" if rest.is_empty() => return Ok(Reply::Swap),
        "ERROR" => return Ok(Reply::Error(rest.into())),
        "UNKNOWN" => return Ok(Reply::Unknown(rest.into())),
        "MESSAGE" => return Ok(Reply::Message(rest.into())),
        "DEBUG" => return Ok(Reply::Debug(rest.into())),
        "SUGGEST" => return parse_xy(rest).map(Reply::Suggest),
        _ => {}
    }
    if line.contains('=') {
        let mut kv = Vec::new();
        for part in line.split(',') {
            if let Some((k, v)) = part.split_once('=') {
                kv.push((k.trim().to_string(), v.trim().trim_matches('"').to_string()));
            }
        }
        return Ok(Reply::About(kv));
    }
    let pts: Result<Vec<Xy>, String> = line.split_whitespace().map(parse_xy).collect();
    match pts {
        Ok(p) if p.len() == 1 => Ok(Reply::Move(p[0])),
        Ok(p) if !p.is_empty() => Ok(Reply::Points(p)),
        _ => {
            // "7, 7" with a space after the comma is still one point.
            parse_xy(line)
                .map(Reply::Move)
                .map_err(|_| format!("cannot read brain line '{line}'"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(lines: &[&str]) -> Vec<Result<Command, String>> {
        let mut r = CommandReader::new();
        lines.iter().filter_map(|l| r.feed(l)).collect()
    }

    #[test]
    fn commands() {
        let got = feed_all(&[
            "START 15",
            "",
            "info timeout_turn 5000",
            "TURN 7, 8",
            "BOARD",
            "7,7,1",
            "6,8,2",
            "DONE",
            "SWAP2BOARD",
            "DONE",
            "YXSHOWFORBID",
            "TURN x",
            "RECTSTART 20,15",
        ]);
        assert_eq!(got[0], Ok(Command::Start(15)));
        assert_eq!(
            got[1],
            Ok(Command::Info("timeout_turn".into(), "5000".into()))
        );
        assert_eq!(got[2], Ok(Command::Turn(Xy { x: 7, y: 8 })));
        assert_eq!(
            got[3],
            Ok(Command::Board(vec![
                (Xy { x: 7, y: 7 }, 1),
                (Xy { x: 6, y: 8 }, 2)
            ]))
        );
        assert_eq!(got[4], Ok(Command::Swap2Board(vec![])));
        assert_eq!(got[5], Ok(Command::Unknown("YXSHOWFORBID".into())));
        assert!(got[6].is_err());
        assert_eq!(got[7], Ok(Command::RectStart(20, 15)));
    }

    #[test]
    fn bad_board_line_fails_the_block() {
        let got = feed_all(&["BOARD", "7,7,1", "7,7,9", "DONE"]);
        assert_eq!(got.len(), 1);
        assert!(got[0].is_err());
    }

    #[test]
    fn round_trips() {
        for c in [
            Command::Board(vec![(Xy { x: 1, y: 2 }, 1)]),
            Command::Swap2Board(vec![Xy { x: 1, y: 2 }, Xy { x: 3, y: 4 }]),
            Command::Turn(Xy { x: 0, y: 19 }),
            Command::Info("rule".into(), "4".into()),
        ] {
            let text = c.to_string();
            let mut r = CommandReader::new();
            let back: Vec<_> = text.lines().filter_map(|l| r.feed(l)).collect();
            assert_eq!(back, vec![Ok(c)]);
        }
        for rep in [
            Reply::Move(Xy { x: 3, y: 4 }),
            Reply::Ok,
            Reply::Swap,
            Reply::Error("no".into()),
            Reply::Suggest(Xy { x: 1, y: 1 }),
            Reply::Points(vec![Xy { x: 1, y: 1 }, Xy { x: 2, y: 2 }]),
            Reply::About(vec![
                ("name".into(), "tengen".into()),
                ("version".into(), "0.1".into()),
            ]),
        ] {
            assert_eq!(parse_reply(&rep.to_string()), Ok(rep));
        }
    }

    #[test]
    fn random_input_never_panics() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let alphabet: Vec<char> = "STARTBEGINTURNBOARDDONEINFO 0123456789,-\t\r\nxyzé"
            .chars()
            .collect();
        let mut r = CommandReader::new();
        for _ in 0..20_000 {
            let len = (seed % 24) as usize;
            let mut s = String::new();
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let _ = r.feed(&s);
            let _ = parse_reply(&s);
        }
    }
}
