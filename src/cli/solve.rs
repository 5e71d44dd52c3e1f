//! `optcube solve`: one position (scramble or `--facelets`) or a batch (`--file`), text or JSON
//! Lines out, with search figures and a batch summary.

use super::{Failure, with_threads};
use optcube::cube::{Cube, format_moves, parse_moves, parse_position};
use optcube::pdb::set::default_dir;
use optcube::progress::ProgressMode;
use optcube::search::{SearchOptions, SearchResult};
use optcube::solvers::optimal::OptimalSolver;
use optcube::stats::BatchSummary;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args)]
pub struct Args {
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
    /// Table directory [default: $OPTCUBE_PDB_DIR or pdb/].
    #[arg(long, value_name = "DIR")]
    pdb_dir: Option<PathBuf>,
    /// Table set for the optimal solver: korf, korf6, or table names separated by commas.
    #[arg(long, default_value = "korf")]
    set: String,
    /// Search threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// One JSON object per position, one line each.
    #[arg(long)]
    json: bool,
    /// Which solver.
    #[arg(long, value_enum, default_value = "optimal")]
    solver: SolverKind,
    /// Also look up the inverse position in every table (dual heuristic).
    #[arg(long)]
    dual: bool,
    /// Stop once no solution of at most N moves exists (reports the proven lower bound).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_depth: u8,
    /// Per-iteration node counts.
    #[arg(short, long)]
    verbose: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverKind {
    Optimal,
    Twophase,
    Thistlethwaite,
}

/// Set by Ctrl-C: searches stop cleanly and report what they proved.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Reads the positions to solve: (input text, position).
fn positions(args: &Args) -> Result<Vec<(String, Cube)>, Failure> {
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

pub fn run(args: Args) -> Result<i32, Failure> {
    let inputs = positions(&args)?;
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    match args.solver {
        SolverKind::Optimal => with_threads(args.threads, || run_optimal(&args, &inputs)),
        other => Err(Failure(format!(
            "solver {other:?} is not available in this build yet"
        ))),
    }
}

fn run_optimal(args: &Args, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    let dir = args.pdb_dir.clone().unwrap_or_else(default_dir);
    let names: Vec<String> = args.set.split(',').map(|n| n.trim().to_string()).collect();
    let patterns = super::pdb::patterns_of(&names)?;
    let solver = OptimalSolver::open(&dir, &patterns, args.dual, ProgressMode::auto())?;
    let opts = SearchOptions {
        threads: rayon::current_num_threads(),
        max_depth: args.max_depth,
        ..SearchOptions::default()
    };
    let mut summary = BatchSummary::new();
    let mut status = 0;
    for (input, cube) in inputs {
        let r = solver.solve(cube, &opts, &INTERRUPTED);
        summary.record(r.solution.as_ref().map(|s| s.len()), r.nodes, r.seconds);
        print_result(args, input, &r);
        if r.interrupted {
            status = 130;
            break;
        }
    }
    if inputs.len() > 1 {
        let text = summary.report();
        if args.json {
            eprint!("{text}")
        } else {
            print!("{text}")
        }
    }
    Ok(status)
}

fn print_result(args: &Args, input: &str, r: &SearchResult) {
    let rate = r.nodes as f64 / r.seconds.max(1e-9);
    if args.json {
        let v = serde_json::json!({
            "input": input,
            "solver": "optimal",
            "solution": r.solution.as_ref().map(|s| format_moves(s)),
            "length": r.solution.as_ref().map(|s| s.len()),
            "optimal": r.optimal,
            "lower_bound": r.lower_bound,
            "nodes": r.nodes,
            "nodes_per_second": rate.round(),
            "seconds": r.seconds,
            "interrupted": r.interrupted,
            "iterations": r.iterations.iter().map(|i| serde_json::json!({
                "bound": i.bound, "nodes": i.nodes, "seconds": i.seconds})).collect::<Vec<_>>(),
        });
        println!("{v}");
        return;
    }
    println!("position: {input}");
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
    if args.verbose {
        for i in &r.iterations {
            println!(
                "  bound {:2}: {:>14} nodes {:>9.3} s",
                i.bound, i.nodes, i.seconds
            );
        }
    }
}
