//! For every entry of the phase-1 table, the moves that bring its position one move closer to H
//! and the moves that keep its distance: what lets the phase-1 walk step through a node with no
//! slack, or one move of slack, without looking up its children.
//!
//! Below a node whose phase-1 distance equals the moves it has left, only the children one move
//! closer can lead to a seed, and they have no slack either; below a node with one move of
//! slack, only the children closer or as far. Most nodes of a deep walk are such nodes; without
//! the masks each costs a table lookup for every one of its 13 or so children (two dependent
//! cache misses each), with them one lookup of its own masks.
//!
//! The table is symmetry-reduced: a node `x` is read at the entry of `S_s · x · S_s⁻¹` for the
//! symmetry `s` of its flip and slice. The child of `x` by move `m` is the child of that position
//! by the move `S_s M_m S_s⁻¹`, so a mask kept for the entry's position is turned into `x`'s by
//! mapping each move back ([`DownMasks::moves`]).
//!
//! Invariant: `moves(index, s)` of a node is exactly the pair (the moves whose child has a
//! residue one less (mod 3) than the node's, the moves whose child has the node's residue),
//! which for exact distances means one move closer and as far (checked by a test against
//! lookups of every child).
//!
//! Computing them takes 10–24 s on 2 cores, so a solver opened from a directory keeps them
//! there (1.13 GB, [`crate::pdb::derived`], named after the phase-1 table's checksum): every
//! later `optcube coset` process, and every task of a study, reads them in about a second.

use rayon::prelude::*;

use crate::coord::symmetry::{N_SYM_UD, flipslice_classes, symmetries};
use crate::coord::{MoveTables, N_FLIP, N_MOVES, N_SLICE_PERM, N_TWIST};
use crate::pdb::derived::{Derived, open_or_derive};
use crate::pdb::file::TableError;
use crate::pdb::huge::{FrozenArray, HugeArray};
use crate::progress::{Progress, ProgressMode};
use crate::solvers::twophase::{TwoPhase, closer_residue};
use std::path::Path;

/// The masks of one two-phase solver's phase-1 table (1.13 GB: the moves one closer in bits
/// 0..18 of an entry, the moves as far in bits 32..50; in huge-page memory, since they are
/// read at random, and in 4 KB pages nearly every read would also miss the TLB).
pub struct DownMasks {
    masks: FrozenArray<u64>,
    /// `conj[s][half][nine bits]`: the node's moves for a mask's low or high nine moves.
    conj: Box<[[[u32; 512]; 2]; N_SYM_UD]>,
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
        // Bump the version when an entry's meaning changes (the bit layout, the move order,
        // the table's index).
        let what = Derived {
            name: "coset-masks",
            version: 1,
            len: flipslice_classes(false).len() * N_TWIST,
            rebuild: "optcube coset --max-depth 1 --pdb-dir {dir}",
        };
        let source = tp.pruning_tables()[0].1;
        let classes = flipslice_classes(false).len() as u64;
        let report = Progress::new(progress, "masks", classes, "classes");
        let (masks, origin) = open_or_derive(dir, &what, source, || Self::compute(tp, &report))?;
        let secs = report.elapsed();
        report.finish(&format!("{} entries {origin}, {secs:.1} s", what.len));
        Ok(DownMasks {
            masks,
            conj: conjugated_moves(),
        })
    }

    /// Every entry's mask (140,908,410 entries, 18 lookups each, in parallel; 10–24 s on
    /// 2 threads, reported to `report` by flip-slice class), without a file.
    fn compute(tp: &TwoPhase, report: &Progress) -> std::io::Result<FrozenArray<u64>> {
        let mv = MoveTables::get();
        let classes = flipslice_classes(false);
        let len = classes.len() * N_TWIST;
        // Zeroed memory: every mask below starts empty and only gains bits.
        let mut masks = HugeArray::<u64>::zeroed(len)?;
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
        masks.freeze()
    }

    /// The moves one closer to H, and the moves as far, from a node read at table `index` with
    /// symmetry `s` (`TwoPhase::phase1_index_sym`).
    #[inline(always)]
    pub fn moves(&self, index: u32, s: u8) -> (u32, u32) {
        let masks = self.masks[index as usize];
        let t = &self.conj[s as usize];
        let map = |mask: u64| t[0][(mask & 511) as usize] | t[1][(mask >> 9 & 511) as usize];
        (map(masks), map(masks >> 32))
    }

    /// Hints that the mask at `index` will be read soon.
    #[inline(always)]
    pub fn prefetch(&self, index: u32) {
        if let Some(m) = self.masks.get(index as usize) {
            crate::pdb::table::prefetch(m);
        }
    }
}

/// `conj[s][half][nine bits]`: a mask's low or high nine moves, kept for the entry's position,
/// as the moves of a node read with symmetry `s`.
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
