//! The search by levels out of memory (`moves --work DIR`, [`solarmy::play::peg::fewest::Disk`]):
//! with a memory budget low enough that every level larger than a few tens of thousands of
//! positions is sorted in runs on disk and merged, the answers are those of the in-memory
//! search; a second run resumes from the level files and builds nothing again; a disk budget
//! too small stops the search with one line.

use solarmy::play::peg::PegBoard;
use solarmy::play::peg::fewest::{self, Disk, Job, Join, Limits, Meet, Pruning, Solved, Stop};
use std::path::Path;

fn board(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml")))
        .unwrap()
}

/// Limits with the levels on disk in `dir`, 1 MiB of memory (the least the command line
/// takes: a sort holds some 50,000 positions, so larger levels go through runs).
fn on_disk(dir: &Path, pruning: Pruning, budget: u64) -> Limits {
    joined(dir, pruning, budget, Join::Auto)
}

fn joined(dir: &Path, pruning: Pruning, budget: u64, join: Join) -> Limits {
    Limits {
        pruning,
        disk: Some(Disk::new(dir.to_path_buf(), budget).joined(join)),
        ..Limits::default()
    }
    .with_memory(1 << 20)
}

fn same(what: &str, a: &Solved, b: &Solved) {
    assert_eq!(a.min_moves, b.min_moves, "{what}");
    assert_eq!(a.on_plays, b.on_plays, "{what}");
    assert_eq!(a.table, b.table, "{what}");
    assert_eq!(a.forward, b.forward, "{what}");
    assert_eq!(a.backward, b.backward, "{what}");
    assert_eq!(a.play.is_some(), b.play.is_some(), "{what}");
}

/// Every problem of the triangle of side 5, unpruned and pruned, the positions on some play
/// found by either join: the same answers on disk.
#[test]
fn the_triangle_on_disk_is_the_triangle_in_memory() {
    let b = board("triangle5");
    let dir = tempfile::tempdir().unwrap();
    for pruning in [Pruning::Off, Pruning::Shape] {
        for v in 0..b.cells.len() {
            for f in 0..b.cells.len() {
                let mem = Limits {
                    pruning: pruning.clone(),
                    ..Limits::default()
                };
                let (a, _) = fewest::solve_one(&b, v, f, &mem).unwrap();
                for join in [Join::Pairs, Join::Scan, Join::Load] {
                    let lim = joined(dir.path(), pruning.clone(), u64::MAX, join);
                    let (d, _) = fewest::solve_one(&b, v, f, &lim).unwrap();
                    let what = format!("triangle5 {v} -> {f} {} {join:?}", pruning.name());
                    same(&what, &a, &d);
                }
            }
        }
    }
}

/// A square board of side `n` (holes (0,0) … (n−1,n−1)), as a model file in `dir`.
fn square(dir: &Path, n: i32) -> PegBoard {
    let cells: Vec<String> = (0..n)
        .flat_map(|y| (0..n).map(move |x| format!("[{x}, {y}]")))
        .collect();
    let text = format!(
        "name = \"square{n}\"\ndimension = 2\ndirections = [[1, 0], [-1, 0], [0, 1], [0, -1]]\nstart = {{ kind = \"board\" }}\nembedding = \"square\"\ncells = [{}]\n",
        cells.join(", ")
    );
    let path = dir.join(format!("square{n}.toml"));
    std::fs::write(&path, text).unwrap();
    PegBoard::read(&path).unwrap()
}

