//! Settling what a coset run leaves unset, so that the report gives every distance.
//!
//! A run whose search ends at depth `S` and whose prepasses stop at `S + 1` leaves some
//! elements unset. Each of them is farther than `S` (the search found every element within
//! `S`). It may still be at `S + 1`, when every optimal sequence to it ends outside H's
//! moves, or farther. So the optimal solver settles each one, starting its iterations at
//! `S + 1` (`SearchOptions::known_lower_bound`). Cube20.org's runs write these positions out
//! and solve them the same way (Rokicki's `hcoset`).
//!
//! [`Settler`] is the one way to do it, for the CLI (`optcube coset --settle`, and its default
//! run) and Python's `coset`: it opens the optimal solver's tables and settles one class at a
//! time with progress.
//!
//! Invariant of [`settled`]: its input's depths are exact through `S`, with at most one
//! prepass depth after them. A second prepass depth cannot be made exact: an element first
//! found there may be one move nearer, by a sequence the bounded run never searched.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::{CosetReport, DepthRow, ELEMENTS};
use crate::coord::positions::{Conjugator, Reduction};
use crate::cube::{Cube, Metric};
use crate::pdb::Pattern;
use crate::pdb::set::SetError;
use crate::progress::{Progress, ProgressMode};
use crate::search::{Heuristic, SearchOptions};
use crate::solvers::optimal::{OptimalConfig, OptimalSolver};

/// At most this many unset positions are collected, to be settled or written out (each is a
/// search of its own: a run leaving more should go deeper first).
pub const UNSET_LIMIT: u64 = 10_000_000;

/// The optimal solver that settles a run's unset positions, and its search options.
pub struct Settler {
    optimal: OptimalSolver,
    base: SearchOptions,
}

impl Settler {
    /// Opens the tables of `patterns` in `dir` (building what is missing; progress per
    /// `mode`) for searches on `threads` threads of the current rayon pool.
    pub fn open(
        dir: &Path,
        patterns: Vec<Pattern>,
        threads: usize,
        mode: ProgressMode,
    ) -> Result<Settler, SetError> {
        let mut config = OptimalConfig::for_tables(patterns);
        config.search.threads = threads;
        let optimal = OptimalSolver::configured(dir, &config, mode)?;
        Ok(Settler {
            optimal,
            base: config.search_options(),
        })
    }

    /// [`settle`] with the optimal search ([`distance_by_search`]), progress per `mode`;
    /// `stop` ends it (an `Err`) at the next iteration of the search under way.
    pub fn settle(
        &self,
        report: &CosetReport,
        unset: &[Cube],
        mode: ProgressMode,
        stop: &AtomicBool,
    ) -> Result<CosetReport, String> {
        if unset.is_empty() {
            return settled(report, &[]);
        }
        let progress = Progress::new(mode, "settle", unset.len() as u64, "positions");
        let mut solved = 0;
        let h = self.optimal.heuristic();
        let done = settle(
            report,
            unset,
            |x, lower| {
                solved += 1;
                distance_by_search(h, &self.base, x, lower, stop)
            },
            || progress.add(1, ""),
        )?;
        progress.finish(&format!(
            "{} positions settled, {solved} solved (one a class of conjugates and inverses)",
            unset.len()
        ));
        Ok(done)
    }
}

/// The first depth a run's unset elements can be at: one past its last exact depth.
pub fn first_unset_depth(report: &CosetReport) -> u8 {
    report.exact_counts().len() as u8
}

/// Refuses a report whose unset elements could not be made exact by settling them: more than
/// one prepass depth past its exact ones.
pub fn check_settleable(report: &CosetReport) -> Result<(), String> {
    let exact = report.exact_counts().len();
    if report.rows.len() > exact + 1 {
        return Err(format!(
            "the depths past {} are prepass depths after the first one ({} of them), which \
             settling cannot make exact; settle a run with --max-depth at most --search-depth + 1",
            exact.saturating_sub(1),
            report.rows.len() - exact
        ));
    }
    Ok(())
}

