//! Names for the columns and rows of a program as [`super::super::ip::build`] lays them out,
//! so that a VIPR file reads in the problem's own terms: `s_<cell>` for a start cell's man,
//! `j_<from>_<over>` for a jump's count, `bal_<cell>` for a cell's balance row, then
//! `men_max`, `men_min`, `class_<e>`, `lossy_cap` and `cut_<k>`. A cell is written as its
//! coordinates joined by ':' (`0:-3`), since a VIPR name is one word.

use super::super::format::IpDef;
use super::super::ip::Board;
use super::super::space::Space;
use crate::problem::geometry::Cell;

/// Column and row names of the program of `def` on `board`, in the builder's order
/// (start cells, then jumps; balance rows, then the side rows).
pub fn of(space: &Space, def: &IpDef, board: &Board) -> (Vec<String>, Vec<String>) {
    let dim = space.lattice.dimension();
    let cell = |c: Cell| {
        let parts: Vec<String> = c.coords(dim).iter().map(i32::to_string).collect();
        parts.join(":")
    };
    let starts: Vec<usize> = (0..board.cells.len()).filter(|&m| board.start[m]).collect();
    let mut cols: Vec<String> = starts
        .iter()
        .map(|&m| format!("s_{}", cell(board.cells[m])))
        .collect();
    cols.extend(
        board
            .jumps
            .iter()
            .map(|&(a, b, _)| format!("j_{}_{}", cell(board.cells[a]), cell(board.cells[b]))),
    );
    let mut rows: Vec<String> = board
        .cells
        .iter()
        .map(|&c| format!("bal_{}", cell(c)))
        .collect();
    rows.push("men_max".into());
    if def.min_men.is_some() {
        rows.push("men_min".into());
    }
    if let Some(classes) = &def.classes {
        // As the builder: a class row where the board has start cells of that exponent or
        // the case puts men there.
        for e in 0..=def.max_exponent {
            let cells = starts.iter().any(|&m| board.exponent[m] == e);
            let men = classes.iter().find(|c| c.0 == e).is_some_and(|c| c.1 > 0);
            if cells || men {
                rows.push(format!("class_{e}"));
            }
        }
    }
    if def.lossy_cap.is_some() {
        rows.push("lossy_cap".into());
    }
    rows.extend((1..=def.cuts.len()).map(|k| format!("cut_{k}")));
    (cols, rows)
}
