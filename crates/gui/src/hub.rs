//! The one game the server holds, shared by every open tab: its referee
//! (the arena's, so legality and endings are the arena's rules), the
//! moves, the clocks, the engine that plays, and the live analysis. Every
//! change is broadcast as a full state to all tabs; a reloaded page gets
//! the state again and so finds the game where it was.
//!
//! Engines are blocking (the arena's players), so each engine search and
//! each analysis runs on its own thread; their results come back through
//! [`Hub`] methods that check the game has not moved on meanwhile.

use crate::analysis::{analysis_loop, score_of, Job};
use crate::comments::Note;
use crate::config::{Book, Engine};
use crate::games::{self, Kind};
use crate::live::{Feed, Watch};
use crate::msg::{
    BookInfo, ClientMsg, ClockState, EngineInfo, LiveInfo, MatchInfo, MoveEntry, NewGame,
    OpeningRule, Scoring, Seat, ServerMsg, State, SwapChoice, SwapState,
};
use crate::options::{self, Announced, Settings};
use crate::variations::{Pos, Variations};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tengen_arena::clock::{Clock, ClockView, TimeControl};
use tengen_arena::player::EngineConfig;
use tengen_arena::player::{
    make_analyser, make_player, Answer, Dialect, Fault, MateAnswer, MoveRequest, Player,
    Swap2Answer, Thought, UciLikePlayer,
};
use tengen_arena::record::{Ending, GameRecord, GameSetup, Outcome, PlayedMove, Side};
use tengen_arena::referee::Referee;
use tengen_arena::stats::Wdl;
use tengen_arena::variant::make_referee;
use tengen_games::Protocol;
use tengen_protocol::host::EngineScore;
use tokio::sync::broadcast;

/// How long an engine may think with no clock before it counts as hung.
const NO_CLOCK_HANG: Duration = Duration::from_secs(120);
/// Process latency forgiven on an engine's clock.
const MARGIN_MS: u64 = 200;
/// The most variation moves a game keeps (the page cannot grow the
/// server's memory without end; record writers recurse once per level).
const MAX_SIDE_MOVES: usize = 2000;

/// An engine seat: the player and the game it was last prepared for.
struct Seated {
    player: Box<dyn Player>,
    game_id: u64,
}

struct Table {
    id: u64,
    kind: Kind,
    size: u32,
    referee: Box<dyn Referee>,
    start: Option<String>,
    moves: Vec<MoveEntry>,
    players: [String; 2],
    human: [bool; 2],
    /// The engine seat of each side (one seat twice when an engine plays
    /// itself).
    engines: [Option<Arc<Mutex<Seated>>>; 2],
    tc: Option<TimeControl>,
    clocks: Option<[Clock; 2]>,
    turn_start: Instant,
    result: Option<Ending>,
    thinking: bool,
    /// Bumped whenever a search in flight stops mattering (take back,
    /// resign, new game).
    epoch: u64,
    /// Per position: the first side's evaluation, where known.
    evals: Vec<Option<i32>>,
    /// Per position: the best analysis line shown for it (saved records
    /// carry it).
    notes: BTreeMap<usize, Note>,
    /// Go after two passes: the stones marked dead, until the count is
    /// accepted (a take back resumes play).
    scoring: Option<Vec<[u32; 2]>>,
    /// The engine was asked for its dead stones in this scoring phase.
    dead_asked: bool,
    /// Gomoku's swap opening while it lasts.
    swap: Option<SwapPhase>,
    /// A watched arena game: both clocks after the last move (the side to
    /// move's runs down from then on the page).
    live_clock: Option<[u64; 2]>,
    /// Stones placed by the swap opening (never taken back).
    opening_len: usize,
    /// Side lines off the main line (`moves`).
    vars: Variations,
    /// The opening gave Black to the player who did not place the first
    /// three stones: the seats were exchanged.
    swapped: bool,
}

/// The stages of the swap opening (see [`OpeningRule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The first player places three stones.
    Place3,
    /// The second player chooses a colour (or, in swap2, two more stones).
    Choose,
    /// The second player places the fourth and fifth stones.
    Place2,
    /// The first player chooses a colour after five stones.
    Choose2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SwapPhase {
    rule: OpeningRule,
    stage: Stage,
}

impl SwapPhase {
    /// 0: the player who placed the first three stones, 1: the other.
    fn actor(self) -> usize {
        match self.stage {
            Stage::Place3 | Stage::Choose2 => 0,
            Stage::Choose | Stage::Place2 => 1,
        }
    }

    /// How many stones are on the board when this stage's placing ends.
    fn stones_until(self) -> usize {
        match self.stage {
            Stage::Place3 => 3,
            Stage::Place2 => 5,
            Stage::Choose | Stage::Choose2 => 0,
        }
    }

    fn choices(self) -> Vec<SwapChoice> {
        match (self.stage, self.rule) {
            (Stage::Choose, OpeningRule::Swap2) => {
                vec![SwapChoice::Black, SwapChoice::White, SwapChoice::Place2]
            }
            (Stage::Choose, OpeningRule::Swap1) | (Stage::Choose2, _) => {
                vec![SwapChoice::Black, SwapChoice::White]
            }
            _ => Vec::new(),
        }
    }
}

struct Analysis {
    engine: String,
    kind: Kind,
    size: u32,
    multipv: u32,
    inbox: mpsc::Sender<Job>,
    /// Whether it follows the game (a new position restarts it).
    following: bool,
    /// The options it was started with.
    options: Vec<(String, String)>,
}

/// A match between two engines, or a round robin of more: every pair
/// plays `games` games, colours alternating, one pair after the other.
struct Matchup {
    /// The engines by name.
    names: Vec<String>,
    /// The pairs in playing order (indices into `names`); each pair's
    /// score is kept from its first engine's view.
    pairs: Vec<(usize, usize)>,
    /// Games for each pair.
    games: u32,
    /// Games played in all.
    played: u32,
    /// Finish the game in progress, then stop (no further game).
    stopping: bool,
    wdl: Vec<Wdl>,
    /// The game being played and whether its pair's first engine has the
    /// first side.
    current: u64,
    a_first: bool,
    /// The settings every game repeats.
    kind: Kind,
    size: Option<u32>,
    tc: Option<String>,
    position: Option<u32>,
    opening: Option<OpeningRule>,
    book: Option<String>,
}

struct Inner {
    next_id: u64,
    matchup: Option<Matchup>,
    table: Table,
    analysis: Option<Analysis>,
    last_analysis: Option<String>,
    /// The earlier position a tab browses (game id, position): analysis
    /// follows it there until the tab returns to the game.
    browsed: Option<(u64, Pos)>,
    /// A `tengen-arena` run being watched (its games replace the table).
    watch: Option<Watch>,
}

impl Inner {
    /// The position analysis follows: the browsed one while it is a
    /// position of this game, else the game's.
    fn analysed_at(&self) -> Pos {
        let t = &self.table;
        let end = Pos::Main(t.moves.len());
        match self.browsed {
            Some((id, at)) if id == t.id && t.vars.exists(at, t.moves.len()) => at,
            _ => end,
        }
    }
}

