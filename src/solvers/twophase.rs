//! Two-phase solver: in progress.
