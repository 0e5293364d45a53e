//! GUI to engine, UCCI: any line parses to a command, to nothing, or to an
//! error, never a panic; parsing is a function of the line alone.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::ucci::parse;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let first = parse(&line);
    assert_eq!(first, parse(&line));
});
