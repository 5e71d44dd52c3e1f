//! The solvers built on the cube model: the optimal solver (Korf's IDA* with pattern databases),
//! Kociemba's two-phase solver and Thistlethwaite's four-phase solver.

use crate::cube::{Cube, Move};

pub mod optimal;
pub mod outcome;
pub mod thistlethwaite;
pub mod twophase;

/// Every table file in `dir` the program writes — the pattern databases, the two-phase and the
/// Thistlethwaite tables — each read and checked (header, size, checksum): what
/// `optcube pdb verify` and `info` report.
pub fn inspect(dir: &std::path::Path) -> Vec<crate::pdb::set::TableReport> {
    let mut reports = crate::pdb::set::inspect(dir);
    let present = |name: &str| crate::pdb::file::table_path(dir, name).exists();
    // The two-phase kinds need the solver's symmetry tables (under a second): only when a
    // file is there.
    if twophase::TABLE_NAMES.iter().any(|n| present(n)) {
        for kind in twophase::TwoPhase::kinds() {
            reports.extend(crate::pdb::set::inspect_kind(dir, &kind));
        }
    }
    for phase in 0..thistlethwaite::PHASES {
        reports.extend(crate::pdb::set::inspect_kind(
            dir,
            &thistlethwaite::table_kind(phase),
        ));
    }
    reports
}

/// Does `moves` bring `cube` to solved? Every solver's answer passes through this check before
/// anyone sees it.
pub fn solves(cube: &Cube, moves: &[Move]) -> bool {
    cube.apply_seq(moves).is_solved()
}
