//! The whole cube's distance distribution estimated from a coset study, with 95 % intervals,
//! beside the published one (cube20.org).
//!
//! Every coset has the same number of positions, and a study's cosets are drawn uniformly and
//! independently, so the count of positions at distance `d` in the whole cube is
//! `COSETS · E[n_d(c)]` for a random coset `c`, where `n_d(c)` is the coset's count at `d`.
//! Each coset gives an unbiased estimate of its own `n_d(c)`:
//! - exactly, for `d` up to the run's search depth;
//! - beyond it, `tail(c) · k_d / m`: the positions beyond the search depth, times the share of
//!   its samples beyond it (`m` of them, uniform over that part) whose optimal length is `d`.
//!
//! The estimate is `COSETS` times the mean of the cosets' values; its interval is Student's t
//! over the cosets (`mean ± t_{0.975, n−1} · s / √n`), which holds the variation between cosets
//! and the sampling within them together. At a depth where no coset shows anything (distance
//! 20: about one position in 10^11), the interval says nothing; the rule of three over all the
//! samples beyond the search depth then gives an upper bound. Cosets run without samples give
//! the estimate only through the depths exact in every coset.

use super::CosetRecord;
use crate::solvers::coset::COSETS;

/// The published distribution (cube20.org, "God's Number is 20"; exact through 15 by Rokicki,
/// Kociemba, Davidson and Dethridge; 16–20 are the site's estimates, the count of 20s from 2,500
/// random cosets): `(count, exact)` by distance.
pub const PUBLISHED: [(f64, bool); 21] = [
    (1.0, true),
    (18.0, true),
    (243.0, true),
    (3_240.0, true),
    (43_239.0, true),
    (574_908.0, true),
    (7_618_438.0, true),
    (100_803_036.0, true),
    (1_332_343_288.0, true),
    (17_596_479_795.0, true),
    (232_248_063_316.0, true),
    (3_063_288_809_012.0, true),
    (40_374_425_656_248.0, true),
    (531_653_418_284_628.0, true),
    (6_989_320_578_825_358.0, true),
    (91_365_146_187_124_313.0, true),
    (1.1e18, false),
    (1.2e19, false),
    (2.9e19, false),
    (1.5e18, false),
    (4.9e8, false),
];

/// One distance of the estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub depth: u8,
    /// Positions of the whole cube at this distance, estimated.
    pub estimate: f64,
    /// The 95 % interval (`None` with a single coset, or when no coset shows the distance).
    pub interval: Option<(f64, f64)>,
    /// Cosets whose value at this distance is not zero.
    pub cosets_seen: usize,
    /// When no coset shows the distance beyond the search depth: a 95 % upper bound by the
    /// rule of three over the samples beyond it.
    pub upper_bound: Option<f64>,
    /// Is the distance exact (within the search depth) in every coset?
    pub exact: bool,
}

/// The estimate of a study's cosets.
#[derive(Clone, Debug)]
pub struct Estimate {
    pub cosets: usize,
    /// Cosets with positions beyond the search depth and no samples there: the estimate then
    /// stops at the last depth exact in every coset.
    pub unsampled: usize,
    /// Samples beyond the search depth, over all cosets.
    pub tail_samples: usize,
    pub rows: Vec<Row>,
}

/// Student's t quantile at 0.975 with `df` degrees of freedom (tables for 1–30; beyond,
/// `1.96 + 2.4 / df`, within 0.2 % of the true value).
pub fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        _ => 1.96 + 2.4 / df as f64,
    }
}

/// Each coset's value at distances `0..=last` (see the module docs); `last` is within the
/// exact depths of a coset without samples beyond them.
fn coset_values(r: &CosetRecord, last: usize) -> Vec<f64> {
    let tail: Vec<u8> = r.tail_samples().map(|s| s.length).collect();
    (0..=last)
        .map(|d| match r.depth_counts.get(d) {
            Some(&n) => n as f64,
            None if r.tail() == 0 => 0.0,
            None => {
                let k = tail.iter().filter(|&&l| l as usize == d).count();
                r.tail() as f64 * k as f64 / tail.len() as f64
            }
        })
        .collect()
}

