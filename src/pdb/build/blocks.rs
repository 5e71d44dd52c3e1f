//! Block structure of the pattern indices, which the BFS generator works on.
//!
//! Every pattern index (see [`crate::pdb::pattern`]) is `block · INNER + inner`:
//! - corners: block = rank of the 8 corners' positions (8!), inner = their twist digits (3^7);
//!   the corner permutation alone: the same blocks, one entry each;
//! - k-edge patterns: block = rank of the k edges' positions, inner = their flip bits (2^k);
//! - edge permutation: the Lehmer rank of 12 positions splits as block = rank of the first six
//!   edges' positions (12!/6!) and inner = rank of the relative order of the last six (6!),
//!   because a Lehmer digit counts the *later* smaller elements.
//!
//! A move relabels positions and adds an orientation change that depends only on the position.
//! So all entries of one block move to one block, and the inner indices follow a map fixed by
//! (block, move): an XOR mask for flips, a digit-wise addition mod 3 for twists, a permutation
//! of relative orders for the edge permutation. The generator therefore ranks neighbours once
//! per block and move instead of once per entry, and each (block, move) pair touches two small
//! blocks (64 bytes for 7 edges), which keeps its memory accesses cache-friendly.
//!
//! Invariant (tested against [`Pattern::neighbours`]): for every index `i = b·INNER + x` and
//! move `m`, the neighbour is `image(b, m).0 · INNER + apply(image(b, m).1, x)`.

use crate::cube::Move;
#[cfg(test)]
use crate::pdb::family::Pattern;
use crate::pdb::layout::Layout;
use crate::rank::{PartialPerm, permutation, rank_digits};
use std::sync::OnceLock;

const PERM8: PartialPerm = permutation(8);
const PERM6: PartialPerm = permutation(6);
const PICK6: PartialPerm = PartialPerm::new(12, 6);

/// Corner byte (low nibble position, high nibble twist change) of `m⁻¹` at each position: the
/// relabelling of a tracked piece's slot in the inverse cube when `m` is applied.
#[inline(always)]
fn corner_relabel(m: usize) -> &'static [u8; 16] {
    Move::from_index(m).inverse_cube().corner_bytes()
}

#[inline(always)]
fn edge_relabel(m: usize) -> &'static [u8; 16] {
    Move::from_index(m).inverse_cube().edge_bytes()
}

