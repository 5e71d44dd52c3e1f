//! The expected cost of each part of a depth's walk, for its progress and ETA.
//!
//! A deep walk is split into parts, one a node three moves below the root
//! ([`super::seeds::Walker::frontier`]), and their costs differ a hundredfold: on H at depth 15
//! the median part took 0.6 s and the longest 36 s, the longest being the nodes with the most
//! slack (moves to go less phase-1 distance). Counted as parts, the walk's ETA was far too
//! short whenever the quick parts came first (at 6 % of H's depth-16 walk it said 11 minutes
//! for 32).
//!
//! A part at depth `d + 1` is the same node as at depth `d`, with one more move to go, and the
//! parts' costs grow alike from one depth to the next (H's parts at 11 → 12 moves to go: 7.7
//! times in each slack class, measured 2026-12-04). So a part's expected cost is its own time
//! at the depth before; a part new at this depth (a node the shallower walk did not reach)
//! gets the mean of the others; at the first split depth every part counts the same.

use std::collections::HashMap;

use super::seeds::Phase1Node;
use crate::cube::Cube;

/// Each frontier node's time at the last depth walked in parts, in microseconds.
#[derive(Default)]
pub struct PartCosts {
    micros: HashMap<Cube, u64>,
}

impl PartCosts {
    /// The expected cost of each part of `work` (at least 1 each).
    pub fn weights(&self, work: &[(Phase1Node, u8)]) -> Vec<u64> {
        if self.micros.is_empty() {
            return vec![1; work.len()];
        }
        let known: Vec<Option<u64>> = work
            .iter()
            .map(|(n, _)| self.micros.get(n.cube()).copied())
            .collect();
        let (sum, count) = known
            .iter()
            .flatten()
            .fold((0u64, 0u64), |(s, c), &t| (s + t, c + 1));
        let mean = sum.checked_div(count).unwrap_or(1);
        known.iter().map(|t| t.unwrap_or(mean).max(1)).collect()
    }

    /// Keeps the times `seconds[i]` of the parts `work[i]` just walked, for the next depth.
    pub fn record(&mut self, work: &[(Phase1Node, u8)], seconds: &[f64]) {
        self.micros = work
            .iter()
            .zip(seconds)
            .map(|((n, _), &s)| (*n.cube(), (s * 1e6).round() as u64))
            .collect();
    }
}
