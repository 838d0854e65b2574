//! A cache hint for hash tables: bring the line of an entry that will be
//! read soon into the cache while other work goes on.

/// Asks the CPU to bring the cache line holding `item` into the cache. A
/// hint only: it changes nothing and costs nothing where the CPU has no
/// such instruction.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: the pointer comes from a live reference; a prefetch only
        // hints the cache, never faults and writes no memory (SSE, part of
        // every x86-64 CPU).
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
