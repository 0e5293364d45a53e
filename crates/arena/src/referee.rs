//! The per-game rules interface the arena referees with. Each game's
//! referee wraps that game's rules crate: it checks every move an engine
//! sends, says when the game is over by the game's own rules, and writes
//! the game's record format.

use crate::record::{Ending, GameRecord, GameSetup, Side};

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
