//! The one breadth-first search over an indexed space: every distance table of the crate but
//! `sym48e6`..`e8`, whose coordinate is no coset space (a move does not act on it), so they are
//! marked from sorted layers of coset classes instead ([`crate::cube::packed`], the search over
//! spaces too large to index, and `pdb::sym48ek`).
//!
//! It is generic over the index space, a [`Layout`], and over the store of the distances, a
//! [`Cells`] ([`crate::pdb::cells`]: 4-bit nibbles, 2-bit distances mod 3, bytes). Its users:
//! - the pattern databases ([`mod@crate::pdb::generate`]), with the piece layouts of
//!   `pdb::blocks` and the symmetry-reduced phase-1 layout of [`crate::pdb::phase1`], into a
//!   [`crate::pdb::NibbleTable`];
//! - the two-phase solver's pruning tables (`solvers::twophase`): the phase-1 layout again and
//!   corner classes × UD edges into [`crate::pdb::cells::Mod3Cells`], corner × slice permutation
//!   into [`crate::pdb::cells::ByteCells`];
//! - Thistlethwaite's phase tables, through [`coset_table`]: coset spaces that have no
//!   unranking, where a representative of each coset is recorded when the search first sees it.
//!
//! A layout splits the index space into *blocks* of [`Layout::INNER`] entries that a move maps
//! to one block each, the entries following a map fixed by (block, move); so neighbours are
//! computed once per block and move, not once per entry. The search works a depth at a time,
//! in parallel over chunks of blocks. While the frontier is small it expands forward (each
//! entry at depth `d` marks its unknown neighbours `d+1`, with an atomic write); once the
//! frontier outgrows a quarter of the unknown remainder it runs backward (each unknown entry
//! looks for a neighbour at depth `d` and marks itself; a block's writes stay in that block).
//! Either way the value written is `d+1`, whoever writes it, so the result is the same for any
//! thread count. In symmetry-reduced layouts an entry marked forward also marks its *twins*,
//! the entries of the same block that stand for the same state ([`Layout::for_each_twin`]).
//!
//! A store of distances mod 3 reads the entries at `d - 3`, `d - 6`, ... as frontier too; their
//! neighbours are all known already, so expanding them again only costs time. Move sets are
//! closed under inverses in every use, so distance from the start and to it agree.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::pdb::cells::{ByteCells, Cells};
use crate::pdb::layout::{Layout, MAX_MOVES};
use crate::progress::Progress;

/// Entries per parallel work unit (about; whole blocks).
const CHUNK: u64 = 1 << 16;

/// Fills `cells` (all unknown) with the distance of every entry of `layout` from entry
/// `start`, on the current rayon pool, reporting to `progress` (entries known) if given.
/// Returns the number of entries at each distance. Entries never reached stay unknown.
///
/// # Panics
/// If a distance does not fit the store (`name` says which table).
pub fn bfs<L: Layout, C: Cells>(
    layout: &L,
    cells: &C,
    start: u64,
    name: &str,
    progress: Option<&Progress>,
) -> Vec<u64> {
    let value = |d: usize| {
        C::value(d).unwrap_or_else(|| panic!("{name}: distance {d} does not fit in the table"))
    };
    let n = layout.blocks() * L::INNER as u64;
    let mut first = cells.set_if_unknown(start, value(0)) as u64;
    let (b0, x0) = (start / L::INNER as u64, (start % L::INNER as u64) as u32);
    layout.for_each_twin(b0, x0, |y| {
        first += cells.set_if_unknown(b0 * L::INNER as u64 + y as u64, value(0)) as u64;
    });
    let mut layers = vec![first];
    let mut known = first;
    let mut frontier = first;
    let per_chunk = (CHUNK / L::INNER as u64).max(1);
    let chunks = layout.blocks().div_ceil(per_chunk);
    for d in 0usize.. {
        let unknown = n - known;
        if unknown == 0 || frontier == 0 {
            break;
        }
        let (cur, next) = (value(d), value(d + 1));
        // Forward costs a table write per frontier entry and move, backward up to a read per
        // unknown entry and move (fewer when a parent is found early): switch once the
        // frontier is a quarter of the unknown remainder (measured on the corner table).
        let backward = L::BACKWARD && frontier.saturating_mul(4) > unknown;
        let done_chunks = AtomicU64::new(0);
        let direction = if backward { "backward" } else { "forward" };
        let found: u64 = (0..chunks)
            .into_par_iter()
            .map(|c| {
                let lo = c * per_chunk;
                let hi = (lo + per_chunk).min(layout.blocks());
                let k = step_blocks(layout, cells, lo..hi, backward, cur, next);
                let done = done_chunks.fetch_add(1, Relaxed) + 1;
                if let Some(p) = progress
                    && done.is_multiple_of(64)
                {
                    let frac = done as f64 / chunks as f64;
                    p.update(
                        known,
                        &format!("depth {} {direction} {:.0}%", d + 1, 100.0 * frac),
                    );
                }
                k
            })
            .sum();
        known += found;
        frontier = found;
        if let Some(p) = progress {
            p.update(known, &format!("depth {} done: {found} entries", d + 1));
        }
        if found > 0 {
            layers.push(found);
        }
    }
    layers
}

