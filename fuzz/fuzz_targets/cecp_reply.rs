//! CECP, engine to GUI: the arena reads any line an engine prints (garbage
//! included) without panicking, and a reply it reads prints back to a line
//! that reads to the same reply; an option declaration inside a feature
//! reads back the same too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::cecp::{FeatureValue, OptionDecl, Reply};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let reply = Reply::parse(&line);
    if line.contains(['\n', '\r']) {
        return;
    }
    let printed = reply.to_string();
    assert_eq!(
        Reply::parse(&printed),
        reply,
        "'{line}' printed as '{printed}'"
    );
    if let Reply::Feature(list) = &reply {
        for (_, v) in list {
            if let FeatureValue::Str(s) = v {
                if let Some(d) = OptionDecl::parse(s) {
                    let again = d.to_string();
                    assert_eq!(OptionDecl::parse(&again), Some(d), "{again}");
                }
            }
        }
    }
});
