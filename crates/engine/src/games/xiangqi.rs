//! Xiangqi: placeholder until its issue lands.

use super::{not_built, Game};
use crate::{BenchArgs, PerftArgs, PositionArgs};

pub fn bench(_args: &BenchArgs) -> Result<String, String> {
    not_built(Game::Xiangqi)
}

pub fn legal(_args: &PositionArgs) -> Result<String, String> {
    not_built(Game::Xiangqi)
}

pub fn perft(_args: &PerftArgs) -> Result<String, String> {
    not_built(Game::Xiangqi)
}
