//! Live analysis on a thread of its own: the analysis thread takes jobs
//! (a position to analyse, stop, quit) from the hub, runs the arena's
//! [`Analyser`], and publishes the lines through the hub (at most ten
//! messages a second) as the page's `analysis` message.

use crate::games::{self, Kind};
use crate::hub::Hub;
use crate::msg::{Line, Score, ServerMsg};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tengen_arena::player::{Analyser, AnalysisEvent, AnalysisRequest, GoAnalysis};
use tengen_arena::record::GameSetup;
use tengen_protocol::host::{EngineScore, SearchInfo};

/// The analysis thread's inbox.
pub(crate) enum Job {
    Position {
        kind: Kind,
        size: u32,
        game_id: u64,
        ply: usize,
        /// A variation's position (its side node), not the main line's.
        node: Option<u32>,
        setup: GameSetup,
        start: Option<String>,
        moves: Vec<String>,
        first_to_move: bool,
    },
    Stop,
    Quit,
}

pub(crate) fn score_of(s: EngineScore, first_to_move: bool) -> Score {
    let (cp, mate) = match s {
        EngineScore::Cp(c) => (Some(c), None),
        EngineScore::Mate(m) => (None, Some(m)),
    };
    let own = match s {
        EngineScore::Cp(c) => c.clamp(-10_000, 10_000),
        EngineScore::Mate(m) if m > 0 => 10_000,
        EngineScore::Mate(_) => -10_000,
    };
    Score {
        cp,
        mate,
        winrate: None,
        lead: None,
        first_cp: if first_to_move { own } else { -own },
    }
}

/// Go analysis for the page: the lines, and the ownership rows.
type GoLines = (Vec<Line>, Option<Vec<Vec<f32>>>);

/// A GTP engine's candidates as lines (best first, at most `multipv`) and
/// its ownership as rows from the top in Black's view.
fn go_candidates(
    a: &GoAnalysis,
    kind: Kind,
    size: u32,
    multipv: u32,
    first_to_move: bool,
) -> GoLines {
    let lines = a
        .candidates
        .iter()
        .take(multipv as usize)
        .enumerate()
        .map(|(i, c)| {
            let w = c.winrate.clamp(0.0001, 0.9999);
            let first = if first_to_move { w } else { 1.0 - w };
            Line {
                multipv: i as u32 + 1,
                depth: None,
                score: Some(Score {
                    cp: None,
                    mate: None,
                    winrate: Some(c.winrate),
                    lead: c.score_lead,
                    first_cp: (400.0 * (first / (1.0 - first)).ln()).round() as i32,
                }),
                nodes: Some(c.visits),
                pv: c.pv.clone(),
                pv_text: c.pv.join(" "),
                first: games::spot(kind, &c.mv, size),
            }
        })
        .collect();
    let n = size as usize;
    let ownership = (a.ownership.len() == n * n).then(|| {
        let sign = if first_to_move { 1.0 } else { -1.0 };
        a.ownership
            .chunks(n)
            .map(|row| row.iter().map(|v| v * sign).collect())
            .collect()
    });
    (lines, ownership)
}

