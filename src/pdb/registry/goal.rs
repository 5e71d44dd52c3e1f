//! Distance tables of goals ([`crate::cube::Goal`]): the exact distance to a goal over the
//! states its pieces' labels can take, built on first use by the one breadth-first search and
//! cached in the table directory as `goal-KEY.pdb` (`goal-KEY-qtm.pdb` in quarter turns; KEY is
//! [`Goal::key`], the same for equal goals whatever they are called).
//!
//! **The index.** A goal sees, in each slot, the *label* of the piece there (its class; free
//! pieces share label 0) and, for pieces whose orientation counts, that orientation. Per kind
//! (corners, edges) the labels are an arrangement of a multiset ([`Multiset`]), the
//! orientations digits in slot order; the flips of edges that are home alone (a class of one)
//! are kept apart, one bit per piece, so that a move changes them by an XOR: the search's
//! *inner* index. So an index is `(corner block · edge blocks + edge block) · 2^u + flips`
//! with `u` such edges. For `htr` ([`Goal::squares`]) the corners' arrangement is instead the
//! coset of their permutation modulo the squares group (420, [`SquaresCorners`]), each corner
//! its own label, so that the goal's corner condition is one coset. A goal is one state of
//! this index (its classes fill their own slots:
//! [`Goal`]'s invariant), so the table holds each state's distance to it. Digits that a
//! twist or flip sum fixes are kept (those entries are never reached): simpler, and the tables
//! stay small.
//!
//! **Admissibility.** A table of a *relaxation* of the goal (some classes freed, [`plan`]) is
//! exact for the relaxation, and a position's distance to the relaxation is at most its
//! distance to the goal (every position meeting the goal meets the relaxation); the maximum of
//! such tables is a lower bound on the distance to the goal.

use crate::coord::squares::{CORNER_COSETS, SquaresCorners};
use crate::cube::{Cube, Goal, Metric, Move};
use crate::pdb::bfs::bfs;
use crate::pdb::cells::ByteCells;
use crate::pdb::file::{self, Packing, TableError, TableKind};
use crate::pdb::layout::{InMetric, Layout};
use crate::pdb::table::copy_to_huge_pages;
use crate::progress::{Progress, ProgressMode};
use crate::rank::{Multiset, PartialPerm};
use std::path::Path;

/// Most entries (bytes) of one goal table: larger goals are covered by several relaxations
/// (tables of at most [`table_limit`] entries each).
pub const LIMIT: u64 = 100_000_000;
/// Goals whose relaxations were measured to pay for larger tables, with their limit. `f2l`:
/// its second relaxation grows from the xcross (73 M entries) to the xcross with one more
/// E-slice edge (1.02 G entries, built in 103 s on 2 threads), and the search takes 0.19–0.21
/// the nodes and 0.26–0.35 the time (`results/goals.md`). The other goals keep [`LIMIT`]: their
/// larger plans are unmeasured.
const LARGER: &[(&str, u64)] = &[("f2l", MAX_ENTRIES)];
/// Most entries of any goal table (1 GiB of bytes).
pub const MAX_ENTRIES: u64 = 1 << 30;
/// Version of the goal tables' index.
const VERSION: u32 = 2;

/// What a label's orientation does in the index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    /// Not counted (free pieces, or a class whose orientation does not count).
    #[default]
    None,
    /// A digit of the block, in slot order.
    Digit,
    /// A bit of the inner index (an edge home alone).
    Bit(u8),
}

