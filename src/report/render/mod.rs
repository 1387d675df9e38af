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
//!
//! The parts: the board every picture is drawn on (cells, men, target, desert edge,
//! coordinates: [`board`]), the legend below the army picture ([`legend`]), the army
//! picture ([`army`]), the strip of frames ([`play`]) and the jump map ([`jump_map`]).

use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::Step;
use crate::report::regiment::Regiment;

mod army;
mod board;
mod jump_map;
mod legend;
mod play;
/// How a jump is drawn in a strip of frames: a line from the jumping man's cell to `back`
/// short of where he lands, `width` wide, ending in an arrowhead of `head` (the definition
/// `url(#head)`, once per picture), both in `colour`.
pub struct Arrow {
    pub colour: &'static str,
    pub head: f64,
    pub back: f64,
    pub width: f64,
}

impl Arrow {
    /// The arrowhead every jump line of the picture ends with.
    pub fn head(&self) -> svg::node::element::Marker {
        svg::node::element::Marker::new()
            .set("id", "head")
            .set("viewBox", "0 0 10 10")
            .set("refX", 8)
            .set("refY", 5)
            .set("markerWidth", self.head)
            .set("markerHeight", self.head)
            .set("orient", "auto")
            .add(
                svg::node::element::Path::new()
                    .set("d", "M0,0 L10,5 L0,10 z")
                    .set("fill", self.colour),
            )
    }

    /// One jump, from the centre of `a` towards `b`.
    pub fn line(&self, a: (f64, f64), b: (f64, f64)) -> svg::node::element::Line {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        svg::node::element::Line::new()
            .set("x1", format!("{:.1}", a.0))
            .set("y1", format!("{:.1}", a.1))
            .set("x2", format!("{:.1}", b.0 - dx / len * self.back))
            .set("y2", format!("{:.1}", b.1 - dy / len * self.back))
            .set("stroke", self.colour)
            .set("stroke-width", self.width)
            .set("marker-end", "url(#head)")
    }
}

pub use army::army_svg;
pub use play::play_svg;

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

#[cfg(test)]
mod tests {
    use super::jump_map::move_colour;
    use super::legend::legend_exponents;
    use super::*;
    use crate::problem::Army;
    use crate::report::regiment::regiments;
    use crate::weight::pagoda::Pagoda;

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
