//! Converts a network of shogi's own former format (`TGSNNUE3`, one king
//! bucket, no king-relative inputs) into the shared `tengen-nnue` format
//! (feature set `shogi-board-hand-mirrored`, wide output), evaluating
//! every position exactly as before:
//!
//!     cargo run --release -p tengen-shogi --example nnue_convert -- OLD.nnue NEW.nnue
//!
//! It prints the new network's id (the low 32 bits of its checksum), the
//! name the built-in file carries (`nets/shogi-residual-h256-<id>.nnue`).
use tengen_shogi::nnue::convert_tgsnnue3;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [old, new] = args.as_slice() else {
        eprintln!("usage: nnue_convert OLD.nnue NEW.nnue");
        std::process::exit(2);
    };
    let net = std::fs::read(old)
        .map_err(|e| format!("{old}: {e}"))
        .and_then(|b| convert_tgsnnue3(&b).map_err(|e| format!("{old}: {e}")));
    match net {
        Ok(net) => {
            if let Err(e) = std::fs::write(new, net.to_bytes()) {
                eprintln!("{new}: {e}");
                std::process::exit(1);
            }
            println!(
                "{new}: shogi network, hidden {}, residual {}, id {:08x}",
                net.hidden,
                net.residual,
                net.id()
            );
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
