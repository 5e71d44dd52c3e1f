//! The records of one study gathered from its files ([`Collection`]): duplicates and foreign
//! records refused, inputs verified, and the length distribution reported (CSV and Markdown);
//! two runs of one study set side by side, position by position ([`Agreement`]).

use super::{Parsed, Record, Shard, Study, StudyError};
use crate::stats::BatchSummary;
use std::collections::BTreeMap;
use std::path::Path;

/// A line of a study file: a record that knows its study, its index and the study's count,
/// and checks itself. Length studies ([`Record`]) and coset studies
/// ([`crate::stats::cosets::CosetRecord`]) keep the same kind of file under the same rules.
pub trait StudyLine: Clone {
    /// What two records must share to belong to one study.
    type Study: Clone + PartialEq + std::fmt::Display + std::fmt::Debug;
    fn study(&self) -> Self::Study;
    fn index(&self) -> u64;
    /// Items in the whole study, as asked for by the run that wrote the line.
    fn count(&self) -> u64;
    /// Checks the record by itself.
    fn check(&self) -> Result<(), String>;
}

impl StudyLine for Record {
    type Study = Study;
    fn study(&self) -> Study {
        Record::study(self)
    }
    fn index(&self) -> u64 {
        self.index
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn check(&self) -> Result<(), String> {
        Record::check(self)
    }
}

/// The records of one study gathered from one or more files, checked as they come in: same
/// study, no index twice, every record valid by itself.
#[derive(Debug)]
pub struct Collection<R: StudyLine = Record> {
    study: Option<R::Study>,
    /// Largest `count` of any record (a study may be extended by asking for more positions).
    count: u64,
    /// Each record with where it was read (`path:line`).
    by_index: BTreeMap<u64, (R, String)>,
}

impl<R: StudyLine> Default for Collection<R> {
    fn default() -> Self {
        Collection {
            study: None,
            count: 0,
            by_index: BTreeMap::new(),
        }
    }
}

impl<R: StudyLine> Collection<R> {
    /// An empty collection that accepts only records of `study`.
    pub fn of(study: R::Study) -> Self {
        Collection {
            study: Some(study),
            ..Collection::default()
        }
    }

    /// The study of the records (`None` before the first record of an open collection).
    pub fn study(&self) -> Option<&R::Study> {
        self.study.as_ref()
    }

    /// Adds the records of one file. `shard`: refuse records outside it.
    pub fn add(
        &mut self,
        path: &Path,
        parsed: &Parsed<R>,
        shard: Option<Shard>,
    ) -> Result<(), StudyError> {
        for (line, r) in &parsed.records {
            self.add_record(path, *line, r, shard)?;
        }
        Ok(())
    }

    /// Adds one record, found at `path:line`. `shard`: refuse a record outside it.
    pub fn add_record(
        &mut self,
        path: &Path,
        line: usize,
        r: &R,
        shard: Option<Shard>,
    ) -> Result<(), StudyError> {
        let found = r.study();
        match &self.study {
            Some(expected) if *expected != found => {
                return Err(StudyError::Foreign {
                    path: path.into(),
                    line,
                    found: found.to_string(),
                    expected: expected.to_string(),
                });
            }
            Some(_) => {}
            None => self.study = Some(found),
        }
        let index = r.index();
        if let Some(s) = shard
            && !s.contains(index)
        {
            return Err(StudyError::OtherShard {
                path: path.into(),
                line,
                index,
                shard: s,
            });
        }
        r.check().map_err(|reason| StudyError::Invalid {
            path: path.into(),
            line,
            reason,
        })?;
        if let Some((_, first)) = self.by_index.get(&index) {
            return Err(StudyError::Duplicate {
                path: path.into(),
                line,
                index,
                first: first.clone(),
            });
        }
        self.count = self.count.max(r.count());
        let here = format!("{}:{line}", path.display());
        self.by_index.insert(index, (r.clone(), here));
        Ok(())
    }

