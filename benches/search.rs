//! Search benchmarks: heuristic lookups and complete IDA* solves.
//!
//! Run with `cargo bench --bench search` (add `-- --quick` for a fast pass). The corner table
//! (88,179,840 entries, 44 MB) is generated in-process once, before any benchmark runs, with
//! the BFS generator on the default rayon pool (~15 s on 2 cores); no file is read or written.
//! Only the corner table is used, so absolute node counts are much larger than with the `korf`
//! set, but the per-node cost is close to that of one table lookup.
//!
//! Groups:
//! - `heuristic/value/{single,dual}`: `Heuristic::value` of random positions (the table lookups
//!   are random memory accesses: mostly cache misses on a 44 MB table);
//! - `solve/corners/<scramble>`: `optcube::search::solve` of a fixed 9-move and a fixed 10-move
//!   scramble, single-threaded (node expansion as the search does it: children evaluated table
//!   by table with prefetching), the corner table read child by child; the throughput is the
//!   search's node count, so criterion's `thrpt` line is nodes/s (`Melem/s` = million nodes/s);
//! - `solve/successors/<scramble>`: the same with the corner successor table (derived from the
//!   corner table once, before the benchmarks), one read per expanded node.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use optcube::cube::{Cube, Rng, format_moves, parse_moves};
use optcube::pdb::{Method, Pattern, generate};
use optcube::progress::{Progress, ProgressMode};
use optcube::search::{Heuristic, SearchOptions, solve};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The fixed scrambles of the full-solve benchmarks: a 9-move one (optimal 9; the corner
/// table alone needs ~2,600 nodes, so per-search overhead shows) and a 10-move one (optimal 10,
/// ~580,000 nodes: a steadier nodes/s figure).
const SCRAMBLES: [&str; 2] = ["R U F' D2 L B' U2 R' F", "D B' R' D' F' R' B2 D' B' R2"];
/// Pool of random inputs; for lookups this should be far larger than what the caches could
/// keep of the table, so that the measured cost includes the memory access.
const POOL: usize = 1 << 14;

fn corner_heuristic() -> Heuristic {
    let t = Instant::now();
    let progress = Progress::new(
        ProgressMode::Hidden,
        "corners",
        Pattern::CORNERS.entries(),
        "entries",
    );
    let table = generate(
        Pattern::CORNERS,
        Method::Bfs,
        &progress,
        &mut optcube::pdb::checkpoint::Checkpoint::none(),
    );
    eprintln!(
        "corner table generated in {:.1} s ({} threads)",
        t.elapsed().as_secs_f64(),
        rayon_threads()
    );
    let mut h = Heuristic::new(vec![(Pattern::CORNERS, table)]);
    h.derive_corner_successors(ProgressMode::Hidden, None)
        .expect("memory for the corner successor table");
    h
}

fn rayon_threads() -> String {
    std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "default".into())
}

fn benches(c: &mut Criterion) {
    let h = corner_heuristic();

    let mut rng = Rng::new(7);
    let nodes: Vec<(Cube, Cube)> = (0..POOL)
        .map(|_| {
            let p = Cube::random(&mut rng);
            (p, p.inverse())
        })
        .collect();

    let mut g = c.benchmark_group("heuristic");
    g.throughput(Throughput::Elements(1));
    for (name, dual) in [("single", false), ("dual", true)] {
        g.bench_function(BenchmarkId::new("value", name), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % POOL;
                let (p, q) = &nodes[i];
                h.value(black_box(p), black_box(q), dual)
            })
        });
    }

    g.finish();

    let stop = AtomicBool::new(false);
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    for (name, scramble, corner_successors) in SCRAMBLES
        .iter()
        .flat_map(|s| [("corners", s, false), ("successors", s, true)])
    {
        let opts = SearchOptions {
            threads: 1,
            corner_successors,
            ..SearchOptions::default()
        };
        let seq = parse_moves(scramble).expect("scramble parses");
        let cube = Cube::from_moves(&seq);
        // One search first: its node count (deterministic with one thread) is the throughput.
        let probe = solve(&h, &cube, &opts, &stop);
        let solution = probe.solution.as_deref().expect("the scramble is solvable");
        eprintln!(
            "solve {name} {scramble:?}: {} ({} moves, optimal {}), {} nodes, {:.3} s, {:.2} M nodes/s",
            format_moves(solution),
            solution.len(),
            probe.optimal,
            probe.nodes,
            probe.seconds,
            probe.nodes as f64 / probe.seconds / 1e6
        );
        g.throughput(Throughput::Elements(probe.nodes));
        g.bench_function(BenchmarkId::new(name, scramble), |b| {
            b.iter(|| {
                let r = solve(&h, black_box(&cube), &opts, &stop);
                debug_assert_eq!(r.nodes, probe.nodes);
                r.nodes
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = search;
    config = config();
    targets = benches
}
criterion_main!(search);