/// `report` with its unset elements added at their distances: `unset_counts[d]` of them are at
/// distance `d`. Every depth becomes exact. The prepass depth right after the exact ones keeps
/// its elements: each is at exactly that depth (within it by a sequence, not within the one
/// before, which is exact).
pub fn settled(report: &CosetReport, unset_counts: &[u64]) -> Result<CosetReport, String> {
    check_settleable(report)?;
    let first = first_unset_depth(report) as usize;
    let unset = ELEMENTS - report.found();
    let given: u64 = unset_counts.iter().sum();
    if given != unset {
        return Err(format!(
            "{given} settled distances for {unset} unset elements"
        ));
    }
    if let Some(d) = unset_counts[..first.min(unset_counts.len())]
        .iter()
        .position(|&n| n > 0)
    {
        return Err(format!(
            "an unset element settled at {d}, within the exact depths (through {})",
            first - 1
        ));
    }
    let depths = report.rows.len().max(unset_counts.len());
    let mut rows = Vec::with_capacity(depths);
    let mut total = 0;
    for d in 0..depths {
        let row = report.rows.get(d);
        let found = row.map_or(0, |r| r.found) + unset_counts.get(d).copied().unwrap_or(0);
        total += found;
        rows.push(DepthRow {
            depth: d as u8,
            found,
            total,
            seeds: row.map_or(0, |r| r.seeds),
            exact: true,
            prepass_seconds: row.map_or(0.0, |r| r.prepass_seconds),
            search_seconds: row.map_or(0.0, |r| r.search_seconds),
        });
    }
    // A settled run ends at its deepest distance: drop empty depths past it.
    while rows.len() > 1 && rows.last().is_some_and(|r| r.found == 0) {
        rows.pop();
    }
    Ok(CosetReport {
        rows,
        settled: unset,
        closed: report.closed,
        ..report.clone()
    })
}

/// Settles `unset`, the positions a run left (from `CosetSolver::for_each_missing`):
/// `distance(x, lower)` gives the distance of `x`, which is known to be at least `lower`
/// (the optimal solver, told that bound); `tick` is called after each position. Returns the
/// report with every depth exact.
///
/// Conjugates and inverses are equally far from solved, so `distance` is asked once per class
/// of the 48 symmetries and inversion: H's unset elements come in whole classes of up to 32
/// (its set is closed under 16 of the symmetries and inversion, `super`'s module docs), a
/// random coset's hardly ever share one. The classes are the ones `stats distances` keeps
/// ([`Conjugator::canonical`]).
pub fn settle(
    report: &CosetReport,
    unset: &[Cube],
    mut distance: impl FnMut(&Cube, u8) -> Result<u8, String>,
    mut tick: impl FnMut(),
) -> Result<CosetReport, String> {
    check_settleable(report)?;
    let lower = first_unset_depth(report);
    let mut counts: Vec<u64> = Vec::new();
    let conj = Conjugator::new();
    let mut known: HashMap<Cube, u8> = HashMap::new();
    for x in unset {
        let class = conj.canonical(x, Reduction::SymmetryAndInverse).cube;
        let d = match known.get(&class) {
            Some(&d) => d,
            None => *known.entry(class).or_insert(distance(x, lower)?),
        } as usize;
        if counts.len() <= d {
            counts.resize(d + 1, 0);
        }
        counts[d] += 1;
        tick();
    }
    settled(report, &counts)
}

/// The half-turn distance of `x`, an unset position known to be at least `lower` moves away,
/// by the optimal search over `h` started at that bound (`base`'s other options kept). The
/// solution is checked on the position. `Err` when the search was stopped or proved nothing.
pub fn distance_by_search(
    h: &Heuristic,
    base: &SearchOptions,
    x: &Cube,
    lower: u8,
    stop: &AtomicBool,
) -> Result<u8, String> {
    let opts = SearchOptions {
        metric: Metric::Htm,
        known_lower_bound: lower,
        ..base.clone()
    };
    let r = crate::search::solve(h, x, &opts, stop);
    if r.interrupted {
        return Err("interrupted".to_string());
    }
    if r.known_bound_refuted {
        return Err(format!(
            "internal error: the unset position {} is nearer than the coset run's bound {lower}",
            x.to_facelets()
        ));
    }
    match r.solution {
        Some(s) if r.optimal && x.apply_seq(&s).is_solved() => Ok(Metric::Htm.length(&s) as u8),
        _ => Err(format!(
            "the unset position {} was not solved optimally within {} moves",
            x.to_facelets(),
            opts.max_depth
        )),
    }
}
