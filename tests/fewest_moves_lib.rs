//! The fewest moves as a library user calls them, without the command line
//! ([`solarmy::search::fewest_moves`], [`solarmy::search::state`]): an army's search seeded,
//! stopped, resumed from its state and finished; a board problem by iterative deepening and
//! by levels, which agree; and a state that comes back only under its own stamp.

use solarmy::play::moves::{Options, Problem, Status};
use solarmy::play::peg::PegBoard;
use solarmy::play::peg::fewest;
use solarmy::problem::Army;
use solarmy::report::export;
use solarmy::search::fewest_moves::{army, board, levels, resume};
use solarmy::search::state::{self, Stamp};
use std::path::{Path, PathBuf};

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn an_army_is_seeded_resumed_and_solved_by_library_calls() {
    let (a, level) = (Army::conway(), 4);
    let from = manifest("results/armies/conway-4-army.csv");
    let men = export::read_army(&from).unwrap();
    let problem = Problem::army(a, level, &men).unwrap();
    // The sibling play is the seed.
    assert_eq!(
        army::sibling_play(&from),
        Some(manifest("results/armies/conway-4-play.csv"))
    );
    let (seed, note) = army::seed_play(None, &from, (a, level, &men), &export::read_play).unwrap();
    assert!(seed.is_some() && note.is_none());
    let dir = tempfile::tempdir().unwrap();
    let resumed = army::resume(Some(dir.path()), (a, level, &men), seed);
    assert!(resumed.earlier.is_none());
    let ans = army::solve(&problem, (a, level, &men), resumed, Options::default()).unwrap();
    assert_eq!((ans.status, ans.min_moves), (Status::Optimal, Some(10)));
    // The state it kept: the bound, read back under the problem's stamp, and a rerun that
    // starts from it says so.
    let path = resume::path(dir.path(), a.name(), level);
    let kept = resume::read(&path, a.name(), level, &men).unwrap();
    assert_eq!(kept.lower_bound, 10);
    let resumed = army::resume(Some(dir.path()), (a, level, &men), None);
    assert!(resumed.seed.is_some(), "the kept play seeds the rerun");
    let again = army::solve(&problem, (a, level, &men), resumed, Options::default()).unwrap();
    assert_eq!(again.min_moves, Some(10));
    assert_eq!(again.resumed_below, Some(10));
}

#[test]
fn a_board_problem_by_deepening_and_by_levels_agree() {
    let b = PegBoard::read(&manifest("models/triangle5.toml")).unwrap();
    let (v, f) = (
        solarmy::problem::geometry::Cell::xy(2, 0),
        solarmy::problem::geometry::Cell::xy(2, 0),
    );
    let seed = board::seed_play(&b, (v, f), None, &export::read_play).unwrap();
    let opts = Options {
        seed,
        ..Options::default()
    };
    let ida = board::solve(&b, (v, f), opts).unwrap();
    let (s, built) = levels::solve(&b, (v, f), &fewest::Limits::default())
        .unwrap()
        .expect("not stopped");
    assert_eq!(ida.status, Status::Optimal);
    assert_eq!(ida.min_moves, Some(9));
    assert_eq!(s.min_moves, Some(9));
    assert!(built > 0);
    assert_eq!(
        levels::per_level(&s).iter().sum::<u64>(),
        s.table.iter().flatten().sum::<u64>()
    );
    // The translation keeps the play's shape: there and back is the play itself.
    let play = ida.play.unwrap();
    assert_eq!(
        board::shift_play(&board::shift_play(&play, f, -1), f, 1),
        play
    );
}

#[test]
fn a_state_comes_back_only_under_its_own_stamp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x-state.json");
    let stamp = Stamp::new("count", serde_json::json!("abc"), serde_json::json!(null));
    state::write(&path, &stamp, &vec![7u32, 8]).unwrap();
    assert_eq!(state::read::<Vec<u32>>(&path, &stamp), Some(vec![7, 8]));
    let other = Stamp::new("count", serde_json::json!("abd"), serde_json::json!(null));
    assert_eq!(state::read::<Vec<u32>>(&path, &other), None);
    state::remove(&path);
    assert!(!path.exists());
}

/// The counts an unpruned search by levels states for its proof are the checker's own, on
/// every problem of the triangle where it states them (a play, and the same symmetries for
/// the vacancy, the finish and the two): so a proof written from them checks, and the
/// writer needs no second search. Pruned levels state none.
#[test]
fn the_counts_a_search_states_are_the_checkers() {
    use solarmy::proof::fewest::prepare;
    use solarmy::search::fewest_moves::proof::{proof_of, stated_levels};
    let b = PegBoard::read(&manifest("models/triangle5.toml")).unwrap();
    let cells = b.cells.clone();
    let work = tempfile::tempdir().unwrap();
    let on_disk = fewest::Limits {
        disk: levels::disk(
            Some(work.path()),
            None,
            (fewest::Meet::Level, fewest::Join::Auto),
        )
        .unwrap(),
        ..fewest::Limits::default()
    };
    let in_memory = fewest::Limits::default();
    let mut checked = 0;
    for (v, f, lim) in cells
        .iter()
        .flat_map(|&v| cells.iter().map(move |&f| (v, f)))
        .flat_map(|(v, f)| [(v, f, &in_memory), (v, f, &on_disk)])
    {
        let (s, _) = levels::solve(&b, (v, f), lim)
            .unwrap()
            .expect("not stopped");
        let Some(play) = &s.play else { continue };
        let start: Vec<_> = cells.iter().copied().filter(|&c| c != v).collect();
        let named = (b.name.as_str(), Some(b.source.clone()), b.fingerprint(v, f));
        let proof = proof_of(named, 0, Some((v, f)), (&start, play));
        let claim = prepare(&proof, (v, f), false).unwrap();
        if let Some(stated) = stated_levels(&s, &b, (v, f)) {
            assert_eq!(Some(stated), claim.levels, "{v:?}->{f:?}");
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
    let pruned = fewest::Limits {
        pruning: fewest::Pruning::Shape,
        ..fewest::Limits::default()
    };
    let (v, f) = (cells[0], cells[0]);
    let (s, _) = levels::solve(&b, (v, f), &pruned)
        .unwrap()
        .expect("not stopped");
    assert!(s.pagodas == 0 || stated_levels(&s, &b, (v, f)).is_none());
}
