//! GTP, engine to controller: any output an engine might write, one line
//! at a time into the one `ResponseReader`. It must never panic, and every
//! response it assembles prints (as the engine prints) and reads back to
//! an equal response.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::gtp::{Response, ResponseReader};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = ResponseReader::new();
    for line in text.split('\n') {
        if let Some(r) = reader.feed(line) {
            let printed = r.to_string();
            let mut again = ResponseReader::new();
            let back: Vec<Response> = printed.split('\n').filter_map(|l| again.feed(l)).collect();
            assert_eq!(back, [r], "{printed:?}");
        }
    }
});
