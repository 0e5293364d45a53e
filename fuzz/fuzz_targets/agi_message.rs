//! AGI, engine to GUI: `parse_message` (what the arena reads) never panics
//! on any line, and a message it accepts prints back to an equal message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::agi::parse_message;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(msg) = parse_message(&line) {
        let printed = msg.to_string();
        assert_eq!(parse_message(&printed), Ok(msg), "{printed}");
    }
});
