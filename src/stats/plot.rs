//! Bar charts of CSV distributions as plain SVG text (no plotting crate).
//!
//! Input: a CSV file with a header row; the first column holds the x labels, every further
//! column is a numeric series (an empty cell is a missing value: no bar). One group of bars per
//! row, one bar per series, a legend naming the series, y axis linear from 0 or logarithmic
//! (powers of ten; values ≤ 0 draw no bar).
//!
//! Invariants: every number in the file parses or the file is refused with an error naming the
//! file, line and column; the SVG has exactly one `<rect class="bar">` per drawn value, and all
//! text is XML-escaped.

use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A table read from a CSV file.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// The first header cell (the x axis title).
    pub x_title: String,
    pub labels: Vec<String>,
    /// (series name, one value per label; `None` = empty cell).
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

/// Why a CSV file cannot be plotted.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {what}")]
    Shape { path: PathBuf, what: String },
    #[error("{path}:{line}: column {column} ({name}): {text:?} is not a number")]
    NotANumber {
        path: PathBuf,
        line: usize,
        column: usize,
        name: String,
        text: String,
    },
}

/// Reads a CSV file (header row, x labels, numeric series).
pub fn read_csv(path: &Path) -> Result<Data, PlotError> {
    let text = std::fs::read_to_string(path).map_err(|source| PlotError::Io {
        path: path.into(),
        source,
    })?;
    parse_csv(path, &text)
}

/// Parses CSV text; `path` only names the source in errors.
pub fn parse_csv(path: &Path, text: &str) -> Result<Data, PlotError> {
    let shape = |what: String| PlotError::Shape {
        path: path.into(),
        what,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or_else(|| shape("empty file".into()))?;
    let names: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
    if names.len() < 2 {
        return Err(shape(
            "the header needs a label column and at least one series column".into(),
        ));
    }
    let mut data = Data {
        x_title: names[0].clone(),
        labels: Vec::new(),
        series: names[1..].iter().map(|n| (n.clone(), Vec::new())).collect(),
    };
    for (i, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.len() != names.len() {
            return Err(shape(format!(
                "line {}: {} cells, the header has {}",
                i + 1,
                cells.len(),
                names.len()
            )));
        }
        data.labels.push(cells[0].to_string());
        for (k, cell) in cells[1..].iter().enumerate() {
            let v = if cell.is_empty() {
                None
            } else {
                match cell.parse::<f64>() {
                    Ok(v) if v.is_finite() => Some(v),
                    _ => {
                        return Err(PlotError::NotANumber {
                            path: path.into(),
                            line: i + 1,
                            column: k + 2,
                            name: names[k + 1].clone(),
                            text: cell.to_string(),
                        });
                    }
                }
            };
            data.series[k].1.push(v);
        }
    }
    if data.labels.is_empty() {
        return Err(shape("no data rows".into()));
    }
    Ok(data)
}

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
];
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 20.0;
/// Room right of the plot for the legend: swatch, gap, then the name.
const LEGEND_PAD: f64 = 34.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A tick value in few characters: 250, 1.5k, 20M, 3G, …
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(f, _)| a >= f)
        .map_or((v, ""), |(f, s)| (v / f, s));
    let mut t = format!("{scaled:.2}");
    while t.contains('.') && (t.ends_with('0') || t.ends_with('.')) {
        t.pop();
    }
    t + suffix
}

/// Linear axis: a top value and tick step from 1, 2, 5 × 10^k.
fn linear_ticks(max: f64) -> (f64, f64) {
    if max <= 0.0 {
        return (1.0, 0.2);
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag);
    ((max / step).ceil() * step, step)
}

/// The y axis: where a value sits, as a fraction of the plot height.
enum Scale {
    Linear {
        top: f64,
    },
    /// Decades `10^lo ..= 10^hi`.
    Log {
        lo: f64,
        hi: f64,
    },
}

impl Scale {
    /// 0 at the bottom, 1 at the top; `None` for a value the axis cannot show.
    fn fraction(&self, v: f64) -> Option<f64> {
        match *self {
            Scale::Linear { top } => (v >= 0.0).then(|| v / top),
            Scale::Log { lo, hi } => (v > 0.0).then(|| (v.log10() - lo) / (hi - lo)),
        }
    }
}

