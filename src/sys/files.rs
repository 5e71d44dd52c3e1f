//! Writing files so that nobody ever sees half of one, and building tables once when several
//! processes want them.
//!
//! Every file optcube replaces (tables, results, summaries) is written to a temporary file
//! `PATH.tmp-PID-NONCE` beside it, synced to disk, then renamed into place. A killed process
//! leaves at most a stray temporary file, never a short `PATH`. The writer holds an exclusive
//! `flock` on its temporary file from creation to rename, so a temporary file is stale exactly
//! when nobody holds its lock: the kernel drops the lock when the process ends, however it
//! ends. That test does not look at process ids, which are not unique across PID namespaces
//! (containers sharing a table directory). The next write of `PATH` removes stale ones
//! ([`stale_temporaries`]), and `optcube pdb verify` / `info` list them.
//!
//! [`BuildLock`] serializes the building of tables in one directory across processes: the
//! first builds, the others wait (saying for whom) and then load what it wrote.

use std::fs::File;
use std::io::{Read, Seek, Write};
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
    let (tmp, mut f) = locked_temporary(path)?;
    let result = (|| {
        write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A new temporary file beside `path`, locked. Another process's cleanup may take a file
/// between its creation and its lock (it is unlocked then) and remove it: the lock is then
/// held on a removed file, which the check after locking sees, and a new one is made.
fn locked_temporary(path: &Path) -> std::io::Result<(PathBuf, File)> {
    use std::os::unix::fs::MetadataExt;
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    loop {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() as u64);
        let nonce = nanos ^ (COUNTER.fetch_add(1, Ordering::Relaxed) << 32);
        let tmp = PathBuf::from(format!(
            "{}.tmp-{}-{nonce:x}",
            path.display(),
            std::process::id()
        ));
        let f = match File::create_new(&tmp) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            r => r?,
        };
        f.lock()?;
        let ours = f.metadata()?;
        match std::fs::metadata(&tmp) {
            Ok(m) if m.ino() == ours.ino() && m.dev() == ours.dev() => return Ok((tmp, f)),
            _ => continue,
        }
    }
}

/// The temporary files `FILE.tmp-…` in `dir` that no running process is writing (nobody holds
/// their lock): what a write killed midway (Ctrl-C during a table build) left behind. Sorted
/// by name.
pub fn stale_temporaries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.contains(".tmp-") && !is_locked(p)
        })
        .collect();
    out.sort();
    out
}

/// Whether some process holds the lock of the file at `p` (a file that cannot be opened is
/// taken as held: it is not ours to remove).
fn is_locked(p: &Path) -> bool {
    match File::open(p) {
        Ok(f) => matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)),
        Err(_) => true,
    }
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

/// The name of the lock file [`BuildLock`] takes in a table directory.
pub const BUILD_LOCK: &str = ".optcube-build.lock";

/// The right to build tables in one directory, held by one process at a time through an
/// exclusive `flock` on [`BUILD_LOCK`]. The kernel drops the lock when its process ends, so a
/// lock left by a killed process is free for the next one (which says it takes it over). The
/// file holds who builds, for the message of those who wait; it is emptied on release.
///
/// A thread that holds the lock takes it again at once: a build that opens more tables (and
/// would lock again) goes on under the lock it holds. Other threads of the same process wait
/// like other processes (each acquisition opens the file anew, and flock locks of different
/// open files conflict).
pub struct BuildLock {
    /// `None`: this thread already held the lock, or the directory takes no files (then
    /// nothing can be built there, and the build says why).
    file: Option<File>,
    dir: PathBuf,
}

