//! AGI, GUI to engine: `parse_command` never panics on any line, and a
//! command it accepts prints back to an equal command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::agi::parse_command;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(cmd) = parse_command(&line) {
        let printed = cmd.to_string();
        assert_eq!(parse_command(&printed), Ok(cmd), "{printed}");
    }
});