pub struct Hub {
    engines: Vec<Engine>,
    books: Vec<Book>,
    feeds: Vec<Feed>,
    /// Engine options set from the page, and the file that keeps them.
    settings: Mutex<Settings>,
    settings_path: Option<PathBuf>,
    /// The options each engine announced, per protocol (asked once).
    announced: Mutex<HashMap<(String, &'static str), Announced>>,
    tx: broadcast::Sender<String>,
    inner: Mutex<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn side_of(i: usize) -> Side {
    if i == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// `st=0.5` (seconds a move) or the arena's syntax (`5+3`, `60+b10`).
pub fn parse_tc(s: &str) -> Result<TimeControl, String> {
    let s = s.trim();
    if let Some(secs) = s.strip_prefix("st=") {
        let v: f64 = secs
            .parse()
            .map_err(|_| format!("bad time control '{s}': seconds a move"))?;
        if !(v.is_finite() && v > 0.0 && v <= 3600.0) {
            return Err(format!("bad time control '{s}': seconds out of range"));
        }
        return Ok(TimeControl::movetime((v * 1000.0).round() as u64));
    }
    TimeControl::parse(s)
}

impl Table {
    fn blank(id: u64) -> Result<Table, String> {
        let kind = Kind::Chess;
        let referee = make_referee(&kind.variant(0, 7.5))?;
        Ok(Table {
            id,
            kind,
            size: 0,
            referee,
            start: None,
            moves: Vec::new(),
            players: ["You".into(), "You".into()],
            human: [true, true],
            engines: [None, None],
            tc: None,
            clocks: None,
            turn_start: Instant::now(),
            result: None,
            thinking: false,
            epoch: 0,
            evals: Vec::new(),
            notes: BTreeMap::new(),
            scoring: None,
            dead_asked: false,
            swap: None,
            opening_len: 0,
            vars: Variations::default(),
            live_clock: None,
            swapped: false,
        })
    }

    fn to_move(&self) -> usize {
        self.referee.side_to_move().index()
    }

    /// The side to move after the first `ply` moves.
    fn side_to_move_at(&self, ply: usize) -> usize {
        if ply >= self.moves.len() {
            return self.to_move();
        }
        let replayed = make_referee(&self.kind.variant(self.size, 7.5)).and_then(|mut r| {
            r.reset(self.start.as_deref())?;
            for m in &self.moves[..ply] {
                r.play(&m.wire)?;
            }
            Ok(r.side_to_move().index())
        });
        // Moves alternate in every game here: parity if replaying fails.
        replayed.unwrap_or_else(|_| (self.to_move() + self.moves.len() - ply) % 2)
    }

    fn wires(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.wire.clone()).collect()
    }

    fn clock_views(&self) -> [ClockView; 2] {
        match &self.clocks {
            Some([a, b]) => [a.view(), b.view()],
            None => [ClockView::default(); 2],
        }
    }

    fn clock_state(&self) -> Option<ClockState> {
        if let Some(mut left) = self.live_clock {
            let running = self.result.is_none().then(|| self.to_move());
            if let Some(i) = running {
                left[i] = left[i].saturating_sub(ms(self.turn_start.elapsed()));
            }
            return Some(ClockState {
                left_ms: left,
                running,
            });
        }
        let clocks = self.clocks.as_ref()?;
        let running = (self.result.is_none() && self.scoring.is_none() && self.swap.is_none())
            .then(|| self.to_move());
        let mut left = [clocks[0].view().left_ms, clocks[1].view().left_ms];
        if let Some(tc) = self.tc.filter(|tc| tc.movetime_ms.is_some()) {
            left = [tc.movetime_ms.unwrap_or(0); 2];
        }
        if let Some(i) = running {
            left[i] = left[i].saturating_sub(ms(self.turn_start.elapsed()));
        }
        Some(ClockState {
            left_ms: left,
            running,
        })
    }

    fn state(&self) -> Result<State, String> {
        let wires = self.wires();
        let board = games::view(self.kind, self.start.as_deref(), &wires, self.size)?;
        let to_move = self.to_move();
        let mut legal = Vec::new();
        let may_move = match self.swap {
            Some(p) => self.human[p.actor()] && p.stones_until() > self.moves.len(),
            None => self.human[to_move],
        };
        if self.result.is_none() && may_move && !self.thinking && self.scoring.is_none() {
            for w in self.referee.legal_moves() {
                if let Some(s) = games::spot(self.kind, &w, self.size) {
                    legal.push(s);
                }
            }
            if self.kind == Kind::Go {
                legal.extend(games::spot(self.kind, "pass", self.size));
            }
        }
        let (result, reason) = match &self.result {
            Some(e) => (
                Some(
                    match e.outcome {
                        Outcome::Win(Side::First) => "1-0",
                        Outcome::Win(Side::Second) => "0-1",
                        Outcome::Draw => "1/2-1/2",
                    }
                    .to_string(),
                ),
                Some(e.reason.clone()),
            ),
            None => (None, None),
        };
        Ok(State {
            game: self.kind,
            game_id: self.id,
            ply: self.moves.len(),
            size: self.size,
            sides: games::side_names(self.kind),
            players: self.players.clone(),
            human: self.human,
            to_move,
            board,
            legal,
            last: self
                .moves
                .last()
                .and_then(|m| games::spot(self.kind, &m.wire, self.size)),
            moves: self.moves.clone(),
            variations: self.vars.entries(),
            thinking: self.thinking,
            clock: self.clock_state(),
            result,
            reason,
            evals: (0..=self.moves.len())
                .map(|i| self.evals.get(i).copied().flatten())
                .collect(),
            scoring: match &self.scoring {
                Some(dead) => Some(Scoring {
                    dead: dead.clone(),
                    score: self.score_text(dead)?.1,
                }),
                None => None,
            },
            matchup: None,
            swap: self.swap_state(),
            live: None,
        })
    }

    fn swap_state(&self) -> Option<SwapState> {
        let p = self.swap?;
        let actor = p.actor();
        let who = if self.human[actor] {
            "You".to_string()
        } else {
            self.players[actor].clone()
        };
        let left = p.stones_until().saturating_sub(self.moves.len());
        let rule = match p.rule {
            OpeningRule::Swap1 => "swap",
            OpeningRule::Swap2 => "swap2",
        };
        let what = match p.stage {
            Stage::Place3 => {
                format!("{who}: place three stones (black, white, black), {left} to go")
            }
            Stage::Choose if p.rule == OpeningRule::Swap2 => {
                format!("{who}: play Black, play White, or place two more stones")
            }
            Stage::Choose | Stage::Choose2 => format!("{who}: play Black or play White"),
            Stage::Place2 => format!("{who}: place two more stones (white, black), {left} to go"),
        };
        Some(SwapState {
            rule: p.rule,
            stage: match p.stage {
                Stage::Place3 => "place3",
                Stage::Choose => "choose",
                Stage::Place2 => "place2",
                Stage::Choose2 => "choose2",
            },
            actor,
            choices: if self.human[actor] {
                p.choices()
            } else {
                Vec::new()
            },
            stones_left: left,
            text: format!("Opening ({rule}) — {what}"),
        })
    }

    /// Checks a move on a copy of the position: a refused move changes
    /// nothing.
    fn probe(&self, wire: &str) -> Result<(), String> {
        if wire.len() > 16 {
            return Err("that is not a move".into());
        }
        let mut probe = make_referee(&self.kind.variant(self.size, 7.5))?;
        probe.reset(self.start.as_deref())?;
        for m in &self.moves {
            probe.play(&m.wire)?;
        }
        probe
            .play(wire)
            .map(|_| ())
            .map_err(|e| format!("illegal move {wire}: {e}"))
    }

    /// Places a stone of the swap opening; the stage moves on when its
    /// stones are down.
    fn place_stone(&mut self, wire: &str) -> Result<(), String> {
        let Some(p) = self.swap else {
            return Err("the opening is over".into());
        };
        if self.moves.len() >= p.stones_until() {
            return Err("no stone is placed now: choose a colour".into());
        }
        self.probe(wire)?;
        self.play(wire)?;
        self.opening_len = self.moves.len();
        if self.moves.len() >= p.stones_until() {
            let stage = match p.stage {
                Stage::Place3 => Stage::Choose,
                _ => Stage::Choose2,
            };
            self.swap = Some(SwapPhase { stage, ..p });
        }
        Ok(())
    }

    /// The actor's choice in the swap opening.
    fn choose(&mut self, c: SwapChoice) -> Result<(), String> {
        let Some(p) = self.swap else {
            return Err("there is no opening choice now".into());
        };
        if !p.choices().contains(&c) {
            let name = format!("{c:?}").to_lowercase();
            return Err(format!("'{name}' is not a choice now"));
        }
        match c {
            SwapChoice::Place2 => {
                self.swap = Some(SwapPhase {
                    stage: Stage::Place2,
                    ..p
                })
            }
            SwapChoice::Black => self.settle(p.actor()),
            SwapChoice::White => self.settle(1 - p.actor()),
        }
        Ok(())
    }

    /// Ends the opening with `black` (0: the player who placed the first
    /// three stones, 1: the other) on the first side.
    fn settle(&mut self, black: usize) {
        self.swap = None;
        self.opening_len = self.moves.len();
        if black == 1 {
            self.players.swap(0, 1);
            self.human.swap(0, 1);
            self.engines.swap(0, 1);
            self.swapped = true;
        }
        self.turn_start = Instant::now();
    }

    /// An engine's answer in the swap opening (Gomocup's `SWAP2BOARD`):
    /// stones for the actor, `SWAP` to take Black, one stone to play
    /// White, two stones (swap2, after three) to hand the choice back.
    fn swap_answer(&mut self, p: SwapPhase, answer: Swap2Answer) -> Result<(), String> {
        let stones = |s: &[String], t: &mut Table| s.iter().try_for_each(|w| t.place_stone(w));
        match (p.stage, answer) {
            (Stage::Place3, Swap2Answer::Stones(s)) if s.len() == 3 => stones(&s, self),
            (Stage::Choose | Stage::Choose2, Swap2Answer::Swap) => self.choose(SwapChoice::Black),
            (Stage::Choose | Stage::Choose2, Swap2Answer::Stones(s)) if s.len() == 1 => {
                self.choose(SwapChoice::White)?;
                self.probe(&s[0])?;
                self.play(&s[0])
            }
            (Stage::Choose, Swap2Answer::Stones(s))
                if s.len() == 2 && p.rule == OpeningRule::Swap2 =>
            {
                self.choose(SwapChoice::Place2)?;
                stones(&s, self)
            }
            (_, other) => Err(format!("{other:?} does not answer this stage")),
        }
    }

    /// Plays a wire move already known to come from the side to move.
    fn play(&mut self, wire: &str) -> Result<(), String> {
        let shown = crate::notation::texts(
            self.kind,
            self.start.as_deref(),
            &self.wires(),
            &[wire.to_string()],
        );
        let record = self.referee.play(wire)?;
        let text = shown.into_iter().next().unwrap_or_else(|| record.clone());
        self.moves.push(MoveEntry::plain(wire, text, record));
        self.turn_start = Instant::now();
        if self.result.is_none() {
            self.result = self.referee.ending();
            self.enter_scoring();
        }
        Ok(())
    }

    /// Go: two passes lead to marking dead stones instead of an
    /// immediate count of every stone as alive.
    fn enter_scoring(&mut self) {
        let passed_out = self
            .result
            .as_ref()
            .is_some_and(|e| e.reason.contains("after two passes"));
        if self.kind == Kind::Go && passed_out {
            self.result = None;
            self.scoring = Some(Vec::new());
        }
    }

    /// Ends a Go game by the count with the stones marked dead.
    fn accept_score(&mut self) -> Result<(), String> {
        let Some(dead) = self.scoring.take() else {
            return Err("there is nothing to count before two passes".into());
        };
        let (score, text) = self.score_text(&dead)?;
        let how = format!(
            "{text} by area scoring ({} dead stone{} marked)",
            dead.len(),
            if dead.len() == 1 { "" } else { "s" }
        );
        self.result = Some(if score.abs() < 1e-9 {
            Ending::draw(how)
        } else if score > 0.0 {
            Ending::win(Side::First, how)
        } else {
            Ending::win(Side::Second, how)
        });
        self.epoch += 1;
        Ok(())
    }

    fn score_text(&self, dead: &[[u32; 2]]) -> Result<(f64, String), String> {
        let score = games::go_score(&self.wires(), self.size, 7.5, dead)?;
        let text = if score.abs() < 1e-9 {
            "Jigo".to_string()
        } else {
            format!(
                "{}+{}",
                if score > 0.0 { 'B' } else { 'W' },
                tengen_go::game::fmt_num(score.abs())
            )
        };
        Ok((score, text))
    }

    /// Charges the side to move for the time since its turn began;
    /// `false` when its flag fell (the game is then over).
    fn charge(&mut self, human: bool, used_ms: u64) -> bool {
        let side = self.to_move();
        let movetime = self.tc.is_some_and(|tc| tc.movetime_ms.is_some());
        if human && movetime {
            return true;
        }
        let Some(clocks) = self.clocks.as_mut() else {
            return true;
        };
        let margin = if human { 0 } else { MARGIN_MS };
        if clocks[side].charge(used_ms, margin).is_err() {
            let names = games::side_names(self.kind);
            self.result = Some(Ending::win(
                side_of(side).other(),
                format!("{} loses on time", names[side]),
            ));
            return false;
        }
        true
    }

    fn set_eval(&mut self, ply: usize, first_cp: i32) {
        if self.evals.len() <= ply {
            self.evals.resize(ply + 1, None);
        }
        self.evals[ply] = Some(first_cp);
    }

    /// A referee replayed to a position of the tree, and the moves that
    /// lead there.
    fn replay_to(&self, at: Pos) -> Result<(Box<dyn Referee>, Vec<String>), String> {
        let wires = self
            .vars
            .wires(&self.moves, at)
            .ok_or("that position is not in this game")?;
        let mut r = make_referee(&self.kind.variant(self.size, 7.5))?;
        r.reset(self.start.as_deref())?;
        for w in &wires {
            r.play(w)?;
        }
        Ok((r, wires))
    }

    /// The board at a position of the tree for a browsing tab, with the
    /// moves that may be played there (into a variation).
    fn position_msg(&self, at: Pos) -> Result<String, String> {
        let (r, wires) = self.replay_to(at)?;
        let board = games::view(self.kind, self.start.as_deref(), &wires, self.size)?;
        let last = wires
            .last()
            .and_then(|w| games::spot(self.kind, w, self.size));
        let mut legal = Vec::new();
        // The swap opening's stones are placed by its own rules.
        if self.swap.is_none() && r.ending().is_none() {
            for w in r.legal_moves() {
                legal.extend(games::spot(self.kind, &w, self.size));
            }
            if self.kind == Kind::Go {
                legal.extend(games::spot(self.kind, "pass", self.size));
            }
        }
        Ok(ServerMsg::Position {
            game_id: self.id,
            ply: wires.len(),
            node: match at {
                Pos::Side(id) => Some(id),
                Pos::Main(_) => None,
            },
            board,
            last,
            to_move: r.side_to_move().index(),
            legal,
        }
        .json())
    }

    /// A move from a position of the tree other than the game's end: the
    /// line's own next move when it is that one, an existing variation's
    /// when one starts with it, else a new variation. The game, its
    /// clocks and engines are not touched. Returns where the move leads.
    fn variation_move(&mut self, at: Pos, wire: &str) -> Result<Pos, String> {
        if wire.len() > 16 {
            return Err("that is not a move".into());
        }
        let (mut r, wires) = self.replay_to(at)?;
        let record = r
            .play(wire)
            .map_err(|e| format!("illegal move {wire}: {e}"))?;
        if let Pos::Main(p) = at {
            if self.moves.get(p).is_some_and(|m| m.wire == wire) {
                return Ok(Pos::Main(p + 1));
            }
        }
        if let Some(n) = self.vars.children(at).find(|n| n.entry.wire == wire) {
            return Ok(Pos::Side(n.id));
        }
        if self.vars.nodes().len() >= MAX_SIDE_MOVES {
            return Err(format!(
                "a game keeps at most {MAX_SIDE_MOVES} variation moves"
            ));
        }
        let text = crate::notation::texts(
            self.kind,
            self.start.as_deref(),
            &wires,
            &[wire.to_string()],
        )
        .into_iter()
        .next()
        .unwrap_or_else(|| record.clone());
        let entry = MoveEntry::plain(wire, text, record);
        Ok(Pos::Side(self.vars.add(at, entry, wires.len() + 1)))
    }

    /// The main line changed after its first `p` moves (a variation was
    /// promoted): the referee, the ending and the notes follow it.
    fn replay_main(&mut self, p: usize) -> Result<(), String> {
        self.evals.truncate(p + 1);
        self.notes.retain(|&k, _| k <= p);
        self.referee.reset(self.start.as_deref())?;
        for m in &self.moves {
            self.referee.play(&m.wire)?;
        }
        self.scoring = None;
        self.dead_asked = false;
        self.result = self.referee.ending();
        self.enter_scoring();
        self.epoch += 1;
        self.turn_start = Instant::now();
        Ok(())
    }

    /// Replays all but the last `n` moves.
    fn take_back(&mut self, n: usize) -> Result<(), String> {
        let keep = self.moves.len().saturating_sub(n);
        self.vars.truncate(keep);
        self.evals.truncate(keep + 1);
        self.notes.retain(|&k, _| k <= keep);
        self.scoring = None;
        self.dead_asked = false;
        let moves: Vec<String> = self.moves[..keep].iter().map(|m| m.wire.clone()).collect();
        self.referee.reset(self.start.as_deref())?;
        self.moves.clear();
        self.result = None;
        for w in moves {
            self.play(&w)?;
        }
        self.result = None;
        self.result = self.referee.ending();
        self.enter_scoring();
        Ok(())
    }
}

impl Hub {
    pub fn new(
        engines: Vec<Engine>,
        books: Vec<Book>,
        feeds: Vec<Feed>,
        settings_path: Option<PathBuf>,
    ) -> Result<Arc<Hub>, String> {
        let (tx, _) = broadcast::channel(256);
        let settings = match &settings_path {
            Some(p) => Settings::load(p)?,
            None => Settings::default(),
        };
        Ok(Arc::new(Hub {
            engines,
            books,
            feeds,
            settings: Mutex::new(settings),
            settings_path,
            announced: Mutex::new(HashMap::new()),
            tx,
            inner: Mutex::new(Inner {
                next_id: 2,
                matchup: None,
                table: Table::blank(1)?,
                analysis: None,
                last_analysis: None,
                browsed: None,
                watch: None,
            }),
        }))
    }

    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.tx.subscribe()
    }

    /// What a new tab gets first: the engines, the game, the analysis.
    pub fn greeting(&self) -> Vec<String> {
        let hello = ServerMsg::Hello {
            engines: self
                .engines
                .iter()
                .map(|e| EngineInfo {
                    name: e.name.clone(),
                    games: e.games.iter().map(|(k, _)| *k).collect(),
                    analyses: e
                        .games
                        .iter()
                        .filter(|(_, p)| {
                            matches!(
                                p,
                                Protocol::Uci | Protocol::Ucci | Protocol::Usi | Protocol::Gtp
                            )
                        })
                        .map(|(k, _)| *k)
                        .collect(),
                })
                .collect(),
            games: Kind::ALL.to_vec(),
            books: self
                .books
                .iter()
                .map(|b| BookInfo {
                    name: b.name.clone(),
                    games: b.games.clone(),
                })
                .collect(),
            feeds: self.feeds.iter().map(|f| f.name.clone()).collect(),
        };
        let inner = lock(&self.inner);
        let mut out = vec![hello.json(), self.state_json(&inner)];
        out.extend(inner.last_analysis.clone());
        out
    }

    fn state_json(&self, inner: &Inner) -> String {
        match inner.table.state() {
            Ok(mut s) => {
                s.matchup = inner.matchup.as_ref().map(|m| {
                    // Each pair's standing as the arena computes it.
                    let standing = |k: usize| {
                        let w = m.wdl.get(k).copied().unwrap_or_default();
                        let e = w.elo();
                        let n = w.wins + w.draws + w.losses;
                        let finite = e.lower.is_finite() && e.upper.is_finite();
                        let (a, b) = m.pairs.get(k).copied().unwrap_or((0, 1));
                        let name = |i: usize| m.names.get(i).cloned().unwrap_or_default();
                        tengen_arena::live::LiveEncounter {
                            engines: [name(a), name(b)],
                            wins: w.wins,
                            draws: w.draws,
                            losses: w.losses,
                            score: w.score(),
                            elo: (n > 0 && e.elo.is_finite()).then_some(e.elo),
                            margin: (n > 0 && finite).then(|| e.margin()),
                            los: w.los(),
                        }
                    };
                    let first = standing(0);
                    MatchInfo {
                        engines: first.engines.clone(),
                        games: m.games,
                        played: m.played,
                        wins: first.wins,
                        draws: first.draws,
                        losses: first.losses,
                        score: first.score,
                        elo: first.elo,
                        margin: first.margin,
                        los: first.los,
                        stopping: m.stopping,
                        table: if m.pairs.len() > 1 {
                            (0..m.pairs.len()).map(standing).collect()
                        } else {
                            Vec::new()
                        },
                        total: m.games * m.pairs.len() as u32,
                    }
                });
                s.live = inner.watch.as_ref().map(|w| LiveInfo {
                    feed: w.feed.clone(),
                    game: w.table.map(|(n, _)| n),
                    done: w.done,
                    total: w.header.as_ref().map_or(0, |h| h.total),
                    encounters: w.encounters.clone(),
                    problem: w.problem.clone(),
                });
                ServerMsg::State(Box::new(s)).json()
            }
            Err(e) => ServerMsg::error(format!("cannot show the position: {e}")).json(),
        }
    }

    pub(crate) fn broadcast(&self, text: String) {
        // No receiver is no error: nobody is watching.
        let _ = self.tx.send(text);
    }

    /// Handles one page message; `Err` goes back to that page only.
    pub fn handle(self: &Arc<Self>, msg: ClientMsg) -> Result<Option<String>, String> {
        // Engine options start the engine to ask it: not under the lock.
        let msg = match msg {
            ClientMsg::Options { engine, game } => {
                return self.options_msg(&engine, game).map(Some);
            }
            ClientMsg::SetOption {
                engine,
                game,
                name,
                value,
            } => {
                let (e, proto, announced) = self.announced_options(&engine, game)?;
                let value = match value {
                    Some(v) => Some(options::check(&announced, &name, &v)?),
                    None => None,
                };
                let mut settings = lock(&self.settings);
                settings.set(&e.name, proto, &name, value);
                if let Some(path) = &self.settings_path {
                    settings.save(path)?;
                }
                drop(settings);
                return self.options_msg(&engine, game).map(Some);
            }
            m => m,
        };
        let mut inner = lock(&self.inner);
        match msg {
            ClientMsg::Sync {} => return Ok(Some(self.state_json(&inner))),
            ClientMsg::New(n) => {
                let mut n = n;
                let games = n.games.unwrap_or(1);
                let names = match n.engines.take().filter(|l| !l.is_empty()) {
                    Some(list) => {
                        self.round_robin(&list, &n)?;
                        n.engine = Some(list[0].clone());
                        n.engine2 = Some(list[1].clone());
                        list
                    }
                    None => vec![
                        n.engine.clone().unwrap_or_default(),
                        n.engine2.clone().unwrap_or_default(),
                    ],
                };
                let two = n.human == Some(Seat::None)
                    && n.engine2.as_deref().is_some_and(|e| !e.is_empty());
                if !(1..=1000).contains(&games) {
                    return Err(format!("a match is 1..1000 games, not {games}"));
                }
                if games > 1 && !two {
                    return Err("a match needs two engines (you play neither side)".into());
                }
                let settings = (n.game, n.size, n.tc.clone(), n.position, n.opening);
                let book = n.book.clone().filter(|b| !b.is_empty());
                let mut pairs = Vec::new();
                for i in 0..names.len() {
                    for j in i + 1..names.len() {
                        pairs.push((i, j));
                    }
                }
                self.new_game(&mut inner, n, 0)?;
                inner.watch = None;
                inner.matchup = (games > 1 || names.len() > 2).then(|| Matchup {
                    wdl: vec![Wdl::default(); pairs.len()],
                    names,
                    pairs,
                    games,
                    played: 0,
                    stopping: false,
                    current: inner.table.id,
                    a_first: true,
                    kind: settings.0,
                    size: settings.1,
                    tc: settings.2,
                    position: settings.3,
                    opening: settings.4,
                    book,
                });
            }
            ClientMsg::Move {
                wire,
                ply,
                node,
                variation,
            } => {
                if variation {
                    if let Some(reply) = self.branch(&mut inner, ply, node, &wire)? {
                        return Ok(Some(reply));
                    }
                } else {
                    self.human_move(&mut inner, &wire, ply)?
                }
            }
            ClientMsg::Vertex {
                x,
                y,
                ply,
                node,
                variation,
            } => {
                let t = &inner.table;
                let wire = games::wire_of_vertex(t.kind, x, y, t.size)
                    .ok_or_else(|| format!("({x}, {y}) is not a point of this board"))?;
                if variation {
                    if let Some(reply) = self.branch(&mut inner, ply, node, &wire)? {
                        return Ok(Some(reply));
                    }
                } else {
                    self.human_move(&mut inner, &wire, ply)?
                }
            }
            ClientMsg::Promote { node } => {
                let watching = inner.watch.is_some();
                let t = &mut inner.table;
                let ply = t
                    .vars
                    .get(node)
                    .map(|n| n.ply)
                    .ok_or_else(|| format!("there is no variation move {node}"))?;
                match t.vars.promotes_main(node)? {
                    Some(p) => {
                        // The main line is the game: it changes only where
                        // people play both sides and nothing runs.
                        if t.human != [true, true] || watching || t.thinking || t.swap.is_some() {
                            return Err("a variation becomes the main line only in a game \
                                        between people at the board (the main line is the \
                                        game the engines play)"
                                .into());
                        }
                        if p < t.opening_len {
                            return Err("the opening's moves stay in the main line".into());
                        }
                        t.vars.promote(&mut t.moves, node)?;
                        t.replay_main(p)?;
                    }
                    None => t.vars.promote(&mut t.moves, node)?,
                }
                let at = match t.vars.get(node) {
                    Some(_) => Pos::Side(node),
                    None => Pos::Main(ply),
                };
                let reply = t.position_msg(at)?;
                self.browse(&mut inner, at);
                self.changed(&mut inner);
                return Ok(Some(reply));
            }
            ClientMsg::Delete { node } => {
                let t = &mut inner.table;
                let parent = t.vars.delete(node)?;
                let reply = t.position_msg(parent)?;
                self.browse(&mut inner, parent);
                self.broadcast(self.state_json(&inner));
                return Ok(Some(reply));
            }
            ClientMsg::Undo {} => {
                let t = &mut inner.table;
                if t.moves.is_empty() {
                    return Err("nothing to take back".into());
                }
                if t.human == [false, false] {
                    return Err("the engines are playing; start a new game instead".into());
                }
                if t.swap.is_some() {
                    return Err("the opening is under way; start a new game to redo it".into());
                }
                // Back to the human's turn: the human's move while the
                // engine thinks on it; else the last move, and the human's
                // before it when an engine made the last one.
                let last_mover = 1 - t.to_move();
                let n = if t.thinking || t.human[last_mover] || t.moves.len() < 2 {
                    1
                } else {
                    2
                };
                if t.moves.len() < t.opening_len + n {
                    return Err("the opening's stones are not taken back".into());
                }
                t.epoch += 1;
                t.thinking = false;
                t.take_back(n)?;
                // The undone time is not given back; the clock restarts.
                t.turn_start = Instant::now();
            }
            ClientMsg::Resign {} => {
                let t = &mut inner.table;
                if t.result.is_some() {
                    return Err("the game is already over".into());
                }
                let side = if t.human[t.to_move()] {
                    t.to_move()
                } else if t.human[0] {
                    0
                } else if t.human[1] {
                    1
                } else {
                    return Err("no human plays this game".into());
                };
                let names = games::side_names(t.kind);
                t.result = Some(Ending::win(
                    side_of(side).other(),
                    format!("{} resigns", names[side]),
                ));
                t.epoch += 1;
                t.thinking = false;
            }
            ClientMsg::Analyse { engine, multipv } => {
                self.start_analysis(&mut inner, &engine, multipv.unwrap_or(3).clamp(1, 8))?;
                return Ok(None);
            }
            ClientMsg::Save { format } => {
                return Ok(Some(save(&inner.table, format.as_deref())?));
            }
            ClientMsg::Load { text } => {
                let hint = inner.table.kind;
                let loaded = crate::records::load(&text, hint)?;
                self.load(&mut inner, loaded)?;
                inner.watch = None;
                inner.matchup = None;
            }
            ClientMsg::View { ply, node } => {
                let t = &inner.table;
                let at = match node {
                    Some(id) if t.vars.get(id).is_none() => {
                        return Err(format!("there is no variation move {id}"))
                    }
                    Some(id) => Pos::Side(id),
                    None if ply > t.moves.len() => {
                        return Err(format!("the game has only {} moves", t.moves.len()))
                    }
                    None => Pos::Main(ply),
                };
                let reply = t.position_msg(at)?;
                self.browse(&mut inner, at);
                return Ok(Some(reply));
            }
            ClientMsg::Dead { x, y } => {
                let t = &mut inner.table;
                let Some(dead) = t.scoring.as_mut() else {
                    return Err("stones are marked dead only after two passes".into());
                };
                let chain = games::go_chain(
                    &t.moves.iter().map(|m| m.wire.clone()).collect::<Vec<_>>(),
                    t.size,
                    x,
                    y,
                )?;
                if chain.is_empty() {
                    return Err("no stone there".into());
                }
                if dead.contains(&chain[0]) {
                    dead.retain(|v| !chain.contains(v));
                } else {
                    dead.extend(chain);
                }
            }
            ClientMsg::Score {} => inner.table.accept_score()?,
            ClientMsg::Swap { choice } => {
                let t = &mut inner.table;
                let Some(p) = t.swap else {
                    return Err("there is no opening choice now".into());
                };
                if t.result.is_some() {
                    return Err("the game is over".into());
                }
                if !t.human[p.actor()] || t.thinking {
                    return Err("the engine makes this choice".into());
                }
                t.choose(choice)?;
            }
            ClientMsg::Mate { engine, ms } => {
                self.mate_search(
                    &inner.table,
                    &engine,
                    ms.unwrap_or(10_000).clamp(100, 600_000),
                )?;
                return Ok(None);
            }
            ClientMsg::Attach { feed } => {
                let f = self
                    .feeds
                    .iter()
                    .find(|f| f.name == feed)
                    .ok_or_else(|| format!("no arena run is named '{feed}'"))?;
                let token = inner.next_id;
                inner.next_id += 1;
                let mut t = Table::blank(token)?;
                t.human = [false, false];
                t.players = [String::new(), String::new()];
                t.epoch = inner.table.epoch + 1;
                quit_seats(&mut inner.table);
                inner.table = t;
                inner.matchup = None;
                inner.watch = Some(Watch::new(&f.name, token));
                let (hub, path) = (Arc::clone(self), f.path.clone());
                std::thread::spawn(move || crate::live::follow(hub, token, path));
            }
            // Answered above, before the lock.
            ClientMsg::Options { .. } | ClientMsg::SetOption { .. } => return Ok(None),
            ClientMsg::FinishMatch {} => {
                let playing = inner.table.result.is_none();
                match inner.matchup.as_mut() {
                    Some(m) if m.played < m.games && playing => m.stopping = true,
                    _ => return Err("no match game is in progress".into()),
                }
            }
            ClientMsg::Detach {} => {
                if inner.watch.take().is_none() {
                    return Err("no arena run is being watched".into());
                }
            }
            ClientMsg::Stop {} => {
                match inner.analysis.as_mut() {
                    Some(a) => {
                        a.following = false;
                        let _ = a.inbox.send(Job::Stop);
                    }
                    None => return Err("no analysis is running".into()),
                }
                return Ok(None);
            }
        }
        self.changed(&mut inner);
        Ok(None)
    }

    /// A tab shows `at`: analysis, when on, follows the position shown,
    /// and the game again when the tab returns to it.
    fn browse(&self, inner: &mut Inner, at: Pos) {
        let before = inner.analysed_at();
        inner.browsed = Some((inner.table.id, at));
        let t = &inner.table;
        if let Some(a) = inner.analysis.as_ref().filter(|a| a.following) {
            if before != at && a.kind == t.kind && a.size == t.size {
                let _ = a.inbox.send(position_job(t, at));
            }
        }
    }

    /// A move from a browsed position (`node`, or the main line's after
    /// `ply` moves) into a variation; at the game's end it is a move of
    /// the game. Answers the tab with the position it leads to.
    fn branch(
        self: &Arc<Self>,
        inner: &mut Inner,
        ply: usize,
        node: Option<u32>,
        wire: &str,
    ) -> Result<Option<String>, String> {
        let at = match node {
            Some(id) => Pos::Side(id),
            None => Pos::Main(ply),
        };
        let len = inner.table.moves.len();
        if !inner.table.vars.exists(at, len) {
            return Err(match node {
                Some(id) => format!("there is no variation move {id}"),
                None => format!("the game has only {len} moves"),
            });
        }
        if at == Pos::Main(len) {
            self.human_move(inner, wire, ply)?;
            return Ok(None);
        }
        let t = &mut inner.table;
        let to = t.variation_move(at, wire)?;
        let reply = t.position_msg(to)?;
        self.browse(inner, to);
        self.broadcast(self.state_json(inner));
        Ok(Some(reply))
    }

    /// After any change of the game: tell every tab, let the engine move,
    /// move the analysis along.
    fn changed(self: &Arc<Self>, inner: &mut Inner) {
        self.count_match_game(inner);
        self.kick(&mut inner.table);
        self.broadcast(self.state_json(inner));
        let t = &inner.table;
        let at = inner.analysed_at();
        let browsing = at != Pos::Main(t.moves.len());
        if let Some(a) = inner.analysis.as_ref() {
            if a.following {
                if a.kind == t.kind && a.size == t.size {
                    // A browsed position stays under analysis while the
                    // game goes on.
                    if !browsing {
                        let _ = a.inbox.send(position_job(t, at));
                    }
                } else {
                    let _ = a.inbox.send(Job::Quit);
                    inner.analysis = None;
                    inner.last_analysis = None;
                }
            }
        }
    }

    /// A match game just ended: counts it and starts the next one with
    /// the colours swapped.
    fn count_match_game(self: &Arc<Self>, inner: &mut Inner) {
        let Some(m) = inner.matchup.as_mut() else {
            return;
        };
        let t = &inner.table;
        let Some(ending) = t.result.as_ref() else {
            return;
        };
        if m.current != t.id {
            return;
        }
        m.current = 0;
        let pair = (m.played / m.games.max(1)) as usize;
        m.played += 1;
        // A swap opening may have exchanged the seats.
        let a_side = if m.a_first != t.swapped {
            Side::First
        } else {
            Side::Second
        };
        if let Some(wdl) = m.wdl.get_mut(pair) {
            match ending.outcome {
                Outcome::Draw => wdl.draws += 1,
                Outcome::Win(w) if w == a_side => wdl.wins += 1,
                Outcome::Win(_) => wdl.losses += 1,
            }
        }
        let total = m.games * m.pairs.len() as u32;
        if m.played >= total || m.stopping {
            return;
        }
        // The next game: its pair, and its number within the pair.
        let (pair, k) = ((m.played / m.games) as usize, m.played % m.games);
        m.a_first = k % 2 == 0;
        let Some(&(a, b)) = m.pairs.get(pair) else {
            return;
        };
        let (first, second) = if m.a_first {
            (m.names[a].clone(), m.names[b].clone())
        } else {
            (m.names[b].clone(), m.names[a].clone())
        };
        let next = NewGame {
            game: m.kind,
            engine: Some(first),
            human: Some(Seat::None),
            tc: m.tc.clone(),
            size: m.size,
            position: m.position,
            engine2: Some(second),
            games: None,
            engines: None,
            opening: m.opening,
            book: m.book.clone(),
        };
        // Each book line twice, colours swapped (the arena's pairs), the
        // same lines for every pair of a round robin.
        let pair = (k / 2) as usize;
        // The finished game's state goes out before the next one starts.
        self.broadcast(self.state_json(inner));
        match self.new_game(inner, next, pair) {
            Ok(()) => {
                if let Some(m) = inner.matchup.as_mut() {
                    m.current = inner.table.id;
                }
            }
            Err(e) => self.broadcast(ServerMsg::error(format!("the match stops: {e}")).json()),
        }
    }

    /// Checks a round robin's engines: three to eight different ones,
    /// each playing the game, you playing neither side.
    fn round_robin(&self, list: &[String], n: &NewGame) -> Result<(), String> {
        if !(3..=8).contains(&list.len()) {
            return Err(format!(
                "a round robin is 3 to 8 engines, not {}",
                list.len()
            ));
        }
        if n.human != Some(Seat::None) {
            return Err("a round robin is for engines (you play neither side)".into());
        }
        for (i, name) in list.iter().enumerate() {
            if list[..i].contains(name) {
                return Err(format!("{name} is named twice in the round robin"));
            }
            let e = self
                .engines
                .iter()
                .find(|e| &e.name == name)
                .ok_or_else(|| format!("no engine is named '{name}'"))?;
            if e.config(n.game).is_none() {
                return Err(format!("{name} does not play {}", n.game.name()));
            }
        }
        Ok(())
    }

    /// A new game; `pair` picks the book line (game `2 * pair` and
    /// `2 * pair + 1` of a match share it).
    fn new_game(
        self: &Arc<Self>,
        inner: &mut Inner,
        n: NewGame,
        pair: usize,
    ) -> Result<(), String> {
        let NewGame {
            game: kind,
            engine,
            human,
            tc,
            size,
            position,
            engine2,
            games: _,
            engines: _,
            opening,
            book,
        } = n;
        let (sizes, default_size) = kind.sizes();
        let size = size.unwrap_or(default_size);
        if kind.sizes().1 != 0 && !sizes.contains(&size) {
            return Err(format!(
                "board size {size} is outside {}..{}",
                sizes.start(),
                sizes.end()
            ));
        }
        let tc = match tc.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s) => Some(parse_tc(s)?),
        };
        let human = human.unwrap_or(Seat::First);
        let mut humans = match human {
            Seat::First => [true, false],
            Seat::Second => [false, true],
            Seat::Both => [true, true],
            Seat::None => [false, false],
        };
        let mut players = ["You".to_string(), "You".to_string()];
        let mut seated: [Option<Arc<Mutex<Seated>>>; 2] = [None, None];
        match engine.as_deref() {
            None | Some("") if humans == [false, false] => {
                return Err("two engines need an engine".into())
            }
            None | Some("") => humans = [true, true],
            Some(name) => {
                let e = self
                    .engines
                    .iter()
                    .find(|e| e.name == name)
                    .ok_or_else(|| format!("no engine is named '{name}'"))?;
                let cfg = self
                    .config_of(e, kind)
                    .ok_or_else(|| format!("{name} does not play {}", kind.name()))?;
                for (i, h) in humans.iter().enumerate() {
                    if !h {
                        players[i] = name.to_string();
                    }
                }
                if humans != [true, true] {
                    let seat = Arc::new(Mutex::new(Seated {
                        player: make_player(&cfg, name.to_string(), None),
                        game_id: 0,
                    }));
                    for (i, h) in humans.iter().enumerate() {
                        if !h {
                            seated[i] = Some(Arc::clone(&seat));
                        }
                    }
                }
            }
        }
        // Two different engines: the second takes the second side.
        if let Some(name2) = engine2.as_deref().filter(|n| !n.is_empty()) {
            if humans != [false, false] {
                return Err("a second engine plays only when you play neither side".into());
            }
            let e = self
                .engines
                .iter()
                .find(|e| e.name == name2)
                .ok_or_else(|| format!("no engine is named '{name2}'"))?;
            let cfg = self
                .config_of(e, kind)
                .ok_or_else(|| format!("{name2} does not play {}", kind.name()))?;
            players[1] = name2.to_string();
            seated[1] = Some(Arc::new(Mutex::new(Seated {
                player: make_player(&cfg, name2.to_string(), None),
                game_id: 0,
            })));
        }
        if let Some(rule) = opening {
            if !matches!(kind, Kind::Gomoku | Kind::Renju) {
                return Err(format!("{} has no swap opening", kind.name()));
            }
            for i in (0..2).filter(|&i| seated[i].is_some()) {
                if i == 1 && rule == OpeningRule::Swap1 {
                    return Err("in swap1 the second player must be a person \
                                (Gomocup has no swap1 command)"
                        .into());
                }
                let name = &players[i];
                let gomocup = self
                    .engines
                    .iter()
                    .find(|e| &e.name == name)
                    .and_then(|e| e.config(kind))
                    .is_some_and(|c| c.proto == Protocol::Gomocup);
                if !gomocup {
                    return Err(format!(
                        "{name} cannot play a swap opening (it needs a Gomocup brain)"
                    ));
                }
            }
        }
        let mut referee = make_referee(&kind.variant(size, 7.5))?;
        let start = match kind {
            Kind::Chess960 => {
                let n = position.unwrap_or_else(random_960);
                let fen = games::chess960_fen(n)
                    .ok_or_else(|| format!("Chess960 positions are numbered 0..959, not {n}"))?;
                referee.reset(Some(&fen))?;
                Some(fen)
            }
            _ => None,
        };
        let (start, book_moves) = match book.as_deref().filter(|b| !b.is_empty()) {
            None => (start, Vec::new()),
            Some(name) => {
                if humans != [false, false] {
                    return Err(
                        "an opening book is for engines playing (you play neither side)".into(),
                    );
                }
                if opening.is_some() {
                    return Err("a book or a swap opening, not both".into());
                }
                let b = self
                    .books
                    .iter()
                    .find(|b| b.name == name)
                    .ok_or_else(|| format!("no book is named '{name}'"))?;
                if !b.games.contains(&kind) {
                    return Err(format!("book '{name}' is not for {}", kind.name()));
                }
                book_line(b, pair, referee.as_mut(), size)?
            }
        };
        let id = inner.next_id;
        inner.next_id += 1;
        let old_epoch = inner.table.epoch;
        quit_seats(&mut inner.table);
        inner.table = Table {
            id,
            kind,
            size,
            referee,
            start,
            moves: Vec::new(),
            players,
            human: humans,
            engines: seated,
            tc,
            clocks: tc.map(|tc| [Clock::new(tc), Clock::new(tc)]),
            turn_start: Instant::now(),
            result: None,
            thinking: false,
            epoch: old_epoch + 1,
            evals: Vec::new(),
            notes: BTreeMap::new(),
            scoring: None,
            dead_asked: false,
            swap: opening.map(|rule| SwapPhase {
                rule,
                stage: Stage::Place3,
            }),
            opening_len: 0,
            vars: Variations::default(),
            live_clock: None,
            swapped: false,
        };
        let t = &mut inner.table;
        for w in &book_moves {
            t.play(w)?;
            if let Some(m) = t.moves.last_mut() {
                m.book = true;
            }
        }
        t.opening_len = book_moves.len();
        Ok(())
    }

    /// A loaded record becomes a new game for two players at the board,
    /// at its last position.
    fn load(self: &Arc<Self>, inner: &mut Inner, l: crate::records::Loaded) -> Result<(), String> {
        let mut referee = make_referee(&l.kind.variant(l.size, 7.5))?;
        referee.reset(l.start.as_deref())?;
        let mut t = Table::blank(inner.next_id)?;
        t.kind = l.kind;
        t.size = l.size;
        t.referee = referee;
        t.start = l.start;
        t.epoch = inner.table.epoch + 1;
        for (i, m) in l.moves.iter().enumerate() {
            t.play(m)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        }
        // Variations: each move from a position read before it.
        let mut at: Vec<Pos> = Vec::new();
        for (i, (from, m)) in l.side.iter().enumerate() {
            let from = match *from {
                Pos::Side(k) => *at
                    .get(k as usize)
                    .ok_or_else(|| format!("variation move {} comes before its line", i + 1))?,
                main => main,
            };
            if from == Pos::Main(t.moves.len()) {
                return Err(format!(
                    "variation move {} ({m}) has no main move beside it",
                    i + 1
                ));
            }
            let to = t
                .variation_move(from, m)
                .map_err(|e| format!("variation move {} ({m}): {e}", i + 1))?;
            at.push(to);
        }
        quit_seats(&mut inner.table);
        inner.next_id += 1;
        inner.table = t;
        inner.matchup = None;
        Ok(())
    }

    fn human_move(
        self: &Arc<Self>,
        inner: &mut Inner,
        wire: &str,
        ply: usize,
    ) -> Result<(), String> {
        let t = &mut inner.table;
        if t.result.is_some() {
            return Err("the game is over".into());
        }
        if ply != t.moves.len() {
            return Err(format!(
                "that move was made at ply {ply}, but the game is at ply {}",
                t.moves.len()
            ));
        }
        if let Some(p) = t.swap {
            if !t.human[p.actor()] || t.thinking {
                return Err("the engine acts now in the opening".into());
            }
            // The opening is off the clock.
            return t.place_stone(wire);
        }
        if !t.human[t.to_move()] || t.thinking {
            return Err("it is the engine's turn".into());
        }
        // Try the move on a copy first: a refused move changes nothing.
        let used = ms(t.turn_start.elapsed());
        t.probe(wire)?;
        if !t.charge(true, used) {
            return Ok(());
        }
        t.play(wire)?;
        if let Some(m) = t.moves.last_mut() {
            m.elapsed_ms = used;
        }
        Ok(())
    }

    /// Starts the engine's search when it is to move.
    fn kick(self: &Arc<Self>, t: &mut Table) {
        if t.scoring.is_some() && !t.dead_asked {
            self.ask_dead_stones(t);
        }
        if t.result.is_some() || t.thinking || t.scoring.is_some() {
            return;
        }
        if let Some(p) = t.swap {
            if !t.human[p.actor()] {
                self.kick_swap(t, p);
            }
            return;
        }
        let side = t.to_move();
        if t.human[side] {
            return;
        }
        let Some(seat) = t.engines[side].clone() else {
            return;
        };
        t.thinking = true;
        let (id, epoch) = (t.id, t.epoch);
        let setup = GameSetup {
            time_settings: t.tc,
            ..t.referee.setup()
        };
        let start = t.start.clone();
        let moves = t.wires();
        let clocks = t.clock_views();
        let cleanup = t.referee.in_cleanup();
        let timeout = match &t.clocks {
            Some(c) => Duration::from_millis(c[side].allowance_ms() + MARGIN_MS),
            None => NO_CLOCK_HANG,
        };
        let hub = Arc::clone(self);
        std::thread::spawn(move || {
            let mut seat = lock(&seat);
            if seat.game_id != id {
                if let Err(e) = seat.player.new_game(&setup) {
                    drop(seat);
                    hub.engine_failed(id, epoch, format!("the engine could not start: {e}"));
                    return;
                }
                seat.game_id = id;
            }
            let req = MoveRequest {
                start: start.as_deref(),
                moves: &moves,
                to_move: side_of(side),
                clocks,
                timeout,
                cleanup,
            };
            let began = Instant::now();
            let answer = seat.player.think(&req);
            let elapsed = answer
                .as_ref()
                .map(|t| t.elapsed)
                .unwrap_or_else(|_| began.elapsed());
            drop(seat);
            hub.engine_done(id, epoch, answer, elapsed);
        });
    }

    /// The engine acting in the swap opening answers Gomocup's
    /// `SWAP2BOARD` with the stones so far.
    fn kick_swap(self: &Arc<Self>, t: &mut Table, p: SwapPhase) {
        let Some(seat) = t.engines[p.actor()].clone() else {
            return;
        };
        t.thinking = true;
        let (id, epoch) = (t.id, t.epoch);
        let setup = GameSetup {
            time_settings: t.tc,
            ..t.referee.setup()
        };
        let moves = t.wires();
        let turn = tengen_arena::swap2::answer_time(t.tc);
        let hub = Arc::clone(self);
        std::thread::spawn(move || {
            let mut seat = lock(&seat);
            // SWAP2BOARD starts a game of its own: the move search later
            // starts one again.
            seat.game_id = 0;
            let answer = seat.player.swap2(&setup, &moves, turn);
            drop(seat);
            hub.engine_swapped(id, epoch, p, answer);
        });
    }

    fn engine_swapped(
        self: &Arc<Self>,
        id: u64,
        epoch: u64,
        p: SwapPhase,
        answer: Result<Swap2Answer, String>,
    ) {
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.id != id || t.epoch != epoch || t.swap != Some(p) {
            return;
        }
        t.thinking = false;
        let name = t.players[p.actor()].clone();
        if let Err(why) = answer.and_then(|a| t.swap_answer(p, a)) {
            // The actor sits on its first seat until the colours are
            // settled; one that chose White and failed its stone is White.
            let loser = if t.swap.is_some() { p.actor() } else { 1 };
            t.swap = None;
            t.result = Some(Ending::win(
                side_of(loser).other(),
                format!("{name} fails the swap opening: {why}"),
            ));
        }
        self.changed(&mut inner);
    }

    /// Shogi: a USI engine's `go mate` from the current position, on a
    /// process of its own; the answer is broadcast.
    fn mate_search(self: &Arc<Self>, t: &Table, name: &str, ms: u64) -> Result<(), String> {
        if t.kind != Kind::Shogi {
            return Err("a mate search is for shogi".into());
        }
        let e = self
            .engines
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| format!("no engine is named '{name}'"))?;
        let cfg = self
            .config_of(e, Kind::Shogi)
            .filter(|c| c.proto == Protocol::Usi)
            .ok_or_else(|| format!("{name} has no USI mate search"))?;
        let (game_id, ply, start, moves) = (t.id, t.moves.len(), t.start.clone(), t.wires());
        let setup = t.referee.setup();
        let hub = Arc::clone(self);
        let engine = name.to_string();
        std::thread::spawn(move || {
            let mut p = UciLikePlayer::new(cfg, Dialect::Usi, format!("{engine} (mate)"), None);
            let answer = p.mate(&setup, start.as_deref(), &moves, ms);
            p.quit();
            let (outcome, found) = match answer {
                Ok(MateAnswer::Mate(m)) => ("mate", m),
                Ok(MateAnswer::NoMate) => ("nomate", Vec::new()),
                Ok(MateAnswer::Timeout) => ("timeout", Vec::new()),
                Ok(MateAnswer::NotImplemented) => ("notimplemented", Vec::new()),
                Err(e) => {
                    hub.broadcast(ServerMsg::error(format!("{engine}: {e}")).json());
                    ("error", Vec::new())
                }
            };
            let text =
                crate::notation::texts(Kind::Shogi, start.as_deref(), &moves, &found).join(" ");
            hub.broadcast(
                ServerMsg::Mate {
                    game_id,
                    ply,
                    engine,
                    outcome: outcome.to_string(),
                    moves: found,
                    text,
                }
                .json(),
            );
        });
        Ok(())
    }

    /// Go's scoring phase with an engine at the board: its list of dead
    /// stones (GTP `final_status_list dead`) is the first proposal.
    fn ask_dead_stones(self: &Arc<Self>, t: &mut Table) {
        t.dead_asked = true;
        let Some(seat) = t.engines[0].clone().or_else(|| t.engines[1].clone()) else {
            return;
        };
        let (id, epoch, size) = (t.id, t.epoch, t.size);
        let moves = t.wires();
        let hub = Arc::clone(self);
        std::thread::spawn(move || {
            let list = lock(&seat).player.dead_stones(&moves);
            let mut dead = Vec::new();
            for v in list.ok().flatten().unwrap_or_default() {
                if let Some(s) = games::spot(Kind::Go, &v, size).and_then(|s| s.vertex) {
                    dead.push(s);
                }
            }
            let mut inner = lock(&hub.inner);
            let t = &mut inner.table;
            if t.id != id || t.epoch != epoch || t.scoring.is_none() {
                return;
            }
            t.scoring = Some(dead);
            // An engine playing itself agrees with itself.
            if t.human == [false, false] {
                let _ = t.accept_score();
            }
            hub.changed(&mut inner);
        });
    }

    fn engine_failed(self: &Arc<Self>, id: u64, epoch: u64, why: String) {
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.id != id || t.epoch != epoch {
            return;
        }
        t.thinking = false;
        let side = t.to_move();
        t.result = Some(Ending::win(side_of(side).other(), why.clone()));
        self.broadcast(ServerMsg::error(why).json());
        self.changed(&mut inner);
    }

    fn engine_done(
        self: &Arc<Self>,
        id: u64,
        epoch: u64,
        thought: Result<Thought, Fault>,
        elapsed: Duration,
    ) {
        let (answer, score, depth, pv) = match thought {
            Ok(t) => (Ok(t.answer), t.score, t.depth, t.pv),
            Err(e) => (Err(e), None, None, Vec::new()),
        };
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.id != id || t.epoch != epoch {
            return;
        }
        t.thinking = false;
        let side = t.to_move();
        let names = games::side_names(t.kind);
        let loses = |why: String| Some(Ending::win(side_of(side).other(), why));
        match answer {
            Ok(Answer::Move(mv)) => {
                if t.charge(false, ms(elapsed)) {
                    if let Err(e) = t.play(&mv) {
                        t.result =
                            loses(format!("{} plays an illegal move {mv}: {e}", names[side]));
                    } else {
                        if let Some(m) = t.moves.last_mut() {
                            m.score = score;
                            m.depth = depth;
                            m.pv = pv;
                            m.elapsed_ms = ms(elapsed);
                        }
                        if let Some(sc) = score {
                            let own = score_of(sc, side == 0).first_cp;
                            t.set_eval(t.moves.len(), own);
                        }
                    }
                }
            }
            Ok(Answer::Resign) => t.result = loses(format!("{} resigns", names[side])),
            Ok(Answer::NoMove) => {
                t.result = t
                    .referee
                    .ending()
                    .or_else(|| loses(format!("{} has no move", names[side])))
            }
            Ok(Answer::ClaimWin) => t.result = Some(t.referee.claim_win()),
            Err(Fault::Timeout) => t.result = loses(format!("{} loses on time", names[side])),
            Err(Fault::Crashed(e)) => {
                let why = format!("the engine crashed: {e}");
                self.broadcast(ServerMsg::error(why.clone()).json());
                t.result = loses(why);
            }
            Err(Fault::Protocol(e)) => {
                t.result = loses(format!("the engine broke the protocol: {e}"))
            }
        }
        self.changed(&mut inner);
    }

    /// Flags a human whose time ran out (engines are flagged by their
    /// search's timeout). Called a few times a second.
    pub fn tick(self: &Arc<Self>) {
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.result.is_some()
            || t.thinking
            || !t.human[t.to_move()]
            || t.scoring.is_some()
            || t.swap.is_some()
        {
            return;
        }
        let Some(clocks) = &t.clocks else { return };
        if t.tc.is_some_and(|tc| tc.movetime_ms.is_some()) {
            return;
        }
        let side = t.to_move();
        if ms(t.turn_start.elapsed()) > clocks[side].allowance_ms() {
            let used = ms(t.turn_start.elapsed());
            t.charge(true, used);
            self.changed(&mut inner);
        }
    }

    fn start_analysis(
        self: &Arc<Self>,
        inner: &mut Inner,
        name: &str,
        multipv: u32,
    ) -> Result<(), String> {
        let kind = inner.table.kind;
        let e = self
            .engines
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| format!("no engine is named '{name}'"))?;
        let cfg = self
            .config_of(e, kind)
            .ok_or_else(|| format!("{name} does not play {}", kind.name()))?;
        let job = position_job(&inner.table, inner.analysed_at());
        if let Some(a) = inner.analysis.as_mut() {
            // Options set since it started need a fresh engine.
            if a.engine == name
                && a.kind == kind
                && a.size == inner.table.size
                && a.multipv == multipv
                && a.options == cfg.options
            {
                a.following = true;
                let _ = a.inbox.send(job);
                return Ok(());
            }
        }
        let mut analyser = make_analyser(&cfg, format!("{name} (analysis)"), None)?;
        if let Some(old) = inner.analysis.take() {
            let _ = old.inbox.send(Job::Quit);
        }
        let (inbox, jobs) = mpsc::channel();
        let _ = inbox.send(job);
        inner.analysis = Some(Analysis {
            engine: name.to_string(),
            kind,
            size: inner.table.size,
            multipv,
            inbox,
            following: true,
            options: cfg.options.clone(),
        });
        let hub = Arc::clone(self);
        let engine = name.to_string();
        std::thread::spawn(move || {
            analysis_loop(&hub, &engine, multipv, analyser.as_mut(), &jobs);
            analyser.quit();
        });
        Ok(())
    }

    /// The arena's config for an engine playing `kind`, with the options
    /// set from the page over those of the server's configuration.
    fn config_of(&self, e: &Engine, kind: Kind) -> Option<EngineConfig> {
        let mut cfg = e.config(kind)?;
        let Some(proto) = options::dialect(cfg.proto) else {
            return Some(cfg);
        };
        if let Some(set) = lock(&self.settings).get(&e.name, proto) {
            for (name, value) in set {
                cfg.options.retain(|(n, _)| n != name);
                cfg.options.push((name.clone(), value.clone()));
            }
        }
        Some(cfg)
    }

    /// The engine, its protocol's name and the options it announces for
    /// `kind` (asked once, then remembered).
    fn announced_options(
        &self,
        name: &str,
        kind: Kind,
    ) -> Result<(&Engine, &'static str, Announced), String> {
        let e = self
            .engines
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| format!("no engine is named '{name}'"))?;
        let cfg = e
            .config(kind)
            .ok_or_else(|| format!("{name} does not play {}", kind.name()))?;
        let proto = options::dialect(cfg.proto).ok_or_else(|| {
            format!(
                "{name} plays {} over a protocol without options (only UCI, USI and UCCI announce them)",
                kind.name()
            )
        })?;
        let key = (e.name.clone(), proto);
        if let Some(a) = lock(&self.announced).get(&key) {
            return Ok((e, proto, a.clone()));
        }
        let a = options::probe(&cfg)?;
        lock(&self.announced).insert(key, a.clone());
        Ok((e, proto, a))
    }

    /// The options message for a tab.
    fn options_msg(&self, name: &str, kind: Kind) -> Result<String, String> {
        let (e, proto, announced) = self.announced_options(name, kind)?;
        let settings = lock(&self.settings);
        Ok(ServerMsg::Options {
            engine: e.name.clone(),
            game: kind,
            protocol: proto.to_string(),
            options: options::describe(&announced, settings.get(&e.name, proto)),
            configured: e
                .config(kind)
                .map(|c| c.options)
                .unwrap_or_default()
                .into_iter()
                .collect(),
        }
        .json())
    }

    /// Whether the watch `token` still runs (its follower stops if not).
    pub(crate) fn watching(&self, token: u64) -> bool {
        lock(&self.inner)
            .watch
            .as_ref()
            .is_some_and(|w| w.token == token)
    }

    /// New lines of a watched arena run: the watch takes them in, the
    /// table follows the game shown, every tab is told once.
    pub(crate) fn live_events(
        self: &Arc<Self>,
        token: u64,
        events: Vec<tengen_arena::live::LiveEvent>,
    ) {
        let mut inner = lock(&self.inner);
        let Some(w) = inner.watch.as_mut().filter(|w| w.token == token) else {
            return;
        };
        for e in events {
            w.apply(e);
        }
        if let Err(e) = self.follow_shown(&mut inner) {
            if let Some(w) = inner.watch.as_mut() {
                w.problem = Some(e);
            }
        }
        self.changed(&mut inner);
    }

    /// Brings the table to the watched game shown: a new table when the
    /// game changed, else its new moves played on (each through the
    /// referee), and the arena's result once it is over.
    fn follow_shown(&self, inner: &mut Inner) -> Result<(), String> {
        let Inner {
            watch,
            table,
            next_id,
            ..
        } = inner;
        let Some(w) = watch.as_mut() else {
            return Ok(());
        };
        let (Some(h), Some(n)) = (w.header.clone(), w.shown) else {
            return Ok(());
        };
        let Some(g) = w.games.get(&n) else {
            return Ok(());
        };
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.name() == h.game)
            .ok_or_else(|| format!("the arena plays '{}', which this page cannot show", h.game))?;
        let fresh = w.table.is_none_or(|(m, id)| m != n || id != table.id);
        if fresh {
            let mut variant = kind.variant(h.board_size, h.komi);
            variant.rule = h.rule.clone();
            variant.go_cleanup = h.go_cleanup;
            let mut referee = make_referee(&variant)?;
            referee.reset(g.start.as_deref())?;
            let id = *next_id;
            *next_id += 1;
            let mut t = Table::blank(id)?;
            t.kind = kind;
            t.size = if kind.sizes().1 == 0 { 0 } else { h.board_size };
            t.referee = referee;
            t.start = g.start.clone();
            t.players = g.players.clone();
            t.human = [false, false];
            t.epoch = table.epoch + 1;
            quit_seats(table);
            *table = t;
            w.table = Some((n, id));
            w.problem = None;
        }
        let t = table;
        if w.problem.is_none() {
            for m in g.moves.iter().skip(t.moves.len()) {
                let side = t.to_move();
                if let Err(e) = t.play(&m.wire) {
                    w.problem = Some(format!(
                        "the arena's move {} is not legal here: {e}",
                        m.wire
                    ));
                    break;
                }
                let score = match (m.cp, m.mate) {
                    (_, Some(n)) => Some(EngineScore::Mate(n)),
                    (Some(c), None) => Some(EngineScore::Cp(c)),
                    _ => None,
                };
                if let Some(e) = t.moves.last_mut() {
                    e.score = score;
                    e.depth = m.depth;
                    e.elapsed_ms = m.ms;
                    e.book = m.book;
                }
                if m.left_ms.is_some() {
                    t.live_clock = m.left_ms;
                }
                if let Some(sc) = score {
                    let first_cp = score_of(sc, side == 0).first_cp;
                    t.set_eval(t.moves.len(), first_cp);
                }
            }
        }
        // The arena rules on the end (adjudication, time, Go's dead
        // stones), not the page's referee.
        t.scoring = None;
        t.result = g
            .end
            .as_ref()
            .map(|(result, reason)| match result.as_str() {
                "1-0" => Ending::win(Side::First, reason.clone()),
                "0-1" => Ending::win(Side::Second, reason.clone()),
                _ => Ending::draw(reason.clone()),
            });
        Ok(())
    }

    /// Notes the analysis's evaluation of a position of the game.
    pub(crate) fn note_eval(&self, game_id: u64, ply: usize, first_cp: i32) {
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.id == game_id && ply <= t.moves.len() {
            t.set_eval(ply, first_cp);
        }
    }

    /// Notes the best analysis line shown for a position of the game.
    pub(crate) fn note_line(&self, game_id: u64, ply: usize, note: Note) {
        let mut inner = lock(&self.inner);
        let t = &mut inner.table;
        if t.id == game_id && ply <= t.moves.len() {
            t.notes.insert(ply, note);
        }
    }

    pub(crate) fn publish_analysis(&self, text: String) {
        lock(&self.inner).last_analysis = Some(text.clone());
        self.broadcast(text);
    }
}