/// Met by children (the middle level never built), every problem of the triangle of side 5
/// (13 jumps: the middle one level past the forward levels) and of the 4×4 square (14 jumps:
/// one set of levels serving both sides must reach the backward depth), unpruned and pruned:
/// the positions on some play, the fewest moves and the table of the search in memory.
#[test]
fn met_by_children_the_answers_are_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let mut proven = 0;
    for b in [board("triangle5"), square(dir.path(), 4)] {
        for pruning in [Pruning::Off, Pruning::Shape] {
            for v in 0..b.cells.len() {
                for f in 0..b.cells.len() {
                    let mem = Limits {
                        pruning: pruning.clone(),
                        ..Limits::default()
                    };
                    let (a, _) = fewest::solve_one(&b, v, f, &mem).unwrap();
                    let mut lim = on_disk(dir.path(), pruning.clone(), u64::MAX);
                    lim.disk = lim.disk.map(|d| d.met(Meet::Children));
                    let (d, _) = fewest::solve_one(&b, v, f, &lim).unwrap();
                    let what = format!("{} {v} -> {f} {} by children", b.name, pruning.name());
                    assert_eq!(a.min_moves, d.min_moves, "{what}");
                    assert_eq!(a.on_plays, d.on_plays, "{what}");
                    assert_eq!(a.table, d.table, "{what}");
                    assert_eq!(a.play.is_some(), d.play.is_some(), "{what}");
                    proven += no_play_checked(&b, (v, f), [&a, &d], dir.path());
                }
            }
        }
    }
    assert!(proven > 100, "{proven} proofs of no play checked");
}

/// The proofs of "no play" that the two searches of one problem state (in memory, and on
/// disk met by children), each checked in memory and on disk: how many were checked.
fn no_play_checked(b: &PegBoard, (v, f): (usize, usize), s: [&Solved; 2], dir: &Path) -> usize {
    use solarmy::proof::check::{Options, check};
    let on_disk = Options {
        work: Some(solarmy::proof::outcore::Work {
            dir: dir.join("checker"),
            memory: 1 << 16,
            parts: 2,
            log: false,
        }),
        ..Options::default()
    };
    let (vc, fc) = (b.cells[v], b.cells[f]);
    let mut n = 0;
    for s in s {
        let Some(p) = solarmy::search::fewest_moves::proof::no_play_proof(s, b, (vc, fc)) else {
            continue;
        };
        for opts in [&Options::default(), &on_disk] {
            check(&p, opts).unwrap_or_else(|e| panic!("{} {vc:?} -> {fc:?}: {e}", b.name));
            n += 1;
        }
    }
    n
}

/// An English problem whose holes are of two classes (levels seen through a symmetry on both
/// sides), by either join, against the in-memory search (a few minutes; the triangle's
/// problems cover the same paths in CI).
#[test]
#[ignore]
fn an_english_problem_of_two_hole_classes_by_either_join() {
    let b = board("english");
    let at = |x, y| b.index[&solarmy::problem::geometry::Cell(x, y, 0)];
    let (v, f) = (at(0, -2), at(0, 1));
    let (mem, _) = fewest::solve_one(&b, v, f, &Limits::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for join in [Join::Pairs, Join::Scan, Join::Load] {
        let lim = joined(dir.path(), Pruning::Off, u64::MAX, join).with_memory(4 << 20);
        let (d, _) = fewest::solve_one(&b, v, f, &lim).unwrap();
        same(&format!("english (0,-2) -> (0,1) {join:?}"), &mem, &d);
    }
}

/// The modification times of every level file under `dir`.
fn level_times(dir: &Path) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).unwrap().flatten() {
        for f in std::fs::read_dir(sub.path()).unwrap().flatten() {
            out.push((f.path(), f.metadata().unwrap().modified().unwrap()));
        }
    }
    out.sort();
    out
}

