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
//! That is 40320 · 40320 · 12 = 19,508,428,800 bits, one per element, in 12-bit words packed
//! end to end ([`super::bitmap`]: 2.44 GB a bitmap).
//!
//! A move of H applied to g moves the page by the corner move table and the word by the
//! `ud_edges` move table. The six U and D turns leave the slice alone: the word's bits stay.
//! The four half turns R2, F2, L2, B2 swap two slice edges, which changes the slice parity and
//! permutes the 12 bits: [`Moves::rearrange`] does that with two 64-entry tables per move.
//!
//! During the phase-1 enumeration the walk carries each node's cubies (`Cube`, moved by byte
//! shuffles) besides its phase-1 coordinates; on reaching H, [`Moves::element_of`] ranks them
//! into page, word and bit. (Move tables of the corner permutation and of the U and D edges'
//! places, 1.45 MB and 2 × 0.43 MB, did not stay in the 1 MB L2 cache and cost the walk more.)
//!
//! Invariant: for every g in H and every move m of H, `index(g·m)` is what [`Moves`] computes
//! from `index(g)` (checked by the tests against cubies).

use std::sync::OnceLock;

use crate::coord::{
    self, MoveTables, N_FLIP, N_MOVES, N_P2_MOVES, N_PERM8, N_SLICE, N_SLICE_PERM, N_TWIST,
    P2_MOVES, symmetry,
};
#[cfg(test)]
use crate::cube::Move;
use crate::cube::{Cube, parity};
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
/// Phase-2 moves that keep the U/D edges' parity (U2 and D2: two swaps); the other eight
/// change it (a quarter turn is a 4-cycle, a half turn R2, F2, L2 or B2 swaps one U edge with
/// one D edge). Checked against the move tables when [`Moves`] is built.
pub const SAME_PARITY: [bool; N_P2_MOVES] = {
    let mut same = [false; N_P2_MOVES];
    same[1] = true;
    same[6] = true;
    same
};

/// Parity of each 8-element Lehmer rank, a bit each: the sum of its mixed-radix digits (each
/// digit counts inversions).
const PARITY8: [u64; N_PERM8 / 64] = {
    let mut bits = [0u64; N_PERM8 / 64];
    let mut r = 0;
    while r < N_PERM8 {
        let (mut x, mut radix, mut p) = (r, 2, 0);
        while radix <= 8 {
            p ^= (x % radix) & 1;
            x /= radix;
            radix += 1;
        }
        bits[r / 64] |= (p as u64) << (r % 64);
        r += 1;
    }
    bits
};

/// Where word `e8` lies in a page: its *place*, whose last bit is the word's parity. The ranks
/// `2j` and `2j + 1` differ by a swap of the last two edges, so one of them is odd and the
/// place only swaps the two when needed. The prepass knows thereby, for each move, whether a
/// neighbour word lies at an even or an odd place, that is, how far to shift it.
#[inline(always)]
pub fn place(e8: usize) -> usize {
    e8 ^ ((e8 as u64 ^ PARITY8[e8 / 64] >> (e8 % 64)) & 1) as usize
}

/// The byte at which the word at place `at` starts in a page (shifted by 4 bits if `at` is
/// odd: 12-bit words packed end to end).
#[inline(always)]
pub const fn byte_of(at: usize) -> usize {
    at + at / 2
}

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
    /// `word_at[at * 10 + k]`: the byte ([`byte_of`]) of the word at place `at` ([`place`])
    /// moved by phase-2 move `k`: the prepass's table, by places.
    pub word_at: Vec<u16>,
    /// The same table by move, then place (`[k * WORDS + at]`), for the vector gather.
    pub word_at_by_move: Vec<u16>,
    /// Per phase-2 move `k`: `None` when it keeps the slice (U and D turns), else the
    /// rearrangement of a word's bits, by the *target* word's slice parity, split in a low and a
    /// high 6-bit table: `[parity][0 | 1][six bits]`.
    rearrange: [Option<Box<Rearrangement>>; N_P2_MOVES],
    /// The same tables for the [`MAPPED`] moves, by parity first (see [`ByParity`]).
    pub by_parity: Box<ByParity>,
    /// The moves after which each coordinate is H's (flip 0, twist 0, slice edges in the
    /// slice): `into_h.0[flip] & into_h.1[twist] & into_h.2[slice comb]` are the moves that take
    /// a node into H ([`Moves::into_h`]).
    into_h: (Vec<u32>, Vec<u32>, Vec<u32>),
    /// `comb[c * 18 + m]`: the slice edges' combination (0..495, as `coord::slice_sorted / 24`)
    /// after move `m`.
    pub comb: Vec<u16>,
    /// The bit of a word ([`HALF`]) of a position of H, by the slice edges' order packed two
    /// bits a slot ([`Moves::slice_bit`]).
    slice_bit: [u8; 256],
}

