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
///
/// Only a regular file is replaced. A symbolic link is followed: what it points to is written
/// (atomically, beside the link's target), and the link stays. A device, a FIFO or a socket is
/// written through, opened as it is (not atomic: such a file has nothing to replace); a
/// directory is an error. So `--out /dev/null` discards, and a link into another disk writes
/// there.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let target = resolve_links(path);
    let path = target.as_path();
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{} is a directory", path.display()),
            ));
        }
        Ok(m) if !m.is_file() => {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            return write(&mut f).and_then(|()| f.flush());
        }
        _ => {}
    }
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

/// `path` with its symbolic links followed to the last one's target (which may not exist yet);
/// `path` itself when it is no link. Stops after 40 links, as the kernel does.
fn resolve_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(t) if t.is_absolute() => p = t,
            Ok(t) => p = p.parent().map_or(t.clone(), |d| d.join(&t)),
            Err(_) => break,
        }
    }
    p
}

/// Checks an output path a user named before the work that fills it, so that no result is
/// computed only to be lost to a bad path: its directory must exist (nothing is created behind
/// the user's back) and it must not be a directory. A symbolic link is judged by its target; a
/// device or a FIFO is fine (written through by [`replace_with`]). The message names the path.
pub fn check_output(path: &Path) -> Result<(), String> {
    let target = resolve_links(path);
    let shown = if target == path {
        path.display().to_string()
    } else {
        format!("{} (a link to {})", path.display(), target.display())
    };
    match std::fs::metadata(&target) {
        Ok(m) if m.is_dir() => Err(format!("{shown} is a directory, not a file")),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => Ok(()),
                Ok(_) => Err(format!("{shown}: {} is not a directory", dir.display())),
                Err(_) => Err(format!(
                    "{shown}: the directory {} does not exist (create it first)",
                    dir.display()
                )),
            }
        }
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// Writes `bytes` to an output path a user named: checked as [`check_output`] does (its
/// directory is never created), then written as [`replace_with`] writes (a regular file
/// replaced atomically; links followed; devices and FIFOs written through).
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), String> {
    check_output(path)?;
    write_atomic(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
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
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    /// A device, a FIFO and a symbolic link at an output path are left as they were, each
    /// written through; a directory and a missing directory are refused before any work
    /// (issue 104, trap 2: all were replaced by a regular file, or created).
    #[test]
    fn output_paths_that_are_not_regular_files_are_written_through_never_replaced() {
        let dir = std::env::temp_dir().join(format!("optcube-special-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        // A FIFO, its reader opened first (read-write, so that neither open blocks) and read
        // after the write: what the pipe holds is what went through it.
        let fifo = dir.join("fifo");
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c(&fifo).as_ptr(), 0o600) }, 0);
        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        write_output(&fifo, b"through the fifo").unwrap();
        let mut through = vec![0; 64];
        let n = reader.read(&mut through).unwrap();
        assert_eq!(&through[..n], b"through the fifo");
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        // A character device like /dev/null (1, 3), made here where the process may (root in
        // CI); a link in the temporary directory to /dev/null otherwise stands in for it.
        let null = dir.join("null");
        let dev = libc::makedev(1, 3);
        // SAFETY: a valid C string; mknod has no other preconditions.
        let made = unsafe { libc::mknod(c(&null).as_ptr(), libc::S_IFCHR | 0o666, dev) } == 0;
        if !made {
            std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        }
        write_output(&null, b"discarded").unwrap();
        let ty = std::fs::symlink_metadata(&null).unwrap().file_type();
        assert!(if made {
            ty.is_char_device()
        } else {
            ty.is_symlink()
        });
        assert!(
            std::fs::metadata(&null)
                .unwrap()
                .file_type()
                .is_char_device()
        );
        // A link to a regular file: the file is replaced, the link stays a link.
        let file = dir.join("file.txt");
        std::fs::write(&file, b"old").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink("file.txt", &link).unwrap();
        write_output(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        // A dangling link: its target is created.
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink("made.txt", &dangling).unwrap();
        write_output(&dangling, b"made").unwrap();
        assert!(
            std::fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(dir.join("made.txt")).unwrap(), b"made");
        // Refused, before any work: a directory, and a directory that does not exist.
        assert!(check_output(&dir).unwrap_err().contains("is a directory"));
        let missing = dir.join("no").join("such").join("out.csv");
        assert!(
            check_output(&missing)
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(write_output(&missing, b"x").is_err());
        assert!(!dir.join("no").exists(), "a directory was created");
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
