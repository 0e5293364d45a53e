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
    // UCI
    let info = uci::Info {
        depth: Some(9),
        seldepth: Some(12),
        multipv: Some(1),
        score: Some(uci::UciScore::Mate(-3)),
        nodes: Some(12_345),
        time: Some(67),
        pv: vec!["e2e4".into(), "e7e5".into()],
        ..Default::default()
    };
    match host::uci::parse_reply(&info.to_string()) {
        host::uci::Reply::Info(i) => {
            assert_eq!(i.depth, Some(9));
            assert_eq!(i.seldepth, Some(12));
            assert_eq!(i.score, Some(EngineScore::Mate(-3)));
            assert_eq!(i.nodes, Some(12_345));
            assert_eq!(i.time_ms, Some(67));
            assert_eq!(i.pv, ["e2e4", "e7e5"]);
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
        score: Some(usi::InfoScore::Mate(5)),
        nodes: Some(99),
        pv: vec!["2b8h+".into()],
        ..Default::default()
    };
    match host::usi::parse_reply(&info.to_string()) {
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
        score: Some(-37),
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
        score: Some(12),
        pv: vec!["h2e2".into()],
        time_ms: Some(40),
        nodes: Some(5000),
        currmove: Some("b0c2".into()),
        message: Some("two  blanks kept".into()),
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
