//! The tables `sym48e1` to `sym48e9`: like `sym48e0` ([`crate::pdb::sym48`]), with the flips of
//! K edges — the first min(K, 4) E pieces, for K > 4 the first min(K − 4, 4) M pieces, and for
//! K = 9 the first S piece, in place order ([`crate::coord::coset::sep_flip_k_bytes`]) — variant `eK` of Tronto's H48
//! coordinate (nissy-core `doc/h48.md`). One coordinate and one builder, generic over `K`.
//!
//! An entry is `class · edge parts + edge part`: the class of the position's corner coset under
//! all 48 symmetries (3,393), and the `eK` edge part of the position conjugated onto that
//! class's representative (34,650 · 2^K values). `e1`: 235,134,900 entries (59 MB as 2-bit
//! lines); `e2`, `e3`: twice and four times that; `e4`: 1,881,079,200 (0.5 GB); `e5`: 0.9 GB;
//! `e6`: 7,524,316,800 (1.9 GB); `e7`: 3.8 GB; `e8`: 30,097,267,200 (7.5 GB); `e9`: 15.3 GB.
//!
//! **`e4` is a coset table, the others are not.** The E pieces' flips with the separation are
//! a coset of the subgroup that also orients them, but the 48 symmetries do not keep that
//! subgroup (only the 16 that keep the UD axis do), so even `e4` is no space a breadth-first
//! search can run over with the 48-symmetry index; and fewer than four, or five to eight,
//! edges' flips are no subgroup's coset at all: the subgroup of
//! [`crate::pdb::sym48`] moves an edge to any place of its slice, so "these six pieces (or places)
//! are oriented" is closed under composition only when the six are whole slices. The
//! coordinate is instead a projection of the coset of the subgroup `H11` that orients every
//! edge (corner coset, separation and the flip of every place,
//! [`crate::coord::coset::sep_eo_bytes`]; kept by all 48 symmetries, holding every half turn).
//! An entry's value is
//! - the least distance of the positions with that index (equivalently of the `H11` cosets
//!   with that index: a coset's distance is reached by one of its positions) if it is at most
//!   [`EXACT_DEPTH`],
//! - [`CAP`] otherwise.
//!
//! Why it is a lower bound: a position `P` with index `i` and distance `d` is one of the
//! positions with index `i`, so entry `i` is at most `d` if `d ≤ EXACT_DEPTH`, and at most
//! `CAP ≤ d` otherwise. The lookup conjugates `P` by one symmetry onto the class
//! representative; when the representative is self-symmetric another symmetry would give
//! another index, so the builder marks every coset under every symmetry of the
//! representative's stabilizer, and whichever the lookup picked reads a bound.
//!
//! The search reads it like the coset tables: the value is a function of the `H11` coset, so a
//! half turn (in `H11`) leaves the inverse's value unchanged; and a value `h` bounds the
//! distance of the position's own `H11` coset, so a tight value still rules out a last half
//! turn (`search::worker`).
//!
//! The build ([`mark_within`]): a breadth-first search over the `H11` cosets up to symmetry
//! (sorted layers of canonical keys, [`h11_key`]) to depth `EXACT_DEPTH − 2` = 9 (79,203,853
//! classes), each layer marked with its distance; then each coset of the last layer is moved
//! once and twice (canonical pairs), the results marked with 10 and 11. Marks take the
//! minimum, so the table does not depend on the order threads mark in: 1 and 2 threads give
//! the same bytes. Entries no mark reached read [`CAP`]. The search over cosets is the same for
//! every K; only the marks' index differs, so a larger K costs memory and cache misses, not
//! search.
//!
//! The marks go straight into the file form, 2-bit lines with base `CAP − 3`
//! ([`NibbleTable::new_lines_in_huge_pages`]: each entry's code and its line's least value are
//! both lowered, so the bytes are those of packing the exact nibbles), and the few marks at or
//! below the base (about 0.6 % of the entries, whose code reads only "at most the base") are
//! kept aside to count the exact histogram. So a build holds the file's bytes (1.9, 3.8 or
//! 7.5 GB) rather than a nibble table twice that size and its packed copy: `e6` built this way
//! has the same checksum as when it was packed from nibbles, in 3.3 GB instead of 5.5, and `e8`
//! builds in 8.9 GB (`results/build-sym48.md`).
//!
//! **`e4`** is built the same way into a nibble table (0.9 GB) and stored as the other tables
//! are, in lines with its histogram's base, 8 ([`Format::line_base`]): a top code reads "11 or
//! more", so capping at 12 loses nothing the file holds, and the file is the one made from
//! the exact coset distances (max 13) by the breadth-first search over the 16 UD symmetries
//! it replaces. Its entries are exact coset distances up to 11, as the marks' test against
//! such a search shows (`marks_of_the_coset_variants_are_their_exact_distances`).

use crate::coord::coset::{
    N_CORNER_COSET_CLASSES, N_SEP_EO, N_SLICE_SEP, corner_coset_cube, n_sep_flip_k, sep_eo_bytes,
    slice_sep_edges,
};
use crate::cube::packed::for_each_layer_of;
use crate::cube::{Cube, Metric};
use crate::pdb::checkpoint::{Checkpoint, ResumePoint};
use crate::pdb::family::{Builder, Family, Index, Store, Turned};
use crate::pdb::sym48::Sym48Space;
use crate::pdb::table::{Format, NibbleTable};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::OnceLock;
use std::sync::atomic::Ordering::Relaxed;

/// Entries of table `eK`: corner coset classes (48 symmetries) × separations × K flips.
pub const fn entries(k: u8) -> u64 {
    N_CORNER_COSET_CLASSES as u64 * n_sep_flip_k(k) as u64
}

/// Entries at most this far from solved read their exact value.
pub const EXACT_DEPTH: u8 = 11;

/// What every other entry reads: at least this, since all positions within
/// [`EXACT_DEPTH`] were marked.
pub const CAP: u8 = EXACT_DEPTH + 1;