/// The positions of block `b` and its images under the layout's moves (the rest of the array
/// is unused), with the first cache line of each target block requested.
#[inline]
fn images<L: Layout, C: Cells>(
    layout: &L,
    cells: &C,
    b: u64,
) -> (L::Pos, [(u64, L::Map); MAX_MOVES]) {
    let pos = layout.positions(b);
    let moves = layout.moves();
    let images: [(u64, L::Map); MAX_MOVES] = std::array::from_fn(|m| {
        if m < moves {
            layout.image(&pos, m)
        } else {
            (0, L::Map::default())
        }
    });
    for &(b2, _) in &images[..moves] {
        cells.prefetch(b2 * L::INNER as u64);
    }
    (pos, images)
}

/// One layer's step on the blocks `blocks`: forward from the entries holding `cur`, or
/// backward from the unknown ones; returns the number of entries set to `next`.
fn step_blocks<L: Layout, C: Cells>(
    layout: &L,
    cells: &C,
    blocks: std::ops::Range<u64>,
    backward: bool,
    cur: u8,
    next: u8,
) -> u64 {
    let want = if backward { C::UNKNOWN } else { cur };
    let mut entries = Vec::with_capacity(L::INNER as usize);
    let step = |b: u64, entries: &mut Vec<u32>| {
        if entries.is_empty() {
            0
        } else if backward {
            backward_block(layout, cells, b, cur, next, entries)
        } else {
            forward_block(layout, cells, b, next, entries)
        }
    };
    if L::INNER == 1 {
        // Blocks of one entry: one scan of the whole range finds them.
        let mut hits = Vec::new();
        cells.find(blocks.start, blocks.end, want, &mut hits);
        hits.iter()
            .map(|&o| {
                entries.clear();
                entries.push(0);
                step(blocks.start + o as u64, &mut entries)
            })
            .sum()
    } else {
        blocks
            .map(|b| {
                // The entries of block `b` holding `want`, as offsets in the block.
                let base = b * L::INNER as u64;
                entries.clear();
                cells.find(base, base + L::INNER as u64, want, &mut entries);
                step(b, &mut entries)
            })
            .sum()
    }
}

/// Forward step for block `b`: its entries `frontier` (holding the current depth) mark their
/// unknown neighbours `next`.
#[inline]
fn forward_block<L: Layout, C: Cells>(
    layout: &L,
    cells: &C,
    b: u64,
    next: u8,
    frontier: &[u32],
) -> u64 {
    let mut found = 0;
    let (pos, images) = images(layout, cells, b);
    for (m, &(b2, map)) in images[..layout.moves()].iter().enumerate() {
        let base2 = b2 * L::INNER as u64;
        for &x in frontier.iter() {
            let x2 = layout.apply(map, x);
            let j = base2 + x2 as u64;
            // A plain load first: most neighbours are known, and a load is cheaper than a CAS.
            if cells.load(j) == C::UNKNOWN && cells.set_if_unknown(j, next) {
                found += 1;
                layout.reached(b2, &pos, m);
                layout.for_each_twin(b2, x2, |y| {
                    if cells.set_if_unknown(base2 + y as u64, next) {
                        found += 1;
                    }
                });
            }
        }
    }
    found
}

