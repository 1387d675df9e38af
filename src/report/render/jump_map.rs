//! The jump map of a long play: one board with the army's men, every jump an arrow from its
//! start to its landing cell, coloured by its move number on a scale (dark violet to
//! orange) drawn below.

use super::board::{Layout, background, coordinates, document, extent, man, target_ring};
use super::legend::Legend;
use super::play::moves_of;
use super::{BOTTOM, LEFT, MAP_MAN_RADIUS, MOVE_SCALE, UNIT, window};
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::Step;
use crate::weight::pagoda::Pagoda;
use svg::node::element::{
    Definitions, Group, Line, LinearGradient, Polygon, Rectangle, Stop, Text, Title, Use,
};

/// The colour of move `k` of `n` (1-based) on the jump map's scale.
pub(super) fn move_colour(k: usize, n: usize) -> String {
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
pub(super) fn jump_map_svg(
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
