//! The cubie-level model: where each corner and edge piece is and how it is twisted.
//!
//! A [`Cube`] stores, for every corner *position* (URF, UFL, ULB, UBR, DFR, DLF, DBL, DRB) and
//! every edge *position* (UR, UF, UL, UB, DR, DF, DL, DB, FR, FL, BL, BR), the piece that sits
//! there and its orientation, in Kociemba's "replaced-by" convention. Each slot is one byte,
//! `piece | orientation << 4`, packed into 16-byte vectors so that composing two cubes is one byte
//! shuffle plus an orientation add (SSSE3 `pshufb` where available).
//!
//! Invariants: corner orientations are in 0..3, edge orientations in 0..2; the unused slots
//! (corners 8..16, edges 12..16) hold their own index with orientation 0, so that shuffles leave
//! them alone. Composition is `(a * b)[i] = a[b.perm[i]]`, orientation `a.ori[b.perm[i]] + b.ori[i]`:
//! applying move `m` to position `p` is `p * m`.

use std::fmt;

/// Corner positions/pieces in Kociemba's order.
pub const CORNER_NAMES: [&str; 8] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
/// Edge positions/pieces in Kociemba's order.
pub const EDGE_NAMES: [&str; 12] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

const ORI_SHIFT: u32 = 4;
const PIECE_MASK: u8 = 0x0f;

/// A cube position at the cubie level. `Copy`, 32 bytes, 16-byte aligned.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Cube {
    corners: [u8; 16],
    edges: [u8; 16],
}

const IDENTITY_BYTES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

impl Default for Cube {
    fn default() -> Self {
        Cube::SOLVED
    }
}

impl Cube {
    /// The solved cube.
    pub const SOLVED: Cube = Cube {
        corners: IDENTITY_BYTES,
        edges: IDENTITY_BYTES,
    };

