//! `corners48`: Korf's corner table reduced by the 48 symmetries, the small coset sets'
//! corner fallback: the same values as `corners` (44 MB) in 0.98 MB.
//!
//! An entry is `class · 576 + order`, read from the inverse cube `Q` as every piece pattern is:
//! - `class`: the class of `Q`'s corner coset under the 48 symmetries (which places hold the
//!   first tetrad, and the twists; 3,393 classes, [`crate::coord::coset`]), with a symmetry
//!   `S` that takes that coset onto the class's representative ([`Sym48Space::class_sym`], the
//!   coset tables' own lookup);
//! - `order`: the order of the pieces within their tetrads in `S Q S⁻¹`, whose tetrad places
//!   and twists are the representative's: the first tetrad's pieces as they appear place by
//!   place (24 orders) times the second tetrad's (24).
//!
//! 3,393 · 576 = 1,954,368 entries, against 8!·3^7 = 88,179,840 for `corners`.
//!
//! Why the values are exact corner distances, hence lower bounds: an entry stands for one
//! corner state (the representative's places and twists with that order), and holds that
//! state's distance, read from the `corners` table when it is built. Conjugating by a symmetry
//! maps move sequences to sequences of the same length, so `S Q S⁻¹`'s corners are exactly as
//! far from solved as `Q`'s, which are as far as the position's (`corners` is self-dual). When
//! the representative has other symmetries (its stabilizer), a position may be conjugated onto
//! it by several `S` and land on several entries; each holds the distance of its own state,
//! and those states are conjugates, so the value read does not depend on which `S` was used.

use crate::coord::coset::N_CORNER_COSET_CLASSES;
use crate::coord::symmetry::symmetries;
use crate::cube::{Cube, Metric};
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::checkpoint::Checkpoint;
use crate::pdb::family::{Builder, Family, Index, Pattern, Store, Turned};
use crate::pdb::sym48::Sym48Space;
use crate::pdb::{Method, NibbleTable, generate};
use crate::progress::{Progress, ProgressMode};
use crate::rank::{PartialPerm, permutation};
use std::sync::OnceLock;

/// Orders of the pieces within their tetrads: 4! · 4!.
const ORDERS: u64 = 576;
/// Entries: corner coset classes × orders.
pub const ENTRIES: u64 = N_CORNER_COSET_CLASSES as u64 * ORDERS;

const PERM4: PartialPerm = permutation(4);

/// The `corners48` table's family.
pub(crate) const CORNERS48: Family = Family {
    name: "corners48",
    pieces: "URF UFL ULB UBR DFR DLF DBL DRB (positions and twists; 48 symmetries)",
    entries: ENTRIES,
    version: 1,
    index: Index::OfInverse {
        index,
        unrank,
        batch: Some(batch),
    },
    self_dual: true,
    turned: Turned::Never,
    store: Store::Nibbles,
    builder: Builder::Own {
        build,
        entries: ENTRIES,
        // The corner table it is read from, and itself.
        bytes: Pattern::CORNERS.entries().div_ceil(2) + ENTRIES.div_ceil(2),
    },
    metric: Metric::Htm,
};

/// The lookup's tables: the coset tables' class and symmetry of each corner coset (shared
/// with them), the symmetries' corner permutations, and what [`order_bytes`] reads.
struct Corners48 {
    space: &'static Sym48Space,
    /// `(S_s, S_s⁻¹)`'s corner permutations (twists 0, edges solved): conjugating by two
    /// compositions gives the right permutation; the twists are the class's and not read.
    sym_corners: [(Cube, Cube); 48],
    /// For each 8-bit mask of the first tetrad's places, the byte shuffle that gathers the
    /// first tetrad's places in order into bytes 0..4 and the second's into bytes 4..8.
    gather: Vec<[u8; 16]>,
    /// The rank among 4! of four 2-bit numbers `a + 4b + 16c + 64d` (0 where they are not a
    /// permutation).
    rank4: [u8; 256],
}

