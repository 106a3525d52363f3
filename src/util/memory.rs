//! Memory whose size the host chooses: the hash table (`USI_Hash`, `hayanagi_table_new`),
//! the mate solver's table (`MateHash`), book files and NNUE nets.
//!
//! Allocating such memory must never abort the host process, and on Linux an allocation
//! that succeeds can still kill it later: with overcommit, pages are only found when first
//! written, and by then the OOM killer is the only answer. So every host-sized allocation
//! follows one policy:
//!
//! 1. **Refuse what cannot fit.** A request above 7/8 of the memory available to this
//!    process is refused before anything is allocated. "Available" is the smallest of:
//!    the system's available memory (`MemAvailable` on Linux, the physical memory on other
//!    Unix systems), the room left under a cgroup memory limit (containers), and the
//!    address space left under `RLIMIT_AS`. The 1/8 kept back is for the host itself.
//! 2. **Allocate fallibly.** The allocator's failure is an error, never an abort.
//! 3. **Touch the pages in a way that fails cleanly.** On Linux the fresh, zeroed block is
//!    populated with `madvise(MADV_POPULATE_WRITE)`, which answers `ENOMEM` where memory
//!    cannot be had instead of faulting later in the search; kernels before 5.14 do not
//!    know the call, and their pages are faulted in lazily (step 1 still applies).
//!
//! A refused or failed request answers [`AllocError`], and the caller keeps what it had.

use std::alloc::Layout;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A host-sized allocation that was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// What the memory was for ("the hash table", ...).
    pub what: &'static str,
    /// The size asked for.
    pub bytes: u64,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate {} for {}: {}",
            format_size(self.bytes),
            self.what,
            self.reason
        )
    }
}

impl std::error::Error for AllocError {}

/// `bytes` in the largest unit that keeps it readable.
fn format_size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= MIB {
        format!("{} MiB", bytes.div_ceil(MIB))
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// The share of the available memory a single request may take (policy step 1).
fn allowed_share(available: u64) -> u64 {
    available - available / 8
}

/// How long a reading of the available memory may serve small requests.
const READING_LIFETIME: Duration = Duration::from_millis(100);

/// A request of at most this share (1/`SMALL_SHARE`) of the available memory counts as
/// small: a reading younger than [`READING_LIFETIME`] may answer for it.
const SMALL_SHARE: u64 = 64;

/// The last reading of [`available_bytes`] and when it was taken.
static LAST_READING: Mutex<Option<(Instant, Option<u64>)>> = Mutex::new(None);

/// The memory available for a request of `bytes`: a reading younger than
/// [`READING_LIFETIME`] when the request is at most 1/[`SMALL_SHARE`] of it (the mate
/// solver allocates a 256 KiB table per solve, and the reads of /proc and the cgroup files
/// cost more than a short solve), else a fresh one. For a small request to pass that a
/// fresh reading would refuse, the available memory must fall to about 1/56 of the
/// reading within that time; step 3 of the policy still answers for the pages themselves.
fn available_for(bytes: u64) -> Option<u64> {
    let mut last = LAST_READING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, reading)) = *last {
        let small = reading.is_none_or(|a| bytes <= a / SMALL_SHARE);
        if small && at.elapsed() < READING_LIFETIME {
            return reading;
        }
    }
    let reading = available_bytes();
    *last = Some((Instant::now(), reading));
    reading
}

/// Policy step 1: is a request of `bytes` small enough to try?
pub fn check_fits(bytes: u64, what: &'static str) -> Result<(), AllocError> {
    let Some(available) = available_for(bytes) else {
        return Ok(());
    };
    if bytes > allowed_share(available) {
        return Err(AllocError {
            what,
            bytes,
            reason: format!(
                "only {} of memory is available to this process (at most 7/8 of it is used \
                 for one request)",
                format_size(available)
            ),
        });
    }
    Ok(())
}

/// The memory this process may still use, as far as the system tells (None: unknown).
pub fn available_bytes() -> Option<u64> {
    [system_available(), cgroup_room(), address_space_room()]
        .into_iter()
        .flatten()
        .min()
}

#[cfg(target_os = "linux")]
fn system_available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(all(unix, not(target_os = "linux")))]
fn system_available() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && size > 0).then(|| pages as u64 * size as u64)
}

#[cfg(not(unix))]
fn system_available() -> Option<u64> {
    None
}

/// Room left under the memory limit of this process's cgroup (v2, else v1).
#[cfg(target_os = "linux")]
fn cgroup_room() -> Option<u64> {
    let read_u64 =
        |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (limit, usage) = if id == "0" && controllers.is_empty() {
            let dir = format!("/sys/fs/cgroup{path}");
            (
                read_u64(&format!("{dir}/memory.max")),
                read_u64(&format!("{dir}/memory.current")),
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            let dir = format!("/sys/fs/cgroup/memory{path}");
            (
                read_u64(&format!("{dir}/memory.limit_in_bytes")),
                read_u64(&format!("{dir}/memory.usage_in_bytes")),
            )
        } else {
            continue;
        };
        // "max" (v2) does not parse: no limit. v1 reports "no limit" as a huge number.
        if let (Some(limit), Some(usage)) = (limit, usage) {
            if limit < 1 << 60 {
                return Some(limit.saturating_sub(usage));
            }
        }
    }
    None
}

#[cfg(not(target_os = "linux"))]
fn cgroup_room() -> Option<u64> {
    None
}

