//! Engine to GUI, USI: the arena reads any line an engine prints (garbage
//! included) without panicking, a reply it reads prints back to a line
//! that reads to the same reply, and a `bestmove` the engine side prints
//! reads back with the same move and ponder move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::host::usi::{parse_reply, search_info, BestMove, Reply};
use tengen_protocol::usi;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let reply = parse_reply(&line);
    if let Reply::Info(info) = &reply {
        let _ = search_info(info);
    }
    // A line never holds a line break (the reader splits on them).
    if !line.contains(['\n', '\r']) {
        let printed = reply.to_string();
        assert_eq!(
            parse_reply(&printed),
            reply,
            "'{line}' printed as '{printed}'"
        );
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if let [mv, rest @ ..] = words.as_slice() {
        if matches!(*mv, "resign" | "win" | "ponder") {
            return;
        }
        let ponder = rest.first().map(|p| p.to_string());
        let printed = usi::Reply::BestMove(usi::BestMove::Move {
            mv: mv.to_string(),
            ponder: ponder.clone(),
        })
        .to_string();
        match parse_reply(&printed) {
            Reply::BestMove(BestMove::Move { mv: m, ponder: p }) => {
                assert_eq!((m.as_str(), p), (*mv, ponder), "{printed}")
            }
            other => panic!("'{printed}' read back as {other:?}"),
        }
    }
});
