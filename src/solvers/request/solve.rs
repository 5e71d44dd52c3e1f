//! [`SolveJob`]: a solve of positions as one request. [`SolveJob::check`] checks what goes
//! together and parses the goal, the move set and the target ([`Admitted`]);
//! [`Admitted::admit`] turns the positions toward the target and checks each against the goal
//! and the move set; [`SolveJob::optimal_config`] resolves the table set (with the reason it
//! was chosen), the threads and the search options. The command line (`solve`, and `serve`
//! through it) and Python build a job and read these, so each rule is written once.

use super::{Opt, Refusal};
use crate::coord::goal::GoalCheck;
use crate::cube::{Cube, Goal, Metric, parse_position};
use crate::pdb::set::SetError;
use crate::search::SearchOptions;
use crate::search::subset::MoveSet;
use crate::solvers::optimal::OptimalConfig;
use std::path::Path;

/// Which solver answers (the command line's `--solver` values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverKind {
    /// Korf's IDA*: optimal, proven.
    #[default]
    Optimal,
    /// Kociemba's two-phase solver: short, not proven optimal.
    Twophase,
    /// Thistlethwaite's four phases.
    Thistlethwaite,
}

/// How many optimal solutions are asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solutions {
    /// The first found.
    #[default]
    One,
    /// The first N in the search's order of work units (the same on any number of threads).
    First(u64),
    /// Every optimal solution, listed.
    All,
    /// Every optimal solution, counted.
    Count,
}

impl Solutions {
    /// [`SearchOptions::solutions`] for this request.
    pub fn asked(self) -> usize {
        match self {
            Solutions::One => 1,
            Solutions::First(n) => usize::try_from(n).unwrap_or(usize::MAX),
            Solutions::All | Solutions::Count => crate::search::ALL_SOLUTIONS,
        }
    }

    /// Every solution is searched for.
    pub fn every(self) -> bool {
        matches!(self, Solutions::All | Solutions::Count)
    }
}

/// The optimal search's switches that change its speed or memory, not its answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuning {
    pub dual: bool,
    pub sym: bool,
    pub successors: bool,
    pub switch_sides: bool,
    pub symmetric_units: bool,
    pub node_order: bool,
    pub split_depth: u8,
    pub fallback_slack: u8,
}

impl Default for Tuning {
    /// The search's own defaults ([`SearchOptions::default`]) and the corner successor table.
    fn default() -> Tuning {
        let d = SearchOptions::default();
        Tuning {
            dual: d.dual,
            sym: false,
            successors: true,
            switch_sides: d.switch_sides,
            symmetric_units: d.symmetric_units,
            node_order: d.node_order,
            split_depth: d.split_depth,
            fallback_slack: d.fallback_slack,
        }
    }
}

/// A solve of positions, as a front asks it. `Default`: the optimal solver, half turns, the
/// metric's diameter as depth limit, one solution, the set chosen for the table directory,
/// every core.
#[derive(Clone, Debug, Default)]
pub struct SolveJob {
    pub solver: SolverKind,
    pub metric: Metric,
    /// The depth limit of the optimal search (default: the metric's diameter).
    pub max_depth: Option<u8>,
    /// A lower bound known by other means, trusted (the iterations below it are not run).
    pub known_lower_bound: Option<u8>,
    pub solutions: Solutions,
    /// Group the solutions into classes under the position's symmetries.
    pub unique: bool,
    /// Only these turns (`"R U"`, `"U D R L F2 B2"`).
    pub moveset: Option<String>,
    /// A named goal instead of solved.
    pub goal: Option<String>,
    /// A facelet mask as the goal.
    pub mask: Option<String>,
    /// The goal in any whole-cube orientation.
    pub any_orientation: bool,
    /// A position to reach instead of solved.
    pub target: Option<String>,
    /// The node-count model next to the measured counts.
    pub predict: bool,
    /// Seconds: the two-phase solver's limit a position, or a search's.
    pub timeout: Option<f64>,
    /// The two-phase solver's length to stop at.
    pub max_length: Option<usize>,
    /// Default: every core.
    pub threads: Option<usize>,
    /// The table set (names joined by commas); default: [`crate::pdb::set::choose`]'s.
    pub set: Option<String>,
    pub tuning: Tuning,
}

