//! The corner part of the 48-symmetry coset coordinate, the ground of a coset table in the
//! style of Tronto's H48 (nissy-core `doc/h48.md`). The target subgroup — every corner in its
//! own tetrad ({URF, ULB, DLF, DRB} and {UFL, UBR, DFR, DBL}) and oriented, every edge in its own
//! slice — is invariant under all 48 cube symmetries and holds every half turn. A position's
//! corner coset is which 4 of the 8 places hold the first tetrad (C(8,4) = 70) times its twist
//! (3^7): 153,090 values, in 3,393 classes under the 48 symmetries.
//!
//! The edge part is the *slice separation*: which slice (E, M or S) each edge place's piece
//! belongs to — which 4 places hold E-slice edges (C(12,4) = 495) times which 4 of the other 8
//! hold M-slice edges (C(8,4) = 70), 34,650 values ([`slice_sep`], [`SliceSep`]). A symmetry
//! maps slices to slices, so the separation of a conjugate depends only on the separation.
//!
//! Variant `e4` of the coordinate also requires the four E-slice edges (FR FL BL BR) to be
//! oriented. Its edge part is the separation times the flips of the E pieces *listed in place
//! order* (16 values, [`sep_flip_bytes`]): which pieces are E pieces is fixed by the
//! separation, so this is the coset of the smaller subgroup (still holding every half turn,
//! since no half turn flips an edge). An E piece in an E place has its F/B sticker on the F/B
//! faces exactly when its R/L sticker is on the R/L faces, so the 16 symmetries that keep the
//! UD axis keep that subgroup too, and act on the coordinate; the other 32 do not.
//!
//! Invariants: [`corner_coset`] depends only on which tetrad each place's piece belongs to and on
//! the orientations, so moves act on it ([`CornerCoset::moves`]) and every half turn fixes the
//! solved value; it is well defined on conjugates (the value of `S c S⁻¹` depends only on the
//! value of `c`), so its classes under the symmetries are classes of positions.

use super::symmetry::{SymClasses, SymCube, symmetries};
use super::{N_MOVES, N_TWIST, twist, twist_cube};
use crate::cube::{Cube, Move};
use std::sync::OnceLock;

/// Places of the 4-subsets of the 8 corner places.
pub const N_TETRAD: usize = 70;
/// Values of the corner coset coordinate.
pub const N_CORNER_COSET: usize = N_TETRAD * N_TWIST;
/// Classes of the corner coset coordinate under the 48 symmetries.
pub const N_CORNER_COSET_CLASSES: usize = 3_393;

/// The 70 masks of 4 corner places, in increasing order.
fn masks() -> &'static [u8; N_TETRAD] {
    static MASKS: OnceLock<[u8; N_TETRAD]> = OnceLock::new();
    MASKS.get_or_init(|| {
        let mut it = (0u16..256).filter(|m| m.count_ones() == 4).map(|m| m as u8);
        std::array::from_fn(|_| it.next().expect("70 masks"))
    })
}

/// Is this corner piece (Kociemba's numbering: URF 0, UFL 1, ULB 2, UBR 3, DFR 4, DLF 5,
/// DBL 6, DRB 7) in the first tetrad {URF, ULB, DLF, DRB}?
#[inline]
fn in_first_tetrad(piece: u8) -> bool {
    matches!(piece, 0 | 2 | 5 | 7)
}

/// The corner coset coordinate of a corner permutation and orientation (twists 0..3; mirrored
/// twists of a [`SymCube`] count by their twist modulo 3).
pub fn corner_coset(cp: &[u8; 8], co: &[u8; 8]) -> usize {
    let mask = (0..8).fold(0u8, |m, p| m | (in_first_tetrad(cp[p]) as u8) << p);
    let co = co.map(|o| o % 3);
    masks().binary_search(&mask).expect("4 places") * N_TWIST + twist(&co) as usize
}

