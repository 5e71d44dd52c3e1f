//! The coset table `sym48e4`: like `sym48e0` ([`super::sym48`]), with the four E-slice edges
//! (FR FL BL BR) also required to be oriented — variant `eK` of Tronto's H48 coordinate
//! (nissy-core `doc/h48.md`) with K = 4 and the E-slice edges as the chosen ones.
//!
//! An entry is `class · 554,400 + edge part`: the class of the position's corner coset under
//! all 48 symmetries (3,393), and the separation with the E pieces' flips
//! ([`crate::coord::coset::sep_flip_bytes`]) of the position conjugated onto that class's
//! representative. 1,881,079,200 entries.
//!
//! Why the values are lower bounds, although the 48 symmetries do not act on the coordinate:
//! - The subgroup (corners in their tetrads and oriented, edges in their slices, E edges
//!   oriented) is kept by the 16 symmetries that keep the UD axis, so those act on its cosets.
//!   The builder's breadth-first search runs over corner classes under those 16 (9,996 blocks
//!   of 554,400 entries, [`UdLayout`]) and gives every coset its exact distance.
//! - Entry `i` of the 48-reduced table copies the distance of one coset: the coset of the
//!   representative's corners with edge part `x` ([`E4Reduction::source`]). A position with
//!   index `i` is conjugated by some symmetry `S` onto that coset, so the entry is the exact
//!   coset distance of `S P S⁻¹`, at most the distance of `S P S⁻¹` from solved, which is the
//!   distance of `P`. Which of several symmetries the lookup picked does not matter: each
//!   entry is a function of the index alone, and a bound for every position with that index.
//! - The inverse probe and the half-turn rule hold as for `sym48e0`: the subgroup holds every
//!   half turn, since no half turn flips an edge.
//!
//! Invariant: the build is deterministic (the BFS writes `d + 1` whoever writes it, and the
//! reduction is a pure function of the BFS table), so 1 and 2 threads give the same bytes.

use super::bfs::bfs;
use super::family::{Builder, Family, Index, Store, Turned};
use super::sym48::CosetLayout;
use super::table::{NibbleTable, bytes_for};
use crate::coord::coset::{
    CornerCoset, N_CORNER_COSET_CLASSES, N_CORNER_COSET_CLASSES_UD, N_SEP_FLIP, SepFlip,
    corner_coset, sep_flip_bytes, solved_corner_coset,
};
use crate::cube::Cube;
use crate::progress::Progress;
use rayon::prelude::*;

/// Entries of the table: corner coset classes (48 symmetries) × separations × E flips.
pub const ENTRIES: u64 = N_CORNER_COSET_CLASSES as u64 * N_SEP_FLIP as u64;

/// Entries of the builder's 16-symmetry table (one nibble each while building).
pub const UD_ENTRIES: u64 = N_CORNER_COSET_CLASSES_UD as u64 * N_SEP_FLIP as u64;

/// Bytes the build holds at its peak: the 16-symmetry nibble table, the 48-reduced one, and
/// the move and conjugation tables.
pub const BUILD_BYTES: u64 = bytes_for(UD_ENTRIES) as u64 + bytes_for(ENTRIES) as u64 + (200 << 20);

/// The builder's index space: corner coset classes under the 16 UD symmetries, times the `e4`
/// edge part of the position conjugated onto the class representative.
pub type UdLayout = CosetLayout<u32, { N_SEP_FLIP as u32 }>;

/// The `sym48e4` table's family: built over [`UdLayout`] and read off, so not over its own
/// index (and without an IDDFS build).
pub(crate) const SYM48E4: Family = Family {
    name: "sym48e4",
    pieces: "corner tetrads and twists, the slice of every edge, FR FL BL BR flips (48 symmetries)",
    entries: ENTRIES,
    version: 1,
    index: Index::Coset { k: 4 },
    self_dual: false,
    turned: Turned::Never,
    store: Store::Lines { base: None },
    builder: Builder::Own {
        build,
        entries: UD_ENTRIES,
        bytes: BUILD_BYTES,
    },
};

impl UdLayout {
    pub fn new() -> UdLayout {
        CosetLayout::with(CornerCoset::classes_ud(), SepFlip::get())
    }

    /// The solved position's entry.
    pub fn start(&self) -> u64 {
        let (b, x) = self.entry_of(
            solved_corner_coset(),
            sep_flip_bytes(Cube::SOLVED.edge_bytes()),
        );
        b * N_SEP_FLIP as u64 + x as u64
    }
}

