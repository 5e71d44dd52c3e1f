//! The one table file format, and loading, verifying, packing tables.
//!
//! A file `NAME.pdb` is a 4096-byte header ([`super::header`]: what the table is, its depth
//! histogram and the payload's checksum) followed by the payload (the table's bytes), so the
//! payload is page-aligned and can be memory-mapped.
//!
//! Files are written to a locked temporary `NAME.pdb.tmp-…` and renamed into place after `fsync`
//! ([`crate::sys::files`]), so a killed build never leaves a file that looks complete. Missing
//! tables are built under the directory's build lock, so concurrent processes build each once. Loading checks magic, format, pattern, pattern
//! version, size and checksum, and refuses anything else with an error naming the file and what
//! is wrong. `NAME.pdb.zst` (zstd) copies move tables between machines; a table whose `.pdb` is
//! missing is read from its `.zst` copy transparently (decompressed into memory).
//!
//! Loading either maps the file ([`load`], [`load_payload`]: listings and checks) or reads the
//! payload straight into the memory that keeps it ([`load_in_memory`] for the search's huge-page
//! tables, [`load_vec`] for the other solvers' tables), checked there, so that a table is never
//! resident twice while it loads.

pub use super::header::{
    FORMAT_VERSION, HEADER_LEN, Packing, TableError, TableInfo, TableKind, checksum, describe,
    rebuild_hint,
};
use super::header::{header_bytes, io_err, parse_header, verify_checksum};
use crate::pdb::family::Pattern;
use crate::pdb::table::{NibbleTable, bytes_in_huge_pages, copy_to_huge_pages};
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The file of the table named `name` (a pattern's, or a solver table's) inside `dir`:
/// `NAME.pdb`, the one naming rule of every table file.
pub fn table_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.pdb"))
}

/// The one "open what exists, build what is missing, save" flow of every table set (the
/// optimal solver's patterns, the two-phase and Thistlethwaite tables). Creates `dir`; reads
/// each present file of `kinds` into memory with `load`, which checks it (header, size,
/// checksum) once; hands the indices of the tables still missing to `build`, which builds and
/// saves them and returns them. Tables come back in the order of `kinds`.
///
/// A file that is present but cannot be used (damaged, truncated, stale, another table's) is
/// an error naming it, what is wrong and the command that rebuilds it, before anything is
/// built; the file is kept. Replacing it is `optcube pdb build`'s job, which says so.
pub fn open_or_build<T, E: From<TableError>>(
    dir: &Path,
    kinds: &[TableKind],
    mut load: impl FnMut(&Path, &TableKind) -> Result<T, TableError>,
    build: impl FnOnce(&[usize]) -> Result<Vec<T>, E>,
) -> Result<Vec<T>, E> {
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut tables: Vec<Option<T>> = (0..kinds.len()).map(|_| None).collect();
    // Load what exists first, so a bad file is reported before any slow build.
    let mut load_present = |tables: &mut Vec<Option<T>>| -> Result<(), TableError> {
        for (i, kind) in kinds.iter().enumerate() {
            let path = table_path(dir, &kind.name);
            if tables[i].is_none() && is_present(&path)? {
                tables[i] = Some(load(&path, kind)?);
            }
        }
        Ok(())
    };
    load_present(&mut tables)?;
    let mut missing: Vec<usize> = (0..kinds.len()).filter(|&i| tables[i].is_none()).collect();
    // One process builds, others wait for it and then load what it wrote.
    let _lock = (!missing.is_empty()).then(|| {
        let names: Vec<&str> = missing.iter().map(|&i| kinds[i].name.as_str()).collect();
        build_lock(dir, &names.join(", "))
    });
    if !missing.is_empty() {
        load_present(&mut tables)?;
        missing.retain(|&i| tables[i].is_none());
    }
    if !missing.is_empty() {
        let built = build(&missing)?;
        assert_eq!(
            built.len(),
            missing.len(),
            "one table built for each missing one"
        );
        for (i, t) in missing.into_iter().zip(built) {
            tables[i] = Some(t);
        }
    }
    Ok(tables
        .into_iter()
        .map(|t| t.expect("loaded or built"))
        .collect())
}

/// The right to build `what` in `dir` ([`crate::sys::files::BuildLock`]); while another
/// process builds there, says on stderr that this one waits, and for whom.
pub fn build_lock(dir: &Path, what: &str) -> crate::sys::files::BuildLock {
    crate::sys::files::BuildLock::acquire(dir, what, |holder| {
        eprintln!(
            "waiting for {holder} to finish in {}; then this process loads what it needs \
             from there: {what}",
            dir.display()
        )
    })
}

