//! One game between two players, refereed move by move: the arena keeps
//! both clocks, checks every move with the rules crate, ends the game by
//! the rules, by a fault (illegal move, time, crash) or by adjudication.

use crate::clock::{Clock, TimeControl};
use crate::player::{Answer, Fault, MoveRequest, Player};
use crate::referee::{Ending, Outcome, Referee, Side};
use std::time::Duration;
use tengen_protocol::host::EngineScore;

/// Resign when an engine's own score stays at or below `-score` for
/// `movecount` of its consecutive moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
}

/// Draw when, from full move `movenumber` on, both engines' scores stay
/// within `score` for `movecount` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// Draw after this many full moves (move pairs).
    pub max_moves: Option<u32>,
}

/// An opening: a start position and moves played before the engines take
/// over (they are part of the game and marked as book in the record).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub start: Option<String>,
    pub moves: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub wire: String,
    /// In the record's notation (SAN for chess).
    pub notation: String,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
    pub book: bool,
}

/// A finished game, ready for any record writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Names of the players of the first and second side.
    pub players: [String; 2],
    pub start: Option<String>,
    pub moves: Vec<PlayedMove>,
    pub ending: Ending,
    pub round: u32,
    pub game_no: u32,
    pub event: String,
    pub date: String,
    pub time_control: String,
}

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
    let mut players = players;
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut wire: Vec<String> = Vec::new();
    let ending = run(referee, &mut players, spec, &mut moves, &mut wire);
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
                wire.push(mv.clone());
            }
            Err(e) => return Ending::draw(format!("aborted: illegal opening move {mv}: {e}")),
        }
    }
    let setup = referee.setup();
    for side in [Side::First, Side::Second] {
        let name = referee.side_name(side);
        if let Err(e) = players[side.index()].new_game(&setup) {
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
        };
        let thought = match players[i].think(&req) {
            Ok(t) => t,
            Err(Fault::Timeout) => {
                return Ending::win(side.other(), format!("{name} loses on time"))
            }
            Err(Fault::Crashed(e)) => {
                return Ending::win(side.other(), format!("{name} disconnects: {e}"))
            }
            Err(Fault::Protocol(e)) => {
                return Ending::win(side.other(), format!("{name} breaks the protocol: {e}"))
            }
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
                wire.push(mv);
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
