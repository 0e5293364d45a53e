//! Host side of every protocol: the commands a controller (a GUI, the
//! arena) prints to an engine, and the engine replies it parses.
//!
//! One file per protocol. Nothing here knows a game's rules: moves and
//! positions travel as strings, and the arena checks them with the rules
//! crates. Parsers never fail on garbage: an unrecognised line becomes
//! `Other`, so one stray line from an engine never ends a match.

pub mod ucci;
pub mod uci;
pub mod usi;

/// An evaluation an engine reported, from the side to move's view (as
/// UCI, UCCI and USI all define it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns (or the game's own small unit).
    Cp(i32),
    /// Mate in this many moves (UCI) or plies (USI); negative when the
    /// engine is being mated.
    Mate(i32),
}

impl EngineScore {
    /// A single number for adjudication thresholds: mates map far beyond
    /// any material score, keeping their sign.
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n >= 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }
}

/// The fields of an `info` line a controller cares about. Fields an
/// engine leaves out stay `None`; a malformed value drops only that field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<EngineScore>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub multipv: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// Parses the tokens after `info` (UCI, UCCI and USI share the layout).
/// `keywords` are the field names that end a `pv` list.
pub(crate) fn parse_info(tokens: &[&str], keywords: &[&str]) -> SearchInfo {
    let mut info = SearchInfo::default();
    let mut i = 0;
    let num = |t: Option<&&str>| t.and_then(|s| s.parse::<i64>().ok());
    while i < tokens.len() {
        let key = tokens[i].to_ascii_lowercase();
        i += 1;
        match key.as_str() {
            "depth" => info.depth = num(tokens.get(i)).and_then(|v| u32::try_from(v).ok()),
            "seldepth" => info.seldepth = num(tokens.get(i)).and_then(|v| u32::try_from(v).ok()),
            "nodes" => info.nodes = num(tokens.get(i)).and_then(|v| u64::try_from(v).ok()),
            "nps" => info.nps = num(tokens.get(i)).and_then(|v| u64::try_from(v).ok()),
            "time" => info.time_ms = num(tokens.get(i)).and_then(|v| u64::try_from(v).ok()),
            "multipv" => info.multipv = num(tokens.get(i)).and_then(|v| u32::try_from(v).ok()),
            "score" => {
                // `score cp 31`, `score mate -3`, UCCI's bare `score 31`,
                // USI's `score mate +` (mate found, length unknown).
                let kind = tokens.get(i).map(|s| s.to_ascii_lowercase());
                match kind.as_deref() {
                    Some("cp") => {
                        info.score = num(tokens.get(i + 1))
                            .and_then(|v| i32::try_from(v).ok())
                            .map(EngineScore::Cp);
                        i += 2;
                    }
                    Some("mate") => {
                        let raw = tokens.get(i + 1).copied().unwrap_or("");
                        info.score = match raw {
                            "+" => Some(EngineScore::Mate(1)),
                            "-" => Some(EngineScore::Mate(-1)),
                            _ => raw.parse::<i32>().ok().map(EngineScore::Mate),
                        };
                        i += 2;
                    }
                    _ => {
                        info.score = num(tokens.get(i))
                            .and_then(|v| i32::try_from(v).ok())
                            .map(EngineScore::Cp);
                        i += 1;
                    }
                }
                continue;
            }
            "pv" => {
                while i < tokens.len() && !keywords.contains(&tokens[i]) {
                    info.pv.push(tokens[i].to_string());
                    i += 1;
                }
                continue;
            }
            "string" => {
                info.string = Some(tokens[i..].join(" "));
                break;
            }
            _ => continue,
        }
        i += 1;
    }
    info
}

/// Splits a line into whitespace-separated tokens (any run of spaces and
/// tabs; a trailing CR is dropped with the rest of the blanks).
pub(crate) fn tokens(line: &str) -> Vec<&str> {
    line.split_ascii_whitespace().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_fields_and_pv() {
        let t = tokens("depth 12 seldepth 18 score cp -31 upperbound nodes 12345 nps 900 time 15 pv e2e4 e7e5 hashfull 3");
        let info = parse_info(&t, &["hashfull", "nodes"]);
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(18));
        assert_eq!(info.score, Some(EngineScore::Cp(-31)));
        assert_eq!(info.nodes, Some(12345));
        assert_eq!(info.time_ms, Some(15));
        assert_eq!(info.pv, vec!["e2e4", "e7e5"]);
    }

    #[test]
    fn mate_scores_and_garbage() {
        let info = parse_info(&tokens("score mate -3 depth x"), &[]);
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
        assert_eq!(info.depth, None);
        assert!(EngineScore::Mate(-3).as_cp() < -99_000);
        assert!(EngineScore::Mate(2).as_cp() > 99_000);
        let info = parse_info(&tokens("string hello world"), &[]);
        assert_eq!(info.string.as_deref(), Some("hello world"));
    }
}
