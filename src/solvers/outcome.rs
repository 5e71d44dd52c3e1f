//! One record of what a solver did with one position, shared by every front end (the CLI's
//! text and JSON lines, the Python module). The three solvers share the fields of [`Outcome`];
//! what only one of them reports (the optimal search's bounds and iterations, the two-phase
//! length limit, Thistlethwaite's phases) lives in [`Detail`]. [`Outcome::to_json`] is the one
//! place that names the JSON fields.

use crate::cube::{Cube, Metric, Move, format_moves};
use crate::search::{Iteration, SearchResult};

/// One solved (or unsolved) position.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The input as the user wrote it.
    pub input: String,
    /// The solution; front ends show it only after [`Outcome::check`].
    pub solution: Option<Vec<Move>>,
    pub nodes: u64,
    pub seconds: f64,
    /// The metric of the lengths ([`Outcome::length`], the bounds): the half-turn metric but
    /// for an optimal search asked for another.
    pub metric: Metric,
    pub detail: Detail,
    /// The goal the solutions reach, when it is not the solved cube (`solve --goal`).
    pub goal: Option<crate::coord::goal::GoalCheck>,
}

/// Several optimal solutions of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Collected {
    /// Canonical sequences, sorted (as [`SearchResult::solutions`]).
    pub solutions: Vec<Vec<Move>>,
    /// They are every optimal solution: all were asked for, or fewer exist than were asked.
    pub complete: bool,
    /// `Some(n)`: `solutions` holds one of each class under the position's own symmetries
    /// ([`crate::search::symmetry_classes`]) of the `n` optimal solutions.
    pub up_to_symmetry: Option<usize>,
}

impl Collected {
    /// Keeps one solution of each class under the position's symmetries (every optimal
    /// solution must be here); `Err` if the list is not complete.
    pub fn to_classes(&mut self, cube: &Cube) -> Result<(), String> {
        if !self.complete {
            return Err("classes need every optimal solution (--all or --count)".into());
        }
        let reps = crate::search::symmetry_classes(cube, &self.solutions)?;
        self.up_to_symmetry = Some(self.solutions.len());
        self.solutions = reps;
        Ok(())
    }

    /// The number of optimal solutions, when all were found.
    pub fn count(&self) -> Option<usize> {
        self.up_to_symmetry
            .or(self.complete.then_some(self.solutions.len()))
    }
}

/// What one solver alone reports.
#[derive(Clone, Debug)]
pub enum Detail {
    Optimal {
        /// Every shorter length was searched completely.
        optimal: bool,
        lower_bound: u8,
        /// The length of a two-phase solution found first, if one was asked for.
        upper_bound: Option<usize>,
        /// The seconds that two-phase solution took (before the search, outside its seconds).
        upper_bound_seconds: Option<f64>,
        interrupted: bool,
        iterations: Vec<Iteration>,
        /// The solution came from a witness (a two-phase solution of the lower bound's
        /// length, [`crate::search::witness`]): the last iteration was not needed.
        witnessed: bool,
        /// Seconds spent asking witnesses (within the outcome's seconds).
        witness_seconds: f64,
        /// The optimal solutions collected when more than one was asked for
        /// ([`crate::search::SearchOptions::solutions`]).
        collected: Option<Collected>,
        /// The move subset searched, as [`crate::search::subset::MoveSet`] prints it.
        moveset: Option<String>,
        /// A known lower bound was refuted ([`crate::search::SearchResult::known_bound_refuted`]):
        /// the search ignored it.
        known_bound_refuted: bool,
    },
    Twophase {
        /// A solution of at most the asked length was found in time.
        within_max_length: bool,
    },
    Thistlethwaite {
        /// Each phase's solution before moves were merged across phase boundaries.
        phases: Vec<Vec<Move>>,
    },
}

impl Outcome {
    /// The optimal solver's outcome from its search result; `asked`: the solutions the search
    /// was asked for ([`crate::search::SearchOptions::solutions`]).
    pub fn from_search(
        input: &str,
        r: SearchResult,
        upper_bound: Option<(usize, f64)>,
        asked: usize,
    ) -> Outcome {
        let collected = (asked > 1 && r.optimal).then_some(Collected {
            complete: asked == crate::search::ALL_SOLUTIONS || r.solutions.len() < asked,
            solutions: r.solutions,
            up_to_symmetry: None,
        });
        Outcome {
            input: input.to_string(),
            goal: None,
            solution: r.solution,
            nodes: r.nodes,
            seconds: r.seconds,
            metric: r.metric,
            detail: Detail::Optimal {
                optimal: r.optimal,
                lower_bound: r.lower_bound,
                upper_bound: upper_bound.map(|u| u.0),
                upper_bound_seconds: upper_bound.map(|u| u.1),
                interrupted: r.interrupted,
                witnessed: r.witnessed,
                witness_seconds: r.witness_seconds,
                iterations: r.iterations,
                collected,
                moveset: None,
                known_bound_refuted: r.known_bound_refuted,
            },
        }
    }

