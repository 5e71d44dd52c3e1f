//! The `optcube` Python module: the engine's solvers, position helpers and table/study readers,
//! built with PyO3 and maturin. It adds no logic of its own: every answer comes from the
//! library the CLI uses, and every result is the CLI's [`Outcome`] (the same fields as
//! `optcube solve --json`), checked on its position before Python sees it.
//!
//! Invariants:
//! - The GIL is released while tables are built or loaded and while a solver searches.
//! - An optimal search runs on a helper thread; the calling thread polls Python's signal
//!   handlers every 50 ms, so Ctrl-C sets the search's stop flag, the search returns cleanly and
//!   the call raises `KeyboardInterrupt`.
//! - Bad input raises `ValueError` with the CLI's message; a damaged or stale table raises
//!   `optcube.TableError` (an `OSError`) naming the file.

use optcube::cube::{Cube, Rng, format_moves, parse_moves, parse_position};
use optcube::pdb::ru::RuTable;
use optcube::pdb::set::{self, SetError, default_dir, resolve_names};
use optcube::progress::ProgressMode;
use optcube::search::SearchOptions;
use optcube::search::subset::{self, MoveSet};
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver};
use optcube::solvers::outcome::{Detail, Outcome};
use optcube::solvers::thistlethwaite::Thistlethwaite;
use optcube::solvers::twophase::TwoPhase;
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, mpsc};
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

/// A position from a scramble or a 54-character facelet string, with the CLI's messages.
fn position(text: &str) -> PyResult<Cube> {
    parse_position(text).map_err(|e| match e {
        optcube::cube::InputError::Facelets(f) => value_error(format!("invalid position: {f}")),
        e => value_error(e),
    })
}

fn dir_or_default(pdb_dir: Option<PathBuf>) -> PathBuf {
    pdb_dir.unwrap_or_else(default_dir)
}

fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(n) => optcube::sys::check_threads(n).map_err(|e| value_error(format!("threads: {e}"))),
        None => Ok(optcube::sys::cores()),
    }
}

/// Runs `work` on a rayon pool of `threads` workers with the GIL released.
fn pooled<T: Send>(py: Python<'_>, threads: usize, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let pool =
        optcube::sys::thread_pool(threads).map_err(|e| value_error(format!("threads: {e}")))?;
    Ok(py.detach(|| pool.install(work)))
}

/// Runs `work(stop)` on a helper thread with the GIL released; Ctrl-C (any pending Python
/// signal) sets `stop`, waits for `work` to return, and is raised after it.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let mut signal: Option<PyErr> = None;
    let out = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let stop = &stop;
            let worker = s.spawn(move || {
                let _ = tx.send(work(stop));
            });
            loop {
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(v) => return Some(v),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // The worker panicked: its panic is reported below.
                        let _ = worker.join();
                        return None;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if signal.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            signal = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        })
    });
    match (signal, out) {
        (Some(e), _) => Err(e),
        (None, Some(v)) => Ok(v),
        (None, None) => Err(PyRuntimeError::new_err(
            "internal error: the search panicked",
        )),
    }
}

/// A solver's answer for one position: the fields of `optcube solve --json`.
#[pyclass(frozen, module = "optcube", name = "Result")]
struct PyOutcome {
    outcome: Outcome,
    /// The optimal solver's table set (`"set"` in `to_dict`, as in the CLI's JSON).
    set: Option<String>,
}

impl PyOutcome {
    /// Checks the solution on the position (every answer passes through here).
    fn checked(outcome: Outcome, cube: &Cube) -> PyResult<PyOutcome> {
        outcome.check(cube).map_err(PyRuntimeError::new_err)?;
        Ok(PyOutcome { outcome, set: None })
    }

    /// The outcome of a search with the table set `set`.
    fn with_set(mut self, set: &str) -> PyOutcome {
        self.set = Some(set.to_string());
        self
    }
}

