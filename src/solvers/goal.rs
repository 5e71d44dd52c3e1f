//! Optimal solving toward a goal other than solved (`solve --goal`, `--mask`): the least-cost
//! sequences after which the goal holds, in any metric and move set.
//!
//! The search is the move-set IDA* over syllables ([`subset::solve_toward`]); its target is
//! the goal, bounded by the exact tables of the goal's relaxations ([`goal::plan`], built on
//! first use and cached). Each table is exact for a relaxation, so their maximum is admissible
//! and the search complete and optimal (`docs/goals.md`).
//!
//! **Any orientation** (`--any-orientation`, colour neutrality): the goal is accepted in any
//! of the 24 whole-cube orientations. A position meets the goal held in orientation `S` when
//! `S⁻¹ P S` meets it; so a position has arrived when one of the 24 conjugates meets the goal,
//! and its bound is the least over the 24 conjugates of the tables' maximum (each an
//! admissible bound for its orientation; the least is admissible for the union).
//!
//! A goal that needs every piece home is the solved cube, whose tables are the optimal
//! solver's: the front ends route it there (`ll`, `pll`; their precondition checked first).

use super::outcome::Outcome;
use crate::coord::goal::{GoalCheck, conjugate};
use crate::coord::symmetry::symmetries;
use crate::cube::{Cube, Metric};
use crate::pdb::file::TableError;
use crate::pdb::goal::{self, GoalTable};
use crate::progress::ProgressMode;
use crate::search::subset::{self, MoveSet, Target, Token};
use crate::search::{SearchOptions, SearchResult};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A goal with its tables, ready to solve positions.
pub struct GoalSolver {
    check: GoalCheck,
    frames: Vec<usize>,
    tables: Vec<GoalTable>,
    metric: Metric,
    /// The one table indexes the goal itself (not a relaxation): its value is the exact
    /// distance, and the search walks down it ([`Target::exact`]).
    exact: bool,
}

impl GoalSolver {
    /// Opens (building on first use) the tables of `check`'s goal in `metric` in `dir`;
    /// `origin` is the flag that named the goal, for the advice on a bad file.
    pub fn open(
        check: GoalCheck,
        metric: Metric,
        origin: &str,
        dir: &Path,
        mode: ProgressMode,
    ) -> Result<GoalSolver, TableError> {
        let parts = goal::plan(&check.goal);
        let tables = GoalTable::open_all(&parts, metric, origin, dir, mode)?;
        subset::prepare(metric);
        Ok(GoalSolver {
            exact: parts == [check.goal.clone()],
            frames: check.frames(),
            check,
            tables,
            metric,
        })
    }

    /// The tables' names, `goal-KEY,goal-KEY`: what a study's records say solved them.
    pub fn tables_name(&self) -> String {
        (self.tables.iter())
            .map(|t| format!("goal-{}", t.goal().key()))
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn check(&self) -> &GoalCheck {
        &self.check
    }

    /// Bytes of tables held.
    pub fn table_bytes(&self) -> usize {
        self.tables.iter().map(GoalTable::bytes).sum()
    }

    /// The search itself, without the precondition's check (the caller's): the optimal
    /// solutions toward the goal with `set`'s turns, as many as `opts.solutions` asks for, in
    /// `opts.metric` (which must be the tables' metric).
    pub fn search(
        &self,
        cube: &Cube,
        set: &MoveSet,
        opts: &SearchOptions,
        stop: &AtomicBool,
    ) -> SearchResult {
        assert_eq!(opts.metric, self.metric, "the tables' metric");
        subset::solve_toward(self, cube, set, opts, stop, &mut |_| {})
    }

    /// Solves `cube` (called `input` in the outcome) toward the goal with `set`'s turns:
    /// as many optimal solutions as `opts.solutions` asks for, in `opts.metric` (which must be
    /// the tables' metric). An error says the precondition does not hold. The outcome carries
    /// the goal, so that its check ([`Outcome::check`]) tests each solution against it.
    pub fn solve(
        &self,
        input: &str,
        cube: &Cube,
        set: &MoveSet,
        opts: &SearchOptions,
        stop: &AtomicBool,
    ) -> Result<Outcome, String> {
        self.check.precondition(cube)?;
        let result = self.search(cube, set, opts, stop);
        let mut o = Outcome::from_search(input, result, None, opts.solutions);
        o.goal = Some(self.check.clone());
        if *set != MoveSet::ALL {
            o = o.in_moveset(set)?;
        }
        Ok(o)
    }
}

impl Target for GoalSolver {
    #[inline]
    fn reached(&self, p: &Cube) -> bool {
        let syms = symmetries();
        (self.frames.iter()).any(|&s| self.check.goal.holds(&conjugate(syms, p, s)))
    }

