//! One game between two players, refereed move by move: the arena keeps
//! both clocks, checks every move with the rules crate, ends the game by
//! the rules, by a fault (illegal move, time, crash) or by adjudication.

use crate::clock::{Clock, TimeControl};
use crate::player::{Answer, Fault, MoveRequest, Player};
use crate::record::{Adjudication, Ending, GameSetup, Opening, Outcome, PlayedMove, Side};
use crate::referee::Referee;
use std::time::Duration;
use tengen_protocol::host::EngineScore;

/// Everything a game needs besides the players and the referee.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub opening: Opening,
    /// Time controls of the first and second side.
    pub tc: [Option<TimeControl>; 2],
    pub margin: Duration,
    pub adjudication: Adjudication,
}

/// With no clock (depth or node limits only), a move that takes this long
/// is treated as a hang.
const NO_CLOCK_HANG: Duration = Duration::from_secs(600);

/// Plays one game. `players` are indexed by [`Side::index`].
pub fn play(
    referee: &mut dyn Referee,
    players: [&mut dyn Player; 2],
    spec: &GameSpec,
) -> (Vec<PlayedMove>, Ending) {
    play_watched(referee, players, spec, &mut |_, _, _| {})
}

/// What a watcher of a game is told of each move: its index in the game,
/// the move, and the main time left on each side's clock after it (none
/// for book moves and without a clock).
pub type Watch<'a> = dyn FnMut(usize, &PlayedMove, [Option<u64>; 2]) + 'a;

/// [`play`], telling `watch` of every move as the referee accepts it
/// (book moves included): the arena's `-live` file.
pub fn play_watched(
    referee: &mut dyn Referee,
    players: [&mut dyn Player; 2],
    spec: &GameSpec,
    watch: &mut Watch<'_>,
) -> (Vec<PlayedMove>, Ending) {
    let mut players = players;
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut wire: Vec<String> = Vec::new();
    let ending = run(referee, &mut players, spec, &mut moves, &mut wire, watch);
    for side in [Side::First, Side::Second] {
        let won = match ending.outcome {
            Outcome::Draw => None,
            Outcome::Win(w) => Some(w == side),
        };
        players[side.index()].game_over(won);
    }
    (moves, ending)
}