#[pymethods]
impl PyOutcome {
    /// The input as given.
    #[getter]
    fn input(&self) -> &str {
        &self.outcome.input
    }
    /// "optimal", "twophase" or "thistlethwaite".
    #[getter]
    fn solver(&self) -> &'static str {
        self.outcome.solver()
    }
    /// The solution in the CLI's notation ("R U2 F'"), or None.
    #[getter]
    fn solution(&self) -> Option<String> {
        self.outcome.solution.as_ref().map(|s| format_moves(s))
    }
    /// The solution's moves as a list of tokens.
    #[getter]
    fn moves(&self) -> Option<Vec<String>> {
        self.outcome
            .solution
            .as_ref()
            .map(|s| s.iter().map(|m| m.to_string()).collect())
    }
    #[getter]
    fn length(&self) -> Option<usize> {
        self.outcome.solution.as_ref().map(Vec::len)
    }
    /// True only when a complete search proved no shorter solution exists.
    #[getter]
    fn optimal(&self) -> bool {
        self.outcome.is_optimal()
    }
    #[getter]
    fn nodes(&self) -> u64 {
        self.outcome.nodes
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.outcome.seconds
    }
    /// Optimal solver: no solution is shorter than this.
    #[getter]
    fn lower_bound(&self) -> Option<u8> {
        match self.outcome.detail {
            Detail::Optimal { lower_bound, .. } => Some(lower_bound),
            _ => None,
        }
    }
    /// Optimal solver: the optimal solutions found (sorted; `Solver.solve_all`), or the one
    /// solution as a list of one; None without a solution.
    #[getter]
    fn solutions(&self) -> Option<Vec<String>> {
        match self.outcome.collected() {
            Some(c) => Some(c.solutions.iter().map(|s| format_moves(s)).collect()),
            None => self.solution().map(|s| vec![s]),
        }
    }
    /// Optimal solver: the number of optimal solutions, once `Solver.solve_all` found them
    /// all; else None.
    #[getter]
    fn optimal_solutions(&self) -> Option<usize> {
        self.outcome.collected().and_then(|c| c.count())
    }
    /// Optimal solver: with `solve_all(..., unique="symmetry")`, the number of classes of
    /// optimal solutions under the position's symmetries (`solutions` then holds the least of
    /// each); else None.
    #[getter]
    fn symmetry_classes(&self) -> Option<usize> {
        let c = self.outcome.collected()?;
        c.up_to_symmetry.map(|_| c.solutions.len())
    }
    /// Optimal solver: the search was interrupted.
    #[getter]
    fn interrupted(&self) -> bool {
        self.outcome.interrupted()
    }
    /// Optimal solver: one dict per iteration (bound, nodes, seconds).
    #[getter]
    fn iterations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.outcome.to_json();
        to_python(py, v.get("iterations").unwrap_or(&serde_json::Value::Null))
    }
    /// Two-phase solver: a solution within the asked length was found.
    #[getter]
    fn within_max_length(&self) -> Option<bool> {
        match self.outcome.detail {
            Detail::Twophase { within_max_length } => Some(within_max_length),
            _ => None,
        }
    }
    /// Thistlethwaite solver: the length of each phase before merging.
    #[getter]
    fn phase_lengths(&self) -> Option<Vec<usize>> {
        match &self.outcome.detail {
            Detail::Thistlethwaite { phases } => Some(phases.iter().map(Vec::len).collect()),
            _ => None,
        }
    }
    /// The result as a dict with exactly the keys of `optcube solve --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = self.outcome.to_json();
        if let Some(set) = &self.set {
            v["set"] = serde_json::json!(set);
        }
        to_python(py, &v)
    }
    fn __repr__(&self) -> String {
        let solution = match self.solution() {
            Some(s) => format!("{s:?}"),
            None => "None".into(),
        };
        format!(
            "optcube.Result(solver={:?}, input={:?}, solution={solution}, optimal={})",
            self.outcome.solver(),
            self.outcome.input,
            if self.optimal() { "True" } else { "False" }
        )
    }
}

