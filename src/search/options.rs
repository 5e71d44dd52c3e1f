//! What a search is asked to do ([`SearchOptions`]) and what it reports ([`SearchResult`], one
//! [`Iteration`] per bound).

use crate::cube::{Metric, Move};

/// How to run a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// How lengths are counted: the IDA* runs in either metric (a half turn costs 2 in QTM,
    /// bounds keep the position's parity; `docs/search.md`, "Metrics"), and so does the
    /// move-subset search of [`super::subset`].
    pub metric: Metric,
    /// Worker threads (1 = sequential).
    pub threads: usize,
    /// Give up (without a solution) once the bound would exceed this length (in the metric).
    pub max_depth: u8,
    /// Depth at which the tree is split into work units for the threads (the units are also
    /// what [`SearchOptions::node_order`] orders). 4 by default: deeper units order the last
    /// iteration more finely but cost bookkeeping (`results/worker-choices.md`).
    pub split_depth: u8,
    /// Also look up the inverse position (dual heuristic); the search then tracks both.
    pub dual: bool,
    /// Depth-first searches interleaved on each thread (1 = one at a time); see the module docs.
    pub lanes: usize,
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
    /// Read a coset table's fallback lookups (see the `heuristic` module docs) for a child
    /// only when its coset value is at least this much below the children's budget: a
    /// child with little slack has a small subtree that the coset table prunes anyway.
    pub fallback_slack: u8,
    /// Read the fallback lookups on the inverse position too (when the search reads the
    /// inverse at all): twice the fallback entries, more pruning near the subgroup.
    pub fallback_dual: bool,
    /// How many optimal solutions to find: 1 stops the last iteration at its first solution;
    /// more continue it until that many are found (the first in the units' order, so the same
    /// ones on any number of threads); [`ALL_SOLUTIONS`] searches it to the end. Above 1, the
    /// reductions that keep one solution of several ([`SearchOptions::symmetric_units`],
    /// [`SearchOptions::switch_sides`]) are not used.
    pub solutions: usize,
    /// A lower bound on the distance proven by other means (0: none): the first iteration's
    /// bound is at least this (raised to the position's parity in QTM), so the iterations
    /// below it, known to fail, are not run. The answer is optimal only if the bound holds:
    /// the coset solver passes the depth past which its bitmap is exact (`coset --settle`).
    pub known_lower_bound: u8,
    /// The optimizations the tests turn off one by one ([`Optimizations`]); outside the
    /// tests they are all on, as constants.
    #[cfg(test)]
    pub(crate) optimizations: Optimizations,
}

/// Optimizations of the search loop that change no result, each kept switchable only so that
/// the tests can compare it with its absence (complete iterations generate the same nodes, or
/// the same values for the survivors). Outside the tests [`SearchOptions::optimizations`] is
/// [`Optimizations::ALL`], a constant: no option reaches them. What each saves was measured
/// with the switch and is in `results/worker-choices.md`.
#[derive(Clone, Copy, Debug)]
pub struct Optimizations {
    /// Skip the lookups that cannot prune any child (see the `worker` module docs). It
    /// changes only the move order of the last iteration.
    pub skip_lookups: bool,
    /// Read a dual lookup in two memory rounds: one side's entries for every child, then the
    /// other's only for the children the first did not prune (see the `worker` module docs).
    pub split_dual: bool,
    /// When the first lookup is a coset table of a subgroup that holds every half turn, read
    /// on the position and its inverse: drop a node's half-turn children before any of their
    /// entries is fetched when the node's own inverse value already exceeds their budget (a
    /// half turn leaves the inverse's entry unchanged).
    pub half_turn_cuts: bool,
    /// In a split dual lookup of such a coset table, read the inverse's entries in the first
    /// round and the position's in the second: the inverse's entries of a node's children are
    /// about one cache line per face, the position's one a child.
    pub inverse_first: bool,
    /// Run the search loop compiled for x86-64-v3 where the CPU has it (off: the baseline
    /// loop; see the private `Worker::run`).
    pub x86_64_v3: bool,
}

impl Optimizations {
    /// Every optimization on: what the search runs with outside the tests.
    pub const ALL: Optimizations = Optimizations {
        skip_lookups: true,
        split_dual: true,
        half_turn_cuts: true,
        inverse_first: true,
        x86_64_v3: true,
    };
}

