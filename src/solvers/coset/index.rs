//! Where an element of H = <U, D, R2, L2, F2, B2> lives in the coset bitmap, and the tables
//! that move the coordinates the phase-1 enumeration tracks.
//!
//! An element g of H has no twist, flip or slice displacement, so it is three permutations:
//! - `c`: the corners, 0..8! (Lehmer rank, as `coord::corners`): the bitmap's *page*;
//! - `e8`: the eight U- and D-layer edges, 0..8! (as `coord::ud_edges`): the *word* in the page;
//! - `e4`: the four slice edges, 0..24 (as `coord::slice_sorted` in G1): the *bit* in the word.
//!
//! Corner and edge permutations have equal parity, so `parity(e4) = parity(c) ⊕ parity(e8)`:
//! given page and word, only the 12 slice permutations of one parity can occur. A word keeps
//! them in its low 12 bits, each permutation at its rank among those of its parity ([`HALF`]).
//! That is 40320 · 40320 · 12 = 19,508,428,800 bits, one per element, in 16-bit words (3.25 GB
//! a bitmap; the last 4 bits of a word are always 0).
//!
//! A move of H applied to g moves the page by the corner move table and the word by the
//! `ud_edges` move table. The six U and D turns leave the slice alone: the word's bits stay.
//! The four half turns R2, F2, L2, B2 swap two slice edges, which changes the slice parity and
//! permutes the 12 bits: [`Moves::rearrange`] does that with two 64-entry tables per move.
//!
//! During the phase-1 enumeration the U/D edges are not in their layers, so instead of `e8` the
//! search tracks where the four U edges are and where the four D edges are (`PartialPerm(12,4)`
//! ranks, 11880 values each, like Kociemba's `UEdges`/`DEdges`). On reaching H both sets are
//! inside slots 0..8 and [`Moves::e8_of`] combines them into `e8` with one table lookup.
//!
//! Invariant: for every g in H and every move m of H, `index(g·m)` is what [`Moves`] computes
//! from `index(g)` (checked by the tests against cubies).

use std::sync::OnceLock;

use crate::coord::{self, MoveTables, N_MOVES, N_P2_MOVES, N_PERM8, N_SLICE_PERM, P2_MOVES};
use crate::cube::{Cube, Move, parity};
use crate::rank::{PartialPerm, permutation};

/// Pages: corner permutations.
pub const PAGES: usize = N_PERM8;
/// Words a page: U/D edge permutations.
pub const WORDS: usize = N_PERM8;
/// Bits used in a word: the slice permutations of one parity.
pub const BITS: usize = N_SLICE_PERM / 2;
/// Elements of H, which is the size of every coset: 8! · 8! · 4! / 2.
pub const ELEMENTS: u64 = (PAGES * WORDS * BITS) as u64;
/// The bits of a word that hold elements.
pub const WORD_MASK: u16 = (1 << BITS) - 1;
/// Values of the U-edge and D-edge place coordinates: 12 · 11 · 10 · 9.
pub const N_PLACES: usize = 11880;
/// U-edge place values inside the U/D layers: 8 · 7 · 6 · 5.
const N_PLACES_IN_LAYERS: usize = 1680;

const PLACES: PartialPerm = PartialPerm::new(12, 4);
const PERM4: PartialPerm = permutation(4);
const PERM8: PartialPerm = permutation(8);

/// `HALF[e4] = (parity, rank among the slice permutations of that parity)`.
pub static HALF: OnceLock<[(u8, u8); N_SLICE_PERM]> = OnceLock::new();

/// [`HALF`], built once.
pub fn half() -> &'static [(u8, u8); N_SLICE_PERM] {
    HALF.get_or_init(|| {
        let mut seen = [0u8; 2];
        std::array::from_fn(|e4| {
            let mut order = [0u8; 4];
            PERM4.unrank(e4 as u64, &mut order);
            let p = parity(&order);
            seen[p as usize] += 1;
            (p, seen[p as usize] - 1)
        })
    })
}

/// The slice permutation at bit `bit` of a word whose slice parity is `p`.
pub fn e4_at(p: u8, bit: usize) -> usize {
    (0..N_SLICE_PERM)
        .find(|&e4| half()[e4] == (p, bit as u8))
        .expect("12 permutations of each parity")
}

