//! Grows the opening book (`src/tables/book.txt`) by the engine's own
//! play: from each root position, the searched best move of the side to
//! move is kept, and the tree goes on after it and after the next best
//! candidates of the search's root ordering (`BRANCH` moves a position in
//! all; after the first stone, every point within two lines of it), so
//! that both colours find their answer to the moves the engine itself
//! would consider. A position already met (in any of its eight
//! images) is searched once. Each search is node-limited and single
//! threaded, so the book depends only on the build and the settings, not
//! on the machine or the thread count.
//!
//! Roots: freestyle, the empty board (black's first move, then every
//! branch); renju, the empty board up to black's third move and the 26
//! openings (black centre, white next to it, black's second stone in
//! the central 5x5), from which white's fourth move on.
//!
//!   cargo run --release -p tengen-gomoku --example book_build -- \
//!       NODES THREADS FREESTYLE_STONES RENJU_STONES BRANCH > crates/gomoku/src/tables/book.txt
//!
//! (`*_STONES`: the most stones a searched position has.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tengen_gomoku::board::{Board, Outcome, Point, Rule};
use tengen_gomoku::book::{renju_openings, Book};
use tengen_gomoku::search::{Event, Limits, Searcher, PROVEN};

struct Done {
    line: String,
    children: Vec<Board>,
}

/// Searches one position; its children are the best move and the next
/// candidates of the root ordering, `branch` in all (only the best when
/// the result is proven or the position is the empty board).
fn search(b: &Board, nodes: u64, branch: usize) -> Option<Done> {
    let mut s = Searcher::new(64);
    s.set_book(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut order: Vec<Point> = Vec::new();
    let r = s.think(b, &limits, &mut |e| {
        if let Event::RootMoves(v) = e {
            order = v.clone();
        }
    });
    let best = r.best?;
    let mut moves = vec![best];
    if b.stones() == 1 {
        // Every answer to the first stone within two lines of it: the
        // second move decides the opening's family, and each family
        // deserves its book (the images of one answer are met once).
        let (first, _) = b.history().next()?;
        for y in first.y.saturating_sub(2)..=first.y + 2 {
            for x in first.x.saturating_sub(2)..=first.x + 2 {
                if (x, y) != (first.x, first.y) {
                    moves.push(Point { x, y });
                }
            }
        }
    } else if r.score.abs() < PROVEN && b.stones() > 0 {
        moves.extend(
            order
                .iter()
                .copied()
                .filter(|&p| p != best)
                .take(branch - 1),
        );
    }
    let children = moves
        .iter()
        .filter_map(|&p| {
            let mut c = b.clone();
            c.play(p).ok()?;
            (c.outcome() == Outcome::Ongoing).then_some(c)
        })
        .collect();
    Some(Done {
        line: Book::line(b, best, r.score),
        children,
    })
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("numbers: NODES THREADS FREESTYLE_STONES RENJU_STONES BRANCH")
        })
        .collect();
    let [nodes, threads, free_max, renju_max, branch] = args[..] else {
        eprintln!("usage: book_build NODES THREADS FREESTYLE_STONES RENJU_STONES BRANCH");
        std::process::exit(2);
    };
    let mut lines = Vec::new();
    for (rule, max) in [(Rule::Freestyle, free_max), (Rule::Renju, renju_max)] {
        let empty = Board::new(15, 15, rule).expect("15x15");
        let mut level = vec![empty];
        if rule == Rule::Renju {
            for o in renju_openings() {
                let mut b = Board::new(15, 15, rule).expect("15x15");
                for p in o {
                    b.play(p).expect("an opening is legal");
                }
                level.push(b);
            }
        }
        let mut seen = std::collections::HashSet::new();
        // Level by level, each position searched by the first free thread.
        while !level.is_empty() {
            level.retain(|b| b.stones() as u64 <= max && seen.insert(Book::key(b)));
            let next = AtomicUsize::new(0);
            let out: Mutex<Vec<Done>> = Mutex::new(Vec::new());
            std::thread::scope(|scope| {
                for _ in 0..threads.max(1) {
                    scope.spawn(|| loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(b) = level.get(i) else { break };
                        if let Some(d) = search(b, nodes, branch as usize) {
                            out.lock().expect("no thread panicked").push(d);
                        }
                    });
                }
            });
            let done = out.into_inner().expect("no thread panicked");
            eprintln!("{}: {} positions searched", rule.name(), done.len());
            level = Vec::new();
            for d in done {
                lines.push(d.line);
                level.extend(d.children);
            }
        }
    }
    lines.sort();
    println!(
        "# tengen's opening book (src/book.rs): one position a line, RULE STONES > MOVE SCORE."
    );
    println!(
        "# cargo run --release -p tengen-gomoku --example book_build -- {nodes} {threads} {free_max} {renju_max} {branch}"
    );
    for l in lines {
        println!("{l}");
    }
}
