//! `coset(...)`: the coset solver (`optcube coset`) from Python, returning the CLI's JSON
//! report as a dict.

use optcube::pdb::set;
use optcube::progress::ProgressMode;
use optcube::solvers::coset::settle::{self, Settler, UNSET_LIMIT};
use optcube::solvers::coset::{CosetReport, CosetSolver, ELEMENTS};
use optcube::solvers::request::CosetJob;
use optcube::solvers::twophase::TwoPhase;
use pyo3::prelude::*;
use std::path::PathBuf;

/// Coset solvers (their phase-1 masks take seconds to make), one per table directory.
static SOLVERS: crate::Cache<CosetSolver> = std::sync::LazyLock::new(Default::default);

/// Every position of a coset of H = <U, D, R2, L2, F2, B2> counted by distance, as
/// `optcube coset --json`: the coset of `position` (scramble or facelets), or coset number
/// `index`, or H itself. With neither depth given, every distance: the walk hands its last few
/// positions over to the optimal solver (table set `set`, chosen as the CLI chooses when
/// None), as the CLI's default run does; `settle` does the same after a run with depths.
/// `search_depth` below `max_depth` runs the bound mode; `max_depth=20` without it is the
/// fastest proof that the coset is within 20 (a search to 15, as the CLI).
#[pyfunction]
#[pyo3(signature = (position=None, index=None, max_depth=None, search_depth=None, settle=false, set=None, pdb_dir=None, threads=None))]
#[pyo3(
    text_signature = "(position=None, index=None, max_depth=None, search_depth=None, settle=False, set=None, pdb_dir=None, threads=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn coset<'py>(
    py: Python<'py>,
    position: Option<&str>,
    index: Option<i64>,
    max_depth: Option<u8>,
    search_depth: Option<u8>,
    settle: bool,
    set: Option<String>,
    pdb_dir: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = CosetJob {
        position: position.map(str::to_string),
        index,
        max_depth,
        search_depth,
        settle,
        ..CosetJob::default()
    };
    let plan = job.plan().map_err(crate::refused)?;
    let p = plan.coset.expect("a run of one coset names it");
    let settle = plan.settle;
    let threads = crate::thread_count(threads)?;
    let dir = crate::dir_or_default(pdb_dir);
    // The settling tables are named before hours of walking, so that a wrong name fails now.
    let patterns = if settle {
        let set = set.unwrap_or_else(|| {
            set::choose(&dir, optcube::sys::available_memory())
                .set
                .to_string()
        });
        Some(set::resolve_names(&[&set]).map_err(crate::set_error)?)
    } else {
        None
    };
    let solver = crate::cached(&SOLVERS, &dir, || {
        let tp = crate::cached(&crate::TWOPHASE, &dir, || {
            py.detach(|| TwoPhase::open(&dir, ProgressMode::auto()))
                .map_err(crate::table_error)
        })?;
        py.detach(|| CosetSolver::with(tp, Some(&dir), ProgressMode::auto()))
            .map_err(crate::table_error)
    })?;
    let opts = plan.options(ProgressMode::Hidden, Vec::new());
    // Ctrl-C stops the run at the next part of its walk or the next depth (or the settling
    // search at its next iteration), and is raised.
    let pool = optcube::sys::thread_pool(threads)
        .map_err(|e| crate::value_error(format!("threads: {e}")))?;
    let limits = crate::interrupt::Limits {
        deadline: None,
        cancel: None,
    };
    let outcome = crate::interrupt::interruptible(py, limits, |stop| {
        pool.install(|| -> PyResult<(CosetReport, Option<f64>)> {
            let (report, map) = solver.run_until(&p, &opts, stop);
            let Some(patterns) = patterns.filter(|_| !report.interrupted) else {
                return Ok((report, None));
            };
            let unset = ELEMENTS - report.found();
            if unset > UNSET_LIMIT {
                return Err(crate::value_error(format!(
                    "{unset} positions are unset, more than settle takes ({UNSET_LIMIT}); \
                     raise max_depth or search_depth"
                )));
            }
            settle::check_settleable(&report).map_err(crate::value_error)?;
            let start = std::time::Instant::now();
            let mut missing = Vec::new();
            solver.for_each_missing(&p, &map, |x| missing.push(x));
            // The bitmaps' memory goes back before the optimal solver's tables are read.
            drop(map);
            let settler = Settler::open(&dir, patterns, threads, ProgressMode::auto())
                .map_err(crate::set_error)?;
            let settled = settler
                .settle(&report, &missing, ProgressMode::Hidden, stop)
                .map_err(crate::value_error)?;
            Ok((settled, Some(start.elapsed().as_secs_f64())))
        })
    })?;
    let (report, settle_seconds) = outcome?;
    let mut v = report.to_json();
    v["threads"] = serde_json::json!(threads);
    if let Some(s) = settle_seconds {
        v["settle_seconds"] = serde_json::json!(s);
    }
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
