//! Linear-time ranking of permutations, partial permutations and orientations.
//!
//! Korf's method (Korf & Schultze 2005): a permutation's Lehmer code digit for element `e` is
//! `e` minus the number of smaller elements already seen; with the seen elements kept as a bit
//! set, that count is one `popcount`, so ranking `k` of `n` elements costs `O(k)`. Ranks of
//! `k`-of-`n` partial permutations are dense in `0..n!/(n-k)!`; full permutations are the case
//! `k = n`. Orientations are numbers in base 3 (corners) or 2 (edges).
//!
//! Invariant: `unrank(rank(p)) == p` and `rank(unrank(r)) == r` for every `r` in range — the
//! property tests below check both directions.

/// `n!` for `n <= 20`.
pub const fn factorial(n: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= n {
        f *= i as u64;
        i += 1;
    }
    f
}

/// `n! / (n-k)!`: the number of ordered selections of `k` of `n` elements.
pub const fn n_perm_k(n: usize, k: usize) -> u64 {
    factorial(n) / factorial(n - k)
}

/// `n choose k`.
pub const fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    n_perm_k(n, k) / factorial(k)
}

/// Ranking of ordered selections of `k` distinct elements of `0..n` (`k <= n <= 12`).
#[derive(Clone, Copy, Debug)]
pub struct PartialPerm {
    n: usize,
    k: usize,
    /// `weights[i] = (n-1-i)! / (n-k)!`: the place value of digit `i`.
    weights: [u64; 16],
    /// The same place values in mixed radix (digit `i` has radix `n - i`), for the vector
    /// ranking of [`PartialPerm::rank_nibbles`]: digits are combined in pairs, the pairs in
    /// groups of four digits, and the (at most three) groups in scalar code.
    pair_weights: [i8; 16],
    group_weights: [i16; 8],
    /// Product of the radices of the digits of group 1 and of group 2.
    group_radix: [u64; 2],
}

impl PartialPerm {
    /// The ranking of `k`-of-`n` selections.
    pub const fn new(n: usize, k: usize) -> PartialPerm {
        assert!(k <= n && n <= 12);
        let mut weights = [0u64; 16];
        let mut i = 0;
        while i < k {
            weights[i] = factorial(n - 1 - i) / factorial(n - k);
            i += 1;
        }
        // Digit `t` (t < k) has radix `n - t`; a pair (2p, 2p+1) becomes `d[2p] * radix(2p+1) +
        // d[2p+1]`, or `d[2p]` alone when it is the last digit; a group of four digits j becomes
        // pair(2j) * radix(4j+2) * radix(4j+3) + pair(2j+1), shortened the same way.
        let mut pair_weights = [0i8; 16];
        let mut p = 0;
        while 2 * p < k {
            if 2 * p + 1 < k {
                pair_weights[2 * p] = (n - 2 * p - 1) as i8;
                pair_weights[2 * p + 1] = 1;
            } else {
                pair_weights[2 * p] = 1;
            }
            p += 1;
        }
        let mut group_weights = [0i16; 8];
        let mut j = 0;
        while 4 * j < k {
            let digits = if k - 4 * j < 4 { k - 4 * j } else { 4 };
            match digits {
                4 => {
                    group_weights[2 * j] = (radix(n, k, 4 * j + 2) * radix(n, k, 4 * j + 3)) as i16;
                    group_weights[2 * j + 1] = 1;
                }
                3 => {
                    group_weights[2 * j] = radix(n, k, 4 * j + 2) as i16;
                    group_weights[2 * j + 1] = 1;
                }
                _ => group_weights[2 * j] = 1,
            }
            j += 1;
        }
        PartialPerm {
            n,
            k,
            weights,
            pair_weights,
            group_weights,
            group_radix: [group_radix(n, k, 1), group_radix(n, k, 2)],
        }
    }

