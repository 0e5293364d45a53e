//! The bodies of tengen's fuzz targets, one `pub fn NAME(data: &[u8])` per
//! target. `fuzz/fuzz_targets/NAME.rs` hands libFuzzer's input to the
//! function of the same name (nightly, cargo-fuzz), and `tests/replay.rs`
//! runs every kept input of `fuzz/corpus/NAME/` through it on stable, so
//! CI replays the corpora with a plain `cargo test`.
//!
//! Each function panics (an assertion) on a bug and returns on anything
//! else; inputs are whatever bytes arrive.

pub mod arena;
pub mod args;
pub mod gui;
pub mod positions;
pub mod protocol;
pub mod records;

pub use arena::{arena_config, arena_journal, arena_openings};
pub use args::position_args;
pub use gui::{gui_page, gui_record};
pub use positions::{chess_fen, shogi_sfen, xiangqi_fen};
pub use protocol::{
    agi_command, agi_message, cecp_command, cecp_reply, gomocup_command, gomocup_reply,
    gtp_command, gtp_response, protocol_lines, ucci_command, ucci_reply, uci_command, uci_line,
    uci_reply, usi_command, usi_reply,
};
pub use records::go_sgf;

/// A fuzz target: its name (the file under `fuzz/fuzz_targets/` and the
/// corpus directory) and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by name.
pub const TARGETS: &[Target] = &[
    ("gui_page", gui_page),
    ("gui_record", gui_record),
    ("uci_line", uci_line),
    ("chess_fen", chess_fen),
    ("protocol_lines", protocol_lines),
    ("uci_command", uci_command),
    ("gtp_command", gtp_command),
    ("uci_reply", uci_reply),
    ("gtp_response", gtp_response),
    ("ucci_command", ucci_command),
    ("agi_command", agi_command),
    ("ucci_reply", ucci_reply),
    ("agi_message", agi_message),
    ("usi_command", usi_command),
    ("gomocup_command", gomocup_command),
    ("usi_reply", usi_reply),
    ("gomocup_reply", gomocup_reply),
    ("arena_openings", arena_openings),
    ("arena_config", arena_config),
    ("arena_journal", arena_journal),
    ("xiangqi_fen", xiangqi_fen),
    ("shogi_sfen", shogi_sfen),
    ("go_sgf", go_sgf),
    ("position_args", position_args),
    ("cecp_command", cecp_command),
    ("cecp_reply", cecp_reply),
];

/// The body of the target called `name`.
pub fn target(name: &str) -> Option<fn(&[u8])> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}