/// One half turn's bit rearrangement: `[target parity][low | high six bits][bits]`.
type Rearrangement = [[[u16; 64]; 2]; 2];

/// The phase-2 moves (indices into [`P2_MOVES`]) that keep the slice: U and D turns.
pub const COPIED: [usize; 6] = [0, 1, 2, 5, 6, 7];
/// The phase-2 moves that permute the slice: the half turns R2, F2, L2, B2.
pub const MAPPED: [usize; 4] = [3, 4, 8, 9];

/// The four [`MAPPED`] moves' rearrangements by the target's parity first, so that the
/// prepass finds a word's four tables together: `[parity][j][low | high six bits][bits]`.
pub type ByParity = [[[[u16; 64]; 2]; MAPPED.len()]; 2];

impl Moves {
    /// The tables, built once per process (well under a second).
    pub fn get() -> &'static Moves {
        static MOVES: OnceLock<Moves> = OnceLock::new();
        MOVES.get_or_init(Moves::new)
    }

    fn new() -> Moves {
        let mv = MoveTables::get();
        let parity8: Vec<u8> = (0..N_PERM8)
            .map(|r| {
                let mut p = [0u8; 8];
                PERM8.unrank(r as u64, &mut p);
                parity(&p)
            })
            .collect();
        for (e8, &p) in parity8.iter().enumerate() {
            assert_eq!(place(e8) & 1, p as usize, "the place of word {e8}");
            for (k, &same) in SAME_PARITY.iter().enumerate() {
                let to = mv.ud_edges[e8 * N_P2_MOVES + k] as usize;
                assert_eq!(parity8[to] == p, same, "move {k}'s parity");
            }
        }
        let word_at: Vec<u16> = (0..WORDS * N_P2_MOVES)
            .map(|i| {
                let (at, k) = (i / N_P2_MOVES, i % N_P2_MOVES);
                byte_of(place(mv.ud_edges[place(at) * N_P2_MOVES + k] as usize)) as u16
            })
            .collect();
        let word_at_by_move = (0..WORDS * N_P2_MOVES)
            .map(|i| word_at[i % WORDS * N_P2_MOVES + i / WORDS])
            .collect();
        let rearrange: [Option<Box<Rearrangement>>; N_P2_MOVES] =
            std::array::from_fn(|k| rearrangement(mv, k));
        for k in 0..N_P2_MOVES {
            assert_eq!(rearrange[k].is_none(), COPIED.contains(&k), "move {k}");
            assert!(COPIED.contains(&k) != MAPPED.contains(&k), "move {k}");
        }
        let by_parity = Box::new(std::array::from_fn(|p| {
            std::array::from_fn(|j| rearrange[MAPPED[j]].as_ref().expect("a half turn")[p])
        }));
        let into = |n: usize, home: &dyn Fn(usize, usize) -> bool| -> Vec<u32> {
            (0..n)
                .map(|x| {
                    (0..N_MOVES)
                        .filter(|&m| home(x, m))
                        .fold(0, |b, m| b | 1 << m)
                })
                .collect()
        };
        let comb = (0..N_SLICE * N_MOVES)
            .map(|i| {
                let (c, m) = (i / N_MOVES, i % N_MOVES);
                mv.slice_sorted[c * N_SLICE_PERM * N_MOVES + m] / N_SLICE_PERM as u16
            })
            .collect::<Vec<u16>>();
        let into_h = (
            into(N_FLIP, &|f, m| mv.flip[f * N_MOVES + m] == 0),
            into(N_TWIST, &|t, m| mv.twist[t * N_MOVES + m] == 0),
            into(N_SLICE, &|c, m| comb[c * N_MOVES + m] == 0),
        );
        let mut slice_bit = [0u8; 256];
        for (e4, &(_, bit)) in half().iter().enumerate() {
            let mut order = [0u8; 4];
            PERM4.unrank(e4 as u64, &mut order);
            let key = order.iter().rev().fold(0, |k, &o| k << 2 | o as usize);
            slice_bit[key] = bit;
        }
        Moves {
            into_h,
            comb,
            slice_bit,
            mv,
            parity8,
            word_at,
            word_at_by_move,
            rearrange,
            by_parity,
        }
    }

    /// The moves that take a node with these phase-1 coordinates (`comb` the slice edges'
    /// combination, 0..495) into H: three small lookups instead of every move's three.
    #[inline(always)]
    pub fn into_h(&self, flip: u16, twist: u16, comb: u16) -> u32 {
        let (f, t, c) = &self.into_h;
        f[flip as usize] & t[twist as usize] & c[comb as usize]
    }

    /// The page, word and bit of a position of H given as cube bytes (`Cube::corner_bytes`,
    /// `Cube::edge_bytes`): the corners' and U/D edges' ranks, and the slice permutation's bit
    /// from its four slots' pieces, whose low two bits are their order.
    #[inline(always)]
    pub fn element_of(&self, corners: &[u8; 16], edges: &[u8; 16]) -> (usize, usize, u16) {
        let slice = u32::from_le_bytes([edges[8], edges[9], edges[10], edges[11]]) & 0x0303_0303;
        // Two bits a slot, slot 8 lowest.
        let key = (slice | slice >> 6 | slice >> 12 | slice >> 18) & 0xff;
        (
            PERM8.rank_nibbles::<0>(corners) as usize,
            PERM8.rank_nibbles::<0>(edges) as usize,
            1 << self.slice_bit[key as usize],
        )
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
        map_word(&t[p as usize], w)
    }
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
        map_bit(&mut t[p as usize], from, bit);
    }
    Some(t)
}

