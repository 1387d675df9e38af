//! The proof of the minimum: [`solve`] bounds the start, lets the probes ([`super::beam`])
//! look for short plays, then deepens from the start bound one depth at a time, each
//! searched exhaustively, until a play is found, the best known play's length is reached, or
//! the search stops.

use super::breadth::Packing;
use super::search::{Search, Verdict};
use super::tables::{Tables, W};
use super::{Answer, Options, Problem, Status, check_play};
use std::time::Instant;

/// Finds the fewest moves from the problem's start to its goal, with the proof that none is
/// shorter (every smaller depth searched exhaustively under admissible bounds).
pub fn solve(p: &Problem, mut opts: Options) -> Result<Answer, String> {
    let started = Instant::now();
    let t = Tables::new(p)?;
    let men: Vec<u32> = p.start.iter().map(|&c| t.index(c) as u32).collect();
    let mut ans = Answer {
        status: Status::Optimal,
        min_moves: None,
        lower_bound: 0,
        start_bound: None,
        play: None,
        play_moves: None,
        found_by_search: false,
        positions: Vec::new(),
        seconds: 0.0,
        tt_entries: 0,
        tt_full: false,
        start_symmetric: p.start_is_symmetric(),
        probe_positions: 0,
        resumed_below: None,
    };
    let mut upper = match &opts.seed {
        Some(seed) => {
            let moves = check_play(p, seed)?;
            ans.play = Some(seed.clone());
            ans.play_moves = Some(moves);
            Some(moves)
        }
        None => None,
    };
    if t.is_goal(&men) {
        ans.min_moves = Some(0);
        ans.play = Some(Vec::new());
        ans.play_moves = Some(0);
        ans.found_by_search = true;
        ans.seconds = started.elapsed().as_secs_f64();
        return Ok(ans);
    }
    let w = t.weights_of(&men);
    let Some(h0) = t.bound_with(&men, &w) else {
        ans.status = Status::Impossible;
        ans.seconds = started.elapsed().as_secs_f64();
        return Ok(ans);
    };
    ans.start_bound = Some(h0);
    ans.lower_bound = h0;
    let mut s = Search::new(&t, &men, h0, started, &mut opts);
    ans.probe_positions = s.probe(
        p,
        (&men, &w),
        h0,
        &mut upper,
        &mut ans,
        opts.probe_positions,
    )?;
    if s.stopped.is_none() && ans.min_moves.is_none() {
        let first = h0.max(opts.resume_depth);
        if first > h0 {
            ans.resumed_below = Some(first);
            ans.lower_bound = first;
        }
        s.deepen(p, (&men, &w), first, upper, &mut ans)?;
    } else {
        ans.status = s.stopped.unwrap_or(Status::Optimal);
    }
    ans.tt_entries = s.tt.len();
    ans.tt_full = s.tt_full;
    ans.seconds = started.elapsed().as_secs_f64();
    Ok(ans)
}

impl<'a> Search<'a> {
    /// Iterative deepening from depth `h0`: each depth searched exhaustively, until a play is
    /// found (its depth is the minimum), the seed's move count `upper` is reached (the seed is
    /// a minimum), no play can be that long (each move removes a man), or the search stops.
    fn deepen(
        &mut self,
        p: &Problem,
        (men, w): (&[u32], &[W]),
        h0: u32,
        upper: Option<u32>,
        ans: &mut Answer,
    ) -> Result<(), String> {
        let key = self.t.canonical(men);
        let most = men.len() as u32 - 1;
        let packing = self.breadth_first.then(|| Packing::new(self.t)).flatten();
        let mut depth = h0;
        loop {
            if upper.is_some_and(|u| depth >= u) {
                ans.min_moves = upper;
                return Ok(());
            }
            if depth > most {
                ans.status = Status::Impossible;
                return Ok(());
            }
            self.depth = depth;
            self.visits = 0;
            self.path.clear();
            let breadth = packing.as_ref().and_then(|pk| self.breadth(pk, men, depth));
            let v = match breadth {
                Some(v) => v,
                None => self.dfs(men, w, &key, depth),
            };
            if ans.positions.len() <= depth as usize {
                ans.positions.resize(depth as usize + 1, 0);
            }
            ans.positions[depth as usize] = self.visits;
            self.total += self.visits;
            match v {
                Verdict::Found => {
                    let play = self.play(self.t);
                    let moves = check_play(p, &play)?;
                    if moves != depth {
                        return Err(format!(
                            "internal error: the play found at depth {depth} has {moves} moves"
                        ));
                    }
                    ans.min_moves = Some(depth);
                    ans.play = Some(play);
                    ans.play_moves = Some(depth);
                    ans.found_by_search = true;
                    return Ok(());
                }
                Verdict::Fail => {
                    depth += 1;
                    ans.lower_bound = depth;
                }
                Verdict::Stopped => {
                    ans.status = self.stopped.unwrap_or(Status::Interrupted);
                    return Ok(());
                }
            }
        }
    }
}
