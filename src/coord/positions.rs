//! Whole positions up to symmetry: fast conjugation of a [`Cube`] by any of the 48 symmetries,
//! and the canonical representative of a position's class under the 48 symmetries, or under
//! the 48 symmetries and inversion (96 transformations), with the class's size.
//!
//! Conjugation `S c S⁻¹` and inversion keep the distance from solved, so a breadth-first search
//! may keep one position per class (`stats::distances`). The representative is the least
//! position of the class in [`Cube::order_key`] order; the class size is the group's order over
//! the number of transformations that fix the position (its stabilizer), counted on the way.
//!
//! Conjugation here is two compositions of the cube model (SIMD shuffles), where
//! [`Symmetries::conj_cube`] goes through mirrored [`crate::coord::symmetry::SymCube`]s: a
//! mirror symmetry `S` is written as the ordinary permutation-and-twist cube `P = S` with its
//! mirror flags dropped, and `S c S⁻¹ = P · c̄ · P⁻¹` where `c̄` is `c` with its corner twists
//! negated ([`Cube::with_twists_negated`]) and `P⁻¹` the inverse in the cube model (not `S⁻¹`
//! with its flags dropped, whose twists are negated). Tested against `conj_cube` for every
//! symmetry.

use crate::coord::symmetry::symmetries;
use crate::cube::Cube;
use crate::rank::{permutation, rank_digits};

/// Number of positions of the cube: every value of [`position_rank`] is below it.
pub const POSITIONS: u128 = 43_252_003_274_489_856_000;

/// A dense index of a position in `0..POSITIONS` (injective): the corner permutation's rank,
/// the first 7 twists, the edge permutation's rank halved, the first 11 flips. Halving is
/// exact because a Lehmer rank's lowest bit is its second-to-last digit, which the other
/// digits and the permutation's parity fix, and the edge parity is the corner parity.
#[inline]
pub fn position_rank(c: &Cube) -> u128 {
    const CP: crate::rank::PartialPerm = permutation(8);
    const EP: crate::rank::PartialPerm = permutation(12);
    let (cp, co, ep, eo) = (c.cp(), c.co(), c.ep(), c.eo());
    let corners = CP.rank(&cp) * 2187 + rank_digits(&co[..7], 3) as u64;
    let edges = (EP.rank(&ep) >> 1) * 2048 + rank_digits(&eo[..11], 2) as u64;
    corners as u128 * (239_500_800 * 2048) + edges as u128
}

/// The group a class is taken under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// The 48 symmetries of the cube (rotations and mirrors).
    Symmetry,
    /// The 48 symmetries and inversion: up to 96 positions a class.
    SymmetryAndInverse,
}

impl Reduction {
    /// Number of transformations in the group.
    pub fn order(self) -> u32 {
        match self {
            Reduction::Symmetry => 48,
            Reduction::SymmetryAndInverse => 96,
        }
    }
}

/// The 48 symmetries as pairs of ordinary cubes (see the module doc).
pub struct Conjugator {
    pre: [Cube; 48],
    post: [Cube; 48],
    mirror: [bool; 48],
}

/// A class's representative and the number of transformations of the group that fix it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub cube: Cube,
    pub stabilizer: u32,
}

impl Canonical {
    /// The number of positions in the class: the group's order over the stabilizer's.
    pub fn class_size(&self, r: Reduction) -> u32 {
        r.order() / self.stabilizer
    }
}

impl Default for Conjugator {
    fn default() -> Self {
        Self::new()
    }
}

impl Conjugator {
    pub fn new() -> Conjugator {
        let syms = symmetries();
        let plain = |s: usize| {
            let c = &syms.cubes[s];
            Cube::from_parts(c.cp, c.co.map(|t| t % 3), c.ep, c.eo)
        };
        Conjugator {
            pre: std::array::from_fn(plain),
            // `S = R·M` (rotation, then the mirror's permutation `P_M`, an involution):
            // `S c S⁻¹ = R P_M c̄ P_M R⁻¹`, so the right factor is the left one's inverse.
            post: std::array::from_fn(|s| plain(s).inverse()),
            mirror: std::array::from_fn(|s| syms.cubes[s].co[0] >= 3),
        }
    }

    /// `S_s c S_s⁻¹`, equal to [`Symmetries::conj_cube`](crate::coord::symmetry::Symmetries).
    #[inline(always)]
    pub fn conj(&self, c: &Cube, s: usize) -> Cube {
        let mid = if self.mirror[s] {
            c.with_twists_negated()
        } else {
            *c
        };
        self.pre[s].compose(&mid).compose(&self.post[s])
    }

