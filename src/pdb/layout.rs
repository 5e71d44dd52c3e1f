//! The block layout of a table index, as the generator sees it: every index is
//! `block · INNER + inner`, a move maps a whole block to one block, and the inner indices follow
//! a small map fixed by (block, move). The concrete layouts of the korf patterns are in
//! [`super::blocks`]; the symmetry-reduced phase-1 layout is [`super::phase1::Phase1Space`].
//!
//! This module depends on nothing in `pdb`, so that the layouts and the patterns that use them
//! form no circle.

/// A pattern index split into blocks that moves map to blocks.
pub(crate) trait Layout: Sync {
    /// Entries per block.
    const INNER: u32;
    /// What a block needs to compute its images (the tracked positions).
    type Pos: Copy;
    /// How inner indices map under one (block, move).
    type Map: Copy;
    /// Number of blocks.
    fn blocks(&self) -> u64;
    /// The tracked positions of block `b`.
    fn positions(&self, b: u64) -> Self::Pos;
    /// Target block and inner map of move `m` (index into `Move::all()`) from `pos`.
    fn image(&self, pos: &Self::Pos, m: usize) -> (u64, Self::Map);
    /// Inner index `x` moved by `map`.
    fn apply(&self, map: Self::Map, x: u32) -> u32;
    /// Calls `f` for the other inner indices of block `b` that stand for the same state as `x`
    /// (symmetry-reduced layouts, [`super::phase1`]); the generator gives them `x`'s value.
    #[inline(always)]
    fn for_each_twin(&self, _b: u64, _x: u32, _f: impl FnMut(u32)) {}
}

/// A computation generic over the layout (a closure cannot be generic).
pub(crate) trait LayoutFn<R> {
    fn call<L: Layout>(self, layout: &L) -> R;
}
