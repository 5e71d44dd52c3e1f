//! `optcube solve`: one position (scramble or `--facelets`) or a batch (`--file`), text or JSON
//! Lines out, with search figures and a batch summary.

use super::{Failure, TableArgs, with_threads};
use optcube::cube::{Cube, Move, format_moves, parse_moves, parse_position};
use optcube::progress::ProgressMode;
use optcube::search::SearchResult;
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver};
use optcube::stats::BatchSummary;
use optcube::stats::predict::{Cdf, generated, tree_sizes};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The scramble, e.g. "R U2 F'" (quote it).
    #[arg(conflicts_with_all = ["facelets", "file"])]
    scramble: Option<String>,
    /// The position as a 54-character facelet string.
    #[arg(long, value_name = "STR", conflicts_with = "file")]
    facelets: Option<String>,
    /// Solve every position of a file: one scramble or facelet string a line; `#` comments and
    /// blank lines are skipped.
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    /// One JSON object per position, one line each.
    #[arg(long)]
    json: bool,
    /// Which solver.
    #[arg(long, value_enum, default_value = "optimal")]
    solver: SolverKind,
    /// Also look up the inverse position in every table (dual heuristic).
    #[arg(long)]
    dual: bool,
    /// Also look up each partial edge table (edges7a/b, edges6a/b) on the position turned by
    /// 120° and 240° about the URF–DBL diagonal: more lookups per node, far fewer nodes.
    #[arg(long)]
    sym: bool,
    /// Stop once no solution of at most N moves exists (reports the proven lower bound).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_depth: u8,
    /// Two-phase solver: stop at the first solution of at most L moves.
    #[arg(long, value_name = "L", default_value_t = 20)]
    max_length: usize,
    /// Two-phase solver: time limit per position in seconds (the best solution so far is kept).
    #[arg(long, value_name = "T", default_value_t = 10.0)]
    timeout: f64,
    /// Optimal solver: skip the quick two-phase upper bound printed before the proof.
    #[arg(long)]
    no_upper_bound: bool,
    /// Optimal solver: do not derive the corner successor table from the corner table (353 MB
    /// of memory, a few seconds at start): less memory, a slower search, the same results.
    #[arg(long)]
    no_successors: bool,
    /// Per-iteration node counts.
    #[arg(short, long)]
    verbose: bool,
    /// Optimal solver: per iteration, the node count predicted by Korf, Reid & Edelkamp (2001)
    /// next to the measured one (text, and fields in --json).
    #[arg(long)]
    predict: bool,
    /// With --predict: random positions sampled for the heuristic distribution (a single table
    /// without --dual uses its exact histogram instead).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    predict_samples: u64,
    #[command(flatten)]
    tables: TableArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverKind {
    Optimal,
    Twophase,
    Thistlethwaite,
}

/// Set by Ctrl-C once the optimal search has begun: searches stop cleanly and report what they
/// proved.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Reads the positions to solve: (input text, position).
fn positions(args: &SolveArgs) -> Result<Vec<(String, Cube)>, Failure> {
    if let Some(f) = &args.facelets {
        let c = Cube::from_facelets(f).map_err(|e| Failure(format!("invalid position: {e}")))?;
        return Ok(vec![(f.trim().to_string(), c)]);
    }
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))?;
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.split('#').next().unwrap_or("").trim();
            if t.is_empty() {
                continue;
            }
            match parse_position(t) {
                Ok(c) => out.push((t.to_string(), c)),
                Err(e) => errors.push(format!("{}:{}: {e}", path.display(), n + 1)),
            }
        }
        if !errors.is_empty() {
            return Err(Failure(errors.join("\n")));
        }
        return Ok(out);
    }
    let s = args.scramble.clone().unwrap_or_default();
    let c = Cube::from_moves(&parse_moves(&s)?);
    Ok(vec![(s.trim().to_string(), c)])
}

