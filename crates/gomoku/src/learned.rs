//! Pattern tables learned from self-play: the value of an empty point for
//! the evaluation and for move ordering, read from the four line shapes
//! one colour has there (the point's *class*).
//!
//! A point's class is the multiset of its four shapes, each folded to one
//! of nine digits (see [`digit`]): 495 classes. Per rule and per colour a
//! table gives every class four numbers:
//!
//! - `S`, its worth in the evaluation when that colour is to move,
//! - `T`, its worth (subtracted) when the other colour is to move,
//! - `A`, its ordering value for that colour playing there (attack),
//! - `D`, its ordering value for the other colour playing there (defence).
//!
//! The evaluation of the side to move `me` is `Σ S_me − Σ T_you + bias_me`
//! over the empty points (kept incrementally by the board), in units of
//! 1/400 of a logit of the win probability; a move's ordering score is
//! `A_me(class_me) + D_you(class_you)` in 1/1000 of a logit. The tables are
//! fitted by `examples/pattern_fit.rs` on games from
//! `examples/pattern_datagen.rs` (see `docs/gomoku.md`) and embedded as
//! text from `src/tables/<rule>.txt`.
//!
//! `TENGEN_GOMOKU_EVAL=hand` in the environment selects the hand-made
//! shape values instead (for A/B matches); so does a rule without a table.
//! `TENGEN_GOMOKU_TABLE=<file>` plays a table file instead of the embedded
//! one, whatever the rule (for testing a fit without a rebuild).

use crate::board::Rule;
use crate::pattern::Shape;
use std::sync::OnceLock;

/// Ordered point codes: four digits in base [`DIGITS`].
pub const CODES: usize = 6561;
/// Digits per shape after folding.
pub const DIGITS: usize = 9;
/// Classes: multisets of four digits.
pub const CLASSES: usize = 495;
/// Evaluation units per logit.
pub const EVAL_SCALE: f64 = 400.0;
/// Ordering units per logit.
pub const POLICY_SCALE: f64 = 1000.0;

/// A shape folded to a digit: shapes that no rule tells apart in worth
/// share one (no potential; a double four on one line plays as an open four).
#[inline]
pub const fn digit(s: Shape) -> usize {
    match s {
        Shape::None | Shape::Overline => 0,
        Shape::One => 1,
        Shape::Two => 2,
        Shape::OpenTwo => 3,
        Shape::Three => 4,
        Shape::OpenThree => 5,
        Shape::Four => 6,
        Shape::OpenFour | Shape::FourFour => 7,
        Shape::Five => 8,
    }
}

/// The ordered code of four shapes (one per direction).
#[inline]
pub fn code(s: [Shape; 4]) -> usize {
    digit(s[0]) + DIGITS * digit(s[1]) + 81 * digit(s[2]) + 729 * digit(s[3])
}

/// Every class as its sorted digits, in lexicographic order.
pub fn class_digits() -> &'static [[u8; 4]] {
    static LIST: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut v = Vec::with_capacity(CLASSES);
        for a in 0..DIGITS as u8 {
            for b in a..DIGITS as u8 {
                for c in b..DIGITS as u8 {
                    for d in c..DIGITS as u8 {
                        v.push([a, b, c, d]);
                    }
                }
            }
        }
        v
    })
}

/// The class of every ordered code.
pub fn class_of_code() -> &'static [u16] {
    static MAP: OnceLock<Vec<u16>> = OnceLock::new();
    MAP.get_or_init(|| {
        let list = class_digits();
        (0..CODES)
            .map(|code| {
                let mut d = [
                    (code % 9) as u8,
                    (code / 9 % 9) as u8,
                    (code / 81 % 9) as u8,
                    (code / 729) as u8,
                ];
                d.sort_unstable();
                list.binary_search(&d).unwrap_or(0) as u16
            })
            .collect()
    })
}

/// The class of four shapes.
#[inline]
pub fn class(s: [Shape; 4]) -> usize {
    class_of_code()[code(s)] as usize
}

/// One rule's tables, expanded to ordered codes for the board's lookups.
pub struct Tables {
    pub rule: Rule,
    /// Per colour, per code: `[S, T]`.
    pub eval: [Vec<[i32; 2]>; 2],
    /// Per colour, per code: `[A, D]`.
    pub policy: [Vec<[i32; 2]>; 2],
    /// Per colour to move.
    pub bias: [i32; 2],
}

/// The numbers of a table file, per colour and class.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw {
    pub bias: [i32; 2],
    /// `[colour][class] = [S, T, A, D]`.
    pub values: [Vec<[i32; 4]>; 2],
}

