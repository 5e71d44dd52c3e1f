//! One solve request of `optcube serve`. Its JSON is turned into `solve`'s own arguments and
//! parsed by the same parser, so that a request is checked exactly as the command line is
//! ([`solve::check`]) and answered with `solve --json`'s object ([`outcome::json`]). The
//! tables stay loaded between requests ([`Engines`]); one request runs at a time (the server
//! sees to that), on a thread of its own, and tells what it does as events (JSON objects).

use crate::cli::Failure;
use crate::cli::solve::{self, CheckedRequest, SetLabel, SolveArgs, SolverKind, outcome};
use optcube::cube::{Cube, Metric, Move, format_moves};
use optcube::progress::ProgressMode;
use optcube::search::IterationEvent;
use optcube::solvers::goal::GoalSolver;
use optcube::solvers::optimal::{OptimalSolver, TwoPhaseWitness, upper_bound};
use optcube::solvers::outcome::Outcome;
use optcube::solvers::twophase::TwoPhase;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

/// A solve request: one position, the solver and what to solve toward. The field names are
/// `solve`'s flags without the dashes (`max_depth` for `--max-depth`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub facelets: Option<String>,
    pub scramble: Option<String>,
    /// `optimal` (default), `twophase` or `thistlethwaite`.
    pub solver: Option<String>,
    pub goal: Option<String>,
    pub mask: Option<String>,
    #[serde(default)]
    pub any_orientation: bool,
    /// `htm` (default) or `qtm`.
    pub metric: Option<String>,
    /// Every optimal solution.
    #[serde(default)]
    pub all: bool,
    pub max_depth: Option<u8>,
    /// The two-phase solver's time limit, seconds.
    pub timeout: Option<f64>,
}

#[derive(clap::Parser)]
#[command(name = "request", no_binary_name = true, disable_help_flag = true)]
struct RequestArgs {
    #[command(flatten)]
    args: SolveArgs,
}

/// `solve`'s arguments for `req`: the server's table flags (`tables`), then the request's
/// fields as flags, the position last. Errors are the parser's, in one line.
pub fn arguments(req: &Request, tables: &[String]) -> Result<SolveArgs, Failure> {
    use clap::Parser;
    let mut argv: Vec<String> = tables.to_vec();
    argv.push("--json".into());
    let mut flag = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            argv.push(format!("--{name}"));
            argv.push(v);
        }
    };
    flag("solver", req.solver.clone());
    flag("goal", req.goal.clone());
    flag("mask", req.mask.clone());
    flag("metric", req.metric.clone());
    flag("max-depth", req.max_depth.map(|d| d.to_string()));
    flag("timeout", req.timeout.map(|t| t.to_string()));
    if req.any_orientation {
        argv.push("--any-orientation".into());
    }
    if req.all {
        argv.push("--all".into());
    }
    match (&req.facelets, &req.scramble) {
        (Some(_), Some(_)) => {
            return Err(Failure(
                "give the position once: facelets or scramble, not both".into(),
            ));
        }
        (Some(f), None) => argv.extend(["--facelets".into(), f.clone()]),
        // After `--`, so that a scramble is never read as a flag.
        (None, Some(s)) => argv.extend(["--".into(), s.clone()]),
        (None, None) => {
            return Err(Failure(
                "no position given: send facelets (54 letters) or a scramble".into(),
            ));
        }
    }
    RequestArgs::try_parse_from(&argv)
        .map(|p| p.args)
        .map_err(|e| Failure(clap_message(&e.to_string())))
}

