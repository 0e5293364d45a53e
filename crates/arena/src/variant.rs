//! The per-game settings of a match and the referee they build. Kept
//! apart from the `Referee` trait so that the games, which implement the
//! trait, and this module, which picks one of them, do not import each
//! other.

use crate::games;
use crate::referee::Referee;
use tengen_games::Game;

/// Per-game settings from the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub kind: Game,
    pub chess960: bool,
    pub board_size: u32,
    pub komi: f64,
    /// Go: Black's handicap stones, on GNU Go's fixed points, before
    /// White's first move (0: an even game; else 2..=9).
    pub handicap: u32,
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
            handicap: 0,
            rule: "freestyle".into(),
            go_cleanup: true,
            swap2: false,
        }
    }
}

/// Builds the referee for a variant (errors name a bad board size or rule).
pub fn make_referee(v: &Variant) -> Result<Box<dyn Referee>, String> {
    match v.kind {
        Game::Chess => Ok(Box::new(games::chess::ChessReferee::new(v.chess960))),
        Game::Shogi => Ok(Box::new(games::shogi::ShogiReferee::default())),
        Game::Xiangqi => Ok(Box::new(games::xiangqi::XiangqiReferee::default())),
        Game::Gomoku => {
            let rule: tengen_gomoku::Rule = v.rule.parse()?;
            Ok(Box::new(games::gomoku::GomokuReferee::new(
                v.board_size,
                rule,
            )?))
        }
        Game::Go => {
            let mut r = games::go::GoReferee::new(v.board_size, v.komi)?;
            r.set_cleanup(v.go_cleanup);
            r.set_handicap(v.handicap)?;
            Ok(Box::new(r))
        }
    }
}
