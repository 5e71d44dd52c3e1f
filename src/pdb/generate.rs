//! Table generators: breadth-first search by depth, and iterative-deepening DFS.
//!
//! Both fill a [`NibbleTable`] with the exact distance of every pattern state from solved and
//! must produce byte-identical tables for any thread count (tests compare them).
//!
//! *BFS* works a whole depth at a time, in parallel over chunks of index *blocks*
//! (`pdb/blocks.rs`: a move maps a block of entries to one block, so neighbours are ranked once
//! per block and move, not once per entry). While the frontier is small it expands forward (each
//! entry at depth `d` marks its unknown neighbours `d+1`, with an atomic compare-and-swap on the
//! byte); once the frontier outgrows the unknown remainder it runs backward (each unknown entry
//! looks for a neighbour at depth `d` and marks itself; a block's writes stay in that block).
//! Either way the value written is `d+1`, whoever writes it, so the result is deterministic.
//! In symmetry-reduced layouts ([`super::phase1`]) an entry marked forward also marks its twins,
//! the entries of the same class that stand for the same state.
//!
//! *IDDFS* searches canonical move sequences from solved with a growing depth limit `L`; a node at
//! depth `g < L` is expanded only if its table entry equals `g` (it is reached no deeper than
//! before), and unknown entries met at depth `L` get `L`. It runs in parallel over the two-move
//! prefixes. A state has many shortest paths (the corner states at depth 8 could not be finished
//! in minutes without this), so each iteration also keeps one bit per entry, set atomically by the
//! first thread that expands the state: every state is expanded at most once per iteration.

use super::blocks::with_layout;
use super::layout::{Layout, LayoutFn};
use super::pattern::Pattern;
use super::table::{NibbleTable, UNKNOWN};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One bit per table entry: states already expanded in the current IDDFS iteration.
struct Expanded(Vec<AtomicU64>);

impl Expanded {
    fn new(entries: u64) -> Expanded {
        Expanded(
            (0..entries.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        )
    }
    fn clear(&self) {
        self.0.par_iter().for_each(|w| w.store(0, Relaxed));
    }
    /// Marks entry `i`; true if this call marked it first.
    #[inline(always)]
    fn first_visit(&self, i: u64) -> bool {
        let bit = 1u64 << (i & 63);
        self.0[(i >> 6) as usize].fetch_or(bit, Relaxed) & bit == 0
    }
}

/// Which generator to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Breadth-first search by depth (forward, then backward).
    Bfs,
    /// Iterative-deepening depth-first search from solved.
    Iddfs,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::Iddfs => "iddfs",
        }
    }
}

/// Entries per parallel work unit (about; whole blocks).
const CHUNK: u64 = 1 << 16;

/// Builds the table of `pattern` with `method` on the current rayon pool.
pub fn generate(pattern: Pattern, method: Method, progress: &Progress) -> NibbleTable {
    match method {
        Method::Bfs => with_layout(pattern, Bfs { pattern, progress }),
        Method::Iddfs => iddfs(pattern, progress),
    }
}

/// Breadth-first generation over the blocks of a [`Layout`].
struct Bfs<'a> {
    pattern: Pattern,
    progress: &'a Progress,
}

