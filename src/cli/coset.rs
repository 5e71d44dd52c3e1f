//! `optcube coset [POSITION | --index N]`: the distance of every position of a coset of
//! H = <U, D, R2, L2, F2, B2> (`optcube::solvers::coset`). `optcube coset --random-cosets N`:
//! a resumable study of random cosets (`optcube::stats::cosets`, run in `coset_study.rs`).

use super::{Failure, TableArgs};
use optcube::cube::Cube;
use optcube::progress::ProgressMode;
use optcube::solvers::coset::settle::{self, Settler, UNSET_LIMIT};
use optcube::solvers::coset::{CosetReport, CosetSolver, ELEMENTS};
use optcube::solvers::request::CosetJob;
use optcube::stats::cosets::{CosetStudy, CosetStudyRun};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Set by Ctrl-C: the run stops at the next part of its phase-1 walk or the next depth.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[derive(clap::Args)]
pub struct CosetArgs {
    /// A position of the coset: a scramble or a facelet string [default: solved, the coset H].
    position: Option<String>,
    /// The coset by number, 0..2217093120: (slice · 2048 + flip) · 2187 + twist.
    // Read as a signed number so that a negative one is answered as out of range, not taken
    // for a flag.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "position",
        allow_negative_numbers = true
    )]
    index: Option<i64>,
    /// Stop after this depth, even with positions left unset [default: 30]. Without it and
    /// without --search-depth the run gives every distance: it walks until a prepass leaves at
    /// most ten thousand positions and settles those (as --settle does).
    #[arg(long, value_name = "D")]
    pub(super) max_depth: Option<u8>,
    /// Last depth of the phase-1 search [default: --max-depth; with --max-depth 20, 15: the
    /// fastest proof that the coset is within 20 moves]. Deeper, only prepasses run:
    /// positions first found at a depth beyond it are only known to be at most that far.
    #[arg(long, value_name = "S")]
    pub(super) search_depth: Option<u8>,
    /// Write the positions not found by the last depth to FILE (facelets, one a line; at most
    /// ten million), for `optcube solve --file`.
    #[arg(long, value_name = "FILE")]
    unset: Option<PathBuf>,
    /// Solve the positions left unset one by one with the optimal solver (table set --set),
    /// each known to be past the last exact depth, so that every depth of the report is exact.
    /// Needs --max-depth at most --search-depth + 1. `--search-depth 18 --max-depth 19
    /// --settle` gives every distance of a coset.
    #[arg(long)]
    settle: bool,
    /// Draw N positions of the coset at random and write each, with the depth at which it was
    /// found, to --sample-out (JSON lines: `facelets`, `depth`, `exact`): for a check by the
    /// optimal solver (`scripts/coset-check.sh`). With --random-cosets: N positions of each
    /// coset, those beyond --search-depth solved by the optimal solver (table set --set).
    #[arg(long, value_name = "N")]
    pub(super) sample: Option<usize>,
    /// The file of --sample.
    #[arg(long, value_name = "FILE", requires = "sample")]
    sample_out: Option<PathBuf>,
    /// Seed of --sample, and of the study's cosets with --random-cosets.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(super) seed: u64,
    /// A study of N random cosets (drawn from --seed), one JSON line per finished coset in
    /// --out; rerunning the same command resumes it. `optcube stats summarize FILE` estimates
    /// the whole cube's distribution from it. E.g. `--random-cosets 10 --search-depth 16
    /// --max-depth 20 --sample 40`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["position", "index", "unset", "sample_out", "settle"])]
    pub(super) random_cosets: Option<u64>,
    /// With --random-cosets: run only the cosets i with i mod N == K.
    #[arg(long, value_name = "K/N", requires = "random_cosets")]
    pub(super) shard: Option<optcube::stats::study::Shard>,
    /// With --random-cosets: the study file (JSON Lines; appended to, resumed from), or a
    /// directory for the default name
    /// [default: results/cosets-seed{S}-s{search}-d{max}-k{samples}[-shard{K}of{N}].jsonl].
    #[arg(long, value_name = "FILE", requires = "random_cosets")]
    pub(super) out: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pub(super) tables: TableArgs,
}