/// [`EXACT_DEPTH`] in `metric`: 11 face turns, 12 quarter turns, 10 slice-turn moves, 9 axial
/// moves, as the metric declares ([`crate::cube::metric::Declaration::coset_exact_depth`]). The
/// layers listed go two less deep, which take about the same memory (40 to 80 M classes).
pub const fn exact_depth(metric: Metric) -> u8 {
    metric.declaration().coset_exact_depth
}

/// [`CAP`] in `metric`.
pub const fn cap(metric: Metric) -> u8 {
    exact_depth(metric) + 1
}

/// How table `eK` is held while built and stored: `e1` to `e4` as nibbles, stored in lines with its
/// histogram's base; the larger ones straight in their file form, lines whose base leaves
/// the cap one of its codes (the cap must read exactly: a third of `e6`'s entries hold it).
const fn store(k: u8, metric: Metric) -> Store {
    if k <= 4 {
        Store::Lines { base: None }
    } else {
        Store::Lines {
            base: Some(cap(metric) - 3),
        }
    }
}

/// Bytes the build of table `eK` may hold at its peak, an upper bound: the table (0.9 GB of
/// nibbles for `e4`, 2-bit lines of 1.9 GB for `e6`, twice that for each further K), 3 GB
/// for the layers of keys (layer 9 is 79,203,853 keys, 0.6 GB, and its making holds 18
/// neighbours of each key of layer 8) and, for a table built in lines, 1 GB for the marks
/// kept aside for the histogram (about 90 M of 8 bytes).
pub const fn build_bytes(k: u8) -> u64 {
    let layers = 3 << 30;
    match store(k, Metric::Htm) {
        Store::Lines { base: Some(base) } => {
            Format::Lines { base }.payload_bytes(entries(k)) + layers + (1 << 30)
        }
        _ => Format::Nibbles.payload_bytes(entries(k)) + layers,
    }
}

/// The metrics' indices in [`Metric::ALL`], for [`family`]'s parameter.
const HTM: usize = Metric::Htm as usize;
const QTM: usize = Metric::Qtm as usize;
const STM: usize = Metric::Stm as usize;
const ATM: usize = Metric::Atm as usize;

/// The family of table `sym48eK`, of distances in metric `M` (its index in [`Metric::ALL`]).
const fn family<const K: u8, const M: usize>(name: &'static str, pieces: &'static str) -> Family {
    let metric = Metric::ALL[M];
    Family {
        name,
        pieces,
        entries: entries(K),
        version: 1,
        index: Index::Coset { k: K },
        self_dual: false,
        turned: Turned::Never,
        store: store(K, metric),
        builder: Builder::Own {
            build: build::<K, M>,
            entries: entries(K),
            bytes: build_bytes(K),
        },
        metric,
    }
}

/// The pieces text of `sym48eK` for K < 4: `FLIPPED` names the E pieces flipped.
macro_rules! coset_e_pieces {
    ($flipped:literal) => {
        concat!(
            "corner tetrads and twists, the slice of every edge, flips of the first ",
            $flipped,
            " (48 symmetries; exact to 11 moves, 12 for more)"
        )
    };
}

/// `sym48e1`, `sym48e2`, `sym48e3`: the first one, two, three E pieces' flips (the small end
/// of the ladder, between `sym48e0` and `sym48e4`).
pub(crate) const SYM48E1: Family = family::<1, HTM>("sym48e1", coset_e_pieces!("E piece"));
pub(crate) const SYM48E2: Family = family::<2, HTM>("sym48e2", coset_e_pieces!("two E pieces"));
pub(crate) const SYM48E3: Family = family::<3, HTM>("sym48e3", coset_e_pieces!("three E pieces"));

/// `sym48e4`: the E pieces' flips. (Its pieces text is that of the files the earlier builder
/// made, which hold the same payload: they stay valid.)
pub(crate) const SYM48E4: Family = family::<4, HTM>(
    "sym48e4",
    "corner tetrads and twists, the slice of every edge, FR FL BL BR flips (48 symmetries)",
);
/// The pieces text of `sym48eK` (K > 4), written once: `M` names the M pieces flipped, `RANGE`
/// the values the table holds. The texts are those of the files already built (the header
/// keeps them), so they must stay word for word.
macro_rules! coset_pieces {
    ($m:literal, $range:literal) => {
        concat!(
            "corner tetrads and twists, the slice of every edge, FR FL BL BR flips, flips of the \
             first ",
            $m,
            " M pieces (48 symmetries; ",
            $range,
            ")"
        )
    };
}

/// `sym48e5`: the first M piece's flip.
pub(crate) const SYM48E5: Family = family::<5, HTM>(
    "sym48e5",
    "corner tetrads and twists, the slice of every edge, FR FL BL BR flips, flips of the first M \
     piece (48 symmetries; exact to 11 moves, 12 for more)",
);
/// `sym48e6`: the first two M pieces' flips.
pub(crate) const SYM48E6: Family = family::<6, HTM>(
    "sym48e6",
    coset_pieces!("two", "exact to 11 moves, 12 for more"),
);
/// `sym48e6-qtm`: `sym48e6`'s index, its cosets' distances in quarter turns.
pub(crate) const SYM48E6_QTM: Family = family::<6, QTM>(
    "sym48e6-qtm",
    coset_pieces!("two", "quarter turns, exact to 12, 13 for more"),
);
/// `sym48e6-stm` and `sym48e6-atm`: `sym48e6`'s index, its cosets' distances in slice-turn and
/// axial moves ([`exact_depth`]).
pub(crate) const SYM48E6_STM: Family = family::<6, STM>(
    "sym48e6-stm",
    coset_pieces!("two", "slice-turn moves, exact to 10, 11 for more"),
);
pub(crate) const SYM48E6_ATM: Family = family::<6, ATM>(
    "sym48e6-atm",
    coset_pieces!("two", "axial moves, exact to 9, 10 for more"),
);
/// `sym48e7`: the first three M pieces' flips.
pub(crate) const SYM48E7: Family = family::<7, HTM>(
    "sym48e7",
    coset_pieces!("three", "exact to 11 moves, 12 for more"),
);
/// `sym48e8`: all four M pieces' flips.
pub(crate) const SYM48E8: Family = family::<8, HTM>(
    "sym48e8",
    coset_pieces!("four", "exact to 11 moves, 12 for more"),
);
/// `sym48e9`: all four M pieces' flips and the first S piece's (15.3 GB; its build holds about
/// 16.5 GB, the largest table this 24 GB machine builds).
pub(crate) const SYM48E9: Family = family::<9, HTM>(
    "sym48e9",
    "corner tetrads and twists, the slice of every edge, FR FL BL BR flips, flips of the four M \
     pieces and the first S piece (48 symmetries; exact to 11 moves, 12 for more)",
);
/// `sym48e7-qtm` and `sym48e8-qtm`: `sym48e7` and `sym48e8` in quarter turns, as
/// `sym48e6-qtm` is `sym48e6`.
pub(crate) const SYM48E7_QTM: Family = family::<7, QTM>(
    "sym48e7-qtm",
    coset_pieces!("three", "quarter turns, exact to 12, 13 for more"),
);
pub(crate) const SYM48E8_QTM: Family = family::<8, QTM>(
    "sym48e8-qtm",
    coset_pieces!("four", "quarter turns, exact to 12, 13 for more"),
);

