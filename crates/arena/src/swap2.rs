//! Gomocup's swap2 opening (`SWAP2BOARD`), as Gomocup's manager plays it:
//! the first player places three stones (black, white, black); the second
//! either takes Black (`SWAP`), plays White's fourth stone, or places a
//! fourth and a fifth and hands the choice back; then the first either
//! takes Black (`SWAP`) or plays White's sixth stone. Who answers with a
//! stone plays the colour to move; `SWAP` takes the other one. Every stone
//! is checked by the referee.

use crate::clock::TimeControl;
use crate::player::{Player, Swap2Answer};
use crate::referee::Referee;
use std::time::Duration;

/// The stones of a finished swap2 opening and who plays Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap2Opening {
    pub moves: Vec<String>,
    /// 0: the player who placed the first three stones, 1: the other.
    pub black: usize,
}

/// A fault in the opening: the player (0 or 1) and why.
pub type Swap2Fault = (usize, String);

/// An engine's time for one swap answer (the opening is off the game
/// clock): a twentieth of the base time plus the increment, or the time
/// per move, within 0.2..10 s; 5 s without a clock. The arena and the
/// GUI give the same.
pub fn answer_time(tc: Option<TimeControl>) -> Duration {
    let ms = match tc {
        None => 5_000,
        Some(tc) => tc
            .movetime_ms
            .unwrap_or(tc.base_ms / 20 + tc.inc_ms)
            .clamp(200, 10_000),
    };
    Duration::from_millis(ms)
}

/// Plays the opening between `players[0]` (who places the first three
/// stones) and `players[1]`; `turns` is each one's time for an answer.
pub fn negotiate(
    referee: &mut dyn Referee,
    players: [&mut dyn Player; 2],
    turns: [Duration; 2],
) -> Result<Swap2Opening, Swap2Fault> {
    let [first, second] = players;
    let setup = referee.setup();
    referee
        .reset(None)
        .map_err(|e| (0, format!("cannot set up the board: {e}")))?;
    let mut moves: Vec<String> = Vec::new();
    let place = |referee: &mut dyn Referee,
                 moves: &mut Vec<String>,
                 who: usize,
                 stones: &[String]|
     -> Result<(), Swap2Fault> {
        for s in stones {
            referee
                .play(s)
                .map_err(|e| (who, format!("an illegal swap2 stone {s} ({e})")))?;
            moves.push(s.clone());
        }
        Ok(())
    };
    let three = match first.swap2(&setup, &[], turns[0]) {
        Ok(Swap2Answer::Stones(s)) if s.len() == 3 => s,
        Ok(other) => return Err((0, format!("three stones expected, got {other:?}"))),
        Err(e) => return Err((0, e)),
    };
    place(referee, &mut moves, 0, &three)?;
    match second.swap2(&setup, &moves, turns[1]) {
        Ok(Swap2Answer::Swap) => return Ok(Swap2Opening { moves, black: 1 }),
        Ok(Swap2Answer::Stones(s)) if s.len() == 1 => {
            place(referee, &mut moves, 1, &s)?;
            return Ok(Swap2Opening { moves, black: 0 });
        }
        Ok(Swap2Answer::Stones(s)) if s.len() == 2 => place(referee, &mut moves, 1, &s)?,
        Ok(other) => {
            return Err((
                1,
                format!("SWAP, one or two stones expected, got {other:?}"),
            ))
        }
        Err(e) => return Err((1, e)),
    }
    match first.swap2(&setup, &moves, turns[0]) {
        Ok(Swap2Answer::Swap) => Ok(Swap2Opening { moves, black: 0 }),
        Ok(Swap2Answer::Stones(s)) if s.len() == 1 => {
            place(referee, &mut moves, 0, &s)?;
            Ok(Swap2Opening { moves, black: 1 })
        }
        Ok(other) => Err((0, format!("SWAP or one stone expected, got {other:?}"))),
        Err(e) => Err((0, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::GomokuReferee;
    use crate::player::{Fault, MoveRequest, Thought};
    use crate::record::GameSetup;
    use std::collections::VecDeque;

    /// Answers swap2 requests from a script and records the stones it saw.
    struct Scripted {
        answers: VecDeque<Swap2Answer>,
        seen: Vec<Vec<String>>,
    }

    fn scripted(answers: Vec<Swap2Answer>) -> Scripted {
        Scripted {
            answers: answers.into(),
            seen: Vec::new(),
        }
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn new_game(&mut self, _: &GameSetup) -> Result<(), String> {
            Ok(())
        }
        fn think(&mut self, _: &MoveRequest<'_>) -> Result<Thought, Fault> {
            Err(Fault::Protocol("not in this test".into()))
        }
        fn swap2(
            &mut self,
            _: &GameSetup,
            stones: &[String],
            _: Duration,
        ) -> Result<Swap2Answer, String> {
            self.seen.push(stones.to_vec());
            self.answers.pop_front().ok_or_else(|| "no answer".into())
        }
        fn abandon(&mut self) {}
        fn quit(&mut self) {}
    }

    fn stones(s: &[&str]) -> Swap2Answer {
        Swap2Answer::Stones(s.iter().map(|p| p.to_string()).collect())
    }

    fn run(a: Vec<Swap2Answer>, b: Vec<Swap2Answer>) -> Result<Swap2Opening, Swap2Fault> {
        let mut referee =
            GomokuReferee::new(15, "freestyle".parse().unwrap()).expect("a 15x15 board");
        let (mut a, mut b) = (scripted(a), scripted(b));
        negotiate(&mut referee, [&mut a, &mut b], [Duration::from_secs(1); 2])
    }

    #[test]
    fn every_branch_of_swap2_gives_the_right_colours() {
        let three = || stones(&["7,7", "8,7", "9,9"]);
        // The second player swaps: it is Black, White plays the fourth.
        let o = run(vec![three()], vec![Swap2Answer::Swap]).unwrap();
        assert_eq!((o.moves.len(), o.black), (3, 1));
        // It plays the fourth stone itself: it is White.
        let o = run(vec![three()], vec![stones(&["6,6"])]).unwrap();
        assert_eq!((o.moves.len(), o.black), (4, 0));
        // Two more stones hand the choice back: the first swaps to Black...
        let o = run(
            vec![three(), Swap2Answer::Swap],
            vec![stones(&["6,6", "5,5"])],
        )
        .unwrap();
        assert_eq!((o.moves.len(), o.black), (5, 0));
        // ... or plays White's sixth stone.
        let o = run(
            vec![three(), stones(&["4,4"])],
            vec![stones(&["6,6", "5,5"])],
        )
        .unwrap();
        assert_eq!(o.moves, vec!["7,7", "8,7", "9,9", "6,6", "5,5", "4,4"]);
        assert_eq!(o.black, 1);
    }

    #[test]
    fn faults_name_the_player() {
        assert_eq!(run(vec![stones(&["7,7"])], vec![]).unwrap_err().0, 0);
        let e = run(vec![stones(&["7,7", "7,7", "1,1"])], vec![]).unwrap_err();
        assert!(e.0 == 0 && e.1.contains("illegal swap2 stone 7,7"), "{e:?}");
        let e = run(vec![stones(&["7,7", "8,7", "9,9"])], vec![stones(&["9,9"])]).unwrap_err();
        assert!(e.0 == 1 && e.1.contains("9,9"), "{e:?}");
        let e = run(vec![stones(&["7,7", "8,7", "9,9"])], vec![]).unwrap_err();
        assert_eq!(e, (1, "no answer".to_string()));
    }
}
