//! The module's numeric arguments, read with the argument's name in the error.
//!
//! A Rust integer type would make PyO3 raise a bare `OverflowError` for a Python int outside
//! it (`max_depth=1000` for a `u8`, `threads=-1` for a `usize`); every integer argument is
//! read here instead (`#[pyo3(from_py_with = ...)]`), and a value out of range raises
//! `ValueError` naming the argument and its range: `max_depth must be between 0 and 255, not
//! 1000`. A value that is no integer still raises PyO3's `TypeError` naming the argument.

use super::value_error;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use std::time::Duration;

/// The Python int `obj` as a `T` in `lo..=hi`, else ValueError naming it `name`.
fn whole<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<T> {
    let v = match obj.extract::<i128>() {
        Ok(v) => Some(v),
        // Past i128 (an int of 40 digits and more): out of every range below.
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => None,
        Err(e) => return Err(e),
    };
    if let Some(t) = v
        .filter(|v| (lo..=hi).contains(v))
        .and_then(|v| T::try_from(v).ok())
    {
        return Ok(t);
    }
    let shown = obj.str()?;
    // A type's own maximum (2^64 - 1) is no range anyone asks about: say only the minimum.
    Err(value_error(match v {
        Some(v) if v < lo && hi >= i128::from(u64::MAX) => {
            format!("{name} must be at least {lo}, not {shown}")
        }
        _ => format!("{name} must be between {lo} and {hi}, not {shown}"),
    }))
}

/// [`whole`] of an optional argument (None stays None).
fn maybe<T: TryFrom<i128>>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i128,
    hi: i128,
) -> PyResult<Option<T>> {
    if obj.is_none() {
        return Ok(None);
    }
    whole(obj, name, lo, hi).map(Some)
}

const USIZE_MAX: i128 = usize::MAX as i128;

/// `max_depth` of `Solver` and `distances` (a `u8`; `distances` refuses past 20 itself).
pub fn max_depth(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    whole(obj, "max_depth", 0, u8::MAX.into())
}

/// `Solver.solve`'s `known_lower_bound` (a `u8`, as the CLI's `--known-lower-bound`).
pub fn known_lower_bound(obj: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    maybe(obj, "known_lower_bound", 0, u8::MAX.into())
}

/// `threads`: what no count can be (a negative) is refused here, naming the range; 0 and more
/// than the machine can use are refused by `thread_count` with the CLI's words.
pub fn threads(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    match maybe(obj, "threads", 0, USIZE_MAX) {
        Err(e) if e.is_instance_of::<PyValueError>(obj.py()) => Err(value_error(format!(
            "threads must be between 1 and {}, not {}",
            optcube::sys::max_threads(),
            obj.str()?
        ))),
        r => r,
    }
}

/// `Solver`'s `max_depth`: None for the metric's diameter ([`max_depth`] otherwise).
pub fn max_depth_or_none(obj: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if obj.is_none() {
        return Ok(None);
    }
    max_depth(obj).map(Some)
}

/// A `metric=`: `"htm"`, `"qtm"`, `"stm"` or `"atm"` (ValueError with the command line's
/// message otherwise, [`optcube::cube::Metric::parse`]).
pub fn metric(obj: &Bound<'_, PyAny>) -> PyResult<optcube::cube::Metric> {
    let name: String = obj.extract()?;
    optcube::cube::Metric::parse(&name).map_err(value_error)
}

/// `Solver.solve_all`'s `limit`: at least 1.
pub fn limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    maybe(obj, "limit", 1, USIZE_MAX)
}

/// `Solver.run_study`'s `count`: at least 1 position.
pub fn count(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(obj, "count", 1, u64::MAX.into())
}

/// A seed: any `u64`.
pub fn seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(obj, "seed", 0, u64::MAX.into())
}

/// `Solver.run_study`'s `moves` (scramble length, a `u32` as the CLI's `--moves`).
pub fn moves(obj: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    maybe(obj, "moves", 0, u32::MAX.into())
}

/// `twophase`'s `max_length`.
pub fn max_length(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    maybe(obj, "max_length", 0, USIZE_MAX)
}

/// `random_positions`' `n`.
pub fn n(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    whole(obj, "n", 0, USIZE_MAX)
}

/// A `timeout=` in seconds, checked by the request layer (positive: `Refusal::Timeout`), as a
/// duration. None, or one too long for a deadline (infinity), is no deadline.
pub fn deadline(seconds: Option<f64>) -> Option<Duration> {
    seconds.and_then(|t| Duration::try_from_secs_f64(t).ok())
}