    /// The record of index `index`, if the collection holds it.
    pub fn record(&self, index: u64) -> Option<&R> {
        self.by_index.get(&index).map(|(r, _)| r)
    }

    /// The records by index.
    pub fn records(&self) -> impl Iterator<Item = &R> {
        self.by_index.values().map(|(r, _)| r)
    }

    /// Number of finished items.
    pub fn len(&self) -> usize {
        self.by_index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_index.is_empty()
    }

    /// Is index `index` finished?
    pub fn contains(&self, index: u64) -> bool {
        self.by_index.contains_key(&index)
    }

    /// Items in the study as recorded (largest `count` seen).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The indices of `0..count` (of `shard`, if given) that are not finished.
    pub fn missing(&self, count: u64, shard: Option<Shard>) -> Vec<u64> {
        (0..count)
            .filter(|&i| shard.is_none_or(|s| s.contains(i)) && !self.contains(i))
            .collect()
    }
}

impl Collection {
    /// Checks that every record's input is the study's position of its index.
    pub fn verify_inputs(&self) -> Result<(), String> {
        let (Some(study), Some(&last)) = (&self.study, self.by_index.keys().last()) else {
            return Ok(());
        };
        for p in study.positions().take(last as usize + 1) {
            if let Some((r, at)) = self.by_index.get(&p.index)
                && r.input != p.cube.to_facelets()
            {
                return Err(format!(
                    "{at}: the input is not position {} of the study ({study})",
                    p.index
                ));
            }
        }
        Ok(())
    }

    /// What the finished positions cost, per way they were solved (table set, threads, dual),
    /// in that order.
    pub fn cost_by_setup(&self) -> Vec<SetupCost> {
        let mut by: BTreeMap<(String, usize, bool), SetupCost> = BTreeMap::new();
        for r in self.records() {
            let c = by
                .entry((r.set.clone(), r.threads, r.dual))
                .or_insert_with(|| SetupCost {
                    set: r.set.clone(),
                    threads: r.threads,
                    dual: r.dual,
                    positions: 0,
                    seconds: 0.0,
                    nodes: 0,
                });
            c.positions += 1;
            c.seconds += r.seconds;
            c.nodes += r.nodes;
        }
        by.into_values().collect()
    }

    /// The numbers of optimal solutions of the positions that counted them
    /// ([`Record::optimal_solutions`]), sorted, by optimal length.
    pub fn solution_counts(&self) -> BTreeMap<usize, Vec<u64>> {
        let mut by: BTreeMap<usize, Vec<u64>> = BTreeMap::new();
        for r in self.records() {
            if let Some(n) = r.optimal_solutions {
                by.entry(r.length).or_default().push(n);
            }
        }
        by.values_mut().for_each(|v| v.sort_unstable());
        by
    }

    /// The batch summary of the finished positions.
    pub fn summary(&self) -> BatchSummary {
        let mut b = BatchSummary::new();
        for r in self.records() {
            b.record(Some(r.length), r.nodes, r.seconds);
        }
        b
    }

    /// Sets this collection's records beside `other`'s, position by position (the positions
    /// both hold). Both must be records of the same study; the caller checks that.
    pub fn agreement(&self, other: &Collection) -> Agreement {
        let mut a = Agreement::default();
        for (index, (here, _)) in &self.by_index {
            let Some((there, _)) = other.by_index.get(index) else {
                continue;
            };
            a.common += 1;
            if here.length != there.length {
                a.differing.push((*index, here.length, there.length));
            }
            a.seconds.0 += here.seconds;
            a.seconds.1 += there.seconds;
            a.nodes.0 += here.nodes;
            a.nodes.1 += there.nodes;
            if here.seconds > 0.0 && there.seconds > 0.0 {
                a.time_ratios.push(there.seconds / here.seconds);
            }
        }
        a.time_ratios.sort_by(f64::total_cmp);
        a
    }
}

/// Two runs of one study's positions side by side ([`Collection::agreement`]): the optimal
/// lengths must be equal position by position whatever the table sets, so any difference
/// means one run's heuristic was not admissible (or its search incomplete).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions in both.
    pub common: u64,
    /// `(index, length here, length there)` of every position whose lengths differ.
    pub differing: Vec<(u64, usize, usize)>,
    /// Search seconds over the common positions: (here, there).
    pub seconds: (f64, f64),
    /// Nodes over the common positions: (here, there).
    pub nodes: (u64, u64),
    /// Per common position, its seconds there over its seconds here, ascending.
    pub time_ratios: Vec<f64>,
}

