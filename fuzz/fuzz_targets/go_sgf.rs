//! `tengen_fuzzing::go_sgf` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::go_sgf(data));
