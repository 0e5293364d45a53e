//! GTP v2 framing, both directions.
//!
//! Engine side: [`preprocess`] cleans a raw input line the way the
//! specification asks, [`Command::parse`] splits off the optional id and
//! the command name, [`Response`] prints `=id result\n\n` / `?id error\n\n`.
//! Controller side: [`Command::to_line`] prints a command and
//! [`ResponseReader`] reassembles an engine's reply from its lines.

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
#[derive(Default)]
pub struct ResponseReader {
    current: Option<Response>,
}

impl ResponseReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one output line; returns a response when it is complete.
    /// Lines before a response's first line (stray blank lines) are skipped.
    pub fn feed(&mut self, raw: &str) -> Result<Option<Response>, String> {
        let line: String = raw
            .chars()
            .filter(|&c| c == '\t' || !c.is_control())
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        match &mut self.current {
            None => {
                if line.trim().is_empty() {
                    return Ok(None);
                }
                let ok = match line.as_bytes()[0] {
                    b'=' => true,
                    b'?' => false,
                    _ => return Err(format!("not a GTP response: '{line}'")),
                };
                let rest = &line[1..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                let id = if digits.is_empty() {
                    None
                } else {
                    digits.parse().ok()
                };
                let text = rest[digits.len()..].trim_start().to_string();
                self.current = Some(Response { ok, id, text });
                Ok(None)
            }
            Some(resp) => {
                if line.trim().is_empty() {
                    Ok(self.current.take())
                } else {
                    if !resp.text.is_empty() {
                        resp.text.push('\n');
                    }
                    resp.text.push_str(&line);
                    Ok(None)
                }
            }
        }
    }
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
        let mut got = None;
        for l in ["", "=3 A1", "B2", ""] {
            if let Some(r) = rd.feed(l).unwrap_or(None) {
                got = Some(r);
            }
        }
        assert_eq!(got, Some(Response::success(Some(3), "A1\nB2")));
        assert!(rd.feed("garbage").is_err());
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
                    let _ = Response::success(c.id, c.name).to_string();
                }
            }
            let _ = ResponseReader::new().feed(&line);
        }
    }
}
