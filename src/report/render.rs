//! Pictures: an army on its own lattice, and a play as a strip of frames or a jump map.
//!
//! In the spirit of the paper's Figures 9–12: cells shaded by pagoda exponent (darker is
//! heavier), the target ringed in red, the desert edge (between rows level − 1 and level)
//! dashed. Square cells for Conway's, the skew and the diagonal army, hexagons for the
//! hexagonal army, a triangle of circles for Pablito's. Coordinates are the CSV's, written
//! along the left edge (rows y) and the bottom edge (x of the bottom row's cells). The army
//! picture colours its men by [`crate::report::regiment`] and has a legend for the shading and the
//! colours. A play of at most [`STRIP_MOVES`] moves is a strip of frames, one per move; a
//! longer one is a jump map: one board, every jump an arrow coloured by its move number. Every
//! picture is drawn at its natural size (width and height equal the view box), and no man is
//! drawn with a radius under 3 px. XML is written by the svg crate.

use crate::problem::geometry::{Cell, Embedding, Lattice, StartRegion};
use crate::proof::verify::Step;
use crate::report::paint::{shade, target_ring_at};
use crate::report::regiment::{Regiment, regiments};
use crate::weight::pagoda::Pagoda;
use std::collections::HashSet;
use svg::Document;
use svg::node::element::{
    Circle, Definitions, Group, Line, LinearGradient, Polygon, Polyline, Rectangle, Stop, Text,
    Title, Use,
};

/// One cell width, in pixels.
const UNIT: f64 = 16.0;
/// Radius of a man in the army picture and the strip (10 px across).
pub const MAN_RADIUS: f64 = UNIT * 0.32;
/// Radius of a man under the arrows of a jump map (6.4 px across).
pub const MAP_MAN_RADIUS: f64 = UNIT * 0.2;
/// A play of more moves than this is drawn as a jump map instead of a strip of frames.
pub const STRIP_MOVES: usize = 30;
/// Room on the left for the row labels, in pixels.
const LEFT: f64 = 26.0;
/// Room below the board for the column labels, in pixels.
const BOTTOM: f64 = 14.0;
/// Colour scale of the jump map, from the first move to the last (dark violet to orange).
const MOVE_SCALE: [(u8, u8, u8); 5] = [
    (0x0d, 0x08, 0x87),
    (0x6a, 0x00, 0xa8),
    (0xb1, 0x2a, 0x90),
    (0xe1, 0x64, 0x62),
    (0xfc, 0xa6, 0x36),
];

/// The colour of a man of each regiment (the army picture and the viewer).
pub fn regiment_colour(r: Regiment) -> &'static str {
    match r {
        Regiment::Target => "#c2410c",
        Regiment::Over => "#0f766e",
        Regiment::Spare => "#555555",
    }
}

/// The colour of move `k` of `n` (1-based) on the jump map's scale.
fn move_colour(k: usize, n: usize) -> String {
    let t = if n <= 1 {
        0.0
    } else {
        (k - 1) as f64 / (n - 1) as f64
    };
    let pos = t * (MOVE_SCALE.len() - 1) as f64;
    let i = (pos.floor() as usize).min(MOVE_SCALE.len() - 2);
    let f = pos - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (MOVE_SCALE[i], MOVE_SCALE[i + 1]);
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// The window of cells a picture shows: every lattice cell whose centre lies in the
/// bounding box (in the plane) of the army, the play and the target, plus a one-cell rim.
pub(crate) fn window(lattice: &Lattice, army: &[Cell], play: &[Step]) -> Vec<Cell> {
    let e = lattice.embedding;
    let touched: Vec<Cell> = std::iter::once(Cell::ORIGIN)
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
            let (px, py) = e.point(Cell::xy(x, y));
            if lattice.contains(Cell::xy(x, y))
                && (x0..=x1).contains(&px)
                && (y0..=y1).contains(&py)
            {
                cells.push(Cell::xy(x, y));
            }
        }
    }
    cells
}

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

