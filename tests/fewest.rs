//! The exact fewest-move search by levels on boards ([`solarmy::play::peg::fewest`]): its minimum
//! equals a plain breadth-first search over moves (sets of cells, no symmetry, no bits) on
//! every problem of small boards, its plays replay, and the catalogue agrees with itself.

mod common;
use common::solarmy;
use solarmy::play::peg::PegBoard;
use solarmy::play::peg::fewest::{self, Limits, Status};
use solarmy::problem::geometry::Cell;
use solarmy::proof::verify;
use std::collections::{BTreeSet, HashSet};
use std::path::Path;

fn board(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml")))
        .unwrap()
}

/// A board from a list of holes (square lattice, four directions), through a model file.
fn square_board(name: &str, cells: &[Cell]) -> PegBoard {
    let dir = std::env::temp_dir().join(format!("solarmy-fewest-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list: Vec<String> = cells
        .iter()
        .map(|c| format!("[{}, {}]", c.0, c.1))
        .collect();
    let text = format!(
        "name = \"{name}\"\ndimension = 2\ndirections = [[1, 0], [-1, 0], [0, 1], [0, -1]]\nstart = {{ kind = \"board\" }}\nembedding = \"square\"\ncells = [{}]\n",
        list.join(", ")
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    let b = PegBoard::read(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    b
}

/// Every move of a position: every chain of jumps of one man, by plain set manipulation.
fn successors(b: &PegBoard, holes: &HashSet<Cell>, pos: &BTreeSet<Cell>) -> Vec<BTreeSet<Cell>> {
    let mut out = Vec::new();
    for &a in pos {
        let mut stack = vec![(a, pos.clone())];
        while let Some((at, cur)) = stack.pop() {
            for &d in &b.directions {
                let over = Cell::xy(at.0 + d.0, at.1 + d.1);
                let to = Cell::xy(at.0 + 2 * d.0, at.1 + 2 * d.1);
                if holes.contains(&to) && cur.contains(&over) && !cur.contains(&to) {
                    let mut next = cur.clone();
                    next.remove(&at);
                    next.remove(&over);
                    next.insert(to);
                    out.push(next.clone());
                    stack.push((to, next));
                }
            }
        }
    }
    out
}

/// The fewest moves from every hole but `v` to one man on `f`, by breadth-first search.
fn bfs(b: &PegBoard, v: Cell, f: Cell) -> Option<u32> {
    let holes: HashSet<Cell> = b.cells.iter().copied().collect();
    let goal: BTreeSet<Cell> = [f].into_iter().collect();
    let mut layer = vec![
        b.cells
            .iter()
            .copied()
            .filter(|&c| c != v)
            .collect::<BTreeSet<_>>(),
    ];
    let mut seen = HashSet::new();
    let mut depth = 0;
    while !layer.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for pos in &layer {
            for s in successors(b, &holes, pos) {
                if s == goal {
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

fn check_all(b: &PegBoard, problems: &[(Cell, Cell)]) {
    let holes: HashSet<Cell> = b.cells.iter().copied().collect();
    for &(v, f) in problems {
        let (s, _) = fewest::solve_one(b, b.index[&v], b.index[&f], &Limits::default()).unwrap();
        assert_eq!(s.min_moves, bfs(b, v, f), "{} {v:?} -> {f:?}", b.name);
        if let Some(play) = &s.play {
            let start: Vec<Cell> = b.cells.iter().copied().filter(|&c| c != v).collect();
            let r = verify::replay_board(&holes, &b.directions, &start, play, &[f]).unwrap();
            assert_eq!(Some(r.moves as u32), s.min_moves);
            // Every position of a shortest play is counted at its level, in its column.
            assert!(s.table[0][s.min_moves.unwrap() as usize] == 1);
        }
    }
}

#[test]
fn levels_equal_bfs_on_every_triangle_problem() {
    let b = board("triangle5");
    let all: Vec<(Cell, Cell)> = b
        .cells
        .iter()
        .flat_map(|&v| b.cells.iter().map(move |&f| (v, f)))
        .collect();
    check_all(&b, &all);
}

#[test]
fn levels_equal_bfs_on_a_small_cross_and_a_rectangle() {
    let cross: Vec<Cell> = (-2..=2)
        .flat_map(|x| (-2..=2).map(move |y| Cell::xy(x, y)))
        .filter(|c: &Cell| c.0.abs().min(c.1.abs()) <= 1)
        .collect();
    let b = square_board("cross21", &cross);
    let problems: Vec<(Cell, Cell)> = b.problems().into_iter().take(12).collect();
    check_all(&b, &problems);
    let rect: Vec<Cell> = (0..4)
        .flat_map(|x| (0..4).map(move |y| Cell::xy(x, y)))
        .collect();
    let b = square_board("square16", &rect);
    check_all(&b, &b.problems());
}

#[test]
fn the_catalogue_matches_one_problem_at_a_time() {
    let b = board("triangle5");
    let mut seen = 0;
    let entries = fewest::catalogue(&b, &Limits::default(), None, &mut |_| seen += 1).unwrap();
    assert_eq!(seen, entries.len());
    let solvable = entries
        .iter()
        .filter(|e| e.solved.min_moves.is_some())
        .count();
    assert_eq!(solvable, 12);
    assert!(entries.iter().all(|e| e.status == Status::Searched));
    let past = Some(std::time::Instant::now());
    let late = fewest::catalogue(&b, &Limits::default(), past, &mut |_| {}).unwrap();
    assert!(late.len() == entries.len() && late.iter().all(|e| e.status == Status::TimeLimit));
    // Levels over the limit stop their problem, not the catalogue: every entry is listed.
    let small = Limits {
        max_level: 20,
        ..Limits::default()
    };
    let stopped = fewest::catalogue(&b, &small, None, &mut |_| {}).unwrap();
    assert_eq!(stopped.len(), entries.len());
    assert!(stopped.iter().any(|e| e.status == Status::TooMany));
    assert!(
        stopped
            .iter()
            .all(|e| e.status == Status::TooMany || e.status == Status::Searched)
    );
    for e in &entries {
        let (s, _) = fewest::solve_one(
            &b,
            b.index[&e.vacancy],
            b.index[&e.finish],
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            s.min_moves,
            e.solved.min_moves,
            "{:?}",
            (e.vacancy, e.finish)
        );
        assert_eq!(s.on_plays, e.solved.on_plays);
    }
    // With no room for reaches beyond the current problem's, every answer is the same.
    let tight = Limits {
        reach_bytes: 0,
        ..Limits::default()
    };
    let rebuilt = fewest::catalogue(&b, &tight, None, &mut |_| {}).unwrap();
    let answers = |es: &[fewest::Entry]| -> Vec<_> {
        es.iter()
            .map(|e| {
                (
                    e.vacancy,
                    e.finish,
                    e.solved.min_moves,
                    e.solved.on_plays.clone(),
                )
            })
            .collect()
    };
    assert_eq!(answers(&rebuilt), answers(&entries));
    assert!(rebuilt.iter().map(|e| e.built).sum::<u64>() > entries.iter().map(|e| e.built).sum());
}

#[test]
fn too_large_boards_and_levels_are_one_line_errors() {
    let b = board("wiegleb");
    assert!(fewest::Bits::new(&b).is_ok());
    let lim = Limits {
        max_level: 10,
        ..Limits::default()
    };
    let e = fewest::solve_one(&b, 0, 0, &lim).unwrap_err();
    assert!(
        e.contains("more than 10 positions") && !e.contains('\n'),
        "{e}"
    );
}

/// The English central game: 18 moves (Bergholt 1912, Beasley 1964), proven by the levels.
/// Heavy (some 15 s of CPU): run with --ignored; scripts/board-moves records it.
#[test]
#[ignore]
fn english_central_game_takes_18_moves() {
    let b = board("english");
    let c = b.index[&Cell::xy(0, 0)];
    let (s, _) = fewest::solve_one(&b, c, c, &Limits::default()).unwrap();
    assert_eq!(s.min_moves, Some(18));
}

/// Beasley's endgame table of the English board's centre ("Some observations on the analysis
/// of peg solitaire by computer"): without constraints, the positions one man on the centre
/// is reached from in 1, 2, 3, 4 moves and no fewer number 1, 16, 979 and 14 115, up to the
/// board's symmetry (level 0 is the finish itself).
#[test]
fn the_english_endgame_table_is_beasleys() {
    let b = board("english");
    let bits = fewest::Bits::new(&b).unwrap();
    let centre = b.index[&Cell::xy(0, 0)];
    let t = fewest::endgame::table(&bits, centre, 4, usize::MAX);
    let counts: Vec<usize> = t.iter().map(Vec::len).collect();
    assert_eq!(counts, [1, 1, 16, 979, 14115]);
}

/// `moves --level-counts` on the command line: both tables as JSON, the kept counts never
/// above the counts in all, and the option refused beside --ida.
#[test]
fn level_counts_on_the_command_line() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/english.toml");
    let m = model.to_str().unwrap();
    let args = ["moves", "--model", m, "--vacancy", "0,0", "--finish", "0,0"];
    let (code, out, err) = solarmy(
        &[
            &args[..],
            &["--level-counts", "3", "--prune", "shape", "--json"],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["status"], "counted");
    let levels = j["levels"].as_array().unwrap();
    let endgame: Vec<u64> = levels
        .iter()
        .map(|l| l["endgame"].as_u64().unwrap())
        .collect();
    assert_eq!(endgame, [1, 1, 16, 979]);
    for l in levels {
        assert!(l["endgame_kept"].as_u64() <= l["endgame"].as_u64());
        assert!(l["forward_kept"].as_u64() <= l["forward"].as_u64());
    }
    let (code, _, err) = solarmy(&[&args[..], &["--level-counts", "3", "--ida"]].concat());
    assert_eq!(code, 2, "{err}");
}
