//! Large tables derived from another table (the corner successor words from the corner
//! table, the coset solver's phase-1 masks from the phase-1 table), kept in a table file beside
//! their source so that a process reads them in a fraction of a second instead of deriving
//! them for seconds (5 s and 24 s on 2 cores).
//!
//! Invariant: a derived file is only ever read for the very source it was derived from. Its
//! table name, which the header must match ([`super::file`]), is `NAME-CHECKSUM` with the
//! source payload's XXH3 checksum, and its version is the derivation's own; the file is
//! `NAME-CHECKSUM.pdb`. So a source rebuilt differently, or a changed derivation (whose
//! version is then bumped), looks for another file and never reads a stale one. A damaged file
//! is refused like any table file, naming it. The values are the machine's words as they lie
//! in memory, so files are only read and written on little-endian machines.
//!
//! The file is a cache: when it cannot be written (a read-only directory, a full disk) the
//! derived table is used all the same, and the caller is told why it was not kept.

use std::path::{Path, PathBuf};

use super::file::{Packing, TableError, TableKind, checksum, open_or_build, save_payload};
use super::header::io_err;
use super::huge::{FrozenArray, Plain};
use crate::cube::Metric;

/// What a derived table is: its name (the file's, before the source checksum), the version of
/// its derivation, its length in values of `T`, and a command that derives it again in `{dir}`
/// (for the advice of a damaged file's error).
pub struct Derived {
    pub name: &'static str,
    pub version: u32,
    pub len: usize,
    pub rebuild: &'static str,
}

/// Where a table of [`open_or_derive`] came from.
#[derive(Debug)]
pub enum Origin {
    /// Read from its file.
    Read,
    /// Derived and kept in this file.
    Saved(PathBuf),
    /// Derived; keeping it failed, for this reason (it is derived again next time).
    NotSaved(String),
}

/// How a reporter says it: "read", "derived and kept in FILE", "derived (not kept: WHY)".
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Read => write!(f, "read"),
            Origin::Saved(path) => write!(f, "derived and kept in {}", path.display()),
            Origin::NotSaved(why) => write!(f, "derived (not kept: {why})"),
        }
    }
}

/// The file kind of `what` derived from a source whose payload is `source`.
fn kind<T>(what: &Derived, source: &[u8]) -> TableKind {
    let source = checksum(source);
    TableKind {
        name: format!("{}-{source}", what.name),
        version: what.version,
        pieces: format!("derived from a table with checksum {source}"),
        entries: what.len as u64,
        packing: Packing::Bits(8 * size_of::<T>() as u32),
        rebuild: what.rebuild.into(),
        metric: Metric::Htm,
    }
}

/// The table `what` derived from the table whose payload is `source`: read from its file in
/// `dir` (checked: header, size, checksum), or else computed by `derive` and written there
/// (atomically; one process derives while others wait for it, as table builds do).
/// Without `dir`, or on a big-endian machine, `derive` is simply called.
///
/// # Errors
/// A file that is there but damaged or unreadable: it is refused, never replaced silently.
pub fn open_or_derive<T: Plain, D: FnOnce() -> std::io::Result<FrozenArray<T>>>(
    dir: Option<&Path>,
    what: &Derived,
    source: &[u8],
    derive: D,
) -> Result<(FrozenArray<T>, Origin), TableError> {
    let unkept = |why: &str, derive: D| -> Result<_, TableError> {
        let array = derive().map_err(io_err(dir.unwrap_or(Path::new("."))))?;
        Ok((array, Origin::NotSaved(why.into())))
    };
    let Some(dir) = dir else {
        return unkept("no table directory", derive);
    };
    if cfg!(target_endian = "big") {
        return unkept("kept only on little-endian machines", derive);
    }
    let kind = kind::<T>(what, source);
    let mut tables = open_or_build(
        dir,
        std::slice::from_ref(&kind),
        |path, kind| {
            let (map, _) = super::file::load_in_huge_pages(path, kind)?;
            Ok((FrozenArray::from_map(map, what.len), Origin::Read))
        },
        |_missing| -> Result<_, TableError> {
            let path = super::file::table_path(dir, &kind.name);
            let array = derive().map_err(io_err(&path))?;
            let origin = match save_payload(&path, &kind, array.as_bytes(), vec![], "derived") {
                Ok(_) => {
                    remove_stale(dir, what.name, &path);
                    Origin::Saved(path)
                }
                Err(e) => Origin::NotSaved(e.to_string()),
            };
            Ok(vec![(array, origin)])
        },
    )?;
    Ok(tables.pop().expect("one table"))
}

/// Removes the files of `name` derived from other sources than the one just kept at `kept`:
/// a directory holds one source of each derived table (one `corners.pdb`, one
/// `twophase-phase1.pdb`), so they can never be read again, and each is hundreds of MB.
/// Best effort: a file that cannot be removed only costs disk space.
fn remove_stale(dir: &Path, name: &str, kept: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
        let checksum = file.as_deref().and_then(|f| {
            f.strip_prefix(name)?
                .strip_prefix('-')?
                .strip_suffix(".pdb")
                .map(str::to_string)
        });
        // Only NAME-CHECKSUM.pdb itself: not a temporary file or a packed copy.
        if checksum.is_some_and(|c| c.len() == 16 && c.bytes().all(|b| b.is_ascii_hexdigit()))
            && path != kept
        {
            let _ = std::fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::huge::HugeArray;

    fn squares(n: usize, calls: &mut u32) -> std::io::Result<FrozenArray<u64>> {
        *calls += 1;
        let mut a = HugeArray::<u64>::zeroed(n)?;
        for (i, x) in a.iter_mut().enumerate() {
            *x = (i * i) as u64;
        }
        a.freeze()
    }

    /// Derived once, then read back equal; another source derives again and its file replaces
    /// the first; a damaged file is refused with its name.
    #[test]
    fn derived_tables_are_kept_per_source_and_checked() {
        let dir = crate::testing::temp_dir("derived");
        let what = Derived {
            name: "squares",
            version: 1,
            len: 1000,
            rebuild: "optcube squares --dir {dir}",
        };
        let mut calls = 0;
        let (a, o) =
            open_or_derive(Some(&dir), &what, b"one", || squares(1000, &mut calls)).unwrap();
        assert!(matches!(o, Origin::Saved(_)), "{o:?}");
        let (b, o) =
            open_or_derive(Some(&dir), &what, b"one", || squares(1000, &mut calls)).unwrap();
        assert!(matches!(o, Origin::Read), "{o:?}");
        assert_eq!(calls, 1);
        assert_eq!(&a[..], &b[..]);
        // Files that are not another source's copy of this table stay.
        let others = [
            "squares2-0123456789abcdef.pdb",
            "squares-old.pdb",
            "notes.txt",
        ];
        for f in others {
            std::fs::write(dir.join(f), b"x").unwrap();
        }
        let (_, o) =
            open_or_derive(Some(&dir), &what, b"two", || squares(1000, &mut calls)).unwrap();
        assert!(others.iter().all(|f| dir.join(f).exists()));
        assert!(matches!(o, Origin::Saved(_)), "{o:?}");
        assert_eq!(calls, 2);
        // The file of the other source is gone (never to be read again); this one is kept.
        let path =
            |source: &[u8]| super::super::file::table_path(&dir, &kind::<u64>(&what, source).name);
        assert!(!path(b"one").exists() && path(b"two").exists());
        let path = path(b"two");
        let mut bytes = std::fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let err = open_or_derive(Some(&dir), &what, b"two", || squares(1000, &mut calls))
            .err()
            .expect("a damaged file is refused");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert_eq!(calls, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