/// The largest exponent among `cells` (at least 1): the lightest shade.
fn top_exponent(pagoda: &Pagoda, cells: &[Cell]) -> i32 {
    cells
        .iter()
        .filter_map(|&c| pagoda.exponent(c))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The board drawn once, at the origin: shaded cells and the desert edge. Frames refer to it
/// with `<use>`, so a play of a hundred moves does not repeat a thousand cells a hundred times.
fn background(lattice: &Lattice, pagoda: &Pagoda, level: i32, cells: &[Cell]) -> Group {
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
fn man(c: Cell, (x, y): (f64, f64), r: f64, fill: &str) -> Circle {
    Circle::new()
        .set("class", "man")
        .set("cx", x)
        .set("cy", y)
        .set("r", r)
        .set("fill", fill)
        .add(Title::new(format!("({}, {})", c.0, c.1)))
}

/// The target ringed in red.
fn target_ring(layout: &Layout, origin: (f64, f64)) -> Circle {
    target_ring_at(layout.place(Cell::ORIGIN, origin), UNIT * 0.45)
}

/// One position at an offset: the shared board, the men (each with its colour), the target.
fn frame(layout: &Layout, men: &[(Cell, &str)], origin: (f64, f64)) -> Group {
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

/// Coordinates along two edges: each row's y left of its leftmost cell, and the x of the
/// bottom row's cells below them (every other one where cells are a unit apart).
fn coordinates(layout: &Layout, cells: &[Cell], origin: (f64, f64)) -> Group {
    let place = |c: Cell| layout.place(c, origin);
    let label = |s: String, (x, y): (f64, f64), anchor: &str| {
        Text::new(s)
            .set("x", x)
            .set("y", y)
            .set("text-anchor", anchor)
    };
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
    let mut last: Vec<(f64, f64, i32)> = cells
        .iter()
        .filter(|c| c.1 == bottom)
        .map(|&c| {
            let p = place(c);
            (p.0, p.1, c.0)
        })
        .collect();
    last.sort_by(|a, b| a.0.total_cmp(&b.0));
    let gap = last
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .fold(f64::MAX, f64::min);
    let below = UNIT * 0.5 + 9.0;
    if let Some(first) = last.first() {
        g = g.add(label(
            "x".into(),
            (first.0 - UNIT * 0.62, first.1 + below),
            "end",
        ));
    }
    for &(px, py, x) in &last {
        if gap >= 1.5 * UNIT || x % 2 == 0 {
            g = g.add(label(x.to_string(), (px, py + below), "middle"));
        }
    }
    g
}

fn extent(lattice: &Lattice, cells: &[Cell]) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = cells.iter().map(|&c| lattice.embedding.point(c)).collect();
    let w = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let h = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max)
        - pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    ((w + 2.0) * UNIT, (h + 2.0) * UNIT)
}

/// A dashed ring marking a cell (d and 2d of the last jump).
fn ring(p: (f64, f64), colour: &str) -> Circle {
    Circle::new()
        .set("cx", p.0)
        .set("cy", p.1)
        .set("r", UNIT * 0.47)
        .set("fill", "none")
        .set("stroke", colour)
        .set("stroke-dasharray", "3 2")
        .set("stroke-width", 1.5)
}

/// Lines of legend text, each with optional swatches, stacked from `y`; returns the group,
/// its width and its height.
struct Legend {
    g: Group,
    y: f64,
    width: f64,
}

impl Legend {
    const LINE: f64 = 15.0;
    const CHAR: f64 = 6.2;

    fn new(y: f64) -> Legend {
        Legend {
            g: Group::new()
                .set("font-family", "sans-serif")
                .set("font-size", 11),
            y,
            width: 0.0,
        }
    }

    fn text(&mut self, x: f64, s: &str) -> f64 {
        self.g = std::mem::take(&mut self.g)
            .add(Text::new(s.to_string()).set("x", x).set("y", self.y + 11.0));
        let end = x + s.chars().count() as f64 * Legend::CHAR;
        self.width = self.width.max(end + 4.0);
        end
    }

    fn line(&mut self, s: &str) {
        self.text(4.0, s);
        self.y += Legend::LINE;
    }

    /// A disc of the given colour, then text.
    fn disc(&mut self, fill: &str, s: &str) {
        self.g = std::mem::take(&mut self.g).add(
            Circle::new()
                .set("cx", 10.0)
                .set("cy", self.y + 7.0)
                .set("r", MAN_RADIUS)
                .set("fill", fill),
        );
        self.text(20.0, s);
        self.y += Legend::LINE;
    }

    /// Swatches of the shading for the exponents shown, each followed by its exponent.
    fn swatches(&mut self, exps: &[i32], top: i32) {
        let mut x = self.text(4.0, "exponent e:") + 6.0;
        for &e in exps {
            self.g = std::mem::take(&mut self.g).add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", self.y + 1.0)
                    .set("width", 12)
                    .set("height", 12)
                    .set("fill", shade(Some(e), top))
                    .set("stroke", "#999")
                    .set("stroke-width", 0.5),
            );
            x = self.text(x + 15.0, &e.to_string()) + 8.0;
        }
        self.y += Legend::LINE + 2.0;
        self.text(4.0, "(darker is heavier)");
        self.y += Legend::LINE;
    }
}

