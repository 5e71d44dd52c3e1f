//! A study run, resumable: [`StudyRun::open`] reads what the output file already holds (checked,
//! a half-written last line cut off when appending starts) and lists the positions left;
//! [`Opened::solve`] solves them in index order, appending each finished position's record,
//! until done or stopped. Stopping loses at most the position being searched; running the same
//! study again goes on from there. The command line (`optcube stats lengths`) and Python
//! (`optcube.run_study`) only show progress and the summary.

use super::{
    Appender, Collection, Position, Record, Shard, Study, StudyError, StudyLine, read_file,
};
use crate::cube::Cube;
use crate::search::{SearchOptions, SearchResult};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// What a study file holds when a run opens it.
pub struct Resumed<R: StudyLine> {
    /// Its records, each checked, all of the study (and shard) asked for.
    pub done: Collection<R>,
    /// Length and line count of its complete lines (appending starts there).
    pub good_len: u64,
    pub line: usize,
    /// The line of a half-written last record, to be cut off.
    pub partial_line: Option<usize>,
}

/// Reads a study file `out` for a run of `study` (`shard`: of that shard only), if it exists:
/// the common start of every resumable study run, length or coset.
pub fn resume<R: StudyLine + DeserializeOwned>(
    out: &Path,
    study: R::Study,
    shard: Option<Shard>,
) -> Result<Resumed<R>, StudyError> {
    let mut done = Collection::of(study);
    let (mut good_len, mut line, mut partial_line) = (0, 0, None);
    if out.exists() {
        let parsed = read_file(out)?;
        done.add(out, &parsed, shard)?;
        good_len = parsed.good_len;
        line = parsed.good_lines;
        partial_line = parsed.partial_line;
    }
    Ok(Resumed {
        done,
        good_len,
        line,
        partial_line,
    })
}

/// What a run is asked for.
#[derive(Clone, Debug)]
pub struct StudyRun {
    pub study: Study,
    /// Positions 0..count, all shards together.
    pub count: u64,
    /// Only the positions of this shard.
    pub shard: Option<Shard>,
    /// The study file: read first, then appended to.
    pub out: PathBuf,
    /// Also count each position's optimal solutions (its last iteration searched to the end;
    /// the search options must ask for all of them).
    pub count_solutions: bool,
}

/// A study file opened for a run: what it holds, what is left, and the file, locked, to append
/// to. `Run` is what was asked (a length or a coset study run), `T` an item left (a position, a
/// coset's index).
pub struct OpenedStudy<Run, R: StudyLine, T> {
    run: Run,
    /// The finished items (of the file, then of this run).
    pub done: Collection<R>,
    /// The study's count: the one asked, or the file's if larger.
    pub count: u64,
    /// Items of this run's shard among 0..count asked.
    pub total: u64,
    /// The items left, in index order.
    pub todo: Vec<T>,
    /// The line of a half-written last record, cut off (that item is run again).
    pub partial_line: Option<usize>,
    appender: Appender,
    line: usize,
    out: PathBuf,
    shard: Option<Shard>,
}

/// A length study's file opened for a run.
pub type Opened = OpenedStudy<StudyRun, Record, Position>;

