//! How a table is held and kept: the cell stores (4-bit nibbles, 2-bit lines with a base,
//! mod-3 cells), the batch of cubes a node hands to the tables, and the one table file format
//! (header, checksum, atomic writes, the build lock), a long build's checkpoints, and the typed
//! huge-page arrays of the derived tables, and how a derived table is kept in a file beside its
//! source.

pub mod batch;
pub mod cells;
pub mod checkpoint;
pub mod derived;
pub mod file;
pub mod header;
pub mod huge;
pub mod table;
