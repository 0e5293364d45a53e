//! The protocol targets: each protocol's lines in both directions (engine
//! side: what a GUI sends; host side: what an engine prints).

use tengen_protocol::{agi, cecp, gomocup, gtp, host, ucci, uci, usi};

/// Any line a GUI might send: the UCI parser must answer Ok or Err, never
/// panic, and what it accepts as `go` must print back to an equal command.
pub fn uci_line(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    if let Ok(Some(uci::Command::Go(go))) = uci::parse(&line) {
        let printed = go.to_string();
        match uci::parse(&printed) {
            Ok(Some(uci::Command::Go(again))) => assert_eq!(again, go),
            other => panic!("printed go '{printed}' reparsed as {other:?}"),
        }
    }
}

/// Every protocol's parsers, both sides, on the same hostile lines: the
/// engine-side command parsers (UCI, UCCI, USI, GTP, AGI, Gomocup, CECP)
/// and the host-side reply parsers. None may panic, whatever arrives.
pub fn protocol_lines(data: &[u8]) {
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
}

/// GUI to engine, UCI: any line parses to a command, to nothing, or to an
/// error, never a panic; a command that parses prints back to a line that
/// parses to the same command.
pub fn uci_command(data: &[u8]) {
    command_round_trip(data, uci::parse);
}

/// GUI to engine, UCCI: any line parses to a command, to nothing, or to an
/// error, never a panic; a command that parses prints back to a line that
/// parses to the same command (the arena prints with the same types).
pub fn ucci_command(data: &[u8]) {
    command_round_trip(data, ucci::parse);
}

/// GUI to engine, USI: any line parses to a command, to nothing, or to an
/// error, never a panic; a command that parses prints back to a line that
/// parses to the same command.
pub fn usi_command(data: &[u8]) {
    command_round_trip(data, usi::parse);
}

/// GTP, controller to engine: any line an engine might read. Pre-processing
/// and `Command::parse` must never panic; what parses prints back to an
/// equal command, and its typed form (`Request`, what the arena sends)
/// prints back to an equal request.
pub fn gtp_command(data: &[u8]) {
    let raw = String::from_utf8_lossy(data);
    let _ = gtp::is_interrupt(&raw);
    let Some(line) = gtp::preprocess(&raw) else {
        return;
    };
    let Some(cmd) = gtp::Command::parse(&line) else {
        return;
    };
    let printed = cmd.to_line();
    assert_eq!(
        gtp::Command::parse(&printed).as_ref(),
        Some(&cmd),
        "{printed}"
    );
    let req = gtp::Request::parse(&cmd);
    let again = gtp::preprocess(&req.to_string()).and_then(|l| gtp::Command::parse(&l));
    match again {
        Some(c) => assert_eq!(gtp::Request::parse(&c), req),
        None => panic!("request {req:?} printed as an empty line"),
    }
}

/// AGI, GUI to engine: `parse_command` never panics on any line, and a
/// command it accepts prints back to an equal command.
pub fn agi_command(data: &[u8]) {
    line_round_trip(data, agi::parse_command);
}

/// Gomocup, manager to brain: lines (multi-line `BOARD`/`SWAP2BOARD`
/// blocks included) through the one `CommandReader`. It never panics, and
/// every command it completes prints back (over as many lines as it
/// takes) to an equal command.
pub fn gomocup_command(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut reader = gomocup::CommandReader::new();
    // Lines as a reader splits them: at LF, CRLF or a lone CR.
    for line in text.split(['\n', '\r']) {
        if let Some(Ok(cmd)) = reader.feed(line) {
            let printed = cmd.to_string();
            let mut again = gomocup::CommandReader::new();
            let back: Vec<_> = printed.split('\n').filter_map(|l| again.feed(l)).collect();
            assert_eq!(back, [Ok(cmd)], "{printed:?}");
        }
    }
}

/// Engine to GUI, UCI: the arena reads any line an engine prints (garbage
/// included) without panicking, and a reply it reads prints back to a
/// line that reads to the same reply.
pub fn uci_reply(data: &[u8]) {
    use host::uci::{parse_reply, search_info, Reply};
    let line = String::from_utf8_lossy(data);
    let reply = parse_reply(&line);
    match &reply {
        Reply::BestMove { mv, .. } => {
            // Tokens split on ASCII blanks only (as every parser here does).
            assert!(!mv.is_empty() && !mv.contains(|c: char| c.is_ascii_whitespace()));
        }
        Reply::Info(info) => {
            let _ = search_info(info);
        }
        _ => {}
    }
    // A line never holds a line break (the reader splits on them).
    if line.contains(['\n', '\r']) {
        return;
    }
    let printed = reply.to_string();
    assert_eq!(
        parse_reply(&printed),
        reply,
        "'{line}' printed as '{printed}'"
    );
}

/// Engine to GUI, UCCI: the arena reads any line an engine prints (garbage
/// included) without panicking, a reply it reads prints back to a line
/// that reads to the same reply, and a `bestmove` the engine side prints
/// reads back with the same move, ponder move and flags.
pub fn ucci_reply(data: &[u8]) {
    use host::ucci::{parse_reply, Reply};
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
}

