//! What tables there are: the registry of families ([`family`], [`pattern`]) with the
//! coordinates that declare them beside their own (phase 1, the 48-symmetry coset tables and
//! their `sym48eK` builder), the exact `<R,U>` table, and the named sets ([`set`]) that
//! `solve`, `pdb build` and the chooser read.

pub mod corners48;
pub mod family;
pub mod goal;
pub mod pattern;
pub mod phase1;
pub mod ru;
pub mod set;
pub mod sym48;
pub mod sym48ek;
