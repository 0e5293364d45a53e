//! Engine to GUI, UCI: the arena reads any line an engine prints (garbage
//! included) without panicking, and a reply it reads prints back to a
//! line that reads to the same reply.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::host::uci::{parse_reply, search_info, Reply};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let reply = parse_reply(&line);
    match &reply {
        Reply::BestMove { mv, .. } => {
            // Tokens split on ASCII blanks only (as every parser here does).
            assert!(!mv.is_empty() && !mv.contains(|c: char| c.is_ascii_whitespace()));
        }
        Reply::Info(info) => {
            let _ = search_info(info);
        }
        _ => {}
    }
    // A line never holds a line break (the reader splits on them).
    if line.contains(['\n', '\r']) {
        return;
    }
    let printed = reply.to_string();
    assert_eq!(
        parse_reply(&printed),
        reply,
        "'{line}' printed as '{printed}'"
    );
});
