//! `optcube.Solver`: the optimal solver with its tables loaded once, and its searches.
//!
//! Invariants:
//! - Every search runs through [`interruptible`]: Ctrl-C raises `KeyboardInterrupt`, while a
//!   `timeout=` or `Solver.cancel()` returns the `Result`, interrupted, with the proved bound.
//! - `cancel()` stops the searches of this `Solver` begun before it (a `solve_many` or
//!   `run_study` counts as begun at its call), never one begun after.

use super::interrupt::{Epoch, Limits, interruptible};
use super::outcome::PyOutcome;
use super::{RU_TABLE, admitted, args, cached, pooled, position, refused, set_error, table_error};
use super::{dir_or_default, to_python, value_error};
use optcube::cube::Cube;
use optcube::pdb::ru::RuTable;
use optcube::progress::ProgressMode;
use optcube::search::subset::{self, MoveSet};
use optcube::search::{SearchOptions, SearchResult};
use optcube::solvers::optimal::{
    OptimalSolver, TwoPhaseWitness, open_twophase_for_bounds, upper_bound,
};
use optcube::solvers::outcome::Outcome;
use optcube::solvers::request::{Admitted, Solutions, SolveJob, Tuning};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The optimal solver with its tables loaded once.
#[pyclass(frozen, module = "optcube")]
pub struct Solver {
    solver: OptimalSolver,
    /// What the solver was made with (its set named): each call's request starts from it.
    job: SolveJob,
    options: SearchOptions,
    dir: PathBuf,
    /// The witness of each proof's last iteration (`optcube::search::witness`), as the CLI's
    /// `solve` asks it (in QTM its tables are loaded at the first try); none with
    /// `upper_bound=False`.
    twophase: Option<TwoPhaseWitness>,
    /// Moved on by `cancel()`.
    epoch: Epoch,
}

impl Solver {
    /// A call's request: this solver's, changed by `change`, checked by the request layer
    /// (the command line's rules and words).
    fn request(&self, change: impl FnOnce(&mut SolveJob)) -> PyResult<(SolveJob, Admitted)> {
        let mut job = self.job.clone();
        change(&mut job);
        let admitted = job.check().map_err(refused)?;
        Ok((job, admitted))
    }

    /// The table set's name (the one asked, or the one chosen when the solver was made).
    fn set_name(&self) -> &str {
        self.job
            .set
            .as_deref()
            .expect("named when the solver was made")
    }