/// Exponents to show in a legend: from `lo` to `top`, at most nine, `top` always.
fn legend_exponents(lo: i32, top: i32) -> Vec<i32> {
    let step = ((top - lo + 1) as usize).div_ceil(8).max(1);
    let mut v: Vec<i32> = (lo..=top).step_by(step).collect();
    if v.last() != Some(&top) {
        v.push(top);
    }
    v
}

/// The army on its lattice, men coloured by regiment under `play` (all alike when the play
/// is empty), with coordinates along two edges and a legend for the shading and the colours.
pub fn army_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    if lattice.dimension() == 3 {
        return crate::report::layers::army_svg(pagoda, level, army, caption);
    }
    let cells = window(lattice, army, &[]);
    let (w, h) = extent(lattice, &cells);
    let layout = Layout::new(lattice.embedding, &cells);
    let origin = (LEFT, 0.0);
    let regs = regiments(army, play);
    let colour = |r: Regiment| {
        if play.is_empty() {
            "#111"
        } else {
            regiment_colour(r)
        }
    };
    let men: Vec<(Cell, &str)> = army
        .iter()
        .zip(&regs)
        .map(|(&c, &r)| (c, colour(r)))
        .collect();
    let mut board = frame(&layout, &men, origin).add(coordinates(&layout, &cells, origin));

    let d = pagoda.source;
    let top = top_exponent(pagoda, &cells);
    let lo = cells
        .iter()
        .filter_map(|&c| pagoda.exponent(c))
        .min()
        .unwrap_or(1);
    // Short lines, so that a small army's picture is not mostly legend.
    let mut legend = Legend::new(h + BOTTOM + 4.0);
    legend.line(&format!(
        "Shading: exponent e = {} + distance from d = ({}, {}),",
        pagoda.offset, d.0, d.1
    ));
    legend.line("the cell the last jump passes over; a man on a");
    legend.line("cell of exponent e weighs σ^e, σ = (√5 − 1)/2.");
    legend.swatches(&legend_exponents(lo, top), top);
    if let Some(last) = play.last() {
        board = board
            .add(ring(
                layout.place(last.from, origin),
                regiment_colour(Regiment::Target),
            ))
            .add(ring(
                layout.place(last.over, origin),
                regiment_colour(Regiment::Over),
            ));
        regiment_legend(&mut legend, &regs, last);
    }
    legend.y += 4.0;
    legend.line(caption);
    let width = (w + LEFT).max(legend.width);
    let doc = document(width, legend.y + 4.0, caption)
        .add(Definitions::new().add(background(lattice, pagoda, level, &cells)))
        .add(board)
        .add(legend.g);
    doc.to_string()
}

/// The legend of the regiments: the target man's, the d man's, the men in neither, and
/// how to read them.
fn regiment_legend(legend: &mut Legend, regs: &[Regiment], last: &Step) {
    let count = |r: Regiment| regs.iter().filter(|&&x| x == r).count();
    let men = |n: usize| format!("{n} {}", if n == 1 { "man" } else { "men" });
    legend.disc(
        regiment_colour(Regiment::Target),
        &format!(
            "target man's regiment (from 2d = ({}, {})): {}",
            last.from.0,
            last.from.1,
            men(count(Regiment::Target))
        ),
    );
    legend.disc(
        regiment_colour(Regiment::Over),
        &format!(
            "d man's regiment (on d = ({}, {})): {}",
            last.over.0,
            last.over.1,
            men(count(Regiment::Over))
        ),
    );
    if count(Regiment::Spare) > 0 {
        legend.disc(
            regiment_colour(Regiment::Spare),
            &format!("in neither regiment: {}", men(count(Regiment::Spare))),
        );
    }
    legend.line("The target man jumps from 2d over d onto the");
    legend.line("target; the d man is removed by that last jump.");
    legend.line("A removed man serves in his remover's regiment.");
    legend.line("2d and d are ringed in their regiment's colour.");
}