/// The corner coset coordinate from corner bytes (`piece | twist << 4`, as
/// [`Cube::corner_bytes`]); the search's fast form of [`corner_coset`].
#[inline(always)]
pub fn corner_coset_bytes(c: &[u8; 16]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    {
        corner_coset_simd(c)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    {
        corner_coset_scalar(c)
    }
}

/// [`corner_coset_bytes`] with byte shuffles: the tetrad bits by a 16-byte table lookup and a
/// movemask, the twist digits weighted by multiply-adds (the search calls this for every
/// child and its inverse).
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
#[inline(always)]
fn corner_coset_simd(c: &[u8; 16]) -> usize {
    use std::arch::x86_64::*;
    // SAFETY: SSSE3 and SSE4.1 are enabled at compile time (cfg above); unaligned load of 16
    // readable bytes.
    unsafe {
        let v = _mm_loadu_si128(c.as_ptr() as *const __m128i);
        let piece = _mm_and_si128(v, _mm_set1_epi8(0x0f));
        // 0x80 at the first tetrad's pieces 0, 2, 5, 7.
        let tetrad = _mm_setr_epi8(-128, 0, -128, 0, 0, -128, 0, -128, 0, 0, 0, 0, 0, 0, 0, 0);
        let mask = (_mm_movemask_epi8(_mm_shuffle_epi8(tetrad, piece)) & 0xff) as usize;
        let ori = _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0f));
        // Digits 0..7 weighted 27 9 3 1 | 9 3 1 0: two base-3 halves, then 27 · a + b.
        let w = _mm_setr_epi8(27, 9, 3, 1, 9, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        let pairs = _mm_maddubs_epi16(ori, w);
        let halves = _mm_madd_epi16(pairs, _mm_set1_epi16(1));
        let (a, b) = (
            _mm_cvtsi128_si32(halves) as usize,
            _mm_extract_epi32(halves, 1) as usize,
        );
        rank4of8()[mask] as usize * N_TWIST + a * 27 + b
    }
}

/// [`corner_coset_bytes`] without vector instructions.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse4.1"),
    allow(dead_code)
)]
#[inline(always)]
fn corner_coset_scalar(c: &[u8; 16]) -> usize {
    // Bit `piece` of 0xA5 is set for the first tetrad's pieces 0, 2, 5, 7.
    let mut mask = 0usize;
    let mut twist = 0usize;
    for (p, &b) in c[..8].iter().enumerate() {
        mask |= ((0xA5u32 >> (b & 0x0f)) as usize & 1) << p;
        if p < 7 {
            twist = twist * 3 + (b >> 4) as usize;
        }
    }
    rank4of8()[mask] as usize * N_TWIST + twist
}

/// A position with corner coset `x` (edges solved): the first tetrad's pieces in order on
/// the mask's places, the other tetrad's on the rest.
pub fn corner_coset_cube(x: usize) -> Cube {
    let mask = masks()[x / N_TWIST];
    let (mut a, mut b) = ([0u8, 2, 5, 7].into_iter(), [1u8, 3, 4, 6].into_iter());
    let cp = std::array::from_fn(|p| {
        if mask >> p & 1 == 1 {
            a.next().unwrap()
        } else {
            b.next().unwrap()
        }
    });
    let s = Cube::SOLVED;
    Cube::from_parts(cp, twist_cube(x % N_TWIST).co(), s.ep(), s.eo())
}

/// The coordinate's value on the target subgroup (solved).
pub fn solved_corner_coset() -> usize {
    corner_coset(&Cube::SOLVED.cp(), &Cube::SOLVED.co())
}

/// Values of the slice separation.
pub const N_SLICE_SEP: usize = 495 * N_TETRAD;

/// The slice of an edge piece (Kociemba's numbering UR UF UL UB DR DF DL DB FR FL BL BR):
/// 0 for the E slice (FR FL BL BR), 1 for M (UF UB DF DB), 2 for S (UR UL DR DL).
#[inline(always)]
pub fn edge_slice(piece: u8) -> u8 {
    if piece >= 8 { 0 } else { 2 - (piece & 1) }
}

