//! The slice-turn and axial metrics' searches checked against what shares none of their
//! code: distances by a plain breadth-first search over whole positions with the metric's
//! moves (its layers' sizes checked in turn against the published slice-turn counts and the
//! axial counts of the written-out brute force, `stats::distances`), and the refusal of
//! half-turn tables, which would not be admissible there.

use super::{SearchOptions, solve};
use crate::cube::{Metric, Rng, format_moves};
use crate::pdb::Pattern;
use crate::pdb::set::in_metric;
use std::sync::atomic::AtomicBool;

/// Every sampled position at distance `d` (by the breadth-first search) is solved in exactly
/// `d` moves of the metric, proven optimal, with a solution that solves it; the positions
/// include slices and axial moves (`R L'` is one move in both metrics).
#[test]
fn slice_turn_and_axial_solves_are_optimal_on_positions_of_known_distance() {
    // STM to depth 6 (3.1 M positions below it), ATM to 5 (1.2 M).
    for (metric, depth) in [(Metric::Stm, 6), (Metric::Atm, 5)] {
        let layers = crate::testing::positions_within(73, metric, depth);
        let sizes: Vec<u64> = layers[..depth].iter().map(|l| l.len() as u64).collect();
        let known: &[u64] = match metric {
            Metric::Stm => metric.published(),
            _ => &[1, 45, 1347, 39631, 1152290],
        };
        assert_eq!(sizes, known[..depth], "{metric}");
        let h = crate::testing::corners_edges5_in(metric);
        let mut rng = Rng::new(3);
        for (d, layer) in layers.iter().enumerate().skip(1) {
            for _ in 0..6 {
                let c = layer[rng.below(layer.len() as u64) as usize];
                let opts = SearchOptions {
                    metric,
                    ..SearchOptions::default()
                };
                let r = solve(h, &c, &opts, &AtomicBool::new(false));
                let s = r.solution.expect("solved");
                assert!(r.optimal && r.metric == metric, "{metric} at {d}");
                assert!(
                    c.apply_seq(&s).is_solved(),
                    "{metric}: {}",
                    format_moves(&s)
                );
                assert_eq!(metric.length(&s), d, "{metric}: {}", format_moves(&s));
            }
        }
        // A slice (or an axial move) and its inverse: one move each way.
        let c = crate::cube::Cube::from_moves(&crate::cube::parse_moves("R L' U D'").unwrap());
        let r = solve(
            h,
            &c,
            &SearchOptions {
                metric,
                ..SearchOptions::default()
            },
            &AtomicBool::new(false),
        );
        assert_eq!(metric.length(&r.solution.unwrap()), 2, "{metric}");
    }
}

/// A half-turn table may exceed a slice-turn or axial distance (`R L'` is two face turns):
/// a set is read through its twins in those metrics, and refused where one has none.
#[test]
fn half_turn_tables_are_refused_in_the_slice_turn_and_axial_metrics() {
    let set = [
        Pattern::SYM48E6,
        Pattern::CORNERS,
        Pattern::EDGES6A,
        Pattern::EDGES6B,
    ];
    for metric in [Metric::Stm, Metric::Atm] {
        let twins = in_metric(&set, metric).unwrap();
        assert!(twins.iter().all(|p| p.metric() == metric), "{metric}");
        let e = in_metric(&[Pattern::CORNERS, Pattern::EDGES7A], metric).unwrap_err();
        assert!(e.to_string().contains("edges7a"), "{e}");
    }
    // The QTM search reads half-turn tables as they are (a quarter turn is a face turn).
    assert_eq!(
        in_metric(&[Pattern::EDGES5A], Metric::Qtm).unwrap(),
        [Pattern::EDGES5A]
    );
}