/// The zstd copy's path of a table file.
pub fn packed_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".zst");
    PathBuf::from(s)
}

/// Writes a pattern database to `path` atomically (temporary file, fsync, rename).
pub fn save(
    path: &Path,
    pattern: Pattern,
    table: &NibbleTable,
    generator: &str,
) -> Result<TableInfo, TableError> {
    let histogram = table.histogram();
    let format = pattern.file_format(&histogram);
    let lines;
    let payload = if table.format() == format {
        // Built in its file form already (`sym48eK`).
        table.bytes()
    } else if let crate::pdb::Format::Lines { base } = format {
        lines = table.to_lines(base);
        &lines[..]
    } else {
        panic!(
            "{}: a {:?} table saved as nibbles",
            pattern.name(),
            table.format()
        )
    };
    let kind = pattern.into();
    check_payload_len(&kind, payload);
    let mut info = describe(&kind, payload, histogram, generator);
    // The base is written, not derived again on loading: a later rule for choosing it must
    // not misread an older file.
    if let crate::pdb::Format::Lines { base } = format {
        info.line_base = Some(base);
    }
    write_table(path, &info, payload)
}

fn check_payload_len(kind: &TableKind, payload: &[u8]) {
    assert_eq!(
        payload.len() as u64,
        kind.payload_bytes(),
        "{}: payload size",
        kind.name
    );
}

pub(super) fn write_table(
    path: &Path,
    info: &TableInfo,
    payload: &[u8],
) -> Result<TableInfo, TableError> {
    crate::sys::files::replace_with(path, |f| {
        f.write_all(&header_bytes(info))?;
        f.write_all(payload)
    })
    .map_err(io_err(path))?;
    Ok(info.clone())
}

/// Writes any table's payload to `path` atomically (temporary file, fsync, rename).
pub fn save_payload(
    path: &Path,
    kind: &TableKind,
    payload: &[u8],
    histogram: Vec<u64>,
    generator: &str,
) -> Result<TableInfo, TableError> {
    check_payload_len(kind, payload);
    write_table(
        path,
        &describe(kind, payload, histogram, generator),
        payload,
    )
}

/// A checked table payload: mapped from its file, or decompressed into memory.
pub enum Payload {
    Mapped(memmap2::Mmap),
    Heap(Vec<u8>),
}

impl Payload {
    /// The payload bytes (after the header).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Payload::Mapped(m) => &m[HEADER_LEN..],
            Payload::Heap(v) => v,
        }
    }
}

/// Loads and checks the table `kind` from `path` (memory-mapped), or from its `.zst` copy when
/// `path` does not exist.
pub fn load_payload(path: &Path, kind: &TableKind) -> Result<(Payload, TableInfo), TableError> {
    if let Some(packed) = packed_instead(path) {
        let (payload, info) = load_packed(&packed, kind)?;
        return Ok((Payload::Heap(payload), info));
    }
    let file = File::open(path).map_err(io_err(path))?;
    let len = file.metadata().map_err(io_err(path))?.len();
    // SAFETY: the file is opened read-only; optcube replaces table files only by rename, so a
    // mapped file is never modified in place by us.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err(path))?;
    let info = parse_header(path, &map[..map.len().min(HEADER_LEN)], len, kind, false)?;
    verify_checksum(path, &info, &map[HEADER_LEN..], kind)?;
    Ok((Payload::Mapped(map), info))
}

/// The packed copy to read instead of `path`: the one that exists when `path` does not.
fn packed_instead(path: &Path) -> Option<PathBuf> {
    let packed = packed_path(path);
    (!path.exists() && packed.exists()).then_some(packed)
}

/// Decompresses the packed table file `packed` and checks it; returns its payload.
fn load_packed(packed: &Path, kind: &TableKind) -> Result<(Vec<u8>, TableInfo), TableError> {
    let file = File::open(packed).map_err(io_err(packed))?;
    let mut bytes = Vec::new();
    zstd::stream::read::Decoder::new(file)
        .and_then(|mut d| d.read_to_end(&mut bytes))
        .map_err(io_err(packed))?;
    let header = &bytes[..bytes.len().min(HEADER_LEN)];
    let info = parse_header(packed, header, bytes.len() as u64, kind, false)?;
    let payload = bytes.split_off(HEADER_LEN);
    verify_checksum(packed, &info, &payload, kind)?;
    Ok((payload, info))
}