pub fn run(args: SolveArgs) -> Result<i32, Failure> {
    if args.predict && args.solver != SolverKind::Optimal {
        return Err(Failure(
            "--predict applies to the optimal solver only".into(),
        ));
    }
    let inputs = positions(&args)?;
    match args.solver {
        SolverKind::Optimal => with_threads(args.tables.threads, || run_optimal(&args, &inputs)),
        SolverKind::Thistlethwaite => run_thistlethwaite(&args, &inputs),
        SolverKind::Twophase => run_twophase(&args, &inputs),
    }
}

fn run_optimal(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    let dir = args.tables.dir();
    let patterns = args.tables.patterns()?;
    let config = OptimalConfig {
        patterns,
        threads: args.tables.thread_count(),
        max_depth: args.max_depth,
        dual: args.dual,
        sym: args.sym,
        successors: !args.no_successors,
    };
    let opts = config.search_options();
    let uppers = upper_bounds(args, &dir, inputs, opts.threads)?;
    let solver = OptimalSolver::configured(&dir, &config, ProgressMode::auto())?;
    let model = args
        .predict
        .then(|| Model::new(&solver, args))
        .transpose()?;
    // Only now does Ctrl-C stop cleanly: before, while the upper bounds are found and the
    // tables loaded or built, it ends the program at once as usual (a table being written
    // leaves at most a stray temporary file).
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let mut summary = BatchSummary::new();
    let mut status = 0;
    for ((input, cube), upper) in inputs.iter().zip(&uppers) {
        if let (Some((s, secs)), false) = (upper, args.json) {
            println!("position: {input}");
            println!(
                "upper bound: {} moves, {} (two-phase, {:.3} s)",
                s.len(),
                format_moves(s),
                secs
            );
            use std::io::Write;
            let _ = std::io::stdout().flush();
        }
        let r = solver.solve(cube, &opts, &INTERRUPTED);
        summary.record(r.solution.as_ref().map(|s| s.len()), r.nodes, r.seconds);
        print_result(
            args,
            input,
            &r,
            upper.as_ref().map(|(s, _)| s.len()),
            model.as_ref(),
        );
        if r.interrupted {
            status = 130;
            break;
        }
    }
    print_summary(args, inputs.len(), &summary);
    Ok(status)
}

/// A checked two-phase solution and the seconds it took.
type UpperBound = Option<(Vec<Move>, f64)>;

/// A two-phase solution of each input (checked), with its time: an upper bound in milliseconds,
/// printed before the proof; none with `--no-upper-bound`. All are found before the optimal
/// solver's tables are loaded, and the two-phase tables (about 64 MB) are freed before: the
/// search then holds its tables and a few MB.
fn upper_bounds(
    args: &SolveArgs,
    dir: &std::path::Path,
    inputs: &[(String, Cube)],
    threads: usize,
) -> Result<Vec<UpperBound>, Failure> {
    if args.no_upper_bound {
        return Ok(vec![None; inputs.len()]);
    }
    let tp = optcube::solvers::twophase::TwoPhase::open(dir, ProgressMode::auto())?;
    Ok(inputs
        .iter()
        .map(|(_, cube)| {
            let t = std::time::Instant::now();
            let s = tp
                .solve_with(cube, 20, std::time::Duration::from_secs(1), threads)
                .solution?;
            optcube::solvers::solves(cube, &s).then_some((s, t.elapsed().as_secs_f64()))
        })
        .collect())
}

/// The node-count model of [`optcube::stats::predict`] for the loaded heuristic.
struct Model {
    tree: Vec<u128>,
    cdf: Cdf,
}

