//! What the search over syllables heads for ([`Target`]), and how it bounds a node's children
//! in two rounds of table loads: the solved cube with a table set ([`Solved`]) is one target,
//! a goal (`solvers::goal`) another. Every round's values are lower bounds on the cost left
//! (maxima of admissible table values, raised to the metric's parity), and a child is cut
//! exactly when its whole bound would cut it, so the rounds change which entries are loaded,
//! never the nodes (`prefetch_tests`).

use crate::cube::{Cube, Metric};
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::search::heuristic::{Heuristic, Reads};

/// What a search heads for: when a position has arrived, and a lower bound on the cost left.
/// The solved cube with a table set is one ([`solve_in`]); a goal with its tables is another
/// (`solvers::goal`).
pub trait Target: Sync {
    /// Has `p` arrived?
    fn reached(&self, p: &Cube) -> bool;
    /// A lower bound on the cost, in the search's metric, from `p` (whose inverse is `q`) to
    /// any position that has arrived.
    fn bound(&self, p: &Cube, q: &Cube) -> u8;
    /// Does [`Target::bound`] read `q`? If not, the search does not keep inverses.
    fn needs_inverse(&self) -> bool {
        true
    }
    /// The first round of a node's children's bounds: for the batch's `members`, a lower
    /// bound on [`Target::bound`] written to `out[k]` (left as it is, 0, where the target
    /// reads nothing first). The search asks it for all the children of a node at once, so
    /// that their loads overlap; a child whose value here exceeds its limit is cut without a
    /// second round.
    #[inline]
    fn first_round(
        &self,
        _children: &Children,
        _members: u32,
        _reads: &mut Reads,
        _out: &mut [u8; BATCH],
    ) {
    }
    /// The second round, for the children the first did not cut: `out[k]` raised to
    /// [`Target::bound`], or to any lower bound above `limits[k]` once one is found (the
    /// search asks only whether the bound exceeds the limit, so a target whose bound is a
    /// maximum of many lookups may stop at the first that exceeds it).
    #[inline]
    fn second_round(
        &self,
        c: &Children,
        members: u32,
        _limits: &[u8; BATCH],
        _reads: &mut Reads,
        out: &mut [u8; BATCH],
    ) {
        for k in Members(members) {
            out[k] = out[k].max(self.bound(&c.ps[k], &c.qs[k]));
        }
    }
    /// Is [`Target::bound`] the exact cost to arrive, in the search's metric with all its
    /// turns, without reading `q`? Then [`solve_toward`] walks down it ([`walk`]) when the
    /// move set is all turns.
    fn exact(&self) -> bool {
        false
    }
    /// Does every symmetry of the cube map the positions that have arrived onto themselves
    /// (`S A S⁻¹` has arrived exactly when `A` has)? Then a position's own symmetries let the
    /// search drop conjugate work units ([`super::symmetric`]).
    fn symmetric(&self) -> bool {
        false
    }
}

/// A node's children as a target bounds them: one batch of up to [`BATCH`] slots.
pub struct Children<'a> {
    /// Their positions.
    pub ps: &'a Batch,
    /// Their inverses, made only when the target reads them ([`Target::needs_inverse`]).
    pub qs: &'a Batch,
    /// The node's inverse.
    pub q: &'a Cube,
    /// For each child, a slot whose inverse differs from its own by half turns on the left,
    /// the same for all such children, or [`crate::search::heuristic::HALVES_OF_NODE`] when
    /// its inverse differs so from the node's (the syllable is made of half turns): what
    /// [`Heuristic::first_inverse_values`] shares.
    pub halves: &'a [u8; BATCH],
}

/// The solved cube, bounded by a table set (the dual lookup when asked for), raised to the
/// metric's parity.
pub(super) struct Solved<'a> {
    h: &'a Heuristic,
    dual: bool,
    metric: Metric,
    /// Whether the first table reads the position itself (a coset table,
    /// [`Heuristic::first_position_entry`]): then every child's entry of it is loaded before
    /// any is read, and a child it prunes reads no other table.
    pub(super) first: bool,
    /// With `dual` and a first table that [`Heuristic::first_is_half_turn_coset`]: the first
    /// round reads the inverses' entries instead, which children share (about 7 loads for the
    /// 30 children of a node in the slice-turn metric), and the positions' entries wait for
    /// the second round.
    pub(super) inverse_first: bool,
}

impl<'a> Solved<'a> {
    pub(super) fn new(h: &'a Heuristic, dual: bool, metric: Metric) -> Solved<'a> {
        let first = h.first_position_entry(&Cube::SOLVED).is_some();
        Solved {
            h,
            dual,
            metric,
            first,
            inverse_first: first && dual && h.first_is_half_turn_coset(),
        }
    }
}

impl Target for Solved<'_> {
    #[inline]
    fn reached(&self, p: &Cube) -> bool {
        p.is_solved()
    }

    /// Only the solved cube has arrived, and every symmetry fixes it.
    fn symmetric(&self) -> bool {
        true
    }

    #[inline]
    fn bound(&self, p: &Cube, q: &Cube) -> u8 {
        self.metric.raise(self.h.value(p, q, self.dual), p)
    }

    /// The first table's entries of the batch (raised to the metric's parity), when it reads
    /// the position: the inverses' entries with `inverse_first`, else the positions'.
    #[inline]
    fn first_round(&self, c: &Children, members: u32, reads: &mut Reads, out: &mut [u8; BATCH]) {
        if self.inverse_first {
            (self.h).first_inverse_values((c.q, c.qs), members, c.halves, out);
        } else if self.first {
            self.h.first_values(c.ps, members, reads, out);
        } else {
            return;
        }
        for k in Members(members) {
            out[k] = self.metric.raise(out[k], &c.ps[k]);
        }
    }

    /// Every other entry, loads overlapped; a lookup that cannot exceed a child's limit is not
    /// read for it ([`Heuristic::rest_values`]; with a parity rule a value may be raised by
    /// one, so its limit is taken one lower).
    #[inline]
    fn second_round(
        &self,
        c: &Children,
        members: u32,
        limits: &[u8; BATCH],
        reads: &mut Reads,
        out: &mut [u8; BATCH],
    ) {
        let slack = self.metric.declaration().corner_parity as u8;
        let mut lower = [0u8; BATCH];
        let mut rest = [0u8; BATCH];
        for k in Members(members) {
            lower[k] = limits[k].saturating_sub(slack);
        }
        let read = [self.first && !self.inverse_first, self.inverse_first];
        let cubes = (c.ps, c.qs);
        (self.h).rest_values(cubes, members, self.dual, read, &lower, reads, &mut rest);
        for k in Members(members) {
            out[k] = out[k].max(self.metric.raise(rest[k], &c.ps[k]));
        }
    }
}
