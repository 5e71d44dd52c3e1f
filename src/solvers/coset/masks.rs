//! For every phase-1 position, the moves that bring it one move closer to H and the moves that
//! keep its distance, with its distance mod 3, in one 4-byte entry: what lets the phase-1 walk
//! step through a node with no slack, or one move of slack, without looking up its children,
//! and look up a node with more slack at one memory access a child.
//!
//! Below a node whose phase-1 distance equals the moves it has left, only the children one move
//! closer can lead to a seed, and they have no slack either; below a node with one move of
//! slack, only the children closer or as far. Most nodes of a deep walk are such nodes; without
//! the masks each costs a table lookup for every one of its 13 or so children, with them one
//! lookup of its own entry.
//!
//! **The index is reduced by symmetry on the twist**, as in Rokicki's `phase1prune` (cube20src;
//! the idea only): a node `x` is read at the entry of `S_s · x · S_s⁻¹`, where `S_s` is the UD
//! symmetry that takes its twist to its class's representative (168 classes of the 2187
//! twists under the 16 symmetries). Its flip and slice are then conjugated by `S_s` with small
//! tables: a symmetry permutes the edges' places, so it maps the flip linearly, plus a pattern
//! that depends only on the places of the slice edges ([`SymIndex`]). Every table the index
//! needs is a few KB, so a node's index costs no cache miss; the two-phase solver's phase-1
//! index (reduced on flip and slice) reads a 4 MB class table first, a second miss before the
//! entry's. The reduction is not exact (a twist with a stabilizer keeps twin entries), which
//! costs only memory: 168 · 495 · 2048 = 170,311,680 entries, 681 MB.
//!
//! The child of `x` by move `m` is the child of the entry's position by `S_s M_m S_s⁻¹`, so an
//! entry's moves are turned into `x`'s by mapping each move back ([`DownMasks::moves`]).
//!
//! **An entry** holds six 4-bit face codes (bits `4f..4f+4` for face `f`) and the position's
//! phase-1 distance mod 3 (bits 24..26). A face's three moves each lead one closer, as far, or
//! one farther; they cannot both lead closer and farther (two moves of one face differ by a
//! move of that face), which leaves 15 of the 27 combinations (Rokicki's count).
//!
//! Invariant: `moves(index(x))` is exactly the pair (the moves whose child has a residue one less
//! (mod 3) than `x`'s, the moves whose child has `x`'s residue), and `residue(index(x))` is
//! `x`'s, which for exact distances means one move closer, as far, and the distance mod 3
//! (checked by a test against lookups in the two-phase solver's phase-1 table).
//!
//! Computing them takes 10–30 s on 2 cores, so a solver opened from a directory keeps
//! them there ([`crate::pdb::derived`], named after the phase-1 table's checksum): every later
//! `optcube coset` process, and every task of a study, reads them in about a second.

use rayon::prelude::*;

use crate::coord::symmetry::{N_SYM_UD, SymClasses, SymCube, flipslice_classes, symmetries};
use crate::coord::{self, MoveTables, N_FLIP, N_MOVES, N_SLICE, N_SLICE_PERM, N_TWIST};
use crate::pdb::derived::{Derived, open_or_derive};
use crate::pdb::file::TableError;
use crate::pdb::huge::{FrozenArray, HugeArray};
use crate::progress::{Progress, ProgressMode};
use crate::solvers::twophase::{TwoPhase, closer_residue};
use std::path::Path;

/// The masks of one two-phase solver's phase-1 table (681 MB; in huge-page memory, since they
/// are read at random, and in 4 KB pages nearly every read would also miss the TLB).
pub struct DownMasks {
    entries: FrozenArray<u32>,
    index: SymIndex,
    /// `decode[s][face][code]`: a node's moves one closer (bits 0..18) and as far (bits
    /// 32..50) for an entry's face code, read with symmetry `s`.
    decode: Box<[[[u64; 16]; 6]; N_SYM_UD]>,
}