impl Raw {
    /// Reads a table file: `bias <black> <white>`, then per colour and
    /// class a line `<colour b|w> <four digits> S T A D`; `#` starts a
    /// comment. Classes not listed are 0.
    pub fn parse(text: &str) -> Result<Raw, String> {
        let mut raw = Raw {
            bias: [0; 2],
            values: [vec![[0; 4]; CLASSES], vec![[0; 4]; CLASSES]],
        };
        let list = class_digits();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("line {}: '{line}'", n + 1);
            let num = |s: &str| s.parse::<i32>().map_err(|_| bad());
            match f.as_slice() {
                ["bias", b, w] => raw.bias = [num(b)?, num(w)?],
                [c, ds, s, t, a, d] => {
                    let ci = match *c {
                        "b" => 0,
                        "w" => 1,
                        _ => return Err(bad()),
                    };
                    let mut digits = [0u8; 4];
                    if ds.len() != 4 {
                        return Err(bad());
                    }
                    for (k, ch) in ds.chars().enumerate() {
                        let v = ch.to_digit(10).filter(|&v| (v as usize) < DIGITS);
                        digits[k] = v.ok_or_else(bad)? as u8;
                    }
                    digits.sort_unstable();
                    let k = list.binary_search(&digits).map_err(|_| bad())?;
                    raw.values[ci][k] = [num(s)?, num(t)?, num(a)?, num(d)?];
                }
                _ => return Err(bad()),
            }
        }
        Ok(raw)
    }

    /// Writes the file [`Raw::parse`] reads.
    pub fn write(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(&format!("bias {} {}\n", self.bias[0], self.bias[1]));
        for (ci, col) in ["b", "w"].iter().enumerate() {
            for (k, d) in class_digits().iter().enumerate() {
                let v = self.values[ci][k];
                out.push_str(&format!(
                    "{col} {}{}{}{} {} {} {} {}\n",
                    d[0], d[1], d[2], d[3], v[0], v[1], v[2], v[3]
                ));
            }
        }
        out
    }

    /// The board's form: every ordered code of a class gets its numbers.
    pub fn expand(&self, rule: Rule) -> Tables {
        let map = class_of_code();
        let pick = |ci: usize, a: usize, b: usize| -> Vec<[i32; 2]> {
            (0..CODES)
                .map(|code| {
                    let v = self.values[ci][map[code] as usize];
                    [v[a], v[b]]
                })
                .collect()
        };
        Tables {
            rule,
            eval: [pick(0, 0, 1), pick(1, 0, 1)],
            policy: [pick(0, 2, 3), pick(1, 2, 3)],
            bias: self.bias,
        }
    }
}

/// The embedded table text of a rule, if one was fitted.
pub fn embedded(rule: Rule) -> Option<&'static str> {
    match rule {
        Rule::Freestyle => Some(include_str!("tables/freestyle.txt")),
        Rule::Standard => Some(include_str!("tables/standard.txt")),
        Rule::Renju => Some(include_str!("tables/renju.txt")),
    }
    .filter(|t| t.lines().any(|l| l.starts_with("bias")))
}

/// Whether the hand-made values were asked for (`TENGEN_GOMOKU_EVAL=hand`).
pub fn hand_selected() -> bool {
    static HAND: OnceLock<bool> = OnceLock::new();
    *HAND.get_or_init(|| {
        std::env::var("TENGEN_GOMOKU_EVAL").is_ok_and(|v| v.trim().eq_ignore_ascii_case("hand"))
    })
}

/// The embedded tables of a rule, whatever the environment says.
pub fn builtin(rule: Rule) -> Option<&'static Tables> {
    static T: [OnceLock<Option<Tables>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
    };
    T[i].get_or_init(|| {
        embedded(rule).map(|text| {
            Raw::parse(text)
                .unwrap_or_else(|e| panic!("embedded {} table: {e}", rule.name()))
                .expand(rule)
        })
    })
    .as_ref()
}

/// A table file named by `TENGEN_GOMOKU_TABLE` (for testing a fit
/// without a rebuild): it replaces the embedded table of every rule.
fn from_env() -> Option<&'static Tables> {
    static T: OnceLock<Option<Tables>> = OnceLock::new();
    T.get_or_init(|| {
        let path = std::env::var("TENGEN_GOMOKU_TABLE").ok()?;
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("TENGEN_GOMOKU_TABLE={path}: {e}"));
        let raw = Raw::parse(&text).unwrap_or_else(|e| panic!("TENGEN_GOMOKU_TABLE={path}: {e}"));
        Some(raw.expand(Rule::Freestyle))
    })
    .as_ref()
}

/// The tables a new board of `rule` plays with: the embedded ones unless
/// the hand-made values were selected (`TENGEN_GOMOKU_EVAL=hand`) or a
/// file given (`TENGEN_GOMOKU_TABLE`).
pub fn for_rule(rule: Rule) -> Option<&'static Tables> {
    if hand_selected() {
        None
    } else {
        from_env().or_else(|| builtin(rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_code_once_sorted() {
        assert_eq!(class_digits().len(), CLASSES);
        let map = class_of_code();
        assert_eq!(map[0], 0);
        // The four orders of one multiset share a class.
        let c = |d: [usize; 4]| map[d[0] + 9 * d[1] + 81 * d[2] + 729 * d[3]];
        assert_eq!(c([5, 1, 0, 3]), c([0, 1, 3, 5]));
        assert_eq!(c([8, 8, 8, 8]) as usize, CLASSES - 1);
    }

    #[test]
    fn table_text_round_trips() {
        let mut raw = Raw {
            bias: [12, -7],
            values: [vec![[0; 4]; CLASSES], vec![[0; 4]; CLASSES]],
        };
        raw.values[0][17] = [1, -2, 3, 4];
        raw.values[1][494] = [5, 6, -7, 8];
        let text = raw.write("test\ntable");
        assert_eq!(Raw::parse(&text).unwrap(), raw);
        assert!(Raw::parse("b 00x0 1 2 3 4").is_err());
    }

    #[test]
    fn embedded_tables_parse() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let text = embedded(rule).expect("a table for every rule");
            let raw = Raw::parse(text).unwrap();
            // Stones have code 0: their class must be worth nothing.
            for ci in 0..2 {
                assert_eq!(raw.values[ci][0][..2], [0, 0], "{}", rule.name());
            }
        }
    }
}