/// A goal asked for: what it checks, and how the request named it (`--goal cross`, `--mask
/// ...`) for the advice on a table that must be built.
#[derive(Clone, Debug)]
pub struct AskedGoal {
    pub check: GoalCheck,
    pub origin: String,
}

/// A job that passed [`SolveJob::check`]: its parts parsed.
#[derive(Clone, Debug)]
pub struct Admitted {
    pub goal: Option<AskedGoal>,
    /// `None`: every turn.
    pub moveset: Option<MoveSet>,
    /// The target's inverse: each position `P` is solved as `T⁻¹ P`.
    target_inverse: Option<Cube>,
    /// The thread count, checked.
    pub threads: usize,
}

/// The optimal solver's table set, as `--json` reports it: its name, and why it was chosen when
/// the request did not name it.
#[derive(Clone, Debug)]
pub struct SetLabel {
    pub name: String,
    pub reason: Option<String>,
}

impl SolveJob {
    /// The depth limit: the one asked, or the metric's diameter.
    pub fn max_depth(&self) -> u8 {
        self.max_depth.unwrap_or(self.metric.diameter())
    }

    /// Every check that needs no table and no position: the options that go together, the
    /// goal, the move set, the target, the time limit and the thread count.
    pub fn check(&self) -> Result<Admitted, Refusal> {
        let goal_given = self.goal.is_some() || self.mask.is_some();
        if self.solver != SolverKind::Optimal {
            let optimal_only = [
                (self.predict, Opt::Predict),
                (self.solutions == Solutions::All, Opt::All),
                (
                    matches!(self.solutions, Solutions::First(_)),
                    Opt::Solutions,
                ),
                (self.solutions == Solutions::Count, Opt::Count),
                (self.moveset.is_some(), Opt::Moveset),
                (self.unique, Opt::Unique),
                (self.goal.is_some(), Opt::Goal),
                (self.mask.is_some(), Opt::Mask),
                (self.target.is_some(), Opt::Target),
            ];
            if let Some((_, o)) = optimal_only.iter().find(|(given, _)| *given) {
                return Err(Refusal::OptimalOnly(*o));
            }
            if !self.metric.is_htm() && self.solver == SolverKind::Thistlethwaite {
                return Err(Refusal::HalfTurnsOnly(self.metric));
            }
        }
        if self.known_lower_bound.is_some()
            && (self.solver != SolverKind::Optimal
                || self.moveset.is_some()
                || goal_given
                || self.target.is_some())
        {
            return Err(Refusal::KnownBoundNotHere);
        }
        // The slice-turn and axial metrics: the optimal solver's distance to solved only.
        let face_turn_only = [
            (self.solver == SolverKind::Twophase, "the two-phase solver"),
            (
                self.solver == SolverKind::Thistlethwaite,
                "the Thistlethwaite solver",
            ),
            (
                goal_given || self.target.is_some(),
                crate::solvers::goal::GOALS,
            ),
        ];
        for (_, what) in face_turn_only.iter().filter(|(given, _)| *given) {
            self.metric.face_turns_only(what)?;
        }
        if self.predict && !self.metric.is_htm() {
            return Err(Refusal::PredictHalfTurnsOnly(self.metric));
        }
        if self.unique && !self.solutions.every() {
            return Err(Refusal::UniqueNeedsEvery);
        }
        if let Some(k) = self.known_lower_bound
            && let Some(why) = self.search_options(1).known_bound_problem()
        {
            return Err(Refusal::KnownBound { bound: k, why });
        }
        if let Some(t) = self.timeout.filter(|t| t.is_nan() || *t <= 0.0) {
            return Err(Refusal::Timeout(t));
        }
        let goal = self.goal()?;
        let moveset = (self.moveset.as_deref()).map(MoveSet::parse).transpose()?;
        let target_inverse = match &self.target {
            Some(t) => Some(
                parse_position(t)
                    .map_err(|e| Refusal::Target(e.to_string()))?
                    .inverse(),
            ),
            None => None,
        };
        let threads = crate::sys::threads(self.threads).map_err(Refusal::Threads)?;
        Ok(Admitted {
            goal,
            moveset,
            target_inverse,
            threads,
        })
    }

