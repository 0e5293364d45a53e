//! Gomoku and renju refereed by `tengen-gomoku`: fives (exactly five
//! under the standard rule and for renju's black), renju's forbidden
//! points for black (a forbidden move loses as an illegal move), a full
//! board draws. Moves travel as Gomocup's `x,y`; records in SGF (GM[4]).

use crate::record::{Ending, GameRecord, GameSetup, Outcome, Side};
use crate::referee::Referee;
use std::fmt::Write as _;
use tengen_gomoku::{Board, Color, Outcome as GOutcome, Point, Rule, WinReason};

pub struct GomokuReferee {
    board: Board,
    size: usize,
    rule: Rule,
}

impl GomokuReferee {
    pub fn new(size: u32, rule: Rule) -> Result<Self, String> {
        let size = size as usize;
        let board = Board::new(size, size, rule)?;
        Ok(GomokuReferee { board, size, rule })
    }

    /// Gomocup's `INFO rule` value.
    fn gomocup_rule(&self) -> u32 {
        match self.rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

impl Referee for GomokuReferee {
    fn reset(&mut self, start: Option<&str>) -> Result<(), String> {
        if let Some(s) = start {
            return Err(format!(
                "gomoku starts from the empty board; give openings as moves, not '{s}'"
            ));
        }
        self.board = Board::new(self.size, self.size, self.rule)?;
        Ok(())
    }

    fn start_for_engines(&self) -> Option<String> {
        None
    }

    fn side_to_move(&self) -> Side {
        side_of(self.board.to_move())
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn play(&mut self, mv: &str) -> Result<String, String> {
        let p = Point::parse_xy(mv.trim())?;
        self.board.play(p).map_err(|e| e.to_string())?;
        Ok(p.xy())
    }

    fn ending(&self) -> Option<Ending> {
        match self.board.outcome() {
            GOutcome::Ongoing => None,
            GOutcome::Draw => Some(Ending::draw("Draw: the board is full")),
            GOutcome::Win(c, WinReason::Five) => Some(Ending::win(
                side_of(c),
                format!("{} makes five", self.side_name(side_of(c))),
            )),
            GOutcome::Win(c, WinReason::Forbidden(f)) => Some(Ending::win(
                side_of(c),
                format!(
                    "{} plays a forbidden point ({})",
                    self.side_name(side_of(c).other()),
                    f.name()
                ),
            )),
        }
    }

    fn legal_moves(&self) -> Vec<String> {
        tengen_games::legal_move_names(&self.board)
    }

    fn setup(&self) -> GameSetup {
        GameSetup {
            board_size: Some(self.size as u32),
            rule: Some(self.gomocup_rule()),
            ..GameSetup::default()
        }
    }

    fn adjudicable(&self) -> bool {
        false
    }

    fn record(&self, game: &GameRecord) -> String {
        sgf(game, self.size, self.rule)
    }
}

/// SGF FF[4] GM[4] (gomoku and renju); points as two letters from the
/// top-left, `x` then `y` as in Gomocup.
pub fn sgf(game: &GameRecord, size: usize, rule: Rule) -> String {
    let text = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut s = String::from("(;FF[4]GM[4]CA[UTF-8]AP[tengen-arena]");
    let _ = write!(s, "SZ[{size}]RU[{}]", rule.name());
    let _ = write!(
        s,
        "PB[{}]PW[{}]",
        text(&game.players[0]),
        text(&game.players[1])
    );
    let _ = write!(
        s,
        "DT[{}]EV[{}]RO[{}]",
        game.date.replace('.', "-"),
        text(&game.event),
        game.round
    );
    let result = match game.ending.outcome {
        Outcome::Win(Side::First) => "B+",
        Outcome::Win(Side::Second) => "W+",
        Outcome::Draw if game.ending.reason.starts_with("aborted") => "Void",
        Outcome::Draw => "0",
    };
    let how = if game.ending.reason.contains("on time") {
        "T"
    } else if game.ending.reason.contains("makes five") {
        ""
    } else if game.ending.reason.contains("resigns") {
        "R"
    } else {
        "F"
    };
    let _ = write!(
        s,
        "RE[{result}{}]",
        if result.ends_with('+') { how } else { "" }
    );
    for (k, m) in game.moves.iter().enumerate() {
        let colour = if k % 2 == 0 { 'B' } else { 'W' };
        let point = match Point::parse_xy(&m.wire) {
            Ok(p) => format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char),
            Err(_) => continue,
        };
        let _ = write!(s, "\n;{colour}[{point}]");
        if m.book {
            s.push_str("C[book]");
        } else {
            let _ = write!(s, "C[{:.3}s]", m.elapsed_ms as f64 / 1000.0);
        }
    }
    let _ = write!(s, "\n;C[{}])\n", text(&game.ending.reason));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fives_and_forbidden_points() {
        let mut r = GomokuReferee::new(15, Rule::Freestyle).unwrap();
        r.reset(None).unwrap();
        assert_eq!(r.legal_moves().len(), 225);
        for (b, w) in [
            ("7,7", "7,8"),
            ("8,7", "8,8"),
            ("9,7", "9,8"),
            ("10,7", "10,8"),
        ] {
            r.play(b).unwrap();
            r.play(w).unwrap();
            assert!(r.ending().is_none());
        }
        assert!(r.play("7,7").unwrap_err().contains("occupied"));
        assert!(r.play("15,0").is_err());
        r.play("11,7").unwrap();
        let e = r.ending().unwrap();
        assert_eq!(
            (e.outcome, e.reason.as_str()),
            (Outcome::Win(Side::First), "Black makes five")
        );

        // Renju: black's double three at 7,7 is forbidden.
        let mut r = GomokuReferee::new(15, Rule::Renju).unwrap();
        for m in ["5,7", "0,0", "6,7", "0,2", "7,5", "0,4", "7,6", "0,6"] {
            r.play(m).unwrap();
        }
        assert!(r.play("7,7").unwrap_err().contains("forbidden"));
        assert_eq!(r.setup().rule, Some(4));
    }
}
