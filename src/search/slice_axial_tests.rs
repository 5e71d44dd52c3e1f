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