impl Model {
    fn new(solver: &OptimalSolver, args: &SolveArgs) -> Result<Model, Failure> {
        let tables = solver.heuristic().tables();
        let counts: Vec<u64> = if tables.len() == 1 && !args.dual {
            eprintln!("prediction: P(h <= x) from the table's histogram (exact)");
            tables[0].1.histogram()
        } else {
            if args.predict_samples == 0 {
                return Err(Failure("--predict-samples must be at least 1".into()));
            }
            let column = if args.dual { "max_dual" } else { "max" };
            let d = optcube::stats::heuristic::sample(
                solver.heuristic(),
                args.predict_samples,
                1,
                args.dual,
            );
            eprintln!(
                "prediction: P(h <= x) from {} random positions (seed 1), mean h {:.4}",
                args.predict_samples,
                optcube::pdb::histogram_mean(d.column(column).expect("column"))
            );
            d.column(column).expect("column").to_vec()
        };
        Ok(Model {
            tree: tree_sizes(args.max_depth as usize + 1),
            cdf: Cdf::from_counts(&counts),
        })
    }

    /// Predicted nodes generated by the iteration with threshold `bound`.
    fn nodes(&self, bound: u8) -> f64 {
        generated(&self.tree, &self.cdf, bound)
    }
}

fn print_result(
    args: &SolveArgs,
    input: &str,
    r: &SearchResult,
    upper_bound: Option<usize>,
    model: Option<&Model>,
) {
    // The last iteration of a solved search stops at its first solution.
    let stopped = |k: usize| r.solution.is_some() && k + 1 == r.iterations.len();
    let rate = r.nodes as f64 / r.seconds.max(1e-9);
    if args.json {
        let v = serde_json::json!({
            "input": input,
            "solver": "optimal",
            "solution": r.solution.as_ref().map(|s| format_moves(s)),
            "length": r.solution.as_ref().map(|s| s.len()),
            "optimal": r.optimal,
            "lower_bound": r.lower_bound,
            "upper_bound": upper_bound,
            "nodes": r.nodes,
            "nodes_per_second": rate.round(),
            "seconds": r.seconds,
            "interrupted": r.interrupted,
            "iterations": r.iterations.iter().enumerate().map(|(k, i)| {
                let mut v = serde_json::json!({
                    "bound": i.bound, "nodes": i.nodes, "seconds": i.seconds});
                if let Some(m) = model {
                    let p = m.nodes(i.bound);
                    v["predicted_nodes"] = serde_json::json!(p);
                    v["ratio"] = serde_json::json!(i.nodes as f64 / p);
                    v["stopped_at_solution"] = serde_json::json!(stopped(k));
                }
                v
            }).collect::<Vec<_>>(),
        });
        println!("{v}");
        return;
    }
    if upper_bound.is_none() {
        println!("position: {input}");
    }
    match &r.solution {
        Some(s) => println!(
            "solution: {} ({} moves{})",
            format_moves(s),
            s.len(),
            if r.optimal { ", optimal" } else { "" }
        ),
        None if r.interrupted => println!(
            "interrupted: no solution of fewer than {} moves exists",
            r.lower_bound
        ),
        None => println!(
            "no solution of <= {} moves exists (lower bound {})",
            args.max_depth, r.lower_bound
        ),
    }
    println!(
        "nodes: {} ({:.2} M nodes/s), time: {:.3} s",
        r.nodes,
        rate / 1e6,
        r.seconds
    );
    if let Some(m) = model {
        println!("  bound      measured     predicted  measured/predicted");
        for (k, i) in r.iterations.iter().enumerate() {
            let p = m.nodes(i.bound);
            println!(
                "  {:5} {:>13} {:>13.0} {:>10.3}{}",
                i.bound,
                i.nodes,
                p,
                i.nodes as f64 / p,
                if stopped(k) {
                    "  (stopped at the solution)"
                } else {
                    ""
                }
            );
        }
    } else if args.verbose {
        for i in &r.iterations {
            println!(
                "  bound {:2}: {:>14} nodes {:>9.3} s",
                i.bound, i.nodes, i.seconds
            );
        }
    }
}

