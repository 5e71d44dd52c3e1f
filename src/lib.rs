//! optcube: provably optimal Rubik's cube solving (half-turn, quarter-turn, slice-turn and axial metrics) with pattern databases.
//!
//! Modules are layers; each uses only the ones below it (checked by `tests/architecture.rs`):
//!
//! 1. [`sys`] (atomic file writes, memory/disk/core probes) and [`progress`] (progress
//!    reporting): the bottom, knowing nothing of cubes;
//! 2. [`cube`]: the cubie model, moves, notation, facelets, random positions, packed positions
//!    and the whole-cube breadth-first search;
//! 3. [`rank`]: Lehmer ranking of permutations and orientations;
//! 4. [`coord`]: coordinates with move tables, cube symmetries and symmetry classes;
//! 5. [`pdb`]: pattern databases — patterns, layouts, generation, the table file format, sets;
//! 6. [`search`]: the heuristic (max of tables) and the non-recursive IDA*;
//! 7. [`solvers`]: optimal, two-phase and Thistlethwaite, each a user of the layers below;
//! 8. [`stats`]: studies, distance counts, heuristic distributions, prediction, plots.
//!
//! The binary `optcube` (`src/main.rs`, `src/cli/`) is a thin layer of clap commands on top.

pub mod coord;
pub mod cube;
pub mod pdb;
pub mod progress;
pub mod rank;
pub mod search;
pub mod solvers;
pub mod stats;
pub mod sys;
#[cfg(test)]
pub(crate) mod testing;