    #[inline]
    fn bound(&self, p: &Cube, _q: &Cube) -> u8 {
        let syms = symmetries();
        let mut best = u8::MAX;
        for &s in &self.frames {
            let c = conjugate(syms, p, s);
            let h = self.tables.iter().map(|t| t.value(&c)).max().unwrap_or(0);
            best = best.min(h);
        }
        best
    }

    fn needs_inverse(&self) -> bool {
        false
    }

    /// The least over the orientations of exact distances is the exact distance to their
    /// union, so any orientation keeps it exact.
    fn exact(&self) -> bool {
        self.exact
    }

    fn prefetches(&self) -> bool {
        self.frames.len() == 1 && self.tables.len() <= Token::default().len()
    }

    #[inline]
    fn prefetch(&self, p: &Cube) -> Token {
        let mut token = Token::default();
        // One orientation and at most four tables: the indices are kept (else `bound` reads).
        if self.frames.len() == 1 && self.tables.len() <= token.len() {
            for (i, t) in self.tables.iter().enumerate() {
                token[i] = t.prefetch(p);
            }
        }
        token
    }

    #[inline]
    fn bound_prefetched(&self, p: &Cube, q: &Cube, token: &Token) -> u8 {
        if self.frames.len() == 1 && self.tables.len() <= token.len() {
            (self.tables.iter().zip(token))
                .map(|(t, &i)| t.at(i))
                .max()
                .unwrap_or(0)
        } else {
            self.bound(p, q)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Goal, Rng};
    use crate::search::ALL_SOLUTIONS;

    /// The same target with the walk turned off: the search's iterations read it.
    struct Searched<'a>(&'a GoalSolver);

    impl Target for Searched<'_> {
        fn reached(&self, p: &Cube) -> bool {
            self.0.reached(p)
        }
        fn bound(&self, p: &Cube, q: &Cube) -> u8 {
            self.0.bound(p, q)
        }
        fn needs_inverse(&self) -> bool {
            false
        }
    }

    /// For goals whose one table is the goal itself, the walk down the table lists the same
    /// optimal solutions, in the same order, as the iterations of the search with the same
    /// bound: the first one, and all of them; in both metrics, and in any orientation.
    #[test]
    fn the_walk_lists_what_the_search_lists() {
        let dir = std::env::temp_dir().join(format!("optcube-walk-{}", std::process::id()));
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(2026);
        for (name, metric, any) in [
            ("cross", Metric::Htm, false),
            ("cross", Metric::Qtm, false),
            ("eo", Metric::Htm, true),
            ("2x2x2", Metric::Htm, false),
        ] {
            let check = GoalCheck {
                goal: Goal::named(name).unwrap(),
                any_orientation: any,
            };
            let solver =
                GoalSolver::open(check, metric, "--goal", &dir, ProgressMode::Hidden).unwrap();
            assert!(solver.exact(), "{name}: one table, the goal's own");
            for _ in 0..6 {
                let cube = Cube::random(&mut rng);
                for solutions in [1, ALL_SOLUTIONS] {
                    let opts = SearchOptions {
                        metric,
                        solutions,
                        ..SearchOptions::default()
                    };
                    let set = &MoveSet::ALL;
                    let walked =
                        subset::solve_toward(&solver, &cube, set, &opts, &stop, &mut |_| {});
                    let searched = subset::solve_toward(
                        &Searched(&solver),
                        &cube,
                        set,
                        &opts,
                        &stop,
                        &mut |_| {},
                    );
                    assert!(walked.optimal && searched.optimal);
                    assert!(!walked.solutions.is_empty());
                    assert_eq!(walked.lower_bound, searched.lower_bound, "{name} {metric}");
                    assert_eq!(walked.solutions, searched.solutions, "{name} {metric}");
                    assert_eq!(walked.iterations.len(), 1, "no iterations but the walk");
                }
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
