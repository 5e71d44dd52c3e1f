//! Coset studies: reproducible cosets, the record's checks (each fault found), the estimate's
//! arithmetic, and a run that resumes from its file.

use super::estimate::{estimate, t975};
use super::*;
use crate::cube::format_moves;
use crate::solvers::coset::representative;
use crate::stats::study::{Shard, StudyError};
use crate::testing::twophase;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn study() -> CosetStudy {
    CosetStudy {
        seed: 7,
        search_depth: 9,
        max_depth: 30,
        samples: 2,
    }
}

/// A record that passes its checks: index 0 of [`study`], whose search depth is set just below
/// the length of a two-phase solution of the representative, found at that length.
fn valid() -> CosetRecord {
    let coset = study().coset(0);
    let p = representative(coset).unwrap();
    let moves = twophase().solve(&p, 30, Duration::from_secs(10)).unwrap();
    let n = moves.len() as u8;
    let mut depth_counts = vec![0; n as usize];
    depth_counts[0] = 5;
    CosetRecord {
        index: 0,
        seed: 7,
        count: 3,
        coset,
        search_depth: n - 1,
        max_depth: n + 2,
        bounded_counts: vec![7, ELEMENTS - 5 - 7],
        depth_counts,
        unset: 0,
        closed: 3,
        samples_asked: 2,
        samples: vec![
            CosetSample {
                facelets: p.to_facelets(),
                found: Some(0),
                length: 0,
                solution: None,
                seconds: 0.0,
            },
            CosetSample {
                facelets: p.to_facelets(),
                found: Some(n + 1),
                length: n,
                solution: Some(format_moves(&moves)),
                seconds: 0.1,
            },
        ],
        set: "test".into(),
        seconds: 1.0,
        sample_seconds: 0.1,
        threads: 1,
        peak_bitmap_bytes: 0,
    }
}

#[test]
fn a_study_draws_the_same_cosets_whatever_the_shard() {
    let s = study();
    let first: Vec<u64> = s.cosets().take(5).collect();
    assert!(first.iter().all(|&c| c < crate::solvers::coset::COSETS));
    assert_eq!(s.coset(3), first[3]);
    let other = CosetStudy { seed: 8, ..s };
    assert_ne!(other.cosets().take(5).collect::<Vec<_>>(), first);
    assert_ne!(s.sample_seed(0), s.sample_seed(1));
    assert_eq!(s.name(), "cosets-seed7-s9-d30-k2");
}

/// A change that breaks a record.
type Fault = Box<dyn Fn(&mut CosetRecord)>;

#[test]
fn a_record_check_finds_each_fault() {
    let good = valid();
    good.check().unwrap();
    let s = study();
    // The record's study differs from study() only in its depths (set from the solution).
    assert_eq!(good.study().seed, s.seed);
    let faults: Vec<(&str, Fault)> = vec![
        ("not the study's coset", Box::new(|r| r.coset += 1)),
        ("add up", Box::new(|r| r.unset += 1)),
        ("closed, more than", Box::new(|r| r.closed = ELEMENTS)),
        ("not below count", Box::new(|r| r.index = 3)),
        ("samples, ", Box::new(|r| r.samples_asked = 3)),
        ("disagrees", Box::new(|r| r.samples[0].length = 1)),
        (
            "disagrees",
            Box::new(|r| r.samples[1].found = Some(r.samples[1].length - 1)),
        ),
        ("not solved", Box::new(|r| r.samples[1].solution = None)),
        (
            "does not solve",
            Box::new(|r| r.samples[1].solution = Some("U".into())),
        ),
        (
            "in coset",
            Box::new(|r| {
                let c = Cube::from_facelets(&r.samples[0].facelets).unwrap();
                r.samples[0].facelets = c
                    .apply(crate::cube::Move::all().nth(3).unwrap())
                    .to_facelets();
            }),
        ),
    ];
    for (what, fault) in faults {
        let mut r = good.clone();
        fault(&mut r);
        let e = r.check().unwrap_err();
        assert!(e.contains(what), "{what}: {e}");
    }
}

