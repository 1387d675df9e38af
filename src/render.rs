//! Pictures: an army on its own lattice, and a play as a strip of frames, one per move.
//!
//! In the spirit of the paper's Figures 9–12: cells shaded by pagoda exponent (darker is
//! heavier), men as dark discs, the target ringed in red, the desert edge (between rows
//! level − 1 and level) dashed. Square cells for Conway's, the skew and the diagonal army,
//! hexagons for the hexagonal army, a triangle of circles for Pablito's. Coordinates are the
//! CSV's. XML is written by the svg crate.

use crate::geometry::{Cell, Embedding, Lattice};
use crate::pagoda::Pagoda;
use crate::verify::Step;
use std::collections::HashSet;
use svg::Document;
use svg::node::element::{
    Circle, Definitions, Group, Line, Polygon, Polyline, Rectangle, Text, Title, Use,
};

const UNIT: f64 = 16.0;

/// The window of cells a picture shows: every lattice cell whose centre lies in the
/// bounding box (in the plane) of the army, the play and the target, plus a one-cell rim.
fn window(lattice: &Lattice, army: &[Cell], play: &[Step]) -> Vec<Cell> {
    let e = lattice.embedding;
    let touched: Vec<Cell> = std::iter::once((0, 0))
        .chain(army.iter().copied())
        .chain(play.iter().flat_map(|s| [s.from, s.over, s.to]))
        .collect();
    let pts: Vec<(f64, f64)> = touched.iter().map(|&c| e.point(c)).collect();
    let fold = |f: fn(&(f64, f64)) -> f64, init: f64, pick: fn(f64, f64) -> f64| {
        pts.iter().map(f).fold(init, pick)
    };
    let (x0, x1) = (
        fold(|p| p.0, f64::MAX, f64::min) - 1.01,
        fold(|p| p.0, f64::MIN, f64::max) + 1.01,
    );
    let (y0, y1) = (
        fold(|p| p.1, f64::MAX, f64::min),
        fold(|p| p.1, f64::MIN, f64::max) + 1.01,
    );
    let ys = touched.iter().map(|c| c.1);
    let (r0, r1) = (ys.clone().min().unwrap() - 1, ys.max().unwrap() + 1);
    let span = (x1 - x0) as i32 + (r1 - r0) + 4;
    let mut cells = Vec::new();
    for y in r0..=r1 {
        for x in -span..=span {
            let (px, py) = e.point((x, y));
            if lattice.contains((x, y)) && (x0..=x1).contains(&px) && (y0..=y1).contains(&py) {
                cells.push((x, y));
            }
        }
    }
    cells
}

fn cell_shape(e: Embedding, (cx, cy): (f64, f64), fill: &str) -> Box<dyn svg::Node> {
    let r = UNIT / 2.0;
    match e {
        Embedding::Square => Box::new(
            Rectangle::new()
                .set("x", cx - r)
                .set("y", cy - r)
                .set("width", UNIT)
                .set("height", UNIT)
                .set("fill", fill)
                .set("stroke", "#bbb")
                .set("stroke-width", 0.5),
        ),
        Embedding::Hexagonal => {
            let rr = r / (3f64.sqrt() / 2.0);
            let pts: Vec<String> = (0..6)
                .map(|k| {
                    let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
                    format!("{:.2},{:.2}", cx + rr * a.cos(), cy + rr * a.sin())
                })
                .collect();
            Box::new(
                Polygon::new()
                    .set("points", pts.join(" "))
                    .set("fill", fill)
                    .set("stroke", "#bbb")
                    .set("stroke-width", 0.5),
            )
        }
        Embedding::Triangle => Box::new(
            Circle::new()
                .set("cx", cx)
                .set("cy", cy)
                .set("r", r * 0.95)
                .set("fill", fill)
                .set("stroke", "#bbb")
                .set("stroke-width", 0.5),
        ),
    }
}

/// One position drawn at an offset: shaded cells, men, target, desert edge.
/// Where cells go on the page: the window's top-left cell centre sits one unit in from the
/// frame's origin.
struct Layout {
    embedding: Embedding,
    min: (f64, f64),
}

impl Layout {
    fn new(embedding: Embedding, cells: &[Cell]) -> Layout {
        let min = cells.iter().fold((f64::MAX, f64::MAX), |(a, b), &c| {
            let (x, y) = embedding.point(c);
            (a.min(x), b.min(y))
        });
        Layout { embedding, min }
    }

    fn place(&self, c: Cell, origin: (f64, f64)) -> (f64, f64) {
        let (x, y) = self.embedding.point(c);
        (
            origin.0 + (x - self.min.0) * UNIT + UNIT,
            origin.1 + (y - self.min.1) * UNIT + UNIT,
        )
    }
}

/// An SVG document of the given size with a title and a white background.
fn document(w: f64, h: f64, caption: &str) -> Document {
    Document::new()
        .set("viewBox", (0.0, 0.0, w, h))
        .set("width", w)
        .set("height", h)
        .add(Title::new(caption.to_string()))
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
}

