//! Engine options from the page: the options an engine announces over its
//! protocol (UCI, USI, UCCI: the `option` lines before `uciok`), the
//! values the page sets for them, checked here against the announced
//! type and range, and kept by the server for the next game or analysis
//! of that engine (and in the `--settings` JSON file, when given, across
//! restarts).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tengen_arena::player::EngineConfig;
use tengen_arena::process::{Process, Recv};
use tengen_games::Protocol;
use tengen_protocol::grammar::{parse_option, OptionType};

/// Options the page may not set: the GUI sets them for each game or
/// analysis itself.
const MANAGED: [&str; 4] = [
    "UCI_Chess960",
    "UCI_Variant",
    "UCI_AnalyseMode",
    "usemillisec",
];
/// Longest text value.
const MAX_TEXT: usize = 1024;

/// The options an engine announces, by name.
pub type Announced = Vec<(String, OptionType)>;

/// One announced option, for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionInfo {
    pub name: String,
    /// `check`, `spin`, `combo`, `string`, `filename`, `button`, `label`.
    pub kind: &'static str,
    pub default: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<String>,
    /// The value set from the page (none: the engine's default, or the
    /// server's configuration).
    pub value: Option<String>,
    /// Set by the GUI itself, or not a value (buttons, labels).
    pub fixed: bool,
}

/// The protocol's name as a settings key.
pub fn dialect(p: Protocol) -> Option<&'static str> {
    match p {
        Protocol::Uci => Some("uci"),
        Protocol::Usi => Some("usi"),
        Protocol::Ucci => Some("ucci"),
        _ => None,
    }
}

/// Starts the engine, reads the options it announces, and ends it.
pub fn probe(cfg: &EngineConfig) -> Result<Announced, String> {
    let hello = dialect(cfg.proto).ok_or_else(|| {
        format!(
            "{} announces no options over {:?} (only UCI, USI and UCCI engines do)",
            cfg.name, cfg.proto
        )
    })?;
    let mut p = Process::spawn(&cfg.launch, &format!("{} (options)", cfg.name), None)?;
    p.send(hello).map_err(|e| format!("{}: {e}", cfg.name))?;
    let ok = format!("{hello}ok");
    let deadline = Instant::now() + cfg.handshake_timeout;
    let mut out = Vec::new();
    let result = loop {
        match p.recv(deadline) {
            Recv::Line(_, line) => {
                let l = line.trim();
                if l == ok {
                    break Ok(out);
                }
                if l.starts_with("option") {
                    if let Some(o) = parse_option(l) {
                        out.push(o);
                    }
                }
            }
            Recv::Timeout => break Err(format!("{}: no {ok} in time", cfg.name)),
            Recv::Closed => break Err(format!("{}: the engine exited before {ok}", cfg.name)),
        }
    };
    p.shutdown("quit", Duration::from_millis(500));
    result
}

/// The page's view of the announced options with the values set.
pub fn describe(
    announced: &[(String, OptionType)],
    set: Option<&BTreeMap<String, String>>,
) -> Vec<OptionInfo> {
    announced
        .iter()
        .map(|(name, kind)| {
            let (k, default, min, max, vars) = match kind {
                OptionType::Check(d) => ("check", d.to_string(), None, None, Vec::new()),
                OptionType::Spin { min, max, default } => (
                    "spin",
                    default.to_string(),
                    Some(*min),
                    Some(*max),
                    Vec::new(),
                ),
                OptionType::Combo { vars, default } => {
                    ("combo", default.clone(), None, None, vars.clone())
                }
                OptionType::Button => ("button", String::new(), None, None, Vec::new()),
                OptionType::String(d) => ("string", d.clone(), None, None, Vec::new()),
                OptionType::Filename(d) => ("filename", d.clone(), None, None, Vec::new()),
                OptionType::Label(d) => ("label", d.clone(), None, None, Vec::new()),
            };
            OptionInfo {
                name: name.clone(),
                kind: k,
                default,
                min,
                max,
                vars,
                value: set.and_then(|s| s.get(name)).cloned(),
                fixed: MANAGED.contains(&name.as_str())
                    || matches!(kind, OptionType::Button | OptionType::Label(_)),
            }
        })
        .collect()
}

