//! A small reader for the TOML subset a match file needs: tables,
//! arrays of tables, dotted and quoted keys, strings, numbers, booleans
//! and one-line arrays of those. Errors give the line number.

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Value>),
    Table(Table),
}

/// Keys in file order (the order of `[[engine]]` entries matters).
pub type Table = Vec<(String, Value)>;

impl Value {
    /// The value as text for the command-line code path.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Array(_) | Value::Table(_) => None,
        }
    }
}

pub fn parse(text: &str) -> Result<Table, String> {
    let mut root: Table = Vec::new();
    // Path of the table new keys go into; `true` in the last element
    // marks "the last element of an array of tables".
    let mut current: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let err = |msg: &str| format!("line {line_no}: {msg}");
        let line = strip_comment(raw).trim().to_string();
        if line.is_empty() {
            continue;
        }
        if let Some(inner) = line.strip_prefix("[[") {
            let name = inner
                .strip_suffix("]]")
                .ok_or_else(|| err("expected ']]'"))?;
            let path = split_key(name).map_err(|e| err(&e))?;
            let (last, parents) = path.split_last().ok_or_else(|| err("empty table name"))?;
            let parent = table_at(&mut root, parents).map_err(|e| err(&e))?;
            match find(parent, last) {
                Some(Value::Array(items)) => items.push(Value::Table(Vec::new())),
                Some(_) => return Err(err(&format!("'{last}' is already a value"))),
                None => parent.push((last.clone(), Value::Array(vec![Value::Table(Vec::new())]))),
            }
            current = path;
        } else if let Some(inner) = line.strip_prefix('[') {
            let name = inner.strip_suffix(']').ok_or_else(|| err("expected ']'"))?;
            let path = split_key(name).map_err(|e| err(&e))?;
            table_at(&mut root, &path).map_err(|e| err(&e))?;
            current = path;
        } else {
            let (key, value) =
                split_assignment(&line).ok_or_else(|| err("expected 'key = value'"))?;
            let mut path = split_key(key).map_err(|e| err(&e))?;
            let value = parse_value(value.trim()).map_err(|e| err(&e))?;
            let last = path.pop().ok_or_else(|| err("empty key"))?;
            let mut full = current.clone();
            full.extend(path);
            let table = table_at(&mut root, &full).map_err(|e| err(&e))?;
            if find(table, &last).is_some() {
                return Err(err(&format!("'{last}' is set twice")));
            }
            table.push((last, value));
        }
    }
    Ok(root)
}

fn find<'a>(t: &'a mut Table, key: &str) -> Option<&'a mut Value> {
    t.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The table at `path`, created on the way; through an array of tables
/// it descends into the last element.
fn table_at<'a>(root: &'a mut Table, path: &[String]) -> Result<&'a mut Table, String> {
    let mut t = root;
    for key in path {
        if find(t, key).is_none() {
            t.push((key.clone(), Value::Table(Vec::new())));
        }
        let v = find(t, key).ok_or("internal: key vanished")?;
        t = match v {
            Value::Table(inner) => inner,
            Value::Array(items) => match items.last_mut() {
                Some(Value::Table(inner)) => inner,
                _ => return Err(format!("'{key}' is not a table")),
            },
            _ => return Err(format!("'{key}' is not a table")),
        };
    }
    Ok(t)
}

fn strip_comment(line: &str) -> &str {
    let mut in_str: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match in_str {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    in_str = None;
                }
            }
            None if c == '"' || c == '\'' => in_str = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

/// Splits at the first `=` outside a quoted key.
fn split_assignment(line: &str) -> Option<(&str, &str)> {
    let mut in_str: Option<char> = None;
    for (i, c) in line.char_indices() {
        match in_str {
            Some(q) if c == q => in_str = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => in_str = Some(c),
            None if c == '=' => return Some((&line[..i], &line[i + 1..])),
            None => {}
        }
    }
    None
}