/// Splits a play into moves: runs of jumps by the same man.
fn moves_of(play: &[Step]) -> Vec<Vec<Step>> {
    let mut moves: Vec<Vec<Step>> = Vec::new();
    for (i, s) in play.iter().enumerate() {
        if i == 0 || play[i - 1].to != s.from {
            moves.push(Vec::new());
        }
        moves.last_mut().unwrap().push(*s);
    }
    moves
}

/// The play: a strip of frames for at most [`STRIP_MOVES`] moves, else a jump map.
pub fn play_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    if lattice.dimension() == 3 {
        return crate::report::layers::play_svg(pagoda, level, army, play, caption);
    }
    if moves_of(play).len() > STRIP_MOVES {
        jump_map_svg(lattice, pagoda, level, army, play, caption)
    } else {
        strip_svg(lattice, pagoda, level, army, play, caption)
    }
}

/// The play as a strip of frames: the army, then the position after each move, with the
/// moving man's path drawn.
fn strip_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    let cells = window(lattice, army, play);
    let (w, h) = extent(lattice, &cells);
    let moves = moves_of(play);
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
        let drawn: Vec<(Cell, &str)> = men.iter().map(|&c| (c, "#111")).collect();
        let mut g = frame(&layout, &drawn, origin);
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

/// An arrow from `a` to `b` (pixels), shortened at both ends so it stays readable where
/// jumps meet, with a filled head.
fn arrow(a: (f64, f64), b: (f64, f64), colour: &str, title: String) -> Group {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let start = (a.0 + ux * 3.0, a.1 + uy * 3.0);
    let tip = (b.0 - ux * 2.0, b.1 - uy * 2.0);
    let base = (tip.0 - ux * 6.0, tip.1 - uy * 6.0);
    let (px, py) = (-uy * 3.2, ux * 3.2);
    let head = format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        tip.0,
        tip.1,
        base.0 + px,
        base.1 + py,
        base.0 - px,
        base.1 - py
    );
    Group::new()
        .set("class", "jump")
        .add(Title::new(title))
        .add(
            Line::new()
                .set("x1", format!("{:.1}", start.0))
                .set("y1", format!("{:.1}", start.1))
                .set("x2", format!("{:.1}", base.0))
                .set("y2", format!("{:.1}", base.1))
                .set("stroke", colour)
                .set("stroke-width", 1.8),
        )
        .add(Polygon::new().set("points", head).set("fill", colour))
}

/// Every jump of the play as an arrow from its start to its landing cell, coloured by its
/// move, each with a title naming it.
fn jump_arrows(mut board: Group, moves: &[Vec<Step>], place: &dyn Fn(Cell) -> (f64, f64)) -> Group {
    let n = moves.len();
    let mut step = 0;
    for (k, mv) in moves.iter().enumerate() {
        let colour = move_colour(k + 1, n);
        for s in mv {
            step += 1;
            board = board.add(arrow(
                place(s.from),
                place(s.to),
                &colour,
                format!(
                    "move {}, jump {step}: ({}, {}) over ({}, {}) to ({}, {})",
                    k + 1,
                    s.from.0,
                    s.from.1,
                    s.over.0,
                    s.over.1,
                    s.to.0,
                    s.to.1
                ),
            ));
        }
    }
    board
}