    /// The two-phase solver's outcome: `max_length` is the length it was asked to reach.
    pub fn from_twophase(
        input: &str,
        r: crate::solvers::twophase::TwoPhaseResult,
        metric: Metric,
        max_length: usize,
        seconds: f64,
    ) -> Outcome {
        let within_max_length =
            (r.solution.as_ref()).is_some_and(|s| metric.length(s) <= max_length);
        Outcome {
            input: input.to_string(),
            goal: None,
            solution: r.solution,
            nodes: r.nodes,
            seconds,
            metric,
            detail: Detail::Twophase { within_max_length },
        }
    }

    /// The Thistlethwaite solver's outcome, with each phase's moves before merging.
    pub fn from_thistlethwaite(
        input: &str,
        s: crate::solvers::thistlethwaite::ThistleSolution,
        seconds: f64,
    ) -> Outcome {
        Outcome {
            input: input.to_string(),
            goal: None,
            nodes: 0,
            seconds,
            metric: Metric::Htm,
            detail: Detail::Thistlethwaite {
                phases: (0..s.phase_lengths.len())
                    .map(|k| s.phase(k).to_vec())
                    .collect(),
            },
            solution: Some(s.moves),
        }
    }

    /// The solution's length in the outcome's metric.
    pub fn length(&self) -> Option<usize> {
        self.solution.as_ref().map(|s| self.metric.length(s))
    }

