//! `coset(...)`: the coset solver (`optcube coset`) from Python, returning the CLI's JSON
//! report as a dict.

use optcube::cube::Cube;
use optcube::progress::ProgressMode;
use optcube::solvers::coset::{COSETS, CosetOptions, CosetSolver, representative};
use optcube::solvers::twophase::TwoPhase;
use pyo3::prelude::*;
use std::path::PathBuf;

/// Coset solvers (their phase-1 masks take seconds to make), one per table directory.
static SOLVERS: crate::Cache<CosetSolver> = std::sync::LazyLock::new(Default::default);

/// Every position of a coset of H = <U, D, R2, L2, F2, B2> counted by distance, as
/// `optcube coset --json`: the coset of `position` (scramble or facelets), or coset number
/// `index`, or H itself. `search_depth` below `max_depth` runs the bound mode.
#[pyfunction]
#[pyo3(signature = (position=None, index=None, max_depth=30, search_depth=None, pdb_dir=None, threads=None))]
#[pyo3(
    text_signature = "(position=None, index=None, max_depth=30, search_depth=None, pdb_dir=None, threads=None)"
)]
pub fn coset<'py>(
    py: Python<'py>,
    position: Option<&str>,
    index: Option<u64>,
    max_depth: u8,
    search_depth: Option<u8>,
    pdb_dir: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = match (position, index) {
        (Some(_), Some(_)) => {
            return Err(crate::value_error("give a position or an index, not both"));
        }
        (Some(s), None) => crate::position(s)?,
        (None, Some(n)) => representative(n).ok_or_else(|| {
            crate::value_error(format!(
                "index {n} is out of range: cosets are numbered 0..{COSETS}"
            ))
        })?,
        (None, None) => Cube::SOLVED,
    };
    let search_depth = search_depth.unwrap_or(max_depth);
    if search_depth > max_depth {
        return Err(crate::value_error(format!(
            "search_depth {search_depth} is beyond max_depth {max_depth}"
        )));
    }
    let threads = crate::thread_count(threads)?;
    let dir = crate::dir_or_default(pdb_dir);
    let solver = crate::cached(&SOLVERS, &dir, || {
        let tp = crate::cached(&crate::TWOPHASE, &dir, || {
            py.detach(|| TwoPhase::open(&dir, ProgressMode::auto()))
                .map_err(crate::table_error)
        })?;
        py.detach(|| CosetSolver::with(tp, Some(&dir), ProgressMode::auto()))
            .map_err(crate::table_error)
    })?;
    let opts = CosetOptions {
        max_depth,
        search_depth,
        progress: ProgressMode::Hidden,
        samples: Vec::new(),
        settle_below: 0,
    };
    // Ctrl-C stops the run at the next part of its walk or the next depth, and is raised.
    let pool = optcube::sys::thread_pool(threads)
        .map_err(|e| crate::value_error(format!("threads: {e}")))?;
    let limits = crate::interrupt::Limits {
        deadline: None,
        cancel: None,
    };
    let report = crate::interrupt::interruptible(py, limits, |stop| {
        pool.install(|| solver.run_until(&p, &opts, stop).0)
    })?;
    let mut v = report.to_json();
    v["threads"] = serde_json::json!(threads);
    crate::to_python(py, &v)
}

/// The estimate of the whole cube's distance distribution from a coset study's files
/// (`optcube coset --random-cosets`), as `optcube stats summarize` makes it: a dict with
/// `cosets`, `tail_samples`, `unsampled` and `rows`.
#[pyfunction]
#[pyo3(text_signature = "(files)")]
pub fn coset_estimate<'py>(py: Python<'py>, files: Vec<PathBuf>) -> PyResult<Bound<'py, PyAny>> {
    let (all, _) = optcube::stats::cosets::read_study(&files).map_err(crate::value_error)?;
    let e =
        optcube::stats::cosets::estimate::estimate(all.records()).map_err(crate::value_error)?;
    crate::to_python(py, &e.to_json())
}
