//! Handing freed memory back to the system between games.
//!
//! The Go player builds a search tree of tens of megabytes each move and
//! drops it at a new game; glibc keeps most freed memory for reuse (its
//! threshold for giving large blocks back straight away rises as blocks
//! are freed), so a process that played a thousand games held 4 MiB more
//! than after its first hundred though it used no more (docs/reliability.md).
//! At a new game the engine returns what is free.

/// Returns the allocator's free memory to the system; true when some was
/// returned. Does nothing (false) where the C library is not glibc.
pub fn release_free_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` takes a plain integer (the padding to keep)
        // and works only on glibc's own heap bookkeeping, taking each
        // arena's lock as it goes, so it may be called from any thread at
        // any time; it frees nothing that is still allocated, so no Rust
        // object is touched. Exercised by the test below.
        unsafe { libc::malloc_trim(0) != 0 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_memory_goes_back() {
        // 32 MiB in blocks small enough to come from the heap, not from
        // their own mappings, then freed: there is something to return.
        let blocks: Vec<Vec<u8>> = (0..1024).map(|i| vec![i as u8; 32 << 10]).collect();
        assert_eq!(blocks.iter().map(Vec::len).sum::<usize>(), 32 << 20);
        drop(blocks);
        let released = release_free_memory();
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(released, "nothing was returned");
        }
        // Still a working allocator afterwards.
        let again = vec![7u8; 1 << 20];
        assert_eq!(again.iter().map(|&b| b as usize).sum::<usize>(), 7 << 20);
    }
}
