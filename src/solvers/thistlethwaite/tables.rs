//! The phase tables of Thistlethwaite's solver: built by breadth-first search over the cosets
//! of each phase, kept as table files (`NAME.pdb`, names from [`PHASE_NAMES`]) in the common
//! table format of [`crate::pdb::file`].

use super::coordinates::*;
use super::{
    PHASE_NAMES, PHASE_PIECES, PHASE_SIZES, PHASES, PhaseTableError, TABLE_VERSION, Thistlethwaite,
};
use crate::cube::Cube;
use crate::pdb::file::{self, TableError as FileError, TableKind};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

impl Thistlethwaite {
    /// Opens the solver with its four phase tables kept in `dir` (created if needed) as table
    /// files `NAME.pdb`, names from [`PHASE_NAMES`]: each existing file is loaded and checked,
    /// each missing one is built and written atomically. A file that cannot be used (damaged,
    /// truncated, stale, another table's, or holding entries that are not distances) is an error
    /// naming it and the command that rebuilds it; it is never overwritten.
    pub fn open(dir: &Path) -> Result<Thistlethwaite, FileError> {
        let mut tables: [Option<Box<[u8]>>; PHASES] = Default::default();
        for (phase, slot) in tables.iter_mut().enumerate() {
            let path = Self::table_path(dir, phase);
            if file::is_present(&path)? {
                let (bytes, _) = file::load_vec(&path, &table_kind(phase))?;
                *slot = Some(bytes.into_boxed_slice());
            }
        }
        let missing: Vec<usize> = (0..PHASES).filter(|&k| tables[k].is_none()).collect();
        if !missing.is_empty() {
            let corners = SquaresCorners::new();
            let built: Vec<(usize, Box<[u8]>)> = missing
                .par_iter()
                .map(|&k| (k, build_table(&corners, k)))
                .collect();
            for (k, table) in built {
                tables[k] = Some(table);
            }
        }
        let tables = tables.map(|t| t.expect("loaded or built"));
        let solver = Thistlethwaite::from_tables(tables).map_err(|e| {
            let phase = match e {
                PhaseTableError::Size { phase, .. } | PhaseTableError::Entry { phase, .. } => phase,
            };
            FileError::Header {
                path: Self::table_path(dir, phase),
                what: e.to_string(),
                hint: rebuild_hint(dir),
            }
        })?;
        solver.save_phases(dir, &missing)?;
        Ok(solver)
    }

    /// The file of phase `phase`'s table (0-based) inside `dir`.
    pub fn table_path(dir: &Path, phase: usize) -> PathBuf {
        dir.join(format!("{}.pdb", PHASE_NAMES[phase]))
    }

    fn save_phases(&self, dir: &Path, phases: &[usize]) -> Result<(), FileError> {
        if phases.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|source| FileError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for &k in phases {
            file::save_payload(
                &Self::table_path(dir, k),
                &table_kind(k),
                self.table(k),
                self.histogram(k),
                "thistlethwaite breadth-first search",
            )?;
        }
        Ok(())
    }
}

/// What phase `phase`'s table file must hold.
pub fn table_kind(phase: usize) -> TableKind {
    TableKind {
        name: PHASE_NAMES[phase].into(),
        version: TABLE_VERSION,
        pieces: PHASE_PIECES[phase].into(),
        entries: PHASE_SIZES[phase] as u64,
        bits_per_entry: 8,
        rebuild: REBUILD.into(),
    }
}

/// The command that rebuilds missing table files (`{dir}`: their directory).
pub(super) const REBUILD: &str = "optcube solve --solver thistlethwaite --pdb-dir {dir} R";

pub(super) fn rebuild_hint(dir: &Path) -> String {
    format!(
        "delete it and rebuild with `{}`",
        REBUILD.replace("{dir}", &dir.display().to_string())
    )
}

/// Breadth-first search over the cosets of `G_{phase+1}` in `G_phase`: one representative cube
/// per newly reached coordinate, expanded with `G_phase`'s generators.
pub(super) fn build_table(corners: &SquaresCorners, phase: usize) -> Box<[u8]> {
    crate::pdb::generate::byte_bfs(
        PHASE_SIZES[phase],
        Cube::SOLVED,
        |c| coordinate(corners, phase, c),
        |c, out| out.extend(phase_moves(phase).map(|m| c.apply(m))),
    )
}
