//! `tengen_fuzzing::gui_page` (crates/fuzzing) under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzzing::gui_page(data));
