//! GUI to engine, UCCI: any line parses to a command, to nothing, or to an
//! error, never a panic; a command that parses prints back to a line that
//! parses to the same command (the arena prints with the same types).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::ucci::parse;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(Some(cmd)) = parse(&line) {
        let printed = cmd.to_string();
        match parse(&printed) {
            Ok(Some(again)) => assert_eq!(again, cmd, "printed as '{printed}'"),
            other => panic!("'{printed}' (from {cmd:?}) reparsed as {other:?}"),
        }
    }
});