/// One kind's part of the index.
#[derive(Clone, Debug)]
struct KindView {
    n: usize,
    base: u8,
    /// Dense label of each piece (0: free).
    label: [u8; 12],
    /// Each label's [`Mode`] as the hot path reads it, without branches: per label, the digit
    /// multiplier (`base` for a digit, else 1), whether its orientation is added (1 or 0), and
    /// its inner bit (shift, and a mask of 1 or 0).
    digit_mul: [u8; 16],
    digit_add: [u8; 16],
    bit_shift: [u8; 16],
    bit_mask: [u8; 16],
    /// Some label is an inner bit.
    has_bits: bool,
    arrangement: Multiset,
    /// When every label but the free one is a single piece (goals of home pieces): the
    /// arrangement ranked as the slots of labels `1..=k` in order, a partial permutation
    /// (the same count, no divisions: the search's hot path).
    unique: Option<PartialPerm>,
    /// `base ^ (number of digit pieces)`.
    digit_space: u64,
    /// Corners of a goal with [`Goal::squares`]: each corner is its own label, and the
    /// arrangement is its permutation's coset.
    squares: Option<&'static SquaresCorners>,
}

impl KindView {
    fn new(classes: &[u8], oriented: &[bool], base: u8, bits: &mut u8, squares: bool) -> KindView {
        let n = classes.len();
        let mut ids: Vec<u8> = vec![0];
        let mut label = [0u8; 12];
        // Under the squares condition each corner is a class of its own (its coset is read
        // from the whole permutation).
        let own: Vec<u8>;
        let classes = if squares {
            own = (1..=n as u8).collect();
            &own[..]
        } else {
            classes
        };
        for (p, &c) in classes.iter().enumerate() {
            label[p] = match ids.iter().position(|&d| d == c) {
                Some(l) => l as u8,
                None => {
                    ids.push(c);
                    (ids.len() - 1) as u8
                }
            };
        }
        let mut counts = vec![0u8; ids.len()];
        let mut mode = [Mode::None; 16];
        let mut digits = 0;
        for p in 0..n {
            let l = label[p] as usize;
            counts[l] += 1;
        }
        for p in 0..n {
            let l = label[p] as usize;
            if l == 0 || !oriented[p] {
                continue;
            }
            if base == 2 && counts[l] == 1 {
                mode[l] = Mode::Bit(*bits);
                *bits += 1;
            } else {
                mode[l] = Mode::Digit;
                digits += 1;
            }
        }
        let unique = (!squares && counts[1..].iter().all(|&c| c == 1))
            .then(|| PartialPerm::new(n, counts.len() - 1));
        let (mut digit_mul, mut digit_add) = ([1u8; 16], [0u8; 16]);
        let (mut bit_shift, mut bit_mask) = ([0u8; 16], [0u8; 16]);
        for l in 0..16 {
            match mode[l] {
                Mode::None => {}
                Mode::Digit => (digit_mul[l], digit_add[l]) = (base, 1),
                Mode::Bit(b) => (bit_shift[l], bit_mask[l]) = (b, 1),
            }
        }
        KindView {
            digit_mul,
            digit_add,
            bit_shift,
            has_bits: bit_mask.iter().any(|&m| m != 0),
            bit_mask,
            squares: squares.then(SquaresCorners::get),
            n,
            base,
            label,
            unique,
            arrangement: Multiset::new(&counts),
            digit_space: (base as u64).pow(digits),
        }
    }

    fn blocks(&self) -> u64 {
        let arrangements = match self.squares {
            Some(_) => CORNER_COSETS as u64,
            None => self.arrangement.size(),
        };
        arrangements * self.digit_space
    }

    /// Labels other than the free one.
    fn arrangement_labels(&self) -> usize {
        self.label[..self.n]
            .iter()
            .map(|&l| l as usize)
            .max()
            .unwrap_or(0)
    }

