//! `optcube stats`: research statistics over tables and random cubes (DESIGN.md §4). Each
//! subcommand lives in its own file and calls [`optcube::stats`].

use super::Failure;

mod distances;
mod heuristic;
mod lengths;
mod output;
mod plot;
mod summarize;

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Distribution of each table's value and of their maximum over random states.
    Heuristic(heuristic::Args),
    /// Solve random states optimally, one JSON line each (resumable, shardable).
    Lengths(lengths::Args),
    /// Merge length-study files (shards) into distributions and percentiles.
    Summarize(summarize::Args),
    /// Count the positions at each exact distance from solved.
    Distances(distances::Args),
    /// Draw a CSV distribution as an SVG bar chart.
    Plot(plot::Args),
}

pub fn run(cmd: Cmd) -> Result<i32, Failure> {
    match cmd {
        Cmd::Heuristic(a) => heuristic::run(a),
        Cmd::Lengths(a) => lengths::run(a),
        Cmd::Summarize(a) => summarize::run(a),
        Cmd::Distances(a) => distances::run(a),
        Cmd::Plot(a) => plot::run(a),
    }
}
