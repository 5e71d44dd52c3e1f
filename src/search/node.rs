//! The data of the search loop: a [`Node`] (position, inverse, corner coordinates), a
//! [`Frame`] of the explicit stack (a node and its surviving children, sorted), the
//! [`Expansion`] of a node in progress, and the lookup [`Bounds`] a child inherits.
//!
//! Invariant: a child lives in slot `m` (its move's index) of every per-child array, and the
//! arrays have a slot for each bit of a `u32` member set, so no index needs a bounds check.

use crate::coord::{self, MoveTables, N_MOVES};
use crate::cube::{Cube, Move};
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::table::prefetch;

/// A node of the search: the position, its inverse, and the corner coordinates of the
/// position.
///
/// The corner table is indexed by the corner coordinates of the *position* (`corners * 2187 +
/// twist`, [`crate::coord`]), kept by two move-table lookups per move instead of ranking the
/// corners of every child. That index is the one the table gives the inverse cube of `p⁻¹`, and
/// a position and its inverse are equally far from solved in the corner group, so the value is
/// the one the inverse cube's own index reads (`corner_coordinates_read_the_same_entries`).
///
/// With side switching (see [`super::worker`]) `p` is the side the search extends, and
/// `flipped` says it is the inverse of the real position (whose moves so far were then
/// premoves); `other_last` is the face of the last move made on the other side (6: none), for
/// the canonical-sequence rule on that side. The corner coordinates are not read then.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// The position; kept only when the search tracks it (`track_p`).
    pub(super) p: Cube,
    pub(super) q: Cube,
    pub(super) corners: [u16; 2],
    pub(super) flipped: bool,
    pub(super) other_last: u8,
}

impl Node {
    pub(super) fn new(p: &Cube, q: &Cube) -> Node {
        Node {
            p: *p,
            q: *q,
            corners: [coord::corners(&p.cp()), coord::twist(&p.co())],
            flipped: false,
            other_last: 6,
        }
    }

    /// The same node extended on the other side: position and inverse swap roles. `last` is
    /// the face of the last move on the side extended so far; returns the face of the last
    /// move on the side extended from now on.
    #[inline(always)]
    pub(super) fn switch_sides(&mut self, last: usize) -> usize {
        std::mem::swap(&mut self.p, &mut self.q);
        self.flipped = !self.flipped;
        std::mem::replace(&mut self.other_last, last as u8) as usize
    }

    /// The node after move `m`. Its position is made only with `track_p`, its corner
    /// coordinates only when the move tables `corners` are given (else they are 0: no lookup
    /// reads them).
    #[inline(always)]
    pub(super) fn child(&self, m: usize, track_p: bool, corners: Option<&MoveTables>) -> Node {
        Node {
            p: if track_p {
                self.child_p(m)
            } else {
                Cube::SOLVED
            },
            q: self.child_q(m),
            corners: corners.map_or([0; 2], |mt| self.child_corners(m, mt)),
            flipped: self.flipped,
            other_last: self.other_last,
        }
    }

    /// The corner coordinates after move `m`.
    #[inline(always)]
    pub(super) fn child_corners(&self, m: usize, mt: &MoveTables) -> [u16; 2] {
        [
            mt.corners[self.corners[0] as usize * N_MOVES + m],
            mt.twist[self.corners[1] as usize * N_MOVES + m],
        ]
    }

    /// The position after move `m`.
    #[inline(always)]
    pub(super) fn child_p(&self, m: usize) -> Cube {
        self.p.compose(Move::from_index(m).cube())
    }

    /// Starts loading the rows of the corner move tables that the expansion of this node
    /// reads first: the 1.45 MB corner-permutation table does not stay in cache, and a miss
    /// there stalls the expansion. (A row may straddle two cache lines.)
    #[inline(always)]
    pub(super) fn prefetch_rows(&self, mt: &MoveTables) {
        prefetch_rows_at(self.corners, mt);
    }