    /// The block and inner bits of the slots' labels and orientations (`labels[s]`, `oris[s]`).
    #[inline]
    fn block(&self, labels: &[u8], oris: &[u8]) -> (u64, u32) {
        let (mut d, mut inner) = (0u64, 0u32);
        // Two loops, each skipped when it has nothing to read: the digits are a serial
        // multiply-add chain, the bits an OR.
        if self.digit_space > 1 {
            for s in 0..self.n {
                let (l, o) = (labels[s] as usize, oris[s]);
                d = d * self.digit_mul[l] as u64 + (o * self.digit_add[l]) as u64;
            }
        }
        if self.has_bits {
            for s in 0..self.n {
                let (l, o) = (labels[s] as usize, oris[s]);
                inner |= ((o & self.bit_mask[l]) as u32) << self.bit_shift[l];
            }
        }
        let arrangement = match (&self.squares, &self.unique) {
            (Some(sq), _) => {
                let perm: [u8; 8] = std::array::from_fn(|s| labels[s] - 1);
                sq.coset_of(&perm) as u64
            }
            (None, Some(pp)) => {
                // The slot of each label; free slots all write entry 0, which is not read
                // (no branch: which slots are free is unpredictable).
                let mut pos = [0u8; 16];
                for (s, &l) in labels[..self.n].iter().enumerate() {
                    pos[l as usize & 15] = s as u8;
                }
                pp.rank(&pos[1..])
            }
            (None, None) => self.arrangement.rank(&labels[..self.n]),
        };
        (arrangement * self.digit_space + d, inner)
    }

    /// The slots' labels and digit orientations of `block` (inner pieces read 0).
    fn decode(&self, block: u64, labels: &mut [u8], oris: &mut [u8]) {
        let (a, mut d) = (block / self.digit_space, block % self.digit_space);
        match (&self.squares, &self.unique) {
            (Some(sq), _) => {
                let rep = sq.representative[a as usize];
                for s in 0..8 {
                    labels[s] = rep[s] + 1;
                }
            }
            (None, Some(pp)) => {
                let mut pos = [0u8; 12];
                pp.unrank(a, &mut pos);
                labels[..self.n].fill(0);
                for (j, &s) in pos[..self.arrangement_labels()].iter().enumerate() {
                    labels[s as usize] = j as u8 + 1;
                }
            }
            (None, None) => self.arrangement.unrank(a, labels),
        }
        for s in (0..self.n).rev() {
            oris[s] = 0;
            if self.digit_add[labels[s] as usize] == 1 {
                oris[s] = (d % self.base as u64) as u8;
                d /= self.base as u64;
            }
        }
    }
}

/// The index of one goal's states (module docs).
#[derive(Clone, Debug)]
pub struct GoalSpace {
    corners: KindView,
    edges: KindView,
    /// Bits of the inner index: edges home alone.
    bits: u8,
    /// `edges.blocks()`, and whether each kind is all free (one block, index 0).
    edge_blocks: u64,
    corners_free: bool,
    edges_free: bool,
}

impl GoalSpace {
    pub fn new(goal: &Goal) -> GoalSpace {
        let mut bits = 0;
        let corners = KindView::new(
            goal.corner_classes(),
            goal.corners_oriented(),
            3,
            &mut 0,
            goal.squares(),
        );
        let edges = KindView::new(
            goal.edge_classes(),
            goal.edges_oriented(),
            2,
            &mut bits,
            false,
        );
        GoalSpace {
            edge_blocks: edges.blocks(),
            corners_free: corners.blocks() == 1,
            edges_free: edges.blocks() == 1 && bits == 0,
            corners,
            edges,
            bits,
        }
    }

    /// Entries of the index.
    pub fn entries(&self) -> u64 {
        (self.corners.blocks() * self.edges.blocks()) << self.bits
    }

    /// The index of `cube`'s state.
    #[inline]
    pub fn index(&self, cube: &Cube) -> u64 {
        // A kind whose pieces are all free has one block (the cross's corners): skipped.
        let cb = if self.corners_free {
            0
        } else {
            let (mut cl, mut co) = ([0u8; 8], [0u8; 8]);
            for s in 0..8 {
                cl[s] = self.corners.label[cube.corner_perm(s) as usize];
                co[s] = cube.corner_ori(s);
            }
            self.corners.block(&cl, &co).0
        };
        let (eb, inner) = if self.edges_free {
            (0, 0)
        } else {
            let (mut el, mut eo) = ([0u8; 12], [0u8; 12]);
            for s in 0..12 {
                el[s] = self.edges.label[cube.edge_perm(s) as usize];
                eo[s] = cube.edge_ori(s);
            }
            self.edges.block(&el, &eo)
        };
        (cb * self.edge_blocks + eb) << self.bits | inner as u64
    }
}