/// The small tables of the index (module docs).
pub struct SymIndex {
    /// `class << 4 | s` of each twist: `S_s` takes it to its class's representative.
    twist: Vec<u16>,
    /// The representative twist of each class.
    reps: Vec<u16>,
    /// `flip[s · 2048 + f]`: the linear part of flip `f` conjugated by `S_s`.
    flip: Vec<u16>,
    /// `slice[s · 495 + c]`: the conjugated slice combination `<< 16`, and the pattern its
    /// places add to the flip.
    slice: Vec<u32>,
}

impl SymIndex {
    /// Builds the tables from the symmetries (a few ms).
    pub fn new() -> SymIndex {
        let syms = symmetries();
        let twists = SymClasses::build(
            syms,
            N_SYM_UD,
            N_TWIST,
            |t| SymCube::from_cube(&coord::twist_cube(t)),
            |c| coord::twist(&c.co) as usize,
        );
        let twist = (0..N_TWIST)
            .map(|t| (twists.class_of[t] << 4 | twists.sym_of[t] as u32) as u16)
            .collect();
        let reps = twists.rep.iter().map(|&r| r as u16).collect();
        let conj = |s: usize, flip: usize, comb: usize| {
            let c = SymCube {
                ep: coord::slice_sorted_edges(comb * N_SLICE_PERM),
                eo: coord::flip_cube(flip).eo(),
                ..SymCube::IDENTITY
            };
            let y = syms.conj(&c, s);
            (
                coord::flip(&y.eo),
                coord::slice_sorted(&y.ep) as usize / N_SLICE_PERM,
            )
        };
        let mut slice = Vec::with_capacity(N_SYM_UD * N_SLICE);
        let mut flip = Vec::with_capacity(N_SYM_UD * N_FLIP);
        for s in 0..N_SYM_UD {
            for comb in 0..N_SLICE {
                let (pattern, c2) = conj(s, 0, comb);
                slice.push((c2 as u32) << 16 | pattern as u32);
            }
            let base = conj(s, 0, 0).0;
            for f in 0..N_FLIP {
                flip.push(conj(s, f, 0).0 ^ base);
            }
        }
        SymIndex {
            twist,
            reps,
            flip,
            slice,
        }
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.reps.len() * N_SLICE * N_FLIP
    }

    /// Entry index and symmetry of a node with these coordinates (`comb` 0..495, the slice
    /// edges' combination).
    #[inline(always)]
    pub fn index(&self, flip: u16, twist: u16, comb: u16) -> (u32, u8) {
        let ts = self.twist[twist as usize] as usize;
        let (cls, s) = (ts >> 4, ts & 15);
        let comb = comb as usize;
        let sl = self.slice[s * N_SLICE + comb] as usize;
        let f = (self.flip[s * N_FLIP + flip as usize] as usize ^ sl) & (N_FLIP - 1);
        (((cls * N_SLICE + (sl >> 16)) * N_FLIP + f) as u32, s as u8)
    }

    /// Flip, twist and slice combination of the position at entry `index`.
    pub fn position(&self, index: usize) -> (usize, usize, usize) {
        let (row, flip) = (index / N_FLIP, index % N_FLIP);
        (flip, self.reps[row / N_SLICE] as usize, row % N_SLICE)
    }
}

impl Default for SymIndex {
    fn default() -> Self {
        Self::new()
    }
}

/// The 15 (moves one closer, as far) patterns of one face's three moves (module docs), in the
/// order of their codes.
fn face_codes() -> Vec<(u8, u8)> {
    let mut codes = Vec::new();
    for down in 0u8..8 {
        for same in 0u8..8 {
            let farther = !(down | same) & 7;
            if down & same == 0 && (down == 0 || farther == 0) {
                codes.push((down, same));
            }
        }
    }
    debug_assert_eq!(codes.len(), 15);
    codes
}