    /// [`Node::prefetch_rows`] of the child by move `m`.
    #[inline(always)]
    pub(super) fn prefetch_child_rows(&self, m: usize, mt: &MoveTables) {
        prefetch_rows_at(self.child_corners(m, mt), mt);
    }

    /// The inverse cube after move `m`.
    #[inline(always)]
    pub(super) fn child_q(&self, m: usize) -> Cube {
        Move::from_index(m).inverse_cube().compose(&self.q)
    }
}

/// Starts loading the move-table rows of corner coordinates `c` ([`Node::prefetch_rows`]).
#[inline(always)]
pub(super) fn prefetch_rows_at(c: [u16; 2], mt: &MoveTables) {
    for (table, x) in [(&mt.corners, c[0]), (&mt.twist, c[1])] {
        let row = table.as_ptr().wrapping_add(x as usize * N_MOVES);
        prefetch(row);
        prefetch(row.wrapping_add(N_MOVES - 1));
    }
}

/// The corner table index of corner coordinates.
#[inline(always)]
pub(super) fn corner_entry(c: [u16; 2]) -> u64 {
    c[0] as u64 * coord::N_TWIST as u64 + c[1] as u64
}

/// The bit of a [`Frame`] child's move byte that says: extend it on the other side.
pub(super) const SWITCH: u8 = 0x80;

/// Upper bounds of a node's values of the first [`TRACKED`] lookups, a nibble each, 15 for
/// "unknown": the value itself where it was read, the parent's bound plus one where the lookup
/// was skipped (see [`Worker::prepare`]).
#[derive(Clone, Copy)]
pub(super) struct Bounds(u32);

/// Lookups whose values are kept in [`Bounds`].
pub(super) const TRACKED: usize = 8;

impl Bounds {
    pub(super) const UNKNOWN: Bounds = Bounds(u32::MAX);

    /// The bound of lookup `l < TRACKED`.
    #[inline(always)]
    pub(super) fn get(self, l: usize) -> u8 {
        (self.0 >> (4 * l) & 15) as u8
    }
}

/// A node's frame on the explicit stack.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) node: Node,
    /// Surviving children: (move index, heuristic value), sorted by value. Bit 7 of the move
    /// byte: the child is to be extended on the other side ([`SWITCH`]).
    pub(super) children: [(u8, u8); 18],
    /// Their bounds, in the same order.
    pub(super) bounds: [Bounds; 18],
    /// Their inverse side's values of the first lookup when the search cuts half turns by
    /// them ([`Expansion::inv`]), in the same order.
    pub(super) inv: [u8; 18],
    pub(super) len: u8,
    pub(super) next: u8,
    /// The node's depth: its path's cost (read in the quarter-turn metric, where it is not
    /// the frame's height).
    pub(super) g: u8,
}

