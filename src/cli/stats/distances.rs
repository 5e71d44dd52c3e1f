//! `optcube stats distances`: positions at each exact distance from solved, by the layered
//! breadth-first search of [`optcube::stats::distances`] over classes of positions under the
//! 48 symmetries and inversion (or the 48 symmetries, or whole positions); CSV
//! `depth,count,classes` and a Markdown note (command, time, peak memory, comparison with the
//! published counts).

use super::output::{check_outputs, command_line, peak_memory_bytes, write_outputs};
use crate::cli::{Failure, with_threads};
use optcube::coord::positions::Reduction;
use optcube::progress::{Progress, ProgressMode};
use optcube::stats::distance_job::{DistanceJob, JobError, check_published};
use optcube::stats::distances::LayerCount;
use optcube::stats::spill::{Event, PARTITIONS, Spill};
use optcube::sys::available_memory;
use std::path::PathBuf;
use std::time::Instant;

/// What one key of the search stands for.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Reduce {
    /// Whole positions (16 bytes each).
    None,
    /// Classes under the 48 symmetries (rotations and mirrors).
    Sym,
    /// Classes under the 48 symmetries and inversion (up to 96 positions each).
    SymInv,
}

impl Reduce {
    fn reduction(self) -> Option<Reduction> {
        match self {
            Reduce::None => None,
            Reduce::Sym => Some(Reduction::Symmetry),
            Reduce::SymInv => Some(Reduction::SymmetryAndInverse),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Reduce::None => "whole positions",
            Reduce::Sym => "classes under the 48 symmetries",
            Reduce::SymInv => "classes under the 48 symmetries and inversion",
        }
    }
}

#[derive(clap::Args)]
pub struct DistancesArgs {
    /// Largest distance to count (in HTM 9 needs about 8 GB and some minutes on 2 cores).
    #[arg(long, value_name = "D", required_unless_present = "goal")]
    max_depth: Option<u8>,
    /// Count the states of a goal (`optcube goals` lists them: cross, eo, 2x2x2, ...) by their
    /// distance to it, exactly and to the last one: the goal's own God's number. For goals
    /// whose states fit one table (at most 100,000,000).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["spill", "reduce"])]
    pub goal: Option<String>,
    /// The metric distances are counted in: htm (face turns), qtm (quarter turns), stm (face
    /// and middle-slice turns, positions up to whole-cube rotation) or atm (axial: turns of one
    /// axis's two faces at once).
    #[arg(long, value_name = "METRIC", default_value = "htm", value_parser = crate::cli::parse_metric)]
    metric: optcube::cube::Metric,
    /// Count classes of positions (each with its size) instead of positions.
    #[arg(long, value_enum, default_value = "sym-inv")]
    reduce: Reduce,
    /// CSV output; a Markdown note goes beside it (same name, `.md`).
    #[arg(long, value_name = "FILE", default_value = "results/distances.csv")]
    out: PathBuf,
    /// Count the last layer through disk (class searches only): its neighbours are written
    /// in sorted chunk files and merged, so depth 10 needs the memory of depth 9 and about
    /// 40 GB of disk. A killed run started again with the same arguments resumes.
    #[arg(long)]
    spill: bool,
    /// Directory of the chunk files of `--spill` [default: beside --out, `.spill`]; removed
    /// when the count is done.
    #[arg(long, value_name = "DIR")]
    spill_dir: Option<PathBuf>,
    /// Parent classes a chunk file of `--spill` (16 bytes of memory for each of their 36
    /// neighbours).
    #[arg(long, value_name = "N", default_value_t = 8_000_000)]
    chunk_parents: usize,
    /// Worker threads [default: all cores; at most 4 a core, or 64].
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Replace --out even when it holds counts to a greater depth than this run makes.
    #[arg(long)]
    force: bool,
}

/// The greatest depth counted in an existing distance CSV (`depth,count,classes` lines), if
/// the file is there and readable.
fn deepest_in(csv: &std::path::Path) -> Option<u8> {
    let text = std::fs::read_to_string(csv).ok()?;
    text.lines()
        .skip(1)
        .filter_map(|l| l.split(',').next()?.trim().parse::<u8>().ok())
        .max()
}

