//! Gomoku and renju: rules on boards from 5x5 to 32x32 (freestyle, exact
//! five, renju forbidden points), opening rules, and a player made of
//! threat-space search (VCF, VCT) under an alpha-beta search.

pub mod board;
pub mod book;
pub mod learned;
pub mod opening;
pub mod pattern;
pub mod perft;
pub mod puzzles;
pub mod renju;
pub mod search;
pub mod threat;

pub use board::{Board, Cell, Color, MoveError, Outcome, Point, Rule, Sq, WinReason};
pub use renju::Foul;
