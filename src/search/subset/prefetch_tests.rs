//! The solved target's prefetch (`Solved::first`): a coset table read first has every child's
//! entry started loading before any is read, and a child it prunes reads no other table.
//! That changes the order of the loads, never a decision: the same nodes, the same solutions.

use super::*;
use crate::cube::{Rng, random_scramble};

#[test]
fn the_coset_tables_prefetch_prunes_the_same_nodes() {
    let h = crate::testing::sym48e0_fallbacks();
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(12);
    for metric in [Metric::Htm, Metric::Qtm] {
        for _ in 0..4 {
            let c = Cube::from_moves(&random_scramble(&mut rng, 8));
            assert!(
                h.first_position_entry(&c).is_some(),
                "the coset table first"
            );
            let opts = SearchOptions {
                metric,
                ..SearchOptions::default()
            };
            let run = |first| {
                let target = Solved {
                    h,
                    dual: false,
                    metric,
                    first,
                };
                // One thread: with more, the units abandoned after the first solution count
                // the nodes they reached before they saw it, which varies run to run.
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .unwrap();
                pool.install(|| solve_toward(&target, &c, &MoveSet::ALL, &opts, &stop, &mut |_| {}))
            };
            let (with, without) = (run(true), run(false));
            assert!(with.optimal && with.solution.is_some(), "{metric}");
            assert_eq!(with.nodes, without.nodes, "{metric}");
            assert_eq!(with.solutions, without.solutions, "{metric}");
        }
    }
}
