//! The table file's header: what a table is ([`TableKind`]), what its file says it is
//! ([`TableInfo`]), the checks of one against the other, and why a file cannot be used
//! ([`TableError`]).
//!
//! The header is the first [`HEADER_LEN`] bytes of every `NAME.pdb`: the magic `OPTCUBE\0`, the
//! format version, the header length and the length of a JSON [`TableInfo`] (each u32 LE), the
//! JSON, then zeros. A header is accepted only for the table it was expected to be: name,
//! version, pieces, entries, packing, metric and size all agree, and the payload's XXH3-64
//! matches the recorded one. Every error names the file and ends with the command that
//! rebuilds it.

use crate::cube::Metric;
use crate::pdb::family::Pattern;
use crate::pdb::table::histogram_mean;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"OPTCUBE\0";
/// Version of this file layout.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 4096;

/// How far an interrupted build got, recorded in its checkpoint's header
/// ([`super::checkpoint`]): `done` of its `of` steps.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ResumePoint {
    pub done: u64,
    pub of: u64,
}

/// What the header says about a table.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TableInfo {
    pub pattern: String,
    pub pattern_version: u32,
    pub pieces: String,
    pub entries: u64,
    pub bits_per_entry: u32,
    pub payload_bytes: u64,
    pub histogram: Vec<u64>,
    pub mean: f64,
    /// XXH3-64 of the payload, lowercase hex.
    pub checksum: String,
    pub generator: String,
    pub program_version: String,
    /// The base of a 2-bit payload ([`crate::pdb::Format::Lines`]); absent for nibbles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_base: Option<u8>,
    /// The metric of the distances: `"qtm"`, or absent for the half-turn metric (so the
    /// half-turn tables' headers are those of the files written before metrics existed).
    #[serde(default, skip_serializing_if = "Metric::is_htm")]
    pub metric: Metric,
    /// In a checkpoint of an unfinished build ([`super::checkpoint`]): how far it got. Absent
    /// in a table, and a file that has it is never loaded as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<ResumePoint>,
}

impl TableInfo {
    /// How the payload holds its entries.
    pub fn format(&self) -> crate::pdb::Format {
        match self.line_base {
            Some(base) => crate::pdb::Format::Lines { base },
            None => crate::pdb::Format::Nibbles,
        }
    }
}

/// Why a table file cannot be used. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not an optcube table file (bad magic); {hint}")]
    Foreign { path: PathBuf, hint: String },
    #[error(
        "{path}: table file format {found}, this program reads format {FORMAT_VERSION}; {hint}"
    )]
    Format {
        path: PathBuf,
        found: u32,
        hint: String,
    },
    #[error("{path}: damaged header ({what}); {hint}")]
    Header {
        path: PathBuf,
        what: String,
        hint: String,
    },
    #[error("{path}: holds table {found:?}, expected {expected:?}; {hint}")]
    WrongPattern {
        path: PathBuf,
        found: String,
        expected: String,
        hint: String,
    },
    #[error(
        "{path}: holds distances in the {found} metric, expected the {expected} metric; {hint}"
    )]
    WrongMetric {
        path: PathBuf,
        found: Metric,
        expected: Metric,
        hint: String,
    },
    #[error("{path}: stale table (pattern version {found}, this program uses {expected}); {hint}")]
    Stale {
        path: PathBuf,
        found: u32,
        expected: u32,
        hint: String,
    },
    #[error("{path}: truncated or wrong size ({actual} bytes, expected {expected}); {hint}")]
    Size {
        path: PathBuf,
        actual: u64,
        expected: u64,
        hint: String,
    },
    #[error(
        "{path}: checksum mismatch (payload {actual}, header says {expected}): the file is damaged; {hint}"
    )]
    Checksum {
        path: PathBuf,
        actual: String,
        expected: String,
        hint: String,
    },
}

pub(super) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What a table file must hold: the identity every header is checked against. Pattern
/// databases get theirs from [`Pattern`]; the two-phase and Thistlethwaite solvers describe
/// their own tables the same way, so every table uses this one format.
#[derive(Clone, Debug)]
pub struct TableKind {
    pub name: String,
    pub version: u32,
    pub pieces: String,
    pub entries: u64,
    pub packing: Packing,
    /// The command that rebuilds the file, for error messages (`{dir}` is replaced).
    pub rebuild: String,
    /// The metric of the distances the table holds.
    pub metric: Metric,
}

/// How a table's payload holds its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packing {
    /// `bits` bits an entry, packed densely.
    Bits(u32),
    /// 2 bits an entry in 64-byte lines that carry their least value
    /// ([`crate::pdb::Format::Lines`]).
    Lines,
}

impl Packing {
    pub fn bits_per_entry(self) -> u32 {
        match self {
            Packing::Bits(b) => b,
            Packing::Lines => 2,
        }
    }
}

impl TableKind {
    /// Payload length in bytes.
    pub fn payload_bytes(&self) -> u64 {
        match self.packing {
            Packing::Lines => crate::pdb::Format::Lines { base: 0 }.payload_bytes(self.entries),
            Packing::Bits(b) => (self.entries * b as u64).div_ceil(8),
        }
    }
}

impl From<Pattern> for TableKind {
    fn from(p: Pattern) -> TableKind {
        TableKind {
            name: p.name().into(),
            version: p.version(),
            pieces: p.pieces(),
            entries: p.entries(),
            packing: if p.stored_in_lines() {
                Packing::Lines
            } else {
                Packing::Bits(4)
            },
            rebuild: format!("optcube pdb build --set {} --dir {{dir}}", p.name()),
            metric: p.metric(),
        }
    }
}

