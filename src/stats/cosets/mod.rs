//! Coset studies: the distances of random cosets of H = <U, D, R2, L2, F2, B2>
//! ([`crate::solvers::coset`]), one JSON line per finished coset, resumable and split into
//! shards like a length study ([`crate::stats::study`], whose file rules it shares), and the
//! estimate of the whole cube's distance distribution drawn from them ([`estimate`]).
//!
//! A study is named by its [`CosetStudy`]: the seed, the search and last depths of each run,
//! and the number of positions sampled in each coset. Its coset `i` is the `i`-th number drawn
//! uniformly from `0..COSETS` by [`crate::cube::Rng::new`]`(seed)`, the same whatever the
//! shard; shard `K/N` runs the indices with `i mod N == K`.
//!
//! Each run counts the coset's positions at every exact distance through the search depth.
//! Deeper positions are only bounded, so the run also draws `samples` positions of the coset
//! uniformly ([`crate::solvers::coset::sample_elements`], seeded by the study's seed and the
//! index) and solves every one found beyond the search depth with the optimal solver, which
//! shares no code with the coset solver. A sample's length must agree with the coset run: equal
//! to the depth where it was found when that depth is exact, in `search_depth + 1 ..= found`
//! when it is a bound, above `max_depth` when it was not found ([`CosetRecord::check`]).
//!
//! Invariants of a coset study file, beyond those of every study file (one record a line, only
//! the last line half-written, an index at most once):
//! - every record is of one study (seed, depths, samples) and its coset is the study's coset
//!   of its index;
//! - its counts add up to the coset's 19,508,428,800 positions;
//! - every sample is a position of its coset, solved by its solution, and agrees with the run.

pub mod estimate;
mod run;
#[cfg(test)]
mod tests;

pub use run::{CosetStudyRun, OpenedCosets, Solvers};

use crate::cube::{Cube, Metric, Rng, parse_moves};
use crate::solvers::coset::{COSETS, ELEMENTS, coset_of};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// What defines a coset study: two files belong to the same study iff these agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CosetStudy {
    pub seed: u64,
    /// Last depth of each run's phase-1 search: distances up to it are exact.
    pub search_depth: u8,
    /// Last depth of each run.
    pub max_depth: u8,
    /// Positions drawn from each coset; those beyond the search depth are solved optimally.
    pub samples: usize,
}

impl fmt::Display for CosetStudy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed {}, search depth {}, max depth {}, {} samples a coset",
            self.seed, self.search_depth, self.max_depth, self.samples
        )
    }
}

impl CosetStudy {
    /// The study's cosets 0, 1, 2, … in order (an endless iterator of coset numbers).
    pub fn cosets(&self) -> impl Iterator<Item = u64> + use<> {
        let mut rng = Rng::new(self.seed);
        std::iter::repeat_with(move || rng.below(COSETS))
    }

    /// The coset of index `i`.
    pub fn coset(&self, i: u64) -> u64 {
        self.cosets().nth(i as usize).expect("endless")
    }

    /// The seed of the positions sampled in the coset of index `i`.
    pub fn sample_seed(&self, i: u64) -> u64 {
        self.seed ^ (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The base name of the study's files: `cosets-seed{S}-s{search}-d{max}-k{samples}`.
    pub fn name(&self) -> String {
        format!(
            "cosets-seed{}-s{}-d{}-k{}",
            self.seed, self.search_depth, self.max_depth, self.samples
        )
    }

    /// The default output file of a (shard of a) study, under `results/`.
    pub fn default_out(&self, shard: Option<crate::stats::study::Shard>) -> PathBuf {
        let shard = shard.map_or(String::new(), |s| format!("-shard{}of{}", s.k, s.n));
        PathBuf::from(format!("results/{}{shard}.jsonl", self.name()))
    }
}

/// A position drawn from a coset, with what the run and the optimal solver said of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CosetSample {
    pub facelets: String,
    /// The depth at which the coset run found it (`None`: not by the last depth).
    pub found: Option<u8>,
    /// Its distance: the run's when `found` is exact, else the optimal solver's.
    pub length: u8,
    /// The optimal solver's solution (only for positions beyond the search depth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// Seconds the optimal solver took (0 for positions not solved).
    pub seconds: f64,
}

/// One finished coset of a study: one line of a coset study file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CosetRecord {
    pub index: u64,
    pub seed: u64,
    /// Cosets in the whole study (all shards), as asked for by the run that wrote the line.
    pub count: u64,
    pub coset: u64,
    pub search_depth: u8,
    pub max_depth: u8,
    /// Positions at each exact distance, from 0 through the search depth (fewer when the
    /// run ended earlier, every position found).
    pub depth_counts: Vec<u64>,
    /// Positions first found within each depth after the search depth (bounds, not distances).
    pub bounded_counts: Vec<u64>,
    /// Positions not found by the last depth.
    pub unset: u64,
    /// Of the last bounded count, positions the prepasses left and a two-phase solution
    /// within the last depth, checked on each, closed (0 in files written before the field).
    #[serde(default)]
    pub closed: u64,
    /// Sample count asked for ([`CosetStudy::samples`]).
    pub samples_asked: usize,
    pub samples: Vec<CosetSample>,
    /// The table set that solved the samples.
    pub set: String,
    /// Seconds of the coset run, and of solving its samples.
    pub seconds: f64,
    pub sample_seconds: f64,
    pub threads: usize,
    pub peak_bitmap_bytes: u64,
}

