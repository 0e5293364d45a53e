//! The one place that knows tengen's games and protocols.
//!
//! The engine, the arena and the rules crates all read the same facts from
//! here: the game and protocol names the command lines accept, each game's
//! start position, which protocol speaks which game, and the perft
//! algorithm that proves every game's move generator. The crate depends on
//! nothing, so every rules crate can implement [`Perft`] for its own
//! position type.

mod game;
mod perft;
mod protocol;

pub use game::{Game, CHESS_START, SHOGI_START, XIANGQI_START};
pub use perft::{divide, legal_move_names, perft, Perft};
pub use protocol::Protocol;