/// Is the table at `path` there, as the file itself or as its packed copy?
pub fn is_present(path: &Path) -> Result<bool, TableError> {
    let exists = |p: &Path| {
        p.try_exists().map_err(|source| TableError::Io {
            path: p.to_path_buf(),
            source,
        })
    };
    Ok(exists(path)? || exists(&packed_path(path))?)
}

/// Loads and checks the pattern database of `pattern` from `path` (see [`load_payload`]).
pub fn load(path: &Path, pattern: Pattern) -> Result<(NibbleTable, TableInfo), TableError> {
    let (payload, info) = load_payload(path, &pattern.into())?;
    let format = info.format();
    let table = match payload {
        Payload::Mapped(map) => NibbleTable::from_mmap(map, HEADER_LEN, pattern.entries(), format),
        Payload::Heap(bytes) if format == crate::pdb::Format::Nibbles => {
            NibbleTable::from_bytes(bytes, pattern.entries())
        }
        Payload::Heap(bytes) => {
            NibbleTable::in_huge_pages(&bytes, pattern.entries(), format).map_err(io_err(path))?
        }
    };
    Ok((table, info))
}

/// Loads and checks a pattern database into huge-page memory (see
/// [`NibbleTable::in_huge_pages`]); the search's way to load, faster than a file mapping for
/// random lookups. The payload is read from the file straight into that memory and checked
/// there, so loading needs no more memory than the table itself.
pub fn load_in_memory(
    path: &Path,
    pattern: Pattern,
) -> Result<(NibbleTable, TableInfo), TableError> {
    let entries = pattern.entries();
    read_checked(
        path,
        &pattern.into(),
        |bytes, info| NibbleTable::in_huge_pages(&bytes, entries, info.format()),
        |file, info| {
            NibbleTable::filled_in_huge_pages(entries, info.format(), |payload| {
                file.read_exact(payload)
            })
        },
        NibbleTable::bytes,
    )
}

/// Loads and checks the payload of the table `kind` from `path` (or its `.zst` copy) into a
/// heap buffer, read straight from the file: for the solvers that keep their tables in their
/// own structures. Loading needs no more memory than the payload itself.
pub fn load_vec(path: &Path, kind: &TableKind) -> Result<(Vec<u8>, TableInfo), TableError> {
    read_checked(
        path,
        kind,
        |bytes, _| Ok(bytes),
        |file, _| {
            // The header check has matched the file's length to the kind's.
            let mut bytes = vec![0; kind.payload_bytes() as usize];
            file.read_exact(&mut bytes).map(|_| bytes)
        },
        |bytes| bytes,
    )
}

/// [`load_vec`] into huge-page memory ([`bytes_in_huge_pages`]): for byte tables a search
/// reads at random.
pub fn load_in_huge_pages(
    path: &Path,
    kind: &TableKind,
) -> Result<(memmap2::Mmap, TableInfo), TableError> {
    let len = kind.payload_bytes() as usize;
    read_checked(
        path,
        kind,
        |bytes, _| copy_to_huge_pages(&bytes),
        // The header check has matched the file's length to the kind's.
        |file, _| bytes_in_huge_pages(len, |m| file.read_exact(m)),
        |m| &m[..len],
    )
}

/// [`load_vec`] for a table whose every entry holds a distance: the header's depth histogram
/// must add up to the entry count.
pub fn load_vec_complete(
    path: &Path,
    kind: &TableKind,
) -> Result<(Vec<u8>, TableInfo), TableError> {
    let (bytes, info) = load_vec(path, kind)?;
    if info.histogram.iter().sum::<u64>() != kind.entries {
        return Err(TableError::Header {
            path: path.to_path_buf(),
            what: "depth histogram does not add up to the entry count".into(),
            hint: rebuild_hint(kind, path),
        });
    }
    Ok((bytes, info))
}

/// The one way a table is read into memory: from `path`, header checked, the payload read by
/// `read` from the file positioned after the header, then checksummed in place (`bytes` gives
/// the payload back); or, when `path` does not exist, from its packed copy (decompressed,
/// checked, then handed to `from_packed`), as [`load_payload`] decides.
fn read_checked<T>(
    path: &Path,
    kind: &TableKind,
    from_packed: impl FnOnce(Vec<u8>, &TableInfo) -> std::io::Result<T>,
    read: impl FnOnce(&mut File, &TableInfo) -> std::io::Result<T>,
    bytes: impl Fn(&T) -> &[u8],
) -> Result<(T, TableInfo), TableError> {
    if let Some(packed) = packed_instead(path) {
        let (payload, info) = load_packed(&packed, kind)?;
        return Ok((from_packed(payload, &info).map_err(io_err(&packed))?, info));
    }
    let (mut file, info) = open_header(path, kind, false)?;
    let t = read(&mut file, &info).map_err(io_err(path))?;
    verify_checksum(path, &info, bytes(&t), kind)?;
    Ok((t, info))
}

