//! The probes of the fewest-moves search: beam searches by levels (a level is one move, as in
//! Beasley's search by levels) that look for plays shorter than the best one known. They are
//! heuristics and prove nothing: a play they find is replayed ([`check_play`]) and only lowers
//! the upper bound; the proof is the iterative deepening of [`super`] alone.
//!
//! Two kinds of beam, each run at growing widths:
//! - a *free* beam takes every legal move and keeps, per level, the `width` positions that are
//!   heaviest under the best last-jump function (the least weight spent), or that have made
//!   the most jumps;
//! - a *reordering* beam takes only the jumps of the best play known, as a multiset, and keeps
//!   the positions that have made the most jumps. A play it finds reaches the goal with those
//!   jumps in fewer moves, more of them chained into one man's move. An army whose weight is
//!   nearly all spent (Pablito's level 6 under the Figure 7b function) leaves the free beams
//!   no living position after some twenty moves; a prefix of a play that reaches the goal never
//!   runs out of weight, so the reordering beam fails only when its jumps cannot be ordered.

use super::{Answer, Child, FxSet, Options, Problem, Search, Tables, W, check_play};
use crate::proof::verify::Step;
use std::time::Instant;

/// The jumps of a legal `play` of `p`, reordered by reordering beams of growing width (up to
/// `widths`) into a play of fewer moves, when one is found: `None` otherwise. The play found
/// is replayed and makes the same jumps (as a multiset) as `play`.
pub fn reorder(p: &Problem, play: &[Step], widths: &[usize]) -> Result<Option<Vec<Step>>, String> {
    let moves = check_play(p, play)?;
    if moves <= 1 {
        return Ok(None);
    }
    let t = Tables::new(p)?;
    let men: Vec<u32> = p.start.iter().map(|&c| t.index(c) as u32).collect();
    let w = t.weights_of(&men);
    let mut s = Search::new(&t, &men, 0, Instant::now(), &mut Options::default());
    let jumps = s.play_jumps(play);
    let mut best: Option<(u32, Vec<Step>)> = None;
    for &width in widths {
        let most = best.as_ref().map_or(moves, |b| b.0).saturating_sub(1);
        if let Some(found) = s.beam(
            (&men, &w),
            (width, BeamOrder::MostJumps),
            most,
            Some(&jumps),
        ) {
            best = Some((check_play(p, &found)?, found));
        }
    }
    Ok(best.map(|b| b.1))
}

/// Which positions of a level the beam search keeps.
#[derive(Clone, Copy)]
enum BeamOrder {
    /// The heaviest under the best last-jump function (the least weight spent).
    Heaviest,
    /// The fewest men (the most jumps made in the moves so far).
    MostJumps,
}

/// A position kept by the beam search: its men and weights, the position it came from (an
/// index into the level before), the jumps of the move that led to it and, for a reordering
/// beam, the jumps still to make (sorted jump ids, see [`Search::jump_id`]).
struct BeamNode {
    men: Vec<u32>,
    w: Vec<W>,
    parent: usize,
    steps: Vec<(u32, u32, u32)>,
    jumps: Vec<u32>,
}

/// The moves of a beam search's play, last first: the goal's move `last_steps`, then back
/// from node `at` of level `lvl` to the start.
fn beam_path(
    levels: &[Vec<BeamNode>],
    (mut lvl, mut at): (usize, usize),
    last_steps: Vec<(u32, u32, u32)>,
) -> Vec<Vec<(u32, u32, u32)>> {
    let mut path = vec![last_steps];
    while at != usize::MAX {
        let n = &levels[lvl][at];
        path.push(n.steps.clone());
        at = n.parent;
        lvl = lvl.wrapping_sub(1);
    }
    path
}

/// `jumps` (sorted) without one copy of each jump of `steps`.
fn jumps_left(jumps: &[u32], steps: &[u32]) -> Vec<u32> {
    let mut left = jumps.to_vec();
    for id in steps {
        if let Ok(i) = left.binary_search(id) {
            left.remove(i);
        }
    }
    left
}

