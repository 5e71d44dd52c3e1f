//! Uniformly random positions, reproducible from a seed.
//!
//! The generator is our own xoshiro256** seeded through SplitMix64, so a seed gives the same
//! positions on every platform and every version of our dependencies. A random position is a
//! uniform corner permutation, a uniform edge permutation of the same parity, and uniform
//! orientations with the last corner and edge fixed by the sum rules: every one of the
//! 43,252,003,274,489,856,000 positions has the same probability.

use super::cubie::{Cube, parity};
use super::moves::{Move, allowed_after};

/// xoshiro256** (Blackman & Vigna), seeded with SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose whole output is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let r = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        r
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Fills `perm` so that each orbit's places hold that orbit's pieces (piece numbers are
    /// place numbers) in a uniformly random order.
    fn shuffle_within(&mut self, orbits: &[[usize; 4]], perm: &mut [u8]) {
        for orbit in orbits {
            let mut pieces = orbit.map(|p| p as u8);
            self.shuffle(&mut pieces);
            for (&place, piece) in orbit.iter().zip(pieces) {
                perm[place] = piece;
            }
        }
    }

    fn shuffle(&mut self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

impl Cube {
    /// A uniformly random reachable position.
    pub fn random(rng: &mut Rng) -> Cube {
        let mut cp = [0, 1, 2, 3, 4, 5, 6, 7];
        let mut ep = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
        rng.shuffle(&mut cp);
        rng.shuffle(&mut ep);
        if parity(&cp) != parity(&ep) {
            // Swapping two fixed slots is a bijection between odd and even edge permutations,
            // so the result stays uniform among edge permutations of the right parity.
            ep.swap(10, 11);
        }
        let mut co = [0u8; 8];
        let mut eo = [0u8; 12];
        for i in 0..7 {
            co[i] = rng.below(3) as u8;
        }
        co[7] = (3 - co[..7].iter().sum::<u8>() % 3) % 3;
        for i in 0..11 {
            eo[i] = rng.below(2) as u8;
        }
        eo[11] = eo[..11].iter().sum::<u8>() % 2;
        Cube::from_parts(cp, co, ep, eo)
    }

    /// A uniformly random element of the coset subgroup of the 48-symmetry tables: each corner
    /// in its own tetrad ({URF, ULB, DLF, DRB}, {UFL, UBR, DFR, DBL}) and twisted right, each
    /// edge in its own slice (E: FR FL BL BR; M: UF UB DF DB; S: UR UL DR DL), any flips with an
    /// even sum, corner and edge permutations of equal parity. The positions where a coset
    /// table reads 0: the benchmark of its blind spot.
    pub fn random_in_coset_subgroup(rng: &mut Rng) -> Cube {
        // Places of each orbit, in Kociemba's numbering; a piece stays among its orbit's places.
        const TETRADS: [[usize; 4]; 2] = [[0, 2, 5, 7], [1, 3, 4, 6]];
        const SLICES: [[usize; 4]; 3] = [[8, 9, 10, 11], [1, 3, 5, 7], [0, 2, 4, 6]];
        let mut cp = [0u8; 8];
        let mut ep = [0u8; 12];
        rng.shuffle_within(&TETRADS, &mut cp);
        rng.shuffle_within(&SLICES, &mut ep);
        if parity(&cp) != parity(&ep) {
            // Two places of the E slice: a bijection between the parities within the subgroup.
            ep.swap(10, 11);
        }
        let mut eo = [0u8; 12];
        for o in eo.iter_mut().take(11) {
            *o = rng.below(2) as u8;
        }
        eo[11] = eo[..11].iter().sum::<u8>() % 2;
        Cube::from_parts(cp, [0; 8], ep, eo)
    }

    /// A random element of the half-turn group `<U2,D2,F2,B2,L2,R2>` (663,552 positions): the
    /// end of a 60-move random walk of half turns. Near uniform, not exactly: the benchmarks
    /// that use it need varied deep elements of the group, not exact frequencies.
    pub fn random_half_turn(rng: &mut Rng) -> Cube {
        let mut c = Cube::SOLVED;
        for _ in 0..60 {
            let face = rng.below(6) as usize;
            c = c.compose(Move::from_index(3 * face + 1).cube());
        }
        c
    }
}

/// A random canonical move sequence of `len` moves (no face twice in a row, opposite faces in
/// one order only), each move uniform among those allowed after the previous one.
pub fn random_scramble(rng: &mut Rng, len: usize) -> Vec<Move> {
    let mut seq: Vec<Move> = Vec::with_capacity(len);
    for _ in 0..len {
        let prev = seq.last().copied();
        let allowed: Vec<Move> = Move::all().filter(|&m| allowed_after(prev, m)).collect();
        seq.push(allowed[rng.below(allowed.len() as u64) as usize]);
    }
    seq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_positions() {
        let a: Vec<Cube> = (0..5)
            .map({
                let mut r = Rng::new(7);
                move |_| Cube::random(&mut r)
            })
            .collect();
        let mut r = Rng::new(7);
        for c in &a {
            assert_eq!(*c, Cube::random(&mut r));
            assert_eq!(c.validate(), Ok(()));
        }
        let mut r = Rng::new(8);
        assert_ne!(a[0], Cube::random(&mut r));
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn corner_positions_are_uniform() {
        // Each corner piece should land in each slot with probability 1/8, each twist 1/3.
        let mut r = Rng::new(3);
        let mut at0 = [0u32; 8];
        let mut tw = [0u32; 3];
        for _ in 0..40_000 {
            let c = Cube::random(&mut r);
            at0[c.corner_perm(0) as usize] += 1;
            tw[c.corner_ori(7) as usize] += 1;
        }
        for n in at0 {
            assert!((4_500..5_500).contains(&n), "{at0:?}");
        }
        for n in tw {
            assert!((12_500..14_200).contains(&n), "{tw:?}");
        }
    }

    #[test]
    fn subgroup_elements_are_valid_and_varied() {
        // (The cube model sits below `coord`, which has these as `coset::edge_slice`.)
        let tetrad = |p: u8| matches!(p, 0 | 2 | 5 | 7);
        let edge_slice = |p: u8| if p >= 8 { 0 } else { 2 - (p & 1) };
        // In the coset subgroup (and, for half-turn elements, with no edge flipped).
        let check = |c: &Cube, unflipped: bool| {
            assert_eq!(c.validate(), Ok(()));
            for i in 0..8 {
                assert_eq!(tetrad(c.corner_perm(i)), tetrad(i as u8), "{c:?}");
                assert_eq!(c.corner_ori(i), 0, "{c:?}");
            }
            for i in 0..12 {
                assert_eq!(edge_slice(c.edge_perm(i)), edge_slice(i as u8), "{c:?}");
                assert!(!unflipped || c.edge_ori(i) == 0, "{c:?}");
            }
        };
        let mut rng = Rng::new(11);
        for (make, unflipped) in [
            (
                Cube::random_in_coset_subgroup as fn(&mut Rng) -> Cube,
                false,
            ),
            (Cube::random_half_turn, true),
        ] {
            let mut seen = std::collections::HashSet::new();
            for _ in 0..200 {
                let c = make(&mut rng);
                check(&c, unflipped);
                seen.insert(c);
            }
            assert!(seen.len() > 190, "{} distinct of 200", seen.len());
        }
    }

    #[test]
    fn scrambles_are_canonical() {
        let mut rng = Rng::new(9);
        for _ in 0..200 {
            let s = random_scramble(&mut rng, 12);
            for w in s.windows(2) {
                assert!(crate::cube::allowed_after(Some(w[0]), w[1]), "{s:?}");
            }
        }
    }
}