/// `rank4of12()[set]`: the rank of a 12-bit set of 4 places among the 495 in increasing order
/// (other sets rank 0); and `rank4of8()[set]` the same for 8-bit sets.
fn rank4of12() -> &'static [u16; 4096] {
    static T: OnceLock<[u16; 4096]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [0u16; 4096];
        let mut r = 0;
        for (set, v) in t.iter_mut().enumerate() {
            if set.count_ones() == 4 {
                *v = r;
                r += 1;
            }
        }
        t
    })
}

fn rank4of8() -> &'static [u8; 256] {
    static T: OnceLock<[u8; 256]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [0u8; 256];
        for (r, &m) in masks().iter().enumerate() {
            t[m as usize] = r as u8;
        }
        t
    })
}

/// Per-place masks of edge bytes (`piece | flip << 4`, as [`Cube::edge_bytes`]), 12 bits
/// each: the places holding E pieces (8..11), those holding M pieces (the odd ones below 8:
/// UF UB DF DB), and the flipped places. The search reads them for every child, so they come
/// from three SSE2 byte-mask extractions rather than a loop (on x86_64).
#[inline(always)]
fn edge_masks(e: &[u8; 16]) -> (u32, u32, u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_slli_epi16};
        // SAFETY: SSE2 is part of x86_64, and the load reads exactly the 16 bytes of `e`.
        // Shifting 16-bit lanes left by k moves bit 7 − k of each byte to its bit 7 (bits
        // crossing into the next byte land below bit 7), which the byte mask collects.
        unsafe {
            let v = _mm_loadu_si128(e.as_ptr() as *const __m128i);
            let in_e = _mm_movemask_epi8(_mm_slli_epi16(v, 4)) as u32 & 0xfff;
            let odd = _mm_movemask_epi8(_mm_slli_epi16(v, 7)) as u32 & 0xfff;
            let flips = _mm_movemask_epi8(_mm_slli_epi16(v, 3)) as u32 & 0xfff;
            (in_e, odd & !in_e, flips)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        edge_masks_scalar(e)
    }
}

/// [`edge_masks`] one place at a time (the other targets' path, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn edge_masks_scalar(e: &[u8; 16]) -> (u32, u32, u32) {
    let (mut in_e, mut in_m, mut flips) = (0, 0, 0);
    for (p, &b) in e[..12].iter().enumerate() {
        let piece = b & 0x0f;
        in_e |= ((piece >= 8) as u32) << p;
        in_m |= ((piece < 8 && piece & 1 == 1) as u32) << p;
        flips |= ((b >> 4 & 1) as u32) << p;
    }
    (in_e, in_m, flips)
}

/// The bits of `v` at the set bits of `m` (12-bit masks), packed from bit 0 up: two lookups in
/// a 4 KB table of 6-bit halves.
#[inline(always)]
fn compact(v: u32, m: u32) -> u32 {
    static T: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let t = T.get_or_init(|| {
        std::array::from_fn(|m| {
            std::array::from_fn(|v| {
                let (mut out, mut k) = (0u8, 0);
                for bit in 0..6 {
                    if m >> bit & 1 == 1 {
                        out |= ((v >> bit & 1) as u8) << k;
                        k += 1;
                    }
                }
                out
            })
        })
    });
    let lo = t[(m & 63) as usize][(v & 63) as usize] as u32;
    let hi = t[(m >> 6 & 63) as usize][(v >> 6 & 63) as usize] as u32;
    lo | hi << (m & 63).count_ones()
}

/// The separation from the masks of [`edge_masks`].
#[inline(always)]
fn sep_of_masks(in_e: u32, in_m: u32) -> usize {
    // The M places among the 8 places without an E piece, in order.
    let m8 = compact(in_m, !in_e & 0xfff);
    rank4of12()[in_e as usize] as usize * N_TETRAD + rank4of8()[m8 as usize] as usize
}