/// Labels and orientations by slot: corners, then edges.
type Slots = ([u8; 8], [u8; 8], [u8; 12], [u8; 12]);

/// [`GoalSpace`] as the breadth-first search's layout, with `INNER = 2^bits`.
struct GoalLayout<'a, const INNER: u32>(&'a GoalSpace);

impl<const INNER: u32> Layout for GoalLayout<'_, INNER> {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = INNER;
    type Pos = Slots;
    /// The flips of the inner edges.
    type Map = u32;

    fn blocks(&self) -> u64 {
        self.0.corners.blocks() * self.0.edges.blocks()
    }

    fn positions(&self, b: u64) -> Slots {
        let s = self.0;
        let mut out: Slots = Default::default();
        s.corners
            .decode(b / s.edges.blocks(), &mut out.0, &mut out.1);
        s.edges.decode(b % s.edges.blocks(), &mut out.2, &mut out.3);
        out
    }

    fn image(&self, (cl, co, el, eo): &Slots, m: usize) -> (u64, u32) {
        let s = self.0;
        let mc = Move::from_index(m).cube();
        let (mut ncl, mut nco, mut nel, mut neo) = ([0u8; 8], [0u8; 8], [0u8; 12], [0u8; 12]);
        for i in 0..8 {
            let from = mc.corner_perm(i) as usize;
            ncl[i] = cl[from];
            nco[i] = (co[from] + mc.corner_ori(i)) % 3;
        }
        let mut flips = 0u32;
        for i in 0..12 {
            let from = mc.edge_perm(i) as usize;
            nel[i] = el[from];
            neo[i] = (eo[from] + mc.edge_ori(i)) % 2;
            let l = nel[i] as usize;
            if s.edges.bit_mask[l] == 1 {
                flips |= (mc.edge_ori(i) as u32) << s.edges.bit_shift[l];
                neo[i] = 0;
            }
        }
        let (cb, _) = s.corners.block(&ncl, &nco);
        let (eb, _) = s.edges.block(&nel, &neo);
        (cb * s.edges.blocks() + eb, flips)
    }

    #[inline(always)]
    fn apply(&self, map: u32, x: u32) -> u32 {
        x ^ map
    }
}

/// The exact distances to one goal (or relaxation), a byte an entry.
pub struct GoalTable {
    goal: Goal,
    space: GoalSpace,
    metric: Metric,
    /// In huge-page memory: the larger tables are read at random, a TLB miss a lookup in
    /// small pages.
    dist: memmap2::Mmap,
    histogram: Vec<u64>,
}

impl GoalTable {
    /// The file identity of `goal`'s table; `origin` is the flag that asked for it (for the
    /// rebuild advice).
    pub fn kind(goal: &Goal, metric: Metric, origin: &str) -> TableKind {
        TableKind {
            name: metric.table_name(&format!("goal-{}", goal.key())),
            version: VERSION,
            pieces: format!(
                "goal pieces {} (c: corners URF..DRB, e: edges UR..BR; x free, h home, a letter a class, upper case oriented), exact {} distance",
                goal.key(),
                metric
            ),
            entries: GoalSpace::new(goal).entries(),
            packing: Packing::Bits(8),
            rebuild: format!("optcube solve {origin} --metric {metric} --pdb-dir {{dir}} U"),
            metric,
        }
    }