pub fn run(args: DistancesArgs) -> Result<i32, Failure> {
    if let Some(name) = &args.goal {
        check_outputs(&args.out)?;
        return super::goal::distances(name, args.metric, &args.out, args.threads);
    }
    let max_depth = args
        .max_depth
        .expect("clap requires --max-depth without --goal");
    let reduction = args.reduce.reduction();
    let job = DistanceJob {
        metric: args.metric,
        max_depth,
        reduction,
        spill: args.spill.then(|| Spill {
            dir: args
                .spill_dir
                .clone()
                .unwrap_or_else(|| args.out.with_extension("spill")),
            chunk_parents: args.chunk_parents.max(1),
            reduction: reduction.unwrap_or(Reduction::Symmetry),
        }),
    };
    job.check_asked().map_err(|e| Failure(explain(&e, &args)))?;
    // Never replace a deeper count (such as the committed results/distances.csv) by accident.
    if let Some(d) = deepest_in(&args.out).filter(|&d| d > max_depth && !args.force) {
        return Err(Failure(format!(
            "{} holds counts to depth {d}; this run counts to depth {} and would replace them: \
             give another --out FILE, or --force to replace it",
            args.out.display(),
            max_depth
        )));
    }
    let available = available_memory();
    if available.is_none() {
        eprintln!("optcube: warning: cannot read MemAvailable; not checking memory");
    }
    let plan = job
        .plan(available)
        .map_err(|e| Failure(explain(&e, &args)))?;
    // After the memory refusal (which says what would fit), before the work.
    check_outputs(&args.out)?;
    let need = plan.memory;
    if let (Some(s), Some(disk)) = (&job.spill, plan.disk) {
        eprintln!(
            "spilling the last layer to {} (about {} MB of disk, {} parents a chunk)",
            s.dir.display(),
            disk >> 20,
            s.chunk_parents
        );
    }
    let mb = |b: u128| b >> 20;
    let threads = with_threads(args.threads, || Ok(rayon::current_num_threads()))?;
    eprintln!(
        "distances to depth {} over {}: estimated peak memory {} MB, {threads} threads",
        max_depth,
        args.reduce.describe(),
        mb(need)
    );
    let start = Instant::now();
    let counts = with_threads(args.threads, || {
        let progress = Progress::new(
            ProgressMode::auto(),
            "distances",
            max_depth as u64,
            "layers",
        );
        let mut times = Vec::new();
        let on_layer = |d: u8, n: LayerCount| {
            times.push(progress.elapsed());
            progress.println(&format!(
                "depth {d:2}: {:>15} positions {:>14} classes ({:.1} s, {} MB resident)",
                n.positions,
                n.classes,
                progress.elapsed(),
                peak_memory_bytes().map_or("?".into(), |b| (b >> 20).to_string())
            ));
            progress.update(d as u64, &format!("depth {d}"));
        };
        let d = max_depth;
        let on_event =
            |e: Event| match e {
                Event::Chunk {
                    done,
                    chunks,
                    neighbours,
                    file_bytes,
                    reused,
                } => {
                    progress.println(&format!(
                    "depth {d:2}: chunk {done}/{chunks}: {neighbours} neighbour classes, {} MB{} \
                     ({:.1} s)",
                    file_bytes >> 20,
                    if reused { ", kept from an earlier run" } else { "" },
                    progress.elapsed()
                ));
                    progress.update(d as u64 - 1, &format!("depth {d}: chunk {done}/{chunks}"));
                }
                Event::Partition { done, reused, .. } => {
                    if done % 32 == 0 || done == PARTITIONS {
                        progress.println(&format!(
                            "depth {d:2}: merged {done}/{PARTITIONS} partitions{} ({:.1} s)",
                            if reused {
                                " (some kept from an earlier run)"
                            } else {
                                ""
                            },
                            progress.elapsed()
                        ));
                    }
                    progress.update(
                        d as u64 - 1,
                        &format!("depth {d}: merge {done}/{PARTITIONS}"),
                    );
                }
            };
        let (counts, report) = job.run(on_layer, on_event).map_err(Failure)?;
        let secs = progress.elapsed();
        progress.finish(&format!("{} layers in {secs:.1} s", counts.len()));
        Ok((counts, times, report))
    })?;
    let (counts, times, report) = counts;
    let seconds = start.elapsed().as_secs_f64();
    let peak = peak_memory_bytes();

    let mut csv = String::from("depth,count,classes\n");
    let mut table = String::from(
        "| depth | positions | published | classes | published classes | match | done at (s) |\n\
         |---:|---:|---:|---:|---:|---|---:|\n",
    );
    let checked = check_published(&counts, reduction, args.metric);
    let all_match = checked.iter().all(|c| c.matches() != Some(false));
    for (d, c) in checked.iter().enumerate() {
        let n = c.count;
        csv += &format!("{d},{},{}\n", n.positions, n.classes);
        let matches = match c.matches() {
            Some(false) => "NO",
            Some(true) => "yes",
            None => "",
        };
        let show = |x: Option<u64>| x.map_or(String::new(), |v| v.to_string());
        table += &format!(
            "| {d} | {} | {} | {} | {} | {matches} | {:.1} |\n",
            n.positions,
            show(c.published),
            n.classes,
            show(c.published_classes),
            times[d]
        );
        println!("{d:2} {:>15} {:>14}", n.positions, n.classes);
    }
    let declared = args.metric.declaration();
    let sources = match (declared.published_source, args.metric.is_htm()) {
        ("", _) => "none known to us".to_string(),
        (s, true) => format!(
            "{s}; classes under the 48 symmetries: Jerry Bryan, \
             jerrybryan.com/math/rubikresults.html"
        ),
        (s, false) => s.to_string(),
    };
    let md = format!(
        "# Positions at each distance from solved ({})\n\n\
         Made with `{}` ({threads} threads).\n\n\
         Wall time {seconds:.1} s; peak resident memory {} MB (VmHWM); estimated beforehand \
         {} MB. {}\n\n{table}\n\
         Layered breadth-first search over sorted, deduplicated vectors of {}, 16 bytes a key \
         (`src/stats/distances.rs`; classes: `src/coord/positions.rs`, each counted with its \
         size), the {} unit moves a position. Published counts: {sources}.{}\n",
        args.metric.name().to_uppercase(),
        command_line(),
        peak.map_or("?".into(), |b| (b >> 20).to_string()),
        mb(need),
        match report {
            None => "Disk used: none (the layers are held in memory).".to_string(),
            Some(r) => format!(
                "The last layer was counted through disk (`--spill`, `src/stats/spill.rs`): {} \
                 chunk files of {} parent classes, {} MB of disk at the peak, removed \
                 afterwards; {} chunk files and {} of {PARTITIONS} partitions kept from an \
                 earlier run.",
                r.chunks,
                args.chunk_parents,
                r.disk_bytes >> 20,
                r.chunks_reused,
                r.partitions_reused
            ),
        },
        args.reduce.describe(),
        args.metric.generators().len(),
        if all_match {
            ""
        } else {
            "\n\n**Counts differ from the published ones.**"
        }
    );
    write_outputs(&args.out, &csv, &md)?;
    Ok(if all_match { 0 } else { 1 })
}

