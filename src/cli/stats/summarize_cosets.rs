//! `optcube stats summarize` on the files of a coset study (`optcube coset --random-cosets`):
//! merges them (same rules as a length study's: one study, no index twice, every record
//! checked) into `NAME-estimate.csv` and `NAME.md` (command, study, the estimate of the whole
//! cube's distribution with 95 % intervals beside cube20.org's, and one line per coset), and
//! prints the estimate.

use super::output::{command_line, missing_text};
use crate::cli::Failure;
use optcube::stats::cosets::estimate::{cosets_table, estimate};
use optcube::stats::cosets::read_study;
use std::path::{Path, PathBuf};

/// Is `path` a coset study file? (Its first record names a `coset`.)
pub fn is_coset_study(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .is_some_and(|v| v.get("coset").is_some())
}

/// Merges the coset study `files` and writes its report into `out_dir`, named `name` or else
/// the study's own name.
pub fn run(files: &[PathBuf], name: Option<&str>, out_dir: &Path) -> Result<i32, Failure> {
    let (all, partial) = read_study(files)?;
    for (f, line) in partial {
        eprintln!(
            "summarize: {}:{line}: half-written last line ignored (is the study still running?)",
            f.display()
        );
    }
    let sources: Vec<String> = files.iter().map(|f| format!("`{}`", f.display())).collect();
    let Some(study) = all.study().copied() else {
        return Err(Failure("no finished cosets in the files".into()));
    };
    let e = estimate(all.records()).map_err(Failure)?;
    let name = name.map_or_else(|| study.name(), str::to_string);
    if name.is_empty() || name.contains('/') {
        return Err(Failure(format!(
            "--name {name:?}: must be a non-empty file name without '/'"
        )));
    }
    let missing = all.missing(all.count(), None);
    let run_s: f64 = all.records().map(|r| r.seconds).sum();
    let sample_s: f64 = all.records().map(|r| r.sample_seconds).sum();
    let sets: std::collections::BTreeSet<&str> = all.records().map(|r| r.set.as_str()).collect();
    let threads: std::collections::BTreeSet<usize> = all.records().map(|r| r.threads).collect();
    let mut md = format!("# Coset study: {name}\n\n");
    md += &format!("- made by: `{}`\n", command_line());
    md += &format!(
        "- study: {study}; cosets drawn uniformly from `Rng::new({})`\n",
        study.seed
    );
    md += &format!(
        "- cosets: {} finished of {}; {}\n",
        all.len(),
        all.count(),
        missing_text(&missing)
    );
    md += &format!("- files: {}\n", sources.join(", "));
    md += &format!(
        "- time: {run_s:.0} s of coset runs and {sample_s:.0} s solving {} samples beyond \
         depth {} (table set {}), on {} threads\n",
        e.tail_samples,
        study.search_depth,
        sets.into_iter().collect::<Vec<_>>().join("/"),
        threads
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("/")
    );
    md += &format!("- estimate: [`{name}-estimate.csv`]({name}-estimate.csv)\n\n");
    md += "Positions of the whole cube by distance: 2,217,093,120 × the mean of the cosets' \
           counts (exact through the search depth; beyond it, each coset's positions there \
           times the share of its samples at that length), with Student's t 95 % intervals \
           over the cosets (`docs/studies.md`, \"Coset studies\").\n\n";
    md += &e.markdown();
    md += "\n## Cosets\n\n";
    md += &cosets_table(all.records());
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Failure(format!("cannot create {}: {e}", out_dir.display())))?;
    for (file, text) in [
        (format!("{name}-estimate.csv"), e.csv()),
        (format!("{name}.md"), md),
    ] {
        let path = out_dir.join(file);
        optcube::sys::files::write_atomic(&path, text.as_bytes())
            .map_err(|e| Failure(format!("cannot write {}: {e}", path.display())))?;
    }
    println!("{} cosets finished; {}", all.len(), missing_text(&missing));
    print!("{}", e.markdown());
    Ok(0)
}
