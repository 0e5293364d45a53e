//! `tengen_fuzzing::gomocup_reply` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::gomocup_reply(data));
