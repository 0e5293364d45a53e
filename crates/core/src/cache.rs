//! Hints to the memory system: the one place with the prefetch
//! instruction, so that callers stay free of `unsafe`.

/// Starts loading the cache line that holds `r`, so that a read soon
/// after finds it there. Only a hint: it changes no result, and does
/// nothing on machines other than x86-64.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `_mm_prefetch` (SSE, which every x86-64 CPU has) only
        // hints the cache: it never faults and neither reads nor writes
        // memory as far as the program can observe, and the pointer
        // comes from a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(r as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

#[cfg(test)]
mod tests {
    #[test]
    fn prefetching_changes_nothing() {
        let v: Vec<u64> = (0..100_000).collect();
        for i in (0..v.len()).step_by(97) {
            super::prefetch(&v[i]);
        }
        super::prefetch(&v[v.len() - 1]);
        assert_eq!(v.iter().sum::<u64>(), 99_999 * 100_000 / 2);
    }
}