impl Corners48 {
    fn get() -> &'static Corners48 {
        static TABLES: OnceLock<Corners48> = OnceLock::new();
        TABLES.get_or_init(|| {
            let syms = symmetries();
            let perm = |s: usize| {
                let cp = syms.cubes[s].cp;
                Cube::from_parts(cp, [0; 8], Cube::SOLVED.ep(), Cube::SOLVED.eo())
            };
            let sym_corners = std::array::from_fn(|s| (perm(s), perm(syms.inv[s] as usize)));
            let gather = (0..256u32)
                .map(|mask| {
                    let mut g = [0x80u8; 16];
                    let places = (0..8u8).filter(|&p| mask >> p & 1 == 1);
                    let others = (0..8u8).filter(|&p| mask >> p & 1 == 0);
                    for (k, p) in places.chain(others).enumerate().take(8) {
                        g[k] = p;
                    }
                    g
                })
                .collect();
            let rank4 = std::array::from_fn(|key| {
                let d: [u8; 4] = std::array::from_fn(|i| (key >> (2 * i) & 3) as u8);
                let is_perm = (0..4).all(|v| d.contains(&v));
                if is_perm { PERM4.rank(&d) as u8 } else { 0 }
            });
            Corners48 {
                space: Sym48Space::get(),
                sym_corners,
                gather,
                rank4,
            }
        })
    }

    #[inline(always)]
    fn index(&self, q: &Cube) -> u64 {
        let (cls, s) = self.space.class_sym(q);
        let (a, b) = &self.sym_corners[s];
        let c = a.compose(q).compose(b);
        cls as u64 * ORDERS + self.order_bytes(c.corner_bytes()) as u64
    }

    /// [`order_of`] of corner bytes (`piece | twist << 4`), with byte shuffles: the tetrad
    /// places' mask by a movemask, the places gathered tetrad by tetrad, their pieces' numbers
    /// within the tetrad weighted into two 8-bit keys, each ranked by a 256-byte table.
    #[inline(always)]
    fn order_bytes(&self, c: &[u8; 16]) -> u16 {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            use std::arch::x86_64::*;
            // SAFETY: SSSE3 is enabled at compile time (cfg above); unaligned loads of 16
            // readable bytes.
            unsafe {
                let v = _mm_loadu_si128(c.as_ptr() as *const __m128i);
                let piece = _mm_and_si128(v, _mm_set1_epi8(0x0f));
                // 0x80 at the first tetrad's pieces 0, 2, 5, 7.
                let first =
                    _mm_setr_epi8(-128, 0, -128, 0, 0, -128, 0, -128, 0, 0, 0, 0, 0, 0, 0, 0);
                let mask = (_mm_movemask_epi8(_mm_shuffle_epi8(first, piece)) & 0xff) as usize;
                let g = _mm_loadu_si128(self.gather[mask].as_ptr() as *const __m128i);
                let gathered = _mm_shuffle_epi8(piece, g);
                // Each piece's number within its tetrad (pieces in increasing order).
                let local = _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0);
                let l = _mm_shuffle_epi8(local, gathered);
                let w = _mm_setr_epi8(1, 4, 16, 64, 1, 4, 16, 64, 0, 0, 0, 0, 0, 0, 0, 0);
                let keys = _mm_madd_epi16(_mm_maddubs_epi16(l, w), _mm_set1_epi16(1));
                let (ka, kb) = (
                    _mm_cvtsi128_si32(keys) as usize & 0xff,
                    _mm_extract_epi16(keys, 2) as usize & 0xff,
                );
                self.rank4[ka] as u16 * 24 + self.rank4[kb] as u16
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        {
            order_of(&std::array::from_fn(|i| c[i] & 0x0f))
        }
    }
}

/// Is this corner piece in the first tetrad {URF, ULB, DLF, DRB}, and its number within its
/// tetrad (pieces in increasing order).
#[inline]
fn tetrad_of(piece: u8) -> (bool, u8) {
    const FIRST: [bool; 8] = [true, false, true, false, false, true, false, true];
    const LOCAL: [u8; 8] = [0, 0, 1, 1, 2, 2, 3, 3];
    (FIRST[piece as usize], LOCAL[piece as usize])
}

/// The order of the pieces within their tetrads of corner permutation `cp` (place → piece):
/// the first tetrad's pieces in place order, ranked among 4!, times 24, plus the second's.
/// ([`Corners48::order_bytes`] computes it with byte shuffles; this is its definition.)
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
fn order_of(cp: &[u8; 8]) -> u16 {
    let (mut first, mut second) = ([0u8; 4], [0u8; 4]);
    let (mut i, mut j) = (0, 0);
    for &piece in cp {
        match tetrad_of(piece) {
            (true, local) => {
                first[i] = local;
                i += 1;
            }
            (false, local) => {
                second[j] = local;
                j += 1;
            }
        }
    }
    (PERM4.rank(&first) * 24 + PERM4.rank(&second)) as u16
}

/// Table index of the position whose inverse is `q`.
fn index(q: &Cube) -> u64 {
    Corners48::get().index(q)
}

fn batch(cubes: &Batch, members: u32, out: &mut [u64; BATCH]) {
    let t = Corners48::get();
    for k in Members(members) {
        out[k] = t.index(&cubes[k]);
    }
}