/// The slice separation of a position from its edge bytes (`piece | flip << 4`, as
/// [`Cube::edge_bytes`]): the E places' rank times 70 plus the rank of the M places among
/// the other 8, in order.
#[inline(always)]
pub fn slice_sep_bytes(e: &[u8; 16]) -> usize {
    let (in_e, in_m, _) = edge_masks(e);
    sep_of_masks(in_e, in_m)
}

/// The slice separation of an edge permutation (`ep[place] = piece`).
pub fn slice_sep(ep: &[u8; 12]) -> usize {
    let mut e = [0u8; 16];
    e[..12].copy_from_slice(ep);
    slice_sep_bytes(&e)
}

/// An edge permutation with slice separation `x`: the E, M and S pieces each in increasing
/// order on their places.
pub fn slice_sep_edges(x: usize) -> [u8; 12] {
    let eset = (0u16..4096)
        .filter(|s| s.count_ones() == 4)
        .nth(x / N_TETRAD)
        .expect("495 sets");
    let mset = masks()[x % N_TETRAD];
    let (mut e, mut m, mut s) = (
        [8u8, 9, 10, 11].into_iter(),
        [1u8, 3, 5, 7].into_iter(),
        [0u8, 2, 4, 6].into_iter(),
    );
    let mut k = 0;
    std::array::from_fn(|p| {
        if eset >> p & 1 == 1 {
            return e.next().unwrap();
        }
        let in_m = mset >> k & 1 == 1;
        k += 1;
        if in_m {
            m.next().unwrap()
        } else {
            s.next().unwrap()
        }
    })
}

/// The slice separation's move table and conjugation table (3.3 MB), for the `sym48e0`
/// builder's layout: the 48 symmetries map slices to slices, so they act on it.
pub struct SliceSep {
    /// `moves[x * 18 + m]`: the value after move `m`.
    pub moves: Vec<u16>,
    /// `conj[x * 48 + s]`: the value of `S_s c S_s⁻¹` for a position `c` with value `x`.
    pub conj: Vec<u16>,
}

impl SliceSep {
    /// Built once per process.
    pub fn get() -> &'static SliceSep {
        static TABLES: OnceLock<SliceSep> = OnceLock::new();
        TABLES.get_or_init(|| {
            let all = symmetries();
            let move_cubes: Vec<SymCube> =
                Move::all().map(|m| SymCube::from_cube(m.cube())).collect();
            let of = |c: &SymCube| slice_sep(&c.ep) as u16;
            let (mut moves, mut conj) = (
                Vec::with_capacity(N_SLICE_SEP * N_MOVES),
                Vec::with_capacity(N_SLICE_SEP * 48),
            );
            for x in 0..N_SLICE_SEP {
                let c = SymCube {
                    ep: slice_sep_edges(x),
                    ..SymCube::IDENTITY
                };
                moves.extend(move_cubes.iter().map(|m| of(&c.mul(m))));
                conj.extend((0..48).map(|s| of(&all.conj(&c, s))));
            }
            SliceSep { moves, conj }
        })
    }
}

/// Values of the `e4` edge part: slice separation × flips of the E pieces in place order.
pub const N_SEP_FLIP: usize = N_SLICE_SEP * 16;

/// The `e4` edge part of a position from its edge bytes: `separation · 16 + flips`, where bit
/// `k` of `flips` is the flip of the `k`-th place (in place order) holding an E piece.
#[inline(always)]
pub fn sep_flip_bytes(e: &[u8; 16]) -> usize {
    let (in_e, in_m, flips) = edge_masks(e);
    sep_of_masks(in_e, in_m) * 16 + compact(flips, in_e) as usize
}

/// Edges (permutation, flips) with `e4` edge part `x`: [`slice_sep_edges`], the E pieces
/// flipped as the low four bits say and every other edge unflipped.
pub fn sep_flip_edges(x: usize) -> ([u8; 12], [u8; 12]) {
    let ep = slice_sep_edges(x / 16);
    let mut eo = [0u8; 12];
    let mut k = 0;
    for (p, &piece) in ep.iter().enumerate() {
        if edge_slice(piece) == 0 {
            eo[p] = (x >> k & 1) as u8;
            k += 1;
        }
    }
    (ep, eo)
}

