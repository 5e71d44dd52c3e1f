//! The one progress reporter for long work (table builds, batch solves, studies).
//!
//! On a terminal it draws an indicatif bar on stderr; when stderr is not a terminal it prints a
//! plain line at most every few seconds; [`ProgressMode::Hidden`] prints nothing (library use,
//! tests). Every reporter ends with one summary line (except when hidden).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// A progress reporter for one piece of work of `total` units.
pub struct Progress {
    mode: ProgressMode,
    label: String,
    total: u64,
    start: Instant,
    bar: Option<ProgressBar>,
    last_line: Mutex<Instant>,
    /// The units [`Progress::add`] has counted (work that finishes in pieces on many threads).
    done: AtomicU64,
}

const LINE_INTERVAL: Duration = Duration::from_secs(5);

impl Progress {
    /// Starts reporting `label`, with `total` units of work (`units` names them, e.g. "entries").
    pub fn new(mode: ProgressMode, label: &str, total: u64, units: &str) -> Progress {
        let bar = (mode == ProgressMode::Bar).then(|| {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(&format!(
                    "{{prefix:>9}} [{{elapsed_precise}}] {{bar:30}} {{human_pos}}/{{human_len}} {units} ({{per_sec}}, ETA {{eta}}) {{msg}}"
                ))
                .expect("valid template"),
            );
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
            done: AtomicU64::new(0),
        }
    }

    /// Reports that `done` units are finished, with a short status message.
    pub fn update(&self, done: u64, msg: &str) {
        match self.mode {
            ProgressMode::Bar => {
                if let Some(b) = &self.bar {
                    b.set_position(done);
                    b.set_message(msg.to_string());
                }
            }
            ProgressMode::Lines => {
                let mut last = self.last_line.lock().expect("progress lock");
                if last.elapsed() >= LINE_INTERVAL {
                    *last = Instant::now();
                    let secs = self.start.elapsed().as_secs_f64();
                    // The rate so far gives the time left (none before any progress).
                    let eta = if done > 0 && done < self.total {
                        let left = secs * (self.total - done) as f64 / done as f64;
                        format!(", ETA {left:.0} s")
                    } else {
                        String::new()
                    };
                    eprintln!(
                        "{}: {}/{} ({:.1}%) {} [{:.1} s{eta}]",
                        self.label,
                        done,
                        self.total,
                        100.0 * done as f64 / self.total.max(1) as f64,
                        msg,
                        secs
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

    /// Ends the reporter with one summary line.
    pub fn finish(self, summary: &str) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if self.mode != ProgressMode::Hidden {
            eprintln!("{}: {}", self.label, summary);
        }
    }
}
