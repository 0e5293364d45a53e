//! GTP v2 framing, both directions.
//!
//! Engine side: [`preprocess`] cleans a raw input line the way the
//! specification asks, [`Command::parse`] splits off the optional id and
//! the command name, [`Response`] prints `=id result\n\n` / `?id error\n\n`.
//! Controller side: [`Command::to_line`] prints a command and
//! [`ResponseReader`] reassembles an engine's reply from its lines.
//!
//! [`Request`] names the commands a controller (the arena) sends with typed
//! arguments; it prints to, and parses back from, the same [`Command`]
//! line the engine reads, so both sides share one definition.

use std::fmt;

/// The specification's pre-processing of one input line: drop control
/// characters other than HT and LF, cut the comment, turn HT into a space.
/// Returns `None` when nothing is left (the line must be ignored).
pub fn preprocess(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    for ch in raw.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            '\n' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    let t = out.trim();
    if t.is_empty() {
        None
    } else {
        Some(t.to_string())
    }
}

/// Whether a raw input line is GoGui's interrupt, the comment line
/// `# interrupt` (control characters and surrounding blanks ignored). It
/// must be checked before `preprocess`, which strips it as a comment.
pub fn is_interrupt(raw: &str) -> bool {
    let t: String = raw.chars().filter(|c| !c.is_control()).collect();
    t.trim() == "# interrupt"
}

/// A parsed command: optional id, name (case kept: GTP is case-sensitive
/// on names), arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

impl Command {
    /// Parses a pre-processed line. An all-digit first token is the id
    /// (`-5` or `2.5` are not ids). `None` when only an id is present.
    pub fn parse(line: &str) -> Option<Command> {
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            // An id too long for u64 is still an id; keep what fits.
            (Some(first.parse::<u64>().unwrap_or(u64::MAX)), words.next())
        } else {
            (None, Some(first))
        };
        Some(Command {
            id,
            name: name?.to_string(),
            args: words.map(str::to_string).collect(),
        })
    }

    /// The id of a line that has an id but no command, to answer it.
    pub fn bare_id(line: &str) -> Option<u64> {
        let mut words = line.split_whitespace();
        let first = words.next()?;
        if words.next().is_none() && first.bytes().all(|b| b.is_ascii_digit()) {
            first.parse().ok()
        } else {
            None
        }
    }

    /// Controller side: the command as a line (without the LF).
    pub fn to_line(&self) -> String {
        let mut s = String::new();
        if let Some(id) = self.id {
            s.push_str(&id.to_string());
            s.push(' ');
        }
        s.push_str(&self.name);
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// A reply: success or failure, the echoed id and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub id: Option<u64>,
    pub text: String,
}

impl Response {
    pub fn success(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            ok: true,
            id,
            text: text.into(),
        }
    }

    pub fn failure(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            ok: false,
            id,
            text: text.into(),
        }
    }

    /// The first line of a response (`=12` or `?`), for streamed replies.
    pub fn head(ok: bool, id: Option<u64>) -> String {
        let mut s = String::from(if ok { "=" } else { "?" });
        if let Some(id) = id {
            s.push_str(&id.to_string());
        }
        s
    }
}

impl fmt::Display for Response {
    /// `=id text\n\n`; blank lines inside the text are dropped so the
    /// framing can never break, and the space is always written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body: Vec<&str> = self.text.lines().filter(|l| !l.trim().is_empty()).collect();
        write!(
            f,
            "{} {}\n\n",
            Response::head(self.ok, self.id),
            body.join("\n")
        )
    }
}

/// Controller side: collects an engine's output lines into responses.
/// Lines before a response's first line (banners, stray blank lines) are
/// skipped, as GoGui does; the controller's pre-processing (control
/// characters dropped, HT read as a space) is applied to every line.
#[derive(Debug, Default)]
pub struct ResponseReader {
    current: Option<Response>,
}

impl ResponseReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one output line; returns the response this line completes.
    pub fn feed(&mut self, raw: &str) -> Option<Response> {
        let line: String = raw
            .chars()
            .filter(|&c| c == '\t' || !c.is_control())
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        match &mut self.current {
            None => {
                let ok = match line.chars().next() {
                    Some('=') => true,
                    Some('?') => false,
                    _ => return None,
                };
                let rest = &line[1..];
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                // An id too long for u64 keeps what fits, as Command::parse.
                let id = (digits > 0).then(|| rest[..digits].parse().unwrap_or(u64::MAX));
                let text = rest[digits..].trim().to_string();
                self.current = Some(Response { ok, id, text });
                None
            }
            Some(resp) => {
                if line.trim().is_empty() {
                    let mut done = self.current.take()?;
                    done.text = done.text.trim().to_string();
                    Some(done)
                } else {
                    // Trailing blanks go, as they do on the first line
                    // (printing a response cannot keep them there).
                    resp.text.push('\n');
                    resp.text.push_str(line.trim_end());
                    None
                }
            }
        }
    }
}

