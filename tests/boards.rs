//! Classical boards (issue 14): the English catalogue arrives at Bell's count, the 15-hole
//! triangle agrees with an exhaustive search over all its positions, board proofs check and
//! every damage to them is named, and bad input gets one line.

use solarmy::play::peg::PegBoard;
use solarmy::play::peg::catalog;
use solarmy::play::peg::settle::{self, Limits, Verdict};
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{Options, check};
use solarmy::proof::farkas::Tree;
use solarmy::proof::format::{BoardVerdict, Claim, Proof};
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

fn board(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml")))
        .unwrap()
}

/// Bell's catalogue: 21 solvable problems on the English board, up to symmetry.
#[test]
fn english_board_has_21_solvable_problems() {
    let b = board("english");
    let out = catalog::run(&b, &Limits::default(), None, |_| {}).unwrap();
    assert!(out.iter().all(|o| o.verdict.solvable().is_some()));
    assert_eq!(catalog::solvable(&out), 21);
    let central = out
        .iter()
        .find(|o| (o.vacancy, o.finish) == (Cell::ORIGIN, Cell::ORIGIN))
        .unwrap();
    assert_eq!(central.verdict.reason(), "play");
}

/// Every position reachable from each single vacancy, by brute force over the 2^15 positions
/// (no symmetry, no pruning, nothing shared with the solver but the model file's holes).
fn triangle_truth(b: &PegBoard) -> HashSet<(usize, usize)> {
    let n = b.cells.len();
    let idx = |c: Cell| b.cells.iter().position(|&h| h == c);
    let mut lines = Vec::new();
    for (a, &Cell(x, y, _)) in b.cells.iter().enumerate() {
        for &Cell(dx, dy, _) in &b.directions {
            if let (Some(o), Some(t)) = (
                idx(Cell::xy(x + dx, y + dy)),
                idx(Cell::xy(x + 2 * dx, y + 2 * dy)),
            ) {
                lines.push((a, o, t));
            }
        }
    }
    let mut solvable = HashSet::new();
    for v in 0..n {
        let start: u32 = ((1u32 << n) - 1) & !(1 << v);
        let mut seen = vec![false; 1 << n];
        seen[start as usize] = true;
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for &(a, o, t) in &lines {
                if p >> a & 1 == 1 && p >> o & 1 == 1 && p >> t & 1 == 0 {
                    let q = p ^ (1 << a) ^ (1 << o) ^ (1 << t);
                    if !seen[q as usize] {
                        seen[q as usize] = true;
                        stack.push(q);
                    }
                }
            }
        }
        solvable.extend((0..n).filter(|&f| seen[1 << f]).map(|f| (v, f)));
    }
    solvable
}

#[test]
fn triangle_catalogue_agrees_with_exhaustive_search() {
    let b = board("triangle5");
    let truth = triangle_truth(&b);
    let out = catalog::run(&b, &Limits::default(), None, |_| {}).unwrap();
    let total: usize = out.iter().map(|o| b.orbit_size(o.vacancy, o.finish)).sum();
    assert_eq!(total, 15 * 15);
    for (i, &v) in b.cells.iter().enumerate() {
        for (j, &f) in b.cells.iter().enumerate() {
            let rep = b.canonical(v, f);
            let o = out.iter().find(|o| (o.vacancy, o.finish) == rep).unwrap();
            assert_eq!(
                o.verdict.solvable(),
                Some(truth.contains(&(i, j))),
                "{v:?} -> {f:?}: {:?}",
                o.verdict.reason()
            );
        }
    }
}

fn proof_of(name: &str, v: Cell, f: Cell) -> (Proof, &'static str) {
    let b = board(name);
    let o = settle::settle(&b, v, f, &Limits::default()).unwrap();
    (settle::proof(&b, &o).unwrap(), o.verdict.reason())
}

/// A damaged copy's check error, which must name a step.
fn damaged(p: &Proof, damage: impl FnOnce(&mut Proof)) -> String {
    let mut q = p.clone();
    damage(&mut q);
    let e = check(&q, &Options::default())
        .expect_err("damage must be caught")
        .to_string();
    assert!(e.starts_with("step "), "{e}");
    e
}

fn verdict(p: &mut Proof) -> &mut BoardVerdict {
    match &mut p.claim {
        Claim::Board(c) => &mut c.verdict,
        _ => panic!("not a board claim"),
    }
}

