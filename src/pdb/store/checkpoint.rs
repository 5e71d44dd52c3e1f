//! Checkpoints of a long table build: an interrupted build resumes where its last checkpoint
//! left it instead of starting over.
//!
//! A builder whose work is a list of steps that only lower entries (the coset tables' marks,
//! [`crate::pdb::sym48ek`]) saves, between two steps and every so often, its table as it stands
//! and the number of steps done to `NAME.pdb.partial` beside the table. The file is in the one
//! table file format ([`super::file`]); its header's `resume` says how far the build got, and a
//! file with it is never loaded as a table. It is written to a temporary file and renamed, so a
//! kill at any moment leaves the last checkpoint whole. The next build of that table in that
//! directory reads it back, checksum checked, and skips the steps done. A damaged or stale
//! checkpoint (another pattern version, another program version) is an error that names the
//! file, never silently dropped. The finished table's save removes it.
//!
//! **Why a resumed build gives the same bytes.** Each step lowers entries to the least value
//! marked, and a minimum is neither order-dependent nor changed by marking again: the steps
//! before the checkpoint are in the table it holds, the others are done after it.
//!
//! **The cost.** A checkpoint writes the whole table: about 25 s for `sym48e9`'s 15.3 GB here.
//! So one is written only when `every` has passed since the last and the work left, at the
//! pace so far, is at least half of `every` (a checkpoint just before the end saves nothing).

use super::file::{self, TableError, TableInfo};
pub use super::header::ResumePoint;
use super::table::NibbleTable;
use crate::pdb::family::Pattern;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a build writes a checkpoint unless told otherwise (`pdb build --checkpoint-every`).
pub const DEFAULT_EVERY: Duration = Duration::from_secs(180);

/// The checkpoints of one table's build: where they go, how often, and the one read back.
pub struct Checkpoint {
    /// Where checkpoints go and of which table; `None`: the build writes none (tests,
    /// in-memory builds).
    target: Option<(PathBuf, Pattern)>,
    every: Duration,
    started: Instant,
    last: Instant,
    /// Steps done when this process started.
    start_done: u64,
    resumed: Option<(NibbleTable, ResumePoint)>,
}

impl Checkpoint {
    /// No checkpoints: the build starts from nothing and saves nothing.
    pub fn none() -> Checkpoint {
        Checkpoint {
            target: None,
            every: Duration::MAX,
            started: Instant::now(),
            last: Instant::now(),
            start_done: 0,
            resumed: None,
        }
    }

    /// The checkpoint file of the table file `table`: `NAME.pdb.partial`.
    pub fn path_of(table: &Path) -> PathBuf {
        let mut name = table.as_os_str().to_owned();
        name.push(".partial");
        PathBuf::from(name)
    }

    /// The checkpoints of `pattern`'s build into the table file `table`, one every `every`
    /// (`None`: never written, though one already there is still resumed), reading back the
    /// one an interrupted build left. For the builds that checkpoint
    /// ([`Pattern::checkpointed`]); the caller checks.
    pub fn open(
        table: &Path,
        pattern: Pattern,
        every: Option<Duration>,
    ) -> Result<Checkpoint, TableError> {
        let mut c = Checkpoint::none();
        let path = Self::path_of(table);
        if path.exists() {
            let (table, point) = read(&path, pattern)?;
            c.start_done = point.done;
            c.resumed = Some((table, point));
        }
        c.target = every.is_some().then_some((path, pattern));
        c.every = every.unwrap_or(Duration::MAX);
        Ok(c)
    }

    /// The table and how far the interrupted build got, once (`None` when starting afresh).
    pub fn take_resumed(&mut self) -> Option<(NibbleTable, ResumePoint)> {
        self.resumed.take()
    }

    /// Where checkpoints go, if anywhere.
    pub fn path(&self) -> Option<&Path> {
        self.target.as_ref().map(|(p, _)| p.as_path())
    }

    /// Whether to write a checkpoint now, at `done` of `of` steps (see the module docs).
    pub fn due(&self, done: u64, of: u64) -> bool {
        if self.target.is_none() || done >= of || self.last.elapsed() < self.every {
            return false;
        }
        let pace = self.started.elapsed().as_secs_f64() / (done - self.start_done).max(1) as f64;
        pace * (of - done) as f64 >= self.every.as_secs_f64() / 2.0
    }

    /// Writes `table` as the checkpoint at `point` (atomically); the caller makes sure no
    /// thread writes the table meanwhile.
    pub fn save(&mut self, table: &NibbleTable, point: ResumePoint) -> Result<(), TableError> {
        let Some((path, pattern)) = &self.target else {
            return Ok(());
        };
        let payload = table.bytes();
        let mut info = file::describe(&(*pattern).into(), payload, Vec::new(), "checkpoint");
        if let crate::pdb::Format::Lines { base } = table.format() {
            info.line_base = Some(base);
        }
        info.resume = Some(point);
        file::write_table(path, &info, payload)?;
        self.last = Instant::now();
        Ok(())
    }

    /// Removes the checkpoint once the table is saved.
    pub fn remove(table: &Path) -> std::io::Result<()> {
        match std::fs::remove_file(Self::path_of(table)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Reads a checkpoint back into writable huge-page memory, checking its header against
/// `pattern`, its checksum and the program that wrote it.
fn read(path: &Path, pattern: Pattern) -> Result<(NibbleTable, ResumePoint), TableError> {
    let kind = pattern.into();
    let entries = pattern.entries();
    let (table, info): (NibbleTable, TableInfo) = file::read_partial(
        path,
        &kind,
        |f, info| {
            NibbleTable::writable_in_huge_pages(entries, info.format(), |payload| {
                f.read_exact(payload)
            })
        },
        NibbleTable::bytes,
    )?;
    let here = env!("CARGO_PKG_VERSION");
    let point = info
        .resume
        .expect("a checkpoint's header says how far it got");
    if info.program_version != here || point.done > point.of {
        return Err(TableError::Header {
            path: path.into(),
            what: format!(
                "a checkpoint of optcube {} at step {} of {}, and this is optcube {here}",
                info.program_version, point.done, point.of
            ),
            hint: file::rebuild_hint(&kind, path),
        });
    }
    Ok((table, point))
}
