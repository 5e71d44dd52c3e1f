//! The block layout of a table index, as the one breadth-first search ([`crate::pdb::bfs`]) sees it:
//! every index is `block · INNER + inner`, a move maps a whole block to one block, and the inner
//! indices follow a small map fixed by (block, move). The layouts of the korf patterns are in
//! `pdb::blocks`, the symmetry-reduced phase-1 layout is [`crate::pdb::phase1::Phase1Space`], the
//! two-phase solver's are in `solvers::twophase::prune`, and the coset spaces of the
//! Thistlethwaite tables in [`crate::pdb::bfs::coset_table`].
//!
//! This module depends on nothing in `pdb`, so that the layouts and the patterns that use them
//! form no circle.

use crate::cube::Metric;

/// The most moves a layout has: the axial metric's 45 ([`InMetric`]).
pub const MAX_MOVES: usize = 45;

/// An index space split into blocks that moves map to blocks.
pub trait Layout: Sync {
    /// Entries per block.
    const INNER: u32;
    /// Whether the search may run backward: false for layouts that cannot compute the
    /// neighbours of a block nobody has reached yet ([`crate::pdb::bfs::coset_table`]).
    const BACKWARD: bool = true;
    /// Whether two moves can be made one after the other (a move of two faces,
    /// [`InMetric`]): a block's positions are the state's own. Not so where blocks stand for
    /// symmetry classes: a move's image is seen from the target class's representative, so
    /// a second turn made there would be the turn conjugated by that symmetry.
    const COMPOSABLE: bool = true;
    /// What a block needs to compute its images (the tracked positions).
    type Pos: Copy;
    /// How inner indices map under one (block, move).
    type Map: Copy + Default;
    /// Number of blocks.
    fn blocks(&self) -> u64;
    /// Number of moves (at most [`MAX_MOVES`]); `image` takes `0..moves()`.
    #[inline(always)]
    fn moves(&self) -> usize {
        18
    }
    /// The tracked positions of block `b`.
    fn positions(&self, b: u64) -> Self::Pos;
    /// Target block and inner map of move `m` from `pos`.
    fn image(&self, pos: &Self::Pos, m: usize) -> (u64, Self::Map);
    /// Inner index `x` moved by `map`.
    fn apply(&self, map: Self::Map, x: u32) -> u32;
    /// Calls `f` for the other inner indices of block `b` that stand for the same state as `x`
    /// (symmetry-reduced layouts); the search gives them `x`'s value.
    #[inline(always)]
    fn for_each_twin(&self, _b: u64, _x: u32, _f: impl FnMut(u32)) {}
    /// Called when a forward step first reaches an entry of block `b` by move `m` from a block
    /// with positions `from`: [`crate::pdb::bfs::coset_table`]'s layout records a representative there.
    #[inline(always)]
    fn reached(&self, _b: u64, _from: &Self::Pos, _m: usize) {}
}

/// A layout of the 18 face turns seen through a metric: its moves are the metric's moves
/// ([`Metric::moves`]: the 12 quarter turns in QTM; in STM and ATM also the moves of two
/// faces, each made as its two face turns one after the other), so the one breadth-first
/// search over it counts that metric's distances.
///
/// A move of two faces passes through the block its first turn reaches, whose positions it
/// computes; the inner map is the two maps in turn. Only a [`Layout::COMPOSABLE`] layout can
/// do that: the symmetry-reduced ones (`sym48e0`, phase 1) are built in those metrics by
/// marks over cubes instead, or not at all. Its `reached` hook sees the intermediate
/// block's positions, so a layout that records representatives there
/// ([`crate::pdb::bfs::coset_table`]'s) must have recorded that block's: such layouts are
/// only ever searched in HTM.
pub struct InMetric<'a, L> {
    layout: &'a L,
    /// Move `k` of this layout is move `moves[k].0` of the inner one, then `moves[k].1` if
    /// any.
    moves: Vec<(usize, Option<usize>)>,
}

impl<'a, L: Layout> InMetric<'a, L> {
    /// # Panics
    /// If `layout` does not move by all 18 face turns.
    pub fn new(layout: &'a L, metric: Metric) -> InMetric<'a, L> {
        assert_eq!(layout.moves(), 18, "a layout of the 18 face turns");
        assert!(
            L::COMPOSABLE || metric.bounded_by_htm(),
            "a layout of symmetry classes cannot make the {metric} metric's moves of two faces"
        );
        let moves: Vec<(usize, Option<usize>)> = (metric.moves().iter())
            .map(|m| {
                let mut turns = m.turns().map(|t| t.index());
                let first = turns.next().expect("a move turns a face");
                (first, turns.next())
            })
            .collect();
        assert!(moves.len() <= MAX_MOVES);
        InMetric { layout, moves }
    }
}

impl<L: Layout> Layout for InMetric<'_, L> {
    const INNER: u32 = L::INNER;
    const BACKWARD: bool = L::BACKWARD;
    type Pos = L::Pos;
    type Map = (L::Map, Option<L::Map>);

    fn blocks(&self) -> u64 {
        self.layout.blocks()
    }

    #[inline(always)]
    fn moves(&self) -> usize {
        self.moves.len()
    }

    #[inline(always)]
    fn positions(&self, b: u64) -> Self::Pos {
        self.layout.positions(b)
    }

    #[inline(always)]
    fn image(&self, pos: &Self::Pos, m: usize) -> (u64, Self::Map) {
        let (first, second) = self.moves[m];
        let (b1, map1) = self.layout.image(pos, first);
        match second {
            None => (b1, (map1, None)),
            Some(t) => {
                let (b2, map2) = self.layout.image(&self.layout.positions(b1), t);
                (b2, (map1, Some(map2)))
            }
        }
    }

    #[inline(always)]
    fn apply(&self, map: Self::Map, x: u32) -> u32 {
        let y = self.layout.apply(map.0, x);
        match map.1 {
            None => y,
            Some(m2) => self.layout.apply(m2, y),
        }
    }

    #[inline(always)]
    fn for_each_twin(&self, b: u64, x: u32, f: impl FnMut(u32)) {
        self.layout.for_each_twin(b, x, f)
    }

    #[inline(always)]
    fn reached(&self, b: u64, from: &Self::Pos, m: usize) {
        match self.moves[m] {
            (first, None) => self.layout.reached(b, from, first),
            (first, Some(t)) => {
                let (b1, _) = self.layout.image(from, first);
                self.layout.reached(b, &self.layout.positions(b1), t)
            }
        }
    }
}