/// Makes source bit `from` set target bit `to` in one parity's pair of 6-bit tables, in
/// whichever half `from` lies.
fn map_bit(t: &mut [[u16; 64]; 2], from: u8, to: u8) {
    let (part, low) = ((from / 6) as usize, from % 6);
    for w in 0..64usize {
        if w >> low & 1 == 1 {
            t[part][w] |= 1 << to;
        }
    }
}

/// A word's bits through one parity's pair of 6-bit tables (see [`map_bit`]).
#[inline(always)]
fn map_word(t: &[[u16; 64]; 2], w: u16) -> u16 {
    t[0][(w & 63) as usize] | t[1][(w >> 6 & 63) as usize]
}

/// A map of H onto itself that acts on each of its three permutations alone: inversion
/// (`g⁻¹` has the inverse corner, U/D-edge and slice permutations) and conjugation by each of
/// the 16 symmetries that keep the UD axis (which keep U/D edges and slice edges apart). So the
/// image's page depends on the page only, its word on the word only, and its bit on the bit
/// (and the parity, which every such map keeps). H's set of elements within `d` moves is closed
/// under all of them, since each takes a sequence to one as long ([`super::bitmap::Bitmap::close_under`]).
pub struct Relabel {
    /// The image's page by the page.
    pub page: Vec<u16>,
    /// The image's word by the word.
    pub word: Vec<u16>,
    /// A word's bits moved to the images' bits, by slice parity: `[parity][low | high six
    /// bits][bits]`, as [`Moves::rearrange`].
    bits: Rearrangement,
}

impl Relabel {
    /// The map `f`, tabulated from the cubies (`f` must act part by part, as above).
    fn new(f: impl Fn(&Cube) -> Cube) -> Relabel {
        let t = Moves::get();
        // An element with the given permutation in one part and the identity (or, for the
        // slice, the first permutation of the right parity) in the others.
        let e4_of = |p: u8| e4_at(p, 0);
        let page = (0..PAGES)
            .map(|c| index_of(&f(&element(c, 0, e4_of(t.parity8[c])))).0 as u16)
            .collect();
        let word = (0..WORDS)
            .map(|e8| index_of(&f(&element(0, e8, e4_of(t.parity8[e8])))).1 as u16)
            .collect();
        let mut bits = [[[0u16; 64]; 2]; 2];
        let half = half();
        for (e4, &(p, bit)) in half.iter().enumerate() {
            let e8 = (0..WORDS)
                .find(|&e8| t.parity8[e8] == p)
                .expect("both parities");
            let (p2, to) = half[index_of(&f(&element(0, e8, e4))).2];
            debug_assert_eq!(p2, p);
            map_bit(&mut bits[p as usize], bit, to);
        }
        Relabel { page, word, bits }
    }

