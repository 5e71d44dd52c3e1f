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
//!
//! A move set that cannot reach the goal from a position (a piece the goal fixes sits where no
//! turn of the set moves it) is refused, not searched to the depth limit: by the move-set
//! solver's refusal ([`moveset::goal_refusal`]), the one plain `--moveset` solves use.

use super::moveset;
use super::outcome::Outcome;
use crate::coord::goal::{GoalCheck, conjugate, frame_groups};
use crate::coord::symmetry::symmetries;
use crate::cube::Goal;
use crate::cube::{Cube, Metric};
use crate::pdb::batch::{BATCH, Members};
use crate::pdb::file::TableError;
use crate::pdb::goal::{self, GoalTable};
use crate::progress::ProgressMode;
use crate::search::heuristic::Reads;
use crate::search::subset::{self, Children, MoveSet, Target};
use crate::search::{SearchOptions, SearchResult};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// What goals are called where a metric that does not search them is refused
/// ([`Metric::face_turns_only`]): the CLI and Python say the same words.
pub const GOALS: &str = "goals, masks and targets";

/// A goal with its tables, ready to solve positions.
pub struct GoalSolver {
    check: GoalCheck,
    /// The rotations whose conjugates' tables bound the distance, grouped as they hold the
    /// goal ([`GoalCheck::frame_groups`]), each with the tables it reads; the bound is the
    /// least over groups of the largest value in a group ([`reads`]). A position has arrived
    /// when its conjugate by a group's first rotation meets the goal.
    groups: Vec<Vec<RotationReads>>,
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
        let exact = parts == [check.goal.clone()];
        let groups = reads(&check.frame_groups(), &parts);
        Ok(GoalSolver {
            exact,
            groups,
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
    /// the tables' metric). An error says the precondition does not hold, or that the set
    /// cannot reach the goal ([`moveset::goal_refusal`]: a search would only run to its depth
    /// limit). The outcome carries the goal, so that its check ([`Outcome::check`]) tests each
    /// solution against it.
    pub fn solve(
        &self,
        input: &str,
        cube: &Cube,
        set: &MoveSet,
        opts: &SearchOptions,
        stop: &AtomicBool,
    ) -> Result<Outcome, String> {
        self.check.precondition(cube)?;
        if let Some(why) = moveset::goal_refusal(set, &self.check, cube) {
            return Err(why);
        }
        let result = self.search(cube, set, opts, stop);
        let mut o = Outcome::from_search(input, result, None, opts.solutions);
        o.goal = Some(self.check.clone());
        if *set != MoveSet::ALL {
            o = o.in_moveset(set)?;
        }
        Ok(o)
    }

    /// The bound of `p`: the least over groups of the largest lookup in a group. With a
    /// `limit`, a group stops reading once its largest exceeds it (that is a lower bound of the
    /// group's above the limit), and the whole once a group's largest is within it (the search
    /// only needs to know that). `first`: the values of the only group's first rotation,
    /// already read.
    #[inline]
    fn bound_above(&self, p: &Cube, first: Option<u8>, limit: Option<u8>) -> u8 {
        let cap = limit.unwrap_or(u8::MAX);
        let syms = symmetries();
        let mut best = u8::MAX;
        for group in &self.groups {
            let mut h = 0;
            for (j, frame) in group.iter().enumerate() {
                h = match first {
                    Some(v) if j == 0 => v,
                    _ => {
                        let c = conjugate(syms, p, frame.rotation);
                        (frame.tables.iter()).fold(h, |h, &t| h.max(self.tables[t].value(&c)))
                    }
                }
                .max(h);
                if h > cap {
                    break;
                }
            }
            best = best.min(h);
            if limit.is_some_and(|l| best <= l) {
                break;
            }
        }
        best
    }
}

impl Target for GoalSolver {
    #[inline]
    fn reached(&self, p: &Cube) -> bool {
        let syms = symmetries();
        (self.groups.iter()).any(|g| self.check.goal.holds(&conjugate(syms, p, g[0].rotation)))
    }

    #[inline]
    fn bound(&self, p: &Cube, _q: &Cube) -> u8 {
        self.bound_above(p, None, None)
    }

    fn needs_inverse(&self) -> bool {
        false
    }

    /// The least over the orientations of exact distances is the exact distance to their
    /// union, so any orientation keeps it exact.
    fn exact(&self) -> bool {
        self.exact
    }

    /// With one group of rotations (the goal held one way), the first rotation's tables:
    /// every child's loads started before any is read.
    #[inline]
    fn first_round(&self, c: &Children, members: u32, _: &mut Reads, out: &mut [u8; BATCH]) {
        let ps = c.ps;
        if !self.reads_first() {
            return;
        }
        let mut idx = [[0u64; MAX_PREFETCHED]; BATCH];
        let rotation = self.groups[0][0].rotation;
        for k in Members(members) {
            let c = conjugate(symmetries(), &ps[k], rotation);
            for (i, t) in self.tables.iter().enumerate() {
                idx[k][i] = t.prefetch(&c);
            }
        }
        for k in Members(members) {
            let read = (self.tables.iter().zip(&idx[k])).map(|(t, &i)| t.at(i));
            out[k] = read.max().unwrap_or(0);
        }
    }

    /// The rest of the bound, from the first round's value: stops once it exceeds the limit.
    #[inline]
    fn second_round(
        &self,
        c: &Children,
        members: u32,
        limits: &[u8; BATCH],
        _reads: &mut Reads,
        out: &mut [u8; BATCH],
    ) {
        let ps = c.ps;
        let first_read = self.reads_first();
        for k in Members(members) {
            out[k] = if first_read {
                self.bound_above(&ps[k], Some(out[k]), Some(limits[k]))
            } else {
                self.bound(&ps[k], &ps[k])
            };
        }
    }
}

/// The most tables whose entries [`GoalSolver`]'s first round loads.
const MAX_PREFETCHED: usize = 4;

impl GoalSolver {
    /// Does the first round read the first rotation's tables? With one group of rotations
    /// and at most [`MAX_PREFETCHED`] tables; else both rounds are left to the second.
    fn reads_first(&self) -> bool {
        self.groups.len() == 1 && self.tables.len() <= MAX_PREFETCHED
    }
}

/// A rotation whose conjugate is looked up, and the tables (indices) it reads there.
#[derive(Clone, Debug, PartialEq)]
struct RotationReads {
    rotation: usize,
    tables: Vec<usize>,
}

/// The lookups of each group of rotations: in a group every rotation accepts the same
/// positions, so each table read on each rotation's conjugate is a lower bound on the distance
/// to them, and the largest is too. A table (exact for its relaxation `R`) reads the same on
/// two rotations that hold `R` the same way ([`frame_groups`] of `R`), so each rotation reads
/// only the tables whose relaxation no earlier rotation of its group already held that way:
/// the first reads all, and a rotation left with none is dropped. (For `f2l`, the turns about
/// the U/D axis keep the goal and move each of its two relaxations: four rotations, each
/// reading both; for a goal with only its own table, one rotation a group.)
fn reads(groups: &[Vec<usize>], parts: &[Goal]) -> Vec<Vec<RotationReads>> {
    let held: Vec<Vec<Vec<usize>>> = parts.iter().map(frame_groups).collect();
    let same_way = |table: usize, a: usize, b: usize| {
        held[table].iter().any(|g| g.contains(&a) && g.contains(&b))
    };
    (groups.iter())
        .map(|group| {
            let mut frames: Vec<RotationReads> = Vec::new();
            for (j, &rotation) in group.iter().enumerate() {
                let tables: Vec<usize> = (0..parts.len())
                    .filter(|&t| !group[..j].iter().any(|&r| same_way(t, r, rotation)))
                    .collect();
                if !tables.is_empty() {
                    frames.push(RotationReads { rotation, tables });
                }
            }
            frames
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;
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

    /// Issue 104, traps 3 and 4 on the goal path. A one-way set in QTM (`F' U'`) is solved
    /// with its own turns at the least cost of the enumeration of its sequences toward the
    /// cross (`F2` is `F' F'`, `F` is `F' F' F'`), one and all solutions; and a cross the set
    /// cannot reach (`R U` after `F`: DF holds FR) is refused at once, not searched.
    #[test]
    fn move_sets_toward_a_goal_keep_to_the_set_or_refuse() {
        use crate::cube::{Move, format_moves, parse_moves};
        let dir = crate::testing::temp_dir("goal-moveset-104");
        let stop = AtomicBool::new(false);
        let check = GoalCheck {
            goal: Goal::named("cross").unwrap(),
            any_orientation: false,
        };
        let solver = GoalSolver::open(
            check.clone(),
            Metric::Qtm,
            "--goal",
            &dir,
            ProgressMode::Hidden,
        )
        .unwrap();
        let set = MoveSet::parse("F' U'").unwrap();
        let turns: Vec<Move> = set.moves().collect();
        // The least QTM cost of a sequence of the set's turns after which the cross holds.
        let least = |c: &Cube| {
            fn go(turns: &[Move], check: &GoalCheck, c: &Cube, left: u8) -> bool {
                (left == 0 && check.holds(c))
                    || (left > 0)
                        && (turns.iter()).any(|&m| {
                            let cost = Metric::Qtm.cost(m);
                            cost <= left && go(turns, check, &c.apply(m), left - cost)
                        })
            }
            (0..=9u8)
                .find(|&d| go(&turns, &check, c, d))
                .expect("within 9")
        };
        let cases = [("F", Some(1)), ("F'", Some(3)), ("F2", Some(2))];
        let more = [("F' U", None), ("F U' F", None), ("F2 U F", None)];
        for (position, qtm) in cases.into_iter().chain(more) {
            let cube = Cube::from_moves(&parse_moves(position).unwrap());
            let d = least(&cube);
            assert!(qtm.is_none_or(|q| q == d), "{position}: {d}");
            for solutions in [1, ALL_SOLUTIONS] {
                let opts = SearchOptions {
                    metric: Metric::Qtm,
                    solutions,
                    ..SearchOptions::default()
                };
                let o = solver.solve(position, &cube, &set, &opts, &stop).unwrap();
                assert!(o.check(&cube).is_ok(), "{position}");
                let found = &solver.search(&cube, &set, &opts, &stop).solutions;
                assert!(!found.is_empty(), "{position}");
                for s in found {
                    let shown = format_moves(s);
                    assert!(s.iter().all(|m| set.contains(*m)), "{position}: {shown}");
                    assert_eq!(Metric::Qtm.length(s), d as usize, "{position}: {shown}");
                }
            }
        }
        // Refused, in either metric, whatever the depth limit.
        let ru = MoveSet::parse("R U").unwrap();
        let f = Cube::from_moves(&parse_moves("F").unwrap());
        let opts = SearchOptions {
            metric: Metric::Qtm,
            max_depth: 6,
            ..SearchOptions::default()
        };
        let why = solver.solve("F", &f, &ru, &opts, &stop).unwrap_err();
        assert!(
            why.contains("cannot reach goal cross") && why.contains("DF"),
            "{why}"
        );
        std::fs::remove_dir_all(&dir).ok();
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

    /// A table reads the same on two rotations that hold its goal the same way (the cross
    /// table on the four turns about U/D), and differently on others: what lets [`reads`]
    /// drop lookups.
    #[test]
    fn rotations_that_hold_a_table_alike_read_alike() {
        let cross = Goal::named("cross").unwrap();
        let table = GoalTable::build(&cross, Metric::Htm, None);
        let groups = frame_groups(&cross);
        assert_eq!(groups.len(), 6);
        let syms = symmetries();
        let mut rng = Rng::new(9);
        let mut differ = 0;
        for _ in 0..300 {
            let c = Cube::random(&mut rng);
            for g in &groups {
                let v = table.value(&conjugate(syms, &c, g[0]));
                for &s in g {
                    assert_eq!(table.value(&conjugate(syms, &c, s)), v);
                }
            }
            differ += (table.value(&c) != table.value(&conjugate(syms, &c, groups[1][0]))) as u32;
        }
        assert!(differ > 100, "{differ}");
    }

    /// What each goal's bound reads: its own exact table once a group; for `f2l`, whose two
    /// relaxations the turns about U/D move, four rotations reading both; every group's first
    /// rotation reads every table.
    #[test]
    fn reads_drop_only_repeated_lookups() {
        for (name, any, groups, frames) in [
            ("cross", false, 1, 1),
            ("cross", true, 6, 1),
            ("f2l", false, 1, 4),
            ("f2l", true, 6, 4),
            ("2x2x3", false, 1, 2),
        ] {
            let check = GoalCheck {
                goal: Goal::named(name).unwrap(),
                any_orientation: any,
            };
            let parts = goal::plan(&check.goal);
            let r = reads(&check.frame_groups(), &parts);
            assert_eq!(r.len(), groups, "{name} {any}");
            for (group, rotations) in r.iter().zip(check.frame_groups()) {
                assert_eq!(group.len(), frames, "{name} {any}: {group:?}");
                assert_eq!(group[0].rotation, rotations[0]);
                assert_eq!(group[0].tables, (0..parts.len()).collect::<Vec<_>>());
                assert!(group.iter().all(|f| rotations.contains(&f.rotation)));
            }
        }
    }
}
