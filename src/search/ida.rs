//! Non-recursive IDA* with move ordering, split into subtrees for parallel search.
//!
//! Each iteration searches every canonical move sequence whose cost `g + h` stays within the
//! bound; the next bound is the smallest `g + h` that exceeded it. Nodes are expanded from an
//! explicit stack of frames (no recursion): a frame holds a node's position and inverse and its
//! surviving children sorted by heuristic value, smallest first, so the final iteration tends to
//! meet its solution early. All children of a node are generated together, their first table
//! entries prefetched, then evaluated lazily: lookup by lookup, a child is dropped at the first
//! value that prunes it. A lookup is skipped for all children of a node when the node's own
//! value shows it cannot prune them (a move changes a table value by at most one).
//!
//! Work units: each iteration splits the tree at a shallow depth into subtrees, most promising
//! first, which the threads take from a shared list. Each thread interleaves several depth-first
//! searches ("lanes", [`SearchOptions::lanes`]) and switches lane at every memory round: while the
//! entries one lane prefetched are on their way from memory, the other lanes compute. The
//! corner table is read at the position's corner coordinates, kept by move tables (`Node`),
//! or, when the heuristic has it, the corner successor table answers all children of a node
//! with one read ([`crate::pdb::successors`]);
//! a surviving child's move-table rows are prefetched when its frame is pushed and again when
//! its expansion begins, one lane step before its first lookup reads them. (Sets without a
//! corner lookup, such as the coset tables', keep no corner coordinates at all.) The children's
//! cubes, needed only by the lookups that rank cubes, are composed when a round first ranks
//! them (for the children still alive; one inverse cube a face when a coset table's inverse
//! entries are read first), and each lookup round prunes all children at once
//! (`search::cut::raise_and_cut`).
//!
//! Symmetric positions ([`SearchOptions::symmetric_units`]): when symmetries `S` of the 48 fix
//! the position (`S P S⁻¹ = P`), the units whose positions `S` maps onto each other have
//! conjugate subtrees, so only the first of each such set (in the units' order) is searched.
//! Why it stays complete: if a dropped unit `M` (position `P·M = S (P·K) S⁻¹` for a kept unit
//! `K`) has an optimal solution `M·N`, then `K·N'`, with `N'` the moves of `N` conjugated by
//! `S⁻¹`, solves `P` in as many moves. `N'` may begin on the face opposite `K`'s last move in
//! the order the canonical rule forbids, so after the last move of a unit that stands for
//! dropped ones the search allows every other face ([`Unit::any_first_order`]); the same face
//! cannot begin it, or `K·N'` would shorten to a solution below the bound, which the previous
//! iteration rules out. Units that stand for none keep the canonical rule. This holds for every
//! table set: the stabilizer is the position's, not the heuristic's.
//!
//! Symmetry times inversion (`S P S⁻¹ = P⁻¹`, e.g. the superflip, or a position equal to its
//! own inverse) is not used to drop units: it maps a solution `m₁ … mₙ` to `S mₙ⁻¹ S⁻¹ … S m₁⁻¹
//! S⁻¹`, whose first moves come from the *last* moves of the original, so it relates the
//! solutions of different units but not the trees of two units. A complete iteration must still
//! search every unit's tree, and the last one ends at its first solution anyway.
//!
//! A position that commutes with every move (the superflip) has solutions closed under
//! rotation; the units and the worker then keep one rotation of each ([`super::rotations`]:
//! each unit carries the cap its first syllable sets).
//!
//! Unit order ([`SearchOptions::node_order`]): after the first iteration, the units are searched
//! in decreasing order of the nodes their subtrees took in the previous iteration (H48 does the
//! same, nissy-core `doc/h48.md`, "Heuristically sorting tasks"). A subtree that generated many
//! nodes at the previous bound kept many paths within it, so it is the likeliest to hold a
//! solution at the next; the order matters only in the last iteration, which ends at its first
//! solution. Units the previous iteration pruned at the split depth (no count) come last, and
//! ties go by heuristic value.
//!
//! Invariants: a solution found in the iteration with bound `B` has exactly `B` moves, and it is
//! optimal because the previous iteration, with a smaller bound, was searched completely (the
//! heuristic is admissible). A search that is stopped (Ctrl-C, `max_depth`) never claims
//! optimality; it reports the bound it proved instead. The node count is the number of nodes
//! generated (heuristic evaluations), root included.
//!
//! The parts: [`super::options`] (what is asked and reported), `node` (node, frame and
//! expansion data), `worker` (one thread's lanes), and this module (the iterations: splitting
//! the tree into work units and running the threads).

