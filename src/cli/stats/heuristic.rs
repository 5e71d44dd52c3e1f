//! `optcube stats heuristic`: the distribution of each table's value and of their maximum over
//! random positions ([`optcube::stats::heuristic`]); CSV `value,<tables>,max[,max_dual]`, a
//! printed table with means, and a Markdown note beside the CSV.

use super::output::{check_outputs, command_line, write_outputs};
use crate::cli::{Failure, TableArgs};
use optcube::progress::ProgressMode;
use optcube::solvers::optimal::OptimalSolver;
use optcube::stats::heuristic::sample;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct HeuristicArgs {
    /// Number of random positions.
    #[arg(long, value_name = "N")]
    samples: u64,
    /// Seed of the random positions.
    #[arg(long, value_name = "S")]
    seed: u64,
    /// Also the maximum over each position and its inverse (column max_dual; always for a set
    /// with the coset table sym48e0, which the solver reads both ways).
    #[arg(long)]
    dual: bool,
    /// CSV output [default: results/heuristic-SET.csv]; a Markdown note goes beside it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    tables: TableArgs,
}

pub fn run(args: HeuristicArgs) -> Result<i32, Failure> {
    if args.samples == 0 {
        return Err(Failure("--samples must be at least 1".into()));
    }
    let names = args.tables.names();
    let patterns = TableArgs::patterns(&names)?;
    let dir = args.tables.place.dir();
    // The solver always probes a coset table's inverse too: so does its distribution.
    let dual = args.dual || patterns.iter().any(|p| p.coset_holds_half_turns());
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/heuristic-{}.csv", names.join("-"))));
    check_outputs(&out)?;
    args.tables.place.pooled(|| {
        let solver = OptimalSolver::open(&dir, &patterns, ProgressMode::auto())?;
        let start = Instant::now();
        let dist = sample(solver.heuristic(), args.samples, args.seed, dual);
        let seconds = start.elapsed().as_secs_f64();
        let text = dist.to_text();
        print!("{text}");
        let mut means =
            String::from("| column | mean | mean over the table's entries |\n|---|---:|---:|\n");
        for (i, name) in dist.names.iter().enumerate() {
            let exact = solver
                .heuristic()
                .tables()
                .iter()
                .find(|(p, _)| p.name() == name)
                .map(|(_, t)| format!("{:.4}", optcube::pdb::histogram_mean(&t.histogram())))
                .unwrap_or_default();
            means += &format!("| {name} | {:.4} | {exact} |\n", dist.mean(i));
        }
        let md = format!(
            "# Heuristic distribution over random positions\n\n\
             Made with `{}` ({} threads, {seconds:.1} s for the sampling).\n\n\
             {} uniformly random positions (`Cube::random`, seed {}); tables from `{}`. Columns: \
             each table's value (in the solver's lookup order), `max` = the solver's heuristic{}. \
             Counts per value are in `{}`.\n\n{means}\n\
             The mean over a table's entries (as the solver reads them: a table stored in 2-bit \
             lines reads some entries below their value) is a check on the sampling: equal to the \
             sampled mean when every entry stands for equally many positions, close to it for a \
             table of symmetry classes.\n\n```\n{text}```\n",
            command_line(),
            args.tables.place.thread_count(),
            args.samples,
            args.seed,
            dir.display(),
            if dual {
                ", `max_dual` = the maximum over the position and its inverse (`--dual`)"
            } else {
                ""
            },
            out.file_name()
                .map_or(String::new(), |f| f.to_string_lossy().into_owned()),
        );
        write_outputs(&out, &dist.to_csv(), &md)?;
        Ok(0)
    })
}
