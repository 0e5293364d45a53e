//! Go refereed by `tengen-go`: positional superko, area scoring; records
//! in SGF (FF[4] GM[1]).
//!
//! The end of a game works as on KGS and in GoGui's twogtp: after two
//! passes both engines are asked `final_status_list dead`; if they name
//! the same stones, those are removed and the board is scored by area.
//! If they disagree (or one cannot tell), play resumes in a clean-up
//! phase (engines that know it get `kgs-genmove_cleanup`, which captures
//! every dead stone before passing) until two more passes, and then
//! Tromp–Taylor scores the board with every stone alive. With the
//! clean-up phase off, two passes score every stone as alive.

use crate::record::{Ending, GameRecord, GameSetup, Outcome, Side};
use crate::referee::Referee;
use std::fmt::Write as _;
use tengen_go::board::{move_name, parse_vertex, vertex_name, Color, Move, Point};
use tengen_go::game::{fixed_handicap, fmt_num, Game};

pub struct GoReferee {
    game: Game,
    size: usize,
    komi: f64,
    /// Black's handicap stones, placed before White's first move.
    handicap: Vec<Point>,
    /// Ask for dead stones and play a clean-up phase after two passes.
    cleanup: bool,
    /// Plies played when the clean-up phase began, and why it began.
    resumed: Option<(usize, String)>,
    /// The ending agreed on dead stones.
    settled: Option<Ending>,
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
            handicap: Vec::new(),
            cleanup: false,
            resumed: None,
            settled: None,
        })
    }

    /// Turns the dead-stone agreement and clean-up phase on or off.
    pub fn set_cleanup(&mut self, on: bool) {
        self.cleanup = on;
    }

    /// Plays every game with `n` handicap stones on GNU Go's fixed points
    /// (GTP `fixed_handicap`); 0 for even games.
    pub fn set_handicap(&mut self, n: u32) -> Result<(), String> {
        self.handicap = match n {
            0 => Vec::new(),
            _ => fixed_handicap(self.size, n as usize).ok_or_else(|| {
                format!(
                    "no fixed handicap of {n} stones on {0}x{0} (GTP allows 2 to 9, fewer on small boards)",
                    self.size
                )
            })?,
        };
        self.game = self.fresh_game();
        Ok(())
    }

    /// The empty board, with the handicap stones when there are any.
    fn fresh_game(&self) -> Game {
        let mut g = Game::new(self.size, self.komi);
        if !self.handicap.is_empty() {
            // Fixed points on this board: distinct and on it, so accepted.
            let placed = g.set_handicap(&self.handicap);
            debug_assert!(placed);
        }
        g
    }

    /// Two passes in a row, both inside the clean-up phase once it began.
    fn passed_out(&self) -> bool {
        let n = self.game.moves().len();
        self.game.is_over() && self.resumed.as_ref().is_none_or(|(k, _)| n >= k + 2)
    }

    /// An engine's dead-stone list as points that hold stones; `None`
    /// when it names a point that is not a stone of the board.
    fn dead_points(&self, list: &[String]) -> Option<Vec<Point>> {
        let board = self.game.board();
        let mut pts = Vec::new();
        for v in list {
            match parse_vertex(v, self.size) {
                Some(Move::Play(p)) if board.cell(p).color().is_some() => pts.push(p),
                _ => return None,
            }
        }
        pts.sort_by_key(|p| p.index());
        pts.dedup();
        Some(pts)
    }

    fn scored(&self, score: f64, how: &str) -> Ending {
        if score.abs() < 1e-9 {
            Ending::draw(format!("Jigo by {how}"))
        } else {
            let winner = if score > 0.0 {
                Side::First
            } else {
                Side::Second
            };
            let letter = if score > 0.0 { 'B' } else { 'W' };
            Ending::win(
                winner,
                format!("{letter}+{} by {how}", fmt_num(score.abs())),
            )
        }
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
        self.game = self.fresh_game();
        self.resumed = None;
        self.settled = None;
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
        if let Some(e) = &self.settled {
            return Some(e.clone());
        }
        let over = self.passed_out();
        if over && self.wants_dead_stones() {
            return None;
        }
        if !over && self.game.moves().len() < self.ply_cap() {
            return None;
        }
        let how = match (&self.resumed, over) {
            (Some((_, why)), true) => {
                format!("Tromp-Taylor area scoring after the clean-up phase ({why})")
            }
            (None, true) => "Tromp-Taylor area scoring after two passes".to_string(),
            (_, false) => "Tromp-Taylor area scoring after the move cap".to_string(),
        };
        Some(self.scored(self.game.tromp_taylor().0, &how))
    }

    fn wants_dead_stones(&self) -> bool {
        self.cleanup && self.resumed.is_none() && self.settled.is_none() && self.game.is_over()
    }

    fn settle_dead_stones(&mut self, lists: [Option<Vec<String>>; 2]) -> Option<Ending> {
        let names = ["Black", "White"];
        let mut dead: [Option<Vec<Point>>; 2] = [None, None];
        let mut why = None;
        for (k, list) in lists.iter().enumerate() {
            match list {
                None => {
                    why.get_or_insert(format!("{} cannot list dead stones", names[k]));
                }
                Some(l) => match self.dead_points(l) {
                    Some(pts) => dead[k] = Some(pts),
                    None => {
                        why.get_or_insert(format!(
                            "{} names dead stones that are not on the board: {}",
                            names[k],
                            l.join(" ")
                        ));
                    }
                },
            }
        }
        if let [Some(a), Some(b)] = &dead {
            if a == b {
                let listed: Vec<String> = a.iter().map(|&p| vertex_name(p)).collect();
                let how = if a.is_empty() {
                    "area scoring after two passes and agreement that no stone is dead".to_string()
                } else {
                    format!(
                        "area scoring after two passes and agreement on {} dead stone{}: {}",
                        a.len(),
                        if a.len() == 1 { "" } else { "s" },
                        listed.join(" ")
                    )
                };
                let e = self.scored(self.game.score_without(a).0, &how);
                self.settled = Some(e.clone());
                return Some(e);
            }
            let named = |pts: &[Point]| {
                if pts.is_empty() {
                    "none".to_string()
                } else {
                    pts.iter()
                        .map(|&p| vertex_name(p))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            };
            why.get_or_insert(format!(
                "the engines disagree on dead stones: Black says {}, White says {}",
                named(a),
                named(b)
            ));
        }
        let why = why.unwrap_or_else(|| "the engines disagree on dead stones".to_string());
        self.resumed = Some((self.game.moves().len(), why));
        None
    }

    fn in_cleanup(&self) -> bool {
        self.resumed.is_some()
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
            handicap: self.handicap.len() as u32,
            ..GameSetup::default()
        }
    }

    fn adjudicable(&self) -> bool {
        false
    }

    fn record(&self, game: &GameRecord) -> String {
        let mut text = sgf(game, self.size, self.komi, &self.handicap);
        // Mark where the clean-up phase began (the first move after it).
        if let Some((k, why)) = self.resumed.as_ref().filter(|(k, _)| *k < game.moves.len()) {
            if let Some(pos) = text.match_indices("\n;").nth(*k).map(|(i, _)| i) {
                if let Some(end) = text[pos + 2..].find(']').map(|e| pos + 2 + e + 1) {
                    let note = format!("clean-up phase: {}", sgf_text(why));
                    // Every move carries a comment (book or time): join them.
                    if text[end..].starts_with("C[") {
                        text.insert_str(end + 2, &format!("{note}; "));
                    } else {
                        text.insert_str(end, &format!("C[{note}]"));
                    }
                }
            }
        }
        text
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
/// Handicap stones go in `HA` and `AB`, and White moves first.
pub fn sgf(game: &GameRecord, size: usize, komi: f64, handicap: &[Point]) -> String {
    let letter = |i: usize| (b'a' + i as u8) as char;
    let sgf_point = |p: Point| format!("{}{}", letter(p.x()), letter(size - 1 - p.y()));
    let mut s = String::from("(;FF[4]GM[1]CA[UTF-8]AP[tengen-arena]");
    let _ = write!(s, "SZ[{size}]KM[{}]RU[Tromp-Taylor]", fmt_num(komi));
    if !handicap.is_empty() {
        let _ = write!(s, "HA[{}]AB", handicap.len());
        for &p in handicap {
            let _ = write!(s, "[{}]", sgf_point(p));
        }
    }
    let black_moves_first = handicap.is_empty();
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
        let colour = if (k % 2 == 0) == black_moves_first {
            'B'
        } else {
            'W'
        };
        let point = match parse_vertex(&m.wire, size) {
            Some(Move::Play(p)) => sgf_point(p),
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
    use crate::record::PlayedMove;

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

    /// Black walls off the left of a 5x5 board; a lone white stone sits
    /// dead in Black's area, a lone black stone dead in White's.
    fn passed_out(cleanup: bool) -> GoReferee {
        let mut r = GoReferee::new(5, 0.5).unwrap();
        r.set_cleanup(cleanup);
        r.reset(None).unwrap();
        for mv in [
            "C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5", "E5", "A3", "pass", "pass",
        ] {
            r.play(mv).unwrap();
        }
        r
    }

    #[test]
    fn agreement_on_dead_stones_scores_without_them() {
        let list = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let mut r = passed_out(true);
        assert!(r.wants_dead_stones() && r.ending().is_none());
        let e = r
            .settle_dead_stones([list(&["A3", "E5"]), list(&["e5", "A3", "A3"])])
            .unwrap();
        // Without the dead stones: Black 15, White 10, komi 0.5.
        assert_eq!(e.outcome, Outcome::Win(Side::First));
        assert!(
            e.reason.starts_with(
                "B+4.5 by area scoring after two passes and agreement on 2 dead stones: A3 E5"
            ),
            "{}",
            e.reason
        );
        assert_eq!(r.ending(), Some(e));
        assert!(!r.wants_dead_stones());

        // Off: every stone alive, so each dead stone spoils the area it
        // sits in (Black 5 + 1, White 5 + 1, komi 0.5).
        let r = passed_out(false);
        assert!(!r.wants_dead_stones());
        let e = r.ending().unwrap();
        assert!(
            e.reason
                .starts_with("W+0.5 by Tromp-Taylor area scoring after two passes"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn disagreement_resumes_play_until_two_more_passes() {
        let list = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        for lists in [
            [list(&["A3"]), list(&["A3", "E5"])],
            [None, list(&[])],
            [list(&["B2"]), list(&["B2"])],
        ] {
            let mut r = passed_out(true);
            assert!(r.settle_dead_stones(lists).is_none());
            assert!(r.in_cleanup() && !r.wants_dead_stones());
            // A pass right after the two old ones does not end the
            // clean-up; Black captures A3, White captures E5.
            for mv in [
                "pass", "E4", "A2", "pass", "A4", "pass", "B3", "pass", "pass",
            ] {
                assert!(r.ending().is_none(), "before {mv}");
                r.play(mv).unwrap();
            }
            let e = r.ending().unwrap();
            assert!(
                e.reason
                    .starts_with("B+4.5 by Tromp-Taylor area scoring after the clean-up phase ("),
                "{}",
                e.reason
            );
        }
    }

    #[test]
    fn handicap_games_start_with_the_stones_and_white() {
        let mut r = GoReferee::new(9, 0.5).unwrap();
        for bad in [1, 10] {
            assert!(r.set_handicap(bad).is_err(), "{bad}");
        }
        r.set_handicap(2).unwrap();
        assert_eq!(r.setup().handicap, 2);
        assert_eq!(r.side_to_move(), Side::Second);
        r.play("E5").unwrap();
        assert_eq!(r.side_to_move(), Side::First);
        // Occupied by a handicap stone (GNU Go's 9x9 points C3 and G7).
        assert!(r.play("C3").is_err() && r.play("G7").is_err());
        r.reset(None).unwrap();
        assert_eq!(r.side_to_move(), Side::Second);
        assert!(r.play("G7").is_err());
        let rec = GameRecord {
            players: ["b".into(), "w".into()],
            start: None,
            moves: ["E5", "D4"]
                .iter()
                .map(|w| PlayedMove {
                    wire: w.to_string(),
                    notation: w.to_string(),
                    score: None,
                    depth: None,
                    elapsed_ms: 5,
                    book: false,
                })
                .collect(),
            ending: Ending::draw(String::from("aborted")),
            round: 1,
            game_no: 1,
            event: "e".into(),
            date: "2026.01.02".into(),
            time_control: "-".into(),
        };
        let text = r.record(&rec);
        assert!(text.contains("KM[0.5]RU[Tromp-Taylor]HA[2]AB["), "{text}");
        for stone in ["[cg]", "[gc]"] {
            assert!(text.contains(stone), "{text}");
        }
        assert!(text.contains(";W[ee]") && text.contains(";B[df]"), "{text}");
        // Even games: no stones, Black first.
        r.set_handicap(0).unwrap();
        assert_eq!(r.setup().handicap, 0);
        assert_eq!(r.side_to_move(), Side::First);
        let text = r.record(&rec);
        assert!(!text.contains("HA[") && text.contains(";B[ee]"), "{text}");
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
            &[],
        );
        assert!(
            s.contains("RE[B+73.5]") && s.contains("PW[w\\]]") && s.contains("DT[2026-01-02]"),
            "{s}"
        );
        assert!(sgf(
            &rec(Outcome::Win(Side::Second), "Black resigns"),
            9,
            7.5,
            &[]
        )
        .contains("RE[W+R]"));
        assert!(sgf(
            &rec(Outcome::Win(Side::Second), "Black loses on time"),
            9,
            7.5,
            &[],
        )
        .contains("RE[W+T]"));
        assert!(sgf(&rec(Outcome::Draw, "Jigo"), 9, 7.0, &[]).contains("RE[0]"));
    }
}