    /// The least position of `c`'s class under `r`, and its stabilizer's order.
    #[inline]
    pub fn canonical(&self, c: &Cube, r: Reduction) -> Canonical {
        let mut best = *c;
        let mut best_key = c.order_key();
        let mut stabilizer = 0;
        let inverse;
        let sides: &[Cube] = match r {
            Reduction::Symmetry => std::slice::from_ref(c),
            Reduction::SymmetryAndInverse => {
                inverse = [*c, c.inverse()];
                &inverse
            }
        };
        for side in sides {
            for s in 0..48 {
                let t = self.conj(side, s);
                let k = t.order_key();
                if k < best_key {
                    best_key = k;
                    best = t;
                    stabilizer = 1;
                } else if k == best_key {
                    stabilizer += 1;
                }
            }
        }
        Canonical {
            cube: best,
            stabilizer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng};
    use std::collections::HashSet;

    #[test]
    fn position_rank_is_dense_and_injective() {
        use crate::cube::Rng;
        use std::collections::HashSet;
        let mut rng = Rng::new(20);
        let mut seen = HashSet::new();
        let mut max = 0;
        for _ in 0..20_000 {
            let c = Cube::random(&mut rng);
            let r = position_rank(&c);
            max = max.max(r);
            assert!(seen.insert(r));
            // The last two edges and the last two corners swapped: the halved digit and the
            // corner rank both change, and the rank must too.
            let (mut cp, mut ep) = (c.cp(), c.ep());
            cp.swap(6, 7);
            ep.swap(10, 11);
            let d = Cube::from_parts(cp, c.co(), ep, c.eo());
            assert_ne!(position_rank(&d), r);
        }
        assert!(max < POSITIONS && max > POSITIONS / 2);
        assert_eq!(position_rank(&Cube::SOLVED), 0);
        assert_eq!(POSITIONS, 40320 * 2187 * 239_500_800 * 2048);
    }

    #[test]
    fn conjugation_equals_the_mirrored_cube_model() {
        let syms = symmetries();
        let k = Conjugator::new();
        let mut rng = Rng::new(31);
        for _ in 0..50 {
            let c = Cube::random(&mut rng);
            for s in 0..48 {
                assert_eq!(k.conj(&c, s), syms.conj_cube(&c, s), "symmetry {s}");
            }
        }
    }

    /// The representative is the same for every member of the class, the class is the set of
    /// transforms, and its size is the group's order over the stabilizer.
    #[test]
    fn the_representative_is_shared_by_the_class() {
        let k = Conjugator::new();
        let mut rng = Rng::new(32);
        let mut cubes: Vec<Cube> = (0..30).map(|_| Cube::random(&mut rng)).collect();
        // Symmetric positions: solved, a move, the superflip, a checkerboard.
        cubes.push(Cube::SOLVED);
        cubes.push(Cube::SOLVED.apply(Move::from_index(0)));
        cubes.push(Cube::from_moves(
            &crate::cube::parse_moves(crate::cube::SUPERFLIP).unwrap(),
        ));
        cubes.push(Cube::from_moves(
            &crate::cube::parse_moves("U2 D2 F2 B2 L2 R2").unwrap(),
        ));
        for r in [Reduction::Symmetry, Reduction::SymmetryAndInverse] {
            for c in &cubes {
                let canon = k.canonical(c, r);
                let mut class = HashSet::new();
                for side in [*c, c.inverse()] {
                    for s in 0..48 {
                        let t = k.conj(&side, s);
                        assert_eq!(k.canonical(&t, r), canon);
                        class.insert(t);
                    }
                    if r == Reduction::Symmetry {
                        break;
                    }
                }
                assert!(class.contains(&canon.cube));
                assert_eq!(class.len() as u32, canon.class_size(r), "{c:?}");
            }
        }
        assert_eq!(
            k.canonical(&Cube::SOLVED, Reduction::SymmetryAndInverse)
                .class_size(Reduction::SymmetryAndInverse),
            1
        );
        // The 18 single moves form two classes (quarter turns, half turns) under both groups.
        let classes: HashSet<Cube> = Move::all()
            .map(|m| {
                k.canonical(&Cube::SOLVED.apply(m), Reduction::Symmetry)
                    .cube
            })
            .collect();
        assert_eq!(classes.len(), 2);
    }
}
