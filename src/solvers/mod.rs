//! The solvers built on the cube model: the optimal solver (Korf's IDA* with pattern databases),
//! Kociemba's two-phase solver, Thistlethwaite's four-phase solver, and the coset solver that
//! finds the distances of a whole coset of Kociemba's subgroup at once.

use crate::cube::{Cube, Move};

pub mod coset;
pub mod goal;
pub mod moveset;
pub mod optimal;
pub mod outcome;
pub mod request;
pub mod thistlethwaite;
pub mod twophase;

/// Every table file in `dir` the program writes — the pattern databases, the two-phase and the
/// Thistlethwaite tables, the exact `<R,U>` table of `solve --moveset` — each read and checked
/// (header, size, checksum): what `optcube pdb verify` and `info` report.
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
    reports.extend(crate::pdb::set::inspect_kind(
        dir,
        &crate::pdb::ru::RuTable::kind(),
    ));
    reports
}

/// Rebuilds the two-phase, Thistlethwaite and `<R,U>` tables in `dir` whose files are present but
/// invalid (`optcube pdb build` does this beside the set it builds): each such file is
/// removed and its solver opened, which builds what is missing. Returns the files replaced,
/// each with why it was invalid.
pub fn repair_solver_tables(
    dir: &std::path::Path,
    progress: crate::progress::ProgressMode,
) -> Result<Vec<(String, String)>, crate::pdb::file::TableError> {
    let names: Vec<&str> = twophase::TABLE_NAMES
        .iter()
        .chain(thistlethwaite::PHASE_NAMES.iter())
        .chain([&crate::pdb::ru::TABLE_NAME])
        .copied()
        .collect();
    let bad: Vec<(String, String)> = inspect(dir)
        .into_iter()
        .filter(|r| names.contains(&r.kind.name.as_str()))
        .filter_map(|r| Some((r.kind.name.clone(), r.error?)))
        .collect();
    for (name, _) in &bad {
        let path = crate::pdb::file::table_path(dir, name);
        std::fs::remove_file(&path).map_err(|source| crate::pdb::file::TableError::Io {
            path: path.clone(),
            source,
        })?;
    }
    if bad
        .iter()
        .any(|(n, _)| twophase::TABLE_NAMES.contains(&n.as_str()))
    {
        twophase::TwoPhase::open(dir, progress)?;
    }
    if bad
        .iter()
        .any(|(n, _)| thistlethwaite::PHASE_NAMES.contains(&n.as_str()))
    {
        thistlethwaite::Thistlethwaite::open(dir)?;
    }
    if bad.iter().any(|(n, _)| n == crate::pdb::ru::TABLE_NAME) {
        crate::pdb::ru::RuTable::open(dir, progress)?;
    }
    Ok(bad)
}

/// Does `moves` bring `cube` to solved? Every solver's answer passes through this check before
/// anyone sees it.
pub fn solves(cube: &Cube, moves: &[Move]) -> bool {
    cube.apply_seq(moves).is_solved()
}
