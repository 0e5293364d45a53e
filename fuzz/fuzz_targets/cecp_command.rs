//! CECP, GUI to engine: any line an engine might read, in normal and in
//! `edit` mode. Neither parser may panic; a command that reads prints back
//! to a line that reads to the same command, and so does an edit line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::cecp::{Command, EditLine};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let read = Command::parse(&line);
    let edit = EditLine::parse(&line);
    // A line never holds a line break (the reader splits on them).
    if line.contains(['\n', '\r']) {
        return;
    }
    if let Ok(Some(cmd)) = read {
        let printed = cmd.to_string();
        assert_eq!(
            Command::parse(&printed),
            Ok(Some(cmd)),
            "'{line}' printed as '{printed}'"
        );
    }
    if let Ok(Some(e)) = edit {
        let printed = e.to_string();
        assert_eq!(EditLine::parse(&printed), Ok(Some(e)), "{printed}");
    }
});
