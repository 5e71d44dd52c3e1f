//! The batch of cubes a search node hands to the tables at once: a node's children, indexed
//! together by [`crate::pdb::Pattern::for_each_index`], and the bit sets that say which of its slots
//! are in use.
//!
//! Invariant: a member set is a `u32` and a batch has one slot for each of its bits, so a slot
//! number taken from a set bit needs no bounds check.

use crate::cube::Cube;

/// Cubes indexed together by [`crate::pdb::Pattern::for_each_index`]: the children of a search node.
pub type Batch = [Cube; BATCH];
/// Slots of a [`Batch`]: one for each bit of a `u32` member set (a node has at most 18
/// children), so that a slot number taken from a set's bit needs no bounds check.
pub const BATCH: usize = 32;

/// The members of a bit set, in increasing order.
#[derive(Clone, Copy)]
pub struct Members(pub u32);

impl Iterator for Members {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(k % BATCH)
    }
}