#[test]
fn board_proofs_check_and_every_damage_is_named() {
    let (class, r) = proof_of("french", Cell::ORIGIN, Cell::ORIGIN);
    assert_eq!(r, "position class");
    check(&class, &Options::default()).unwrap();
    let e = damaged(&class, |p| {
        if let BoardVerdict::PositionClass { witness, .. } = verdict(p) {
            witness.pop();
        }
    });
    assert!(
        e.contains("witness is not invariant") || e.contains("parity"),
        "{e}"
    );
    let e = damaged(&class, |p| {
        if let BoardVerdict::PositionClass { start_parity, .. } = verdict(p) {
            *start_parity ^= 1;
        }
    });
    assert!(e.contains("the start has parity"), "{e}");

    let (count, r) = proof_of("diamond41", Cell::xy(-2, 0), Cell::xy(-1, 0));
    assert_eq!(r, "resource count");
    check(&count, &Options::default()).unwrap();
    let e = damaged(&count, |p| {
        if let BoardVerdict::NoJumpVector {
            certificate: Tree::Leaf(f),
            ..
        } = verdict(p)
        {
            f.multipliers[0].1 += 1;
        }
    });
    assert!(e.contains("certificate"), "{e}");
    let e = damaged(&count, |p| {
        if let Claim::Board(c) = &mut p.claim {
            c.finish = Cell::xy(2, 0); // another problem than the one recorded
        }
    });
    assert!(e.contains("the proof records problem"), "{e}");
    let e = damaged(&count, |p| {
        p.fingerprint = None;
        if let Claim::Board(c) = &mut p.claim {
            c.finish = Cell::xy(2, 0); // solvable: no certificate can hold
        }
    });
    assert!(e.contains("certificate"), "{e}");

    let (play, r) = proof_of("english", Cell::ORIGIN, Cell::ORIGIN);
    assert_eq!(r, "play");
    check(&play, &Options::default()).unwrap();
    let e = damaged(&play, |p| p.play.as_mut().unwrap().jumps.swap(0, 1));
    assert!(e.contains("illegal"), "{e}");
    let e = damaged(&play, |p| {
        p.model = Some(p.model.as_ref().unwrap().replace("[0, 0], ", ""))
    });
    assert!(e.contains("step"), "{e}");

    // Without the pruned exhaustion, whose quick tries settle these problems first.
    let b = board("triangle5");
    let plain = Limits {
        pruned: false,
        quick_probe: false,
        ..Limits::default()
    };
    let out = catalog::run(&b, &plain, None, |_| {}).unwrap();
    let o = out
        .iter()
        .find(|o| matches!(o.verdict, Verdict::Exhausted { .. }))
        .unwrap();
    let ex = settle::proof(&b, o).unwrap();
    check(&ex, &Options::default()).unwrap();
    let e = damaged(&ex, |p| {
        if let BoardVerdict::Unreachable { positions } = verdict(p) {
            *positions += 1;
        }
    });
    assert!(e.contains("positions are reachable"), "{e}");
}

fn solarmy(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_solarmy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (o.status.code().unwrap(), s(o.stdout), s(o.stderr))
}

#[test]
fn board_commands_answer_and_refuse_bad_input_in_one_line() {
    let (code, out, _) = solarmy(&[
        "solve",
        "--model",
        "models/english.toml",
        "--vacancy",
        "0,0",
        "--finish",
        "3,0",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\"solvable\":true"), "{out}");
    for bad in [
        vec![
            "solve",
            "--model",
            "models/english.toml",
            "--vacancy",
            "3,3",
            "--finish",
            "0,0",
        ],
        vec![
            "solve",
            "--model",
            "models/english.toml",
            "--vacancy",
            "x",
            "--finish",
            "0,0",
        ],
        vec![
            "solve",
            "--model",
            "models/english.toml",
            "--vacancy",
            "0,0",
        ],
        vec![
            "solve",
            "--army",
            "conway",
            "--vacancy",
            "0,0",
            "--finish",
            "0,0",
        ],
        vec!["catalog", "--model", "models/conway.toml"],
        vec!["catalog", "--model", "no/such.toml"],
    ] {
        let (code, _, err) = solarmy(&bad);
        assert_ne!(code, 0, "{bad:?}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{bad:?}: {err}");
    }
}

/// A board problem's search resumed after its first round of effort ends as one run of both
/// rounds would: the same verdict, cuts and integer programs (what `solve --out` keeps
/// after Ctrl-C and a rerun takes).
#[test]
fn a_search_resumed_after_its_first_round_ends_as_one_run() {
    let b = board("wiegleb");
    let vf = (Cell(-4, 0, 0), Cell(-4, 0, 0));
    let limits = |rounds| Limits {
        rounds,
        vectors_per_round: 2,
        search_budget: 20_000,
        beam_widths: vec![500],
        late_beam_widths: vec![],
        endgame_positions: 10_000,
        pruned: false,
        ..Limits::default()
    };
    let (whole, all) = settle::settle_from(&b, vf, &limits(2), Default::default()).unwrap();
    let (_, first) = settle::settle_from(&b, vf, &limits(1), Default::default()).unwrap();
    assert_eq!(first.rounds, 1);
    let (resumed, again) = settle::settle_from(&b, vf, &limits(2), first).unwrap();
    let why = |o: &settle::Outcome| match &o.verdict {
        Verdict::Undecided { why } => why.clone(),
        v => v.reason().to_string(),
    };
    assert_eq!(why(&resumed), why(&whole));
    assert_eq!((resumed.ips, resumed.cuts), (whole.ips, whole.cuts));
    assert_eq!((again.rounds, &again.cuts), (all.rounds, &all.cuts));
    // Both rounds ran to the end, so the second was really resumed.
    assert_eq!(all.rounds, 2, "{}", why(&whole));
}