/// A colour as GTP writes it (`b`, `w`); read in any of GTP's spellings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "b",
            Color::White => "w",
        })
    }
}

/// The commands a controller sends, with typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    ProtocolVersion,
    Name,
    Version,
    BoardSize(u32),
    ClearBoard,
    Komi(f64),
    /// Black's handicap stones on the engine's fixed points; the reply
    /// lists them.
    FixedHandicap(u32),
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
    /// Any other command line (the config's init strings), as written.
    Raw(String),
    Quit,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::ProtocolVersion => f.write_str("protocol_version"),
            Request::Name => f.write_str("name"),
            Request::Version => f.write_str("version"),
            Request::BoardSize(n) => write!(f, "boardsize {n}"),
            Request::ClearBoard => f.write_str("clear_board"),
            Request::Komi(k) => write!(f, "komi {k}"),
            Request::FixedHandicap(n) => write!(f, "fixed_handicap {n}"),
            Request::Play { color, vertex } => write!(f, "play {color} {vertex}"),
            Request::GenMove(c) => write!(f, "genmove {c}"),
            Request::TimeSettings {
                main_s,
                byo_s,
                byo_stones,
            } => write!(f, "time_settings {main_s} {byo_s} {byo_stones}"),
            Request::TimeLeft {
                color,
                seconds,
                stones,
            } => write!(f, "time_left {color} {seconds} {stones}"),
            Request::FinalScore => f.write_str("final_score"),
            Request::FinalStatusList(s) => write!(f, "final_status_list {s}"),
            Request::Raw(s) => f.write_str(s),
            Request::Quit => f.write_str("quit"),
        }
    }
}

