//! The walk down an exact distance: the one way optimal solutions are listed without
//! iterations, for the exact `<R,U>` table ([`super::solve_exact`]) and for a target whose
//! bound is its exact distance with every turn ([`super::Target::exact`], e.g. a goal whose
//! one table indexes the goal itself: `cross`, `2x2x2`, `eo`, `xcross`).
//!
//! From a position at exact distance `d`, a step of cost `c` begins an optimal solution exactly
//! when its child is at distance `d − c`; so the optimal step paths are the walks that lower
//! the distance by each step's cost, and the walk looks up only the children of nodes on them.
//! Steps are syllables; two of one axis never follow each other (the search's canonical rule),
//! and they are tried in their order, so for a target the walk lists the same solutions in the
//! same order as the last iteration of [`super::solve_toward`]'s search (tested against it).

use super::Syllable;
use crate::cube::Cube;
use crate::search::options::{Iteration, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// Walks down the exact `distance` from `from`, at distance `d`, by `steps`: every walk that
/// lowers it by each step's cost, in step order, until `wanted` are found or `stop` is asked.
/// Recorded into `result` as an iteration of bound `d` (returned too), its nodes (the children
/// looked up) and the solutions found.
pub(super) fn walk_into(
    result: &mut SearchResult,
    steps: &[Syllable],
    distance: &dyn Fn(&Cube) -> Option<u8>,
    from: &Cube,
    d: u8,
    wanted: usize,
    stop: &AtomicBool,
) -> Iteration {
    let t = Instant::now();
    let mut w = Walk {
        steps,
        distance,
        wanted,
        stop,
        path: Vec::with_capacity(d as usize),
        found: Vec::new(),
        nodes: 0,
    };
    // No axis before the first step.
    w.down(from, d, usize::MAX);
    let it = Iteration {
        bound: d,
        nodes: w.nodes,
        seconds: t.elapsed().as_secs_f64(),
    };
    result.iterations.push(it.clone());
    result.nodes += w.nodes;
    if !w.found.is_empty() {
        result.solved(super::words(steps, &w.found));
    }
    it
}

/// The walks from one position.
struct Walk<'a> {
    steps: &'a [Syllable],
    /// The exact distance of a position (`None`: not in the walk's space).
    distance: &'a dyn Fn(&Cube) -> Option<u8>,
    wanted: usize,
    stop: &'a AtomicBool,
    path: Vec<usize>,
    /// The step paths found, in step order.
    found: Vec<Vec<usize>>,
    /// Children looked up.
    nodes: u64,
}

impl Walk<'_> {
    /// Every walk from `p`, at distance `d`, that lowers the distance by each step's cost
    /// (after a step of `last_axis`), in step order, until `wanted` are found or the stop is
    /// asked; true then.
    fn down(&mut self, p: &Cube, d: u8, last_axis: usize) -> bool {
        if d == 0 {
            self.found.push(self.path.clone());
            return self.found.len() >= self.wanted;
        }
        if self.stop.load(Relaxed) {
            return true;
        }
        for k in 0..self.steps.len() {
            let s = &self.steps[k];
            if s.axis == last_axis || s.cost > d {
                continue;
            }
            let p2 = p.compose(&s.cube);
            self.nodes += 1;
            if (self.distance)(&p2) != Some(d - s.cost) {
                continue;
            }
            self.path.push(k);
            let done = self.down(&p2, d - s.cost, s.axis);
            self.path.pop();
            if done {
                return true;
            }
        }
        false
    }
}
