//! Shared transposition table for the alpha-beta searchers.
//!
//! Lock-free: each entry is two `AtomicU64`s, the key stored XOR-ed with
//! the data (Hyatt's lockless hashing). A torn write from a racing thread
//! leaves a key that no longer matches, so the entry reads as a miss
//! instead of as corrupted data. The entries need no `unsafe`. Two
//! hints to the machine: the table asks Linux for huge pages (a probe is
//! a random access, and with 4 KiB pages a 16 MiB table outgrows the
//! TLB: `tengen bench` used 5% less CPU with them, docs/performance.md;
//! the `unsafe` call has its proof where it is made), and the searcher
//! prefetches a child's bucket as soon as the child's key is known
//! (`crate::cache::prefetch`).

use crate::report::Bound;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

const ENTRIES_PER_BUCKET: usize = 4;
const DEPTH_OFFSET: i32 = 32;

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

#[derive(Default)]
struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

/// What a probe returns. Scores are raw table values: convert mate scores
/// with [`crate::Score::from_tt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Packed move, 0 for none.
    pub mv: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

fn pack(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let depth_byte = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
    let gen_bound = ((generation as u64 & 0x3f) << 2) | bound as u64;
    (mv as u64)
        | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 16)
        | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
        | (depth_byte << 48)
        | (gen_bound << 56)
}

fn unpack(data: u64) -> (TtHit, u8) {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    let hit = TtHit {
        mv: data as u16,
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound,
    };
    (hit, ((data >> 58) & 0x3f) as u8)
}

fn depth_byte(data: u64) -> u64 {
    (data >> 48) & 0xff
}

/// Memory the system can still give this process, in bytes: Linux's
/// `MemAvailable` (free memory plus caches it can drop), or `None` where
/// that is unknown and the allocator alone decides.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: AtomicU8::new(0),
        };
        tt.resize(mb);
        tt
    }

    /// Replaces the table by an empty one of about `mb` mebibytes. Panics
    /// only if the allocator fails; for sizes a user asked for use
    /// [`TranspositionTable::try_resize`].
    pub fn resize(&mut self, mb: usize) {
        let n = Self::buckets_for(mb);
        self.buckets = Vec::new();
        self.buckets = filled(Vec::with_capacity(n), n);
        self.generation.store(0, Ordering::Relaxed);
    }

    fn buckets_for(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1)
    }

    /// Replaces the table by an empty one of about `mb` mebibytes, or
    /// leaves the current table untouched (entries included) and says why
    /// when the machine cannot hold the new one. The new table is
    /// allocated before the old one is freed, so a refusal never leaves
    /// the engine without a table.
    pub fn try_resize(&mut self, mb: usize) -> Result<(), String> {
        let n = Self::buckets_for(mb);
        let bytes = n.saturating_mul(std::mem::size_of::<Bucket>());
        // With overcommit an allocation larger than the free memory may
        // succeed and the process die later when the pages are touched
        // (here, at once: every entry is written), so compare with what
        // the system says it can give first.
        if let Some(avail) = available_memory() {
            if bytes as u64 > avail {
                return Err(format!(
                    "a {mb} MB table does not fit in the {} MB of memory available",
                    avail >> 20
                ));
            }
        }
        let mut fresh: Vec<Bucket> = Vec::new();
        fresh
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB table"))?;
        self.buckets = filled(fresh, n);
        self.generation.store(0, Ordering::Relaxed);
        Ok(())
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.entries {
                e.key.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search so old entries lose their priority.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 0x3f, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without modulo.
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe
    /// soon after finds it there. Only a hint: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::cache::prefetch(self.bucket(key));
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if k ^ data == key && depth_byte(data) != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed);
            if depth_byte(data) == 0 || k ^ data == key {
                if k ^ data == key && depth_byte(data) != 0 {
                    let (old, _) = unpack(data);
                    // Keep a deeper exact result unless this one is exact too.
                    if bound != Bound::Exact && old.depth > depth + 3 && old.bound == Bound::Exact {
                        return;
                    }
                    let mv = if mv == 0 { old.mv } else { mv };
                    let new = pack(mv, score, eval, depth, bound, generation);
                    e.data.store(new, Ordering::Relaxed);
                    e.key.store(key ^ new, Ordering::Relaxed);
                    return;
                }
                victim = e;
                victim_worth = i32::MIN;
                continue;
            }
            let (old, old_gen) = unpack(data);
            let age = (generation.wrapping_sub(old_gen) & 0x3f) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(mv, score, eval, depth, bound, generation);
        victim.data.store(new, Ordering::Relaxed);
        victim.key.store(key ^ new, Ordering::Relaxed);
    }

    /// Per-mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let data = e.data.load(Ordering::Relaxed);
                if depth_byte(data) != 0 && unpack(data).1 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// `n` empty buckets in `v`'s reserved (still untouched) memory, asked
