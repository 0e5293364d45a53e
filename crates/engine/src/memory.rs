//! Handing freed memory back to the system between games.
//!
//! The Go player builds a search tree of tens of megabytes each move and
//! drops it at a new game; glibc keeps most freed memory for reuse (its
//! threshold for giving large blocks back straight away rises as blocks
//! are freed), so a process that played a thousand games held 4 MiB more
//! than after its first hundred though it used no more (docs/reliability.md).
//! At a new game the engine returns what is free.
//!
//! `malloc_trim` alone is not enough: it gives back free pages inside a
//! thread's arena but never shrinks the arena's top, which only `free`
//! does, and only past the trim threshold; glibc raises that threshold
//! to twice the largest block it has seen freed, so the search threads'
//! arenas kept up to 12 MiB each of freed tree on top (measured with
//! `malloc_stats`, docs/reliability.md). The engine fixes the thresholds
//! at start ([`keep_heaps_trimmed`]).

/// glibc's own default trim threshold (128 KiB), now kept fixed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 128 * 1024;

/// Fixes glibc's trim threshold at its default, which also stops glibc
/// from raising its thresholds as large blocks are freed: the free top of
/// every arena beyond 128 KiB goes back to the system when freed, and
/// large blocks keep their own mappings. True when the allocator took the
/// setting; false where the C library is not glibc.
pub fn keep_heaps_trimmed() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` takes two plain integers and only changes
        // glibc's tuning parameters under its own lock; no memory is
        // touched or freed, so no Rust object is affected. Exercised by
        // the test below.
        unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

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

    #[test]
    fn the_trim_threshold_is_taken() {
        let taken = keep_heaps_trimmed();
        assert_eq!(taken, cfg!(all(target_os = "linux", target_env = "gnu")));
        // Blocks around the threshold, allocated and freed on another
        // thread (its own arena), leave a working allocator.
        let sum = std::thread::spawn(|| {
            let blocks: Vec<Vec<u8>> = (0..64).map(|i| vec![i as u8; 100 << 10]).collect();
            blocks.iter().map(|b| b[0] as usize).sum::<usize>()
        })
        .join()
        .expect("the thread ran");
        assert_eq!(sum, (0..64).sum::<usize>());
    }
}