use super::heuristic::Heuristic;
use super::options::{Iteration, IterationEvent, SearchOptions, SearchResult};
use super::rotations::{self, NO_CAP};
use super::subset::MoveSet;
use super::witness::{self, Witness};
use super::worker::{FoundSolutions, Root, Unit, UnitMoves, Work, Worker};
use crate::coord::symmetry::symmetries;
use crate::cube::{ALLOWED_AFTER, Cube, Metric, Move};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The nodes each work unit of an iteration took: `(unit key, nodes)` sorted by key
/// ([`unit_key`]), the nodes saturating at `u32::MAX` (they only order the next iteration's
/// units). Eight bytes a unit: there are tens of thousands of units, and at the small tables'
/// end their bookkeeping is a few percent of the process's memory.
type UnitNodes = Vec<(u32, u32)>;

/// A unit's moves packed into a number, first move in the highest bits (5 bits a move, index
/// plus one): for moves of one length the numbers sort as the sequences do in move-index
/// order, the order in which [`split`] makes the units.
#[inline]
fn unit_key(moves: &[Move]) -> u32 {
    debug_assert!(moves.len() <= UnitMoves::MAX, "a key holds 6 moves");
    moves.iter().fold(0, |k, m| k << 5 | (m.index() as u32 + 1))
}

/// What an iteration ends with.
struct IterationEnd {
    /// The solutions of `bound` moves found: at most one unless the search collects them
    /// ([`SearchOptions::solutions`]), then the first that many in the units' order, sorted.
    solutions: Vec<Vec<Move>>,
    nodes: u64,
    /// The smallest `g + h` that exceeded the bound.
    min_exceeded: u8,
    /// The nodes of each unit (complete only when no solution was found).
    unit_nodes: UnitNodes,
}

/// Collects the nodes `depth` moves deep that survive the bound, and the solutions found on
/// the way, with the nodes generated doing so. Costs and values are in `metric` (a value
/// raised to the parity the child's distance has).
///
/// A solution at the split costs the bound (the previous iterations, or the bound's heuristic
/// start, rule out shorter ones). In the half-turn metric there is none, the split being
/// shallower than the bound; in the quarter-turn metric a path of half turns may reach it.
#[allow(clippy::too_many_arguments)]
fn split(
    h: &Heuristic,
    dual: bool,
    metric: Metric,
    root: Root,
    bound: u8,
    depth: u8,
    nodes: &mut u64,
    min_exceeded: &mut u8,
) -> (Vec<Unit>, Vec<Vec<Move>>) {
    if depth == 0 {
        return (vec![Unit::root()], Vec::new());
    }
    // The levels above the split keep each node's position; the units (the last level, most
    // of the nodes) do not.
    let mut frontier = vec![(Unit::root(), root.p, root.q)];
    let mut units = Vec::new();
    let mut solved = Vec::new();
    // The children's table entries; child `k`'s are `entries[children[k].3]` (start, end).
    let mut entries: Vec<(usize, u64)> = Vec::new();
    for level in 1..=depth {
        let mut next = Vec::new();
        for (u, up, uq) in &frontier {
            let g = metric.length(&u.moves) as u8;
            let last = u.moves.last().map_or(6, |m| m.face_index());
            // A node's children are made and their entries requested first, then read: the
            // lookups overlap (at depth 5, a few hundred thousand of them an iteration).
            let mut children = [(Move::from_index(0), Cube::SOLVED, Cube::SOLVED, (0, 0)); 18];
            let mut n = 0;
            entries.clear();
            for m in Move::all() {
                if ALLOWED_AFTER[last] & (1 << m.index()) != 0 {
                    let (p, q) = (up.compose(m.cube()), m.inverse_cube().compose(uq));
                    let start = entries.len();
                    entries.extend(h.entries(&p, &q, dual));
                    h.prefetch(&entries[start..]);
                    children[n] = (m, p, q, (start, entries.len()));
                    n += 1;
                }
            }
            for &(m, p, q, (start, end)) in &children[..n] {
                *nodes += 1;
                let v = metric.raise(h.value_of(&entries[start..end]), &p);
                let cg = g + metric.cost(m);
                let f = cg + v;
                if f > bound {
                    *min_exceeded = (*min_exceeded).min(f);
                    continue;
                }
                let moves = u.moves.with(m);
                if q.is_solved() {
                    solved.push(moves.to_vec());
                } else if cg >= bound {
                    // At the bound and not solved: a leaf. (Only in the quarter-turn metric,
                    // where a unit's path may cost more than its moves; HTM units are
                    // shallower than the bound.)
                    *min_exceeded = (*min_exceeded).min(bound + 1);
                } else {
                    let unit = Unit {
                        moves,
                        h: v,
                        any_first_order: false,
                        cap: NO_CAP,
                    };
                    if level == depth {
                        units.push(unit);
                    } else {
                        next.push((unit, p, q));
                    }
                }
            }
        }
        frontier = next;
    }
    (units, solved)
}

