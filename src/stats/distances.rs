//! Exact distances of the full cube from solved (HTM), counted with the layered breadth-first
//! search over whole positions of [`crate::cube::packed`]: the published counts to check
//! against, the counts, and a bound on the search's peak memory ([`peak_bytes`], checked before
//! the work starts).

use crate::cube::Move;
use crate::cube::packed::{KEY_BYTES, for_each_layer};
use crate::stats::predict::tree_sizes;

/// Published numbers of positions at exact distance 0..=7 in HTM (Rokicki, Kociemba, Davidson,
/// Dethridge, "The diameter of the Rubik's Cube group is twenty", SIAM J. Discrete Math. 27
/// (2013); table at cube20.org).
pub const PUBLISHED: [u64; 8] = [1, 18, 243, 3240, 43239, 574908, 7618438, 100803036];

/// Number of positions at each exact distance 0..=max_depth.
pub fn counts(max_depth: u8) -> Vec<u64> {
    let mut out = Vec::new();
    for_each_layer(max_depth, |_, layer| out.push(layer.len() as u64));
    out
}

/// An upper bound on the peak memory (bytes) of [`for_each_layer`] to `max_depth`. A position
/// at distance `d` is reached by a canonical sequence of `d` moves, so the canonical tree sizes
/// bound the layer sizes; the peak is the last step's neighbour vector plus its two input layers.
pub fn peak_bytes(max_depth: u8) -> u128 {
    let n = tree_sizes(max_depth as usize);
    let step = |d: usize| {
        let cur = n[d - 1];
        let prev = if d >= 2 { n[d - 2] } else { 0 };
        (Move::COUNT as u128 * cur + cur + prev) * KEY_BYTES as u128
    };
    (1..=max_depth as usize)
        .map(step)
        .max()
        .unwrap_or(KEY_BYTES as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Depths 0..=5 reproduce the published counts (Rokicki et al.).
    #[test]
    fn counts_match_published_to_depth_5() {
        assert_eq!(counts(5), PUBLISHED[..6].to_vec());
    }

    #[test]
    fn peak_estimate_bounds_the_vectors() {
        // Depth 2: 18 neighbours of each of the 18 positions at depth 1, plus layers 1 and 0.
        assert_eq!(peak_bytes(2), (18 * 18 + 18 + 1) * 16);
        assert!(peak_bytes(7) < 3 << 30);
        assert!(peak_bytes(8) > 24 << 30);
    }
}
