//! `solve --goal NAME | --mask STR [--any-orientation]` and `solve --target POS`: the front end
//! of `solvers::goal`. Goals are read and refused (exit 2) before any table is opened; a goal
//! that needs every piece home (`ll`, `pll`) is the solved cube, solved with the optimal
//! solver's tables once its precondition holds.

use super::{Failure, INTERRUPTED, SetLabel, SolveArgs, solve_each};
use optcube::coord::goal::GoalCheck;
use optcube::cube::{Cube, Goal, parse_position};
use optcube::progress::ProgressMode;
use optcube::search::SearchOptions;
use optcube::search::subset::MoveSet;
use optcube::solvers::goal::GoalSolver;

/// The goal asked for, with the flag text that named it (for advice), if any.
pub fn asked(args: &SolveArgs) -> Result<Option<(GoalCheck, String)>, Failure> {
    let (goal, origin) = match (&args.goal, &args.mask) {
        (Some(name), None) => (
            Goal::named(name.trim()).map_err(|e| Failure(e.to_string()))?,
            format!("--goal {}", name.trim()),
        ),
        (None, Some(mask)) => {
            let goal = Goal::from_mask(mask).map_err(|e| Failure(format!("bad --mask: {e}")))?;
            // Said so that no one mistakes the goal a mask builds (issue 104).
            let alike = goal.alike();
            let which = if alike.is_empty() {
                "no named goal's (docs/goals.md reads the key)".to_string()
            } else {
                format!("the goal {}", alike.join(", "))
            };
            eprintln!("mask: pieces {}, {which}", goal.key());
            (goal, format!("--mask {}", mask.trim()))
        }
        (None, None) if args.any_orientation => {
            return Err(Failure(
                "--any-orientation needs a goal: --goal NAME or --mask STR".into(),
            ));
        }
        _ => return Ok(None),
    };
    Ok(Some((
        GoalCheck {
            goal,
            any_orientation: args.any_orientation,
        },
        origin,
    )))
}

/// The position `--target` names: each input is solved as `T⁻¹ P`, whose solutions are
/// exactly the sequences that take `P` to `T` (moves act on the right, the target's inverse
/// on the left).
pub fn retarget(args: &SolveArgs, inputs: &mut [(String, Cube)]) -> Result<(), Failure> {
    if let Some(t) = &args.target {
        let target =
            parse_position(t).map_err(|e| Failure(format!("bad --target position: {e}")))?;
        let inv = target.inverse();
        for (_, cube) in inputs.iter_mut() {
            *cube = inv.compose(cube);
        }
    }
    Ok(())
}

/// Every input's precondition for the goal, and whether the move set reaches the goal from
/// it: checked before any table is opened, each failing input named by where it came from
/// (`places`: `FILE:LINE` for `--file`), all of them, as bad lines of a file are.
pub fn preconditions(
    args: &SolveArgs,
    inputs: &[(String, Cube)],
    places: &[String],
    check: &GoalCheck,
) -> Result<(), Failure> {
    let failing: Vec<String> = (inputs.iter().zip(places))
        .filter_map(|((_, cube), at)| {
            let why = check.precondition(cube).err()?;
            Some(format!("{at}: {why}"))
        })
        .collect();
    if !failing.is_empty() {
        return Err(Failure(failing.join("\n")));
    }
    let set = move_set(args)?;
    // What the set cannot reach is refused too, before any table is opened (a search would
    // run to its depth limit): the move-set solver's refusal, for a goal.
    let unreachable: Vec<String> = (inputs.iter().zip(places))
        .filter_map(|((_, cube), at)| {
            let why = optcube::solvers::moveset::goal_refusal(&set, check, cube)?;
            Some(format!("{at}: {why}"))
        })
        .collect();
    if !unreachable.is_empty() {
        return Err(Failure(unreachable.join("\n")));
    }
    Ok(())
}

/// The turns a goal is solved with: `--moveset`, or all.
fn move_set(args: &SolveArgs) -> Result<MoveSet, Failure> {
    match &args.moveset {
        Some(text) => MoveSet::parse(text).map_err(Failure),
        None => Ok(MoveSet::ALL),
    }
}

/// The search options of a goal's solve.
pub fn options(args: &SolveArgs) -> SearchOptions {
    SearchOptions {
        metric: args.metric,
        max_depth: args.max_depth(),
        solutions: args.solutions_asked(),
        ..SearchOptions::default()
    }
}

/// Solves every input toward the goal (its preconditions checked by [`preconditions`]).
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
    let opts = options(args);
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
