//! USI (shogi), controller side. Note the colours: `b` is sente (black,
//! moves first), `w` is gote.

/// Commands and replies are the engine side's own types: one definition of
/// USI's messages, parsed and printed the same way by engine and host.
pub use crate::usi::{parse_reply, BestMove, Command, GameResult, Go, Info, Reply, Score};

/// What the arena keeps from an `info` line (the same view it has of UCI
/// and UCCI engines). A mate of unknown length counts as mate in one.
pub use super::search_info;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::EngineScore;

    #[test]
    fn prints_and_parses() {
        let go = Go {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(1000),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_string(),
            "go btime 0 wtime 0 byoyomi 1000"
        );
        assert_eq!(
            Command::GameOver(Some(GameResult::Lose)).to_string(),
            "gameover lose"
        );
        assert_eq!(
            parse_reply("bestmove resign"),
            Reply::BestMove(BestMove::Resign)
        );
        assert_eq!(parse_reply("bestmove win"), Reply::BestMove(BestMove::Win));
        let mv = |m: &str, p: Option<&str>| {
            Reply::BestMove(BestMove::Move {
                mv: m.into(),
                ponder: p.map(str::to_string),
            })
        };
        assert_eq!(
            parse_reply("bestmove 7g7f ponder 3c3d"),
            mv("7g7f", Some("3c3d"))
        );
        assert_eq!(parse_reply("bestmove 7g7f ponder"), mv("7g7f", None));
        assert_eq!(parse_reply("bestmove 7g7f  extra\r"), mv("7g7f", None));
    }

    #[test]
    fn info_as_the_arena_sees_it() {
        let Reply::Info(info) =
            parse_reply("info depth 3 score mate - nodes 40 multipv 1 pv 8h2b+")
        else {
            panic!("not an info line");
        };
        let seen = search_info(&info);
        assert_eq!(seen.depth, Some(3));
        assert_eq!(seen.score, Some(EngineScore::Mate(-1)));
        assert_eq!(seen.nodes, Some(40));
        assert_eq!(seen.multipv, Some(1));
        assert_eq!(seen.pv, ["8h2b+"]);
    }
}
