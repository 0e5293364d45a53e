//! Engine options as protocol-neutral data: each front-end prints them in
//! its dialect (`option name … type spin …`, UCCI `option … type …`) and
//! funnels `setoption` through [`Options::set`], which validates the value
//! and never half-applies.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Button,
    String { default: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
    Pressed,
}

#[derive(Clone, Debug)]
pub struct EngineOption {
    pub name: String,
    pub kind: OptionKind,
    pub value: OptionValue,
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    BadValue {
        name: String,
        value: String,
        why: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::BadValue { name, value, why } => {
                write!(f, "bad value '{value}' for option '{name}': {why}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

#[derive(Clone, Debug, Default)]
pub struct Options {
    list: Vec<EngineOption>,
}

impl Options {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, name: &str, kind: OptionKind) -> &mut Self {
        let value = match &kind {
            OptionKind::Check { default } => OptionValue::Bool(*default),
            OptionKind::Spin { default, .. } => OptionValue::Int(*default),
            OptionKind::Combo { default, .. } => OptionValue::Text(default.clone()),
            OptionKind::Button => OptionValue::Pressed,
            OptionKind::String { default } => OptionValue::Text(default.clone()),
        };
        self.list.push(EngineOption {
            name: name.to_string(),
            kind,
            value,
        });
        self
    }

    pub fn iter(&self) -> impl Iterator<Item = &EngineOption> {
        self.list.iter()
    }

    fn find(&self, name: &str) -> Option<usize> {
        self.list
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    pub fn get(&self, name: &str) -> Option<&OptionValue> {
        self.find(name).map(|i| &self.list[i].value)
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(OptionValue::Int(v)) => *v,
            _ => 0,
        }
    }

    pub fn bool(&self, name: &str) -> bool {
        matches!(self.get(name), Some(OptionValue::Bool(true)))
    }

    pub fn text(&self, name: &str) -> String {
        match self.get(name) {
            Some(OptionValue::Text(t)) => t.clone(),
            _ => String::new(),
        }
    }

    /// Validates and stores a value. A spin value out of range, a
    /// non-number, an unknown combo entry or an unknown option is refused
    /// and nothing changes. Returns the value
    /// actually stored, and the option's canonical name.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(String, OptionValue), OptionError> {
        let i = self
            .find(name)
            .ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
        let opt = &self.list[i];
        let bad = |why: &str| OptionError::BadValue {
            name: opt.name.clone(),
            value: value.unwrap_or("").to_string(),
            why: why.to_string(),
        };
        let new = match &opt.kind {
            OptionKind::Button => OptionValue::Pressed,
            OptionKind::Check { .. } => {
                let v = value.ok_or_else(|| OptionError::MissingValue(opt.name.clone()))?;
                match v.trim().to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => OptionValue::Bool(true),
                    "false" | "off" | "0" => OptionValue::Bool(false),
                    _ => return Err(bad("expected true or false")),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let v = value.ok_or_else(|| OptionError::MissingValue(opt.name.clone()))?;
                let n: i128 = v.trim().parse().map_err(|_| bad("not an integer"))?;
                // Refused, not clamped: a GUI that sent 99999 for a
                // 1..1024 option would otherwise believe it got 99999.
                if n < *min as i128 || n > *max as i128 {
                    return Err(bad(&format!("out of range {min}..{max}")));
                }
                OptionValue::Int(n as i64)
            }
            OptionKind::Combo { vars, .. } => {
                let v = value.ok_or_else(|| OptionError::MissingValue(opt.name.clone()))?;
                match vars.iter().find(|x| x.eq_ignore_ascii_case(v.trim())) {
                    Some(x) => OptionValue::Text(x.clone()),
                    None => return Err(bad(&format!("expected one of {}", vars.join(", ")))),
                }
            }
            OptionKind::String { .. } => {
                let v = value.unwrap_or("");
                let v = if v == "<empty>" { "" } else { v };
                OptionValue::Text(v.to_string())
            }
        };
        let name = opt.name.clone();
        self.list[i].value = new.clone();
        Ok((name, new))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Options {
        let mut o = Options::new();
        o.add(
            "Hash",
            OptionKind::Spin {
                default: 16,
                min: 1,
                max: 1024,
            },
        )
        .add("Ponder", OptionKind::Check { default: false })
        .add(
            "Style",
            OptionKind::Combo {
                default: "normal".into(),
                vars: vec!["solid".into(), "normal".into(), "risky".into()],
            },
        );
        o
    }

    #[test]
    fn refuses_spin_out_of_range_and_ignores_case() {
        let mut o = sample();
        o.set("hash", Some("1024")).unwrap();
        assert_eq!(o.int("Hash"), 1024);
        assert!(matches!(
            o.set("hash", Some("1025")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(o.set("HASH", Some("0")).is_err());
        assert_eq!(o.int("Hash"), 1024);
        o.set("HASH", Some(" 1 ")).unwrap();
        assert_eq!(o.int("Hash"), 1);
    }

    #[test]
    fn refuses_bad_values_without_change() {
        let mut o = sample();
        assert!(o.set("Hash", Some("lots")).is_err());
        assert_eq!(o.int("Hash"), 16);
        assert!(o.set("Ponder", Some("maybe")).is_err());
        assert!(!o.bool("Ponder"));
        assert!(o.set("Style", Some("wild")).is_err());
        assert_eq!(o.text("Style"), "normal");
        assert!(matches!(
            o.set("Nope", Some("1")),
            Err(OptionError::Unknown(_))
        ));
    }
}
