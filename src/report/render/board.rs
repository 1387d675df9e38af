//! The board every picture is drawn on: where cells go on the page ([`Layout`]), each
//! cell's shape (square, hexagon or circle) shaded by pagoda exponent, the board drawn once
//! and referred to by every frame, the desert edge, the men, the target ring, the
//! coordinates along two edges and the document around it all.

use super::{MAN_RADIUS, UNIT};
use crate::problem::geometry::{Cell, Embedding, Lattice, StartRegion};
use crate::report::paint::{shade, target_ring_at};
use crate::weight::pagoda::Pagoda;
use svg::Document;
use svg::node::element::{Circle, Group, Line, Polygon, Rectangle, Text, Title, Use};

fn cell_shape(e: Embedding, (cx, cy): (f64, f64), fill: &str) -> Box<dyn svg::Node> {
    let r = UNIT / 2.0;
    match e {
        Embedding::Square | Embedding::Cubic => Box::new(
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
pub(super) struct Layout {
    embedding: Embedding,
    min: (f64, f64),
}

impl Layout {
    pub(super) fn new(embedding: Embedding, cells: &[Cell]) -> Layout {
        let min = cells.iter().fold((f64::MAX, f64::MAX), |(a, b), &c| {
            let (x, y) = embedding.point(c);
            (a.min(x), b.min(y))
        });
        Layout { embedding, min }
    }

    pub(super) fn place(&self, c: Cell, origin: (f64, f64)) -> (f64, f64) {
        let (x, y) = self.embedding.point(c);
        (
            origin.0 + (x - self.min.0) * UNIT + UNIT,
            origin.1 + (y - self.min.1) * UNIT + UNIT,
        )
    }
}

/// An SVG document of the given size with a title and a white background.
pub(super) fn document(w: f64, h: f64, caption: &str) -> Document {
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

/// The largest exponent among `cells` (at least 1): the lightest shade.
pub(super) fn top_exponent(pagoda: &Pagoda, cells: &[Cell]) -> i32 {
    cells
        .iter()
        .filter_map(|&c| pagoda.exponent(c))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The board drawn once, at the origin: shaded cells and the desert edge. Frames refer to it
/// with `<use>`, so a play of a hundred moves does not repeat a thousand cells a hundred times.
pub(super) fn background(lattice: &Lattice, pagoda: &Pagoda, level: i32, cells: &[Cell]) -> Group {
    let e = lattice.embedding;
    let layout = Layout::new(e, cells);
    let place = |c: Cell| layout.place(c, (0.0, 0.0));
    let top = top_exponent(pagoda, cells);
    let mut g = Group::new().set("id", "board");
    for &c in cells {
        g = g.add(cell_shape(e, place(c), &shade(pagoda.exponent(c), top)));
    }
    if lattice.start != StartRegion::HalfSpace {
        return g.add(desert_outline(lattice, level, cells, &place));
    }
    // Desert edge: between rows level − 1 and level.
    let edge_y = (((level as f64 - 0.5) * e.point(Cell::xy(0, 1)).1) - layout.min.1) * UNIT + UNIT;
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

/// The edge of a desert that is not a row: every side shared by a start cell and a desert
/// cell, within the box of the cells shown (square cells: sides are half a unit away).
fn desert_outline(
    lattice: &Lattice,
    level: i32,
    cells: &[Cell],
    place: &dyn Fn(Cell) -> (f64, f64),
) -> Group {
    let (lo, hi) = cells
        .iter()
        .fold(((0, 0), (0, 0)), |(lo, hi), &Cell(x, y, _)| {
            ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)))
        });
    let mut g = Group::new();
    for y in lo.1..=hi.1 {
        for x in lo.0..=hi.0 {
            for n in [Cell::xy(x + 1, y), Cell::xy(x, y + 1)] {
                if lattice.start.contains(Cell::xy(x, y), level) == lattice.start.contains(n, level)
                {
                    continue;
                }
                let ((ax, ay), (bx, by)) = (place(Cell::xy(x, y)), place(n));
                let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let (hx, hy) = ((by - ay) / 2.0, (ax - bx) / 2.0); // half a side, turned
                g = g.add(
                    Line::new()
                        .set("x1", mx - hx)
                        .set("x2", mx + hx)
                        .set("y1", my - hy)
                        .set("y2", my + hy)
                        .set("stroke", "#a33")
                        .set("stroke-dasharray", "4 3")
                        .set("stroke-width", 1.2),
                );
            }
        }
    }
    g
}

/// A man: a disc of class `man` with his coordinates as a tooltip.
pub(super) fn man(c: Cell, (x, y): (f64, f64), r: f64, fill: &str) -> Circle {
    Circle::new()
        .set("class", "man")
        .set("cx", x)
        .set("cy", y)
        .set("r", r)
        .set("fill", fill)
        .add(Title::new(format!("({}, {})", c.0, c.1)))
}

/// The target ringed in red.
pub(super) fn target_ring(layout: &Layout, origin: (f64, f64)) -> Circle {
    target_ring_at(layout.place(Cell::ORIGIN, origin), UNIT * 0.45)
}

/// One position at an offset: the shared board, the men (each with its colour), the target.
pub(super) fn frame(layout: &Layout, men: &[(Cell, &str)], origin: (f64, f64)) -> Group {
    let place = |c: Cell| layout.place(c, origin);
    let mut g = Group::new().add(
        Use::new()
            .set("href", "#board")
            .set("x", origin.0)
            .set("y", origin.1),
    );
    let mut sorted: Vec<&(Cell, &str)> = men.iter().collect();
    sorted.sort();
    for &&(c, fill) in &sorted {
        g = g.add(man(c, place(c), MAN_RADIUS, fill));
    }
    g.add(target_ring(layout, origin))
}

/// Coordinates along two edges: each row's y left of its leftmost cell, and x below the
/// bottom row. On the square lattice a column is upright: the x of the bottom row's cells
/// (every other one where cells are a unit apart). On the hexagonal and triangular lattices a
/// column (x constant) is a slanted line, so x is written where the line leaves the bottom
/// row, and a dotted guide runs up the line through every row shown (every column, every
/// other or every fifth, by the width shown), so that a reader finds the x of any cell by
/// following the nearest guide.
pub(super) fn coordinates(layout: &Layout, cells: &[Cell], origin: (f64, f64)) -> Group {
    let place = |c: Cell| layout.place(c, origin);
    let mut g = Group::new()
        .set("font-family", "sans-serif")
        .set("font-size", 8)
        .set("fill", "#444");
    let mut rows: std::collections::BTreeMap<i32, (f64, f64)> = Default::default();
    for &c in cells {
        let p = place(c);
        let e = rows.entry(c.1).or_insert(p);
        if p.0 < e.0 {
            *e = p;
        }
    }
    for (i, (&y, &(px, py))) in rows.iter().enumerate() {
        if i == 0 {
            g = g.add(label("y".into(), (px - UNIT * 0.62, py - 9.0), "end"));
        }
        g = g.add(label(y.to_string(), (px - UNIT * 0.62, py + 3.0), "end"));
    }
    let Some(&bottom) = rows.keys().last() else {
        return g;
    };
    let mut last: Vec<Cell> = cells.iter().copied().filter(|c| c.1 == bottom).collect();
    last.sort_by(|a, b| place(*a).0.total_cmp(&place(*b).0));
    let below = UNIT * 0.5 + 9.0;
    if let Some(&first) = last.first() {
        let (px, py) = place(first);
        g = g.add(label("x".into(), (px - UNIT * 0.62, py + below), "end"));
    }
    if matches!(layout.embedding, Embedding::Square | Embedding::Cubic) {
        let gap = last
            .windows(2)
            .map(|w| place(w[1]).0 - place(w[0]).0)
            .fold(f64::MAX, f64::min);
        for &c in &last {
            let (px, py) = place(c);
            if gap >= 1.5 * UNIT || c.0 % 2 == 0 {
                g = g.add(label(c.0.to_string(), (px, py + below), "middle"));
            }
        }
        return g;
    }
    let step = match last.len() {
        0..=8 => 1,
        9..=20 => 2,
        _ => 5,
    };
    for &c in last.iter().filter(|c| c.0 % step == 0) {
        g = g.add(column_guide(layout, cells, c, origin));
    }
    g
}

/// A text label at `(x, y)`.
fn label(s: String, (x, y): (f64, f64), anchor: &str) -> Text {
    Text::new(s)
        .set("x", format!("{x:.1}"))
        .set("y", format!("{y:.1}"))
        .set("text-anchor", anchor)
}

/// The slanted column of the bottom row's cell `c` on a skewed lattice: a dotted line up
/// through every cell of the column shown, and its x where the line leaves the bottom row.
fn column_guide(layout: &Layout, cells: &[Cell], c: Cell, origin: (f64, f64)) -> Group {
    let place = |c: Cell| layout.place(c, origin);
    let top = cells
        .iter()
        .filter(|d| d.0 == c.0)
        .map(|d| d.1)
        .min()
        .unwrap_or(c.1);
    // From half a row above the column's top cell to half a row below the bottom row.
    let (a, b) = (place(Cell::xy(c.0, top)), place(c));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let beyond = place(Cell::xy(c.0, c.1 + 1));
    let (ux, uy) = (beyond.0 - b.0, beyond.1 - b.1);
    let start = if top < c.1 {
        (
            a.0 - dx / (c.1 - top) as f64 * 0.5,
            a.1 - dy / (c.1 - top) as f64 * 0.5,
        )
    } else {
        (b.0 - ux * 0.5, b.1 - uy * 0.5)
    };
    let end = (b.0 + ux * 0.45, b.1 + uy * 0.45);
    Group::new()
        .set("class", "column")
        .add(
            Line::new()
                .set("x1", format!("{:.1}", start.0))
                .set("y1", format!("{:.1}", start.1))
                .set("x2", format!("{:.1}", end.0))
                .set("y2", format!("{:.1}", end.1))
                .set("stroke", "#666")
                .set("stroke-opacity", 0.55)
                .set("stroke-width", 0.8)
                .set("stroke-dasharray", "1.5 2"),
        )
        .add(label(
            c.0.to_string(),
            (b.0 + ux * 0.75, b.1 + uy * 0.75 + 3.0),
            "middle",
        ))
}

pub(super) fn extent(lattice: &Lattice, cells: &[Cell]) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = cells.iter().map(|&c| lattice.embedding.point(c)).collect();
    let w = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let h = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    ((w + 2.0) * UNIT, (h + 2.0) * UNIT)
}

/// A dashed ring marking a cell (d and 2d of the last jump).
pub(super) fn ring(p: (f64, f64), colour: &str) -> Circle {
    Circle::new()
        .set("cx", p.0)
        .set("cy", p.1)
        .set("r", UNIT * 0.47)
        .set("fill", "none")
        .set("stroke", colour)
        .set("stroke-dasharray", "3 2")
        .set("stroke-width", 1.5)
}
