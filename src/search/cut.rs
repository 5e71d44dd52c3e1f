//! The pruning step of a node's expansion, for all its children at once.
//!
//! A node's children live in slots 0..32 (slot = move index, [`BATCH`]); a `u32` bit set says
//! which are alive. After a lookup has read a value for every living child, [`raise_and_cut`]
//! raises each child's heuristic value to it and drops the children whose value exceeds the
//! budget. On x86-64 with SSSE3 this is a dozen vector instructions per half of the slots
//! instead of a loop with one iteration per child; elsewhere it is that loop. Both give the
//! same result for every input (tested against each other).
//!
//! In the quarter-turn metric (`QTM = true`) a half-turn child costs two and the cut uses the
//! quarter turns' budget: a half-turn child's value is raised to the parity its own distance
//! has, which is the opposite of the budget's (`docs/search.md`, "Metrics"), so it never equals
//! the budget and exceeds it exactly when it exceeds its own budget, one less.

use crate::pdb::batch::{BATCH, Members};

/// For the children in `alive`: raises `h[k]` to `v[k]`, and returns the children whose new
/// value exceeds `budget` (a bit set) with the smallest such value (`u8::MAX` if none). Slots
/// outside `alive` are left unchanged. Values are below 127.
///
/// With `QTM`, a half-turn child's value (slots of [`HALF_TURN_SLOTS`]) is then raised by one
/// where it has the budget's parity (module docs).
#[inline(always)]
pub fn raise_and_cut<const QTM: bool>(
    h: &mut [u8; BATCH],
    v: &[u8; BATCH],
    budget: u8,
    alive: u32,
) -> (u32, u8) {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::raise_and_cut::<QTM>(h, v, budget, alive)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        scalar::<QTM>(h, v, budget, alive)
    }
}

/// The slots of the half turns `U2 R2 F2 D2 L2 B2` (move index `3f + 1`).
pub const HALF_TURN_SLOTS: u32 = 0b010_010_010_010_010_010;

/// The portable version (and the reference of the vector one).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
#[inline(always)]
fn scalar<const QTM: bool>(
    h: &mut [u8; BATCH],
    v: &[u8; BATCH],
    budget: u8,
    alive: u32,
) -> (u32, u8) {
    let mut cut = 0u32;
    let mut min = u8::MAX;
    for k in Members(alive) {
        let mut x = h[k].max(v[k]);
        if QTM && HALF_TURN_SLOTS >> k & 1 == 1 && (x ^ budget) & 1 == 0 {
            x += 1;
        }
        h[k] = x;
        if x > budget {
            cut |= 1 << k;
            min = min.min(x);
        }
    }
    (cut, min)
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod simd {
    use super::BATCH;
    use std::arch::x86_64::*;

    #[inline(always)]
    pub fn raise_and_cut<const QTM: bool>(
        h: &mut [u8; BATCH],
        v: &[u8; BATCH],
        budget: u8,
        alive: u32,
    ) -> (u32, u8) {
        // SAFETY: SSSE3 is enabled at compile time (cfg above); every load and store stays
        // inside the 32-byte arrays.
        unsafe {
            let bits = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
            let set = _mm_cvtsi32_si128(alive as i32);
            let limit = _mm_set1_epi8(budget as i8);
            let mut cut = 0u32;
            let mut min = _mm_set1_epi8(-1);
            for half in 0..2 {
                // Byte i of the half is 0xff when child 16·half + i is alive: each byte gets
                // the set's byte holding its bit, then that bit is tested.
                let spread = _mm_set_epi64x(
                    0x0101_0101_0101_0101 * (2 * half as i64 + 1),
                    0x0101_0101_0101_0101 * (2 * half as i64),
                );
                let live = _mm_cmpeq_epi8(_mm_and_si128(_mm_shuffle_epi8(set, spread), bits), bits);
                let hp = h.as_mut_ptr().add(16 * half) as *mut __m128i;
                let old = _mm_loadu_si128(hp);
                let val = _mm_loadu_si128(v.as_ptr().add(16 * half) as *const __m128i);
                let mut raised = _mm_max_epu8(old, _mm_and_si128(val, live));
                if QTM {
                    // One for the living half-turn slots whose value has the budget's parity.
                    let halves = if half == 0 {
                        _mm_setr_epi8(0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0)
                    } else {
                        _mm_setr_epi8(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                    };
                    let same = _mm_andnot_si128(_mm_xor_si128(raised, limit), halves);
                    raised = _mm_add_epi8(raised, _mm_and_si128(same, live));
                }
                _mm_storeu_si128(hp, raised);
                // Signed compare: values are below 128.
                let over = _mm_and_si128(_mm_cmpgt_epi8(raised, limit), live);
                cut |= (_mm_movemask_epi8(over) as u32) << (16 * half);
                // Values of the children cut, 0xff elsewhere.
                min = _mm_min_epu8(
                    min,
                    _mm_or_si128(raised, _mm_andnot_si128(over, _mm_set1_epi8(-1))),
                );
            }
            min = _mm_min_epu8(min, _mm_srli_si128(min, 8));
            min = _mm_min_epu8(min, _mm_srli_si128(min, 4));
            min = _mm_min_epu8(min, _mm_srli_si128(min, 2));
            min = _mm_min_epu8(min, _mm_srli_si128(min, 1));
            (cut, _mm_cvtsi128_si32(min) as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    #[test]
    fn vector_and_scalar_versions_agree() {
        let mut rng = Rng::new(3);
        for round in 0..20_000 {
            let mut h = [0u8; BATCH];
            let mut v = [0u8; BATCH];
            for k in 0..BATCH {
                h[k] = rng.below(16) as u8;
                v[k] = rng.below(16) as u8;
            }
            // Sparse and dense sets, slots 18..32 included.
            let alive = match round % 3 {
                0 => rng.below(1 << 32) as u32,
                1 => rng.below(1 << 18) as u32,
                _ => (rng.below(1 << 32) & rng.below(1 << 32)) as u32,
            };
            let budget = rng.below(14) as u8;
            let (mut h1, mut h2) = (h, h);
            let got = raise_and_cut::<false>(&mut h1, &v, budget, alive);
            let want = scalar::<false>(&mut h2, &v, budget, alive);
            assert_eq!(got, want, "alive {alive:#x} budget {budget}");
            assert_eq!(h1, h2);
            let (mut h1, mut h2) = (h, h);
            let got = raise_and_cut::<true>(&mut h1, &v, budget, alive);
            let want = scalar::<true>(&mut h2, &v, budget, alive);
            assert_eq!(got, want, "QTM: alive {alive:#x} budget {budget}");
            assert_eq!(h1, h2);
        }
    }
}
