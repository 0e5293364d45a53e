//! Tokenising helpers shared by the protocol parsers.

/// Splits a line into blank-separated tokens (spaces, tabs, any run).
pub fn tokens(line: &str) -> Vec<&str> {
    line.split_ascii_whitespace().collect()
}

/// Parses an integer token, naming the field when it is not one.
pub fn int<T: std::str::FromStr>(field: &str, tok: Option<&&str>) -> Result<T, String> {
    let t = tok.ok_or_else(|| format!("'{field}' needs a value"))?;
    t.parse::<T>()
        .map_err(|_| format!("'{field}' expects a number, got '{t}'"))
}
