//! Property tests: exact arithmetic against floats, the backtracker against exhaustive order
//! search, the replay checker against corrupted plays, the CSV readers against garbage.

mod common;
use common::scratch;
use proptest::prelude::*;
use solarmy::play::order::{Ordering, order};
use solarmy::problem::Army;
use solarmy::problem::geometry::Cell;
use solarmy::proof::verify::{self, Step};
use solarmy::reduce::board::{Board, Limit};
use solarmy::search::minimum::{Request, find_minimum};
use solarmy::weight::golden::Golden;
use solarmy::weight::pagoda::Pagoda;
use std::sync::OnceLock;

proptest! {
    #[test]
    fn golden_arithmetic_matches_floats(a in -1000i128..1000, b in -1000i128..1000,
                                        c in -1000i128..1000, d in -1000i128..1000, e in -20i32..20) {
        let x = Golden::new(a, b);
        let y = Golden::new(c, d);
        let close = |g: Golden, f: f64| (g.to_f64() - f).abs() <= 1e-6 * (1.0 + f.abs());
        prop_assert!(close(x + y, x.to_f64() + y.to_f64()));
        prop_assert!(close(x * y, x.to_f64() * y.to_f64()));
        prop_assert!(close(Golden::pow(e), ((5f64.sqrt() - 1.0) / 2.0).powi(e)));
        let diff = x.to_f64() - y.to_f64();
        if diff.abs() > 1e-6 {
            prop_assert_eq!(x > y, diff > 0.0);
        }
    }
}

/// Every order of the jumps, tried one by one: does any use them all legally?
fn exhaustive(board: &Board, start: &[usize], jumps: &[usize]) -> bool {
    fn rec(board: &Board, occ: &mut Vec<bool>, left: &mut Vec<usize>) -> bool {
        if left.is_empty() {
            return true;
        }
        for i in 0..left.len() {
            let j = board.jumps[left[i]];
            if occ[j.from] && occ[j.over] && !occ[j.to] {
                let k = left.remove(i);
                occ[j.from] = false;
                occ[j.over] = false;
                occ[j.to] = true;
                let ok = rec(board, occ, left);
                occ[j.from] = true;
                occ[j.over] = true;
                occ[j.to] = false;
                left.insert(i, k);
                if ok {
                    return true;
                }
            }
        }
        false
    }
    let mut occ = vec![false; board.cells.len()];
    for &c in start {
        occ[c] = true;
    }
    rec(board, &mut occ, &mut jumps.to_vec())
}

fn small_board(army: Army) -> Board {
    let l = army.lattice();
    let d = l.last_jump_directions()[0];
    let p = Pagoda::improved(&l, d);
    let limit = Limit {
        men: 0,
        max_exponent: 4,
        max_loss: Golden::from_int(10),
        proven: false,
    };
    Board::new(&p, 1, &limit)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn backtracker_agrees_with_exhaustive_search(army in 0usize..5, seed in any::<u64>(), walk in any::<bool>()) {
        let army = Army::all()[army];
        let board = small_board(army);
        let mut rng = seed | 1;
        let mut next = |n: usize| { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; (rng % n as u64) as usize };
        let cells = board.cells.len();
        let mut start: Vec<usize> = (0..6).map(|_| next(cells)).collect();
        start.sort();
        start.dedup();
        let mut jumps: Vec<usize> = Vec::new();
        if walk {
            // A random legal play: an order surely exists.
            let mut occ = vec![false; cells];
            for &c in &start { occ[c] = true; }
            for _ in 0..5 {
                let legal: Vec<usize> = (0..board.jumps.len())
                    .filter(|&j| { let x = board.jumps[j]; occ[x.from] && occ[x.over] && !occ[x.to] })
                    .collect();
                if legal.is_empty() { break; }
                let j = legal[next(legal.len())];
                let x = board.jumps[j];
                occ[x.from] = false; occ[x.over] = false; occ[x.to] = true;
                jumps.push(j);
            }
        } else {
            for _ in 0..1 + next(5) { jumps.push(next(board.jumps.len())); }
        }
        let mut multiset: Vec<(usize, u32)> = Vec::new();
        for &j in &jumps {
            match multiset.iter_mut().find(|(k, _)| *k == j) {
                Some(e) => e.1 += 1,
                None => multiset.push((j, 1)),
            }
        }
        let want = exhaustive(&board, &start, &jumps);
        let got = order(&board, &start, &multiset, |_| 0, 1_000_000);
        match got {
            Ordering::Found(seq) => {
                prop_assert!(want);
                let mut sorted = seq.clone(); sorted.sort();
                let mut all = jumps.clone(); all.sort();
                prop_assert_eq!(sorted, all);
                prop_assert!(replay_in_order(&board, &start, &seq));
            }
            Ordering::Impossible => prop_assert!(!want),
            Ordering::Budget => prop_assert!(false, "budget exhausted on a tiny instance"),
        }
    }
}

