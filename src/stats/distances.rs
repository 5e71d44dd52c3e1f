//! Exact distances of the full cube from solved, in either metric, counted with the layered
//! breadth-first
//! search of [`crate::cube::packed`], over whole positions or over classes of positions under
//! the 48 symmetries (and inversion) of [`crate::coord::positions`]: the published counts to
//! check against, the counts, and an estimate of the search's peak memory ([`peak_bytes`],
//! checked before the work starts).
//!
//! The class search keeps one key a class: the representative's [`pack`] in the low 100 bits
//! and the stabilizer's order above ([`class_key`]). Conjugates and the inverse of a position
//! are as far from solved as it is, so a class's distance is well defined, and a neighbour of a
//! class at distance `d` lies in a class at distance `d − 1`, `d` or `d + 1`: the layered
//! search over class keys is exact, and a layer's position count is the sum of its classes'
//! sizes (group order / stabilizer order). The neighbours of a class are its representative's
//! 18 moves, and with inversion also its 18 premoves (the moves of the inverse member): twice
//! the keys per class, so the two reductions make the same number of neighbour keys, and
//! inversion halves the layers kept.

use crate::coord::positions::{Conjugator, Reduction};
use crate::cube::packed::{KEY_BYTES, for_each_layer_by, pack};
use crate::cube::{Cube, Metric};
use crate::stats::predict::tree_sizes;
use rayon::prelude::*;

/// Published numbers of positions at exact distance 0..=10 in HTM (the declaration's,
/// [`Metric::published`]).
pub const PUBLISHED: &[u64] = Metric::Htm.declaration().published;

/// Published numbers of positions at exact distance 0..=12 in QTM.
pub const PUBLISHED_QTM: &[u64] = Metric::Qtm.declaration().published;

/// The published position counts of `metric`, by distance (empty where none are).
pub fn published(metric: Metric) -> &'static [u64] {
    metric.published()
}

/// Published numbers of classes under the 48 symmetries at distance 0..=10 in HTM (Jerry
/// Bryan, "Rubik's cube results", jerrybryan.com/math/rubikresults.html: "patterns unique up
/// to symmetry", face turn metric).
pub const PUBLISHED_CLASSES_SYM: [u64; 11] = [
    1, 2, 9, 75, 934, 12077, 159131, 2101575, 27762103, 366611212, 4838564147,
];

/// The layer sizes of one search: positions, and classes (equal to positions for a search
/// over whole positions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerCount {
    pub positions: u64,
    pub classes: u64,
}

/// Bit where a class key's stabilizer order starts (above the 100 bits of [`pack`]).
const STABILIZER_SHIFT: u32 = 100;

/// The key of `c`'s class under `r`: the representative packed, and the stabilizer's order.
#[inline]
pub fn class_key(k: &Conjugator, c: &Cube, r: Reduction) -> u128 {
    let canon = k.canonical(c, r);
    pack(&canon.cube) | (canon.stabilizer as u128) << STABILIZER_SHIFT
}

/// The number of positions in the class of a [`class_key`].
#[inline]
pub fn class_size(key: u128, r: Reduction) -> u64 {
    (r.order() / (key >> STABILIZER_SHIFT) as u32) as u64
}

/// Layer sizes 0..=max_depth in `metric`, over whole positions (`None`) or classes under `r`,
/// with `on_layer(d, count)` called as each layer is done. Uses the current rayon pool.
pub fn layer_counts(
    max_depth: u8,
    reduction: Option<Reduction>,
    metric: Metric,
    mut on_layer: impl FnMut(u8, LayerCount),
) -> Vec<LayerCount> {
    let mut out = Vec::new();
    let mut record = |d: u8, n: LayerCount| {
        on_layer(d, n);
        out.push(n);
    };
    match reduction {
        None => {
            for_each_layer_by(max_depth, false, metric, pack, |d, layer| {
                let n = layer.len() as u64;
                record(
                    d,
                    LayerCount {
                        positions: n,
                        classes: n,
                    },
                )
            });
        }
        Some(r) => {
            class_layers(max_depth, r, metric, record);
        }
    }
    out
}

