//! `optcube stats distances`: positions at each exact distance from solved, by the layered
//! breadth-first search of [`optcube::cube::packed`]; CSV `depth,count` and a Markdown note
//! (command, time, peak memory, comparison with the published counts).

use super::output::{command_line, peak_memory_bytes, write_outputs};
use crate::cli::{Failure, with_threads};
use optcube::cube::packed::for_each_layer;
use optcube::progress::{Progress, ProgressMode};
use optcube::stats::distances::{PUBLISHED, peak_bytes};
use optcube::sys::available_memory;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct DistancesArgs {
    /// Largest distance to count (7 needs about 2.4 GB and a minute on 2 cores).
    #[arg(long, value_name = "D")]
    max_depth: u8,
    /// CSV output; a Markdown note goes beside it (same name, `.md`).
    #[arg(long, value_name = "FILE", default_value = "results/distances.csv")]
    out: PathBuf,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: DistancesArgs) -> Result<i32, Failure> {
    if args.max_depth > 20 {
        return Err(Failure(format!(
            "--max-depth {}: no position is more than 20 moves from solved",
            args.max_depth
        )));
    }
    let need = peak_bytes(args.max_depth);
    let mb = |b: u128| b >> 20;
    match available_memory() {
        Some(have) if need > have as u128 => {
            return Err(Failure(format!(
                "--max-depth {}: the search needs up to {} MB (16 bytes a position, estimate from \
                 the canonical tree sizes), only {} MB available (MemAvailable)",
                args.max_depth,
                mb(need),
                mb(have as u128)
            )));
        }
        None => eprintln!("optcube: warning: cannot read MemAvailable; not checking memory"),
        _ => {}
    }
    let threads = with_threads(args.threads, || Ok(rayon::current_num_threads()))?;
    eprintln!(
        "distances to depth {}: estimated peak memory {} MB, {threads} threads",
        args.max_depth,
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
        let mut counts = Vec::new();
        for_each_layer(args.max_depth, |d, layer| {
            counts.push(layer.len() as u64);
            progress.println(&format!(
                "depth {d:2}: {:>14} positions ({:.1} s)",
                layer.len(),
                progress.elapsed()
            ));
            progress.update(d as u64, &format!("depth {d}"));
        });
        let secs = progress.elapsed();
        progress.finish(&format!("{} layers in {secs:.1} s", counts.len()));
        Ok(counts)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let peak = peak_memory_bytes();

    let mut csv = String::from("depth,count\n");
    let mut table =
        String::from("| depth | positions | published | match |\n|---:|---:|---:|---|\n");
    for (d, &n) in counts.iter().enumerate() {
        csv += &format!("{d},{n}\n");
        let (published, matches) = match PUBLISHED.get(d) {
            Some(&p) => (p.to_string(), if p == n { "yes" } else { "NO" }),
            None => ("".into(), ""),
        };
        table += &format!("| {d} | {n} | {published} | {matches} |\n");
        println!("{d:2} {n:>14}");
    }
    let all_match = counts.iter().zip(PUBLISHED).all(|(&n, p)| n == p);
    let md = format!(
        "# Positions at each distance from solved (HTM)\n\n\
         Made with `{}` ({threads} threads).\n\n\
         Wall time {seconds:.1} s; peak resident memory {} MB (VmHWM); estimated beforehand \
         {} MB.\n\n{table}\n\
         Layered breadth-first search over sorted, deduplicated vectors of packed positions \
         (`src/stats/distances.rs`). Published counts: Rokicki, Kociemba, Davidson, Dethridge, \
         *The diameter of the Rubik's Cube group is twenty* (2013), cube20.org.{}\n",
        command_line(),
        peak.map_or("?".into(), |b| (b >> 20).to_string()),
        mb(need),
        if all_match {
            ""
        } else {
            "\n\n**Counts differ from the published ones.**"
        }
    );
    write_outputs(&args.out, &csv, &md)?;
    Ok(if all_match { 0 } else { 1 })
}
