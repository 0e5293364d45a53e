//! `tengen_fuzzing::protocol_lines` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::protocol_lines(data));
