//! GNU Go's board orientation: `orientation n` (0..7) clears the board and
//! from then on every vertex that comes in is moved by symmetry `n`
//! (`tengen_go::symmetry`) before the command sees it, and every vertex in
//! a reply is moved back. The game itself is kept in the transformed
//! ("internal") frame, so, as in GNU Go 3.8, `showboard` (and any other
//! drawing: `tengen-ownership`, kata-analyze's ownership map) shows the
//! internal board, `printsgf` writes the internal coordinates, and lists
//! come in the order of the internal board; `loadsgf` reads the file in
//! the outside frame (GNU Go rotates the record while loading it).
//! `query_orientation` answers the number.
//!
//! On a rectangular board (KataGo's `rectangular_boardsize`) only the four
//! orientations that map the board onto itself (0, 2, 5, 7) are taken;
//! the others, which would swap its width and height, are refused (by
//! `orientation`, and by `rectangular_boardsize` while one is in force).

use tengen_go::board::{parse_vertex_rect, vertex_name, Move};
use tengen_go::symmetry::{inverse, maps_onto_itself, transform};
use tengen_protocol::gtp::Command;

/// The commands this module answers.
pub(super) const COMMANDS: &[&str] = &["orientation", "query_orientation"];

/// Commands whose arguments are not vertices even when they look like one
/// (file names, text, rule names, command names).
const RAW_ARGS: &[&str] = &[
    "echo",
    "echo_err",
    "printsgf",
    "loadsgf",
    "known_command",
    "kata-set-rules",
    "kata-set-rule",
    "kgs-rules",
    "orientation",
    "query_orientation",
    "analyze_eyegraph",
];

/// Commands whose replies are not lists of vertices: text echoed back,
/// drawings of the internal board, SGF and JSON.
const RAW_REPLY: &[&str] = &[
    "echo",
    "echo_err",
    "printsgf",
    "showboard",
    "kata-get-rules",
    "list_commands",
    "help",
    "known_command",
    "name",
    "version",
    "gogui-title",
    "gogui-analyze_commands",
    "gogui_analyze_commands",
    "tengen-ownership",
    "analyze_eyegraph",
];

/// GNU Go reads the number with C's `sscanf("%d")`: blanks, a sign, then
/// digits, anything after them ignored; a value past `long` saturates and
/// is then cut to an `int`. `None` when no digit comes first.
pub(super) fn parse_c_int(s: &str) -> Option<i32> {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let run: &str = &digits[..digits
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(digits.len())];
    if run.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for d in run.bytes() {
        v = v.saturating_mul(10).saturating_add(i64::from(d - b'0'));
    }
    if neg {
        v = v.saturating_neg();
    }
    // C's conversion of a long to an int keeps the low 32 bits.
    Some(v as i32)
}

/// Refuses orientation `n` on a board it does not map onto itself.
pub(super) fn fits(n: u8, width: usize, height: usize) -> Result<(), String> {
    if maps_onto_itself(n, width, height) {
        Ok(())
    } else {
        Err(format!(
            "orientation {n} does not map a {width}x{height} board onto itself (only 0, 2, 5 and 7 do)"
        ))
    }
}

/// `orientation`'s argument, or GNU Go's words for a bad one.
pub(super) fn parse(a: &[String]) -> Result<u8, String> {
    let n = a
        .first()
        .and_then(|s| parse_c_int(s))
        .ok_or_else(|| "orientation not an integer".to_string())?;
    u8::try_from(n)
        .ok()
        .filter(|&n| n < 8)
        .ok_or_else(|| "unacceptable orientation".to_string())
}