/// to be huge pages first.
fn filled(mut v: Vec<Bucket>, n: usize) -> Vec<Bucket> {
    advise_huge_pages(&mut v);
    v.resize_with(n, Bucket::default);
    v
}

/// Asks Linux to back `v`'s spare capacity with transparent huge pages
/// (where the system leaves that to `madvise`, as Debian does). It must
/// run before the memory is first written: a page already touched keeps
/// its 4 KiB backing. Small tables are left alone, and so is every other
/// system.
fn advise_huge_pages<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes < 2 * HUGE {
            return;
        }
        // SAFETY: `sysconf` only reads a constant of the system.
        let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => return,
        };
        let start = v.as_mut_ptr() as usize;
        let first = start.div_ceil(page) * page;
        let end = (start + bytes) / page * page;
        if end > first {
            // SAFETY: [first, end) is whole pages inside `v`'s own
            // allocation (rounded inwards), which stays alive and is not
            // moved during the call. MADV_HUGEPAGE changes only how the
            // kernel backs those pages, never their contents or whether
            // they may be accessed; if the kernel refuses (no THP
            // support), the call fails with no effect and we go on
            // with ordinary pages.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_with_huge_pages_and_prefetches_reads_back_what_it_stored() {
        // 8 MiB: large enough to be advised (the unsafe `madvise`), and
        // a prefetch of every key before its probe (the unsafe hint).
        let mut tt = TranspositionTable::new(8);
        tt.try_resize(8).unwrap();
        let keys: Vec<u64> = (1..5_000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.prefetch(k);
            tt.store(k, i as u16, i as i32, 0, 3, Bound::Exact);
        }
        for (i, &k) in keys.iter().enumerate() {
            tt.prefetch(k);
            assert_eq!(
                tt.probe(k).map(|h| (h.mv, h.score)),
                Some((i as u16, i as i32))
            );
        }
        // A prefetch of a bucket never written, and of the table's edges.
        tt.prefetch(0);
        tt.prefetch(u64::MAX);
        assert!(tt.probe(0).is_none());
    }

    #[test]
    fn a_table_too_big_is_refused_and_the_old_one_kept() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, 7, 100, 0, 5, Bound::Exact);
        // A mebibyte count no machine has (2^40 MB = 1 EiB).
        let err = tt.try_resize(1 << 40).unwrap_err();
        assert!(err.contains("1099511627776 MB"), "{err}");
        assert_eq!(tt.size_mb(), 1);
        assert_eq!(tt.probe(42).map(|h| h.mv), Some(7));
        tt.try_resize(2).unwrap();
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef_1234_5678, 0x1234, -31_990, 57, 12, Bound::Exact);
        let hit = tt.probe(0xdead_beef_1234_5678).expect("stored");
        assert_eq!(hit.mv, 0x1234);
        assert_eq!(hit.score, -31_990);
        assert_eq!(hit.eval, 57);
        assert_eq!(hit.depth, 12);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(0x1111).is_none());
    }

    #[test]
    fn negative_depths_and_clear() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 0, 10, -5, -3, Bound::Upper);
        assert_eq!(tt.probe(42).map(|h| h.depth), Some(-3));
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn keeps_move_when_storing_none() {
        let tt = TranspositionTable::new(1);
        tt.store(7, 99, 0, 0, 5, Bound::Lower);
        tt.store(7, 0, 3, 0, 6, Bound::Upper);
        assert_eq!(tt.probe(7).map(|h| h.mv), Some(99));
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                1,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