/// The estimate from the records of one study.
pub fn estimate<'a>(
    records: impl IntoIterator<Item = &'a CosetRecord>,
) -> Result<Estimate, String> {
    let records: Vec<&CosetRecord> = records.into_iter().collect();
    if records.is_empty() {
        return Err("no finished cosets".into());
    }
    let unsampled = records
        .iter()
        .filter(|r| r.tail() > 0 && r.tail_samples().next().is_none())
        .count();
    let last = if unsampled > 0 {
        let exact = records
            .iter()
            .map(|r| r.depth_counts.len())
            .min()
            .unwrap_or(0);
        exact.saturating_sub(1)
    } else {
        records
            .iter()
            .flat_map(|r| {
                // Through the last depth of the runs, where the samples show no deeper one:
                // a distance none of them reached still gets its upper bound.
                let last = if r.tail() > 0 {
                    r.max_depth as usize
                } else {
                    r.depth_counts.len().saturating_sub(1)
                };
                r.samples.iter().map(|s| s.length as usize).chain([last])
            })
            .max()
            .unwrap_or(0)
    };
    let values: Vec<Vec<f64>> = records.iter().map(|r| coset_values(r, last)).collect();
    let n = records.len();
    let tail_samples: usize = records.iter().map(|r| r.tail_samples().count()).sum();
    let mean_tail = records.iter().map(|r| r.tail() as f64).sum::<f64>() / n as f64;
    let scale = COSETS as f64;
    let rows = (0..=last)
        .map(|d| {
            let v: Vec<f64> = values.iter().map(|c| c[d]).collect();
            let mean = v.iter().sum::<f64>() / n as f64;
            let cosets_seen = v.iter().filter(|&&x| x > 0.0).count();
            // No coset shows the distance: a zero-width interval would claim too much.
            let interval = (n > 1 && cosets_seen > 0).then(|| {
                let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
                let half = t975(n - 1) * (var / n as f64).sqrt();
                (scale * (mean - half).max(0.0), scale * (mean + half))
            });
            let exact = records
                .iter()
                .all(|r| d < r.depth_counts.len() || r.tail() == 0);
            let upper_bound = (cosets_seen == 0 && !exact && tail_samples > 0)
                .then(|| scale * mean_tail * 3.0 / tail_samples as f64);
            Row {
                depth: d as u8,
                estimate: scale * mean,
                interval,
                cosets_seen,
                upper_bound,
                exact,
            }
        })
        .collect();
    Ok(Estimate {
        cosets: n,
        unsampled,
        tail_samples,
        rows,
    })
}

/// A count in at most 4 significant digits, in scientific notation above a million.
fn sci(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.3e}")
    }
}

impl Estimate {
    /// The estimate as Markdown: distance, estimate, interval, cosets showing it, and the
    /// published count (whether it lies in the interval).
    pub fn markdown(&self) -> String {
        let mut md = String::from(
            "| distance | estimate | 95 % interval | cosets with any | published (cube20.org) | in interval |\n\
             |---:|---:|---|---:|---:|:---:|\n",
        );
        for r in &self.rows {
            let interval = match (r.interval, r.upper_bound) {
                (_, Some(b)) => format!("≤ {} (rule of three)", sci(b)),
                (Some((lo, hi)), None) => format!("{} – {}", sci(lo), sci(hi)),
                (None, None) if r.cosets_seen == 0 => "— (none seen)".into(),
                (None, None) => "—".into(),
            };
            let (published, inside) = match PUBLISHED.get(r.depth as usize) {
                Some(&(p, exact)) => {
                    let inside = match (r.interval, r.upper_bound) {
                        (_, Some(b)) => p <= b,
                        (Some((lo, hi)), None) => lo <= p && p <= hi,
                        (None, None) => false,
                    };
                    let mark = if exact { "" } else { "≈ " };
                    let inside = match (r.interval, r.upper_bound, inside) {
                        (None, None, _) => "—",
                        (_, _, true) => "yes",
                        _ => "no",
                    };
                    (format!("{mark}{}", sci(p)), inside)
                }
                None => ("—".into(), "—"),
            };
            let est = if r.exact {
                sci(r.estimate)
            } else {
                format!("{} (sampled)", sci(r.estimate))
            };
            md += &format!(
                "| {} | {est} | {interval} | {} of {} | {published} | {inside} |\n",
                r.depth, r.cosets_seen, self.cosets
            );
        }
        if self.unsampled > 0 {
            md += &format!(
                "\n{} of {} cosets have positions beyond their search depth and no samples \
                 there (`--sample`): distances beyond are not estimated.\n",
                self.unsampled, self.cosets
            );
        }
        md
    }

