//! Writing files so that nobody ever sees half of one: every file optcube replaces (tables,
//! results, summaries) is written to `PATH.tmp-PID` beside it, synced to disk, then renamed
//! into place. A killed process leaves at most a stray temporary file, never a short `PATH`;
//! the next write of `PATH` removes those whose process is gone ([`stale_temporaries`]), and
//! `optcube pdb verify` / `info` list them.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Replaces `path` with what `write` writes into a fresh file, atomically. Creates the parent
/// directory. On failure the temporary file is removed and `path` is untouched.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    for stale in stale_temporaries_of(path) {
        let _ = std::fs::remove_file(stale);
    }
    let tmp = PathBuf::from(format!("{}.tmp-{}", path.display(), std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The temporary files `FILE.tmp-PID` in `dir` whose process `PID` is no longer running: what
/// a write killed midway (Ctrl-C during a table build) left behind. Sorted by name.
pub fn stale_temporaries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.rsplit_once(".tmp-")
                .and_then(|(_, pid)| pid.parse::<u32>().ok())
                .is_some_and(|pid| !process_alive(pid))
        })
        .collect();
    out.sort();
    out
}

/// [`stale_temporaries`] of one file.
fn stale_temporaries_of(path: &Path) -> Vec<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let prefix = format!(
        "{}.tmp-",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    stale_temporaries(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .collect()
}

/// Whether a process with this id runs (or exists under another user).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Checks that files can be created in `dir` (made if missing) before a long computation
/// writes there: creates and removes a probe file.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".optcube-write-probe-{}", std::process::id()));
    File::create(&probe)?;
    std::fs::remove_file(&probe)
}

/// Replaces `path` with `bytes`, atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    replace_with(path, |f| f.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("optcube-files-test-{}", std::process::id()));
        let path = dir.join("sub").join("x.txt");
        write_atomic(&path, b"first").unwrap();
        let err = replace_with(&path, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("stop"))
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "temporary file left behind");
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A temporary left by a process that is gone is found, and the next write of its file
    /// removes it; one of a running process (this one) is neither.
    #[test]
    fn stale_temporaries_are_found_and_removed() {
        let dir = std::env::temp_dir().join(format!("optcube-stale-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.pdb");
        // Process ids are below 2^22 on Linux: this one is never running.
        let dead = dir.join("t.pdb.tmp-4194999");
        let live = dir.join(format!("u.pdb.tmp-{}", std::process::id()));
        std::fs::write(&dead, b"half").unwrap();
        std::fs::write(&live, b"in progress").unwrap();
        assert_eq!(stale_temporaries(&dir), vec![dead.clone()]);
        write_atomic(&path, b"whole").unwrap();
        assert!(!dead.exists(), "the stale temporary was removed");
        assert!(live.exists());
        assert!(stale_temporaries(&dir).is_empty());
        check_writable(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
