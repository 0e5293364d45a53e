//! One referee per game, each wrapping that game's rules crate.

pub mod chess;
pub mod go;
pub mod gomoku;
pub mod shogi;
pub mod xiangqi;
