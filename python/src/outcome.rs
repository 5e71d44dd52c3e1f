//! `optcube.Result`: one solver's answer for one position, the fields of
//! `optcube solve --json`.
//!
//! Invariant: every `Result` is made by [`PyOutcome::checked`], which checks its solutions on
//! the position, so Python never sees an unchecked answer.

use super::to_python;
use optcube::cube::{Cube, format_moves};
use optcube::solvers::outcome::{Detail, Outcome};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// A solver's answer for one position: the fields of `optcube solve --json`.
#[pyclass(frozen, module = "optcube", name = "Result")]
pub struct PyOutcome {
    outcome: Outcome,
    /// The optimal solver's table set (`"set"` in `to_dict`, as in the CLI's JSON).
    set: Option<String>,
    /// The known lower bound given to `Solver.solve` (`"known_lower_bound"` in `to_dict`).
    known_lower_bound: Option<u8>,
}

impl PyOutcome {
    /// Checks the solution on the position (every answer passes through here).
    pub fn checked(outcome: Outcome, cube: &Cube) -> PyResult<PyOutcome> {
        outcome.check(cube).map_err(PyRuntimeError::new_err)?;
        Ok(PyOutcome {
            outcome,
            set: None,
            known_lower_bound: None,
        })
    }

    /// The outcome of a search with the table set `set`.
    pub fn with_set(mut self, set: &str) -> PyOutcome {
        self.set = Some(set.to_string());
        self
    }

    /// The outcome of a search given a known lower bound (the CLI's JSON says it too).
    pub fn with_known_lower_bound(mut self, bound: Option<u8>) -> PyOutcome {
        self.known_lower_bound = bound;
        self
    }
}

#[pymethods]
impl PyOutcome {
    /// The input as given.
    #[getter]
    fn input(&self) -> &str {
        &self.outcome.input
    }
    /// "optimal", "twophase" or "thistlethwaite".
    #[getter]
    fn solver(&self) -> &'static str {
        self.outcome.solver()
    }
    /// The solution in the CLI's notation ("R U2 F'"), or None.
    #[getter]
    fn solution(&self) -> Option<String> {
        self.outcome.solution.as_ref().map(|s| format_moves(s))
    }
    /// The solution's moves as a list of tokens.
    #[getter]
    fn moves(&self) -> Option<Vec<String>> {
        self.outcome
            .solution
            .as_ref()
            .map(|s| s.iter().map(|m| m.to_string()).collect())
    }
    /// The solution's length in the result's metric (a half turn counts 2 in "qtm").
    #[getter]
    fn length(&self) -> Option<usize> {
        self.outcome.length()
    }
    /// The metric of `length` and the bounds: "htm" or "qtm".
    #[getter]
    fn metric(&self) -> &'static str {
        self.outcome.metric.name()
    }
    /// True only when a complete search proved no shorter solution exists.
    #[getter]
    fn optimal(&self) -> bool {
        self.outcome.is_optimal()
    }
    #[getter]
    fn nodes(&self) -> u64 {
        self.outcome.nodes
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.outcome.seconds
    }
    /// Optimal solver: no solution is shorter than this.
    #[getter]
    fn lower_bound(&self) -> Option<u8> {
        match self.outcome.detail {
            Detail::Optimal { lower_bound, .. } => Some(lower_bound),
            _ => None,
        }
    }
    /// Optimal solver: the optimal solutions found (sorted; `Solver.solve_all`), or the one
    /// solution as a list of one; None without a solution.
    #[getter]
    fn solutions(&self) -> Option<Vec<String>> {
        match self.outcome.collected() {
            Some(c) => Some(c.solutions.iter().map(|s| format_moves(s)).collect()),
            None => self.solution().map(|s| vec![s]),
        }
    }
    /// Optimal solver: the number of optimal solutions, once `Solver.solve_all` found them
    /// all; else None.
    #[getter]
    fn optimal_solutions(&self) -> Option<usize> {
        self.outcome.collected().and_then(|c| c.count())
    }
    /// Optimal solver: with `solve_all(..., unique="symmetry")`, the number of classes of
    /// optimal solutions under the position's symmetries (`solutions` then holds the least of
    /// each); else None.
    #[getter]
    fn symmetry_classes(&self) -> Option<usize> {
        let c = self.outcome.collected()?;
        c.up_to_symmetry.map(|_| c.solutions.len())
    }
    /// Optimal solver: the search was stopped before its end (a `timeout=`, `Solver.cancel()`);
    /// `optimal` is then False and `lower_bound` is the bound the search proved.
    #[getter]
    fn interrupted(&self) -> bool {
        self.outcome.interrupted()
    }
    /// Optimal solver: True when a two-phase solution of the proved lower bound's length
    /// ended the proof, so its last iteration was not run (`Solver(upper_bound=True)`, the
    /// default; the same length and claim either way).
    #[getter]
    fn witnessed(&self) -> Option<bool> {
        match self.outcome.detail {
            Detail::Optimal { witnessed, .. } => Some(witnessed),
            _ => None,
        }
    }
    /// Optimal solver: True when the `known_lower_bound` given to `solve` was false (an
    /// ordering iteration below it found a solution, so the search began again from the
    /// tables' bound and the answer is still optimal).
    #[getter]
    fn known_lower_bound_refuted(&self) -> Option<bool> {
        match self.outcome.detail {
            Detail::Optimal { .. } => Some(self.outcome.known_bound_refuted()),
            _ => None,
        }
    }
    /// Optimal solver: one dict per iteration (bound, nodes, seconds).
    #[getter]
    fn iterations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.outcome.to_json();
        to_python(py, v.get("iterations").unwrap_or(&serde_json::Value::Null))
    }
    /// Two-phase solver: a solution within the asked length was found.
    #[getter]
    fn within_max_length(&self) -> Option<bool> {
        match self.outcome.detail {
            Detail::Twophase { within_max_length } => Some(within_max_length),
            _ => None,
        }
    }
    /// Thistlethwaite solver: the length of each phase before merging.
    #[getter]
    fn phase_lengths(&self) -> Option<Vec<usize>> {
        match &self.outcome.detail {
            Detail::Thistlethwaite { phases } => Some(phases.iter().map(Vec::len).collect()),
            _ => None,
        }
    }
    /// The result as a dict with exactly the keys of `optcube solve --json`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = self.outcome.to_json();
        if let Some(k) = self.known_lower_bound {
            v["known_lower_bound"] = serde_json::json!(k);
        }
        if let Some(set) = &self.set {
            v["set"] = serde_json::json!(set);
        }
        to_python(py, &v)
    }
    fn __repr__(&self) -> String {
        let solution = match self.solution() {
            Some(s) => format!("{s:?}"),
            None => "None".into(),
        };
        format!(
            "optcube.Result(solver={:?}, input={:?}, solution={solution}, optimal={})",
            self.outcome.solver(),
            self.outcome.input,
            if self.optimal() { "True" } else { "False" }
        )
    }
}
