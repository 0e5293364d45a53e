//! Chess (and Chess960) refereed by `tengen-chess`; records in PGN.

use crate::record::{Ending, GameRecord, GameSetup, Outcome, Side};
use crate::referee::Referee;
use std::fmt::Write as _;
use tengen_chess::{Board, Color, DrawReason, Reason};

pub struct ChessReferee {
    board: Board,
    chess960: bool,
    /// The start FEN when it is not the standard start.
    start: Option<String>,
}

impl ChessReferee {
    pub fn new(chess960: bool) -> Self {
        ChessReferee {
            board: Board::startpos(),
            chess960,
            start: None,
        }
    }
}

fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::First,
        Color::Black => Side::Second,
    }
}

impl Referee for ChessReferee {
    fn reset(&mut self, start: Option<&str>) -> Result<(), String> {
        match start {
            None => {
                self.board = Board::startpos();
                self.start = None;
            }
            Some(fen) => {
                self.board = Board::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
                self.start = Some(self.board.to_fen(self.chess960));
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
            Side::First => "White",
            Side::Second => "Black",
        }
    }

    fn play(&mut self, mv: &str) -> Result<String, String> {
        let m = self
            .board
            .parse_uci_move(mv, self.chess960)
            .map_err(|e| e.to_string())?;
        let san = self.board.to_san(m);
        self.board.play(m);
        Ok(san)
    }

    fn ending(&self) -> Option<Ending> {
        let o = self.board.outcome()?;
        Some(match (o.winner, o.reason) {
            (Some(w), _) => {
                Ending::win(side_of(w), format!("{} mates", self.side_name(side_of(w))))
            }
            (None, Reason::Draw(d)) => Ending::draw(match d {
                DrawReason::Stalemate => "Draw by stalemate",
                DrawReason::FiftyMoveRule => "Draw by fifty moves rule",
                DrawReason::ThreefoldRepetition => "Draw by 3-fold repetition",
                DrawReason::InsufficientMaterial => "Draw by insufficient mating material",
            }),
            (None, Reason::Checkmate) => Ending::draw("Draw"),
        })
    }

    fn wire_from_record(&self, mv: &str) -> Result<String, String> {
        let m = self.board.parse_san(mv).map_err(|e| e.to_string())?;
        Ok(self.board.move_to_uci(m, self.chess960))
    }

    fn legal_moves(&self) -> Vec<String> {
        self.board
            .legal_moves()
            .into_iter()
            .map(|m| self.board.move_to_uci(m, self.chess960))
            .collect()
    }

    fn setup(&self) -> GameSetup {
        GameSetup {
            chess960: self.chess960,
            ..GameSetup::default()
        }
    }

    fn last_move_irreversible(&self) -> bool {
        self.board.halfmove_clock() == 0
    }

    fn record(&self, game: &GameRecord) -> String {
        pgn(game, self.chess960)
    }
}

/// The PGN termination tag for an ending's reason.
pub(crate) fn termination(reason: &str) -> &'static str {
    if reason.contains("on time") {
        "time forfeit"
    } else if reason.starts_with("adjudication") {
        "adjudication"
    } else if reason.contains("illegal")
        || reason.contains("protocol")
        || reason.contains("false")
        || reason.contains("claims")
    {
        "rules infraction"
    } else if reason.contains("disconnects") || reason.contains("could not start") {
        "abandoned"
    } else if reason.starts_with("aborted") {
        "unterminated"
    } else {
        "normal"
    }
}

fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// PGN comment text: braces would end the comment early.
fn comment(s: &str) -> String {
    s.replace(['{', '}'], "")
}

