//! UCCI (xiangqi), controller side. The arena always turns on
//! `usemillisec`, so every time below is in milliseconds.

/// Commands and replies are the engine side's own types: one definition of
/// UCCI's messages, parsed and printed the same way by engine and host.
pub use crate::ucci::{parse_reply, Command, Go, Info, Reply};

/// What the arena keeps from an `info` line (the same view it has of UCI
/// and USI engines). UCCI scores are bare numbers, from the side to move.
pub use super::search_info;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::EngineScore;

    #[test]
    fn go_follows_the_grammar() {
        let go = Go {
            time: Some(5000),
            increment: Some(100),
            opptime: Some(4000),
            oppincrement: Some(100),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_string(),
            "go time 5000 increment 100 opptime 4000 oppincrement 100"
        );
        let ponder = Go {
            ponder: true,
            time: Some(7),
            ..Go::default()
        };
        assert_eq!(Command::Go(ponder).to_string(), "go ponder time 7");
        let opt = Command::SetOption {
            name: "usemillisec".into(),
            value: Some("true".into()),
        };
        assert_eq!(opt.to_string(), "setoption usemillisec true");
    }

    #[test]
    fn parses_replies() {
        assert_eq!(parse_reply("nobestmove"), Reply::NoBestMove);
        assert_eq!(
            parse_reply("bestmove h2e2"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: None,
                draw: false,
                resign: false,
            }
        );
        assert_eq!(parse_reply("ucciok"), Reply::UcciOk);
        assert_eq!(parse_reply("bestmove"), Reply::Unknown("bestmove".into()));
        let Reply::Info(i) =
            parse_reply("info depth 3 seldepth 6 score cp 25 pv a0a1 b0c2 nodes 9 nps 90")
        else {
            panic!("not info");
        };
        let seen = search_info(&i);
        assert_eq!(
            (seen.depth, seen.score, seen.nodes),
            (Some(3), Some(EngineScore::Cp(25)), Some(9))
        );
        // Pikafish prints these; the arena once lost them.
        assert_eq!((seen.seldepth, seen.nps), (Some(6), Some(90)));
        assert_eq!(seen.pv, ["a0a1", "b0c2"]);
        // The flags the arena once dropped: a draw offer with a ponder
        // move, and a resignation.
        assert_eq!(
            parse_reply("bestmove h2e2 ponder h9g7 draw"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: Some("h9g7".into()),
                draw: true,
                resign: false,
            }
        );
        assert_eq!(
            parse_reply("bestmove h2e2 resign"),
            Reply::BestMove {
                mv: "h2e2".into(),
                ponder: None,
                draw: false,
                resign: true,
            }
        );
    }
}