/// The class search to `max_depth`, `record(d, count)` called for each layer; returns the
/// last two layers.
///
/// The reductions hold in either metric: a symmetry of the cube (a mirror one too) maps
/// quarter turns to quarter turns and half turns to half turns, and a sequence's inverse costs
/// what it does.
pub fn class_layers(
    max_depth: u8,
    r: Reduction,
    metric: Metric,
    mut record: impl FnMut(u8, LayerCount),
) -> (Vec<u128>, Vec<u128>) {
    let k = Conjugator::new();
    for_each_layer_by(
        max_depth,
        r == Reduction::SymmetryAndInverse,
        metric,
        |c| class_key(&k, c, r),
        |d, layer| {
            let positions = layer.par_iter().map(|&key| class_size(key, r)).sum();
            let classes = layer.len() as u64;
            record(d, LayerCount { positions, classes })
        },
    )
}

/// Number of positions at each exact distance 0..=max_depth in `metric` (search over whole
/// positions).
pub fn counts(max_depth: u8, metric: Metric) -> Vec<u64> {
    layer_counts(max_depth, None, metric, |_, _| {})
        .iter()
        .map(|n| n.positions)
        .collect()
}

/// An estimate of the peak memory (bytes) of [`layer_counts`] to `max_depth`: the last step's
/// neighbour vector plus its two input layers and its output. Over whole positions in HTM it
/// bounds the layers by the canonical tree sizes (a position at distance `d` is reached by a
/// canonical sequence of `d` moves), in QTM it takes the published counts; over classes it
/// takes the published position counts over the group's order, plus 5 % for the symmetric
/// classes (about 0.01 % more at depth 9 under the 48 symmetries). `None` past the published
/// depths.
pub fn peak_bytes(max_depth: u8, reduction: Option<Reduction>, metric: Metric) -> Option<u128> {
    let moves = metric.generators().len() as u128;
    let Some(r) = reduction else {
        return peak_bytes_plain(max_depth, metric);
    };
    let classes = |d: usize| estimated_classes(d, r, metric).map(u128::from);
    (1..=max_depth as usize)
        .map(|d| {
            let cur = classes(d - 1)?;
            let prev = if d >= 2 { classes(d - 2)? } else { 0 };
            let next = classes(d)?;
            let per_class = moves * (r.order() / 48) as u128;
            Some((per_class * cur + cur + prev + next) * KEY_BYTES as u128)
        })
        .try_fold(KEY_BYTES as u128, |m, x| Some(m.max(x?)))
}

/// An upper estimate of the classes at distance `d` under `r`: the published position count
/// over the group's order, plus 5 % for the symmetric classes; `None` past the published depths.
/// A metric with no published counts (ATM) takes its canonical sequences' bound instead
/// ([`Metric::sequence_bounds`]).
pub fn estimated_classes(d: usize, r: Reduction, metric: Metric) -> Option<u64> {
    let p = *layer_bounds(metric, d)?.get(d)?;
    let p = u64::try_from(p).unwrap_or(u64::MAX);
    Some(p.saturating_mul(105) / (100 * r.order() as u64) + 1)
}

/// Upper bounds on the positions at distances 0..=max_depth: the published counts, or where a
/// metric has none, its canonical sequences' bound; `None` past the published depths.
fn layer_bounds(metric: Metric, max_depth: usize) -> Option<Vec<u128>> {
    let published = metric.published();
    if published.is_empty() {
        return Some(metric.sequence_bounds(max_depth));
    }
    let got = published.get(..=max_depth)?;
    Some(got.iter().map(|&c| c as u128).collect())
}

/// [`peak_bytes`] over whole positions: an upper bound (HTM: the canonical tree), the exact
/// layers (QTM, STM), the canonical sequences' bound (ATM).
fn peak_bytes_plain(max_depth: u8, metric: Metric) -> Option<u128> {
    let n: Vec<u128> = match metric {
        Metric::Htm => tree_sizes(max_depth as usize),
        _ => layer_bounds(metric, max_depth as usize)?,
    };
    let moves = metric.generators().len() as u128;
    let step = |d: usize| {
        let cur = n[d - 1];
        let prev = if d >= 2 { n[d - 2] } else { 0 };
        (moves * cur + cur + prev) * KEY_BYTES as u128
    };
    Some(
        (1..=max_depth as usize)
            .map(step)
            .max()
            .unwrap_or(KEY_BYTES as u128),
    )
}

