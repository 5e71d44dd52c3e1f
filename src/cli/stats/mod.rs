//! `optcube stats`: research statistics over tables and random cubes. Each
//! subcommand lives in its own file and calls [`optcube::stats`].

use super::Failure;

mod distances;
mod goal;
mod heuristic;
pub(super) mod lengths;
mod output;
mod plot;
mod summarize;
mod summarize_cosets;

#[derive(clap::Subcommand)]
pub enum StatsCmd {
    /// Distribution of each table's value and of their maximum over random states.
    Heuristic(heuristic::HeuristicArgs),
    /// Solve random states optimally, one JSON line each (resumable, shardable).
    Lengths(lengths::LengthsArgs),
    /// Merge study files (shards) into distributions and percentiles: a length study's, or a
    /// coset study's into the estimate of the whole cube's distribution.
    Summarize(summarize::SummarizeArgs),
    /// Count the positions at each exact distance from solved.
    Distances(distances::DistancesArgs),
    /// Draw a CSV distribution as an SVG bar chart.
    Plot(plot::PlotArgs),
}

pub fn run(cmd: StatsCmd) -> Result<i32, Failure> {
    match cmd {
        StatsCmd::Heuristic(a) => heuristic::run(a),
        StatsCmd::Lengths(a) => lengths::run(a),
        StatsCmd::Summarize(a) => summarize::run(a),
        StatsCmd::Distances(a) => distances::run(a),
        StatsCmd::Plot(a) => plot::run(a),
    }
}