/// The board drawn once, at the origin: shaded cells and the desert edge. Frames refer to it
/// with `<use>`, so a play of a hundred moves does not repeat a thousand cells a hundred times.
fn background(lattice: &Lattice, pagoda: &Pagoda, level: i32, cells: &[Cell]) -> Group {
    let e = lattice.embedding;
    let layout = Layout::new(e, cells);
    let place = |c: Cell| layout.place(c, (0.0, 0.0));
    let top = cells
        .iter()
        .filter_map(|&c| pagoda.exponent(c))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut g = Group::new().set("id", "board");
    for &c in cells {
        let fill = match pagoda.exponent(c) {
            // Heavier (smaller exponent) is darker, as in the paper's shaded figures.
            Some(x) => {
                let l = 60 + (35 * x / top).min(35);
                format!("hsl(210,35%,{l}%)")
            }
            None => "white".to_string(),
        };
        g = g.add(cell_shape(e, place(c), &fill));
    }
    // Desert edge: between rows level − 1 and level.
    let edge_y = (((level as f64 - 0.5) * e.point((0, 1)).1) - layout.min.1) * UNIT + UNIT;
    let (x_lo, x_hi) = cells.iter().fold((f64::MAX, f64::MIN), |(a, b), &c| {
        let (x, _) = place(c);
        (a.min(x), b.max(x))
    });
    g.add(
        Line::new()
            .set("x1", x_lo - UNIT / 2.0)
            .set("x2", x_hi + UNIT / 2.0)
            .set("y1", edge_y)
            .set("y2", edge_y)
            .set("stroke", "#a33")
            .set("stroke-dasharray", "4 3")
            .set("stroke-width", 1.2),
    )
}

/// One position at an offset: the shared board, the men, the target ringed.
fn frame(layout: &Layout, men: &HashSet<Cell>, origin: (f64, f64)) -> Group {
    let place = |c: Cell| layout.place(c, origin);
    let mut g = Group::new().add(
        Use::new()
            .set("href", "#board")
            .set("x", origin.0)
            .set("y", origin.1),
    );
    let mut sorted: Vec<&Cell> = men.iter().collect();
    sorted.sort();
    for &c in sorted {
        let (x, y) = place(c);
        g = g.add(
            Circle::new()
                .set("cx", x)
                .set("cy", y)
                .set("r", UNIT * 0.32)
                .set("fill", "#111")
                .add(Title::new(format!("({}, {})", c.0, c.1))),
        );
    }
    let (tx, ty) = place((0, 0));
    g.add(
        Circle::new()
            .set("cx", tx)
            .set("cy", ty)
            .set("r", UNIT * 0.45)
            .set("fill", "none")
            .set("stroke", "#d00")
            .set("stroke-width", 2),
    )
}

fn extent(lattice: &Lattice, cells: &[Cell]) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = cells.iter().map(|&c| lattice.embedding.point(c)).collect();
    let w = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let h = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    ((w + 2.0) * UNIT, (h + 2.0) * UNIT)
}

/// The army on its lattice.
pub fn army_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    caption: &str,
) -> String {
    let cells = window(lattice, army, &[]);
    let (w, h) = extent(lattice, &cells);
    let w = w.max(caption.chars().count() as f64 * 7.0 + 8.0);
    let men: HashSet<Cell> = army.iter().copied().collect();
    let doc = document(w, h + 22.0, caption)
        .add(Definitions::new().add(background(lattice, pagoda, level, &cells)))
        .add(frame(
            &Layout::new(lattice.embedding, &cells),
            &men,
            (0.0, 0.0),
        ))
        .add(
            Text::new(caption.to_string())
                .set("x", 4)
                .set("y", h + 16.0)
                .set("font-family", "sans-serif")
                .set("font-size", 12),
        );
    doc.to_string()
}

/// The play as a strip of frames: the army, then the position after each move, with the
/// moving man's path drawn.
pub fn play_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    let cells = window(lattice, army, play);
    let (w, h) = extent(lattice, &cells);
    let mut moves: Vec<Vec<Step>> = Vec::new();
    for (i, s) in play.iter().enumerate() {
        if i == 0 || play[i - 1].to != s.from {
            moves.push(Vec::new());
        }
        moves.last_mut().unwrap().push(*s);
    }
    let cols = 6usize.min(moves.len() + 1);
    let rows = (moves.len() + 1).div_ceil(cols);
    let (fw, fh) = (w + 8.0, h + 24.0);
    let mut doc = document(fw * cols as f64, fh * rows as f64 + 20.0, caption);
    let mut men: HashSet<Cell> = army.iter().copied().collect();
    let layout = Layout::new(lattice.embedding, &cells);
    doc = doc.add(Definitions::new().add(background(lattice, pagoda, level, &cells)));
    for k in 0..=moves.len() {
        let origin = ((k % cols) as f64 * fw, (k / cols) as f64 * fh);
        if k > 0 {
            for s in &moves[k - 1] {
                men.remove(&s.from);
                men.remove(&s.over);
                men.insert(s.to);
            }
        }
        let mut g = frame(&layout, &men, origin);
        let label = if k == 0 {
            format!("army: {} men", army.len())
        } else {
            format!(
                "move {k}: {} jump{}",
                moves[k - 1].len(),
                if moves[k - 1].len() > 1 { "s" } else { "" }
            )
        };
        if k > 0 {
            let place = |c: Cell| layout.place(c, origin);
            let mut pts = vec![place(moves[k - 1][0].from)];
            pts.extend(moves[k - 1].iter().map(|s| place(s.to)));
            let pts: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            g = g.add(
                Polyline::new()
                    .set("points", pts.join(" "))
                    .set("fill", "none")
                    .set("stroke", "#e80")
                    .set("stroke-width", 2.5),
            );
        }
        g = g.add(
            Text::new(label)
                .set("x", origin.0 + 4.0)
                .set("y", origin.1 + h + 14.0)
                .set("font-family", "sans-serif")
                .set("font-size", 11),
        );
        doc = doc.add(g);
    }
    doc = doc.add(
        Text::new(caption.to_string())
            .set("x", 4)
            .set("y", fh * rows as f64 + 14.0)
            .set("font-family", "sans-serif")
            .set("font-size", 12),
    );
    doc.to_string()
}
