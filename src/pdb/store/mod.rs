//! How a table is held and kept: the cell stores (4-bit nibbles, 2-bit lines with a base,
//! mod-3 cells), the batch of cubes a node hands to the tables, and the one table file format
//! (header, checksum, atomic writes, the build lock), and a long build's checkpoints.

pub mod batch;
pub mod cells;
pub mod checkpoint;
pub mod file;
pub mod table;