/// The colour scale under a jump map: a gradient bar from move 1 to move n at `(bx, by)`,
/// `bar_w` wide, with five ticks; the gradient (a definition) and the bar.
fn move_scale((bx, by): (f64, f64), bar_w: f64, n: usize) -> (LinearGradient, Group) {
    let mut gradient = LinearGradient::new().set("id", "moves");
    for (i, &(r, g, b)) in MOVE_SCALE.iter().enumerate() {
        gradient = gradient.add(
            Stop::new()
                .set("offset", format!("{}%", 100 * i / (MOVE_SCALE.len() - 1)))
                .set("stop-color", format!("#{r:02x}{g:02x}{b:02x}")),
        );
    }
    let mut scale = Group::new()
        .set("font-family", "sans-serif")
        .set("font-size", 10)
        .add(
            Rectangle::new()
                .set("x", bx)
                .set("y", by)
                .set("width", bar_w)
                .set("height", 10)
                .set("fill", "url(#moves)"),
        );
    let ticks: Vec<usize> = {
        let mut t: Vec<usize> = (0..=4).map(|i| 1 + i * (n.max(1) - 1) / 4).collect();
        t.dedup();
        t
    };
    for &k in &ticks {
        let x = bx
            + if n > 1 {
                bar_w * (k - 1) as f64 / (n - 1) as f64
            } else {
                0.0
            };
        scale = scale
            .add(
                Line::new()
                    .set("x1", x)
                    .set("x2", x)
                    .set("y1", by + 10.0)
                    .set("y2", by + 14.0)
                    .set("stroke", "#333"),
            )
            .add(
                Text::new(k.to_string())
                    .set("x", x)
                    .set("y", by + 24.0)
                    .set("text-anchor", "middle"),
            );
    }
    (gradient, scale)
}