/// Moves one word if it is a vertex (comma-separated lists word by word,
/// as kata-analyze's `avoid`/`allow` take them; `worm_data` heads each
/// block with `VERTEX:`); `pass` and anything else stay as they are.
fn map_word(word: &str, n: u8, (w, h): (usize, usize)) -> String {
    let (body, colon) = match word.strip_suffix(':') {
        Some(head) => (head, ":"),
        None => (word, ""),
    };
    let moved: Vec<String> = body
        .split(',')
        .map(|v| match parse_vertex_rect(v, w, h) {
            Some(Move::Play(p)) => vertex_name(transform(n, p, w, h)),
            _ => v.to_string(),
        })
        .collect();
    moved.join(",") + colon
}

/// Moves every vertex of a text by symmetry `n`, keeping the blanks and
/// line breaks between words.
fn map_text(text: &str, n: u8, size: (usize, usize)) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for ch in text.chars() {
        if ch.is_whitespace() {
            if !word.is_empty() {
                out.push_str(&map_word(&word, n, size));
                word.clear();
            }
            out.push(ch);
        } else {
            word.push(ch);
        }
    }
    if !word.is_empty() {
        out.push_str(&map_word(&word, n, size));
    }
    out
}

/// The command as the game (in the internal frame) must see it.
pub(super) fn command_in(cmd: &Command, n: u8, size: (usize, usize)) -> Command {
    if n == 0 || RAW_ARGS.contains(&cmd.name.as_str()) {
        return cmd.clone();
    }
    Command {
        id: cmd.id,
        name: cmd.name.clone(),
        args: cmd.args.iter().map(|a| map_word(a, n, size)).collect(),
    }
}

/// A reply's text as the outside must see it.
pub(super) fn reply_out(name: &str, text: &str, n: u8, size: (usize, usize)) -> String {
    if RAW_REPLY.contains(&name) {
        return text.to_string();
    }
    line_out(text, n, size)
}

/// A streamed line (analysis) as the outside must see it.
pub(super) fn line_out(text: &str, n: u8, size: (usize, usize)) -> String {
    if n == 0 {
        return text.to_string();
    }
    map_text(text, inverse(n), size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_c_reads_them() {
        let cases = [
            ("1", Some(1)),
            ("1.5", Some(1)),
            ("+2", Some(2)),
            ("03", Some(3)),
            ("4x", Some(4)),
            ("-0", Some(0)),
            ("-1", Some(-1)),
            ("x", None),
            ("", None),
            ("-", None),
            ("4294967297", Some(1)),
            ("99999999999", Some(1_215_752_191)),
        ];
        for (s, want) in cases {
            assert_eq!(parse_c_int(s), want, "{s}");
        }
        let err = |s: &str| parse(&[s.to_string()]).err();
        assert_eq!(err("8").as_deref(), Some("unacceptable orientation"));
        assert_eq!(err("-1").as_deref(), Some("unacceptable orientation"));
        assert_eq!(err("x").as_deref(), Some("orientation not an integer"));
        assert_eq!(
            parse(&[]).err().as_deref(),
            Some("orientation not an integer")
        );
        assert_eq!(parse(&["7".into()]), Ok(7));
    }

    #[test]
    fn words_move_and_text_stays() {
        // Orientation 1 on 9x9 takes B3 to G2 and back.
        assert_eq!(map_text("B3 \nA1 pass", 1, (9, 9)), "G2 \nJ1 pass");
        assert_eq!(reply_out("worm_stones", "G2 \nJ1 ", 1, (9, 9)), "B3 \nA1 ");
        assert_eq!(reply_out("echo", "G2", 1, (9, 9)), "G2");
        assert_eq!(map_word("B3,A1", 1, (9, 9)), "G2,J1");
        assert_eq!(map_word("B3:", 1, (9, 9)), "G2:");
        assert_eq!(map_text("1 B3", 0, (9, 9)), "1 B3");
        let cmd = Command {
            id: Some(3),
            name: "play".into(),
            args: vec!["b".into(), "b3".into()],
        };
        assert_eq!(command_in(&cmd, 1, (9, 9)).args, vec!["b", "G2"]);
    }
}
