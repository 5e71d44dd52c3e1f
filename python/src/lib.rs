//! The `optcube` Python module: the engine's solvers, position helpers and table/study readers,
//! built with PyO3 and maturin. It adds no logic of its own: every answer comes from the
//! library the CLI uses, and every result is the CLI's [`Outcome`] (the same fields as
//! `optcube solve --json`), checked on its position before Python sees it.
//!
//! Invariants:
//! - The GIL is released while tables are built or loaded and while a solver searches.
//! - An optimal search runs on a helper thread ([`interrupt`]): Ctrl-C stops it cleanly and
//!   raises `KeyboardInterrupt`; a `timeout=` or `Solver.cancel()` stops it and the call
//!   returns its result, interrupted, with the bound it proved.
//! - Bad input raises `ValueError` with the CLI's message (an empty position too: never read
//!   as the solved cube), an integer argument out of its type's range `ValueError` naming the
//!   argument and the range ([`args`]), never a bare `OverflowError`; a damaged or stale table
//!   raises `optcube.TableError` (an `OSError`) naming the file.
//!
//! [`Outcome`]: optcube::solvers::outcome::Outcome

mod args;
mod coset;
mod goal;
mod interrupt;
mod outcome;
mod solver;

use optcube::cube::{Cube, Rng, parse_moves, parse_position};
use optcube::pdb::ru::RuTable;
use optcube::pdb::set::{SetError, default_dir};
use optcube::progress::ProgressMode;
use optcube::solvers::outcome::Outcome;
use optcube::solvers::request::{Admitted, Front, Refusal, SolveJob, SolverKind};
use optcube::solvers::thistlethwaite::Thistlethwaite;
use optcube::solvers::twophase::TwoPhase;
use outcome::PyOutcome;
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use solver::Solver;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

create_exception!(
    optcube,
    TableError,
    PyOSError,
    "A table file is missing, damaged or stale (the message names the file)."
);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn table_error(e: impl std::fmt::Display) -> PyErr {
    TableError::new_err(e.to_string())
}

fn set_error(e: SetError) -> PyErr {
    match e {
        SetError::UnknownSet { .. } => value_error(e),
        e => table_error(e),
    }
}

/// A position from a scramble or a 54-character facelet string, with the CLI's messages: an
/// empty or all-blank text is refused (`InputError::Empty`, the words of `optcube solve ""`).
fn position(text: &str) -> PyResult<Cube> {
    parse_position(text).map_err(|e| match e {
        optcube::cube::InputError::Facelets(f) => value_error(format!("invalid position: {f}")),
        e => value_error(e),
    })
}

/// A refusal of the request layer in Python's words (options by their keywords).
fn refused(r: Refusal) -> PyErr {
    value_error(r.message(Front::Python))
}

/// The position of `text`, turned toward the request's target and checked against its goal
/// and move set ([`Admitted::admit`]; a refusal names the position as the CLI names it).
fn admitted(admitted: &Admitted, text: &str) -> PyResult<Cube> {
    let mut inputs = [(text.trim().to_string(), position(text)?)];
    admitted
        .admit(&mut inputs, &[text.trim().to_string()])
        .map_err(refused)?;
    Ok(inputs[0].1)
}

fn dir_or_default(pdb_dir: Option<PathBuf>) -> PathBuf {
    pdb_dir.unwrap_or_else(default_dir)
}

fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    optcube::sys::threads(threads).map_err(|e| value_error(format!("threads: {e}")))
}

/// Runs `work` on a rayon pool of `threads` workers with the GIL released.
fn pooled<T: Send>(py: Python<'_>, threads: usize, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let pool =
        optcube::sys::thread_pool(threads).map_err(|e| value_error(format!("threads: {e}")))?;
    Ok(py.detach(|| pool.install(work)))
}

/// A JSON value as Python objects (through the json module: exactly what `json.loads` of the
/// CLI's line gives).
fn to_python<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// Two-phase and Thistlethwaite tables, opened once per directory and kept.
type Cache<T> = LazyLock<Mutex<HashMap<PathBuf, Arc<T>>>>;
static TWOPHASE: Cache<TwoPhase> = LazyLock::new(Default::default);
static THISTLETHWAITE: Cache<Thistlethwaite> = LazyLock::new(Default::default);
static RU_TABLE: Cache<RuTable> = LazyLock::new(Default::default);

/// The solver cached for `dir`, opened first if there is none. The lock is not held while
/// tables are opened (which may build them).
fn cached<T>(cache: &Cache<T>, dir: &Path, open: impl FnOnce() -> PyResult<T>) -> PyResult<Arc<T>> {
    if let Some(t) = cache.lock().unwrap().get(dir) {
        return Ok(t.clone());
    }
    let t = Arc::new(open()?);
    cache.lock().unwrap().insert(dir.to_path_buf(), t.clone());
    Ok(t)
}

