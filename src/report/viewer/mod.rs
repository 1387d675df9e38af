//! The play viewer: one self-contained HTML page that steps through a play, jump by jump.
//!
//! `solve --out DIR` writes it as `DIR/<army>-<level>.html` beside the CSV and SVG files (for a
//! board problem `DIR/<board>-v<x>_<y>-f<x>_<y>.html`, [`board_data`]). The
//! page needs no network: its style, its script and its data are inline, and the board is an
//! SVG drawn by the script from the data, on every lattice (square cells, hexagons, Pablito's
//! triangle of circles), at the plane coordinates of [`Embedding::point`].
//!
//! What Rust computes and embeds as JSON (in `<script id="data" type="application/json">`):
//! the cells of the picture's window with their plane coordinates, pagoda exponents and
//! shades; the army with each man's [`crate::report::regiment`]; the jumps with their move numbers;
//! and for every step k (the position after k jumps, k = 0 the army) the number of men and
//! the position's weight and slack, exact, as a + bσ and as a decimal. Weights are taken under
//! the improved pagoda function of the play's last jump, σ^(1 + distance from d) where d is the
//! cell the last jump passes over ([`Pagoda::improved`]): it makes the position {d, 2d} weigh
//! exactly σ + σ² = 1, so the slack, weight − 1, is what the rest of the play may still lose.
//! It is >= 0 up to the position before the last jump (0 there for a minimum army); the last
//! jump loses σ and leaves the lone man on the target, of exponent 2, with weight σ² and
//! slack σ² − 1 < 0. The page's legend says so.
//!
//! What the script does: previous/next (a jump, or a whole move: a run of jumps by one man),
//! play/pause at a chosen speed, a slider over the jumps with the move number shown, and the
//! keyboard (←/→ a jump, ↑/↓ a move, space play/pause, Home/End). The moving man is ringed,
//! his move's start marked, his path drawn with arrowheads, and the men he removes fade out.
//! Men are coloured by regiment; a legend explains shading, colours, weight and slack. For
//! tests it exposes `window.viewer = {step, total, moves, men(), go(n)}`, and every man drawn
//! is an SVG element of class `man` with `data-x` and `data-y` (fading men are of class
//! `fallen`, not `man`).
//!
//! Here: the data, computed in Rust; the page around it (its HTML, style and script) is
//! the `page` module's.

use crate::problem::Army;
use crate::problem::geometry::{Cell, Embedding};
use crate::proof::verify::{Step, count_moves};
use crate::report::paint::shade;
use crate::report::regiment::{Regiment, regiments};
use crate::report::render::{regiment_colour, window};
use crate::weight::golden::Golden;
use crate::weight::pagoda::Pagoda;
use serde_json::{Value, json};

mod page;
use page::page;

