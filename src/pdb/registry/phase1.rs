//! Phase-1 pattern databases: the exact distance of Kociemba's phase-1 coordinates from solved,
//! symmetry-reduced, for the optimal search.
//!
//! A position is abstracted to its corner twist (3^7), its edge flip (2^11) and the places of the
//! four UD-slice edges FR FL BL BR: either only which four places (C(12,4) = 495, pattern
//! `phase1`) or also their order (12·11·10·9 = 11880, pattern `phase1sorted`). Unlike the piece
//! patterns of [`crate::pdb::pattern`], these coordinates are read from the *position* itself, where a
//! move acts by a table lookup per coordinate (`coord::MoveTables`).
//!
//! The 16 symmetries that keep the UD axis map the flip-and-slice part onto classes (64,430 for
//! `phase1`; 1,523,864 with the order); a table entry is `class · 2187 + twist`, the twist taken
//! after conjugating the position onto its class representative. That is 16 times smaller than
//! the plain coordinate space: 141 M entries (70 MB) for `phase1`, 3.3 G (1.67 GB) for
//! `phase1sorted`. The search looks the table up on the position and on its two turns about the
//! URF–DBL diagonal, i.e. for all three slice axes (Kociemba's optimal solver does the same).
//!
//! Invariants:
//! - a class's block of 2187 twists is one BFS block (`Layout` in `pdb/blocks.rs`): a move sends
//!   the whole block to one block, and the twists follow a fixed map per (move, symmetry);
//! - when a class representative is its own image under some symmetries (its stabilizer), the
//!   twists related by those symmetries are the same state; the BFS marks them together
//!   (`Layout::for_each_twin`), so their values always agree.

use crate::coord::symmetry::{N_SYM_UD, SymClasses, flipslice_classes, twist_conj};
use crate::coord::{self, MoveTables, N_FLIP, N_MOVES, N_SLICE_PERM, N_TWIST};
use crate::cube::Cube;
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::family::{Builder, Family, Index, Store, Turned};
use crate::pdb::layout::Layout;
use crate::pdb::table::prefetch;
use crate::rank::{PartialPerm, permutation};

const PERM4: PartialPerm = permutation(4);
use std::sync::OnceLock;

/// Classes of flip × slice places under the 16 UD symmetries (Kociemba, kociemba.org).
pub const CLASSES_PLAIN: u64 = 64_430;
/// Classes of flip × ordered slice places (checked by a test against the enumeration).
pub const CLASSES_SORTED: u64 = 1_523_864;

/// Move, symmetry and class tables of one phase-1 pattern.
pub struct Phase1Space {
    /// With the order of the slice edges (11880 slice values) or without (495).
    sorted: bool,
    moves: &'static MoveTables,
    /// Classes of `slice · 2048 + flip` (shared with the two-phase solver).
    classes: &'static SymClasses,
    /// `class · 16 + sym` of each `slice · 2048 + flip`: one memory access for the search.
    class_sym: Vec<u32>,
    /// `twist_map[(m · 16 + s) · 2187 + t]`: the twist after move `m`, conjugated by `S_s`.
    twist_map: Vec<u16>,
    /// `twist_conj[t · 16 + s]`: twist `t` conjugated by `S_s`.
    twist_conj: &'static [u16],
    /// Slice rank (without order) of each 12-bit set of slice-edge places.
    comb_of_set: Vec<u16>,
}

/// Rank of a permutation of 0..4 packed two bits an element (element `k` in bits `2k..2k+2`).
static RANK4: OnceLock<[u8; 256]> = OnceLock::new();

fn rank4() -> &'static [u8; 256] {
    RANK4.get_or_init(|| {
        let mut t = [0u8; 256];
        let mut order = [0u8; 4];
        for r in 0..24 {
            PERM4.unrank(r, &mut order);
            let key = order
                .iter()
                .enumerate()
                .fold(0, |k, (i, &o)| k | (o << (2 * i)));
            t[key as usize] = r as u8;
        }
        t
    })
}

