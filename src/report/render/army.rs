//! The army picture: the army on its lattice, men coloured by regiment under the play, the
//! last jump's d and 2d ringed, with coordinates and a legend for the shading and the
//! colours (3-D armies are drawn as layer slices by [`crate::report::layers`]).

use super::board::{Layout, background, coordinates, document, extent, frame, ring, top_exponent};
use super::legend::{Legend, legend_exponents};
use super::{BOTTOM, LEFT, regiment_colour, window};
use crate::problem::geometry::{Cell, Embedding, Lattice};
use crate::proof::verify::Step;
use crate::report::regiment::{Regiment, regiments};
use crate::weight::pagoda::Pagoda;
use svg::node::element::Definitions;

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
    if !matches!(lattice.embedding, Embedding::Square | Embedding::Cubic) {
        legend.line("Rows (y) are labelled on the left; a column (x) slants:");
        legend.line("follow the dotted line up from its x below.");
    }
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
