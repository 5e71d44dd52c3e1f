//! Pattern databases: pattern definitions, the nibble table, generators, table files and sets.
//!
//! A pattern database maps every state of an abstraction of the cube (some pieces, their places
//! and orientations) to its exact distance from solved in the half-turn metric; the maximum of
//! such distances is an admissible heuristic for IDA*.

pub mod batch;
pub mod bfs;
mod blocks;
pub mod cells;
pub mod family;
pub mod generate;
pub mod layout;
pub mod pattern;
pub mod phase1;
pub mod ru;
pub mod successors;
pub mod sym48;
pub mod sym48ek;
pub mod table;

pub use family::Pattern;
pub use generate::{Method, generate};
pub use table::{Format, NibbleTable, UNKNOWN, histogram_mean};
pub mod file;
pub mod set;
