//! The phase coordinates of Thistlethwaite's solver: the generators of each group, the slices
//! of the edges, and the coordinate of a position in each phase. The 96-element group `H` of
//! corner permutations the half turns generate, and the coset of every corner permutation, are
//! [`crate::coord::squares`].

use super::PHASES;
pub(super) use crate::coord::squares::{CORNER_COSETS, OUTSIDE, SquaresCorners};
use crate::cube::{Cube, Face, Move};
use crate::rank::{PartialPerm, binomial, permutation, rank_digits};

pub(super) const EO_SIZE: usize = 1 << 11;
pub(super) const CO_SIZE: usize = 2187; // 3^7
pub(super) const E_SLICE_SIZE: usize = binomial(12, 4) as usize; // 495
pub(super) const M_SLICE_SIZE: usize = binomial(8, 4) as usize; // 70
pub(super) const SQUARES_CORNERS: usize = 96;
pub(super) const SQUARES_EDGES: usize = 24 * 24 * 12;

pub(super) const CORNER_PERM: PartialPerm = permutation(8);
pub(super) const SLICE_PERM: PartialPerm = permutation(4);

// ---- phase generators ----------------------------------------------------------------------

/// Bit set of the moves (by [`Move::index`]) that generate `G_k`, for `k` in `0..4`: every half
/// turn, plus quarter turns of the faces listed.
pub(super) const PHASE_MOVE_MASKS: [u32; PHASES] = [
    generators(&[Face::U, Face::R, Face::F, Face::D, Face::L, Face::B]),
    generators(&[Face::U, Face::D, Face::L, Face::R]),
    generators(&[Face::U, Face::D]),
    generators(&[]),
];

pub(super) const fn generators(quarter_faces: &[Face]) -> u32 {
    let mut mask = 0u32;
    let mut f = 0;
    while f < 6 {
        mask |= 1 << (f * 3 + 1); // X2
        f += 1;
    }
    let mut i = 0;
    while i < quarter_faces.len() {
        let f = quarter_faces[i] as u32;
        mask |= (1 << (f * 3)) | (1 << (f * 3 + 2)); // X and X'
        i += 1;
    }
    mask
}

/// The moves phase `phase` may use: the generators of `G_phase`, in index order.
pub fn phase_moves(phase: usize) -> impl Iterator<Item = Move> + Clone {
    let mut bits = PHASE_MOVE_MASKS[phase];
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Move::from_index(i)
        })
    })
}

// ---- edge slices ---------------------------------------------------------------------------

pub(super) const M: u8 = 0; // between L and R: UF UB DF DB
pub(super) const S: u8 = 1; // between F and B: UR UL DR DL
pub(super) const E: u8 = 2; // between U and D: FR FL BL BR

/// The slice of each edge position (and of each edge piece at home there), in the order
/// UR UF UL UB DR DF DL DB FR FL BL BR. Half turns keep every edge in its slice.
pub(super) const EDGE_SLICE: [u8; 12] = [S, M, S, M, S, M, S, M, E, E, E, E];
/// Each edge's place (0..4) in its slice, in position order.
pub(super) const EDGE_SLOT: [u8; 12] = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3];

/// `C(n, k)` for `n < 12`, `k <= 4`, for ranking 4-element subsets.
pub(super) const BINOM: [[u16; 5]; 12] = {
    let mut t = [[0u16; 5]; 12];
    let mut n = 0;
    while n < 12 {
        let mut k = 0;
        while k < 5 {
            t[n][k] = binomial(n, k) as u16;
            k += 1;
        }
        n += 1;
    }
    t
};

/// Rank (combinatorial number system) of a 4-element set of positions given as a bit set:
/// dense in `0..C(n, 4)` when the positions are below `n`.
#[inline(always)]
pub(super) fn rank_4_subset(mut set: u16) -> usize {
    debug_assert_eq!(set.count_ones(), 4);
    let mut r = 0;
    let mut k = 1;
    while set != 0 {
        r += BINOM[set.trailing_zeros() as usize][k] as usize;
        k += 1;
        set &= set - 1;
    }
    r
}

// ---- the solver ----------------------------------------------------------------------------

/// The coordinate of `cube` (in `G_phase`) modulo `G_{phase+1}`.
#[inline]
pub(super) fn coordinate(corners: &SquaresCorners, phase: usize, c: &Cube) -> usize {
    match phase {
        // The 12th flip is fixed by the other eleven (flip sum is even).
        0 => rank_digits(&c.eo()[..11], 2) as usize,
        // Likewise the 8th twist. Which E-slice edge sits where is phase 4's business.
        1 => {
            let co = rank_digits(&c.co()[..7], 3) as usize;
            co * E_SLICE_SIZE + rank_4_subset(slice_positions(c, E))
        }
        // In G2 the E-slice edges are home, so the M-slice edges are in positions 0..8.
        2 => {
            let coset = corners.coset[CORNER_PERM.rank(&c.cp()) as usize] as usize;
            coset * M_SLICE_SIZE + rank_4_subset(slice_positions(c, M))
        }
        3 => {
            let ci = corners.index[CORNER_PERM.rank(&c.cp()) as usize];
            debug_assert_ne!(ci, OUTSIDE, "phase 4 needs a position of G3");
            ci as usize * SQUARES_EDGES + squares_edge_index(c)
        }
        _ => unreachable!("phases are 0..4"),
    }
}

/// Bit set of the positions holding edges of slice `slice`.
#[inline(always)]
pub(super) fn slice_positions(c: &Cube, slice: u8) -> u16 {
    let mut set = 0u16;
    for i in 0..12 {
        if EDGE_SLICE[c.edge_perm(i) as usize] == slice {
            set |= 1 << i;
        }
    }
    set
}

/// Index in `0..6912` of a `G3` edge permutation: each slice's permutation of its own four
/// edges, ranked; the E slice's rank is halved because its parity is fixed by the other two
/// (a Lehmer rank's last digit is 0 or 1 and alone decides the parity between `2j` and `2j+1`).
#[inline]
pub(super) fn squares_edge_index(c: &Cube) -> usize {
    let mut slots = [[0u8; 4]; 3];
    for i in 0..12 {
        let piece = c.edge_perm(i) as usize;
        debug_assert_eq!(
            EDGE_SLICE[piece], EDGE_SLICE[i],
            "phase 4 needs a position of G3"
        );
        slots[EDGE_SLICE[i] as usize][EDGE_SLOT[i] as usize] = EDGE_SLOT[piece];
    }
    let [m, s, e] = slots.map(|p| SLICE_PERM.rank(&p) as usize);
    (m * 24 + s) * 12 + e / 2
}