/// Sorts `units`, made by [`split`] (so in increasing [`unit_key`]), by the nodes `prev`
/// gives them, most first (units it does not name count 0), then by heuristic value, then
/// in the split's order. `prev` is sorted by key, so one walk of both gives the counts; it is
/// dropped before the units are moved into their order (four bytes a unit for the counts,
/// four for the order, beside the units).
fn order_units(units: Vec<Unit>, prev: UnitNodes) -> Vec<Unit> {
    debug_assert!(
        units
            .windows(2)
            .all(|w| unit_key(&w[0].moves) <= unit_key(&w[1].moves))
    );
    let mut counts = vec![0u32; units.len()];
    let mut from = prev.iter().peekable();
    for (u, c) in units.iter().zip(&mut counts) {
        let key = unit_key(&u.moves);
        while from.next_if(|e| e.0 < key).is_some() {}
        if let Some(&&(_, n)) = from.peek().filter(|e| e.0 == key) {
            *c = n;
        }
    }
    drop(prev);
    let mut order: Vec<u32> = (0..units.len() as u32).collect();
    order.sort_unstable_by_key(|&i| {
        (
            std::cmp::Reverse(counts[i as usize]),
            units[i as usize].h,
            i,
        )
    });
    order.into_iter().map(|i| units[i as usize]).collect()
}

/// The symmetries (indices into [`symmetries`]) other than the identity that fix `p`.
pub(super) fn stabilizer(p: &Cube) -> Vec<usize> {
    let syms = symmetries();
    (1..48).filter(|&s| syms.conj_cube(p, s) == *p).collect()
}

/// The optimal solutions `all` of `p` (every canonical one, as a collecting search gives them)
/// grouped into classes under the position's own symmetries: a symmetry `S` with
/// `S P S⁻¹ = P` maps a solution `M` to `S M S⁻¹`, and one with `S P S⁻¹ = P⁻¹` to
/// `S M⁻¹ S⁻¹` (both solve `P` in as many moves), each rewritten in canonical order (opposite
/// faces lower first). Returns the least solution of each class, sorted. Every image must be in
/// `all`, or `Err` says which is missing (the list was not complete).
pub fn symmetry_classes(p: &Cube, all: &[Vec<Move>]) -> Result<Vec<Vec<Move>>, String> {
    let syms = symmetries();
    let inverse = p.inverse();
    // (symmetry, maps through the inverse)
    let mut maps: Vec<(usize, bool)> = Vec::new();
    for s in 0..48 {
        let c = syms.conj_cube(p, s);
        if s > 0 && c == *p {
            maps.push((s, false));
        }
        if c == inverse {
            maps.push((s, true));
        }
    }
    let known: std::collections::HashSet<&[Move]> = all.iter().map(|s| s.as_slice()).collect();
    let mut reps = std::collections::BTreeSet::new();
    for m in all {
        let mut least = m.clone();
        for &(s, through_inverse) in &maps {
            let source = if through_inverse {
                crate::cube::invert_sequence(m)
            } else {
                m.clone()
            };
            let mut image: Vec<Move> = (source.iter())
                .map(|x| Move::from_index(syms.move_conj[s][x.index()] as usize))
                .collect();
            // Opposite faces in canonical order: the lower face first.
            for k in 1..image.len() {
                if image[k].face_index() + 3 == image[k - 1].face_index() {
                    image.swap(k - 1, k);
                }
            }
            if !known.contains(image.as_slice()) {
                return Err(format!(
                    "the image {} of {} is not among the solutions",
                    crate::cube::format_moves(&image),
                    crate::cube::format_moves(m)
                ));
            }
            least = least.min(image);
        }
        reps.insert(least);
    }
    Ok(reps.into_iter().collect())
}

