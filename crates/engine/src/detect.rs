//! Which protocol a GUI speaks, from its first meaningful line.

/// The protocols, named and parsed in one place for the engine and the
/// arena.
pub use tengen_games::Protocol;

/// GTP v2 commands a controller may open with (GNU Go's extensions too).
const GTP_OPENERS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "loadsgf",
    "reg_genmove",
    "showboard",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
];

/// Prefixes of GTP extension families: our own `tengen-*` commands and
/// those of KataGo, GoGui, Leela Zero and KGS. No other protocol has a
/// command that starts with one, so a controller that opens with, say,
/// `tengen-priors hand` speaks GTP.
const GTP_PREFIXES: &[&str] = &["tengen-", "kata-", "gogui-", "lz-", "kgs-"];

/// Gomocup (pbrain) manager commands; they are upper case on the wire.
const GOMOCUP_OPENERS: &[&str] = &[
    "START",
    "RECTSTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "INFO",
    "ABOUT",
    "RESTART",
    "END",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
];

/// What the first line tells about the protocol.
#[derive(Debug, PartialEq, Eq)]
pub enum Detected {
    /// Nothing to decide from (blank line, GTP-style comment).
    Skip,
    /// `quit` before any protocol: just leave.
    Quit,
    Protocol(Protocol),
    Unknown,
}

pub fn detect(line: &str) -> Detected {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Detected::Skip;
    }
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    match first {
        "uci" => return Detected::Protocol(Protocol::Uci),
        "ucci" => return Detected::Protocol(Protocol::Ucci),
        "usi" => return Detected::Protocol(Protocol::Usi),
        "xboard" => return Detected::Protocol(Protocol::Cecp),
        "quit" => return Detected::Quit,
        _ => {}
    }
    if first.eq_ignore_ascii_case("agi") {
        return Detected::Protocol(Protocol::Agi);
    }
    if GOMOCUP_OPENERS.contains(&first) {
        return Detected::Protocol(Protocol::Gomocup);
    }
    // GTP commands may carry a numeric id first.
    let cmd = if first.chars().all(|c| c.is_ascii_digit()) {
        words.next().unwrap_or("")
    } else {
        first
    };
    if GTP_OPENERS.contains(&cmd) || GTP_PREFIXES.iter().any(|p| cmd.starts_with(p)) {
        return Detected::Protocol(Protocol::Gtp);
    }
    if cmd == "quit" {
        return Detected::Protocol(Protocol::Gtp);
    }
    Detected::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_protocol() {
        assert_eq!(detect("uci"), Detected::Protocol(Protocol::Uci));
        assert_eq!(detect("  ucci  "), Detected::Protocol(Protocol::Ucci));
        assert_eq!(detect("usi"), Detected::Protocol(Protocol::Usi));
        assert_eq!(detect("xboard"), Detected::Protocol(Protocol::Cecp));
        assert_eq!(detect("AGI"), Detected::Protocol(Protocol::Agi));
        assert_eq!(detect("agi"), Detected::Protocol(Protocol::Agi));
        assert_eq!(detect("START 15"), Detected::Protocol(Protocol::Gomocup));
        assert_eq!(detect("ABOUT"), Detected::Protocol(Protocol::Gomocup));
        assert_eq!(
            detect("protocol_version"),
            Detected::Protocol(Protocol::Gtp)
        );
        assert_eq!(detect("12 boardsize 9"), Detected::Protocol(Protocol::Gtp));
        assert_eq!(detect("1 quit"), Detected::Protocol(Protocol::Gtp));
        assert_eq!(
            detect("tengen-priors hand"),
            Detected::Protocol(Protocol::Gtp)
        );
        assert_eq!(
            detect("3 kata-get-rules"),
            Detected::Protocol(Protocol::Gtp)
        );
        assert_eq!(detect("tengen"), Detected::Unknown);
        assert_eq!(detect(""), Detected::Skip);
        assert_eq!(detect("# hello"), Detected::Skip);
        assert_eq!(detect("quit"), Detected::Quit);
        assert_eq!(detect("xyzzy"), Detected::Unknown);
    }
}
