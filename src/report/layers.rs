//! Pictures of three-dimensional armies: one slice per layer (the row, z = const), side by
//! side, the target's layer z = 0 first. A frame is one position drawn as its row of slices;
//! an army picture is one frame, a play picture one frame per move. Cells are shaded by
//! pagoda exponent as in [`crate::report::render`] (darker is heavier), the target is ringed in red,
//! and a layer of the start region (z >= level) has a red frame. Coordinates are the CSV's:
//! x to the right, y downward within a slice, as in every picture. Uses only geometry,
//! pagoda and verify.

use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use crate::report::paint::{shade, target_ring_at};
use crate::weight::pagoda::Pagoda;
use svg::Document;
use svg::node::element::{Circle, Definitions, Group, Rectangle, Text, Title, Use};

/// One cell width, in pixels.
const UNIT: f64 = 14.0;
/// Room for a frame's name on the left.
const LEFT: f64 = 70.0;
/// Room above each row of slices for the layer names.
const HEAD: f64 = 16.0;
const GAP: f64 = UNIT;

/// The box of (x, y) shown in every slice: every cell of every frame and the target, plus a
/// one-cell rim; and the highest layer.
struct Frame {
    x: (i32, i32),
    y: (i32, i32),
    top: i32,
    /// The largest exponent shown: the lightest shade.
    top_exponent: i32,
}

impl Frame {
    fn of(pagoda: &Pagoda, frames: &[(String, Vec<Cell>)]) -> Frame {
        let all: Vec<Cell> = frames
            .iter()
            .flat_map(|f| f.1.iter().copied())
            .chain([Cell::ORIGIN])
            .collect();
        let span = |f: fn(&Cell) -> i32| {
            let lo = all.iter().map(f).min().unwrap_or(0);
            let hi = all.iter().map(f).max().unwrap_or(0);
            (lo - 1, hi + 1)
        };
        let (x, y) = (span(|c| c.0), span(|c| c.2));
        let top = all.iter().map(|c| c.row()).max().unwrap_or(0).max(0);
        let top_exponent = (0..=top)
            .flat_map(|z| (y.0..=y.1).flat_map(move |b| (x.0..=x.1).map(move |a| Cell(a, z, b))))
            .filter_map(|c| pagoda.exponent(c))
            .max()
            .unwrap_or(1)
            .max(1);
        Frame {
            x,
            y,
            top,
            top_exponent,
        }
    }

    fn width(&self) -> f64 {
        (self.x.1 - self.x.0 + 1) as f64 * UNIT
    }

    fn height(&self) -> f64 {
        (self.y.1 - self.y.0 + 1) as f64 * UNIT
    }

    /// The centre of cell (x, y) of a slice whose top left corner is at `at`.
    fn place(&self, c: Cell, at: (f64, f64)) -> (f64, f64) {
        (
            at.0 + ((c.0 - self.x.0) as f64 + 0.5) * UNIT,
            at.1 + ((c.2 - self.y.0) as f64 + 0.5) * UNIT,
        )
    }
}

fn text(s: &str, (x, y): (f64, f64), anchor: &str) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y)
        .set("text-anchor", anchor)
        .set("font-family", "sans-serif")
        .set("font-size", 9)
        .set("fill", "#333")
}

/// The shaded cells of layer z, its frame and its name, drawn once at the origin (id
/// `layer-z`): every frame refers to it with `<use>`, so a play of many moves does not repeat
/// every cell.
fn layer(f: &Frame, pagoda: &Pagoda, level: i32, z: i32) -> Group {
    let mut g = Group::new().set("id", format!("layer-{z}"));
    for y in f.y.0..=f.y.1 {
        for x in f.x.0..=f.x.1 {
            let c = Cell(x, z, y);
            let (cx, cy) = f.place(c, (0.0, 0.0));
            g = g.add(
                Rectangle::new()
                    .set("x", cx - UNIT / 2.0)
                    .set("y", cy - UNIT / 2.0)
                    .set("width", UNIT)
                    .set("height", UNIT)
                    .set("fill", shade(pagoda.exponent(c), f.top_exponent))
                    .set("stroke", "#bbb")
                    .set("stroke-width", 0.5),
            );
        }
    }
    let border = if z >= level { "#a33" } else { "#888" };
    g = g.add(
        Rectangle::new()
            .set("width", f.width())
            .set("height", f.height())
            .set("fill", "none")
            .set("stroke", border)
            .set("stroke-width", 1.2),
    );
    if z == 0 {
        g = g.add(target_ring_at(
            f.place(Cell::ORIGIN, (0.0, 0.0)),
            UNIT * 0.45,
        ));
    }
    g.add(text(&format!("z = {z}"), (f.width() / 2.0, -4.0), "middle"))
}

/// One layer z of a position, its top left corner at `at`: the shared layer and the men.
fn slice(f: &Frame, z: i32, men: &[Cell], at: (f64, f64)) -> Group {
    let mut g = Group::new().add(
        Use::new()
            .set("href", format!("#layer-{z}"))
            .set("x", at.0)
            .set("y", at.1),
    );
    for &c in men.iter().filter(|c| c.row() == z) {
        let (cx, cy) = f.place(c, at);
        g = g.add(
            Circle::new()
                .set("cx", cx)
                .set("cy", cy)
                .set("r", UNIT * 0.32)
                .set("fill", "#111")
                .add(Title::new(format!("{c:?}"))),
        );
    }
    g
}

/// Frames (a name and the men), each a row of slices z = 0 … the highest layer used.
pub fn frames_svg(
    pagoda: &Pagoda,
    level: i32,
    frames: &[(String, Vec<Cell>)],
    caption: &str,
) -> String {
    let f = Frame::of(pagoda, frames);
    let row_h = f.height() + HEAD + GAP;
    let width = LEFT + (f.top + 1) as f64 * (f.width() + GAP);
    let height = HEAD + frames.len() as f64 * row_h + 24.0;
    let defs = (0..=f.top).fold(Definitions::new(), |d, z| {
        d.add(layer(&f, pagoda, level, z))
    });
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
        .add(defs);
    for (i, (name, men)) in frames.iter().enumerate() {
        let y = HEAD + i as f64 * row_h;
        doc = doc.add(text(name, (4.0, y + HEAD + f.height() / 2.0), "start"));
        for z in 0..=f.top {
            let at = (LEFT + z as f64 * (f.width() + GAP), y + HEAD);
            doc = doc.add(slice(&f, z, men, at));
        }
    }
    doc.add(text(caption, (4.0, height - 8.0), "start"))
        .to_string()
}

/// The army as one frame of slices.
pub fn army_svg(pagoda: &Pagoda, level: i32, army: &[Cell], caption: &str) -> String {
    let frame = (format!("{} men", army.len()), army.to_vec());
    frames_svg(pagoda, level, &[frame], caption)
}

/// The play: the army, then the position after each move (a run of jumps by one man).
pub fn play_svg(
    pagoda: &Pagoda,
    level: i32,
    army: &[Cell],
    play: &[Step],
    caption: &str,
) -> String {
    let mut men: Vec<Cell> = army.to_vec();
    let mut frames = vec![("start".to_string(), men.clone())];
    let mut moves = 0;
    for (i, s) in play.iter().enumerate() {
        men.retain(|&c| c != s.from && c != s.over);
        men.push(s.to);
        let ends_move = play.get(i + 1).is_none_or(|n| n.from != s.to);
        if ends_move {
            moves += 1;
            frames.push((format!("move {moves}"), men.clone()));
        }
    }
    frames_svg(pagoda, level, &frames, caption)
}
