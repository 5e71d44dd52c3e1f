//! The last layer of the class search of [`crate::stats::distances`] counted through disk,
//! for the depth (10) whose neighbour keys do not fit in memory: about 6.6 G neighbours of the
//! 183 M classes at depth 9, 106 GB as 16-byte keys, where the machine has 24 GB.
//!
//! Each neighbour's class becomes a 70-bit *class code*: the representative's dense
//! [`position_rank`] (66 bits) multiplied by an odd constant modulo 2^66 — a bijection that
//! spreads the codes evenly — and above 4 bits that name the stabilizer's order. The top 8
//! bits of a code pick one of 256 *partitions*, and the other 62 bits are what is stored.
//!
//! Two phases, both resumable:
//! 1. **Spill.** The parents (layer `d`) are cut into chunks of a fixed number of classes. A
//!    chunk's neighbour codes are made in parallel, sorted and deduplicated in memory, and
//!    written as one chunk file: a header (magic, depth, group order, the parents' range and
//!    their fingerprint, and for each partition its byte length, entry count and xxh3
//!    checksum) and each partition's sorted codes as varint deltas. The file is written to a
//!    temporary name and renamed, so a chunk file is whole or absent; a rerun keeps the chunk
//!    files whose header matches and makes the rest.
//! 2. **Merge.** For each partition, its segments from every chunk file are read (checksums
//!    checked), sorted together, deduplicated, and the codes of layers `d` and `d − 1` removed
//!    (a neighbour of a class at distance `d` is at `d − 1`, `d` or `d + 1`); what is left is
//!    the partition's part of layer `d + 1`, counted with each class's size. Each finished
//!    partition appends one line to `partitions.txt`; a rerun skips those. A line is written
//!    only after its partition is complete, so a kill never leaves a wrong count: at worst a
//!    partition is counted again from the chunk files. The directory is removed at the end.
//!
//! Disk: a few bytes a neighbour (the varint deltas of a chunk partition's sorted 62-bit
//! codes are mostly 6 bytes; 5.9 bytes a neighbour at depth 10). Memory: the two input
//! layers, their codes (16 bytes a class) and one chunk's neighbours (16 bytes each).

use crate::coord::positions::{Conjugator, Reduction, position_rank};
use crate::cube::Metric;
use crate::cube::packed::{neighbour_keys, remove_members, unpack};
use crate::stats::distances::{LayerCount, class_layers};
use crate::sys::files::{replace_with, write_atomic};
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Number of partitions (the top bits of a class code).
pub const PARTITIONS: usize = 256;
/// Bits of a class code below the partition.
const LOW_BITS: u32 = 62;
/// Odd multiplier mixing the 66-bit ranks (a bijection modulo 2^66).
const MIX: u128 = 0x2_9e37_79b9_7f4a_7c15;
const RANK_MASK: u128 = (1 << 66) - 1;
/// The possible orders of a stabilizer: the divisors of 96 (those of 48 among them).
const STABILIZER_ORDERS: [u32; 12] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 96];
const MAGIC: &[u8; 8] = b"OCSPILL1";
/// Header bytes before the per-partition table.
const HEAD: usize = 8 + 8 * 6;
const HEADER_BYTES: usize = HEAD + PARTITIONS * 24;

/// The 70-bit class code of a neighbour position `c`.
#[inline]
pub fn class_code(k: &Conjugator, c: &crate::cube::Cube, r: Reduction) -> u128 {
    let canon = k.canonical(c, r);
    let mixed = position_rank(&canon.cube).wrapping_mul(MIX) & RANK_MASK;
    let s = STABILIZER_ORDERS
        .iter()
        .position(|&o| o == canon.stabilizer)
        .expect("a stabilizer's order divides the group's") as u128;
    mixed << 4 | s
}

/// The class size of a stored code (its low 4 bits name the stabilizer).
#[inline]
fn code_size(code: u64, r: Reduction) -> u64 {
    (r.order() / STABILIZER_ORDERS[(code & 15) as usize]) as u64
}

#[inline]
fn partition_of(code: u128) -> usize {
    (code >> LOW_BITS) as usize
}

#[inline]
fn low(code: u128) -> u64 {
    (code & ((1 << LOW_BITS) - 1)) as u64
}

/// What a spill run reports as it goes.
pub enum Event {
    /// A chunk file was made (`reused`: it was already there from an earlier run).
    Chunk {
        done: usize,
        chunks: usize,
        neighbours: u64,
        file_bytes: u64,
        reused: bool,
    },
    /// A partition was merged (`reused`: counted by an earlier run).
    Partition {
        done: usize,
        count: LayerCount,
        reused: bool,
    },
}

