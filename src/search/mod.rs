//! Search: the pattern-database heuristic and the IDA* that uses it.

pub mod brute;
mod cut;
pub mod heuristic;
pub mod ida;
mod node;
pub mod options;
mod rotations;
pub mod subset;
pub mod witness;
mod worker;

pub use heuristic::Heuristic;
pub use ida::{solve, solve_observed, solve_witnessed, symmetry_classes};
pub use options::{
    ALL_SOLUTIONS, Iteration, IterationEvent, Optimizations, SearchOptions, SearchResult,
};

#[cfg(test)]
mod qtm_tests;
#[cfg(test)]
mod same_tree_tests;
#[cfg(test)]
mod slice_axial_tests;
#[cfg(test)]
mod tests;
