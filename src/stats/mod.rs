//! Statistics over many solves: HDR histograms of time and nodes, length distributions.

pub mod cosets;
pub mod distance_job;
pub mod distances;
pub mod heuristic;
pub mod plot;
pub mod predict;
pub mod spill;
pub mod study;

use hdrhistogram::Histogram;
use std::collections::BTreeMap;

/// HDR histograms of solve time (microseconds) and node counts of some solves.
pub struct Timings {
    micros: Histogram<u64>,
    nodes: Histogram<u64>,
}

impl Timings {
    fn new() -> Timings {
        Timings {
            // Fixed ranges (saturating records never resize): up to ~28 hours and 10^15 nodes.
            micros: Histogram::new_with_bounds(1, 100_000_000_000, 3).expect("valid bounds"),
            nodes: Histogram::new_with_bounds(1, 1_000_000_000_000_000, 3).expect("valid bounds"),
        }
    }

    fn record(&mut self, nodes: u64, seconds: f64) {
        self.micros
            .saturating_record(((seconds * 1e6) as u64).max(1));
        self.nodes.saturating_record(nodes.max(1));
    }

    /// Number of solves recorded.
    pub fn count(&self) -> u64 {
        self.micros.len()
    }

    /// Time quantile in seconds.
    pub fn seconds_at(&self, q: f64) -> f64 {
        self.micros.value_at_quantile(q) as f64 / 1e6
    }

    /// Node-count quantile.
    pub fn nodes_at(&self, q: f64) -> u64 {
        self.nodes.value_at_quantile(q)
    }
}

/// Figures of a batch of solves: counts per solution length, HDR histograms of solve time
/// (microseconds) and node counts, over all solves and per solution length.
pub struct BatchSummary {
    lengths: BTreeMap<Option<usize>, u64>,
    all: Timings,
    by_length: BTreeMap<Option<usize>, Timings>,
}

impl Default for BatchSummary {
    fn default() -> Self {
        Self::new()
    }
}

impl BatchSummary {
    pub fn new() -> BatchSummary {
        BatchSummary {
            lengths: BTreeMap::new(),
            all: Timings::new(),
            by_length: BTreeMap::new(),
        }
    }

    /// Records one solve (`length` `None` when no solution was found).
    pub fn record(&mut self, length: Option<usize>, nodes: u64, seconds: f64) {
        *self.lengths.entry(length).or_default() += 1;
        self.all.record(nodes, seconds);
        self.by_length
            .entry(length)
            .or_insert_with(Timings::new)
            .record(nodes, seconds);
    }

    /// Number of solves recorded.
    pub fn count(&self) -> u64 {
        self.all.count()
    }

    /// Solves per solution length.
    pub fn lengths(&self) -> &BTreeMap<Option<usize>, u64> {
        &self.lengths
    }

    /// Time and node histograms of all solves.
    pub fn all(&self) -> &Timings {
        &self.all
    }

    /// Time and node histograms of the solves of one length (`None`: unsolved), if any.
    pub fn of_length(&self, length: Option<usize>) -> Option<&Timings> {
        self.by_length.get(&length)
    }

    /// Time quantile in seconds.
    pub fn seconds_at(&self, q: f64) -> f64 {
        self.all.seconds_at(q)
    }

    /// Node-count quantile.
    pub fn nodes_at(&self, q: f64) -> u64 {
        self.all.nodes_at(q)
    }

    /// A plain-text report: lengths, then time and node percentiles.
    pub fn report(&self) -> String {
        let mut s = format!("summary: {} positions\n", self.count());
        for (len, n) in &self.lengths {
            match len {
                Some(l) => s += &format!("  length {l:2}: {n}\n"),
                None => s += &format!("  unsolved : {n}\n"),
            }
        }
        s += "  percentile      seconds          nodes\n";
        for q in [0.5, 0.9, 0.99, 1.0] {
            s += &format!(
                "  p{:<5} {:>16.4} {:>14}\n",
                q * 100.0,
                self.seconds_at(q),
                self.nodes_at(q)
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_and_quantiles() {
        let mut b = BatchSummary::new();
        for i in 1..=100u64 {
            b.record(Some(10 + (i % 2) as usize), i * 1000, i as f64 / 100.0);
        }
        b.record(None, 5, 0.5);
        assert_eq!(b.count(), 101);
        assert_eq!(b.lengths()[&Some(10)], 50);
        assert_eq!(b.lengths()[&None], 1);
        let median = b.seconds_at(0.5);
        assert!((0.49..0.52).contains(&median), "{median}");
        assert!(b.nodes_at(1.0) >= 99_900);
        assert!(b.report().contains("length 11: 50"));
        // Per length: the odd i (length 11) have times 0.01, 0.03, ..., 0.99 s.
        let l11 = b.of_length(Some(11)).unwrap();
        assert_eq!(l11.count(), 50);
        assert!((0.98..1.0).contains(&l11.seconds_at(1.0)));
        assert!(l11.nodes_at(0.0) < 1_100);
        assert_eq!(b.of_length(None).unwrap().nodes_at(1.0), 5);
        assert!(b.of_length(Some(12)).is_none());
    }
}
