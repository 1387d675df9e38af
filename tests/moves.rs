//! `solarmy moves`: proven minima on small armies whose plays replay, every bound checked
//! against a plain breadth-first search, and one-line errors on bad armies.

mod common;
use common::solarmy;
use proptest::prelude::*;
use solarmy::play::moves::{self, Goal, Options, Problem, Status};
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::verify::{self, Step};
use solarmy::report::export;
use std::collections::{BTreeSet, HashSet};

fn results_army(army: &str, level: i32) -> Vec<Cell> {
    let path = format!(
        "{}/results/armies/{army}-{level}-army.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    export::read_army(std::path::Path::new(&path)).unwrap()
}

#[test]
fn small_armies_have_proven_minima_whose_plays_replay() {
    for (army, level, min) in [
        (Army::conway(), 2, 2),
        (Army::conway(), 3, 4),
        (Army::skew(), 3, 3),
        (Army::hexagonal(), 3, 3),
        (Army::conway(), 4, 10),
    ] {
        let men = results_army(army.name(), level);
        let p = Problem::army(army, level, &men).unwrap();
        // Without a seed, the search must find the play itself.
        let ans = moves::solve(&p, Options::default()).unwrap();
        assert_eq!(ans.status, Status::Optimal, "{army} {level}");
        assert_eq!(ans.min_moves, Some(min), "{army} {level}");
        assert!(ans.found_by_search);
        let play = ans.play.unwrap();
        let r = verify::replay(&army.lattice(), level, &men, &play).unwrap();
        assert_eq!(r.moves as u32, min, "{army} {level}");
        assert_eq!(ans.lower_bound, min);
    }
}

/// All moves of one position (every jump sequence of one man), by plain set manipulation.
fn successors(p: &Problem, pos: &BTreeSet<Cell>) -> Vec<(BTreeSet<Cell>, bool)> {
    let l = &p.lattice;
    let mut out = Vec::new();
    for &a in pos {
        let mut stack = vec![(a, pos.clone())];
        let mut seen = HashSet::new();
        while let Some((at, board)) = stack.pop() {
            for &d in &l.directions {
                let over = at + d;
                let to = at + 2 * d;
                if !l.is_jump(at, over, to) || !board.contains(&over) || board.contains(&to) {
                    continue;
                }
                if let Some(cells) = &p.cells
                    && !(cells.contains(&over) && cells.contains(&to))
                {
                    continue;
                }
                let mut next = board.clone();
                next.remove(&at);
                next.remove(&over);
                next.insert(to);
                if seen.insert(next.clone()) {
                    let done = match p.goal {
                        Goal::ManOn(c) => to == c,
                        Goal::OneManOn(c) => next.len() == 1 && to == c,
                    };
                    out.push((next.clone(), done));
                    stack.push((to, next));
                }
            }
        }
    }
    out
}

/// The exact fewest moves by breadth-first search (None: unreachable). Every move removes a
/// man, so the search is finite.
fn bfs(p: &Problem) -> Option<u32> {
    let start: BTreeSet<Cell> = p.start.iter().copied().collect();
    let solved = |s: &BTreeSet<Cell>| match p.goal {
        Goal::ManOn(c) => s.contains(&c),
        Goal::OneManOn(c) => s.len() == 1 && s.contains(&c),
    };
    if solved(&start) {
        return Some(0);
    }
    let mut layer = vec![start];
    let mut seen = HashSet::new();
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for pos in &layer {
            for (s, done) in successors(p, pos) {
                if done {
                    return Some(depth);
                }
                if seen.insert(s.clone()) {
                    next.push(s);
                }
            }
        }
        layer = next;
    }
    None
}

