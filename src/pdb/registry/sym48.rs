//! The 48-symmetry coset table `sym48e0`: the exact number of moves that bring a position into
//! the subgroup of every half turn's closure (each corner in its own tetrad and oriented, each
//! edge in its own slice), reduced by all 48 symmetries — the coordinate of Tronto's H48
//! (nissy-core `doc/h48.md`) without edge orientation bits.
//!
//! An entry is `class · 34,650 + separation`: the class of the position's corner coset
//! ([`crate::coord::coset`], 3,393 classes), and the slice separation of the position
//! conjugated onto that class's representative. 117,567,450 entries.
//!
//! Why the values are lower bounds: the coset coordinate of `P · m` depends only on that of
//! `P` and on `m`, and conjugating by a symmetry maps move sequences to move sequences of the
//! same length, so a table entry's distance is the distance of a coset of the subgroup, which
//! every sequence solving `P` must reach. The inverse position has the same distance, so its
//! entry is a bound too; and since the subgroup holds every half turn, `(P · m)⁻¹ = m · P⁻¹`
//! is in the same coset as `P⁻¹` when `m` is a half turn: such a move leaves the inverse's
//! value unchanged.
//!
//! Invariants:
//! - a class's block of 34,650 separations is one BFS block ([`Layout`]): a move maps the
//!   representative's corner coset to one class, and the separations follow a fixed map per
//!   (move, symmetry);
//! - when the representative is fixed by some symmetries (its stabilizer), the separations
//!   those symmetries relate stand for the same coset; the BFS marks them together
//!   ([`Layout::for_each_twin`]), so the value does not depend on which of the symmetries
//!   taking a position to the representative the index used.

use crate::coord::N_MOVES;
use crate::coord::coset::{
    CornerCoset, N_CORNER_COSET_CLASSES, N_SLICE_SEP, SliceSep, corner_coset_bytes,
    corner_coset_cube, n_sep_flip_k, sep_flip_bytes, sep_flip_k_bytes, sep_flip_k_edges,
    slice_sep_bytes, slice_sep_edges,
};
use crate::coord::symmetry::{SymClasses, symmetries};
use crate::cube::Cube;
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::family::{Builder, Family, Index, Store, Turned};
use crate::pdb::layout::Layout;
use crate::pdb::table::prefetch;
use std::sync::OnceLock;

/// Entries of the table: corner coset classes × slice separations.
pub const ENTRIES: u64 = N_CORNER_COSET_CLASSES as u64 * N_SLICE_SEP as u64;

/// The `sym48e0` table's family.
pub(crate) const SYM48E0: Family = Family {
    name: "sym48e0",
    pieces: "corner tetrads and twists, the slice of every edge (48 symmetries)",
    entries: ENTRIES,
    version: 1,
    index: Index::Coset { k: 0 },
    self_dual: false,
    turned: Turned::Never,
    store: Store::Lines { base: None },
    builder: Builder::Layout(|t| t.run(&Sym48Layout::new())),
    metric: crate::cube::Metric::Htm,
};

/// Evaluates `$body` with `$K` the coset parameter `$k` as a constant, so that a table read
/// by [`Index::Coset`] reaches the [`Sym48Space`] method compiled for its variant: the one
/// list of the variants there are (`sym48e0` to `e8`; a K without a family declared is never
/// reached). A new variant is an arm here and its family's declaration.
macro_rules! with_coset_k {
    ($k:expr, $K:ident => $body:expr) => {
        match $k {
            0 => {
                const $K: u8 = 0;
                $body
            }
            1 => {
                const $K: u8 = 1;
                $body
            }
            2 => {
                const $K: u8 = 2;
                $body
            }
            3 => {
                const $K: u8 = 3;
                $body
            }
            4 => {
                const $K: u8 = 4;
                $body
            }
            5 => {
                const $K: u8 = 5;
                $body
            }
            6 => {
                const $K: u8 = 6;
                $body
            }
            7 => {
                const $K: u8 = 7;
                $body
            }
            8 => {
                const $K: u8 = 8;
                $body
            }
            9 => {
                const $K: u8 = 9;
                $body
            }
            k => unreachable!("no coset table with {k} flips"),
        }
    };
}
pub(crate) use with_coset_k;

/// The index tables of the coset table: what the search reads. (The builder's move and
/// conjugation tables are in [`Sym48Layout`], so that a solving process does not hold them:
/// about 15 MB.)
pub struct Sym48Space {
    /// `class << 6 | sym` of each corner coset value: one memory access for the search.
    class_sym: Vec<u32>,
    /// Each class's representative and stabilizer ([`crate::coord::symmetry::SymClasses`]):
    /// copied, so that a solving process need not keep the classes' other two arrays (0.77
    /// MB, 2 % of the smallest set's memory), which `class_sym` packs.
    rep: Vec<u32>,
    stabilizer: Vec<u64>,
    /// `(S_s, S_s⁻¹)`'s edges, corners unmoved, as cubes: conjugating a position's edges by
    /// two compositions is cheaper in the search than a lookup in the 3.3 MB table
    /// `SliceSep::conj`, which does not stay in cache (`results/memory-choices.md`).
    sym_edges: [(Cube, Cube); 48],
}

