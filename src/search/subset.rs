//! Optimal solving in a move subset (`solve --moveset "R U"`): the fewest turns *of the subset*
//! that solve a position, in either metric (a turn counts one in HTM, its quarter turns in QTM).
//!
//! [`MoveSet`] is the subset: a bare face letter stands for its three turns (`R` = `R R2 R'`,
//! as in the group `<R,U>`), a turn with a suffix (`F2`, `B'`) for itself only; `"U D R L F2
//! B2"` is the group of Kociemba's second phase.
//!
//! The search is IDA* over *syllables*: a syllable is what one axis does between turns of other
//! axes, the lower face's rotation then the opposite face's (they commute), each rotation written
//! as its shortest word in the subset's turns of that face (`R R` when `R2` is not in the subset).
//! The shortest word is also the cheapest in QTM (a face's turns that the set lacks are made of
//! turns it has in the one direction it has, or `X X` costs what `X2` does), and a solution
//! shows it as it is, in every metric: with only `R'`, `R` is `R' R' R'`, 3 quarter turns.
//! Two syllables in a row are on different axes. Every shortest sequence of the subset can be
//! regrouped into such syllables at the same cost, so searching them is complete; each costs
//! what its turns cost in the metric.
//!
//! Admissibility: the heuristic is the full cube's (any table set): a position's distance in
//! the subset is never below its distance with all 18 turns, which the tables bound from below.
//! Within an iteration of bound `B`, a node is cut when its cost so far plus its heuristic value
//! exceeds `B`, and the next bound is the smallest such sum; syllables cost 1 or more, so a
//! solution is found only at the first bound that admits it: optimal.
//!
//! Reachability is decided before a search where it is cheap and exact, from the subset's own
//! move cubes (`solvers::moveset::refusal`, and `goal_refusal` for goals): a piece slot no turn
//! of the subset moves must hold its own piece, unturned; if no turn flips an edge, no edge may
//! be flipped; if none twists a corner, none may be twisted. (For `<R,U>`: two corners and five
//! edges stay put, and no edge flips.) A set with an exact table names every position outside
//! its group ([`MoveSet::outside_group`]). Otherwise a position outside the subset's group is
//! searched until `max_depth`, which the result says.
//!
//! Each iteration searches the tree to two syllables on the calling thread and the subtrees
//! below as work units on the current rayon pool; the solutions kept are the first in
//! an order fixed by the iteration before (the units that took most nodes first, as the
//! half-turn search orders them), so the result is the same on any number of threads
//! ([`iteration`]). A node makes all its children first and bounds them together, in two rounds of its target's
//! ([`Target::first_round`] for all, [`Target::second_round`] for those the first did not
//! cut), so that the table loads of a round overlap; then it visits them in order. The target
//! is what the search heads for ([`Target`]): the solved cube with a table set, or a goal
//! (`solvers::goal`).
//!
//! With a table set whose first table is a coset table of a subgroup that holds every half
//! turn (`sym48eK`) read both ways, the first round reads the children's *inverse* entries:
//! the inverse of `P · s` is `s⁻¹ · P⁻¹`, and two syllables of one axis whose faces turn the
//! same numbers of quarter turns modulo 2 differ by half turns on the left, so their
//! inverses lie in one coset and read one entry; a syllable of half turns reads the node's
//! own. The 30 children of a node read 7 entries. The positions' entries, and the other
//! tables, wait for the second round, and only where they could still cut a child.
//!
//! Several solutions ([`SearchOptions::solutions`]): the last iteration goes on after its first
//! solution until it has as many as asked (or all). The solutions are the canonical sequences:
//! each axis's turns between other axes written as its syllable (the lower face's shortest word
//! first), so `U D` and never `D U`, and `R2` rather than `R R` when `R2` is in the subset. In a
//! subset of whole faces that is the 18-move search's convention.
//!
//! Exact tables: `<R,U>`, and every subset that a symmetry of the cube maps onto it (two adjacent
//! faces with all their turns: `<R,U>`, `<U,F>`, `<L,B>`, ... twelve in all), are solved from
//! the exact table of the group ([`crate::pdb::ru`]) instead: the position is conjugated into
//! `<R,U>` ([`exact_table_symmetry`]), and [`solve_exact`] walks down the table, each turn to a
//! position one nearer, so no search and no heuristic is needed; every optimal solution is such
//! a walk. Positions outside the group are named exactly there ([`crate::pdb::ru::RuSpace::index`]).

use super::heuristic::{HALVES_OF_NODE, Heuristic, Reads};
use super::options::{Iteration, IterationEvent, SearchOptions, SearchResult};
use crate::coord::symmetry::symmetries;
use crate::cube::{Cube, Face, Metric, Move, format_moves};
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::ru::{RuSpace, RuTable};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

mod iteration;
mod symmetric;
mod target;
mod walk;

use iteration::{Item, SPLIT, UnitCounts, iteration};
use symmetric::UnitSymmetries;

use target::Solved;
pub use target::{Children, Target};