    /// Number of distinct ranks, `n!/(n-k)!`.
    pub const fn size(&self) -> u64 {
        n_perm_k(self.n, self.k)
    }

    /// Rank of `elems[..k]` (distinct elements of `0..n`).
    #[inline(always)]
    pub fn rank(&self, elems: &[u8]) -> u64 {
        let mut seen = 0u32;
        let mut r = 0u64;
        for i in 0..self.k {
            let e = elems[i] as u32;
            let smaller_seen = (seen & ((1 << e) - 1)).count_ones();
            r += (e - smaller_seen) as u64 * self.weights[i];
            seen |= 1 << e;
        }
        r
    }

    /// Rank of the pieces in the cube slots `bytes[START..START + k]`, each byte `piece |
    /// orientation << 4` as in [`crate::cube::Cube`]: the same value as [`PartialPerm::rank`] of
    /// the low nibbles. The search's hot path: with SSE4.1 the Lehmer digits of all slots are
    /// counted at once (slot `i` against the slots shifted `1..k` places) and combined by two
    /// multiply-add instructions; elsewhere it falls back to the scalar loop.
    #[inline(always)]
    pub fn rank_nibbles<const START: i32>(&self, bytes: &[u8; 16]) -> u64 {
        debug_assert!(START as usize + self.k <= 16);
        #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
        {
            simd::rank_nibbles::<START>(self, bytes)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
        {
            let pieces: [u8; 16] = std::array::from_fn(|i| bytes[(START as usize + i) % 16] & 0x0f);
            self.rank(&pieces[..self.k])
        }
    }

    /// Writes the selection with rank `r` into `out[..k]`.
    #[inline]
    pub fn unrank(&self, r: u64, out: &mut [u8]) {
        debug_assert!(r < self.size());
        // Every size we use (at most 12!) fits in 32 bits, and 32-bit division is much faster.
        debug_assert!(self.size() <= u32::MAX as u64);
        let mut r = r as u32;
        let mut free = (1u32 << self.n) - 1;
        for i in 0..self.k {
            let w = self.weights[i] as u32;
            let d = r / w;
            r -= d * w;
            let e = nth_set_bit(free, d);
            out[i] = e as u8;
            free &= !(1 << e);
        }
    }
}

/// Radix `n - t` of Lehmer digit `t` of a `k`-of-`n` selection (1 beyond the last digit).
const fn radix(n: usize, k: usize, t: usize) -> u64 {
    if t < k { (n - t) as u64 } else { 1 }
}

/// Product of the radices of digits `4j..4j+4`.
const fn group_radix(n: usize, k: usize, j: usize) -> u64 {
    radix(n, k, 4 * j) * radix(n, k, 4 * j + 1) * radix(n, k, 4 * j + 2) * radix(n, k, 4 * j + 3)
}

/// Position of the `d`-th (0-based) set bit of `x`.
#[inline(always)]
fn nth_set_bit(mut x: u32, d: u32) -> u32 {
    for _ in 0..d {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// Ranking of full permutations of `0..n`: the case `k = n` of [`PartialPerm`].
pub const fn permutation(n: usize) -> PartialPerm {
    PartialPerm::new(n, n)
}

/// Rank of orientation digits `digits` read as a number in `base` (most significant first).
#[inline(always)]
pub fn rank_digits(digits: &[u8], base: u32) -> u32 {
    digits.iter().fold(0u32, |r, &d| r * base + d as u32)
}

/// Rank of the bits 4 (the edge flips of [`crate::cube::Cube`]'s slots) of `bytes[START..START +
/// k]` read as a base-2 number, most significant first: [`rank_digits`] of the flips.
#[inline(always)]
pub fn rank_flips<const START: i32>(bytes: &[u8; 16], k: usize) -> u32 {
    debug_assert!(START as usize + k <= 16);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    {
        simd::rank_flips::<START>(bytes, k)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    {
        (0..k).fold(0, |r, i| {
            r << 1 | (bytes[START as usize + i] >> 4 & 1) as u32
        })
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
mod simd {
    use super::PartialPerm;
    use std::arch::x86_64::*;

    /// The 16 bytes, shifted down by `START` slots.
    ///
    /// # Safety
    /// SSE4.1 must be available (it is enabled at compile time: cfg above).
    #[inline(always)]
    unsafe fn load<const START: i32>(bytes: &[u8; 16]) -> __m128i {
        // SAFETY: 16 readable bytes; unaligned load.
        unsafe { _mm_srli_si128::<START>(_mm_loadu_si128(bytes.as_ptr() as *const __m128i)) }
    }

    #[inline(always)]
    pub(super) fn rank_nibbles<const START: i32>(pp: &PartialPerm, bytes: &[u8; 16]) -> u64 {
        // SAFETY: SSE4.1 is enabled at compile time (cfg above); the loads read 16 bytes each.
        unsafe { rank_nibbles_sse(pp, load::<START>(bytes)) }
    }

    /// # Safety
    /// SSE4.1 must be available.
    #[inline(always)]
    unsafe fn rank_nibbles_sse(pp: &PartialPerm, slots: __m128i) -> u64 {
        // SAFETY: the caller guarantees SSE4.1; the weight loads read 16 bytes each.
        unsafe {
            let k = pp.k;
            // Slot i (i < k) holds element e_i; slots >= k hold other bytes, which shifting towards
            // higher slots never moves below k.
            let e = _mm_and_si128(slots, _mm_set1_epi8(0x0f));
            // greater[i] = #{j < i : e_j > e_i}, counted with e shifted by s = j - i places (zeros
            // shifted in are never greater).
            let mut greater = _mm_setzero_si128();
            macro_rules! shift_step {
            ($($s:literal)*) => {$(
                if k > $s {
                    let shifted = _mm_slli_si128::<$s>(e);
                    greater = _mm_sub_epi8(greater, _mm_cmpgt_epi8(shifted, e));
                }
            )*};
        }
            shift_step!(1 2 3 4 5 6 7 8 9 10 11);
            // Lehmer digit d_i = e_i - #{j < i : e_j < e_i} = e_i - i + greater[i] (elements are
            // distinct).
            let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let digits = _mm_add_epi8(_mm_sub_epi8(e, iota), greater);
            let pair_w = _mm_loadu_si128(pp.pair_weights.as_ptr() as *const __m128i);
            let group_w = _mm_loadu_si128(pp.group_weights.as_ptr() as *const __m128i);
            let pairs = _mm_maddubs_epi16(digits, pair_w);
            let groups = _mm_madd_epi16(pairs, group_w);
            let g0 = _mm_cvtsi128_si32(groups) as u64;
            let g1 = _mm_extract_epi32::<1>(groups) as u64;
            let g2 = _mm_extract_epi32::<2>(groups) as u64;
            (g0 * pp.group_radix[0] + g1) * pp.group_radix[1] + g2
        }
    }

    #[inline(always)]
    pub(super) fn rank_flips<const START: i32>(bytes: &[u8; 16], k: usize) -> u32 {
        // SAFETY: SSE4.1 is enabled at compile time (cfg above); the load reads 16 bytes.
        unsafe { rank_flips_sse(load::<START>(bytes), k) }
    }

    /// # Safety
    /// SSE4.1 must be available.
    #[inline(always)]
    unsafe fn rank_flips_sse(slots: __m128i, k: usize) -> u32 {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            // Reverse slots 0..k so that slot 0 lands in bit k - 1 of the mask; other slots empty.
            let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let reversed = _mm_sub_epi8(_mm_set1_epi8(k as i8 - 1), iota);
            let beyond = _mm_cmpgt_epi8(iota, _mm_set1_epi8(k as i8 - 1));
            let control = _mm_or_si128(reversed, beyond);
            let v = _mm_shuffle_epi8(slots, control);
            // Bit 4 of each byte to bit 7, then one bit per byte.
            _mm_movemask_epi8(_mm_slli_epi16::<3>(v)) as u32
        }
    }
}

/// Inverse of [`rank_digits`]: writes `out.len()` digits of `r` in `base`.
#[inline]
pub fn unrank_digits(mut r: u32, base: u32, out: &mut [u8]) {
    for d in out.iter_mut().rev() {
        *d = (r % base) as u8;
        r /= base;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes() {
        assert_eq!(permutation(8).size(), 40320);
        assert_eq!(permutation(12).size(), 479_001_600);
        assert_eq!(PartialPerm::new(12, 7).size(), 3_991_680);
        assert_eq!(PartialPerm::new(12, 6).size(), 665_280);
        assert_eq!(binomial(12, 4), 495);
    }

    #[test]
    fn small_ranking_is_a_bijection() {
        // Exhaustively: every rank of 3-of-5 maps to a distinct selection and back.
        let pp = PartialPerm::new(5, 3);
        let mut seen = std::collections::HashSet::new();
        for r in 0..pp.size() {
            let mut out = [0u8; 3];
            pp.unrank(r, &mut out);
            assert!(out.iter().all(|&e| e < 5));
            assert!(out[0] != out[1] && out[1] != out[2] && out[0] != out[2]);
            assert!(seen.insert(out));
            assert_eq!(pp.rank(&out), r);
        }
        assert_eq!(seen.len(), 60);
    }

    #[test]
    fn ranks_are_lexicographic() {
        let p = permutation(4);
        assert_eq!(p.rank(&[0, 1, 2, 3]), 0);
        assert_eq!(p.rank(&[0, 1, 3, 2]), 1);
        assert_eq!(p.rank(&[3, 2, 1, 0]), 23);
    }

    fn selection(n: usize, k: usize) -> impl Strategy<Value = Vec<u8>> {
        Just((0..n as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |v| v[..k].to_vec())
    }

    proptest! {
        #[test]
        fn rank_then_unrank(n in 1usize..=12, k_frac in 0.0f64..=1.0, seed in any::<u64>()) {
            let k = ((n as f64) * k_frac).round() as usize;
            let pp = PartialPerm::new(n, k);
            let r = seed % pp.size();
            let mut out = [0u8; 16];
            pp.unrank(r, &mut out);
            prop_assert_eq!(pp.rank(&out[..k]), r);
        }

        #[test]
        fn unrank_then_rank(v in (1usize..=12).prop_flat_map(|n| (Just(n), 0..=n))
                                 .prop_flat_map(|(n, k)| (Just(n), selection(n, k)))) {
            let (n, sel) = v;
            let pp = PartialPerm::new(n, sel.len());
            let r = pp.rank(&sel);
            prop_assert!(r < pp.size());
            let mut out = [0u8; 16];
            pp.unrank(r, &mut out);
            prop_assert_eq!(&out[..sel.len()], &sel[..]);
        }

        #[test]
        fn vector_ranking_matches_scalar(
            v in (1usize..=12).prop_flat_map(|n| (Just(n), 0..=n))
                .prop_flat_map(|(n, k)| (Just(n), selection(n, k))),
            start in 0usize..=4,
            noise in any::<[u8; 16]>(),
        ) {
            let (n, sel) = v;
            let k = sel.len();
            prop_assume!(start + k <= 16);
            let pp = PartialPerm::new(n, k);
            // The slots around the selection and the high nibbles hold arbitrary bytes.
            let mut bytes = noise;
            for (i, &e) in sel.iter().enumerate() {
                bytes[start + i] = e | (noise[start + i] & 0xf0);
            }
            let flips: Vec<u8> = (0..k).map(|i| bytes[start + i] >> 4 & 1).collect();
            let (r, f) = match start {
                0 => (pp.rank_nibbles::<0>(&bytes), rank_flips::<0>(&bytes, k)),
                1 => (pp.rank_nibbles::<1>(&bytes), rank_flips::<1>(&bytes, k)),
                2 => (pp.rank_nibbles::<2>(&bytes), rank_flips::<2>(&bytes, k)),
                3 => (pp.rank_nibbles::<3>(&bytes), rank_flips::<3>(&bytes, k)),
                _ => (pp.rank_nibbles::<4>(&bytes), rank_flips::<4>(&bytes, k)),
            };
            prop_assert_eq!(r, pp.rank(&sel));
            prop_assert_eq!(f, rank_digits(&flips, 2));
        }

        #[test]
        fn digits_round_trip(base in 2u32..=3, len in 1usize..=11, seed in any::<u32>()) {
            let size = base.pow(len as u32);
            let r = seed % size;
            let mut out = vec![0u8; len];
            unrank_digits(r, base, &mut out);
            prop_assert!(out.iter().all(|&d| (d as u32) < base));
            prop_assert_eq!(rank_digits(&out, base), r);
        }
    }
}

/// Ranking of arrangements of a multiset: `n` slots, each holding a label `0..L`, label `k`
/// exactly `counts[k]` times (pieces of one class are interchangeable). Ranks are dense in
/// `0..n! / ∏ counts[k]!`, in lexicographic order of the label sequence. Each step uses the
/// identity `M(n-1; c - e_k) = M(n; c) · c_k / n` for multinomials `M`, so ranking costs
/// `O(n · L)` with two divisions a slot.
///
/// When the counts leave few *states* (vectors of counts still to place, at most
/// [`PREFIX_LIMIT`] entries of states × labels), [`Multiset::rank`] instead reads each
/// step's term from a table made once: one load and one add a slot, no division (the goal
/// tables' hot path). Both give the same ranks.
#[derive(Clone, Debug)]
pub struct Multiset {
    n: usize,
    labels: usize,
    counts: [u8; 16],
    size: u64,
    /// For each state `s` (counts still to place, mixed radix `counts[k] + 1`, label 0 the
    /// lowest digit) and label `l`, the number of arrangements of `s` that begin with a label
    /// below `l`: the rank's term when `l` comes next. Empty when too large.
    prefix: Box<[u64]>,
    /// The state index's step for one fewer of label `k`.
    stride: [u32; 16],
    /// The state index of `counts` itself.
    top: u32,
}

/// Most entries of a [`Multiset`]'s prefix table (512 KB).
pub const PREFIX_LIMIT: usize = 1 << 16;

impl Multiset {
    /// # Panics
    /// If there are more than 16 labels or 20 slots.
    pub fn new(counts: &[u8]) -> Multiset {
        assert!(counts.len() <= 16, "at most 16 labels");
        let n: usize = counts.iter().map(|&c| c as usize).sum();
        assert!(n <= 20, "at most 20 slots");
        let mut c = [0u8; 16];
        c[..counts.len()].copy_from_slice(counts);
        let size = counts
            .iter()
            .fold(factorial(n), |s, &k| s / factorial(k as usize));
        let labels = counts.len();
        let mut stride = [0u32; 16];
        let mut states = 1usize;
        for k in 0..labels {
            stride[k] = states as u32;
            states = states.saturating_mul(c[k] as usize + 1);
        }
        let top: usize = (0..labels)
            .map(|k| c[k] as usize * stride[k] as usize)
            .sum();
        let mut prefix = Vec::new();
        if states.saturating_mul(labels) <= PREFIX_LIMIT {
            prefix = vec![0u64; states * labels];
            for s in 0..states {
                let left: Vec<u8> = (0..labels)
                    .map(|k| ((s / stride[k] as usize) % (c[k] as usize + 1)) as u8)
                    .collect();
                let m = multinomial(&left);
                let total: u64 = left.iter().map(|&x| x as u64).sum();
                let mut below = 0u64;
                for l in 0..labels {
                    prefix[s * labels + l] = below;
                    if total > 0 {
                        below += (m as u128 * left[l] as u128 / total as u128) as u64;
                    }
                }
            }
        }
        Multiset {
            n,
            labels,
            counts: c,
            size,
            prefix: prefix.into_boxed_slice(),
            stride,
            top: top as u32,
        }
    }

    /// The number of arrangements.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The rank of `seq` (`n` labels with the counts given).
    #[inline]
    pub fn rank(&self, seq: &[u8]) -> u64 {
        if !self.prefix.is_empty() {
            let (mut s, mut r) = (self.top as usize, 0u64);
            for &l in &seq[..self.n] {
                r += self.prefix[s * self.labels + l as usize];
                s -= self.stride[l as usize] as usize;
            }
            return r;
        }
        self.rank_dividing(seq)
    }

    /// [`Multiset::rank`] by the multinomial identity (no table).
    #[inline]
    fn rank_dividing(&self, seq: &[u8]) -> u64 {
        let mut counts = self.counts;
        let (mut m, mut left, mut r) = (self.size, self.n as u64, 0u64);
        for &l in seq {
            let smaller: u64 = counts[..l as usize].iter().map(|&c| c as u64).sum();
            r += m * smaller / left;
            m = m * counts[l as usize] as u64 / left;
            counts[l as usize] -= 1;
            left -= 1;
        }
        r
    }

    /// The arrangement of rank `r` into `out` (`n` labels).
    pub fn unrank(&self, mut r: u64, out: &mut [u8]) {
        let mut counts = self.counts;
        let (mut m, mut left) = (self.size, self.n as u64);
        for slot in out.iter_mut().take(self.n) {
            for k in 0..self.labels {
                let t = m * counts[k] as u64 / left;
                if r < t {
                    *slot = k as u8;
                    m = t;
                    counts[k] -= 1;
                    break;
                }
                r -= t;
            }
            left -= 1;
        }
    }
}

/// `(Σ c)! / ∏ c_k!`.
fn multinomial(counts: &[u8]) -> u64 {
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    counts
        .iter()
        .fold(factorial(n), |s, &k| s / factorial(k as usize))
}

#[cfg(test)]
mod multiset_tests {
    use super::Multiset;

    /// Every rank unranks to an arrangement with the counts that ranks back to it, in
    /// lexicographic order.
    #[test]
    fn multiset_ranks_round_trip_in_order() {
        for counts in [
            &[1u8, 1, 1, 1][..],
            &[8, 1, 1, 1, 1],
            &[4, 4, 4],
            &[12],
            &[2, 3],
        ] {
            let ms = Multiset::new(counts);
            let n: usize = counts.iter().map(|&c| c as usize).sum();
            let mut prev: Option<Vec<u8>> = None;
            for r in 0..ms.size() {
                let mut out = vec![0u8; n];
                ms.unrank(r, &mut out);
                for (k, &c) in counts.iter().enumerate() {
                    assert_eq!(out.iter().filter(|&&l| l as usize == k).count(), c as usize);
                }
                assert_eq!(ms.rank(&out), r);
                assert_eq!(ms.rank_dividing(&out), r);
                if let Some(p) = prev {
                    assert!(p < out);
                }
                prev = Some(out);
            }
        }
        assert_eq!(Multiset::new(&[8, 1, 1, 1, 1]).size(), 11880);
        // The table is made where it fits and not elsewhere; both rankings agree.
        assert!(!Multiset::new(&[4, 4, 4]).prefix.is_empty());
        let wide = Multiset::new(&[1; 16]);
        assert!(wide.prefix.is_empty());
        let mut out = [0u8; 16];
        for r in [0, 1, 12345, wide.size() - 1] {
            wide.unrank(r, &mut out);
            assert_eq!(wide.rank(&out), r);
        }
        assert_eq!(Multiset::new(&[4, 4, 4]).size(), 34650);
    }
}
