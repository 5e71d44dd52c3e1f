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

/// An index space split into blocks that moves map to blocks.
pub trait Layout: Sync {
    /// Entries per block.
    const INNER: u32;
    /// Whether the search may run backward: false for layouts that cannot compute the
    /// neighbours of a block nobody has reached yet ([`crate::pdb::bfs::coset_table`]).
    const BACKWARD: bool = true;
    /// What a block needs to compute its images (the tracked positions).
    type Pos: Copy;
    /// How inner indices map under one (block, move).
    type Map: Copy + Default;
    /// Number of blocks.
    fn blocks(&self) -> u64;
    /// Number of moves (at most 18); `image` takes `0..moves()`.
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

/// A layout of the 18 face turns seen through a metric: its moves are the metric's unit moves
/// ([`Metric::unit_moves`]; the 12 quarter turns in QTM), so the one breadth-first search over
/// it counts that metric's distances.
pub struct InMetric<'a, L> {
    layout: &'a L,
    /// Move `k` of this layout is move `moves[k]` of the inner one.
    moves: [usize; 18],
    n: usize,
}

impl<'a, L: Layout> InMetric<'a, L> {
    /// # Panics
    /// If `layout` does not move by all 18 face turns.
    pub fn new(layout: &'a L, metric: Metric) -> InMetric<'a, L> {
        assert_eq!(layout.moves(), 18, "a layout of the 18 face turns");
        let unit = metric.unit_moves();
        let mut moves = [0; 18];
        for (k, m) in unit.iter().enumerate() {
            moves[k] = m.index();
        }
        InMetric {
            layout,
            moves,
            n: unit.len(),
        }
    }
}

impl<L: Layout> Layout for InMetric<'_, L> {
    const INNER: u32 = L::INNER;
    const BACKWARD: bool = L::BACKWARD;
    type Pos = L::Pos;
    type Map = L::Map;

    fn blocks(&self) -> u64 {
        self.layout.blocks()
    }

    #[inline(always)]
    fn moves(&self) -> usize {
        self.n
    }

    #[inline(always)]
    fn positions(&self, b: u64) -> Self::Pos {
        self.layout.positions(b)
    }

    #[inline(always)]
    fn image(&self, pos: &Self::Pos, m: usize) -> (u64, Self::Map) {
        self.layout.image(pos, self.moves[m])
    }

    #[inline(always)]
    fn apply(&self, map: Self::Map, x: u32) -> u32 {
        self.layout.apply(map, x)
    }

    #[inline(always)]
    fn for_each_twin(&self, b: u64, x: u32, f: impl FnMut(u32)) {
        self.layout.for_each_twin(b, x, f)
    }

    #[inline(always)]
    fn reached(&self, b: u64, from: &Self::Pos, m: usize) {
        self.layout.reached(b, from, self.moves[m])
    }
}
