//! The quarter-turn metric's search checked against what shares none of its code: a plain
//! breadth-first search over whole positions with the 12 quarter turns (a hash map, checked in
//! turn against the published counts), and, for every optimal solution, the enumeration of all
//! quarter-turn sequences of the optimal length.

use super::{ALL_SOLUTIONS, SearchOptions, solve};
use crate::cube::{Cube, Metric, Move, Rng, format_moves, merge_moves};
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// Positions at exact distance 0..=7 in the quarter-turn metric (OEIS A080602; exact counts
/// through 18q by Rokicki).
const PUBLISHED_QTM: [u64; 8] = [1, 12, 114, 1068, 10011, 93840, 878880, 8221632];

/// Depth of the brute-force ball: 983,926 positions.
const RADIUS: u8 = 6;

fn quarter_turns() -> Vec<Move> {
    Move::all().filter(|m| m.quarter_turns() != 2).collect()
}

/// Every position within [`RADIUS`] quarter turns of solved with its distance, by a plain
/// breadth-first search.
fn ball() -> &'static HashMap<Cube, u8> {
    static B: OnceLock<HashMap<Cube, u8>> = OnceLock::new();
    B.get_or_init(|| {
        let turns = quarter_turns();
        let mut dist = HashMap::from([(Cube::SOLVED, 0u8)]);
        let mut layer = vec![Cube::SOLVED];
        for d in 1..=RADIUS {
            let mut next = Vec::new();
            for c in &layer {
                for m in &turns {
                    let n = c.apply(*m);
                    dist.entry(n).or_insert_with(|| {
                        next.push(n);
                        d
                    });
                }
            }
            layer = next;
        }
        dist
    })
}

fn qtm(solutions: usize) -> SearchOptions {
    SearchOptions {
        metric: Metric::Qtm,
        max_depth: 26,
        solutions,
        ..SearchOptions::default()
    }
}

#[test]
fn the_brute_force_ball_has_the_published_counts() {
    let mut counts = vec![0u64; RADIUS as usize + 1];
    for &d in ball().values() {
        counts[d as usize] += 1;
    }
    assert_eq!(counts, PUBLISHED_QTM[..=RADIUS as usize]);
}

/// The two heuristics a quarter-turn search may read: half-turn tables (admissible, raised to
/// the parity) and their quarter-turn twins.
fn heuristics() -> [&'static super::Heuristic; 2] {
    [crate::testing::korf6(), crate::testing::korf6_qtm()]
}

/// Random positions of the ball, at every distance: the search's length is the exact one, its
/// solution is written with `X2` for half turns and solves the position; with half-turn and
/// with quarter-turn tables, on one thread and two.
#[test]
fn qtm_lengths_are_the_brute_force_distances() {
    let h = crate::testing::korf6();
    let stop = AtomicBool::new(false);
    let mut by_depth: Vec<Vec<Cube>> = vec![Vec::new(); RADIUS as usize + 1];
    for (c, &d) in ball() {
        if by_depth[d as usize].len() < 12 {
            by_depth[d as usize].push(*c);
        }
    }
    for (k, h) in heuristics().into_iter().enumerate() {
        let opts = SearchOptions {
            threads: 1 + k,
            ..qtm(1)
        };
        for (d, cubes) in by_depth.iter().enumerate() {
            for c in cubes {
                let r = solve(h, c, &opts, &stop);
                let s = r.solution.expect("solved");
                assert!(r.optimal && r.metric == Metric::Qtm);
                assert_eq!(Metric::Qtm.length(&s), d, "{}", format_moves(&s));
                assert_eq!(r.lower_bound as usize, d);
                assert!(c.apply_seq(&s).is_solved());
                assert_eq!(merge_moves(&s), s, "written merged: {}", format_moves(&s));
            }
        }
    }
    // The iterations are observed as in the half-turn search; their bounds keep one parity.
    let c = by_depth[6][0];
    let mut events = Vec::new();
    let r = super::solve_observed(h, &c, &qtm(1), &stop, &mut |e| events.push(e));
    let bounds: Vec<u8> = r.iterations.iter().map(|i| i.bound).collect();
    assert!(
        bounds
            .windows(2)
            .all(|w| w[1] > w[0] && (w[1] - w[0]) % 2 == 0),
        "{bounds:?}"
    );
    assert_eq!(bounds.last(), Some(&6));
    assert_eq!(events.len(), 2 * bounds.len());
    assert_eq!(
        events[0],
        super::IterationEvent::Started { bound: bounds[0] }
    );
    // Beyond the ball: lengths have the corner parity and reach the walk's length at most.
    let mut rng = Rng::new(11);
    let turns = quarter_turns();
    for _ in 0..6 {
        let walk: Vec<Move> = (0..9).map(|_| turns[rng.below(12) as usize]).collect();
        let c = Cube::from_moves(&walk);
        let r = solve(h, &c, &qtm(1), &stop);
        let len = Metric::Qtm.length(&r.solution.expect("solved"));
        assert!(len <= 9 && len % 2 == 1, "{len}");
    }
}

