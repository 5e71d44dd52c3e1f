//! Thistlethwaite solver: in progress.
