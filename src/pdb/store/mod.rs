//! How a table is held and kept: the cell stores (4-bit nibbles, 2-bit lines with a base,
//! mod-3 cells), the batch of cubes a node hands to the tables, and the one table file format
//! (header, checksum, atomic writes, the build lock), a long build's checkpoints, and the typed
//! huge-page arrays of the derived tables that are never kept in a file.

pub mod batch;
pub mod cells;
pub mod checkpoint;
pub mod file;
pub mod huge;
pub mod table;