/// Ends the seats' engine processes, each on a thread of its own (a
/// search in flight must finish first).
fn quit_seats(t: &mut Table) {
    let [a, b] = std::mem::take(&mut t.engines);
    let b = b.filter(|b| a.as_ref().is_none_or(|a| !Arc::ptr_eq(a, b)));
    for seat in [a, b].into_iter().flatten() {
        std::thread::spawn(move || lock(&seat).player.quit());
    }
}

/// The game's record in `format` (or the game's usual one).
fn save(t: &Table, format: Option<&str>) -> Result<String, String> {
    let format = format.unwrap_or(crate::records::default_format(t.kind));
    let allowed: &[&str] = match t.kind {
        Kind::Shogi => &["csa", "kif"],
        k => &[crate::records::default_format(k)],
    };
    if !allowed.contains(&format) {
        return Err(format!(
            "{} records are saved as {}",
            t.kind.name(),
            allowed.join(" or ")
        ));
    }
    let rec = GameRecord {
        players: t.players.clone(),
        start: t.referee.start_for_engines().or_else(|| t.start.clone()),
        moves: t
            .moves
            .iter()
            .map(|m| PlayedMove {
                wire: m.wire.clone(),
                notation: m.record.clone(),
                score: m.score,
                depth: m.depth,
                elapsed_ms: m.elapsed_ms,
                book: m.book,
            })
            .collect(),
        ending: t
            .result
            .clone()
            .unwrap_or_else(|| Ending::draw("aborted: the game goes on")),
        round: 1,
        game_no: 1,
        event: "tengen-gui".into(),
        date: today(),
        time_control: t.tc.map_or_else(|| "-".to_string(), |tc| tc.to_string()),
    };
    let text = t.referee.record_as(&rec, format);
    let game = crate::comments::Game {
        kind: t.kind,
        size: t.size,
        start: t.start.as_deref(),
        moves: &t.moves,
        notes: &t.notes,
    };
    let text = crate::comments::annotate(&game, format, &text);
    let text = crate::tree_records::write(&game, &t.vars, format, &text);
    let text = match format {
        "kif" => crate::records::kif_name_handicap(t.start.as_deref(), &text),
        _ => text,
    };
    Ok(ServerMsg::Record {
        format: format.to_string(),
        text,
    }
    .json())
}