/// Kociemba's two-phase solver: the first solution of at most `max_length` in `metric` ("htm"
/// or "qtm"; default the metric's diameter, 20 or 26), or the shortest found within `timeout`
/// seconds. Not optimal.
#[pyfunction]
#[pyo3(signature = (position, max_length=None, timeout=10.0, pdb_dir=None, threads=None, metric=optcube::cube::Metric::Htm))]
#[pyo3(
    text_signature = "(position, max_length=None, timeout=10.0, pdb_dir=None, threads=None, metric='htm')"
)]
fn twophase(
    py: Python<'_>,
    position: &str,
    #[pyo3(from_py_with = args::max_length)] max_length: Option<usize>,
    timeout: f64,
    pdb_dir: Option<PathBuf>,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::metric)] metric: optcube::cube::Metric,
) -> PyResult<PyOutcome> {
    let job = SolveJob {
        solver: SolverKind::Twophase,
        metric,
        timeout: Some(timeout),
        max_length,
        threads,
        ..SolveJob::default()
    };
    let threads = job.check().map_err(refused)?.threads;
    let cube = self::position(position)?;
    // No deadline (timeout=inf) is one far away: the solver adds it to the present instant,
    // which a Duration::MAX would overflow.
    let timeout = args::deadline(Some(timeout)).map_or(NO_DEADLINE, |t| t.min(NO_DEADLINE));
    let max_length = max_length.unwrap_or(metric.diameter() as usize);
    let dir = dir_or_default(pdb_dir);
    let solver = cached(&TWOPHASE, &dir, || {
        py.detach(|| TwoPhase::open(&dir, ProgressMode::auto()))
            .map_err(table_error)
    })?;
    let t = Instant::now();
    let r = py.detach(|| solver.solve_in(metric, &cube, max_length, timeout, threads));
    let seconds = t.elapsed().as_secs_f64();
    let outcome = Outcome::from_twophase(position.trim(), r, metric, max_length, seconds);
    PyOutcome::checked(outcome, &cube)
}

/// Longer than any run (136 years), short enough to add to an instant.
const NO_DEADLINE: Duration = Duration::from_secs(u32::MAX as u64);

/// Thistlethwaite's four-phase solver (each phase optimal, the whole not).
#[pyfunction]
#[pyo3(signature = (position, pdb_dir=None))]
fn thistlethwaite(py: Python<'_>, position: &str, pdb_dir: Option<PathBuf>) -> PyResult<PyOutcome> {
    let cube = self::position(position)?;
    let dir = dir_or_default(pdb_dir);
    let solver = cached(&THISTLETHWAITE, &dir, || {
        py.detach(|| Thistlethwaite::open(&dir))
            .map_err(table_error)
    })?;
    let t = Instant::now();
    let s = py.detach(|| solver.try_solve(&cube)).map_err(value_error)?;
    let outcome = Outcome::from_thistlethwaite(position.trim(), s, t.elapsed().as_secs_f64());
    PyOutcome::checked(outcome, &cube)
}

/// The facelet string of a scramble (`optcube facelets SCRAMBLE`). A move sequence, not a
/// position: the empty one is the solved cube's string, as for the CLI (only a position to
/// solve is refused when empty).
#[pyfunction]
fn facelets(scramble: &str) -> PyResult<String> {
    let moves = parse_moves(scramble).map_err(value_error)?;
    Ok(Cube::from_moves(&moves).to_facelets())
}

/// Is this a valid facelet string of a reachable position?
#[pyfunction]
fn is_valid(facelets: &str) -> bool {
    Cube::from_facelets(facelets).is_ok()
}

/// Raises ValueError with the CLI's reason (`optcube facelets --check`) if the facelet string
/// is not a valid position.
#[pyfunction]
fn validate(facelets: &str) -> PyResult<()> {
    Cube::from_facelets(facelets)
        .map(|_| ())
        .map_err(|e| value_error(format!("invalid position: {e}")))
}

/// `n` uniformly random positions as facelet strings, reproducible from `seed` (the same as
/// `optcube scramble --random N --seed SEED`).
#[pyfunction]
fn random_positions(
    #[pyo3(from_py_with = args::n)] n: usize,
    #[pyo3(from_py_with = args::seed)] seed: u64,
) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| Cube::random(&mut rng).to_facelets())
        .collect()
}

/// The default table directory ($OPTCUBE_PDB_DIR or pdb/).
#[pyfunction]
fn default_pdb_dir() -> PathBuf {
    default_dir()
}

