//! optcube: provably optimal Rubik's cube solving (half-turn metric) with pattern databases.
//!
//! Modules follow the data: [`cube`] (the cubie model, moves, notation, facelets) →
//! [`rank`] (Lehmer ranking of permutations and orientations) and [`coord`] (coordinates with
//! move tables, cube symmetries) → [`pdb`] (pattern databases: patterns, generation, the table
//! file format) → [`search`] (the heuristic and IDA*) → [`stats`]; [`solvers`] puts them
//! together (optimal, two-phase, Thistlethwaite). The binary `optcube` in
//! `src/main.rs` and `src/cli/` is a thin layer over this library.

pub mod coord;
pub mod cube;
pub mod files;
pub mod pdb;
pub mod progress;
pub mod rank;
pub mod search;
pub mod solvers;
pub mod stats;
#[cfg(test)]
pub(crate) mod testing;