fn run(
    referee: &mut dyn Referee,
    players: &mut [&mut dyn Player; 2],
    spec: &GameSpec,
    moves: &mut Vec<PlayedMove>,
    wire: &mut Vec<String>,
    watch: &mut Watch<'_>,
) -> Ending {
    if let Err(e) = referee.reset(spec.opening.start.as_deref()) {
        return Ending::draw(format!("aborted: bad opening position: {e}"));
    }
    let start = referee.start_for_engines();
    for mv in &spec.opening.moves {
        match referee.play(mv) {
            Ok(notation) => {
                moves.push(PlayedMove {
                    wire: mv.clone(),
                    notation,
                    score: None,
                    depth: None,
                    elapsed_ms: 0,
                    book: true,
                });
                if let Some(m) = moves.last() {
                    watch(moves.len() - 1, m, [None, None]);
                }
                wire.push(mv.clone());
            }
            Err(e) => return Ending::draw(format!("aborted: illegal opening move {mv}: {e}")),
        }
    }
    let setup = referee.setup();
    for side in [Side::First, Side::Second] {
        let name = referee.side_name(side);
        // Each side learns its own clock (GTP `time_settings`).
        let setup = GameSetup {
            time_settings: spec.tc[side.index()],
            ..setup.clone()
        };
        if let Err(e) = players[side.index()].new_game(&setup) {
            players[side.index()].abandon();
            return Ending::win(
                side.other(),
                format!(
                    "{name} ({}) could not start: {e}",
                    players[side.index()].name()
                ),
            );
        }
    }
    let mut clocks: [Option<Clock>; 2] = [spec.tc[0].map(Clock::new), spec.tc[1].map(Clock::new)];
    let mut resign_count = [0u32; 2];
    let mut draw_count = 0u32;
    let book_plies = moves.len();
    loop {
        if referee.wants_dead_stones() {
            let mut lists: [Option<Vec<String>>; 2] = [None, None];
            for side in [Side::First, Side::Second] {
                match players[side.index()].dead_stones(wire) {
                    Ok(list) => lists[side.index()] = list,
                    Err(f) => {
                        return fault_ending(players, side, referee.side_name(side), f);
                    }
                }
            }
            if let Some(e) = referee.settle_dead_stones(lists) {
                return e;
            }
            continue;
        }
        if let Some(e) = referee.ending() {
            return e;
        }
        if let Some(max) = spec.adjudication.max_moves {
            if (moves.len() - book_plies) as u32 >= 2 * max {
                return Ending::draw(format!("adjudication: move limit of {max} moves reached"));
            }
        }
        let side = referee.side_to_move();
        let i = side.index();
        let name = referee.side_name(side);
        let views = [
            clocks[0].as_ref().map(Clock::view).unwrap_or_default(),
            clocks[1].as_ref().map(Clock::view).unwrap_or_default(),
        ];
        let timeout = match &clocks[i] {
            Some(c) => Duration::from_millis(c.allowance_ms()) + spec.margin,
            None => NO_CLOCK_HANG,
        };
        let req = MoveRequest {
            start: start.as_deref(),
            moves: wire,
            to_move: side,
            clocks: views,
            timeout,
            cleanup: referee.in_cleanup(),
        };
        let thought = match players[i].think(&req) {
            Ok(t) => t,
            Err(f) => return fault_ending(players, side, name, f),
        };
        let elapsed_ms = u64::try_from(thought.elapsed.as_millis()).unwrap_or(u64::MAX);
        if let Some(clock) = clocks[i].as_mut() {
            let margin = u64::try_from(spec.margin.as_millis()).unwrap_or(u64::MAX);
            if clock.charge(elapsed_ms, margin).is_err() {
                return Ending::win(side.other(), format!("{name} loses on time"));
            }
        }
        let mv = match thought.answer {
            Answer::Move(mv) => mv,
            Answer::Resign => return Ending::win(side.other(), format!("{name} resigns")),
            Answer::NoMove => {
                return Ending::win(
                    side.other(),
                    format!("{name} claims to have no move, but has legal moves"),
                )
            }
            Answer::ClaimWin => return referee.claim_win(),
        };
        match referee.play(&mv) {
            Ok(notation) => {
                moves.push(PlayedMove {
                    wire: mv.clone(),
                    notation,
                    score: thought.score,
                    depth: thought.depth,
                    elapsed_ms,
                    book: false,
                });
                if let Some(m) = moves.last() {
                    let left = |c: &Option<Clock>| c.as_ref().map(|c| c.view().left_ms);
                    watch(moves.len() - 1, m, [left(&clocks[0]), left(&clocks[1])]);
                }
                wire.push(mv);
                ponder(referee, players[i], &clocks, wire, side);
            }
            Err(e) => {
                return Ending::win(
                    side.other(),
                    format!("{name} makes an illegal move: {mv} ({e})"),
                )
            }
        }
        if !referee.adjudicable() || referee.ending().is_some() {
            continue;
        }
        let score = thought.score.map(EngineScore::as_cp);
        if let Some(rule) = spec.adjudication.resign {
            match score {
                Some(s) if s <= -rule.score => resign_count[i] += 1,
                _ => resign_count[i] = 0,
            }
            if resign_count[i] >= rule.movecount {
                return Ending::win(
                    side.other(),
                    format!("adjudication: {name} resigns by score"),
                );
            }
        }
        if let Some(rule) = spec.adjudication.draw {
            let full_moves = (moves.len() as u32).div_ceil(2);
            let quiet = !referee.last_move_irreversible();
            match score {
                Some(s) if s.abs() <= rule.score && full_moves >= rule.movenumber && quiet => {
                    draw_count += 1
                }
                _ => draw_count = 0,
            }
            if draw_count >= 2 * rule.movecount {
                return Ending::draw("adjudication: draw by score");
            }
        }
    }
}

/// Lets the engine that just moved think on its opponent's time, on the
/// position after the reply it expects (if that reply is legal and the
/// game goes on).
fn ponder(
    referee: &mut dyn Referee,
    player: &mut dyn Player,
    clocks: &[Option<Clock>; 2],
    wire: &[String],
    side: Side,
) {
    let Some(reply) = player.ponder_move() else {
        return;
    };
    if referee.ending().is_some()
        || referee.wants_dead_stones()
        || !referee.legal_moves().contains(&reply)
    {
        return;
    }
    let mut moves = wire.to_vec();
    moves.push(reply);
    let start = referee.start_for_engines();
    let req = MoveRequest {
        start: start.as_deref(),
        moves: &moves,
        to_move: side,
        clocks: [
            clocks[0].as_ref().map(Clock::view).unwrap_or_default(),
            clocks[1].as_ref().map(Clock::view).unwrap_or_default(),
        ],
        timeout: NO_CLOCK_HANG,
        cleanup: false,
    };
    player.ponder(&req);
}

