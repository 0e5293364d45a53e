//! Every protocol's parsers, both sides, on the same hostile lines: the
//! engine-side command parsers (UCI, UCCI, USI, GTP, AGI, Gomocup) and the
//! host-side reply parsers. None may panic, whatever arrives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_protocol::{agi, cecp, gomocup, gtp, host, ucci, uci, usi};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut board_reader = gomocup::CommandReader::new();
    let mut gtp_reader = gtp::ResponseReader::new();
    for line in text.split(['\n', '\r']) {
        let _ = uci::parse(line);
        let _ = ucci::parse(line);
        let _ = usi::parse(line);
        let _ = usi::parse_reply(line);
        if let Some(pre) = gtp::preprocess(line) {
            let _ = gtp::Command::parse(&pre);
        }
        let _ = agi::parse_command(line);
        let _ = agi::parse_message(line);
        let _ = board_reader.feed(line);
        let _ = gomocup::parse_reply(line);
        let _ = host::ucci::parse_reply(line);
        let _ = host::uci::parse_reply(line);
        let _ = host::usi::parse_reply(line);
        let _ = gtp_reader.feed(line);
        let _ = cecp::Command::parse(line);
        let _ = cecp::EditLine::parse(line);
        let _ = cecp::Reply::parse(line);
    }
});