/// Calls `f(class, edges)` with `p`'s corner class and the edges of `S p S⁻¹` for every
/// symmetry `S` that takes `p`'s corner coset onto the class representative's (one, or the
/// stabilizer's worth for a self-symmetric representative).
#[inline(always)]
fn for_each_conjugate(sp: &Sym48Space, p: &Cube, mut f: impl FnMut(usize, &[u8; 16])) {
    let (cls, s) = sp.class_sym(p);
    let conj = sp.conj_edges(s, p);
    f(cls, conj.edge_bytes());
    for_each_other(sp.stabilizer(cls), |t| {
        f(cls, sp.conj_edges(t, &conj).edge_bytes())
    });
}

/// The canonical key of `p`'s `H11` coset class: its corner class, and the least full-flip
/// edge part over [`for_each_conjugate`].
#[inline]
pub fn h11_key(sp: &Sym48Space, p: &Cube) -> u64 {
    let mut best = u64::MAX;
    for_each_conjugate(sp, p, |cls, e| {
        best = best.min(cls as u64 * N_SEP_EO + sep_eo_bytes(e));
    });
    best
}

/// Calls `f(t)` for every symmetry `t` of `stab` but the identity.
#[inline(always)]
fn for_each_other(stab: u64, mut f: impl FnMut(usize)) {
    let mut rest = stab & !1;
    while rest != 0 {
        f(rest.trailing_zeros() as usize);
        rest &= rest - 1;
    }
}

/// A cube of the coset class with key `k`: the representative's corners, the separation's
/// edges with the key's flips (place 11's making the sum even).
fn key_cube(k: u64) -> Cube {
    struct Parts {
        corners: Vec<Cube>,
        seps: Vec<[u8; 12]>,
    }
    static PARTS: OnceLock<Parts> = OnceLock::new();
    let parts = PARTS.get_or_init(|| {
        let reps = &crate::coord::coset::CornerCoset::get().classes.rep;
        Parts {
            corners: reps
                .iter()
                .map(|&r| corner_coset_cube(r as usize))
                .collect(),
            seps: (0..N_SLICE_SEP).map(slice_sep_edges).collect(),
        }
    });
    let (cls, x) = ((k / N_SEP_EO) as usize, k % N_SEP_EO);
    let (sep, flips) = ((x / 2048) as usize, x % 2048);
    let mut eo = [0u8; 12];
    for (p, o) in eo.iter_mut().enumerate().take(11) {
        *o = (flips >> p & 1) as u8;
    }
    eo[11] = (flips.count_ones() & 1) as u8;
    let c = &parts.corners[cls];
    Cube::from_parts(c.cp(), c.co(), parts.seps[sep], eo)
}

/// Where the builder's marks go: the table, or a map in tests.
pub trait Marks: Sync {
    /// Lowers entry `i` to `v` if it holds more.
    fn lower(&self, i: u64, v: u8);
    /// A hint that entry `i` will be lowered soon.
    fn prefetch(&self, _i: u64) {}
    /// Lowers every entry of `marks` (a stage's worth).
    fn lower_all(&self, marks: &[(u64, u8)]) {
        for &(i, v) in marks {
            self.lower(i, v);
        }
    }
}

/// The build's marks: the table in 2-bit lines ([`NibbleTable::new_lines_in_huge_pages`],
/// every entry at [`CAP`] until lowered), and the marks at or below the lines' base kept
/// aside, whose entries the lines read only as their line's least value: they give the exact
/// histogram ([`LineMarks::finish`]). About 0.6 % of the entries.
struct LineMarks {
    table: NibbleTable,
    base: u8,
    /// What an entry no mark lowered reads ([`cap`]).
    cap: u8,
    /// `index << 4 | value` of every mark at most `base`.
    low: std::sync::Mutex<Vec<u64>>,
}

impl Marks for LineMarks {
    #[inline(always)]
    fn lower(&self, i: u64, v: u8) {
        self.lower_all(&[(i, v)])
    }

    #[inline(always)]
    fn prefetch(&self, i: u64) {
        self.table.prefetch(i)
    }

    #[inline]
    fn lower_all(&self, marks: &[(u64, u8)]) {
        let mut low = 0;
        for &(i, v) in marks {
            self.table.lower(i, v);
            low += (v <= self.base) as usize;
        }
        if low > 0 {
            let mut kept = self.low.lock().unwrap();
            kept.extend(
                marks
                    .iter()
                    .filter(|&&(_, v)| v <= self.base)
                    .map(|&(i, v)| i << 4 | v as u64),
            );
        }
    }
}

impl LineMarks {
    fn new(entries: u64, base: u8, cap: u8) -> LineMarks {
        let table = NibbleTable::new_lines_in_huge_pages(entries, base, cap)
            .expect("memory for the table (checked before the build)");
        LineMarks::with_table(table, base, cap)
    }

