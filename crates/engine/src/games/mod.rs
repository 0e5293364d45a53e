//! Per-game glue for the `bench`, `legal` and `perft` subcommands and the
//! front-ends. Each game owns one file here.

pub mod chess;
pub mod go;
pub mod gomoku;
pub mod shogi;
pub mod xiangqi;

use crate::{BenchArgs, PerftArgs, PositionArgs};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Chess,
    Xiangqi,
    Shogi,
    Go,
    Gomoku,
}

impl Game {
    pub fn name(self) -> &'static str {
        match self {
            Game::Chess => "chess",
            Game::Xiangqi => "xiangqi",
            Game::Shogi => "shogi",
            Game::Go => "go",
            Game::Gomoku => "gomoku",
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Game {
    type Err = String;
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

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    match args.game {
        Game::Chess => chess::bench(args),
        Game::Xiangqi => xiangqi::bench(args),
        Game::Shogi => shogi::bench(args),
        Game::Go => go::bench(args),
        Game::Gomoku => gomoku::bench(args),
    }
}

pub fn legal(args: &PositionArgs) -> Result<String, String> {
    match args.game {
        Game::Chess => chess::legal(args),
        Game::Xiangqi => xiangqi::legal(args),
        Game::Shogi => shogi::legal(args),
        Game::Go => go::legal(args),
        Game::Gomoku => gomoku::legal(args),
    }
}

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    match args.pos.game {
        Game::Chess => chess::perft(args),
        Game::Xiangqi => xiangqi::perft(args),
        Game::Shogi => shogi::perft(args),
        Game::Go => go::perft(args),
        Game::Gomoku => gomoku::perft(args),
    }
}
