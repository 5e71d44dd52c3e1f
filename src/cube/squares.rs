//! The squares group's corners: the 96 corner permutations that the six half turns generate.
//!
//! The squares group `G3 = <U2, D2, R2, L2, F2, B2>` (Thistlethwaite's last subgroup, the goal
//! `htr`) keeps every corner in its tetrad and oriented, but not every tetrad-keeping
//! permutation of the corners lies in it: of the 4!·4! = 576, only these 96 do (the rest fall
//! into 5 more cosets, told apart by the tetrads' relative parity and twist). So membership in
//! `G3` is a condition on the corner permutation itself, not a labelling of pieces. This module
//! finds the 96 by closure, once; the coordinate layer ranks their cosets.

use super::{Cube, Move};
use std::sync::OnceLock;

/// The 96 permutations (slot → piece, as [`Cube::cp`]) in the order of their closure: the
/// identity first, then each new product `p · h` (the half turn `h` applied after `p`, half
/// turns in move-index order) in the order it is found. The order is an index of the
/// Thistlethwaite solver's last phase table, so it must not change.
pub fn corner_group() -> &'static [[u8; 8]] {
    &tables().0
}

/// The six half turns' corner permutations, in move-index order: the group's generators.
pub fn half_turn_corners() -> Vec<[u8; 8]> {
    (Move::all())
        .filter(|m| m.quarter_turns() == 2)
        .map(|m| m.cube().cp())
        .collect()
}

/// Does the corner permutation `cp` (slot → piece) lie in the squares group?
#[inline]
pub fn in_corner_group(cp: &[u8; 8]) -> bool {
    tables().1.binary_search(cp).is_ok()
}

/// Corner permutations.
type Perms = Vec<[u8; 8]>;

/// The group in closure order, and sorted for lookups.
fn tables() -> &'static (Perms, Perms) {
    static T: OnceLock<(Perms, Perms)> = OnceLock::new();
    T.get_or_init(|| {
        let half_turns = half_turn_corners();
        let mut group = vec![Cube::SOLVED.cp()];
        let mut next = 0;
        while next < group.len() {
            let p = group[next];
            next += 1;
            for g in &half_turns {
                let q: [u8; 8] = std::array::from_fn(|i| p[g[i] as usize]);
                if !group.contains(&q) {
                    group.push(q);
                }
            }
        }
        assert_eq!(
            group.len(),
            96,
            "half turns generate 96 corner permutations"
        );
        let mut sorted = group.clone();
        sorted.sort_unstable();
        (group, sorted)
    })
}