/// The advice that ends every table-file error: delete the file and the command that rebuilds
/// it (the kind's `rebuild`, with `{dir}` the file's directory).
pub fn rebuild_hint(kind: &TableKind, path: &Path) -> String {
    let dir = path
        .parent()
        .map(|d| d.display().to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| ".".into());
    format!(
        "delete it and rebuild with `{}`",
        kind.rebuild.replace("{dir}", &dir)
    )
}

/// XXH3-64 checksum of a payload, as hex.
pub fn checksum(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// The header description of a finished table.
pub fn describe(
    kind: &TableKind,
    payload: &[u8],
    histogram: Vec<u64>,
    generator: &str,
) -> TableInfo {
    TableInfo {
        pattern: kind.name.clone(),
        pattern_version: kind.version,
        pieces: kind.pieces.clone(),
        entries: kind.entries,
        bits_per_entry: kind.packing.bits_per_entry(),
        payload_bytes: payload.len() as u64,
        mean: histogram_mean(&histogram),
        histogram,
        checksum: checksum(payload),
        generator: generator.into(),
        program_version: env!("CARGO_PKG_VERSION").into(),
        line_base: None,
        metric: kind.metric,
        resume: None,
    }
}

pub(super) fn header_bytes(info: &TableInfo) -> Vec<u8> {
    let json = serde_json::to_vec(info).expect("serializable");
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h.extend_from_slice(&(json.len() as u32).to_le_bytes());
    h.extend_from_slice(&json);
    assert!(h.len() <= HEADER_LEN, "table header too long");
    h.resize(HEADER_LEN, 0);
    h
}

/// Parses and checks a header against the expected pattern and the file's size; `partial`:
/// the file must be a build's checkpoint ([`super::checkpoint`]), else it must not be one.
pub(super) fn parse_header(
    path: &Path,
    header: &[u8],
    file_len: u64,
    expected: &TableKind,
    partial: bool,
) -> Result<TableInfo, TableError> {
    let hint = rebuild_hint(expected, path);
    let size_err = |actual: u64, expected: u64| TableError::Size {
        path: path.into(),
        actual,
        expected,
        hint: hint.clone(),
    };
    if header.len() < 20 || &header[..8] != MAGIC {
        if header.len() < 8 || header[..8] == MAGIC[..] {
            return Err(size_err(file_len, HEADER_LEN as u64));
        }
        return Err(TableError::Foreign {
            path: path.into(),
            hint,
        });
    }
    let u32_at = |o: usize| u32::from_le_bytes(header[o..o + 4].try_into().expect("4 bytes"));
    let format = u32_at(8);
    if format != FORMAT_VERSION {
        return Err(TableError::Format {
            path: path.into(),
            found: format,
            hint,
        });
    }
    if header.len() < HEADER_LEN {
        return Err(size_err(file_len, HEADER_LEN as u64));
    }
    let (hlen, jlen) = (u32_at(12) as usize, u32_at(16) as usize);
    if hlen != HEADER_LEN || 20 + jlen > HEADER_LEN {
        return Err(TableError::Header {
            path: path.into(),
            what: "bad lengths".into(),
            hint,
        });
    }
    let info: TableInfo =
        serde_json::from_slice(&header[20..20 + jlen]).map_err(|e| TableError::Header {
            path: path.into(),
            what: format!("unreadable description: {e}"),
            hint: hint.clone(),
        })?;
    if info.pattern != expected.name {
        return Err(TableError::WrongPattern {
            path: path.into(),
            found: info.pattern,
            expected: expected.name.clone(),
            hint,
        });
    }
    if info.metric != expected.metric {
        return Err(TableError::WrongMetric {
            path: path.into(),
            found: info.metric,
            expected: expected.metric,
            hint,
        });
    }
    if info.pattern_version != expected.version {
        return Err(TableError::Stale {
            path: path.into(),
            found: info.pattern_version,
            expected: expected.version,
            hint,
        });
    }
    let payload = expected.payload_bytes();
    if info.entries != expected.entries
        || info.payload_bytes != payload
        || info.bits_per_entry != expected.packing.bits_per_entry()
        || info.line_base.is_some() != (expected.packing == Packing::Lines)
    {
        return Err(TableError::Header {
            path: path.into(),
            what: format!(
                "describes {} entries of {} bits",
                info.entries, info.bits_per_entry
            ),
            hint,
        });
    }
    if file_len != HEADER_LEN as u64 + payload {
        return Err(size_err(file_len, HEADER_LEN as u64 + payload));
    }
    if info.resume.is_some() != partial {
        return Err(TableError::Header {
            path: path.into(),
            what: if partial {
                "a finished table, not a build's checkpoint".into()
            } else {
                "the checkpoint of an unfinished build, not a table".into()
            },
            hint,
        });
    }
    Ok(info)
}

pub(super) fn verify_checksum(
    path: &Path,
    info: &TableInfo,
    payload: &[u8],
    kind: &TableKind,
) -> Result<(), TableError> {
    let actual = checksum(payload);
    if actual != info.checksum {
        return Err(TableError::Checksum {
            path: path.into(),
            actual,
            expected: info.checksum.clone(),
            hint: rebuild_hint(kind, path),
        });
    }
    Ok(())
}
