//! Go refereed by `tengen-go`: positional superko, game end after two
//! passes, Tromp–Taylor area scoring (every stone on the board counts as
//! alive, so engines should capture dead stones before passing, e.g. GNU
//! Go's `--capture-all-dead`); records in SGF (FF[4] GM[1]).

use crate::game::GameRecord;
use crate::player::GameSetup;
use crate::referee::{Ending, Outcome, Referee, Side};
use std::fmt::Write as _;
use tengen_go::board::{move_name, parse_vertex, vertex_name, Color, Move};
use tengen_go::game::{fmt_num, Game};

pub struct GoReferee {
    game: Game,
    size: usize,
    komi: f64,
}

impl GoReferee {
    pub fn new(size: u32, komi: f64) -> Result<Self, String> {
        let size = size as usize;
        if !(2..=25).contains(&size) {
            return Err(format!("board size {size} is outside 2..25"));
        }
        Ok(GoReferee {
            game: Game::new(size, komi),
            size,
            komi,
        })
    }

    /// A game that never ends by passing is scored as it stands after this
    /// many plies (no real game comes near it).
    fn ply_cap(&self) -> usize {
        3 * self.size * self.size
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

impl Referee for GoReferee {
    fn reset(&mut self, start: Option<&str>) -> Result<(), String> {
        if let Some(s) = start {
            return Err(format!(
                "Go starts from the empty board; give openings as moves, not '{s}'"
            ));
        }
        self.game = Game::new(self.size, self.komi);
        Ok(())
    }

    fn start_for_engines(&self) -> Option<String> {
        None
    }

    fn side_to_move(&self) -> Side {
        side_of(self.game.to_move())
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn play(&mut self, mv: &str) -> Result<String, String> {
        let m = parse_vertex(mv.trim(), self.size)
            .ok_or_else(|| format!("'{mv}' is not a vertex of the {0}x{0} board", self.size))?;
        let c = self.game.to_move();
        self.game.play(c, m).map_err(|e| e.to_string())?;
        Ok(move_name(m))
    }

    fn ending(&self) -> Option<Ending> {
        let over = self.game.is_over();
        if !over && self.game.moves().len() < self.ply_cap() {
            return None;
        }
        let score = self.game.tromp_taylor().0;
        let how = if over { "two passes" } else { "the move cap" };
        Some(if score.abs() < 1e-9 {
            Ending::draw(format!("Jigo by Tromp-Taylor area scoring after {how}"))
        } else {
            let winner = if score > 0.0 {
                Side::First
            } else {
                Side::Second
            };
            let margin = fmt_num(score.abs());
            let letter = if score > 0.0 { 'B' } else { 'W' };
            Ending::win(
                winner,
                format!("{letter}+{margin} by Tromp-Taylor area scoring after {how}"),
            )
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        // Random openings place stones; a pass would waste the ply.
        self.game
            .legal_points(self.game.to_move())
            .into_iter()
            .map(vertex_name)
            .collect()
    }

    fn setup(&self) -> GameSetup {
        GameSetup {
            board_size: Some(self.size as u32),
            komi: Some(self.komi),
            ..GameSetup::default()
        }
    }

    fn adjudicable(&self) -> bool {
        false
    }

    fn record(&self, game: &GameRecord) -> String {
        sgf(game, self.size, self.komi)
    }
}

fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF `RE` value: `B+3.5`, `W+R` (resign), `W+T` (time), `W+F`
/// (forfeit), `0` (jigo), `Void` (aborted).
fn sgf_result(game: &GameRecord) -> String {
    let reason = &game.ending.reason;
    match game.ending.outcome {
        Outcome::Draw if reason.starts_with("aborted") => "Void".into(),
        Outcome::Draw => "0".into(),
        Outcome::Win(side) => {
            let letter = if side == Side::First { "B" } else { "W" };
            if let Some(rest) = reason
                .strip_prefix(letter)
                .and_then(|r| r.strip_prefix('+'))
            {
                let margin: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                if !margin.is_empty() {
                    return format!("{letter}+{margin}");
                }
            }
            let how = if reason.contains("resigns") {
                "R"
            } else if reason.contains("on time") {
                "T"
            } else {
                "F"
            };
            format!("{letter}+{how}")
        }
    }
}

/// SGF FF[4] for Go; points as two letters from the top-left corner.
pub fn sgf(game: &GameRecord, size: usize, komi: f64) -> String {
    let mut s = String::from("(;FF[4]GM[1]CA[UTF-8]AP[tengen-arena]");
    let _ = write!(s, "SZ[{size}]KM[{}]RU[Tromp-Taylor]", fmt_num(komi));
    let _ = write!(
        s,
        "PB[{}]PW[{}]",
        sgf_text(&game.players[0]),
        sgf_text(&game.players[1])
    );
    let _ = write!(
        s,
        "DT[{}]EV[{}]RO[{}]",
        game.date.replace('.', "-"),
        sgf_text(&game.event),
        game.round
    );
    // TM is the main time in seconds (only for a single period); OT
    // describes the whole control.
    let tc = &game.time_control;
    if tc != "-" {
        if let Some(main) = tc.split('+').next().filter(|m| m.parse::<f64>().is_ok()) {
            let _ = write!(s, "TM[{main}]");
        }
        let _ = write!(s, "OT[{}]", sgf_text(tc));
    }
    let _ = write!(s, "RE[{}]", sgf_result(game));
    for (k, m) in game.moves.iter().enumerate() {
        let colour = if k % 2 == 0 { 'B' } else { 'W' };
        let point = match parse_vertex(&m.wire, size) {
            Some(Move::Play(p)) => {
                let letter = |i: usize| (b'a' + i as u8) as char;
                format!("{}{}", letter(p.x()), letter(size - 1 - p.y()))
            }
            _ => String::new(),
        };
        let _ = write!(s, "\n;{colour}[{point}]");
        if m.book {
            s.push_str("C[book]");
        } else {
            let _ = write!(s, "C[{:.3}s]", m.elapsed_ms as f64 / 1000.0);
        }
    }
    let _ = write!(s, "\n;C[{}])\n", sgf_text(&game.ending.reason));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referees_and_scores() {
        let mut r = GoReferee::new(9, 7.5).unwrap();
        r.reset(None).unwrap();
        assert_eq!(r.legal_moves().len(), 81);
        assert_eq!(r.play("e5").unwrap(), "E5");
        assert!(r.play("E5").unwrap_err().contains("occupied"));
        assert!(r.play("Z9").is_err());
        assert!(r.play("I5").is_err(), "GTP has no column I");
        assert!(r.ending().is_none());
        r.play("pass").unwrap();
        r.play("pass").unwrap();
        // One black stone owns the whole board: 81 - 7.5.
        let e = r.ending().unwrap();
        assert_eq!(e.outcome, Outcome::Win(Side::First));
        assert!(e.reason.starts_with("B+73.5 "), "{}", e.reason);
        assert!(GoReferee::new(1, 0.0).is_err());
        assert!(r.reset(Some("xx")).is_err());
    }

    #[test]
    fn sgf_results() {
        let rec = |outcome, reason: &str| GameRecord {
            players: ["b".into(), "w]".into()],
            start: None,
            moves: vec![],
            ending: Ending {
                outcome,
                reason: reason.into(),
            },
            round: 1,
            game_no: 1,
            event: "e".into(),
            date: "2026.01.02".into(),
            time_control: "-".into(),
        };
        let s = sgf(
            &rec(
                Outcome::Win(Side::First),
                "B+73.5 by Tromp-Taylor area scoring",
            ),
            9,
            7.5,
        );
        assert!(
            s.contains("RE[B+73.5]") && s.contains("PW[w\\]]") && s.contains("DT[2026-01-02]"),
            "{s}"
        );
        assert!(sgf(&rec(Outcome::Win(Side::Second), "Black resigns"), 9, 7.5).contains("RE[W+R]"));
        assert!(sgf(
            &rec(Outcome::Win(Side::Second), "Black loses on time"),
            9,
            7.5
        )
        .contains("RE[W+T]"));
        assert!(sgf(&rec(Outcome::Draw, "Jigo"), 9, 7.0).contains("RE[0]"));
    }
}
