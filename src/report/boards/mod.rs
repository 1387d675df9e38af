//! Pictures of classical boards ([`crate::play::peg`]): a play as a strip of small frames,
//! one per move ([`strip`]), and a board's catalogue as one small board per vacancy
//! ([`catalogue_svg`]).
//!
//! Drawn as every other picture of solarmy is: x to the right, y downward (the viewer pages
//! and the army pictures do the same), cells at the plane coordinates of
//! [`Embedding::point`]. Every frame is wide enough for its caption and every picture for its
//! title, so that no text is clipped or runs into its neighbour's. On a square board of at
//! most 9 × 9 holes, holes and moves are also named in Bell's notation
//! ([`super::notation`]).
//!
//! Here: where holes go in a frame ([`Frame`]) and the catalogue; the play in [`strip`].

use crate::play::peg::PegBoard;
use crate::play::peg::settle::Outcome;
use crate::problem::geometry::{Cell, Embedding};
use crate::proof::verify::Step;
use svg::Document;
use svg::node::element::{Circle, Group, Rectangle, Text, Title};

mod strip;
pub use strip::play_svg;

/// The width of a character of sans-serif text, as a fraction of the font size (generous, so
/// that a label measured with it is never wider than the room made for it).
const CHAR: f64 = 0.62;

/// The width of `s` in pixels at font size `size`.
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * CHAR
}

/// The plane embedding of a board model's `embedding` name.
pub fn embedding_of(board: &PegBoard) -> Embedding {
    match board.embedding.as_str() {
        "hexagonal" => Embedding::Hexagonal,
        "triangle" => Embedding::Triangle,
        _ => Embedding::Square,
    }
}

/// Where a board's holes go in one frame: the plane box of the holes, the size of a cell,
/// and the margins left free for labels.
struct Frame {
    embedding: Embedding,
    /// Smallest plane x and y of a hole.
    min: (f64, f64),
    /// Plane width and height of the holes' box.
    span: (f64, f64),
    unit: f64,
    /// Room left, above, right and below the board.
    margin: [f64; 4],
}

impl Frame {
    fn new(board: &PegBoard, unit: f64, margin: [f64; 4]) -> Frame {
        let embedding = embedding_of(board);
        let pts: Vec<(f64, f64)> = board.cells.iter().map(|&c| embedding.point(c)).collect();
        let lo = |f: fn(&(f64, f64)) -> f64| pts.iter().map(f).fold(f64::MAX, f64::min);
        let hi = |f: fn(&(f64, f64)) -> f64| pts.iter().map(f).fold(f64::MIN, f64::max);
        let min = (lo(|p| p.0), lo(|p| p.1));
        let span = (hi(|p| p.0) - min.0, hi(|p| p.1) - min.1);
        Frame {
            embedding,
            min,
            span,
            unit,
            margin,
        }
    }

    /// The board's width and height in pixels, a cell's room around every hole.
    fn board_size(&self) -> (f64, f64) {
        (
            (self.span.0 + 1.0) * self.unit,
            (self.span.1 + 1.0) * self.unit,
        )
    }

    /// The frame's size: board and margins.
    fn size(&self) -> (f64, f64) {
        let (w, h) = self.board_size();
        let [l, t, r, b] = self.margin;
        (w + l + r, h + t + b)
    }

    /// The centre of hole `c` in a frame whose top left corner is at `origin`.
    fn place(&self, c: Cell, origin: (f64, f64)) -> (f64, f64) {
        let (x, y) = self.embedding.point(c);
        (
            origin.0 + self.margin[0] + (x - self.min.0 + 0.5) * self.unit,
            origin.1 + self.margin[1] + (y - self.min.1 + 0.5) * self.unit,
        )
    }
}

/// A white document of the given size with a title.
fn document(w: f64, h: f64, caption: &str) -> Document {
    let (w, h) = (w.ceil(), h.ceil());
    Document::new()
        .set("viewBox", (0.0, 0.0, w, h))
        .set("width", w)
        .set("height", h)
        .set("font-family", "sans-serif")
        .add(Title::new(caption.to_string()))
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "white"),
        )
}

fn text(s: &str, (x, y): (f64, f64), size: f64, anchor: &str) -> Text {
    Text::new(s.to_string())
        .set("x", format!("{x:.1}"))
        .set("y", format!("{y:.1}"))
        .set("font-size", size)
        .set("text-anchor", anchor)
}

fn circle((x, y): (f64, f64), r: f64) -> Circle {
    Circle::new()
        .set("cx", format!("{x:.1}"))
        .set("cy", format!("{y:.1}"))
        .set("r", r)
}

/// How many frames of width `fw` go in one row: as many as fit in about 900 pixels, at
/// least one, at most `n`.
fn columns(fw: f64, n: usize) -> usize {
    ((900.0 / fw).floor() as usize).clamp(1, n.max(1))
}

/// A vacancy's name: "(x, y)", with Bell's name before it when the board has one.
fn hole_name(board: &PegBoard, c: Cell) -> String {
    match super::notation::Notation::of(board) {
        Some(n) => format!("{} ({}, {})", n.hole(c), c.0, c.1),
        None => format!("({}, {})", c.0, c.1),
    }
}

/// The caption of a board play: the board, the problem, the jumps and moves.
pub fn play_caption(board: &PegBoard, vacancy: Cell, play: &[Step]) -> String {
    let finish = play.last().map_or(vacancy, |s| s.to);
    let moves = crate::proof::verify::count_moves(play);
    format!(
        "{}: from every hole but {} to one man on {}, {} jump{} in {} move{}",
        board.name,
        hole_name(board, vacancy),
        hole_name(board, finish),
        play.len(),
        if play.len() == 1 { "" } else { "s" },
        moves,
        if moves == 1 { "" } else { "s" }
    )
}