    /// Builds a cube from permutation and orientation arrays, without validation
    /// (see [`Cube::validate`]). `cp[i]` is the corner at position `i`, `co[i]` its twist.
    pub const fn from_parts(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> Cube {
        let mut c = Cube::SOLVED;
        let mut i = 0;
        while i < 8 {
            c.corners[i] = cp[i] | (co[i] << ORI_SHIFT);
            i += 1;
        }
        let mut i = 0;
        while i < 12 {
            c.edges[i] = ep[i] | (eo[i] << ORI_SHIFT);
            i += 1;
        }
        c
    }

    /// The corner piece at position `i`.
    #[inline(always)]
    pub fn corner_perm(&self, i: usize) -> u8 {
        self.corners[i] & PIECE_MASK
    }
    /// The twist (0..3) of the corner at position `i`.
    #[inline(always)]
    pub fn corner_ori(&self, i: usize) -> u8 {
        self.corners[i] >> ORI_SHIFT
    }
    /// The edge piece at position `i`.
    #[inline(always)]
    pub fn edge_perm(&self, i: usize) -> u8 {
        self.edges[i] & PIECE_MASK
    }
    /// The flip (0..2) of the edge at position `i`.
    #[inline(always)]
    pub fn edge_ori(&self, i: usize) -> u8 {
        self.edges[i] >> ORI_SHIFT
    }

    /// Corner permutation as an array.
    pub fn cp(&self) -> [u8; 8] {
        std::array::from_fn(|i| self.corner_perm(i))
    }
    /// Corner orientations as an array.
    pub fn co(&self) -> [u8; 8] {
        std::array::from_fn(|i| self.corner_ori(i))
    }
    /// Edge permutation as an array.
    pub fn ep(&self) -> [u8; 12] {
        std::array::from_fn(|i| self.edge_perm(i))
    }
    /// Edge orientations as an array.
    pub fn eo(&self) -> [u8; 12] {
        std::array::from_fn(|i| self.edge_ori(i))
    }

    /// Raw packed corner bytes (`piece | ori << 4`); slots 8..16 are padding.
    #[inline(always)]
    pub fn corner_bytes(&self) -> &[u8; 16] {
        &self.corners
    }
    /// Raw packed edge bytes (`piece | ori << 4`); slots 12..16 are padding.
    #[inline(always)]
    pub fn edge_bytes(&self) -> &[u8; 16] {
        &self.edges
    }

    /// `self * other`: the position reached by applying `other`'s permutation after `self`.
    #[inline(always)]
    pub fn compose(&self, other: &Cube) -> Cube {
        Cube {
            corners: compose_corners(&self.corners, &other.corners),
            edges: compose_edges(&self.edges, &other.edges),
        }
    }

    /// The inverse: `c.compose(&c.inverse()) == SOLVED`.
    pub fn inverse(&self) -> Cube {
        let mut r = Cube::SOLVED;
        for i in 0..8 {
            let p = self.corner_perm(i) as usize;
            let o = (3 - self.corner_ori(i)) % 3;
            r.corners[p] = i as u8 | (o << ORI_SHIFT);
        }
        for i in 0..12 {
            let p = self.edge_perm(i) as usize;
            r.edges[p] = i as u8 | (self.edge_ori(i) << ORI_SHIFT);
        }
        r
    }

    /// The same cubies with every corner twist negated (`t → −t mod 3`): the corner part of
    /// conjugation by a mirror, which turns clockwise twists into counter-clockwise ones
    /// (`coord::positions` composes it with the mirror's permutation).
    #[inline(always)]
    pub fn with_twists_negated(&self) -> Cube {
        let mut r = *self;
        let mut x = u64::from_le_bytes(self.corners[..8].try_into().expect("8 bytes"));
        // Twist bits 4 and 5 of each corner byte swap places: 1 ↔ 2, 0 stays.
        x = (x & 0x0f0f_0f0f_0f0f_0f0f)
            | ((x & 0x1010_1010_1010_1010) << 1)
            | ((x & 0x2020_2020_2020_2020) >> 1);
        r.corners[..8].copy_from_slice(&x.to_le_bytes());
        r
    }

    /// A cheap total order key, injective on positions: the corner bytes, then the edge bytes.
    #[inline(always)]
    pub fn order_key(&self) -> (u64, u64, u32) {
        let c = u64::from_le_bytes(self.corners[..8].try_into().expect("8 bytes"));
        let e = u64::from_le_bytes(self.edges[..8].try_into().expect("8 bytes"));
        let f = u32::from_le_bytes(self.edges[8..12].try_into().expect("4 bytes"));
        (c, e, f)
    }

    /// Is this the solved cube?
    #[inline(always)]
    pub fn is_solved(&self) -> bool {
        *self == Cube::SOLVED
    }

    /// Sum of corner twists mod 3 (0 for a reachable position).
    pub fn corner_twist_sum(&self) -> u8 {
        (0..8).map(|i| self.corner_ori(i)).sum::<u8>() % 3
    }
    /// Sum of edge flips mod 2 (0 for a reachable position).
    pub fn edge_flip_sum(&self) -> u8 {
        (0..12).map(|i| self.edge_ori(i)).sum::<u8>() % 2
    }
    /// Parity (0 even, 1 odd) of the corner permutation.
    pub fn corner_parity(&self) -> u8 {
        parity(&self.cp())
    }
    /// Parity (0 even, 1 odd) of the edge permutation.
    pub fn edge_parity(&self) -> u8 {
        parity(&self.ep())
    }

    /// Checks that the cube is a legal, reachable position.
    pub fn validate(&self) -> Result<(), CubeError> {
        let mut seen = 0u16;
        for i in 0..8 {
            let p = self.corner_perm(i);
            if p >= 8 || self.corner_ori(i) >= 3 || seen & (1 << p) != 0 {
                return Err(CubeError::BadCorners);
            }
            seen |= 1 << p;
        }
        let mut seen = 0u16;
        for i in 0..12 {
            let p = self.edge_perm(i);
            if p >= 12 || self.edge_ori(i) >= 2 || seen & (1 << p) != 0 {
                return Err(CubeError::BadEdges);
            }
            seen |= 1 << p;
        }
        if self.corner_twist_sum() != 0 {
            return Err(CubeError::Twist);
        }
        if self.edge_flip_sum() != 0 {
            return Err(CubeError::Flip);
        }
        if self.corner_parity() != self.edge_parity() {
            return Err(CubeError::Parity);
        }
        Ok(())
    }
}

/// Why a cubie-level cube is not a reachable position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    #[error("corner permutation is not a permutation of the 8 corners")]
    BadCorners,
    #[error("edge permutation is not a permutation of the 12 edges")]
    BadEdges,
    #[error("corner twists do not sum to 0 mod 3 (a corner is twisted)")]
    Twist,
    #[error("edge flips do not sum to 0 mod 2 (an edge is flipped)")]
    Flip,
    #[error("corner and edge permutation parities differ (two pieces are swapped)")]
    Parity,
}

/// Parity of a permutation given as a slice (0 = even).
pub fn parity(p: &[u8]) -> u8 {
    let mut inversions = 0u32;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            if p[i] > p[j] {
                inversions += 1;
            }
        }
    }
    (inversions & 1) as u8
}

impl fmt::Debug for Cube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Cube {{ cp: {:?}, co: {:?}, ep: {:?}, eo: {:?} }}",
            self.cp(),
            self.co(),
            self.ep(),
            self.eo()
        )
    }
}

// ---- composition kernels -------------------------------------------------------------------

/// Compile-time (and fallback) composition of packed corner bytes.
const fn compose_corners_scalar(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    let mut r = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let src = a[(b[i] & PIECE_MASK) as usize];
        let o = ((src >> ORI_SHIFT) + (b[i] >> ORI_SHIFT)) % 3;
        r[i] = (src & PIECE_MASK) | (o << ORI_SHIFT);
        i += 1;
    }
    r
}