/// [`read_checked`] for a build's checkpoint ([`super::checkpoint`]): its header must say how
/// far the build got, and the payload must match its checksum.
pub(super) fn read_partial<T>(
    path: &Path,
    kind: &TableKind,
    read: impl FnOnce(&mut File, &TableInfo) -> std::io::Result<T>,
    bytes: impl Fn(&T) -> &[u8],
) -> Result<(T, TableInfo), TableError> {
    let (mut file, info) = open_header(path, kind, true)?;
    let t = read(&mut file, &info).map_err(io_err(path))?;
    verify_checksum(path, &info, bytes(&t), kind)?;
    Ok((t, info))
}

/// Opens a table file and reads and checks its header (not the checksum); the file is left
/// positioned at the payload.
fn open_header(
    path: &Path,
    kind: &TableKind,
    partial: bool,
) -> Result<(File, TableInfo), TableError> {
    let mut file = File::open(path).map_err(io_err(path))?;
    let len = file.metadata().map_err(io_err(path))?.len();
    let mut header = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(io_err(path))?;
    let info = parse_header(path, &header, len, kind, partial)?;
    Ok((file, info))
}

/// Reads just the header of a table file (no checksum), for listings.
pub fn read_info(path: &Path, kind: impl Into<TableKind>) -> Result<TableInfo, TableError> {
    open_header(path, &kind.into(), false).map(|(_, info)| info)
}

/// Writes a zstd copy of a table file next to it (`NAME.pdb.zst`), atomically.
pub fn pack(path: &Path, level: i32) -> Result<PathBuf, TableError> {
    let out = packed_path(path);
    crate::sys::files::replace_with(&out, |f| {
        let input = File::open(path)?;
        let mut enc = zstd::stream::write::Encoder::new(f, level)?;
        std::io::copy(&mut std::io::BufReader::new(input), &mut enc)?;
        enc.finish().map(|_| ())
    })
    .map_err(io_err(path))?;
    Ok(out)
}

