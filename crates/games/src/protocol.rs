//! The protocols tengen speaks as an engine and drives as an arena.

use crate::Game;
use std::fmt;
use std::str::FromStr;

/// A protocol, as `--protocol` and the arena's `proto=` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    Uci,
    Ucci,
    Usi,
    Gtp,
    Agi,
    Gomocup,
    /// CECP, the xboard/WinBoard protocol (`xboard`, also `cecp`).
    Cecp,
}

impl Protocol {
    pub const ALL: [Protocol; 7] = [
        Protocol::Uci,
        Protocol::Ucci,
        Protocol::Usi,
        Protocol::Gtp,
        Protocol::Agi,
        Protocol::Gomocup,
        Protocol::Cecp,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Usi => "usi",
            Protocol::Gtp => "gtp",
            Protocol::Agi => "agi",
            Protocol::Gomocup => "gomocup",
            Protocol::Cecp => "xboard",
        }
    }

    /// The games tengen plays over this protocol, the default first
    /// (UCI carries xiangqi as a `UCI_Variant`, as Fairy-Stockfish does).
    pub fn games(self) -> &'static [Game] {
        match self {
            Protocol::Uci => &[Game::Chess, Game::Xiangqi],
            Protocol::Ucci => &[Game::Xiangqi],
            Protocol::Usi => &[Game::Shogi],
            Protocol::Gtp => &[Game::Go],
            Protocol::Agi | Protocol::Gomocup => &[Game::Gomoku],
            Protocol::Cecp => &[Game::Chess, Game::Xiangqi, Game::Shogi],
        }
    }

    /// The game played when the command line names none.
    pub fn default_game(self) -> Game {
        // Every protocol lists at least one game (a test checks it).
        self.games().first().copied().unwrap_or(Game::Chess)
    }

    pub fn speaks(self, game: Game) -> bool {
        self.games().contains(&game)
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Protocol {
    type Err = String;

    /// Canonical names, case-insensitive; `pbrain` (the Gomocup brains'
    /// file-name prefix) is Gomocup.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().to_ascii_lowercase();
        if s == "pbrain" {
            return Ok(Protocol::Gomocup);
        }
        if s == "cecp" || s == "winboard" {
            return Ok(Protocol::Cecp);
        }
        Protocol::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown protocol '{s}' (expected uci, ucci, usi, gtp, agi, gomocup or xboard)"
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for p in Protocol::ALL {
            assert_eq!(p.name().parse::<Protocol>(), Ok(p));
            assert_eq!(p.name().to_uppercase().parse::<Protocol>(), Ok(p));
        }
        assert_eq!("PBrain".parse::<Protocol>(), Ok(Protocol::Gomocup));
        assert_eq!("cecp".parse::<Protocol>(), Ok(Protocol::Cecp));
        assert_eq!("XBoard".parse::<Protocol>(), Ok(Protocol::Cecp));
        assert!(Protocol::Cecp.speaks(Game::Shogi));
        assert_eq!(
            "telnet".parse::<Protocol>(),
            Err(
                "unknown protocol 'telnet' (expected uci, ucci, usi, gtp, agi, gomocup or xboard)"
                    .into()
            )
        );
    }

    #[test]
    fn every_game_has_a_protocol_and_every_protocol_a_game() {
        for p in Protocol::ALL {
            assert!(!p.games().is_empty(), "{p}");
            assert!(p.speaks(p.default_game()));
        }
        for g in Game::ALL {
            assert!(Protocol::ALL.iter().any(|p| p.speaks(g)), "{g}");
        }
        assert_eq!(Protocol::Uci.default_game(), Game::Chess);
        assert!(Protocol::Uci.speaks(Game::Xiangqi));
        assert!(!Protocol::Usi.speaks(Game::Chess));
    }
}
