//! A beam search for a board play, meeting a backward table of endgames.
//!
//! The depth-first searches ([`super::play`], [`crate::play::order`]) commit to their first jumps
//! and on the 41- and 45-hole boards never come back to them within any budget. This search
//! keeps, level by level (one man fewer each), the `width` most compact of all children of
//! the positions kept, without repeats, down to a level of few men; there it meets
//! [`endgame`], every position of that many men from which the finish alone is reachable,
//! grown backwards from the finish by unjumps. A kept position in the table completes the
//! play. Its plays are replayed like any other; its failure proves nothing.

use super::PegBoard;
use super::classes::Mask;
use crate::problem::geometry::Cell;
use std::collections::HashSet;

/// The positions from which the finish alone is reachable, level by level (`levels[m]`: every
/// one of exactly m men; `levels[0]` empty), grown backwards from the finish by unjumps while
/// their total stays within `limit`. The deepest level is where the beam meets them.
pub fn endgame(board: &PegBoard, finish: usize, limit: usize) -> Vec<HashSet<Mask>> {
    let mut levels = vec![HashSet::new(), HashSet::from([(1 as Mask) << finish])];
    let mut total = 1;
    loop {
        let mut next = HashSet::new();
        for &p in levels.last().expect("a level") {
            for j in &board.jumps {
                let (a, b, c): (Mask, Mask, Mask) = (1 << j.from, 1 << j.over, 1 << j.to);
                if p & c != 0 && p & a == 0 && p & b == 0 {
                    next.insert(p ^ a ^ b ^ c);
                }
            }
        }
        total += next.len();
        if total > limit || next.is_empty() || levels.len() >= board.cells.len() {
            return levels;
        }
        levels.push(next);
    }
}

/// A play from every hole but `vacancy` to one man on `finish` (board jump indices), kept to
/// `width` positions a level, scored by twice the men's squared distances to the finish plus
/// 4 for each man with no neighbour (he needs others brought to him): the weights that
/// solved Wiegleb's central game at the least width among those tried; None if the beam
/// dies out.
pub fn beam(
    board: &PegBoard,
    vacancy: usize,
    finish: usize,
    width: usize,
    end: &[HashSet<Mask>],
) -> Option<Vec<usize>> {
    let bit = |h: usize| -> Mask { 1 << h };
    let score = scorer(board, finish);
    let start = super::classes::start_mask(board, vacancy);
    // levels[d]: (position, index of its parent in levels[d − 1], jump).
    let mut levels: Vec<Vec<(Mask, usize, usize)>> = vec![vec![(start, 0, 0)]];
    let mut left = start.count_ones() as usize;
    while left + 1 > end.len() {
        let mut seen = HashSet::new();
        let mut next: Vec<(i64, Mask, usize, usize)> = Vec::new();
        for (i, &(p, _, _)) in levels.last()?.iter().enumerate() {
            for (j, jump) in board.jumps.iter().enumerate() {
                let (a, b, c) = (bit(jump.from), bit(jump.over), bit(jump.to));
                if p & a == 0 || p & b == 0 || p & c != 0 {
                    continue;
                }
                let q = p ^ a ^ b ^ c;
                if seen.insert(q) {
                    next.push((score(q), q, i, j));
                }
            }
        }
        left -= 1;
        if left + 1 == end.len() {
            next.retain(|e| end[left].contains(&e.1));
        } else if next.len() > width {
            next.select_nth_unstable_by_key(width, |e| e.0);
            next.truncate(width);
        }
        if next.is_empty() {
            return None;
        }
        levels.push(next.into_iter().map(|(_, q, i, j)| (q, i, j)).collect());
    }
    finish_play(board, &levels, left, end)
}

/// The beam's score of a position: twice the men's squared distances to the finish plus 4
/// for each man with no neighbour (smaller is better).
fn scorer(board: &PegBoard, finish: usize) -> impl Fn(Mask) -> i64 {
    let n = board.cells.len();
    let bit = |h: usize| -> Mask { 1 << h };
    let neighbours: Vec<Mask> = (0..n)
        .map(|h| {
            board
                .jumps
                .iter()
                .filter(|j| j.from == h)
                .fold(0, |m, j| m | bit(j.over))
        })
        .collect();
    let Cell(fx, fy, _) = board.cells[finish];
    let dist: Vec<i64> = board
        .cells
        .iter()
        .map(|&Cell(x, y, _)| ((x - fx).pow(2) + (y - fy).pow(2)) as i64)
        .collect();
    move |p: Mask| -> i64 {
        (0..n)
            .filter(|&h| p >> h & 1 == 1)
            .map(|h| 2 * dist[h] + if p & neighbours[h] == 0 { 4 } else { 0 })
            .sum()
    }
}

/// The jumps of the beam's play: back through the levels' parents from the position that met
/// the endgame table (of `left` men), then on inside the table down to one man; None if the
/// table has no next position (it always has one, by its construction).
fn finish_play(
    board: &PegBoard,
    levels: &[Vec<(Mask, usize, usize)>],
    mut left: usize,
    end: &[HashSet<Mask>],
) -> Option<Vec<usize>> {
    let bit = |h: usize| -> Mask { 1 << h };
    let (mut pos, mut i) = (levels.last()?.first()?.0, 0);
    let mut path = Vec::new();
    for d in (1..levels.len()).rev() {
        let (_, parent, j) = levels[d][i];
        path.push(j);
        i = parent;
    }
    path.reverse();
    // The rest of the play inside the endgame table.
    while left > 1 {
        let j = (0..board.jumps.len()).find(|&j| {
            let jump = board.jumps[j];
            let (a, b, c) = (bit(jump.from), bit(jump.over), bit(jump.to));
            pos & a != 0
                && pos & b != 0
                && pos & c == 0
                && end[left - 1].contains(&(pos ^ a ^ b ^ c))
        })?;
        let jump = board.jumps[j];
        pos ^= bit(jump.from) ^ bit(jump.over) ^ bit(jump.to);
        path.push(j);
        left -= 1;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_beam_solves_the_english_central_game_and_its_endgames_reach_the_finish() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml");
        let b = PegBoard::read(&path).unwrap();
        let c = b.index[&Cell::ORIGIN];
        let end = endgame(&b, c, 100_000);
        assert_eq!(end[1].len(), 1);
        assert_eq!(end[2].len(), 4);
        let play = beam(&b, c, c, 2_000, &end).expect("a play");
        assert_eq!(play.len(), 31);
        let mut pos = crate::play::peg::classes::start_mask(&b, c);
        for j in play {
            let jump = b.jumps[j];
            assert!(
                pos >> jump.from & 1 == 1 && pos >> jump.over & 1 == 1 && pos >> jump.to & 1 == 0
            );
            pos ^= (1 << jump.from) | (1 << jump.over) | (1 << jump.to);
        }
        assert_eq!(pos, 1 << c);
    }
}
