//! `optcube stats lengths`: the optimal-length study of a seed's positions, one JSON line per
//! finished position ([`optcube::stats::study`]). Rerunning the same command resumes it: the
//! finished positions of the output file are skipped and a half-written last line is cut off.
//! Ctrl-C stops the current search without writing its line. Ends with the study's summary.

use super::summarize::print_summary;
use crate::cli::{Failure, TableArgs};
use optcube::progress::{Progress, ProgressMode};
use optcube::search::SearchOptions;
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver};
use optcube::stats::study::{Shard, Study, StudyError, StudyRun};
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

/// Set by Ctrl-C: the current search stops and its position is left for the next run.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(args: LengthsArgs) -> Result<i32, Failure> {
    let names = args.tables.names();
    let patterns = TableArgs::patterns(&names)?;
    let set = names.join(",");
    let study = Study {
        seed: args.seed,
        moves: args.moves,
        metric: args.metric,
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
            let solver = OptimalSolver::configured(&dir, &config, ProgressMode::auto())?;
            let opts = config.search_options();
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
                    &solver,
                    &opts,
                    &set,
                    args.dual,
                    &INTERRUPTED,
                    |record, finished| {
                        let counted = record.optimal_solutions.map_or(String::new(), |n| {
                            format!(", {n} optimal solution{}", if n == 1 { "" } else { "s" })
                        });
                        progress.println(&format!(
                            "lengths: position {}: {} {}{counted}, {:.3} s, {} nodes \
                         ({finished}/{total})",
                            record.index,
                            record.length,
                            record.metric.unit(),
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
