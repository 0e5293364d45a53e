//! Gomocup, brain to manager: `parse_reply` (what the arena reads) never
//! panics on any line, and a reply it accepts prints back to an equal
//! reply. `ABOUT`'s free-form `key="value"` list is left out of the
//! equality: its reader drops parts without `=`, so a printed list can
//! begin with a word that no longer reads as a list (`x, ERROR y=1`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::gomocup::{parse_reply, Reply};

fuzz_target!(|data: &[u8]| {
    // Lines as a reader splits them: at LF, CRLF or a lone CR.
    let text = String::from_utf8_lossy(data);
    for line in text.split(['\n', '\r']) {
        if let Ok(reply) = parse_reply(line) {
            let printed = reply.to_string();
            let again = parse_reply(&printed);
            if !matches!(reply, Reply::About(_)) {
                assert_eq!(again, Ok(reply), "{printed}");
            }
        }
    }
});