    /// Marks lowering `table`: a new one, or a checkpoint's read back.
    fn with_table(table: NibbleTable, base: u8, cap: u8) -> LineMarks {
        LineMarks {
            table,
            base,
            cap,
            low: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The table with its exact histogram: each entry kept aside counted once at its least
    /// mark, the others by their code. Panics if the entries kept aside are not exactly those
    /// the lines read as at most the base (a builder bug).
    fn finish(self) -> NibbleTable {
        let mut low = self.low.into_inner().unwrap();
        low.par_sort_unstable();
        let mut histogram = vec![0u64; self.cap as usize + 1];
        let mut last = u64::MAX;
        for &x in &low {
            // Sorted by index, then value: the first of an index is its least mark.
            if x >> 4 != last {
                histogram[(x & 15) as usize] += 1;
                last = x >> 4;
            }
        }
        drop(low);
        let codes = self.table.line_code_counts();
        let kept: u64 = histogram.iter().sum();
        assert_eq!(
            kept, codes[0],
            "entries kept aside against entries read as at most {}",
            self.base
        );
        for k in 1..4 {
            histogram[(self.base + k as u8) as usize] = codes[k];
        }
        self.table.with_histogram(histogram)
    }
}

impl Marks for NibbleTable {
    #[inline(always)]
    fn lower(&self, i: u64, v: u8) {
        NibbleTable::lower(self, i, v)
    }

    #[inline(always)]
    fn prefetch(&self, i: u64) {
        NibbleTable::prefetch(self, i)
    }
}

/// One thread's marks in two stages: a stage's entries are computed and prefetched, and
/// lowered when the next stage is done, so that the table's cache misses overlap the next
/// stage's arithmetic.
struct Stages<'a, M: Marks, const K: u8> {
    marks: &'a M,
    sp: &'static Sym48Space,
    ready: Vec<(u64, u8)>,
    pending: Vec<(u64, u8)>,
}

impl<'a, M: Marks, const K: u8> Stages<'a, M, K> {
    fn new(marks: &'a M) -> Self {
        Stages {
            marks,
            sp: Sym48Space::get(),
            ready: Vec::with_capacity(64),
            pending: Vec::with_capacity(64),
        }
    }

    /// Marks `p`'s `H11` coset with distance `d` (at most): the index of `p` under every
    /// symmetry that takes its corner coset onto the representative's.
    #[inline(always)]
    fn add(&mut self, p: &Cube, d: u8) {
        let (marks, pending) = (self.marks, &mut self.pending);
        for_each_conjugate(self.sp, p, |cls, e| {
            let i = cls as u64 * Sym48Space::inner::<K>() + Sym48Space::edge_part::<K>(e);
            marks.prefetch(i);
            pending.push((i, d));
        });
    }

    /// Ends a stage: lowers the previous stage's entries.
    #[inline(always)]
    fn next_stage(&mut self) {
        self.marks.lower_all(&self.ready);
        self.ready.clear();
        std::mem::swap(&mut self.ready, &mut self.pending);
    }
}

impl<M: Marks, const K: u8> Drop for Stages<'_, M, K> {
    fn drop(&mut self) {
        self.next_stage();
        self.next_stage();
    }
}

/// The layers of `H11` coset classes to `depth`: layer `d` is the sorted keys ([`h11_key`]) of
/// the classes at distance `d`; `on_layer(d, layer)` sees each as it is finished (the current
/// rayon pool makes them).
pub fn for_each_h11_layer(depth: u8, metric: Metric, on_layer: impl FnMut(u8, &[u64])) {
    let sp = Sym48Space::get();
    for_each_layer_of(depth, false, metric, key_cube, |c| h11_key(sp, c), on_layer);
}

/// The parts the last listed layer's moves are done in, one after another: the steps a build
/// resumes from ([`Resume`]). About 6 s each for `sym48e9`.
pub const SEGMENTS: u64 = 64;

/// Where the marking of the last layer's moves starts, and what runs after each of its
/// [`SEGMENTS`] (a checkpoint, when due): all from the start and nothing after for a fresh
/// build ([`Resume::none`]).
pub struct Resume<'a> {
    /// Segments whose moves the table already holds (a checkpoint's).
    pub from: u64,
    /// Called with the number of segments done after each segment this run makes, while no
    /// thread marks.
    pub after: Option<&'a mut (dyn FnMut(u64) + Send)>,
}

impl Resume<'_> {
    /// From the start, nothing run between segments.
    pub fn none() -> Resume<'static> {
        Resume {
            from: 0,
            after: None,
        }
    }
}