/// Engine to GUI, USI: the arena reads any line an engine prints (garbage
/// included) without panicking, a reply it reads prints back to a line
/// that reads to the same reply, and a `bestmove` the engine side prints
/// reads back with the same move and ponder move.
pub fn usi_reply(data: &[u8]) {
    use host::usi::{parse_reply, search_info, BestMove, Reply};
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
}

/// GTP, engine to controller: any output an engine might write, one line
/// at a time into the one `ResponseReader`. It must never panic, and every
/// response it assembles prints (as the engine prints) and reads back to
/// an equal response.
pub fn gtp_response(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut reader = gtp::ResponseReader::new();
    for line in text.split('\n') {
        if let Some(r) = reader.feed(line) {
            let printed = r.to_string();
            let mut again = gtp::ResponseReader::new();
            let back: Vec<gtp::Response> =
                printed.split('\n').filter_map(|l| again.feed(l)).collect();
            assert_eq!(back, [r], "{printed:?}");
        }
    }
}

/// AGI, engine to GUI: `parse_message` (what the arena reads) never panics
/// on any line, and a message it accepts prints back to an equal message.
pub fn agi_message(data: &[u8]) {
    line_round_trip(data, agi::parse_message);
}

/// Gomocup, brain to manager: `parse_reply` (what the arena reads) never
/// panics on any line, and a reply it accepts prints back to an equal
/// reply. `ABOUT`'s free-form `key="value"` list is left out of the
/// equality: its reader drops parts without `=`, so a printed list can
/// begin with a word that no longer reads as a list (`x, ERROR y=1`).
pub fn gomocup_reply(data: &[u8]) {
    // Lines as a reader splits them: at LF, CRLF or a lone CR.
    let text = String::from_utf8_lossy(data);
    for line in text.split(['\n', '\r']) {
        if let Ok(reply) = gomocup::parse_reply(line) {
            let printed = reply.to_string();
            let again = gomocup::parse_reply(&printed);
            if !matches!(reply, gomocup::Reply::About(_)) {
                assert_eq!(again, Ok(reply), "{printed}");
            }
        }
    }
}

/// CECP, GUI to engine: any line an engine might read, in normal and in
/// `edit` mode. Neither parser may panic; a command that reads prints back
/// to a line that reads to the same command, and so does an edit line.
pub fn cecp_command(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let read = cecp::Command::parse(&line);
    let edit = cecp::EditLine::parse(&line);
    // A line never holds a line break (the reader splits on them).
    if line.contains(['\n', '\r']) {
        return;
    }
    if let Ok(Some(cmd)) = read {
        let printed = cmd.to_string();
        assert_eq!(
            cecp::Command::parse(&printed),
            Ok(Some(cmd)),
            "'{line}' printed as '{printed}'"
        );
    }
    if let Ok(Some(e)) = edit {
        let printed = e.to_string();
        assert_eq!(cecp::EditLine::parse(&printed), Ok(Some(e)), "{printed}");
    }
}

/// CECP, engine to GUI: the arena reads any line an engine prints (garbage
/// included) without panicking, and a reply it reads prints back to a line
/// that reads to the same reply; an option declaration inside a feature
/// reads back the same too.
pub fn cecp_reply(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let reply = cecp::Reply::parse(&line);
    if line.contains(['\n', '\r']) {
        return;
    }
    let printed = reply.to_string();
    assert_eq!(
        cecp::Reply::parse(&printed),
        reply,
        "'{line}' printed as '{printed}'"
    );
    if let cecp::Reply::Feature(list) = &reply {
        for (_, v) in list {
            if let cecp::FeatureValue::Str(s) = v {
                if let Some(d) = cecp::OptionDecl::parse(s) {
                    let again = d.to_string();
                    assert_eq!(cecp::OptionDecl::parse(&again), Some(d), "{again}");
                }
            }
        }
    }
}

/// One line through a parser that reads every line as one value or an
/// error: no panic, and a value prints back to a line that reads as an
/// equal value.
fn line_round_trip<T, E>(data: &[u8], parse: fn(&str) -> Result<T, E>)
where
    T: std::fmt::Display + std::fmt::Debug + PartialEq,
    E: std::fmt::Debug + PartialEq,
{
    let line = String::from_utf8_lossy(data);
    if let Ok(value) = parse(&line) {
        let printed = value.to_string();
        assert_eq!(parse(&printed), Ok(value), "{printed}");
    }
}

/// A GUI's line through a UCI-family command parser: no panic, and a
/// command that parses prints back to a line that parses to the same
/// command.
fn command_round_trip<C, E>(data: &[u8], parse: fn(&str) -> Result<Option<C>, E>)
where
    C: std::fmt::Display + std::fmt::Debug + PartialEq,
    E: std::fmt::Debug,
{
    let line = String::from_utf8_lossy(data);
    if let Ok(Some(cmd)) = parse(&line) {
        let printed = cmd.to_string();
        match parse(&printed) {
            Ok(Some(again)) => assert_eq!(again, cmd, "printed as '{printed}'"),
            other => panic!("'{printed}' (from {cmd:?}) reparsed as {other:?}"),
        }
    }
}
