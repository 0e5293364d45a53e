//! Engine to GUI, UCCI: the arena reads any line an engine prints (garbage
//! included) without panicking, a reply it reads prints back to a line
//! that reads to the same reply, and a `bestmove` the engine side prints
//! reads back with the same move, ponder move and flags.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::host::ucci::{parse_reply, Reply};
use tengen_protocol::ucci;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let reply = parse_reply(&line);
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
        if matches!(*mv, "ponder" | "draw" | "resign") {
            return;
        }
        let ponder = rest
            .first()
            .filter(|p| !matches!(**p, "draw" | "resign"))
            .map(|p| p.to_string());
        let draw = rest.len() > 1;
        let resign = rest.len() > 2;
        let printed = ucci::Reply::BestMove {
            mv: mv.to_string(),
            ponder: ponder.clone(),
            draw,
            resign,
        }
        .to_string();
        match parse_reply(&printed) {
            Reply::BestMove {
                mv: m,
                ponder: p,
                draw: d,
                resign: r,
            } => assert_eq!(
                (m.as_str(), p, d, r),
                (*mv, ponder, draw, resign),
                "{printed}"
            ),
            other => panic!("'{printed}' read back as {other:?}"),
        }
    }
});