impl SearchOptions {
    /// Why [`SearchOptions::known_lower_bound`] cannot be used, if it cannot: above the depth
    /// limit the search could never check it (it would end at once, the bound reported as
    /// proven), and above the metric's diameter it is false for every position. The command
    /// line and Python refuse such a bound with this message; the search ignores it.
    pub fn known_bound_problem(&self) -> Option<String> {
        let (k, metric) = (self.known_lower_bound, self.metric);
        let unit = metric.unit_for(k as usize);
        if k > metric.diameter() {
            Some(format!(
                "{k} {unit} is more than the diameter of the {metric} metric ({}): no \
                 position is that far",
                metric.diameter()
            ))
        } else if k > self.max_depth {
            Some(format!(
                "{k} {unit} is beyond the depth limit {}: the search could not check it \
                 (raise the depth limit or lower the bound)",
                self.max_depth
            ))
        } else {
            None
        }
    }

    /// The optimizations this search runs with: [`Optimizations::ALL`] outside the tests.
    #[inline(always)]
    pub fn optimizations(&self) -> Optimizations {
        #[cfg(test)]
        return self.optimizations;
        #[cfg(not(test))]
        Optimizations::ALL
    }
}

/// [`SearchOptions::solutions`]: every optimal solution.
pub const ALL_SOLUTIONS: usize = usize::MAX;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            metric: Metric::Htm,
            threads: 1,
            max_depth: 20,
            split_depth: 4,
            dual: false,
            lanes: 4,
            corner_successors: true,
            switch_sides: false,
            symmetric_units: true,
            node_order: true,
            fallback_slack: 0,
            fallback_dual: true,
            solutions: 1,
            known_lower_bound: 0,
            #[cfg(test)]
            optimizations: Optimizations::ALL,
        }
    }
}

/// What an observed search ([`super::solve_observed`], [`super::subset::solve_in_observed`])
/// reports as it goes: an iteration begins (its bound), or one ended (its figures; it found
/// the solution if it was the last).
#[derive(Clone, Debug, PartialEq)]
pub enum IterationEvent {
    Started {
        bound: u8,
    },
    Finished(Iteration),
    /// A witness searched for a solution of `bound` moves before that iteration, or gave one
    /// ([`super::witness`]); `found`: it gave one, and the search ends with it.
    Witness {
        bound: u8,
        seconds: f64,
        found: bool,
    },
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
    /// The solution, if one was found (the first of [`SearchResult::solutions`]).
    pub solution: Option<Vec<Move>>,
    /// The optimal solutions found, each a canonical sequence (never a move after its own
    /// face, nor after the opposite face of a smaller index: `U D`, never `D U`), sorted in
    /// move-index order: as many as [`SearchOptions::solutions`] asked for, or all there are
    /// when there are fewer (or it asked for all).
    pub solutions: Vec<Vec<Move>>,
    /// True only when every shorter length was searched completely (or lies below
    /// [`SearchOptions::known_lower_bound`]): the solution is optimal.
    pub optimal: bool,
    /// No solution is shorter than this (proved by complete iterations).
    pub lower_bound: u8,
    /// Nodes generated in all iterations.
    pub nodes: u64,
    pub iterations: Vec<Iteration>,
    pub seconds: f64,
    /// The search was stopped from outside before it finished.
    pub interrupted: bool,
    /// The metric of the lengths and bounds above ([`SearchOptions::metric`]).
    pub metric: Metric,
    /// The solution came from a witness ([`super::witness`]) before the last iteration: the
    /// iterations listed are those below its length, all complete.
    pub witnessed: bool,
    /// Seconds spent asking witnesses (within [`SearchResult::seconds`]).
    pub witness_seconds: f64,
    /// The iteration that orders the first one at [`SearchOptions::known_lower_bound`] found
    /// a shorter solution: the bound was false, so the search ignored it and started from the
    /// heuristic's value (the answer is optimal without it).
    pub known_bound_refuted: bool,
}

impl SearchResult {
    /// A search that has only looked at the root (one node) and found nothing yet.
    pub fn begun() -> SearchResult {
        SearchResult {
            solution: None,
            solutions: vec![],
            optimal: false,
            lower_bound: 0,
            nodes: 1,
            iterations: vec![],
            seconds: 0.0,
            interrupted: false,
            metric: Metric::Htm,
            witnessed: false,
            witness_seconds: 0.0,
            known_bound_refuted: false,
        }
    }

    /// Records the optimal solutions of a completed proof, sorted (`solution` is the first).
    pub fn solved(&mut self, solutions: Vec<Vec<Move>>) {
        self.solution = solutions.first().cloned();
        self.solutions = solutions;
        self.optimal = true;
    }
}