impl Sym48Space {
    /// Built once per process (about a second).
    pub fn get() -> &'static Sym48Space {
        static SPACE: OnceLock<Sym48Space> = OnceLock::new();
        SPACE.get_or_init(|| {
            // A builder shares the classes it has; a solving process builds them for this
            // alone and keeps what the search reads.
            let own;
            let classes = match CornerCoset::built() {
                Some(c) => &c.classes,
                None => {
                    own = CornerCoset::build();
                    &own.classes
                }
            };
            let syms = symmetries();
            let edges = |s: usize| {
                let c = &syms.cubes[s];
                Cube::from_parts(Cube::SOLVED.cp(), Cube::SOLVED.co(), c.ep, c.eo)
            };
            let sym_edges = std::array::from_fn(|s| (edges(s), edges(syms.inv[s] as usize)));
            Sym48Space {
                class_sym: classes.packed(6),
                rep: classes.rep.clone(),
                stabilizer: classes.stabilizer.clone(),
                sym_edges,
            }
        })
    }

    /// Table index of position `p` in `sym48e0` (`K` = 0) or `sym48eK` (K = 1 to 9,
    /// [`crate::pdb::sym48ek`]).
    #[inline(always)]
    pub fn index<const K: u8>(&self, p: &Cube) -> u64 {
        self.index_of::<K>(self.class_sym[corner_coset_bytes(p.corner_bytes())], p)
    }

    /// The index of `p`, whose corner coset has class and symmetry `class_sym`: the class
    /// times the edge part's size plus the edge part of `S p S⁻¹` (only its edges are
    /// computed right): the separation, with the first min(K, 4) E pieces' flips, and the
    /// first K − 4 M pieces' flips for K > 4.
    #[inline(always)]
    fn index_of<const K: u8>(&self, class_sym: u32, p: &Cube) -> u64 {
        let (cls, s) = ((class_sym >> 6) as u64, (class_sym & 63) as usize);
        let conj = self.conj_edges(s, p);
        cls * Self::inner::<K>() + Self::edge_part::<K>(conj.edge_bytes())
    }

    /// Values of the edge part of variant `K`.
    #[inline(always)]
    pub const fn inner<const K: u8>() -> u64 {
        match K {
            0 => N_SLICE_SEP as u64,
            1..=9 => n_sep_flip_k(K) as u64,
            _ => panic!("coset variants are e0 to e9"),
        }
    }

    /// The edge part of variant `K` of edge bytes.
    #[inline(always)]
    pub fn edge_part<const K: u8>(e: &[u8; 16]) -> u64 {
        (match K {
            0 => slice_sep_bytes(e),
            4 => sep_flip_bytes(e),
            _ => sep_flip_k_bytes::<K>(e),
        }) as u64
    }

    /// The class of `p`'s corner coset and the symmetry `s` onto its representative.
    #[inline(always)]
    pub fn class_sym(&self, p: &Cube) -> (usize, usize) {
        let cs = self.class_sym[corner_coset_bytes(p.corner_bytes())];
        ((cs >> 6) as usize, (cs & 63) as usize)
    }

    /// `S_s p S_s⁻¹`: only its edges are right (its corners are `p`'s).
    #[inline(always)]
    pub fn conj_edges(&self, s: usize, p: &Cube) -> Cube {
        let (sym, inv) = &self.sym_edges[s];
        sym.compose(p).compose(inv)
    }

    /// The symmetries that map class `cls`'s representative to itself (bit `s` for `S_s`).
    #[inline(always)]
    pub fn stabilizer(&self, cls: usize) -> u64 {
        self.stabilizer[cls]
    }

    /// A cube with class `cls`'s representative corner coset (its tetrad places and twists;
    /// every piece in its own tetrad, edges solved): what `sym48eK` and `corners48` unrank.
    pub fn representative(&self, cls: usize) -> Cube {
        corner_coset_cube(self.rep[cls] as usize)
    }

    /// Table indices of positions `cubes[k]` for the members `k` of `members`, passed to
    /// `f(k, index)`; the class lookups are all requested before the first is used.
    #[inline(always)]
    pub fn for_each_index<const K: u8>(
        &self,
        cubes: &Batch,
        members: u32,
        mut f: impl FnMut(usize, u64),
    ) {
        let mut coords = [0usize; BATCH];
        for k in Members(members) {
            let cc = corner_coset_bytes(cubes[k].corner_bytes());
            prefetch(&self.class_sym[cc] as *const u32);
            coords[k] = cc;
        }
        for k in Members(members) {
            f(k, self.index_of::<K>(self.class_sym[coords[k]], &cubes[k]));
        }
    }

    /// A position with table index `i`: the class representative's corners, the edge part's
    /// edges (not necessarily of matching parity; unflipped but for the flips the variant
    /// records).
    pub fn unrank<const K: u8>(&self, i: u64) -> Cube {
        let inner = Self::inner::<K>();
        let (cls, x) = (i / inner, (i % inner) as usize);
        let c = self.representative(cls as usize);
        let (ep, eo) = match K {
            0 => (slice_sep_edges(x), [0; 12]),
            _ => sep_flip_k_edges::<K>(x),
        };
        Cube::from_parts(c.cp(), c.co(), ep, eo)
    }
}

