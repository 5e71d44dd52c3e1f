//! The one progress reporter for long work (table builds, batch solves, studies).
//!
//! On a terminal it draws an indicatif bar on stderr; when stderr is not a terminal it prints a
//! plain line at most every few seconds; [`ProgressMode::Hidden`] prints nothing (library use,
//! tests). Every reporter ends with one summary line (except when hidden).
//!
//! A reporter whose units cost very different amounts (the parts of a coset walk) can be
//! given each unit's expected cost ([`Progress::weighted`]): its percentage and ETA then
//! follow the cost done, not the units counted.
//!
//! A program may also watch every reporter ([`set_observer`]): `optcube serve` shows a first
//! use's table builds on its web page. The observer sees at most one [`Snapshot`] a second of
//! each reporter, in any mode, and one when it finishes.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A live bar (stderr is a terminal).
    Bar,
    /// Plain lines every few seconds (logs, CI).
    Lines,
    /// Nothing at all.
    Hidden,
}

impl ProgressMode {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn auto() -> ProgressMode {
        if std::io::stderr().is_terminal() {
            ProgressMode::Bar
        } else {
            ProgressMode::Lines
        }
    }
}

/// What an observer is told of a reporter.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub label: String,
    /// Units done, of `total`.
    pub done: u64,
    pub total: u64,
    /// The share of the work done (of its cost, when weighted), 0 to 1.
    pub share: f64,
    pub seconds: f64,
    /// Seconds left at the rate so far, once there is one.
    pub eta: Option<f64>,
}

type Observer = Arc<dyn Fn(&Snapshot) + Send + Sync>;

static OBSERVER: RwLock<Option<Observer>> = RwLock::new(None);

/// Hands every reporter's progress to `f` from now on (`None`: to no one).
pub fn set_observer(f: Option<Observer>) {
    *OBSERVER.write().unwrap_or_else(|e| e.into_inner()) = f;
}

const OBSERVE_INTERVAL: Duration = Duration::from_secs(1);

/// A progress reporter for one piece of work of `total` units.
pub struct Progress {
    mode: ProgressMode,
    label: String,
    total: u64,
    start: Instant,
    bar: Option<ProgressBar>,
    last_line: Mutex<Instant>,
    /// When the observer was last told.
    last_observed: Mutex<Option<Instant>>,
    /// The units [`Progress::add`] has counted (work that finishes in pieces on many threads).
    done: AtomicU64,
    /// For a weighted reporter: the expected cost of all units, and of those done.
    weight: Option<(u64, AtomicU64)>,
}

const LINE_INTERVAL: Duration = Duration::from_secs(5);

impl Progress {
    /// Starts reporting `label`, with `total` units of work (`units` names them, e.g. "entries").
    pub fn new(mode: ProgressMode, label: &str, total: u64, units: &str) -> Progress {
        let template = format!(
            "{{prefix:>9}} [{{elapsed_precise}}] {{bar:30}} {{human_pos}}/{{human_len}} {units} ({{per_sec}}, ETA {{eta}}) {{msg}}"
        );
        Self::with_bar(mode, label, total, total, &template, None)
    }

    /// A reporter of `total` units whose expected costs sum to `total_weight` (any unit of
    /// cost); [`Progress::add_weighted`] counts the units done with their costs. The bar and
    /// the lines show the units counted, and the share of the cost done with the ETA it gives.
    pub fn weighted(
        mode: ProgressMode,
        label: &str,
        total: u64,
        units: &str,
        total_weight: u64,
    ) -> Progress {
        let total_weight = total_weight.max(1);
        // The bar's position is the cost done, so that indicatif's ETA follows it; the units
        // counted go to the message.
        let template = format!(
            "{{prefix:>9}} [{{elapsed_precise}}] {{bar:30}} {{percent}}% of the expected work (ETA {{eta}}) {{msg}} {units}"
        );
        Self::with_bar(
            mode,
            label,
            total,
            total_weight,
            &template,
            Some((total_weight, AtomicU64::new(0))),
        )
    }