/// Backward step for block `b`: each of its unknown entries `open` with a neighbour holding
/// `cur` becomes `next`. Writes stay inside block `b`; other threads only read it, and an
/// entry they may see change goes from unknown to `next`, neither of which is `cur`, so the
/// result is the same whatever the interleaving.
#[inline]
fn backward_block<L: Layout, C: Cells>(
    layout: &L,
    cells: &C,
    b: u64,
    cur: u8,
    next: u8,
    open: &mut Vec<u32>,
) -> u64 {
    let base = b * L::INNER as u64;
    let before = open.len();
    let (_, images) = images(layout, cells, b);
    for &(b2, map) in &images[..layout.moves()] {
        let base2 = b2 * L::INNER as u64;
        open.retain(|&x| {
            if cells.load(base2 + layout.apply(map, x) as u64) == cur {
                // The byte or word may be shared with the next block, hence the atomic write.
                cells.set_if_unknown(base + x as u64, next);
                false
            } else {
                true
            }
        });
        if open.is_empty() {
            break;
        }
    }
    (before - open.len()) as u64
}

/// A coset space known only through representatives: one block per coset, whose position is
/// the state through which the search first reached it (any member gives the same neighbouring
/// cosets), recorded when the search reaches the coset.
struct Cosets<S, I, N> {
    reps: Vec<OnceLock<S>>,
    moves: usize,
    index: I,
    neighbour: N,
}

impl<S, I, N> Layout for Cosets<S, I, N>
where
    S: Copy + Send + Sync,
    I: Fn(&S) -> usize + Sync,
    N: Fn(&S, usize) -> S + Sync,
{
    const INNER: u32 = 1;
    /// A coset not reached has no representative to compute its neighbours from.
    const BACKWARD: bool = false;
    type Pos = S;
    type Map = ();

    fn blocks(&self) -> u64 {
        self.reps.len() as u64
    }

    fn moves(&self) -> usize {
        self.moves
    }

    #[inline]
    fn positions(&self, b: u64) -> S {
        *self.reps[b as usize]
            .get()
            .expect("a reached coset has a representative")
    }

    #[inline]
    fn image(&self, s: &S, m: usize) -> (u64, ()) {
        ((self.index)(&(self.neighbour)(s, m)) as u64, ())
    }

    #[inline(always)]
    fn apply(&self, _: (), x: u32) -> u32 {
        x
    }

    #[inline]
    fn reached(&self, b: u64, from: &S, m: usize) {
        // Only the thread that set the entry gets here, once per coset.
        let _ = self.reps[b as usize].set((self.neighbour)(from, m));
    }
}

/// Exact distances from `start` over a space of `entries` cosets, a byte an entry: `index`
/// maps a state to its coset, `neighbour(s, m)` is state `s` after move `m < moves` (at most
/// 18). Entries never reached stay [`crate::pdb::cells::UNREACHED`]. For tables whose index has no
/// unranking (Thistlethwaite's phases).
pub fn coset_table<S: Copy + Send + Sync>(
    entries: usize,
    start: S,
    moves: usize,
    index: impl Fn(&S) -> usize + Sync,
    neighbour: impl Fn(&S, usize) -> S + Sync,
) -> Box<[u8]> {
    assert!(moves <= 18, "at most 18 moves");
    let layout = Cosets {
        reps: (0..entries).map(|_| OnceLock::new()).collect(),
        moves,
        index,
        neighbour,
    };
    let first = (layout.index)(&start);
    layout.reps[first].get_or_init(|| start);
    let cells = ByteCells::new(entries);
    bfs(&layout, &cells, first as u64, "coset table", None);
    cells.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdb::cells::UNREACHED;

    /// States 0..10 on a cycle (moves +1 and -1), cosets `s % 5`: distances 0, 1, 2, 2, 1.
    #[test]
    fn coset_table_gives_exact_distances() {
        let t = coset_table(
            5,
            0u32,
            2,
            |&s| (s % 5) as usize,
            |&s, m| if m == 0 { (s + 1) % 10 } else { (s + 9) % 10 },
        );
        assert_eq!(&t[..], &[0, 1, 2, 2, 1]);
        // An entry no move reaches stays unreached.
        let t = coset_table(3, 0u32, 1, |&s| s as usize, |_, _| 0);
        assert_eq!(&t[..], &[0, UNREACHED, UNREACHED]);
    }
}