/// The layout of `sym48e0`'s BFS: the corner coset's 3,393 classes under the 48 symmetries
/// (block `b`: class `b`), times the slice separation of the position conjugated onto the
/// class representative (34,650 values). The 48 symmetries keep the coset's subgroup, so
/// they act on the index and a move maps a block to one block. (The larger variants have no
/// such index and are marked from coset classes instead: [`crate::pdb::sym48ek`].)
pub struct Sym48Layout {
    classes: &'static SymClasses,
    /// `class << SYM_BITS | sym` of each corner coset value.
    class_sym: Vec<u32>,
    corner_moves: &'static [u32],
    edges: &'static SliceSep,
}

/// Bits of the symmetry in [`Sym48Layout`]'s `class_sym` and in a map (`m << SYM_BITS | sym`).
const SYM_BITS: u32 = 6;

impl Sym48Layout {
    pub fn new() -> Sym48Layout {
        let classes = &CornerCoset::get().classes;
        Sym48Layout {
            classes,
            class_sym: classes.packed(SYM_BITS),
            corner_moves: CornerCoset::moves(),
            edges: SliceSep::get(),
        }
    }

    /// Separation `x` conjugated by symmetry `s`.
    #[inline(always)]
    fn conj(&self, x: usize, s: usize) -> u32 {
        self.edges.conj[x * 48 + s] as u32
    }
}

impl Default for Sym48Layout {
    fn default() -> Self {
        Self::new()
    }
}

impl Layout for Sym48Layout {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = N_SLICE_SEP as u32;
    /// The representative's corner coset value.
    type Pos = u32;
    /// `m << SYM_BITS | s`: the move and the symmetry to the target's representative.
    type Map = u32;

    fn blocks(&self) -> u64 {
        self.classes.rep.len() as u64
    }

    #[inline]
    fn positions(&self, b: u64) -> u32 {
        self.classes.rep[b as usize]
    }

    #[inline]
    fn image(&self, cc: &u32, m: usize) -> (u64, u32) {
        let cs = self.class_sym[self.corner_moves[*cc as usize * N_MOVES + m] as usize];
        let mask = (1 << SYM_BITS) - 1;
        (
            (cs >> SYM_BITS) as u64,
            (m as u32) << SYM_BITS | (cs & mask),
        )
    }

    #[inline(always)]
    fn apply(&self, map: u32, x: u32) -> u32 {
        let (m, s) = (
            (map >> SYM_BITS) as usize,
            (map & ((1 << SYM_BITS) - 1)) as usize,
        );
        let moved = self.edges.moves[x as usize * N_MOVES + m];
        self.conj(moved as usize, s)
    }