/// Values of the `eK` edge part (K = 0 to 11): the separation × the flips of the first
/// min(K, 4) E pieces × the flips of the first min(K − 4, 4) M pieces (for K > 4) × the flips
/// of the first K − 8 S pieces (for K > 8). `e1`: 69,300; `e4`: 554,400; `e6`: 2,217,600;
/// `e8`: 8,870,400; `e9`: 17,740,800. (Eleven flips at most: the twelfth follows.)
pub const fn n_sep_flip_k(k: u8) -> usize {
    assert!(k <= 11, "eK edge parts are e0 to e11");
    N_SLICE_SEP << k
}

/// Values of the `e6` edge part ([`n_sep_flip_k`]).
pub const N_SEP_FLIP6: usize = n_sep_flip_k(6);

/// E, M and S pieces whose flips the `eK` edge part records: the first min(K, 4) E pieces,
/// then the first min(K − 4, 4) M pieces, then the first K − 8 S pieces.
const fn flipped_pieces(k: u8) -> (u32, u32, u32) {
    let e = if k < 4 { k } else { 4 };
    let m = if k - e < 4 { k - e } else { 4 };
    (e as u32, m as u32, (k - e - m) as u32)
}

/// The `eK` edge part (K = 0 to 11) of a position from its edge bytes: `((separation · 2^E +
/// E flips) · 2^M + M flips) · 2^S + S flips`, where bit `k` of the E (M, S) flips is the flip
/// of the `k`-th place (in place order, `k` below E = min(K, 4), M = min(K − E, 4), S = K − E
/// − M) holding an E (M, S) piece. For K = 4 it is [`sep_flip_bytes`]; for K ≤ 8 the S part is
/// empty and compiled away. A function of the full-flip coset (separation and the flip of
/// every place): what [`crate::pdb::sym48ek`] needs of it.
#[inline(always)]
pub fn sep_flip_k_bytes<const K: u8>(e: &[u8; 16]) -> usize {
    let (in_e, in_m, flips) = edge_masks(e);
    let (ne, nm, ns) = flipped_pieces(K);
    let sep = sep_of_masks(in_e, in_m);
    let with_e = (sep << ne) + (compact(flips, in_e) & ((1 << ne) - 1)) as usize;
    let with_m = (with_e << nm) + (compact(flips, in_m) & ((1 << nm) - 1)) as usize;
    if ns == 0 {
        return with_m;
    }
    let in_s = !(in_e | in_m) & 0xfff;
    (with_m << ns) + (compact(flips, in_s) & ((1 << ns) - 1)) as usize
}

/// Edges (permutation, flips) with `eK` edge part `x`: [`slice_sep_edges`], the first
/// min(K, 4) E pieces, the first min(K − 4, 4) M pieces and the first K − 8 S pieces flipped
/// as the low bits say, every other edge unflipped.
pub fn sep_flip_k_edges<const K: u8>(x: usize) -> ([u8; 12], [u8; 12]) {
    let (ne, nm, ns) = flipped_pieces(K);
    let s_flips = x & ((1 << ns) - 1);
    let m_flips = x >> ns & ((1 << nm) - 1);
    let e_flips = x >> (ns + nm) & ((1 << ne) - 1);
    let ep = slice_sep_edges(x >> (ne + nm + ns));
    let mut eo = [0u8; 12];
    let (mut ke, mut km, mut ks) = (0, 0, 0);
    for (p, &piece) in ep.iter().enumerate() {
        match edge_slice(piece) {
            0 if ke < ne => {
                eo[p] = (e_flips >> ke & 1) as u8;
                ke += 1;
            }
            1 if km < nm => {
                eo[p] = (m_flips >> km & 1) as u8;
                km += 1;
            }
            2 if ks < ns => {
                eo[p] = (s_flips >> ks & 1) as u8;
                ks += 1;
            }
            _ => {}
        }
    }
    (ep, eo)
}