#[test]
fn the_estimate_is_the_scaled_mean_with_a_t_interval() {
    let mut a = valid();
    let n = a.samples[1].length;
    // Coset b: the same exact counts, and its one tail sample one deeper.
    let mut b = a.clone();
    b.samples[1].length = n + 1;
    a.samples.truncate(2);
    let e = estimate([&a, &b]).unwrap();
    let scale = crate::solvers::coset::COSETS as f64;
    assert_eq!(e.cosets, 2);
    assert_eq!(e.tail_samples, 2);
    assert_eq!(e.rows.len(), n as usize + 3);
    assert_eq!(e.rows[0].estimate, 5.0 * scale);
    assert_eq!(e.rows[0].interval, Some((5.0 * scale, 5.0 * scale)));
    assert!(e.rows[0].exact && !e.rows[n as usize].exact);
    // Depth n: the whole tail in a, none in b; mean tail/2, s = tail/√2, half = t·s/√2.
    let tail = a.tail() as f64;
    let row = &e.rows[n as usize];
    assert_eq!(row.estimate, scale * tail / 2.0);
    let half = t975(1) * tail / 2.0;
    let (lo, hi) = row.interval.unwrap();
    assert!((hi - scale * (tail / 2.0 + half)).abs() / hi < 1e-12);
    assert_eq!(lo, 0.0);
    assert_eq!(row.cosets_seen, 1);
    // The rows go on to the runs' last depth, which no sample reached: an upper bound only.
    let last = e.rows.last().unwrap();
    assert_eq!(last.depth, a.max_depth);
    assert!(last.upper_bound.is_some() && last.interval.is_none());
    // A depth no coset shows beyond the search depth gets the rule-of-three bound.
    let mut c = a.clone();
    c.samples[1].length = n + 3;
    let e = estimate([&a, &c]).unwrap();
    let row = &e.rows[n as usize + 1];
    assert_eq!(row.cosets_seen, 0);
    assert_eq!(row.upper_bound, Some(scale * tail * 3.0 / 2.0));
    assert!(e.markdown().contains("rule of three"));
    assert_eq!(e.csv().lines().count(), e.rows.len() + 1);
    // Without samples beyond the search depth the estimate stops at the exact depths.
    let mut d = a.clone();
    d.samples.truncate(1);
    let e = estimate([&d, &a]).unwrap();
    assert_eq!((e.unsampled, e.rows.len()), (1, n as usize));
    assert!(e.markdown().contains("not estimated"));
    assert!((t975(9) - 2.262).abs() < 1e-9 && (t975(200) - 1.972).abs() < 1e-3);
}

/// A study of two cosets to depth 5 (no samples: everything deeper is bounded), stopped after
/// the first and resumed; a foreign line and a coset outside the shard are refused.
#[test]
fn a_run_appends_checked_records_and_resumes() {
    let dir = std::env::temp_dir().join(format!("optcube-coset-study-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s.jsonl");
    let study = CosetStudy {
        seed: 3,
        search_depth: 5,
        max_depth: 5,
        samples: 0,
    };
    let run = CosetStudyRun {
        study,
        count: 2,
        shard: None,
        out: out.clone(),
    };
    let coset = crate::testing::coset_solver();
    let optimal = crate::solvers::optimal::OptimalSolver::from_tables(Vec::new());
    let opts = crate::search::SearchOptions::default();
    let solvers = Solvers {
        coset,
        optimal: Some(&optimal),
        opts: &opts,
        set: "none",
        progress: crate::progress::ProgressMode::Hidden,
    };
    let mut opened = run.open().unwrap();
    assert_eq!(opened.todo, vec![0, 1]);
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let stopped = opened
        .run(&solvers, &stop, |r, k| {
            seen.push((r.index, k));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
    assert!(stopped && seen == vec![(0, 1)]);
    drop(opened);
    // A half-written line is cut off; the finished coset is not run again.
    let mut text = std::fs::read_to_string(&out).unwrap();
    let first: CosetRecord = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first.coset, study.coset(0));
    assert_eq!(first.depth_counts.len() + first.bounded_counts.len(), 6);
    text.push_str("{\"index\": 1, \"se");
    std::fs::write(&out, &text).unwrap();
    let mut opened = run.open().unwrap();
    assert_eq!(
        (opened.todo.clone(), opened.partial_line),
        (vec![1], Some(2))
    );
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    assert!(!opened.run(&solvers, &stop, |_, _| {}).unwrap());
    assert_eq!(opened.done.len(), 2);
    drop(opened);
    let other = CosetStudyRun {
        study: CosetStudy { seed: 4, ..study },
        ..run.clone()
    };
    assert!(matches!(other.open(), Err(StudyError::Foreign { .. })));
    let shard = CosetStudyRun {
        shard: Some(Shard { k: 1, n: 2 }),
        ..run
    };
    assert!(matches!(shard.open(), Err(StudyError::OtherShard { .. })));
    // Positions beyond depth 5 and no samples: the estimate stops at depth 5.
    let records: Vec<CosetRecord> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(estimate(&records).unwrap().rows.len(), 6);
    std::fs::remove_dir_all(dir).unwrap();
}
