//! `tengen_fuzzing::shogi_sfen` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::shogi_sfen(data));