/// The play as a jump map: one board with the army's men, every jump an arrow from its start
/// to its landing cell, coloured by its move number on a scale drawn below.
fn jump_map_svg(
    lattice: &Lattice,
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    let cells = window(lattice, army, play);
    let (w, h) = extent(lattice, &cells);
    let layout = Layout::new(lattice.embedding, &cells);
    let origin = (LEFT, 0.0);
    let place = |c: Cell| layout.place(c, origin);
    let moves = moves_of(play);
    let n = moves.len();
    let mut board = Group::new().add(
        Use::new()
            .set("href", "#board")
            .set("x", origin.0)
            .set("y", origin.1),
    );
    let mut sorted = army.to_vec();
    sorted.sort();
    for &c in &sorted {
        board = board.add(man(c, place(c), MAP_MAN_RADIUS, "#777"));
    }
    board = jump_arrows(board, &moves, &place);
    board = board
        .add(target_ring(&layout, origin))
        .add(coordinates(&layout, &cells, origin));

    // The colour scale: a gradient bar from move 1 to move n, with ticks.
    let bar_w = (w - 2.0 * UNIT).clamp(120.0, 480.0);
    let (bx, by) = (LEFT + UNIT, h + BOTTOM + 8.0);
    let (gradient, scale) = move_scale((bx, by), bar_w, n);
    let note = [
        format!(
            "Jump map: {} jumps in {n} moves; each arrow runs from a jump's start",
            play.len()
        ),
        "to its landing cell, coloured by its move (scale above); grey: the army.".to_string(),
        caption.to_string(),
    ];
    let mut y = by + 40.0;
    let mut text = Group::new()
        .set("font-family", "sans-serif")
        .set("font-size", 11);
    let mut width = w + LEFT;
    for l in &note {
        text = text.add(Text::new(l.clone()).set("x", 4).set("y", y));
        width = width.max(l.chars().count() as f64 * Legend::CHAR + 8.0);
        y += 15.0;
    }
    let doc = document(width, y, caption)
        .add(
            Definitions::new()
                .add(background(lattice, pagoda, level, &cells))
                .add(gradient),
        )
        .add(board)
        .add(scale)
        .add(
            Text::new("move".to_string())
                .set("x", 4)
                .set("y", by + 9.0)
                .set("font-family", "sans-serif")
                .set("font-size", 10),
        )
        .add(text);
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    fn entry(army: Army, level: i32) -> (Lattice, Pagoda, Vec<Cell>, Vec<Step>) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/armies");
        let men = crate::report::export::read_army(&dir.join(format!("{army}-{level}-army.csv")))
            .unwrap();
        let play = crate::report::export::read_play(&dir.join(format!("{army}-{level}-play.csv")))
            .unwrap();
        let lattice = army.lattice();
        let pagoda = Pagoda::improved(&lattice, play.last().unwrap().over);
        (lattice, pagoda, men, play)
    }

    /// Every `class="man"` circle's radius, and whether the picture is at its natural size.
    fn men_radii(svg: &str) -> (Vec<f64>, bool) {
        let mut radii = Vec::new();
        let mut natural = false;
        for ev in svg::read(svg).unwrap() {
            if let svg::parser::Event::Tag(tag, kind, attrs) = ev {
                let get = |k: &str| attrs.get(k).map(|v| v.to_string());
                if tag == "svg" && kind == svg::node::element::tag::Type::Start {
                    let vb = get("viewBox").unwrap();
                    let vb: Vec<&str> = vb.split_whitespace().collect();
                    natural = get("width").as_deref() == Some(vb[2])
                        && get("height").as_deref() == Some(vb[3]);
                }
                if tag == "circle" && get("class").as_deref() == Some("man") {
                    radii.push(get("r").unwrap().parse().unwrap());
                }
            }
        }
        (radii, natural)
    }

    #[test]
    fn render_men_are_6_px_or_more_at_natural_size() {
        for (army, level, strip) in [(Army::conway(), 4, true), (Army::hexagonal(), 7, false)] {
            let (l, p, men, play) = entry(army, level);
            let a = army_svg(&l, &p, level, &men, &play, "army");
            let b = play_svg(&l, &p, level, &men, &play, "play");
            for (svg, want) in [(&a, men.len()), (&b, 0)] {
                let (radii, natural) = men_radii(svg);
                assert!(natural, "{army} {level}: not at natural size");
                assert!(radii.iter().all(|&r| r >= 3.0), "{army} {level}: {radii:?}");
                if want > 0 {
                    assert_eq!(radii.len(), want);
                }
            }
            // At most 30 moves: the strip; more: one board with an arrow per jump.
            assert_eq!(b.contains("Jump map"), !strip, "{army} {level}");
            if !strip {
                assert_eq!(b.matches(r#"<g class="jump">"#).count(), play.len());
                assert_eq!(men_radii(&b).0.len(), men.len());
                assert!(b.len() < 300_000, "{} bytes", b.len());
            }
        }
    }

    #[test]
    fn render_army_legend_and_coordinates() {
        let (l, p, men, play) = entry(Army::conway(), 4);
        let a = army_svg(&l, &p, 4, &men, &play, "conway army, level 4");
        assert!(a.contains("distance from d = (0, 1)"));
        assert!(a.contains("exponent e:"));
        assert!(a.contains("2d = (0, 2)") && a.contains("on d = (0, 1)"));
        // Men are coloured by regiment, and the colours count the regiments.
        let mut fills = Vec::new();
        for ev in svg::read(&a).unwrap() {
            if let svg::parser::Event::Tag("circle", _, attrs) = ev
                && attrs.get("class").map(|v| v.to_string()).as_deref() == Some("man")
            {
                fills.push(attrs.get("fill").unwrap().to_string());
            }
        }
        let regs = regiments(&men, &play);
        for r in [Regiment::Target, Regiment::Over] {
            let n = regs.iter().filter(|&&x| x == r).count();
            assert!(n > 0);
            assert_eq!(fills.iter().filter(|f| *f == regiment_colour(r)).count(), n);
            assert!(a.contains(&format!(": {n} men\n</text>")));
        }
        assert_eq!(fills.len(), 20);
        // Row labels 0..=8 left, and column labels of the bottom row.
        for y in 0..=8 {
            assert!(a.contains(&format!(">\n{y}\n</text>")));
        }
        assert!(a.contains(">\n-4\n</text>") && a.contains(">\n2\n</text>"));
        // Without a play, men are drawn alike and no regiment is named.
        let plain = army_svg(&l, &p, 4, &men, &[], "conway army, level 4");
        assert!(!plain.contains("regiment"));
        assert_eq!(men_radii(&plain).0.len(), men.len());
    }

    #[test]
    fn render_move_colours_run_from_first_to_last() {
        assert_eq!(move_colour(1, 10), "#0d0887");
        assert_eq!(move_colour(10, 10), "#fca636");
        assert_eq!(move_colour(1, 1), "#0d0887");
        assert_eq!(
            legend_exponents(1, 13),
            (1..=13).step_by(2).collect::<Vec<_>>()
        );
        assert_eq!(legend_exponents(2, 5), vec![2, 3, 4, 5]);
    }
}