fn replay_in_order(board: &Board, start: &[usize], seq: &[usize]) -> bool {
    let mut occ = vec![false; board.cells.len()];
    for &c in start {
        occ[c] = true;
    }
    seq.iter().all(|&j| {
        let x = board.jumps[j];
        let ok = occ[x.from] && occ[x.over] && !occ[x.to];
        occ[x.from] = false;
        occ[x.over] = false;
        occ[x.to] = true;
        ok
    })
}

fn diagonal_5() -> &'static (Vec<Cell>, Vec<Step>) {
    static PLAY: OnceLock<(Vec<Cell>, Vec<Step>)> = OnceLock::new();
    PLAY.get_or_init(|| {
        let out = find_minimum(&Request {
            time_limit: Some(60.0),
            ..Request::new(Army::diagonal(), 5)
        })
        .unwrap();
        (out.army_cells, out.play)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn verify_rejects_every_single_cell_corruption(jump in any::<prop::sample::Index>(), cell in 0usize..3,
                                                   axis in any::<bool>(), up in any::<bool>()) {
        let (army, play) = diagonal_5();
        let lattice = Army::diagonal().lattice();
        prop_assert!(verify::replay(&lattice, 5, army, play).is_ok());
        let i = jump.index(play.len());
        let mut bad = play.clone();
        let delta = if up { 1 } else { -1 };
        let c = match cell { 0 => &mut bad[i].from, 1 => &mut bad[i].over, _ => &mut bad[i].to };
        if axis { c.0 += delta } else { c.1 += delta }
        let err = verify::replay(&lattice, 5, army, &bad).unwrap_err().to_string();
        let want = format!("jump {} ", i + 1);
        prop_assert!(err.starts_with(&want), "{}", err);
    }

    #[test]
    fn csv_readers_never_panic(text in "\\PC{0,200}", header in prop::sample::select(vec!["x,y\n", "step,from_x,from_y,over_x,over_y,to_x,to_y\n", ""])) {
        let dir = scratch("fuzz");
        let p = dir.join("f.csv");
        std::fs::write(&p, format!("{header}{text}")).unwrap();
        let _ = solarmy::report::export::read_army(&p);
        let _ = solarmy::report::export::read_play(&p);
    }
}

#[test]
fn a_case_sweep_resumes_from_its_log() {
    use solarmy::search::sweep::Sweep;
    let dir = std::env::temp_dir().join(format!("solarmy-sweep-{}", std::process::id()));
    let sweep = Sweep::new(Army::hexagonal(), 7, 141);
    let first = sweep.solve(&dir, Some(60.0), false).unwrap();
    assert!(first.complete && first.found.is_none());
    assert!(first.results.iter().any(|r| r.status == "infeasible"));
    // A rerun reads every settled case from the log: same results, same recorded times.
    let again = sweep.solve(&dir, Some(60.0), false).unwrap();
    let key = |r: &solarmy::search::sweep::CaseResult| {
        (r.case.clone(), r.status.clone(), r.seconds.to_bits())
    };
    assert_eq!(
        first.results.iter().map(key).collect::<Vec<_>>(),
        again.results.iter().map(key).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Model files the schema could be handed (issue 36): jumps without their opposite
/// (`[[1,0],[0,1],[-1,-1]]` panicked in the tail of the pagoda counts), knight moves, the
/// issue's long jumps beside Conway's, random small sets of jumps, and sets of unit jumps in
/// pairs, on every kind of cells and start region.
fn hostile_model() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(ISSUE_MODELS.to_vec()).prop_map(String::from);
    let coordinate = prop_oneof![3 => -1i32..=1, 1 => -2i32..=2];
    let random = (
        prop::collection::vec((coordinate.clone(), coordinate), 1..5),
        prop::bool::weighted(0.8),
    )
        .prop_map(|(v, both_ways)| {
            let mut dirs: Vec<(i32, i32)> = Vec::new();
            for d in v {
                let mut add = |d: (i32, i32)| {
                    if d != (0, 0) && !dirs.contains(&d) {
                        dirs.push(d);
                    }
                };
                add(d);
                if both_ways {
                    add((-d.0, -d.1));
                }
            }
            let list: Vec<String> = dirs.iter().map(|d| format!("[{}, {}]", d.0, d.1)).collect();
            format!("[{}]", list.join(", "))
        });
    // Unit jumps in pairs: most of these the exact weights cover.
    let pairs = [
        "[1, 0], [-1, 0]",
        "[0, 1], [0, -1]",
        "[1, 1], [-1, -1]",
        "[1, -1], [-1, 1]",
    ];
    let unit = (1..16usize).prop_map(move |mask| {
        let dirs: Vec<&str> = (0..4)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| pairs[i])
            .collect();
        format!("[{}]", dirs.join(", "))
    });
    let cells = prop::sample::select(vec!["\"all\"", "\"even\"", "\"triangle\""]);
    let start = prop::sample::select(vec![
        "{ kind = \"half-space\" }",
        "{ kind = \"outside\", metric = \"chebyshev\" }",
        "{ kind = \"outside\", metric = \"manhattan\" }",
    ]);
    (prop_oneof![fixed, random, unit], cells, start).prop_map(|(dirs, cells, start)| {
        format!(
            "name = \"h\"\ndimension = 2\ndirections = {dirs}\ncells = {cells}\nstart = {start}\n"
        )
    })
}

/// The issue's models, as a file names them.
const ISSUE_MODELS: [&str; 5] = [
    "[[1, 0], [0, 1], [-1, -1]]",
    "[[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]]",
    "[[1, 0], [-1, 0], [0, 1], [0, -1], [0, 80], [0, -80]]",
    "[[1, 0], [-1, 0], [0, 1], [0, -1], [0, 3], [0, -3]]",
    "[[1, 0], [-1, 0], [0, 1], [0, -1], [0, 10], [0, -10]]",
];

/// `solve`, `bounds`, `cases`, `count` and `moves` on a model file: each refused in one line
/// (exit 2) or answered, never a panic (exit 101). The number of commands refused.
fn never_panics(model: &str, level: i32) -> Result<usize, TestCaseError> {
    let dir = scratch("hostile-models");
    let path = dir.join(format!("{:016x}.toml", fxhash(model)));
    std::fs::write(&path, model).unwrap();
    let (p, l) = (path.to_str().unwrap(), level.to_string());
    let limit = ["--time-limit", "1"];
    let runs: [Vec<&str>; 5] = [
        [
            &["solve", "--model", p, "--level", &l, "--max-cases", "1000"][..],
            &limit,
        ]
        .concat(),
        vec!["bounds", "--model", p],
        vec!["cases", "--model", p, "--level", &l, "--size", "3"],
        [&["count", "--model", p, "--level", &l][..], &limit].concat(),
        [&["moves", "--model", p, "--level", &l][..], &limit].concat(),
    ];
    let mut refused = 0;
    for args in runs {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_solarmy"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let code = o.status.code().unwrap_or(-1);
        let err = String::from_utf8_lossy(&o.stderr);
        prop_assert!(
            code != 101 && code >= 0,
            "{model}\n{args:?}: exit {code}: {err}"
        );
        prop_assert!(!err.contains("panicked"), "{model}\n{args:?}: {err}");
        if code == 2 {
            refused += 1;
            prop_assert_eq!(
                err.trim().lines().count(),
                1,
                "{}\n{:?}: {}",
                model,
                args,
                err
            );
        }
    }
    Ok(refused)
}

/// The issue's five direction sets on all cells, men in a half-plane: every command refuses
/// each in one line (before, the first two panicked in the pagoda counts' tail).
#[test]
fn the_issues_models_are_refused_by_every_command() {
    for dirs in ISSUE_MODELS {
        let model = format!(
            "name = \"h\"\ndimension = 2\ndirections = {dirs}\ncells = \"all\"\nstart = {{ kind = \"half-space\" }}\n"
        );
        assert_eq!(never_panics(&model, 3).unwrap(), 5, "{dirs}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn hostile_models_never_panic(model in hostile_model(), level in 1i32..=3) {
        never_panics(&model, level)?;
    }
}

/// A file name per model text.
fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}