/// The units, in order, without those whose position is the image of an earlier kept unit's
/// position under a symmetry of `stab` (or equal to it); a kept unit that stands for dropped
/// ones may begin with either order of opposite faces ([`Unit::any_first_order`]).
fn one_unit_per_orbit(units: Vec<Unit>, root: &Root, stab: &[usize]) -> Vec<Unit> {
    let syms = symmetries();
    // Position → index in `kept` of the unit whose orbit holds it.
    let mut covered: HashMap<Cube, usize> = HashMap::new();
    let mut kept: Vec<Unit> = Vec::with_capacity(units.len());
    for u in units {
        let (p, _) = root.after(&u.moves);
        if let Some(&k) = covered.get(&p) {
            kept[k].any_first_order = true;
            continue;
        }
        let k = kept.len();
        covered.insert(p, k);
        for &s in stab {
            covered.insert(syms.conj_cube(&p, s), k);
        }
        kept.push(u);
    }
    kept
}

/// Runs one iteration with `bound` on the tree of `root`.
///
/// The tree is split at `split_depth` into work units, ordered (module docs; `prev`: the
/// previous iteration's [`IterationEnd::unit_nodes`]); every thread takes units from the shared list
/// as its lanes become free, so no thread idles while units are left. A solution found
/// anywhere stops all threads: every solution of this iteration has `bound` moves and is
/// optimal. `stab`: the symmetries fixing the position, whose duplicate units are dropped
/// (module docs); `central`: the position commutes with every move, so only units that keep
/// to their first syllable's rank are searched ([`super::rotations`]).
#[allow(clippy::too_many_arguments)]
fn iteration(
    h: &Heuristic,
    root: &Root,
    bound: u8,
    opts: &SearchOptions,
    stab: &[usize],
    central: bool,
    prev: UnitNodes,
    stop: &AtomicBool,
) -> IterationEnd {
    let mut nodes = 1;
    let mut min_exceeded = u8::MAX;
    let depth = opts.split_depth.min(bound.saturating_sub(1));
    let (mut units, at_split) = split(
        h,
        opts.dual,
        opts.metric,
        *root,
        bound,
        depth,
        &mut nodes,
        &mut min_exceeded,
    );
    if opts.solutions <= 1
        && let Some(sol) = at_split.first()
    {
        return IterationEnd {
            solutions: vec![sol.clone()],
            nodes,
            min_exceeded,
            unit_nodes: UnitNodes::new(),
        };
    }
    if central {
        units.retain_mut(|u| {
            u.cap = rotations::unit_cap(&u.moves).unwrap_or(u8::MAX);
            u.cap != u8::MAX
        });
    }
    // Most promising subtrees first: by the previous iteration's nodes if asked, then by
    // heuristic value.
    let prev = if opts.node_order {
        prev
    } else {
        drop(prev);
        UnitNodes::new()
    };
    units = order_units(units, prev);
    if !stab.is_empty() {
        units = one_unit_per_orbit(units, root, stab);
    }
    let next = AtomicUsize::new(0);
    let unit_nodes: Vec<AtomicU64> = units.iter().map(|_| AtomicU64::new(0)).collect();
    let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
    // Collecting, the split's solutions come first (as the first unit's).
    let collected: FoundSolutions = Mutex::new(at_split.into_iter().map(|s| (0, s)).collect());
    let total_nodes = AtomicU64::new(nodes);
    let min_ex = std::sync::atomic::AtomicU8::new(min_exceeded);
    // Either an outside stop or a solution found by a sibling ends the iteration's workers.
    let local_stop = AtomicBool::new(false);
    let work = Work {
        root: *root,
        units: &units,
        next: &next,
        stops: [stop, &local_stop],
        unit_nodes: &unit_nodes,
        collect: (opts.solutions > 1).then_some(&collected),
        wanted: opts.solutions,
    };
    let search = || {
        let mut w = Worker::new(h, opts, bound);
        if let Some(sol) = w.run(&work) {
            found.lock().expect("lock").get_or_insert(sol);
            local_stop.store(true, Relaxed);
        }
        total_nodes.fetch_add(w.nodes, Relaxed);
        min_ex.fetch_min(w.min_exceeded, Relaxed);
    };
    if opts.threads <= 1 {
        search();
    } else {
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..opts.threads).map(|_| s.spawn(search)).collect();
            for w in workers {
                w.join().expect("search worker");
            }
        });
    }
    // Collected: the first `wanted` in the units' order (the same on any number of threads:
    // `Work::has_enough_before`), then sorted.
    let mut collected = collected.into_inner().expect("lock");
    collected.sort_unstable();
    collected.truncate(opts.solutions);
    let mut solutions: Vec<Vec<Move>> = collected.into_iter().map(|(_, s)| s).collect();
    solutions.extend(found.into_inner().expect("lock"));
    solutions.sort_unstable();
    IterationEnd {
        solutions,
        nodes: total_nodes.into_inner(),
        min_exceeded: min_ex.into_inner(),
        unit_nodes: {
            let mut v: UnitNodes = (units.iter().zip(unit_nodes))
                .map(|(u, n)| {
                    (
                        unit_key(&u.moves),
                        n.into_inner().min(u32::MAX as u64) as u32,
                    )
                })
                .collect();
            v.sort_unstable();
            v
        },
    }
}

