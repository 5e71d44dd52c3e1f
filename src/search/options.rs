//! What a search is asked to do ([`SearchOptions`]) and what it reports ([`SearchResult`], one
//! [`Iteration`] per bound).

use crate::cube::Move;

/// How to run a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Worker threads (1 = sequential).
    pub threads: usize,
    /// Give up (without a solution) once the bound would exceed this many moves.
    pub max_depth: u8,
    /// Depth at which the tree is split into work units for the threads (the units are also
    /// what [`SearchOptions::node_order`] orders). 4 by default: on the 25 positions of
    /// `optimal-17.txt` (`sym48e4`, one thread, AMD EPYC of 2026-11-24) the last iterations
    /// generated 2.43 G nodes with units at depth 3, 2.12 G at depth 4 and 1.71 G at depth 5,
    /// in 98.4, 91.5 and 108.1 s in all (depth 5's units then cost about 0.4 s of bookkeeping
    /// an iteration: the split's lookups, the previous counts' hash map). With the counts in a
    /// sorted list merged with the split's units and each split node ranked once, the same
    /// binary ran them in 228.8 s at depth 4 and 240.1 s at depth 5 (two runs of each, one on
    /// each core at once, 2026-11-24 13:06): 14 % fewer nodes at depth 5 (2.48 against 2.90 G)
    /// still do not pay for its split, which ranks its nodes one at a time (the worker batches
    /// them); the first ten of `optimal-18.txt` took 621.4 s at depth 4 and 718.9 s at depth 5
    /// (9.37 against 10.19 G nodes; same two-run scheme). Before that, on the second, third
    /// and fifth of `optimal-18.txt`, depth 4 took 1.05, 0.56 and 0.98 G nodes against 1.01,
    /// 1.07 and 1.30 G at depth 3; depth 5 took 1.55, 0.68 and 0.47 G (88 s in all
    /// against 81 s at depth 4): which unit holds the first solution is much a matter of luck.
    pub split_depth: u8,
    /// Also look up the inverse position (dual heuristic); the search then tracks both.
    pub dual: bool,
    /// Depth-first searches interleaved on each thread (1 = one at a time); see the module docs.
    pub lanes: usize,
    /// Skip the lookups that cannot prune any child (see the module docs). It changes only
    /// the move order of the last iteration; off, to measure what it saves.
    pub skip_lookups: bool,
    /// Run the search loop compiled for the baseline CPU even where the x86-64-v3 one could
    /// run (see the private `Worker::run`); to compare and test the two.
    pub baseline_cpu: bool,
    /// Read the corner values of a node's children from the heuristic's corner successor
    /// table when it has one ([`crate::search::Heuristic::derive_corner_successors`]): one memory read per
    /// node instead of one per child. Same values, same pruning; off, to measure it.
    pub corner_successors: bool,
    /// Extend each node on whichever side — the position or its inverse — reads the larger
    /// value, where every lookup allows it (only the coset table `sym48e0`, read both ways; see
    /// the `worker` module docs). Same lengths; off by default, as it saves no nodes here.
    pub switch_sides: bool,
    /// When the position is fixed by some of the 48 symmetries, search one work unit of each
    /// set of units whose positions those symmetries map onto each other (see the `ida`
    /// module docs); when it commutes with every move (the superflip), also one rotation of
    /// each solution ([`super::rotations`]). Same lengths, fewer nodes on symmetric positions;
    /// no effect on others.
    pub symmetric_units: bool,
    /// Search the work units of an iteration in decreasing order of the nodes they took in the
    /// previous one (ties, and units new to this bound, by heuristic value), instead of by
    /// heuristic value alone: the subtrees that came nearest to the goal are searched first, so
    /// the last iteration tends to meet a solution sooner (see the `ida` module docs). Same
    /// lengths; off, to measure it.
    pub node_order: bool,
    /// Read a dual lookup in two memory rounds: the position's entries for every child, then
    /// the inverse's only for the children the first did not prune (see the `worker` module
    /// docs). Same values for the survivors, same lengths; off, to measure what it saves.
    pub split_dual: bool,
    /// When the first lookup is a coset table of a subgroup that holds every half turn, read
    /// on the position and its inverse: drop a node's half-turn children before any of their
    /// entries is fetched when the node's own inverse value already exceeds their budget (a
    /// half turn leaves the inverse's entry unchanged; see the `worker` module docs). The
    /// entries they would read are the ones that prune them, so the same nodes are generated;
    /// off, to measure what it saves.
    pub half_turn_cuts: bool,
    /// In a split dual lookup of a coset table of a subgroup that holds every half turn, read
    /// the inverse's entries in the first round and the position's in the second: the
    /// inverse's entries of a node's children are about one cache line per face (a half turn
    /// keeps the node's own, and `m`, `m⁻¹` share one), the position's one a child (see the
    /// `worker` module docs). Same values for the survivors, same nodes; off, to measure it.
    pub inverse_first: bool,
    /// Read a coset table's fallback lookups (see the `heuristic` module docs) for a child
    /// only when its coset value is at least this much below the children's budget: a
    /// child with little slack has a small subtree that the coset table prunes anyway.
    pub fallback_slack: u8,
    /// Read the fallback lookups on the inverse position too (when the search reads the
    /// inverse at all): twice the fallback entries, more pruning near the subgroup.
    pub fallback_dual: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            max_depth: 20,
            split_depth: 4,
            dual: false,
            lanes: 4,
            skip_lookups: true,
            baseline_cpu: false,
            corner_successors: true,
            switch_sides: false,
            symmetric_units: true,
            node_order: true,
            split_dual: true,
            half_turn_cuts: true,
            inverse_first: true,
            fallback_slack: 0,
            fallback_dual: true,
        }
    }
}

/// Figures of one IDA* iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub bound: u8,
    pub nodes: u64,
    pub seconds: f64,
}

/// How a search ended.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The solution, if one was found.
    pub solution: Option<Vec<Move>>,
    /// True only when every shorter length was searched completely: the solution is optimal.
    pub optimal: bool,
    /// No solution is shorter than this (proved by complete iterations).
    pub lower_bound: u8,
    /// Nodes generated in all iterations.
    pub nodes: u64,
    pub iterations: Vec<Iteration>,
    pub seconds: f64,
    /// The search was stopped from outside before it finished.
    pub interrupted: bool,
}
