//! `optcube stats distances`: positions at each exact distance from solved, by the layered
//! breadth-first search of [`optcube::stats::distances`] over classes of positions under the
//! 48 symmetries and inversion (or the 48 symmetries, or whole positions); CSV
//! `depth,count,classes` and a Markdown note (command, time, peak memory, comparison with the
//! published counts).

use super::output::{command_line, peak_memory_bytes, write_outputs};
use crate::cli::{Failure, with_threads};
use optcube::coord::positions::Reduction;
use optcube::progress::{Progress, ProgressMode};
use optcube::stats::distances::{
    LayerCount, PUBLISHED, PUBLISHED_CLASSES_SYM, estimated_classes, layer_counts, peak_bytes,
};
use optcube::stats::spill::{
    Event, PARTITIONS, Spill, disk_estimate, layer_counts_spilled, memory_estimate,
};
use optcube::sys::{available_memory, free_disk};
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
    /// Largest distance to count (9 needs about 8 GB and some minutes on 2 cores).
    #[arg(long, value_name = "D")]
    max_depth: u8,
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
    if args.max_depth > 20 {
        return Err(Failure(format!(
            "--max-depth {}: no position is more than 20 moves from solved",
            args.max_depth
        )));
    }
    let reduction = args.reduce.reduction();
    if args.spill && (reduction.is_none() || args.max_depth == 0) {
        return Err(Failure(
            "--spill counts the last layer of a class search: give --reduce sym or sym-inv and \
             --max-depth 1 or more"
                .into(),
        ));
    }
    // Never replace a deeper count (such as the committed results/distances.csv) by accident.
    if let Some(d) = deepest_in(&args.out).filter(|&d| d > args.max_depth && !args.force) {
        return Err(Failure(format!(
            "{} holds counts to depth {d}; this run counts to depth {} and would replace them: \
             give another --out FILE, or --force to replace it",
            args.out.display(),
            args.max_depth
        )));
    }
    let spill = args.spill.then(|| Spill {
        dir: args
            .spill_dir
            .clone()
            .unwrap_or_else(|| args.out.with_extension("spill")),
        chunk_parents: args.chunk_parents.max(1),
        reduction: reduction.expect("checked above"),
    });
    let estimate = match &spill {
        None => peak_bytes(args.max_depth, reduction),
        Some(s) => {
            let classes = |d: u8| estimated_classes(d as usize, s.reduction);
            let before = peak_bytes(args.max_depth - 1, reduction);
            let cur = classes(args.max_depth - 1);
            let prev = if args.max_depth >= 2 {
                classes(args.max_depth - 2)
            } else {
                Some(0)
            };
            match (before, cur, prev) {
                (Some(b), Some(c), Some(p)) => {
                    let chunk = (s.chunk_parents as u64).min(c);
                    Some(b.max(((p + c) * 16 + memory_estimate(p, c, chunk)) as u128))
                }
                _ => None,
            }
        }
    };
    let Some(need) = estimate else {
        return Err(Failure(format!(
            "--max-depth {}: no published count to estimate the memory of {} from (depth 10 is \
             the last)",
            args.max_depth,
            args.reduce.describe()
        )));
    };
    let mb = |b: u128| b >> 20;
    match available_memory() {
        Some(have) if need > have as u128 => {
            return Err(Failure(format!(
                "--max-depth {}: the search over {} needs about {} MB (16 bytes a key, estimate \
                 from {}), only {} MB available (MemAvailable){}",
                args.max_depth,
                args.reduce.describe(),
                mb(need),
                if reduction.is_some() {
                    "the published counts"
                } else {
                    "the canonical tree sizes"
                },
                mb(have as u128),
                if reduction.is_some() && !args.spill {
                    "; --spill counts the last layer through disk"
                } else {
                    ""
                }
            )));
        }
        None => eprintln!("optcube: warning: cannot read MemAvailable; not checking memory"),
        _ => {}
    }
    if let Some(s) = &spill {
        let parents = estimated_classes(args.max_depth as usize - 1, s.reduction)
            .expect("the memory estimate found it");
        let disk = disk_estimate(parents);
        std::fs::create_dir_all(&s.dir)
            .map_err(|e| Failure(format!("{}: {e}", s.dir.display())))?;
        // Chunk files of an earlier run are kept and count as space already had.
        let have = free_disk(&s.dir).unwrap_or(u64::MAX) + dir_bytes(&s.dir);
        if disk > have {
            return Err(Failure(format!(
                "--spill: the chunk files need about {} MB in {}, only {} MB free",
                disk >> 20,
                s.dir.display(),
                have >> 20
            )));
        }
        eprintln!(
            "spilling the last layer to {} (about {} MB of disk, {} parents a chunk)",
            s.dir.display(),
            disk >> 20,
            s.chunk_parents
        );
    }
    let threads = with_threads(args.threads, || Ok(rayon::current_num_threads()))?;
    eprintln!(
        "distances to depth {} over {}: estimated peak memory {} MB, {threads} threads",
        args.max_depth,
        args.reduce.describe(),
        mb(need)
    );
    let start = Instant::now();
    let counts = with_threads(args.threads, || {
        let progress = Progress::new(
            ProgressMode::auto(),
            "distances",
            args.max_depth as u64,
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
        let (counts, report) = match &spill {
            None => (layer_counts(args.max_depth, reduction, on_layer), None),
            Some(s) => {
                let d = args.max_depth;
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
                            "depth {d:2}: chunk {done}/{chunks}: {neighbours} neighbour classes, \
                             {} MB{} ({:.1} s)",
                            file_bytes >> 20,
                            if reused { ", kept from an earlier run" } else { "" },
                            progress.elapsed()
                        ));
                            progress
                                .update(d as u64 - 1, &format!("depth {d}: chunk {done}/{chunks}"));
                        }
                        Event::Partition { done, reused, .. } => {
                            if done % 32 == 0 || done == PARTITIONS {
                                progress.println(&format!(
                                "depth {d:2}: merged {done}/{PARTITIONS} partitions{} ({:.1} s)",
                                if reused { " (some kept from an earlier run)" } else { "" },
                                progress.elapsed()
                            ));
                            }
                            progress.update(
                                d as u64 - 1,
                                &format!("depth {d}: merge {done}/{PARTITIONS}"),
                            );
                        }
                    };
                let (c, r) = layer_counts_spilled(d, s, on_layer, on_event).map_err(Failure)?;
                (c, Some(r))
            }
        };
        let secs = progress.elapsed();
        progress.finish(&format!("{} layers in {secs:.1} s", counts.len()));
        Ok((counts, times, report))
    })?;
    let (counts, times, report) = counts;
    let seconds = start.elapsed().as_secs_f64();
    let peak = peak_memory_bytes();

    let mut csv = String::from("depth,count,classes\n");
    let class_col = args.reduce == Reduce::Sym;
    let mut table = String::from(
        "| depth | positions | published | classes | published classes | match | done at (s) |\n\
         |---:|---:|---:|---:|---:|---|---:|\n",
    );
    let mut all_match = true;
    for (d, n) in counts.iter().enumerate() {
        csv += &format!("{d},{},{}\n", n.positions, n.classes);
        let published = PUBLISHED.get(d).copied();
        // Bryan's class counts are for the 48 symmetries alone.
        let published_classes = PUBLISHED_CLASSES_SYM.get(d).copied().filter(|_| class_col);
        let checks = [
            published.map(|p| p == n.positions),
            published_classes.map(|p| p == n.classes),
        ];
        let matches = if checks.contains(&Some(false)) {
            all_match = false;
            "NO"
        } else if checks.contains(&Some(true)) {
            "yes"
        } else {
            ""
        };
        let show = |x: Option<u64>| x.map_or(String::new(), |v| v.to_string());
        table += &format!(
            "| {d} | {} | {} | {} | {} | {matches} | {:.1} |\n",
            n.positions,
            show(published),
            n.classes,
            show(published_classes),
            times[d]
        );
        println!("{d:2} {:>15} {:>14}", n.positions, n.classes);
    }
    let md = format!(
        "# Positions at each distance from solved (HTM)\n\n\
         Made with `{}` ({threads} threads).\n\n\
         Wall time {seconds:.1} s; peak resident memory {} MB (VmHWM); estimated beforehand \
         {} MB. {}\n\n{table}\n\
         Layered breadth-first search over sorted, deduplicated vectors of {}, 16 bytes a key \
         (`src/stats/distances.rs`; classes: `src/coord/positions.rs`, each counted with its \
         size). Published counts: Rokicki, Kociemba, Davidson, Dethridge, *The diameter of the \
         Rubik's Cube group is twenty* (2013), cube20.org, OEIS A080601; classes under the 48 \
         symmetries: Jerry Bryan, jerrybryan.com/math/rubikresults.html.{}\n",
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
        if all_match {
            ""
        } else {
            "\n\n**Counts differ from the published ones.**"
        }
    );
    write_outputs(&args.out, &csv, &md)?;
    Ok(if all_match { 0 } else { 1 })
}

/// Bytes of the files directly in `dir` (0 when it cannot be read).
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}