pub fn run(args: CosetArgs) -> Result<i32, Failure> {
    let job = CosetJob {
        position: args.position.clone(),
        index: args.index,
        max_depth: args.max_depth,
        search_depth: args.search_depth,
        settle: args.settle,
        sample: args.sample,
        sample_out: args.sample_out.is_some(),
        study: args.random_cosets.is_some(),
    };
    let plan = job.plan().map_err(super::solve::refused)?;
    let (max_depth, search_depth) = (plan.max_depth, plan.search_depth);
    // The output paths are checked before the work: a run of minutes must not end in a path
    // that cannot be written.
    for path in [&args.unset, &args.sample_out].into_iter().flatten() {
        optcube::sys::files::check_output(path).map_err(Failure)?;
    }
    if let Some(count) = args.random_cosets {
        let study = CosetStudy {
            seed: args.seed,
            search_depth,
            max_depth,
            samples: args.sample.unwrap_or(0),
        };
        let named = study.default_out(args.shard);
        let out = match &args.out {
            // A directory takes the default name, so that a script need not know the depths
            // the binary chose.
            Some(dir) if dir.is_dir() => dir.join(named.file_name().expect("a file name")),
            Some(file) => file.clone(),
            None => named,
        };
        let run = CosetStudyRun {
            study,
            count,
            shard: args.shard,
            out,
        };
        return super::coset_study::run(run, &args.tables);
    }
    let p = plan.coset.expect("a run of one coset names it");
    let samples = args.sample.map_or(Vec::new(), |n| {
        optcube::solvers::coset::sample_elements(n, args.seed)
    });
    let opts = plan.options(ProgressMode::auto(), samples);
    let threads = args.tables.place.thread_count();
    let (report, map, solver) = args.tables.place.pooled(|| {
        let solver = CosetSolver::open(&args.tables.place.dir(), ProgressMode::auto())?;
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Relaxed));
        let (report, map) = solver.run_until(&p, &opts, &INTERRUPTED);
        Ok((report, map, solver))
    })?;
    if report.interrupted {
        let last = report.rows.last().map_or(-1, |r| r.depth as i64);
        eprintln!(
            "coset: interrupted; the depths through {last} are finished (no --unset or \
             --sample-out file is written)"
        );
        if args.json {
            println!("{}", report.to_json());
        } else {
            print_rows(&report);
        }
        return Ok(super::EXIT_INTERRUPTED);
    }
    let unset = ELEMENTS - report.found();
    let settle = plan.settle;
    // Whatever fails from here on, the run's counts are printed first: they cost the most.
    let mut failures = Vec::new();
    let listed = args.unset.is_some() || settle;
    let too_many = listed && unset > UNSET_LIMIT;
    if too_many {
        failures.push(format!(
            "{unset} positions are unset, more than --unset and --settle take \
             ({UNSET_LIMIT}); raise --max-depth or --search-depth"
        ));
    }
    let mut missing = Vec::new();
    if listed && !too_many {
        solver.for_each_missing(&p, &map, |x| missing.push(x));
    }
    // The bitmap and the phase-1 masks are not needed past here: their memory goes back
    // before the optimal solver's tables are read.
    drop((map, solver));
    if let Some(path) = args.unset.as_ref().filter(|_| !too_many) {
        let text: String = missing.iter().map(|x| x.to_facelets() + "\n").collect();
        match optcube::sys::files::write_output(path, text.as_bytes()) {
            Ok(()) => eprintln!("wrote {unset} unset positions to {}", path.display()),
            Err(e) => failures.push(e),
        }
    }
    if let Some(path) = &args.sample_out {
        let mut text = String::new();
        for (x, depth) in &report.samples {
            let exact = depth.is_some_and(|d| report.rows.iter().any(|r| r.depth == d && r.exact));
            let line =
                serde_json::json!({"facelets": x.to_facelets(), "depth": depth, "exact": exact});
            text.push_str(&format!("{line}\n"));
        }
        if let Err(e) = optcube::sys::files::write_output(path, text.as_bytes()) {
            failures.push(e);
        }
    }
    let settle_start = std::time::Instant::now();
    let report = match settle && !too_many {
        true => match settle_unset(&args, &report, &missing) {
            Ok(r) => r,
            Err(_) if INTERRUPTED.load(Relaxed) => {
                eprintln!("coset: interrupted while settling the unset positions");
                return Ok(super::EXIT_INTERRUPTED);
            }
            Err(e) => {
                failures.push(e.0);
                report
            }
        },
        false => report,
    };
    let settle_seconds = (report.settled > 0 || settle).then(|| settle_start.elapsed());
    print_report(&args, &report, &p, threads, settle_seconds);
    match failures.is_empty() {
        true => Ok(0),
        false => Err(Failure(failures.join("\n"))),
    }
}