    /// The goal asked for, parsed.
    fn goal(&self) -> Result<Option<AskedGoal>, Refusal> {
        let (goal, origin) = match (&self.goal, &self.mask) {
            (Some(_), Some(_)) => return Err(Refusal::OneGoal),
            (Some(name), None) => (
                Goal::named(name.trim()).map_err(|e| e.to_string())?,
                format!("--goal {}", name.trim()),
            ),
            (None, Some(mask)) => (
                Goal::from_mask(mask).map_err(|e| Refusal::Mask(e.to_string()))?,
                format!("--mask {}", mask.trim()),
            ),
            (None, None) if self.any_orientation => {
                return Err(Refusal::AnyOrientationNeedsGoal);
            }
            (None, None) => return Ok(None),
        };
        let check = GoalCheck {
            goal,
            any_orientation: self.any_orientation,
        };
        Ok(Some(AskedGoal { check, origin }))
    }

    /// The optimal search's options: metric, threads, depth limit, solutions, the known lower
    /// bound and the tuning.
    pub fn search_options(&self, threads: usize) -> SearchOptions {
        let t = &self.tuning;
        SearchOptions {
            metric: self.metric,
            threads,
            max_depth: self.max_depth(),
            dual: t.dual,
            switch_sides: t.switch_sides,
            symmetric_units: t.symmetric_units,
            node_order: t.node_order,
            split_depth: t.split_depth,
            fallback_slack: t.fallback_slack,
            solutions: self.solutions.asked(),
            known_lower_bound: self.known_lower_bound.unwrap_or(0),
            ..SearchOptions::default()
        }
    }

    /// The options of a search toward a goal or within a move set: the metric, the depth
    /// limit, the solutions and the dual lookup (the goal's tables take no other switch).
    pub fn subset_options(&self) -> SearchOptions {
        SearchOptions {
            metric: self.metric,
            max_depth: self.max_depth(),
            dual: self.tuning.dual,
            solutions: self.solutions.asked(),
            ..SearchOptions::default()
        }
    }

    /// The table set's names (trimmed: they name studies and output files) and why it was
    /// chosen: the one asked, else [`crate::pdb::set::choose`]'s for `dir` and this machine.
    pub fn table_set(&self, dir: &Path) -> (Vec<String>, Option<String>) {
        crate::pdb::set::asked_or_chosen(self.set.as_deref(), dir)
    }

    /// The optimal solver's configuration with `threads` threads and the tables of `dir`, and
    /// its set's label.
    pub fn optimal_config(
        &self,
        dir: &Path,
        threads: usize,
    ) -> Result<(OptimalConfig, SetLabel), SetError> {
        let (names, reason) = self.table_set(dir);
        let patterns = crate::pdb::set::resolve_names(&names)?;
        let config = OptimalConfig {
            patterns,
            sym: self.tuning.sym,
            successors: self.tuning.successors,
            search: self.search_options(threads),
        };
        let name = names.join(",");
        Ok((config, SetLabel { name, reason }))
    }
}