/// Marks every coset class within `depth` (≥ 2) moves of `metric` (its unit moves: the 18
/// face turns, or the 12 quarter turns): the layers to `depth − 2` with their distances, and
/// for each coset of the last of them its moves (one more) and the moves that may follow them
/// on a shortest path (two more). Every mark comes from a coset at most that far from solved,
/// and every coset within `depth` moves is marked with its distance: a shortest sequence to it
/// passes a coset of layer `depth − 2` and ends with two moves, in canonical order in HTM, and
/// in QTM any two but a turn and its inverse (`U U` is a half turn's shortest path there).
///
/// The last layer's moves go in [`SEGMENTS`] parts; those before `resume.from` are skipped
/// (their marks are in the table already), though their classes are still marked with the
/// layer's own distance, so that the marks at or below a line table's base, which
/// [`LineMarks`] keeps aside and a checkpoint does not hold, are all made again.
pub fn mark_within<const K: u8>(
    depth: u8,
    metric: Metric,
    marks: &impl Marks,
    progress: Option<&Progress>,
    resume: Resume<'_>,
) {
    assert!(depth >= 2, "marks to depth 2 or more");
    let entries = N_CORNER_COSET_CLASSES as u64 * Sym48Space::inner::<K>();
    let listed = depth - 2;
    // Progress in entries, shared out by time rather than by depth, so that the bar's ETA
    // holds: listing the layers takes about 2 % of a build (5 s of 250 s for `sym48e6` once
    // the table is set up in parallel), moving the last layer twice the rest, at an even pace.
    let listing = entries / 50;
    // The metric's moves as positions, and which may follow which on a shortest path.
    let (moves, kinds) = (metric.generators(), metric.moves());
    let follows: Vec<Vec<&Cube>> = (kinds.iter())
        .map(|&a| {
            (kinds.iter().zip(moves))
                .filter(|&(&b, _)| metric.may_follow_move(a, b))
                .map(|(_, g)| g)
                .collect()
        })
        .collect();
    // Marks the classes of `keys` with `d`, and with `moved` their moves too.
    let mark = |keys: &[u64], d: u8, moved: bool| {
        let mut stages = Stages::<_, K>::new(marks);
        for &k in keys {
            let c = key_cube(k);
            stages.add(&c, d);
            if !moved {
                continue;
            }
            for (m1, after) in moves.iter().zip(&follows) {
                let c1 = c.compose(m1);
                stages.add(&c1, d + 1);
                for m2 in after {
                    stages.add(&c1.compose(m2), d + 2);
                }
                stages.next_stage();
            }
        }
    };
    let mut after = resume.after;
    for_each_h11_layer(listed, metric, |d, layer| {
        if let Some(p) = progress {
            p.update(
                listing * d as u64 / listed as u64,
                &format!("depth {d}: {} coset classes", layer.len()),
            );
        }
        if d < listed {
            layer
                .par_chunks(1 << 14)
                .for_each(|keys| mark(keys, d, false));
            return;
        }
        let n = layer.len() as u64;
        let done = std::sync::atomic::AtomicU64::new(0);
        for seg in 0..SEGMENTS {
            let part = &layer[(n * seg / SEGMENTS) as usize..(n * (seg + 1) / SEGMENTS) as usize];
            let moved = seg >= resume.from;
            // Chunks small enough that the progress moves.
            part.par_chunks(1 << 14).for_each(|keys| {
                mark(keys, d, moved);
                if let Some(p) = progress {
                    let n_done = done.fetch_add(keys.len() as u64, Relaxed) + keys.len() as u64;
                    let span = (entries - listing) as u128 * n_done as u128 / n as u128;
                    p.update(
                        listing + span as u64,
                        &format!("depth {d}: moving {n_done} of {n} coset classes twice"),
                    );
                }
            });
            if let Some(f) = after.as_mut().filter(|_| moved) {
                f(seg + 1);
            }
        }
    });
}

/// Builds table `eK` on the current rayon pool (progress in entries, shared out by time),
/// every entry at [`CAP`] until a mark lowers it: `e1` to `e4` in nibbles, the others straight into
/// their file form, 2-bit lines with base `CAP − 3`, with the exact histogram. In
/// metric `M` (its index in [`Metric::ALL`]: [`exact_depth`], [`cap`]). A table in lines
/// resumes from `checkpoint`'s table and writes checkpoints between the last layer's segments
/// when they are due.
pub fn build<const K: u8, const M: usize>(
    progress: &Progress,
    checkpoint: &mut Checkpoint,
) -> NibbleTable {
    let metric = Metric::ALL[M];
    let depth = exact_depth(metric);
    let Store::Lines { base: Some(base) } = store(K, metric) else {
        let table = NibbleTable::new_unknown_in_huge_pages(entries(K))
            .expect("memory for the table (checked before the build)");
        mark_within::<K>(depth, metric, &table, Some(progress), Resume::none());
        table.fill_unknown(cap(metric));
        return table;
    };
    build_lines::<K>(depth, metric, base, progress, checkpoint)
}

