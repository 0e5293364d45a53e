//! `tengen_fuzzing::arena_openings` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::arena_openings(data));