impl Default for UdLayout {
    fn default() -> Self {
        Self::new()
    }
}

/// The reduction from the 16-symmetry table to the 48-reduced one.
pub struct E4Reduction {
    layout: UdLayout,
    /// The 48-symmetry class representatives' corner coset values.
    reps: &'static [u32],
}

impl E4Reduction {
    pub fn new() -> E4Reduction {
        E4Reduction {
            layout: UdLayout::new(),
            reps: &CornerCoset::get().classes.rep,
        }
    }

    /// The builder's layout.
    pub fn layout(&self) -> &UdLayout {
        &self.layout
    }

    /// The entry (block, inner) of the 16-symmetry table whose distance entry `i` of the
    /// 48-reduced table holds: the coset of the class representative's corners with edge
    /// part `i mod 554,400`.
    #[inline]
    pub fn source(&self, i: u64) -> (u64, u32) {
        let (cls, x) = (i / N_SEP_FLIP as u64, (i % N_SEP_FLIP as u64) as usize);
        self.layout.entry_of(self.reps[cls as usize] as usize, x)
    }

    /// The 48-reduced table read off `value(block, inner)` (the 16-symmetry table's values), in
    /// parallel over the classes.
    pub fn reduce(&self, value: impl Fn(u64, u32) -> u8 + Sync) -> NibbleTable {
        let mut bytes = vec![0u8; bytes_for(ENTRIES)];
        // N_SEP_FLIP is even: every class's entries are whole bytes.
        bytes
            .par_chunks_mut(N_SEP_FLIP / 2)
            .enumerate()
            .for_each(|(cls, chunk)| {
                // Every entry of the class reads the same block, by the same symmetry
                // ([`E4Reduction::source`]).
                let (b, s) = self.layout.class_sym(self.reps[cls] as usize);
                for (j, byte) in chunk.iter_mut().enumerate() {
                    let x = 2 * j;
                    let (x0, x1) = (self.layout.conj(x, s), self.layout.conj(x + 1, s));
                    *byte = value(b, x0) | value(b, x1) << 4;
                }
            });
        NibbleTable::from_bytes(bytes, ENTRIES)
    }
}

impl Default for E4Reduction {
    fn default() -> Self {
        Self::new()
    }
}

/// Builds the table on the current rayon pool: the BFS over the 16-symmetry layout (progress
/// in its entries, [`UD_ENTRIES`]), then the reduction.
pub fn build(progress: &Progress) -> NibbleTable {
    let red = E4Reduction::new();
    let layout = red.layout();
    let ud = NibbleTable::new_unknown(UD_ENTRIES);
    bfs(layout, &ud, layout.start(), "sym48e4", Some(progress));
    progress.update(UD_ENTRIES, "reducing by 48 symmetries");
    red.reduce(|b, x| ud.load(b * N_SEP_FLIP as u64 + x as u64))
}