thread_local! {
    /// The directories whose build lock this thread holds.
    static HELD: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl BuildLock {
    /// Takes the build lock of `dir` (created if missing) before building `what`. If another
    /// process holds it, `waiting` is told who (the holder's own words) and this call blocks
    /// until it is released.
    pub fn acquire(dir: &Path, what: &str, waiting: impl FnOnce(&str)) -> BuildLock {
        let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if HELD.with_borrow(|h| h.contains(&key)) {
            return BuildLock {
                file: None,
                dir: key,
            };
        }
        let opened = std::fs::create_dir_all(dir).and_then(|()| {
            File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(dir.join(BUILD_LOCK))
        });
        let Ok(mut f) = opened else {
            return BuildLock {
                file: None,
                dir: key,
            };
        };
        match f.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = read_holder(&mut f);
                waiting(if holder.is_empty() {
                    "another process"
                } else {
                    &holder
                });
                if f.lock().is_err() {
                    return BuildLock {
                        file: None,
                        dir: key,
                    };
                }
            }
            Err(std::fs::TryLockError::Error(_)) => {
                return BuildLock {
                    file: None,
                    dir: key,
                };
            }
        }
        let left = read_holder(&mut f);
        if !left.is_empty() {
            eprintln!(
                "taking over the table build lock of {}: {left} (it is gone)",
                dir.display()
            );
        }
        let me = format!(
            "process {} on {} (building {what} since {})",
            std::process::id(),
            hostname(),
            unix_seconds()
        );
        // The text only informs those who wait: a failed write leaves the lock as good.
        let _ = f.set_len(0).and_then(|()| {
            f.rewind()?;
            f.write_all(me.as_bytes())
        });
        HELD.with_borrow_mut(|h| h.push(key.clone()));
        BuildLock {
            file: Some(f),
            dir: key,
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        if let Some(f) = self.file.take() {
            // Emptied first: a file found with text in it was left by a process that died.
            let _ = f.set_len(0);
            HELD.with_borrow_mut(|h| h.retain(|d| d != &self.dir));
            drop(f); // closing the file releases the lock
        }
    }
}

/// What the lock file says of its holder (empty if nothing, or unreadable).
fn read_holder(f: &mut File) -> String {
    let mut s = String::new();
    let _ = f.rewind().and_then(|()| f.read_to_string(&mut s));
    s.trim().to_string()
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "this host".into())
}

fn unix_seconds() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("unix time {t}")
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

    /// A temporary file nobody holds the lock of is stale whatever its name says (a process id
    /// of this very process included: pid namespaces repeat them); one whose lock is held is
    /// not, and the next write of its file leaves it alone.
    #[test]
    fn stale_temporaries_are_found_and_removed() {
        let dir = std::env::temp_dir().join(format!("optcube-stale-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.pdb");
        let dead = dir.join(format!("t.pdb.tmp-{}-1", std::process::id()));
        std::fs::write(&dead, b"half").unwrap();
        // A writer in another namespace, with a live lock, and the same pid in its name.
        let live = dir.join(format!("t.pdb.tmp-{}-2", std::process::id()));
        std::fs::write(&live, b"in progress").unwrap();
        let writer = File::open(&live).unwrap();
        writer.lock().unwrap();
        assert_eq!(stale_temporaries(&dir), vec![dead.clone()]);
        write_atomic(&path, b"whole").unwrap();
        assert!(!dead.exists(), "the stale temporary was removed");
        assert!(live.exists(), "a locked temporary is never removed");
        drop(writer);
        assert_eq!(stale_temporaries(&dir), vec![live.clone()]);
        check_writable(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The build lock: one holder per directory across processes (a second open file
    /// description stands for another process: flock locks conflict between them), taken
    /// again within this process without blocking, released on drop and emptied; a lock file
    /// left with text is taken over.
    #[test]
    fn the_build_lock_is_held_once() {
        let dir = std::env::temp_dir().join(format!("optcube-lock-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let lock = BuildLock::acquire(&dir, "corners", |_| panic!("nobody holds it"));
        let path = dir.join(BUILD_LOCK);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        assert!(text.contains("building corners"), "{text}");
        let other = File::open(&path).unwrap();
        assert!(other.try_lock().is_err(), "held across open files");
        // Again in this thread (a build that opens more tables): no wait, no deadlock.
        let inner = BuildLock::acquire(&dir, "edges6a", |_| panic!("held by this thread"));
        drop(inner);
        assert!(
            other.try_lock().is_err(),
            "the inner guard does not release it"
        );
        drop(lock);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        other.try_lock().unwrap();
        drop(other);
        // Text left behind by a holder that died: taken over, not waited for.
        std::fs::write(&path, "process 1 on elsewhere (building x)").unwrap();
        let lock = BuildLock::acquire(&dir, "corners", |_| panic!("nobody holds it"));
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
