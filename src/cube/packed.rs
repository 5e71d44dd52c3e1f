//! Whole positions packed into 128-bit keys, and the layer-by-layer breadth-first search of the
//! full cube over such keys: the one search over whole positions, used by the distance counts of
//! `stats::distances` and by the brute-force reference `search::brute::Ball`, and, over keys of
//! another type, by the `sym48eK` builder's coset classes (`pdb::sym48ek`). (`pdb::bfs` is the
//! other one: over spaces small enough to index, a dense table of every entry.)
//!
//! A position is packed into a `u128` key ([`pack`]: 5 bits a cubie, 100 bits). Layer `d` is the
//! sorted, duplicate-free vector of the keys of all positions at exact distance `d`. The next
//! layer is every neighbour of layer `d` (its metric's unit moves: 18 face turns in the half-turn
//! metric, 12 quarter turns in the quarter-turn metric), sorted in parallel (rayon), with
//! duplicates and the members of layers `d` and `d − 1` removed: a neighbour of a position at
//! distance `d` is at distance `d − 1`, `d` or `d + 1`, so what remains is exactly layer `d + 1`.
//!
//! Invariants: every layer is strictly increasing; layers are pairwise disjoint. Memory peaks
//! while layer `d + 1` is being made: 16 bytes for each of the `18·|L_d|` neighbours plus layers
//! `d` and `d − 1`.

use super::{Cube, Metric};
use rayon::prelude::*;

/// Bytes of one packed position.
pub const KEY_BYTES: u64 = std::mem::size_of::<u128>() as u64;

/// The position as a 100-bit key: for each of the 8 corners then 12 edges, 5 bits (corner:
/// piece in 3 bits, twist in 2; edge: piece in 4 bits, flip in 1). Injective on positions.
#[inline]
pub fn pack(c: &Cube) -> u128 {
    let mut k = 0u128;
    for &b in &c.corner_bytes()[..8] {
        k = (k << 5) | ((b & 0x07) | ((b >> 4) << 3)) as u128;
    }
    for &b in &c.edge_bytes()[..12] {
        k = (k << 5) | ((b & 0x0f) | ((b >> 4) << 4)) as u128;
    }
    k
}

/// The position of a key made by [`pack`].
#[inline]
pub fn unpack(mut k: u128) -> Cube {
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    let mut ep = [0u8; 12];
    let mut eo = [0u8; 12];
    for i in (0..12).rev() {
        let v = (k & 0x1f) as u8;
        ep[i] = v & 0x0f;
        eo[i] = v >> 4;
        k >>= 5;
    }
    for i in (0..8).rev() {
        let v = (k & 0x1f) as u8;
        cp[i] = v & 0x07;
        co[i] = v >> 3;
        k >>= 5;
    }
    Cube::from_parts(cp, co, ep, eo)
}

/// Layer `d + 1` from layer `d` (`cur`) and layer `d − 1` (`prev`, empty for `d = 0`), both
/// sorted. Uses the current rayon pool.
pub fn next_layer(prev: &[u128], cur: &[u128]) -> Vec<u128> {
    next_layer_by(prev, cur, false, Metric::Htm, pack)
}

/// [`next_layer`] with another key: `key` must map positions to keys whose low 100 bits are
/// [`pack`] of some position, and equal keys must mean equally distant positions (as the
/// canonical key of a symmetry class does: `stats::distances`). Bits above 100 may carry data
/// that is a function of the key's position (ignored by [`unpack`]).
///
/// With `premoves` the neighbours `m·c` count too (36 a key): a key that stands for a class
/// closed under inversion needs them, because the class member `c⁻¹` has the neighbours
/// `c⁻¹·m = (m⁻¹·c)⁻¹`, whose classes are those of the premoves of `c`.
pub fn next_layer_by(
    prev: &[u128],
    cur: &[u128],
    premoves: bool,
    metric: Metric,
    key: impl Fn(&Cube) -> u128 + Sync,
) -> Vec<u128> {
    next_layer_of(prev, cur, premoves, metric, unpack, key)
}

