//! `optcube stats lengths`: the optimal-length study of a seed's positions, one JSON line per
//! finished position ([`optcube::stats::study`]). Rerunning the same command resumes it: the
//! finished positions of the output file are skipped and a half-written last line is cut off.
//! Ctrl-C stops the current search without writing its line. Ends with the study's summary.

use super::summarize::print_summary;
use crate::cli::{Failure, TableArgs};
use optcube::coord::goal::GoalCheck;
use optcube::cube::Cube;
use optcube::progress::{Progress, ProgressMode};
use optcube::search::subset::MoveSet;
use optcube::search::{SearchOptions, SearchResult};
use optcube::solvers::goal::GoalSolver;
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver};
use optcube::stats::study::{Shard, Study, StudyError, StudyGoal, StudyRun};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

#[derive(clap::Args)]
pub struct LengthsArgs {
    /// Positions in the study (all shards together): indices 0..N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Seed: position i is the i-th random position drawn from it.
    #[arg(long, value_name = "S")]
    seed: u64,
    /// Output file (JSON Lines; appended to, resumed from)
    /// [default: results/lengths-seed{S}[-moves{L}][-qtm][-shard{K}of{N}].jsonl].
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Solve only the positions i with i mod N == K.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Also look up the inverse position in every table (dual heuristic).
    #[arg(long)]
    dual: bool,
    /// Random L-move scrambles instead of uniformly random positions (quick studies, tests).
    #[arg(long, value_name = "L")]
    moves: Option<u32>,
    /// Also count each position's optimal solutions (canonical sequences, as `solve --count`;
    /// the last iteration is searched to its end): field `optimal_solutions` of each line.
    #[arg(long)]
    count_solutions: bool,
    /// The metric of the lengths: htm (every face turn 1) or qtm (quarter turns 1, half turns
    /// 2). The same seed in the other metric is another study of the same positions, in its
    /// own file; `stats summarize --other-metric` sets the two side by side.
    #[arg(long, value_name = "METRIC", default_value = "htm", value_parser = crate::cli::parse_metric)]
    metric: optcube::cube::Metric,
    /// Distances to this named goal (`optcube goals`) instead of to solved: each position
    /// solved optimally toward it. Another study of the same positions, in its own file
    /// (`-goal-NAME`); `stats summarize` sets it beside the goal's exact distribution.
    #[arg(long, value_name = "NAME")]
    goal: Option<String>,
    /// With --goal: the goal counts in any whole-cube orientation (colour neutrality).
    #[arg(long, requires = "goal")]
    any_orientation: bool,
    /// Run every proof's last iteration: no two-phase witnesses (as `solve --no-upper-bound`;
    /// the same lengths, each record's `nodes` and `seconds` those of every iteration). In
    /// QTM witnesses are asked only after an iteration of 30 s or more.
    #[arg(long)]
    no_upper_bound: bool,
    #[command(flatten)]
    tables: TableArgs,
}

/// The failure of opening a study file; another study's file gets the hint of `--out`.
pub fn study_open_error(e: StudyError) -> Failure {
    match e {
        StudyError::Foreign { .. } => {
            Failure(format!("{e}; write this study to another file with --out"))
        }
        e => e.into(),
    }
}

/// Says on stderr what a resumed study file held: a half-written last line cut off (its
/// `item` is run again) and how many items were finished.
pub fn said_resumed(
    command: &str,
    out: &std::path::Path,
    partial: Option<usize>,
    done: usize,
    item: &str,
) {
    if let Some(line) = partial {
        eprintln!(
            "{command}: {}:{line}: half-written last line cut off; that {item} is run again",
            out.display()
        );
    }
    if done > 0 {
        eprintln!(
            "{command}: resuming {}: {done} {item}s already finished",
            out.display()
        );
    }
}

/// How each position is searched: the optimal solver with the asked tables, or toward the
/// goal with its own tables (built on first use); and the tables' name for the records.
#[allow(clippy::type_complexity)]
fn searcher(
    check: Option<GoalCheck>,
    names: &[String],
    dir: &std::path::Path,
    config: &OptimalConfig,
    witnesses: bool,
) -> Result<
    (
        Box<dyn Fn(&Cube, &SearchOptions, &AtomicBool) -> SearchResult>,
        String,
    ),
    Failure,