    /// The solver's name (the `solver` field of the JSON).
    pub fn solver(&self) -> &'static str {
        match self.detail {
            Detail::Optimal { .. } => "optimal",
            Detail::Twophase { .. } => "twophase",
            Detail::Thistlethwaite { .. } => "thistlethwaite",
        }
    }

    /// The solver's name in messages.
    pub fn solver_title(&self) -> &'static str {
        match self.detail {
            Detail::Optimal { .. } => "optimal",
            Detail::Twophase { .. } => "two-phase",
            Detail::Thistlethwaite { .. } => "Thistlethwaite",
        }
    }

    /// The solution is proved optimal.
    pub fn is_optimal(&self) -> bool {
        matches!(self.detail, Detail::Optimal { optimal: true, .. })
    }

    /// A known lower bound given to the search was refuted by a shorter solution.
    pub fn known_bound_refuted(&self) -> bool {
        matches!(
            self.detail,
            Detail::Optimal {
                known_bound_refuted: true,
                ..
            }
        )
    }

    /// The search was stopped from outside.
    pub fn interrupted(&self) -> bool {
        matches!(
            self.detail,
            Detail::Optimal {
                interrupted: true,
                ..
            }
        )
    }

    /// Nodes per second, or `None` when the time is too short to measure (a position already
    /// solved, or a few nodes under a microsecond): no rate is better than a made-up one.
    pub fn rate(&self) -> Option<f64> {
        (self.seconds >= 1e-6).then(|| self.nodes as f64 / self.seconds)
    }

    /// Iteration `k` of an optimal search stopped at its first solution (the last iteration of
    /// a solved search).
    pub fn stopped_at_solution(&self, k: usize) -> bool {
        match &self.detail {
            Detail::Optimal {
                iterations,
                witnessed,
                ..
            } => self.solution.is_some() && !witnessed && k + 1 == iterations.len(),
            _ => false,
        }
    }

    /// The outcome of a search in the move subset `set`; an error (internal) if a solution
    /// uses a turn outside it.
    pub fn in_moveset(mut self, set: &crate::search::subset::MoveSet) -> Result<Outcome, String> {
        let collected = self.collected().map_or(&[][..], |c| &c.solutions[..]);
        if let Some(s) =
            (self.solution.iter().chain(collected)).find(|s| s.iter().any(|m| !set.contains(*m)))
        {
            return Err(format!(
                "internal error: the solution {} for {} leaves the move set {set}",
                format_moves(s),
                self.input
            ));
        }
        if let Detail::Optimal { moveset, .. } = &mut self.detail {
            *moveset = Some(set.to_string());
        }
        Ok(self)
    }

    /// The collected solutions, to change (see [`Collected::to_classes`]).
    pub fn collected_mut(&mut self) -> Option<&mut Collected> {
        match &mut self.detail {
            Detail::Optimal { collected, .. } => collected.as_mut(),
            _ => None,
        }
    }

    /// The optimal solutions collected, if more than one was asked for.
    pub fn collected(&self) -> Option<&Collected> {
        match &self.detail {
            Detail::Optimal { collected, .. } => collected.as_ref(),
            _ => None,
        }
    }

    /// Checks the solution on the position, and every collected one: each must solve it, or,
    /// with a goal, reach the goal. The error names the solver and the input.
    pub fn check(&self, cube: &Cube) -> Result<(), String> {
        let collected = self.collected().map_or(&[][..], |c| &c.solutions[..]);
        let arrives = |s: &Vec<Move>| match &self.goal {
            Some(g) => g.holds(&cube.apply_seq(s)),
            None => super::solves(cube, s),
        };
        if (self.solution.iter().chain(collected)).all(arrives) {
            return Ok(());
        }
        Err(format!(
            "internal error: {} solution for {} does not {}",
            self.solver_title(),
            self.input,
            match &self.goal {
                Some(g) => format!("reach the goal {}", g.goal.name()),
                None => "solve it".into(),
            }
        ))
    }

    /// The outcome as one JSON object: `input, solver, solution, length, metric, optimal, nodes,
    /// seconds`, plus `lower_bound, upper_bound, upper_bound_seconds, nodes_per_second,
    /// interrupted, witnessed,
    /// witness_seconds, iterations`
    /// (optimal; with several solutions asked for, `solutions`, and `optimal_solutions`, their
    /// number, once they are all; with classes, `symmetry_classes`), `within_max_length` (two-phase) or `phase_lengths`
    /// (Thistlethwaite).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "input": self.input,
            "solver": self.solver(),
            "solution": self.solution.as_ref().map(|s| format_moves(s)),
            "length": self.length(),
            "metric": self.metric.name(),
            "optimal": self.is_optimal(),
            "nodes": self.nodes,
            "seconds": self.seconds,
        });
        if let Some(g) = &self.goal {
            v["goal"] = serde_json::json!(g.goal.name());
            v["goal_key"] = serde_json::json!(g.goal.key());
            v["any_orientation"] = serde_json::json!(g.any_orientation);
        }
        match &self.detail {
            Detail::Optimal {
                lower_bound,
                upper_bound,
                upper_bound_seconds,
                interrupted,
                iterations,
                collected,
                moveset,
                witnessed,
                witness_seconds,
                known_bound_refuted,
                ..
            } => {
                if *known_bound_refuted {
                    v["known_lower_bound_refuted"] = serde_json::json!(true);
                }
                if let Some(m) = moveset {
                    v["moveset"] = serde_json::json!(m);
                }
                if let Some(c) = collected {
                    v["solutions"] = c.solutions.iter().map(|s| format_moves(s)).collect();
                    if let Some(n) = c.count() {
                        v["optimal_solutions"] = serde_json::json!(n);
                    }
                    if c.up_to_symmetry.is_some() {
                        v["symmetry_classes"] = serde_json::json!(c.solutions.len());
                    }
                }
                v["lower_bound"] = serde_json::json!(lower_bound);
                v["upper_bound"] = serde_json::json!(upper_bound);
                v["upper_bound_seconds"] = serde_json::json!(upper_bound_seconds);
                v["nodes_per_second"] = serde_json::json!(self.rate().map(f64::round));
                v["interrupted"] = serde_json::json!(interrupted);
                v["witnessed"] = serde_json::json!(witnessed);
                v["witness_seconds"] = serde_json::json!(witness_seconds);
                v["iterations"] = iterations
                    .iter()
                    .map(|i| {
                        serde_json::json!({
                            "bound": i.bound, "nodes": i.nodes, "seconds": i.seconds})
                    })
                    .collect();
            }
            Detail::Twophase { within_max_length } => {
                v["within_max_length"] = serde_json::json!(within_max_length);
            }
            Detail::Thistlethwaite { phases } => {
                v["phase_lengths"] =
                    serde_json::json!(phases.iter().map(Vec::len).collect::<Vec<_>>());
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    fn twophase(solution: &str) -> Outcome {
        Outcome {
            input: "R U".into(),
            goal: None,
            solution: Some(parse_moves(solution).unwrap()),
            nodes: 7,
            seconds: 0.5,
            metric: Metric::Htm,
            detail: Detail::Twophase {
                within_max_length: true,
            },
        }
    }

    #[test]
    fn check_names_the_solver_and_input() {
        let cube = Cube::from_moves(&parse_moves("R U").unwrap());
        assert_eq!(twophase("U' R'").check(&cube), Ok(()));
        let e = twophase("R' U'").check(&cube).unwrap_err();
        assert_eq!(
            e,
            "internal error: two-phase solution for R U does not solve it"
        );
    }

    #[test]
    fn json_fields_per_solver() {
        let v = twophase("U' R'").to_json();
        assert_eq!(v["solution"], "U' R'");
        assert_eq!(v["length"], 2);
        assert_eq!(v["within_max_length"], true);
        assert!(v.get("lower_bound").is_none());
        let mut t = twophase("U' R'");
        t.detail = Detail::Thistlethwaite {
            phases: vec![
                vec![],
                parse_moves("U'").unwrap(),
                parse_moves("R'").unwrap(),
                vec![],
            ],
        };
        assert_eq!(
            t.to_json()["phase_lengths"],
            serde_json::json!([0, 1, 1, 0])
        );
        assert_eq!(t.to_json()["solver"], "thistlethwaite");
    }
}