impl LayoutFn<NibbleTable> for Bfs<'_> {
    fn call<L: Layout>(self, layout: &L) -> NibbleTable {
        let (pattern, progress) = (self.pattern, self.progress);
        let n = pattern.entries();
        let table = NibbleTable::new_unknown(n);
        // The solved state is not index 0 for every pattern (edges7b and edges6b track pieces
        // whose home positions do not rank first).
        table.set_if_unknown(pattern.index(&Cube::SOLVED), 0);
        let mut known = 1u64;
        let mut frontier = 1u64;
        let per_chunk = (CHUNK / L::INNER as u64).max(1);
        let chunks = layout.blocks().div_ceil(per_chunk);
        for d in 0u8.. {
            let unknown = n - known;
            if unknown == 0 || frontier == 0 {
                break;
            }
            assert!(d + 1 < UNKNOWN, "{pattern}: distances do not fit in 4 bits");
            // Forward costs 18 table writes per frontier entry, backward up to 18 reads per
            // unknown entry (fewer when a parent is found early): switch once the frontier is
            // a quarter of the unknown remainder (measured on the corner table).
            let backward = frontier.saturating_mul(4) > unknown;
            let done_chunks = AtomicU64::new(0);
            let direction = if backward { "backward" } else { "forward" };
            let found: u64 = (0..chunks)
                .into_par_iter()
                .map(|c| {
                    let lo = c * per_chunk;
                    let hi = (lo + per_chunk).min(layout.blocks());
                    let mut scratch = Vec::with_capacity(L::INNER as usize);
                    let k: u64 = (lo..hi)
                        .map(|b| {
                            if backward {
                                backward_block(layout, &table, b, d, &mut scratch)
                            } else {
                                forward_block(layout, &table, b, d, &mut scratch)
                            }
                        })
                        .sum();
                    let done = done_chunks.fetch_add(1, Relaxed) + 1;
                    if done.is_multiple_of(64) {
                        let frac = done as f64 / chunks as f64;
                        progress.update(
                            known,
                            &format!("depth {} {direction} {:.0}%", d + 1, 100.0 * frac),
                        );
                    }
                    k
                })
                .sum();
            known += found;
            frontier = found;
            progress.update(known, &format!("depth {} done: {found} entries", d + 1));
        }
        table
    }
}

/// The 18 images of block `b`, with the first cache line of each target block requested.
#[inline]
fn images<L: Layout>(layout: &L, t: &NibbleTable, b: u64) -> [(u64, L::Map); 18] {
    let pos = layout.positions(b);
    let images: [(u64, L::Map); 18] = std::array::from_fn(|m| layout.image(&pos, m));
    for &(b2, _) in &images {
        t.prefetch(b2 * L::INNER as u64);
    }
    images
}

/// Lists the entries of block `b` whose value is `v` (as offsets in the block) into `out`;
/// returns the block's first index.
#[inline]
fn block_entries<L: Layout>(t: &NibbleTable, b: u64, v: u8, out: &mut Vec<u32>) -> u64 {
    let base = b * L::INNER as u64;
    out.clear();
    t.find(base, base + L::INNER as u64, v, out);
    base
}

/// Forward step for block `b`: its entries at depth `d` mark their unknown neighbours `d+1`.
#[inline]
fn forward_block<L: Layout>(
    layout: &L,
    t: &NibbleTable,
    b: u64,
    d: u8,
    frontier: &mut Vec<u32>,
) -> u64 {
    block_entries::<L>(t, b, d, frontier);
    if frontier.is_empty() {
        return 0;
    }
    let mut found = 0;
    for (b2, map) in images(layout, t, b) {
        let base2 = b2 * L::INNER as u64;
        for &x in frontier.iter() {
            let x2 = layout.apply(map, x);
            let j = base2 + x2 as u64;
            // A plain load first: most neighbours are known, and a load is cheaper than a CAS.
            if t.load(j) == UNKNOWN && t.set_if_unknown(j, d + 1) {
                found += 1;
                layout.for_each_twin(b2, x2, |y| {
                    if t.set_if_unknown(base2 + y as u64, d + 1) {
                        found += 1;
                    }
                });
            }
        }
    }
    found
}

