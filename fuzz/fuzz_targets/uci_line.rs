//! Any line a GUI might send: the UCI parser must answer Ok or Err, never
//! panic, and what it accepts as `go` must print back to an equal command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::uci::{parse, Command};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(Some(Command::Go(go))) = parse(&line) {
        let printed = go.to_string();
        match parse(&printed) {
            Ok(Some(Command::Go(again))) => assert_eq!(again, go),
            other => panic!("printed go '{printed}' reparsed as {other:?}"),
        }
    }
});
