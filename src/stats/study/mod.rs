//! Optimal-length studies: solve the positions of a seed one by one and keep every finished
//! position as one JSON line, so that a study can be stopped, resumed, split into shards and
//! merged again.
//!
//! A study is named by its [`Study`] (seed, `moves` for scramble studies, and the metric of
//! its lengths: the same seed in quarter turns is another study of the same positions,
//! set beside the half-turn one by [`CrossTable`]). Its
//! position `i` is the `i`-th position drawn from [`crate::cube::Rng::new`]`(seed)`: a uniformly random
//! position ([`crate::cube::Cube::random`]), or with `moves = Some(L)` a random canonical scramble of `L`
//! moves. Position `i` is therefore the same whatever the shard or the number of positions
//! asked for, and shard `K/N` solves exactly the positions with `i mod N == K`. The table set
//! is not part of the study: every set gives the same optimal lengths, so a study may go on
//! with a faster set; each record names the set that solved it, and the report gives the cost
//! per set.
//!
//! Invariants of a study file (JSON Lines, one [`Record`] a line):
//! - every complete line (ending in a newline) is a finished position of one study; the only
//!   line that may be incomplete is the last one (a process killed while writing it), which
//!   [`parse_lines`] reports and the writer cuts off before appending;
//! - an index appears at most once in a study (over all its files);
//! - every record's solution solves its input, has length `length` in the study's metric, was
//!   proved optimal, and its
//!   input is the study's position of that index ([`Collection::verify_inputs`]).
//!
//! The parts: `model` (study, positions, shards, records), `file` (the JSON Lines file, its
//! reading and appending), `collection` (records gathered and reported), `run` (a run that
//! resumes from its file and appends to it), `compare` (against the published distributions),
//! `cross` (one seed in two metrics).

/// What studies are called where a metric without published lengths or studies yet is
/// refused ([`crate::cube::Metric::face_turns_only`]): the CLI and Python say the same words.
pub const STUDIES: &str = "length studies";

mod collection;
pub mod compare;
mod cross;
mod file;
mod model;
mod run;
#[cfg(test)]
mod tests;

pub use collection::{
    Agreement, Collection, RatioSummary, SetupCost, StudyLine, cost_table, lengths_csv,
    lengths_table, solution_counts_csv, solution_counts_table,
};
pub use cross::CrossTable;
pub use file::{Appender, Parsed, StudyError, parse_lines, read_file};
pub use model::{Position, Record, Shard, Study, StudyGoal};
pub use run::{Opened, OpenedStudy, Resumed, StudyRun, resume};