/// Writes one game as PGN (the standard's export format, with move
/// comments as cutechess writes them: `{+0.31/12 0.52s}`).
pub fn pgn(game: &GameRecord, chess960: bool) -> String {
    let result = match game.ending.outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw if game.ending.reason.starts_with("aborted") => "*",
        Outcome::Draw => "1/2-1/2",
    };
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", tag_value(v));
    };
    tag("Event", &game.event);
    tag("Site", "tengen-arena");
    tag("Date", &game.date);
    tag("Round", &game.round.to_string());
    tag("White", &game.players[0]);
    tag("Black", &game.players[1]);
    tag("Result", result);
    if let Some(fen) = &game.start {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    if chess960 {
        tag("Variant", "Chess960");
    }
    tag("TimeControl", &game.time_control);
    tag("PlyCount", &game.moves.len().to_string());
    tag("Termination", termination(&game.ending.reason));
    s.push('\n');

    // Move numbers follow the start position's side and move number.
    let (mut number, mut black) = match &game.start {
        Some(fen) => {
            let f: Vec<&str> = fen.split_whitespace().collect();
            (
                f.get(5)
                    .and_then(|n| n.parse::<u32>().ok())
                    .unwrap_or(1)
                    .max(1),
                f.get(1) == Some(&"b"),
            )
        }
        None => (1, false),
    };
    let mut tokens: Vec<String> = Vec::new();
    let mut after_comment = false;
    for (k, m) in game.moves.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}."));
        } else if k == 0 || after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.notation.clone());
        let c = if m.book {
            "book".to_string()
        } else {
            let score = match m.score {
                Some(tengen_protocol::host::EngineScore::Cp(cp)) => {
                    // From White's view, so a reader can follow the game's swing.
                    let cp = if black { -cp } else { cp };
                    format!(
                        "{}{:.2}",
                        if cp >= 0 { "+" } else { "-" },
                        f64::from(cp.unsigned_abs()) / 100.0
                    )
                }
                Some(tengen_protocol::host::EngineScore::Mate(n)) => {
                    let n = if black { -n } else { n };
                    format!("{}M{}", if n >= 0 { "+" } else { "-" }, n.unsigned_abs())
                }
                None => String::new(),
            };
            let depth = m.depth.map(|d| format!("/{d}")).unwrap_or_default();
            format!("{score}{depth} {:.3}s", m.elapsed_ms as f64 / 1000.0)
                .trim()
                .to_string()
        };
        tokens.push(format!("{{{}}}", comment(&c)));
        after_comment = true;
        if black {
            number += 1;
        }
        black = !black;
    }
    tokens.push(format!("{{{}}}", comment(&game.ending.reason)));
    tokens.push(result.to_string());
    push_movetext(&mut s, tokens);
    s
}

/// Appends PGN movetext: the tokens in lines of at most 80 characters,
/// never splitting a token, then the blank line that ends a game.
pub fn push_movetext(s: &mut String, tokens: impl IntoIterator<Item = String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::PlayedMove;

    #[test]
    fn referees_moves_and_endings() {
        let mut r = ChessReferee::new(false);
        r.reset(None).unwrap();
        assert_eq!(r.legal_moves().len(), 20);
        assert_eq!(r.play("e2e4").unwrap(), "e4");
        assert!(r.play("e2e4").is_err());
        assert!(r.play("garbage").is_err());
        for m in ["e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"] {
            r.play(m).unwrap();
        }
        let e = r.ending().unwrap();
        assert_eq!(e.outcome, Outcome::Win(Side::First));
        assert_eq!(e.reason, "White mates");

        r.reset(Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")).unwrap();
        assert_eq!(r.ending().unwrap().reason, "Draw by stalemate");
        r.reset(Some("8/8/8/8/8/8/8/K6k w - - 0 1")).unwrap();
        assert_eq!(r.ending().unwrap().outcome, Outcome::Draw);
        r.reset(Some("7k/8/8/8/8/8/8/K5R1 w - - 99 80")).unwrap();
        r.play("g1g2").unwrap();
        assert_eq!(r.ending().unwrap().reason, "Draw by fifty moves rule");
        assert!(r.reset(Some("not a fen")).is_err());

        r.reset(None).unwrap();
        for m in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            assert!(r.ending().is_none());
            r.play(m).unwrap();
        }
        assert_eq!(r.ending().unwrap().reason, "Draw by 3-fold repetition");
    }

    #[test]
    fn pgn_layout() {
        let mv = |n: &str, book: bool| PlayedMove {
            wire: String::new(),
            notation: n.into(),
            score: Some(tengen_protocol::host::EngineScore::Cp(-31)),
            depth: Some(9),
            elapsed_ms: 1234,
            book,
        };
        let game = GameRecord {
            players: ["A".into(), "B \"x\"".into()],
            start: Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()),
            moves: vec![mv("e5", true), mv("Nf3", false)],
            ending: Ending::win(Side::Second, "White makes an illegal move: e1e8 {x}"),
            round: 3,
            game_no: 5,
            event: "E".into(),
            date: "2026.01.02".into(),
            time_control: "10+0.1".into(),
        };
        let text = pgn(&game, false);
        assert!(text.contains("[Black \"B \\\"x\\\"\"]"));
        assert!(text.contains("[SetUp \"1\"]"));
        assert!(text.contains("[Termination \"rules infraction\"]"));
        assert!(
            text.contains("1... e5 {book} 2. Nf3 {-0.31/9 1.234s}"),
            "{text}"
        );
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.ends_with("{White makes an illegal move: e1e8 x} 0-1"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() < 80));
    }
}
