//! Optimal-length studies: solve the positions of a seed one by one and keep every finished
//! position as one JSON line, so that a study can be stopped, resumed, split into shards and
//! merged again.
//!
//! A study is named by its [`Study`] (seed, table set, and `moves` for scramble studies). Its
//! position `i` is the `i`-th position drawn from [`Rng::new`]`(seed)`: a uniformly random
//! position ([`Cube::random`]), or with `moves = Some(L)` a random canonical scramble of `L`
//! moves. Position `i` is therefore the same whatever the shard or the number of positions
//! asked for, and shard `K/N` solves exactly the positions with `i mod N == K`.
//!
//! Invariants of a study file (JSON Lines, one [`Record`] a line):
//! - every complete line (ending in a newline) is a finished position of one study; the only
//!   line that may be incomplete is the last one (a process killed while writing it), which
//!   [`parse_lines`] reports and the writer cuts off before appending;
//! - an index appears at most once in a study (over all its files);
//! - every record's solution solves its input, has `length` moves, was proved optimal, and its
//!   input is the study's position of that index ([`Collection::verify_inputs`]).

use super::BatchSummary;
use crate::cube::{Cube, Move, Rng, allowed_after, format_moves, parse_moves};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What defines a study: two files belong to the same study iff these agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    pub seed: u64,
    /// The table set name as given on the command line (`korf`, `korf6`, …).
    pub set: String,
    /// `Some(L)`: random L-move scrambles instead of uniformly random positions.
    pub moves: Option<u32>,
}

impl fmt::Display for Study {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed {}, set {}, ", self.seed, self.set)?;
        match self.moves {
            None => write!(f, "random positions"),
            Some(l) => write!(f, "{l}-move scrambles"),
        }
    }
}

/// One position of a study, as drawn from its seed.
#[derive(Clone, Debug)]
pub struct Position {
    pub index: u64,
    pub cube: Cube,
    /// The scramble that made it (scramble studies only).
    pub scramble: Option<Vec<Move>>,
}

impl Study {
    /// The study's positions 0, 1, 2, … in order (an endless iterator).
    pub fn positions(&self) -> impl Iterator<Item = Position> + use<> {
        let mut rng = Rng::new(self.seed);
        let moves = self.moves;
        (0u64..).map(move |index| match moves {
            None => Position {
                index,
                cube: Cube::random(&mut rng),
                scramble: None,
            },
            Some(l) => {
                let seq = random_scramble(&mut rng, l as usize);
                Position {
                    index,
                    cube: Cube::from_moves(&seq),
                    scramble: Some(seq),
                }
            }
        })
    }

    /// The base name of the study's files: `lengths-seed{S}` (`-moves{L}` for scrambles).
    pub fn name(&self) -> String {
        match self.moves {
            None => format!("lengths-seed{}", self.seed),
            Some(l) => format!("lengths-seed{}-moves{l}", self.seed),
        }
    }

    /// The default output file of a (shard of a) study:
    /// `results/lengths-seed{S}[-moves{L}][-shard{K}of{N}].jsonl`.
    pub fn default_out(&self, shard: Option<Shard>) -> PathBuf {
        let shard = shard.map_or(String::new(), |s| format!("-shard{}of{}", s.k, s.n));
        PathBuf::from(format!("results/{}{shard}.jsonl", self.name()))
    }
}

/// A random canonical move sequence of `len` moves (no face twice in a row, opposite faces in
/// one order only), each move uniform among those allowed after the previous one.
pub fn random_scramble(rng: &mut Rng, len: usize) -> Vec<Move> {
    let mut seq: Vec<Move> = Vec::with_capacity(len);
    for _ in 0..len {
        let prev = seq.last().copied();
        let allowed: Vec<Move> = Move::all().filter(|&m| allowed_after(prev, m)).collect();
        seq.push(allowed[rng.below(allowed.len() as u64) as usize]);
    }
    seq
}