    fn with_bar(
        mode: ProgressMode,
        label: &str,
        total: u64,
        bar_len: u64,
        template: &str,
        weight: Option<(u64, AtomicU64)>,
    ) -> Progress {
        let bar = (mode == ProgressMode::Bar).then(|| {
            let b = ProgressBar::with_draw_target(Some(bar_len), ProgressDrawTarget::stderr());
            b.set_style(ProgressStyle::with_template(template).expect("valid template"));
            b.set_prefix(label.to_string());
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        Progress {
            mode,
            label: label.to_string(),
            total,
            start: Instant::now(),
            bar,
            last_line: Mutex::new(Instant::now()),
            last_observed: Mutex::new(None),
            done: AtomicU64::new(0),
            weight,
        }
    }

    /// Reports that `done` units are finished, with a short status message.
    pub fn update(&self, done: u64, msg: &str) {
        self.report(done, (done, self.total), msg);
    }

    /// Reports `done` units finished, `(cost done, total cost)` of the work (the units
    /// themselves when unweighted).
    fn report(&self, done: u64, (done_w, total_w): (u64, u64), msg: &str) {
        self.observe(done, (done_w, total_w), false);
        match self.mode {
            ProgressMode::Bar => {
                if let Some(b) = &self.bar {
                    b.set_position(done_w);
                    if self.weight.is_some() {
                        b.set_message(format!("{done}/{}", self.total));
                    } else {
                        b.set_message(msg.to_string());
                    }
                }
            }
            ProgressMode::Lines => {
                let mut last = self.last_line.lock().expect("progress lock");
                if last.elapsed() >= LINE_INTERVAL {
                    *last = Instant::now();
                    let secs = self.start.elapsed().as_secs_f64();
                    let eta = match time_left(secs, done_w, total_w) {
                        Some(left) => format!(", ETA {left:.0} s"),
                        None => String::new(),
                    };
                    let share = 100.0 * done_w as f64 / total_w.max(1) as f64;
                    let of = match self.weight {
                        Some(_) => " of the expected work",
                        None => "",
                    };
                    eprintln!(
                        "{}: {}/{} ({share:.1}%{of}) {} [{:.1} s{eta}]",
                        self.label, done, self.total, msg, secs
                    );
                }
            }
            ProgressMode::Hidden => {}
        }
    }

    /// Counts `n` more units as finished and reports the total: for work split over threads,
    /// where no one thread knows how much is done.
    pub fn add(&self, n: u64, msg: &str) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        self.update(done, msg);
    }

    /// [`Progress::add`] for a weighted reporter: `n` more units done, of expected cost
    /// `weight` in all. (On an unweighted one, the cost is ignored.)
    pub fn add_weighted(&self, n: u64, weight: u64, msg: &str) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        match &self.weight {
            Some((total_w, done_w)) => {
                let w = done_w.fetch_add(weight, Ordering::Relaxed) + weight;
                self.report(done, (w.min(*total_w), *total_w), msg);
            }
            None => self.update(done, msg),
        }
    }

    /// Prints a line that is not a progress update (keeps the bar intact).
    pub fn println(&self, line: &str) {
        match (&self.bar, self.mode) {
            (Some(b), _) => b.println(line),
            (None, ProgressMode::Lines) => eprintln!("{line}"),
            _ => {}
        }
    }

    /// Seconds since the reporter started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Tells the observer, if any: at most once a second, and always at the end (`last`).
    fn observe(&self, done: u64, (done_w, total_w): (u64, u64), last: bool) {
        let Some(f) = OBSERVER.read().ok().and_then(|o| o.clone()) else {
            return;
        };
        let mut when = self.last_observed.lock().expect("progress lock");
        if !last && when.is_some_and(|t| t.elapsed() < OBSERVE_INTERVAL) {
            return;
        }
        *when = Some(Instant::now());
        let seconds = self.start.elapsed().as_secs_f64();
        f(&Snapshot {
            label: self.label.clone(),
            done,
            total: self.total,
            share: done_w as f64 / total_w.max(1) as f64,
            seconds,
            eta: time_left(seconds, done_w, total_w),
        });
    }

    /// Ends the reporter with one summary line.
    pub fn finish(self, summary: &str) {
        self.observe(self.total, (1, 1), true);
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if self.mode != ProgressMode::Hidden {
            eprintln!("{}: {}", self.label, summary);
        }
    }
}

/// Seconds left when `done` of `total` (units or cost) took `secs`: the rate so far (none
/// before any progress, or once all is done).
fn time_left(secs: f64, done: u64, total: u64) -> Option<f64> {
    (done > 0 && done < total).then(|| secs * (total - done) as f64 / done as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_follows_the_share_done() {
        assert_eq!(time_left(10.0, 0, 100), None);
        assert_eq!(time_left(10.0, 100, 100), None);
        assert_eq!(time_left(10.0, 25, 100), Some(30.0));
        // A weighted reporter counts the cost done, not the units.
        let p = Progress::weighted(ProgressMode::Hidden, "t", 4, "parts", 100);
        p.add_weighted(3, 10, "");
        assert_eq!(p.done.load(Ordering::Relaxed), 3);
        let (total, done) = p.weight.as_ref().unwrap();
        assert_eq!((*total, done.load(Ordering::Relaxed)), (100, 10));
    }

    /// The observer sees a hidden reporter too, at most once a second, and its end. (The
    /// observer is process-wide: this test filters by its own label.)
    #[test]
    fn an_observer_sees_each_reporter_once_a_second_and_at_its_end() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s2 = seen.clone();
        set_observer(Some(Arc::new(move |s: &Snapshot| {
            if s.label == "observed" {
                s2.lock().unwrap().push(s.clone());
            }
        })));
        let p = Progress::new(ProgressMode::Hidden, "observed", 10, "units");
        for k in 1..=5 {
            p.update(k, "");
        }
        p.finish("done");
        set_observer(None);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!((seen[0].done, seen[0].total), (1, 10));
        assert!((seen[0].share - 0.1).abs() < 1e-9);
        assert_eq!((seen[1].done, seen[1].share), (10, 1.0));
    }
}