/// The verdict on an engine that failed to answer.
fn fault_ending(players: &mut [&mut dyn Player; 2], side: Side, name: &str, f: Fault) -> Ending {
    match f {
        Fault::Timeout => Ending::win(side.other(), format!("{name} loses on time")),
        Fault::Crashed(e) => {
            players[side.index()].abandon();
            Ending::win(side.other(), format!("{name} disconnects: {e}"))
        }
        Fault::Protocol(e) => {
            players[side.index()].abandon();
            Ending::win(side.other(), format!("{name} breaks the protocol: {e}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Thought;
    use crate::record::{DrawRule, GameRecord, ResignRule};
    use std::collections::VecDeque;

    /// A toy game: any single lowercase letter is a legal move, and the
    /// game is drawn after `length` plies.
    struct Toy {
        plies: usize,
        length: usize,
    }

    impl Referee for Toy {
        fn reset(&mut self, _: Option<&str>) -> Result<(), String> {
            self.plies = 0;
            Ok(())
        }
        fn start_for_engines(&self) -> Option<String> {
            None
        }
        fn side_to_move(&self) -> Side {
            if self.plies.is_multiple_of(2) {
                Side::First
            } else {
                Side::Second
            }
        }
        fn side_name(&self, side: Side) -> &'static str {
            if side == Side::First {
                "First"
            } else {
                "Second"
            }
        }
        fn play(&mut self, mv: &str) -> Result<String, String> {
            if mv.len() == 1 && mv.chars().all(|c| c.is_ascii_lowercase()) {
                self.plies += 1;
                Ok(mv.to_uppercase())
            } else {
                Err("not a letter".into())
            }
        }
        fn ending(&self) -> Option<Ending> {
            (self.plies >= self.length).then(|| Ending::draw("toy game over"))
        }
        fn legal_moves(&self) -> Vec<String> {
            vec!["a".into()]
        }
        fn setup(&self) -> GameSetup {
            GameSetup::default()
        }
        fn record(&self, _: &GameRecord) -> String {
            String::new()
        }
    }

    /// Answers from a script; after it runs out, plays "a" instantly.
    struct Scripted {
        answers: VecDeque<Result<Thought, Fault>>,
        started: bool,
        result: Option<Option<bool>>,
        /// The reply it "expects" after each of its moves.
        expects: Option<String>,
        /// Positions it was asked to ponder on, and the side to move.
        pondered: Vec<(Vec<String>, Side)>,
    }

    fn answer(mv: &str, ms: u64, cp: Option<i32>) -> Result<Thought, Fault> {
        Ok(Thought {
            answer: Answer::Move(mv.into()),
            elapsed: Duration::from_millis(ms),
            score: cp.map(EngineScore::Cp),
            depth: Some(1),
            pv: Vec::new(),
        })
    }

    fn scripted(answers: Vec<Result<Thought, Fault>>) -> Scripted {
        Scripted {
            answers: answers.into(),
            started: false,
            result: None,
            expects: None,
            pondered: Vec::new(),
        }
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn new_game(&mut self, _: &GameSetup) -> Result<(), String> {
            self.started = true;
            Ok(())
        }
        fn think(&mut self, _: &MoveRequest<'_>) -> Result<Thought, Fault> {
            self.answers
                .pop_front()
                .unwrap_or_else(|| answer("a", 0, None))
        }
        fn ponder_move(&self) -> Option<String> {
            self.expects.clone()
        }
        fn ponder(&mut self, req: &MoveRequest<'_>) {
            self.pondered.push((req.moves.to_vec(), req.to_move));
        }
        fn game_over(&mut self, won: Option<bool>) {
            self.result = Some(won);
        }
        fn abandon(&mut self) {}
        fn quit(&mut self) {}
    }

    fn spec(tc: Option<&str>) -> GameSpec {
        let tc = tc.map(|t| TimeControl::parse(t).unwrap());
        GameSpec {
            opening: Opening::default(),
            tc: [tc, tc],
            margin: Duration::from_millis(50),
            adjudication: Adjudication::default(),
        }
    }

    fn run_toy(
        a: &mut Scripted,
        b: &mut Scripted,
        spec: &GameSpec,
        length: usize,
    ) -> (Vec<PlayedMove>, Ending) {
        let mut toy = Toy { plies: 0, length };
        play(&mut toy, [a, b], spec)
    }

    #[test]
    fn plays_to_the_end_and_tells_both() {
        let (mut a, mut b) = (scripted(vec![]), scripted(vec![]));
        let (moves, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 6);
        assert_eq!(moves.len(), 6);
        assert_eq!(end, Ending::draw("toy game over"));
        assert!(a.started && b.started);
        assert_eq!((a.result, b.result), (Some(None), Some(None)));
    }

    #[test]
    fn the_watcher_sees_every_move_as_it_is_played() {
        let (mut a, mut b) = (scripted(vec![]), scripted(vec![]));
        let mut toy = Toy {
            plies: 0,
            length: 4,
        };
        let mut seen = Vec::new();
        let (moves, _) = play_watched(
            &mut toy,
            [&mut a, &mut b],
            &spec(Some("1+0")),
            &mut |i, m, left| {
                assert!(left[0].is_some_and(|ms| ms <= 1000) && left[1].is_some());
                seen.push((i, m.clone()))
            },
        );
        assert_eq!(seen.len(), 4);
        for (i, (k, m)) in seen.iter().enumerate() {
            assert_eq!((*k, m), (i, &moves[i]));
        }
    }

    #[test]
    fn faults_lose_with_the_reason() {
        let (mut a, mut b) = (
            scripted(vec![answer("a", 0, None), answer("7", 0, None)]),
            scripted(vec![]),
        );
        let (moves, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 20);
        assert_eq!(moves.len(), 2, "the illegal move is not recorded");
        assert_eq!(end.outcome, Outcome::Win(Side::Second));
        assert!(
            end.reason
                .contains("First makes an illegal move: 7 (not a letter)"),
            "{}",
            end.reason
        );
        assert_eq!((a.result, b.result), (Some(Some(false)), Some(Some(true))));

        let (mut a, mut b) = (scripted(vec![]), scripted(vec![Err(Fault::Timeout)]));
        let (_, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 20);
        assert_eq!(end, Ending::win(Side::First, "Second loses on time"));

        let (mut a, mut b) = (
            scripted(vec![Err(Fault::Crashed("the engine exited".into()))]),
            scripted(vec![]),
        );
        let (_, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 20);
        assert_eq!(
            end,
            Ending::win(Side::Second, "First disconnects: the engine exited")
        );

        let resign = Ok(Thought {
            answer: Answer::Resign,
            elapsed: Duration::ZERO,
            score: None,
            depth: None,
            pv: Vec::new(),
        });
        let (mut a, mut b) = (scripted(vec![resign]), scripted(vec![]));
        let (_, end) = run_toy(&mut a, &mut b, &spec(None), 20);
        assert_eq!(end, Ending::win(Side::Second, "First resigns"));
    }

    /// Every way the game loop ends a game on an engine's fault writes a
    /// reason that reads back as that fault (the soak's counts come from
    /// the reasons); endings that are no fault read back as none.
    #[test]
    fn fault_reasons_read_back_as_their_kind() {
        use crate::record::FaultKind;
        let thought = |answer| {
            Ok(Thought {
                answer,
                elapsed: Duration::ZERO,
                score: None,
                depth: None,
                pv: Vec::new(),
            })
        };
        let cases: Vec<(Result<Thought, Fault>, Option<FaultKind>)> = vec![
            (answer("7", 0, None), Some(FaultKind::Illegal)),
            (Err(Fault::Timeout), Some(FaultKind::Time)),
            // Spent more than the whole clock: the referee's flag.
            (answer("a", 5_000, None), Some(FaultKind::Time)),
            (
                Err(Fault::Crashed("the engine exited".into())),
                Some(FaultKind::Crash),
            ),
            (
                Err(Fault::Protocol("'bestmove' loses on time".into())),
                Some(FaultKind::Protocol),
            ),
            (thought(Answer::NoMove), Some(FaultKind::FalseClaim)),
            (thought(Answer::Resign), None),
        ];
        for (reply, kind) in cases {
            let (mut a, mut b) = (scripted(vec![reply]), scripted(vec![]));
            let (_, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 20);
            assert_eq!(end.outcome, Outcome::Win(Side::Second), "{}", end.reason);
            assert_eq!(FaultKind::of_reason(&end.reason), kind, "{}", end.reason);
        }
        for reason in [
            "adjudication: First resigns by score",
            "aborted: illegal opening move K: no",
            "toy game over",
            "Black wins by 3.5 points",
        ] {
            assert_eq!(FaultKind::of_reason(reason), None, "{reason}");
        }
        assert_eq!(
            FaultKind::of_reason("White (sf) could not start: no uciok"),
            Some(FaultKind::Start)
        );
        assert_eq!(
            FaultKind::of_reason("pela fails the swap2 opening: timeout"),
            Some(FaultKind::Swap2)
        );
    }

    #[test]
    fn an_engine_ponders_on_its_expected_reply_only_while_the_game_goes_on() {
        // The toy's only "legal" reply is "a": an engine expecting "a"
        // ponders after each of its moves but the last; one expecting an
        // illegal reply never does.
        let (mut a, mut b) = (scripted(vec![]), scripted(vec![]));
        a.expects = Some("a".into());
        b.expects = Some("q".into());
        let (moves, _) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 5);
        assert_eq!(moves.len(), 5);
        assert!(b.pondered.is_empty());
        assert_eq!(
            a.pondered,
            vec![
                (vec!["a".to_string(), "a".into()], Side::First),
                (
                    vec!["a".to_string(), "a".into(), "a".into(), "a".into()],
                    Side::First
                ),
            ]
        );
    }

    #[test]
    fn the_arena_clock_decides_time_losses() {
        // 1 s + 0 and a 50 ms margin: 600 + 420 ms is within the margin,
        // the next 100 ms is not.
        let (mut a, mut b) = (
            scripted(vec![
                answer("a", 600, None),
                answer("b", 420, None),
                answer("c", 100, None),
            ]),
            scripted(vec![]),
        );
        let (moves, end) = run_toy(&mut a, &mut b, &spec(Some("1+0")), 20);
        assert_eq!(moves.len(), 4);
        assert_eq!(end, Ending::win(Side::Second, "First loses on time"));
    }

    #[test]
    fn adjudication_by_scores_and_move_cap() {
        let mut s = spec(None);
        s.adjudication.resign = Some(ResignRule {
            movecount: 3,
            score: 600,
        });
        let lost = |n: usize| {
            (0..n)
                .map(|_| answer("z", 0, Some(-700)))
                .collect::<Vec<_>>()
        };
        let (mut a, mut b) = (scripted(vec![]), scripted(lost(3)));
        let (moves, end) = run_toy(&mut a, &mut b, &s, 50);
        assert_eq!(
            end,
            Ending::win(Side::First, "adjudication: Second resigns by score")
        );
        assert_eq!(moves.len(), 6);
        // A better score in between restarts the count.
        let mut script = lost(2);
        script.push(answer("z", 0, Some(-100)));
        script.extend(lost(3));
        let (mut a, mut b) = (scripted(vec![]), scripted(script));
        let (moves, _) = run_toy(&mut a, &mut b, &s, 50);
        assert_eq!(moves.len(), 12);

        let mut s = spec(None);
        s.adjudication.draw = Some(DrawRule {
            movenumber: 3,
            movecount: 2,
            score: 10,
        });
        let level = |n: usize| (0..n).map(|_| answer("q", 0, Some(5))).collect::<Vec<_>>();
        let (mut a, mut b) = (scripted(level(10)), scripted(level(10)));
        let (moves, end) = run_toy(&mut a, &mut b, &s, 50);
        assert_eq!(end, Ending::draw("adjudication: draw by score"));
        // Counting starts at full move 3 (ply 5) and needs 4 plies.
        assert_eq!(moves.len(), 8);

        let mut s = spec(None);
        s.adjudication.max_moves = Some(3);
        s.opening.moves = vec!["k".into(), "l".into()];
        let (mut a, mut b) = (scripted(vec![]), scripted(vec![]));
        let (moves, end) = run_toy(&mut a, &mut b, &s, 50);
        assert!(moves[0].book && moves[1].book && !moves[2].book);
        assert_eq!(moves.len(), 2 + 6);
        assert!(end.reason.contains("move limit of 3 moves"));

        s.opening.moves = vec!["K".into()];
        let (_, end) = run_toy(&mut a, &mut b, &s, 50);
        assert!(
            end.reason.starts_with("aborted: illegal opening move K"),
            "{}",
            end.reason
        );
    }
}