impl DownMasks {
    /// The masks of `tp`'s phase-1 table: read from `dir` where an earlier process kept them,
    /// or else computed ([`Self::compute`]) and kept there; without `dir`, computed.
    ///
    /// # Errors
    /// A kept file that is damaged (refused, naming it), or no memory for the masks.
    pub fn open_or_build(
        dir: Option<&Path>,
        tp: &TwoPhase,
        progress: ProgressMode,
    ) -> Result<DownMasks, TableError> {
        let index = SymIndex::new();
        // Bump the version when an entry's meaning changes (the bit layout, the move order,
        // the index).
        let what = Derived {
            name: "coset-masks",
            version: 2,
            len: index.entries(),
            rebuild: "optcube coset --max-depth 1 --pdb-dir {dir}",
        };
        let source = tp.pruning_tables()[0].1;
        let classes = flipslice_classes(false).len() as u64;
        let report = Progress::new(progress, "masks", classes, "classes");
        let (entries, origin) =
            open_or_derive(dir, &what, source, || Self::compute(tp, &index, &report))?;
        let secs = report.elapsed();
        report.finish(&format!("{} entries {origin}, {secs:.1} s", what.len));
        Ok(DownMasks {
            entries,
            index,
            decode: decoded_moves(),
        })
    }

    /// Every entry (170,311,680 of them), without a file: first every position's masks in the
    /// layout of the two-phase solver's phase-1 table ([`flipslice_masks`]), where a row's
    /// children share their class and lie together, then each entry read from there.
    fn compute(
        tp: &TwoPhase,
        index: &SymIndex,
        report: &Progress,
    ) -> std::io::Result<FrozenArray<u32>> {
        let masks = flipslice_masks(tp, report)?;
        let conj = conjugated_moves();
        let mut code = [u8::MAX; 64];
        for (k, &(down, same)) in face_codes().iter().enumerate() {
            code[(down | same << 3) as usize] = k as u8;
        }
        let mut entries = HugeArray::<u32>::zeroed(index.entries())?;
        entries
            .par_chunks_mut(N_FLIP)
            .enumerate()
            .for_each(|(row, out)| {
                let (_, twist, comb) = index.position(row * N_FLIP);
                for (flip, e) in out.iter_mut().enumerate() {
                    let (i, s) = tp.phase1_index_sym(flip, twist, comb * N_SLICE_PERM);
                    let (m, t) = (masks[i as usize], &conj[s as usize]);
                    let map = |m: u64| t[0][(m & 511) as usize] | t[1][(m >> 9 & 511) as usize];
                    let (down, same) = (map(m), map(m >> 32));
                    let mut entry = (tp.phase1_residue(i as usize) as u32) << 24;
                    for face in 0..6 {
                        let key = (down >> (3 * face) & 7) | (same >> (3 * face) & 7) << 3;
                        let k = code[key as usize];
                        // Two moves of one face differ by a move of that face (module docs).
                        assert!(k != u8::MAX, "a face's moves both closer and farther");
                        entry |= (k as u32) << (4 * face);
                    }
                    *e = entry;
                }
            });
        entries.freeze()
    }

    /// Entry index and symmetry of a node with these coordinates (`comb` as
    /// [`SymIndex::index`]).
    #[inline(always)]
    pub fn index(&self, flip: u16, twist: u16, comb: u16) -> (u32, u8) {
        self.index.index(flip, twist, comb)
    }

    /// The moves one closer to H, and the moves as far, from a node read at entry `index`
    /// with symmetry `s` ([`DownMasks::index`]).
    #[inline(always)]
    pub fn moves(&self, index: u32, s: u8) -> (u32, u32) {
        let e = self.entries[index as usize];
        let t = &self.decode[s as usize];
        let mut w = 0;
        for (face, t) in t.iter().enumerate() {
            w |= t[(e >> (4 * face) & 15) as usize];
        }
        (w as u32, (w >> 32) as u32)
    }

    /// The phase-1 distance mod 3 of a node read at entry `index`.
    #[inline(always)]
    pub fn residue(&self, index: u32) -> u8 {
        (self.entries[index as usize] >> 24 & 3) as u8
    }