/// The chart of `data` as an SVG document.
pub fn svg(data: &Data, title: &str, log: bool) -> String {
    let groups = data.labels.len();
    let series = data.series.len();
    let bar_w = (48.0 / series as f64).clamp(4.0, 24.0);
    let group_w = bar_w * series as f64 + 10.0;
    let legend_w = LEGEND_PAD
        + 7.0
            * data
                .series
                .iter()
                .map(|(n, _)| n.chars().count())
                .max()
                .unwrap_or(0) as f64;
    let width = (LEFT + RIGHT + legend_w + group_w * groups as f64).max(480.0);
    let right = width - RIGHT - legend_w; // right end of the plot area
    let plot_w = right - LEFT;
    let group_w = plot_w / groups as f64;
    let bar_w = (group_w - 6.0).min(bar_w * series as f64) / series as f64;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let values = || data.series.iter().flat_map(|(_, v)| v.iter().flatten());
    let max = values().fold(0f64, |a, &b| a.max(b));

    let (scale, ticks) = if log {
        let min_pos = values()
            .filter(|&&v| v > 0.0)
            .fold(f64::INFINITY, |a, &b| a.min(b));
        let (lo, hi) = if min_pos.is_finite() {
            // One decade below the smallest value, so that it still shows as a bar.
            let lo = min_pos.log10().ceil() - 1.0;
            (lo, max.log10().ceil().max(lo + 1.0))
        } else {
            (0.0, 1.0)
        };
        let ticks = (lo as i32..=hi as i32).map(|e| 10f64.powi(e)).collect();
        (Scale::Log { lo, hi }, ticks)
    } else {
        let (top, step) = linear_ticks(max);
        let n = (top / step).round() as usize;
        (
            Scale::Linear { top },
            (0..=n).map(|k| k as f64 * step).collect::<Vec<_>>(),
        )
    };
    let y_of = |v: f64| scale.fraction(v).map(|f| TOP + plot_h * (1.0 - f));
    let baseline = TOP + plot_h;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{HEIGHT:.0}" viewBox="0 0 {width:.0} {HEIGHT:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text class="title" x="{:.1}" y="24" text-anchor="middle" font-size="16">{}</text>"#,
        width / 2.0,
        escape(title)
    );
    // Y grid, ticks and labels.
    for t in &ticks {
        if let Some(y) = y_of(*t) {
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text class="ytick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                right,
                LEFT - 6.0,
                y + 4.0,
                short_number(*t)
            );
        }
    }
    // Bars, then x labels.
    let rotate = data.labels.iter().map(|l| l.len()).max().unwrap_or(0) as f64 * 7.0 > group_w;
    for (g, label) in data.labels.iter().enumerate() {
        let x0 = LEFT + g as f64 * group_w + (group_w - bar_w * series as f64) / 2.0;
        for (k, (name, vals)) in data.series.iter().enumerate() {
            let Some(v) = vals[g] else { continue };
            let Some(y) = y_of(v) else { continue };
            let (y, h) = if y <= baseline {
                (y, baseline - y)
            } else {
                (baseline, 0.0)
            };
            let _ = writeln!(
                s,
                r#"<rect class="bar" x="{:.1}" y="{y:.1}" width="{:.1}" height="{h:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                x0 + k as f64 * bar_w,
                bar_w.max(1.0),
                PALETTE[k % PALETTE.len()],
                escape(&format!("{name} at {label}")),
                v
            );
        }
        let cx = LEFT + (g as f64 + 0.5) * group_w;
        let ly = baseline + 16.0;
        if rotate {
            let _ = writeln!(
                s,
                r#"<text class="xtick" x="{cx:.1}" y="{ly:.1}" text-anchor="end" transform="rotate(-45 {cx:.1} {ly:.1})">{}</text>"#,
                escape(label)
            );
        } else {
            let _ = writeln!(
                s,
                r#"<text class="xtick" x="{cx:.1}" y="{ly:.1}" text-anchor="middle">{}</text>"#,
                escape(label)
            );
        }
    }
    // Axes and the x axis title.
    let _ = writeln!(
        s,
        r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{baseline:.1}" stroke="black"/><line x1="{LEFT}" y1="{baseline:.1}" x2="{:.1}" y2="{baseline:.1}" stroke="black"/>"#,
        right
    );
    let _ = writeln!(
        s,
        r#"<text class="xtitle" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 8.0,
        escape(&data.x_title)
    );
    if log {
        let _ = writeln!(
            s,
            r#"<text x="14" y="{:.1}" transform="rotate(-90 14 {:.1})" text-anchor="middle">log scale</text>"#,
            TOP + plot_h / 2.0,
            TOP + plot_h / 2.0
        );
    }
    // Legend, right of the plot.
    for (k, (name, _)) in data.series.iter().enumerate() {
        let y = TOP + 4.0 + 16.0 * k as f64;
        let x = right + 14.0;
        let _ = writeln!(
            s,
            r#"<rect class="legend" x="{x:.1}" y="{y:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            PALETTE[k % PALETTE.len()],
            x + 14.0,
            y + 9.0,
            escape(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str) -> Data {
        parse_csv(Path::new("t.csv"), text).unwrap()
    }

    #[test]
    fn one_bar_per_value_and_labels() {
        let d = data("depth,a,b\n0,1,2\n1,18,\n2,243,5\n");
        assert_eq!(d.labels, vec!["0", "1", "2"]);
        assert_eq!(d.series[1].1, vec![Some(2.0), None, Some(5.0)]);
        let s = svg(&d, "T & <x>", false);
        assert_eq!(s.matches(r#"class="bar""#).count(), 5);
        assert_eq!(s.matches(r#"class="legend""#).count(), 2);
        assert!(s.contains("T &amp; &lt;x&gt;"));
        for l in ["depth", ">0<", ">1<", ">2<", ">a<", ">b<"] {
            assert!(s.contains(l), "{l}");
        }
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn bars_scale_with_values() {
        let s = svg(&data("x,n\na,100\nb,50\n"), "t", false);
        let heights: Vec<f64> = s
            .split(r#"class="bar""#)
            .skip(1)
            .map(|r| {
                let h = r.split("height=\"").nth(1).unwrap();
                h[..h.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(heights.len(), 2);
        assert!((heights[0] / heights[1] - 2.0).abs() < 0.01, "{heights:?}");
    }

    #[test]
    fn log_scale_ticks_are_powers_of_ten() {
        let s = svg(&data("d,n\n0,1\n1,18\n7,100803036\n8,0\n"), "t", true);
        // 0 cannot be drawn on a log axis: three bars.
        assert_eq!(s.matches(r#"class="bar""#).count(), 3);
        for t in [">1<", ">10<", ">1k<", ">1G<"] {
            assert!(s.contains(t), "{t}");
        }
    }

    #[test]
    fn rejects_bad_values_naming_file_line_column() {
        let e = parse_csv(Path::new("x/f.csv"), "v,a,b\n0,1,2\n1,3,zz\n").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("x/f.csv:3") && m.contains("column 3") && m.contains("zz"),
            "{m}"
        );
        assert!(
            parse_csv(Path::new("f.csv"), "v,a\n1,2,3\n")
                .unwrap_err()
                .to_string()
                .contains("line 2")
        );
        assert!(parse_csv(Path::new("f.csv"), "").is_err());
        assert!(parse_csv(Path::new("f.csv"), "v,a\n").is_err());
        assert!(parse_csv(Path::new("f.csv"), "v\n1\n").is_err());
        assert!(parse_csv(Path::new("f.csv"), "v,a\n1,inf\n").is_err());
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(250.0), "250");
        assert_eq!(short_number(1500.0), "1.5k");
        assert_eq!(short_number(2e7), "20M");
        assert_eq!(short_number(0.25), "0.25");
        assert_eq!(linear_ticks(243.0), (250.0, 50.0));
    }
}
