//! How tables are built: the one breadth-first search over an index's block layout, the
//! korf patterns' block structure, the generator that runs it (or IDDFS) for a family, and the
//! corner successor table derived in memory.

pub mod bfs;
pub mod blocks;
pub mod generate;
pub mod layout;
pub mod successors;
