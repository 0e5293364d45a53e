//! Gomocup, manager to brain: lines (multi-line `BOARD`/`SWAP2BOARD`
//! blocks included) through the one `CommandReader`. It never panics, and
//! every command it completes prints back (over as many lines as it
//! takes) to an equal command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::gomocup::CommandReader;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = CommandReader::new();
    // Lines as a reader splits them: at LF, CRLF or a lone CR.
    for line in text.split(['\n', '\r']) {
        if let Some(Ok(cmd)) = reader.feed(line) {
            let printed = cmd.to_string();
            let mut again = CommandReader::new();
            let back: Vec<_> = printed.split('\n').filter_map(|l| again.feed(l)).collect();
            assert_eq!(back, [Ok(cmd)], "{printed:?}");
        }
    }
});