/// Address space left under `RLIMIT_AS`.
#[cfg(target_os = "linux")]
fn address_space_room() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // The first field of /proc/self/statm is the address space in use, in pages.
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf only reads system configuration.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    // rlim_t is 32 bits wide on some targets.
    #[allow(clippy::unnecessary_cast)]
    let limit = limit.rlim_cur as u64;
    Some(limit.saturating_sub(pages * page))
}

#[cfg(not(target_os = "linux"))]
fn address_space_room() -> Option<u64> {
    None
}

/// Types for which all-zero bytes are a valid value (and the value a fresh table wants).
///
/// # Safety
/// Implement only for types whose every field is valid when all its bytes are zero.
pub unsafe trait Zeroable: Sized {}

// SAFETY: zero is a valid integer.
unsafe impl Zeroable for u64 {}
// SAFETY: zero is a valid integer.
unsafe impl Zeroable for i16 {}
// SAFETY: an array of zeroable values is zeroable.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A fixed-size, zero-initialised array allocated under the policy above.
pub struct ZeroedBuf<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the buffer owns its elements like a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for ZeroedBuf<T> {}
// SAFETY: shared access only hands out `&T`, as `Box<[T]>` does.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedBuf<T> {}

impl<T: Zeroable> ZeroedBuf<T> {
    /// `len` zeroed elements (at least one), or why not.
    pub fn new(len: usize, what: &'static str) -> Result<ZeroedBuf<T>, AllocError> {
        let len = len.max(1);
        let fail = |bytes: u64, reason: String| AllocError {
            what,
            bytes,
            reason,
        };
        let layout = Layout::array::<T>(len)
            .map_err(|_| fail(u64::MAX, "the size overflows the address space".into()))?;
        let bytes = layout.size() as u64;
        check_fits(bytes, what)?;
        let raw = if layout.size() == 0 {
            NonNull::<T>::dangling().as_ptr() as *mut u8
        } else {
            // SAFETY: the layout has a non-zero size.
            unsafe { std::alloc::alloc_zeroed(layout) }
        };
        let ptr = NonNull::new(raw as *mut T)
            .ok_or_else(|| fail(bytes, "the system refused the allocation".into()))?;
        let buf = ZeroedBuf { ptr, len };
        if let Err(e) = populate(raw, layout.size()) {
            // Dropping `buf` frees the block.
            return Err(fail(
                bytes,
                format!("the system cannot provide the pages ({e})"),
            ));
        }
        Ok(buf)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points at `len` initialised (zeroed, then written through
        // `DerefMut` only) elements owned by this buffer.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for ZeroedBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedBuf<T> {
    fn drop(&mut self) {
        let layout = Layout::array::<T>(self.len).expect("the layout was valid at allocation");
        if layout.size() != 0 {
            // SAFETY: allocated in `new` with this very layout, freed once. `T` needs no
            // drop of its own beyond its bytes (zeroable types hold no resources here).
            unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

/// Policy step 3: make the kernel back `len` bytes at `start` with real pages now.
#[cfg(target_os = "linux")]
fn populate(start: *mut u8, len: usize) -> Result<(), std::io::Error> {
    // Linux 5.14's MADV_POPULATE_WRITE; older libc crates may not name it.
    const MADV_POPULATE_WRITE: libc::c_int = 23;
    // SAFETY: sysconf only reads system configuration.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    // madvise wants whole pages: the ones that lie entirely inside the block.
    let first = (start as usize).div_ceil(page) * page;
    let end = (start as usize + len) / page * page;
    if end <= first {
        return Ok(());
    }
    // SAFETY: [first, end) lies inside the block we own; populating writes nothing visible
    // (the pages stay zero).
    let rc = unsafe { libc::madvise(first as *mut libc::c_void, end - first, MADV_POPULATE_WRITE) };
    if rc == 0 {
        return Ok(());
    }
    let err = std::io::Error::last_os_error();
    match err.raw_os_error() {
        // Kernels before 5.14 (and tools that emulate the kernel) do not know the advice:
        // the pages come lazily, as they always did there.
        Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EPERM) => Ok(()),
        _ => Err(err),
    }
}

#[cfg(not(target_os = "linux"))]
fn populate(_start: *mut u8, _len: usize) -> Result<(), std::io::Error> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_zeroed_and_writable() {
        let mut b: ZeroedBuf<[u64; 5]> = ZeroedBuf::new(1000, "a test buffer").unwrap();
        assert_eq!(b.len(), 1000);
        assert!(b.iter().all(|e| *e == [0; 5]));
        b[999][4] = 7;
        assert_eq!(b[999][4], 7);
    }

    #[test]
    fn a_request_beyond_any_memory_is_refused_with_a_reason() {
        // 2^60 bytes: more than any machine this runs on, and a valid layout.
        let e = ZeroedBuf::<u64>::new(1 << 57, "the hash table")
            .err()
            .expect("refused");
        assert_eq!(e.what, "the hash table");
        assert_eq!(e.bytes, 1 << 60);
        let text = e.to_string();
        assert!(text.starts_with("cannot allocate 1099511627776 MiB for the hash table: "));
    }

    #[test]
    fn an_overflowing_size_is_refused() {
        assert!(ZeroedBuf::<[u64; 5]>::new(usize::MAX / 8, "x").is_err());
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(format_size(1 << 20), "1 MiB");
        assert_eq!(format_size(1000), "1 KiB");
        assert_eq!(format_size(3 << 30), "3072 MiB");
    }
}