    /// Hints that the entry at `index` will be read soon.
    #[inline(always)]
    pub fn prefetch(&self, index: u32) {
        if let Some(m) = self.entries.get(index as usize) {
            crate::pdb::table::prefetch(m);
        }
    }
}

/// `decode[s][face][code]`: an entry's face code, kept for the entry's position, as the moves of
/// a node read with symmetry `s`.
fn decoded_moves() -> Box<[[[u64; 16]; 6]; N_SYM_UD]> {
    let syms = symmetries();
    let codes = face_codes();
    let mut decode = Box::new([[[0u64; 16]; 6]; N_SYM_UD]);
    for (s, table) in decode.iter_mut().enumerate() {
        for m in 0..N_MOVES {
            // The entry's move `S_s M_m S_s⁻¹` is the node's move `m`.
            let j = syms.move_conj[s][m] as usize;
            let (face, bit) = (j / 3, j % 3);
            for (k, &(down, same)) in codes.iter().enumerate() {
                if down >> bit & 1 == 1 {
                    table[face][k] |= 1 << m;
                }
                if same >> bit & 1 == 1 {
                    table[face][k] |= 1 << (m + 32);
                }
            }
        }
    }
    decode
}

/// The masks of every entry of the two-phase solver's phase-1 table (140,908,410 entries, the
/// flip-slice classes × twist, 18 lookups each, in parallel; 10–24 s on 2 threads, reported to
/// `report` by flip-slice class): the moves one closer in bits 0..18, the moves as far in bits
/// 32..50, for the entry's position.
fn flipslice_masks(tp: &TwoPhase, report: &Progress) -> std::io::Result<HugeArray<u64>> {
    let mv = MoveTables::get();
    let classes = flipslice_classes(false);
    // Zeroed memory: every mask below starts empty and only gains bits.
    let mut masks = HugeArray::<u64>::zeroed(classes.len() * N_TWIST)?;
    masks
        .par_chunks_mut(N_TWIST)
        .enumerate()
        .for_each(|(cls, out)| {
            let fs = classes.rep[cls] as usize;
            let (flip, slice) = (fs % N_FLIP, fs / N_FLIP * N_SLICE_PERM);
            let mut own = [0u8; N_TWIST];
            for (twist, r) in own.iter_mut().enumerate() {
                *r = tp.phase1_residue(tp.phase1_index(flip, twist, slice));
            }
            // Move by move, so that one move's children share their flip and slice: they
            // read the same class entry, and their own entries lie in one row of the table.
            for m in 0..N_MOVES {
                let (flip2, slice2) = (
                    mv.flip[flip * N_MOVES + m] as usize,
                    mv.slice_sorted[slice * N_MOVES + m] as usize,
                );
                for ((twist, mask), &own) in out.iter_mut().enumerate().zip(&own) {
                    let twist2 = mv.twist[twist * N_MOVES + m] as usize;
                    let r = tp.phase1_residue(tp.phase1_index(flip2, twist2, slice2));
                    if r == closer_residue(own) {
                        *mask |= 1 << m;
                    } else if r == own {
                        *mask |= 1 << (m + 32);
                    }
                }
            }
            report.add(1, "");
        });
    Ok(masks)
}

/// `conj[s][half][nine bits]`: the low or high nine moves of a mask of [`flipslice_masks`],
/// kept for the entry's position, as the moves of a node read with symmetry `s`.
fn conjugated_moves() -> Box<[[[u32; 512]; 2]; N_SYM_UD]> {
    let syms = symmetries();
    let mut conj = Box::new([[[0u32; 512]; 2]; N_SYM_UD]);
    for (s, table) in conj.iter_mut().enumerate() {
        for m in 0..N_MOVES {
            // The entry's move `S_s M_m S_s⁻¹` is the node's move `m`.
            let j = syms.move_conj[s][m] as usize;
            let (half, bit) = (j / 9, j % 9);
            for (w, out) in table[half].iter_mut().enumerate() {
                if w >> bit & 1 == 1 {
                    *out |= 1 << m;
                }
            }
        }
    }
    conj
}