/// Runs one analyser: waits for a position, streams its lines (at most
/// ten messages a second), and follows the jobs that come.
pub(crate) fn analysis_loop(
    hub: &Arc<Hub>,
    engine: &str,
    multipv: u32,
    a: &mut dyn Analyser,
    jobs: &mpsc::Receiver<Job>,
) {
    let mut next = jobs.recv().ok();
    loop {
        let Some(job) = next.take() else { return };
        let (kind, size, game_id, ply, node, first_to_move, start, moves) = match job {
            Job::Quit => return,
            Job::Stop => {
                next = jobs.recv().ok();
                continue;
            }
            Job::Position {
                kind,
                size,
                game_id,
                ply,
                node,
                setup,
                start,
                moves,
                first_to_move,
            } => {
                let req = AnalysisRequest {
                    setup: &setup,
                    start: start.as_deref(),
                    moves: &moves,
                    multipv,
                };
                if let Err(e) = a.start(&req) {
                    hub.broadcast(ServerMsg::error(format!("{engine} cannot analyse: {e}")).json());
                    next = jobs.recv().ok();
                    continue;
                }
                (kind, size, game_id, ply, node, first_to_move, start, moves)
            }
        };
        let mut lines: Vec<Option<SearchInfo>> = vec![None; multipv as usize];
        let mut go_lines: Option<GoLines> = None;
        let mut sent = Instant::now();
        let mut dirty = false;
        let publish = |lines: &[Option<SearchInfo>], go: &Option<GoLines>, running: bool| {
            let (go_out, ownership) = match go {
                Some((l, o)) => (Some(l.clone()), o.clone()),
                None => (None, None),
            };
            let out: Vec<Line> = lines
                .iter()
                .enumerate()
                .filter_map(|(i, l)| l.as_ref().map(|l| (i, l)))
                .map(|(i, l)| Line {
                    multipv: i as u32 + 1,
                    depth: l.depth,
                    score: l.score.map(|s| score_of(s, first_to_move)),
                    nodes: l.nodes,
                    pv_text: crate::notation::texts(kind, start.as_deref(), &moves, &l.pv)
                        .join(" "),
                    first: l.pv.first().and_then(|m| games::spot(kind, m, size)),
                    pv: l.pv.clone(),
                })
                .collect();
            let best = go_out.as_ref().unwrap_or(&out).first();
            // The graph and the record's notes are the main line's.
            let best = best.filter(|_| node.is_none());
            if let Some(cp) = best.and_then(|l| l.score.as_ref()).map(|s| s.first_cp) {
                hub.note_eval(game_id, ply, cp);
            }
            if let Some(l) = best.filter(|l| !l.pv.is_empty()) {
                let note = crate::comments::Note {
                    engine: engine.to_string(),
                    line: l.clone(),
                    first_to_move,
                };
                hub.note_line(game_id, ply, note);
            }
            hub.publish_analysis(
                ServerMsg::Analysis {
                    game_id,
                    ply,
                    node,
                    engine: engine.to_string(),
                    lines: go_out.unwrap_or(out),
                    running,
                    ownership,
                }
                .json(),
            );
        };
        loop {
            match jobs.try_recv() {
                Ok(job) => {
                    let failed = a.stop().is_err();
                    publish(&lines, &go_lines, false);
                    if failed {
                        hub.broadcast(ServerMsg::error(format!("{engine} did not stop")).json());
                    }
                    next = Some(job);
                    break;
                }
                Err(mpsc::TryRecvError::Disconnected) => {
                    let _ = a.stop();
                    return;
                }
                Err(mpsc::TryRecvError::Empty) => {}
            }
            match a.poll(Instant::now() + Duration::from_millis(50)) {
                Ok(Some(AnalysisEvent::Info(i))) => {
                    if i.pv.is_empty() || i.score.is_none() {
                        continue;
                    }
                    let slot = i.multipv.unwrap_or(1).saturating_sub(1) as usize;
                    if let Some(l) = lines.get_mut(slot) {
                        *l = Some(i);
                        dirty = true;
                    }
                }
                Ok(Some(AnalysisEvent::Candidates(a))) => {
                    go_lines = Some(go_candidates(&a, kind, size, multipv, first_to_move));
                    dirty = true;
                }
                Ok(Some(AnalysisEvent::Done(_))) => {
                    publish(&lines, &go_lines, false);
                    next = jobs.recv().ok();
                    break;
                }
                Ok(None) => {}
                Err(e) => {
                    hub.broadcast(ServerMsg::error(format!("{engine} failed: {e:?}")).json());
                    publish(&lines, &go_lines, false);
                    next = jobs.recv().ok();
                    break;
                }
            }
            if dirty && sent.elapsed() >= Duration::from_millis(100) {
                publish(&lines, &go_lines, true);
                sent = Instant::now();
                dirty = false;
            }
        }
    }
}