    /// The conjugations by the 15 symmetries that keep the UD axis other than the identity.
    pub fn conjugations() -> &'static [Relabel] {
        &Self::of_h()[..symmetry::N_SYM_UD - 1]
    }

    /// Inversion.
    pub fn inverse() -> &'static Relabel {
        &Self::of_h()[symmetry::N_SYM_UD - 1]
    }

    /// The conjugations, then inversion; built once per process (about a second).
    fn of_h() -> &'static [Relabel] {
        static MAPS: OnceLock<Vec<Relabel>> = OnceLock::new();
        MAPS.get_or_init(|| {
            let syms = symmetry::symmetries();
            let mut maps: Vec<Relabel> = (1..symmetry::N_SYM_UD)
                .map(|s| Relabel::new(|g| syms.conj_cube(g, s)))
                .collect();
            maps.push(Relabel::new(Cube::inverse));
            maps
        })
    }

    /// The bits of the images of the elements at bits `w` of a word of slice parity `p`.
    #[inline(always)]
    pub fn bits(&self, p: u8, w: u16) -> u16 {
        map_word(&self.bits[p as usize], w)
    }
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

    /// Page, word and bit follow the cubies under every move of H, [`Moves::element_of`] finds
    /// them from the cube bytes, and the moves into H and the slice combination follow the
    /// cubies under every move.
    #[test]
    fn moves_of_h_follow_the_cubies() {
        let t = Moves::get();
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let g = random_h(&mut rng);
            let (c, e8, e4) = index_of(&g);
            assert_eq!(element(c, e8, e4), g);
            let got = t.element_of(g.corner_bytes(), g.edge_bytes());
            assert_eq!(got, (c, e8, 1 << half()[e4].1));
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
        // The moves into H, against the cubies: from random positions one move from H (where
        // some move goes in) and from random positions (where, almost always, none does).
        for i in 0..600 {
            let x = if i % 2 == 0 {
                random_h(&mut rng).apply(Move::from_index(rng.below(18) as usize))
            } else {
                Cube::random(&mut rng)
            };
            let comb = coord::slice_sorted(&x.ep()) / N_SLICE_PERM as u16;
            let got = t.into_h(coord::flip(&x.eo()), coord::twist(&x.co()), comb);
            for m in 0..N_MOVES {
                let y = x.apply(Move::from_index(m));
                let comb2 = coord::slice_sorted(&y.ep()) / N_SLICE_PERM as u16;
                assert_eq!(t.comb[comb as usize * N_MOVES + m], comb2);
                let in_h = coord::flip(&y.eo()) == 0
                    && coord::twist(&y.co()) == 0
                    && (coord::slice_sorted(&y.ep()) as usize) < N_SLICE_PERM;
                assert_eq!(got >> m & 1 == 1, in_h, "move {m} from {x:?}");
            }
        }
        assert_eq!(ELEMENTS, 19_508_428_800);
    }

    /// Every [`Relabel`] of H finds page, word and bit of its image from those of `g`, against
    /// the cubies: the 15 conjugations, then the inverse.
    #[test]
    fn relabels_follow_the_cubies() {
        let (t, maps) = (Moves::get(), Relabel::of_h());
        assert!(std::ptr::eq(&maps[15], Relabel::inverse()));
        assert_eq!(Relabel::conjugations().len(), 15);
        let syms = symmetry::symmetries();
        assert_eq!(maps.len(), 16);
        let mut rng = Rng::new(6);
        for _ in 0..100 {
            let g = random_h(&mut rng);
            let (c, e8, e4) = index_of(&g);
            for (i, r) in maps.iter().enumerate() {
                let image = if i < 15 {
                    syms.conj_cube(&g, i + 1)
                } else {
                    g.inverse()
                };
                let (c2, e82, e42) = index_of(&image);
                assert_eq!(
                    (r.page[c] as usize, r.word[e8] as usize),
                    (c2, e82),
                    "map {i}"
                );
                let (p, bit) = half()[e4];
                assert_eq!(r.bits(p, 1 << bit), 1 << half()[e42].1, "map {i}");
                assert_eq!(p, t.parity8[c2] ^ t.parity8[e82]);
            }
        }
    }
}
