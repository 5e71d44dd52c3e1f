//! Writing files so that nobody ever sees half of one: every file optcube replaces (tables,
//! results, summaries) is written to `PATH.tmp-PID` beside it, synced to disk, then renamed
//! into place. A killed process leaves at most a stray temporary file, never a short `PATH`.

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
}