/// Digit-wise sum mod 3 of two base-3 numbers of `DIGITS` digits.
const fn twist_add_table<const N: usize>(digits: u32) -> [[u8; N]; N] {
    let mut t = [[0u8; N]; N];
    let mut a = 0;
    while a < N {
        let mut b = 0;
        while b < N {
            let (mut x, mut y, mut r, mut place) = (a as u32, b as u32, 0u32, 1u32);
            let mut k = 0;
            while k < digits {
                r += ((x % 3 + y % 3) % 3) * place;
                x /= 3;
                y /= 3;
                place *= 3;
                k += 1;
            }
            t[a][b] = r as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

/// Sums of the three high twist digits and of the four low ones: 2187 = 27 · 81.
static ADD27: [[u8; 27]; 27] = twist_add_table::<27>(3);
static ADD81: [[u8; 81]; 81] = twist_add_table::<81>(4);

/// The corners' positions of block `b` of the corner layouts (the Lehmer rank of 8).
#[inline]
fn corner_positions(b: u64) -> [u8; 8] {
    let mut pos = [0u8; 8];
    PERM8.unrank(b, &mut pos);
    pos
}

/// Corners: 8! blocks of 3^7 twists.
pub(crate) struct CornerLayout;

impl Layout for CornerLayout {
    const INNER: u32 = 2187;
    type Pos = [u8; 8];
    /// Twist changes of the three high and four low digits, as base-3 numbers.
    type Map = (u8, u8);

    fn blocks(&self) -> u64 {
        PERM8.size()
    }

    #[inline]
    fn positions(&self, b: u64) -> [u8; 8] {
        corner_positions(b)
    }

    #[inline]
    fn image(&self, pos: &[u8; 8], m: usize) -> (u64, (u8, u8)) {
        let r = corner_relabel(m);
        let moved: [u8; 8] = std::array::from_fn(|i| r[pos[i] as usize]);
        let new_pos = moved.map(|c| c & 0x0f);
        let twist = moved.map(|c| c >> 4);
        let hi = rank_digits(&twist[..3], 3) as u8;
        let lo = rank_digits(&twist[3..7], 3) as u8;
        (PERM8.rank(&new_pos), (hi, lo))
    }

    #[inline(always)]
    fn apply(&self, (hi, lo): (u8, u8), x: u32) -> u32 {
        let (xh, xl) = (x / 81, x % 81);
        ADD27[hi as usize][xh as usize] as u32 * 81 + ADD81[lo as usize][xl as usize] as u32
    }
}

/// Corner permutation: 8! blocks of one entry (twists ignored).
pub(crate) struct CornerPermLayout;

impl Layout for CornerPermLayout {
    const INNER: u32 = 1;
    type Pos = [u8; 8];
    type Map = ();

    fn blocks(&self) -> u64 {
        PERM8.size()
    }

    #[inline]
    fn positions(&self, b: u64) -> [u8; 8] {
        corner_positions(b)
    }

    #[inline]
    fn image(&self, pos: &[u8; 8], m: usize) -> (u64, ()) {
        let r = corner_relabel(m);
        (PERM8.rank(&pos.map(|p| r[p as usize] & 0x0f)), ())
    }

    #[inline(always)]
    fn apply(&self, _: (), x: u32) -> u32 {
        x
    }
}

/// `K` edges starting at piece `start`: 12!/(12-K)! blocks of 2^K flips.
/// The layout does not depend on which edges are tracked, only the solved index does.
pub(crate) struct EdgeLayout<const K: usize>;

impl<const K: usize> EdgeLayout<K> {
    const PICK: PartialPerm = PartialPerm::new(12, K);
}

impl<const K: usize> Layout for EdgeLayout<K> {
    const INNER: u32 = 1 << K;
    type Pos = [u8; K];
    /// Flip changes as a bit mask.
    type Map = u32;

    fn blocks(&self) -> u64 {
        Self::PICK.size()
    }

    #[inline]
    fn positions(&self, b: u64) -> [u8; K] {
        let mut pos = [0u8; K];
        Self::PICK.unrank(b, &mut pos);
        pos
    }

    #[inline]
    fn image(&self, pos: &[u8; K], m: usize) -> (u64, u32) {
        let r = edge_relabel(m);
        let moved: [u8; K] = std::array::from_fn(|i| r[pos[i] as usize]);
        let new_pos = moved.map(|e| e & 0x0f);
        let flips = moved.map(|e| e >> 4);
        (Self::PICK.rank(&new_pos), rank_digits(&flips, 2))
    }

    #[inline(always)]
    fn apply(&self, mask: u32, x: u32) -> u32 {
        x ^ mask
    }
}

/// Edge permutation: 12!/6! blocks (first six edges) of 6! relative orders (last six).
pub(crate) struct EdgePermLayout {
    /// `compose[ρ · 720 + x]`: rank of the relative order `x` relabelled by the permutation
    /// of rank `ρ`.
    compose: &'static [u16],
}

impl EdgePermLayout {
    pub fn new() -> EdgePermLayout {
        static COMPOSE: OnceLock<Vec<u16>> = OnceLock::new();
        let compose = COMPOSE.get_or_init(|| {
            let mut t = vec![0u16; 720 * 720];
            let (mut rho, mut x) = ([0u8; 6], [0u8; 6]);
            for r in 0..720 {
                PERM6.unrank(r, &mut rho);
                for i in 0..720 {
                    PERM6.unrank(i, &mut x);
                    let y = x.map(|v| rho[v as usize]);
                    t[(r * 720 + i) as usize] = PERM6.rank(&y) as u16;
                }
            }
            t
        });
        EdgePermLayout { compose }
    }
}

impl Layout for EdgePermLayout {
    const INNER: u32 = 720;
    /// Positions of the first six edges, then the other six positions in increasing order.
    type Pos = ([u8; 6], [u8; 6]);
    /// Rank of the relabelling of relative orders.
    type Map = u16;

    fn blocks(&self) -> u64 {
        PICK6.size()
    }

    #[inline]
    fn positions(&self, b: u64) -> ([u8; 6], [u8; 6]) {
        let mut first = [0u8; 6];
        PICK6.unrank(b, &mut first);
        let taken = first.iter().fold(0u32, |s, &p| s | 1 << p);
        let mut rest = [0u8; 6];
        let mut n = 0;
        for p in 0..12u8 {
            if taken & (1 << p) == 0 {
                rest[n] = p;
                n += 1;
            }
        }
        (first, rest)
    }

    #[inline]
    fn image(&self, (first, rest): &([u8; 6], [u8; 6]), m: usize) -> (u64, u16) {
        let r = edge_relabel(m);
        let new_first = first.map(|p| r[p as usize] & 0x0f);
        let new_rest = rest.map(|p| r[p as usize] & 0x0f);
        // The k-th smallest remaining position moves to a position whose rank among the new
        // remaining positions is rho[k].
        let rho = new_rest.map(|v| new_rest.iter().filter(|&&w| w < v).count() as u8);
        (PICK6.rank(&new_first), PERM6.rank(&rho) as u16)
    }

    #[inline(always)]
    fn apply(&self, rho: u16, x: u32) -> u32 {
        self.compose[rho as usize * 720 + x as usize] as u32
    }
}

/// Checks `layout`'s block images against unranking, moving and ranking `samples` random
/// entries of `pattern` (the invariant in the module doc), for all 18 face turns (a
/// quarter-turn table's layout is seen through its metric only by the search,
/// [`crate::pdb::layout::InMetric`]).
#[cfg(test)]
pub(crate) fn check_layout<L: Layout>(layout: &L, p: Pattern, samples: usize) {
    assert_eq!(layout.blocks() * L::INNER as u64, p.entries(), "{p}");
    let mut rng = crate::cube::Rng::new(17);
    for _ in 0..samples {
        let i = rng.below(p.entries());
        let (b, x) = (i / L::INNER as u64, (i % L::INNER as u64) as u32);
        let pos = layout.positions(b);
        let q = p.unrank_inverse(i);
        let expected: Vec<u64> = crate::cube::Move::all()
            .map(|m| p.index_of_inverse(&Pattern::neighbour_inverse(&q, m)))
            .collect();
        for (m, &want) in expected.iter().enumerate() {
            let (b2, map) = layout.image(&pos, m);
            let got = b2 * L::INNER as u64 + layout.apply(map, x) as u64;
            assert_eq!(got, want, "{p} index {i} move {m}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::unrank_digits;

    /// The block images agree with unranking, moving and ranking every entry, for every
    /// family built over its own index.
    #[test]
    fn block_images_match_entry_neighbours() {
        for pattern in Pattern::ALL {
            if let crate::pdb::family::Builder::Layout(run) = pattern.family().builder {
                let task = crate::pdb::family::LayoutTask::Check {
                    pattern,
                    samples: 3000,
                };
                assert!(run(task).is_none());
            }
        }
    }

    #[test]
    fn twist_addition() {
        let mut d = [0u8; 4];
        for a in 0..81u32 {
            for b in 0..81u32 {
                let (mut x, mut y) = ([0u8; 4], [0u8; 4]);
                unrank_digits(a, 3, &mut x);
                unrank_digits(b, 3, &mut y);
                for k in 0..4 {
                    d[k] = (x[k] + y[k]) % 3;
                }
                assert_eq!(ADD81[a as usize][b as usize] as u32, rank_digits(&d, 3));
            }
        }
    }
}
