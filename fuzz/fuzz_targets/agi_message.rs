//! `tengen_fuzzing::agi_message` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::agi_message(data));