/// A shard `K/N` of a study: the positions with `index mod N == K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Does position `index` belong to this shard?
    pub fn contains(&self, index: u64) -> bool {
        index % self.n == self.k
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not K/N (e.g. 0/4: shard 0 of 4)"))?;
        let number = |t: &str, what: &str| {
            t.trim().parse::<u64>().map_err(|_| {
                format!("{s:?}: {what} {t:?} is not a whole number (expected K/N, e.g. 0/4)")
            })
        };
        let (k, n) = (number(k, "K")?, number(n, "N")?);
        if n == 0 {
            return Err(format!("{s:?}: N must be at least 1"));
        }
        if k >= n {
            return Err(format!(
                "{s:?}: K must be below N (the shards of N are 0/N to {}/N)",
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }
}

/// One finished position of a study: one line of a study file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub index: u64,
    pub seed: u64,
    /// Positions in the whole study (all shards), as asked for by the run that wrote the line.
    pub count: u64,
    pub set: String,
    /// `Some(L)`: the position is a random L-move scramble, not a uniformly random position.
    pub moves: Option<u32>,
    /// The scramble of a scramble study.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scramble: Option<String>,
    /// The position as a facelet string.
    pub input: String,
    pub solution: String,
    pub length: usize,
    pub optimal: bool,
    pub nodes: u64,
    pub seconds: f64,
    pub threads: usize,
    pub dual: bool,
}

impl Record {
    /// The study the record belongs to.
    pub fn study(&self) -> Study {
        Study {
            seed: self.seed,
            set: self.set.clone(),
            moves: self.moves,
        }
    }

    /// Checks the record by itself: a valid input that the solution solves, in `length` moves,
    /// proved optimal.
    pub fn check(&self) -> Result<(), String> {
        let cube = Cube::from_facelets(&self.input).map_err(|e| format!("input: {e}"))?;
        let moves = parse_moves(&self.solution).map_err(|e| format!("solution: {e}"))?;
        if !crate::solvers::solves(&cube, &moves) {
            return Err("the solution does not solve the input".into());
        }
        if moves.len() != self.length {
            return Err(format!(
                "length {} but the solution has {} moves",
                self.length,
                moves.len()
            ));
        }
        if !self.optimal {
            return Err("not proved optimal (\"optimal\": false)".into());
        }
        if self.index >= self.count {
            return Err(format!(
                "index {} is not below count {}",
                self.index, self.count
            ));
        }
        Ok(())
    }

    /// The record of a finished solve of `position`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        study: &Study,
        count: u64,
        position: &Position,
        solution: &[Move],
        nodes: u64,
        seconds: f64,
        threads: usize,
        dual: bool,
    ) -> Record {
        Record {
            index: position.index,
            seed: study.seed,
            count,
            set: study.set.clone(),
            moves: study.moves,
            scramble: position.scramble.as_deref().map(format_moves),
            input: position.cube.to_facelets(),
            solution: format_moves(solution),
            length: solution.len(),
            optimal: true,
            nodes,
            seconds,
            threads,
            dual,
        }
    }
}

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
        found: Study,
        expected: Study,
    },
    #[error("{path}:{line}: position {index} appears twice (first at {first})")]
    Duplicate {
        path: PathBuf,
        line: usize,
        index: u64,
        first: String,
    },
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

/// The finished records of a study file's text, and where its good part ends.
#[derive(Debug, Default)]
pub struct Parsed {
    /// (line number from 1, record) of every complete line.
    pub records: Vec<(usize, Record)>,
    /// Byte length of the complete lines; anything after is a half-written last line.
    pub good_len: u64,
    /// Number of complete lines (blank ones included).
    pub good_lines: usize,
    /// The line number of a half-written last line, if there is one.
    pub partial_line: Option<usize>,
}