/// The English central game (levels of up to 1.9 million positions, each sorted in runs):
/// 18 moves and the same positions on some play as in memory; run again, it reads its levels
/// and writes none; a disk budget smaller than the levels stops it with one line.
#[test]
fn the_english_central_game_on_disk_resumes_and_keeps_its_budget() {
    let b = board("english");
    let c = b.index[&solarmy::problem::geometry::Cell(0, 0, 0)];
    let dir = tempfile::tempdir().unwrap();
    let (mem, _) = fewest::solve_one(&b, c, c, &Limits::default()).unwrap();
    let lim = on_disk(dir.path(), Pruning::Off, u64::MAX);
    let (d, built) = fewest::solve_one(&b, c, c, &lim).unwrap();
    same("english central game", &mem, &d);
    assert_eq!(d.min_moves, Some(18));
    assert_eq!(built, d.forward.iter().sum::<u64>());
    let before = level_times(dir.path());
    assert_eq!(
        before.len(),
        17,
        "levels 0 to 16 and nothing else: {before:?}"
    );
    let (again, _) = fewest::solve_one(&b, c, c, &lim).unwrap();
    same("english central game, resumed", &mem, &again);
    assert_eq!(
        level_times(dir.path()),
        before,
        "a resumed run rewrote a level"
    );

    let fresh = tempfile::tempdir().unwrap();
    let bits = fewest::Bits::new(&b).unwrap();
    let small = on_disk(fresh.path(), Pruning::Off, 4 << 20);
    match fewest::solve_pair(&b, &bits, (c, c), &small) {
        Err(Stop::Disk(line)) => {
            assert!(line.contains("disk budget of 4 MiB"), "{line}");
            assert!(!line.contains('\n'), "{line}");
        }
        other => panic!(
            "expected the disk budget to stop it: {:?}",
            other.map(|x| x.1)
        ),
    }
    // Only whole levels remain: no temporary file, no run.
    for (p, _) in level_times(fresh.path()) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.starts_with("level-") && name.ends_with(".lvl"),
            "{name}"
        );
    }
}

/// Every file under `dir` (relative path and bytes), sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).unwrap().flatten() {
        let Ok(files) = std::fs::read_dir(sub.path()) else {
            continue; // the pagodas kept beside the levels
        };
        for f in files.flatten() {
            let name = format!(
                "{}/{}",
                sub.file_name().to_string_lossy(),
                f.file_name().to_string_lossy()
            );
            out.push((name, std::fs::read(f.path()).unwrap()));
        }
    }
    out.sort();
    out
}

/// Levels built as a job array (three parts a level, each level merged before the next)
/// are, byte for byte, the levels one process builds, and the problem solved from them has
/// the same answer; a part whose level before is missing, and a merge with a part missing,
/// stop with one line.
#[test]
fn levels_built_in_parts_are_the_levels_built_whole() {
    let b = board("triangle5");
    let bits = fewest::Bits::new(&b).unwrap();
    let (v, f) = (1, 12);
    let (whole, parts) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let lim = on_disk(whole.path(), Pruning::Shape, u64::MAX);
    let (a, _) = fewest::solve_pair(&b, &bits, (v, f), &lim).unwrap();
    let lim = on_disk(parts.path(), Pruning::Shape, u64::MAX);
    let disk = lim.disk.clone().unwrap();
    let job = |s: &str, merge| Job::parse(s, merge).unwrap();
    let run = |j| fewest::run_step(&b, &bits, (v, f), j, &lim, &disk);
    match run(job("3:0/3", false)) {
        Err(Stop::Disk(line)) => assert!(line.contains("level 2 is not complete"), "{line}"),
        other => panic!("a part without its level before: {other:?}"),
    }
    let (depth, _) = fewest::depths(&bits);
    for level in 1..=depth {
        for k in 0..3 {
            run(job(&format!("{level}:{k}/3"), false)).unwrap();
        }
        if level == 5 {
            for (name, _) in tree(parts.path()) {
                if name.ends_with("level-5.part-1-of-3.lvl") {
                    std::fs::remove_file(parts.path().join(name)).unwrap();
                }
            }
            match run(job("5:3", true)) {
                Err(Stop::Disk(line)) => assert!(line.contains("parts are missing"), "{line}"),
                other => panic!("a merge with a part missing: {other:?}"),
            }
            run(job("5:1/3", false)).unwrap();
        }
        run(job(&format!("{level}:3"), true)).unwrap();
    }
    let (d, _) = fewest::solve_pair(&b, &bits, (v, f), &lim).unwrap();
    same("triangle5 1 -> 12 from parts", &a, &d);
    let levels = |t: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        t.into_iter()
            .filter(|(n, _)| n.contains("level-"))
            .collect()
    };
    let built = levels(tree(parts.path()));
    assert_eq!(levels(tree(whole.path())), built);
    assert!(built.len() > 2 * depth, "{}", built.len());
    assert!(Job::parse("0:0/3", false).is_err() && Job::parse("4:3/3", false).is_err());
}
