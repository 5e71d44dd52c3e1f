//! `optcube stats summarize`: merges the files of one length study (its shards, or a file
//! still being written) into `NAME-lengths.csv` (`length,count,fraction`) and `NAME.md`
//! (command, study, length distribution with per-length time and node percentiles), and prints
//! the table. Files of different studies and positions found twice are refused; missing
//! positions are counted. With `--against`, the positions are set beside another run of the
//! same study (e.g. with another table set): their lengths must agree position by position
//! (else nothing is written and the differences are named), and the report gets the two runs'
//! time and nodes on the common positions. With `--other-metric`, the positions are set
//! beside the same seed's study in the other metric: the grid of their two lengths
//! (`NAME-metrics.md` section, `NAME-metrics.csv` and `NAME-metrics.svg`), each position
//! checked against the other metric's length ([`CrossTable`]). [`print_summary`] is also the end of
//! `optcube stats lengths`.

use super::output::{command_line, missing_text};
use crate::cli::Failure;
use optcube::pdb::goal::{GoalSpace, exact_histogram, exact_states};
use optcube::progress::{Progress, ProgressMode};
use optcube::stats::study::compare::{self, Reference};
use optcube::stats::study::{
    Agreement, Collection, CrossTable, Shard, Study, cost_table, lengths_csv, lengths_table,
    read_file, solution_counts_csv, solution_counts_table,
};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SummarizeArgs {
    /// Study files (JSON Lines from `optcube stats lengths`, or from `optcube coset
    /// --random-cosets`), e.g. all shards of a study.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Where to write NAME-lengths.csv and NAME.md (a coset study: NAME-estimate.csv and
    /// NAME.md).
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub(super) out_dir: PathBuf,
    /// Base name of the outputs [default: lengths-seed{S}[-moves{L}][-qtm], or
    /// cosets-seed{S}-s{search}-d{max}-k{samples}].
    #[arg(long)]
    pub(super) name: Option<String>,
    /// Another run of the same study (its files): the optimal lengths must agree position by
    /// position, and the report compares the two runs' time and nodes.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    against: Vec<PathBuf>,
    /// The same seed's study in the other metric (its files): the report adds the grid of
    /// each position's lengths in both, written also as NAME-metrics.csv and NAME-metrics.svg.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    other_metric: Vec<PathBuf>,
}