/// [`build`] of a table in 2-bit lines with `base`, marked within `depth` (every entry at
/// `depth + 1` until lowered): resumed from `checkpoint`'s table when it holds one, and
/// checkpointed between the last layer's segments when one is due.
fn build_lines<const K: u8>(
    depth: u8,
    metric: Metric,
    base: u8,
    progress: &Progress,
    checkpoint: &mut Checkpoint,
) -> NibbleTable {
    let cap = depth + 1;
    let (marks, from) = match checkpoint.take_resumed() {
        Some((table, point)) => {
            assert_eq!(point.of, SEGMENTS, "a checkpoint of another build's steps");
            progress.println(&format!(
                "resuming from the checkpoint: {} of {} parts of the last layer done",
                point.done, point.of
            ));
            (LineMarks::with_table(table, base, cap), point.done)
        }
        None => (LineMarks::new(entries(K), base, cap), 0),
    };
    let mut after = |done: u64| {
        if !checkpoint.due(done, SEGMENTS) {
            return;
        }
        let point = ResumePoint { done, of: SEGMENTS };
        // A failed checkpoint costs only the resume: the build goes on.
        match checkpoint.save(&marks.table, point) {
            Ok(()) => progress.println(&format!(
                "checkpoint: {done} of {SEGMENTS} parts done, saved to {}",
                checkpoint
                    .path()
                    .map_or(String::new(), |p| p.display().to_string())
            )),
            Err(e) => progress.println(&format!("checkpoint not saved: {e}")),
        }
    };
    mark_within::<K>(
        depth,
        metric,
        &marks,
        Some(progress),
        Resume {
            from,
            after: Some(&mut after),
        },
    );
    progress.update(entries(K), "counting the values");
    marks.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::coset::{corner_coset, sep_flip_bytes, sep_flip_k_bytes, sep_flip_k_edges};
    use crate::coord::symmetry::symmetries;
    use crate::cube::Move;
    use crate::cube::Rng;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// 117,567,450 · 2^K entries; the edge part reads back what it was made from.
    #[test]
    fn entry_count_and_edge_part() {
        fn check<const K: u8>(rng: &mut Rng) {
            assert_eq!(entries(K), 117_567_450 << K);
            for _ in 0..2000 {
                let x = rng.below(n_sep_flip_k(K) as u64) as usize;
                let (ep, eo) = sep_flip_k_edges::<K>(x);
                let c = Cube::from_parts(Cube::SOLVED.cp(), Cube::SOLVED.co(), ep, eo);
                assert_eq!(sep_flip_k_bytes::<K>(c.edge_bytes()), x);
            }
        }
        let mut rng = Rng::new(66);
        check::<1>(&mut rng);
        check::<2>(&mut rng);
        check::<3>(&mut rng);
        check::<4>(&mut rng);
        check::<5>(&mut rng);
        check::<6>(&mut rng);
        check::<7>(&mut rng);
        check::<8>(&mut rng);
        check::<9>(&mut rng);
        // Each variant's edge part is the `e4` part with flips dropped or added: the first
        // E pieces' flips are the low bits of `e4`'s, the M pieces' go below them.
        for _ in 0..2000 {
            let e = Cube::random(&mut rng);
            let e = e.edge_bytes();
            let e4 = sep_flip_bytes(e);
            assert_eq!(sep_flip_k_bytes::<4>(e), e4);
            for (k, x) in [
                (1, sep_flip_k_bytes::<1>(e)),
                (2, sep_flip_k_bytes::<2>(e)),
                (3, sep_flip_k_bytes::<3>(e)),
            ] {
                assert_eq!(x, (e4 >> 4 << k) + (e4 & ((1 << k) - 1)), "e{k}");
            }
            assert_eq!(sep_flip_k_bytes::<5>(e) >> 1, e4);
            // The first M piece's flip is the low bit.
            let e8 = sep_flip_k_bytes::<8>(e);
            assert_eq!((e8 >> 4 << 1) + (e8 & 1), sep_flip_k_bytes::<5>(e));
            // The first S piece's flip goes below the M pieces'.
            assert_eq!(sep_flip_k_bytes::<9>(e) >> 1, e8);
        }
        use crate::pdb::Pattern;
        assert_eq!(Pattern::SYM48E1.entries(), entries(1));
        assert_eq!(Pattern::SYM48E2.entries(), entries(2));
        assert_eq!(Pattern::SYM48E3.entries(), entries(3));
        assert_eq!(Pattern::SYM48E5.entries(), entries(5));
        assert_eq!(Pattern::SYM48E4.entries(), entries(4));
        assert_eq!(Pattern::SYM48E6.entries(), entries(6));
        assert_eq!(Pattern::SYM48E7.entries(), entries(7));
        assert_eq!(Pattern::SYM48E8.entries(), entries(8));
        assert_eq!(Pattern::SYM48E9.entries(), entries(9));
        assert_eq!(entries(9), 60_194_534_400);
    }

    /// The canonical key is the same for a position, its conjugates and its coset's cube, and
    /// moves act on keys: the keys of a position's 18 moves are those of the key's cube (a
    /// conjugation maps the moves onto the moves), so the layers can be made from keys alone.
    #[test]
    fn h11_keys_are_class_functions() {
        let sp = Sym48Space::get();
        let syms = symmetries();
        let mut rng = Rng::new(67);
        for _ in 0..2000 {
            let p = Cube::random(&mut rng);
            let k = h11_key(sp, &p);
            let s = rng.below(48) as usize;
            assert_eq!(h11_key(sp, &syms.conj_cube(&p, s)), k);
            let c = key_cube(k);
            assert_eq!(h11_key(sp, &c), k);
            // Half turns stay in the coset: premoving one keeps the key.
            for m in Move::all().filter(|m| m.quarter_turns() == 2) {
                assert_eq!(h11_key(sp, &m.cube().compose(&p)), k, "{m}");
            }
            let children = |q: &Cube| {
                let mut v: Vec<u64> = Move::all().map(|m| h11_key(sp, &q.apply(m))).collect();
                v.sort_unstable();
                v
            };
            assert_eq!(children(&p), children(&c));
        }
    }

    /// The coset coordinate of a position, without symmetry: (corner coset, `e4` edge part).
    fn raw_coset(c: &Cube) -> (usize, usize) {
        (
            corner_coset(&c.cp(), &c.co()),
            sep_flip_bytes(c.edge_bytes()),
        )
    }

    /// The distance of every `e4` coset within `depth` moves, by [`raw_coset`] pair: a
    /// breadth-first search over the pairs (each with a cube of it), without symmetry.
    fn raw_coset_depths(depth: u8) -> HashMap<(usize, usize), u8> {
        let start = raw_coset(&Cube::SOLVED);
        let mut depths = HashMap::from([(start, 0)]);
        let mut layer = vec![Cube::SOLVED];
        for d in 1..=depth {
            let mut next = Vec::new();
            for c in &layer {
                for m in Move::all() {
                    let n = c.apply(m);
                    if let std::collections::hash_map::Entry::Vacant(v) =
                        depths.entry(raw_coset(&n))
                    {
                        v.insert(d);
                        next.push(n);
                    }
                }
            }
            layer = next;
        }
        depths
    }

    /// A map standing in for the table.
    struct Map(Mutex<HashMap<u64, u8>>);

    impl Marks for Map {
        fn lower(&self, i: u64, v: u8) {
            let mut m = self.0.lock().unwrap();
            let e = m.entry(i).or_insert(v);
            *e = (*e).min(v);
        }
    }

    /// The marks of every coset class within `depth` moves for table `eK`, on a pool of
    /// `threads`.
    fn marks_within<const K: u8>(depth: u8, metric: Metric, threads: usize) -> HashMap<u64, u8> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let marks = Map(Mutex::new(HashMap::new()));
        pool.install(|| mark_within::<K>(depth, metric, &marks, None, Resume::none()));
        marks.0.into_inner().unwrap()
    }

    /// A build killed after a checkpoint and run again from it gives the bytes and the
    /// histogram of one uninterrupted build: here `e0`'s index in lines with base 4, marked
    /// within 6 moves, left at 10 of the [`SEGMENTS`] parts (the later parts' marks are made
    /// but not in the file, as when killed). The checkpoint file is refused as a table, and a
    /// damaged one is refused as a checkpoint, naming the file.
    #[test]
    fn a_resumed_build_gives_the_same_table() {
        use crate::pdb::Pattern;
        use std::time::Duration;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let hidden = || Progress::new(crate::progress::ProgressMode::Hidden, "t", 1, "entries");
        let (depth, base) = (6, 4);
        let whole = pool.install(|| {
            build_lines::<0>(depth, Metric::Htm, base, &hidden(), &mut Checkpoint::none())
        });
        let dir = std::env::temp_dir().join(format!("optcube-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let table = dir.join("sym48e0.pdb");
        let pattern = Pattern::SYM48E0;
        let mut cp = Checkpoint::open(&table, pattern, Some(Duration::ZERO)).unwrap();
        let marks = LineMarks::new(entries(0), base, depth + 1);
        let mut after = |done: u64| {
            if done == 10 {
                let point = ResumePoint { done, of: SEGMENTS };
                cp.save(&marks.table, point).unwrap();
            }
        };
        let resume = Resume {
            from: 0,
            after: Some(&mut after),
        };
        pool.install(|| mark_within::<0>(depth, Metric::Htm, &marks, None, resume));
        drop(marks);
        let partial = Checkpoint::path_of(&table);
        let as_table = crate::pdb::file::load(&partial, pattern).err().unwrap();
        assert!(
            as_table.to_string().contains("unfinished build"),
            "{as_table}"
        );

        let mut cp = Checkpoint::open(&table, pattern, None).unwrap();
        let resumed =
            pool.install(|| build_lines::<0>(depth, Metric::Htm, base, &hidden(), &mut cp));
        assert!(resumed.bytes() == whole.bytes(), "resumed bytes differ");
        assert_eq!(resumed.histogram(), whole.histogram());

        // One byte of the payload changed: the checksum refuses it.
        let mut bytes = std::fs::read(&partial).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&partial, &bytes).unwrap();
        let e = Checkpoint::open(&table, pattern, None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("sym48e0.pdb.partial") && e.contains("delete it"),
            "{e}"
        );
        Checkpoint::remove(&table).unwrap();
        assert!(!partial.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `e4` is built capped at [`CAP`] but its file holds what its exact distances give: the
    /// base of its exact histogram (the one the earlier 16-symmetry BFS recorded, max 13,
    /// `results/build-sym48.md`) is that of the capped one, its top code reads "base + 3 or
    /// more" with base + 3 at most the cap, and the lines of a table and of its copy capped
    /// at the cap are the same bytes (every line holding an entry at most the cap). Fails if
    /// [`EXACT_DEPTH`] or `e4`'s store change so that the file would.
    #[test]
    fn sym48e4_file_does_not_feel_the_cap() {
        let exact: [u64; 14] = [
            1, 1, 4, 34, 332, 3728, 43797, 523694, 6271156, 69670222, 539602979, 1141151586,
            123807821, 3845,
        ];
        assert_eq!(exact.iter().sum::<u64>(), entries(4));
        let mut capped = exact[..=CAP as usize].to_vec();
        capped[CAP as usize] += exact[CAP as usize + 1..].iter().sum::<u64>();
        let base = Format::line_base(&exact);
        assert_eq!(Format::line_base(&capped), base);
        assert_eq!(store(4, Metric::Htm), Store::Lines { base: None });
        assert!(
            base + 3 <= CAP,
            "base {base}: the cap {CAP} would read below base + 3"
        );
        let mut rng = Rng::new(73);
        let n = 252 * 40 + 17;
        let (t, c) = (NibbleTable::new_unknown(n), NibbleTable::new_unknown(n));
        for i in 0..n {
            // Values 9..13, one entry of each line at most the cap.
            let v = if i % 252 == 5 {
                12
            } else {
                9 + rng.below(5) as u8
            };
            t.lower(i, v);
            c.lower(i, v.min(CAP));
        }
        assert!(t.to_lines(base) == c.to_lines(base));
    }

    /// The build's marks: the lines and the exact histogram are those of a nibble table given
    /// the same marks, the rest read as the cap; marks at or below the base are counted once
    /// an entry, at their least.
    #[test]
    fn line_marks_give_the_lines_and_the_exact_histogram() {
        let mut rng = Rng::new(72);
        let entries = 5000;
        let marks = LineMarks::new(entries, CAP - 3, CAP);
        let nibbles = NibbleTable::new_unknown(entries);
        for _ in 0..3 {
            let batch: Vec<(u64, u8)> = (0..2000)
                .map(|_| (rng.below(entries), rng.below(CAP as u64 + 1) as u8))
                .collect();
            marks.lower_all(&batch);
            for &(i, v) in &batch {
                nibbles.lower(i, v);
            }
        }
        nibbles.fill_unknown(CAP);
        let t = marks.finish();
        assert!(t.bytes() == &nibbles.to_lines(CAP - 3)[..]);
        assert_eq!(t.histogram(), nibbles.histogram());
        assert!(t.histogram()[..=9].iter().sum::<u64>() > 1000);
    }

    /// The marks do not depend on the number of threads (the table is their minimum).
    #[test]
    fn one_and_two_threads_mark_the_same() {
        let one = marks_within::<6>(5, Metric::Htm, 1);
        assert!(one.len() > 2_000, "{} entries marked", one.len());
        assert!(one == marks_within::<6>(5, Metric::Htm, 2));
    }

    /// Admissible within 6 moves: with the marks of every coset class within 6 moves standing
    /// in for the table (unmarked entries reading 7), no position within 6 moves, nor its
    /// inverse or a conjugate, reads more than its distance, whichever symmetry its lookup
    /// picked; for `e2`, `e4`, `e5`, `e6`, `e7`, `e8` and `e9`.
    #[test]
    fn marks_are_lower_bounds_within_6_moves() {
        lower_bounds_within_6::<2>();
        lower_bounds_within_6::<4>();
        lower_bounds_within_6::<5>();
        lower_bounds_within_6::<6>();
        lower_bounds_within_6::<7>();
        lower_bounds_within_6::<8>();
        lower_bounds_within_6::<9>();
        // In quarter turns too (`sym48e6-qtm`), against positions by their QTM distance.
        lower_bounds_within_in::<6>(Metric::Qtm, 6);
    }

    /// For the variants whose entries are exact coset distances (`e0`, `e4`), the marks are
    /// those distances, checked against the other builders: within 6 moves the marks of `e0`
    /// are exactly the entries of the `sym48e0` table (a BFS over its coset space) at most 6,
    /// and those of `e4` exactly the distances a breadth-first search over raw (corner coset,
    /// `e4` part) pairs gives the cosets of the class representatives' corners.
    #[test]
    fn marks_of_the_coset_variants_are_their_exact_distances() {
        let e0 = crate::testing::sym48e0_table();
        let marks = marks_within::<0>(6, Metric::Htm, 2);
        let mut within = 0;
        for i in 0..e0.entries() {
            let v = e0.get(i);
            if v <= 6 {
                within += 1;
                assert_eq!(marks.get(&i), Some(&v), "e0 entry {i}");
            }
        }
        assert_eq!(marks.len(), within);
        assert!(within > 40_000, "{within}");

        let marks = marks_within::<4>(6, Metric::Htm, 2);
        let sp = Sym48Space::get();
        let reps = &crate::coord::coset::CornerCoset::get().classes.rep;
        let inner = Sym48Space::inner::<4>();
        let mut at_reps = 0;
        for ((cc, x), d) in raw_coset_depths(6) {
            let (cls, s) = sp.class_sym(&corner_coset_cube(cc));
            if reps[cls] as usize == cc {
                assert_eq!(s, 0, "a representative's own symmetry");
                assert_eq!(marks.get(&(cls as u64 * inner + x as u64)), Some(&d));
                at_reps += 1;
            }
        }
        assert_eq!(marks.len(), at_reps);
        assert!(at_reps > 10_000, "{at_reps}");
    }

    /// The whole `sym48e0` table marked as the larger variants are (exact to 11, 12 for more:
    /// its largest value is 12) equals the one its breadth-first search over the coset space
    /// builds, entry for entry; prints both builds' times. Ignored: the marking takes minutes
    /// (`results/build-sym48.md` has the figures, and why `e0` keeps its search).
    #[test]
    #[ignore]
    fn sym48e0_marked_equals_its_breadth_first_search() {
        marked_equals_breadth_first_search(crate::pdb::Pattern::SYM48E0, EXACT_DEPTH);
    }

    /// `pattern` (`sym48e0`) marked to `depth` in its metric, `depth + 1` elsewhere,
    /// equals its breadth-first search's table, whose largest value is `depth + 1` or less.
    fn marked_equals_breadth_first_search(pattern: crate::pdb::Pattern, depth: u8) {
        let metric = pattern.metric();
        let t = std::time::Instant::now();
        let bfs = crate::testing::build(pattern, crate::pdb::Method::Bfs, 2);
        let bfs_secs = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        let marked = NibbleTable::new_unknown_in_huge_pages(bfs.entries()).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| mark_within::<0>(depth, metric, &marked, None, Resume::none()));
        marked.fill_unknown(depth + 1);
        let marked_secs = t.elapsed().as_secs_f64();
        println!("{pattern}: breadth-first search {bfs_secs:.1} s, marks {marked_secs:.1} s");
        let deepest = bfs.histogram().iter().rposition(|&n| n > 0).unwrap();
        assert!(deepest <= depth as usize + 1, "{pattern}: {deepest}");
        if marked.bytes() != bfs.bytes() {
            let (mut lo, mut hi) = (0u64, 0u64);
            for i in 0..bfs.entries() {
                let (m, b) = (marked.get(i), bfs.get(i));
                if m < b {
                    if lo < 5 {
                        println!("entry {i}: marked {m}, search {b}");
                    }
                    lo += 1;
                } else if m > b {
                    if hi < 5 {
                        println!("entry {i}: marked {m}, search {b}");
                    }
                    hi += 1;
                }
            }
            panic!(
                "{pattern}: {lo} entries marked below the search's value, {hi} above; \
                 histograms {:?} and {:?}",
                marked.histogram(),
                bfs.histogram()
            );
        }
    }

    fn lower_bounds_within_6<const K: u8>() {
        lower_bounds_within_in::<K>(Metric::Htm, 6)
    }

    /// In slice-turn and axial moves too (`sym48e6-stm`, `sym48e6-atm`), to 5 and 4 moves.
    #[test]
    fn marks_are_lower_bounds_in_slice_turn_and_axial_moves() {
        lower_bounds_within_in::<6>(Metric::Stm, 5);
        lower_bounds_within_in::<6>(Metric::Atm, 4);
    }

    /// The marks within `depth` moves of `metric` are lower bounds of the distances of
    /// positions within `depth` moves (made by a plain breadth-first search over cubes), most
    /// of them exact.
    fn lower_bounds_within_in<const K: u8>(metric: Metric, depth: u8) {
        let sp = Sym48Space::get();
        let marks = marks_within::<K>(depth, metric, 2);
        // (Fewer classes lie within 6 quarter turns than within 6 face turns.)
        let least = match (metric, depth) {
            (Metric::Htm, 6) => 20_000,
            (_, 6) => 5_000,
            _ => 1_000,
        };
        assert!(marks.len() > least, "{} entries marked", marks.len());
        let read = |q: &Cube| *marks.get(&sp.index::<K>(q)).unwrap_or(&(depth + 1));
        let syms = symmetries();
        let mut rng = Rng::new(68);
        let mut at_distance = 0u64;
        let layers = crate::testing::positions_within(69, metric, depth as usize);
        for (d, layer) in layers.iter().enumerate() {
            for c in layer {
                let s = rng.below(48) as usize;
                for q in [*c, c.inverse(), syms.conj_cube(c, s)] {
                    let v = read(&q);
                    assert!(v as usize <= d, "{q:?} at {d} moves reads {v}");
                    at_distance += (v as usize == d) as u64;
                }
            }
        }
        // The marks are not all trivially low: most positions read their distance.
        let positions: usize = layers.iter().map(Vec::len).sum();
        assert!(
            at_distance as usize > positions,
            "{at_distance} of {positions}"
        );
    }
}