fn run_thistlethwaite(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    use optcube::solvers::thistlethwaite::Thistlethwaite;
    let dir = args.tables.dir();
    let start = std::time::Instant::now();
    let solver = Thistlethwaite::open(&dir)?;
    if !args.json {
        eprintln!(
            "thistlethwaite: tables ready in {:.2} s ({})",
            start.elapsed().as_secs_f64(),
            dir.display()
        );
    }
    let mut summary = BatchSummary::new();
    for (input, cube) in inputs {
        let t = std::time::Instant::now();
        let s = solver.try_solve(cube)?;
        let seconds = t.elapsed().as_secs_f64();
        if !optcube::solvers::solves(cube, &s.moves) {
            return Err(Failure(format!(
                "internal error: Thistlethwaite solution for {input} does not solve it"
            )));
        }
        summary.record(Some(s.moves.len()), 0, seconds);
        if args.json {
            let v = serde_json::json!({
                "input": input,
                "solver": "thistlethwaite",
                "solution": format_moves(&s.moves),
                "length": s.moves.len(),
                "optimal": false,
                "phase_lengths": s.phase_lengths,
                "nodes": 0,
                "seconds": seconds,
            });
            println!("{v}");
        } else {
            println!("position: {input}");
            println!(
                "solution: {} ({} moves)",
                format_moves(&s.moves),
                s.moves.len()
            );
            if args.verbose {
                for k in 0..4 {
                    println!(
                        "  phase {}: {} ({} moves)",
                        k + 1,
                        format_moves(s.phase(k)),
                        s.phase_lengths[k]
                    );
                }
            }
            println!("time: {:.6} s", seconds);
        }
    }
    print_summary(args, inputs.len(), &summary);
    Ok(0)
}

fn run_twophase(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    use optcube::solvers::twophase::TwoPhase;
    if args.timeout.is_nan() || args.timeout <= 0.0 {
        return Err(Failure(
            "--timeout must be a positive number of seconds".into(),
        ));
    }
    let dir = args.tables.dir();
    let start = std::time::Instant::now();
    let solver = TwoPhase::open(&dir, ProgressMode::auto())?;
    eprintln!(
        "twophase: tables ready in {:.2} s ({})",
        start.elapsed().as_secs_f64(),
        dir.display()
    );
    let threads = args.tables.thread_count();
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    let mut summary = BatchSummary::new();
    let mut status = 0;
    for (input, cube) in inputs {
        let t = std::time::Instant::now();
        let r = solver.solve_with(cube, args.max_length, timeout, threads);
        let seconds = t.elapsed().as_secs_f64();
        if let Some(s) = &r.solution
            && !optcube::solvers::solves(cube, s)
        {
            return Err(Failure(format!(
                "internal error: two-phase solution for {input} does not solve it"
            )));
        }
        summary.record(r.solution.as_ref().map(|s| s.len()), r.nodes, seconds);
        let within = r
            .solution
            .as_ref()
            .is_some_and(|s| s.len() <= args.max_length);
        if !within {
            status = 1;
        }
        if args.json {
            let v = serde_json::json!({
                "input": input,
                "solver": "twophase",
                "solution": r.solution.as_ref().map(|s| format_moves(s)),
                "length": r.solution.as_ref().map(|s| s.len()),
                "optimal": false,
                "within_max_length": within,
                "nodes": r.nodes,
                "seconds": seconds,
            });
            println!("{v}");
        } else {
            println!("position: {input}");
            match &r.solution {
                Some(s) => println!("solution: {} ({} moves)", format_moves(s), s.len()),
                None => println!("no solution found within {} s", args.timeout),
            }
            if !within {
                println!(
                    "note: no solution of at most {} moves found in time",
                    args.max_length
                );
            }
            println!("nodes: {}, time: {:.6} s", r.nodes, seconds);
        }
    }
    print_summary(args, inputs.len(), &summary);
    Ok(status)
}

/// The batch summary after several positions: on stdout, or on stderr with `--json` so that
/// stdout stays JSON Lines.
fn print_summary(args: &SolveArgs, positions: usize, summary: &BatchSummary) {
    if positions > 1 {
        let text = summary.report();
        if args.json {
            eprint!("{text}")
        } else {
            print!("{text}")
        }
    }
}