/// The tables of the coset solver's coordinates.
pub struct Moves {
    pub mv: &'static MoveTables,
    /// Parity of each 8-element Lehmer rank (corners and U/D edges alike).
    pub parity8: Vec<u8>,
    /// `places[x * 18 + m]`: the U-edge (or D-edge) place coordinate after move `m`.
    pub places: Vec<u16>,
    /// U-edge place value → 0..1680 when all four are in the U/D layers, else `u16::MAX`.
    in_layers: Vec<u16>,
    /// D-edge place value → the order of the D edges among their (sorted) slots, 0..24.
    d_order: Vec<u8>,
    /// `e8[in_layers(u) * 24 + d_order(d)]`: the U/D edge permutation.
    e8: Vec<u16>,
    /// Per phase-2 move `k`: `None` when it keeps the slice (U and D turns), else the
    /// rearrangement of a word's bits, by the *target* word's slice parity, split in a low and a
    /// high 6-bit table: `[parity][0 | 1][six bits]`.
    rearrange: [Option<Box<Rearrangement>>; N_P2_MOVES],
}

/// One half turn's bit rearrangement: `[target parity][low | high six bits][bits]`.
type Rearrangement = [[[u16; 64]; 2]; 2];

impl Moves {
    /// The tables, built once per process (well under a second).
    pub fn get() -> &'static Moves {
        static MOVES: OnceLock<Moves> = OnceLock::new();
        MOVES.get_or_init(Moves::new)
    }

    fn new() -> Moves {
        let mv = MoveTables::get();
        let parity8 = (0..N_PERM8)
            .map(|r| {
                let mut p = [0u8; 8];
                PERM8.unrank(r as u64, &mut p);
                parity(&p)
            })
            .collect();
        let mut places = Vec::with_capacity(N_PLACES * N_MOVES);
        let mut in_layers = vec![u16::MAX; N_PLACES];
        let mut d_order = vec![0u8; N_PLACES];
        let mut inside = 0;
        for x in 0..N_PLACES {
            let slots = unrank_places(x);
            let cube = cube_with_edges_at(&slots);
            for m in Move::all() {
                places.push(places_of(&cube.apply(m), 0));
            }
            if slots.iter().all(|&s| s < 8) {
                in_layers[x] = inside;
                inside += 1;
            }
            let mut sorted = slots;
            sorted.sort_unstable();
            let order: [u8; 4] =
                std::array::from_fn(|i| sorted.iter().position(|&s| s == slots[i]).unwrap() as u8);
            d_order[x] = PERM4.rank(&order) as u8;
        }
        debug_assert_eq!(inside as usize, N_PLACES_IN_LAYERS);
        let mut e8 = vec![0u16; N_PLACES_IN_LAYERS * N_SLICE_PERM];
        for r in 0..N_PERM8 {
            let ep = coord::ud_edges_perm(r);
            let cube = Cube::from_parts(Cube::SOLVED.cp(), [0; 8], ep, [0; 12]);
            let (u, d) = (places_of(&cube, 0), places_of(&cube, 4));
            e8[in_layers[u as usize] as usize * N_SLICE_PERM + d_order[d as usize] as usize] =
                r as u16;
        }
        let rearrange = std::array::from_fn(|k| rearrangement(mv, k));
        Moves {
            mv,
            parity8,
            places,
            in_layers,
            d_order,
            e8,
            rearrange,
        }
    }

    /// The U/D edge permutation of a position of H, from its U-edge and D-edge places.
    #[inline(always)]
    pub fn e8_of(&self, u: u16, d: u16) -> usize {
        let inside = self.in_layers[u as usize] as usize;
        debug_assert!(inside < N_PLACES_IN_LAYERS, "U edges outside their layers");
        self.e8[inside * N_SLICE_PERM + self.d_order[d as usize] as usize] as usize
    }

    /// Does phase-2 move `k` keep the slice edges where they are?
    #[inline(always)]
    pub fn keeps_slice(&self, k: usize) -> bool {
        self.rearrange[k].is_none()
    }

    /// The bits of a target word of slice parity `p` set by the source word `w` under phase-2
    /// move `k`: target `e4` is set when the source has `e4 · m` ([`Moves::keeps_slice`] moves
    /// copy the word instead).
    #[inline(always)]
    pub fn rearrange(&self, k: usize, p: u8, w: u16) -> u16 {
        let t = self.rearrange[k]
            .as_ref()
            .expect("a move that permutes the slice");
        let t = &t[p as usize];
        t[0][(w & 63) as usize] | t[1][(w >> 6 & 63) as usize]
    }
}

/// The places coordinate of the four edges `first..first+4` (U edges: 0, D edges: 4).
pub fn places_of(cube: &Cube, first: u8) -> u16 {
    let ep = cube.ep();
    let slots: [u8; 4] =
        std::array::from_fn(|i| ep.iter().position(|&e| e == first + i as u8).unwrap() as u8);
    PLACES.rank(&slots) as u16
}

