//! `tengen_fuzzing::gtp_response` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::gtp_response(data));
