//! Times the VCF search on a fixed puzzle set: freestyle positions from
//! seeded random play whose shortest VCF takes 3 or 4 attacking moves, as
//! proven by the brute-force solver in `puzzles`. Single thread.
//!
//! cargo run --release -p tengen-gomoku --example vcf_bench

use std::time::Instant;
use tengen_gomoku::puzzles::{line_wins, vcf_set};
use tengen_gomoku::threat::ThreatSearch;

fn main() {
    let depth = 4;
    // Build the shape tables before timing anything.
    tengen_gomoku::pattern::init();
    let label = Instant::now();
    let set = vcf_set(0x7e46e4, 50, 3, depth);
    eprintln!(
        "labelled {} puzzles by brute force in {:.1} s",
        set.len(),
        label.elapsed().as_secs_f64()
    );
    for search_depth in [depth, 20] {
        let start = Instant::now();
        let mut nodes = 0u64;
        let mut solved = 0;
        for p in &set {
            let mut b = p.board();
            let mut ts = ThreatSearch::new(u64::MAX);
            if let Some(line) = ts.vcf(&mut b, search_depth) {
                if line_wins(&b, &line) {
                    solved += 1;
                }
            }
            nodes += ts.nodes;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "VCF depth {search_depth:>2}: solved {solved}/{} in {:.1} ms ({:.2} ms per puzzle), {nodes} nodes, {:.0} nodes/s",
            set.len(),
            secs * 1000.0,
            secs * 1000.0 / set.len() as f64,
            nodes as f64 / secs.max(1e-9)
        );
    }
}
