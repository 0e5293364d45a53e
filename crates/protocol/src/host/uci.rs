//! UCI, controller side: the commands a GUI prints and the replies it
//! reads (chess; the UCCI and USI dialects have their own files).

/// Commands and replies are the engine side's own types: one definition of
/// UCI's messages, parsed and printed the same way by engine and host.
pub use crate::uci::{parse_reply, Command, Go, Info, Reply, Score};

/// What the arena keeps from an `info` line (the same view it has of UCCI
/// and USI engines).
pub use super::search_info;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::EngineScore;

    #[test]
    fn prints_commands_as_guis_do() {
        let pos = Command::Position {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(pos.to_string(), "position startpos moves e2e4 e7e5");
        let fen = Command::Position {
            fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec![],
        };
        assert_eq!(fen.to_string(), "position fen 8/8/8/8/8/8/8/K6k w - - 0 1");
        let go = Command::Go(Go {
            wtime: Some(1000),
            btime: Some(900),
            winc: Some(10),
            binc: Some(10),
            ..Go::default()
        });
        assert_eq!(go.to_string(), "go wtime 1000 btime 900 winc 10 binc 10");
        let opt = Command::SetOption {
            name: "Skill Level".into(),
            value: Some("0".into()),
        };
        assert_eq!(opt.to_string(), "setoption name Skill Level value 0");
    }

    #[test]
    fn parses_replies() {
        assert_eq!(parse_reply("uciok\r"), Reply::UciOk);
        assert_eq!(
            parse_reply("bestmove e2e4 ponder e7e5"),
            Reply::BestMove {
                mv: "e2e4".into(),
                ponder: Some("e7e5".into())
            }
        );
        assert_eq!(
            parse_reply("bestmove  a7a8q"),
            Reply::BestMove {
                mv: "a7a8q".into(),
                ponder: None
            }
        );
        assert_eq!(
            parse_reply("id name Stockfish 15.1"),
            Reply::Id {
                key: "name".into(),
                value: "Stockfish 15.1".into()
            }
        );
        match parse_reply("info depth 3 seldepth 5 score mate 2 pv a1a8 wdl 1000 0 0 nps 7") {
            Reply::Info(i) => {
                let seen = search_info(&i);
                assert_eq!(seen.score, Some(EngineScore::Mate(2)));
                assert_eq!(seen.pv, vec!["a1a8"]);
                assert_eq!((seen.seldepth, seen.nps), (Some(5), Some(7)));
                assert_eq!(i.wdl, Some((1000, 0, 0)));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_reply("bestmove"), Reply::Unknown("bestmove".into()));
        assert_eq!(parse_reply(""), Reply::Unknown(String::new()));
    }
}
