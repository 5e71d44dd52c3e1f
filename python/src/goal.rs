//! Goals other than solved from Python: `goals()`, `solve_goal(...)`, `goal_distances(...)`,
//! the same as `optcube goals`, `optcube solve --goal/--mask` and `optcube stats distances
//! --goal`.

use super::{args, dir_or_default, refused, table_error, to_python, value_error};
use crate::interrupt::{Limits, interruptible};
use crate::outcome::PyOutcome;
use optcube::coord::goal::GoalCheck;
use optcube::cube::{Axis, Goal, Metric};
use optcube::progress::ProgressMode;
use optcube::search::subset::MoveSet;
use optcube::solvers::goal::GoalSolver;
use optcube::solvers::request::{Refusal, Solutions, SolveJob};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex};

type Key = (PathBuf, String, Axis, Metric, bool);
/// Goal solvers opened so far, by table directory, goal (its pieces and its axis: `eo` and
/// `eo-ud` share a table but not a solver), metric and orientation rule.
static SOLVERS: LazyLock<Mutex<HashMap<Key, Arc<GoalSolver>>>> = LazyLock::new(Default::default);

/// The named goals, one dict each: name, key, mask, about, requires (as `optcube goals --json`).
#[pyfunction]
pub fn goals<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    optcube::cube::NAMED_GOALS
        .iter()
        .map(|n| to_python(py, &optcube::cube::goal_listing(n)))
        .collect()
}

/// The fewest moves after which `position` meets a goal (`goal="cross"`, or a facelet
/// `mask` with x for free stickers), as `optcube solve --goal/--mask`: in `metric`, with the
/// turns of `moveset` only if given, in any whole-cube orientation with `any_orientation`,
/// every optimal solution with `all=True`; a goal the move set cannot reach (a piece the goal
/// fixes where no turn of the set moves it) raises `ValueError` at once, as the CLI refuses it.
/// The goal's tables are built in `pdb_dir` on first use. Goals that need every piece home
/// (ll, pll) are the solved cube: use `Solver`. A `timeout` (seconds) stops the search and
/// returns it interrupted with the bound it proved, as Ctrl-C does before raising
/// `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (position, goal=None, mask=None, any_orientation=false, metric=Metric::Htm, moveset=None, all=false, pdb_dir=None, timeout=None))]
#[pyo3(
    text_signature = "(position, goal=None, mask=None, any_orientation=False, metric='htm', moveset=None, all=False, pdb_dir=None, timeout=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve_goal(
    py: Python<'_>,
    position: &str,
    goal: Option<&str>,
    mask: Option<&str>,
    any_orientation: bool,
    #[pyo3(from_py_with = args::metric)] metric: Metric,
    moveset: Option<&str>,
    all: bool,
    pdb_dir: Option<PathBuf>,
    timeout: Option<f64>,
) -> PyResult<PyOutcome> {
    let job = SolveJob {
        metric,
        goal: goal.map(str::to_string),
        mask: mask.map(str::to_string),
        any_orientation,
        moveset: moveset.map(str::to_string),
        solutions: if all { Solutions::All } else { Solutions::One },
        timeout,
        ..SolveJob::default()
    };
    let admitted = job.check().map_err(refused)?;
    let Some(asked) = admitted.goal.clone() else {
        return Err(refused(Refusal::OneGoal));
    };
    if asked.check.goal.is_solved_goal() {
        return Err(value_error(format!(
            "goal {} is the solved cube: solve it with Solver (solve_in for a move set)",
            asked.check.goal.name()
        )));
    }
    let timeout = args::deadline(timeout);
    // Refused before the tables are opened, as the CLI does (the solver would refuse too).
    let cube = crate::admitted(&admitted, position)?;
    let set = admitted.moveset.unwrap_or(MoveSet::ALL);
    let dir = dir_or_default(pdb_dir);
    let (check, origin) = (asked.check, asked.origin);
    let solver = goal_solver(py, check, &origin, &dir, metric)?;
    let opts = job.subset_options();
    let limits = Limits {
        deadline: timeout.and_then(|t| std::time::Instant::now().checked_add(t)),
        cancel: None,
    };
    let outcome = interruptible(py, limits, |stop| {
        solver.solve(position.trim(), &cube, &set, &opts, stop)
    })?
    .map_err(value_error)?;
    PyOutcome::checked(outcome, &cube)
}

/// The goal solver of `check` in `metric` with the tables of `dir`: the one opened before, or
/// opened now (building its tables on first use); `origin` names the goal for the advice on a
/// bad table.
pub fn goal_solver(
    py: Python<'_>,
    check: GoalCheck,
    origin: &str,
    dir: &std::path::Path,
    metric: Metric,
) -> PyResult<Arc<GoalSolver>> {
    metric
        .face_turns_only(optcube::solvers::goal::GOALS)
        .map_err(value_error)?;
    let g = &check.goal;
    let key = (dir.into(), g.key(), g.axis(), metric, check.any_orientation);
    if let Some(s) = SOLVERS.lock().unwrap().get(&key) {
        return Ok(s.clone());
    }
    let s = py
        .detach(|| GoalSolver::open(check, metric, origin, dir, ProgressMode::auto()))
        .map_err(table_error)?;
    let s = Arc::new(s);
    SOLVERS.lock().unwrap().insert(key, s.clone());
    Ok(s)
}

/// A goal's states by their exact distance to it, as `optcube stats distances --goal`: the
/// list of counts at distance 0, 1, ... (goals whose index fits one table, and dr).
#[pyfunction]
#[pyo3(signature = (goal, metric=Metric::Htm))]
#[pyo3(text_signature = "(goal, metric='htm')")]
pub fn goal_distances(
    py: Python<'_>,
    goal: &str,
    #[pyo3(from_py_with = args::metric)] metric: Metric,
) -> PyResult<Vec<u64>> {
    let g = Goal::named(goal.trim()).map_err(value_error)?;
    py.detach(|| optcube::pdb::goal::exact_histogram(&g, metric, None))
        .ok_or_else(|| {
            let n = optcube::pdb::goal::GoalSpace::new(&g).entries();
            value_error(format!(
                "goal {}: {n} entries, more than one table holds",
                g.name()
            ))
        })
}
