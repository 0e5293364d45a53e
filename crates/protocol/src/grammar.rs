//! Grammar shared by the UCI family (UCI, UCCI, USI): the pieces of their
//! command lines that the three dialects write alike, parsed one way.

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

#[cfg(test)]
mod tests {
    use super::*;

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