/// [`next_layer_by`] for keys of any type: `cube(k)` is a position with key `k` (any member
/// of what the key stands for), and equal keys must mean equally distant positions whose
/// neighbours have the same keys (as for the coset classes of `pdb::sym48e6`).
pub fn next_layer_of<T: Copy + Ord + Default + Send + Sync>(
    prev: &[T],
    cur: &[T],
    premoves: bool,
    metric: Metric,
    cube: impl Fn(T) -> Cube + Sync,
    key: impl Fn(&Cube) -> T + Sync,
) -> Vec<T> {
    let per_key = if premoves { 2 } else { 1 } * metric.generators().len();
    let mut next = vec![T::default(); cur.len() * per_key];
    next.par_chunks_mut(per_key)
        .zip(cur.par_iter())
        .for_each(|(out, &k)| neighbour_keys(&cube(k), metric, out, &key));
    next.par_sort_unstable();
    next.dedup();
    remove_members(&mut next, cur, prev);
    next.shrink_to_fit();
    next
}

/// Writes the keys of `c`'s neighbours in `metric` into `out`: its moves `c·m` (the metric's
/// unit moves), then, when `out` has room for twice as many, its premoves `m·c`.
#[inline]
pub fn neighbour_keys<T>(c: &Cube, metric: Metric, out: &mut [T], key: impl Fn(&Cube) -> T) {
    let moves = metric.generators();
    let (post, pre) = out.split_at_mut(moves.len());
    for (o, m) in post.iter_mut().zip(moves) {
        *o = key(&c.compose(m));
    }
    for (o, m) in pre.iter_mut().zip(moves) {
        *o = key(&m.compose(c));
    }
}

/// Drops from the sorted `keys` those in `a` or `b` (both sorted): the keys of layers `d` and
/// `d − 1` among the neighbours of layer `d`. One merge walk over the three vectors.
pub fn remove_members<T: Ord>(keys: &mut Vec<T>, a: &[T], b: &[T]) {
    let (mut i, mut j) = (0, 0);
    keys.retain(|k| {
        while i < a.len() && a[i] < *k {
            i += 1;
        }
        while j < b.len() && b[j] < *k {
            j += 1;
        }
        !(a.get(i) == Some(k) || b.get(j) == Some(k))
    });
}

/// Runs the search to `max_depth`, calling `on_layer(d, layer)` for each layer 0..=max_depth as
/// it is finished; keeps only the two layers the next step needs.
pub fn for_each_layer(max_depth: u8, on_layer: impl FnMut(u8, &[u128])) {
    for_each_layer_by(max_depth, false, Metric::Htm, pack, on_layer);
}

/// [`for_each_layer`] with the neighbours and key of [`next_layer_by`]; returns the last two
/// layers (`max_depth − 1`, empty for depth 0, and `max_depth`).
pub fn for_each_layer_by(
    max_depth: u8,
    premoves: bool,
    metric: Metric,
    key: impl Fn(&Cube) -> u128 + Sync,
    on_layer: impl FnMut(u8, &[u128]),
) -> (Vec<u128>, Vec<u128>) {
    for_each_layer_of(max_depth, premoves, metric, unpack, key, on_layer)
}

/// [`for_each_layer_by`] for keys of any type, with `cube` and `key` as in [`next_layer_of`].
/// While `on_layer(d, …)` runs, layers `d − 1` and `d` are held, not `d − 2`.
pub fn for_each_layer_of<T: Copy + Ord + Default + Send + Sync>(
    max_depth: u8,
    premoves: bool,
    metric: Metric,
    cube: impl Fn(T) -> Cube + Sync,
    key: impl Fn(&Cube) -> T + Sync,
    mut on_layer: impl FnMut(u8, &[T]),
) -> (Vec<T>, Vec<T>) {
    let mut prev: Vec<T> = Vec::new();
    let mut cur = vec![key(&Cube::SOLVED)];
    on_layer(0, &cur);
    for d in 1..=max_depth {
        let next = next_layer_of(&prev, &cur, premoves, metric, &cube, &key);
        prev = std::mem::replace(&mut cur, next);
        on_layer(d, &cur);
    }
    (prev, cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    #[test]
    fn pack_round_trips() {
        let mut rng = Rng::new(9);
        for _ in 0..1000 {
            let c = Cube::random(&mut rng);
            assert_eq!(unpack(pack(&c)), c);
        }
        assert_eq!(unpack(pack(&Cube::SOLVED)), Cube::SOLVED);
        assert!(pack(&Cube::SOLVED) < 1u128 << 100);
    }

    #[test]
    fn layers_are_sorted_and_disjoint() {
        let mut layers: Vec<Vec<u128>> = Vec::new();
        for_each_layer(3, |_, l| layers.push(l.to_vec()));
        let mut all: Vec<u128> = layers.concat();
        for l in &layers {
            assert!(l.windows(2).all(|w| w[0] < w[1]));
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
