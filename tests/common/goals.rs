//! Helpers of the goal tests: a brute-force enumeration of the sequences that reach a goal (it
//! shares no code with the goal tables or the solver) and a goal solve through the CLI.

use super::optcube_json;
use optcube::coord::goal::GoalCheck;
use optcube::cube::{Cube, Metric, Move, format_moves, parse_moves};

pub fn cube(s: &str) -> Cube {
    Cube::from_moves(&parse_moves(s).unwrap())
}

/// `check.holds`, but in any orientation by trying all 24 rotations, not the solver's distinct
/// ones.
pub fn holds_in_any_of_24(check: &GoalCheck, c: &Cube) -> bool {
    if !check.any_orientation {
        return check.holds(c);
    }
    let syms = optcube::coord::symmetry::symmetries();
    (0..48).step_by(2).any(|s| {
        check
            .goal
            .holds(&optcube::coord::goal::conjugate(syms, c, s))
    })
}

/// Every canonical sequence (never a face twice in a row; opposite faces in one order) of
/// exactly `len` moves after which `check` holds on `start`: by enumeration.
pub fn brute_solutions(start: &Cube, check: &GoalCheck, len: usize, metric: Metric) -> Vec<String> {
    brute_solutions_in(start, check, len, metric, "URFDLB")
}

/// [`brute_solutions`] with the turns of the faces in `faces` only.
pub fn brute_solutions_in(
    start: &Cube,
    check: &GoalCheck,
    len: usize,
    metric: Metric,
    faces: &str,
) -> Vec<String> {
    brute_solutions_to(start, &|c| holds_in_any_of_24(check, c), len, metric, faces)
}

/// [`brute_solutions_in`] toward the positions where `reached` holds.
pub fn brute_solutions_to(
    start: &Cube,
    reached: &dyn Fn(&Cube) -> bool,
    len: usize,
    metric: Metric,
    faces: &str,
) -> Vec<String> {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        c: &Cube,
        left: i32,
        last: Option<Move>,
        path: &mut Vec<Move>,
        reached: &dyn Fn(&Cube) -> bool,
        metric: Metric,
        faces: &str,
        out: &mut Vec<Vec<Move>>,
    ) {
        if left == 0 {
            if reached(c) {
                out.push(path.clone());
            }
            return;
        }
        for m in Move::all() {
            let cost = metric.cost(m) as i32;
            let face = m.to_string().chars().next().unwrap();
            if cost > left || !optcube::cube::allowed_after(last, m) || !faces.contains(face) {
                continue;
            }
            path.push(m);
            walk(
                &c.apply(m),
                left - cost,
                Some(m),
                path,
                reached,
                metric,
                faces,
                out,
            );
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        start,
        len as i32,
        None,
        &mut Vec::new(),
        reached,
        metric,
        faces,
        &mut out,
    );
    // The solver's order: sorted by move index.
    out.sort();
    out.iter().map(|s| format_moves(s)).collect()
}

/// The least length at which `brute_solutions` finds any, and those solutions.
pub fn brute_optimal(start: &Cube, check: &GoalCheck, metric: Metric) -> (usize, Vec<String>) {
    for len in 0..=7 {
        let s = brute_solutions(start, check, len, metric);
        if !s.is_empty() {
            return (len, s);
        }
    }
    panic!("no solution within 7");
}

pub fn solve_goal(dir: &str, position: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", position, "--json", "--pdb-dir", dir];
    args.extend_from_slice(extra);
    let (v, err) = optcube_json(&args);
    assert!(v.is_object(), "{err}");
    v
}
