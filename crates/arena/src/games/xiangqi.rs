//! Xiangqi refereed by `tengen-xiangqi`: no legal move loses (mate and
//! stalemate alike), repetitions judged by the Asian rulings (perpetual
//! check or chase loses, otherwise a draw), the no-capture limit; moves
//! in ICCS as UCCI sends them (UCI engines get ranks 1..10, see
//! `player::ucilike`); records in PGN with the xiangqi tags.

use crate::record::{Ending, GameRecord, GameSetup, Outcome, Side};
use crate::referee::Referee;
use std::fmt::Write as _;
use tengen_games::Game;
use tengen_xiangqi::{
    format_move, parse_move, Board, Color, Notation, Outcome as XqOutcome, Reason,
};

pub struct XiangqiReferee {
    board: Board,
    start: Option<String>,
}

impl Default for XiangqiReferee {
    fn default() -> Self {
        XiangqiReferee {
            board: Board::startpos(),
            start: None,
        }
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::Red => Side::First,
        Color::Black => Side::Second,
    }
}

impl Referee for XiangqiReferee {
    fn reset(&mut self, start: Option<&str>) -> Result<(), String> {
        match start {
            None => {
                self.board = Board::startpos();
                self.start = None;
            }
            Some(fen) => {
                self.board = Board::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
                self.start = Some(self.board.fen());
            }
        }
        Ok(())
    }

    fn start_for_engines(&self) -> Option<String> {
        self.start.clone()
    }

    fn side_to_move(&self) -> Side {
        side_of(self.board.side_to_move())
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Red",
            Side::Second => "Black",
        }
    }

    fn play(&mut self, mv: &str) -> Result<String, String> {
        let m = parse_move(&self.board, mv.trim(), Notation::Iccs)?;
        self.board.make(m);
        Ok(format_move(m, Notation::Iccs))
    }

    fn ending(&self) -> Option<Ending> {
        let name = |c: Color| self.side_name(side_of(c));
        Some(match self.board.outcome() {
            XqOutcome::Ongoing => return None,
            XqOutcome::Win(w, r) => {
                let loser = name(w.flip());
                let why = match r {
                    Reason::Checkmate => format!("{} mates", name(w)),
                    Reason::Stalemate => format!("{loser} has no legal move"),
                    Reason::PerpetualCheck => format!("{loser} loses by perpetual check"),
                    Reason::PerpetualChase => format!("{loser} loses by perpetual chase"),
                    Reason::Repetition | Reason::MoveLimit => format!("{} wins", name(w)),
                };
                Ending::win(side_of(w), why)
            }
            XqOutcome::Draw(Reason::MoveLimit) => Ending::draw("Draw by the no-capture move limit"),
            XqOutcome::Draw(_) => Ending::draw("Draw by repetition"),
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        tengen_games::legal_move_names(&self.board)
    }

    fn setup(&self) -> GameSetup {
        // UCI engines (Fairy-Stockfish, tengen) play it as a variant.
        GameSetup {
            variant: Some(Game::Xiangqi.name()),
            ..GameSetup::default()
        }
    }

    fn last_move_irreversible(&self) -> bool {
        self.board.halfmove_clock() == 0
    }

    fn record(&self, game: &GameRecord) -> String {
        pgn(game)
    }
}

/// PGN for xiangqi as Chinese-chess programs read it (the `cchess`
/// library among them): `[Game "Chinese Chess"]`, `[Variant "xiangqi"]`,
/// `[Format "ICCS"]`, moves in ICCS. Comments are left out (such readers
/// fail on them): the ending's reason goes in `[TerminationDetails]`.
pub fn pgn(game: &GameRecord) -> String {
    let result = match game.ending.outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw if game.ending.reason.starts_with("aborted") => "*",
        Outcome::Draw => "1/2-1/2",
    };
    let mut s = String::new();
    let tags = [
        ("Game", "Chinese Chess".to_string()),
        ("Variant", "xiangqi".to_string()),
        ("Event", game.event.clone()),
        ("Site", "tengen-arena".to_string()),
        ("Date", game.date.clone()),
        ("Round", game.round.to_string()),
        ("Red", game.players[0].clone()),
        ("Black", game.players[1].clone()),
        ("White", game.players[0].clone()),
        ("Result", result.to_string()),
        ("Format", "ICCS".to_string()),
        ("TimeControl", game.time_control.clone()),
        ("PlyCount", game.moves.len().to_string()),
        (
            "Termination",
            crate::games::chess::termination(&game.ending.reason).to_string(),
        ),
        ("TerminationDetails", game.ending.reason.clone()),
    ];
    for (k, v) in tags {
        let _ = writeln!(
            s,
            "[{k} \"{}\"]",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    if let Some(fen) = &game.start {
        let _ = writeln!(s, "[FEN \"{fen}\"]\n[SetUp \"1\"]");
    }
    s.push('\n');
    let black_first = game
        .start
        .as_deref()
        .and_then(|f| f.split_whitespace().nth(1))
        == Some("b");
    let mut line = String::new();
    let mut number = 1;
    for (k, m) in game.moves.iter().enumerate() {
        let red = (k % 2 == 0) != black_first;
        let token = if red {
            format!("{number}. {}", m.notation)
        } else if k == 0 {
            format!("{number}... {}", m.notation)
        } else {
            m.notation.clone()
        };
        if !red {
            number += 1;
        }
        if line.len() + token.len() > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    s.push_str(line.trim_end());
    if !line.is_empty() {
        s.push('\n');
    }
    let _ = writeln!(s, "{result}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referees_moves_and_endings() {
        let mut r = XiangqiReferee::default();
        r.reset(None).unwrap();
        assert_eq!(r.legal_moves().len(), 44);
        assert_eq!(r.play("h2e2").unwrap(), "h2e2");
        assert!(r.play("h2e2").is_err());
        assert!(r.play("x9y9").is_err());
        assert_eq!(r.side_to_move(), Side::Second);
        // Rook shuttles: the third occurrence of the position is a draw.
        r.reset(Some("3k5/9/9/9/9/9/9/9/r8/4K3R w - - 0 1"))
            .unwrap();
        for m in [
            "i0i1", "a1a2", "i1i0", "a2a1", "i0i1", "a1a2", "i1i0", "a2a1",
        ] {
            assert!(r.ending().is_none(), "{m}");
            r.play(m).unwrap();
        }
        assert_eq!(r.ending().map(|e| e.outcome), Some(Outcome::Draw));
        assert!(r.reset(Some("junk")).is_err());
    }
}