    /// Builds `goal`'s table in memory on the current rayon pool.
    ///
    /// # Panics
    /// If the goal has more than [`MAX_ENTRIES`] entries.
    pub fn build(goal: &Goal, metric: Metric, progress: Option<&Progress>) -> GoalTable {
        let space = GoalSpace::new(goal);
        let n = space.entries();
        assert!(
            n <= MAX_ENTRIES,
            "{}: {n} entries, more than a goal table holds",
            goal.key()
        );
        let cells = ByteCells::new(n as usize);
        let start = space.index(&Cube::SOLVED);
        let name = format!("goal-{}", goal.key());
        macro_rules! run {
            ($($bits:literal)*) => {
                match space.bits {
                    $($bits => {
                        let layout = GoalLayout::<{ 1 << $bits }>(&space);
                        if metric.is_htm() {
                            bfs(&layout, &cells, start, &name, progress)
                        } else {
                            bfs(&InMetric::new(&layout, metric), &cells, start, &name, progress)
                        }
                    })*
                    b => panic!("{b} inner bits"),
                }
            };
        }
        let histogram = run!(0 1 2 3 4 5 6 7 8 9 10 11 12);
        let bytes = cells.into_bytes();
        let dist = copy_to_huge_pages(&bytes).expect("anonymous memory for a goal table");
        GoalTable {
            goal: goal.clone(),
            space,
            metric,
            dist,
            histogram,
        }
    }

    /// Opens the tables of `goals` in `dir`, building and saving those missing (atomically).
    /// A file that cannot be used is an error naming it, never replaced here.
    pub fn open_all(
        goals: &[Goal],
        metric: Metric,
        origin: &str,
        dir: &Path,
        mode: ProgressMode,
    ) -> Result<Vec<GoalTable>, TableError> {
        let kinds: Vec<TableKind> = goals
            .iter()
            .map(|g| Self::kind(g, metric, origin))
            .collect();
        file::open_or_build(
            dir,
            &kinds,
            |path, kind| {
                let i = kinds
                    .iter()
                    .position(|k| k.name == kind.name)
                    .expect("asked");
                let (dist, info) = file::load_in_huge_pages(path, kind)?;
                Ok(GoalTable {
                    goal: goals[i].clone(),
                    space: GoalSpace::new(&goals[i]),
                    metric,
                    dist,
                    histogram: info.histogram,
                })
            },
            |missing| {
                let mut out = Vec::new();
                for &i in missing {
                    let kind = &kinds[i];
                    let p = Progress::new(mode, &kind.name, kind.entries, "states");
                    let t = GoalTable::build(&goals[i], metric, Some(&p));
                    file::save_payload(
                        &file::table_path(dir, &kind.name),
                        kind,
                        &t.dist,
                        t.histogram.clone(),
                        "goal breadth-first search",
                    )?;
                    let secs = p.elapsed();
                    p.finish(&format!("built and saved in {secs:.1} s"));
                    out.push(t);
                }
                Ok::<_, TableError>(out)
            },
        )
    }

    /// The exact distance from `cube` to the table's goal.
    #[inline]
    pub fn value(&self, cube: &Cube) -> u8 {
        self.dist[self.space.index(cube) as usize]
    }

    /// `cube`'s index, its entry's load started (read it with [`GoalTable::at`]).
    #[inline]
    pub fn prefetch(&self, cube: &Cube) -> u64 {
        let i = self.space.index(cube);
        crate::pdb::table::prefetch(self.dist.as_ptr().wrapping_add(i as usize));
        i
    }

    /// The distance at index `i`.
    #[inline]
    pub fn at(&self, i: u64) -> u8 {
        self.dist[i as usize]
    }

    /// The number of states at each distance (the goal's distribution).
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.space.entries() as usize
    }
}

