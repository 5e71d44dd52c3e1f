//! `optcube coset --random-cosets N`: a study of random cosets, one JSON line per finished
//! coset ([`optcube::stats::cosets`]). Rerunning the same command resumes it; Ctrl-C stops
//! between cosets or during a sample's search, losing only the coset under way. Ends with the
//! estimate of the whole cube's distribution from the cosets finished so far.

use super::stats::lengths::{said_resumed, study_open_error};
use super::{Failure, TableArgs};
use optcube::progress::{Progress, ProgressMode};
use optcube::search::SearchOptions;
use optcube::solvers::coset::CosetSolver;
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver};
use optcube::stats::cosets::{CosetStudyRun, Solvers, estimate::estimate};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Set by Ctrl-C: the run stops at the next coset or sample search.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs (or resumes) the study `run`; the samples' searches read the table set of `tables`.
pub fn run(run: CosetStudyRun, tables: &TableArgs) -> Result<i32, Failure> {
    let (study, out) = (run.study, run.out.clone());
    let mut opened = run.open().map_err(study_open_error)?;
    said_resumed(
        "cosets",
        &out,
        opened.partial_line,
        opened.done.len(),
        "coset",
    );
    let mut status = 0;
    if !opened.todo.is_empty() {
        // Without samples no table set is read: the records name it "none".
        let (names, patterns) = if study.samples > 0 {
            let names = tables.names();
            let patterns = TableArgs::patterns(&names)?;
            (names, patterns)
        } else {
            (vec!["none".to_string()], Vec::new())
        };
        let set = names.join(",");
        let place = &tables.place;
        status = place.pooled(|| {
            let dir = place.dir();
            let mut config = OptimalConfig::for_tables(patterns.clone());
            config.search = SearchOptions {
                threads: place.thread_count(),
                ..config.search
            };
            let mode = ProgressMode::auto();
            // Without samples the optimal solver is never asked: its tables are not loaded.
            let optimal = if study.samples > 0 {
                Some(OptimalSolver::configured(&dir, &config, mode)?)
            } else {
                None
            };
            let coset = CosetSolver::open(&dir, mode)?;
            let opts = config.search_options();
            let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Relaxed));
            let total = opened.total;
            let progress = Progress::new(mode, "cosets", total, "cosets");
            progress.println(&format!(
                "cosets: running {} cosets ({study}) into {} with {} threads \
                 (Ctrl-C stops; rerun the same command to resume)",
                opened.todo.len(),
                out.display(),
                opts.threads
            ));
            let solvers = Solvers {
                coset: &coset,
                optimal: optimal.as_ref(),
                opts: &opts,
                set: &set,
                progress: mode,
            };
            let interrupted = opened
                .run(&solvers, &INTERRUPTED, |r, finished| {
                    let exact = r.depth_counts.len();
                    let deepest = r.depth_counts.iter().rposition(|&n| n > 0).unwrap_or(0);
                    let mut lengths = std::collections::BTreeMap::<u8, u32>::new();
                    for s in r.tail_samples() {
                        *lengths.entry(s.length).or_default() += 1;
                    }
                    let left = match (r.unset, r.closed) {
                        (0, 0) => String::new(),
                        (0, c) => format!(", {c} closed by two-phase solutions"),
                        (u, _) => format!(", {u} unset"),
                    };
                    progress.println(&format!(
                        "cosets: index {} (coset {}): {} at {deepest}, exact through {}{left}; \
                         samples beyond by length {lengths:?}; {:.1} s + {:.1} s samples \
                         ({finished}/{total})",
                        r.index,
                        r.coset,
                        r.depth_counts[deepest],
                        exact as i64 - 1,
                        r.seconds,
                        r.sample_seconds
                    ));
                    progress.update(finished, "");
                })
                .map_err(Failure)?;
            let finished = total - opened.todo.len() as u64;
            progress.finish(&format!(
                "{finished}/{total} cosets finished{}",
                if interrupted {
                    "; interrupted: rerun the same command to go on"
                } else {
                    ""
                }
            ));
            Ok(if interrupted {
                super::EXIT_INTERRUPTED
            } else {
                0
            })
        })?;
    }
    let missing = opened.missing();
    println!(
        "{} cosets finished, {} missing; study file {}",
        opened.done.len(),
        missing.len(),
        out.display()
    );
    match estimate(opened.done.records()) {
        Ok(e) => print!("{}", e.markdown()),
        Err(e) => println!("no estimate: {e}"),
    }
    Ok(status)
}