> {
    Ok(match check {
        None => {
            // The two-phase solver offers a solution of each bound's length before the
            // iteration (`search::witness`), as in `solve`: the same lengths, proven.
            let twophase = match witnesses {
                true => crate::cli::solve::open_twophase_for_bounds(dir, config.search.metric)?,
                false => None,
            };
            let solver = OptimalSolver::configured(dir, config, ProgressMode::auto())?;
            (
                Box::new(move |c, o, s| {
                    solver.prove(twophase.as_ref(), c, o, None, s, &mut |_| {})
                }),
                names.join(","),
            )
        }
        Some(check) => {
            let metric = config.search.metric;
            let solver = GoalSolver::open(check, metric, "--goal", dir, ProgressMode::auto())?;
            let set = solver.tables_name();
            (
                Box::new(move |c, o, s| solver.search(c, &MoveSet::ALL, o, s)),
                set,
            )
        }
    })
}

/// Set by Ctrl-C: the current search stops and its position is left for the next run.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(args: LengthsArgs) -> Result<i32, Failure> {
    (args.metric)
        .face_turns_only(optcube::stats::study::STUDIES)
        .map_err(Failure)?;
    let goal = args.goal.as_ref().map(|name| StudyGoal {
        name: name.trim().to_string(),
        any_orientation: args.any_orientation,
    });
    let check = match &goal {
        Some(g) => Some(g.check().map_err(|e| Failure(format!("--goal: {e}")))?),
        None => None,
    };
    if check.is_some() && args.dual {
        return Err(Failure(
            "--dual is for the optimal solver's tables; a goal search reads its own".into(),
        ));
    }
    if check.is_some() && args.tables.set.is_some() {
        return Err(Failure(
            "--set names the optimal solver's tables; a goal study reads the goal's own \
             (built in the table directory on first use)"
                .into(),
        ));
    }
    // A goal study reads no set: neither chosen nor resolved.
    let (names, patterns) = if check.is_some() {
        (Vec::new(), Vec::new())
    } else {
        let names = args.tables.names();
        let patterns = TableArgs::patterns(&names)?;
        (names, patterns)
    };
    let study = Study {
        seed: args.seed,
        moves: args.moves,
        metric: args.metric,
        goal,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| study.default_out(args.shard));
    let run = StudyRun {
        study,
        count: args.count,
        shard: args.shard,
        out: out.clone(),
        count_solutions: args.count_solutions,
    };
    let mut opened = run.open().map_err(study_open_error)?;
    said_resumed(
        "lengths",
        &out,
        opened.partial_line,
        opened.done.len(),
        "position",
    );

    let mut status = 0;
    if !opened.todo.is_empty() {
        status = args.tables.place.pooled(|| {
            let dir = args.tables.place.dir();
            let mut config = OptimalConfig::for_tables(patterns.clone());
            config.search = SearchOptions {
                threads: args.tables.place.thread_count(),
                dual: args.dual,
                metric: args.metric,
                max_depth: args.metric.diameter(),
                solutions: if args.count_solutions {
                    optcube::search::ALL_SOLUTIONS
                } else {
                    1
                },
                ..config.search
            };
            let opts = config.search_options();
            // As in `solve` (in QTM only after a long iteration, `search::witness`).
            let witnesses = !args.no_upper_bound;
            let (search, set) = searcher(check.clone(), &names, &dir, &config, witnesses)?;
            let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Relaxed));
            let total = opened.total;
            let progress = Progress::new(ProgressMode::auto(), "lengths", total, "positions");
            progress.println(&format!(
                "lengths: solving {} positions into {} with {} threads \
                 (Ctrl-C stops cleanly; rerun the same command to resume)",
                opened.todo.len(),
                out.display(),
                opts.threads
            ));
            let interrupted = opened
                .solve(
                    &*search,
                    &opts,
                    &set,
                    args.dual,
                    &INTERRUPTED,
                    |record, finished| {
                        let counted = record.optimal_solutions.map_or(String::new(), |n| {
                            format!(", {n} optimal solution{}", if n == 1 { "" } else { "s" })
                        });
                        let witnessed = if record.witnessed { ", witnessed" } else { "" };
                        progress.println(&format!(
                            "lengths: position {}: {} {}{counted}, {:.3} s, {} nodes{witnessed} \
                         ({finished}/{total})",
                            record.index,
                            record.length,
                            record.metric.unit_for(record.length),
                            record.seconds,
                            record.nodes,
                        ));
                        progress.update(finished, "");
                    },
                )
                .map_err(Failure)?;
            let finished = total - opened.todo.len() as u64;
            progress.finish(&format!(
                "{finished}/{total} positions finished{}",
                if interrupted {
                    "; interrupted: rerun the same command to go on"
                } else {
                    ""
                }
            ));
            Ok(if interrupted {
                crate::cli::EXIT_INTERRUPTED
            } else {
                0
            })
        })?;
    }
    let missing = opened.missing();
    print_summary(&opened.done, &missing, args.shard);
    Ok(status)
}
