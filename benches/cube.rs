//! Micro-benchmarks of the cube model and the ranking functions.
//!
//! Run with `cargo bench --bench cube` (add `-- --quick` for a fast pass, or a filter such as
//! `-- rank/` to run one group). Needs no pattern database.
//!
//! Groups:
//! - `move/apply/<M>`: `Cube::apply` of each of the 18 moves to a random position;
//! - `sequence/superflip`: applying the 20-move superflip sequence to solved (one element =
//!   one move, so the throughput line is moves/s);
//! - `cube/inverse`, `cube/compose`;
//! - `pattern/index_of_inverse/<P>` and `pattern/unrank_inverse/<P>` for every
//!   `Pattern::ALL`, on random cubes and random indices;
//! - `rank/partial_perm/{rank,unrank}/<n>_<k>` for (8,8), (12,7), (12,12).
//!
//! Inputs are drawn from a fixed seed and cycled through a small pool (1024 values, a few tens
//! of KB: L1/L2-resident) so the compiler cannot fold the work and the branch predictor does
//! not see one input over and over.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use optcube::cube::{Cube, Move, Rng, SUPERFLIP, parse_moves};
use optcube::pdb::Pattern;
use optcube::rank::PartialPerm;
use std::hint::black_box;
use std::time::Duration;

const POOL: usize = 1024;

fn random_cubes(seed: u64) -> Vec<Cube> {
    let mut rng = Rng::new(seed);
    (0..POOL).map(|_| Cube::random(&mut rng)).collect()
}

fn moves(c: &mut Criterion) {
    let cubes = random_cubes(1);
    let mut g = c.benchmark_group("move/apply");
    g.throughput(Throughput::Elements(1));
    for m in Move::all() {
        g.bench_with_input(BenchmarkId::from_parameter(m.to_string()), &m, |b, &m| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % POOL;
                black_box(&cubes[i]).apply(black_box(m))
            })
        });
    }
    g.finish();

    let seq = parse_moves(SUPERFLIP).expect("superflip parses");
    let mut g = c.benchmark_group("sequence");
    g.throughput(Throughput::Elements(seq.len() as u64));
    g.bench_function("superflip", |b| {
        b.iter(|| Cube::SOLVED.apply_seq(black_box(&seq)))
    });
    g.finish();
}

fn cube_ops(c: &mut Criterion) {
    let cubes = random_cubes(2);
    let mut g = c.benchmark_group("cube");
    g.throughput(Throughput::Elements(1));
    g.bench_function("inverse", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % POOL;
            black_box(&cubes[i]).inverse()
        })
    });
    g.bench_function("compose", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % POOL;
            black_box(&cubes[i]).compose(black_box(&cubes[POOL - 1 - i]))
        })
    });
    g.finish();
}

fn patterns(c: &mut Criterion) {
    let cubes = random_cubes(3);
    let mut rng = Rng::new(4);
    let mut g = c.benchmark_group("pattern");
    g.throughput(Throughput::Elements(1));
    for p in Pattern::ALL {
        g.bench_function(BenchmarkId::new("index_of_inverse", p.name()), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % POOL;
                black_box(p).index_of_inverse(black_box(&cubes[i]))
            })
        });
        let indices: Vec<u64> = (0..POOL).map(|_| rng.below(p.entries())).collect();
        g.bench_function(BenchmarkId::new("unrank_inverse", p.name()), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % POOL;
                black_box(p).unrank_inverse(black_box(indices[i]))
            })
        });
    }
    g.finish();
}

fn partial_perms(c: &mut Criterion) {
    let mut rng = Rng::new(5);
    let mut g = c.benchmark_group("rank/partial_perm");
    g.throughput(Throughput::Elements(1));
    for (n, k) in [(8, 8), (12, 7), (12, 12)] {
        let pp = PartialPerm::new(n, k);
        let ranks: Vec<u64> = (0..POOL).map(|_| rng.below(pp.size())).collect();
        let elems: Vec<[u8; 12]> = ranks
            .iter()
            .map(|&r| {
                let mut out = [0u8; 12];
                pp.unrank(r, &mut out[..k]);
                out
            })
            .collect();
        let id = format!("{n}_{k}");
        g.bench_function(BenchmarkId::new("rank", &id), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % POOL;
                black_box(&pp).rank(black_box(&elems[i][..k]))
            })
        });
        g.bench_function(BenchmarkId::new("unrank", &id), |b| {
            let mut i = 0;
            let mut out = [0u8; 12];
            b.iter(|| {
                i = (i + 1) % POOL;
                black_box(&pp).unrank(black_box(ranks[i]), &mut out[..k]);
                black_box(out)
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    // Short defaults: ~60 benchmarks; override with --warm-up-time / --measurement-time.
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = moves, cube_ops, patterns, partial_perms
}
criterion_main!(benches);
