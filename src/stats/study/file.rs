//! The study file: JSON Lines, read with the rule for a half-written last line
//! ([`parse_lines`]), and appended to under an exclusive lock ([`Appender`]).

use super::{Record, Shard};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Errors of study files.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a study record: {reason}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{path}:{line}: invalid record: {reason}")]
    Invalid {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{path}:{line}: the line belongs to another study ({found}), not to {expected}")]
    Foreign {
        path: PathBuf,
        line: usize,
        found: String,
        expected: String,
    },
    #[error("{path}:{line}: position {index} appears twice (first at {first})")]
    Duplicate {
        path: PathBuf,
        line: usize,
        index: u64,
        first: String,
    },
    /// A record whose input is not the study's position of its index (the message names the
    /// file and line, [`super::Collection::verify_inputs`]).
    #[error("{0}")]
    WrongInput(String),
    #[error("{path}:{line}: position {index} is not in shard {shard}")]
    OtherShard {
        path: PathBuf,
        line: usize,
        index: u64,
        shard: Shard,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StudyError + '_ {
    move |source| StudyError::Io {
        path: path.into(),
        source,
    }
}

/// The finished records of a study file's text, and where its good part ends. The records are
/// a length study's ([`Record`]) or another study's kept in the same kind of file (a coset
/// study's, [`crate::stats::cosets`]).
#[derive(Debug)]
pub struct Parsed<R = Record> {
    /// (line number from 1, record) of every complete line.
    pub records: Vec<(usize, R)>,
    /// Byte length of the complete lines; anything after is a half-written last line.
    pub good_len: u64,
    /// Number of complete lines (blank ones included).
    pub good_lines: usize,
    /// The line number of a half-written last line, if there is one.
    pub partial_line: Option<usize>,
}

impl<R> Default for Parsed<R> {
    fn default() -> Self {
        Parsed {
            records: Vec::new(),
            good_len: 0,
            good_lines: 0,
            partial_line: None,
        }
    }
}

/// Parses a study file's bytes. A complete line is one that ends with a newline and parses as
/// a record (`R`); blank lines are skipped. The last line is half-written (cut off by the writer,
/// ignored by readers) if it has no newline or does not parse; any other bad line is an error.
pub fn parse_lines<R: DeserializeOwned>(
    bytes: &[u8],
    path: &Path,
) -> Result<Parsed<R>, StudyError> {
    let mut out = Parsed::default();
    let mut start = 0usize;
    let mut line = 0usize;
    while start < bytes.len() {
        line += 1;
        let (end, complete) = match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(p) => (start + p + 1, true),
            None => (bytes.len(), false),
        };
        let last = end == bytes.len();
        let text = &bytes[start..end];
        let parsed = std::str::from_utf8(text)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                if t.trim().is_empty() {
                    Ok(None)
                } else {
                    serde_json::from_str::<R>(t)
                        .map(Some)
                        .map_err(|e| e.to_string())
                }
            });
        match (parsed, complete) {
            (Ok(r), true) => {
                if let Some(r) = r {
                    out.records.push((line, r));
                }
                out.good_len = end as u64;
                out.good_lines = line;
            }
            (Ok(None), false) => out.good_len = end as u64, // trailing blanks
            (_, _) if last => out.partial_line = Some(line),
            (Err(reason), _) => {
                return Err(StudyError::Corrupt {
                    path: path.into(),
                    line,
                    reason,
                });
            }
            (Ok(Some(_)), false) => unreachable!("a line without newline is the last"),
        }
        start = end;
    }
    Ok(out)
}

/// Reads and parses a study file.
pub fn read_file<R: DeserializeOwned>(path: &Path) -> Result<Parsed<R>, StudyError> {
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    parse_lines(&bytes, path)
}

/// Appends records to a study file: one line each, flushed and synced to disk, so that a kill
/// loses at most the line being written (which [`parse_lines`] recognises as half-written).
pub struct Appender {
    file: std::fs::File,
    path: PathBuf,
}

impl Appender {
    /// Opens `path` for appending after its first `good_len` bytes, cutting off anything after
    /// them (a half-written last line). Takes an exclusive lock: a second writer of the same
    /// file is refused.
    pub fn open(path: &Path, good_len: u64) -> Result<Appender, StudyError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        lock(&file).map_err(io_err(path))?;
        let len = file.metadata().map_err(io_err(path))?.len();
        if len != good_len {
            file.set_len(good_len).map_err(io_err(path))?;
            file.sync_all().map_err(io_err(path))?;
        }
        Ok(Appender {
            file,
            path: path.into(),
        })
    }

    /// Appends one record as one line and syncs it to disk.
    pub fn append(&mut self, r: &impl Serialize) -> Result<(), StudyError> {
        let mut line = serde_json::to_vec(r).expect("serializable record");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|_| self.file.sync_data())
            .map_err(io_err(&self.path))
    }
}

fn lock(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a valid open descriptor; the lock ends when the file is closed.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::other(
            "another process is writing this study file",
        ))
    }
}
