//! The checker's own jump-matrix builder: an [`IpDef`] becomes a [`LinearSystem`].
//!
//! Columns: STA_m ∈ {0, 1} for every start cell of the board (row y >= level), then
//! J_n ∈ {0, …, max_men} for every jump (a man is removed by each jump, so no jump is used
//! more often than there are men). Rows, in this order: one balance equation per board cell,
//! STA_m − Σ_{n from or over m} J_n + Σ_{n into m} J_n = FIN_m with FIN = {d, 2d}; Σ STA <=
//! max_men; Σ STA >= min_men; Σ STA over each class = n_e; Σ J over lossy jumps <= cap.
//! The order is part of the certificate format: multipliers name rows by index.

use super::farkas::{LinearSystem, Row};
use super::format::IpDef;
use super::space::Space;
use crate::problem::geometry::Cell;
use crate::weight::golden::Golden;
use std::collections::HashMap;

/// The board of a definition: cells, their exponents, and jumps with their losses.
pub struct Board {
    pub cells: Vec<Cell>,
    pub exponent: Vec<i32>,
    pub start: Vec<bool>,
    /// (from, over, to) as cell indices.
    pub jumps: Vec<(usize, usize, usize)>,
    pub loss: Vec<Golden>,
}

impl Board {
    pub fn new(space: &Space, def: &IpDef) -> Result<Board, String> {
        if def.max_exponent + 2 > space.exact_to() {
            return Err(format!(
                "board exponent {} lies beyond the checker's window",
                def.max_exponent
            ));
        }
        let cells: Vec<Cell> = space
            .cells()
            .filter(|&c| space.exponent(c).is_some_and(|e| e <= def.max_exponent))
            .collect();
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut board = Board {
            exponent: cells.iter().map(|&c| space.exponent(c).unwrap()).collect(),
            start: cells
                .iter()
                .map(|&c| space.lattice.in_start(c, space.level))
                .collect(),
            cells,
            jumps: Vec::new(),
            loss: Vec::new(),
        };
        for (i, &a) in board.cells.iter().enumerate() {
            for &dd in &space.lattice.directions {
                let (b, c) = ((a + dd), (a + 2 * dd));
                let (Some(&j), Some(&k)) = (index.get(&b), index.get(&c)) else {
                    continue;
                };
                let loss = space.weight(a) + space.weight(b) - space.weight(c);
                if loss <= def.max_loss {
                    board.jumps.push((i, j, k));
                    board.loss.push(loss);
                }
            }
        }
        Ok(board)
    }
}

/// The integer program of `def`, as rows over integer columns.
pub fn build(space: &Space, def: &IpDef) -> Result<LinearSystem, String> {
    let board = Board::new(space, def)?;
    let d = def.last_jump;
    let fin: Vec<Cell> = vec![d, (2 * d)];
    let starts: Vec<usize> = (0..board.cells.len()).filter(|&m| board.start[m]).collect();
    let mut column = vec![None; board.cells.len()];
    let mut sys = LinearSystem::default();
    for &m in &starts {
        column[m] = Some(sys.cols.len());
        sys.cols.push((0, Some(1)));
    }
    let first_jump = sys.cols.len();
    sys.cols
        .extend(board.jumps.iter().map(|_| (0, Some(def.max_men as i64))));
    let mut balance: Vec<Vec<(usize, i64)>> = (0..board.cells.len())
        .map(|m| column[m].map(|c| (c, 1)).into_iter().collect())
        .collect();
    for (n, &(a, b, c)) in board.jumps.iter().enumerate() {
        balance[a].push((first_jump + n, -1));
        balance[b].push((first_jump + n, -1));
        balance[c].push((first_jump + n, 1));
    }
    for (m, coefs) in balance.into_iter().enumerate() {
        let f = fin.contains(&board.cells[m]) as i64;
        sys.rows.push(Row {
            coefs,
            lo: Some(f),
            hi: Some(f),
        });
    }
    let men: Vec<(usize, i64)> = starts.iter().map(|&m| (column[m].unwrap(), 1)).collect();
    let row = |coefs, lo, hi| Row { coefs, lo, hi };
    sys.rows
        .push(row(men.clone(), None, Some(def.max_men as i64)));
    if let Some(k) = def.min_men {
        sys.rows.push(row(men, Some(k as i64), None));
    }
    if let Some(classes) = &def.classes {
        for e in 0..=def.max_exponent {
            let cells: Vec<(usize, i64)> = starts
                .iter()
                .filter(|&&m| board.exponent[m] == e)
                .map(|&m| (column[m].unwrap(), 1))
                .collect();
            let n = classes.iter().find(|c| c.0 == e).map_or(0, |c| c.1) as i64;
            if !cells.is_empty() || n > 0 {
                sys.rows.push(row(cells, Some(n), Some(n)));
            }
        }
    }
    if let Some(cap) = def.lossy_cap {
        let lossy = (0..board.jumps.len())
            .filter(|&n| !board.loss[n].is_zero())
            .map(|n| (first_jump + n, 1))
            .collect();
        sys.rows.push(row(lossy, None, Some(cap as i64)));
    }
    for cut in &def.cuts {
        let coefs: Vec<(usize, i64)> = cut
            .iter()
            .map(|c| {
                let m = board.cells.iter().position(|b| b == c);
                m.and_then(|m| column[m])
                    .map(|col| (col, 1))
                    .ok_or_else(|| format!("cut cell {c:?} is not a start cell of the board"))
            })
            .collect::<Result<_, _>>()?;
        sys.rows.push(row(coefs, None, Some(cut.len() as i64 - 1)));
    }
    Ok(sys)
}

/// The most lossy jumps a play of slack `slack` can make on this board: ⌊S / λ⌋, λ the
/// smallest positive loss (weight identity: Σ loss_n J_n = S exactly).
pub fn lossy_cap(board: &Board, slack: Golden) -> Option<u64> {
    let least = board.loss.iter().filter(|l| !l.is_zero()).min()?;
    let mut most = 0u64;
    while (most as i128 + 1) * *least <= slack {
        most += 1;
    }
    Some(most)
}
