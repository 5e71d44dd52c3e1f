//! The request layer: what a front door (the command line, Python, the web page) asks of a
//! solver, checked once and resolved once. [`SolveJob`] is a solve of positions (which
//! solver, metric, goal or move set, how many solutions, which tables, how many threads);
//! [`CosetJob`] is a coset run. The fronts only map their arguments to a job, show progress and
//! print or return the outcome; `stats::distance_job::DistanceJob` is the same shape for the
//! distance counts.
//!
//! Invariants:
//! - Every refusal is a [`Refusal`], worded here once. A front chooses only how the options
//!   are spelled ([`Front`]): `--max-depth` on the command line, `max_depth` in Python; the rest
//!   of the message is the same words, so that a test can feed one bad request to both and
//!   compare what they say.
//! - A check needs no table and touches nothing: it runs before any table is opened or built.

pub mod coset;
pub mod solve;

pub use coset::{CosetJob, CosetPlan};
pub use solve::{Admitted, AskedGoal, SetLabel, Solutions, SolveJob, SolverKind, Tuning};

use crate::cube::Metric;

/// Which front door a message is for: it decides how options are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    /// `--max-depth`.
    Cli,
    /// `max_depth`.
    Python,
}

/// An option of a request, as the fronts name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Solver,
    Metric,
    MaxDepth,
    SearchDepth,
    KnownLowerBound,
    All,
    Solutions,
    Count,
    Unique,
    Moveset,
    Goal,
    Mask,
    AnyOrientation,
    Target,
    Predict,
    Timeout,
    Threads,
    Index,
    Settle,
    Sample,
    SampleOut,
}

impl Opt {
    /// The command line's name without its dashes; Python's keyword is the same with
    /// underscores, but for [`Opt::Solutions`] (`limit`).
    fn flag(self) -> &'static str {
        match self {
            Opt::Solver => "solver",
            Opt::Metric => "metric",
            Opt::MaxDepth => "max-depth",
            Opt::SearchDepth => "search-depth",
            Opt::KnownLowerBound => "known-lower-bound",
            Opt::All => "all",
            Opt::Solutions => "solutions",
            Opt::Count => "count",
            Opt::Unique => "unique",
            Opt::Moveset => "moveset",
            Opt::Goal => "goal",
            Opt::Mask => "mask",
            Opt::AnyOrientation => "any-orientation",
            Opt::Target => "target",
            Opt::Predict => "predict",
            Opt::Timeout => "timeout",
            Opt::Threads => "threads",
            Opt::Index => "index",
            Opt::Settle => "settle",
            Opt::Sample => "sample",
            Opt::SampleOut => "sample-out",
        }
    }
}

impl Front {
    /// How this front spells `o`.
    pub fn spell(self, o: Opt) -> String {
        match (self, o) {
            (Front::Cli, o) => format!("--{}", o.flag()),
            (Front::Python, Opt::Solutions) => "limit".into(),
            (Front::Python, o) => o.flag().replace('-', "_"),
        }
    }
}

/// Why a request is refused, before any work. [`Refusal::message`] words it for a front.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// Words from below the request layer that name no option (a bad position, goal or move
    /// set, a metric a solver does not count in): the same on every front.
    Said(String),
    /// An option of the optimal solver asked of another solver.
    OptimalOnly(Opt),
    /// The Thistlethwaite solver asked for lengths in another metric than half turns.
    HalfTurnsOnly(Metric),
    /// A known lower bound with a solver or goal that does not take one.
    KnownBoundNotHere,
    /// A known lower bound the search could not check.
    KnownBound { bound: u8, why: String },
    /// `predict` in another metric than half turns.
    PredictHalfTurnsOnly(Metric),
    /// Solutions grouped by symmetry need every solution.
    UniqueNeedsEvery,
    /// Any orientation of no goal.
    AnyOrientationNeedsGoal,
    /// A goal named and a mask given, or neither where one is needed.
    OneGoal,
    /// A bad mask.
    Mask(String),
    /// A bad target position.
    Target(String),
    /// A time limit that is not a positive number of seconds.
    Timeout(f64),
    /// A thread count out of range.
    Threads(String),
    /// A coset's last searched depth beyond its last depth.
    SearchBeyondMax { search: u8, max: u8 },
    /// Settling after more than one depth of prepasses.
    SettleDepth { most: u8 },
    /// Samples with nowhere to write them.
    SampleNeedsOut,
    /// A coset run past God's number.
    PastGodsNumber(u8),
    /// A coset number out of range.
    Index(i64),
    /// A coset named twice.
    PositionAndIndex,
    /// A run that needs more memory than there is.
    Memory { need: u64, have: u64 },
}

