//! The distribution of the search heuristic over uniformly random positions.
//!
//! For each sampled position ([`Cube::random`] from `Rng::new(seed)`) it records every table's
//! value, their maximum (the solver's heuristic) and, with `dual`, the maximum over the position
//! and its inverse. This is the equilibrium distribution `P` of the node-count model in
//! [`crate::stats::predict`].
//!
//! Invariants: the result depends only on the tables, `samples`, `seed` and `dual` — positions
//! are drawn sequentially from one generator and only their evaluation is parallel; every
//! column's counts sum to `samples`.

use crate::cube::{Cube, Rng};
use crate::search::Heuristic;
use rayon::prelude::*;

/// Heuristic values are table nibbles: below 16.
const VALUES: usize = 16;
/// Positions drawn per parallel batch.
const SAMPLE_CHUNK: u64 = 1 << 16;

/// Counts per heuristic value of each column: the tables in the heuristic's lookup order, then
/// `max`, then (with `dual`) `max_dual`.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub names: Vec<String>,
    /// `counts[column][value]`.
    pub counts: Vec<[u64; VALUES]>,
    pub samples: u64,
}

impl Distribution {
    /// Counts per value of the column called `name`.
    pub fn column(&self, name: &str) -> Option<&[u64]> {
        let i = self.names.iter().position(|n| n == name)?;
        Some(&self.counts[i])
    }

    /// Mean value of column `i`.
    pub fn mean(&self, i: usize) -> f64 {
        crate::pdb::histogram_mean(&self.counts[i])
    }

    /// The largest value any column takes.
    pub fn max_value(&self) -> usize {
        self.counts
            .iter()
            .filter_map(|c| c.iter().rposition(|&n| n > 0))
            .max()
            .unwrap_or(0)
    }

    /// CSV: header `value,<columns>`, then one row per value 0..=max_value.
    pub fn to_csv(&self) -> String {
        let mut s = format!("value,{}\n", self.names.join(","));
        for v in 0..=self.max_value() {
            s += &v.to_string();
            for c in &self.counts {
                s += &format!(",{}", c[v]);
            }
            s.push('\n');
        }
        s
    }

    /// A plain-text table of the counts, with a last row of means.
    pub fn to_text(&self) -> String {
        let w = 12;
        let mut s = format!("{:>5}", "value");
        for n in &self.names {
            s += &format!(" {n:>w$}");
        }
        s.push('\n');
        for v in 0..=self.max_value() {
            s += &format!("{v:>5}");
            for c in &self.counts {
                s += &format!(" {:>w$}", c[v]);
            }
            s.push('\n');
        }
        s += &format!("{:>5}", "mean");
        for i in 0..self.names.len() {
            s += &format!(" {:>w$.4}", self.mean(i));
        }
        s.push('\n');
        s
    }
}

/// Samples `samples` random positions and tallies the heuristic (uses the current rayon pool).
pub fn sample(h: &Heuristic, samples: u64, seed: u64, dual: bool) -> Distribution {
    let tables = h.tables();
    let mut names: Vec<String> = tables.iter().map(|(p, _)| p.name().to_string()).collect();
    names.push("max".into());
    if dual {
        names.push("max_dual".into());
    }
    let columns = names.len();
    let mut counts = vec![[0u64; VALUES]; columns];
    let mut rng = Rng::new(seed);
    let mut done = 0;
    let mut batch = Vec::with_capacity(SAMPLE_CHUNK as usize);
    while done < samples {
        let n = SAMPLE_CHUNK.min(samples - done);
        batch.clear();
        batch.extend((0..n).map(|_| Cube::random(&mut rng)));
        let part = batch
            .par_iter()
            .fold(
                || vec![[0u64; VALUES]; columns],
                |mut acc, p| {
                    let q = p.inverse();
                    let mut max = 0;
                    let mut max_dual = 0;
                    for (k, (pat, t)) in tables.iter().enumerate() {
                        let v = t.get(pat.index_of_inverse(&q));
                        acc[k][v as usize] += 1;
                        max = max.max(v);
                        if dual {
                            max_dual = max_dual.max(t.get(pat.index_of_inverse(p)));
                        }
                    }
                    debug_assert_eq!(max, h.value(p, &q, false));
                    acc[tables.len()][max as usize] += 1;
                    if dual {
                        acc[tables.len() + 1][max.max(max_dual) as usize] += 1;
                    }
                    acc
                },
            )
            .reduce(|| vec![[0u64; VALUES]; columns], add_counts);
        counts = add_counts(counts, part);
        done += n;
    }
    Distribution {
        names,
        counts,
        samples,
    }
}

fn add_counts(mut a: Vec<[u64; VALUES]>, b: Vec<[u64; VALUES]>) -> Vec<[u64; VALUES]> {
    for (x, y) in a.iter_mut().zip(&b) {
        for v in 0..VALUES {
            x[v] += y[v];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::{Pattern, histogram_mean};
    use crate::testing::{korf6, korf6_table};

    /// The sampled distribution of a single table matches the table's own histogram (random
    /// positions are uniform and every abstract state has equally many preimages); the maximum
    /// is at least every column; dual is at least plain.
    #[test]
    fn sampled_distribution_matches_tables() {
        let d = sample(korf6(), 40_000, 1, true);
        assert_eq!(d.names.last().map(String::as_str), Some("max_dual"));
        for c in &d.counts {
            assert_eq!(c.iter().sum::<u64>(), 40_000);
        }
        for p in [Pattern::CORNERS, Pattern::EDGES6A, Pattern::EDGES6B] {
            let i = d.names.iter().position(|n| n == p.name()).unwrap();
            let exact = histogram_mean(&korf6_table(p).histogram());
            assert!(
                (d.mean(i) - exact).abs() < 0.02,
                "{p}: sampled {} exact {exact}",
                d.mean(i)
            );
        }
        let n = d.names.len();
        let (max, dual) = (d.mean(n - 2), d.mean(n - 1));
        for i in 0..n - 2 {
            assert!(max >= d.mean(i));
        }
        assert!(dual > max);
        // Same seed, same result, whatever the thread count.
        assert_eq!(sample(korf6(), 1000, 7, false), {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            pool.install(|| sample(korf6(), 1000, 7, false))
        });
    }

    #[test]
    fn csv_and_text_layout() {
        let d = Distribution {
            names: vec!["a".into(), "max".into()],
            counts: vec![
                [1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                [0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ],
            samples: 4,
        };
        assert_eq!(d.to_csv(), "value,a,max\n0,1,0\n1,3,2\n2,0,2\n");
        assert!(d.to_text().contains("0.7500"));
        assert!(d.to_text().contains("1.5000"));
        assert_eq!(d.column("max"), Some(&d.counts[1][..]));
    }
}
