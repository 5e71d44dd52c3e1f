//! Searches that stop early: on Ctrl-C (raised as `KeyboardInterrupt`), at a deadline (the
//! `timeout=` of `Solver`'s calls) or on `Solver.cancel()` (both return the search's result,
//! interrupted, with the bound it proved, as the CLI's Ctrl-C does).
//!
//! Invariants:
//! - The search runs on a helper thread with the GIL released; the calling thread waits for it
//!   and at least every 50 ms polls Python's signal handlers, the deadline and the cancel
//!   epoch, setting the search's stop flag when one of them fires. The call returns only once
//!   the search has: no search outlives the call that started it.
//! - [`Epoch::cancel`] stops exactly the searches begun before it: each notes the epoch when it
//!   begins and stops when the epoch has moved on, so a search begun after a cancel runs to its
//!   end (a cancel never poisons later calls).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often the waiting thread looks for Ctrl-C and a cancel.
const POLL: Duration = Duration::from_millis(50);

/// A counter that `Solver.cancel()` moves on: a search stops when it differs from the value
/// it had when the search began.
#[derive(Default)]
pub struct Epoch(AtomicU64);

impl Epoch {
    /// The current epoch, to note when a search (or a batch of them) begins.
    pub fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    /// Stops every search begun before now.
    pub fn cancel(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// What stops a search early besides Ctrl-C.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The search stops at this instant.
    pub deadline: Option<Instant>,
    /// The search stops once the epoch is no longer the one noted when it began.
    pub cancel: Option<(&'a Epoch, u64)>,
}

impl<'a> Limits<'a> {
    /// Stops at `timeout` from now (None: no deadline), or on a cancel of `epoch` after `begun`.
    pub fn new(timeout: Option<Duration>, epoch: &'a Epoch, begun: u64) -> Limits<'a> {
        Limits {
            deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
            cancel: Some((epoch, begun)),
        }
    }

    fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(|(e, begun)| e.now() != begun)
    }

    /// How long to wait before looking again: until the deadline if it comes first, but
    /// never 0 (a search stopped at its deadline takes a moment to return).
    fn wait(&self) -> Duration {
        let left = (self.deadline).map_or(POLL, |d| d.saturating_duration_since(Instant::now()));
        if left.is_zero() { POLL } else { left.min(POLL) }
    }
}

/// Runs `work(stop)` on a helper thread with the GIL released. A deadline or a cancel in
/// `limits` sets `stop` and `work`'s value is returned as usual (the search reports itself
/// interrupted); Ctrl-C (any pending Python signal) sets `stop`, waits for `work` to return,
/// and is raised after it.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    limits: Limits<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    // A search whose limit is already reached (a batch cancelled, a deadline passed) starts
    // stopped rather than running for one poll.
    let stop = AtomicBool::new(limits.reached());
    let mut signal: Option<PyErr> = None;
    let out = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let stop = &stop;
            let worker = s.spawn(move || {
                let _ = tx.send(work(stop));
            });
            loop {
                match rx.recv_timeout(limits.wait()) {
                    Ok(v) => return Some(v),
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // The worker panicked: its panic is reported below.
                        let _ = worker.join();
                        return None;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if signal.is_none()
                            && let Err(e) = Python::attach(|py| py.check_signals())
                        {
                            signal = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                        if limits.reached() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        })
    });
    match (signal, out) {
        (Some(e), _) => Err(e),
        (None, Some(v)) => Ok(v),
        (None, None) => Err(PyRuntimeError::new_err(
            "internal error: the search panicked",
        )),
    }
}
