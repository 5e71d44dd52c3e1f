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
        PartialPerm { n, k, weights }
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