impl<Run, R: StudyLine + Serialize + DeserializeOwned, T> OpenedStudy<Run, R, T> {
    /// Reads `out` for `run` of `study` ([`resume`]), lets `verify` look at its records, and
    /// opens it for appending under its lock. `items` are the study's items 0..count in order
    /// (`index` gives each one's index): those of the shard not finished are left to do.
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        run: Run,
        study: R::Study,
        count: u64,
        shard: Option<Shard>,
        out: &Path,
        verify: impl FnOnce(&Collection<R>) -> Result<(), StudyError>,
        items: impl Iterator<Item = T>,
        index: impl Fn(&T) -> u64,
    ) -> Result<Self, StudyError> {
        let Resumed {
            done,
            good_len,
            line,
            partial_line,
        } = resume(out, study, shard)?;
        verify(&done)?;
        let mine = |i: u64| shard.is_none_or(|s| s.contains(i));
        let total = (0..count).filter(|&i| mine(i)).count() as u64;
        let todo = items
            .filter(|t| mine(index(t)) && !done.contains(index(t)))
            .collect();
        Ok(OpenedStudy {
            count: count.max(done.count()),
            appender: Appender::open(out, good_len)?,
            run,
            done,
            total,
            todo,
            partial_line,
            line,
            out: out.into(),
            shard,
        })
    }

    /// What the run was asked for.
    pub fn asked(&self) -> &Run {
        &self.run
    }

    /// Appends a finished item's record (checked by the caller) and keeps it.
    pub fn keep(&mut self, record: &R) -> Result<(), String> {
        self.appender.append(record).map_err(|e| e.to_string())?;
        self.line += 1;
        (self.done)
            .add_record(&self.out, self.line, record, self.shard)
            .map_err(|e| e.to_string())
    }

    /// The indices of the study's count that no record holds (of this shard).
    pub fn missing(&self) -> Vec<u64> {
        self.done.missing(self.count, self.shard)
    }
}

impl StudyRun {
    /// Reads the finished positions of the output file, if any (every record checked, and
    /// every input against the study's position of its index), and opens the file for
    /// appending under its lock.
    pub fn open(&self) -> Result<Opened, StudyError> {
        Opened::open(
            self.clone(),
            self.study.clone(),
            self.count,
            self.shard,
            &self.out,
            |done| done.verify_inputs().map_err(StudyError::WrongInput),
            self.study.positions().take(self.count as usize),
            |p| p.index,
        )
    }
}

impl Opened {
    /// Solves the positions left in order, each with `search` (the optimal solver, or a goal
    /// solver for a goal study; `opts` its options), and appends its record (naming the table
    /// set `set` and whether `dual` lookups were asked); calls `on_record(record, finished)`
    /// after each, `finished` counting the shard's positions done. Returns `true` when `stop`
    /// ended the run early (the position being searched is left for the next run). Every
    /// record is checked before it is written: its solution solves the position (or takes it
    /// to the study's goal), is optimal and, when counted, so is every collected solution.
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        search: &dyn Fn(&Cube, &SearchOptions, &AtomicBool) -> SearchResult,
        opts: &SearchOptions,
        set: &str,
        dual: bool,
        stop: &AtomicBool,
        mut on_record: impl FnMut(&Record, u64),
    ) -> Result<bool, String> {
        let mut finished = self.total - self.todo.len() as u64;
        let todo = std::mem::take(&mut self.todo);
        let study = self.run.study.clone();
        for (k, p) in todo.iter().enumerate() {
            if stop.load(Relaxed) {
                self.todo = todo[k..].to_vec();
                return Ok(true);
            }
            let r = search(&p.cube, opts, stop);
            if r.interrupted {
                self.todo = todo[k..].to_vec();
                return Ok(true);
            }
            let (Some(solution), true) = (&r.solution, r.optimal) else {
                return Err(format!(
                    "internal error: position {} was not solved optimally",
                    p.index
                ));
            };
            let mut record = Record::new(
                &study,
                set,
                self.count,
                p,
                solution,
                r.nodes,
                r.seconds,
                opts.threads,
                dual,
            );
            record.witnessed = r.witnessed;
            if self.run.count_solutions {
                // Each counted solution is checked on the position, as the one recorded.
                if let Some(e) = (r.solutions.iter()).find_map(|s| study.reached(&p.cube, s).err())
                {
                    return Err(format!(
                        "internal error: position {}: a collected solution: {e}",
                        p.index
                    ));
                }
                record.optimal_solutions = Some(r.solutions.len() as u64);
            }
            record
                .check()
                .map_err(|e| format!("internal error: position {}: {e}", p.index))?;
            self.keep(&record)?;
            finished += 1;
            on_record(&record, finished);
        }
        Ok(false)
    }
}
