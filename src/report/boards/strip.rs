//! A board play as a strip of small frames, the way army plays are drawn: the start, then
//! the position after each move (a run of jumps by one man). In each frame the move's path
//! is drawn jump by jump with arrowheads, the men it removed are left as pale red ghosts,
//! the man who moved is ringed, and the finish is ringed red; the start's frame also rings
//! the vacancy and carries the coordinates (x below, y on the left) and, on a square board
//! of at most 9 × 9 holes, Bell's letters above and row numbers on the right. Each frame's
//! caption names its move, in Bell's notation where there is one, else in coordinates. The
//! holes, a man and a ghost are drawn once and referred to, so a strip of 40 frames stays
//! small.

use super::{Frame, circle, columns, document, text, text_width};
use crate::play::peg::PegBoard;
use crate::problem::geometry::{Cell, Embedding};
use crate::proof::verify::Step;
use crate::report::notation::Notation;
use crate::report::render::Arrow;
use crate::report::text::{move_coordinates, moves_of};
use std::collections::BTreeSet;
use svg::node::element::{Definitions, Group, Line, Title, Use};

/// One cell, in pixels.
const UNIT: f64 = 14.0;
/// The colour of a move's path and of the ring round the man who moved.
const PATH: &str = "#7c3aed";
/// The caption's font size and the room it takes below a frame.
const CAPTION: f64 = 10.0;
const CAPTION_ROOM: f64 = 16.0;

/// A board strip's jumps: violet, thin, stopping 0.3 of a hole short.
const ARROW: Arrow = Arrow {
    colour: PATH,
    head: 5.0,
    back: UNIT * 0.3,
    width: 1.6,
};

/// The labels of the start's frame: y left of each row and x below (on a skewed board, each
/// column's x above it, where the column's slanted line enters the board), and Bell's letters
/// and numbers.
fn coordinates(board: &PegBoard, frame: &Frame, origin: (f64, f64)) -> Group {
    let place = |c: Cell| frame.place(c, origin);
    let cells: BTreeSet<Cell> = board.cells.iter().copied().collect();
    let mut g = Group::new().set("fill", "#555");
    let (_, h) = frame.board_size();
    let top = origin.1 + frame.margin[1];
    let bottom = top + h;
    let rows: BTreeSet<i32> = cells.iter().map(|c| c.1).collect();
    let left = origin.0 + frame.margin[0] - 3.0;
    let right = origin.0 + frame.margin[0] + frame.board_size().0 + 3.0;
    let bell = Notation::of(board);
    for &y in &rows {
        let first = *cells.iter().find(|c| c.1 == y).expect("a row has a hole");
        let py = place(first).1 + 3.0;
        let at = if frame.embedding == Embedding::Square {
            left
        } else {
            place(first).0 - UNIT * 0.55
        };
        g = g.add(text(&y.to_string(), (at, py), 8.0, "end"));
        if let Some(n) = bell {
            g = g.add(text(&n.row(y).to_string(), (right, py), 8.0, "start"));
        }
    }
    let cols: BTreeSet<i32> = cells.iter().map(|c| c.0).collect();
    for &x in &cols {
        let last = *cells
            .iter()
            .rev()
            .find(|c| c.0 == x)
            .expect("a column has a hole");
        if frame.embedding == Embedding::Square {
            g = g.add(text(
                &x.to_string(),
                (place(last).0, bottom + 9.0),
                8.0,
                "middle",
            ));
        } else {
            // On a skewed board a column is a slanted line: its x goes where the line would
            // enter the board from above, with a tick along the line to its first hole.
            let first = *cells
                .iter()
                .find(|c| c.0 == x)
                .expect("a column has a hole");
            let (a, b) = (place(Cell::xy(x, first.1 - 1)), place(first));
            let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let (p, q) = (at(0.35), at(0.62));
            g = g
                .add(text(&x.to_string(), (a.0, a.1 + 3.0), 8.0, "middle"))
                .add(
                    Line::new()
                        .set("x1", format!("{:.1}", p.0))
                        .set("y1", format!("{:.1}", p.1))
                        .set("x2", format!("{:.1}", q.0))
                        .set("y2", format!("{:.1}", q.1))
                        .set("stroke", "#999")
                        .set("stroke-width", 0.7),
                );
        }
        if let Some(n) = bell {
            let t = (place(last).0, top - 3.0);
            g = g.add(text(&n.column(x).to_string(), t, 8.0, "middle"));
        }
    }
    g
}

/// One frame: the holes, the men, the finish, and the move that led here (its path, the men
/// it removed as ghosts, the man who moved ringed).
fn frame_group(
    frame: &Frame,
    origin: (f64, f64),
    men: &BTreeSet<Cell>,
    (finish, mv): (Cell, &[Step]),
) -> Group {
    let place = |c: Cell| frame.place(c, origin);
    let at = |v: f64| format!("{v:.1}");
    let mut g = Group::new().add(
        Use::new()
            .set("href", "#holes")
            .set("x", at(origin.0))
            .set("y", at(origin.1)),
    );
    for s in mv {
        g = g.add(
            Use::new()
                .set("href", "#ghost")
                .set("x", at(place(s.over).0))
                .set("y", at(place(s.over).1)),
        );
    }
    for &c in men {
        let (x, y) = place(c);
        g = g.add(
            Use::new()
                .set("href", "#peg")
                .set("class", "man")
                .set("x", at(x))
                .set("y", at(y)),
        );
    }
    for s in mv {
        g = g.add(ARROW.line(place(s.from), place(s.to)));
    }
    if let Some(last) = mv.last() {
        g = g.add(
            circle(place(last.to), UNIT * 0.44)
                .set("fill", "none")
                .set("stroke", PATH)
                .set("stroke-width", 1.4),
        );
    }
    g.add(
        circle(place(finish), UNIT * 0.5)
            .set("fill", "none")
            .set("stroke", "#d00")
            .set("stroke-width", 1.5),
    )
}