/// The `phase1` table's family: Kociemba's phase-1 coordinates reduced by the 16 UD symmetries.
pub(crate) const PHASE1: Family = phase1_family(false);
/// The `phase1sorted` table's family: with the order of the slice edges.
pub(crate) const PHASE1_SORTED: Family = phase1_family(true);

const fn phase1_family(sorted: bool) -> Family {
    Family {
        name: if sorted { "phase1sorted" } else { "phase1" },
        pieces: if sorted {
            "corner twists, edge flips, places and order of FR FL BL BR (16 symmetries)"
        } else {
            "corner twists, edge flips, places of FR FL BL BR (16 symmetries)"
        },
        entries: if sorted {
            CLASSES_SORTED
        } else {
            CLASSES_PLAIN
        } * 2187,
        version: 1,
        index: Index::Phase1 { sorted },
        self_dual: false,
        turned: Turned::Always,
        store: Store::Nibbles,
        builder: if sorted {
            Builder::Layout(|t| t.run(Phase1Space::get(true)))
        } else {
            Builder::Layout(|t| t.run(Phase1Space::get(false)))
        },
        metric: crate::cube::Metric::Htm,
    }
}

impl Phase1Space {
    /// The shared tables of `phase1` (`sorted = false`) or `phase1sorted`, built on first use
    /// (about a second, or several seconds for the sorted class enumeration).
    pub fn get(sorted: bool) -> &'static Phase1Space {
        static PLAIN: OnceLock<Phase1Space> = OnceLock::new();
        static SORTED: OnceLock<Phase1Space> = OnceLock::new();
        let cell = if sorted { &SORTED } else { &PLAIN };
        cell.get_or_init(|| Phase1Space::new(sorted))
    }

    fn new(sorted: bool) -> Phase1Space {
        let classes = flipslice_classes(sorted);
        let moves = MoveTables::get();
        let twist_conj = twist_conj();
        let mut twist_map = vec![0u16; N_MOVES * N_SYM_UD * N_TWIST];
        for m in 0..N_MOVES {
            for s in 0..N_SYM_UD {
                for t in 0..N_TWIST {
                    let moved = moves.twist[t * N_MOVES + m] as usize;
                    twist_map[(m * N_SYM_UD + s) * N_TWIST + t] = twist_conj[moved * N_SYM_UD + s];
                }
            }
        }
        let comb_of_set = (0..1usize << 12)
            .map(|set| {
                let ep: [u8; 12] = std::array::from_fn(|p| if set >> p & 1 == 1 { 8 } else { 0 });
                if set.count_ones() == 4 {
                    coord::slice_sorted(&ep) / N_SLICE_PERM as u16
                } else {
                    0
                }
            })
            .collect();
        let class_sym = classes.packed(4);
        Phase1Space {
            sorted,
            moves,
            classes,
            class_sym,
            twist_map,
            twist_conj,
            comb_of_set,
        }
    }

    /// Number of classes (table blocks).
    pub fn classes(&self) -> u64 {
        self.classes.rep.len() as u64
    }

    fn slice_per(&self) -> usize {
        if self.sorted { 1 } else { N_SLICE_PERM }
    }

    /// The flip-and-slice value after move `m`.
    #[inline(always)]
    fn flipslice_move(&self, fs: usize, m: usize) -> usize {
        let per = self.slice_per();
        let (slice, flip) = (fs / N_FLIP, fs % N_FLIP);
        let slice2 = self.moves.slice_sorted[slice * per * N_MOVES + m] as usize / per;
        slice2 * N_FLIP + self.moves.flip[flip * N_MOVES + m] as usize
    }

    /// Table index of position `p` (not its inverse).
    #[inline(always)]
    pub fn index(&self, p: &Cube) -> u64 {
        let (fs, twist) = self.coordinates(p);
        self.index_of(fs, twist)
    }

    /// Table indices of positions `cubes[k]` for the members `k` of bit set `members`, passed
    /// to `f(k, index)`. The class lookups of all cubes are requested first, so their cache
    /// misses overlap.
    #[inline(always)]
    pub fn for_each_index(&self, cubes: &Batch, members: u32, mut f: impl FnMut(usize, u64)) {
        let mut coords = [(0usize, 0usize); BATCH];
        for k in Members(members) {
            let c = self.coordinates(&cubes[k]);
            prefetch(&self.class_sym[c.0] as *const u32);
            coords[k] = c;
        }
        for k in Members(members) {
            let (fs, twist) = coords[k];
            f(k, self.index_of(fs, twist));
        }
    }

    /// The class of the representative of class `cls` turned by move `m`, and the symmetry
    /// that takes the turned value to that class's representative.
    #[inline]
    pub fn class_step(&self, cls: usize, m: usize) -> (usize, usize) {
        let fs2 = self.flipslice_move(self.classes.rep[cls] as usize, m);
        let cs = self.class_sym[fs2] as usize;
        (cs >> 4, cs & 15)
    }

    /// Table index of a position with these coordinates: `slice` is the slice value this
    /// space tracks (the combination, or with `sorted` the combination times 24 plus the order).
    #[inline(always)]
    pub fn index_of_coordinates(&self, flip: usize, twist: usize, slice: usize) -> u64 {
        self.index_of(slice * N_FLIP + flip, twist)
    }

    /// [`Phase1Space::index_of_coordinates`] and the symmetry `s` (0..16) that takes the
    /// position to the table's position at that index: `S_s · x · S_s⁻¹`.
    #[inline(always)]
    pub fn index_and_sym(&self, flip: usize, twist: usize, slice: usize) -> (u64, u8) {
        let cs = self.class_sym[slice * N_FLIP + flip] as usize;
        let (cls, s) = (cs >> 4, cs & 15);
        (
            cls as u64 * N_TWIST as u64 + self.twist_conj[twist * N_SYM_UD + s] as u64,
            s as u8,
        )
    }

    /// Table index of the flip-and-slice value `fs` and twist `twist`.
    #[inline(always)]
    fn index_of(&self, fs: usize, twist: usize) -> u64 {
        let cs = self.class_sym[fs] as usize;
        let (cls, s) = (cs >> 4, cs & 15);
        cls as u64 * N_TWIST as u64 + self.twist_conj[twist * N_SYM_UD + s] as u64
    }

    /// The flip-and-slice value and the twist of position `p`.
    #[inline(always)]
    fn coordinates(&self, p: &Cube) -> (usize, usize) {
        let e = p.edge_bytes();
        let c = p.corner_bytes();
        let mut flip = 0usize;
        for &b in &e[..11] {
            flip = flip * 2 + (b >> 4) as usize;
        }
        let mut twist = 0usize;
        for &b in &c[..7] {
            twist = twist * 3 + (b >> 4) as usize;
        }
        let mut set = 0usize;
        let mut order = 0usize;
        let mut k = 0;
        for (i, &b) in e[..12].iter().enumerate() {
            let piece = b & 0x0f;
            if piece >= 8 {
                set |= 1 << i;
                order |= ((piece - 8) as usize) << (2 * k);
                k += 1;
            }
        }
        let comb = self.comb_of_set[set] as usize;
        let slice = if self.sorted {
            comb * N_SLICE_PERM + rank4()[order & 0xff] as usize
        } else {
            comb
        };
        (slice * N_FLIP + flip, twist)
    }

    /// A position with table index `i`: the class representative's flip and slice, twist
    /// `i % 2187`, corners unpermuted.
    pub fn unrank(&self, i: u64) -> Cube {
        let (cls, t) = ((i / N_TWIST as u64) as usize, (i % N_TWIST as u64) as usize);
        let fs = self.classes.rep[cls] as usize;
        let ep = coord::slice_sorted_edges((fs / N_FLIP) * self.slice_per());
        let eo = coord::flip_cube(fs % N_FLIP).eo();
        let co = coord::twist_cube(t).co();
        Cube::from_parts(Cube::SOLVED.cp(), co, ep, eo)
    }
}

