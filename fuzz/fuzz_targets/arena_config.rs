//! A match file and a command line from a hostile user: the bytes as a
//! TOML match file, and the same bytes split into arguments. Neither may
//! panic; a match file that is accepted names at least two engines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_arena::config;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = config::from_toml(&text) {
        assert!(t.engines.len() >= 2, "an accepted match has two engines");
    }
    // `-config FILE` and `-merge` name files to read; a fuzzer must not
    // send the arena reading /dev/zero.
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if args.iter().any(|a| a.contains("config")) {
        return;
    }
    if let Ok(t) = config::from_args(&args) {
        assert!(t.engines.len() >= 2, "an accepted command line has two engines");
    }
});