/// Positions fixed by some of the 48 symmetries, in the slice-turn and axial metrics and in a
/// half-turn subset: one work unit per set of conjugate units (`subset::symmetric`) gives the
/// lengths of the whole tree, and the breadth-first distance where it is known, with solutions
/// that solve, and fewer nodes on most.
#[test]
fn symmetric_positions_search_one_unit_per_set_over_syllables() {
    use crate::cube::{Cube, parse_moves};
    use crate::search::subset::MoveSet;
    let syms = crate::coord::symmetry::symmetries();
    let symmetric = |c: &Cube| (1..48).any(|s| syms.conj_cube(c, s) == *c);
    let patterns = [
        "F2 B2 R2 L2 U2 D2",
        "U D' R L' F B' U D'",
        "F2 B2 U D' R2 L2 U D'",
        "U2 R2 L2 U2 R2 L2",
        "U F B' L2 U2 L2 F' B U2 L2 U",
        "R L U2 R' L' F2 B2 U2 F2 B2",
    ];
    let mut fewer = 0;
    let mut runs = 0;
    for metric in [Metric::Stm, Metric::Atm] {
        let h = crate::testing::corners_edges5_in(metric);
        // (position, its distance when the breadth-first search knows it)
        let mut cases: Vec<(Cube, Option<usize>)> = (patterns.iter())
            .map(|s| (Cube::from_moves(&parse_moves(s).unwrap()), None))
            .collect();
        let layers = crate::testing::positions_within(5, metric, 4);
        for (d, layer) in layers.iter().enumerate().skip(3) {
            let some = layer.iter().filter(|c| symmetric(c)).take(4);
            cases.extend(some.map(|c| (*c, Some(d))));
        }
        for (c, known) in cases {
            assert!(symmetric(&c));
            let (a, b) = every_unit_and_one_a_set(h, &c, &MoveSet::ALL, metric);
            let (sa, sb) = (
                a.solution.clone().expect("solved"),
                b.solution.clone().expect("solved"),
            );
            assert!(
                c.apply_seq(&sb).is_solved(),
                "{metric}: {}",
                format_moves(&sb)
            );
            assert!(b.optimal && a.optimal);
            assert_eq!(metric.length(&sb), metric.length(&sa), "{metric}");
            if let Some(d) = known {
                assert_eq!(metric.length(&sb), d, "{metric}: {}", format_moves(&sb));
            }
            // The complete iterations, which do not depend on where a solution is met.
            let complete = |r: &crate::search::SearchResult| -> u64 {
                let n = r.iterations.len() - 1;
                r.iterations[..n].iter().map(|i| i.nodes).sum()
            };
            assert!(complete(&b) <= complete(&a), "{metric}");
            fewer += usize::from(complete(&b) < complete(&a));
            // Where the tree is large, most units have images (measured: 1.7 to 5.5 times
            // fewer nodes on the four patterns of 7 and 8 moves).
            if complete(&a) > 100_000 {
                assert!(complete(&b) * 3 < complete(&a) * 2, "{metric}");
            }
            runs += 1;
        }
    }
    // Most positions of 3 and 4 moves are solved in their first iteration.
    assert!(fewer >= 8, "fewer nodes on only {fewer} of {runs} runs");
    // A half-turn subset that some of the superflip's symmetries map onto itself.
    let set = MoveSet::parse("U D R L F2 B2").unwrap();
    let c = Cube::from_moves(&parse_moves("U2 R2 L2 U2 R2 L2 F2 B2 U D' R2 L2 U D'").unwrap());
    let h = crate::search::tests::h();
    let (a, b) = every_unit_and_one_a_set(h, &c, &set, Metric::Htm);
    let sb = b.solution.expect("solved");
    assert!(c.apply_seq(&sb).is_solved() && sb.iter().all(|m| set.contains(*m)));
    assert_eq!(sb.len(), a.solution.expect("solved").len());
    assert!(b.nodes < a.nodes, "{} against {}", b.nodes, a.nodes);
}

/// `c` solved in `set` and `metric` searching every work unit, then one of each symmetric set.
fn every_unit_and_one_a_set(
    h: &crate::search::Heuristic,
    c: &crate::cube::Cube,
    set: &crate::search::subset::MoveSet,
    metric: Metric,
) -> (crate::search::SearchResult, crate::search::SearchResult) {
    let stop = AtomicBool::new(false);
    let [a, b] = [false, true].map(|symmetric_units| {
        let opts = SearchOptions {
            metric,
            symmetric_units,
            ..SearchOptions::default()
        };
        crate::search::subset::solve_in(h, c, set, &opts, &stop)
    });
    (a, b)
}

/// The superflip's 16-move slice-turn solution (`M2 U' R2 D' S M2 U M' U2 F2 D' S M2 U' R2 U'`,
/// published with the superflip; here in face turns, each slice as its two faces, the turns
/// after it relabelled by the rotation it makes): it solves the superflip, and the metrics
/// price it at 22 face turns, 16 slice-turn and 16 axial moves. With the complete search to
/// 15 (`results/solve-stm.md`) it proves the superflip 16 slice-turn moves from solved.
#[test]
fn the_superflip_has_a_sixteen_move_slice_turn_solution() {
    use crate::cube::{Cube, parse_moves};
    let superflip = Cube::from_moves(&parse_moves(crate::cube::SUPERFLIP).unwrap());
    let s = parse_moves("L2 R2 D' R2 U' B' F U2 D2 R U D' F2 L2 B' L' R B2 F2 D' F2 D'").unwrap();
    assert!(superflip.apply_seq(&s).is_solved());
    assert_eq!(Metric::Htm.length(&s), 22);
    assert_eq!(Metric::Stm.length(&s), 16);
    assert_eq!(Metric::Atm.length(&s), 16);
}
