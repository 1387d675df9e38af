//! A play as a picture: a strip of frames, one per move, with the moving man's path drawn
//! with arrowheads, for a play of at most [`STRIP_MOVES`] moves; a longer one is a jump map
//! ([`super::jump_map`]).

use super::board::{Layout, background, document, extent, frame};
use super::jump_map::jump_map_svg;
use super::{Arrow, STRIP_MOVES, window};
use crate::problem::geometry::{Cell, Lattice};
use crate::proof::verify::Step;
use crate::weight::pagoda::Pagoda;
use std::collections::HashSet;
use svg::node::element::{Definitions, Text};

/// Splits a play into moves: runs of jumps by the same man.
pub(super) fn moves_of(play: &[Step]) -> Vec<Vec<Step>> {
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

/// The colour of a move's path in the strip.
const PATH: &str = "#e80";

/// The army strips' jumps: orange, heavy, stopping a quarter of a cell short.
const ARROW: Arrow = Arrow {
    colour: PATH,
    head: 4.0,
    back: super::UNIT * 0.25,
    width: 2.2,
};

/// The play as a strip of frames: the army, then the position after each move, with the
/// moving man's path drawn jump by jump with arrowheads.
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
    doc = doc.add(
        Definitions::new()
            .add(background(lattice, pagoda, level, &cells))
            .add(ARROW.head()),
    );
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
            for s in &moves[k - 1] {
                g = g.add(ARROW.line(place(s.from), place(s.to)));
            }
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
