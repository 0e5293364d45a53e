//! `cargo run --release -p tengen-chess --example magics [print]`: times
//! the attack-table build done at first use; `print` writes the magics as
//! Rust constants for attacks.rs.

use std::time::Instant;

fn main() {
    let t = Instant::now();
    let _ = tengen_chess::attacks::tables();
    println!(
        "attack tables built in {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    if std::env::args().nth(1).as_deref() == Some("print") {
        let (rook, bishop) = tengen_chess::attacks::found_magics();
        for (name, m) in [("ROOK_MAGICS", rook), ("BISHOP_MAGICS", bishop)] {
            println!("#[rustfmt::skip]\nconst {name}: [u64; 64] = [");
            for row in m.chunks(4) {
                let cells: Vec<String> = row.iter().map(|v| format!("0x{v:016x},")).collect();
                println!("    {}", cells.join(" "));
            }
            println!("];");
        }
    }
}
