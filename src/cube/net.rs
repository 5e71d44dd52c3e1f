//! A position drawn as the unfolded cube (`optcube show`): the U face above, L F R B in a row,
//! D below, each face as Kociemba's facelet order reads it. Stickers a mask leaves free are
//! drawn gray, so that a person can check a position or a goal by eye before a long search.
//! Three renderings of one layout: ANSI colours, plain letters (`.` free), SVG.

/// Colours of the faces U R F D L B (the usual scheme: white, red, green, yellow, orange,
/// blue) as RGB, and gray for a free sticker.
const RGB: [(u8, u8, u8); 6] = [
    (245, 245, 245),
    (200, 30, 30),
    (20, 150, 60),
    (250, 210, 30),
    (250, 130, 20),
    (30, 80, 200),
];
const GRAY: (u8, u8, u8) = (110, 110, 110);

/// Where each face's 3×3 block sits in the net, in sticker units (column, row).
const ORIGIN: [(usize, usize); 6] = [(3, 0), (6, 3), (3, 3), (3, 6), (0, 3), (9, 3)];

/// The net's cells: for each (row, column) of the 12×9 grid, the facelet there if any.
fn grid() -> [[Option<usize>; 12]; 9] {
    let mut g = [[None; 12]; 9];
    for (f, &(x, y)) in ORIGIN.iter().enumerate() {
        for i in 0..9 {
            g[y + i / 3][x + i % 3] = Some(9 * f + i);
        }
    }
    g
}

/// The colour index (0..6 for U R F D L B) of each sticker of `facelets`, `None` where `free`.
fn colours(facelets: &str, free: &[bool; 54]) -> Vec<Option<usize>> {
    (facelets.bytes().enumerate())
        .map(|(i, b)| (!free[i]).then(|| "URFDLB".find(b as char).unwrap_or(0)))
        .collect()
}

/// The net with ANSI background colours (two spaces a sticker), or with the face letters and
/// `.` for free stickers when `ansi` is false.
pub fn text(facelets: &str, free: &[bool; 54], ansi: bool) -> String {
    let c = colours(facelets, free);
    let mut out = String::new();
    for row in grid() {
        let mut line = String::new();
        for cell in row {
            match (cell, ansi) {
                (None, _) => line.push_str(if ansi { "  " } else { " " }),
                (Some(i), true) => {
                    let (r, g, b) = c[i].map_or(GRAY, |k| RGB[k]);
                    line.push_str(&format!("\x1b[48;2;{r};{g};{b}m  \x1b[0m"));
                }
                (Some(i), false) => line.push(c[i].map_or('.', |k| "URFDLB".as_bytes()[k] as char)),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The net as an SVG picture (30 px a sticker).
pub fn svg(facelets: &str, free: &[bool; 54]) -> String {
    let c = colours(facelets, free);
    let s = 30;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n",
        12 * s + 2,
        9 * s + 2
    );
    for (y, row) in grid().iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if let Some(i) = cell {
                let (r, g, b) = c[*i].map_or(GRAY, |k| RGB[k]);
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"rgb({r},{g},{b})\" \
                     stroke=\"black\"><title>{}</title></rect>\n",
                    1 + x * s,
                    1 + y * s,
                    super::facelet_name(*i)
                ));
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_net_holds_every_sticker_once() {
        let solved = crate::cube::SOLVED_FACELETS;
        let t = text(solved, &[false; 54], false);
        assert_eq!(t.chars().filter(|c| c.is_ascii_uppercase()).count(), 54);
        assert_eq!(t.lines().next(), Some("   UUU"));
        assert_eq!(t.lines().nth(4), Some("LLLFFFRRRBBB"));
        let mut free = [true; 54];
        free[4] = false;
        assert_eq!(text(solved, &free, false).matches('.').count(), 53);
        assert_eq!(svg(solved, &free).matches("<rect").count(), 54);
    }
}
