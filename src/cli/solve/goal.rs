//! `solve --goal NAME | --mask STR [--any-orientation]` and `solve --target POS`: the front end
//! of `solvers::goal`. Goals are read and refused (exit 2) before any table is opened; a goal
//! that needs every piece home (`ll`, `pll`) is the solved cube, solved with the optimal
//! solver's tables once its precondition holds.

use super::{Failure, INTERRUPTED, SetLabel, SolveArgs, solve_each};
use optcube::coord::goal::GoalCheck;
use optcube::cube::{Cube, Goal};
use optcube::progress::ProgressMode;
use optcube::search::subset::MoveSet;
use optcube::solvers::goal::GoalSolver;

/// Says on stderr which goal a mask builds, so that no one mistakes it (issue 104).
pub fn say_mask(goal: &Goal) {
    let alike = goal.alike();
    let which = if alike.is_empty() {
        "no named goal's (docs/goals.md reads the key)".to_string()
    } else {
        format!("the goal {}", alike.join(", "))
    };
    eprintln!("mask: pieces {}, {which}", goal.key());
}

/// The turns a goal is solved with: `--moveset` (checked by `solve`'s check), or all.
fn move_set(args: &SolveArgs) -> Result<MoveSet, Failure> {
    match &args.moveset {
        Some(text) => MoveSet::parse(text).map_err(Failure),
        None => Ok(MoveSet::ALL),
    }
}

/// Solves every input toward the goal (its preconditions checked by `solve`'s check).
pub fn run(
    args: &SolveArgs,
    inputs: &[(String, Cube)],
    check: GoalCheck,
    origin: &str,
) -> Result<i32, Failure> {
    let set = move_set(args)?;
    if check.goal.is_solved_goal() {
        // Every piece home: the solved cube, with the optimal solver's tables.
        return match args.moveset {
            Some(_) => super::run_moveset(args, inputs, &set),
            None => super::run_optimal(args, inputs),
        };
    }
    let dir = args.tables.place.dir();
    let solver = GoalSolver::open(check, args.metric, origin, &dir, ProgressMode::auto())?;
    eprintln!(
        "goal {}: tables {}, {} bytes in memory",
        solver.check().goal.name(),
        solver.tables_name(),
        solver.table_bytes()
    );
    let opts = args.job().subset_options();
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let label = SetLabel {
        name: "goal".into(),
        reason: None,
    };
    solve_each(args, inputs, None, Some(&label), |input, cube| {
        solver
            .solve(input, cube, &set, &opts, &INTERRUPTED)
            .map_err(|e| Failure(format!("{input}: {e}")))
    })
}