/// The finished run's report: one JSON object, or the table with a line that says what is
/// known of the positions not found; `settle_seconds` when the unset ones were settled.
fn print_report(
    args: &CosetArgs,
    report: &CosetReport,
    p: &Cube,
    threads: usize,
    settle_seconds: Option<std::time::Duration>,
) {
    if args.json {
        let mut v = report.to_json();
        v["threads"] = serde_json::json!(threads);
        if let Some(t) = settle_seconds {
            v["settle_seconds"] = serde_json::json!(t.as_secs_f64());
        }
        println!("{v}");
        return;
    }
    println!(
        "coset {} ({}): {ELEMENTS} positions",
        report.coset,
        p.to_facelets()
    );
    print_rows(report);
    let unset = ELEMENTS - report.found();
    let searched = report.rows.iter().take_while(|r| r.exact).count();
    let last = report.rows.last().map_or(0, |r| r.depth);
    let status = if report.complete() && report.settled > 0 {
        format!(
            "every position found, {} of them settled by the optimal solver in {:.1} s",
            report.settled,
            settle_seconds.unwrap_or_default().as_secs_f64()
        )
    } else if report.complete() && report.closed > 0 {
        format!(
            "every position within {last} moves, {} of them shown so by two-phase solutions",
            report.closed
        )
    } else if report.complete() {
        "every position found".to_string()
    } else if report.found() == 0 {
        // Prepasses only grow what a search found: from nothing they find nothing.
        format!(
            "no position found: none of this coset is within {} moves (the depths \
             searched), and the prepasses beyond only reach out from positions found; raise \
             --search-depth",
            searched.saturating_sub(1)
        )
    } else if report.rows.iter().all(|r| r.exact) {
        format!("{unset} positions are more than {last} moves from solved")
    } else {
        format!(
            "{unset} positions not found: each is more than {} moves from solved (searched) \
             and was not reached by the prepasses through depth {last}",
            searched.saturating_sub(1)
        )
    };
    let peak = optcube::sys::peak_memory_bytes();
    println!(
        "{status}; {:.1} s on {threads} threads, peak memory {} (bitmaps {:.2} GB){}",
        report.seconds,
        peak.map_or("unknown".into(), |b| format!("{:.2} GB", b as f64 / 1e9)),
        report.peak_bitmap_bytes as f64 / 1e9,
        if report.rows.iter().any(|r| !r.exact) {
            format!(
                " (depths beyond {}, marked ≤, are upper bounds: prepasses only)",
                searched.saturating_sub(1)
            )
        } else {
            String::new()
        }
    );
}

/// The report's table, one row a depth (`≤`: a bounded depth).
fn print_rows(report: &optcube::solvers::coset::CosetReport) {
    println!("depth        found          total          seeds  prepass s  search s");
    for r in &report.rows {
        let mark = if r.exact { " " } else { "≤" };
        println!(
            "{mark}{:>4} {:>12} {:>14} {:>14} {:>10.2} {:>9.2}",
            r.depth, r.found, r.total, r.seeds, r.prepass_seconds, r.search_seconds
        );
    }
}

/// `--settle`: the unset positions solved one by one by the optimal solver, each search
/// starting at the first depth past the exact ones (what the coset run proved of them); each
/// solution is checked on its position.
fn settle_unset(
    args: &CosetArgs,
    report: &CosetReport,
    unset: &[Cube],
) -> Result<CosetReport, Failure> {
    if unset.is_empty() {
        return Ok(settle::settled(report, &[])?);
    }
    // Refused before any table is read.
    settle::check_settleable(report)?;
    let patterns = TableArgs::patterns(&args.tables.names())?;
    let place = &args.tables.place;
    place.pooled(|| {
        let mode = ProgressMode::auto();
        let settler = Settler::open(&place.dir(), patterns, place.thread_count(), mode)?;
        Ok(settler.settle(report, unset, mode, &INTERRUPTED)?)
    })
}
