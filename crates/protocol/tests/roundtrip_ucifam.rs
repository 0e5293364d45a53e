//! Round trips for the UCI family, both directions: a GUI command the
//! engine side parses prints back to the same command, and a reply the
//! engine side prints reads back on the host side with the same content.

use tengen_protocol::host::{self, EngineScore};
use tengen_protocol::{ucci, uci, usi};

#[test]
fn uci_commands_print_then_parse_to_the_same_value() {
    for line in [
        "uci",
        "isready",
        "ucinewgame",
        "setoption name Move Overhead value 30",
        "setoption name Clear Hash",
        "position startpos moves e2e4 e7e5",
        "position fen 8/8/8/8/8/8/8/K6k w - - 0 1",
        "go wtime 1000 btime 900 winc 10 binc 10 movestogo 5",
        "go depth 7 nodes 5000 searchmoves e2e4 d2d4",
        "go ponder movetime 300",
        "go infinite",
        "stop",
        "ponderhit",
        "quit",
    ] {
        let cmd = uci::parse(line).unwrap().unwrap();
        let again = uci::parse(&cmd.to_string()).unwrap().unwrap();
        assert_eq!(again, cmd, "{line}");
    }
}

#[test]
fn usi_commands_print_then_parse_to_the_same_value() {
    for line in [
        "usi",
        "isready",
        "usinewgame",
        "setoption name USI_Hash value 128",
        "position startpos moves 7g7f 3c3d",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "go btime 1000 wtime 1000 byoyomi 500",
        "go btime 0 wtime 0 binc 5000 winc 5000",
        "go mate 3000",
        "go mate infinite",
        "go ponder btime 10 wtime 10",
        "go infinite",
        "stop",
        "ponderhit",
        "gameover win",
        "quit",
    ] {
        let cmd = usi::parse(line).unwrap().unwrap();
        let again = usi::parse(&cmd.to_string()).unwrap().unwrap();
        assert_eq!(again, cmd, "{line}");
    }
}

#[test]
fn ucci_commands_print_then_parse_to_the_same_value() {
    for line in [
        "ucci",
        "isready",
        "setoption usemillisec true",
        "setoption hashsize 64",
        "setoption newgame",
        "setoption name Clear Hash",
        "setoption name name value 3",
        "position startpos moves h2e2 h9g7",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "probe startpos moves h2e2",
        "banmoves h2e2 b2e2",
        "go time 3000 increment 20 opptime 2500 oppincrement 20",
        "go time 60 movestogo 30 opptime 50 oppmovestogo 29",
        "go ponder depth 8",
        "go draw nodes 5000",
        "go depth infinite",
        "go perft 3",
        "ponderhit draw",
        "ponderhit",
        "stop",
        "quit",
    ] {
        let cmd = ucci::parse(line).unwrap().unwrap();
        let again = ucci::parse(&cmd.to_string()).unwrap().unwrap();
        assert_eq!(again, cmd, "{line}");
    }
}