/// The inverse cube of entry `i`: the class representative's tetrad places and twists, the
/// pieces of each tetrad on its places in the entry's order (edges solved).
fn unrank(i: u64) -> Cube {
    let (cls, order) = ((i / ORDERS) as usize, i % ORDERS);
    let rep = Sym48Space::get().representative(cls);
    let (mut first, mut second) = ([0u8; 4], [0u8; 4]);
    PERM4.unrank(order / 24, &mut first);
    PERM4.unrank(order % 24, &mut second);
    const FIRST: [u8; 4] = [0, 2, 5, 7];
    const SECOND: [u8; 4] = [1, 3, 4, 6];
    let (mut i, mut j) = (0, 0);
    let cp = rep.cp().map(|piece| {
        if tetrad_of(piece).0 {
            i += 1;
            FIRST[first[i - 1] as usize]
        } else {
            j += 1;
            SECOND[second[j - 1] as usize]
        }
    });
    Cube::from_parts(cp, rep.co(), rep.ep(), rep.eo())
}

/// Builds `corners` in memory by the one breadth-first search (a few seconds, 44 MB) and reads
/// each entry's state there.
fn build(progress: &Progress, _checkpoint: &mut Checkpoint) -> NibbleTable {
    let hidden = Progress::new(ProgressMode::Hidden, "corners", 0, "entries");
    let corners = generate(
        Pattern::CORNERS,
        Method::Bfs,
        &hidden,
        &mut Checkpoint::none(),
    );
    let table = NibbleTable::new_unknown(ENTRIES);
    for i in 0..ENTRIES {
        table.set_if_unknown(
            i,
            corners.get(Pattern::CORNERS.index_of_inverse(&unrank(i))),
        );
        if i % (1 << 18) == 0 {
            progress.update(i, "");
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::coset::{CornerCoset, corner_coset};
    use crate::cube::Rng;

    #[test]
    fn every_entry_ranks_back() {
        for i in 0..ENTRIES {
            assert_eq!(index(&unrank(i)), i, "entry {i}");
        }
    }

    /// The shuffles compute [`order_of`], and every order occurs once for each of the 70
    /// placements of the tetrads.
    #[test]
    fn orders_are_a_bijection() {
        let t = Corners48::get();
        let mut seen = vec![0u32; ORDERS as usize];
        for r in 0..40_320 {
            let mut cp = [0u8; 8];
            permutation(8).unrank(r, &mut cp);
            let o = order_of(&cp);
            let bytes: [u8; 16] = std::array::from_fn(|i| if i < 8 { cp[i] | 0x20 } else { 0 });
            assert_eq!(t.order_bytes(&bytes), o, "{cp:?}");
            seen[o as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n == 70), "{seen:?}");
    }

    /// The table reads what `corners` reads (built here by its own breadth-first search, in
    /// the `korf6` fixture), on random positions and on positions a few moves from solved.
    #[test]
    fn reads_the_corner_distance() {
        let corners = crate::testing::korf6_table(Pattern::CORNERS);
        let table = crate::testing::build(Pattern::CORNERS48, Method::Bfs, 2);
        let mut r = Rng::new(4848);
        let mut walk = Cube::SOLVED;
        for n in 0..200_000 {
            let q = if n % 2 == 0 {
                Cube::random(&mut r)
            } else {
                walk = walk.apply(crate::cube::random_scramble(&mut r, 1)[0]);
                if n % 40 == 1 {
                    walk = Cube::SOLVED;
                }
                walk
            };
            let want = corners.get(Pattern::CORNERS.index_of_inverse(&q));
            assert_eq!(table.get(index(&q)), want, "{q:?}");
        }
        assert_eq!(table.histogram().len(), 12, "corner distances reach 11");
    }

    /// The conjugate lands on the representative's corner coset itself, so an entry's state
    /// is the conjugate's corners.
    #[test]
    fn conjugates_land_on_the_representative() {
        let t = Corners48::get();
        let classes = &CornerCoset::get().classes;
        let mut r = Rng::new(48);
        for _ in 0..20_000 {
            let q = Cube::random(&mut r);
            let (cls, s) = t.space.class_sym(&q);
            let (a, b) = &t.sym_corners[s];
            let c = a.compose(&q).compose(b);
            let conj = symmetries().conj_cube(&q, s);
            assert_eq!(c.cp(), conj.cp());
            assert_eq!(
                corner_coset(&conj.cp(), &conj.co()),
                classes.rep[cls] as usize
            );
        }
    }
}