impl Agreement {
    /// The markdown section: how many positions, whether the lengths agree, and what each
    /// run spent on them. `here` and `there` name the two runs.
    pub fn markdown(&self, here: &str, there: &str) -> String {
        let mut s = format!(
            "## Against {there}\n\nThe same study's positions solved by both runs: {}. ",
            self.common
        );
        if self.differing.is_empty() {
            s += &format!(
                "**Their optimal lengths agree on all {}.**\n\n",
                self.common
            );
        } else {
            s += &format!(
                "**Lengths differ on {}** (index: here / there): {}.\n\n",
                self.differing.len(),
                self.differing
                    .iter()
                    .map(|(i, a, b)| format!("{i}: {a} / {b}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let (sa, sb) = self.seconds;
        let (na, nb) = self.nodes;
        s += "| run | seconds | nodes |\n|---|---:|---:|\n";
        s += &format!("| {here} | {sa:.1} | {na} |\n| {there} | {sb:.1} | {nb} |\n\n");
        if let Some(q) = self.time_ratio_quantiles() {
            s += &format!(
                "Seconds there over seconds here, in all {:.2}; per position: median {:.2}, \
                 geometric mean {:.2}, min {:.2}, max {:.2}.\n",
                sb / sa.max(f64::MIN_POSITIVE),
                q.median,
                q.geometric_mean,
                q.min,
                q.max
            );
        }
        s
    }

    /// Median, geometric mean and extremes of the per-position time ratios.
    pub fn time_ratio_quantiles(&self) -> Option<RatioSummary> {
        let r = &self.time_ratios;
        let (&min, &max) = (r.first()?, r.last()?);
        let n = r.len();
        let median = if n % 2 == 1 {
            r[n / 2]
        } else {
            (r[n / 2 - 1] + r[n / 2]) / 2.0
        };
        let geometric_mean = (r.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
        Some(RatioSummary {
            median,
            geometric_mean,
            min,
            max,
        })
    }
}

/// Summary of per-position time ratios ([`Agreement::time_ratio_quantiles`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioSummary {
    pub median: f64,
    pub geometric_mean: f64,
    pub min: f64,
    pub max: f64,
}

/// The positions solved one way (table set, threads, dual) and what they took.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupCost {
    pub set: String,
    pub threads: usize,
    pub dual: bool,
    pub positions: u64,
    /// Wall seconds of the searches, summed.
    pub seconds: f64,
    pub nodes: u64,
}

impl SetupCost {
    /// Positions solved per hour of wall time.
    pub fn per_hour(&self) -> f64 {
        3600.0 * self.positions as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
}

/// The cost of a study per way of solving, as a markdown table.
pub fn cost_table(costs: &[SetupCost]) -> String {
    let mut s = String::from(
        "| table set | threads | dual | positions | seconds | mean s | positions per hour |\n\
         |---|---:|---|---:|---:|---:|---:|\n",
    );
    for c in costs {
        s += &format!(
            "| `{}` | {} | {} | {} | {:.1} | {:.1} | {:.1} |\n",
            c.set,
            c.threads,
            c.dual,
            c.positions,
            c.seconds,
            c.seconds / c.positions.max(1) as f64,
            c.per_hour()
        );
    }
    s
}

/// The length distribution as CSV: `length,count,fraction`, one row per length found.
pub fn lengths_csv(summary: &BatchSummary) -> String {
    let total = summary.count().max(1) as f64;
    let mut s = String::from("length,count,fraction\n");
    for (len, n) in summary.lengths() {
        if let Some(l) = len {
            s += &format!("{l},{n},{:.6}\n", *n as f64 / total);
        }
    }
    s
}

/// The length distribution with per-length time and node percentiles (p50, p90, p99, max of
/// the HDR histograms), as a markdown table with a last row for all positions.
pub fn lengths_table(summary: &BatchSummary) -> String {
    let total = summary.count().max(1) as f64;
    let mut s = String::from(
        "| length | count | fraction | s p50 | s p90 | s p99 | s max \
         | nodes p50 | nodes p90 | nodes p99 | nodes max |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut row = |label: String, n: u64, t: &crate::stats::Timings| {
        s += &format!("| {label} | {n} | {:.4} |", n as f64 / total);
        for q in QUANTILES {
            s += &format!(" {:.4} |", t.seconds_at(q));
        }
        for q in QUANTILES {
            s += &format!(" {} |", t.nodes_at(q));
        }
        s += "\n";
    };
    for (len, &n) in summary.lengths() {
        let label = len.map_or("none".into(), |l| l.to_string());
        row(label, n, summary.of_length(*len).expect("recorded length"));
    }
    row("all".into(), summary.count(), summary.all());
    s
}

const QUANTILES: [f64; 4] = [0.5, 0.9, 0.99, 1.0];

/// The distribution of the number of optimal solutions ([`Collection::solution_counts`]) as a
/// Markdown table: per optimal length and in all, the positions counted, the mean, and the
/// minimum, quartiles, 90th percentile and maximum (nearest rank: exact values of the sample).
pub fn solution_counts_table(counts: &BTreeMap<usize, Vec<u64>>) -> String {
    let mut s = String::from(
        "| length | positions | mean | min | p25 | median | p75 | p90 | max |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut row = |label: String, v: &[u64]| {
        let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
        s += &format!("| {label} | {} | {mean:.2} |", v.len());
        for q in [0.0, 0.25, 0.5, 0.75, 0.9, 1.0] {
            s += &format!(" {} |", nearest_rank(v, q));
        }
        s += "\n";
    };
    for (len, v) in counts {
        row(len.to_string(), v);
    }
    let mut all: Vec<u64> = counts.values().flatten().copied().collect();
    all.sort_unstable();
    if !all.is_empty() {
        row("all".into(), &all);
    }
    s
}

/// The value at quantile `q` of sorted, non-empty `v` (nearest rank: the smallest value with
/// at least a fraction `q` of the sample at or below it).
fn nearest_rank(v: &[u64], q: f64) -> u64 {
    let rank = (q * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// The distribution as CSV for a bar chart (`stats plot`): rows are ranges of the number of
/// solutions (1, 2, 3–4, 5–8, … doubling), columns the fraction of each optimal length's
/// positions in that range.
pub fn solution_counts_csv(counts: &BTreeMap<usize, Vec<u64>>) -> String {
    let max = counts.values().flatten().copied().max().unwrap_or(1);
    let mut s = String::from("optimal solutions");
    for len in counts.keys() {
        s += &format!(",length {len}");
    }
    s += "\n";
    let (mut lo, mut hi) = (1u64, 1u64);
    while lo <= max {
        s += &if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}-{hi}")
        };
        for v in counts.values() {
            let n = v.iter().filter(|&&x| (lo..=hi).contains(&x)).count();
            s += &format!(",{:.4}", n as f64 / v.len() as f64);
        }
        s += "\n";
        (lo, hi) = (hi + 1, 2 * hi);
    }
    s
}
