//! A count of the positions at each distance from solved as one job, for the command line
//! (`optcube stats distances`) and Python (`optcube.distances`): what is asked
//! ([`DistanceJob`]), its check against the machine before any work ([`DistanceJob::plan`]:
//! depth, memory, and the disk of a spilled last layer), the count ([`DistanceJob::run`]), and
//! the counts set beside the published ones ([`check_published`]). The fronts only parse, show
//! progress and write.

use super::distances::{
    LayerCount, PUBLISHED_CLASSES_SYM, estimated_classes, layer_counts, peak_bytes, published,
};
use super::spill::{
    Event, Spill, SpillReport, disk_estimate, layer_counts_spilled, memory_estimate,
};
use crate::coord::positions::Reduction;
use crate::cube::Metric;
use std::path::PathBuf;

/// A distance count: to `max_depth`, over whole positions (`reduction` `None`) or classes of
/// positions, with the last layer through disk when `spill` is given (class searches only).
#[derive(Clone, Debug)]
pub struct DistanceJob {
    /// Distances in this metric (a spill counts its last layer in it too).
    pub metric: Metric,
    pub max_depth: u8,
    pub reduction: Option<Reduction>,
    pub spill: Option<Spill>,
}

/// What a job will hold, estimated before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Peak memory, bytes.
    pub memory: u128,
    /// The spill's chunk files at their peak, bytes (`None`: nothing goes to disk).
    pub disk: Option<u64>,
}

/// Why a job cannot run here. The fronts word the remedies in their own terms (a flag, a
/// keyword), so each case carries what they need.
#[derive(Debug, PartialEq, Eq)]
pub enum JobError {
    /// Past the metric's diameter: no position is that far.
    TooDeep { max_depth: u8, metric: Metric },
    /// A spill needs a class search and a depth of at least 1.
    SpillNeedsClasses,
    /// No published count to estimate the memory from (depth 10 in HTM, 12 in QTM is the
    /// last).
    NoEstimate { max_depth: u8, metric: Metric },
    /// The search needs more memory than is available; `spill_would_help` for a class search
    /// that holds its last layer in memory.
    Memory {
        need: u128,
        have: u64,
        spill_would_help: bool,
    },
    /// The spill's chunk files need more disk than its directory's file system has free.
    Disk { dir: PathBuf, need: u64, have: u64 },
    /// The spill directory cannot be made.
    Io { dir: PathBuf, error: String },
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::TooDeep { max_depth, metric } => write!(
                f,
                "depth {max_depth}: no position is more than {} {} from solved",
                metric.diameter(),
                metric.unit_for(metric.diameter().into())
            ),
            JobError::SpillNeedsClasses => write!(
                f,
                "a spill counts the last layer of a class search: count classes, to depth 1 or more"
            ),
            JobError::NoEstimate { max_depth, metric } => write!(
                f,
                "depth {max_depth}: no published count to estimate the memory from (in {metric}, \
                 depth {} is the last)",
                published(*metric).len() - 1
            ),
            JobError::Memory { need, have, .. } => write!(
                f,
                "the search needs about {} MB, only {} MB available (MemAvailable)",
                need >> 20,
                have >> 20
            ),
            JobError::Disk { dir, need, have } => write!(
                f,
                "the chunk files need about {} MB in {}, only {} MB free",
                need >> 20,
                dir.display(),
                have >> 20
            ),
            JobError::Io { dir, error } => write!(f, "{}: {error}", dir.display()),
        }
    }
}

impl DistanceJob {
    /// The checks of what is asked alone (no estimate, nothing touched): the depth, and a
    /// spill only for a class search to depth 1 or more. [`DistanceJob::plan`] makes them too.
    pub fn check_asked(&self) -> Result<(), JobError> {
        if self.max_depth > self.metric.diameter() {
            return Err(JobError::TooDeep {
                max_depth: self.max_depth,
                metric: self.metric,
            });
        }
        if self.spill.is_some() && (self.reduction.is_none() || self.max_depth == 0) {
            return Err(JobError::SpillNeedsClasses);
        }
        Ok(())
    }

    /// Checks the job against the machine before any work: the depth, an estimate of the peak
    /// memory against `available` (MemAvailable; `None`: not checked), and for a spill the disk
    /// of its chunk files against the free space of its directory (made here; chunk files of
    /// an earlier run count as space already had, since a rerun keeps them).
    pub fn plan(&self, available: Option<u64>) -> Result<Plan, JobError> {
        self.check_asked()?;
        let d = self.max_depth;
        let memory = match &self.spill {
            None => peak_bytes(d, self.reduction, self.metric),
            Some(s) => {
                let classes = |d: u8| estimated_classes(d as usize, s.reduction, self.metric);
                let before = peak_bytes(d - 1, self.reduction, self.metric);
                let prev = if d >= 2 { classes(d - 2) } else { Some(0) };
                match (before, classes(d - 1), prev) {
                    (Some(b), Some(c), Some(p)) => {
                        let chunk = (s.chunk_parents as u64).min(c);
                        let m = memory_estimate(p, c, chunk, self.metric);
                        Some(b.max(((p + c) * 16 + m) as u128))
                    }
                    _ => None,
                }
            }
        }
        .ok_or(JobError::NoEstimate {
            max_depth: d,
            metric: self.metric,
        })?;
        if let Some(have) = available.filter(|&have| memory > have as u128) {
            return Err(JobError::Memory {
                need: memory,
                have,
                spill_would_help: self.reduction.is_some() && self.spill.is_none(),
            });
        }
        let disk = match &self.spill {
            None => None,
            Some(s) => {
                let parents = estimated_classes(d as usize - 1, s.reduction, self.metric)
                    .expect("the memory estimate found it");
                let need = disk_estimate(parents, self.metric);
                std::fs::create_dir_all(&s.dir).map_err(|e| JobError::Io {
                    dir: s.dir.clone(),
                    error: e.to_string(),
                })?;
                let have = crate::sys::free_disk(&s.dir).unwrap_or(u64::MAX) + dir_bytes(&s.dir);
                if need > have {
                    return Err(JobError::Disk {
                        dir: s.dir.clone(),
                        need,
                        have,
                    });
                }
                Some(need)
            }
        };
        Ok(Plan { memory, disk })
    }

