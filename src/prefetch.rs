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

/// The memory of a table, as plain addresses (for [`populate_while`]).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub struct PageRange {
    start: usize,
    bytes: usize,
}

impl PageRange {
    /// The memory `items` occupies.
    pub fn of<T>(items: &[T]) -> PageRange {
        PageRange {
            start: items.as_ptr() as usize,
            bytes: std::mem::size_of_val(items),
        }
    }
}

/// Bytes the helper of [`populate_while`] asks for at a time (it looks for
/// the end of the work between two, so the work's caller usually waits for
/// one huge page at most; a system that compacts memory to find it can take
/// longer).
#[cfg(target_os = "linux")]
const POPULATE_CHUNK: usize = HUGE_PAGE_BYTES;

/// The bytes from the start of `range` the helper may populate: at most
/// half of the memory the system has free (`page` bytes a page), so a
/// table larger than the machine's memory is never committed whole.
#[cfg(target_os = "linux")]
fn populate_limit(range: PageRange, page: usize) -> usize {
    // SAFETY: sysconf only reads a system parameter.
    let free_pages = unsafe { libc::sysconf(libc::_SC_AVPHYS_PAGES) };
    range.bytes.min(free_pages.max(0) as usize / 2 * page)
}

/// Faults in the pages of `range` (at most half of the system's free
/// memory) chunk by chunk while `go_on()` holds, as a write would, without
/// touching their contents. Stops at the first refusal (kernels before
/// 5.14).
#[cfg(target_os = "linux")]
fn populate_range(range: PageRange, mut go_on: impl FnMut() -> bool) {
    // SAFETY: sysconf only reads a system parameter.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as usize;
    let limit = populate_limit(range, page);
    if limit == 0 {
        return;
    }
    let end = range.start + limit;
    // madvise wants a page-aligned start: the page holding the first byte
    // belongs to the same mapping.
    let mut at = range.start - range.start % page;
    while at < end && go_on() {
        let len = POPULATE_CHUNK.min(end - at);
        // SAFETY: MADV_POPULATE_WRITE only faults in the pages of the range
        // as a write would, without touching their contents; the call
        // cannot change memory the program sees, whoever owns it.
        let r = unsafe { libc::madvise(at as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) };
        if r != 0 {
            break;
        }
        at += len;
    }
}

/// Faults in the pages of `range` now, on this thread (see
/// [`populate_while`]): the cost of zeroing them is paid here rather than
/// by whoever touches them first. Without Linux it does nothing.
pub fn populate(range: PageRange) {
    #[cfg(target_os = "linux")]
    populate_range(range, || true);
    #[cfg(not(target_os = "linux"))]
    let _ = range;
}

/// Runs `work` while another thread has the system back `range` with pages,
/// front to back, a chunk at a time, from `delay` after the start until it
/// is done or `work` returns (a delay spares short work, which touches only
/// the pages it needs, from having the others zeroed). The system zeroes a
/// page when it is first touched (about 1.2 s per 512 MiB on the project's
/// VM); a search that spreads its keys over a large table pays that on its
/// own thread unless the pages are there first. Nothing is read or written:
/// populating keeps the contents of the pages already there. Without Linux
/// (or on kernels before 5.14, which refuse the request) `work` just runs.
pub fn populate_while<R>(
    range: PageRange,
    delay: std::time::Duration,
    work: impl FnOnce() -> R,
) -> R {
    #[cfg(target_os = "linux")]
    {
        use std::sync::mpsc::{RecvTimeoutError, TryRecvError, channel};
        let (running, stopped) = channel::<()>();
        std::thread::scope(|s| {
            let helper = move || {
                // Nothing is ever sent: the work's end drops the sender.
                if stopped.recv_timeout(delay) != Err(RecvTimeoutError::Timeout) {
                    return;
                }
                populate_range(range, || stopped.try_recv() == Err(TryRecvError::Empty));
            };
            // Without a thread the work just runs (and pays the zeroing).
            let spawned = std::thread::Builder::new().spawn_scoped(s, helper);
            let r = work();
            drop(running);
            drop(spawned);
            r
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (range, delay);
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn populating_keeps_the_contents_and_returns_the_work() {
        // 40 MiB: more than two chunks, partly written before.
        let mut words = vec![0u64; 5 << 20];
        for (i, w) in words.iter_mut().enumerate().step_by(4099) {
            *w = i as u64 ^ 0x9e37_79b9;
        }
        let range = PageRange::of(&words);
        let sum = populate_while(range, std::time::Duration::ZERO, || {
            // Long enough for the helper to populate while the work reads.
            std::thread::sleep(std::time::Duration::from_millis(50));
            words.iter().fold(0u64, |a, &w| a ^ w)
        });
        let expected = (0..words.len())
            .step_by(4099)
            .fold(0u64, |a, i| a ^ (i as u64 ^ 0x9e37_79b9));
        assert_eq!(sum, expected);
        for (i, &w) in words.iter().enumerate() {
            let want = if i % 4099 == 0 {
                i as u64 ^ 0x9e37_79b9
            } else {
                0
            };
            assert_eq!(w, want, "word {i}");
        }
    }
}