#[cfg(test)]
mod prefetch_tests;
#[cfg(test)]
mod qtm_tests;

/// A subset of the 18 turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet {
    /// Bit `m.index()` for each turn `m` of the subset.
    mask: u32,
}

/// One syllable: an axis, the turns it makes and what they do.
#[derive(Clone, Debug)]
struct Syllable {
    axis: usize,
    /// What it costs in the search's metric: its turns' cost (in QTM `X2` counts 2, so
    /// `R' R'` and `R2` cost the same).
    cost: u8,
    /// Its turns as a solution shows them, in every metric: the subset's own word (`R' R'`
    /// when `R2` is not in the subset, `R' R' R'` when only `R'` is). A face's two quarter
    /// turns are written `X2` only when `X2` is in the subset, where it is the shortest word.
    moves: Vec<Move>,
    cube: Cube,
    inverse: Cube,
    /// Which of its two faces turn an odd number of quarter turns (bit 0 the lower face, bit
    /// 1 the opposite one): two syllables of one axis with the same bits differ by half
    /// turns, and one with none is made of half turns.
    odd: u8,
}

impl MoveSet {
    /// Reads a subset: whitespace- or comma-separated tokens, each a face letter (its three
    /// turns) or one turn (`R2`, `F'`). The error names the first bad token.
    pub fn parse(text: &str) -> Result<MoveSet, String> {
        let mut mask = 0u32;
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            let mut chars = token.chars();
            let bits = match (chars.next().and_then(Face::from_letter), chars.next()) {
                (Some(f), None) => 0b111 << (3 * f as u32),
                _ => match crate::cube::parse_moves(token).as_deref() {
                    Ok([m]) => 1 << m.index(),
                    _ => {
                        return Err(format!(
                            "bad move-set token {token:?}: write a face (U R F D L B) for its \
                             three turns, or one turn (R2, F')"
                        ));
                    }
                },
            };
            mask |= bits;
        }
        if mask == 0 {
            return Err("the move set is empty: list faces (\"R U\") or turns (\"F2 B2\")".into());
        }
        Ok(MoveSet { mask })
    }

    /// All 18 turns.
    pub const ALL: MoveSet = MoveSet {
        mask: (1 << 18) - 1,
    };

    /// Is `m` in the subset?
    pub fn contains(&self, m: Move) -> bool {
        self.mask >> m.index() & 1 != 0
    }

    /// The subset's turns in index order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::all().filter(|m| self.contains(*m))
    }

    /// For a set solved from an exact table ([`exact_table_symmetry`]), why `cube` is not in
    /// the set's group: the table's coordinate cannot be read (no table needed). `None` for any
    /// other set, and for a position in the group. The tests every set gets (a slot no turn
    /// moves, a flip no turn makes) are `solvers::moveset::refusal`'s, which also asks this.
    pub fn outside_group(&self, cube: &Cube) -> Option<String> {
        let sym = exact_table_symmetry(self)?;
        RuSpace::get()
            .index(&symmetries().conj_cube(cube, sym))
            .err()
    }

    /// The shortest word of this subset's turns of `face` that turns it by `r` quarter turns
    /// clockwise (`r` in 1..4), if any: breadth-first over the four rotations, turns tried in
    /// index order, so the word is the same every time.
    fn word(&self, face: usize, r: u8) -> Option<Vec<Move>> {
        let turns: Vec<Move> = (0..3)
            .map(|p| Move::from_index(3 * face + p))
            .filter(|m| self.contains(*m))
            .collect();
        let mut words: [Option<Vec<Move>>; 4] = [Some(vec![]), None, None, None];
        let mut frontier = vec![0u8];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &at in &frontier {
                for &m in &turns {
                    let to = (at + m.index() as u8 % 3 + 1) % 4;
                    if words[to as usize].is_none() {
                        let mut w = words[at as usize].clone().expect("reached");
                        w.push(m);
                        words[to as usize] = Some(w);
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        words[r as usize].clone()
    }

    /// Every syllable of the subset (module docs), by axis, then the lower face's rotation,
    /// then the upper's, priced in `metric`.
    fn syllables(&self, metric: Metric) -> Vec<Syllable> {
        let mut out = Vec::new();
        for axis in 0..3 {
            for lo in 0..4u8 {
                for hi in 0..4u8 {
                    if lo == 0 && hi == 0 {
                        continue;
                    }
                    let word = |face, r| {
                        if r == 0 {
                            Some(vec![])
                        } else {
                            self.word(face, r)
                        }
                    };
                    let (Some(a), Some(b)) = (word(axis, lo), word(axis + 3, hi)) else {
                        continue;
                    };
                    // Shown as it is, in every metric: merging `R' R'` into `R2` (or
                    // `R' R' R'` into `R`) would show a turn the set lacks.
                    let moves: Vec<Move> = a.into_iter().chain(b).collect();
                    let cube = Cube::from_moves(&moves);
                    out.push(Syllable {
                        axis,
                        cost: metric.length(&moves) as u8,
                        inverse: cube.inverse(),
                        cube,
                        moves,
                        odd: (lo & 1) | (hi & 1) << 1,
                    });
                }
            }
        }
        out
    }
}

impl std::fmt::Display for MoveSet {
    /// Faces with all three turns by their letter, other turns one by one: `R U`, `U D R L F2 B2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words = Vec::new();
        for face in Face::ALL {
            let bits = self.mask >> (3 * face as u32) & 0b111;
            if bits == 0b111 {
                words.push(face.letter().to_string());
            } else {
                let turns: Vec<Move> = (0..3)
                    .filter(|p| bits >> p & 1 != 0)
                    .map(|p| Move::from_index(3 * face as usize + p))
                    .collect();
                if !turns.is_empty() {
                    words.push(format_moves(&turns));
                }
            }
        }
        write!(f, "{}", words.join(" "))
    }
}

/// Finds a shortest solution of `cube` with the turns of `set` (module docs); `opts` gives
/// `max_depth` and `dual` (threads are not used). The caller refuses what the set cannot reach
/// first (`solvers::moveset::refusal`); an unreachable position ends at `max_depth` without a
/// solution.
pub fn solve_in(
    h: &Heuristic,
    cube: &Cube,
    set: &MoveSet,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> SearchResult {
    solve_in_observed(h, cube, set, opts, stop, &mut |_| {})
}

/// [`solve_in`], telling `observe` when each iteration begins and ends (as
/// [`super::solve_observed`] does: progress on a terminal for a long proof).
pub fn solve_in_observed(
    h: &Heuristic,
    cube: &Cube,
    set: &MoveSet,
    opts: &SearchOptions,
    stop: &AtomicBool,
    observe: &mut dyn FnMut(IterationEvent),
) -> SearchResult {
    let solved = Solved::new(h, opts.dual, opts.metric);
    solve_toward(&solved, cube, set, opts, stop, observe)
}

/// The least-cost sequences of `set`'s turns from `cube` to `target`, by IDA* over syllables
/// (module docs): `opts` gives the metric, `max_depth` and the number of solutions; `observe`
/// hears each iteration begin and end. Complete and optimal for any admissible `target`
/// bound (each syllable costs at least 1).
pub fn solve_toward(
    target: &dyn Target,
    cube: &Cube,
    set: &MoveSet,
    opts: &SearchOptions,
    stop: &AtomicBool,
    observe: &mut dyn FnMut(IterationEvent),
) -> SearchResult {
    let start = Instant::now();
    let mut result = SearchResult::begun();
    result.metric = opts.metric;
    let syllables = syllables_of(set, opts.metric);
    let wanted = opts.solutions.max(1);
    if target.reached(cube) {
        result.solved(vec![vec![]]);
        result.seconds = start.elapsed().as_secs_f64();
        return result;
    }
    let q = cube.inverse();
    let mut bound = target.bound(cube, &q).max(1);
    if target.exact() && *set == MoveSet::ALL {
        result.lower_bound = bound;
        if bound <= opts.max_depth {
            observe(IterationEvent::Started { bound });
            let distance = |p: &Cube| Some(target.bound(p, p));
            let it = walk::walk_into(
                &mut result,
                &syllables,
                &distance,
                cube,
                bound,
                wanted,
                stop,
            );
            observe(IterationEvent::Finished(it));
            result.interrupted = stop.load(Relaxed);
        }
        result.seconds = start.elapsed().as_secs_f64();
        return result;
    }
    // The nodes each work unit took in the last iteration (`node_order`).
    let mut units = UnitCounts::new();
    // A symmetric position's conjugate units are searched once ([`symmetric`]); a collecting
    // search lists every canonical solution, so it keeps them all.
    let symmetric = if opts.symmetric_units && wanted == 1 && target.symmetric() {
        UnitSymmetries::of(cube, &syllables)
    } else {
        UnitSymmetries::default()
    };
    loop {
        result.lower_bound = bound;
        if bound > opts.max_depth {
            break;
        }
        let t = Instant::now();
        observe(IterationEvent::Started { bound });
        let it = iteration(
            target,
            &syllables,
            (cube, &q),
            bound,
            wanted,
            stop,
            (&mut units, &symmetric),
        );
        if !opts.node_order {
            units.clear();
        }
        result.nodes += it.nodes;
        let done = Iteration {
            bound,
            nodes: it.nodes,
            seconds: t.elapsed().as_secs_f64(),
        };
        observe(IterationEvent::Finished(done.clone()));
        result.iterations.push(done);
        if stop.load(Relaxed) {
            result.interrupted = true;
            break;
        }
        if !it.found.is_empty() {
            let all = words(&syllables, &it.found);
            debug_assert!(all.iter().all(|s| opts.metric.length(s) == bound as usize));
            result.solved(all);
            break;
        }
        // Every path is cut somewhere (each syllable costs at least 1), so this is set.
        bound = it.min_exceeded;
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// Makes, once, what every search with all of `metric`'s turns reads (the syllables, the
/// symmetries): a front end calls it with its tables, so that it does not land on the first
/// position solved.
pub fn prepare(metric: Metric) {
    syllables_of(&MoveSet::ALL, metric);
    symmetries();
}

/// `set`'s syllables in `metric`; those of all turns are made once (a goal's short solves
/// would otherwise spend most of their time making them).
fn syllables_of(set: &MoveSet, metric: Metric) -> std::borrow::Cow<'static, [Syllable]> {
    static ALL: [std::sync::OnceLock<Vec<Syllable>>; Metric::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Metric::ALL.len()];
    if *set != MoveSet::ALL {
        return set.syllables(metric).into();
    }
    let all = ALL[metric as usize].get_or_init(|| MoveSet::ALL.syllables(metric));
    all.as_slice().into()
}

/// The solutions of syllable paths `found`, as turns, sorted.
fn words(syllables: &[Syllable], found: &[Vec<usize>]) -> Vec<Vec<Move>> {
    let mut all: Vec<Vec<Move>> = (found.iter())
        .map(|path| {
            path.iter()
                .flat_map(|&k| syllables[k].moves.clone())
                .collect()
        })
        .collect();
    all.sort();
    all
}

/// One depth-first search over syllables (a whole iteration, the top of one, or a unit).
struct Search<'a> {
    target: &'a dyn Target,
    syllables: &'a [Syllable],
    /// The syllables that may follow one of each axis (index 3: none, at the root), in order.
    kids: [Vec<u8>; 4],
    /// For each list of `kids`, batch by batch ([`Level`]): the [`Children::halves`] of each.
    halves: [[[u8; BATCH]; 2]; 4],
    /// The syllables from the root to the current node (indices into `syllables`).
    path: Vec<usize>,
    /// The solutions so far, as syllable paths.
    found: Vec<Vec<usize>>,
    /// How many solutions to find before stopping.
    wanted: usize,
    nodes: u64,
    /// The node count at which the stop flags are looked at next.
    next_check: u64,
    min_exceeded: u8,
    stop: &'a AtomicBool,
    /// Stop too once a unit before this one (index `unit`) has found `wanted` solutions.
    enough: &'a std::sync::atomic::AtomicUsize,
    unit: usize,
    /// Whether the target reads inverses ([`Target::needs_inverse`]).
    inverse: bool,
    /// The children of the node being expanded at each depth (made once, so nothing is
    /// allocated per node), and the target's scratch.
    levels: Vec<Box<Level>>,
    reads: Reads,
    /// The top of an iteration: solutions and units in order, instead of going below
    /// [`SPLIT`].
    split: Option<Vec<Item>>,
}

/// A node's children, made and bounded together: child `j` of the node's list
/// ([`Search::kids`]) is slot `j % BATCH` of batch `j / BATCH` (45 syllables at most).
#[derive(Default)]
struct Level {
    ps: [Batch; 2],
    qs: [Batch; 2],
    /// Their bounds (for the children within the node's bound and not solved).
    h: [[u8; BATCH]; 2],
    /// The children that are solved.
    solved: [u32; 2],
}

impl<'a> Search<'a> {
    fn new(
        target: &'a dyn Target,
        syllables: &'a [Syllable],
        wanted: usize,
        stop: &'a AtomicBool,
        enough: &'a std::sync::atomic::AtomicUsize,
        unit: usize,
    ) -> Search<'a> {
        let kids: [Vec<u8>; 4] = std::array::from_fn(|last| {
            (0..syllables.len() as u8)
                .filter(|&k| syllables[k as usize].axis != last)
                .collect()
        });
        let halves = std::array::from_fn(|last| {
            let mut halves = [[HALVES_OF_NODE; BATCH]; 2];
            for (j, &k) in kids[last].iter().enumerate() {
                let s = &syllables[k as usize];
                let (c, slot) = (j / BATCH, j % BATCH);
                if s.odd != 0 {
                    // The first slot of this batch with the same axis and odd faces.
                    let like = |&i: &usize| {
                        let t = &syllables[kids[last][c * BATCH + i] as usize];
                        (t.axis, t.odd) == (s.axis, s.odd)
                    };
                    halves[c][slot] = (0..=slot).find(like).expect("itself") as u8;
                }
            }
            halves
        });
        Search {
            target,
            syllables,
            kids,
            halves,
            path: Vec::new(),
            found: Vec::new(),
            wanted,
            nodes: 0,
            next_check: 0,
            min_exceeded: u8::MAX,
            stop,
            enough,
            unit,
            inverse: target.needs_inverse(),
            levels: Vec::new(),
            reads: Reads::default(),
            split: None,
        }
    }

    /// Searches below the node `p` (inverse `q`) reached at cost `g` after a syllable on
    /// `last_axis` (3: none), recording the solutions of cost `bound` in `found`; true once it
    /// holds as many as wanted, or once the search is stopped: either way every caller up to
    /// the root returns at once (a stop seen deep in the tree must not let the siblings above
    /// go on, or Ctrl-C and Python's `timeout=` would wait for the iteration's end).
    ///
    /// The node's children within the bound are made and bounded first, in two rounds of the
    /// target's ([`Target::first_round`], then [`Target::second_round`] for those the first
    /// did not cut), so that each round's loads overlap; then they are visited in syllable
    /// order. Which children are cut does not depend on the rounds, so the nodes are those of
    /// a search that bounds each child when it visits it.
    fn dfs(&mut self, p: &Cube, q: &Cube, g: u8, bound: u8, last_axis: usize) -> bool {
        if self.nodes >= self.next_check {
            // About every 65,536 nodes (a node count passes multiples without landing on one).
            self.next_check = self.nodes + 0x1_0000;
            if self.stop.load(Relaxed) || self.enough.load(Relaxed) < self.unit {
                return true;
            }
        }
        let depth = self.path.len();
        while self.levels.len() <= depth {
            self.levels.push(Box::default());
        }
        self.bound_children(p, q, g, bound, last_axis);
        for j in 0..self.kids[last_axis].len() {
            let k = self.kids[last_axis][j] as usize;
            let s = &self.syllables[k];
            let g2 = g + s.cost;
            if g2 > bound {
                self.min_exceeded = self.min_exceeded.min(g2);
                continue;
            }
            self.nodes += 1;
            let (c, slot) = (j / BATCH, j % BATCH);
            let level = &self.levels[depth];
            if level.solved[c] >> slot & 1 != 0 {
                // The earlier iterations were complete, so g2 is this bound (module docs).
                let mut path = self.path.clone();
                path.push(k);
                if let Some(items) = &mut self.split {
                    items.push(Item::Solution(path));
                    continue;
                }
                self.found.push(path);
                if self.found.len() >= self.wanted {
                    return true;
                }
                continue;
            }
            let f = g2 + level.h[c][slot];
            if f > bound {
                self.min_exceeded = self.min_exceeded.min(f);
                continue;
            }
            let (p2, q2) = (level.ps[c][slot], level.qs[c][slot]);
            let axis = s.axis;
            self.path.push(k);
            if let Some(items) = self.split.as_mut().filter(|_| self.path.len() == SPLIT) {
                items.push(Item::Unit {
                    path: self.path.clone(),
                    p: p2,
                    q: q2,
                    g: g2,
                    axis,
                });
            } else if self.dfs(&p2, &q2, g2, bound, axis) {
                return true;
            }
            self.path.pop();
        }
        false
    }

    /// Makes the children of node `p` (inverse `q`, at cost `g`, after `last_axis`) within
    /// `bound` into this depth's level, and bounds those not solved: the first round for all,
    /// the second (with their inverses made) for those whose first value is within their
    /// limit. A child cut by the first round keeps that value; its inverse is not made.
    fn bound_children(&mut self, p: &Cube, q: &Cube, g: u8, bound: u8, last_axis: usize) {
        let level = &mut *self.levels[self.path.len()];
        let kids = &self.kids[last_axis];
        let mut members = [0u32; 2];
        level.solved = [0; 2];
        let mut limits = [[0u8; BATCH]; 2];
        for (j, &k) in kids.iter().enumerate() {
            let s = &self.syllables[k as usize];
            if g + s.cost > bound {
                continue;
            }
            let (c, slot) = (j / BATCH, j % BATCH);
            let p2 = p.compose(&s.cube);
            level.ps[c][slot] = p2;
            level.qs[c][slot] = if self.inverse {
                s.inverse.compose(q)
            } else {
                *q
            };
            level.h[c][slot] = 0;
            limits[c][slot] = bound - g - s.cost;
            if self.target.reached(&p2) {
                level.solved[c] |= 1 << slot;
            } else {
                members[c] |= 1 << slot;
            }
        }
        for c in 0..2 {
            if members[c] == 0 {
                continue;
            }
            let children = Children {
                ps: &level.ps[c],
                qs: &level.qs[c],
                q,
                halves: &self.halves[last_axis][c],
            };
            let h = &mut level.h[c];
            self.target
                .first_round(&children, members[c], &mut self.reads, h);
            let mut rest = 0u32;
            for slot in Members(members[c]) {
                rest |= ((h[slot] <= limits[c][slot]) as u32) << slot;
            }
            if rest != 0 {
                (self.target).second_round(&children, rest, &limits[c], &mut self.reads, h);
            }
        }
    }
}

/// The symmetry of the cube (an index of [`crate::coord::symmetry::Symmetries`]) whose
/// conjugation maps `set` onto `<R,U>`, if there is one: the subsets solved from the exact
/// table ([`solve_exact`]).
pub fn exact_table_symmetry(set: &MoveSet) -> Option<usize> {
    let ru = MoveSet::parse("R U").expect("a move set");
    let syms = symmetries();
    (0..48).find(|&s| {
        let mask = (set.moves()).fold(0u32, |m, x| m | 1 << syms.move_conj[s][x.index()]);
        mask == ru.mask
    })
}

/// Solves `cube` in the move set that symmetry `sym` maps onto `<R,U>` (module docs), from the
/// exact table: as many optimal solutions as `opts.solutions` asks for, the least first (each a
/// walk down the table, turns tried in move-index order). An error says why the position is
/// not in the group. `nodes` counts the positions looked up.
pub fn solve_exact(
    table: &RuTable,
    cube: &Cube,
    sym: usize,
    opts: &SearchOptions,
) -> Result<SearchResult, String> {
    let start = Instant::now();
    let syms = symmetries();
    let inv = syms.inv[sym] as usize;
    // The set's turns in index order, each a step: its image in <R,U> acts on the conjugated
    // position, the set's turn is what the solution shows. (The axis is the image's face: two
    // turns of one face never both lower an exact distance.)
    let mut turns: Vec<(Move, Move)> = (crate::pdb::ru::MOVES.iter())
        .map(|&n| (Move::from_index(syms.move_conj[inv][n.index()] as usize), n))
        .collect();
    turns.sort();
    let steps: Vec<Syllable> = (turns.iter())
        .map(|&(m, n)| Syllable {
            axis: n.face_index(),
            cost: 1,
            moves: vec![m],
            cube: *n.cube(),
            inverse: *n.inverse_cube(),
            odd: ((n.index() % 3 != 1) as u8) << (n.face_index() / 3),
        })
        .collect();
    let c = syms.conj_cube(cube, sym);
    let d = table.distance(&c)?;
    let mut r = SearchResult::begun();
    r.lower_bound = d;
    if d <= opts.max_depth {
        let distance = |p: &Cube| table.distance(p).ok();
        let never = AtomicBool::new(false);
        walk::walk_into(
            &mut r,
            &steps,
            &distance,
            &c,
            d,
            opts.solutions.max(1),
            &never,
        );
    }
    r.seconds = start.elapsed().as_secs_f64();
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Rng, parse_moves};
    use std::collections::HashMap;

    /// Exact distances with the subset's turns: breadth-first from solved to `radius` by the
    /// turns' inverses (the positions those turns solve in `d`: the subset need not hold an
    /// inverse), then, for a position, the least `k + d` over the positions `k ≤ radius` subset
    /// turns away that lie at distance `d` (so exact up to `2 * radius`).
    struct SubsetBall {
        set: MoveSet,
        radius: u8,
        dist: HashMap<Cube, u8>,
    }

    impl SubsetBall {
        fn new(set: MoveSet, radius: u8) -> SubsetBall {
            let mut dist = HashMap::from([(Cube::SOLVED, 0)]);
            let mut frontier = vec![Cube::SOLVED];
            for d in 1..=radius {
                let mut next = Vec::new();
                for c in &frontier {
                    for m in set.moves() {
                        let n = c.apply(m.inverse());
                        if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                            e.insert(d);
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
            SubsetBall { set, radius, dist }
        }

        fn distance(&self, c: &Cube) -> Option<u8> {
            let mut best = None;
            let mut layer = vec![*c];
            for k in 0..=self.radius {
                for x in &layer {
                    if let Some(&d) = self.dist.get(x) {
                        best = Some(best.map_or(k + d, |b: u8| b.min(k + d)));
                    }
                }
                layer = layer
                    .iter()
                    .flat_map(|x| self.set.moves().map(move |m| x.apply(m)))
                    .collect();
                if layer.len() > 2_000_000 {
                    break;
                }
            }
            best
        }
    }

    fn walk(set: &MoveSet, rng: &mut Rng, n: usize) -> Cube {
        let moves: Vec<Move> = set.moves().collect();
        let seq: Vec<Move> = (0..n)
            .map(|_| moves[rng.below(moves.len() as u64) as usize])
            .collect();
        Cube::from_moves(&seq)
    }

    #[test]
    fn move_sets_parse_and_print() {
        let ru = MoveSet::parse("R U").unwrap();
        assert_eq!(ru.moves().count(), 6);
        assert_eq!(MoveSet::parse("R U R' U'").unwrap(), ru);
        assert!(MoveSet::parse("r,U").unwrap_err().contains("\"r\""));
        let g1 = MoveSet::parse("U D R L F2 B2").unwrap();
        assert_eq!(g1.moves().count(), 14);
        assert_eq!(g1.to_string(), "U R F2 D L B2");
        assert_eq!(MoveSet::parse("F2 F'").unwrap().to_string(), "F2 F'");
        assert!(MoveSet::parse(" , ").unwrap_err().contains("empty"));
        assert!(MoveSet::parse("R3").unwrap_err().contains("\"R3\""));
        assert_eq!(MoveSet::parse("U R F D L B").unwrap(), MoveSet::ALL);
    }

    /// A face's rotations by the shortest words of the subset: `R2` is `R R` without `R2`.
    #[test]
    fn syllables_use_the_shortest_words() {
        let quarter = MoveSet::parse("R' U'").unwrap();
        let w = |r| quarter.word(1, r).map(|w| format_moves(&w));
        assert_eq!(w(3).as_deref(), Some("R'"));
        assert_eq!(w(2).as_deref(), Some("R' R'"));
        assert_eq!(w(1).as_deref(), Some("R' R' R'"));
        assert_eq!(
            MoveSet::parse("R U")
                .unwrap()
                .word(1, 2)
                .map(|w| format_moves(&w))
                .as_deref(),
            Some("R2")
        );
        // Axes U/D and R/L each: 3 rotations of the one face.
        assert_eq!(quarter.syllables(Metric::Htm).len(), 6);
        // All turns: 15 syllables an axis.
        assert_eq!(MoveSet::ALL.syllables(Metric::Htm).len(), 45);
        for s in MoveSet::ALL.syllables(Metric::Htm) {
            assert!(s.moves.len() <= 2 && s.cube == Cube::from_moves(&s.moves));
        }
    }

    /// Lengths equal the exact subset distance of breadth-first search, for random positions
    /// of `<R,U>`, `<U,D,R,L,F2,B2>` and `R' U'` (quarter turns one way only) within 8 turns;
    /// every solution uses only the subset's turns and solves its position.
    #[test]
    fn subset_lengths_are_exact() {
        let h = crate::testing::korf6();
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(41);
        for (text, radius) in [("R U", 5), ("U D R L F2 B2", 4), ("R' U'", 6)] {
            let set = MoveSet::parse(text).unwrap();
            let ball = SubsetBall::new(set, radius);
            let mut longer = 0;
            for k in 0..12 {
                let c = walk(&set, &mut rng, 3 + k % 7);
                let Some(d) = ball.distance(&c) else {
                    continue;
                };
                assert_eq!(crate::solvers::moveset::refusal(&set, &c), None, "{text}");
                let r = solve_in(h, &c, &set, &SearchOptions::default(), &stop);
                let s = r.solution.expect("a solution");
                assert!(r.optimal && s.iter().all(|m| set.contains(*m)), "{text}");
                assert!(c.apply_seq(&s).is_solved(), "{text}");
                assert_eq!(s.len() as u8, d, "{text}: {}", format_moves(&s));
                let full = crate::search::solve(h, &c, &SearchOptions::default(), &stop);
                longer += usize::from(full.solution.unwrap().len() < s.len());
            }
            if text == "R' U'" {
                assert!(longer > 0, "the one-way subset never needed more turns");
            }
        }
    }

    /// The 100 positions of `benches/positions/ru-100.txt`: the search in `<R,U>` with `korf6`
    /// finds each one's exact distance from the `<R,U>` table, and so does the walk down it.
    #[test]
    fn ru_benchmark_lengths_match_the_exact_table() {
        let set = MoveSet::parse("R U").unwrap();
        let table = crate::testing::ru_table();
        let text = std::fs::read_to_string("benches/positions/ru-100.txt").unwrap();
        let stop = AtomicBool::new(false);
        let opts = SearchOptions {
            max_depth: 30,
            ..SearchOptions::default()
        };
        let mut n = 0;
        for (i, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
            let c = Cube::from_moves(&parse_moves(line).unwrap());
            let d = table.distance(&c).unwrap();
            let r = solve_in(crate::testing::korf6(), &c, &set, &opts, &stop);
            assert_eq!(r.solution.unwrap().len() as u8, d, "position {i}");
            let e = solve_exact(table, &c, 0, &opts).unwrap();
            assert_eq!(e.solution.unwrap().len() as u8, d, "position {i}");
            n += 1;
        }
        assert_eq!(n, 100);
    }

    /// A stop seen in the tree ends the whole iteration: the search returns at the first node
    /// that looks at the flag, instead of going on with the siblings of every node above it
    /// until the iteration's end.
    #[test]
    fn a_stop_ends_the_iteration_at_once() {
        let set = MoveSet::parse("U R F D L B").unwrap();
        let h = crate::testing::korf6();
        let c = Cube::from_moves(&parse_moves("R U F D L B R2 U' F2 D' L B2 R' U2").unwrap());
        let q = c.inverse();
        let stop = AtomicBool::new(true);
        let solved = Solved::new(h, false, Metric::Htm);
        let syllables = set.syllables(Metric::Htm);
        let never = std::sync::atomic::AtomicUsize::new(usize::MAX);
        let mut search = Search::new(&solved, &syllables, 1, &stop, &never, 0);
        // The root does not look at the flag; the first node entered below it does.
        search.next_check = 1;
        let bound = h.value(&c, &q, false) + 4;
        assert!(
            search.dfs(&c, &q, 0, bound, 3),
            "the stop unwinds to the root"
        );
        // The root's children made before the first was entered, and no more.
        assert!(search.nodes <= 18, "{} nodes after the stop", search.nodes);
        assert!(search.found.is_empty());
    }

    /// Every sequence of `d` turns of `set` that solves `c` and is canonical in the 18-move
    /// sense (no turn after its own face, `U D` never `D U`), sorted: for subsets whose every
    /// face rotation is one of their turns, exactly the list the search gives.
    fn brute_all(set: &MoveSet, c: &Cube, d: usize) -> Vec<Vec<Move>> {
        fn go(set: &MoveSet, c: &Cube, d: usize, path: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
            if path.len() == d {
                if c.is_solved() {
                    out.push(path.clone());
                }
                return;
            }
            for m in set.moves() {
                if crate::cube::allowed_after(path.last().copied(), m) {
                    path.push(m);
                    go(set, &c.apply(m), d, path, out);
                    path.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(set, c, d, &mut Vec::new(), &mut out);
        out.sort();
        out
    }

    /// `--all` in a subset: the search's list equals the brute-force list of every canonical
    /// optimal sequence, for positions up to 7 turns of `<R,U>` and 5 of `<U,D,R,L,F2,B2>`;
    /// asking for 2 gives 2 of them.
    #[test]
    fn all_subset_solutions_equal_brute_force() {
        let h = crate::testing::korf6();
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(411);
        let all = SearchOptions {
            solutions: crate::search::ALL_SOLUTIONS,
            ..SearchOptions::default()
        };
        let mut several = 0;
        for (text, most) in [("R U", 7), ("U D R L F2 B2", 5)] {
            let set = MoveSet::parse(text).unwrap();
            // (R2 U2)^3 = (U2 R2)^3: two solutions at least.
            let known = Cube::from_moves(&parse_moves("R2 U2 R2 U2 R2 U2").unwrap());
            for k in 0..10 {
                let c = if k == 0 {
                    known
                } else {
                    walk(&set, &mut rng, 2 + k % most)
                };
                let r = solve_in(h, &c, &set, &all, &stop);
                let d = r.solution.as_ref().unwrap().len();
                let brute = brute_all(&set, &c, d);
                assert_eq!(r.solutions, brute, "{text}");
                assert!(brute_all(&set, &c, d.saturating_sub(1)).is_empty() || d == 0);
                several += usize::from(brute.len() > 1);
                let two = SearchOptions {
                    solutions: 2,
                    ..SearchOptions::default()
                };
                let r2 = solve_in(h, &c, &set, &two, &stop);
                assert_eq!(r2.solutions.len(), brute.len().min(2));
                assert!(r2.solutions.iter().all(|s| brute.contains(s)));
            }
        }
        assert!(
            several >= 2,
            "too few positions with several solutions: {several}"
        );
    }

    /// The sets read through the exact table: two adjacent faces with all their turns.
    #[test]
    fn adjacent_face_pairs_read_the_exact_table() {
        let sym = |t: &str| exact_table_symmetry(&MoveSet::parse(t).unwrap());
        assert_eq!(sym("R U"), Some(0));
        for t in ["U F", "L B", "D R", "F R", "B L", "L D"] {
            assert!(sym(t).is_some(), "{t}");
        }
        for t in ["R L", "R U F", "R U2", "U", "R U R2 F2"] {
            assert_eq!(sym(t), None, "{t}");
        }
        let pairs = (0..6)
            .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let text = format!("{} {}", Face::ALL[a].letter(), Face::ALL[b].letter());
                sym(&text).is_some()
            })
            .count();
        assert_eq!(pairs, 12);
    }

    /// The exact table gives the search's lengths and the same lists of all solutions, in
    /// `<R,U>` and through conjugation in `<F,L>`; a position outside the group is named.
    #[test]
    fn exact_table_matches_the_search() {
        let h = crate::testing::korf6();
        let table = crate::testing::ru_table();
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(412);
        let all = SearchOptions {
            solutions: crate::search::ALL_SOLUTIONS,
            ..SearchOptions::default()
        };
        for text in ["R U", "F L"] {
            let set = MoveSet::parse(text).unwrap();
            let sym = exact_table_symmetry(&set).unwrap();
            for k in 0..12 {
                let c = walk(&set, &mut rng, 3 + k % 8);
                let r = solve_exact(table, &c, sym, &all).unwrap();
                assert!(r.optimal);
                for s in &r.solutions {
                    assert!(c.apply_seq(s).is_solved() && s.iter().all(|m| set.contains(*m)));
                }
                let searched = solve_in(h, &c, &set, &all, &stop);
                assert_eq!(r.solutions, searched.solutions, "{text}");
                let one = solve_exact(table, &c, sym, &SearchOptions::default()).unwrap();
                assert_eq!(one.solutions, r.solutions[..1]);
            }
            let outside =
                Cube::from_moves(&parse_moves("R U R' U' R' F R2 U' R' U' R U R' F'").unwrap());
            let ru = MoveSet::parse("R U").unwrap();
            assert!(ru.outside_group(&outside).unwrap().contains("arrangement"));
        }
        // A deep position of the table: the walk still ends solved, in its distance.
        let set = MoveSet::parse("R U").unwrap();
        let c = walk(&set, &mut rng, 200);
        let r = solve_exact(table, &c, 0, &SearchOptions::default()).unwrap();
        assert_eq!(r.solution.unwrap().len() as u8, table.distance(&c).unwrap());
    }
}
