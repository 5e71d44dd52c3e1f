//! The pruning step of a node's expansion, for all its children at once.
//!
//! A node's children live in slots 0..32 (slot = move index, [`BATCH`]); a `u32` bit set says
//! which are alive. After a lookup has read a value for every living child, [`raise_and_cut`]
//! raises each child's heuristic value to it and drops the children whose value exceeds the
//! budget. On x86-64 with SSSE3 this is a dozen vector instructions per half of the slots
//! instead of a loop with one iteration per child; elsewhere it is that loop. Both give the
//! same result for every input (tested against each other).

use crate::pdb::batch::{BATCH, Members};

/// For the children in `alive`: raises `h[k]` to `v[k]`, and returns the children whose new
/// value exceeds `budget` (a bit set) with the smallest such value (`u8::MAX` if none). Slots
/// outside `alive` are left unchanged. Values are below 128.
#[inline(always)]
pub fn raise_and_cut(h: &mut [u8; BATCH], v: &[u8; BATCH], budget: u8, alive: u32) -> (u32, u8) {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        simd::raise_and_cut(h, v, budget, alive)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        scalar(h, v, budget, alive)
    }
}

/// The portable version (and the reference of the vector one).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
#[inline(always)]
fn scalar(h: &mut [u8; BATCH], v: &[u8; BATCH], budget: u8, alive: u32) -> (u32, u8) {
    let mut cut = 0u32;
    let mut min = u8::MAX;
    for k in Members(alive) {
        let x = h[k].max(v[k]);
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
    pub fn raise_and_cut(
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
                let raised = _mm_max_epu8(old, _mm_and_si128(val, live));
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
            let got = raise_and_cut(&mut h1, &v, budget, alive);
            let want = scalar(&mut h2, &v, budget, alive);
            assert_eq!(got, want, "alive {alive:#x} budget {budget}");
            assert_eq!(h1, h2);
        }
    }
}