/// The coset coordinate of a position, without symmetry: (corner coset, `e4` edge part).
pub fn raw_coset(c: &Cube) -> (usize, usize) {
    (
        corner_coset(&c.cp(), &c.co()),
        sep_flip_bytes(c.edge_bytes()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::N_MOVES;
    use crate::coord::coset::{SepFlip, corner_coset_cube, sep_flip_edges};
    use crate::coord::symmetry::symmetries;
    use crate::cube::{Move, Rng};
    use crate::pdb::layout::Layout;
    use crate::pdb::sym48::Sym48Space;
    use std::collections::HashMap;

    /// A cube of the 16-symmetry layout's entry: the representative's corners, the edge part.
    fn ud_cube(layout: &UdLayout, b: u64, x: u32) -> Cube {
        let c = corner_coset_cube(layout.positions(b) as usize);
        let (ep, eo) = sep_flip_edges(x as usize);
        Cube::from_parts(c.cp(), c.co(), ep, eo)
    }

    /// 117,567,450 · 2^4 entries; the builder's table has 9,996 blocks of the same size.
    #[test]
    fn entry_counts() {
        assert_eq!(ENTRIES, 117_567_450 << 4);
        assert_eq!(crate::pdb::Pattern::SYM48E4.entries(), ENTRIES);
        assert_eq!(UD_ENTRIES, 9_996 * 554_400);
        assert_eq!(
            UdLayout::new().blocks() * UdLayout::INNER as u64,
            UD_ENTRIES
        );
    }

    /// The layout's blocks, moves and twins agree with moving and conjugating cubes.
    #[test]
    fn ud_layout_moves_and_twins() {
        let layout = UdLayout::new();
        let syms = symmetries();
        let mut rng = Rng::new(416);
        let entry = |c: &Cube| {
            let (cc, e) = raw_coset(c);
            layout.entry_of(cc, e)
        };
        for _ in 0..2000 {
            let p = Cube::random(&mut rng);
            let (b, x) = entry(&p);
            assert!(b < layout.blocks() && x < UdLayout::INNER);
            let mut twins = vec![x];
            layout.for_each_twin(b, x, |y| twins.push(y));
            // Every UD conjugate lands on the same block, at a twin.
            let (b2, y) = entry(&syms.conj_cube(&p, rng.below(16) as usize));
            assert_eq!(b2, b);
            assert!(twins.contains(&y));
            // The entry's cube is an entry of the block, and moves act through the layout.
            let q = ud_cube(&layout, b, x);
            assert_eq!(entry(&q), (b, x));
            for m in Move::all() {
                let (b3, map) = layout.image(&layout.positions(b), m.index());
                let (b4, z) = entry(&q.apply(m));
                assert_eq!(b3, b4, "{m}");
                let mut tw = vec![z];
                layout.for_each_twin(b4, z, |y| tw.push(y));
                assert!(tw.contains(&layout.apply(map, x)), "{m}");
            }
        }
    }

    /// Entry `i` of the 48-reduced table copies the coset of a conjugate of every position with
    /// index `i`: for positions, their conjugates and inverses, the source entry is a UD
    /// conjugate of the coset of some of the position's 48 conjugates.
    #[test]
    fn the_reduction_reads_a_conjugate_coset() {
        let red = E4Reduction::new();
        let sp = Sym48Space::get();
        let syms = symmetries();
        let mut rng = Rng::new(417);
        for _ in 0..1000 {
            let p = Cube::random(&mut rng);
            for c in [p, p.inverse(), syms.conj_cube(&p, rng.below(48) as usize)] {
                let i = sp.index::<4>(&c);
                assert!(i < ENTRIES);
                let (b, x) = red.source(i);
                let found = (0..48).any(|s| {
                    let (cc, e) = raw_coset(&syms.conj_cube(&c, s));
                    red.layout().entry_of(cc, e) == (b, x)
                });
                assert!(found, "{c:?}");
            }
        }
    }

    /// Admissible where it can be checked without the 5.5 G-entry BFS: with the exact coset
    /// distances to depth 6 (a breadth-first search over raw coset pairs) standing in for the
    /// 16-symmetry table, the reduced value of positions within 6 moves, and of their
    /// inverses, is at most their distance.
    #[test]
    fn reduced_values_are_lower_bounds_within_6_moves() {
        let red = E4Reduction::new();
        let sp = Sym48Space::get();
        let t = SepFlip::get();
        let cc_moves = CornerCoset::moves();
        let mut depth: HashMap<(usize, usize), u8> = HashMap::new();
        let start = raw_coset(&Cube::SOLVED);
        depth.insert(start, 0);
        let mut layer = vec![start];
        for d in 1..=6u8 {
            let mut next = Vec::new();
            for &(cc, e) in &layer {
                for m in 0..N_MOVES {
                    let k = (
                        cc_moves[cc * N_MOVES + m] as usize,
                        t.moves[e * N_MOVES + m] as usize,
                    );
                    if let std::collections::hash_map::Entry::Vacant(v) = depth.entry(k) {
                        v.insert(d);
                        next.push(k);
                    }
                }
            }
            layer = next;
        }
        assert!(depth.len() > 1_000_000, "{} cosets", depth.len());
        // The 16-symmetry table's value of an entry: the distance of its representative's raw
        // coset (7 standing for "more than 6").
        let layout = red.layout();
        let value = |b: u64, x: u32| {
            let cc = layout.positions(b) as usize;
            *depth.get(&(cc, x as usize)).unwrap_or(&7)
        };
        // Positions within 6 moves (all to depth 5, a twentieth of those at 6), and inverses.
        for (d, layer) in crate::testing::positions_within_6(418).iter().enumerate() {
            for c in layer {
                for q in [*c, c.inverse()] {
                    let (b, x) = red.source(sp.index::<4>(&q));
                    let v = value(b, x);
                    assert!(v as usize <= d, "{q:?} at {d} moves reads {v}");
                }
            }
        }
    }
}
