//! `optcube stats distances --goal NAME`: a goal's states counted by their exact distance to
//! it, from the goal's table ([`optcube::pdb::goal::GoalTable`], the one breadth-first
//! search); CSV `depth,count` and a Markdown note with the command, time and memory.

use super::output::{command_line, peak_memory_bytes, write_outputs};
use crate::cli::{Failure, with_threads};
use optcube::cube::{Goal, Metric};
use optcube::pdb::goal::{GoalSpace, LIMIT, exact_histogram, exact_states};
use optcube::progress::{Progress, ProgressMode};
use std::path::Path;
use std::time::Instant;

pub fn distances(
    name: &str,
    metric: Metric,
    out: &Path,
    threads: Option<usize>,
) -> Result<i32, Failure> {
    let goal = Goal::named(name.trim()).map_err(|e| Failure(e.to_string()))?;
    let Some(entries) = exact_states(&goal) else {
        return Err(Failure(format!(
            "goal {}: its index has {} entries, more than one table holds ({LIMIT}): \
             its exact distribution is not counted here",
            goal.name(),
            GoalSpace::new(&goal).entries()
        )));
    };
    let start = Instant::now();
    let h = with_threads(threads, || {
        let p = Progress::new(ProgressMode::auto(), goal.name(), entries, "states");
        let h = exact_histogram(&goal, metric, Some(&p)).expect("counted");
        let secs = p.elapsed();
        p.finish(&format!("counted in {secs:.1} s"));
        Ok(h)
    })?;
    let secs = start.elapsed().as_secs_f64();
    let total: u64 = h.iter().sum();
    let mut csv = String::from("depth,count\n");
    for (d, n) in h.iter().enumerate() {
        csv.push_str(&format!("{d},{n}\n"));
        println!("{d:2} {n:>12}");
    }
    println!(
        "goal {}: {total} states, the farthest {} {} away",
        goal.name(),
        h.len() - 1,
        metric.unit_for(h.len() - 1)
    );
    let md = format!(
        "# Distances to the goal `{}` ({metric})\n\n{}\n\n```sh\n{}\n```\n\n{total} states \
         (the goal's pieces: `{}`), at most {} {} from the goal; counted in {secs:.1} s, peak \
         memory {} MB.\n",
        goal.name(),
        optcube::cube::NAMED_GOALS
            .iter()
            .find(|n| n.name == goal.name())
            .map_or("", |n| n.about),
        command_line(),
        goal.key(),
        h.len() - 1,
        metric.unit_for(h.len() - 1),
        peak_memory_bytes().map_or("?".into(), |b| (b >> 20).to_string())
    );
    write_outputs(out, &csv, &md)?;
    Ok(0)
}
