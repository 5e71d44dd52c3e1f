//! `optcube coset [POSITION | --index N]`: the distance of every position of a coset of
//! H = <U, D, R2, L2, F2, B2> (`optcube::solvers::coset`).

use super::{Failure, TableDir};
use optcube::cube::{Cube, parse_position};
use optcube::progress::ProgressMode;
use optcube::solvers::coset::{
    COSETS, CosetOptions, CosetSolver, ELEMENTS, FULL_RUN_BYTES, representative,
};
use std::path::PathBuf;

/// At most this many unset positions are written by `--unset`.
const UNSET_LIMIT: u64 = 10_000_000;

#[derive(clap::Args)]
pub struct CosetArgs {
    /// A position of the coset: a scramble or a facelet string [default: solved, the coset H].
    position: Option<String>,
    /// The coset by number, 0..2217093120: (slice · 2048 + flip) · 2187 + twist.
    #[arg(long, value_name = "N", conflicts_with = "position")]
    index: Option<u64>,
    /// Stop after this depth, even with positions left unset.
    #[arg(long, value_name = "D", default_value_t = 30)]
    max_depth: u8,
    /// Last depth of the phase-1 search [default: --max-depth]. Deeper, only prepasses run:
    /// positions first found at a depth beyond it are only known to be at most that far.
    /// `--search-depth 16 --max-depth 20` proves the coset within 20 moves.
    #[arg(long, value_name = "S")]
    search_depth: Option<u8>,
    /// Write the positions not found by the last depth to FILE (facelets, one a line; at most
    /// ten million), for `optcube solve --file`.
    #[arg(long, value_name = "FILE")]
    unset: Option<PathBuf>,
    /// Draw N positions of the coset at random and write each, with the depth at which it was
    /// found, to --sample-out (JSON lines: `facelets`, `depth`, `exact`): for a check by the
    /// optimal solver (`scripts/coset-check.sh`).
    #[arg(long, value_name = "N", requires = "sample_out")]
    sample: Option<usize>,
    /// The file of --sample.
    #[arg(long, value_name = "FILE", requires = "sample")]
    sample_out: Option<PathBuf>,
    /// Seed of --sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    place: TableDir,
}

pub fn run(args: CosetArgs) -> Result<i32, Failure> {
    let p = match (&args.position, args.index) {
        (Some(s), _) => parse_position(s).map_err(|e| Failure(format!("invalid position: {e}")))?,
        (None, Some(n)) => representative(n).ok_or_else(|| {
            Failure(format!(
                "--index {n} is out of range: cosets are numbered 0..{COSETS}"
            ))
        })?,
        (None, None) => Cube::SOLVED,
    };
    let search_depth = args.search_depth.unwrap_or(args.max_depth);
    if search_depth > args.max_depth {
        return Err(Failure(format!(
            "--search-depth {search_depth} is beyond --max-depth {}",
            args.max_depth
        )));
    }
    // Beyond the first few depths the bitmaps fill: refuse before hours of work end in the
    // out-of-memory killer.
    if args.max_depth > 8
        && let Some(free) = optcube::sys::available_memory()
        && free < FULL_RUN_BYTES
    {
        return Err(Failure(format!(
            "a coset run beyond depth 8 needs about {:.1} GB of memory, and {:.1} GB are \
             available; --max-depth 8 or less runs in little memory",
            FULL_RUN_BYTES as f64 / 1e9,
            free as f64 / 1e9
        )));
    }
    let opts = CosetOptions {
        max_depth: args.max_depth,
        search_depth,
        progress: ProgressMode::auto(),
        samples: args.sample.map_or(Vec::new(), |n| {
            optcube::solvers::coset::sample_elements(n, args.seed)
        }),
    };
    let threads = args.place.thread_count();
    let (report, map, solver) = args.place.pooled(|| {
        let solver = CosetSolver::open(&args.place.dir(), ProgressMode::auto())?;
        let (report, map) = solver.run(&p, &opts);
        Ok((report, map, solver))
    })?;
    let unset = ELEMENTS - report.found();
    if let Some(path) = &args.unset {
        if unset > UNSET_LIMIT {
            return Err(Failure(format!(
                "{unset} positions are unset, more than --unset writes ({UNSET_LIMIT}); \
                 raise --max-depth or --search-depth"
            )));
        }
        let mut text = String::new();
        solver.for_each_missing(&p, &map, |x| {
            text.push_str(&x.to_facelets());
            text.push('\n');
        });
        optcube::sys::files::write_atomic(path, text.as_bytes())
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
        eprintln!("wrote {unset} unset positions to {}", path.display());
    }
    if let Some(path) = &args.sample_out {
        let mut text = String::new();
        for (x, depth) in &report.samples {
            let exact = depth.is_some_and(|d| d <= search_depth);
            let line =
                serde_json::json!({"facelets": x.to_facelets(), "depth": depth, "exact": exact});
            text.push_str(&format!("{line}\n"));
        }
        optcube::sys::files::write_atomic(path, text.as_bytes())
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    }
    if args.json {
        let mut v = report.to_json();
        v["threads"] = serde_json::json!(threads);
        println!("{v}");
        return Ok(0);
    }
    println!(
        "coset {} ({}): {ELEMENTS} positions",
        report.coset,
        p.to_facelets()
    );
    println!("depth        found          total          seeds  prepass s  search s");
    for r in &report.rows {
        let mark = if r.exact { " " } else { "≤" };
        println!(
            "{mark}{:>4} {:>12} {:>14} {:>14} {:>10.2} {:>9.2}",
            r.depth, r.found, r.total, r.seeds, r.prepass_seconds, r.search_seconds
        );
    }
    let status = if report.complete() {
        "every position found".to_string()
    } else {
        format!(
            "{unset} positions not found within {} moves",
            args.max_depth
        )
    };
    println!(
        "{status}; {:.1} s on {threads} threads, bitmaps {:.2} GB at most{}",
        report.seconds,
        report.peak_bitmap_bytes as f64 / 1e9,
        if search_depth < args.max_depth {
            format!(" (depths beyond {search_depth}, marked ≤, are upper bounds: prepasses only)")
        } else {
            String::new()
        }
    );
    Ok(0)
}