    /// Counts on the current rayon pool: layer sizes 0..=max_depth, `on_layer(d, count)` as
    /// each is done and `on_event` for a spill's chunks and partitions; with the spill's
    /// report. Check the job with [`DistanceJob::plan`] first.
    pub fn run(
        &self,
        on_layer: impl FnMut(u8, LayerCount),
        on_event: impl FnMut(Event) + Send,
    ) -> Result<(Vec<LayerCount>, Option<SpillReport>), String> {
        match &self.spill {
            None => Ok((
                layer_counts(self.max_depth, self.reduction, self.metric, on_layer),
                None,
            )),
            Some(s) => {
                let (counts, report) =
                    layer_counts_spilled(self.max_depth, self.metric, s, on_layer, on_event)?;
                Ok((counts, Some(report)))
            }
        }
    }
}

/// One depth's count beside the published ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    pub count: LayerCount,
    /// The published number of positions at that distance, where there is one.
    pub published: Option<u64>,
    /// The published number of classes under the 48 symmetries, where there is one and the
    /// count is of those classes.
    pub published_classes: Option<u64>,
}

impl Checked {
    /// `Some(true)` when every published number there is equals the count, `Some(false)` when
    /// one differs, `None` when none is published.
    pub fn matches(&self) -> Option<bool> {
        let checks = [
            self.published.map(|p| p == self.count.positions),
            self.published_classes.map(|p| p == self.count.classes),
        ];
        if checks.contains(&Some(false)) {
            Some(false)
        } else if checks.contains(&Some(true)) {
            Some(true)
        } else {
            None
        }
    }
}

/// The counts beside the published ones (positions: Rokicki et al. in HTM, OEIS A080602 in
/// QTM; classes under the 48 symmetries alone, in HTM: Bryan, compared only when `reduction`
/// is that).
pub fn check_published(
    counts: &[LayerCount],
    reduction: Option<Reduction>,
    metric: Metric,
) -> Vec<Checked> {
    let symmetry_classes = reduction == Some(Reduction::Symmetry) && metric == Metric::Htm;
    (counts.iter().enumerate())
        .map(|(d, &count)| Checked {
            count,
            published: published(metric).get(d).copied(),
            published_classes: PUBLISHED_CLASSES_SYM
                .get(d)
                .copied()
                .filter(|_| symmetry_classes),
        })
        .collect()
}

/// Bytes of the files directly in `dir` (0 when it cannot be read).
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks refuse what cannot run, each for its own reason, before any work; a small
    /// job runs and matches the published counts; a wrong count is caught.
    #[test]
    fn plan_refuses_and_small_counts_match() {
        let job = |max_depth, reduction, spill| DistanceJob {
            metric: Metric::Htm,
            max_depth,
            reduction,
            spill,
        };
        let sym = Some(Reduction::SymmetryAndInverse);
        assert_eq!(
            job(21, sym, None).plan(None),
            Err(JobError::TooDeep {
                max_depth: 21,
                metric: Metric::Htm
            })
        );
        assert_eq!(
            job(12, sym, None).plan(None),
            Err(JobError::NoEstimate {
                max_depth: 12,
                metric: Metric::Htm
            })
        );
        let spill = Spill {
            dir: std::env::temp_dir().join("optcube-distance-job-unused"),
            chunk_parents: 10,
            reduction: Reduction::Symmetry,
        };
        assert_eq!(
            job(5, None, Some(spill)).plan(None),
            Err(JobError::SpillNeedsClasses)
        );
        match job(9, sym, None).plan(Some(1 << 30)) {
            Err(JobError::Memory {
                spill_would_help: true,
                have,
                ..
            }) => assert_eq!(have, 1 << 30),
            other => panic!("{other:?}"),
        }
        let small = job(4, Some(Reduction::Symmetry), None);
        let plan = small.plan(Some(1 << 30)).unwrap();
        assert!(plan.memory > 0 && plan.disk.is_none());
        let (counts, report) = small.run(|_, _| {}, |_| {}).unwrap();
        assert!(report.is_none());
        let checked = check_published(&counts, small.reduction, Metric::Htm);
        assert_eq!(checked.len(), 5);
        assert!(checked.iter().all(|c| c.matches() == Some(true)));
        let mut wrong = checked[3];
        wrong.count.positions += 1;
        assert_eq!(wrong.matches(), Some(false));
        // Classes under inversion too are not Bryan's: only positions are compared.
        let inv = check_published(&counts, sym, Metric::Htm);
        assert!(inv.iter().all(|c| c.published_classes.is_none()));
    }
}