#[test]
fn engine_replies_read_back_on_the_host_side() {
    // UCI: one reply type both ways too.
    let info = uci::Info {
        depth: Some(9),
        seldepth: Some(12),
        multipv: Some(1),
        score: Some(uci::Score::Mate(-3)),
        nodes: Some(12_345),
        time: Some(67),
        pv: vec!["e2e4".into(), "e7e5".into()],
        ..Default::default()
    };
    match host::uci::parse_reply(&uci::Reply::Info(info.clone()).to_string()) {
        uci::Reply::Info(i) => {
            assert_eq!(i, info);
            let seen = host::uci::search_info(&i);
            assert_eq!(seen.depth, Some(9));
            assert_eq!(seen.seldepth, Some(12));
            assert_eq!(seen.score, Some(EngineScore::Mate(-3)));
            assert_eq!(seen.nodes, Some(12_345));
            assert_eq!(seen.time_ms, Some(67));
            assert_eq!(seen.pv, ["e2e4", "e7e5"]);
        }
        other => panic!("{other:?}"),
    }
    // USI: one reply type both ways; mate distances in plies.
    for reply in [
        usi::Reply::BestMove(usi::BestMove::Move {
            mv: "7g7f".into(),
            ponder: Some("3c3d".into()),
        }),
        usi::Reply::BestMove(usi::BestMove::Resign),
        usi::Reply::BestMove(usi::BestMove::Win),
        usi::Reply::Checkmate(usi::Checkmate::Moves(vec!["2b8h+".into(), "9a9b".into()])),
    ] {
        assert_eq!(host::usi::parse_reply(&reply.to_string()), reply);
    }
    let info = usi::Info {
        depth: Some(4),
        score: Some(usi::Score::Mate(5)),
        nodes: Some(99),
        pv: vec!["2b8h+".into()],
        ..Default::default()
    };
    match host::usi::parse_reply(&usi::Reply::Info(info.clone()).to_string()) {
        host::usi::Reply::Info(i) => {
            assert_eq!(i, info);
            let seen = host::usi::search_info(&i);
            assert_eq!(seen.score, Some(EngineScore::Mate(5)));
            assert_eq!(seen.nodes, Some(99));
            assert_eq!(seen.pv, ["2b8h+"]);
        }
        other => panic!("{other:?}"),
    }
    // UCCI: scores without `cp`, `nobestmove`, `bye`.
    let info = ucci::Info {
        depth: Some(6),
        score: Some(ucci::Score::Cp(-37)),
        pv: vec!["h2e2".into(), "h9g7".into()],
        ..Default::default()
    };
    let printed = ucci::Reply::Info(info.clone()).to_string();
    assert_eq!(host::ucci::parse_reply(&printed), ucci::Reply::Info(info));
    let seen = host::ucci::search_info(&match host::ucci::parse_reply(&printed) {
        ucci::Reply::Info(i) => i,
        other => panic!("{other:?}"),
    });
    assert_eq!(seen.score, Some(EngineScore::Cp(-37)));
    assert_eq!(seen.pv, ["h2e2", "h9g7"]);
    // Every other reply the engine side prints reads back equal.
    let full = ucci::Info {
        depth: Some(9),
        seldepth: Some(14),
        score: Some(ucci::Score::Cp(12)),
        pv: vec!["h2e2".into()],
        time: Some(40),
        nodes: Some(5000),
        nps: Some(125_000),
        currmove: Some("b0c2".into()),
        string: Some("two  blanks kept".into()),
        ..Default::default()
    };
    for reply in [
        ucci::Reply::Info(full),
        ucci::Reply::Id {
            kind: "name",
            text: "tengen  0.1".into(),
        },
        ucci::Reply::Option {
            name: "hashsize".into(),
            kind: ucci::OptionType::Spin {
                min: 0,
                max: 1024,
                default: 16,
            },
        },
        ucci::Reply::Option {
            name: "usebook".into(),
            kind: ucci::OptionType::Check(true),
        },
        ucci::Reply::Option {
            name: "style".into(),
            kind: ucci::OptionType::Combo {
                vars: vec!["solid".into(), "normal".into()],
                default: "normal".into(),
            },
        },
        ucci::Reply::Option {
            name: "bookfiles".into(),
            kind: ucci::OptionType::String("a b".into()),
        },
        ucci::Reply::Option {
            name: "newgame".into(),
            kind: ucci::OptionType::Button,
        },
        ucci::Reply::UcciOk,
        ucci::Reply::ReadyOk,
        ucci::Reply::PopHash(ucci::PopHash::default()),
        ucci::Reply::PopHash(ucci::PopHash {
            bestmove: Some("h2e2".into()),
            lowerbound: Some((-20, 7)),
            upperbound: Some((30, 5)),
        }),
    ] {
        let printed = reply.to_string();
        assert_eq!(host::ucci::parse_reply(&printed), reply, "{printed}");
    }
    // Garbage is kept, never an error.
    assert_eq!(
        host::ucci::parse_reply("  hello there "),
        ucci::Reply::Unknown("hello there".into())
    );
    let best = ucci::Reply::BestMove {
        mv: "h2e2".into(),
        ponder: Some("h9g7".into()),
        draw: true,
        resign: false,
    };
    assert_eq!(
        host::ucci::parse_reply(&best.to_string()),
        ucci::Reply::BestMove {
            mv: "h2e2".into(),
            ponder: Some("h9g7".into()),
            draw: true,
            resign: false,
        }
    );
    let resign = ucci::Reply::BestMove {
        mv: "h2e2".into(),
        ponder: None,
        draw: false,
        resign: true,
    };
    assert_eq!(
        host::ucci::parse_reply(&resign.to_string()),
        ucci::Reply::BestMove {
            mv: "h2e2".into(),
            ponder: None,
            draw: false,
            resign: true,
        }
    );
    assert_eq!(
        host::ucci::parse_reply(&ucci::Reply::NoBestMove.to_string()),
        ucci::Reply::NoBestMove
    );
    assert_eq!(
        host::ucci::parse_reply(&ucci::Reply::Bye.to_string()),
        ucci::Reply::Bye
    );
}