const fn compose_edges_scalar(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    let mut r = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let src = a[(b[i] & PIECE_MASK) as usize];
        r[i] = src ^ (b[i] & (1 << ORI_SHIFT));
        i += 1;
    }
    r
}

/// `const` composition, used to build the move table at compile time.
pub(crate) const fn compose_const(a: &Cube, b: &Cube) -> Cube {
    Cube {
        corners: compose_corners_scalar(&a.corners, &b.corners),
        edges: compose_edges_scalar(&a.edges, &b.edges),
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod simd {
    use std::arch::x86_64::*;

    #[inline(always)]
    fn load(x: &[u8; 16]) -> __m128i {
        // SAFETY: 16 readable bytes; unaligned load.
        unsafe { _mm_loadu_si128(x.as_ptr() as *const __m128i) }
    }
    #[inline(always)]
    fn store(v: __m128i) -> [u8; 16] {
        let mut r = [0u8; 16];
        // SAFETY: 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(r.as_mut_ptr() as *mut __m128i, v) };
        r
    }

    #[inline(always)]
    pub fn corners(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
        // SAFETY: SSSE3 is enabled at compile time (cfg above).
        unsafe {
            let (va, vb) = (load(a), load(b));
            // pshufb reads the low 4 bits of each index byte (bit 7 is always clear here).
            let idx = _mm_and_si128(vb, _mm_set1_epi8(0x0f));
            let moved = _mm_shuffle_epi8(va, idx);
            let sum = _mm_add_epi8(moved, _mm_and_si128(vb, _mm_set1_epi8(0x30)));
            // Twist mod 3: bytes with twist >= 3 (>= 0x30) lose 0x30; for the others the
            // subtraction wraps to a larger unsigned value and min keeps the original.
            store(_mm_min_epu8(sum, _mm_sub_epi8(sum, _mm_set1_epi8(0x30))))
        }
    }

    #[inline(always)]
    pub fn edges(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
        // SAFETY: SSSE3 is enabled at compile time (cfg above).
        unsafe {
            let (va, vb) = (load(a), load(b));
            let idx = _mm_and_si128(vb, _mm_set1_epi8(0x0f));
            let moved = _mm_shuffle_epi8(va, idx);
            store(_mm_xor_si128(moved, _mm_and_si128(vb, _mm_set1_epi8(0x10))))
        }
    }
}

#[inline(always)]
fn compose_corners(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::corners(a, b)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        compose_corners_scalar(a, b)
    }
}

#[inline(always)]
fn compose_edges(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::edges(a, b)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        compose_edges_scalar(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Cube {
        Cube::from_parts(
            [3, 0, 1, 2, 7, 4, 5, 6],
            [1, 2, 0, 0, 2, 1, 0, 0],
            [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        )
    }

    #[test]
    fn simd_matches_scalar() {
        let a = sample();
        let b = a.inverse().compose(&a.compose(&a));
        assert_eq!(a.compose(&b), compose_const(&a, &b));
        assert_eq!(b.compose(&a), compose_const(&b, &a));
    }

    #[test]
    fn inverse_is_inverse() {
        let a = sample();
        assert!(a.compose(&a.inverse()).is_solved());
        assert!(a.inverse().compose(&a).is_solved());
        assert!(!a.is_solved());
    }

    #[test]
    fn parity_counts_inversions() {
        assert_eq!(parity(&[0, 1, 2]), 0);
        assert_eq!(parity(&[1, 0, 2]), 1);
        assert_eq!(parity(&[1, 2, 0]), 0);
    }

    #[test]
    fn validate_finds_each_defect() {
        assert_eq!(Cube::SOLVED.validate(), Ok(()));
        let mut co = [0; 8];
        co[0] = 1;
        let c = Cube::from_parts([0, 1, 2, 3, 4, 5, 6, 7], co, Cube::SOLVED.ep(), [0; 12]);
        assert_eq!(c.validate(), Err(CubeError::Twist));
        let mut eo = [0; 12];
        eo[3] = 1;
        let c = Cube::from_parts(Cube::SOLVED.cp(), [0; 8], Cube::SOLVED.ep(), eo);
        assert_eq!(c.validate(), Err(CubeError::Flip));
        let c = Cube::from_parts([1, 0, 2, 3, 4, 5, 6, 7], [0; 8], Cube::SOLVED.ep(), [0; 12]);
        assert_eq!(c.validate(), Err(CubeError::Parity));
        let c = Cube::from_parts([0, 0, 2, 3, 4, 5, 6, 7], [0; 8], Cube::SOLVED.ep(), [0; 12]);
        assert_eq!(c.validate(), Err(CubeError::BadCorners));
    }
}