/// The expansion of one node in progress: its children, and how far their evaluation got.
/// Reused from node to node, so an expansion initializes nothing it does not write.
///
/// The child by move `m` ([`Move::index`]) lives in slot `m` of every array; the living
/// children are a bit set. The arrays have a slot for every bit of the set ([`BATCH`]), so
/// that indexing them by a member of the set needs no bounds check.
pub(super) struct Expansion {
    pub(super) node: Node,
    /// The node's corner-table value, when the search reads the corner successor table (whose
    /// words are relative to it).
    pub(super) corner_value: u8,
    /// Depth of the node.
    pub(super) g: u8,
    /// The children's positions (with `track_p`) and inverse cubes, each made only when a
    /// lookup round first ranks it ([`Expansion::compose`]; `made_p`, `made_q`: the slots
    /// made). Most children are pruned before their cubes are needed: by the corner lookup,
    /// or, when a coset table reads the inverse's entries first, by that round, which ranks
    /// one inverse cube a face.
    pub(super) cps: Batch,
    pub(super) cqs: Batch,
    pub(super) made_p: u32,
    pub(super) made_q: u32,
    pub(super) turned: Batch,
    /// Corner table index of each child (from the corner coordinates).
    pub(super) corner_idx: [u64; BATCH],
    pub(super) idx: [u64; BATCH],
    pub(super) idx_dual: [u64; BATCH],
    /// Children not pruned yet (bit `k` = slot `k`), and their values so far.
    pub(super) alive: u32,
    /// The children the current lookup reads: the living ones, or for a fallback lookup
    /// those it picks ([`super::SearchOptions::fallback_slack`]).
    pub(super) reading: u32,
    /// The inverse side's value of the first lookup for each child, as read with the inverse
    /// entries (in the second round of a split lookup); and the node's own, as its parent
    /// read it (15: unknown). A coset table's entry is unchanged by a half turn (the `worker`
    /// module docs' half-turn cuts).
    pub(super) inv: [u8; BATCH],
    pub(super) inv_node: u8,
    pub(super) h: [u8; BATCH],
    /// Children whose other side read a larger value than their own (bit set), when the
    /// search switches sides.
    pub(super) switch: u32,
    /// The values read for each child by each tracked lookup (row `TRACKED` is scratch for
    /// the others), and the tracked lookups read (bit set).
    pub(super) vals: [[u8; BATCH]; TRACKED + 1],
    pub(super) read: u32,
    /// The node's bounds, and the bounds its children get for the lookups skipped.
    pub(super) bounds: Bounds,
    pub(super) skipped: u32,
    /// The next lookup, and whether its entries are prefetched (else none is left).
    pub(super) lookup: usize,
    pub(super) pending: bool,
    /// The current lookup is a split dual one ([`super::Optimizations::split_dual`]) whose
    /// position entries were read: its inverse entries come next.
    pub(super) second_half: bool,
}

impl Expansion {
    /// Makes the positions of the children in bit set `p` and the inverse cubes of those in
    /// `q`, unless already made.
    #[inline(always)]
    pub(super) fn compose(&mut self, p: u32, q: u32) {
        for k in Members(q & !self.made_q) {
            self.cqs[k] = self.node.child_q(k);
        }
        for k in Members(p & !self.made_p) {
            self.cps[k] = self.node.child_p(k);
        }
        self.made_p |= p;
        self.made_q |= q;
    }
}

/// Writes the frame of the evaluated expansion `e` (its surviving children sorted by value),
/// or returns the move to a solved child. With the move tables `corners` (when a lookup reads
/// the corner coordinates), prefetches the survivors' rows.
#[inline(always)]
pub(super) fn push_frame(
    e: &Expansion,
    frame: &mut Frame,
    corners: Option<&MoveTables>,
) -> Option<Move> {
    frame.node = e.node;
    frame.g = e.g;
    frame.len = 0;
    frame.next = 0;
    for k in Members(e.alive) {
        let v = e.h[k];
        if v == 0 && e.node.child_q(k).is_solved() {
            return Some(Move::from_index(k));
        }
        // The child may be the next node its lane expands, a few lane steps from now.
        if let Some(mt) = corners {
            e.node.prefetch_child_rows(k, mt);
        }
        // Insertion keeps the children sorted by value (stable: ties keep move order).
        let mut i = frame.len as usize;
        while i > 0 && frame.children[i - 1].1 > v {
            frame.children[i] = frame.children[i - 1];
            frame.bounds[i] = frame.bounds[i - 1];
            frame.inv[i] = frame.inv[i - 1];
            i -= 1;
        }
        frame.children[i] = (k as u8 | ((e.switch >> k & 1) as u8) << 7, v);
        frame.bounds[i] =
            Bounds(Members(e.read).fold(e.skipped, |b, l| b | (e.vals[l][k] as u32) << (4 * l)));
        frame.inv[i] = e.inv[k];
        frame.len += 1;
    }
    None
}
