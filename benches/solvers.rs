//! Timings of the two-phase and Thistlethwaite solvers, printed (not a pass/fail test):
//! table build time, opening with tables present, and random positions solved on one thread.
//!
//! Run with `cargo bench --bench solvers`; `SOLVERS_BENCH_N=300` changes the number of random
//! positions (default 1000 for two-phase, 200 for Thistlethwaite). Needs no table files: the
//! two-phase tables are written to a temporary directory and removed afterwards.

use optcube::cube::{Cube, Rng};
use optcube::progress::ProgressMode;
use optcube::solvers::solves;
use optcube::solvers::thistlethwaite::Thistlethwaite;
use optcube::solvers::twophase::TwoPhase;
use std::time::{Duration, Instant};

fn positions(default: usize) -> Vec<Cube> {
    let n = std::env::var("SOLVERS_BENCH_N").map_or(default, |v| v.parse().expect("a count"));
    let mut rng = Rng::new(1);
    (0..n).map(|_| Cube::random(&mut rng)).collect()
}

/// Median, 90th percentile and maximum of `times` (milliseconds).
fn spread(mut times: Vec<f64>) -> String {
    times.sort_by(f64::total_cmp);
    let at = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    format!(
        "median {:.3} ms, p90 {:.3} ms, max {:.3} ms",
        at(0.5),
        at(0.9),
        times[times.len() - 1]
    )
}

fn twophase() {
    let dir = std::env::temp_dir().join(format!("optcube-bench-twophase-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let t = Instant::now();
    let tp = TwoPhase::open(&dir, ProgressMode::Hidden).expect("two-phase tables");
    println!(
        "twophase: open, empty directory (build + write): {:.2} s",
        t.elapsed().as_secs_f64()
    );
    for run in 0..3 {
        let t = Instant::now();
        TwoPhase::open(&dir, ProgressMode::Hidden).expect("two-phase tables");
        println!(
            "twophase: open, tables present, run {run}: {:.3} s",
            t.elapsed().as_secs_f64()
        );
    }
    for (name, h) in tp.pruning_histograms() {
        println!("twophase: {name}: {h:?}");
    }
    let cubes = positions(1000);
    for (label, max_length) in [("<= 20 moves", 20), ("first solution", 99)] {
        let (mut times, mut total) = (Vec::new(), 0);
        for c in &cubes {
            let t = Instant::now();
            let sol = tp
                .solve_with(c, max_length, Duration::from_secs(60), 1)
                .solution
                .expect("a solution");
            times.push(t.elapsed().as_secs_f64() * 1e3);
            assert!(solves(c, &sol));
            total += sol.len();
        }
        println!(
            "twophase {label}, {} positions: {}, mean length {:.2}",
            cubes.len(),
            spread(times),
            total as f64 / cubes.len() as f64
        );
    }
    std::fs::remove_dir_all(&dir).expect("remove the temporary tables");
}

fn thistlethwaite() {
    let t = Instant::now();
    let solver = Thistlethwaite::new();
    println!(
        "thistlethwaite: tables built in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    let cubes = positions(200);
    let (mut times, mut total, mut longest) = (Vec::new(), 0, 0);
    for c in &cubes {
        let t = Instant::now();
        let sol = solver.solve(c);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        assert!(solves(c, &sol.moves));
        total += sol.moves.len();
        longest = longest.max(sol.moves.len());
    }
    println!(
        "thistlethwaite, {} positions: {}, mean length {:.2}, longest {longest}",
        cubes.len(),
        spread(times),
        total as f64 / cubes.len() as f64
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word selects one solver.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("twophase") {
        twophase();
    }
    if wanted("thistlethwaite") {
        thistlethwaite();
    }
}