/// Today's date as records write it (`2026.11.26`), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A Chess960 start position picked by the clock's nanoseconds.
fn random_960() -> u32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(518);
    nanos % 960
}

/// Line `pair` of a book (wrapping around) for a game on `referee`:
/// its start position and its moves as wire moves (a PGN line's moves
/// turned from the record's notation; a move the referee refuses ends
/// the line there), with the book's random plies after them. Leaves
/// `referee` at the start position.
fn book_line(
    b: &Book,
    pair: usize,
    referee: &mut dyn Referee,
    size: u32,
) -> Result<(Option<String>, Vec<String>), String> {
    let list = b.openings(size)?;
    if list.is_empty() {
        return Err(format!("book '{}' has no openings", b.name));
    }
    // A start position the referee refuses is the book's error, named.
    let start = list[pair % list.len()].start.as_deref();
    referee
        .reset(start)
        .map_err(|e| format!("book '{}', line {}: {e}", b.name, pair % list.len() + 1))?;
    let o = tengen_arena::openings::for_pair(&list, pair as u64, b.plies(), b.seed(), referee);
    // Every move must stand on the real board: check them all.
    referee.reset(o.start.as_deref())?;
    for (i, mv) in o.moves.iter().enumerate() {
        referee
            .play(mv)
            .map_err(|e| format!("book '{}': move {} ({mv}): {e}", b.name, i + 1))?;
    }
    referee.reset(o.start.as_deref())?;
    Ok((o.start, o.moves))
}

