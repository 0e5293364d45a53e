//! `tengen_fuzzing::gtp_command` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::gtp_command(data));
