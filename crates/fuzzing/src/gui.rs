//! What the browser GUI (`tengen-gui`) reads from the page: WebSocket
//! messages, and the records and positions a user pastes or loads.

use tengen_gui::games::Kind;
use tengen_gui::hub::Hub;
use tengen_gui::{msg, records};

/// A session of page messages: each line of the input is one WebSocket
/// text message, read (`msg::read`) and handled by a hub with no engines
/// configured, as the server does. Nothing may panic, whatever the
/// order of the messages (moves, variations, loads, takebacks, scoring,
/// swaps, saves), and the hub must still answer a `sync` at the end.
pub fn gui_page(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let hub = Hub::new(Vec::new(), Vec::new(), Vec::new(), None)
        .unwrap_or_else(|e| panic!("a hub without engines starts: {e}"));
    for line in text.lines().take(64) {
        if let Ok(m) = msg::read(line) {
            let _ = hub.handle(m);
        }
    }
    let sync = msg::read(r#"{"type":"sync"}"#).expect("sync reads");
    hub.handle(sync)
        .unwrap_or_else(|e| panic!("the hub answers sync after the session: {e}"));
}

/// A pasted record or position (PGN, FEN, SFEN, USI `position`, CSA, KIF,
/// SGF), read for every game the board may show: an answer or an error,
/// never a panic, and the same answer twice.
pub fn gui_record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for kind in Kind::ALL {
        let first = records::load(&text, kind);
        let again = records::load(&text, kind);
        assert_eq!(first, again, "reading is deterministic ({kind:?})");
    }
}