impl Request {
    /// Reads a command line's typed form (the id is not part of it); a
    /// command this type does not name, or one whose arguments do not fit,
    /// is `Raw`, the whole line with its id: a name of digits only (`8`)
    /// would read back as an id without it.
    pub fn parse(cmd: &Command) -> Request {
        let a: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let num = |i: usize| a.get(i).and_then(|v| v.parse::<u64>().ok());
        let typed = match (cmd.name.as_str(), a.len()) {
            ("protocol_version", 0) => Some(Request::ProtocolVersion),
            ("name", 0) => Some(Request::Name),
            ("version", 0) => Some(Request::Version),
            ("clear_board", 0) => Some(Request::ClearBoard),
            ("final_score", 0) => Some(Request::FinalScore),
            ("quit", 0) => Some(Request::Quit),
            ("boardsize", 1) => a[0].parse().ok().map(Request::BoardSize),
            ("fixed_handicap", 1) => a[0].parse().ok().map(Request::FixedHandicap),
            ("komi", 1) => a[0]
                .parse::<f64>()
                .ok()
                .filter(|k| k.is_finite())
                .map(Request::Komi),
            ("play", 2) => Color::parse(a[0]).map(|color| Request::Play {
                color,
                vertex: a[1].to_string(),
            }),
            ("genmove", 1) => Color::parse(a[0]).map(Request::GenMove),
            ("time_settings", 3) => match (num(0), num(1), num(2)) {
                (Some(main_s), Some(byo_s), Some(stones)) => {
                    u32::try_from(stones)
                        .ok()
                        .map(|byo_stones| Request::TimeSettings {
                            main_s,
                            byo_s,
                            byo_stones,
                        })
                }
                _ => None,
            },
            ("time_left", 3) => match (Color::parse(a[0]), num(1), num(2)) {
                (Some(color), Some(seconds), Some(stones)) => {
                    u32::try_from(stones).ok().map(|stones| Request::TimeLeft {
                        color,
                        seconds,
                        stones,
                    })
                }
                _ => None,
            },
            ("final_status_list", 1) => Some(Request::FinalStatusList(a[0].to_string())),
            _ => None,
        };
        typed.unwrap_or_else(|| Request::Raw(cmd.to_line()))
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
    rest.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| sign * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gogui_interrupt_is_seen_before_comment_stripping() {
        assert!(is_interrupt("# interrupt"));
        assert!(is_interrupt("  # interrupt\r"));
        assert!(!is_interrupt("# interrupted"));
        assert!(!is_interrupt("genmove b # interrupt"));
        assert!(!is_interrupt("# comment"));
        assert_eq!(preprocess("# interrupt"), None);
    }

    #[test]
    fn preprocessing_follows_the_spec() {
        assert_eq!(
            preprocess("play\tb D4 # comment").as_deref(),
            Some("play b D4")
        );
        assert_eq!(preprocess("  # only a comment"), None);
        assert_eq!(preprocess("\r\x07 "), None);
        assert_eq!(preprocess("na\x01me\r").as_deref(), Some("name"));
    }

    #[test]
    fn ids_are_unsigned_integers_only() {
        let c = Command::parse("12 play b D4").unwrap_or_else(|| panic!("parse"));
        assert_eq!(c.id, Some(12));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "D4"]);
        let c = Command::parse("-5 name").unwrap_or_else(|| panic!("parse"));
        assert_eq!((c.id, c.name.as_str()), (None, "-5"));
        let c = Command::parse("2.5 name").unwrap_or_else(|| panic!("parse"));
        assert_eq!(c.id, None);
        assert_eq!(Command::parse("7"), None);
        assert_eq!(Command::bare_id("7"), Some(7));
        assert_eq!(c.to_line(), "2.5 name");
    }

    #[test]
    fn responses_print_and_parse_back() {
        let r = Response::success(Some(3), "C3");
        assert_eq!(r.to_string(), "=3 C3\n\n");
        assert_eq!(Response::success(None, "").to_string(), "= \n\n");
        assert_eq!(
            Response::failure(Some(9), "a\n\nb").to_string(),
            "?9 a\nb\n\n"
        );
        let mut rd = ResponseReader::new();
        let got: Vec<Response> = ["GNU Go banner", "", "=3 A1", "B2", ""]
            .iter()
            .filter_map(|l| rd.feed(l))
            .collect();
        assert_eq!(got, [Response::success(Some(3), "A1\nB2")]);
        assert_eq!(rd.feed("? illegal move"), None);
        assert_eq!(rd.feed("\r"), Some(Response::failure(None, "illegal move")));
    }

    /// Reads back what a printed response says.
    fn read_back(r: &Response) -> Vec<Response> {
        let mut rd = ResponseReader::new();
        r.to_string().lines().filter_map(|l| rd.feed(l)).collect()
    }

    #[test]
    fn round_trips_both_ways() {
        // Engine side prints, controller side reads.
        for r in [
            Response::success(Some(3), "C3"),
            Response::success(None, ""),
            Response::failure(Some(u64::MAX), "illegal move"),
            Response::success(Some(0), "A1 B2\nC3\n= not a head"),
            Response::success(None, "+---+\n  | X |"),
        ] {
            assert_eq!(read_back(&r), std::slice::from_ref(&r));
        }
        // Controller side prints, engine side reads.
        let requests = [
            Request::ProtocolVersion,
            Request::Name,
            Request::Version,
            Request::BoardSize(19),
            Request::ClearBoard,
            Request::Komi(-3.5),
            Request::FixedHandicap(4),
            Request::Play {
                color: Color::White,
                vertex: "Q16".into(),
            },
            Request::GenMove(Color::Black),
            Request::TimeSettings {
                main_s: 60,
                byo_s: 30,
                byo_stones: 25,
            },
            Request::TimeLeft {
                color: Color::Black,
                seconds: 12,
                stones: 0,
            },
            Request::FinalScore,
            Request::FinalStatusList("dead".into()),
            Request::Raw("kgs-time_settings byoyomi 60 10 3".into()),
            Request::Quit,
        ];
        for r in requests {
            let line = preprocess(&r.to_string()).unwrap_or_default();
            let cmd = Command::parse(&line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(Request::parse(&cmd), r);
            let with_id = Command {
                id: Some(7),
                ..cmd.clone()
            };
            assert_eq!(Command::parse(&with_id.to_line()), Some(with_id));
        }
        // Arguments that do not fit the typed form stay as written.
        let cmd = Command::parse("4 genmove purple").unwrap_or_else(|| panic!("parse"));
        assert_eq!(
            Request::parse(&cmd),
            Request::Raw("4 genmove purple".into())
        );
        let cmd = Command::parse("8 8").unwrap_or_else(|| panic!("parse"));
        assert_eq!(Request::parse(&cmd), Request::Raw("8 8".into()));
        assert_eq!(parse_final_score("B+3.5"), Some(3.5));
        assert_eq!(parse_final_score("W+0.5"), Some(-0.5));
        assert_eq!(parse_final_score("0"), Some(0.0));
        assert_eq!(parse_final_score("B+inf"), None);
    }

    #[test]
    fn fuzzed_lines_never_panic() {
        // A tiny xorshift fuzzer over bytes that matter to the grammar.
        let alphabet: &[u8] = b"0123456789 \t#\r\x01-.=?abcAB\xc3\xa9";
        let mut s: u64 = 0x1234_5678_9abc_def1;
        for _ in 0..20_000 {
            let mut bytes = Vec::new();
            for _ in 0..(s % 24) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                bytes.push(alphabet[(s % alphabet.len() as u64) as usize]);
            }
            let line = String::from_utf8_lossy(&bytes);
            if let Some(p) = preprocess(&line) {
                assert!(!p.contains('#') && !p.contains('\t') && !p.trim().is_empty());
                if let Some(c) = Command::parse(&p) {
                    assert!(!c.name.is_empty());
                    let _ = Request::parse(&c).to_string();
                    let _ = Response::success(c.id, c.name).to_string();
                }
            }
            let mut rd = ResponseReader::new();
            let _ = rd.feed(&line);
            let _ = rd.feed(&line);
        }
    }
}
