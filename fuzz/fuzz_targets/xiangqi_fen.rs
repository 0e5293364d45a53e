//! `tengen_fuzzing::xiangqi_fen` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::xiangqi_fen(data));
