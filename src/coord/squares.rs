//! Coordinates of the squares group's corners ([`crate::cube::squares`]): each corner
//! permutation's index in the 96-element group `H` the half turns generate, and its coset
//! `H·π` among the 8!/96 = 420. A move acts on cosets (relabelling pieces by `h` commutes with
//! moving slots), so the coset is a coordinate: Thistlethwaite's phase 3 and the goal `htr`'s
//! corner table are indexed by it.

use crate::cube::squares::corner_group;
use crate::rank::{PartialPerm, permutation};
use std::sync::OnceLock;

/// Corner permutations, ranked.
pub const CORNER_PERMS: usize = 40320;
/// Cosets of the squares group's corners.
pub const CORNER_COSETS: usize = 420;
/// [`SquaresCorners::index`] of a permutation outside the group.
pub const OUTSIDE: u8 = u8::MAX;
const PERM8: PartialPerm = permutation(8);

/// The squares group's corners as coordinates.
pub struct SquaresCorners {
    /// For each corner-permutation rank, the coset `H·π` it lies in (`0..420`, numbered in
    /// the order of their least ranks; the group itself is coset 0).
    pub coset: Box<[u16]>,
    /// For each corner-permutation rank, its index in `H` ([`corner_group`]'s order), or
    /// [`OUTSIDE`].
    pub index: Box<[u8]>,
    /// For each coset, its least permutation (slot → piece).
    pub representative: Box<[[u8; 8]]>,
}

impl SquaresCorners {
    /// The tables, computed once (a few milliseconds).
    pub fn get() -> &'static SquaresCorners {
        static S: OnceLock<SquaresCorners> = OnceLock::new();
        S.get_or_init(SquaresCorners::new)
    }

    fn new() -> SquaresCorners {
        let group = corner_group();
        let mut index = vec![OUTSIDE; CORNER_PERMS].into_boxed_slice();
        for (i, p) in group.iter().enumerate() {
            index[PERM8.rank(p) as usize] = i as u8;
        }
        // Cosets H·π: relabel π's pieces by every h in H (`(h·π)[i] = h[π[i]]`).
        let mut coset = vec![u16::MAX; CORNER_PERMS].into_boxed_slice();
        let mut representative = Vec::with_capacity(CORNER_COSETS);
        let mut pi = [0u8; 8];
        for r in 0..CORNER_PERMS {
            if coset[r] != u16::MAX {
                continue;
            }
            PERM8.unrank(r as u64, &mut pi);
            for h in group {
                let q: [u8; 8] = std::array::from_fn(|i| h[pi[i] as usize]);
                coset[PERM8.rank(&q) as usize] = representative.len() as u16;
            }
            representative.push(pi);
        }
        assert_eq!(representative.len(), CORNER_COSETS, "8!/96 cosets");
        SquaresCorners {
            coset,
            index,
            representative: representative.into_boxed_slice(),
        }
    }

    /// The coset of the corner permutation `cp` (slot → piece).
    #[inline]
    pub fn coset_of(&self, cp: &[u8; 8]) -> u16 {
        self.coset[PERM8.rank(cp) as usize]
    }
}

impl std::fmt::Debug for SquaresCorners {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SquaresCorners({} cosets)", self.representative.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Cube, Move, Rng};

    /// Every move carries a coset onto one coset, and the group onto itself exactly under
    /// half turns.
    #[test]
    fn moves_act_on_cosets() {
        let s = SquaresCorners::get();
        let mut rng = Rng::new(3);
        for _ in 0..300 {
            let c = Cube::random(&mut rng);
            let h = Cube::from_parts(
                corner_group()[rng.below(96) as usize],
                [0; 8],
                std::array::from_fn(|i| i as u8),
                [0; 12],
            );
            // h·c relabels c's pieces by h: the same coset.
            let hc = h.compose(&c);
            assert_eq!(s.coset_of(&hc.cp()), s.coset_of(&c.cp()));
            for m in Move::all() {
                assert_eq!(
                    s.coset_of(&hc.apply(m).cp()),
                    s.coset_of(&c.apply(m).cp()),
                    "{m}"
                );
            }
        }
        for m in Move::all() {
            let inside = s.index[PERM8.rank(&m.cube().cp()) as usize] != OUTSIDE;
            assert_eq!(inside, m.quarter_turns() == 2, "{m}");
            assert_eq!(s.coset_of(&m.cube().cp()) == 0, inside, "{m}");
        }
    }
}