/// A JSON value as Python objects (through the json module: exactly what `json.loads` of the
/// CLI's line gives).
fn to_python<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// The optimal solver with its tables loaded once.
#[pyclass(frozen, module = "optcube")]
struct Solver {
    solver: OptimalSolver,
    options: SearchOptions,
    dir: PathBuf,
    set: String,
    dual: bool,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (pdb_dir=None, set=None, threads=None, dual=false, sym=false, max_depth=20, successors=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        pdb_dir: Option<PathBuf>,
        set: Option<String>,
        threads: Option<usize>,
        dual: bool,
        sym: bool,
        max_depth: u8,
        successors: bool,
    ) -> PyResult<Solver> {
        let threads = thread_count(threads)?;
        let dir = dir_or_default(pdb_dir);
        // As the CLI: the fastest set whose tables are present, else the fastest whose build
        // fits in the memory available (built now).
        let set = set.unwrap_or_else(|| {
            set::choose(&dir, optcube::sys::available_memory())
                .set
                .to_string()
        });
        let patterns = resolve_names(&[&set]).map_err(set_error)?;
        let config = OptimalConfig {
            threads,
            max_depth,
            dual,
            sym,
            successors,
            ..OptimalConfig::for_tables(patterns)
        };
        let solver = pooled(py, threads, || {
            OptimalSolver::configured(&dir, &config, ProgressMode::auto())
        })?
        .map_err(set_error)?;
        Ok(Solver {
            solver,
            options: config.search_options(),
            dir,
            set,
            dual,
        })
    }

    /// Solves one position (a scramble or a facelet string) optimally.
    fn solve(&self, py: Python<'_>, position: &str) -> PyResult<PyOutcome> {
        let cube = self::position(position)?;
        let r = interruptible(py, |stop| self.solver.solve(&cube, &self.options, stop))?;
        let outcome = Outcome::from_search(position.trim(), r, None, 1);
        Ok(PyOutcome::checked(outcome, &cube)?.with_set(&self.set))
    }

    /// Solves one position and collects its optimal solutions: all of them, or the first
    /// `limit` in the search's order (the same on any number of threads); every one is checked
    /// on the position. `unique="symmetry"` keeps the least of each class under the
    /// position's symmetries (as the CLI's `--unique symmetry`; needs every solution).
    #[pyo3(signature = (position, limit=None, unique=None))]
    fn solve_all(
        &self,
        py: Python<'_>,
        position: &str,
        limit: Option<usize>,
        unique: Option<&str>,
    ) -> PyResult<PyOutcome> {
        match (unique, limit) {
            (None, _) | (Some("symmetry"), None) => {}
            (Some("symmetry"), Some(_)) => {
                return Err(value_error(
                    "unique=\"symmetry\" needs every solution: no limit",
                ));
            }
            (Some(other), _) => {
                return Err(value_error(format!(
                    "unique must be \"symmetry\" or None, not {other:?}"
                )));
            }
        }
        let solutions = match limit {
            Some(0) => return Err(value_error("limit must be at least 1")),
            Some(n) => n,
            None => optcube::search::ALL_SOLUTIONS,
        };
        let opts = SearchOptions {
            solutions,
            ..self.options.clone()
        };
        let cube = self::position(position)?;
        let r = interruptible(py, |stop| self.solver.solve(&cube, &opts, stop))?;
        let mut outcome = Outcome::from_search(position.trim(), r, None, solutions);
        if let (Some(_), Some(c)) = (unique, outcome.collected_mut()) {
            c.to_classes(&cube).map_err(value_error)?;
        }
        Ok(PyOutcome::checked(outcome, &cube)?.with_set(&self.set))
    }