/// `a.b."c d"` into its parts.
fn split_key(key: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut rest = key.trim();
    while !rest.is_empty() {
        let (part, after) = if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').ok_or("unterminated quoted key")?;
            (r[..end].to_string(), &r[end + 1..])
        } else if let Some(r) = rest.strip_prefix('\'') {
            let end = r.find('\'').ok_or("unterminated quoted key")?;
            (r[..end].to_string(), &r[end + 1..])
        } else {
            let end = rest.find('.').unwrap_or(rest.len());
            let p = rest[..end].trim();
            if p.is_empty()
                || !p
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return Err(format!("bad key '{key}'"));
            }
            (p.to_string(), &rest[end..])
        };
        parts.push(part);
        let after = after.trim_start();
        rest = match after.strip_prefix('.') {
            Some(r) => r.trim_start(),
            None if after.is_empty() => after,
            None => return Err(format!("bad key '{key}'")),
        };
    }
    if parts.is_empty() {
        return Err("empty key".into());
    }
    Ok(parts)
}

fn parse_value(s: &str) -> Result<Value, String> {
    let (v, rest) = parse_one(s)?;
    if !rest.trim().is_empty() {
        return Err(format!("unexpected '{}' after the value", rest.trim()));
    }
    Ok(v)
}

fn parse_one(s: &str) -> Result<(Value, &str), String> {
    let s = s.trim_start();
    if let Some(r) = s.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = r.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok((Value::Str(out), &r[i + 1..])),
                '\\' => match chars.next().map(|(_, e)| e) {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    other => {
                        return Err(format!("unsupported escape '\\{}'", other.unwrap_or(' ')))
                    }
                },
                c => out.push(c),
            }
        }
        return Err("unterminated string".into());
    }
    if let Some(r) = s.strip_prefix('\'') {
        let end = r.find('\'').ok_or("unterminated string")?;
        return Ok((Value::Str(r[..end].to_string()), &r[end + 1..]));
    }
    if let Some(mut r) = s.strip_prefix('[') {
        let mut items = Vec::new();
        loop {
            r = r.trim_start();
            if let Some(after) = r.strip_prefix(']') {
                return Ok((Value::Array(items), after));
            }
            let (v, after) = parse_one(r)?;
            items.push(v);
            r = after.trim_start();
            if let Some(after) = r.strip_prefix(',') {
                r = after;
            } else if !r.starts_with(']') {
                return Err("expected ',' or ']' in array".into());
            }
        }
    }
    let end = s.find([',', ']']).unwrap_or(s.len());
    let (word, rest) = (s[..end].trim(), &s[end..]);
    let clean = word.replace('_', "");
    let v = match word {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ if clean.parse::<i64>().is_ok() => Value::Int(clean.parse().map_err(|_| "bad integer")?),
        _ if clean.parse::<f64>().is_ok() => Value::Float(clean.parse().map_err(|_| "bad number")?),
        _ => return Err(format!("cannot read value '{word}' (strings need quotes)")),
    };
    Ok((v, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_match_file() {
        let t = parse(
            r#"
# a match
games = 2
tc = "10+0.1"   # per engine
[sprt]
elo0 = 0
alpha = 0.05
[[engine]]
name = "sf"
option."Skill Level" = 0
[[engine]]
name = 'gnu # chess'
args = ["--uci", "-x"]
[engine.options]
Hash = 16
"#,
        )
        .unwrap();
        assert_eq!(t[0], ("games".into(), Value::Int(2)));
        assert_eq!(t[1], ("tc".into(), Value::Str("10+0.1".into())));
        let Value::Array(engines) = &t[3].1 else {
            panic!()
        };
        assert_eq!(engines.len(), 2);
        let Value::Table(e0) = &engines[0] else {
            panic!()
        };
        assert_eq!(e0[1].0, "option");
        let Value::Table(e1) = &engines[1] else {
            panic!()
        };
        assert_eq!(e1[0].1, Value::Str("gnu # chess".into()));
        assert_eq!(
            e1[1].1,
            Value::Array(vec![Value::Str("--uci".into()), Value::Str("-x".into())])
        );
        assert_eq!(e1[2].0, "options");
    }

    #[test]
    fn errors_name_the_line() {
        assert!(parse("a = 1\nb = nope\n")
            .unwrap_err()
            .starts_with("line 2"));
        assert!(parse("a = 1\na = 2").unwrap_err().contains("twice"));
        assert!(parse("[x\n").unwrap_err().starts_with("line 1"));
        assert!(parse("s = \"open").is_err());
    }
}
