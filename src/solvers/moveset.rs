//! Optimal solving within a move set ([`MoveSet`], `solve --moveset` and Python's
//! `Solver.solve_in`): the refusal of positions the set cannot make, the two ways a set is
//! solved, and the check that every solution keeps to the set, written once for both fronts.
//!
//! A set that a symmetry maps onto `<R,U>` (two adjacent faces with all their turns,
//! [`subset::exact_table_symmetry`]) walks down the exact `<R,U>` table
//! ([`subset::solve_exact`]); any other set is searched with a solver's tables
//! ([`subset::solve_in`], one thread).

use super::outcome::Outcome;
use crate::cube::Cube;
use crate::pdb::ru::RuTable;
use crate::search::subset::{self, MoveSet};
use crate::search::{Heuristic, SearchOptions};
use std::sync::atomic::AtomicBool;

/// How a move set's positions are solved.
pub enum Route<'a> {
    /// The exact `<R,U>` table, read on the position conjugated by symmetry `sym` (the one
    /// [`subset::exact_table_symmetry`] gives for the set).
    Exact { table: &'a RuTable, sym: usize },
    /// IDA* restricted to the set, with these tables.
    Search(&'a Heuristic),
}

/// Why `set` cannot solve `cube` (the message both fronts show), or `None` if it can. Cheap:
/// the fronts check every input with it before any table is opened.
pub fn refusal(set: &MoveSet, cube: &Cube) -> Option<String> {
    set.unreachable(cube)
        .map(|why| format!("the move set {set} cannot solve it: {why}"))
}

/// Solves `cube` (called `input` in the outcome) optimally within `set` by `route`: as many
/// optimal solutions as `opts.solutions` asks for, `stop` ending a search early. An error says
/// why the set cannot solve the position ([`refusal`]), or that a solution left the set (an
/// internal error). The caller checks the solutions on the position, as for every solver.
pub fn solve(
    input: &str,
    cube: &Cube,
    set: &MoveSet,
    route: Route<'_>,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> Result<Outcome, String> {
    if let Some(why) = refusal(set, cube) {
        return Err(why);
    }
    let result = match route {
        Route::Exact { table, sym } => subset::solve_exact(table, cube, sym, opts)
            .map_err(|e| format!("the move set {set} cannot solve it: {e}"))?,
        Route::Search(h) => subset::solve_in(h, cube, set, opts, stop),
    };
    Outcome::from_search(input, result, None, opts.solutions).in_moveset(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng, parse_moves};

    /// Both routes give checked outcomes of the same optimal length, keep to the set, and
    /// refuse a position the set cannot make with the same message.
    #[test]
    fn both_routes_agree_and_refuse_alike() {
        let set = MoveSet::parse("F L").unwrap();
        let sym = subset::exact_table_symmetry(&set).expect("two adjacent faces");
        let table = crate::testing::ru_table();
        let h = crate::testing::korf6();
        let opts = SearchOptions::default();
        let stop = AtomicBool::new(false);
        let turns: Vec<Move> = set.moves().collect();
        let mut rng = Rng::new(73);
        for _ in 0..5 {
            let scramble: Vec<Move> = (0..9)
                .map(|_| turns[rng.below(turns.len() as u64) as usize])
                .collect();
            let cube = Cube::SOLVED.apply_seq(&scramble);
            let exact = solve("x", &cube, &set, Route::Exact { table, sym }, &opts, &stop).unwrap();
            let search = solve("x", &cube, &set, Route::Search(h), &opts, &stop).unwrap();
            assert!(exact.is_optimal() && search.is_optimal());
            assert!(exact.check(&cube).is_ok() && search.check(&cube).is_ok());
            let len = |o: &Outcome| o.solution.as_ref().map(|s| s.len());
            assert_eq!(len(&exact), len(&search));
            assert!(len(&exact).unwrap() <= 9);
        }
        // The T permutation: an arrangement two faces' turns cannot make.
        let t =
            Cube::SOLVED.apply_seq(&parse_moves("R U R' U' R' F R2 U' R' U' R U R' F'").unwrap());
        let why = refusal(&set, &t).expect("refused");
        assert!(why.starts_with("the move set"), "{why}");
        for route in [Route::Exact { table, sym }, Route::Search(h)] {
            assert_eq!(solve("t", &t, &set, route, &opts, &stop).unwrap_err(), why);
        }
    }
}
