//! Pictures in characters, for the terminal (`solve --show`, `moves --show`): a position as
//! rows of `o` (a man) and `.` (an empty cell), the target or finish marked, and a play as
//! numbered moves.
//!
//! The rows run as in every picture solarmy draws: y grows downward, x to the right. Each
//! cell takes two columns; on the hexagonal and triangular lattices (and the 15-hole
//! triangle) a row is shifted half a cell per row as in the plane, so each row ends with the
//! x of its first and last cell. On a square board of at most 9 × 9 holes the rows and
//! columns are also named in Bell's notation ([`super::notation`]), and so are the moves.

use super::notation::Notation;
use crate::play::peg::PegBoard;
use crate::problem::geometry::{Cell, Embedding, Lattice};
use crate::proof::verify::Step;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The marks: a man, an empty cell, the empty target, a man on the target.
const MAN: char = 'o';
const EMPTY: char = '.';
const GOAL: char = '*';
const MAN_ON_GOAL: char = '@';

/// What to draw: the cells of the grid, the men, the goal (target or finish).
struct Grid<'a> {
    embedding: Embedding,
    cells: &'a BTreeSet<Cell>,
    men: &'a BTreeSet<Cell>,
    goal: Cell,
}

impl Grid<'_> {
    /// The column (in characters) of a cell: twice its plane x, less the smallest.
    fn column(&self, c: Cell) -> i32 {
        match self.embedding {
            Embedding::Hexagonal => 2 * c.0 + c.1,
            Embedding::Triangle => 2 * c.0 - c.1,
            Embedding::Square | Embedding::Cubic => 2 * c.0,
        }
    }

    fn mark(&self, c: Cell) -> char {
        match (self.men.contains(&c), c == self.goal) {
            (true, true) => MAN_ON_GOAL,
            (true, false) => MAN,
            (false, true) => GOAL,
            (false, false) => EMPTY,
        }
    }

    /// The rows, top (smallest y) first: (y, the row's characters, its first and last x).
    fn rows(&self) -> Vec<(i32, String, i32, i32)> {
        let left = self
            .cells
            .iter()
            .map(|&c| self.column(c))
            .min()
            .unwrap_or(0);
        let ys: BTreeSet<i32> = self.cells.iter().map(|c| c.1).collect();
        ys.into_iter()
            .map(|y| {
                let row: Vec<Cell> = self.cells.iter().copied().filter(|c| c.1 == y).collect();
                let mut line = String::new();
                for &c in &row {
                    let at = (self.column(c) - left) as usize;
                    while line.chars().count() < at {
                        line.push(' ');
                    }
                    line.push(self.mark(c));
                }
                let (x0, x1) = (row[0].0, row[row.len() - 1].0);
                (y, line.trim_end().to_string(), x0, x1)
            })
            .collect()
    }
}

/// An army on its lattice: every lattice cell of the box of the army and the target, rows
/// labelled with their y, the x of the columns said once (square) or per row (skewed).
pub fn army_text(lattice: &Lattice, army: &[Cell]) -> String {
    let men: BTreeSet<Cell> = army.iter().copied().collect();
    let e = lattice.embedding;
    let all = army.iter().chain(std::iter::once(&Cell::ORIGIN));
    let (x0, x1) = span(all.clone().map(|c| c.0));
    let (y0, y1) = span(all.clone().map(|c| c.1));
    // The plane's rectangle around the army and the target: on a skewed lattice a row's
    // cells lie further over as y grows, so the rows' x ranges differ.
    let (p0, p1) = all
        .map(|&c| e.point(c).0)
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p), b.max(p)));
    let skew = y1 - y0 + 1;
    let cells: BTreeSet<Cell> = (y0..=y1)
        .flat_map(|y| (x0 - skew..=x1 + skew).map(move |x| Cell::xy(x, y)))
        .filter(|&c| lattice.contains(c) && (p0 - 0.51..=p1 + 0.51).contains(&e.point(c).0))
        .collect();
    let grid = Grid {
        embedding: e,
        cells: &cells,
        men: &men,
        goal: Cell::ORIGIN,
    };
    let mut s = format!(
        "{} men ({MAN} a man, {EMPTY} an empty cell, {GOAL} the target (0, 0); y grows downward)\n",
        army.len()
    );
    let w = label_width(y0, y1);
    if e == Embedding::Square {
        let _ = writeln!(s, "{:w$}   x from {x0} (left) to {x1} (right)", "");
    }
    for (y, line, a, b) in grid.rows() {
        let _ = write!(s, "{:<w$} | {line}", format!("y={y}"));
        if e != Embedding::Square {
            let _ = write!(s, "   (x {a} to {b})");
        }
        s.push('\n');
    }
    s
}

