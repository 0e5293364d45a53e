//! Engine to GUI, UCI: the arena reads any line an engine prints (garbage
//! included) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::host::uci::{parse_reply, Reply};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Reply::BestMove { mv, .. } = parse_reply(&line) {
        // Tokens split on ASCII blanks only (as every parser here does).
        assert!(!mv.is_empty() && !mv.contains(|c: char| c.is_ascii_whitespace()));
    }
});
