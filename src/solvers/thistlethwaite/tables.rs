//! The phase tables of Thistlethwaite's solver: built by breadth-first search over the cosets
//! of each phase, kept as table files (`NAME.pdb`, names from [`PHASE_NAMES`]) in the common
//! table format of [`crate::pdb::file`].

use super::coordinates::*;
use super::{
    PHASE_NAMES, PHASE_PIECES, PHASE_SIZES, PHASES, PhaseTableError, TABLE_VERSION, Thistlethwaite,
};
use crate::cube::{Cube, Move};
use crate::pdb::bfs::coset_table;
use crate::pdb::file::{self, Packing, TableError as FileError, TableKind};
use crate::pdb::table::byte_histogram;
use rayon::prelude::*;
use std::path::Path;

impl Thistlethwaite {
    /// Opens the solver with its four phase tables kept in `dir` (created if needed) as table
    /// files `NAME.pdb`, names from [`PHASE_NAMES`]: each existing file is loaded and checked,
    /// each missing one is built and written atomically. A file that cannot be used (damaged,
    /// truncated, stale, another table's, or holding entries that are not distances) is an error
    /// naming it and the command that rebuilds it; it is never overwritten.
    pub fn open(dir: &Path) -> Result<Thistlethwaite, FileError> {
        let kinds: Vec<TableKind> = (0..PHASES).map(table_kind).collect();
        let tables = file::open_or_build(
            dir,
            &kinds,
            |path, kind| Ok(file::load_vec(path, kind)?.0.into_boxed_slice()),
            |missing| {
                let corners = SquaresCorners::get();
                let built: Vec<Box<[u8]>> = missing
                    .par_iter()
                    .map(|&k| build_table(corners, k))
                    .collect();
                for (&k, table) in missing.iter().zip(&built) {
                    save_phase(dir, k, table)?;
                }
                Ok::<_, FileError>(built)
            },
        )?;
        let tables: [Box<[u8]>; PHASES] = tables.try_into().expect("one table a phase");
        Thistlethwaite::from_tables(tables).map_err(|e| {
            let phase = match e {
                PhaseTableError::Size { phase, .. } | PhaseTableError::Entry { phase, .. } => phase,
            };
            let path = file::table_path(dir, PHASE_NAMES[phase]);
            FileError::Header {
                hint: file::rebuild_hint(&kinds[phase], &path),
                path,
                what: e.to_string(),
            }
        })
    }
}

/// Writes phase `phase`'s table to its file in `dir` (atomically).
fn save_phase(dir: &Path, phase: usize, table: &[u8]) -> Result<(), FileError> {
    file::save_payload(
        &file::table_path(dir, PHASE_NAMES[phase]),
        &table_kind(phase),
        table,
        byte_histogram(table),
        "thistlethwaite breadth-first search",
    )
    .map(|_| ())
}

/// What phase `phase`'s table file must hold.
pub fn table_kind(phase: usize) -> TableKind {
    TableKind {
        name: PHASE_NAMES[phase].into(),
        version: TABLE_VERSION,
        pieces: PHASE_PIECES[phase].into(),
        entries: PHASE_SIZES[phase] as u64,
        packing: Packing::Bits(8),
        rebuild: REBUILD.into(),
        metric: crate::cube::Metric::Htm,
    }
}

/// The command that rebuilds missing table files (`{dir}`: their directory).
pub(super) const REBUILD: &str = "optcube solve --solver thistlethwaite --pdb-dir {dir} R";

/// Breadth-first search over the cosets of `G_{phase+1}` in `G_phase` with `G_phase`'s
/// generators ([`coset_table`]: a representative cube is kept for each coset when the search
/// first reaches it, since the coordinate has no unranking).
pub(super) fn build_table(corners: &SquaresCorners, phase: usize) -> Box<[u8]> {
    let moves: Vec<Move> = phase_moves(phase).collect();
    coset_table(
        PHASE_SIZES[phase],
        Cube::SOLVED,
        moves.len(),
        |c| coordinate(corners, phase, c),
        |c, k| c.apply(moves[k]),
    )
}