    /// The estimate as one JSON object: `cosets`, `tail_samples`, `unsampled` and `rows`
    /// (`depth`, `estimate`, `low`, `high`, `upper_bound`, `cosets_seen`, `exact`,
    /// `published`, `published_exact`; absent values are null).
    pub fn to_json(&self) -> serde_json::Value {
        let rows: Vec<_> = self
            .rows
            .iter()
            .map(|r| {
                let p = PUBLISHED.get(r.depth as usize);
                serde_json::json!({
                    "depth": r.depth, "estimate": r.estimate,
                    "low": r.interval.map(|i| i.0), "high": r.interval.map(|i| i.1),
                    "upper_bound": r.upper_bound, "cosets_seen": r.cosets_seen,
                    "exact": r.exact, "published": p.map(|p| p.0),
                    "published_exact": p.map(|p| p.1),
                })
            })
            .collect();
        serde_json::json!({
            "cosets": self.cosets, "tail_samples": self.tail_samples,
            "unsampled": self.unsampled, "rows": rows,
        })
    }

    /// The estimate as CSV: `distance,estimate,low,high,published`.
    pub fn csv(&self) -> String {
        let mut s = String::from("distance,estimate,low,high,published\n");
        for r in &self.rows {
            let (lo, hi) = match (r.interval, r.upper_bound) {
                (_, Some(b)) => (0.0, b),
                (Some(i), None) => i,
                (None, None) => (f64::NAN, f64::NAN),
            };
            let p = PUBLISHED
                .get(r.depth as usize)
                .map_or(String::new(), |p| format!("{:e}", p.0));
            s += &format!("{},{:e},{:e},{:e},{p}\n", r.depth, r.estimate, lo, hi);
        }
        s
    }
}

/// One line per coset: its number, its counts at the last three exact depths, its samples
/// beyond the search depth by optimal length, and its seconds (run, samples).
pub fn cosets_table<'a>(records: impl IntoIterator<Item = &'a CosetRecord>) -> String {
    let mut md = String::from(
        "| index | coset | exact counts at the last three exact depths | samples beyond, by length | run s | samples s |\n\
         |---:|---:|---|---|---:|---:|\n",
    );
    for r in records {
        let exact = r.depth_counts.len();
        let last: Vec<String> = (exact.saturating_sub(3)..exact)
            .map(|d| format!("{d}: {}", r.depth_counts[d]))
            .collect();
        let mut by = std::collections::BTreeMap::<u8, u32>::new();
        for s in r.tail_samples() {
            *by.entry(s.length).or_default() += 1;
        }
        let by: Vec<String> = by.iter().map(|(l, n)| format!("{l}: {n}")).collect();
        md += &format!(
            "| {} | {} | {} | {} | {:.1} | {:.1} |\n",
            r.index,
            r.coset,
            last.join(", "),
            by.join(", "),
            r.seconds,
            r.sample_seconds
        );
    }
    md
}