/// Finds an optimal solution of `cube` with IDA*.
pub fn solve(h: &Heuristic, cube: &Cube, opts: &SearchOptions, stop: &AtomicBool) -> SearchResult {
    solve_observed(h, cube, opts, stop, &mut |_| {})
}

/// [`solve`], telling `observe` when each iteration begins and ends (for progress on a
/// terminal; it runs on the calling thread, between iterations).
pub fn solve_observed(
    h: &Heuristic,
    cube: &Cube,
    opts: &SearchOptions,
    stop: &AtomicBool,
    observe: &mut dyn FnMut(IterationEvent),
) -> SearchResult {
    solve_witnessed(h, cube, opts, stop, observe, &mut |_, _| None)
}

/// [`solve_observed`], asking `witness` before each iteration for a solution of the bound's
/// length ([`super::witness`]; only when one solution is wanted). A checked one ends the search
/// with the same proof as the iteration would have given.
pub fn solve_witnessed(
    h: &Heuristic,
    cube: &Cube,
    opts: &SearchOptions,
    stop: &AtomicBool,
    observe: &mut dyn FnMut(IterationEvent),
    witness: &mut Witness,
) -> SearchResult {
    let start = Instant::now();
    // Collecting solutions, every canonical sequence is searched: no unit stands for its
    // symmetric images, no rotation for the others, no side switch reorders a path.
    let collecting;
    let opts = if opts.solutions > 1 {
        collecting = SearchOptions {
            symmetric_units: false,
            switch_sides: false,
            ..opts.clone()
        };
        &collecting
    } else {
        opts
    };
    let p = *cube;
    let q = cube.inverse();
    let metric = opts.metric;
    assert!(
        h.serves(metric),
        "a quarter-turn table cannot bound a {metric} search (pdb::set::in_metric refuses it)"
    );
    // A metric with moves of two faces prices a run of one axis's turns as one axis move
    // (`R L'` is one slice-turn move): the search over syllables does that, each axis's
    // turns grouped into one, where this tree prices each face turn alone ([`super::subset`]).
    if !metric.bounded_by_htm() {
        return super::subset::solve_in_observed(h, cube, &MoveSet::ALL, opts, stop, observe);
    }
    let mut result = SearchResult::begun();
    result.metric = metric;
    if cube.is_solved() {
        result.solved(vec![vec![]]);
        return result;
    }
    let stab = if opts.symmetric_units {
        stabilizer(&p)
    } else {
        Vec::new()
    };
    // Rotations of solutions are searched once ([`super::rotations`]); side switching would
    // make the path differ from the solution's order, so it goes without.
    let central = opts.symmetric_units && !opts.switch_sides && rotations::is_central(&p);
    // In the quarter-turn metric every bound has the position's parity: `raise` lifts a value
    // to it, and the bound steps by two.
    let own = metric.raise(h.value(&p, &q, opts.dual).max(1), &p);
    // A known lower bound the search could not check is not used at all: one above the depth
    // limit would be reported as proven without a single node searched. The front doors
    // refuse such a bound first ([`SearchOptions::known_bound_problem`]).
    let known = match opts.known_bound_problem() {
        None => opts.known_lower_bound,
        Some(_) => 0,
    };
    let mut bound = metric.raise(own.max(known), &p);
    // A solution already at hand (the witness's, asked with no budget) shorter than the known
    // bound refutes it at once, before any node is searched for it.
    if bound > own && refuted_at_hand(&p, own, bound, metric, witness) {
        result.known_bound_refuted = true;
        bound = own;
    }
    result.lower_bound = bound;
    let root = Root { p, q };
    let mut prev = UnitNodes::new();
    // Runs iteration `bound`, told to `observe` and recorded in `result`.
    let run = |bound: u8,
               prev: UnitNodes,
               observe: &mut dyn FnMut(IterationEvent),
               result: &mut SearchResult| {
        let t = Instant::now();
        observe(IterationEvent::Started { bound });
        let end = iteration(h, &root, bound, opts, &stab, central, prev, stop);
        let it = Iteration {
            bound,
            nodes: end.nodes,
            seconds: t.elapsed().as_secs_f64(),
        };
        observe(IterationEvent::Finished(it.clone()));
        result.nodes += end.nodes;
        result.iterations.push(it);
        end
    };
    // A known lower bound skips the iterations whose unit counts would order the first one
    // it runs: a cheap one below it orders it instead (the metric's `known_bound_gap`: three
    // below in HTM, the one below in QTM). A solution there refutes the bound: the search
    // starts again from the heuristic's.
    let gap = metric.declaration().known_bound_gap;
    let order_at = bound.saturating_sub(gap).max(own);
    if order_at < bound && bound <= opts.max_depth {
        let end = run(order_at, prev, &mut *observe, &mut result);
        prev = end.unit_nodes;
        if stop.load(Relaxed) && end.solutions.is_empty() {
            result.interrupted = true;
            result.seconds = start.elapsed().as_secs_f64();
            return result;
        }
        if !end.solutions.is_empty() {
            result.known_bound_refuted = true;
            bound = own;
            result.lower_bound = bound;
        }
    }
    loop {
        if bound > opts.max_depth {
            break;
        }
        if opts.solutions == 1 {
            let t = Instant::now();
            let budget = witness::budget(result.iterations.last().map(|i| i.seconds), metric);
            let found = witness(bound, budget).filter(|s| witness::proves(&p, s, bound, metric));
            let seconds = t.elapsed().as_secs_f64();
            result.witness_seconds += seconds;
            // Told only when the witness searched or answered (a zero budget asks only for a
            // solution at hand).
            if found.is_some() || !budget.is_zero() {
                observe(IterationEvent::Witness {
                    bound,
                    seconds,
                    found: found.is_some(),
                });
            }
            if let Some(s) = found {
                // Every bound below was searched completely (or the heuristic rules it out):
                // a checked sequence of `bound` moves is optimal.
                result.solved(vec![s]);
                result.witnessed = true;
                result.lower_bound = bound;
                break;
            }
        }
        let IterationEnd {
            solutions,
            min_exceeded,
            unit_nodes,
            ..
        } = run(bound, prev, &mut *observe, &mut result);
        prev = unit_nodes;
        if !solutions.is_empty() {
            debug_assert!(solutions.iter().all(|s| metric.length(s) == bound as usize));
            result.solved(solutions);
            result.lower_bound = bound;
            break;
        }
        if stop.load(Relaxed) {
            result.interrupted = true;
            break;
        }
        // Iteration `bound` was complete and found nothing. (In the quarter-turn metric the
        // smallest f beyond it may be one short, `Worker::run`: raised, it is exact.)
        bound = metric.raise(min_exceeded.max(bound + 1), &p);
        result.lower_bound = bound;
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// Whether the witness holds a checked solution of a length from `own` to below `bound` (the
/// lengths the position's parity allows in `metric`), asked with no time budget: only a
/// solution already at hand is given, so this costs nothing.
fn refuted_at_hand(p: &Cube, own: u8, bound: u8, metric: Metric, witness: &mut Witness) -> bool {
    (own..bound).step_by(metric.length_step().into()).any(|b| {
        witness(b, std::time::Duration::ZERO).is_some_and(|s| witness::proves(p, &s, b, metric))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;
    use crate::search::worker::UnitMoves;
    use crate::testing::korf6;

    fn unit(moves: &str, h: u8) -> Unit {
        Unit {
            moves: UnitMoves::of(&parse_moves(moves).unwrap()),
            h,
            any_first_order: false,
            cap: NO_CAP,
        }
    }

    /// Most nodes first, then smallest heuristic value, then the split's order; units
    /// without a count count 0.
    #[test]
    fn units_are_ordered_by_previous_nodes() {
        // In the split's order (increasing keys), with heuristic values.
        let names = [
            ("U R F", 9),
            ("U R B", 8),
            ("R D2 F'", 9),
            ("F2 U L", 7),
            ("D L B", 9),
        ];
        let units: Vec<Unit> = names.iter().map(|&(m, h)| unit(m, h)).collect();
        assert!(
            units
                .windows(2)
                .all(|w| unit_key(&w[0].moves) < unit_key(&w[1].moves))
        );
        let mut prev: UnitNodes = [("U R B", 5), ("D L B", 50), ("R D2 F'", 5), ("U R F", 0)]
            .iter()
            .map(|&(m, n)| (unit_key(&parse_moves(m).unwrap()), n))
            .collect();
        prev.push((unit_key(&parse_moves("L2 B").unwrap()), 99)); // no such unit
        prev.sort_unstable();
        let names_of = |units: &[Unit]| -> Vec<String> {
            (units.iter())
                .map(|u| {
                    let m: Vec<String> = u.moves.iter().map(|m| m.to_string()).collect();
                    m.join(" ")
                })
                .collect()
        };
        let got = order_units(units.clone(), prev);
        assert_eq!(
            names_of(&got),
            ["D L B", "U R B", "R D2 F'", "F2 U L", "U R F"]
        );
        // No counts (the first iteration): by heuristic value, then the split's order.
        let again = order_units(units, UnitNodes::new());
        assert_eq!(
            names_of(&again),
            ["F2 U L", "U R B", "U R F", "R D2 F'", "D L B"]
        );
    }

    /// Keys follow the move sequences' order and tell sequences apart.
    #[test]
    fn unit_keys_sort_like_the_moves() {
        let all: Vec<Vec<Move>> = Move::all()
            .flat_map(|a| Move::all().map(move |b| vec![a, b]))
            .collect();
        let keys: Vec<u32> = all.iter().map(|m| unit_key(m)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }

    /// On the superflip, an iteration that keeps one rotation of each sequence searches far
    /// fewer nodes than one that keeps them all, and neither finds a solution below 20 moves;
    /// the min f beyond the bound is the same. (Completeness: `rotations`' tests.)
    #[test]
    fn the_superflip_searches_one_rotation() {
        let h = korf6();
        let c = Cube::from_moves(
            &parse_moves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2").unwrap(),
        );
        assert!(rotations::is_central(&c));
        let stab = stabilizer(&c);
        let root = Root {
            p: c,
            q: c.inverse(),
        };
        let stop = AtomicBool::new(false);
        let opts = SearchOptions::default();
        let run = |central| iteration(h, &root, 13, &opts, &stab, central, UnitNodes::new(), &stop);
        let (all, one) = (run(false), run(true));
        assert!(all.solutions.is_empty() && one.solutions.is_empty());
        assert_eq!(all.min_exceeded, one.min_exceeded);
        assert!(
            one.nodes * 2 < all.nodes,
            "{} against {}",
            one.nodes,
            all.nodes
        );
    }

    /// A complete iteration reports every unit it searched, and the units' counts are all its
    /// nodes but those of the split; on 1 and 2 threads alike.
    #[test]
    fn unit_counts_add_up_to_the_iteration() {
        let h = korf6();
        // 12 moves optimal.
        let c = Cube::from_moves(&parse_moves("R U2 F' L D B' R2 U F' D2 L' B").unwrap());
        let bound = 11;
        let stop = AtomicBool::new(false);
        let mut split_nodes = 1;
        let mut min = u8::MAX;
        let root = Root {
            p: c,
            q: c.inverse(),
        };
        let depth = SearchOptions::default().split_depth;
        let units = split(
            h,
            false,
            Metric::Htm,
            root,
            bound,
            depth,
            &mut split_nodes,
            &mut min,
        );
        let (units, at_split) = units;
        assert!(at_split.is_empty());
        for threads in [1, 2] {
            let opts = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let out = iteration(h, &root, bound, &opts, &[], false, UnitNodes::new(), &stop);
            assert!(
                out.solutions.is_empty(),
                "bound {bound} is below the distance"
            );
            assert_eq!(out.unit_nodes.len(), units.len());
            assert!(out.unit_nodes.is_sorted());
            let keys: Vec<u32> = units.iter().map(|u| unit_key(&u.moves)).collect();
            assert!(
                keys.iter()
                    .all(|k| out.unit_nodes.binary_search_by_key(k, |e| e.0).is_ok())
            );
            let sum: u64 = out.unit_nodes.iter().map(|e| e.1 as u64).sum();
            assert!(sum > 0);
            assert_eq!(sum + split_nodes, out.nodes, "threads {threads}");
        }
    }

    /// A known lower bound the search cannot check proves nothing (issue 104, trap 1). Above
    /// the depth limit or the metric's diameter it is ignored: the search finds the true
    /// distance (before, it ended at once and reported the bound as proven). And a solution at
    /// hand shorter than the bound refutes it before any iteration is run at the bound.
    #[test]
    fn a_known_lower_bound_that_cannot_hold_is_never_reported_as_proven() {
        let stop = AtomicBool::new(false);
        let scramble = parse_moves("R U F' L2 D B").unwrap();
        let c = Cube::from_moves(&scramble);
        let undo: Vec<Move> = scramble.iter().rev().map(|m| m.inverse()).collect();
        let base = SearchOptions::default();
        for (known, max_depth) in [(25, 20), (21, 20), (15, 12), (20, 12)] {
            let opts = SearchOptions {
                known_lower_bound: known,
                max_depth,
                ..base.clone()
            };
            assert!(
                opts.known_bound_problem().is_some(),
                "{known} over {max_depth}"
            );
            let r = solve(korf6(), &c, &opts, &stop);
            let s = r.solution.expect("the search ran");
            assert_eq!((s.len(), r.lower_bound), (6, 6), "{known} over {max_depth}");
            assert!(r.optimal && c.apply_seq(&s).is_solved());
        }
        let qtm = SearchOptions {
            metric: Metric::Qtm,
            known_lower_bound: 27,
            max_depth: 30,
            ..base.clone()
        };
        assert!(qtm.known_bound_problem().unwrap().contains("diameter"));
        // Within the limit the bound is usable; a witness at hand of 6 moves refutes 15 at
        // once: the first iteration is the heuristic's, not one ordering the bound's.
        let opts = SearchOptions {
            known_lower_bound: 15,
            ..base
        };
        assert_eq!(opts.known_bound_problem(), None);
        let mut asked = Vec::new();
        let mut witness = |b: u8, _| {
            asked.push(b);
            (b == 6).then(|| undo.clone())
        };
        let r = solve_witnessed(korf6(), &c, &opts, &stop, &mut |_| {}, &mut witness);
        assert!(r.known_bound_refuted && r.optimal);
        assert_eq!(r.solution.map(|s| s.len()), Some(6));
        let first = r.iterations.first().map_or(6, |i| i.bound);
        assert!(first <= 6, "the first iteration ran at {first}");
    }
}
