// Written by `cargo run --release -p tengen-shogi --example tune`; do not edit.
pub static WEIGHTS: [i16; super::FEATURES] = [0; super::FEATURES];