/// The canonical form of a quarter-turn sequence as the search writes it: each axis's run of
/// turns as the lower face's rotation then the opposite face's, merged (`U U` → `U2`).
fn canonical(seq: &[Move]) -> Vec<Move> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < seq.len() {
        let axis = seq[i].face_index() % 3;
        let mut j = i;
        while j < seq.len() && seq[j].face_index() % 3 == axis {
            j += 1;
        }
        let mut run = seq[i..j].to_vec();
        run.sort_by_key(|m| m.face_index());
        out.extend(merge_moves(&run));
        i = j;
    }
    out
}

/// Every quarter-turn sequence of length `k`, in odometer order.
fn sequences(k: usize) -> Vec<Vec<Move>> {
    let turns = quarter_turns();
    let mut out = vec![vec![]];
    for _ in 0..k {
        out = (out.iter())
            .flat_map(|s| {
                turns.iter().map(move |&m| {
                    let mut t = s.clone();
                    t.push(m);
                    t
                })
            })
            .collect();
    }
    out
}

/// Every quarter-turn sequence of length `n` that solves `c`, in canonical form, once each:
/// met in the middle, the first half's sequences made from `c` and the second half's ending
/// at solved (12^4 of each at 8q instead of 12^8 sequences).
fn all_solutions_by_enumeration(c: &Cube, n: usize) -> BTreeSet<String> {
    let mut ends: HashMap<Cube, Vec<Vec<Move>>> = HashMap::new();
    for s in sequences(n - n / 2) {
        // The position that `s` solves.
        let start = Cube::from_moves(&crate::cube::invert_sequence(&s));
        ends.entry(start).or_default().push(s);
    }
    let mut out = BTreeSet::new();
    for f in sequences(n / 2) {
        for s in ends.get(&c.apply_seq(&f)).into_iter().flatten() {
            let whole: Vec<Move> = f.iter().chain(s).copied().collect();
            assert!(c.apply_seq(&whole).is_solved());
            out.insert(format_moves(&canonical(&whole)));
        }
    }
    out
}

/// `--all` in the quarter-turn metric lists exactly the optimal solutions that brute-force
/// enumeration finds, each once: short cases, random positions of the ball at 5q, and
/// positions of 6, 7 and 8q (random quarter-turn walks, and symmetric ones with many
/// solutions).
#[test]
fn qtm_all_solutions_equal_the_enumeration() {
    let h = crate::testing::korf6();
    let stop = AtomicBool::new(false);
    let cases = [
        "R U2",
        "U D",
        "R U F'",
        "F2 B2",
        "R U R' U'",
        "U2 D2 R",
        "R L' U D'",
        "U2 D2 F2 B2",
        "R L U2 R' L' U2",
        "R U R' U R U2 R'",
    ];
    let mut rng = Rng::new(3);
    let mut cubes: Vec<Cube> = cases
        .iter()
        .map(|s| Cube::from_moves(&crate::cube::parse_moves(s).unwrap()))
        .collect();
    let ball: Vec<(&Cube, &u8)> = ball().iter().filter(|(_, d)| **d == 5).take(400).collect();
    for _ in 0..3 {
        cubes.push(*ball[rng.below(ball.len() as u64) as usize].0);
    }
    // Walks of 6, 7 and 8 quarter turns (their distance may be shorter: the enumeration
    // takes the search's length, which the ball test checks).
    let turns = quarter_turns();
    for len in [6, 7, 8, 8, 8] {
        let walk: Vec<Move> = (0..len).map(|_| turns[rng.below(12) as usize]).collect();
        cubes.push(Cube::from_moves(&walk));
    }
    let mut longest = 0;
    for c in cubes {
        let want = {
            let r = solve(h, &c, &qtm(1), &stop);
            let n = Metric::Qtm.length(r.solution.as_ref().expect("solved"));
            assert!(n <= 8, "{n}");
            longest = longest.max(n);
            (n, all_solutions_by_enumeration(&c, n))
        };
        for h in heuristics() {
            let r = solve(h, &c, &qtm(ALL_SOLUTIONS), &stop);
            let n = Metric::Qtm.length(r.solution.as_ref().expect("solved"));
            let listed: Vec<String> = r.solutions.iter().map(|s| format_moves(s)).collect();
            let unique: BTreeSet<String> = listed.iter().cloned().collect();
            assert_eq!(unique.len(), listed.len(), "listed twice: {listed:?}");
            assert_eq!((n, unique), want);
        }
    }
    assert_eq!(longest, 8);
}

