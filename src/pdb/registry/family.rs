//! Table families as data: a [`Family`] declares one table once (its name, size, index,
//! file storage and builder), and a [`Pattern`] is a handle on one. The registry of the
//! program's families is [`Pattern::ALL`] ([`crate::pdb::pattern`], which holds `Pattern`'s
//! methods); the families themselves are declared beside their coordinates (`pattern` for the
//! piece patterns, `phase1`, `sym48`, `sym48e4`, `sym48ek`).
//!
//! This module depends on no other family's module, so that they all can use it without a
//! circle.

use crate::cube::{Cube, Metric};
use crate::pdb::batch::{BATCH, Batch};
use crate::pdb::checkpoint::Checkpoint;
use crate::pdb::table::NibbleTable;
use crate::progress::Progress;

/// Everything the program knows of one table, declared once: its name and size, how a
/// position maps to an entry, how the file stores it, how it is built and how the search reads
/// it. Every other part (the help, `pdb info`, the file header, the chooser, the search) reads
/// these fields; a family outside [`Pattern::ALL`] works the same (`tests/toy_family.rs`
/// declares one, and builds, saves, loads and searches with it).
pub struct Family {
    /// Short name: the table file's stem, and the `--set` name of the table alone.
    pub name: &'static str,
    /// The tracked pieces, for the file header and `pdb info`.
    pub pieces: &'static str,
    /// Number of table entries.
    pub entries: u64,
    /// Version of the index formula, part of the file header: changing the index must bump
    /// it, so that old files are refused as stale.
    pub version: u32,
    /// How a cube maps to an entry, and an entry back to a cube.
    pub index: Index,
    /// Does the table give a position and its inverse the same value? True for the patterns
    /// that track every piece of a kind (all corners; all edge positions): there the abstract
    /// state is a group element, the inverse position's state is its inverse, and a group
    /// element and its inverse are equally far from the identity. A dual lookup of such a
    /// table adds nothing, and the search skips it.
    pub self_dual: bool,
    /// Whether the search also looks the table up on the position turned by 120° and 240°
    /// about the URF–DBL diagonal ([`crate::search::Heuristic::set_symmetric`]).
    pub turned: Turned,
    /// How the table file stores the values.
    pub store: Store,
    /// How the table is built.
    pub builder: Builder,
    /// The metric of its distances: a breadth-first search over that metric's moves
    /// ([`Metric::moves`]). A table of another metric than HTM is the [`Family::twin`] of a
    /// half-turn family, named `NAME-qtm`, `NAME-stm`, `NAME-atm`.
    pub metric: Metric,
}

impl Family {
    /// This family's twin of distances in `metric`: the same index, store and builder, its
    /// breadth-first search over that metric's moves, its name `name` (the metric's
    /// [`Metric::table_name`] by convention, [`Pattern::in_metric`](crate::pdb::Pattern::in_metric)).
    pub const fn twin(self, metric: Metric, name: &'static str) -> Family {
        Family {
            name,
            metric,
            ..self
        }
    }
}

/// How a [`Family`] maps a cube to its entry.
#[derive(Clone, Copy)]
pub enum Index {
    /// A function of the inverse cube `Q = P⁻¹` (the piece patterns; see [`crate::pdb::pattern`]), and
    /// a partial inverse cube with a given index (untracked slots arbitrary).
    ///
    /// `batch`, when given, computes the indices of a batch's members at once (`out[k]` for
    /// each member `k`): one call a search node instead of one a child, with the index inlined
    /// in its loop. The registry's piece patterns give one; without it the search calls
    /// `index` for each child.
    OfInverse {
        index: fn(&Cube) -> u64,
        unrank: fn(u64) -> Cube,
        batch: Option<fn(&Batch, u32, &mut [u64; BATCH])>,
    },
    /// Kociemba's phase-1 coordinates of the position, reduced by the 16 UD symmetries
    /// ([`crate::pdb::phase1`]); `sorted`: with the order of the slice edges.
    Phase1 { sorted: bool },
    /// The 48-symmetry coset coordinate of the position with `k` edge flips
    /// ([`crate::pdb::sym48`]): `sym48eK`. Its subgroup holds every half turn.
    Coset { k: u8 },
}

/// Diagonal-turn lookups of a [`Family`] (see [`Family::turned`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turned {
    /// Never: the table reads every turn alike (all corners, all edge positions), or its
    /// index conjugates the position onto a class representative anyway (the coset tables).
    Never,
    /// On request (`solve --sym`; the partial edge tables).
    OnRequest,
    /// Always (the phase-1 tables: that covers their three slice axes).
    Always,
}

/// How a table file stores a [`Family`]'s values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Store {
    /// A nibble an entry, the exact values.
    Nibbles,
    /// 2-bit lines ([`crate::pdb::Format::Lines`]) from `base` on, or from the base the exact
    /// histogram gives ([`crate::pdb::Format::line_base`]) when `None`. The coset tables: the search
    /// reads them for every child and its inverse, and half the memory is worth the few entries
    /// read below their value.
    Lines { base: Option<u8> },
}

/// How a [`Family`]'s table is built: breadth-first, and by IDDFS too over a layout.
#[derive(Clone, Copy)]
pub enum Builder {
    /// Over the blocks of the family's own index ([`crate::pdb::layout::Layout`]): the function
    /// runs the task with the layout (`|t| t.run(&layout)`).
    Layout(fn(LayoutTask<'_>) -> Option<NibbleTable>),
    /// By the family's own builder, whose progress counts `entries` and which holds `bytes`
    /// at its peak (checked against the free memory first).
    Own {
        /// Builds the table, resuming from the checkpoint's table when it holds one and
        /// writing checkpoints as it goes ([`crate::pdb::checkpoint`]).
        build: fn(&Progress, &mut Checkpoint) -> NibbleTable,
        entries: u64,
        bytes: u64,
    },
}

/// One of the pattern databases optcube can build: a handle on its [`Family`].
#[derive(Clone, Copy)]
pub struct Pattern(pub &'static Family);

/// What a family built over its own index ([`Builder::Layout`]) does with its layout: the
/// family's function hands the layout to `LayoutTask::run` (in `pdb::generate`), which is
/// generic over it.
pub enum LayoutTask<'a> {
    /// Build the table breadth-first.
    Bfs {
        pattern: Pattern,
        progress: &'a Progress,
    },
    /// Check the layout's block images against [`Pattern::neighbours`] on `samples` random
    /// entries.
    #[cfg(test)]
    Check { pattern: Pattern, samples: usize },
}

/// Patterns are equal when their families are: the same name (the registry test keeps names
/// unique).
impl PartialEq for Pattern {
    #[inline(always)]
    fn eq(&self, other: &Pattern) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.name == other.0.name
    }
}

impl Eq for Pattern {}

impl std::hash::Hash for Pattern {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
