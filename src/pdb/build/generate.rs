//! Table generators: breadth-first search by depth, and iterative-deepening DFS.
//!
//! Both fill a [`NibbleTable`] with the exact distance of every pattern state from solved in the
//! pattern's metric (over its unit moves: the 18 face turns, or the 12 quarter turns) and must
//! produce byte-identical tables for any thread count (tests compare them, and the two methods
//! with each other).
//!
//! *BFS* is the crate's one breadth-first search ([`crate::pdb::bfs`]) over the pattern's block
//! layout (`pdb::blocks`, or the symmetry-reduced [`crate::pdb::phase1`] layout), into a nibble
//! table.
//!
//! *IDDFS* searches canonical move sequences from solved with a growing depth limit `L`; a node at
//! depth `g < L` is expanded only if its table entry equals `g` (it is reached no deeper than
//! before), and unknown entries met at depth `L` get `L`. It runs in parallel over the two-move
//! prefixes. A state has many shortest paths (the corner states at depth 8 could not be finished
//! in minutes without this), so each iteration also keeps one bit per entry, set atomically by the
//! first thread that expands the state: every state is expanded at most once per iteration.

use crate::cube::{Cube, Metric};
use crate::pdb::bfs::bfs;
use crate::pdb::checkpoint::Checkpoint;
use crate::pdb::family::{Builder, LayoutTask, Pattern};
use crate::pdb::layout::{InMetric, Layout};
use crate::pdb::table::{NibbleTable, UNKNOWN};
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

/// Builds the table of `pattern` with `method` on the current rayon pool. IDDFS is for the
/// families built over their own index ([`Pattern::built_over_own_index`]); the caller checks.
/// A family's own builder resumes from and writes `checkpoint` ([`Pattern::checkpointed`]).
pub fn generate(
    pattern: Pattern,
    method: Method,
    progress: &Progress,
    checkpoint: &mut Checkpoint,
) -> NibbleTable {
    match (pattern.family().builder, method) {
        (Builder::Layout(run), Method::Bfs) => {
            run(LayoutTask::Bfs { pattern, progress }).expect("a build task returns its table")
        }
        (Builder::Layout(_), Method::Iddfs) => iddfs(pattern, progress),
        (Builder::Own { build, .. }, Method::Bfs) => build(progress, checkpoint),
        (Builder::Own { .. }, Method::Iddfs) => {
            panic!("{pattern} is built breadth-first only")
        }
    }
}

impl LayoutTask<'_> {
    /// Runs the task with the family's layout: the table, for [`LayoutTask::Bfs`].
    pub fn run<L: Layout>(self, layout: &L) -> Option<NibbleTable> {
        match self {
            LayoutTask::Bfs { pattern, progress } => {
                let table = NibbleTable::new_unknown(pattern.entries());
                // The solved state is not index 0 for every pattern (edges7b and edges6b track
                // pieces whose home positions do not rank first).
                let start = pattern.index(&Cube::SOLVED);
                match pattern.metric() {
                    Metric::Htm => bfs(layout, &table, start, pattern.name(), Some(progress)),
                    metric => {
                        let layout = InMetric::new(layout, metric);
                        bfs(&layout, &table, start, pattern.name(), Some(progress))
                    }
                };
                Some(table)
            }
            #[cfg(test)]
            LayoutTask::Check { pattern, samples } => {
                crate::pdb::blocks::check_layout(layout, pattern, samples);
                None
            }
        }
    }
}