/// A lower bound known from elsewhere starts the search at it (raised to the position's parity
/// in QTM): the one iteration is that bound's, the length is still the brute-force distance,
/// and fewer nodes are searched than from the heuristic's bound. In both metrics, each against
/// its own breadth-first ball, with no table (every value 0), so the bound alone decides where
/// the search starts.
#[test]
fn a_known_lower_bound_starts_the_search_there_in_either_metric_and_a_false_one_is_caught() {
    let stop = AtomicBool::new(false);
    let htm_layers = crate::testing::positions_within_6(7, Metric::Htm);
    let mut qtm_layers = vec![Vec::new(); RADIUS as usize + 1];
    for (c, &d) in ball() {
        if qtm_layers[d as usize].len() < 6 {
            qtm_layers[d as usize].push(*c);
        }
    }
    let h = &super::Heuristic::new(Vec::new());
    let cases = [
        (Metric::Htm, &htm_layers[..=5]),
        (Metric::Qtm, &qtm_layers[..]),
    ];
    for (metric, layers) in cases {
        for (d, cubes) in layers.iter().enumerate().skip(3) {
            for c in cubes.iter().take(3) {
                let opts = SearchOptions {
                    metric,
                    max_depth: 26,
                    ..SearchOptions::default()
                };
                let plain = solve(h, c, &opts, &stop);
                // One below the distance: in QTM the parity lifts it to the distance itself.
                let known = if metric == Metric::Qtm { d - 1 } else { d };
                let told = solve(
                    h,
                    c,
                    &SearchOptions {
                        known_lower_bound: known as u8,
                        ..opts
                    },
                    &stop,
                );
                let s = told.solution.expect("solved");
                assert!(told.optimal && c.apply_seq(&s).is_solved(), "{metric} {d}");
                assert_eq!(metric.length(&s), d, "{metric}: {}", format_moves(&s));
                // An iteration below (three in HTM, two in QTM, or the heuristic's first)
                // orders the bound's units.
                let gap = if metric == Metric::Qtm { 2 } else { 3 };
                let own = plain.iterations[0].bound;
                let bounds: Vec<u8> = told.iterations.iter().map(|i| i.bound).collect();
                let order_at = (d as u8).saturating_sub(gap).max(own);
                assert_eq!(bounds, vec![order_at, d as u8], "{metric} at {d}");
                // Fewer nodes where the plain search ran more iterations (in QTM at 3q both
                // run bounds 1 and 3).
                if plain.iterations.len() > 2 {
                    assert!(told.nodes < plain.nodes, "{metric} at {d}");
                } else {
                    assert_eq!(told.nodes, plain.nodes, "{metric} at {d}");
                }
                assert!(!told.known_bound_refuted);
                // A bound `gap` above the distance: the ordering iteration refutes it, and
                // the search starts again from the heuristic's bound.
                let wrong = solve(
                    h,
                    c,
                    &SearchOptions {
                        known_lower_bound: d as u8 + gap,
                        ..opts
                    },
                    &stop,
                );
                let s = wrong.solution.expect("solved");
                assert!(wrong.known_bound_refuted, "{metric} at {d}");
                assert!(wrong.optimal && metric.length(&s) == d, "{metric} at {d}");
                assert_eq!(wrong.lower_bound as usize, d);
            }
        }
    }
}
