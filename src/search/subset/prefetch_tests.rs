//! The solved target's two rounds (`Solved::first_round`, `Solved::second_round`): a node's
//! children bounded together, the coset table's entries first (the inverses', shared between
//! children, when the set is read both ways), the other tables only where they could still
//! cut. That changes which entries are loaded and when, never a decision: the same nodes and
//! the same solutions as a search that reads each child's whole bound when it visits it.

use super::*;
use crate::cube::{Rng, random_scramble};

/// The bound without rounds: each child's [`Target::bound`] read when the search visits it.
struct Plain<'a>(Solved<'a>);

impl Target for Plain<'_> {
    fn reached(&self, p: &Cube) -> bool {
        self.0.reached(p)
    }
    fn bound(&self, p: &Cube, q: &Cube) -> u8 {
        self.0.bound(p, q)
    }
}

#[test]
fn the_rounds_cut_the_nodes_of_the_plain_bound() {
    let h = crate::testing::sym48e0_fallbacks();
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(12);
    for metric in [Metric::Htm, Metric::Qtm] {
        for dual in [false, true] {
            for _ in 0..3 {
                let c = Cube::from_moves(&random_scramble(&mut rng, 8));
                let opts = SearchOptions {
                    metric,
                    ..SearchOptions::default()
                };
                let rounds = Solved::new(h, dual, metric);
                assert!(rounds.first, "the coset table first");
                assert_eq!(rounds.inverse_first, dual, "the inverses' entries first");
                // One thread: with more, the units abandoned after the first solution count
                // the nodes they reached before they saw it, which varies run to run.
                let run = |target: &dyn Target| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .unwrap();
                    pool.install(|| {
                        solve_toward(target, &c, &MoveSet::ALL, &opts, &stop, &mut |_| {})
                    })
                };
                let with = run(&rounds);
                let without = run(&Plain(Solved::new(h, dual, metric)));
                assert!(with.optimal && with.solution.is_some(), "{metric}");
                assert_eq!(with.nodes, without.nodes, "{metric} dual {dual}");
                assert_eq!(with.solutions, without.solutions, "{metric} dual {dual}");
            }
        }
    }
}
