//! Embeds every file under `assets/` in the binary: writes a table of
//! `(path, bytes)` with `include_bytes!` for `src/assets.rs` to include.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let assets = root.join("assets");
    println!("cargo:rerun-if-changed=assets");
    let mut files = Vec::new();
    walk(&assets, &mut files);
    let mut code = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f
            .strip_prefix(&assets)
            .expect("walked under assets")
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            f.display().to_string()
        );
    }
    code.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("assets.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
