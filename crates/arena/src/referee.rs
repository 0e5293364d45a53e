//! The per-game rules interface the arena referees with. Each game's
//! referee wraps that game's rules crate: it checks every move an engine
//! sends, says when the game is over by the game's own rules, and writes
//! the game's record format.

use crate::game::GameRecord;
use crate::player::GameSetup;
use tengen_games::Game;

/// The side that moves first (White in chess, Red in xiangqi, Sente in
/// shogi, Black in Go and gomoku) and the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// How a game ended, with the reason written into the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: String,
}

impl Ending {
    pub fn win(side: Side, reason: impl Into<String>) -> Self {
        Ending {
            outcome: Outcome::Win(side),
            reason: reason.into(),
        }
    }

    pub fn draw(reason: impl Into<String>) -> Self {
        Ending {
            outcome: Outcome::Draw,
            reason: reason.into(),
        }
    }
}

pub trait Referee: Send {
    /// Resets to a start position: `None` is the game's standard start,
    /// otherwise a position in the game's notation (FEN, SFEN, ...).
    fn reset(&mut self, start: Option<&str>) -> Result<(), String>;
    /// The start position as engines get it (`None`: the standard one).
    fn start_for_engines(&self) -> Option<String>;
    fn side_to_move(&self) -> Side;
    /// "White", "Black", "Sente"... for messages and records.
    fn side_name(&self, side: Side) -> &'static str;
    /// Checks a move in the protocol's notation and plays it. `Ok` holds
    /// the move in the record's notation; `Err` why it is illegal.
    fn play(&mut self, mv: &str) -> Result<String, String>;
    /// The end of the game by its rules, if reached.
    fn ending(&self) -> Option<Ending>;
    /// A move in the record's notation (SAN for chess) as a wire move,
    /// for opening books kept as game records.
    fn wire_from_record(&self, mv: &str) -> Result<String, String> {
        Ok(mv.to_string())
    }
    /// All legal moves in wire notation (random openings use them).
    fn legal_moves(&self) -> Vec<String>;
    /// What engines are told at the start of a game.
    fn setup(&self) -> GameSetup;
    /// True where engine scores make sense for resign/draw adjudication.
    fn adjudicable(&self) -> bool {
        true
    }
    /// Whether the last move reset progress (capture, pawn move): draw
    /// adjudication counts only over quiet stretches, as cutechess does.
    fn last_move_irreversible(&self) -> bool {
        false
    }
    /// Go: play stopped after two passes and, before scoring, the referee
    /// wants each engine's list of dead stones.
    fn wants_dead_stones(&self) -> bool {
        false
    }
    /// Rules on the engines' lists of dead stones (`None`: that engine
    /// cannot tell). `Some` ends the game (the engines agree); `None`
    /// resumes play in a clean-up phase.
    fn settle_dead_stones(&mut self, _lists: [Option<Vec<String>>; 2]) -> Option<Ending> {
        None
    }
    /// Play is in Go's clean-up phase (engines that know it get
    /// `kgs-genmove_cleanup`).
    fn in_cleanup(&self) -> bool {
        false
    }
    /// The side to move claims a win by the game's rules (USI `bestmove
    /// win`); the ruling either way.
    fn claim_win(&self) -> Ending {
        let side = self.side_to_move();
        Ending::win(
            side.other(),
            format!("{} makes a false win claim", self.side_name(side)),
        )
    }
    /// The game record (PGN, SGF, CSA...) of a finished game.
    fn record(&self, game: &GameRecord) -> String;
    /// The record in the format a file extension asks for, where the
    /// game has more than one (shogi: `kif`); otherwise [`Self::record`].
    fn record_as(&self, game: &GameRecord, _ext: &str) -> String {
        self.record(game)
    }
}

/// Per-game settings from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub kind: Game,
    pub chess960: bool,
    pub board_size: u32,
    pub komi: f64,
    /// Gomoku rule: freestyle, standard (exact five) or renju.
    pub rule: String,
    /// Go: after two passes, ask the engines for dead stones and, if they
    /// disagree, play on in a clean-up phase (off: two passes score every
    /// stone as alive).
    pub go_cleanup: bool,
    /// Gomoku: each game opens by Gomocup's swap2 (`SWAP2BOARD`).
    pub swap2: bool,
}

impl Default for Variant {
    fn default() -> Self {
        Variant {
            kind: Game::Chess,
            chess960: false,
            board_size: 19,
            komi: 7.5,
            rule: "freestyle".into(),
            go_cleanup: true,
            swap2: false,
        }
    }
}

/// Builds the referee for a variant (errors name a bad board size or rule).
pub fn make_referee(v: &Variant) -> Result<Box<dyn Referee>, String> {
    match v.kind {
        Game::Chess => Ok(Box::new(crate::games::chess::ChessReferee::new(v.chess960))),
        Game::Shogi => Ok(Box::new(crate::games::shogi::ShogiReferee::default())),
        Game::Xiangqi => Ok(Box::new(crate::games::xiangqi::XiangqiReferee::default())),
        Game::Gomoku => {
            let rule: tengen_gomoku::Rule = v.rule.parse()?;
            Ok(Box::new(crate::games::gomoku::GomokuReferee::new(
                v.board_size,
                rule,
            )?))
        }
        Game::Go => {
            let mut r = crate::games::go::GoReferee::new(v.board_size, v.komi)?;
            r.set_cleanup(v.go_cleanup);
            Ok(Box::new(r))
        }
    }
}