/// What the run did, beside the layer's count.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpillReport {
    pub count: LayerCount,
    /// Bytes of all chunk files (the disk used at the peak).
    pub disk_bytes: u64,
    pub chunks: usize,
    pub chunks_reused: usize,
    pub partitions_reused: usize,
}

/// How a spill run is laid out.
#[derive(Clone, Debug)]
pub struct Spill {
    /// Directory of the chunk files (created; removed when the count is done).
    pub dir: PathBuf,
    /// Parent classes a chunk.
    pub chunk_parents: usize,
    pub reduction: Reduction,
}

/// An estimate of the disk a run needs: 7 bytes for each of the neighbours of each parent (36
/// in HTM, 24 in QTM: moves and premoves; an upper bound of what the varint deltas take on the
/// runs measured).
pub fn disk_estimate(parents: u64, metric: Metric) -> u64 {
    parents * 2 * metric.generators().len() as u64 * 7
}

/// An estimate of the memory (bytes) a run needs beside the two input layers: their codes (16
/// bytes a class), one chunk's neighbours (16 bytes each) and its encoded partitions (7 bytes
/// a neighbour, as [`disk_estimate`]).
pub fn memory_estimate(prev: u64, cur: u64, chunk_parents: u64, metric: Metric) -> u64 {
    (prev + cur) * 16 + chunk_parents * 2 * metric.generators().len() as u64 * (16 + 7)
}

/// A fingerprint of the parents, so that a chunk file of another run is never used.
fn fingerprint(cur: &[u128]) -> u64 {
    let bytes: Vec<u64> = cur
        .par_chunks(1 << 20)
        .map(|c| {
            let b: Vec<u8> = c.iter().flat_map(|k| k.to_le_bytes()).collect();
            xxhash_rust::xxh3::xxh3_64(&b)
        })
        .collect();
    let b: Vec<u8> = bytes.iter().flat_map(|h| h.to_le_bytes()).collect();
    xxhash_rust::xxh3::xxh3_64(&b) ^ cur.len() as u64
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn decode_segment(bytes: &[u8], n: usize, out: &mut Vec<u64>) -> Result<(), String> {
    let (mut acc, mut i) = (0u64, 0usize);
    for _ in 0..n {
        let (mut v, mut shift) = (0u64, 0);
        loop {
            let b = *bytes.get(i).ok_or("segment ends early")?;
            i += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
            if shift > 63 {
                return Err("bad varint".into());
            }
        }
        acc = acc.wrapping_add(v);
        out.push(acc);
    }
    if i != bytes.len() {
        return Err("segment has trailing bytes".into());
    }
    Ok(())
}

/// The header fields that tie a chunk file to its run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Head {
    depth: u64,
    order: u64,
    chunk: u64,
    first: u64,
    parents: u64,
    fingerprint: u64,
}

impl Head {
    fn bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for v in [
            self.depth,
            self.order,
            self.chunk,
            self.first,
            self.parents,
            self.fingerprint,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }
}

/// A chunk file's table: for each partition, (byte length, entries, checksum).
type Table = Vec<(u64, u64, u64)>;

fn read_table(path: &Path, want: &Head) -> Result<Table, String> {
    let mut f = File::open(path).map_err(|e| e.to_string())?;
    let mut h = vec![0u8; HEADER_BYTES];
    f.read_exact(&mut h)
        .map_err(|_| "shorter than its header")?;
    if h[..HEAD] != want.bytes()[..] {
        return Err("header of another run (depth, group, parents or their fingerprint)".into());
    }
    let word = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().unwrap());
    let table: Table = (0..PARTITIONS)
        .map(|p| {
            let at = HEAD + 24 * p;
            (word(at), word(at + 8), word(at + 16))
        })
        .collect();
    let size = f.metadata().map_err(|e| e.to_string())?.len();
    let want_size = HEADER_BYTES as u64 + table.iter().map(|t| t.0).sum::<u64>();
    if size != want_size {
        return Err(format!("{size} bytes, its header says {want_size}"));
    }
    Ok(table)
}

fn chunk_path(dir: &Path, i: usize) -> PathBuf {
    dir.join(format!("chunk-{i:05}.bin"))
}

