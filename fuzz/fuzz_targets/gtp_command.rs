//! GTP, controller to engine: any line an engine might read. Pre-processing
//! and `Command::parse` must never panic; what parses prints back to an
//! equal command, and its typed form (`Request`, what the arena sends)
//! prints back to an equal request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::gtp::{is_interrupt, preprocess, Command, Request};

fuzz_target!(|data: &[u8]| {
    let raw = String::from_utf8_lossy(data);
    let _ = is_interrupt(&raw);
    let Some(line) = preprocess(&raw) else {
        return;
    };
    let Some(cmd) = Command::parse(&line) else {
        return;
    };
    let printed = cmd.to_line();
    assert_eq!(Command::parse(&printed).as_ref(), Some(&cmd), "{printed}");
    let req = Request::parse(&cmd);
    let again = preprocess(&req.to_string()).and_then(|l| Command::parse(&l));
    match again {
        Some(c) => assert_eq!(Request::parse(&c), req),
        None => panic!("request {req:?} printed as an empty line"),
    }
});
