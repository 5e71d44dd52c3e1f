//! One record of what a solver did with one position, and the one printer of it (text or a JSON
//! line). The three solvers share the fields of [`Outcome`]; what only one of them reports
//! (the optimal search's bounds and iterations, the two-phase length limit, Thistlethwaite's
//! phases) lives in [`Detail`].

use super::SolveArgs;
use super::model::Model;
use optcube::cube::{Move, format_moves};
use optcube::search::Iteration;

/// One solved (or unsolved) position.
pub struct Outcome {
    /// The input as the user wrote it.
    pub input: String,
    /// The solution, checked against the position before the outcome is printed.
    pub solution: Option<Vec<Move>>,
    pub nodes: u64,
    pub seconds: f64,
    pub detail: Detail,
}

/// What one solver alone reports.
pub enum Detail {
    Optimal {
        /// Every shorter length was searched completely.
        optimal: bool,
        lower_bound: u8,
        /// The two-phase solution's length found first (already printed in text mode).
        upper_bound: Option<usize>,
        interrupted: bool,
        iterations: Vec<Iteration>,
    },
    Twophase {
        /// A solution of at most `--max-length` moves was found in time.
        within_max_length: bool,
    },
    Thistlethwaite {
        /// Each phase's solution before moves were merged across phase boundaries.
        phases: Vec<Vec<Move>>,
    },
}

impl Outcome {
    /// The solver's name in JSON.
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

    fn optimal(&self) -> bool {
        matches!(self.detail, Detail::Optimal { optimal: true, .. })
    }

    pub fn interrupted(&self) -> bool {
        matches!(
            self.detail,
            Detail::Optimal {
                interrupted: true,
                ..
            }
        )
    }

    /// The exit status this outcome asks for: 130 when interrupted, 1 when the two-phase
    /// solver found nothing within its length limit, else 0.
    pub fn status(&self) -> i32 {
        match self.detail {
            Detail::Optimal {
                interrupted: true, ..
            } => 130,
            Detail::Twophase {
                within_max_length: false,
            } => 1,
            _ => 0,
        }
    }

    fn rate(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// Prints the outcome: one JSON line with `--json`, else text.
    pub fn print(&self, args: &SolveArgs, model: Option<&Model>) {
        if args.json {
            println!("{}", self.json(model));
        } else {
            self.print_text(args, model);
        }
    }

    fn json(&self, model: Option<&Model>) -> serde_json::Value {
        let mut v = serde_json::json!({
            "input": self.input,
            "solver": self.solver(),
            "solution": self.solution.as_ref().map(|s| format_moves(s)),
            "length": self.solution.as_ref().map(|s| s.len()),
            "optimal": self.optimal(),
            "nodes": self.nodes,
            "seconds": self.seconds,
        });
        match &self.detail {
            Detail::Optimal {
                lower_bound,
                upper_bound,
                interrupted,
                iterations,
                ..
            } => {
                v["lower_bound"] = serde_json::json!(lower_bound);
                v["upper_bound"] = serde_json::json!(upper_bound);
                v["nodes_per_second"] = serde_json::json!(self.rate().round());
                v["interrupted"] = serde_json::json!(interrupted);
                v["iterations"] = iterations
                    .iter()
                    .enumerate()
                    .map(|(k, i)| {
                        let mut it = serde_json::json!({
                            "bound": i.bound, "nodes": i.nodes, "seconds": i.seconds});
                        if let Some(m) = model {
                            let p = m.nodes(i.bound);
                            it["predicted_nodes"] = serde_json::json!(p);
                            it["ratio"] = serde_json::json!(i.nodes as f64 / p);
                            it["stopped_at_solution"] = serde_json::json!(self.stopped(k));
                        }
                        it
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

    /// Iteration `k` of a solved optimal search stopped at its first solution (the last one).
    fn stopped(&self, k: usize) -> bool {
        match &self.detail {
            Detail::Optimal { iterations, .. } => {
                self.solution.is_some() && k + 1 == iterations.len()
            }
            _ => false,
        }
    }

    fn print_text(&self, args: &SolveArgs, model: Option<&Model>) {
        // With an upper bound, the optimal solver printed the position before its proof began.
        let upper_printed = matches!(
            self.detail,
            Detail::Optimal {
                upper_bound: Some(_),
                ..
            }
        );
        if !upper_printed {
            println!("position: {}", self.input);
        }
        match (&self.solution, &self.detail) {
            (Some(s), _) => println!(
                "solution: {} ({} moves{})",
                format_moves(s),
                s.len(),
                if self.optimal() { ", optimal" } else { "" }
            ),
            (
                None,
                Detail::Optimal {
                    lower_bound,
                    interrupted,
                    ..
                },
            ) => {
                if *interrupted {
                    println!("interrupted: no solution of fewer than {lower_bound} moves exists")
                } else {
                    println!(
                        "no solution of <= {} moves exists (lower bound {lower_bound})",
                        args.max_depth
                    )
                }
            }
            (None, _) => println!("no solution found within {} s", args.timeout),
        }
        match &self.detail {
            Detail::Optimal { iterations, .. } => {
                println!(
                    "nodes: {} ({:.2} M nodes/s), time: {:.3} s",
                    self.nodes,
                    self.rate() / 1e6,
                    self.seconds
                );
                self.print_iterations(iterations, args.verbose, model);
            }
            Detail::Twophase { within_max_length } => {
                if !within_max_length {
                    println!(
                        "note: no solution of at most {} moves found in time",
                        args.max_length
                    );
                }
                println!("nodes: {}, time: {:.6} s", self.nodes, self.seconds);
            }
            Detail::Thistlethwaite { phases } => {
                if args.verbose {
                    for (k, p) in phases.iter().enumerate() {
                        println!("  phase {}: {} ({} moves)", k + 1, format_moves(p), p.len());
                    }
                }
                println!("time: {:.6} s", self.seconds);
            }
        }
    }

    /// The optimal search's iterations: against the model's prediction with `--predict`, plain
    /// with `-v`.
    fn print_iterations(&self, iterations: &[Iteration], verbose: bool, model: Option<&Model>) {
        if let Some(m) = model {
            println!("  bound      measured     predicted  measured/predicted");
            for (k, i) in iterations.iter().enumerate() {
                let p = m.nodes(i.bound);
                println!(
                    "  {:5} {:>13} {:>13.0} {:>10.3}{}",
                    i.bound,
                    i.nodes,
                    p,
                    i.nodes as f64 / p,
                    if self.stopped(k) {
                        "  (stopped at the solution)"
                    } else {
                        ""
                    }
                );
            }
        } else if verbose {
            for i in iterations {
                println!(
                    "  bound {:2}: {:>14} nodes {:>9.3} s",
                    i.bound, i.nodes, i.seconds
                );
            }
        }
    }
}