/// Every field of `info`, printed by each dialect, reads back equal:
/// one grammar, three spellings (UCCI's bare score and `message`).
#[test]
fn info_with_every_field_round_trips_in_each_dialect() {
    use tengen_protocol::grammar::{Bound, Info, Score};
    let full = Info {
        depth: Some(17),
        seldepth: Some(23),
        multipv: Some(2),
        score: Some(Score::Cp(-41)),
        bound: Some(Bound::Upper),
        wdl: Some((120, 800, 80)),
        nodes: Some(u64::MAX),
        nps: Some(1_234_567),
        hashfull: Some(999),
        tbhits: Some(3),
        time: Some(4_321),
        currmove: Some("a1a2".into()),
        currmovenumber: Some(7),
        pv: vec!["a1a2".into(), "b1b2".into(), "c1c2".into()],
        string: Some("and  some text".into()),
    };
    let mates = [
        Score::Mate(5),
        Score::Mate(-2),
        Score::MatePlus,
        Score::MateMinus,
    ];
    for score in std::iter::once(Score::Cp(-41)).chain(mates) {
        let info = Info {
            score: Some(score),
            ..full.clone()
        };
        let line = uci::Reply::Info(info.clone()).to_string();
        assert_eq!(
            uci::parse_reply(&line),
            uci::Reply::Info(info.clone()),
            "{line}"
        );
        let line = usi::Reply::Info(info.clone()).to_string();
        assert_eq!(
            usi::parse_reply(&line),
            usi::Reply::Info(info.clone()),
            "{line}"
        );
        let line = ucci::Reply::Info(info.clone()).to_string();
        assert_eq!(
            ucci::parse_reply(&line),
            ucci::Reply::Info(info.clone()),
            "{line}"
        );
    }
    let ucci_line = ucci::Reply::Info(full.clone()).to_string();
    assert!(ucci_line.contains(" score -41 upperbound "), "{ucci_line}");
    assert!(
        ucci_line.ends_with(" message and  some text"),
        "{ucci_line}"
    );
    let uci_line = uci::Reply::Info(full).to_string();
    assert!(uci_line.contains(" score cp -41 upperbound "), "{uci_line}");
    assert!(uci_line.ends_with(" string and  some text"), "{uci_line}");
}

