//! The prepass's gather ([`super::prepass`]) with AVX-512, 32 target words at a time: each
//! neighbour's 32 words come from two 16-lane gathers of the bytes [`Moves::word_at_by_move`]
//! names, shifted by the place's fixed 0 or 4 bits, and the half turns' rearrangements are
//! 64-entry word permutations, one per half of a word and parity. It computes what the scalar
//! gather does, word for word (the tests compare the two), in about a tenth of the
//! instructions.
//!
//! Used where the CPU has AVX-512 F, BW and VBMI ([`available`]); elsewhere the scalar gather
//! runs.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::bitmap::Page;
use super::index::{MAPPED, Moves, SAME_PARITY, WORDS};
use crate::coord::N_P2_MOVES;

/// Does this CPU run [`gather`]?
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *OK.get_or_init(|| {
            is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512vbmi")
                && std::env::var_os("OPTCUBE_NO_AVX512").is_none()
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Words a step: two 16-lane gathers.
const LANES: usize = 32;
/// A step's bytes: 32 words of 12 bits.
const STEP_BYTES: usize = LANES * 12 / 8;
/// The bytes of a step, as a byte mask.
#[cfg(target_arch = "x86_64")]
const STEP_MASK: u64 = (1 << STEP_BYTES) - 1;

const _: () = assert!(WORDS.is_multiple_of(LANES));

/// Byte `4j + b` of a vector takes byte `3j + b` of the packed words (`b < 3`): word pair `j`
/// in dword `j`.
const SPREAD: [u8; 64] = {
    let mut s = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (j, b) = (i / 4, i % 4);
        s[i] = (3 * j + if b < 3 { b } else { 2 }) as u8;
        i += 1;
    }
    s
};

/// The inverse of [`SPREAD`]: byte `3j + b` takes byte `4j + b` (the last 16 bytes unused).
const SQUEEZE: [u8; 64] = {
    let mut s = [0u8; 64];
    let mut i = 0;
    while i < STEP_BYTES {
        s[i] = (4 * (i / 3) + i % 3) as u8;
        i += 1;
    }
    s
};

/// Writes target page `c` into `dst` as [`super::prepass`]'s scalar gather does; returns the
/// set bits written.
///
/// # Safety
/// [`available`] must hold; `dst` must be a slot's `PAGE_BYTES` bytes that no one else uses,
/// and `own` and `sources` pages no one writes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub unsafe fn gather(
    t: &Moves,
    c: usize,
    sources: &[Page; N_P2_MOVES],
    own: Page,
    dst: *mut u8,
) -> u32 {
    // SAFETY (the whole function): the loads read a step's bytes of a page (masked to them),
    // the gathers read 4 bytes from a word's byte, which lie within PAGE_BYTES; the tables
    // are read within their lengths.
    unsafe {
        let parity_c = t.parity8[c] as usize;
        let spread = _mm512_loadu_si512(SPREAD.as_ptr().cast());
        let squeeze = _mm512_loadu_si512(SQUEEZE.as_ptr().cast());
        let low12 = _mm512_set1_epi32(0xfff);
        let high12 = _mm512_set1_epi32(0x0fff_0000);
        let mid12 = _mm512_set1_epi32(0x00ff_f000);
        let words12 = _mm512_set1_epi16(0xfff);
        let six = _mm512_set1_epi16(63);
        // A neighbour word lies at an odd place (shifted by 4) when the target's place parity
        // differs from it by the move's: lane i has the target's place parity i & 1.
        let shift_same = _mm512_set_epi32(4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0);
        let shift_flip = _mm512_set_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4);
        // The target word's slice parity is parity_c in even lanes, its opposite in odd ones.
        let odd_lanes: __mmask32 = 0xaaaa_aaaa;
        let table = |j: usize, p: usize, half: usize, i: usize| {
            _mm512_loadu_si512(t.by_parity[p][j][half][32 * i..].as_ptr().cast())
        };
        let unpack = |bytes: __m512i| {
            let d = _mm512_permutexvar_epi8(spread, bytes);
            _mm512_or_si512(
                _mm512_and_si512(d, low12),
                _mm512_and_si512(_mm512_slli_epi32::<4>(d), high12),
            )
        };
        let mut count = 0;
        for step in 0..WORDS / LANES {
            let (at, byte) = (LANES * step, STEP_BYTES * step);
            let mut acc = unpack(_mm512_maskz_loadu_epi8(
                STEP_MASK,
                own.ptr().add(byte).cast(),
            ));
            for (k, source) in sources.iter().enumerate() {
                let bytes = t.word_at_by_move.as_ptr().add(k * WORDS + at);
                let bytes = _mm512_loadu_si512(bytes.cast());
                let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(bytes));
                let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(bytes));
                let base = source.ptr().cast::<i32>();
                let shift = if SAME_PARITY[k] {
                    shift_same
                } else {
                    shift_flip
                };
                let lo = _mm512_srlv_epi32(_mm512_i32gather_epi32::<1>(lo, base), shift);
                let hi = _mm512_srlv_epi32(_mm512_i32gather_epi32::<1>(hi, base), shift);
                let w = _mm512_inserti64x4::<1>(
                    _mm512_castsi256_si512(_mm512_cvtepi32_epi16(lo)),
                    _mm512_cvtepi32_epi16(hi),
                );
                let w = _mm512_and_si512(w, words12);
                let Some(j) = MAPPED.iter().position(|&m| m == k) else {
                    acc = _mm512_or_si512(acc, w);
                    continue;
                };
                let (lo6, hi6) = (_mm512_and_si512(w, six), _mm512_srli_epi16::<6>(w));
                let moved = |p: usize| {
                    _mm512_or_si512(
                        _mm512_permutex2var_epi16(table(j, p, 0, 0), lo6, table(j, p, 0, 1)),
                        _mm512_permutex2var_epi16(table(j, p, 1, 0), hi6, table(j, p, 1, 1)),
                    )
                };
                let w = _mm512_mask_blend_epi16(odd_lanes, moved(parity_c), moved(parity_c ^ 1));
                acc = _mm512_or_si512(acc, w);
            }
            // Dword j holds words 2j and 2j + 1 at bits 0 and 16: pack them to 24 bits.
            let pairs = _mm512_or_si512(
                _mm512_and_si512(acc, low12),
                _mm512_and_si512(_mm512_srli_epi32::<4>(acc), mid12),
            );
            let mut lanes = [0u64; 8];
            _mm512_storeu_si512(lanes.as_mut_ptr().cast(), pairs);
            count += lanes.iter().map(|q| q.count_ones()).sum::<u32>();
            let packed = _mm512_permutexvar_epi8(squeeze, pairs);
            _mm512_mask_storeu_epi8(dst.add(byte).cast(), STEP_MASK, packed);
        }
        count
    }
}

/// Not x86-64: never called ([`available`] is false).
#[cfg(not(target_arch = "x86_64"))]
pub unsafe fn gather(_: &Moves, _: usize, _: &[Page; N_P2_MOVES], _: Page, _: *mut u8) -> u32 {
    unreachable!("no AVX-512 here")
}