fn span(v: impl Iterator<Item = i32>) -> (i32, i32) {
    v.fold((i32::MAX, i32::MIN), |(a, b), x| (a.min(x), b.max(x)))
}

fn label_width(y0: i32, y1: i32) -> usize {
    format!("y={y0}").len().max(format!("y={y1}").len())
}

/// A position on a board: its holes, `men` on them, the finish marked; on a square board of
/// at most 9 × 9 holes, Bell's letters above and row numbers on the left.
pub fn board_text(board: &PegBoard, men: &[Cell], finish: Cell) -> String {
    let cells: BTreeSet<Cell> = board.cells.iter().copied().collect();
    let men: BTreeSet<Cell> = men.iter().copied().collect();
    let embedding = match board.embedding.as_str() {
        "hexagonal" => Embedding::Hexagonal,
        "triangle" => Embedding::Triangle,
        _ => Embedding::Square,
    };
    let grid = Grid {
        embedding,
        cells: &cells,
        men: &men,
        goal: finish,
    };
    let bell = Notation::of(board);
    let (y0, y1) = span(cells.iter().map(|c| c.1));
    let w = label_width(y0, y1);
    let row_name = |y: i32| bell.map_or(String::new(), |n| format!("{:>2} ", n.row(y)));
    let pad = if bell.is_some() { 3 } else { 0 };
    let mut s = format!(
        "{} men ({MAN} a man, {EMPTY} an empty hole, {GOAL} the finish ({}, {}) empty, {MAN_ON_GOAL} a man on it; y grows downward)\n",
        men.len(),
        finish.0,
        finish.1
    );
    let (x0, x1) = span(cells.iter().map(|c| c.0));
    if let Some(n) = bell {
        let letters: Vec<String> = (x0..=x1).map(|x| n.column(x).to_string()).collect();
        let _ = writeln!(s, "{:pad$}{:w$}   {}", "", "", letters.join(" "));
    }
    for (y, line, a, b) in grid.rows() {
        let _ = write!(s, "{}{:<w$} | {line}", row_name(y), format!("y={y}"));
        if embedding != Embedding::Square {
            let _ = write!(s, "   (x {a} to {b})");
        }
        s.push('\n');
    }
    if embedding == Embedding::Square {
        let _ = writeln!(
            s,
            "{:pad$}{:w$}   x from {x0} (left) to {x1} (right)",
            "", ""
        );
    }
    s
}

/// The moves of a play, runs of jumps by one man.
pub fn moves_of(play: &[Step]) -> Vec<&[Step]> {
    let mut out: Vec<&[Step]> = Vec::new();
    let mut start = 0;
    for i in 1..=play.len() {
        if i == play.len() || play[i].from != play[i - 1].to {
            out.push(&play[start..i]);
            start = i;
        }
    }
    out
}

/// One move in coordinates: "(0,2)-(0,0)-(2,0)", the man's holes in order.
pub fn move_coordinates(jumps: &[Step]) -> String {
    let at = |c: Cell| format!("({},{})", c.0, c.1);
    let mut s = jumps.first().map_or(String::new(), |j| at(j.from));
    for j in jumps {
        s.push('-');
        s.push_str(&at(j.to));
    }
    s
}