impl Admitted {
    /// Turns every input toward the target (solved as `T⁻¹ P`, whose solutions are exactly
    /// the sequences that take `P` to `T`) and checks it: the goal's precondition, and whether
    /// the move set reaches the goal (or solved) from it. Each failing input is named by its
    /// place (`places`: `FILE:LINE` for a file, else the input), all of them, one a line.
    pub fn admit(&self, inputs: &mut [(String, Cube)], places: &[String]) -> Result<(), Refusal> {
        if let Some(inv) = &self.target_inverse {
            for (_, cube) in inputs.iter_mut() {
                *cube = inv.compose(cube);
            }
        }
        let listed = |why: &dyn Fn(&Cube) -> Option<String>| {
            let failing: Vec<String> = (inputs.iter().zip(places))
                .filter_map(|((_, cube), at)| Some(format!("{at}: {}", why(cube)?)))
                .collect();
            match failing.is_empty() {
                true => Ok(()),
                false => Err(Refusal::Said(failing.join("\n"))),
            }
        };
        let set = self.moveset.unwrap_or(MoveSet::ALL);
        match &self.goal {
            Some(g) => {
                listed(&|cube| g.check.precondition(cube).err())?;
                // What the set cannot reach is refused too, before any table is opened (a
                // search would run to its depth limit).
                listed(&|cube| crate::solvers::moveset::goal_refusal(&set, &g.check, cube))
            }
            None if self.moveset.is_some() => {
                listed(&|cube| crate::solvers::moveset::refusal(&set, cube))
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::request::Front;

    fn refusal(job: SolveJob) -> String {
        job.check().expect_err("refused").message(Front::Cli)
    }

    /// Each rule refuses what it is for and lets the same request through without the one
    /// option that breaks it.
    #[test]
    fn each_rule_refuses_its_request_and_no_other() {
        let twophase = SolveJob {
            solver: SolverKind::Twophase,
            ..SolveJob::default()
        };
        let goal = || SolveJob {
            goal: Some("cross".into()),
            ..SolveJob::default()
        };
        let cases: Vec<(SolveJob, SolveJob, &str)> = vec![
            (
                SolveJob {
                    solutions: Solutions::All,
                    ..twophase.clone()
                },
                twophase.clone(),
                "--all applies to the optimal solver only",
            ),
            (
                SolveJob {
                    known_lower_bound: Some(3),
                    ..goal()
                },
                goal(),
                "--known-lower-bound is for the optimal solver's distance to solved",
            ),
            (
                SolveJob {
                    known_lower_bound: Some(21),
                    ..SolveJob::default()
                },
                SolveJob {
                    known_lower_bound: Some(20),
                    ..SolveJob::default()
                },
                "--known-lower-bound 21: 21 moves is more than the diameter",
            ),
            (
                SolveJob {
                    unique: true,
                    ..SolveJob::default()
                },
                SolveJob {
                    unique: true,
                    solutions: Solutions::Count,
                    ..SolveJob::default()
                },
                "--unique needs every optimal solution",
            ),
            (
                SolveJob {
                    metric: Metric::Stm,
                    ..twophase.clone()
                },
                SolveJob {
                    metric: Metric::Qtm,
                    ..twophase.clone()
                },
                "the two-phase solver counts face turns (htm or qtm), not stm",
            ),
            (
                SolveJob {
                    timeout: Some(0.0),
                    ..twophase.clone()
                },
                SolveJob {
                    timeout: Some(0.5),
                    ..twophase.clone()
                },
                "--timeout must be a positive number of seconds, not 0",
            ),
            (
                SolveJob {
                    any_orientation: true,
                    ..SolveJob::default()
                },
                SolveJob {
                    any_orientation: true,
                    ..goal()
                },
                "--any-orientation needs a goal",
            ),
            (
                SolveJob {
                    threads: Some(0),
                    ..SolveJob::default()
                },
                SolveJob {
                    threads: Some(1),
                    ..SolveJob::default()
                },
                "--threads: at least 1 thread is needed",
            ),
            (
                SolveJob {
                    target: Some("R Q".into()),
                    ..SolveJob::default()
                },
                SolveJob {
                    target: Some("R U".into()),
                    ..SolveJob::default()
                },
                "bad --target position:",
            ),
        ];
        for (bad, good, words) in cases {
            let said = refusal(bad);
            assert!(said.starts_with(words), "{said:?} for {words:?}");
            good.check().unwrap_or_else(|e| panic!("{words}: {e:?}"));
        }
    }

    /// Admitting turns positions toward the target and names every input the move set cannot
    /// solve by its place.
    #[test]
    fn admitting_retargets_and_names_each_refused_input() {
        let job = SolveJob {
            target: Some("R U".into()),
            ..SolveJob::default()
        };
        let ok = job.check().unwrap();
        let p = Cube::from_moves(&crate::cube::parse_moves("R U F").unwrap());
        let mut inputs = vec![("R U F".to_string(), p)];
        ok.admit(&mut inputs, &["R U F".into()]).unwrap();
        let expected = Cube::from_moves(&crate::cube::parse_moves("F").unwrap());
        assert_eq!(inputs[0].1, expected, "(R U)⁻¹ · R U F = F");
        let job = SolveJob {
            moveset: Some("R U".into()),
            ..SolveJob::default()
        };
        let ok = job.check().unwrap();
        let f = Cube::from_moves(&crate::cube::parse_moves("F").unwrap());
        let r = Cube::from_moves(&crate::cube::parse_moves("R").unwrap());
        let mut inputs = vec![("F".into(), f), ("R".into(), r), ("F".into(), f)];
        let places = ["a:1".to_string(), "a:2".into(), "a:3".into()];
        let said = ok
            .admit(&mut inputs, &places)
            .unwrap_err()
            .message(Front::Cli);
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(lines.len(), 2, "{said}");
        assert!(
            lines[0].starts_with("a:1: ") && lines[1].starts_with("a:3: "),
            "{said}"
        );
    }
}
