//! Search: the pattern-database heuristic and the IDA* that uses it.

pub mod brute;
mod cut;
pub mod heuristic;
pub mod ida;

pub use heuristic::Heuristic;
pub use ida::{Iteration, SearchOptions, SearchResult, solve};

#[cfg(test)]
mod tests;