    #[inline]
    fn for_each_twin(&self, b: u64, x: u32, mut f: impl FnMut(u32)) {
        (self.classes).for_each_other_stabilizer(b as usize, |s| f(self.conj(x as usize, s)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Its layout's blocks are classes under the 48 symmetries, so a move of two faces made
    /// as two turns of it would turn the wrong face: the slice-turn and axial tables refuse it.
    #[test]
    #[should_panic(expected = "symmetry classes")]
    fn its_layout_cannot_make_moves_of_two_faces() {
        let layout = Sym48Layout::new();
        let _ = crate::pdb::layout::InMetric::new(&layout, crate::cube::Metric::Stm);
    }
    use crate::cube::{Move, Rng};

    /// The index of a position, of its conjugates, of its moves seen through the layout and of
    /// its unranked entry agree.
    #[test]
    fn index_is_a_class_function_and_moves_act() {
        let sp = Sym48Space::get();
        let layout = Sym48Layout::new();
        let syms = symmetries();
        let inner = N_SLICE_SEP as u64;
        let mut rng = Rng::new(48);
        for _ in 0..1000 {
            let p = Cube::random(&mut rng);
            let i = sp.index::<0>(&p);
            assert!(i < ENTRIES);
            assert_eq!(sp.index::<0>(&sp.unrank::<0>(i)), i);
            let (b, x) = (i / inner, (i % inner) as u32);
            let mut twins = vec![x];
            layout.for_each_twin(b, x, |y| twins.push(y));
            let other = syms.conj_cube(&p, rng.below(48) as usize);
            let j = sp.index::<0>(&other);
            assert_eq!(j / inner, b);
            assert!(twins.contains(&((j % inner) as u32)));
            for m in Move::all() {
                let (b2, map) = layout.image(&layout.positions(b), m.index());
                let got = b2 * inner + layout.apply(map, x) as u64;
                let want = sp.index::<0>(&sp.unrank::<0>(i).apply(m));
                assert_eq!(got, want, "{m}");
            }
        }
    }
}

/// The table holds the exact distance of every coset: a breadth-first search over the raw
/// coordinate pairs (corner coset, separation), without symmetry, to depth 6 agrees with it on
/// every pair it reaches, and pairs it does not reach read more than 6. Its values are the same
/// on conjugate positions, and the build is the same for 1 and 2 threads.
#[cfg(test)]
mod table_tests {
    use super::*;
    use crate::coord::coset::{corner_coset, slice_sep};
    use crate::cube::{Move, Rng};
    use crate::pdb::{Method, Pattern};
    use crate::testing::{build, sym48e0_table};
    use std::collections::HashMap;

    #[test]
    fn exact_coset_distances_to_depth_6() {
        let t = sym48e0_table();
        let sp = Sym48Space::get();
        let key = |c: &Cube| (corner_coset(&c.cp(), &c.co()), slice_sep(&c.ep()));
        // A raw pair's neighbours by the move tables; a cube of the pair for the table index.
        let (cc_moves, sep_moves) = (CornerCoset::moves(), &SliceSep::get().moves);
        let mut depth: HashMap<(usize, usize), u8> = HashMap::new();
        let mut layer = vec![(key(&Cube::SOLVED), Cube::SOLVED)];
        depth.insert(layer[0].0, 0);
        for d in 1..=6u8 {
            let mut next = Vec::new();
            for &((cc, sep), c) in &layer {
                for m in Move::all() {
                    let k = (
                        cc_moves[cc * N_MOVES + m.index()] as usize,
                        sep_moves[sep * N_MOVES + m.index()] as usize,
                    );
                    if let std::collections::hash_map::Entry::Vacant(v) = depth.entry(k) {
                        v.insert(d);
                        let moved = c.apply(m);
                        debug_assert_eq!(key(&moved), k);
                        next.push((k, moved));
                    }
                }
            }
            // Every pair reached at depth d reads d.
            for (_, c) in &next {
                assert_eq!(t.get(sp.index::<0>(c)), d, "{c:?}");
            }
            layer = next;
        }
        assert!(depth.len() > 100_000, "{} pairs", depth.len());
        let mut rng = Rng::new(6);
        let syms = symmetries();
        for _ in 0..20_000 {
            let c = Cube::random(&mut rng);
            let v = t.get(sp.index::<0>(&c));
            match depth.get(&key(&c)) {
                Some(&d) => assert_eq!(v, d),
                None => assert!(v > 6, "{c:?} reads {v}"),
            }
            let s = rng.below(48) as usize;
            assert_eq!(t.get(sp.index::<0>(&syms.conj_cube(&c, s))), v, "sym {s}");
        }
    }

    #[test]
    fn one_and_two_threads_build_the_same_table() {
        let one = build(Pattern::SYM48E0, Method::Bfs, 1);
        assert_eq!(one.entries(), ENTRIES);
        assert_eq!(ENTRIES, 117_567_450);
        assert!(one.bytes() == sym48e0_table().bytes());
    }

    /// The file's 2-bit form of the table reads every entry at most at its value, and loses
    /// little: its mean stays within 0.1 of the exact one.
    #[test]
    fn the_lines_form_reads_lower_bounds() {
        use crate::pdb::{Format, NibbleTable, histogram_mean};
        let t = sym48e0_table();
        let format = Pattern::SYM48E0.file_format(&t.histogram());
        assert_eq!(format, Format::Lines { base: 7 });
        let Format::Lines { base } = format else {
            unreachable!()
        };
        let lines = NibbleTable::in_huge_pages(&t.to_lines(base), ENTRIES, format).unwrap();
        let mut below = 0u64;
        let mut sum = 0u64;
        for i in 0..ENTRIES {
            let (v, r) = (t.get(i), lines.get(i));
            assert!(r <= v, "entry {i}: reads {r} above {v}");
            below += (r < v) as u64;
            sum += r as u64;
        }
        let mean = sum as f64 / ENTRIES as f64;
        let exact = histogram_mean(&t.histogram());
        assert!(
            exact - mean < 0.1,
            "mean {mean} against {exact} ({below} below)"
        );
    }
}
