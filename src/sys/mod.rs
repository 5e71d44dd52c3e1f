//! The bottom layer: what the engine asks of the operating system. Atomic file writes
//! ([`files`]), and probes of the machine — available memory, free disk space, the number of
//! cores — so that a long build or search can refuse to start, with a clear message, when it
//! would not fit.
//!
//! Nothing here knows about cubes or tables; every other module may use it.

pub mod files;

use std::path::Path;

/// MemAvailable from /proc/meminfo, in bytes (`None` where the kernel does not say).
pub fn available_memory() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process so far (VmHWM from /proc/self/status), in bytes.
pub fn peak_memory_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Bytes free for an unprivileged user on the file system that holds `dir`.
pub fn free_disk(dir: &Path) -> Option<u64> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: c is a valid C string and st a valid out-pointer.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    (rc == 0).then(|| st.f_bavail as u64 * st.f_frsize as u64)
}

/// The number of cores this process may run on (at least 1): the default thread count.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The largest thread count a command accepts: four a core, or 64 on a small machine. More
/// only contend for the cores, and a typo such as 100000 would start them all.
pub fn max_threads() -> usize {
    (4 * cores()).max(64)
}

/// Checks a requested thread count (from 1 to [`max_threads`]); the error says why not.
pub fn check_threads(n: usize) -> Result<usize, String> {
    match n {
        0 => Err("at least 1 thread is needed".into()),
        n if n > max_threads() => Err(format!(
            "{n} threads is more than this machine can use (at most {}: four a core, or 64; it has {} cores)",
            max_threads(),
            cores()
        )),
        n => Ok(n),
    }
}

/// The one thread model of every request (a search, a build, a coset, a study; the command
/// line and Python alike): the thread count asked, checked ([`check_threads`]), or every core
/// when none was asked.
pub fn threads(asked: Option<usize>) -> Result<usize, String> {
    asked.map_or_else(|| Ok(cores()), check_threads)
}

/// A rayon pool of `n` workers, `n` checked first ([`check_threads`]): the one way the command
/// line and the Python module start the threads of a build or a search.
pub fn thread_pool(n: usize) -> Result<rayon::ThreadPool, String> {
    let n = check_threads(n)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_answer_on_this_machine() {
        assert!(cores() >= 1);
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(max_threads()), Ok(max_threads()));
        assert!(check_threads(0).is_err());
        assert_eq!(thread_pool(2).unwrap().current_num_threads(), 2);
        assert!(thread_pool(0).unwrap_err().contains("at least 1"));
        let e = check_threads(100_000).unwrap_err();
        assert!(e.contains("100000 threads") && e.contains("at most"), "{e}");
        if let Some(m) = available_memory() {
            assert!(m > 0);
        }
        let free = free_disk(Path::new(".")).expect("statvfs of the working directory");
        assert!(free > 0);
        assert!(free_disk(Path::new("/no/such/dir/anywhere")).is_none());
    }
}