impl Refusal {
    /// The message, with the options spelled as `front` spells them.
    pub fn message(&self, front: Front) -> String {
        let s = |o| front.spell(o);
        match self {
            Refusal::Said(text) => text.clone(),
            Refusal::OptimalOnly(o) => format!("{} applies to the optimal solver only", s(*o)),
            Refusal::HalfTurnsOnly(m) => format!(
                "{} {m}: the Thistlethwaite solver counts half turns only; the optimal solver \
                 takes any metric, the two-phase solver htm or qtm",
                s(Opt::Metric)
            ),
            Refusal::KnownBoundNotHere => format!(
                "{} is for the optimal solver's distance to solved: not with {} twophase or \
                 thistlethwaite, {}, {} or {}",
                s(Opt::KnownLowerBound),
                s(Opt::Solver),
                s(Opt::Moveset),
                s(Opt::Goal),
                s(Opt::Target)
            ),
            Refusal::KnownBound { bound, why } => {
                format!("{} {bound}: {why}", s(Opt::KnownLowerBound))
            }
            Refusal::PredictHalfTurnsOnly(m) => format!(
                "{} models the half-turn search only, not {} {m}",
                s(Opt::Predict),
                s(Opt::Metric)
            ),
            Refusal::UniqueNeedsEvery => format!(
                "{} needs every optimal solution: {}",
                s(Opt::Unique),
                match front {
                    Front::Cli => "give --all or --count".to_string(),
                    Front::Python => "give no limit".to_string(),
                }
            ),
            Refusal::AnyOrientationNeedsGoal => format!(
                "{} needs a goal: {} NAME or {} STR",
                s(Opt::AnyOrientation),
                s(Opt::Goal),
                s(Opt::Mask)
            ),
            Refusal::OneGoal => {
                format!("give one of {} NAME or {} STR", s(Opt::Goal), s(Opt::Mask))
            }
            Refusal::Mask(e) => format!("bad {}: {e}", s(Opt::Mask)),
            Refusal::Target(e) => format!("bad {} position: {e}", s(Opt::Target)),
            Refusal::Timeout(t) => format!(
                "{} must be a positive number of seconds, not {t}",
                s(Opt::Timeout)
            ),
            Refusal::Threads(e) => format!("{}: {e}", s(Opt::Threads)),
            Refusal::SearchBeyondMax { search, max } => format!(
                "{} {search} is beyond {} {max}",
                s(Opt::SearchDepth),
                s(Opt::MaxDepth)
            ),
            Refusal::SettleDepth { most } => format!(
                "{} needs {} at most {} + 1 ({most}): an element first found by a later \
                 prepass may be nearer than that depth, and settling the unset ones cannot tell",
                s(Opt::Settle),
                s(Opt::MaxDepth),
                s(Opt::SearchDepth)
            ),
            Refusal::SampleNeedsOut => format!(
                "{} needs {} FILE (or --random-cosets N)",
                s(Opt::Sample),
                s(Opt::SampleOut)
            ),
            Refusal::PastGodsNumber(d) => {
                let g = Metric::Htm.diameter();
                format!(
                    "{} {d}: no position is more than {g} moves from solved, so every coset is \
                     complete by depth {g}; give {} {g} or less",
                    s(Opt::MaxDepth),
                    s(Opt::MaxDepth)
                )
            }
            Refusal::Index(n) => format!(
                "{} {n} is out of range: cosets are numbered 0..{}",
                s(Opt::Index),
                crate::solvers::coset::COSETS
            ),
            Refusal::PositionAndIndex => "give a position or an index, not both".into(),
            Refusal::Memory { need, have } => format!(
                "a coset run beyond depth 8 needs about {:.1} GB of memory, and {:.1} GB are \
                 available; {} 8 or less runs in little memory",
                *need as f64 / 1e9,
                *have as f64 / 1e9,
                s(Opt::MaxDepth)
            ),
        }
    }
}

impl From<String> for Refusal {
    fn from(text: String) -> Refusal {
        Refusal::Said(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two fronts' messages differ only in how options are spelled: every option named on
    /// the command line is named in Python by its keyword, and no other word changes.
    #[test]
    fn the_fronts_differ_only_in_the_spelling_of_options() {
        let cases = [
            Refusal::OptimalOnly(Opt::AnyOrientation),
            Refusal::KnownBoundNotHere,
            Refusal::PredictHalfTurnsOnly(Metric::Qtm),
            Refusal::SettleDepth { most: 17 },
            Refusal::SearchBeyondMax { search: 5, max: 4 },
            Refusal::Timeout(-1.0),
            Refusal::Index(-3),
        ];
        let opts = [
            Opt::Solver,
            Opt::Metric,
            Opt::MaxDepth,
            Opt::SearchDepth,
            Opt::KnownLowerBound,
            Opt::Moveset,
            Opt::Goal,
            Opt::Target,
            Opt::Predict,
            Opt::Timeout,
            Opt::Index,
            Opt::Settle,
            Opt::AnyOrientation,
        ];
        for r in cases {
            let (mut cli, python) = (r.message(Front::Cli), r.message(Front::Python));
            assert!(cli.contains("--"), "{cli}");
            for o in opts {
                cli = cli.replace(&Front::Cli.spell(o), &Front::Python.spell(o));
            }
            assert_eq!(cli, python);
        }
        assert_eq!(
            Front::Python.spell(Opt::KnownLowerBound),
            "known_lower_bound"
        );
        assert_eq!(Front::Python.spell(Opt::Solutions), "limit");
    }
}