/// A refusal in the command line's terms: the flags that would help.
fn explain(e: &JobError, args: &DistancesArgs) -> String {
    let d = args.max_depth.unwrap_or(0);
    match e {
        JobError::TooDeep { .. } => format!(
            "--max-depth {d}: no position is more than {} {} from solved",
            args.metric.diameter(),
            args.metric.unit_for(args.metric.diameter().into())
        ),
        JobError::NoEstimate { .. } => format!(
            "--max-depth {d}: no published count to estimate the memory of {} from (in {}, \
             depth {} is the last)",
            args.reduce.describe(),
            args.metric,
            optcube::stats::distances::published(args.metric).len() - 1
        ),
        JobError::SpillNeedsClasses => "--spill counts the last layer of a class search: give \
             --reduce sym or sym-inv and --max-depth 1 or more"
            .into(),
        JobError::Memory {
            need,
            have,
            spill_would_help,
        } => format!(
            "--max-depth {d}: the search over {} needs about {} MB (16 bytes a key, estimate \
             from {}), only {} MB available (MemAvailable){}",
            args.reduce.describe(),
            need >> 20,
            if args.reduce == Reduce::None && args.metric == optcube::cube::Metric::Htm {
                "the canonical tree sizes"
            } else if args.metric.published().is_empty() {
                "the number of canonical move sequences: no published counts"
            } else {
                "the published counts"
            },
            have >> 20,
            if *spill_would_help {
                "; --spill counts the last layer through disk"
            } else {
                ""
            }
        ),
        JobError::Disk { .. } | JobError::Io { .. } => format!("--spill: {e}"),
    }
}
