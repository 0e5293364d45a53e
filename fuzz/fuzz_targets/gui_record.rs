//! `tengen_fuzzing::gui_record` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::gui_record(data));
