//! The df-pn solver on tsume positions labelled by cshogi's DfPn (see
//! gen_tsume.py): every mate it reports is checked move by move, and no
//! mate is claimed where cshogi found none within 31 plies. The label is
//! the smallest depth limit at which cshogi's DfPn proved the mate; that
//! limited search is not exact (it misses some shorter mates we find, and
//! its depth limit lets through mates two plies longer than the limit), so
//! each mate must be no longer than the label plus two.

use tengen_shogi::dfpn::{is_mating_line, RepetitionRule, Solver, TsumeLimits, TsumeResult};
use tengen_shogi::Game;

const TSUME: &str = include_str!("tsume.txt");
const HARD: &str = include_str!("tsume_hard.txt");
const LONG: &str = include_str!("tsume_long.txt");

#[test]
fn solves_the_labelled_problems() {
    let mut mates = 0;
    let mut shortest = 0;
    let mut nomates = 0;
    for line in TSUME
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sfen, label) = line.split_once(" ;").expect("<sfen> ;<label>");
        let pos = Game::from_usi(sfen, &[]).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let nodes = if label == "nomate" {
            200_000
        } else {
            2_000_000
        };
        let mut solver = Solver::new(TsumeLimits {
            nodes: Some(nodes),
            ..Default::default()
        });
        let result = solver.solve(&pos);
        if label == "nomate" {
            match result {
                TsumeResult::Mate(l) => {
                    assert!(
                        is_mating_line(&pos, &l) && l.len() > 31,
                        "{sfen}: false mate {l:?}"
                    )
                }
                TsumeResult::NoMate => nomates += 1,
                TsumeResult::Timeout => {}
            }
            continue;
        }
        let want: usize = label.parse().expect("length");
        match result {
            TsumeResult::Mate(l) => {
                assert!(is_mating_line(&pos, &l), "{sfen}: not a mate: {l:?}");
                assert!(
                    l.len() <= want + 2,
                    "{sfen}: {} plies, label {want}",
                    l.len()
                );
                mates += 1;
                shortest += usize::from(l.len() <= want);
            }
            other => panic!("{sfen}: expected a mate in {want}, got {other:?}"),
        }
    }
    eprintln!("{mates} mates ({shortest} no longer than cshogi's), {nomates} proven without mate");
    assert!(mates >= 10);
    assert!(nomates >= 3);
}

/// The longer sets (gen_hard.py: cshogi's line 9+ plies; gen_long.py:
/// cshogi's line 25+ plies, depth label 21+): every problem is solved
/// within 1,500,000 nodes, and the first mate line found (no shortening,
/// to keep the test quick) is a legal sequence of checks and replies
/// ending in checkmate.
#[test]
fn solves_the_long_problems() {
    for (name, set) in [("tsume_hard.txt", HARD), ("tsume_long.txt", LONG)] {
        let mut solved = 0;
        let mut plies = 0;
        for line in set
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (sfen, _) = line.split_once(" ;").expect("<sfen> ;<label>");
            let pos = Game::from_usi(sfen, &[]).unwrap_or_else(|e| panic!("{sfen}: {e}"));
            let mut solver = Solver::new(TsumeLimits {
                nodes: Some(1_500_000),
                ..Default::default()
            });
            solver.set_shortening(None);
            match solver.solve(&pos) {
                TsumeResult::Mate(l) => {
                    assert!(is_mating_line(&pos, &l), "{sfen}: not a mate: {l:?}");
                    solved += 1;
                    plies += l.len();
                }
                other => panic!("{name}: {sfen}: expected a mate, got {other:?}"),
            }
        }
        eprintln!("{name}: {solved} mates, {plies} plies in all");
        assert!(solved >= 3, "{name}");
    }
}

const REP: &str = include_str!("tsume_rep.txt");

/// No-mates that only the repetition rule proves (gen_rep.py, checked
/// with cshogi): every line of checks can go on, so without the
/// repetition test (`RepetitionRule::Ignore`) each attempt runs into the
/// ply cap and nothing is proven, while the sound solver proves no mate.
/// Storing path-bound disproofs as final (`StoreAnyway`) must not claim a
/// mate either. The solver must answer each right, and without the
/// repetition test at least one must stay unproven (so that the set
/// tests what it is there for).
#[test]
fn repetition_no_mates_need_the_repetition_rule() {
    let solve = |pos: &Game, rule: RepetitionRule| {
        let mut solver = Solver::new(TsumeLimits {
            nodes: Some(500_000),
            ..Default::default()
        });
        solver.set_shortening(None);
        solver.set_repetition(rule);
        solver.solve(pos)
    };
    let (mut nomates, mut unproven) = (0, 0);
    for line in REP
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (sfen, label) = line.split_once(" ;").expect("<sfen> ;<label>");
        assert_eq!(label, "nomate", "{sfen}");
        let pos = Game::from_usi(sfen, &[]).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(
            solve(&pos, RepetitionRule::Escape),
            TsumeResult::NoMate,
            "{sfen}"
        );
        nomates += 1;
        let naive = solve(&pos, RepetitionRule::StoreAnyway);
        assert!(!matches!(naive, TsumeResult::Mate(_)), "{sfen}: {naive:?}");
        let ignored = solve(&pos, RepetitionRule::Ignore);
        assert!(
            !matches!(ignored, TsumeResult::Mate(_)),
            "{sfen}: {ignored:?}"
        );
        unproven += usize::from(ignored != TsumeResult::NoMate);
    }
    eprintln!("{nomates} no-mates, {unproven} unproven without the repetition test");
    assert!(nomates >= 3);
    assert!(unproven >= 1, "no problem needs the repetition rule");
}