/// Writes a board play's picture `DIR/<stem>-play.svg` (the strip of frames) and its viewer
/// page `DIR/<stem>.html`, each atomically. The page links `<stem>-play.csv` and the start
/// position's CSV `start_csv` (a name in DIR), which the caller writes.
pub fn write_play(
    dir: &std::path::Path,
    (stem, start_csv): (&str, &str),
    board: &PegBoard,
    vacancy: Cell,
    play: &[Step],
) -> Result<(), crate::error::Error> {
    let caption = play_caption(board, vacancy, play);
    let svg = play_svg(board, vacancy, play, &caption);
    crate::files::write_atomic(&dir.join(format!("{stem}-play.svg")), svg.as_bytes())?;
    let mut data = crate::report::viewer::board_data(board, vacancy, play, stem);
    data["files"]["army_csv"] = start_csv.into();
    let html = crate::report::viewer::page_of(data);
    crate::files::write_atomic(&dir.join(format!("{stem}.html")), html.as_bytes())
}

/// A picture of the catalogue: one small board per vacancy (up to symmetry), the vacancy
/// ringed red, every finish of a solvable problem from it filled, the other holes hollow.
pub fn catalogue_svg(board: &PegBoard, outcomes: &[Outcome]) -> String {
    let mut vacancies: Vec<Cell> = outcomes.iter().map(|o| o.vacancy).collect();
    vacancies.dedup();
    let solvable = crate::play::peg::catalog::solvable(outcomes);
    let lines = [
        format!(
            "{}: {solvable} solvable problem{} up to symmetry",
            board.name,
            if solvable == 1 { "" } else { "s" }
        ),
        "ringed red: the vacancy; filled: a finish solvable from it; y grows downward".into(),
    ];
    let frame = Frame::new(board, 12.0, [6.0, 16.0, 6.0, 6.0]);
    let labels: Vec<String> = vacancies.iter().map(|&v| hole_name(board, v)).collect();
    let widest = labels
        .iter()
        .map(|l| text_width(l, 10.0))
        .fold(0.0, f64::max);
    let (fw, fh) = frame.size();
    let fw = fw.max(widest + 8.0);
    let cols = columns(fw, vacancies.len());
    let rows = vacancies.len().div_ceil(cols);
    let head = 40.0;
    let title_w = lines
        .iter()
        .map(|l| text_width(l, 11.0))
        .fold(0.0, f64::max)
        + 8.0;
    let mut doc = document(
        (fw * cols as f64).max(title_w),
        head + fh * rows as f64,
        &lines[0],
    );
    doc = doc
        .add(text(&lines[0], (4.0, 15.0), 11.0, "start"))
        .add(text(&lines[1], (4.0, 31.0), 11.0, "start").set("fill", "#444"));
    for (k, (&v, label)) in vacancies.iter().zip(&labels).enumerate() {
        let origin = ((k % cols) as f64 * fw, head + (k / cols) as f64 * fh);
        // Centre the board in a frame widened for its label.
        let shift = (fw - frame.size().0) / 2.0;
        let mut g = Group::new().add(text(
            label,
            (origin.0 + fw / 2.0, origin.1 + 11.0),
            10.0,
            "middle",
        ));
        for &c in &board.cells {
            let p = frame.place(c, (origin.0 + shift, origin.1));
            let good = outcomes
                .iter()
                .any(|o| o.vacancy == v && o.finish == c && o.verdict.solvable() == Some(true));
            g = g.add(
                circle(p, 3.6)
                    .set("fill", if good { "#2a7" } else { "white" })
                    .set("stroke", "#555")
                    .set("stroke-width", 0.8)
                    .add(Title::new(hole_name(board, c))),
            );
            if c == v {
                g = g.add(
                    circle(p, 5.6)
                        .set("fill", "none")
                        .set("stroke", "#c22")
                        .set("stroke-width", 1.5),
                );
            }
        }
        doc = doc.add(g);
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::peg::settle::Verdict;

    fn board(name: &str) -> PegBoard {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(format!("{name}.toml"));
        PegBoard::read(&path).unwrap()
    }

    /// The centre (cx, cy) of every circle whose title is `name`.
    fn centres(svg: &str, name: &str) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        let mut last = None;
        for ev in svg::read(svg).unwrap() {
            match ev {
                svg::parser::Event::Tag("circle", _, attrs) => {
                    let get = |k: &str| attrs.get(k).and_then(|v| v.to_string().parse().ok());
                    last = get("cx").zip(get("cy"));
                }
                svg::parser::Event::Text(t) if t == name => out.extend(last),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn catalogue_draws_y_downward_and_wide_enough_for_its_labels() {
        let b = board("diamond32");
        let v = Cell::xy(-1, -2);
        let o = Outcome {
            vacancy: v,
            finish: v,
            verdict: Verdict::Undecided {
                why: "not asked".into(),
            },
            ips: 0,
            cuts: 0,
            seconds: 0.0,
        };
        let svg = catalogue_svg(&b, std::slice::from_ref(&o));
        // (0, -3) is the top hole, (0, 4) the bottom one.
        let top = centres(&svg, "d1 (0, -3)");
        let bottom = centres(&svg, "d8 (0, 4)");
        assert_eq!((top.len(), bottom.len()), (1, 1), "{svg}");
        assert!(top[0].1 < bottom[0].1);
        // The picture is as wide as its longest line.
        let width: f64 = svg
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            width
                >= text_width(
                    "ringed red: the vacancy; filled: a finish solvable from it; y grows downward",
                    11.0
                )
        );
    }
}
