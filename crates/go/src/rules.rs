//! Rule sets as KataGo names them (`kata-get-rules`, `kata-set-rules`,
//! `kata-set-rule`): the ko rule, area or territory scoring, the tax on
//! seki territory, suicide, the button and White's handicap bonus, with
//! KataGo's shorthand names and its JSON form.
//!
//! tengen plays every rule set whose suicide and button settings are off
//! and whose tax is none or seki; the rest are refused with the reason
//! (KataGo refuses what its network does not support the same way).

use crate::game::KoRule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones plus surrounded points (Chinese, Tromp-Taylor).
    Area,
    /// Surrounded points plus prisoners (Japanese, Korean).
    Territory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tax {
    None,
    /// Points surrounded by a group in seki are nobody's.
    Seki,
    /// Every group pays two points for its eyes (ancient stone scoring).
    All,
}

/// What White gets in a handicap game of N stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    Zero,
    NMinusOne,
    N,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub ko: KoRule,
    pub scoring: Scoring,
    pub tax: Tax,
    /// Multi-stone suicide legal.
    pub suicide: bool,
    pub has_button: bool,
    pub bonus: HandicapBonus,
}

impl Default for Rules {
    /// What tengen has always played: positional superko, area scoring,
    /// no suicide, no handicap bonus.
    fn default() -> Rules {
        Rules {
            ko: KoRule::Positional,
            scoring: Scoring::Area,
            tax: Tax::None,
            suicide: false,
            has_button: false,
            bonus: HandicapBonus::Zero,
        }
    }
}

impl Rules {
    /// KataGo's shorthand names (and `kgs-rules`'s spellings).
    pub fn named(name: &str) -> Option<Rules> {
        use HandicapBonus as B;
        use KoRule as K;
        let area = |ko, suicide, bonus| Rules {
            ko,
            scoring: Scoring::Area,
            tax: Tax::None,
            suicide,
            has_button: false,
            bonus,
        };
        let japanese = Rules {
            ko: K::Simple,
            scoring: Scoring::Territory,
            tax: Tax::Seki,
            suicide: false,
            has_button: false,
            bonus: B::Zero,
        };
        Some(match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "tromp-taylor" => area(K::Positional, true, B::Zero),
            "chinese" => area(K::Simple, false, B::N),
            "chinese-ogs" | "chinese-kgs" => area(K::Positional, false, B::N),
            "japanese" | "korean" => japanese,
            "stone-scoring" => Rules {
                tax: Tax::All,
                ..area(K::Simple, false, B::Zero)
            },
            "aga" | "bga" => area(K::Situational, false, B::NMinusOne),
            "new-zealand" => area(K::Situational, true, B::Zero),
            "aga-button" => Rules {
                has_button: true,
                ..area(K::Situational, false, B::NMinusOne)
            },
            _ => return None,
        })
    }

    /// A rule set from `kata-set-rules`: a shorthand name or a JSON
    /// object of fields (missing fields keep the current value).
    pub fn parse(text: &str, current: Rules) -> Result<Rules, String> {
        let text = text.trim();
        if !text.starts_with('{') {
            return Rules::named(text).ok_or_else(|| format!("Unknown rules '{text}'"));
        }
        let mut r = current;
        for (key, value) in json_fields(text)? {
            r.set(&key, &value)?;
        }
        Ok(r)
    }

    /// One field, as `kata-set-rule KEY VALUE` (KataGo's names and values,
    /// in any case).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let v = value.to_ascii_uppercase();
        let bad = || format!("Unknown value '{value}' for rule '{key}'");
        let flag = || match v.as_str() {
            "TRUE" => Ok(true),
            "FALSE" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "ko" | "koRule" => {
                self.ko = match v.as_str() {
                    "SIMPLE" => KoRule::Simple,
                    "POSITIONAL" => KoRule::Positional,
                    "SITUATIONAL" => KoRule::Situational,
                    _ => return Err(bad()),
                }
            }
            "scoring" | "scoringRule" => {
                self.scoring = match v.as_str() {
                    "AREA" => Scoring::Area,
                    "TERRITORY" => Scoring::Territory,
                    _ => return Err(bad()),
                }
            }
            "tax" | "taxRule" => {
                self.tax = match v.as_str() {
                    "NONE" => Tax::None,
                    "SEKI" => Tax::Seki,
                    "ALL" => Tax::All,
                    _ => return Err(bad()),
                }
            }
            "suicide" | "multiStoneSuicideLegal" => self.suicide = flag()?,
            "hasButton" => self.has_button = flag()?,
            "whiteHandicapBonus" => {
                self.bonus = match v.as_str() {
                    "0" => HandicapBonus::Zero,
                    "N-1" => HandicapBonus::NMinusOne,
                    "N" => HandicapBonus::N,
                    _ => return Err(bad()),
                }
            }
            // KataGo accepts and ignores it where it does not apply.
            "friendlyPassOk" => {
                flag()?;
            }
            _ => return Err(format!("Unknown rules field '{key}'")),
        }
        Ok(())
    }

    /// Why tengen cannot play these rules, if it cannot.
    pub fn unsupported(&self) -> Option<&'static str> {
        if self.suicide {
            Some("multi-stone suicide is not supported")
        } else if self.has_button {
            Some("button Go is not supported")
        } else if self.tax == Tax::All {
            Some("the group tax of stone scoring is not supported")
        } else {
            None
        }
    }

    /// The `kata-get-rules` form: keys in KataGo's order.
    pub fn to_json(&self) -> String {
        let ko = match self.ko {
            KoRule::Simple => "SIMPLE",
            KoRule::Positional => "POSITIONAL",
            KoRule::Situational => "SITUATIONAL",
        };
        let scoring = match self.scoring {
            Scoring::Area => "AREA",
            Scoring::Territory => "TERRITORY",
        };
        let tax = match self.tax {
            Tax::None => "NONE",
            Tax::Seki => "SEKI",
            Tax::All => "ALL",
        };
        let bonus = match self.bonus {
            HandicapBonus::Zero => "0",
            HandicapBonus::NMinusOne => "N-1",
            HandicapBonus::N => "N",
        };
        format!(
            "{{\"friendlyPassOk\":true,\"hasButton\":{},\"ko\":\"{ko}\",\"scoring\":\"{scoring}\",\"suicide\":{},\"tax\":\"{tax}\",\"whiteHandicapBonus\":\"{bonus}\"}}",
            self.has_button, self.suicide
        )
    }

    /// White's handicap bonus for `stones` handicap stones.
    pub fn bonus_points(&self, stones: usize) -> f64 {
        match self.bonus {
            HandicapBonus::Zero => 0.0,
            HandicapBonus::NMinusOne => stones.saturating_sub(1) as f64,
            HandicapBonus::N => stones as f64,
        }
    }
}