    /// Stops at `timeout` from now, or on a `cancel()` after now.
    fn limits(&self, timeout: Option<Duration>) -> Limits<'_> {
        Limits::new(timeout, &self.epoch, self.epoch.now())
    }

    /// The optimal search of `cube` (read from `input`) for `opts.solutions` solutions.
    fn search(
        &self,
        py: Python<'_>,
        input: &str,
        cube: &Cube,
        opts: &SearchOptions,
        limits: Limits<'_>,
    ) -> PyResult<Outcome> {
        let r = interruptible(py, limits, |stop| self.optimal(cube, opts, stop))?;
        Ok(Outcome::from_search(input.trim(), r, None, opts.solutions))
    }

    /// The optimal search, asking the two-phase solver for a witness before each iteration
    /// when it is open (the search asks only when one solution is wanted). Given a known lower
    /// bound, the two-phase upper bound is found first, as the CLI's `solve` does: held as
    /// the witness at hand, it refutes a bound above it before any node is searched.
    fn optimal(&self, cube: &Cube, opts: &SearchOptions, stop: &AtomicBool) -> SearchResult {
        let tp = self.twophase.as_ref();
        let known = (tp.filter(|_| opts.known_lower_bound > 0))
            .and_then(|tp| upper_bound(tp, opts.metric, cube, opts.threads))
            .map(|(s, _)| s);
        (self.solver).prove(tp, cube, opts, known, stop, &mut |_| {})
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (pdb_dir=None, set=None, threads=None, dual=false, sym=false, max_depth=None, successors=true, metric=optcube::cube::Metric::Htm, upper_bound=true))]
    #[pyo3(
        text_signature = "(pdb_dir=None, set=None, threads=None, dual=False, sym=False, max_depth=None, successors=True, metric='htm', upper_bound=True)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        pdb_dir: Option<PathBuf>,
        set: Option<String>,
        #[pyo3(from_py_with = args::threads)] threads: Option<usize>,
        dual: bool,
        sym: bool,
        #[pyo3(from_py_with = args::max_depth_or_none)] max_depth: Option<u8>,
        successors: bool,
        #[pyo3(from_py_with = args::metric)] metric: optcube::cube::Metric,
        upper_bound: bool,
    ) -> PyResult<Solver> {
        let job = SolveJob {
            metric,
            max_depth,
            threads,
            set,
            tuning: Tuning {
                dual,
                sym,
                successors,
                ..Tuning::default()
            },
            ..SolveJob::default()
        };
        let threads = job.check().map_err(refused)?.threads;
        let dir = dir_or_default(pdb_dir);
        // As the CLI: the fastest set whose tables are present, else the fastest whose build
        // fits in the memory available (built now).
        let (config, label) = job.optimal_config(&dir, threads).map_err(set_error)?;
        let job = SolveJob {
            set: Some(label.name),
            ..job
        };
        let solver = pooled(py, threads, || {
            OptimalSolver::configured(&dir, &config, ProgressMode::auto())
        })?
        .map_err(set_error)?;
        // As the CLI's `solve`: in quarter turns the two-phase solver's lengths are a few turns
        // over the optimum, so a witness is asked only after a long iteration there
        // (the metric's `witness_after`).
        let twophase = match upper_bound {
            true => {
                match py.detach(|| open_twophase_for_bounds(&dir, metric, ProgressMode::auto())) {
                    Ok(Ok(tp)) => Some(tp),
                    Ok(Err(why)) => {
                        eprintln!("optcube: no two-phase witnesses: {why}; solving without them");
                        None
                    }
                    Err(e) => return Err(table_error(e)),
                }
            }
            false => None,
        };
        Ok(Solver {
            solver,
            twophase,
            options: config.search_options(),
            job,
            dir,
            epoch: Epoch::default(),
        })
    }

    /// Solves one position (a scramble or a facelet string) optimally; `timeout` seconds
    /// stops the search and returns its result, interrupted. `known_lower_bound=N` is the
    /// CLI's `--known-lower-bound N`: a bound known by other means (a coset run's unset
    /// positions), where the search starts; one found false is said by
    /// `known_lower_bound_refuted`, and the answer is still optimal.
    #[pyo3(signature = (position, timeout=None, known_lower_bound=None))]
    fn solve(
        &self,
        py: Python<'_>,
        position: &str,
        timeout: Option<f64>,
        #[pyo3(from_py_with = args::known_lower_bound)] known_lower_bound: Option<u8>,
    ) -> PyResult<PyOutcome> {
        self.request(|j| {
            j.known_lower_bound = known_lower_bound;
            j.timeout = timeout;
        })?;
        let timeout = args::deadline(timeout);
        let opts = SearchOptions {
            known_lower_bound: known_lower_bound.unwrap_or(0),
            ..self.options.clone()
        };
        let cube = self::position(position)?;
        let outcome = self.search(py, position, &cube, &opts, self.limits(timeout))?;
        let outcome = PyOutcome::checked(outcome, &cube)?.with_set(self.set_name());
        Ok(outcome.with_known_lower_bound(known_lower_bound))
    }

    /// Solves one position and collects its optimal solutions: all of them, or the first
    /// `limit` in the search's order (the same on any number of threads); every one is checked
    /// on the position. `unique="symmetry"` keeps the least of each class under the
    /// position's symmetries (as the CLI's `--unique symmetry`; needs every solution).
    #[pyo3(signature = (position, limit=None, unique=None, timeout=None))]
    fn solve_all(
        &self,
        py: Python<'_>,
        position: &str,
        #[pyo3(from_py_with = args::limit)] limit: Option<usize>,
        unique: Option<&str>,
        timeout: Option<f64>,
    ) -> PyResult<PyOutcome> {
        let unique = match unique {
            None => false,
            Some("symmetry") => true,
            Some(other) => {
                return Err(value_error(format!(
                    "unique must be \"symmetry\" or None, not {other:?}"
                )));
            }
        };
        let (job, _) = self.request(|j| {
            j.solutions = limit.map_or(Solutions::All, |n| Solutions::First(n as u64));
            j.unique = unique;
            j.timeout = timeout;
        })?;
        let timeout = args::deadline(timeout);
        let opts = SearchOptions {
            solutions: job.solutions.asked(),
            ..self.options.clone()
        };
        let cube = self::position(position)?;
        let mut outcome = self.search(py, position, &cube, &opts, self.limits(timeout))?;
        if let (true, Some(c)) = (unique, outcome.collected_mut()) {
            c.to_classes(&cube).map_err(value_error)?;
        }
        Ok(PyOutcome::checked(outcome, &cube)?.with_set(self.set_name()))
    }

    /// Solves one position with the turns of `moveset` only ("R U", "U D R L F2 B2"),
    /// optimally among the sequences they make, as the CLI's `solve --moveset`: two adjacent
    /// faces read the exact <R,U> table (built in pdb_dir on first use, about 2 s), other sets
    /// are searched with this solver's tables (`timeout` applies to that
    /// search). `all=True` collects every optimal solution. A position the set cannot reach
    /// raises ValueError.
    #[pyo3(signature = (position, moveset, all=false, timeout=None))]
    fn solve_in(
        &self,
        py: Python<'_>,
        position: &str,
        moveset: &str,
        all: bool,
        timeout: Option<f64>,
    ) -> PyResult<PyOutcome> {
        use optcube::solvers::moveset::{self, Route};
        let (job, admitted) = self.request(|j| {
            j.moveset = Some(moveset.to_string());
            j.solutions = if all { Solutions::All } else { Solutions::One };
            j.timeout = timeout;
        })?;
        let timeout = args::deadline(timeout);
        let set = admitted.moveset.unwrap_or(MoveSet::ALL);
        let cube = self::admitted(&admitted, position)?;
        let opts = SearchOptions {
            solutions: job.solutions.asked(),
            ..self.options.clone()
        };
        let input = position.trim();
        // The exact table holds half-turn distances: another metric searches.
        let exact = (opts.metric == optcube::cube::Metric::Htm)
            .then(|| subset::exact_table_symmetry(&set))
            .flatten();
        let (outcome, label) = match exact {
            Some(sym) => {
                let table = cached(&RU_TABLE, &self.dir, || {
                    py.detach(|| RuTable::open(&self.dir, ProgressMode::auto()))
                        .map_err(table_error)
                })?;
                // A lookup in the exact table, not a search: nothing to stop.
                let route = Route::Exact { table: &table, sym };
                let never = AtomicBool::new(false);
                let outcome =
                    py.detach(|| moveset::solve(input, &cube, &set, route, &opts, &never));
                (outcome, optcube::pdb::ru::TABLE_NAME)
            }
            None => (
                interruptible(py, self.limits(timeout), |stop| {
                    let route = Route::Search(self.solver.heuristic());
                    moveset::solve(input, &cube, &set, route, &opts, stop)
                })?,
                self.set_name(),
            ),
        };
        let outcome = outcome.map_err(PyRuntimeError::new_err)?;
        Ok(PyOutcome::checked(outcome, &cube)?.with_set(label))
    }

    /// Runs (or resumes) the optimal-length study of `seed`'s first `count` positions into the
    /// JSON-lines file `out`, as `optcube stats lengths`: positions already in the file are
    /// skipped (their records checked), each finished one is appended, and Ctrl-C (or a
    /// `cancel()`) stops after losing at most the position being searched. `shard="K/N"` takes
    /// the positions with index mod N == K; `moves=L` draws L-move scrambles instead of random
    /// positions; `count_solutions` also counts each position's optimal solutions. The lengths
    /// are in the solver's metric (a quarter-turn study is another study of the same
    /// positions, in its own file). `goal="cross"` makes it a study of distances to that named
    /// goal (`any_orientation` in any whole-cube orientation), as `stats lengths --goal`,
    /// with the goal's own tables in the solver's table directory. Returns a
    /// dict with `finished`, `total` (this shard's positions), `interrupted` and `missing`
    /// (indices with no record yet); the records are `read_study(out)`.
    #[pyo3(signature = (count, seed, out, shard=None, moves=None, count_solutions=false, goal=None, any_orientation=false))]
    #[allow(clippy::too_many_arguments)]
    fn run_study<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::count)] count: u64,
        #[pyo3(from_py_with = args::seed)] seed: u64,
        out: PathBuf,
        shard: Option<&str>,
        #[pyo3(from_py_with = args::moves)] moves: Option<u32>,
        count_solutions: bool,
        goal: Option<&str>,
        any_orientation: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        use optcube::stats::study::{Shard, Study, StudyGoal, StudyRun};
        (self.options.metric)
            .face_turns_only(optcube::stats::study::STUDIES)
            .map_err(value_error)?;
        let goal = match goal {
            Some(name) => Some(StudyGoal {
                name: name.trim().to_string(),
                any_orientation,
            }),
            None if any_orientation => {
                return Err(value_error("any_orientation needs a goal"));
            }
            None => None,
        };
        let check = (goal.as_ref())
            .map(|g| g.check().map_err(|e| value_error(format!("goal: {e}"))))
            .transpose()?;
        let shard = shard
            .map(|s| s.parse::<Shard>())
            .transpose()
            .map_err(|e| value_error(format!("shard: {e}")))?;
        let run = StudyRun {
            study: Study {
                seed,
                moves,
                metric: self.options.metric,
                goal,
            },
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
        let (mut set, mut dual) = (self.set_name().to_string(), self.job.tuning.dual);
        let goal_solver = match check {
            Some(check) => {
                let g = crate::goal::goal_solver(py, check, "goal=", &self.dir, opts.metric)?;
                set = g.tables_name();
                dual = false;
                Some(g)
            }
            None => None,
        };
        let interrupted = interruptible(py, self.limits(None), |stop| {
            let search = |c: &_, o: &_, s: &_| match &goal_solver {
                Some(g) => g.search(c, &MoveSet::ALL, o, s),
                None => self.optimal(c, o, s),
            };
            let r = opened.solve(&search, &opts, &set, dual, stop, |_, _| {});
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
    /// naming the item (its index from 0, and its text). `timeout` is each position's; a
    /// `cancel()` stops the whole call (the positions not yet searched come back interrupted
    /// at once).
    #[pyo3(signature = (positions, timeout=None))]
    fn solve_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        timeout: Option<f64>,
    ) -> PyResult<Vec<PyOutcome>> {
        self.request(|j| j.timeout = timeout)?;
        let timeout = args::deadline(timeout);
        let begun = self.epoch.now();
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
            .map(|(text, cube)| {
                let limits = Limits::new(timeout, &self.epoch, begun);
                let outcome = self.search(py, text, cube, &self.options, limits)?;
                Ok(PyOutcome::checked(outcome, cube)?.with_set(self.set_name()))
            })
            .collect()
    }

    /// Stops every search of this solver running now, from any thread: each returns its
    /// result, interrupted. Searches begun later are not affected.
    fn cancel(&self) {
        self.epoch.cancel();
    }

    #[getter]
    fn pdb_dir(&self) -> PathBuf {
        self.dir.clone()
    }
    #[getter]
    fn set(&self) -> &str {
        self.set_name()
    }
    #[getter]
    fn threads(&self) -> usize {
        self.options.threads
    }
    #[getter]
    fn dual(&self) -> bool {
        self.job.tuning.dual
    }
    /// The metric lengths are counted in: "htm", "qtm", "stm" or "atm".
    #[getter]
    fn metric(&self) -> &'static str {
        self.options.metric.name()
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
            "optcube.Solver(pdb_dir={:?}, set={:?}, threads={}, metric={:?}, dual={})",
            self.dir.display().to_string(),
            self.set_name(),
            self.options.threads,
            self.options.metric.name(),
            if self.job.tuning.dual {
                "True"
            } else {
                "False"
            }
        )
    }
}
