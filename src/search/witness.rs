//! Witnesses: solutions found outside the IDA* that let it stop before its last iteration.
//!
//! IDA* proves a length `B` optimal in two halves: the iterations below `B` were complete and
//! found nothing, so no solution is shorter than `B`; and a solution of `B` moves exists. The
//! second half needs *some* checked sequence of `B` moves, not the one iteration `B` would find.
//! So before iteration `B` the search may ask a witness (the command line's is the two-phase
//! solver, which finds a solution of a given length quickly on deep positions but cannot show
//! that none is shorter) for a solution of exactly `B` moves within a time budget. A sequence
//! that solves the position and costs `B` in the search's metric ends the search: the answer is
//! optimal by the same argument as when iteration `B` finds it, and that iteration, the largest
//! of the search, is never run. Anything else is ignored and iteration `B` runs as it would have:
//! a witness changes the time, never the length or the claim.
//!
//! The budget is a share ([`SHARE`]) of the previous iteration's time. Iteration `B` costs
//! several times iteration `B − 1` (each bound multiplies the nodes by about 5–13 here), so a
//! witness that fails costs at most that share of what the search spends anyway, and one that
//! succeeds saves the last iteration (most of an 18-mover's proof, little of a 20-mover's, whose
//! last iteration meets a solution early: `results/solve-bench-20.md`). A witness is asked only when one solution is wanted:
//! collecting solutions (`--all`, `--count`) needs iteration `B` to its end.

use crate::cube::{Cube, Metric, Move};
use std::time::Duration;

/// Asked before the iteration of bound `B`, with a time budget: a sequence of exactly `B` moves
/// (in the search's metric) that solves the position, or `None`. The budget is zero before the
/// first iteration (no time to share yet): then only a solution already at hand is worth
/// returning.
pub type Witness<'a> = dyn FnMut(u8, Duration) -> Option<Vec<Move>> + 'a;

/// The share of the previous iteration's time a witness may take before the next.
pub const SHARE: f64 = 0.05;

/// The budget before an iteration, from the previous iteration's seconds (`None` before the
/// first): zero (only a solution at hand) until an iteration took the metric's
/// `witness_after` (0.25 s in HTM, 30 s in QTM; never in a metric without witnesses).
pub fn budget(previous_seconds: Option<f64>, metric: Metric) -> Duration {
    match (previous_seconds, metric.declaration().witness_after) {
        (Some(s), Some(least)) if s >= least => Duration::from_secs_f64(s * SHARE),
        _ => Duration::ZERO,
    }
}