    /// Solves one position with the turns of `moveset` only ("R U", "U D R L F2 B2"),
    /// optimally among the sequences they make, as the CLI's `solve --moveset`: two adjacent
    /// faces read the exact <R,U> table (built in pdb_dir on first use, about 2 s), other sets
    /// are searched with this solver's tables on one thread. `all=True` collects every optimal
    /// solution. A position the set cannot reach raises ValueError.
    #[pyo3(signature = (position, moveset, all=false))]
    fn solve_in(
        &self,
        py: Python<'_>,
        position: &str,
        moveset: &str,
        all: bool,
    ) -> PyResult<PyOutcome> {
        use optcube::solvers::moveset::{self, Route};
        let set = MoveSet::parse(moveset).map_err(value_error)?;
        let cube = self::position(position)?;
        if let Some(why) = moveset::refusal(&set, &cube) {
            return Err(value_error(why));
        }
        let opts = SearchOptions {
            solutions: if all {
                optcube::search::ALL_SOLUTIONS
            } else {
                1
            },
            ..self.options.clone()
        };
        let input = position.trim();
        let (outcome, label) = match subset::exact_table_symmetry(&set) {
            Some(sym) => {
                let table = cached(&RU_TABLE, &self.dir, || {
                    py.detach(|| RuTable::open(&self.dir, ProgressMode::auto()))
                        .map_err(table_error)
                })?;
                let route = Route::Exact { table: &table, sym };
                let never = AtomicBool::new(false);
                let outcome =
                    py.detach(|| moveset::solve(input, &cube, &set, route, &opts, &never));
                (outcome, optcube::pdb::ru::TABLE_NAME)
            }
            None => (
                interruptible(py, |stop| {
                    let route = Route::Search(self.solver.heuristic());
                    moveset::solve(input, &cube, &set, route, &opts, stop)
                })?,
                self.set.as_str(),
            ),
        };
        let outcome = outcome.map_err(PyRuntimeError::new_err)?;
        Ok(PyOutcome::checked(outcome, &cube)?.with_set(label))
    }