/// The option announcements of each dialect read back to the same option.
#[test]
fn option_lines_round_trip_in_each_dialect() {
    use tengen_protocol::grammar::OptionType;
    let kinds = [
        OptionType::Check(true),
        OptionType::Spin {
            min: -5,
            max: 65_536,
            default: 16,
        },
        OptionType::Combo {
            vars: vec!["chess".into(), "xiangqi".into()],
            default: "xiangqi".into(),
        },
        OptionType::Button,
        OptionType::String(String::new()),
        OptionType::String("C:/my books/a.bin".into()),
        OptionType::Filename("<default>".into()),
    ];
    for kind in kinds {
        let uci_opt = uci::Reply::Option {
            name: "Book File".into(),
            kind: kind.clone(),
        };
        assert_eq!(uci::parse_reply(&uci_opt.to_string()), uci_opt);
        let usi_opt = usi::Reply::Option {
            name: "USI_Book".into(),
            kind: kind.clone(),
        };
        assert_eq!(usi::parse_reply(&usi_opt.to_string()), usi_opt);
        let ucci_opt = ucci::Reply::Option {
            name: "bookfiles".into(),
            kind,
        };
        assert_eq!(ucci::parse_reply(&ucci_opt.to_string()), ucci_opt);
    }
    // The spellings differ: UCI names the option and leads with the
    // default, UCCI does neither.
    let spin = OptionType::Spin {
        min: 1,
        max: 9,
        default: 2,
    };
    let uci_line = uci::Reply::Option {
        name: "Threads".into(),
        kind: spin.clone(),
    };
    assert_eq!(
        uci_line.to_string(),
        "option name Threads type spin default 2 min 1 max 9"
    );
    let ucci_line = ucci::Reply::Option {
        name: "threads".into(),
        kind: spin,
    };
    assert_eq!(
        ucci_line.to_string(),
        "option threads type spin min 1 max 9 default 2"
    );
}

#[test]
fn uci_replies_round_trip() {
    for line in [
        "id name tengen 0.1",
        "id author the tengen developers",
        "uciok",
        "readyok",
        "bestmove e2e4 ponder e7e5",
        "bestmove (none)",
        "info depth 3 seldepth 4 multipv 1 score cp 20 lowerbound nodes 100 nps 1000 hashfull 1 tbhits 0 time 100 pv e2e4",
        "info depth 2 currmove e2e4 currmovenumber 1",
        "info string tengen cannot play go over UCI yet",
        "option name UCI_Variant type combo default chess var chess var xiangqi",
        "option name Clear Hash type button",
    ] {
        let reply = uci::parse_reply(line);
        assert_eq!(reply.to_string(), line);
        assert!(!matches!(reply, uci::Reply::Unknown(_)), "{line}");
    }
}

/// `position` and `go` are read by one algorithm for the three dialects;
/// each dialect's own words and limits still apply.
#[test]
fn position_and_go_follow_each_dialects_table() {
    // The FEN keyword, and the fewest fields each dialect accepts.
    assert!(uci::parse("position fen 8/8/8/8/8/8/8/K6k").is_ok());
    assert!(ucci::parse("position fen 4k4/9/9/9/9/9/9/9/9/4K4").is_err());
    assert!(ucci::parse("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w").is_ok());
    assert!(usi::parse("position sfen 4k4/9/9/9/9/9/9/9/4K4 b").is_err());
    assert!(usi::parse("position fen 4k4/9/9/9/9/9/9/9/4K4 b - 1").is_err());
    assert!(uci::parse("position sfen 8/8/8/8/8/8/8/K6k w - - 0 1").is_err());
    // Keywords belong to their dialect.
    assert!(uci::parse("go byoyomi 1000").is_err());
    assert!(usi::parse("go byoyomi 1000").is_ok());
    assert!(ucci::parse("go wtime 1000").is_err());
    assert!(uci::parse("go opptime 1000").is_err());
    // A value is required where the table says so, optional for USI mate.
    assert!(uci::parse("go mate").is_err());
    assert!(usi::parse("go mate").is_ok());
    // searchmoves runs to the next keyword of the dialect.
    let Ok(Some(usi::Command::Go(g))) = usi::parse("go searchmoves 7g7f 2g2f byoyomi 10") else {
        panic!("not a go");
    };
    assert_eq!((g.searchmoves.len(), g.byoyomi), (2, Some(10)));
}

