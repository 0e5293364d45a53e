//! The games tengen plays and referees.

use crate::Protocol;
use std::fmt;
use std::str::FromStr;

/// A game, as `--game` and the arena's `variant=` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Chess,
    Xiangqi,
    Shogi,
    Go,
    Gomoku,
}

/// The standard chess start (FEN).
pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The xiangqi start (FEN, Red to move, written `w` as UCCI does).
pub const XIANGQI_START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The shogi start (SFEN, sente to move).
pub const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Game {
    pub const ALL: [Game; 5] = [
        Game::Chess,
        Game::Xiangqi,
        Game::Shogi,
        Game::Go,
        Game::Gomoku,
    ];

    /// The canonical name (`--game`, records, JSON).
    pub fn name(self) -> &'static str {
        match self {
            Game::Chess => "chess",
            Game::Xiangqi => "xiangqi",
            Game::Shogi => "shogi",
            Game::Go => "go",
            Game::Gomoku => "gomoku",
        }
    }

    /// The protocol the engine speaks for this game when nothing else is
    /// asked: the one its GUIs and reference engines use.
    pub fn default_protocol(self) -> Protocol {
        match self {
            Game::Chess => Protocol::Uci,
            Game::Xiangqi => Protocol::Ucci,
            Game::Shogi => Protocol::Usi,
            Game::Go => Protocol::Gtp,
            Game::Gomoku => Protocol::Gomocup,
        }
    }

    /// The standard start position in the game's own notation (FEN,
    /// SFEN), or `None` for the games that start from an empty board of a
    /// chosen size (Go, gomoku).
    pub fn start_position(self) -> Option<&'static str> {
        match self {
            Game::Chess => Some(CHESS_START),
            Game::Xiangqi => Some(XIANGQI_START),
            Game::Shogi => Some(SHOGI_START),
            Game::Go | Game::Gomoku => None,
        }
    }

    /// Reads an arena `variant=`/`game=` value: every name [`FromStr`]
    /// takes plus `standard`, cutechess-cli's name for chess (the engine's
    /// `--game` does not take it, since `standard` is also a gomoku rule).
    pub fn from_variant(s: &str) -> Result<Game, String> {
        if s.trim().eq_ignore_ascii_case("standard") {
            return Ok(Game::Chess);
        }
        s.parse()
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = String;

    /// Canonical names, case-insensitive, plus the aliases GUIs send
    /// (`chess960`, `baduk`, `weiqi`, `renju`). The variant flags those
    /// aliases carry (Chess960 castling, the renju rule) are read by the
    /// caller from the same text.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "chess" | "chess960" => Ok(Game::Chess),
            "xiangqi" => Ok(Game::Xiangqi),
            "shogi" => Ok(Game::Shogi),
            "go" | "baduk" | "weiqi" => Ok(Game::Go),
            "gomoku" | "renju" => Ok(Game::Gomoku),
            other => Err(format!(
                "unknown game '{other}' (expected chess, xiangqi, shogi, go or gomoku)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_aliases_map() {
        for g in Game::ALL {
            assert_eq!(g.name().parse::<Game>(), Ok(g));
            assert_eq!(g.to_string().to_uppercase().parse::<Game>(), Ok(g));
            assert_eq!(Game::from_variant(g.name()), Ok(g));
        }
        assert_eq!(" Chess960 ".parse::<Game>(), Ok(Game::Chess));
        assert_eq!("baduk".parse::<Game>(), Ok(Game::Go));
        assert_eq!("weiqi".parse::<Game>(), Ok(Game::Go));
        assert_eq!("renju".parse::<Game>(), Ok(Game::Gomoku));
    }

    #[test]
    fn standard_is_chess_only_as_an_arena_variant() {
        assert_eq!(Game::from_variant("Standard"), Ok(Game::Chess));
        assert!("standard".parse::<Game>().is_err());
    }

    #[test]
    fn unknown_names_say_what_is_expected() {
        let e = "Zork".parse::<Game>().unwrap_err();
        assert_eq!(
            e,
            "unknown game 'zork' (expected chess, xiangqi, shogi, go or gomoku)"
        );
        assert!("".parse::<Game>().is_err());
        assert!(Game::from_variant("fischerandom").is_err());
    }

    #[test]
    fn each_game_default_protocol_speaks_it() {
        for g in Game::ALL {
            assert!(g.default_protocol().speaks(g), "{g}");
        }
    }

    #[test]
    fn start_positions_only_for_the_board_games_with_setups() {
        assert_eq!(
            Game::ALL.map(|g| g.start_position().is_some()),
            [true, true, true, false, false]
        );
        // Side to move: White, Red (written w), sente (written b).
        assert!(Game::Chess.start_position().unwrap_or("").contains(" w "));
        assert!(Game::Xiangqi.start_position().unwrap_or("").contains(" w "));
        assert!(Game::Shogi.start_position().unwrap_or("").contains(" b "));
    }
}