impl Layout for Phase1Space {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = N_TWIST as u32;
    /// The class representative's flip-and-slice value.
    type Pos = u32;
    /// Offset of the (move, symmetry) row in `twist_map`.
    type Map = u32;

    fn blocks(&self) -> u64 {
        self.classes()
    }

    #[inline]
    fn positions(&self, b: u64) -> u32 {
        self.classes.rep[b as usize]
    }

    #[inline]
    fn image(&self, fs: &u32, m: usize) -> (u64, u32) {
        let fs2 = self.flipslice_move(*fs as usize, m);
        let (cls, s) = (
            self.classes.class_of[fs2],
            self.classes.sym_of[fs2] as usize,
        );
        (cls as u64, ((m * N_SYM_UD + s) * N_TWIST) as u32)
    }

    #[inline(always)]
    fn apply(&self, row: u32, x: u32) -> u32 {
        self.twist_map[(row + x) as usize] as u32
    }

    #[inline]
    fn for_each_twin(&self, b: u64, x: u32, mut f: impl FnMut(u32)) {
        (self.classes).for_each_other_stabilizer(b as usize, |s| {
            f(self.twist_conj[x as usize * N_SYM_UD + s] as u32)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng};

    #[test]
    fn class_counts() {
        assert_eq!(Phase1Space::get(false).classes(), CLASSES_PLAIN);
        assert_eq!(Phase1Space::get(true).classes(), CLASSES_SORTED);
    }

    /// The fast index agrees with the coordinates computed from cubies and conjugated
    /// explicitly, and unranking inverts it.
    #[test]
    fn index_matches_the_definition() {
        let syms = crate::coord::symmetry::symmetries();
        let mut rng = Rng::new(3);
        for sorted in [false, true] {
            let sp = Phase1Space::get(sorted);
            let per = sp.slice_per();
            for _ in 0..2000 {
                let p = Cube::random(&mut rng);
                let fs = (coord::slice_sorted(&p.ep()) as usize / per) * N_FLIP
                    + coord::flip(&p.eo()) as usize;
                let s = sp.classes.sym_of[fs] as usize;
                let conj = syms.conj_cube(&p, s);
                let fs_conj = (coord::slice_sorted(&conj.ep()) as usize / per) * N_FLIP
                    + coord::flip(&conj.eo()) as usize;
                let cls = sp.classes.class_of[fs] as usize;
                assert_eq!(fs_conj, sp.classes.rep[cls] as usize);
                let want = cls as u64 * N_TWIST as u64 + coord::twist(&conj.co()) as u64;
                let i = sp.index(&p);
                assert_eq!(i, want);
                assert_eq!(sp.index(&sp.unrank(i)), i);
                // Conjugate positions share the entry, up to the representative's twins.
                let other = syms.conj_cube(&p, rng.below(16) as usize);
                let j = sp.index(&other);
                assert_eq!(j / N_TWIST as u64, i / N_TWIST as u64);
                let mut twins = vec![i % N_TWIST as u64];
                sp.for_each_twin(i / N_TWIST as u64, (i % N_TWIST as u64) as u32, |y| {
                    twins.push(y as u64)
                });
                assert!(twins.contains(&(j % N_TWIST as u64)));
                // A move seen through the layout lands on the moved position's entry.
                let m = rng.below(18) as usize;
                let rep = sp.unrank(i);
                let (b2, row) = sp.image(&sp.positions(i / N_TWIST as u64), m);
                let got = b2 * N_TWIST as u64 + sp.apply(row, (i % N_TWIST as u64) as u32) as u64;
                assert_eq!(got, sp.index(&rep.apply(Move::from_index(m))));
            }
        }
    }
}