/// Restores `NAME.pdb` from `NAME.pdb.zst`, atomically.
pub fn unpack(packed: &Path, out: &Path) -> Result<(), TableError> {
    crate::sys::files::replace_with(out, |f| {
        let mut dec = zstd::stream::read::Decoder::new(File::open(packed)?)?;
        std::io::copy(&mut dec, f).map(|_| ())
    })
    .map_err(io_err(packed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Metric;

    fn small_table() -> NibbleTable {
        crate::testing::korf6_table(Pattern::EDGES6B).clone()
    }

    /// The coset table's file holds 2-bit lines with their base in the header: every loader
    /// reads it back as the lines form of the table, and a header without the base (or one
    /// given to a nibble file) is refused.
    #[test]
    fn lines_files_round_trip_with_their_base() {
        let dir = std::env::temp_dir().join(format!("optcube-lines-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = Pattern::SYM48E0;
        let t = crate::testing::sym48e0_table();
        let path = table_path(&dir, p.name());
        let info = save(&path, p, t, "bfs").unwrap();
        let format = p.file_format(&t.histogram());
        let crate::pdb::Format::Lines { base } = format else {
            panic!("sym48e0 is stored in lines")
        };
        assert_eq!((info.line_base, info.bits_per_entry), (Some(base), 2));
        assert_eq!(
            info.histogram,
            t.histogram(),
            "the header keeps the exact histogram"
        );
        let lines = t.to_lines(base);
        for load in [load, load_in_memory] {
            let (loaded, info2) = load(&path, p).unwrap();
            assert_eq!((loaded.format(), &info2), (format, &info));
            assert!(loaded.bytes() == &lines[..]);
        }
        // The same file with the base taken out of its header.
        let original = std::fs::read(&path).unwrap();
        let mut stripped = info.clone();
        stripped.line_base = None;
        let mut bytes = header_bytes(&stripped);
        bytes.extend_from_slice(&original[HEADER_LEN..]);
        std::fs::write(&path, &bytes).unwrap();
        let e = load(&path, p).err().expect("refused");
        assert!(matches!(e, TableError::Header { .. }), "{e}");
        // A base in a nibble table's header.
        let q = Pattern::EDGES6B;
        let small = small_table();
        let qpath = table_path(&dir, q.name());
        let mut qinfo = save(&qpath, q, &small, "bfs").unwrap();
        qinfo.line_base = Some(3);
        let mut bytes = header_bytes(&qinfo);
        bytes.extend_from_slice(&std::fs::read(&qpath).unwrap()[HEADER_LEN..]);
        std::fs::write(&qpath, &bytes).unwrap();
        let e = load(&qpath, q).err().expect("refused");
        assert!(matches!(e, TableError::Header { .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Saving, loading, and each kind of damage refused with its own message.
    #[test]
    fn round_trip_and_damage_detection() {
        let dir = std::env::temp_dir().join(format!("optcube-file-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = Pattern::EDGES6B;
        let t = small_table();
        let path = table_path(&dir, p.name());
        let info = save(&path, p, &t, "bfs").unwrap();
        assert_eq!(info.histogram.iter().sum::<u64>(), p.entries());
        // Every loader: the file mapping, the copy read into huge-page memory, and the heap
        // buffer the two-phase and Thistlethwaite solvers read their tables into.
        type Loader = fn(&Path, Pattern) -> Result<(NibbleTable, TableInfo), TableError>;
        let into_vec: Loader = |path, p| {
            load_vec(path, &p.into())
                .map(|(v, info)| (NibbleTable::from_bytes(v, p.entries()), info))
        };
        for load in [load as Loader, load_in_memory, into_vec] {
            let (loaded, info2) = load(&path, p).unwrap();
            assert!(loaded.bytes() == t.bytes());
            assert_eq!(info, info2);

            // Packed copy read transparently when the .pdb is gone.
            let packed = pack(&path, 3).unwrap();
            let moved = dir.join("moved.pdb");
            std::fs::rename(&path, &moved).unwrap();
            let (from_zst, _) = load(&path, p).unwrap();
            assert!(from_zst.bytes() == t.bytes());
            std::fs::remove_file(&packed).unwrap();
            std::fs::rename(&moved, &path).unwrap();

            let original = std::fs::read(&path).unwrap();
            let damaged = dir.join("damaged").join(format!("{}.pdb", p.name()));
            std::fs::create_dir_all(damaged.parent().unwrap()).unwrap();

            // One payload byte changed.
            let mut bytes = original.clone();
            bytes[HEADER_LEN + 12345] ^= 0x01;
            std::fs::write(&damaged, &bytes).unwrap();
            let e = load(&damaged, p).err().expect("refused");
            assert!(matches!(e, TableError::Checksum { .. }), "{e}");
            assert!(e.to_string().contains("edges6b.pdb") && e.to_string().contains("checksum"));

            // Truncated.
            std::fs::write(&damaged, &original[..original.len() - 100]).unwrap();
            let e = load(&damaged, p).err().expect("refused");
            assert!(matches!(e, TableError::Size { .. }), "{e}");
            assert!(e.to_string().contains("truncated"));

            // Another pattern's file.
            std::fs::write(&damaged, &original).unwrap();
            let e = load(&damaged, Pattern::EDGES6A).err().expect("refused");
            assert!(matches!(e, TableError::WrongPattern { .. }), "{e}");
            assert!(e.to_string().contains("edges6b") && e.to_string().contains("edges6a"));

            // The same table's name in the other metric's header: refused with the command
            // that builds the right one. (The half-turn header leaves the metric unsaid.)
            let mut kind = TableKind::from(p);
            assert!(!String::from_utf8_lossy(&original[..HEADER_LEN]).contains("metric"));
            kind.metric = Metric::Qtm;
            let e = load_vec(&damaged, &kind).map(|_| ()).expect_err("refused");
            assert!(matches!(e, TableError::WrongMetric { .. }), "{e}");
            let text = e.to_string();
            assert!(
                text.contains("htm metric, expected the qtm metric")
                    && text.contains("optcube pdb build --set edges6b"),
                "{text}"
            );

            // Not a table at all.
            std::fs::write(&damaged, b"hello world, this is not a table file at all").unwrap();
            let e = load(&damaged, p).err().expect("refused");
            assert!(matches!(e, TableError::Foreign { .. }), "{e}");
        }

        std::fs::remove_dir_all(&dir).unwrap();
    }
}