/// Domino reduction's states by Kociemba's phase-1 coordinates: twist × slice blocks
/// (2187 · 495), the flip (2048) inner, a move acting on the flip through its move table. The
/// goal `dr`'s own index keeps digits a twist or flip sum fixes and is too large for one
/// table; this one is exact and dense (2,217,093,120 states, a nibble each: 1.1 GB).
struct DrLayout(&'static crate::coord::MoveTables);

impl Layout for DrLayout {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = crate::coord::N_FLIP as u32;
    type Pos = (u16, u16);
    /// The move.
    type Map = u8;

    fn blocks(&self) -> u64 {
        (crate::coord::N_TWIST * crate::coord::N_SLICE) as u64
    }

    fn positions(&self, b: u64) -> (u16, u16) {
        let n = crate::coord::N_SLICE as u64;
        ((b / n) as u16, (b % n) as u16)
    }

    fn image(&self, &(t, s): &(u16, u16), m: usize) -> (u64, u8) {
        let t2 = self.0.twist[t as usize * 18 + m] as u64;
        let sorted = self.0.slice_sorted[s as usize * crate::coord::N_SLICE_PERM * 18 + m];
        let s2 = sorted as u64 / crate::coord::N_SLICE_PERM as u64;
        (t2 * crate::coord::N_SLICE as u64 + s2, m as u8)
    }

    #[inline(always)]
    fn apply(&self, m: u8, x: u32) -> u32 {
        self.0.flip[x as usize * 18 + m as usize] as u32
    }
}

/// The number of positions' phase-1 states (corners and edges oriented, the E-slice edges in
/// the E slice: `dr`) at each distance in `metric`, by the one breadth-first search over
/// [`DrLayout`] (1.1 GB).
pub fn dr_histogram(metric: Metric, progress: Option<&Progress>) -> Vec<u64> {
    let layout = DrLayout(crate::coord::MoveTables::get());
    let n = layout.blocks() * DrLayout::INNER as u64;
    let cells = crate::pdb::NibbleTable::new_unknown(n);
    // Solved: twist 0, slice combination 0 (the slice edges at FR..BR), flip 0.
    if metric.is_htm() {
        bfs(&layout, &cells, 0, "dr", progress)
    } else {
        bfs(&InMetric::new(&layout, metric), &cells, 0, "dr", progress)
    }
}

/// How many states [`exact_histogram`] counts for `goal`: `Some(states)` when it can (the
/// goal's index fits one table, or the goal is domino reduction, counted over its dense
/// phase-1 coordinates), else `None`.
pub fn exact_states(goal: &Goal) -> Option<u64> {
    if goal.key() == Goal::named("dr").expect("a named goal").key() {
        return Some(2_217_093_120);
    }
    let entries = GoalSpace::new(goal).entries();
    (entries <= LIMIT).then_some(entries)
}

/// The goal's states counted by their exact distance to it in `metric` (its distribution:
/// the one breadth-first search), when [`exact_states`] says it can be; else `None`.
pub fn exact_histogram(
    goal: &Goal,
    metric: Metric,
    progress: Option<&Progress>,
) -> Option<Vec<u64>> {
    exact_states(goal)?;
    Some(
        if goal.key() == Goal::named("dr").expect("a named goal").key() {
            dr_histogram(metric, progress)
        } else {
            GoalTable::build(goal, metric, progress)
                .histogram()
                .to_vec()
        },
    )
}

/// The most entries of each of `goal`'s tables: [`LIMIT`], or its entry in [`LARGER`] (a
/// goal given by a mask gets it too when it is the same goal).
pub fn table_limit(goal: &Goal) -> u64 {
    LARGER
        .iter()
        .find(|(name, _)| Goal::named(name).is_ok_and(|g| g.key() == goal.key()))
        .map_or(LIMIT, |&(_, limit)| limit)
}

/// The relaxations whose tables cover `goal`: the goal itself when its index fits
/// [`table_limit`]; otherwise groups of its classes (in [`plan_order`]), each grown while it fits,
/// then topped up with the other groups' classes that still fit, so that every table sees as
/// many pieces as it can.
pub fn plan(goal: &Goal) -> Vec<Goal> {
    plan_within(goal, table_limit(goal))
}

/// [`plan`] with tables of at most `limit` entries.
fn plan_within(goal: &Goal, limit: u64) -> Vec<Goal> {
    if GoalSpace::new(goal).entries() <= limit {
        return vec![goal.clone()];
    }
    let units = plan_order(goal);
    let relax = |set: &[(u8, u8)], k: usize| {
        goal.relaxed(
            format!("{} (part {})", goal.name(), k + 1),
            |c| set.contains(&(0, c)),
            |c| set.contains(&(1, c)),
        )
    };
    let fits = |set: &[(u8, u8)]| GoalSpace::new(&relax(set, 0)).entries() <= limit;
    let mut groups: Vec<Vec<(u8, u8)>> = vec![Vec::new()];
    for &u in &units {
        let last = groups.last_mut().expect("one group");
        last.push(u);
        if !fits(last) {
            last.pop();
            groups.push(vec![u]);
        }
    }
    let whole = groups.clone();
    for g in groups.iter_mut() {
        for &u in whole.iter().flatten() {
            if !g.contains(&u) {
                g.push(u);
                if !fits(g) {
                    g.pop();
                }
            }
        }
    }
    let mut out: Vec<Goal> = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let r = relax(g, k);
        if !out.iter().any(|o| o.key() == r.key()) {
            out.push(r);
        }
    }
    out
}