/// The analysis job for a position of the game's tree (the game's end
/// when it is not one).
fn position_job(t: &Table, at: Pos) -> Job {
    let (at, moves, first_to_move) = match (at, t.replay_to(at)) {
        (Pos::Side(_), Ok((r, w))) => (at, w, r.side_to_move().index() == 0),
        (Pos::Main(p), _) if p < t.moves.len() => {
            (at, t.wires()[..p].to_vec(), t.side_to_move_at(p) == 0)
        }
        _ => (Pos::Main(t.moves.len()), t.wires(), t.to_move() == 0),
    };
    Job::Position {
        kind: t.kind,
        size: t.size,
        game_id: t.id,
        ply: moves.len(),
        node: match at {
            Pos::Side(id) => Some(id),
            Pos::Main(_) => None,
        },
        setup: t.referee.setup(),
        start: t.start.clone(),
        moves,
        first_to_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gomoku_table(rule: OpeningRule) -> Table {
        let mut t = Table::blank(1).unwrap();
        t.kind = Kind::Gomoku;
        t.size = 15;
        t.referee = make_referee(&Kind::Gomoku.variant(15, 7.5)).unwrap();
        t.players = ["first".into(), "second".into()];
        t.human = [true, false];
        t.swap = Some(SwapPhase {
            rule,
            stage: Stage::Place3,
        });
        t
    }

    #[test]
    fn swap_opening_stages_and_colours() {
        let mut t = gomoku_table(OpeningRule::Swap2);
        assert!(t.choose(SwapChoice::Black).is_err());
        for w in ["7,7", "8,7", "7,9"] {
            t.place_stone(w).unwrap();
        }
        assert!(
            t.place_stone("1,1").is_err(),
            "a stone where a choice is due"
        );
        assert_eq!(
            t.swap.map(|p| (p.stage, p.actor())),
            Some((Stage::Choose, 1))
        );
        // Two more stones by the second player hand the choice back.
        t.swap_answer(
            t.swap.unwrap(),
            Swap2Answer::Stones(vec!["6,6".into(), "5,5".into()]),
        )
        .unwrap();
        assert_eq!(
            t.swap.map(|p| (p.stage, p.actor())),
            Some((Stage::Choose2, 0))
        );
        assert!(t.choose(SwapChoice::Place2).is_err());
        // The first player takes White: the seats are exchanged.
        t.choose(SwapChoice::White).unwrap();
        assert!(t.swap.is_none() && t.swapped);
        assert_eq!(t.players, ["second".to_string(), "first".to_string()]);
        assert_eq!(t.human, [false, true]);
        assert_eq!((t.moves.len(), t.opening_len, t.to_move()), (5, 5, 1));

        // swap1: no two more stones; an illegal stone changes nothing.
        let mut t = gomoku_table(OpeningRule::Swap1);
        t.place_stone("7,7").unwrap();
        assert!(t.place_stone("7,7").is_err());
        assert!(t.place_stone("99,0").is_err());
        assert_eq!(t.moves.len(), 1);
        t.place_stone("8,8").unwrap();
        t.place_stone("6,8").unwrap();
        let p = t.swap.unwrap();
        assert!(t
            .swap_answer(p, Swap2Answer::Stones(vec!["1,1".into(), "2,2".into()]))
            .is_err());
        assert!(t.choose(SwapChoice::Place2).is_err());
        t.swap_answer(p, Swap2Answer::Swap).unwrap();
        assert!(t.swapped && t.swap.is_none());
    }
}