/// The fields of a flat JSON object whose values are strings, booleans or
/// numbers (all a rule set holds), as text.
fn json_fields(text: &str) -> Result<Vec<(String, String)>, String> {
    let bad = || format!("Could not parse rules JSON '{text}'");
    let inner = text
        .strip_prefix('{')
        .and_then(|t| t.trim_end().strip_suffix('}'))
        .ok_or_else(bad)?;
    let mut fields = Vec::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        let (key, after) = json_string(rest).ok_or_else(bad)?;
        let after = after
            .trim_start()
            .strip_prefix(':')
            .ok_or_else(bad)?
            .trim_start();
        let (value, after) = if after.starts_with('"') {
            json_string(after).ok_or_else(bad)?
        } else {
            let end = after.find(',').unwrap_or(after.len());
            let v = after[..end].trim();
            if v.is_empty()
                || !v
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-+.".contains(c))
            {
                return Err(bad());
            }
            (v.to_string(), &after[end..])
        };
        fields.push((key, value));
        rest = after.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
            if rest.is_empty() {
                return Err(bad());
            }
        } else if !rest.is_empty() {
            return Err(bad());
        }
    }
    Ok(fields)
}

/// A JSON string without escapes at the start of `s`, and what follows.
fn json_string(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let end = body.find('"')?;
    let value = &body[..end];
    if value.contains('\\') {
        return None;
    }
    Some((value.to_string(), &body[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthands_print_as_katago_documents_them() {
        let json = |n: &str| Rules::named(n).map(|r| r.to_json()).unwrap_or_default();
        assert_eq!(
            json("chinese"),
            r#"{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"}"#
        );
        assert_eq!(
            json("japanese"),
            r#"{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}"#
        );
        assert!(
            json("tromp-taylor").contains(r#""ko":"POSITIONAL","scoring":"AREA","suicide":true"#)
        );
        assert!(json("aga").contains(r#""ko":"SITUATIONAL""#) && json("aga").contains(r#""N-1""#));
        assert_eq!(Rules::named("new_zealand"), Rules::named("new-zealand"));
        assert_eq!(Rules::named("go-moku"), None);
    }

    #[test]
    fn json_round_trips_and_partial_objects_keep_the_rest() {
        for name in [
            "chinese",
            "japanese",
            "aga",
            "tromp-taylor",
            "stone-scoring",
            "aga-button",
        ] {
            let r = Rules::named(name).unwrap_or_default();
            assert_eq!(
                Rules::parse(&r.to_json(), Rules::default()),
                Ok(r),
                "{name}"
            );
        }
        let r = Rules::parse(
            r#"{ "scoring" : "TERRITORY", "tax":"SEKI" }"#,
            Rules::default(),
        );
        assert_eq!(
            r.map(|r| (r.ko, r.scoring, r.tax)),
            Ok((KoRule::Positional, Scoring::Territory, Tax::Seki))
        );
        for bad in [
            "{",
            "{\"ko\"}",
            "{\"ko\":}",
            "{\"ko\":\"SIMPLE\",}",
            "{\"ko\":\"FOO\"}",
            "{\"colour\":\"red\"}",
            "{\"ko\":\"SIMPLE\" \"tax\":\"NONE\"}",
            "{\"k\\\"o\":\"SIMPLE\"}",
            "klingon",
        ] {
            assert!(Rules::parse(bad, Rules::default()).is_err(), "{bad}");
        }
    }

    #[test]
    fn single_fields_bonus_and_support() {
        let mut r = Rules::default();
        assert_eq!(r.unsupported(), None);
        r.set("ko", "situational").unwrap_or_default();
        assert_eq!(r.ko, KoRule::Situational);
        assert!(r.set("ko", "sometimes").is_err());
        assert!(r.set("komi", "7").is_err());
        r.set("whiteHandicapBonus", "N-1").unwrap_or_default();
        assert_eq!(
            (r.bonus_points(0), r.bonus_points(1), r.bonus_points(4)),
            (0.0, 0.0, 3.0)
        );
        r.set("suicide", "true").unwrap_or_default();
        assert!(r.unsupported().is_some());
        assert!(Rules::named("stone-scoring")
            .and_then(|r| r.unsupported())
            .is_some());
        assert!(Rules::named("japanese")
            .and_then(|r| r.unsupported())
            .is_none());
    }
}