/// The order in which [`plan`] groups a goal's classes (units: a corner class, kind 0, or an
/// edge class, kind 1). By default the corner classes, then the edge classes, each in piece
/// order. When at least four rotations hold the goal alike (`f2l`), each table is read
/// in as many views (`solvers::goal`), and then each corner class comes followed by the edge
/// classes that touch it and no other corner class (an edge piece touches a corner when its
/// two faces are two of the corner's), the edge classes left at the end: a table grows by a
/// corner with its own edges. For `f2l` that is three corner–edge pairs in one table and the
/// fourth pair with the cross in the other, each read in four views: nodes 0.44–0.53× the
/// default's on the first three positions of seed 1 (with [`LARGER`]'s limit the second also
/// takes the first pair's E-slice edge). Goals without that symmetry measured worse this way
/// (`f2l-1` 1.38× the nodes, `2x2x3` 1.20×), so they keep the default; so do goals that
/// start from another (`oll`: its inputs already hold the pairs, and its tables
/// grew 1.47× for a search 0.96× as long).
fn plan_order(goal: &Goal) -> Vec<(u8, u8)> {
    use crate::cube::{CORNER_NAMES, EDGE_NAMES};
    let distinct = |classes: &[u8]| {
        let mut out: Vec<u8> = Vec::new();
        for &c in classes {
            if c != 0 && !out.contains(&c) {
                out.push(c);
            }
        }
        out
    };
    let (cc, ec) = (goal.corner_classes(), goal.edge_classes());
    let corners = distinct(cc);
    let touches = |corner: u8, edge: u8| {
        (0..8).filter(|&p| cc[p] == corner).any(|p| {
            (0..12)
                .filter(|&q| ec[q] == edge)
                .any(|q| EDGE_NAMES[q].chars().all(|f| CORNER_NAMES[p].contains(f)))
        })
    };
    let mut edges = distinct(ec);
    let mut units: Vec<(u8, u8)> = Vec::new();
    if goal.requires().is_some() || 24 / crate::coord::goal::frame_groups(goal).len() < 4 {
        units.extend(corners.iter().map(|&c| (0, c)));
        units.extend(edges.iter().map(|&e| (1, e)));
        return units;
    }
    for &c in &corners {
        units.push((0, c));
        edges.retain(|&e| {
            let own = touches(c, e) && corners.iter().all(|&d| d == c || !touches(d, e));
            if own {
                units.push((1, e));
            }
            !own
        });
    }
    units.extend(edges.into_iter().map(|e| (1, e)));
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The distances of a goal's states, by a breadth-first search over whole cubes that
    /// records each state by its pieces' labels and orientations in a hash map: no index, no
    /// layout, none of the table's code.
    pub(crate) fn brute_counts(goal: &Goal, metric: Metric) -> Vec<u64> {
        let key = |c: &Cube| -> Vec<u8> {
            let mut k = Vec::with_capacity(20);
            for s in 0..8 {
                let p = c.corner_perm(s) as usize;
                let o = if goal.corners_oriented()[p] {
                    c.corner_ori(s)
                } else {
                    0
                };
                k.push(goal.corner_classes()[p] | o << 5);
            }
            for s in 0..12 {
                let p = c.edge_perm(s) as usize;
                let o = if goal.edges_oriented()[p] {
                    c.edge_ori(s)
                } else {
                    0
                };
                k.push(goal.edge_classes()[p] | o << 5);
            }
            k
        };
        let mut seen: HashMap<Vec<u8>, u8> = HashMap::new();
        seen.insert(key(&Cube::SOLVED), 0);
        let mut frontier = vec![Cube::SOLVED];
        let mut counts = vec![1u64];
        let moves = metric.unit_moves();
        while !frontier.is_empty() {
            let d = counts.len() as u8;
            let mut next = Vec::new();
            for c in &frontier {
                for &m in moves {
                    let n = c.apply(m);
                    let k = key(&n);
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(k) {
                        e.insert(d);
                        next.push(n);
                    }
                }
            }
            if !next.is_empty() {
                counts.push(next.len() as u64);
            }
            frontier = next;
        }
        counts
    }

    #[test]
    fn tables_agree_with_a_search_over_cubes() {
        for name in ["cross", "eo", "2x2x2"] {
            let goal = Goal::named(name).unwrap();
            for metric in [Metric::Htm, Metric::Qtm] {
                let t = GoalTable::build(&goal, metric, None);
                assert_eq!(
                    t.histogram(),
                    brute_counts(&goal, metric),
                    "{name} {metric}"
                );
            }
        }
    }

    /// Published: the cross (D edges) needs at most 8 face turns, with 190,080 states; every
    /// edge orientation at most 7, with 2,048.
    #[test]
    fn cross_and_eo_match_published_counts() {
        let cross = GoalTable::build(&Goal::named("cross").unwrap(), Metric::Htm, None);
        assert_eq!(
            cross.histogram(),
            [1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102]
        );
        let eo = GoalTable::build(&Goal::named("eo").unwrap(), Metric::Htm, None);
        assert_eq!(eo.histogram(), [1, 2, 25, 202, 620, 900, 285, 13]);
    }

    /// `f2l` (four rotations hold it alike) groups each corner with its own edge: three pairs,
    /// and the fourth with the cross (and, in its larger limit, one more E-slice edge); `f2l-1`
    /// (one rotation) and `oll` (a precondition) keep the corners-then-edges order.
    #[test]
    fn symmetric_goals_group_corners_with_their_own_edges() {
        let keys = |n: &str| -> Vec<String> {
            plan(&Goal::named(n).unwrap())
                .iter()
                .map(|g| g.key())
                .collect()
        };
        assert_eq!(
            keys("f2l"),
            ["cxxxxhhhxexxxxxxxxhhhx", "cxxxxxxxhexxxxhhhhhxxh"]
        );
        assert_eq!(
            plan_within(&Goal::named("f2l").unwrap(), LIMIT)[1].key(),
            "cxxxxxxxhexxxxhhhhxxxh"
        );
        assert_eq!(
            keys("f2l-1"),
            ["cxxxxxhhhexxxxhhhxxxxx", "cxxxxxhhxexxxxxxxhxhhh"]
        );
        assert_eq!(keys("oll")[0], "cAAAAhhhhexxxxxxxxxxxx");
    }

    #[test]
    fn every_cube_indexes_within_the_space() {
        let mut rng = crate::cube::Rng::new(5);
        for name in Goal::names() {
            let goal = Goal::named(name).unwrap();
            for g in plan(&goal) {
                let space = GoalSpace::new(&g);
                assert!(space.entries() <= table_limit(&goal), "{name}");
                for _ in 0..200 {
                    let c = crate::cube::Cube::random(&mut rng);
                    assert!(space.index(&c) < space.entries(), "{name}");
                }
            }
        }
        assert_eq!(plan(&Goal::named("cross").unwrap()).len(), 1);
        assert!(plan(&Goal::named("f2l").unwrap()).len() >= 2);
    }
}