/// Checks a value for an announced option; `Ok` is the value as it will
/// be sent (a check as `true`/`false`, a combo in the engine's spelling).
pub fn check(
    announced: &[(String, OptionType)],
    name: &str,
    value: &str,
) -> Result<String, String> {
    let (_, kind) = announced
        .iter()
        .find(|(n, _)| n == name)
        .ok_or_else(|| format!("the engine has no option '{name}'"))?;
    if MANAGED.contains(&name) {
        return Err(format!("{name} is set by the GUI for each game"));
    }
    if value.len() > MAX_TEXT || value.chars().any(char::is_control) {
        return Err(format!(
            "{name}: a value is one line of at most {MAX_TEXT} bytes"
        ));
    }
    let v = value.trim();
    match kind {
        OptionType::Check(_) => match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => Ok("true".into()),
            "false" | "off" | "0" => Ok("false".into()),
            _ => Err(format!("{name}: '{v}' is not true or false")),
        },
        OptionType::Spin { min, max, .. } => {
            let n: i64 = v
                .parse()
                .map_err(|_| format!("{name}: '{v}' is not a whole number"))?;
            if n < *min || n > *max {
                return Err(format!("{name}: {n} is outside {min}..{max}"));
            }
            Ok(n.to_string())
        }
        OptionType::Combo { vars, .. } => vars
            .iter()
            .find(|x| x.eq_ignore_ascii_case(v))
            .cloned()
            .ok_or_else(|| format!("{name}: '{v}' is not one of {}", vars.join(", "))),
        OptionType::String(_) | OptionType::Filename(_) => Ok(value.to_string()),
        OptionType::Button | OptionType::Label(_) => Err(format!("{name} is not a value to keep")),
    }
}

/// Values set from the page: engine name → protocol → option → value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Settings(pub BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>);

impl Settings {
    pub fn get(&self, engine: &str, proto: &str) -> Option<&BTreeMap<String, String>> {
        self.0.get(engine).and_then(|m| m.get(proto))
    }

    pub fn set(&mut self, engine: &str, proto: &str, name: &str, value: Option<String>) {
        let per = self
            .0
            .entry(engine.to_string())
            .or_default()
            .entry(proto.to_string())
            .or_default();
        match value {
            Some(v) => {
                per.insert(name.to_string(), v);
            }
            None => {
                per.remove(name);
            }
        }
    }

    /// Reads the file; a missing one is empty.
    pub fn load(path: &Path) -> Result<Settings, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("settings file {}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Settings::default()),
            Err(e) => Err(format!("settings file {}: {e}", path.display())),
        }
    }

    /// Writes the file whole (a temporary file, then a rename).
    pub fn save(&self, path: &PathBuf) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text + "\n")
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("settings file {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn announced() -> Vec<(String, OptionType)> {
        [
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Ponder type check default false",
            "option name Style type combo default Solid var Solid var Wild",
            "option name EvalFile type string default <default>",
            "option name Clear Hash type button",
            "option name UCI_Chess960 type check default false",
        ]
        .iter()
        .map(|l| parse_option(l).unwrap())
        .collect()
    }

    #[test]
    fn values_are_checked_against_the_announced_type_and_range() {
        let a = announced();
        assert_eq!(check(&a, "Hash", " 64 "), Ok("64".into()));
        assert!(check(&a, "Hash", "0")
            .unwrap_err()
            .contains("outside 1..65536"));
        assert!(check(&a, "Hash", "lots").is_err());
        assert_eq!(check(&a, "Ponder", "ON"), Ok("true".into()));
        assert!(check(&a, "Ponder", "maybe").is_err());
        assert_eq!(check(&a, "Style", "wild"), Ok("Wild".into()));
        assert!(check(&a, "Style", "mild").is_err());
        assert_eq!(check(&a, "EvalFile", "a b.nnue"), Ok("a b.nnue".into()));
        assert!(check(&a, "EvalFile", "x\nquit").is_err(), "one line only");
        assert!(check(&a, "Clear Hash", "").is_err());
        assert!(check(&a, "UCI_Chess960", "true").is_err());
        assert!(check(&a, "Nope", "1").is_err());
        let mut s = Settings::default();
        s.set("tengen", "uci", "Hash", Some("64".into()));
        let d = describe(&a, s.get("tengen", "uci"));
        assert_eq!(d[0].value.as_deref(), Some("64"));
        assert_eq!((d[0].min, d[0].max), (Some(1), Some(65536)));
        assert_eq!(d[3].default, "<default>");
        assert!(d[4].fixed && d[5].fixed && !d[0].fixed);
        s.set("tengen", "uci", "Hash", None);
        assert!(s.get("tengen", "uci").unwrap().is_empty());
    }

    #[test]
    fn settings_file_round_trip() {
        let path =
            std::env::temp_dir().join(format!("tengen-gui-settings-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&path);
        assert_eq!(Settings::load(&path), Ok(Settings::default()));
        let mut s = Settings::default();
        s.set("tengen", "usi", "USI_Hash", Some("128".into()));
        s.save(&path).unwrap();
        assert_eq!(Settings::load(&path), Ok(s));
        std::fs::write(&path, "{not json").unwrap();
        assert!(Settings::load(&path).is_err());
        let _ = std::fs::remove_file(&path);
    }
}