/// One dict per table file in the directory (`optcube pdb info --json`): name,
/// file, entries, bytes, pieces, histogram, mean, checksum, generator, valid, error.
#[pyfunction]
#[pyo3(signature = (pdb_dir=None))]
fn pdb_info<'py>(py: Python<'py>, pdb_dir: Option<PathBuf>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let dir = dir_or_default(pdb_dir);
    let reports = py.detach(|| optcube::solvers::inspect(&dir));
    reports
        .iter()
        .map(|r| to_python(py, &r.to_json()))
        .collect()
}

/// The finished records of a length study's JSON-lines file, one dict each (a torn last line,
/// left by a killed run, is skipped as `stats lengths` does).
#[pyfunction]
fn read_study<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let parsed: optcube::stats::study::Parsed =
        optcube::stats::study::read_file(&path).map_err(value_error)?;
    parsed
        .records
        .iter()
        .map(|(_, r)| {
            let v = serde_json::to_value(r).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            to_python(py, &v)
        })
        .collect()
}

/// Positions at each exact distance from solved, as `optcube stats distances` (in memory; the
/// command line's `--spill` counts depth 10 through disk): one dict a depth, 0..=max_depth,
/// with `depth`, `positions`, `classes`, `published` (HTM: Rokicki et al., None past depth 10;
/// QTM: OEIS A080602, None past 12; STM: Rokicki, None past 9; ATM: None) and `matches`
/// (False if a published count differs). `reduce` is "sym-inv" (classes under the 48
/// symmetries and inversion, the default), "sym" or "none" (whole positions); `metric` "htm",
/// "qtm", "stm" or "atm". A depth whose search does not fit in the
/// memory available raises MemoryError before any work; past the metric's diameter, or past
/// the published counts, ValueError.
#[pyfunction]
#[pyo3(signature = (max_depth, reduce="sym-inv", threads=None, metric=optcube::cube::Metric::Htm))]
#[pyo3(text_signature = "(max_depth, reduce='sym-inv', threads=None, metric='htm')")]
fn distances<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::max_depth)] max_depth: u8,
    reduce: &str,
    #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::metric)] metric: optcube::cube::Metric,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    use optcube::coord::positions::Reduction;
    use optcube::stats::distance_job::{DistanceJob, JobError, check_published};
    let reduction = match reduce {
        "sym-inv" => Some(Reduction::SymmetryAndInverse),
        "sym" => Some(Reduction::Symmetry),
        "none" => None,
        other => {
            return Err(value_error(format!(
                "reduce={other:?}: one of \"sym-inv\", \"sym\", \"none\""
            )));
        }
    };
    let job = DistanceJob {
        metric,
        max_depth,
        reduction,
        spill: None,
    };
    job.plan(optcube::sys::available_memory())
        .map_err(|e| match e {
            JobError::Memory { .. } => {
                PyMemoryError::new_err(format!("max_depth={max_depth}: {e}"))
            }
            e => value_error(format!("max_depth={max_depth}: {e}")),
        })?;
    let threads = thread_count(threads)?;
    let counts =
        pooled(py, threads, || job.run(|_, _| {}, |_| {}))?.map_err(PyRuntimeError::new_err)?;
    check_published(&counts.0, reduction, metric)
        .iter()
        .enumerate()
        .map(|(d, c)| {
            let v = serde_json::json!({
                "depth": d,
                "positions": c.count.positions,
                "classes": c.count.classes,
                "published": c.published,
                "matches": c.matches() != Some(false),
            });
            to_python(py, &v)
        })
        .collect()
}

/// The table sets by name, each with its tables in lookup order, as `optcube pdb sets`
/// (the one list: the library's registry).
#[pyfunction]
fn table_sets() -> Vec<(String, Vec<String>)> {
    optcube::pdb::set::SETS
        .iter()
        .map(|s| {
            let tables = s.tables.iter().map(|p| p.name().to_string()).collect();
            (s.name.to_string(), tables)
        })
        .collect()
}

#[pymodule]
#[pyo3(name = "optcube")]
fn optcube_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TableError", m.py().get_type::<TableError>())?;
    m.add_class::<Solver>()?;
    m.add_class::<PyOutcome>()?;
    m.add_function(wrap_pyfunction!(twophase, m)?)?;
    m.add_function(wrap_pyfunction!(table_sets, m)?)?;
    m.add_function(wrap_pyfunction!(thistlethwaite, m)?)?;
    m.add_function(wrap_pyfunction!(facelets, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(random_positions, m)?)?;
    m.add_function(wrap_pyfunction!(default_pdb_dir, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_info, m)?)?;
    m.add_function(wrap_pyfunction!(read_study, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    m.add_function(wrap_pyfunction!(coset::coset, m)?)?;
    m.add_function(wrap_pyfunction!(coset::coset_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(goal::goals, m)?)?;
    m.add_function(wrap_pyfunction!(goal::solve_goal, m)?)?;
    m.add_function(wrap_pyfunction!(goal::goal_distances, m)?)?;
    Ok(())
}