/// Values of the full-flip edge part: slice separation × the flips of places 0..=10 (place
/// 11's follows from the others').
pub const N_SEP_EO: u64 = N_SLICE_SEP as u64 * 2048;

/// The full-flip edge part of a position from its edge bytes: `separation · 2048 + flips`.
/// With the corner coset it is the coset of the subgroup that also orients every edge.
#[inline(always)]
pub fn sep_eo_bytes(e: &[u8; 16]) -> u64 {
    let mut eo = 0u64;
    for (p, &b) in e[..11].iter().enumerate() {
        eo |= ((b >> 4 & 1) as u64) << p;
    }
    slice_sep_bytes(e) as u64 * 2048 + eo
}

static CORNER_COSET: OnceLock<CornerCoset> = OnceLock::new();

/// The symmetry classes of the corner coset coordinate, and (built apart, on first use) its
/// move table: the search needs only the classes, the table builder both.
pub struct CornerCoset {
    /// Classes under all 48 symmetries (class, symmetry to the representative, stabilizers).
    pub classes: SymClasses,
}

impl CornerCoset {
    /// Built once per process (well under a second) and shared.
    pub fn get() -> &'static CornerCoset {
        CORNER_COSET.get_or_init(CornerCoset::build)
    }

    /// The shared tables if this process has built them already.
    pub fn built() -> Option<&'static CornerCoset> {
        CORNER_COSET.get()
    }

    /// The classes, built afresh (for a user that keeps only part of them).
    pub fn build() -> CornerCoset {
        CornerCoset {
            classes: SymClasses::build(
                symmetries(),
                48,
                N_CORNER_COSET,
                |x| SymCube::from_cube(&corner_coset_cube(x)),
                |c| corner_coset(&c.cp, &c.co),
            ),
        }
    }

    /// `moves()[x * 18 + m]`: the value after move `m` (11 MB, built once per process on
    /// first use).
    pub fn moves() -> &'static [u32] {
        static MOVES: OnceLock<Vec<u32>> = OnceLock::new();
        MOVES.get_or_init(|| {
            let mut moves = Vec::with_capacity(N_CORNER_COSET * N_MOVES);
            for x in 0..N_CORNER_COSET {
                let c = corner_coset_cube(x);
                for m in Move::all() {
                    let d = c.apply(m);
                    moves.push(corner_coset(&d.cp(), &d.co()) as u32);
                }
            }
            moves
        })
    }

    /// The value after move `m`.
    #[inline]
    pub fn apply(x: usize, m: Move) -> usize {
        Self::moves()[x * N_MOVES + m.index()] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::symmetry::N_SYM_UD;
    use crate::cube::Rng;

    /// The byte-mask extraction agrees with the loop over places, and the edge parts with
    /// each other (`e9` extends `e8`, which extends `e7`, which extends `e6`, which extends `e4`,
    /// which extends the separation).
    #[test]
    fn edge_masks_and_parts_agree() {
        let mut rng = Rng::new(20);
        for _ in 0..5000 {
            let c = Cube::random(&mut rng);
            let e = c.edge_bytes();
            assert_eq!(edge_masks(e), edge_masks_scalar(e));
            assert_eq!(slice_sep_bytes(e), slice_sep(&c.ep()));
            assert_eq!(sep_flip_bytes(e) / 16, slice_sep_bytes(e));
            assert_eq!(sep_flip_k_bytes::<6>(e) / 4, sep_flip_bytes(e));
            // Each K keeps the e4 part above its low K − 4 bits, and the lower K's bits below.
            let (k6, k7, k8) = (
                sep_flip_k_bytes::<6>(e),
                sep_flip_k_bytes::<7>(e),
                sep_flip_k_bytes::<8>(e),
            );
            assert_eq!((k7 >> 3, k7 & 3), (k6 >> 2, k6 & 3));
            assert_eq!((k8 >> 4, k8 & 7), (k7 >> 3, k7 & 7));
            // The flips: of the E pieces, then of the first two M pieces, in place order.
            let (ep, eo) = (c.ep(), c.eo());
            let of = |slice: u8| {
                (0..12)
                    .filter(|&p| edge_slice(ep[p]) == slice)
                    .map(|p| eo[p] as usize)
                    .collect::<Vec<_>>()
            };
            let (ef, mf) = (of(0), of(1));
            let e_bits = (0..4).map(|k| ef[k] << k).sum::<usize>();
            assert_eq!(sep_flip_bytes(e) % 16, e_bits);
            assert_eq!(sep_flip_k_bytes::<6>(e) % 4, mf[0] | mf[1] << 1);
            let m_bits = (0..4).map(|k| mf[k] << k).sum::<usize>();
            assert_eq!(sep_flip_k_bytes::<8>(e) % 16, m_bits);
            // e9 adds the first S piece's flip below e8's bits.
            let k9 = sep_flip_k_bytes::<9>(e);
            assert_eq!((k9 >> 1, k9 & 1), (k8, of(2)[0]));
        }
    }

    #[test]
    fn moves_act_on_the_coordinate() {
        let mut rng = Rng::new(19);
        for _ in 0..500 {
            let c = Cube::random(&mut rng);
            let x = corner_coset(&c.cp(), &c.co());
            assert_eq!(corner_coset_bytes(c.corner_bytes()), x);
            assert_eq!(corner_coset_scalar(c.corner_bytes()), x);
            for m in Move::all() {
                let d = c.apply(m);
                assert_eq!(
                    CornerCoset::apply(x, m),
                    corner_coset(&d.cp(), &d.co()),
                    "{m}"
                );
            }
        }
        // The cube built for a value has that value.
        for x in (0..N_CORNER_COSET).step_by(97) {
            let c = corner_coset_cube(x);
            assert_eq!(corner_coset(&c.cp(), &c.co()), x);
        }
    }

    #[test]
    fn slice_separation_moves_and_conjugates() {
        let t = SliceSep::get();
        let syms = symmetries();
        for x in (0..N_SLICE_SEP).step_by(7) {
            assert_eq!(slice_sep(&slice_sep_edges(x)), x);
        }
        let mut rng = Rng::new(34);
        for _ in 0..500 {
            let c = Cube::random(&mut rng);
            let x = slice_sep(&c.ep());
            assert_eq!(slice_sep_bytes(c.edge_bytes()), x);
            for m in Move::all() {
                assert_eq!(
                    t.moves[x * 18 + m.index()] as usize,
                    slice_sep(&c.apply(m).ep())
                );
            }
            for s in 0..48 {
                let conj = syms.conj_cube(&c, s);
                assert_eq!(
                    t.conj[x * 48 + s] as usize,
                    slice_sep(&conj.ep()),
                    "sym {s}"
                );
            }
        }
        // Half turns keep every edge in its slice; quarter turns do not.
        let solved = slice_sep(&Cube::SOLVED.ep());
        for m in Move::all() {
            assert_eq!(
                t.moves[solved * 18 + m.index()] as usize == solved,
                m.quarter_turns() == 2
            );
        }
    }

    /// The `e4` edge part: its cube round-trips, moves and the 16 UD symmetries act on it
    /// (the value after a move or conjugation follows from the value: a position and the
    /// cube of its value agree after it), and exactly the half turns fix the solved value.
    #[test]
    fn e4_edge_part_moves_and_conjugates() {
        let syms = symmetries();
        let cube_of = |x: usize| {
            let (ep, eo) = sep_flip_edges(x);
            Cube::from_parts(Cube::SOLVED.cp(), Cube::SOLVED.co(), ep, eo)
        };
        for x in (0..N_SEP_FLIP).step_by(13) {
            assert_eq!(sep_flip_bytes(cube_of(x).edge_bytes()), x);
        }
        let part = |c: &Cube| sep_flip_bytes(c.edge_bytes());
        let mut rng = Rng::new(44);
        for _ in 0..2000 {
            let c = Cube::random(&mut rng);
            let x = part(&c);
            assert_eq!(x / 16, slice_sep(&c.ep()));
            let own = cube_of(x);
            for m in Move::all() {
                assert_eq!(part(&c.apply(m)), part(&own.apply(m)), "{m}");
            }
            for s in 0..N_SYM_UD {
                let (a, b) = (syms.conj_cube(&c, s), syms.conj_cube(&own, s));
                assert_eq!(part(&a), part(&b), "sym {s}");
            }
        }
        let solved = Cube::SOLVED;
        for m in Move::all() {
            assert_eq!(
                part(&solved.apply(m)) == part(&solved),
                m.quarter_turns() == 2,
                "{m}"
            );
        }
    }

    /// The other 32 symmetries do not act on the `e4` edge part: two positions with the same
    /// value can have conjugates with different values (which is why the table is built over
    /// 16-symmetry classes and only then reduced by 48).
    #[test]
    fn e4_edge_part_is_not_48_symmetric() {
        let syms = symmetries();
        let mut rng = Rng::new(45);
        let mut differs = false;
        for _ in 0..200 {
            let a = Cube::random(&mut rng);
            // The same separation and E flips, other flips changed: two edges off the E slice.
            let mut eo = a.eo();
            let off: Vec<usize> = (0..12).filter(|&p| edge_slice(a.ep()[p]) != 0).collect();
            eo[off[0]] ^= 1;
            eo[off[1]] ^= 1;
            let b = Cube::from_parts(a.cp(), a.co(), a.ep(), eo);
            assert_eq!(
                sep_flip_bytes(a.edge_bytes()),
                sep_flip_bytes(b.edge_bytes())
            );
            let s = crate::coord::symmetry::S_URF3;
            differs |= sep_flip_bytes(syms.conj_cube(&a, s).edge_bytes())
                != sep_flip_bytes(syms.conj_cube(&b, s).edge_bytes());
        }
        assert!(differs);
    }

    /// Every class's size times its stabilizer's size is the number of symmetries `n`.
    fn assert_orbits_times_stabilizers(classes: &SymClasses, n: usize) {
        let mut size = vec![0usize; classes.len()];
        for &c in &classes.class_of {
            size[c as usize] += 1;
        }
        for (cls, &k) in size.iter().enumerate() {
            assert_eq!(
                k * classes.stabilizer[cls].count_ones() as usize,
                n,
                "class {cls}"
            );
        }
    }

    #[test]
    fn half_turns_fix_the_subgroup_and_quarter_turns_leave_it() {
        let solved = solved_corner_coset();
        for m in Move::all() {
            assert_eq!(
                CornerCoset::apply(solved, m) == solved,
                m.quarter_turns() == 2,
                "{m}"
            );
        }
    }

    /// 3,393 classes under the 48 symmetries (Tronto, nissy-core `doc/h48.md`); each class's
    /// size times its stabilizer's is 48; the coordinate is well defined on conjugates.
    #[test]
    fn classes_under_48_symmetries() {
        let syms = symmetries();
        let value = |c: &SymCube| corner_coset(&c.cp, &c.co);
        let mut rng = Rng::new(48);
        for _ in 0..300 {
            let c = SymCube::from_cube(&Cube::random(&mut rng));
            let x = value(&c);
            let built = SymCube::from_cube(&corner_coset_cube(x));
            for s in 0..48 {
                assert_eq!(value(&syms.conj(&c, s)), value(&syms.conj(&built, s)));
            }
        }
        let classes = &CornerCoset::get().classes;
        assert_eq!(classes.len(), N_CORNER_COSET_CLASSES);
        assert_orbits_times_stabilizers(classes, 48);
        // The solved value is alone in its class, fixed by every symmetry.
        let solved = solved_corner_coset();
        let cls = classes.class_of[solved] as usize;
        assert_eq!(
            classes
                .class_of
                .iter()
                .filter(|&&c| c as usize == cls)
                .count(),
            1
        );
        assert_eq!(classes.stabilizer[cls].count_ones(), 48);
    }
}