/// Backward step for block `b`: each unknown entry with a neighbour at depth `d` becomes
/// `d+1`. Writes stay inside block `b`; other threads only read it, and an entry they may
/// see change goes from unknown to `d+1`, neither of which is `d`, so the result is the same
/// whatever the interleaving.
#[inline]
fn backward_block<L: Layout>(
    layout: &L,
    t: &NibbleTable,
    b: u64,
    d: u8,
    open: &mut Vec<u32>,
) -> u64 {
    let base = block_entries::<L>(t, b, UNKNOWN, open);
    if open.is_empty() {
        return 0;
    }
    let before = open.len();
    for (b2, map) in images(layout, t, b) {
        let base2 = b2 * L::INNER as u64;
        open.retain(|&x| {
            if t.load(base2 + layout.apply(map, x) as u64) == d {
                // The byte may be shared with the next block, hence the CAS.
                t.set_if_unknown(base + x as u64, d + 1);
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

fn iddfs(pattern: Pattern, progress: &Progress) -> NibbleTable {
    let n = pattern.entries();
    let table = NibbleTable::new_unknown(n);
    // The solved state is not index 0 for every pattern (edges7b and edges6b track pieces
    // whose home positions do not rank first).
    table.set_if_unknown(pattern.index(&Cube::SOLVED), 0);
    let mut known = 1u64;
    // All canonical two-move prefixes: the parallel work units.
    let prefixes: Vec<(Move, Move)> = Move::all()
        .flat_map(|a| {
            Move::all()
                .filter(move |b| ALLOWED_AFTER[a.face_index()] & (1 << b.index()) != 0)
                .map(move |b| (a, b))
        })
        .collect();
    let expanded = Expanded::new(n);
    for limit in 1u8.. {
        assert!(limit < UNKNOWN, "{pattern}: distances do not fit in 4 bits");
        expanded.clear();
        let ctx = Dfs {
            pattern,
            t: &table,
            expanded: &expanded,
            limit,
        };
        let found: u64 = if limit <= 2 {
            ctx.dfs(&Cube::SOLVED, 0)
        } else {
            prefixes
                .par_iter()
                .map(|&(a, b)| {
                    let q1 = Pattern::neighbour_inverse(&Cube::SOLVED, a);
                    if table.load(pattern.index_of_inverse(&q1)) != 1 {
                        return 0;
                    }
                    let q2 = Pattern::neighbour_inverse(&q1, b);
                    ctx.dfs(&q2, 2)
                })
                .sum()
        };
        if found == 0 {
            break;
        }
        known += found;
        progress.update(known, &format!("depth {limit} done: {found} entries"));
        if known == n {
            break;
        }
    }
    table
}

/// One IDDFS iteration's shared state.
struct Dfs<'a> {
    pattern: Pattern,
    t: &'a NibbleTable,
    expanded: &'a Expanded,
    limit: u8,
}

impl Dfs<'_> {
    /// Depth-first search below the node `q` at depth `g`; returns how many entries it set to
    /// `limit`.
    fn dfs(&self, q: &Cube, g: u8) -> u64 {
        let i = self.pattern.index_of_inverse(q);
        let v = self.t.load(i);
        if g == self.limit {
            return u64::from(v == UNKNOWN && self.t.set_if_unknown(i, g));
        }
        // Reached at a shallower depth (its subtree was searched from there), or already
        // expanded in this iteration by another path.
        if v != g || !self.expanded.first_visit(i) {
            return 0;
        }
        // All 18 moves, not only canonical successors: the state is expanded once, for
        // whichever path came first, so its children must not depend on that path's last move.
        Move::all()
            .map(|m| self.dfs(&Pattern::neighbour_inverse(q, m), g + 1))
            .sum()
    }
}

/// Distance value of [`byte_bfs`] entries never reached.
pub const UNREACHED: u8 = u8::MAX;

/// Exact distances from `start` over a small state space, one byte an entry: breadth-first,
/// a layer at a time, single-threaded. `index` maps a state to its entry; `neighbours` appends
/// a state's neighbours to the vector it is given. Entries never reached stay [`UNREACHED`].
/// For the solvers' own small tables (two-phase corner×slice, Thistlethwaite phases); the
/// pattern databases use the parallel nibble BFS above.
pub fn byte_bfs<S>(
    entries: usize,
    start: S,
    index: impl Fn(&S) -> usize,
    mut neighbours: impl FnMut(&S, &mut Vec<S>),
) -> Box<[u8]> {
    let mut dist = vec![UNREACHED; entries].into_boxed_slice();
    dist[index(&start)] = 0;
    let mut frontier = vec![start];
    let mut around = Vec::with_capacity(18);
    let mut depth = 0u8;
    while !frontier.is_empty() {
        let mut next = Vec::with_capacity(frontier.len() * 4);
        for s in &frontier {
            around.clear();
            neighbours(s, &mut around);
            for n in around.drain(..) {
                let k = index(&n);
                if dist[k] == UNREACHED {
                    dist[k] = depth + 1;
                    next.push(n);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{build, korf6_table};

    const CORNER_COUNTS: [u64; 12] = [
        1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736,
    ];

    /// Korf 1997's corner distribution, and 1 thread = 2 threads byte for byte.
    #[test]
    fn corner_table_matches_published_counts() {
        let bfs = korf6_table(Pattern::Corners);
        assert_eq!(bfs.histogram(), CORNER_COUNTS);
        let bfs1 = build(Pattern::Corners, Method::Bfs, 1);
        assert!(
            bfs.bytes() == bfs1.bytes(),
            "1-thread and 2-thread tables differ"
        );
    }

    /// IDDFS builds the same corner table as BFS. Several minutes on 2 cores: run with
    /// `cargo test --release -- --ignored iddfs_corner`.
    #[test]
    #[ignore]
    fn iddfs_corner_table_equals_bfs() {
        let iddfs = build(Pattern::Corners, Method::Iddfs, 2);
        assert_eq!(iddfs.histogram(), CORNER_COUNTS);
        assert!(korf6_table(Pattern::Corners).bytes() == iddfs.bytes());
    }

    /// The large tables' published distributions. Minutes and 250 MB each on 2 cores: run
    /// with `cargo test --release -- --ignored large_table_distributions`.
    #[test]
    #[ignore]
    fn large_table_distributions() {
        let perm = build(Pattern::EdgePerm, Method::Bfs, 2).histogram();
        assert_eq!(
            perm,
            [
                1, 18, 243, 3240, 42535, 542234, 6529891, 66478628, 310957078, 94443600, 4132
            ]
        );
        let seven = build(Pattern::Edges7A, Method::Bfs, 2).histogram();
        assert_eq!(
            seven,
            [
                1, 18, 237, 3016, 37021, 428578, 4484987, 38124789, 200330480, 257070439, 10455452,
                22
            ]
        );
        let b = build(Pattern::Edges7B, Method::Bfs, 2).histogram();
        assert_eq!(b.iter().sum::<u64>(), Pattern::Edges7B.entries());
    }

    /// The 6-edge table: both methods agree byte for byte, and its counts are consistent
    /// (every entry reached; 1 and 18 at depths 0 and 1, and no more than the 243 canonical
    /// sequences at depth 2 — fewer, as moves that miss the tracked edges merge states).
    #[test]
    fn six_edge_table_both_methods() {
        let bfs = korf6_table(Pattern::Edges6A);
        let h = bfs.histogram();
        assert_eq!(h.iter().sum::<u64>(), Pattern::Edges6A.entries());
        assert_eq!(&h[..2], &[1, 18]);
        assert!(h[2] < 243);
        let iddfs = build(Pattern::Edges6A, Method::Iddfs, 2);
        assert!(
            bfs.bytes() == iddfs.bytes(),
            "BFS and IDDFS 6-edge tables differ"
        );
    }

    /// Table values are true pattern distances: neighbours differ by at most one, and every
    /// non-solved entry has a neighbour one closer (checked on a sample).
    #[test]
    fn corner_values_are_consistent_distances() {
        let t = korf6_table(Pattern::Corners);
        let mut rng = crate::cube::Rng::new(9);
        for _ in 0..20_000 {
            let i = rng.below(Pattern::Corners.entries());
            let v = t.get(i);
            let nb: Vec<u8> = Pattern::Corners.neighbours(i).map(|j| t.get(j)).collect();
            assert!(nb.iter().all(|&w| w + 1 >= v && w <= v + 1));
            assert!(v == 0 || nb.iter().any(|&w| w + 1 == v));
        }
    }
}