/// The first line of a clap error without its `error: ` prefix (the rest is usage advice for a
/// terminal).
fn clap_message(text: &str) -> String {
    let first = text.lines().next().unwrap_or(text);
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// What the server keeps loaded between requests: the last optimal solver (by its tables and
/// metric), the two-phase solver for upper bounds, and the last goal's solver.
#[derive(Default)]
pub struct Engines {
    optimal: Option<(String, OptimalSolver)>,
    bounds: Option<(Metric, Option<TwoPhaseWitness>)>,
    twophase: Option<TwoPhase>,
    goal: Option<(String, GoalSolver)>,
}

impl Engines {
    /// The memory of the optimal solver's tables, if loaded.
    pub fn optimal_bytes(&self) -> Option<u64> {
        (self.optimal.as_ref()).map(|(_, s)| s.heuristic().table_bytes())
    }
}

/// Runs one checked request (`args`, `checked`: one position), sending its events to `send`;
/// returns the answer, `solve --json`'s object for the position with `steps` (the facelets
/// after each move of the solution) added. `stop` ends a search early with what it proved.
pub fn run(
    args: &SolveArgs,
    checked: CheckedRequest,
    engines: &mut Engines,
    stop: &AtomicBool,
    send: &mut dyn FnMut(Value),
) -> Result<Value, Failure> {
    let Some((input, cube)) = checked.inputs.into_iter().next() else {
        return Err(Failure("no position given".into()));
    };
    send(json!({"event": "position", "facelets": cube.to_facelets()}));
    let dir = args.tables.place.dir();
    let threads = args.tables.place.thread_count();
    let (outcome, set) = match (&checked.goal, args.solver) {
        (Some((check, origin)), _) if !check.goal.is_solved_goal() => {
            let key = format!("{origin} {}", args.metric);
            if engines.goal.as_ref().is_none_or(|(k, _)| *k != key) {
                engines.goal = None;
                send(json!({"event": "loading", "tables": format!("goal {}", check.goal.name())}));
                let solver = GoalSolver::open(check.clone(), args.metric, origin, &dir, mode())?;
                engines.goal = Some((key, solver));
            }
            let (_, solver) = engines.goal.as_ref().expect("loaded");
            let set = optcube::search::subset::MoveSet::ALL;
            let o = solver
                .solve(&input, &cube, &set, &args.job().subset_options(), stop)
                .map_err(|e| Failure(format!("{input}: {e}")))?;
            let label = SetLabel {
                name: "goal".into(),
                reason: None,
            };
            (o, Some(label))
        }
        (_, SolverKind::Twophase) => (twophase(args, engines, &input, &cube)?, None),
        (_, SolverKind::Thistlethwaite) => {
            use optcube::solvers::thistlethwaite::Thistlethwaite;
            let t = std::time::Instant::now();
            let s = Thistlethwaite::open(&dir)?.try_solve(&cube)?;
            let secs = t.elapsed().as_secs_f64();
            (Outcome::from_thistlethwaite(&input, s, secs), None)
        }
        (_, SolverKind::Optimal) => {
            let (o, set) = optimal(args, engines, &input, &cube, threads, stop, send)?;
            (o, Some(set))
        }
    };
    // Already worded as an internal error: a solution that does not solve is a bug.
    outcome.check(&cube).map_err(Failure)?;
    let mut v = outcome::json(&outcome, args, None, set.as_ref());
    v["steps"] = json!(steps(&cube, outcome.solution.as_deref().unwrap_or(&[])));
    Ok(v)
}

/// Table builds and loads report on the server's terminal.
fn mode() -> ProgressMode {
    ProgressMode::auto()
}

/// The facelets of `cube` and after each move of `moves` in turn.
fn steps(cube: &Cube, moves: &[Move]) -> Vec<String> {
    let mut c = *cube;
    let mut out = vec![c.to_facelets()];
    for &m in moves {
        c = c.apply(m);
        out.push(c.to_facelets());
    }
    out
}

fn twophase(
    args: &SolveArgs,
    engines: &mut Engines,
    input: &str,
    cube: &Cube,
) -> Result<Outcome, Failure> {
    if engines.twophase.is_none() {
        engines.twophase = Some(TwoPhase::open(&args.tables.place.dir(), mode())?);
    }
    let solver = engines.twophase.as_ref().expect("loaded");
    // At most a minute: the server runs one search at a time for everyone.
    let timeout = std::time::Duration::from_secs_f64(args.timeout.min(60.0));
    Ok(solve::twophase_one(args, solver, input, cube, timeout))
}

/// The optimal solver's answer: first a two-phase solution (an upper bound, in the half-turn
/// metric), then the tables loaded (built on first use) and the proof, each iteration sent as
/// it starts and ends.
fn optimal(
    args: &SolveArgs,
    engines: &mut Engines,
    input: &str,
    cube: &Cube,
    threads: usize,
    stop: &AtomicBool,
    send: &mut dyn FnMut(Value),
) -> Result<(Outcome, SetLabel), Failure> {
    let dir = args.tables.place.dir();
    if engines
        .bounds
        .as_ref()
        .is_none_or(|(m, _)| *m != args.metric)
    {
        engines.bounds = Some((
            args.metric,
            solve::open_twophase_for_bounds(&dir, args.metric)?,
        ));
    }
    let tp = engines.bounds.as_ref().and_then(|(_, tp)| tp.as_ref());
    // In the half-turn metric only (`upper_bound_before_proof`).
    let upper = tp.and_then(|tp| upper_bound(tp, args.metric, cube, threads));
    if let Some((s, secs)) = &upper {
        send(json!({
            "event": "upper_bound",
            "solution": format_moves(s),
            "length": args.metric.length(s),
            "seconds": secs,
            "steps": steps(cube, s),
        }));
    }
    let (config, set) = solve::optimal_config(args)?;
    let key = format!("{} {}", set.name, args.metric);
    if engines.optimal.as_ref().is_none_or(|(k, _)| *k != key) {
        engines.optimal = None;
        let t = std::time::Instant::now();
        send(json!({"event": "loading", "tables": set.name}));
        let solver = OptimalSolver::configured(&dir, &config, mode())?;
        send(json!({
            "event": "loaded",
            "tables": set.name,
            "bytes": solver.heuristic().table_bytes(),
            "seconds": t.elapsed().as_secs_f64(),
        }));
        engines.optimal = Some((key, solver));
    }
    let (_, solver) = engines.optimal.as_ref().expect("loaded");
    let opts = config.search_options();
    let mut events = |e: IterationEvent| {
        send(match e {
            IterationEvent::Started { bound } => json!({"event": "started", "bound": bound}),
            IterationEvent::Finished(i) => json!({
                "event": "iteration", "bound": i.bound, "nodes": i.nodes, "seconds": i.seconds,
            }),
            IterationEvent::Witness {
                bound,
                seconds,
                found,
            } => json!({"event": "witness", "bound": bound, "seconds": seconds, "found": found}),
        })
    };
    let upper = upper.map(|(s, t)| (args.metric.length(&s), t, s));
    let o = solve::prove(
        solver,
        tp,
        args,
        &opts,
        input,
        cube,
        upper,
        stop,
        &mut events,
    )?;
    Ok((o, set))
}