fn army_of(i: usize) -> Army {
    Army::all()[i % Army::all().len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On random small positions: the lower bound never exceeds the true number of moves (and
    /// calls nothing dead that can reach the target), and the search finds exactly the BFS
    /// minimum.
    #[test]
    fn bounds_are_admissible_and_the_search_is_exact(
        a in 0usize..5,
        cells in proptest::collection::btree_set((-3i32..=3, 0i32..=5), 2..7),
    ) {
        let army = army_of(a);
        let l = army.lattice();
        let men: Vec<Cell> = cells.into_iter().map(|(x, y)| Cell::xy(x, y)).filter(|&c| l.contains(c) && c != Cell::ORIGIN).collect();
        prop_assume!(men.len() >= 2);
        let p = Problem { start: men.clone(), ..Problem::army(army, 0, &men).unwrap() };
        let exact = bfs(&p);
        let bound = moves::lower_bound(&p, &men).unwrap();
        match (exact, bound) {
            (Some(e), Some(b)) => prop_assert!(b <= e, "{army} {men:?}: bound {b} > exact {e}"),
            (Some(e), None) => prop_assert!(false, "{army} {men:?}: called dead, solvable in {e}"),
            (None, _) => {}
        }
        // Every position along the way obeys the bound too: check the successors.
        let start: BTreeSet<Cell> = men.iter().copied().collect();
        for (s, done) in successors(&p, &start).into_iter().take(12) {
            if done { continue; }
            let v: Vec<Cell> = s.iter().copied().collect();
            let q = Problem { start: v.clone(), ..p.clone() };
            let (e, b) = (bfs(&q), moves::lower_bound(&q, &v).unwrap());
            if let Some(e) = e {
                prop_assert!(b.is_some_and(|b| b <= e), "{army} {v:?}: bound {b:?} > exact {e}");
            }
        }
        let ans = moves::solve(&p, Options::default()).unwrap();
        match exact {
            Some(e) => {
                prop_assert_eq!(ans.status, Status::Optimal);
                prop_assert_eq!(ans.min_moves, Some(e));
                let play = ans.play.unwrap();
                prop_assert_eq!(moves::check_play(&p, &play).unwrap(), e);
            }
            None => prop_assert_eq!(ans.status, Status::Impossible),
        }
    }
}

#[test]
fn one_man_on_a_finite_board() {
    // A 3x3 block of men above the target on a 5-wide strip: BFS and the search agree.
    let l = Army::conway().lattice();
    let board: Vec<Cell> = (-2..=2)
        .flat_map(|x| (0..=4).map(move |y| Cell::xy(x, y)))
        .collect();
    for start in [
        vec![Cell::xy(0, 1), Cell::xy(0, 2)],
        vec![
            Cell::xy(0, 2),
            Cell::xy(0, 3),
            Cell::xy(1, 1),
            Cell::xy(1, 0),
        ],
        vec![
            Cell::xy(-1, 1),
            Cell::xy(0, 1),
            Cell::xy(1, 1),
            Cell::xy(0, 2),
            Cell::xy(0, 3),
        ],
    ] {
        let p = Problem {
            lattice: l.clone(),
            army: None,
            cells: Some(board.clone()),
            start,
            goal: Goal::OneManOn(Cell::ORIGIN),
        };
        let exact = bfs(&p);
        for breadth_first in [false, true] {
            let opts = Options {
                breadth_first,
                ..Options::default()
            };
            let ans = moves::solve(&p, opts).unwrap();
            match exact {
                Some(e) => assert_eq!(ans.min_moves, Some(e), "{:?}", p.start),
                None => assert_eq!(ans.status, Status::Impossible, "{:?}", p.start),
            }
        }
    }
}

#[test]
fn cli_json_out_and_seed() {
    let dir = std::env::temp_dir().join(format!("solarmy-moves-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let from = format!(
        "{}/results/armies/conway-3-army.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = solarmy(&[
        "moves", "--army", "conway", "--level", "3", "--from", &from, "--json", "--out", d,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["min_moves", "proven", "positions", "seconds", "play"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["min_moves"], 4);
    assert_eq!(v["proven"], true);
    assert_eq!(v["seed_moves"], 5);
    let play: Vec<Step> = serde_json::from_value(v["play"].clone()).unwrap();
    let men = results_army("conway", 3);
    let r = verify::replay(&Army::conway().lattice(), 3, &men, &play).unwrap();
    assert_eq!(r.moves, 4);
    // The CSV written has the move numbers and is accepted by `solarmy verify`.
    let csv = v["play_csv"].as_str().unwrap();
    assert_eq!(export::read_play(std::path::Path::new(csv)).unwrap(), play);
    let text = std::fs::read_to_string(csv).unwrap();
    assert!(text.starts_with("step,move,"));
    let (code, out, _) = solarmy(&["verify", "--army", "conway", "--level", "3", &from, csv]);
    assert_eq!(code, 0);
    assert!(out.contains("4 moves"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_armies_get_one_line_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("solarmy-moves-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("conway", "x,y\n0,3\n0,2\n", "row 2 < level 3"),
        ("skew", "x,y\n0,4\n1,4\n", "not a cell"),
        ("conway", "x,y\n0,4\n0,4\n", "duplicates"),
        ("conway", "x,y\n0,4\nfoo,4\n", "not an integer"),
    ];
    for (i, (army, text, why)) in cases.iter().enumerate() {
        let f = dir.join(format!("bad{i}-army.csv"));
        std::fs::write(&f, text).unwrap();
        let (code, _, err) = solarmy(&[
            "moves",
            "--army",
            army,
            "--level",
            "3",
            "--from",
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{text}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with("solarmy: ") && err.contains(why), "{err}");
    }
    // A legal army whose given seed play does not replay is refused too.
    let army = dir.join("ok-army.csv");
    std::fs::write(&army, "x,y\n0,3\n0,4\n").unwrap();
    let play = dir.join("bad-play.csv");
    std::fs::write(
        &play,
        "step,move,from_x,from_y,over_x,over_y,to_x,to_y\n1,1,0,4,0,3,0,1\n",
    )
    .unwrap();
    let (code, _, err) = solarmy(&[
        "moves",
        "--army",
        "conway",
        "--level",
        "3",
        "--from",
        army.to_str().unwrap(),
        "--seed",
        play.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every position of every play in results/armies/ (up to level 6) obeys the bounds: the bound
/// at each move boundary never exceeds the moves the play still makes.
/// A small cross (5 × 5 less its corners: the ends of its arms are Merson regions) and the
/// 15-hole triangle translated so its hole (3,0) is the target.
fn small_board(which: usize) -> Problem {
    let (lattice, cells): (_, Vec<Cell>) = if which == 0 {
        let cells = (-2..=2)
            .flat_map(|x| (-2..=2).map(move |y| Cell::xy(x, y)))
            .filter(|&Cell(x, y, _)| x.abs().min(y.abs()) <= 1)
            .collect();
        (Army::conway().lattice(), cells)
    } else {
        let cells = (0..=4)
            .flat_map(|y| (0..=4 - y).map(move |x| Cell::xy(x - 3, y)))
            .collect();
        (Army::hexagonal().lattice(), cells)
    };
    Problem {
        lattice,
        army: None,
        cells: Some(cells),
        start: Vec::new(),
        goal: Goal::OneManOn(Cell::ORIGIN),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Boards: on random positions of a small cross and of the triangle, every bound (Merson
    /// regions included) is at most the breadth-first search's exact number of moves.
    #[test]
    fn board_bounds_are_admissible(
        which in 0usize..2,
        picks in proptest::collection::btree_set(0usize..21, 2..9),
    ) {
        let p0 = small_board(which);
        let all = p0.cells.clone().unwrap();
        let men: Vec<Cell> = picks.into_iter().filter(|&i| i < all.len()).map(|i| all[i]).collect();
        prop_assume!(men.len() >= 2);
        let p = Problem { start: men.clone(), ..p0 };
        let exact = bfs(&p);
        let bound = moves::lower_bound(&p, &men).unwrap();
        match (exact, bound) {
            (Some(e), Some(b)) => prop_assert!(b <= e, "{men:?}: bound {b} > exact {e}"),
            (Some(e), None) => prop_assert!(false, "{men:?}: called dead, solvable in {e}"),
            (None, _) => {}
        }
        if exact.is_some() {
            let ans = moves::solve(&p, Options::default()).unwrap();
            prop_assert_eq!(ans.min_moves, exact);
            // Each depth searched breadth-first: the same minimum, its play replayed inside.
            let by_levels = Options { breadth_first: true, ..Options::default() };
            let ans = moves::solve(&p, by_levels).unwrap();
            prop_assert_eq!(ans.min_moves, exact);
            prop_assert!(ans.play.is_some());
        }
    }
}

#[test]
fn every_results_play_obeys_the_bounds() {
    for army in Army::all() {
        for level in 1..=6 {
            let dir = format!("{}/results/armies", env!("CARGO_MANIFEST_DIR"));
            let play_path = format!("{dir}/{army}-{level}-play.csv");
            if !std::path::Path::new(&play_path).exists() {
                continue;
            }
            let men = results_army(army.name(), level);
            let play = export::read_play(std::path::Path::new(&play_path)).unwrap();
            let p = Problem::army(army, level, &men).unwrap();
            let total = verify::count_moves(&play) as u32;
            let mut board: BTreeSet<Cell> = men.iter().copied().collect();
            let mut done = 0;
            for (i, s) in play.iter().enumerate() {
                if i == 0 || play[i - 1].to != s.from {
                    let v: Vec<Cell> = board.iter().copied().collect();
                    let b = moves::lower_bound(&p, &v).unwrap();
                    assert!(
                        b.is_some_and(|b| b <= total - done),
                        "{army} {level}: before move {}: bound {b:?} > {} moves left",
                        done + 1,
                        total - done
                    );
                    done += 1;
                }
                board.remove(&s.from);
                board.remove(&s.over);
                board.insert(s.to);
            }
        }
    }
}

/// `moves --model BOARD --vacancy --finish` on the 15-hole triangle: the CLI's minimum equals
/// the breadth-first search's, and the play it writes replays with `verify --model --finish`.
#[test]
fn cli_board_moves_triangle() {
    let dir = std::env::temp_dir().join(format!("solarmy-board-moves-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let model = format!("{}/models/triangle5.toml", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = solarmy(&[
        "moves",
        "--model",
        &model,
        "--vacancy",
        "0,0",
        "--finish",
        "3,0",
        "--json",
        "--out",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The same problem by BFS: the triangle translated so (3,0) is the target.
    let p0 = small_board(1);
    let start: Vec<Cell> = p0
        .cells
        .clone()
        .unwrap()
        .into_iter()
        .filter(|&c| c != Cell::xy(-3, 0))
        .collect();
    let exact = bfs(&Problem { start, ..p0 }).unwrap();
    assert_eq!(v["min_moves"], exact);
    assert_eq!(v["proven"], true);
    for key in ["positions", "seconds", "play"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let stem = format!("{d}/triangle5-v0_0-f3_0-moves");
    let (code, out, err) = solarmy(&[
        "verify",
        "--model",
        &model,
        "--finish",
        "3,0",
        &format!("{stem}-start.csv"),
        &format!("{stem}-play.csv"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("{exact} moves")), "{out}");
    // Wrong combinations are usage errors.
    let (code, _, err) = solarmy(&[
        "moves",
        "--model",
        &model,
        "--vacancy",
        "0,0",
        "--finish",
        "3,0",
        "--level",
        "3",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = solarmy(&[
        "moves",
        "--model",
        &model,
        "--vacancy",
        "9,9",
        "--finish",
        "3,0",
    ]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The paper: "only 10 moves are needed to advance the fastest 20-man army" (Conway, level 4).
/// Over every minimum army (4 up to the mirror), the fewest is 10, proven; and the command
/// without --from says so and writes the best play, which replays in 10 moves.
#[test]
fn conway_4_over_every_minimum_army_is_10_moves_proven() {
    use solarmy::search::fewest_armies::{Limits, fewest_over_armies};
    let lim = Limits {
        time_limit: None,
        tt_entries: 1_000_000,
        probe_positions: 100_000,
        interrupt: None,
    };
    let all = fewest_over_armies(Army::conway(), 4, &lim).unwrap();
    assert_eq!(all.armies.len(), 4);
    assert_eq!(
        (all.best_moves, all.proven, all.lower_bound),
        (Some(10), true, 10)
    );
    let (men, play) = all.best.unwrap();
    let r = verify::replay(&Army::conway().lattice(), 4, &men, &play).unwrap();
    assert_eq!(r.moves, 10);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, stdout, stderr) = solarmy(&[
        "moves", "--army", "conway", "--level", "4", "--json", "--out", d,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (j["min_moves"].as_u64(), j["proven"].as_bool()),
        (Some(10), Some(true))
    );
    let csv = std::path::PathBuf::from(j["play_csv"].as_str().unwrap());
    assert_eq!(verify::count_moves(&export::read_play(&csv).unwrap()), 10);
}

/// A reordering beam keeps a play's jumps and chains more of them into one man's move: the
/// Pablito level-6 play of the integer program takes fewer moves reordered.
#[test]
fn reordering_keeps_the_jumps_and_saves_moves() {
    let men = results_army("pablito", 6);
    let path = format!(
        "{}/results/armies/pablito-6-play.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let play = export::read_play(std::path::Path::new(&path)).unwrap();
    let p = Problem::army(Army::pablito(), 6, &men).unwrap();
    let before = moves::check_play(&p, &play).unwrap();
    let found = moves::reorder(&p, &play, &[16, 128])
        .unwrap()
        .expect("a shorter play");
    let after = moves::check_play(&p, &found).unwrap();
    assert!(after < before, "{after} moves, not fewer than {before}");
    let r = verify::replay(&Army::pablito().lattice(), 6, &men, &found).unwrap();
    assert_eq!(r.moves as u32, after);
    let key = |s: &Step| (s.from, s.over, s.to);
    let mut a: Vec<_> = play.iter().map(key).collect();
    let mut b: Vec<_> = found.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the reordered play makes other jumps");
}