pub fn run(args: SummarizeArgs) -> Result<i32, Failure> {
    if args
        .files
        .iter()
        .any(|f| super::summarize_cosets::is_coset_study(f))
    {
        if !args.against.is_empty() || !args.other_metric.is_empty() {
            return Err(Failure(
                "--against and --other-metric are for length studies, not coset studies".into(),
            ));
        }
        return super::summarize_cosets::run(&args.files, args.name.as_deref(), &args.out_dir);
    }
    let (all, sources) = collect(&args.files, Collection::default())?;
    let Some(study) = all.study().cloned() else {
        return Err(Failure(format!(
            "no finished positions in {}",
            args.files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let name = args.name.clone().unwrap_or_else(|| study.name());
    if name.is_empty() || name.contains('/') {
        return Err(Failure(format!(
            "--name {name:?}: must be a non-empty file name without '/'"
        )));
    }
    let against = match args.against.as_slice() {
        [] => None,
        files => {
            let (other, _) = collect(files, Collection::of(study.clone()))?;
            let agreement = all.agreement(&other);
            refuse_differences(&agreement, files)?;
            let sets = distinct(other.cost_by_setup().iter().map(|c| format!("`{}`", c.set)));
            let names = distinct(files.iter().map(|f| format!("`{}`", f.display())));
            let there = format!("{names} (table set {sets})");
            Some(agreement.markdown("this run", &there))
        }
    };
    let cross = match args.other_metric.as_slice() {
        [] => None,
        files => {
            let (other, _) = collect(files, Collection::default())?;
            let table = CrossTable::of(&all, &other).map_err(|e| {
                Failure(format!(
                    "--other-metric {}: {e}",
                    files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
            })?;
            Some(table)
        }
    };
    let missing = all.missing(all.count(), None);
    let summary = all.summary();

    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| Failure(format!("cannot create {}: {e}", args.out_dir.display())))?;
    let csv_path = args.out_dir.join(format!("{name}-lengths.csv"));
    let md_path = args.out_dir.join(format!("{name}.md"));
    let write = |path: &PathBuf, text: &str| {
        optcube::sys::files::write_atomic(path, text.as_bytes())
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))
    };
    write(&csv_path, &lengths_csv(&summary))?;

    let seconds: f64 = all.records().map(|r| r.seconds).sum();
    let nodes: u64 = all.records().map(|r| r.nodes).sum();
    let positions = match study.moves {
        None => format!(
            "uniformly random positions (`Cube::random` drawn in order from `Rng::new({})`)",
            study.seed
        ),
        Some(l) => format!(
            "random canonical {l}-move scrambles drawn from `Rng::new({})` — lengths of \
             scrambles, **not** of random positions",
            study.seed
        ),
    };
    let mut md = format!("# Optimal solution lengths: {name}\n\n");
    md += &format!("- made by: `{}`\n", command_line());
    let costs = all.cost_by_setup();
    let sets = distinct(costs.iter().map(|c| format!("`{}`", c.set)));
    md += &format!("- study: {positions}; table set {sets}\n");
    md += &format!(
        "- positions: {} finished of {}; {}\n",
        all.len(),
        all.count(),
        missing_text(&missing)
    );
    md += &format!("- files: {}\n", sources.join(", "));
    // Threads and dual lookups are in the cost table, per way of solving.
    md += &format!("- search in all: {seconds:.1} s and {nodes} nodes\n");
    md += &format!("- distribution: [`{name}-lengths.csv`]({name}-lengths.csv)\n\n");
    md +=
        "Cost per way of solving (seconds of wall time per search, as the records have them):\n\n";
    md += &cost_table(&costs);
    md += "\n";
    md += "Percentiles from HDR histograms (3 significant digits); seconds per position.\n\n";
    md += &lengths_table(&summary);
    if study.moves.is_none() {
        md += "\n";
        md += &match reference(&study)? {
            Ok(reference) => compare::comparison_md(&summary, &reference),
            Err(why) => format!("No reference distribution: {why}.\n"),
        };
    }
    // Counted optimal solutions (`stats lengths --count-solutions`): their distribution per
    // optimal length, as a table, a CSV and a bar chart.
    let counts = all.solution_counts();
    let mut written = vec![csv_path.clone(), md_path.clone()];
    if !counts.is_empty() {
        let counted: usize = counts.values().map(Vec::len).sum();
        let csv = solution_counts_csv(&counts);
        let csv_path = args.out_dir.join(format!("{name}-solutions.csv"));
        let svg_path = args.out_dir.join(format!("{name}-solutions.svg"));
        write(&csv_path, &csv)?;
        let data = optcube::stats::plot::parse_csv(&csv_path, &csv)
            .map_err(|e| Failure(format!("internal error: {e}")))?;
        let title = format!("Optimal solutions per position ({name})");
        write(&svg_path, &optcube::stats::plot::svg(&data, &title, false))?;
        md += &format!(
            "\n## Number of optimal solutions\n\nCanonical sequences (no face twice in a row; \
             of two opposite faces, one order only), counted for {counted} of the {} positions \
             by `stats lengths --count-solutions`. Fractions per length: \
             [`{name}-solutions.csv`]({name}-solutions.csv), \
             [`{name}-solutions.svg`]({name}-solutions.svg).\n\n",
            all.len()
        );
        md += &solution_counts_table(&counts);
        written.extend([csv_path, svg_path]);
    }
    if let Some(section) = against {
        md += "\n";
        md += &section;
    }
    if let Some(table) = cross {
        let csv_path = args.out_dir.join(format!("{name}-metrics.csv"));
        let svg_path = args.out_dir.join(format!("{name}-metrics.svg"));
        let csv = table.csv();
        write(&csv_path, &csv)?;
        let data = optcube::stats::plot::parse_csv(&csv_path, &csv)
            .map_err(|e| Failure(format!("internal error: {e}")))?;
        let title = format!("Quarter-turn lengths by face-turn length ({name})");
        write(&svg_path, &optcube::stats::plot::svg(&data, &title, false))?;
        md += "\n";
        md += &table.markdown();
        md += &format!(
            "\nAs fractions of all: [`{name}-metrics.csv`]({name}-metrics.csv), drawn in \
             [`{name}-metrics.svg`]({name}-metrics.svg).\n"
        );
        written.extend([csv_path, svg_path]);
    }
    write(&md_path, &md)?;

    print_summary(&all, &missing, None);
    if !counts.is_empty() {
        println!("optimal solutions per position:");
        print!("{}", solution_counts_table(&counts));
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("summarize: wrote {}", names.join(", "));
    Ok(0)
}

/// Reads study files into `into` (checked record by record, inputs verified); also returns
/// each file's name and record count for the report.
/// The distribution the study's lengths should follow: the published one for solved, a goal's
/// exact one (counted here by its breadth-first search) when its states fit one table and one
/// orientation is asked; else why there is none.
fn reference(study: &Study) -> Result<Result<Reference, String>, Failure> {
    let Some(g) = &study.goal else {
        return Ok(Ok(Reference::published(study.metric)));
    };
    let goal = g.check().map_err(Failure)?.goal;
    if g.any_orientation {
        return Ok(Err(
            "in any orientation a position's distance is the least over the \
             orientations, which the goal's own distribution does not give"
                .into(),
        ));
    }
    let Some(states) = exact_states(&goal) else {
        return Ok(Err(format!(
            "the goal's states ({} in its index) are more than one table holds",
            GoalSpace::new(&goal).entries()
        )));
    };
    let start = std::time::Instant::now();
    let p = Progress::new(ProgressMode::auto(), goal.name(), states, "states");
    let histogram = exact_histogram(&goal, study.metric, Some(&p)).expect("counted");
    p.finish("counted");
    let histogram = &histogram[..];
    Ok(Ok(Reference::exact(
        histogram,
        format!(
            "Exact: the goal's {} states counted by distance ({}; `optcube stats distances \
             --goal {}{}`, {:.1} s here), the fractions a uniformly random position's distance \
             follows",
            histogram.iter().sum::<u64>(),
            (histogram.iter().map(u64::to_string))
                .collect::<Vec<_>>()
                .join(", "),
            goal.name(),
            if study.metric.is_htm() {
                String::new()
            } else {
                format!(" --metric {}", study.metric.name())
            },
            start.elapsed().as_secs_f64()
        ),
    )))
}

fn collect(files: &[PathBuf], mut into: Collection) -> Result<(Collection, Vec<String>), Failure> {
    let mut sources = Vec::new();
    for f in files {
        let parsed = read_file(f)?;
        if let Some(line) = parsed.partial_line {
            eprintln!(
                "summarize: {}:{line}: half-written last line ignored (is the study still running?)",
                f.display()
            );
        }
        into.add(f, &parsed, None)?;
        sources.push(format!(
            "`{}` ({} positions)",
            f.display(),
            parsed.records.len()
        ));
    }
    into.verify_inputs()?;
    Ok((into, sources))
}

/// Refuses two runs whose optimal lengths differ anywhere, naming the positions: one of them
/// is wrong, and a report of it would hide that.
fn refuse_differences(agreement: &Agreement, against: &[PathBuf]) -> Result<(), Failure> {
    if agreement.differing.is_empty() {
        return Ok(());
    }
    const SHOWN: usize = 10;
    let list: Vec<String> = agreement
        .differing
        .iter()
        .take(SHOWN)
        .map(|(i, a, b)| format!("position {i}: {a} moves here, {b} there"))
        .collect();
    let more = if agreement.differing.len() > SHOWN {
        "; …"
    } else {
        ""
    };
    Err(Failure(format!(
        "the optimal lengths differ from --against {} on {} of {} common positions ({}{more}); \
         one of the runs is wrong",
        against
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        agreement.differing.len(),
        agreement.common,
        list.join("; ")
    )))
}

/// Prints the study's table and what is missing on stdout (`shard`: missing of that shard).
pub fn print_summary(done: &Collection, missing: &[u64], shard: Option<Shard>) {
    let of = shard.map_or(String::new(), |s| format!(" of shard {s}"));
    println!(
        "{} positions finished{of}; {}",
        done.len(),
        missing_text(missing)
    );
    if !done.is_empty() {
        print!("{}", lengths_table(&done.summary()));
    }
}

/// The distinct values, joined with "/".
fn distinct<T: Ord + ToString>(values: impl Iterator<Item = T>) -> String {
    let set: std::collections::BTreeSet<T> = values.collect();
    set.iter().map(T::to_string).collect::<Vec<_>>().join("/")
}