/// Parses a study file's bytes. A complete line is one that ends with a newline and parses as
/// a [`Record`]; blank lines are skipped. The last line is half-written (cut off by the writer,
/// ignored by readers) if it has no newline or does not parse; any other bad line is an error.
pub fn parse_lines(bytes: &[u8], path: &Path) -> Result<Parsed, StudyError> {
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
                    serde_json::from_str::<Record>(t)
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
pub fn read_file(path: &Path) -> Result<Parsed, StudyError> {
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    parse_lines(&bytes, path)
}

/// The records of one study gathered from one or more files, checked as they come in: same
/// study, no index twice, every record valid by itself.
#[derive(Debug, Default)]
pub struct Collection {
    study: Option<Study>,
    /// Largest `count` of any record (a study may be extended by asking for more positions).
    count: u64,
    /// Each record with where it was read (`path:line`).
    by_index: BTreeMap<u64, (Record, String)>,
}

impl Collection {
    /// An empty collection that accepts only records of `study`.
    pub fn of(study: Study) -> Collection {
        Collection {
            study: Some(study),
            ..Collection::default()
        }
    }

    /// The study of the records (`None` before the first record of an open collection).
    pub fn study(&self) -> Option<&Study> {
        self.study.as_ref()
    }

    /// Adds the records of one file. `shard`: refuse records outside it.
    pub fn add(
        &mut self,
        path: &Path,
        parsed: &Parsed,
        shard: Option<Shard>,
    ) -> Result<(), StudyError> {
        for (line, r) in &parsed.records {
            self.add_record(path, *line, r, shard)?;
        }
        Ok(())
    }

    /// Adds one record, found at `path:line`. `shard`: refuse a record outside it.
    pub fn add_record(
        &mut self,
        path: &Path,
        line: usize,
        r: &Record,
        shard: Option<Shard>,
    ) -> Result<(), StudyError> {
        let found = r.study();
        match &self.study {
            Some(expected) if *expected != found => {
                return Err(StudyError::Foreign {
                    path: path.into(),
                    line,
                    found,
                    expected: expected.clone(),
                });
            }
            Some(_) => {}
            None => self.study = Some(found),
        }
        if let Some(s) = shard
            && !s.contains(r.index)
        {
            return Err(StudyError::OtherShard {
                path: path.into(),
                line,
                index: r.index,
                shard: s,
            });
        }
        r.check().map_err(|reason| StudyError::Invalid {
            path: path.into(),
            line,
            reason,
        })?;
        if let Some((_, first)) = self.by_index.get(&r.index) {
            return Err(StudyError::Duplicate {
                path: path.into(),
                line,
                index: r.index,
                first: first.clone(),
            });
        }
        self.count = self.count.max(r.count);
        let here = format!("{}:{line}", path.display());
        self.by_index.insert(r.index, (r.clone(), here));
        Ok(())
    }

    /// Checks that every record's input is the study's position of its index.
    pub fn verify_inputs(&self) -> Result<(), String> {
        let (Some(study), Some(&last)) = (&self.study, self.by_index.keys().last()) else {
            return Ok(());
        };
        for p in study.positions().take(last as usize + 1) {
            if let Some((r, at)) = self.by_index.get(&p.index)
                && r.input != p.cube.to_facelets()
            {
                return Err(format!(
                    "{at}: the input is not position {} of the study ({study})",
                    p.index
                ));
            }
        }
        Ok(())
    }

    /// The records by index.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.by_index.values().map(|(r, _)| r)
    }

    /// Number of finished positions.
    pub fn len(&self) -> usize {
        self.by_index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_index.is_empty()
    }

    /// Is position `index` finished?
    pub fn contains(&self, index: u64) -> bool {
        self.by_index.contains_key(&index)
    }

    /// Positions in the study as recorded (largest `count` seen).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The positions of `0..count` (of `shard`, if given) that are not finished.
    pub fn missing(&self, count: u64, shard: Option<Shard>) -> Vec<u64> {
        (0..count)
            .filter(|&i| shard.is_none_or(|s| s.contains(i)) && !self.contains(i))
            .collect()
    }

    /// The batch summary of the finished positions.
    pub fn summary(&self) -> BatchSummary {
        let mut b = BatchSummary::new();
        for r in self.records() {
            b.record(Some(r.length), r.nodes, r.seconds);
        }
        b
    }
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
    pub fn append(&mut self, r: &Record) -> Result<(), StudyError> {
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

/// The length distribution as CSV: `length,count,fraction`, one row per length found.
pub fn lengths_csv(summary: &BatchSummary) -> String {
    let total = summary.count().max(1) as f64;
    let mut s = String::from("length,count,fraction\n");
    for (len, n) in summary.lengths() {
        if let Some(l) = len {
            s += &format!("{l},{n},{:.6}\n", *n as f64 / total);
        }
    }
    s
}

/// The length distribution with per-length time and node percentiles (p50, p90, p99, max of
/// the HDR histograms), as a markdown table with a last row for all positions.
pub fn lengths_table(summary: &BatchSummary) -> String {
    let total = summary.count().max(1) as f64;
    let mut s = String::from(
        "| length | count | fraction | s p50 | s p90 | s p99 | s max \
         | nodes p50 | nodes p90 | nodes p99 | nodes max |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut row = |label: String, n: u64, t: &super::Timings| {
        s += &format!("| {label} | {n} | {:.4} |", n as f64 / total);
        for q in QUANTILES {
            s += &format!(" {:.4} |", t.seconds_at(q));
        }
        for q in QUANTILES {
            s += &format!(" {} |", t.nodes_at(q));
        }
        s += "\n";
    };
    for (len, &n) in summary.lengths() {
        let label = len.map_or("none".into(), |l| l.to_string());
        row(label, n, summary.of_length(*len).expect("recorded length"));
    }
    row("all".into(), summary.count(), summary.all());
    s
}

const QUANTILES: [f64; 4] = [0.5, 0.9, 0.99, 1.0];

#[cfg(test)]
mod tests {
    use super::*;

    fn study() -> Study {
        Study {
            seed: 3,
            set: "korf6".into(),
            moves: Some(5),
        }
    }

    /// A correct record of position `i` of `study()`, solved by inverting its scramble (a
    /// 5-move canonical scramble is not always optimal, but `check` does not solve).
    fn record(i: u64) -> Record {
        let p = study().positions().nth(i as usize).unwrap();
        let sol = crate::cube::invert_sequence(p.scramble.as_ref().unwrap());
        Record::new(&study(), 10, &p, &sol, 100 + i, 0.001 * i as f64, 1, false)
    }

    fn line(i: u64) -> String {
        serde_json::to_string(&record(i)).unwrap() + "\n"
    }

    fn path() -> &'static Path {
        Path::new("study.jsonl")
    }

    #[test]
    fn record_round_trips_and_checks() {
        let r = record(4);
        let back: Record = serde_json::from_str(line(4).trim()).unwrap();
        assert_eq!(r, back);
        assert_eq!(r.check(), Ok(()));
        assert!(r.scramble.is_some() && r.moves == Some(5));
        let mut bad = r.clone();
        bad.solution = "U".into();
        assert!(bad.check().unwrap_err().contains("does not solve"));
        let mut bad = r.clone();
        bad.length += 1;
        assert!(bad.check().unwrap_err().contains("length"));
        let mut bad = r.clone();
        bad.optimal = false;
        assert!(bad.check().is_err());
        let mut bad = r;
        bad.index = 10;
        assert!(bad.check().unwrap_err().contains("count"));
    }

    #[test]
    fn complete_lines_parse() {
        let text = line(0) + &line(1) + "\n" + &line(2);
        let p = parse_lines(text.as_bytes(), path()).unwrap();
        let idx: Vec<(usize, u64)> = p.records.iter().map(|(l, r)| (*l, r.index)).collect();
        assert_eq!(idx, vec![(1, 0), (2, 1), (4, 2)]);
        assert_eq!(p.good_len, text.len() as u64);
        assert_eq!(p.good_lines, 4);
        assert_eq!(p.partial_line, None);
        let empty = parse_lines(b"", path()).unwrap();
        assert!(empty.records.is_empty() && empty.good_len == 0);
    }

    #[test]
    fn half_written_last_line_is_cut() {
        let good = line(0) + &line(1);
        // No newline: even a complete JSON object might have lost its newline only, but the
        // line is redone rather than trusted.
        for tail in [
            "{\"index\":".to_string(),
            line(2).trim_end().to_string(),
            "{\"index\": 2, garbage\n".to_string(),
            line(2)[..40].to_string() + "\n",
        ] {
            let text = good.clone() + &tail;
            let p = parse_lines(text.as_bytes(), path()).unwrap();
            assert_eq!(p.records.len(), 2, "{tail}");
            assert_eq!(p.good_len, good.len() as u64, "{tail}");
            assert_eq!(p.partial_line, Some(3), "{tail}");
        }
        // Invalid UTF-8 at the end is half-written too.
        let mut bytes = good.clone().into_bytes();
        bytes.extend_from_slice(&[b'{', 0xff]);
        assert_eq!(
            parse_lines(&bytes, path()).unwrap().good_len,
            good.len() as u64
        );
    }

    #[test]
    fn bad_middle_line_is_an_error_naming_the_line() {
        let text = line(0) + "{\"index\": 1}\n" + &line(2);
        let e = parse_lines(text.as_bytes(), path()).unwrap_err();
        assert!(matches!(e, StudyError::Corrupt { line: 2, .. }), "{e}");
        assert!(e.to_string().starts_with("study.jsonl:2: "), "{e}");
    }

    #[test]
    fn appender_cuts_the_partial_line_and_appends() {
        let dir = std::env::temp_dir().join(format!("optcube-study-unit-{}", std::process::id()));
        let file = dir.join("s.jsonl");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&file, line(0) + "{\"index\":").unwrap();
        let p = read_file(&file).unwrap();
        let mut a = Appender::open(&file, p.good_len).unwrap();
        // A second writer is refused while the first holds the file.
        assert!(Appender::open(&file, p.good_len).is_err());
        a.append(&record(1)).unwrap();
        drop(a);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), line(0) + &line(1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn duplicates_and_foreign_records_are_refused() {
        let a = parse_lines((line(0) + &line(1)).as_bytes(), path()).unwrap();
        let b = parse_lines((line(2) + &line(1)).as_bytes(), Path::new("b.jsonl")).unwrap();
        let mut c = Collection::default();
        c.add(path(), &a, None).unwrap();
        let e = c.add(Path::new("b.jsonl"), &b, None).unwrap_err();
        assert!(
            matches!(&e, StudyError::Duplicate { line: 2, index: 1, first, .. }
                if first == "study.jsonl:2"),
            "{e}"
        );
        // Another seed, set or scramble length is another study.
        for change in [
            |r: &mut Record| r.seed = 4,
            |r: &mut Record| r.set = "korf".into(),
            |r: &mut Record| r.moves = None,
        ] {
            let mut r = record(3);
            change(&mut r);
            let text = serde_json::to_string(&r).unwrap() + "\n";
            let f = parse_lines(text.as_bytes(), Path::new("f.jsonl")).unwrap();
            let e = Collection::of(study())
                .add(Path::new("f.jsonl"), &f, None)
                .unwrap_err();
            assert!(matches!(e, StudyError::Foreign { line: 1, .. }), "{e}");
            assert!(e.to_string().contains("another study"), "{e}");
        }
        // A record outside the writer's shard is refused.
        let e = Collection::of(study())
            .add(path(), &a, Some(Shard { k: 0, n: 2 }))
            .unwrap_err();
        assert!(
            matches!(
                e,
                StudyError::OtherShard {
                    line: 2,
                    index: 1,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn inputs_must_be_the_study_positions() {
        let mut c = Collection::of(study());
        let text = line(0) + &line(2);
        c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
            .unwrap();
        assert_eq!(c.verify_inputs(), Ok(()));
        assert_eq!(c.missing(4, None), vec![1, 3]);
        assert_eq!(c.missing(4, Some(Shard { k: 1, n: 2 })), vec![1, 3]);
        assert_eq!(c.missing(4, Some(Shard { k: 0, n: 2 })), Vec::<u64>::new());
        // Position 1's record relabelled as position 5: valid by itself, wrong for the study.
        let mut r = record(1);
        r.index = 5;
        let text = serde_json::to_string(&r).unwrap() + "\n";
        c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
            .unwrap();
        assert!(c.verify_inputs().unwrap_err().contains("position 5"));
    }

    #[test]
    fn shard_parsing() {
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { k: 0, n: 1 }));
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        for (bad, why) in [
            ("3/2", "below N"),
            ("2/2", "below N"),
            ("x/2", "\"x\" is not a whole number"),
            ("1/y", "\"y\" is not a whole number"),
            ("-1/2", "not a whole number"),
            ("1/0", "at least 1"),
            ("12", "not K/N"),
            ("", "not K/N"),
        ] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let s = Shard { k: 1, n: 3 };
        let mine: Vec<u64> = (0..10).filter(|&i| s.contains(i)).collect();
        assert_eq!(mine, vec![1, 4, 7]);
    }

    #[test]
    fn positions_do_not_depend_on_where_one_starts() {
        let all: Vec<Position> = study().positions().take(6).collect();
        let again: Vec<Position> = study().positions().take(6).collect();
        for (a, b) in all.iter().zip(&again) {
            assert_eq!((a.index, a.cube), (b.index, b.cube));
            assert_eq!(a.scramble.as_ref().unwrap().len(), 5);
        }
        assert_ne!(all[0].cube, all[1].cube);
        let random = Study {
            moves: None,
            ..study()
        };
        let mut rng = Rng::new(3);
        for p in random.positions().take(3) {
            assert_eq!(p.cube, Cube::random(&mut rng));
        }
        assert_eq!(
            random.default_out(Some(Shard { k: 2, n: 8 })),
            PathBuf::from("results/lengths-seed3-shard2of8.jsonl")
        );
        assert_eq!(
            study().default_out(None),
            PathBuf::from("results/lengths-seed3-moves5.jsonl")
        );
    }

    #[test]
    fn scrambles_are_canonical() {
        let mut rng = Rng::new(9);
        for _ in 0..200 {
            let s = random_scramble(&mut rng, 12);
            for w in s.windows(2) {
                assert!(crate::cube::allowed_after(Some(w[0]), w[1]), "{s:?}");
            }
        }
    }

    #[test]
    fn csv_and_table_show_the_distribution() {
        let mut c = Collection::of(study());
        let text: String = (0..4).map(line).collect();
        c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
            .unwrap();
        let s = c.summary();
        let csv = lengths_csv(&s);
        let mut expect = BTreeMap::<usize, u64>::new();
        for r in c.records() {
            *expect.entry(r.length).or_default() += 1;
        }
        let mut want = String::from("length,count,fraction\n");
        for (l, n) in expect {
            want += &format!("{l},{n},{:.6}\n", n as f64 / 4.0);
        }
        assert_eq!(csv, want);
        let table = lengths_table(&s);
        assert!(
            table
                .lines()
                .last()
                .unwrap()
                .starts_with("| all | 4 | 1.0000 |")
        );
        // 3 header/rule lines... 2 of them, plus one row per length, plus "all".
        assert_eq!(table.lines().count(), 2 + s.lengths().len() + 1);
    }
}