/// Whether `moves` is a witness of length `bound` for `cube`: it costs `bound` in `metric` and
/// solves the cube. The search takes nothing else from a witness.
pub fn proves(cube: &Cube, moves: &[Move], bound: u8, metric: Metric) -> bool {
    metric.length(moves) == bound as usize && cube.apply_seq(moves).is_solved()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    #[test]
    fn a_witness_must_solve_and_have_the_bound_length() {
        let scramble = parse_moves("R U F2 D'").unwrap();
        let cube = Cube::SOLVED.apply_seq(&scramble);
        let undo: Vec<Move> = scramble.iter().rev().map(|m| m.inverse()).collect();
        assert!(proves(&cube, &undo, 4, Metric::Htm));
        assert!(proves(&cube, &undo, 5, Metric::Qtm));
        assert!(
            !proves(&cube, &undo, 5, Metric::Htm),
            "a length other than the bound"
        );
        let mut wrong = undo.clone();
        wrong.swap(0, 1);
        assert!(
            !proves(&cube, &wrong, 4, Metric::Htm),
            "a sequence that does not solve"
        );
    }

    /// A witness of the bound's length ends the search before that iteration, with the same
    /// claim; a witness that is too long or does not solve is ignored, and the search is the
    /// one it would have been without it (the same nodes).
    #[test]
    fn witnesses_end_the_search_only_when_they_prove_it() {
        use crate::search::{SearchOptions, solve, solve_witnessed};
        use std::sync::atomic::AtomicBool;
        let h = crate::testing::korf6();
        let cube = Cube::SOLVED.apply_seq(&parse_moves("R U F' L2 D B R' F2 U'").unwrap());
        let opts = SearchOptions::default();
        let stop = AtomicBool::new(false);
        let plain = solve(h, &cube, &opts, &stop);
        let sol = plain.solution.clone().unwrap();
        let n = sol.len() as u8;
        assert!(
            plain.iterations.len() >= 2,
            "the test needs an iteration before the last"
        );
        let mut asked = Vec::new();
        let r = solve_witnessed(h, &cube, &opts, &stop, &mut |_| {}, &mut |b, _| {
            asked.push(b);
            (b == n).then(|| sol.clone())
        });
        assert!(r.witnessed && r.optimal);
        assert_eq!((r.solution.as_ref(), r.lower_bound), (Some(&sol), n));
        assert_eq!(r.iterations.len() + 1, plain.iterations.len());
        assert!(r.iterations.iter().all(|i| i.bound < n));
        assert_eq!(asked.last(), Some(&n));
        // Longer by a cancelling pair, and not solving: both ignored.
        let mut longer = sol.clone();
        longer.extend([Move::from_index(0), Move::from_index(0).inverse()]);
        let mut wrong = sol.clone();
        wrong.pop();
        wrong.push(Move::from_index(0));
        for bad in [longer, wrong] {
            let r = solve_witnessed(h, &cube, &opts, &stop, &mut |_| {}, &mut |_, _| {
                Some(bad.clone())
            });
            assert!(!r.witnessed && r.optimal);
            assert_eq!((r.nodes, r.solution.as_ref()), (plain.nodes, Some(&sol)));
        }
        // Collecting solutions never asks.
        let all = SearchOptions {
            solutions: 2,
            ..opts.clone()
        };
        let r = solve_witnessed(h, &cube, &all, &stop, &mut |_| {}, &mut |_, _| {
            panic!("asked while collecting")
        });
        assert!(!r.witnessed);
    }

    /// In QTM a witness of the bound's cost ends the search too (its bound steps by two), and
    /// after iterations of a few milliseconds the search gives it no time: only a solution at
    /// hand can answer.
    #[test]
    fn quarter_turn_witnesses_get_no_time_after_short_iterations() {
        use crate::search::{SearchOptions, solve, solve_witnessed};
        use std::sync::atomic::AtomicBool;
        let h = crate::testing::korf6();
        let cube = Cube::SOLVED.apply_seq(&parse_moves("R U F' L2 D B R' F2 U'").unwrap());
        let opts = SearchOptions {
            metric: Metric::Qtm,
            ..SearchOptions::default()
        };
        let stop = AtomicBool::new(false);
        let plain = solve(h, &cube, &opts, &stop);
        let sol = plain.solution.clone().unwrap();
        let n = Metric::Qtm.length(&sol) as u8;
        assert!(plain.iterations.len() >= 2, "an iteration before the last");
        let mut budgets = Vec::new();
        let r = solve_witnessed(h, &cube, &opts, &stop, &mut |_| {}, &mut |b, t| {
            budgets.push(t);
            (b == n).then(|| sol.clone())
        });
        assert!(r.witnessed && r.optimal);
        assert_eq!((r.solution.as_ref(), r.lower_bound), (Some(&sol), n));
        assert_eq!(r.iterations.len() + 1, plain.iterations.len());
        assert!(budgets.iter().all(|t| t.is_zero()), "{budgets:?}");
    }

    #[test]
    fn budgets_are_a_share_of_the_last_iteration() {
        assert_eq!(budget(None, Metric::Htm), Duration::ZERO);
        assert_eq!(budget(Some(0.2), Metric::Htm), Duration::ZERO);
        assert_eq!(budget(Some(20.0), Metric::Htm), Duration::from_secs(1));
        // Quarter turns: only after a long iteration.
        assert_eq!(budget(Some(20.0), Metric::Qtm), Duration::ZERO);
        assert_eq!(budget(Some(40.0), Metric::Qtm), Duration::from_secs(2));
    }
}