#[cfg(test)]
mod four_metrics_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// Depths 0..=5 reproduce the published counts (Rokicki et al.).
    #[test]
    fn counts_match_published_to_depth_5() {
        assert_eq!(counts(5, Metric::Htm), PUBLISHED[..6].to_vec());
    }

    #[test]
    fn peak_estimate_bounds_the_vectors() {
        // Depth 2: 18 neighbours of each of the 18 positions at depth 1, plus layers 1 and 0.
        let htm = Metric::Htm;
        assert_eq!(peak_bytes(2, None, htm), Some((18 * 18 + 18 + 1) * 16));
        assert!(peak_bytes(7, None, htm).unwrap() < 3 << 30);
        assert!(peak_bytes(8, None, htm).unwrap() > 24 << 30);
        let both = Some(Reduction::SymmetryAndInverse);
        assert!(peak_bytes(9, both, htm).unwrap() < 12 << 30);
        assert!(peak_bytes(10, both, htm).unwrap() > 24 << 30);
        assert_eq!(peak_bytes(11, both, htm), None);
        // QTM: 12 neighbours of each of the 12 positions at 1q, plus layers 1 and 0.
        let qtm = Metric::Qtm;
        assert_eq!(peak_bytes(2, None, qtm), Some((12 * 12 + 12 + 1) * 16));
        assert!(peak_bytes(10, both, qtm).unwrap() < 8 << 30);
        assert!(peak_bytes(12, both, qtm).unwrap() > 24 << 30);
        assert_eq!(peak_bytes(13, both, qtm), None);
    }

    /// The class searches count the same positions as the search over whole positions, their
    /// class counts under the 48 symmetries are Bryan's, and with inversion there are fewer.
    #[test]
    fn class_searches_count_the_positions() {
        let plain = counts(6, Metric::Htm);
        assert_eq!(plain, PUBLISHED[..7].to_vec());
        let sym = layer_counts(6, Some(Reduction::Symmetry), Metric::Htm, |_, _| {});
        let both = layer_counts(
            6,
            Some(Reduction::SymmetryAndInverse),
            Metric::Htm,
            |_, _| {},
        );
        for d in 0..=6 {
            assert_eq!(sym[d].positions, plain[d], "depth {d}");
            assert_eq!(both[d].positions, plain[d], "depth {d}");
            assert_eq!(sym[d].classes, PUBLISHED_CLASSES_SYM[d], "depth {d}");
            assert!(both[d].classes <= sym[d].classes);
            assert!(both[d].classes * 96 >= plain[d]);
        }
        assert!(both[6].classes < sym[6].classes * 6 / 10);
    }

    /// In the quarter-turn metric the layers over whole positions and over classes (with their
    /// sizes) are the published counts (OEIS A080602) through 7q.
    #[test]
    fn qtm_counts_match_published_to_7q() {
        assert_eq!(counts(6, Metric::Qtm), PUBLISHED_QTM[..7].to_vec());
        for r in [Reduction::Symmetry, Reduction::SymmetryAndInverse] {
            let layers = layer_counts(7, Some(r), Metric::Qtm, |_, _| {});
            let positions: Vec<u64> = layers.iter().map(|n| n.positions).collect();
            assert_eq!(positions, PUBLISHED_QTM[..8].to_vec(), "{r:?}");
        }
    }

    /// Each class of a layer, expanded to its members, gives exactly that layer of positions.
    #[test]
    fn classes_expand_to_the_layers() {
        use crate::cube::packed::unpack;
        use std::collections::HashSet;
        let k = Conjugator::new();
        let r = Reduction::SymmetryAndInverse;
        let mut layers: Vec<Vec<u128>> = Vec::new();
        crate::cube::packed::for_each_layer(4, |_, l| layers.push(l.to_vec()));
        for_each_layer_by(
            4,
            true,
            Metric::Htm,
            |c| class_key(&k, c, r),
            |d, classes| {
                let mut members = HashSet::new();
                for &key in classes {
                    let c = unpack(key);
                    let before = members.len();
                    for side in [c, c.inverse()] {
                        for s in 0..48 {
                            members.insert(pack(&k.conj(&side, s)));
                        }
                    }
                    assert_eq!((members.len() - before) as u64, class_size(key, r));
                }
                let want: HashSet<u128> = layers[d as usize].iter().copied().collect();
                assert_eq!(members, want, "depth {d}");
            },
        );
    }
}