    /// Runs (or resumes) the optimal-length study of `seed`'s first `count` positions into the
    /// JSON-lines file `out`, as `optcube stats lengths`: positions already in the file are
    /// skipped (their records checked), each finished one is appended, and Ctrl-C stops after
    /// losing at most the position being searched. `shard="K/N"` takes the positions with
    /// index mod N == K; `moves=L` draws L-move scrambles instead of random positions;
    /// `count_solutions` also counts each position's optimal solutions. Returns a dict with
    /// `finished`, `total` (this shard's positions), `interrupted` and `missing` (indices with
    /// no record yet); the records are `read_study(out)`.
    #[pyo3(signature = (count, seed, out, shard=None, moves=None, count_solutions=false))]
    #[allow(clippy::too_many_arguments)]
    fn run_study<'py>(
        &self,
        py: Python<'py>,
        count: u64,
        seed: u64,
        out: PathBuf,
        shard: Option<&str>,
        moves: Option<u32>,
        count_solutions: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        use optcube::stats::study::{Shard, Study, StudyRun};
        if count == 0 {
            return Err(value_error("count: at least 1 position"));
        }
        let shard = shard
            .map(|s| s.parse::<Shard>())
            .transpose()
            .map_err(|e| value_error(format!("shard: {e}")))?;
        let run = StudyRun {
            study: Study { seed, moves },
            count,
            shard,
            out,
            count_solutions,
        };
        let mut opened = run.open().map_err(|e| value_error(e.to_string()))?;
        let opts = SearchOptions {
            solutions: if count_solutions {
                optcube::search::ALL_SOLUTIONS
            } else {
                1
            },
            ..self.options.clone()
        };
        let solver = &self.solver;
        let (set, dual) = (self.set.as_str(), self.dual);
        let interrupted = interruptible(py, |stop| {
            let r = opened.solve(solver, &opts, set, dual, stop, |_, _| {});
            (r, opened)
        })?;
        let (result, opened) = interrupted;
        let interrupted = result.map_err(PyRuntimeError::new_err)?;
        let v = serde_json::json!({
            "finished": opened.total - opened.todo.len() as u64,
            "total": opened.total,
            "interrupted": interrupted,
            "missing": opened.missing(),
        });
        to_python(py, &v)
    }

    /// Solves every position of an iterable, in order; bad input raises before any search,
    /// naming the item (its index from 0, and its text).
    fn solve_many(&self, py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Vec<PyOutcome>> {
        let mut inputs = Vec::new();
        for (i, item) in positions.try_iter()?.enumerate() {
            let text: String = item?
                .extract()
                .map_err(|e| value_error(format!("item {i}: not a string: {e}")))?;
            let cube = self::position(&text).map_err(|e| {
                value_error(format!("item {i} ({:?}): {}", text.trim(), e.value(py)))
            })?;
            inputs.push((text, cube));
        }
        inputs
            .iter()
            .map(|(text, _)| self.solve(py, text))
            .collect()
    }

    #[getter]
    fn pdb_dir(&self) -> PathBuf {
        self.dir.clone()
    }
    #[getter]
    fn set(&self) -> &str {
        &self.set
    }
    #[getter]
    fn threads(&self) -> usize {
        self.options.threads
    }
    #[getter]
    fn dual(&self) -> bool {
        self.dual
    }
    /// The tables in lookup order: (name, entries).
    fn tables(&self) -> Vec<(String, u64)> {
        self.solver
            .heuristic()
            .tables()
            .iter()
            .map(|(p, _)| (p.name().to_string(), p.entries()))
            .collect()
    }
    fn __repr__(&self) -> String {
        format!(
            "optcube.Solver(pdb_dir={:?}, set={:?}, threads={}, dual={})",
            self.dir.display().to_string(),
            self.set,
            self.options.threads,
            if self.dual { "True" } else { "False" }
        )
    }
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

/// Kociemba's two-phase solver: the first solution of at most `max_length` moves (default
/// 20), or the shortest found within `timeout` seconds. Not optimal.
#[pyfunction]
#[pyo3(signature = (position, max_length=None, timeout=10.0, pdb_dir=None, threads=None))]
fn twophase(
    py: Python<'_>,
    position: &str,
    max_length: Option<usize>,
    timeout: f64,
    pdb_dir: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<PyOutcome> {
    let cube = self::position(position)?;
    if timeout.is_nan() || timeout <= 0.0 {
        return Err(value_error("timeout must be a positive number of seconds"));
    }
    let max_length = max_length.unwrap_or(20);
    let threads = thread_count(threads)?;
    let dir = dir_or_default(pdb_dir);
    let solver = cached(&TWOPHASE, &dir, || {
        py.detach(|| TwoPhase::open(&dir, ProgressMode::auto()))
            .map_err(table_error)
    })?;
    let t = Instant::now();
    let r = py
        .detach(|| solver.solve_with(&cube, max_length, Duration::from_secs_f64(timeout), threads));
    let outcome = Outcome::from_twophase(position.trim(), r, max_length, t.elapsed().as_secs_f64());
    PyOutcome::checked(outcome, &cube)
}

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

/// The facelet string of a scramble (`optcube facelets SCRAMBLE`).
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
fn random_positions(n: usize, seed: u64) -> Vec<String> {
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
    let parsed = optcube::stats::study::read_file(&path).map_err(value_error)?;
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
/// with `depth`, `positions`, `classes`, `published` (Rokicki et al.; None past depth 10) and
/// `matches` (False if a published count differs). `reduce` is "sym-inv" (classes under the
/// 48 symmetries and inversion, the default), "sym" or "none" (whole positions). A depth whose
/// search does not fit in the memory available raises MemoryError before any work; past 20, or
/// past the published counts for classes, ValueError.
#[pyfunction]
#[pyo3(signature = (max_depth, reduce="sym-inv", threads=None))]
fn distances<'py>(
    py: Python<'py>,
    max_depth: u8,
    reduce: &str,
    threads: Option<usize>,
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
    check_published(&counts.0, reduction)
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

#[pymodule]
#[pyo3(name = "optcube")]
fn optcube_python(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("TableError", m.py().get_type::<TableError>())?;
    m.add_class::<Solver>()?;
    m.add_class::<PyOutcome>()?;
    m.add_function(wrap_pyfunction!(twophase, m)?)?;
    m.add_function(wrap_pyfunction!(thistlethwaite, m)?)?;
    m.add_function(wrap_pyfunction!(facelets, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(random_positions, m)?)?;
    m.add_function(wrap_pyfunction!(default_pdb_dir, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_info, m)?)?;
    m.add_function(wrap_pyfunction!(read_study, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    Ok(())
}