/// Lines of words from the three dialects' reply grammar, mixed with
/// junk: whatever a host reads, printed, reads back the same.
#[test]
fn any_reply_a_host_reads_prints_back_the_same() {
    let words = [
        "info",
        "depth",
        "seldepth",
        "multipv",
        "score",
        "cp",
        "mate",
        "+",
        "-",
        "lowerbound",
        "upperbound",
        "wdl",
        "nodes",
        "nps",
        "hashfull",
        "tbhits",
        "time",
        "currmove",
        "currmovenumber",
        "pv",
        "string",
        "message",
        "bestmove",
        "ponder",
        "draw",
        "resign",
        "win",
        "nobestmove",
        "checkmate",
        "nomate",
        "option",
        "name",
        "type",
        "spin",
        "check",
        "combo",
        "var",
        "default",
        "min",
        "max",
        "button",
        "filename",
        "label",
        "id",
        "author",
        "uciok",
        "usiok",
        "ucciok",
        "readyok",
        "pophash",
        "bye",
        "e2e4",
        "7g7f",
        "h2e2",
        "0",
        "1",
        "-1",
        "true",
        "<empty>",
        "99999999999999999999",
        "x",
        "",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..100_000 {
        let n = 1 + (next() % 10) as usize;
        let line: Vec<&str> = (0..n)
            .map(|_| words[(next() % words.len() as u64) as usize])
            .collect();
        let line = line.join(if next() % 4 == 0 { "  " } else { " " });
        let r = uci::parse_reply(&line);
        assert_eq!(uci::parse_reply(&r.to_string()), r, "uci: {line}");
        let r = usi::parse_reply(&line);
        assert_eq!(usi::parse_reply(&r.to_string()), r, "usi: {line}");
        let r = ucci::parse_reply(&line);
        assert_eq!(ucci::parse_reply(&r.to_string()), r, "ucci: {line}");
    }
}

/// The same for commands: whatever the engine side accepts prints back to
/// a line it reads as the same command, in each dialect.
#[test]
fn any_command_the_engine_reads_prints_back_the_same() {
    let words = [
        "go",
        "position",
        "startpos",
        "fen",
        "sfen",
        "moves",
        "setoption",
        "name",
        "value",
        "ponder",
        "infinite",
        "wtime",
        "btime",
        "winc",
        "binc",
        "byoyomi",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "perft",
        "searchmoves",
        "time",
        "increment",
        "opptime",
        "oppmovestogo",
        "oppincrement",
        "draw",
        "probe",
        "banmoves",
        "ponderhit",
        "gameover",
        "win",
        "lose",
        "debug",
        "on",
        "off",
        "register",
        "quit",
        "stop",
        "e2e4",
        "7g7f",
        "h2e2",
        "0000",
        "b",
        "w",
        "-",
        "0",
        "1",
        "-1",
        "3000",
        "99999999999999999999",
        "x",
        "",
    ];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..100_000 {
        let n = 1 + (next() % 9) as usize;
        let line: Vec<&str> = (0..n)
            .map(|_| words[(next() % words.len() as u64) as usize])
            .collect();
        let line = line.join(" ");
        if let Ok(Some(c)) = uci::parse(&line) {
            assert_eq!(uci::parse(&c.to_string()), Ok(Some(c)), "uci: {line}");
        }
        if let Ok(Some(c)) = usi::parse(&line) {
            assert_eq!(usi::parse(&c.to_string()), Ok(Some(c)), "usi: {line}");
        }
        if let Ok(Some(c)) = ucci::parse(&line) {
            assert_eq!(ucci::parse(&c.to_string()), Ok(Some(c)), "ucci: {line}");
        }
    }
}
