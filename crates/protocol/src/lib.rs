//! Each protocol's messages as Rust types, with a parser and a printer for
//! both sides: the engine side (parse GUI commands, print replies) and the
//! host side (print commands, parse an engine's replies).
//!
//! Nothing here knows a game's rules: moves travel as strings and are
//! checked by the game crates.

pub mod agi;
pub mod cecp;
pub mod gomocup;
pub mod grammar;
pub mod gtp;
pub mod host;
pub mod lexer;
pub mod ucci;
pub mod uci;
pub mod usi;