impl CosetRecord {
    /// The study the record belongs to.
    pub fn study(&self) -> CosetStudy {
        CosetStudy {
            seed: self.seed,
            search_depth: self.search_depth,
            max_depth: self.max_depth,
            samples: self.samples_asked,
        }
    }

    /// Positions beyond the search depth (bounded or unset): the part the samples estimate.
    pub fn tail(&self) -> u64 {
        ELEMENTS - self.depth_counts.iter().sum::<u64>()
    }

    /// The samples beyond the search depth (solved by the optimal solver).
    pub fn tail_samples(&self) -> impl Iterator<Item = &CosetSample> {
        let exact = self.depth_counts.len();
        self.samples
            .iter()
            .filter(move |s| s.found.is_none_or(|d| d as usize >= exact))
    }

    /// Checks the record by itself: its coset is the study's coset of its index, its counts
    /// cover the coset, and every sample lies in the coset and agrees with the run (solved by
    /// its solution when it was solved).
    pub fn check(&self) -> Result<(), String> {
        let study = self.study();
        if self.index >= self.count {
            return Err(format!(
                "index {} is not below count {}",
                self.index, self.count
            ));
        }
        let expected = study.coset(self.index);
        if expected != self.coset {
            return Err(format!(
                "coset {} is not the study's coset of index {} ({expected})",
                self.coset, self.index
            ));
        }
        if self.search_depth > self.max_depth {
            return Err("search depth beyond max depth".into());
        }
        let exact = self.depth_counts.len();
        let total: u64 = self.depth_counts.iter().chain(&self.bounded_counts).sum();
        if total + self.unset != ELEMENTS {
            return Err(format!(
                "counts add up to {} positions, not {ELEMENTS}",
                total + self.unset
            ));
        }
        if self.closed > self.bounded_counts.last().copied().unwrap_or(0) {
            return Err(format!(
                "{} positions closed, more than the last depth's count",
                self.closed
            ));
        }
        if exact > self.search_depth as usize + 1
            || (exact <= self.search_depth as usize && self.tail() != 0)
        {
            return Err(format!(
                "{exact} exact depths do not fit search depth {}",
                self.search_depth
            ));
        }
        if self.samples.len() != self.samples_asked {
            return Err(format!(
                "{} samples, {} asked",
                self.samples.len(),
                self.samples_asked
            ));
        }
        for (k, s) in self.samples.iter().enumerate() {
            self.check_sample(s)
                .map_err(|e| format!("sample {k} ({}): {e}", s.facelets))?;
        }
        Ok(())
    }

    fn check_sample(&self, s: &CosetSample) -> Result<(), String> {
        let cube = Cube::from_facelets(&s.facelets).map_err(|e| e.to_string())?;
        if coset_of(&cube) != self.coset {
            return Err(format!("in coset {}, not {}", coset_of(&cube), self.coset));
        }
        let exact = self.depth_counts.len();
        let (n, s_depth) = (s.length, self.search_depth);
        let agrees = match s.found {
            Some(d) if (d as usize) < exact => n == d,
            Some(d) => s_depth < n && n <= d,
            None => n > self.max_depth,
        };
        if !agrees {
            return Err(format!(
                "length {n} disagrees with the run (found at {:?}, exact through {})",
                s.found,
                exact as i64 - 1
            ));
        }
        match &s.solution {
            Some(text) => {
                let moves = parse_moves(text).map_err(|e| format!("solution: {e}"))?;
                if !crate::solvers::solves(&cube, &moves) {
                    return Err("the solution does not solve it".into());
                }
                if Metric::Htm.length(&moves) != n as usize {
                    return Err(format!("length {n}, but the solution has {}", moves.len()));
                }
            }
            None if s.found.is_none_or(|d| d as usize >= exact) => {
                return Err("beyond the search depth, but not solved".into());
            }
            None => {}
        }
        Ok(())
    }
}

impl crate::stats::study::StudyLine for CosetRecord {
    type Study = CosetStudy;
    fn study(&self) -> CosetStudy {
        CosetRecord::study(self)
    }
    fn index(&self) -> u64 {
        self.index
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn check(&self) -> Result<(), String> {
        CosetRecord::check(self)
    }
}

/// A coset study read from its files, and the half-written last lines found (file, line).
pub type StudyFiles = (
    crate::stats::study::Collection<CosetRecord>,
    Vec<(PathBuf, usize)>,
);

/// The records of a coset study's files (e.g. its shards), merged and checked as a length
/// study's are ([`crate::stats::study::Collection`]); also the line numbers of half-written
/// last lines, by file (ignored: a run may still be writing them).
pub fn read_study(files: &[PathBuf]) -> Result<StudyFiles, crate::stats::study::StudyError> {
    let mut all = crate::stats::study::Collection::default();
    let mut partial = Vec::new();
    for f in files {
        let parsed = crate::stats::study::read_file(f)?;
        if let Some(line) = parsed.partial_line {
            partial.push((f.clone(), line));
        }
        all.add(f, &parsed, None)?;
    }
    Ok((all, partial))
}