/// Rounds a plane coordinate for the page (a ten-thousandth of a cell is far below a pixel).
fn round4(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

/// Weight and slack of one position, exact and as decimals.
fn weighed(men: usize, w: Golden) -> Value {
    let slack = w - Golden::ONE;
    json!({
        "men": men,
        "weight": w.to_string(),
        "weight_value": w.to_f64(),
        "slack": slack.to_string(),
        "slack_value": slack.to_f64(),
        "slack_sigma": (slack.signum() >= 0).then(|| slack.sigma_string()),
    })
}

/// The page's data (the JSON embedded in it): cells, army, regiments, jumps, and the weight
/// and slack of every step; see the module documentation.
pub fn data(army: Army, level: i32, men: &[Cell], play: &[Step], caption: &str) -> Value {
    let lattice = army.lattice();
    let e = lattice.embedding;
    let d = play.last().map_or(lattice.directions[0], |s| s.over);
    let pagoda = Pagoda::improved(&lattice, d);
    let cells = window(&lattice, men, play);
    let top = cells
        .iter()
        .filter_map(|&c| pagoda.exponent(c))
        .max()
        .unwrap_or(1)
        .max(1);
    let cell_rows: Vec<Value> = cells
        .iter()
        .map(|&c| {
            let (px, py) = e.point(c);
            let x = pagoda.exponent(c);
            json!([c.0, c.1, round4(px), round4(py), x, shade(x, top)])
        })
        .collect();
    let regs = regiments(men, play);
    let name = |r: Regiment| match r {
        Regiment::Target => "target",
        Regiment::Over => "over",
        Regiment::Spare => "spare",
    };
    let army_rows: Vec<Value> = men
        .iter()
        .zip(&regs)
        .map(|(&c, &r)| json!([c.0, c.1, name(r)]))
        .collect();
    let jumps = jump_rows(play);
    // Every step's weight, exactly: a jump takes the weights of its from and over cells off
    // and puts its to cell's on.
    let mut w: Golden = men.iter().map(|&c| pagoda.weight(c)).sum();
    let mut steps = vec![weighed(men.len(), w)];
    for (k, s) in play.iter().enumerate() {
        w = w - pagoda.weight(s.from) - pagoda.weight(s.over) + pagoda.weight(s.to);
        steps.push(weighed(men.len().saturating_sub(k + 1), w));
    }
    let stem = format!("{army}-{level}");
    let colours: serde_json::Map<String, Value> =
        [Regiment::Target, Regiment::Over, Regiment::Spare]
            .into_iter()
            .map(|r| (name(r).to_string(), json!(regiment_colour(r))))
            .collect();
    json!({
        "army": army.name(),
        "level": level,
        "caption": caption,
        "embedding": match e {
            Embedding::Square => "square",
            Embedding::Hexagonal => "hexagonal",
            Embedding::Triangle => "triangle",
            Embedding::Cubic => "cubic",
        },
        "d": [d.0, d.1],
        "offset": pagoda.offset,
        "top": top,
        // The desert edge, between rows level − 1 and level, in plane coordinates.
        "edge_y": round4((level as f64 - 0.5) * e.point(Cell::xy(0, 1)).1),
        "cells": cell_rows,
        "men": army_rows,
        "jumps": jumps,
        "moves": count_moves(play),
        "steps": steps,
        "colours": colours,
        "files": {
            "army_csv": format!("{stem}-army.csv"),
            "play_csv": format!("{stem}-play.csv"),
            "army_svg": format!("{stem}-army.svg"),
            "play_svg": format!("{stem}-play.svg"),
        },
    })
}

/// The page's data for a play on a finite board ([`crate::play::peg`]): the same fields as
/// [`data`], with the board's holes as the cells (no exponents, one shade), every man in no
/// regiment, no weights, and a `board` entry naming the vacancy and the finish, which tells
/// the script to ring the finish instead of (0, 0) and to leave out the pagoda's legend.
pub fn board_data(
    board: &crate::play::peg::PegBoard,
    vacancy: Cell,
    play: &[Step],
    stem: &str,
) -> Value {
    let e = match board.embedding.as_str() {
        "hexagonal" => Embedding::Hexagonal,
        "triangle" => Embedding::Triangle,
        _ => Embedding::Square,
    };
    let cells: Vec<Value> = board
        .cells
        .iter()
        .map(|&c| {
            let (px, py) = e.point(c);
            json!([c.0, c.1, round4(px), round4(py), null, "#f3efe6"])
        })
        .collect();
    let men: Vec<Value> = board
        .cells
        .iter()
        .filter(|&&c| c != vacancy)
        .map(|&c| json!([c.0, c.1, "spare"]))
        .collect();
    let jumps = jump_rows(play);
    let steps: Vec<Value> = (0..=play.len())
        .map(|k| json!({"men": men.len() - k}))
        .collect();
    let finish = play.last().map_or(vacancy, |s| s.to);
    let bell = crate::report::notation::Notation::of(board).map(|n| {
        let (x0, y0) = n.origin();
        json!({"x0": x0, "y0": y0, "name": n.describe()})
    });
    json!({
        "army": board.name,
        "bell": bell,
        "caption": format!(
            "{}: from every hole but ({}, {}) to one man on ({}, {}), {} jumps, {} moves",
            board.name, vacancy.0, vacancy.1, finish.0, finish.1, play.len(), count_moves(play)
        ),
        "embedding": match e {
            Embedding::Square => "square",
            Embedding::Hexagonal => "hexagonal",
            Embedding::Triangle => "triangle",
            Embedding::Cubic => "cubic",
        },
        "board": {"vacancy": [vacancy.0, vacancy.1], "finish": [finish.0, finish.1]},
        "cells": cells,
        "men": men,
        "jumps": jumps,
        "moves": count_moves(play),
        "steps": steps,
        "colours": {"spare": regiment_colour(Regiment::Spare)},
        "files": {
            "army_csv": format!("{stem}-start.csv"),
            "play_csv": format!("{stem}-play.csv"),
            "play_svg": format!("{stem}-play.svg"),
        },
    })
}

/// The whole page for a play on a finite board: [`board_data`] in the viewer.
pub fn board_html(
    board: &crate::play::peg::PegBoard,
    vacancy: Cell,
    play: &[Step],
    stem: &str,
) -> String {
    page(board_data(board, vacancy, play, stem))
}

/// The whole page around any data of the shape [`data`] and [`board_data`] make.
pub fn page_of(data: Value) -> String {
    page(data)
}

/// The whole page for a play: [`data`] embedded in the viewer's HTML, style and script.
pub fn html(army: Army, level: i32, men: &[Cell], play: &[Step], caption: &str) -> String {
    page(data(army, level, men, play, caption))
}

/// The play's jumps as the page's rows: from, over, to and the move each belongs to (a move
/// is a run of jumps by one man).
fn jump_rows(play: &[Step]) -> Vec<Value> {
    let mut mv = 0;
    play.iter()
        .enumerate()
        .map(|(i, s)| {
            if i == 0 || play[i - 1].to != s.from {
                mv += 1;
            }
            json!([s.from.0, s.from.1, s.over.0, s.over.1, s.to.0, s.to.1, mv])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Conway's level 2 minimum (results/armies/conway-2-*.csv).
    fn conway_2() -> (Vec<Cell>, Vec<Step>) {
        let s = |from: Cell, over: Cell, to: Cell| Step { from, over, to };
        (
            vec![
                Cell::xy(0, 2),
                Cell::xy(1, 2),
                Cell::xy(2, 2),
                Cell::xy(0, 3),
            ],
            vec![
                s(Cell::xy(0, 3), Cell::xy(0, 2), Cell::xy(0, 1)),
                s(Cell::xy(2, 2), Cell::xy(1, 2), Cell::xy(0, 2)),
                s(Cell::xy(0, 2), Cell::xy(0, 1), Cell::ORIGIN),
            ],
        )
    }

    #[test]
    fn viewer_data_weighs_every_step_exactly() {
        let (men, play) = conway_2();
        let v = data(Army::conway(), 2, &men, &play, "conway 2");
        let col = |k: &str| -> Vec<Value> {
            v["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s[k].clone())
                .collect()
        };
        // Under 1 + distance from d = (0,1) the army weighs 2σ² + σ³ = 1, and so does every
        // position up to {d, 2d}; the lone man on the target weighs σ² = 1 − σ.
        assert_eq!(
            col("weight"),
            [json!("1"), json!("1"), json!("1"), json!("1 - 1σ")]
        );
        assert_eq!(
            col("slack"),
            [json!("0"), json!("0"), json!("0"), json!("-1σ")]
        );
        assert_eq!(
            col("slack_sigma")[..3],
            [json!("0"), json!("0"), json!("0")]
        );
        assert!(col("slack_sigma")[3].is_null());
        assert_eq!(col("men"), [json!(4), json!(3), json!(2), json!(1)]);
        let w = v["steps"][3]["weight_value"].as_f64().unwrap();
        assert!((w - 0.381966).abs() < 1e-6);
        assert_eq!(v["d"], json!([0, 1]));
        assert_eq!(v["moves"], json!(2));
        assert_eq!(v["jumps"][2], json!([0, 2, 0, 1, 0, 0, 2]));
        // The man from (0,3) ends on d, spending (0,2); the man from (2,2) ends on the
        // target, spending (1,2).
        let regs: Vec<&str> = v["men"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m[2].as_str().unwrap())
            .collect();
        assert_eq!(regs, ["over", "target", "target", "over"]);
    }

    #[test]
    fn viewer_page_is_self_contained() {
        let (men, play) = conway_2();
        let page = html(Army::conway(), 2, &men, &play, "conway <2> & co");
        assert!(!page.contains("http:") && !page.contains("https:"));
        assert!(!page.contains("<script src") && !page.contains("<link"));
        assert!(page.contains("<title>conway &lt;2&gt; &amp; co</title>"));
        // The data sits whole in its script element, and parses back.
        let start = page
            .find(r#"<script type="application/json" id="data">"#)
            .unwrap();
        let body = &page[start..];
        let json = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
        let v: Value = serde_json::from_str(json).unwrap();
        assert_eq!(v["caption"], json!("conway <2> & co"));
        assert_eq!(v["files"]["play_csv"], json!("conway-2-play.csv"));
    }

    #[test]
    fn a_board_play_gets_a_page_with_its_holes_and_no_weights() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/triangle5.toml");
        let board = crate::play::peg::PegBoard::read(&path).unwrap();
        let v = board.cells[0];
        let o = crate::play::peg::settle::settle(&board, v, v, &Default::default()).unwrap();
        let crate::play::peg::settle::Verdict::Solvable { play } = o.verdict else {
            panic!("the triangle's corner complement is solvable");
        };
        let d = board_data(&board, v, &play, "t");
        assert_eq!(d["cells"].as_array().unwrap().len(), 15);
        assert_eq!(d["men"].as_array().unwrap().len(), 14);
        assert_eq!(d["jumps"].as_array().unwrap().len(), 13);
        assert_eq!(d["board"]["finish"], json!([v.0, v.1]));
        assert_eq!(d["steps"][13]["men"], json!(1));
        let page = board_html(&board, v, &play, "t");
        assert!(page.contains("t-play.csv") && !page.contains("https:"));
    }
}