/// What every frame refers to (`<use>`), drawn once: the board's holes at the origin, a man,
/// and the ghost of a man a move removed; and the arrowhead.
fn definitions(board: &PegBoard, frame: &Frame) -> Definitions {
    let mut holes = Group::new().set("id", "holes");
    for &c in &board.cells {
        holes = holes.add(
            circle(frame.place(c, (0.0, 0.0)), UNIT * 0.16)
                .set("fill", "#ddd")
                .set("stroke", "#999")
                .set("stroke-width", 0.6),
        );
    }
    let peg = circle((0.0, 0.0), UNIT * 0.34)
        .set("id", "peg")
        .set("fill", "#111");
    let ghost = circle((0.0, 0.0), UNIT * 0.3)
        .set("id", "ghost")
        .set("fill", "#f6d5d5")
        .set("stroke", "#c66")
        .set("stroke-dasharray", "2 1.5")
        .set("stroke-width", 0.9);
    Definitions::new()
        .add(ARROW.head())
        .add(holes)
        .add(peg)
        .add(ghost)
}

/// Each frame's caption: the start's men, then each move by its number and its holes.
fn captions(board: &PegBoard, moves: &[&[Step]], bell: Option<Notation>) -> Vec<String> {
    let mut labels = vec![format!("start: {} men", board.cells.len() - 1)];
    for (k, m) in moves.iter().enumerate() {
        let name = match bell {
            Some(n) => n.move_name(m),
            None => move_coordinates(m),
        };
        labels.push(format!("{}. {name}", k + 1));
    }
    labels
}

/// The play as a strip of frames: the start, then the position after each move; see the
/// module documentation. `caption` is the picture's title.
pub fn play_svg(board: &PegBoard, vacancy: Cell, play: &[Step], caption: &str) -> String {
    let bell = Notation::of(board);
    let moves = moves_of(play);
    let finish = play.last().map_or(vacancy, |s| s.to);
    let labels = captions(board, &moves, bell);
    let skewed = super::embedding_of(board) != Embedding::Square;
    let frame = Frame::new(
        board,
        UNIT,
        [24.0, if skewed { 18.0 } else { 14.0 }, 14.0, 14.0],
    );
    let (bw, bh) = frame.size();
    let widest = labels
        .iter()
        .map(|l| text_width(l, CAPTION))
        .fold(0.0, f64::max);
    let fw = bw.max(widest + 10.0) + 6.0;
    let fh = bh + CAPTION_ROOM + 6.0;
    let cols = columns(fw, labels.len());
    let rows = labels.len().div_ceil(cols);
    let mut lines = vec![caption.to_string()];
    if let Some(n) = bell {
        lines.push(format!("Moves in {}; y grows downward.", n.describe()));
    } else {
        lines.push("Moves as the man's holes (x,y) in order; y grows downward.".into());
    }
    let head = 12.0 + 15.0 * lines.len() as f64;
    let title_w = lines
        .iter()
        .map(|l| text_width(l, 11.0))
        .fold(0.0, f64::max)
        + 8.0;
    let mut doc = document(
        (fw * cols as f64).max(title_w),
        head + fh * rows as f64,
        caption,
    )
    .add(definitions(board, &frame));
    for (i, l) in lines.iter().enumerate() {
        doc = doc.add(text(l, (4.0, 15.0 + 15.0 * i as f64), 11.0, "start"));
    }
    let mut men: BTreeSet<Cell> = board.start(vacancy).into_iter().collect();
    for (k, label) in labels.iter().enumerate() {
        let cell = ((k % cols) as f64 * fw, head + (k / cols) as f64 * fh);
        let origin = (cell.0 + (fw - bw) / 2.0, cell.1);
        let mv: &[Step] = if k == 0 { &[] } else { moves[k - 1] };
        for s in mv {
            men.remove(&s.from);
            men.remove(&s.over);
            men.insert(s.to);
        }
        let mut g = frame_group(&frame, origin, &men, (finish, mv));
        if k == 0 {
            g = g
                .add(
                    circle(frame.place(vacancy, origin), UNIT * 0.42)
                        .set("fill", "none")
                        .set("stroke", "#d00")
                        .set("stroke-dasharray", "2.5 1.5")
                        .set("stroke-width", 1.2)
                        .add(Title::new("the vacancy")),
                )
                .add(coordinates(board, &frame, origin));
        }
        let at = (cell.0 + fw / 2.0, cell.1 + bh + 11.0);
        doc = doc.add(g.add(text(label, at, CAPTION, "middle").set("class", "caption")));
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> PegBoard {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml");
        PegBoard::read(&path).unwrap()
    }

    #[test]
    fn strip_has_a_frame_per_move_with_arrowheads() {
        let b = english();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("results/boards/moves/english-v0_0-f0_0-moves-play.csv");
        let play = crate::report::export::read_play(&path).unwrap();
        let svg = play_svg(&b, Cell::ORIGIN, &play, "english: the central game");
        // The start and 18 moves, 31 arrows.
        assert_eq!(svg.matches("class=\"caption\"").count(), 19);
        assert!(svg.contains(">\n1. b4-d4\n</text>") && svg.contains(">\n2. c2-c4\n</text>"));
        assert_eq!(svg.matches("marker-end=\"url(#head)\"").count(), 31);
        // Every frame draws the men left after its move.
        let mut men = 32;
        let mut want = men;
        for m in moves_of(&play) {
            men -= m.len();
            want += men;
        }
        assert_eq!(svg.matches("class=\"man\"").count(), want);
    }
}