impl Search<'_> {
    /// The id of a jump from grid cell `a` over `b`: `a` times the number of directions plus
    /// the direction's index (the index of [`Search::avail`]).
    fn jump_id(&self, a: u32, b: u32) -> u32 {
        let d = b as isize - a as isize;
        let k = self.t.dirs.iter().position(|&x| x == d).unwrap_or(0);
        a * self.t.dirs.len() as u32 + k as u32
    }

    /// The jumps of a play as sorted jump ids.
    fn play_jumps(&self, play: &[Step]) -> Vec<u32> {
        let t = self.t;
        let mut ids: Vec<u32> = play
            .iter()
            .map(|s| self.jump_id(t.index(s.from) as u32, t.index(s.over) as u32))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The moves from a kept position (its men on the board, its jumps allowed), within `limit`.
    /// [`Search::children`] keeps one child per position up to the mirror, so a reordering
    /// beam may drop a child whose jumps left differ from its twin's: a heuristic may lose
    /// plays, never make a wrong one (every play found is replayed).
    fn expand(&mut self, node: &BeamNode, limit: u32, restricted: bool) -> Vec<Child> {
        self.set_men(&node.men);
        if restricted {
            self.avail.resize(self.occ.len() * self.t.dirs.len(), 0);
            for &j in &node.jumps {
                self.avail[j as usize] += 1;
            }
        }
        self.restrict = restricted;
        let kids = self.children(&node.men, &node.w, limit);
        self.restrict = false;
        self.clear_men(&node.men);
        for &j in &node.jumps {
            self.avail[j as usize] = 0;
        }
        kids
    }

    /// Beam search by levels, keeping only the `width` most promising positions of each level
    /// (`order`), for a play of at most `most` moves; with `jumps` (sorted ids) only those.
    fn beam(
        &mut self,
        (men, w): (&[u32], &[W]),
        (width, order): (usize, BeamOrder),
        most: u32,
        jumps: Option<&[u32]>,
    ) -> Option<Vec<Step>> {
        let root = BeamNode {
            men: men.to_vec(),
            w: w.to_vec(),
            parent: usize::MAX,
            steps: Vec::new(),
            jumps: jumps.unwrap_or(&[]).to_vec(),
        };
        let mut levels: Vec<Vec<BeamNode>> = vec![vec![root]];
        let mut seen: FxSet<Vec<u32>> = FxSet::default();
        self.clear_men(men);
        let mut result = None;
        'levels: for depth in 1..=most {
            let mut next: Vec<(u32, f64, BeamNode)> = Vec::new();
            let last = levels.len() - 1;
            for (i, node) in levels[last].iter().enumerate() {
                self.visits += 1;
                if self.should_stop() {
                    break 'levels;
                }
                for kid in self.expand(node, most - depth + 1, jumps.is_some()) {
                    if kid.goal {
                        result = Some(beam_path(&levels, (last, i), kid.steps));
                        break 'levels;
                    }
                    if let Some(n) = self.kept(node, kid, i, jumps.is_some(), &mut seen) {
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            sort_level(&mut next, order);
            next.truncate(width);
            levels.push(next.into_iter().map(|(_, _, n)| n).collect());
        }
        self.set_men(men);
        let path = result?;
        Some(self.steps_of(&path))
    }

    /// A child of `node` (index `parent` of its level) as a candidate for the next level with
    /// its bound and weight, unless an equal position (with the same jumps left) was kept.
    fn kept(
        &self,
        node: &BeamNode,
        kid: Child,
        parent: usize,
        restricted: bool,
        seen: &mut FxSet<Vec<u32>>,
    ) -> Option<(u32, f64, BeamNode)> {
        let mut jumps = Vec::new();
        let key = if restricted {
            let ids: Vec<u32> = kid
                .steps
                .iter()
                .map(|&(a, b, _)| self.jump_id(a, b))
                .collect();
            jumps = jumps_left(&node.jumps, &ids);
            let mut key = kid.men.clone();
            key.sort_unstable();
            key.push(u32::MAX);
            key.extend(&jumps);
            key
        } else {
            kid.key
        };
        if !seen.insert(key) {
            return None;
        }
        let sigma = (5f64.sqrt() - 1.0) / 2.0;
        let heavy = kid.weights[1..]
            .iter()
            .map(|&(a, b)| a as f64 + b as f64 * sigma)
            .fold(0.0, f64::max);
        let h = kid.bound.unwrap_or(u32::MAX);
        let n = BeamNode {
            men: kid.men,
            w: kid.weights,
            parent,
            steps: kid.steps,
            jumps,
        };
        Some((h, heavy, n))
    }

    /// A beam's path (moves last first, as grid indices) as the play's steps, first first.
    fn steps_of(&self, path: &[Vec<(u32, u32, u32)>]) -> Vec<Step> {
        path.iter()
            .rev()
            .flatten()
            .map(|&(a, b, c)| Step {
                from: self.t.cell(a as usize),
                over: self.t.cell(b as usize),
                to: self.t.cell(c as usize),
            })
            .collect()
    }

    /// Probes for shorter plays (a heuristic, never part of the proof): at each of growing
    /// widths, a reordering beam over the best play's jumps, then free beams, each looking for a
    /// play of fewer moves than the best known, within a third of the time limit. A play found
    /// is checked and lowers `upper`. The positions the probes visited.
    pub(super) fn probe(
        &mut self,
        p: &super::Problem,
        (men, w): (&[u32], &[W]),
        h0: u32,
        upper: &mut Option<u32>,
        ans: &mut Answer,
        probe_positions: u64,
    ) -> Result<u64, String> {
        let mut spent = 0;
        self.probe_deadline = self.deadline.map(|t| t / 3.0);
        // Every kind at one width before any at the next: the budget goes to cheap beams first.
        let kinds = [
            (BeamOrder::MostJumps, true),
            (BeamOrder::Heaviest, false),
            (BeamOrder::MostJumps, false),
        ];
        let widths = [16, 128, 1024, 8192, 65536];
        let beams = widths
            .into_iter()
            .flat_map(|w| kinds.map(|(o, r)| (w, o, r)));
        for (width, order, restricted) in beams {
            while let Some(u) = *upper
                && u > h0
                && spent < probe_positions
                && self.stopped.is_none()
            {
                let jumps = match (&ans.play, restricted) {
                    (Some(play), true) => Some(self.play_jumps(play)),
                    (None, true) => break,
                    (_, false) => None,
                };
                self.visits = 0;
                self.budget = Some(probe_positions - spent);
                let found = self.beam((men, w), (width, order), u - 1, jumps.as_deref());
                spent += self.visits;
                self.total += self.visits;
                let Some(play) = found else { break };
                let moves = check_play(p, &play)?;
                if moves >= u {
                    return Err(format!(
                        "internal error: a probe's play has {moves} moves, not fewer than {u}"
                    ));
                }
                ans.play = Some(play);
                ans.play_moves = Some(moves);
                ans.found_by_search = true;
                *upper = Some(moves);
            }
        }
        self.visits = 0;
        self.budget = None;
        self.probe_deadline = None;
        Ok(spent)
    }
}

/// Sorts a level's candidates, best first. Heaviest: by weight (to 1e-9), then the fewest
/// men, then the smallest bound; most jumps: the fewest men, the smallest bound, the weight.
fn sort_level(next: &mut [(u32, f64, BeamNode)], order: BeamOrder) {
    let q = |x: f64| (x * 1e9).round() as i64;
    match order {
        BeamOrder::Heaviest => {
            next.sort_by(|a, b| (q(b.1), a.2.men.len(), a.0).cmp(&(q(a.1), b.2.men.len(), b.0)))
        }
        BeamOrder::MostJumps => {
            next.sort_by(|a, b| (a.2.men.len(), a.0, q(b.1)).cmp(&(b.2.men.len(), b.0, q(a.1))))
        }
    }
}
