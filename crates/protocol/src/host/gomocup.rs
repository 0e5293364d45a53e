//! Gomocup "pbrain" protocol, manager side. Points are `X,Y`, 0-based,
//! X the column and Y the row from the top.

use std::fmt;

/// A board point in Gomocup coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: u32,
    pub y: u32,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl Point {
    /// Parses `X,Y` (blanks around the numbers tolerated).
    pub fn parse(s: &str) -> Option<Point> {
        let (x, y) = s.trim().split_once(',')?;
        Some(Point {
            x: x.trim().parse().ok()?,
            y: y.trim().parse().ok()?,
        })
    }
}

/// Who owns a stone in a `BOARD` listing: 1 the brain's, 2 the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Own,
    Opponent,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(u32),
    Restart,
    Begin,
    Turn(Point),
    /// The whole board in move order; printed as several lines.
    Board(Vec<(Point, Owner)>),
    Info {
        key: String,
        value: String,
    },
    About,
    End,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(n) => write!(f, "START {n}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(p) => write!(f, "TURN {p}"),
            Command::Board(stones) => {
                f.write_str("BOARD\n")?;
                for (p, owner) in stones {
                    let o = match owner {
                        Owner::Own => 1,
                        Owner::Opponent => 2,
                    };
                    writeln!(f, "{p},{o}")?;
                }
                f.write_str("DONE")
            }
            Command::Info { key, value } => write!(f, "INFO {key} {value}"),
            Command::About => f.write_str("ABOUT"),
            Command::End => f.write_str("END"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Point),
    Ok,
    Error(String),
    Unknown(String),
    Message(String),
    Debug(String),
    Suggest(Point),
    /// `name="…", version="…"` as key/value pairs.
    About(Vec<(String, String)>),
    Other(String),
}

pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    match word.to_ascii_uppercase().as_str() {
        "OK" => return Reply::Ok,
        "ERROR" => return Reply::Error(rest.trim().to_string()),
        "UNKNOWN" => return Reply::Unknown(rest.trim().to_string()),
        "MESSAGE" => return Reply::Message(rest.trim().to_string()),
        "DEBUG" => return Reply::Debug(rest.trim().to_string()),
        "SUGGEST" => {
            if let Some(p) = Point::parse(rest) {
                return Reply::Suggest(p);
            }
        }
        _ => {}
    }
    if let Some(p) = Point::parse(line) {
        return Reply::Move(p);
    }
    if line.contains("=\"") {
        let pairs = line
            .split("\",")
            .filter_map(|kv| {
                let (k, v) = kv.split_once('=')?;
                Some((k.trim().to_string(), v.trim().trim_matches('"').to_string()))
            })
            .collect();
        return Reply::About(pairs);
    }
    Reply::Other(line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let b = Command::Board(vec![
            (Point { x: 7, y: 7 }, Owner::Opponent),
            (Point { x: 8, y: 7 }, Owner::Own),
        ]);
        assert_eq!(b.to_string(), "BOARD\n7,7,2\n8,7,1\nDONE");
        assert_eq!(parse_reply("10, 3"), Reply::Move(Point { x: 10, y: 3 }));
        assert_eq!(
            parse_reply("MESSAGE hi there"),
            Reply::Message("hi there".into())
        );
        assert_eq!(parse_reply("ok"), Reply::Ok);
        match parse_reply("name=\"pbrain-x\", version=\"1.0\", author=\"A, B\"") {
            Reply::About(kv) => {
                assert_eq!(kv[0], ("name".to_string(), "pbrain-x".to_string()));
                assert_eq!(kv[2], ("author".to_string(), "A, B".to_string()));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_reply("7,x"), Reply::Other("7,x".into()));
    }
}