fn unrank_places(x: usize) -> [u8; 4] {
    let mut slots = [0u8; 4];
    PLACES.unrank(x as u64, &mut slots);
    slots
}

/// A cube with edges 0..4 in `slots` (in order) and the other edges filling the rest in order.
fn cube_with_edges_at(slots: &[u8; 4]) -> Cube {
    let mut ep = [u8::MAX; 12];
    for (i, &s) in slots.iter().enumerate() {
        ep[s as usize] = i as u8;
    }
    for (next, e) in (4..).zip(ep.iter_mut().filter(|e| **e == u8::MAX)) {
        *e = next;
    }
    Cube::from_parts(Cube::SOLVED.cp(), [0; 8], ep, [0; 12])
}

/// Phase-2 move `k`'s bit rearrangement (see [`Moves::rearrange`]), or `None` if it keeps the
/// slice.
fn rearrangement(mv: &MoveTables, k: usize) -> Option<Box<Rearrangement>> {
    let moved = |e4: usize| mv.slice_sorted[e4 * N_MOVES + P2_MOVES[k]] as usize;
    if (0..N_SLICE_PERM).all(|e4| moved(e4) == e4) {
        return None;
    }
    let half = half();
    let mut t = Box::new([[[0u16; 64]; 2]; 2]);
    for target in 0..N_SLICE_PERM {
        let (p, bit) = half[target];
        let (_, from) = half[moved(target)];
        // Source bit `from` sets target bit `bit`, in whichever 6-bit half `from` lies.
        let (part, low) = ((from / 6) as usize, from % 6);
        for w in 0..64usize {
            if w >> low & 1 == 1 {
                t[p as usize][part][w] |= 1 << bit;
            }
        }
    }
    Some(t)
}

/// The element of H with these three permutations.
pub fn element(c: usize, e8: usize, e4: usize) -> Cube {
    let mut ep = coord::ud_edges_perm(e8);
    ep[8..].copy_from_slice(&coord::slice_sorted_edges(e4)[8..]);
    Cube::from_parts(coord::corners_perm(c), [0; 8], ep, [0; 12])
}

/// The page, word and slice permutation of an element of H.
pub fn index_of(g: &Cube) -> (usize, usize, usize) {
    (
        coord::corners(&g.cp()) as usize,
        coord::ud_edges(&g.ep()) as usize,
        coord::slice_sorted(&g.ep()) as usize,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    fn random_h(rng: &mut Rng) -> Cube {
        let mut g = Cube::SOLVED;
        for _ in 0..60 {
            g = g.apply(Move::from_index(P2_MOVES[rng.below(10) as usize]));
        }
        g
    }

    /// Page, word and bit follow the cubies under every move of H, and the places coordinates
    /// follow them under every move.
    #[test]
    fn moves_of_h_follow_the_cubies() {
        let t = Moves::get();
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let g = random_h(&mut rng);
            let (c, e8, e4) = index_of(&g);
            assert_eq!(element(c, e8, e4), g);
            assert_eq!(t.e8_of(places_of(&g, 0), places_of(&g, 4)), e8);
            let (p, bit) = half()[e4];
            assert_eq!(p, t.parity8[c] ^ t.parity8[e8]);
            for k in 0..N_P2_MOVES {
                let h = g.apply(Move::from_index(P2_MOVES[k]));
                let (c2, e82, e42) = index_of(&h);
                assert_eq!(t.mv.corners[c * N_MOVES + P2_MOVES[k]] as usize, c2);
                assert_eq!(t.mv.ud_edges[e8 * N_P2_MOVES + k] as usize, e82);
                // The target word (of h's parity) gets h's bit from g's bit: a target reads its
                // source at target · m, which is g again because the moves that permute the
                // slice are half turns.
                let (p2, bit2) = half()[e42];
                let got = if t.keeps_slice(k) {
                    1u16 << bit
                } else {
                    t.rearrange(k, p2, 1 << bit)
                };
                assert_eq!(got, 1 << bit2, "move {k}");
            }
        }
        for _ in 0..300 {
            let x = Cube::random(&mut rng);
            let m = rng.below(18) as usize;
            let y = x.apply(Move::from_index(m));
            for first in [0, 4] {
                let px = places_of(&x, first) as usize;
                assert_eq!(t.places[px * N_MOVES + m], places_of(&y, first));
            }
        }
        assert_eq!(ELEMENTS, 19_508_428_800);
    }
}