/// Builds the table of any family by IDDFS from solved over its index alone (no layout
/// needed): [`Pattern::index_of_inverse`] and [`Pattern::neighbour_inverse`].
pub fn iddfs(pattern: Pattern, progress: &Progress) -> NibbleTable {
    let n = pattern.entries();
    let table = NibbleTable::new_unknown(n);
    // The solved state is not index 0 for every pattern (edges7b and edges6b track pieces
    // whose home positions do not rank first).
    table.set_if_unknown(pattern.index(&Cube::SOLVED), 0);
    let mut known = 1u64;
    // The metric's moves, each as the inverse cube's change `g⁻¹` ([`Pattern::neighbour_inverse`]
    // for a move of two faces too).
    let metric = pattern.metric();
    let moves: Vec<Cube> = metric.generators().iter().map(Cube::inverse).collect();
    // Two-move prefixes that a shortest path may begin with: the parallel work units, the
    // metric's canonical pairs (`U U` is a half turn's shortest path in QTM).
    let kinds = metric.moves();
    let prefixes: Vec<(usize, usize)> = (0..kinds.len())
        .flat_map(|a| {
            (0..kinds.len())
                .filter(move |&b| metric.may_follow_move(kinds[a], kinds[b]))
                .map(move |b| (a, b))
        })
        .collect();
    let expanded = Expanded::new(n);
    for limit in 1u8.. {
        assert!(limit < UNKNOWN, "{pattern}: distances do not fit in 4 bits");
        expanded.clear();
        let ctx = Dfs {
            pattern,
            moves: &moves,
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
                    let q1 = moves[a];
                    if table.load(pattern.index_of_inverse(&q1)) != 1 {
                        return 0;
                    }
                    let q2 = moves[b].compose(&q1);
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
    /// The metric's moves as changes of the inverse cube (`g⁻¹`, applied on the left).
    moves: &'a [Cube],
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
        // All the metric's moves, not only canonical successors: the state is expanded once,
        // for whichever path came first, so its children must not depend on that path's last
        // move.
        (self.moves.iter())
            .map(|m| self.dfs(&m.compose(q), g + 1))
            .sum()
    }
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
        let bfs = korf6_table(Pattern::CORNERS);
        assert_eq!(bfs.histogram(), CORNER_COUNTS);
        let bfs1 = build(Pattern::CORNERS, Method::Bfs, 1);
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
        let iddfs = build(Pattern::CORNERS, Method::Iddfs, 2);
        assert_eq!(iddfs.histogram(), CORNER_COUNTS);
        assert!(korf6_table(Pattern::CORNERS).bytes() == iddfs.bytes());
    }

    /// The large tables' published distributions. Minutes and 250 MB each on 2 cores: run
    /// with `cargo test --release -- --ignored large_table_distributions`.
    #[test]
    #[ignore]
    fn large_table_distributions() {
        let perm = build(Pattern::EDGEPERM, Method::Bfs, 2).histogram();
        assert_eq!(
            perm,
            [
                1, 18, 243, 3240, 42535, 542234, 6529891, 66478628, 310957078, 94443600, 4132
            ]
        );
        let seven = build(Pattern::EDGES7A, Method::Bfs, 2).histogram();
        assert_eq!(
            seven,
            [
                1, 18, 237, 3016, 37021, 428578, 4484987, 38124789, 200330480, 257070439, 10455452,
                22
            ]
        );
        let b = build(Pattern::EDGES7B, Method::Bfs, 2).histogram();
        assert_eq!(b.iter().sum::<u64>(), Pattern::EDGES7B.entries());
    }

    /// The 6-edge table's counts are consistent (every entry reached; 1 and 18 at depths 0
    /// and 1, and no more than the 243 canonical sequences at depth 2 — fewer, as moves that
    /// miss the tracked edges merge states), and both methods build the 5-edge table byte for
    /// byte the same.
    #[test]
    fn edge_tables_both_methods() {
        let h = korf6_table(Pattern::EDGES6A).histogram();
        assert_eq!(h.iter().sum::<u64>(), Pattern::EDGES6A.entries());
        assert_eq!(&h[..2], &[1, 18]);
        assert!(h[2] < 243);
        // IDDFS on the 5-edge table: the same code path as on six edges, 14 times fewer
        // entries (the 6-edge comparison took over four minutes of the suite).
        let bfs = build(Pattern::EDGES5A, Method::Bfs, 2);
        let iddfs = build(Pattern::EDGES5A, Method::Iddfs, 2);
        assert!(
            bfs.bytes() == iddfs.bytes(),
            "BFS and IDDFS 5-edge tables differ"
        );
        assert_eq!(&bfs.histogram()[..2], &[1, 18]);
    }

    /// Table values are true pattern distances: neighbours differ by at most one, and every
    /// non-solved entry has a neighbour one closer (checked on a sample), in every metric
    /// (the neighbours by the metric's moves made on cubes, [`Pattern::neighbours`]: not the
    /// layout the breadth-first search used, which makes a move of two faces as two turns).
    #[test]
    fn corner_values_are_consistent_distances() {
        let qtm = crate::testing::korf6_qtm().tables()[0].1.clone();
        let stm = build(Pattern::CORNERS_STM, Method::Bfs, 2);
        let atm = build(Pattern::CORNERS_ATM, Method::Bfs, 2);
        for (p, t) in [
            (Pattern::CORNERS, korf6_table(Pattern::CORNERS)),
            (Pattern::CORNERS_QTM, &qtm),
            (Pattern::CORNERS_STM, &stm),
            (Pattern::CORNERS_ATM, &atm),
        ] {
            assert_eq!(p.neighbours(0).count(), p.metric().generators().len());
            let mut rng = crate::cube::Rng::new(9);
            for _ in 0..20_000 {
                let i = rng.below(p.entries());
                let v = t.get(i);
                let nb: Vec<u8> = p.neighbours(i).map(|j| t.get(j)).collect();
                assert!(nb.iter().all(|&w| w + 1 >= v && w <= v + 1), "{p}");
                assert!(v == 0 || nb.iter().any(|&w| w + 1 == v), "{p}");
            }
        }
    }

    /// The slice-turn and axial tables are the same by breadth-first search over the layout
    /// seen through the metric (a move of two faces made as two turns of the layout) and by
    /// IDDFS over cubes with the metric's moves (two code paths, on five edges); no value
    /// exceeds the half-turn one (a face turn is one move in both metrics), and the axial
    /// values are at most the slice-turn ones (a slice turn is an axial move).
    #[test]
    fn slice_turn_and_axial_tables_by_both_methods() {
        let htm = build(Pattern::EDGES5A, Method::Bfs, 2);
        let stm = build(Pattern::EDGES5A_STM, Method::Bfs, 2);
        let atm = build(Pattern::EDGES5A_ATM, Method::Bfs, 2);
        for (p, bfs) in [(Pattern::EDGES5A_STM, &stm), (Pattern::EDGES5A_ATM, &atm)] {
            let iddfs = build(p, Method::Iddfs, 2);
            assert!(bfs.bytes() == iddfs.bytes(), "{p}: BFS and IDDFS differ");
            let h = bfs.histogram();
            assert_eq!(h.iter().sum::<u64>(), p.entries());
            assert_eq!(h[0], 1);
        }
        let (mut fewer_stm, mut fewer_atm) = (0, 0);
        for i in 0..Pattern::EDGES5A.entries() {
            let (h, s, a) = (htm.get(i), stm.get(i), atm.get(i));
            assert!(a <= s && s <= h, "entry {i}: {h} {s} {a}");
            fewer_stm += usize::from(s < h);
            fewer_atm += usize::from(a < s);
        }
        // And the slices and axial moves do shorten some: the tables are not the half-turn one.
        assert!(fewer_stm > 0 && fewer_atm > 0);
    }

    /// A quarter-turn table is the same by breadth-first search over the layout seen through
    /// the metric and by IDDFS over cubes with the 12 quarter turns (two code paths; on five
    /// edges, which IDDFS builds in seconds); each quarter-turn value of the 6-edge table is at
    /// least the half-turn one (a quarter-turn sequence is a half-turn sequence no longer); the
    /// corner table's quarter-turn diameter is 14.
    #[test]
    fn quarter_turn_tables_by_both_methods() {
        let q = Pattern::EDGES5A_QTM;
        let bfs = build(q, Method::Bfs, 2);
        let iddfs = build(q, Method::Iddfs, 2);
        assert!(bfs.bytes() == iddfs.bytes(), "BFS and IDDFS differ");
        assert_eq!(&bfs.histogram()[..2], &[1, 12]);
        let edges = korf6_table(Pattern::EDGES6A_QTM);
        let htm = korf6_table(Pattern::EDGES6A);
        let mut rng = crate::cube::Rng::new(10);
        for _ in 0..100_000 {
            let i = rng.below(Pattern::EDGES6A.entries());
            assert!(edges.get(i) >= htm.get(i));
        }
        let h = edges.histogram();
        assert_eq!(h.iter().sum::<u64>(), Pattern::EDGES6A_QTM.entries());
        assert_eq!(&h[..3], &[1, 12, 109]);
        let corners = korf6_table(Pattern::CORNERS_QTM).histogram();
        assert_eq!(corners.len(), 15);
        assert_eq!(&corners[..3], &[1, 12, 114]);
    }
}
