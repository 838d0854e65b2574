//! Hints for large hash tables: bring the line of an entry that will be
//! read soon into the cache while other work goes on, and back a table with
//! huge pages.

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

/// Bytes of a huge page.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Asks the system to back the whole huge pages within `items` with huge
/// pages where it can (a probe of a large table otherwise misses the TLB
/// nearly every time, and touching it first faults once per 4 KiB page).
pub fn ask_for_huge_pages<T>(items: &[T]) {
    #[cfg(target_os = "linux")]
    {
        let start = items.as_ptr() as usize;
        let end = start + std::mem::size_of_val(items);
        let from = start.next_multiple_of(HUGE_PAGE_BYTES);
        let to = end / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if to > from {
            // SAFETY: the range lies within `items`' allocation, and
            // MADV_HUGEPAGE changes neither its contents nor its mapping,
            // only the size of the pages that will back it.
            unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = items;
}