/// Counts layer `d + 1` from layer `d` (`cur`) and `d − 1` (`prev`), both sorted class keys
/// of `stats::distances`, in `metric` (its unit moves make the neighbours), through chunk files
/// in `spill.dir`. Uses the current rayon pool.
pub fn count_next_layer(
    prev: &[u128],
    cur: &[u128],
    depth: u8,
    metric: Metric,
    spill: &Spill,
    mut on_event: impl FnMut(Event) + Send,
) -> Result<SpillReport, String> {
    let r = spill.reduction;
    let k = Conjugator::new();
    let dir = &spill.dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // The metric is in the fingerprint: the same parents make other neighbours in another.
    // (HTM 0 and QTM the top bit, as before; STM and ATM the low bit.)
    let fp = fingerprint(cur) ^ (metric as u64).rotate_right(1);
    let chunk_parents = spill.chunk_parents.max(1);
    let chunks = cur.len().div_ceil(chunk_parents);
    let moves = metric.generators().len();
    let per_key = 2 * moves;
    let premoves = r == Reduction::SymmetryAndInverse;
    let mut report = SpillReport {
        chunks,
        ..SpillReport::default()
    };

    // Phase 1: one file a chunk of parents.
    let mut tables: Vec<Table> = Vec::with_capacity(chunks);
    for (i, parents) in cur.chunks(chunk_parents).enumerate() {
        let head = Head {
            depth: depth as u64,
            order: r.order() as u64,
            chunk: i as u64,
            first: (i * chunk_parents) as u64,
            parents: parents.len() as u64,
            fingerprint: fp,
        };
        let path = chunk_path(dir, i);
        if let Ok(table) = read_table(&path, &head) {
            let bytes = HEADER_BYTES as u64 + table.iter().map(|t| t.0).sum::<u64>();
            report.disk_bytes += bytes;
            report.chunks_reused += 1;
            on_event(Event::Chunk {
                done: i + 1,
                chunks,
                neighbours: table.iter().map(|t| t.1).sum(),
                file_bytes: bytes,
                reused: true,
            });
            tables.push(table);
            continue;
        }
        let n = if premoves { per_key } else { moves };
        let mut codes = vec![0u128; parents.len() * n];
        codes
            .par_chunks_mut(n)
            .zip(parents.par_iter())
            .for_each(|(out, &key)| {
                neighbour_keys(&unpack(key), metric, out, |c| class_code(&k, c, r))
            });
        codes.par_sort_unstable();
        codes.dedup();
        // Encode each partition's run of codes (contiguous, as the codes are sorted).
        let mut bounds = vec![0usize; PARTITIONS + 1];
        for (p, b) in bounds.iter_mut().enumerate().skip(1) {
            *b = codes.partition_point(|&c| partition_of(c) < p);
        }
        let segments: Vec<Vec<u8>> = (0..PARTITIONS)
            .into_par_iter()
            .map(|p| {
                let mut out = Vec::new();
                let mut last = 0u64;
                for &c in &codes[bounds[p]..bounds[p + 1]] {
                    put_varint(&mut out, low(c) - last);
                    last = low(c);
                }
                out
            })
            .collect();
        let neighbours = codes.len() as u64;
        drop(codes);
        let mut header = head.bytes();
        let mut table = Table::new();
        for (p, s) in segments.iter().enumerate() {
            let t = (
                s.len() as u64,
                (bounds[p + 1] - bounds[p]) as u64,
                xxhash_rust::xxh3::xxh3_64(s),
            );
            for v in [t.0, t.1, t.2] {
                header.extend_from_slice(&v.to_le_bytes());
            }
            table.push(t);
        }
        let file_bytes = (header.len() + segments.iter().map(Vec::len).sum::<usize>()) as u64;
        replace_with(&path, |f| {
            let mut w = std::io::BufWriter::new(f);
            w.write_all(&header)?;
            for s in &segments {
                w.write_all(s)?;
            }
            w.flush()
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
        report.disk_bytes += file_bytes;
        on_event(Event::Chunk {
            done: i + 1,
            chunks,
            neighbours,
            file_bytes,
            reused: false,
        });
        tables.push(table);
    }

    // Phase 2: merge each partition, skipping those counted by an earlier run.
    let results_path = dir.join("partitions.txt");
    let tag = format!("fingerprint {fp:016x} depth {depth} order {}", r.order());
    let mut done: Vec<Option<LayerCount>> = vec![None; PARTITIONS];
    if let Ok(f) = File::open(&results_path) {
        let mut lines = std::io::BufReader::new(f).lines();
        if lines.next().and_then(|l| l.ok()).as_deref() == Some(tag.as_str()) {
            for line in lines.map_while(Result::ok) {
                let v: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
                // A line counts only when whole: a kill may cut the last one short.
                if let ([p, classes, positions], Some("ok")) = (&v[..], line.split(' ').nth(3)) {
                    let (p, classes, positions) = (*p, *classes, *positions);
                    if (p as usize) < PARTITIONS {
                        done[p as usize] = Some(LayerCount { positions, classes });
                    }
                }
            }
        }
    }
    // A fresh results file holds the tag and the partitions kept from before.
    let mut kept = format!("{tag}\n");
    for (p, c) in done.iter().enumerate() {
        if let Some(c) = c {
            kept += &format!("{p} {} {} ok\n", c.classes, c.positions);
        }
    }
    write_atomic(&results_path, kept.as_bytes())
        .map_err(|e| format!("{}: {e}", results_path.display()))?;
    let results = Mutex::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(&results_path)
            .map_err(|e| format!("{}: {e}", results_path.display()))?,
    );
    // The codes of layers d and d − 1, to remove from the neighbours.
    let mut members: Vec<u128> = prev
        .par_iter()
        .chain(cur.par_iter())
        .map(|&key| class_code(&k, &unpack(key), r))
        .collect();
    members.par_sort_unstable();
    let offsets: Vec<Vec<u64>> = tables
        .iter()
        .map(|t| {
            let mut at = HEADER_BYTES as u64;
            t.iter()
                .map(|s| {
                    let o = at;
                    at += s.0;
                    o
                })
                .collect()
        })
        .collect();
    let progress = Mutex::new((0usize, &mut on_event));
    let counts: Vec<Result<LayerCount, String>> = (0..PARTITIONS)
        .into_par_iter()
        .map(|p| {
            if let Some(c) = done[p] {
                let mut g = progress.lock().unwrap();
                g.0 += 1;
                let n = g.0;
                (g.1)(Event::Partition {
                    done: n,
                    count: c,
                    reused: true,
                });
                return Ok(c);
            }
            let total: u64 = tables.iter().map(|t| t[p].1).sum();
            let mut codes = Vec::with_capacity(total as usize);
            let mut buf = Vec::new();
            for (i, t) in tables.iter().enumerate() {
                let path = chunk_path(dir, i);
                let what = |e: String| format!("{} partition {p}: {e}", path.display());
                let mut f = File::open(&path).map_err(|e| what(e.to_string()))?;
                f.seek(SeekFrom::Start(offsets[i][p]))
                    .map_err(|e| what(e.to_string()))?;
                buf.resize(t[p].0 as usize, 0);
                f.read_exact(&mut buf).map_err(|e| what(e.to_string()))?;
                if xxhash_rust::xxh3::xxh3_64(&buf) != t[p].2 {
                    return Err(what(
                        "checksum mismatch: the chunk file is damaged; delete it and run again"
                            .into(),
                    ));
                }
                decode_segment(&buf, t[p].1 as usize, &mut codes).map_err(what)?;
            }
            codes.sort_unstable();
            codes.dedup();
            let lo = members.partition_point(|&c| partition_of(c) < p);
            let hi = members.partition_point(|&c| partition_of(c) <= p);
            let gone: Vec<u64> = members[lo..hi].iter().map(|&c| low(c)).collect();
            remove_members(&mut codes, &gone, &[]);
            let count = LayerCount {
                classes: codes.len() as u64,
                positions: codes.iter().map(|&c| code_size(c, r)).sum(),
            };
            let line = format!("{p} {} {} ok\n", count.classes, count.positions);
            {
                let mut f = results.lock().unwrap();
                f.write_all(line.as_bytes())
                    .and_then(|_| f.sync_data())
                    .map_err(|e| format!("{}: {e}", results_path.display()))?;
            }
            let mut g = progress.lock().unwrap();
            g.0 += 1;
            let n = g.0;
            (g.1)(Event::Partition {
                done: n,
                count,
                reused: false,
            });
            Ok(count)
        })
        .collect();
    for c in counts {
        let c = c?;
        report.count.classes += c.classes;
        report.count.positions += c.positions;
    }
    report.partitions_reused = done.iter().filter(|d| d.is_some()).count();
    std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(report)
}

/// [`layer_counts`](crate::stats::distances::layer_counts) over classes, with the last layer
/// (`max_depth ≥ 1`) counted through disk: for the depth whose neighbour keys do not fit in
/// memory.
pub fn layer_counts_spilled(
    max_depth: u8,
    metric: Metric,
    spill: &Spill,
    mut on_layer: impl FnMut(u8, LayerCount),
    on_event: impl FnMut(Event) + Send,
) -> Result<(Vec<LayerCount>, SpillReport), String> {
    assert!(max_depth >= 1);
    let mut out = Vec::new();
    let (prev, cur) = class_layers(max_depth - 1, spill.reduction, metric, |d, n| {
        on_layer(d, n);
        out.push(n);
    });
    let report = count_next_layer(&prev, &cur, max_depth - 1, metric, spill, on_event)?;
    on_layer(max_depth, report.count);
    out.push(report.count);
    Ok((out, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::distances::layer_counts;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    fn dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("optcube-spill-{name}-{}", std::process::id()))
    }

    fn spill(name: &str, r: Reduction, chunk_parents: usize) -> Spill {
        Spill {
            dir: dir(name),
            chunk_parents,
            reduction: r,
        }
    }

    /// The layer counted through disk equals the one counted in memory, under both groups,
    /// with many chunks, and the directory is gone afterwards.
    #[test]
    fn spilled_layer_equals_the_one_in_memory() {
        for (r, depth) in [(Reduction::SymmetryAndInverse, 6), (Reduction::Symmetry, 5)] {
            let want = layer_counts(depth, Some(r), Metric::Htm, |_, _| {});
            let s = spill("equal", r, 97);
            let (got, report) =
                layer_counts_spilled(depth, Metric::Htm, &s, |_, _| {}, |_| {}).unwrap();
            assert_eq!(got, want, "{r:?}");
            assert!(report.chunks >= 5 && report.disk_bytes > 0);
            assert!(!s.dir.exists());
        }
    }

    /// In the quarter-turn metric too: the spilled last layer equals the one in memory.
    #[test]
    fn a_qtm_layer_spilled_equals_the_one_in_memory() {
        let r = Reduction::SymmetryAndInverse;
        let want = layer_counts(7, Some(r), Metric::Qtm, |_, _| {});
        let s = spill("qtm", r, 131);
        let (got, _) = layer_counts_spilled(7, Metric::Qtm, &s, |_, _| {}, |_| {}).unwrap();
        assert_eq!(got, want);
        assert!(!s.dir.exists());
    }

    /// A run killed in either phase resumes from what it left, to the same count; a damaged
    /// chunk is reported, never counted.
    #[test]
    fn a_killed_run_resumes_to_the_same_count() {
        let r = Reduction::SymmetryAndInverse;
        let want = layer_counts(6, Some(r), Metric::Htm, |_, _| {})[6];
        let s = spill("resume", r, 200);
        let _ = std::fs::remove_dir_all(&s.dir);
        // A run "killed" (a panic in its progress callback) when `stop` says so.
        let killed_at = |stop: &(dyn Fn(&Event) -> bool + Sync)| {
            let run = catch_unwind(AssertUnwindSafe(|| {
                layer_counts_spilled(
                    6,
                    Metric::Htm,
                    &s,
                    |_, _| {},
                    |e| assert!(!stop(&e), "killed"),
                )
            }));
            assert!(run.is_err());
        };
        killed_at(&|e| matches!(e, Event::Chunk { done: 3, .. }));
        killed_at(&|e| matches!(e, Event::Partition { done: 40, .. }));
        let (got, report) = layer_counts_spilled(6, Metric::Htm, &s, |_, _| {}, |_| {}).unwrap();
        assert_eq!(got[6], want);
        assert_eq!(report.chunks_reused, report.chunks);
        assert!(
            report.partitions_reused >= 39,
            "{}",
            report.partitions_reused
        );

        // One flipped payload byte: the merge refuses with the file's name.
        killed_at(&|e| matches!(e, Event::Chunk { done: 2, .. }));
        let path = chunk_path(&s.dir, 1);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        let err = layer_counts_spilled(6, Metric::Htm, &s, |_, _| {}, |_| {}).unwrap_err();
        assert!(
            err.contains("chunk-00001.bin") && err.contains("damaged"),
            "{err}"
        );
        std::fs::remove_dir_all(&s.dir).unwrap();
    }

    #[test]
    fn varint_deltas_round_trip() {
        let vals = [0u64, 1, 127, 128, 300, 1 << 40, (1 << 62) - 1];
        let mut out = Vec::new();
        let mut last = 0;
        for &v in &vals {
            put_varint(&mut out, v - last);
            last = v;
        }
        let mut back = Vec::new();
        decode_segment(&out, vals.len(), &mut back).unwrap();
        assert_eq!(back, vals);
        assert!(decode_segment(&out[..out.len() - 1], vals.len(), &mut back).is_err());
    }
}