/// A play as numbered moves, one a line: in Bell's notation first when there is one, then
/// in coordinates.
pub fn moves_text(play: &[Step], notation: Option<&Notation>) -> String {
    let moves = moves_of(play);
    let mut s = format!(
        "{} jump{} in {} move{}{}:\n",
        play.len(),
        if play.len() == 1 { "" } else { "s" },
        moves.len(),
        if moves.len() == 1 { "" } else { "s" },
        notation.map_or(String::new(), |n| format!(" ({})", n.describe()))
    );
    let width = moves.len().to_string().len();
    let named: Vec<String> = moves
        .iter()
        .map(|m| notation.map_or(String::new(), |n| n.move_name(m)))
        .collect();
    let name_width = named.iter().map(|n| n.len()).max().unwrap_or(0);
    for (k, (m, name)) in moves.iter().zip(&named).enumerate() {
        let _ = write!(s, "{:>width$}. ", k + 1);
        if notation.is_some() {
            let _ = write!(s, "{name:name_width$}   ");
        }
        let _ = writeln!(s, "{}", move_coordinates(m));
    }
    s
}

/// What `--show` prints for an army: the army in characters, then its play as numbered
/// moves (a 3-D army is drawn in its `-army.svg` only: its moves alone are printed).
pub fn show_army(lattice: &Lattice, army: &[Cell], play: &[Step]) -> String {
    let mut s = if lattice.dimension() == 2 {
        army_text(lattice, army)
    } else {
        format!(
            "{} men (a 3-D army is drawn layer by layer in its -army.svg)\n",
            army.len()
        )
    };
    if !play.is_empty() {
        s.push_str(&moves_text(play, None));
    }
    s
}

/// What `--show` prints for a board play: the start (every hole but the vacancy), the finish
/// marked, then the play as numbered moves, in Bell's notation where the board has one.
pub fn show_board(board: &PegBoard, vacancy: Cell, play: &[Step]) -> String {
    let start = board.start(vacancy);
    let finish = play.last().map_or(vacancy, |s| s.to);
    let mut s = board_text(board, &start, finish);
    s.push_str(&moves_text(play, Notation::of(board).as_ref()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    #[test]
    fn text_draws_conway_2_with_the_target_on_top() {
        let army = [
            Cell::xy(0, 2),
            Cell::xy(1, 2),
            Cell::xy(2, 2),
            Cell::xy(0, 3),
        ];
        let t = army_text(&Army::conway().lattice(), &army);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("4 men"));
        assert!(lines[1].contains("x from 0 (left) to 2 (right)"));
        assert_eq!(lines[2], "y=0 | * . .");
        assert_eq!(lines[4], "y=2 | o o o");
        assert_eq!(lines[5], "y=3 | o . .");
    }

    #[test]
    fn text_names_moves_in_bell_notation_and_coordinates() {
        let s = |a: (i32, i32), b: (i32, i32), c: (i32, i32)| Step {
            from: Cell::xy(a.0, a.1),
            over: Cell::xy(b.0, b.1),
            to: Cell::xy(c.0, c.1),
        };
        let play = [
            s((0, -2), (0, -1), (0, 0)),
            s((-2, -1), (-1, -1), (0, -1)),
            s((0, -1), (0, 0), (0, 1)),
        ];
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml");
        let board = PegBoard::read(&path).unwrap();
        let n = Notation::of(&board).unwrap();
        let t = moves_text(&play, Some(&n));
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("3 jumps in 2 moves (Bell's standard 7x7 notation"));
        assert_eq!(lines[1], "1. d2-d4      (0,-2)-(0,0)");
        assert_eq!(lines[2], "2. b3-d3-d5   (-2,-1)-(0,-1)-(0,1)");
        let start: Vec<Cell> = board
            .cells
            .iter()
            .copied()
            .filter(|&c| c != Cell::ORIGIN)
            .collect();
        let b = board_text(&board, &start, Cell::ORIGIN);
        let rows: Vec<&str> = b.lines().collect();
        assert_eq!(rows[1].trim_end(), "          a b c d e f g");
        assert_eq!(rows[2], " 1 y=-3 |     o o o");
        assert_eq!(rows[5], " 4 y=0  | o o o * o o o");
    }
}
