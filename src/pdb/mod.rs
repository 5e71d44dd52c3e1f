//! Pattern databases: pattern definitions, the nibble table, generators, table files and sets.
//!
//! A pattern database maps every state of an abstraction of the cube (some pieces, their places
//! and orientations) to its exact distance from solved in the half-turn metric; the maximum of
//! such distances is an admissible heuristic for IDA*.

// Three rooms: the stores and the file format, the builders, the registry of families and
// sets. Their modules are re-exported here, so every table concept keeps its short path
// (`crate::pdb::file`, `crate::pdb::set`).
pub mod build;
pub mod registry;
pub mod store;

pub use build::{bfs, blocks, generate, layout, successors};
pub use registry::{corners48, family, goal, pattern, phase1, ru, set, sym48, sym48ek};
pub use store::{batch, cells, checkpoint, derived, file, huge, table};

pub use family::Pattern;
pub use generate::{Method, generate};
pub use table::{Format, NibbleTable, UNKNOWN, histogram_mean};
