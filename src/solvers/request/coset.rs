//! [`CosetJob`]: a coset run as one request. [`CosetJob::plan`] checks it (the coset named
//! once and in range, the depths, settling, samples, God's number, the memory of a deep run)
//! and resolves its depths ([`CosetPlan`]): with neither depth given, every distance; a run
//! to 20 without a search depth is the proof (a search to 15, then prepasses).

use super::Refusal;
use crate::cube::{Cube, Metric};
use crate::progress::ProgressMode;
use crate::solvers::coset::{
    CosetOptions, FULL_RUN_BYTES, MAX_DEPTH, SETTLE_BELOW, default_search_depth, representative,
};

/// A coset run, as a front asks it.
#[derive(Clone, Debug, Default)]
pub struct CosetJob {
    /// A position of the coset (scramble or facelets); neither this nor `index`: H itself.
    pub position: Option<String>,
    /// The coset by number (signed, so that a negative one is answered as out of range).
    pub index: Option<i64>,
    pub max_depth: Option<u8>,
    pub search_depth: Option<u8>,
    /// Solve the unset positions one by one afterwards.
    pub settle: bool,
    /// Positions drawn at random, with whether they have somewhere to go.
    pub sample: Option<usize>,
    pub sample_out: bool,
    /// A study of random cosets: no coset is named.
    pub study: bool,
}

/// A checked coset run: its coset (none for a study) and depths.
#[derive(Clone, Debug)]
pub struct CosetPlan {
    pub coset: Option<Cube>,
    pub max_depth: u8,
    pub search_depth: u8,
    /// Neither depth was given: every distance, the last few positions settled.
    pub every_distance: bool,
    /// The unset positions are settled after the walk (asked, or every distance).
    pub settle: bool,
}

impl CosetJob {
    /// Every check that needs no table, and the depths resolved.
    pub fn plan(&self) -> Result<CosetPlan, Refusal> {
        let every_distance = self.max_depth.is_none() && self.search_depth.is_none();
        let max_depth = self.max_depth.unwrap_or(MAX_DEPTH);
        // A run to 20 is the proof, unless it is to settle every distance.
        let search_depth = match every_distance || self.settle {
            true => self.search_depth.unwrap_or(max_depth),
            false => (self.search_depth).unwrap_or_else(|| default_search_depth(max_depth)),
        };
        if search_depth > max_depth {
            return Err(Refusal::SearchBeyondMax {
                search: search_depth,
                max: max_depth,
            });
        }
        if self.settle && max_depth > search_depth.saturating_add(1) {
            return Err(Refusal::SettleDepth {
                most: search_depth.saturating_add(1),
            });
        }
        if self.sample.is_some() && !self.sample_out && !self.study {
            return Err(Refusal::SampleNeedsOut);
        }
        // God's number: every position is within 20 moves, so a run has found every element
        // by depth 20; a deeper limit is a typo that would only cost memory.
        if let Some(d) = self.max_depth.filter(|&d| d > Metric::Htm.diameter()) {
            return Err(Refusal::PastGodsNumber(d));
        }
        // Beyond the first few depths the bitmaps fill: refused before hours of work end in
        // the out-of-memory killer.
        if max_depth > 8
            && let Some(have) = crate::sys::available_memory()
            && have < FULL_RUN_BYTES
        {
            return Err(Refusal::Memory {
                need: FULL_RUN_BYTES,
                have,
            });
        }
        let coset = match (&self.position, self.index) {
            _ if self.study => None,
            (Some(_), Some(_)) => return Err(Refusal::PositionAndIndex),
            (Some(s), None) => Some(
                crate::cube::parse_position(s)
                    .map_err(|e| Refusal::Said(format!("invalid position: {e}")))?,
            ),
            (None, Some(n)) => {
                Some((u64::try_from(n).ok().and_then(representative)).ok_or(Refusal::Index(n))?)
            }
            (None, None) => Some(Cube::SOLVED),
        };
        Ok(CosetPlan {
            coset,
            max_depth,
            search_depth,
            every_distance,
            settle: self.settle || every_distance,
        })
    }
}

impl CosetPlan {
    /// The coset solver's options for this plan.
    pub fn options(
        &self,
        progress: ProgressMode,
        samples: Vec<(usize, usize, usize)>,
    ) -> CosetOptions {
        CosetOptions {
            max_depth: self.max_depth,
            search_depth: self.search_depth,
            // Every distance: the walk hands its last few positions over to the optimal
            // solver.
            settle_below: if self.every_distance { SETTLE_BELOW } else { 0 },
            progress,
            samples,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::request::Front;

    #[test]
    fn the_depths_resolve_as_documented_and_bad_runs_are_refused() {
        let plan = |job: CosetJob| job.plan().map_err(|e| e.message(Front::Cli));
        let every = plan(CosetJob::default()).unwrap();
        assert!(every.every_distance && every.settle);
        assert_eq!(
            (every.max_depth, every.search_depth),
            (MAX_DEPTH, MAX_DEPTH)
        );
        let proof = CosetJob {
            max_depth: Some(20),
            ..CosetJob::default()
        };
        let p = plan(proof).unwrap();
        assert_eq!((p.search_depth, p.settle), (15, false));
        let bad = [
            (
                CosetJob {
                    max_depth: Some(4),
                    search_depth: Some(5),
                    ..CosetJob::default()
                },
                "--search-depth 5 is beyond --max-depth 4",
            ),
            (
                CosetJob {
                    max_depth: Some(4),
                    search_depth: Some(2),
                    settle: true,
                    ..CosetJob::default()
                },
                "--settle needs --max-depth at most --search-depth + 1 (3)",
            ),
            (
                CosetJob {
                    max_depth: Some(21),
                    ..CosetJob::default()
                },
                "--max-depth 21: no position is more than 20 moves",
            ),
            (
                CosetJob {
                    index: Some(-1),
                    max_depth: Some(3),
                    ..CosetJob::default()
                },
                "--index -1 is out of range",
            ),
            (
                CosetJob {
                    position: Some("R".into()),
                    index: Some(1),
                    max_depth: Some(3),
                    ..CosetJob::default()
                },
                "give a position or an index, not both",
            ),
            (
                CosetJob {
                    sample: Some(3),
                    max_depth: Some(3),
                    ..CosetJob::default()
                },
                "--sample needs --sample-out FILE",
            ),
        ];
        for (job, words) in bad {
            let said = plan(job).unwrap_err();
            assert!(said.starts_with(words), "{said:?} for {words:?}");
        }
    }
}
