//! A coset study run, resumable as a length study's ([`crate::stats::study::StudyRun`]):
//! [`CosetStudyRun::open`] reads what the output file holds (every record checked) and lists
//! the cosets left; [`OpenedCosets::run`] runs them in index order, solves each one's samples
//! beyond the search depth, checks the record and appends it. A stop between cosets or during a
//! sample's search loses only the coset under way.

use super::{CosetRecord, CosetSample, CosetStudy};
use crate::cube::{Metric, format_moves};
use crate::progress::ProgressMode;
use crate::search::SearchOptions;
use crate::solvers::coset::{CosetOptions, CosetSolver, ELEMENTS, representative, sample_elements};
use crate::solvers::optimal::OptimalSolver;
use crate::stats::study::{OpenedStudy, Shard, StudyError};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// What a run is asked for.
#[derive(Clone, Debug)]
pub struct CosetStudyRun {
    pub study: CosetStudy,
    /// Cosets 0..count, all shards together.
    pub count: u64,
    pub shard: Option<Shard>,
    /// The study file: read first, then appended to.
    pub out: PathBuf,
}

/// A coset study file opened for a run: what it holds and the indices left.
pub type OpenedCosets = OpenedStudy<CosetStudyRun, CosetRecord, u64>;

impl CosetStudyRun {
    /// Reads the finished cosets of the output file, if any (every record checked), and opens
    /// the file for appending under its lock.
    pub fn open(&self) -> Result<OpenedCosets, StudyError> {
        OpenedCosets::open(
            self.clone(),
            self.study,
            self.count,
            self.shard,
            &self.out,
            |_| Ok(()),
            0..self.count,
            |&i| i,
        )
    }
}

/// The solvers a run uses: the coset solver, and the optimal solver (with its options and the
/// name of its table set) for the samples beyond the search depth (not needed without samples).
pub struct Solvers<'a> {
    pub coset: &'a CosetSolver,
    pub optimal: Option<&'a OptimalSolver>,
    pub opts: &'a SearchOptions,
    pub set: &'a str,
    pub progress: ProgressMode,
}

impl OpenedStudy<CosetStudyRun, CosetRecord, u64> {
    /// Runs the cosets left in order and appends each one's record; calls
    /// `on_record(record, finished)` after each. Returns `true` when `stop` ended the run early.
    pub fn run(
        &mut self,
        s: &Solvers,
        stop: &AtomicBool,
        mut on_record: impl FnMut(&CosetRecord, u64),
    ) -> Result<bool, String> {
        let study = self.asked().study;
        let mut finished = self.total - self.todo.len() as u64;
        let todo = std::mem::take(&mut self.todo);
        // One bitmap's memory for every coset (`CosetSolver::run_in`), unless samples are to
        // be solved: the optimal solver's tables then take its place between cosets.
        let mut memory = None;
        for (k, &index) in todo.iter().enumerate() {
            let left = || todo[k..].to_vec();
            if stop.load(Relaxed) {
                self.todo = left();
                return Ok(true);
            }
            let coset = study.coset(index);
            let p = representative(coset).expect("the study draws below COSETS");
            let opts = CosetOptions {
                max_depth: study.max_depth,
                search_depth: study.search_depth,
                progress: s.progress,
                samples: sample_elements(study.samples, study.sample_seed(index)),
                settle_below: 0,
            };
            let (report, map) = s
                .coset
                .run_in(&p, &opts, stop, memory.take().unwrap_or_default());
            memory = (study.samples == 0).then_some(map);
            if report.interrupted {
                self.todo = left();
                return Ok(true);
            }
            let exact = report.exact_counts();
            let t0 = Instant::now();
            let mut samples = Vec::with_capacity(report.samples.len());
            for (cube, found) in &report.samples {
                let beyond = found.is_none_or(|d| d as usize >= exact.len());
                let mut sample = CosetSample {
                    facelets: cube.to_facelets(),
                    found: *found,
                    length: found.unwrap_or(0),
                    solution: None,
                    seconds: 0.0,
                };
                if beyond {
                    let optimal = s
                        .optimal
                        .ok_or("internal error: samples without a solver")?;
                    let r = optimal.solve(cube, s.opts, stop);
                    if r.interrupted {
                        self.todo = left();
                        return Ok(true);
                    }
                    let (Some(solution), true) = (&r.solution, r.optimal) else {
                        return Err(format!(
                            "internal error: a sample of coset {coset} was not solved optimally"
                        ));
                    };
                    sample.length = Metric::Htm.length(solution) as u8;
                    sample.solution = Some(format_moves(solution));
                    sample.seconds = r.seconds;
                }
                samples.push(sample);
            }
            let record = CosetRecord {
                index,
                seed: study.seed,
                count: self.count,
                coset,
                search_depth: study.search_depth,
                max_depth: study.max_depth,
                bounded_counts: report.rows[exact.len()..].iter().map(|r| r.found).collect(),
                depth_counts: exact,
                unset: ELEMENTS - report.found(),
                closed: report.closed,
                samples_asked: study.samples,
                samples,
                set: s.set.to_string(),
                seconds: report.seconds,
                sample_seconds: t0.elapsed().as_secs_f64(),
                threads: rayon::current_num_threads(),
                peak_bitmap_bytes: report.peak_bitmap_bytes,
            };
            // Checked before it is written: counts, coset and every sample against the run.
            record
                .check()
                .map_err(|e| format!("internal error: coset {coset}: {e}"))?;
            self.keep(&record)?;
            finished += 1;
            on_record(&record, finished);
        }
        Ok(false)
    }
}
