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
use crate::search::SearchOptions;
use crate::search::subset::{self, MoveSet, Target, Token};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A goal with its tables, ready to solve positions.
pub struct GoalSolver {
    check: GoalCheck,
    frames: Vec<usize>,
    tables: Vec<GoalTable>,
    metric: Metric,
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
        Ok(GoalSolver {
            frames: check.frames(),
            check,
            tables,
            metric,
        })
    }

    /// The tables read, for the banner.
    pub fn tables(&self) -> &[GoalTable] {
        &self.tables
    }

    pub fn check(&self) -> &GoalCheck {
        &self.check
    }

    /// Bytes of tables held.
    pub fn table_bytes(&self) -> usize {
        self.tables.iter().map(GoalTable::bytes).sum()
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
        assert_eq!(opts.metric, self.metric, "the tables' metric");
        self.check.precondition(cube)?;
        let result = subset::solve_toward(self, cube, set, opts, stop, &mut |_| {});
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
