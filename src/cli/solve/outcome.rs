//! The one printer of a solver's [`Outcome`]: text, or the outcome's JSON line with
//! `--predict`'s figures added to each iteration.

use super::model::Model;
use super::{SetLabel, SolveArgs};
use optcube::cube::format_moves;
use optcube::search::Iteration;
use optcube::solvers::outcome::{Detail, Outcome};

/// The exit status an outcome asks for: [`EXIT_INTERRUPTED`](crate::cli::EXIT_INTERRUPTED) when
/// interrupted, [`EXIT_NOT_FOUND`](crate::cli::EXIT_NOT_FOUND) when no solution is within the
/// limit asked (either solver), else 0.
pub fn status(o: &Outcome) -> i32 {
    match o.detail {
        Detail::Optimal {
            interrupted: true, ..
        } => super::super::EXIT_INTERRUPTED,
        // The search ended at --max-depth: every shorter length was searched, none solves.
        Detail::Optimal { .. } if o.solution.is_none() => super::super::EXIT_NOT_FOUND,
        // Nothing of at most --max-length moves within --timeout (the best found is printed).
        Detail::Twophase {
            within_max_length: false,
        } => super::super::EXIT_NOT_FOUND,
        _ => 0,
    }
}

/// Prints the outcome: one JSON line with `--json` ([`json`]), else text.
pub fn print(o: &Outcome, args: &SolveArgs, model: Option<&Model>, set: Option<&SetLabel>) {
    if args.json {
        println!("{}", json(o, args, model, set));
    } else {
        print_text(o, args, model);
    }
}

/// The outcome as `solve --json` gives it (and `optcube serve` answers): the outcome's own
/// fields, with the optimal solver's table set (`"set"`, and `"set_reason"` when it was
/// chosen) and what the arguments add.
pub fn json(
    o: &Outcome,
    args: &SolveArgs,
    model: Option<&Model>,
    set: Option<&SetLabel>,
) -> serde_json::Value {
    let mut v = o.to_json();
    if args.count {
        // Only their number was asked for.
        v.as_object_mut().map(|m| m.remove("solutions"));
    }
    if let Some(t) = &args.target {
        v["target"] = serde_json::json!(t.trim());
    }
    if let (None, Some(name)) = (&o.goal, &args.goal) {
        // A goal solved as the solved cube (`ll`, `pll`).
        v["goal"] = serde_json::json!(name.trim());
    }
    if let Some(k) = args.known_lower_bound {
        // The proof's premise: the lengths below it were not searched.
        v["known_lower_bound"] = serde_json::json!(k);
    }
    if let Some(s) = set {
        v["set"] = serde_json::json!(s.name);
        if let Some(r) = &s.reason {
            v["set_reason"] = serde_json::json!(r);
        }
    }
    if let (Some(m), Detail::Optimal { iterations, .. }) = (model, &o.detail) {
        for (k, i) in iterations.iter().enumerate() {
            let p = m.nodes(i.bound);
            let it = &mut v["iterations"][k];
            it["predicted_nodes"] = serde_json::json!(p);
            it["ratio"] = serde_json::json!(i.nodes as f64 / p);
            it["stopped_at_solution"] = serde_json::json!(o.stopped_at_solution(k));
        }
    }
    v
}

fn print_text(o: &Outcome, args: &SolveArgs, model: Option<&Model>) {
    // With an upper bound, the optimal solver printed the position before its proof began.
    let upper_printed = matches!(
        o.detail,
        Detail::Optimal {
            upper_bound: Some(_),
            ..
        }
    );
    if !upper_printed {
        println!("position: {}", o.input);
    }
    if let Some(t) = &args.target {
        println!("target: {}", t.trim());
    }
    if let Some(g) = &o.goal {
        println!(
            "goal: {}{}",
            g.goal.name(),
            if g.any_orientation {
                " (any orientation)"
            } else {
                ""
            }
        );
    }
    match (&o.solution, &o.detail) {
        (Some(s), _) => println!(
            "solution: {} ({} {}{})",
            format_moves(s),
            o.metric.length(s),
            o.metric.unit_for(o.metric.length(s)),
            match (o.is_optimal(), args.known_lower_bound) {
                (true, Some(k)) if o.known_bound_refuted() => {
                    format!(", optimal; the known lower bound {k} was false")
                }
                (true, Some(k)) => format!(", optimal given the known lower bound {k}"),
                (true, None) => ", optimal".to_string(),
                (false, _) => String::new(),
            }
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
                println!(
                    "interrupted: no solution of fewer than {lower_bound} {} exists",
                    o.metric.unit_for((*lower_bound).into())
                )
            } else {
                println!(
                    "no solution of <= {} {} exists{} (lower bound {lower_bound})",
                    args.max_depth(),
                    o.metric.unit_for(args.max_depth().into()),
                    if args.moveset.is_some() {
                        " in the move set, which may not reach the position (--max-depth raises the limit)"
                    } else {
                        ""
                    }
                )
            }
        }
        (None, _) => println!("no solution found within {} s", args.timeout),
    }
    if let Some(c) = o.collected() {
        let n = c.solutions.len();
        let what = match (args.count, c.complete) {
            (true, _) => String::new(),
            (false, true) => " (all)".into(),
            (false, false) => format!(" (the first {n} asked for; there may be more)"),
        };
        match c.up_to_symmetry {
            Some(all) => println!(
                "optimal solutions: {all}{what}; {n} up to the position's symmetries{}",
                if args.count {
                    ""
                } else {
                    " (the least of each class below)"
                }
            ),
            None => println!("optimal solutions: {n}{what}"),
        }
        if !args.count {
            for s in &c.solutions {
                println!("  {}", format_moves(s));
            }
        }
    }
    match &o.detail {
        Detail::Optimal {
            iterations,
            witnessed,
            witness_seconds,
            lower_bound,
            ..
        } => {
            match o.rate() {
                Some(r) => println!(
                    "nodes: {} ({:.2} M nodes/s), time: {:.3} s",
                    o.nodes,
                    r / 1e6,
                    o.seconds
                ),
                None => println!("nodes: {}, time: {:.3} s", o.nodes, o.seconds),
            }
            if *witnessed {
                println!(
                    "proof: no solution of fewer than {lower_bound} {} (complete iterations); \
                     this one, found by the two-phase solver ({witness_seconds:.3} s), has {lower_bound}",
                    o.metric.unit_for((*lower_bound).into())
                );
            }
            print_iterations(o, iterations, args.verbose, model);
        }
        Detail::Twophase { within_max_length } => {
            if !within_max_length {
                println!(
                    "note: no solution of at most {} {} found in time",
                    (args.max_length).unwrap_or(o.metric.diameter() as usize),
                    o.metric
                        .unit_for((args.max_length).unwrap_or(o.metric.diameter() as usize))
                );
            }
            println!("nodes: {}, time: {:.6} s", o.nodes, o.seconds);
        }
        Detail::Thistlethwaite { phases } => {
            if args.verbose {
                for (k, p) in phases.iter().enumerate() {
                    println!("  phase {}: {} ({} moves)", k + 1, format_moves(p), p.len());
                }
            }
            println!("time: {:.6} s", o.seconds);
        }
    }
}

/// The optimal search's iterations: against the model's prediction with `--predict`, plain
/// with `-v`.
fn print_iterations(o: &Outcome, iterations: &[Iteration], verbose: bool, model: Option<&Model>) {
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
                if o.stopped_at_solution(k) {
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
