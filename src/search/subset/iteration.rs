//! One iteration of the search over syllables: the tree's top on the calling thread, its work
//! units on the pool in node order, and what they found put together in that order.

use super::{Search, Syllable, Target, UnitSymmetries};
use crate::cube::Cube;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Syllables from the root to a work unit: the tree below that depth is searched in units,
/// in parallel on the current rayon pool.
pub(super) const SPLIT: usize = 2;

/// What one iteration found.
pub(super) struct IterationFound {
    /// The first `wanted` solutions in the units' order (all of them with
    /// [`crate::search::ALL_SOLUTIONS`]), as syllable paths.
    pub(super) found: Vec<Vec<usize>>,
    pub(super) nodes: u64,
    pub(super) min_exceeded: u8,
}

/// The nodes each work unit took in an iteration, by its path of syllables.
pub(super) type UnitCounts = std::collections::HashMap<Vec<usize>, u64>;

/// One iteration of bound `bound` from `root` (a position and its inverse): the tree to depth
/// [`SPLIT`] on this thread, the subtrees below it as work units on the pool. The units are
/// searched in the order of the nodes they took in the last iteration (`units`, most first;
/// ties, and all units in the first iteration, in depth-first order), which the same rule
/// made the half-turn search meet its solutions sooner (`SearchOptions::node_order`); the
/// threads take them in that order one at a time. `units` is then this iteration's counts.
///
/// The solutions kept are the first `wanted` in that order, whatever the number of threads:
/// a unit's solutions count in the order of the units, and a unit stops early only once a unit
/// before it has found `wanted` alone (so for one solution, the units after the first that
/// has one are abandoned). A complete iteration's counts, and so the order, do not depend on
/// the threads either.
pub(super) fn iteration(
    target: &dyn Target,
    syllables: &[Syllable],
    (cube, q): (&Cube, &Cube),
    bound: u8,
    wanted: usize,
    stop: &AtomicBool,
    (units, symmetric): (&mut UnitCounts, &UnitSymmetries),
) -> IterationFound {
    use rayon::prelude::*;
    use std::sync::atomic::AtomicUsize;
    let never = AtomicUsize::new(usize::MAX);
    let mut top = Search::new(target, syllables, wanted, stop, &never, 0);
    top.split = Some(Vec::new());
    top.dfs(cube, q, 0, bound, 3);
    let mut items = top.split.take().expect("collected");
    // Of each set of units the position's symmetries map onto each other, one (`symmetric`).
    items.retain(|item| match item {
        Item::Unit { path, .. } => symmetric.kept(path),
        Item::Solution(_) => true,
    });
    // Solutions found above the units first (they are this bound's), then the units.
    let key = |item: &Item| match item {
        Item::Solution(_) => u64::MAX,
        Item::Unit { path, .. } => units.get(path).copied().unwrap_or(0),
    };
    items.sort_by_key(|item| std::cmp::Reverse(key(item)));
    // The least rank of an item that holds `wanted` solutions alone.
    let first = items.iter().position(|i| matches!(i, Item::Solution(_)));
    let enough = AtomicUsize::new(first.filter(|_| wanted == 1).unwrap_or(usize::MAX));
    let next = AtomicUsize::new(0);
    // One task a thread, each taking the next unit in order (a parallel iterator over the
    // units would hand a thread the second half of the list to start with).
    let takers = rayon::current_num_threads().min(items.len()).max(1);
    let per_thread: Vec<Vec<_>> = (0..takers)
        .into_par_iter()
        .map(|_| {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(item) = items.get(i) else {
                    return done;
                };
                done.push(match item {
                    Item::Solution(path) => (i, vec![path.clone()], 0, u8::MAX),
                    Item::Unit {
                        path,
                        p,
                        q,
                        g,
                        axis,
                    } => {
                        let mut s = Search::new(target, syllables, wanted, stop, &enough, i);
                        s.path = path.clone();
                        s.dfs(p, q, *g, bound, *axis);
                        if s.found.len() >= wanted {
                            enough.fetch_min(i, Relaxed);
                        }
                        (i, s.found, s.nodes, s.min_exceeded)
                    }
                });
            }
        })
        .collect();
    let mut results: Vec<_> = per_thread.into_iter().flatten().collect();
    results.sort_by_key(|r| r.0);
    let mut out = IterationFound {
        found: Vec::new(),
        nodes: top.nodes,
        min_exceeded: top.min_exceeded,
    };
    units.clear();
    for (i, found, nodes, min) in results {
        out.nodes += nodes;
        out.min_exceeded = out.min_exceeded.min(min);
        if out.found.len() < wanted {
            out.found.extend(found);
        }
        if let Item::Unit { path, .. } = &items[i] {
            units.insert(path.clone(), nodes);
        }
    }
    out.found.truncate(wanted);
    out
}

/// What the tree to depth [`SPLIT`] leaves, in depth-first order: a solution found there, or
/// a node whose subtree is a work unit.
pub(super) enum Item {
    Solution(Vec<usize>),
    Unit {
        path: Vec<usize>,
        p: Cube,
        q: Cube,
        g: u8,
        axis: usize,
    },
}
