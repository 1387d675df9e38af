//! `solarmy count`: Conway's level 4 has exactly 4 minimum armies up to reflection (Aigner
//! 1997), and small entries agree with a brute force over every start set.

mod common;
use common::solarmy;
use solarmy::problem::Army;
use solarmy::problem::geometry::{Cell, Lattice};
use solarmy::search::count::count;
use solarmy::search::minimum::round_program;
use std::collections::{BTreeSet, HashSet};

#[test]
fn conway_level_4_has_four_armies_up_to_reflection() {
    let (code, out, err) = solarmy(&["count", "--army", "conway", "--level", "4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["min_size"], 20);
    assert_eq!(v["up_to_symmetry"], 4);
    assert_eq!(v["complete"], true);
    assert_eq!(v["undecided"], 0);
    for key in [
        "problem",
        "level",
        "total",
        "unplayable",
        "seconds",
        "armies",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["problem"]["name"], "conway");
    let armies = v["armies"].as_array().unwrap();
    assert_eq!(armies.len(), 4);
    // Each army is its men under `army`, as in every command's JSON, with its play.
    assert!(
        armies
            .iter()
            .all(|a| a["army"].as_array().unwrap().len() == 20)
    );
    assert!(
        armies
            .iter()
            .all(|a| a["play"].as_array().unwrap().len() == 19)
    );
}

#[test]
fn count_out_writes_each_army_its_play_its_viewer_page_and_a_contact_sheet() {
    let dir = std::env::temp_dir().join(format!("solarmy-count-out-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (code, _, err) = solarmy(&["count", "--army", "conway", "--level", "3", "--out", d]);
    assert_eq!(code, 0, "{err}");
    for i in 1..=2 {
        for end in ["army.csv", "play.csv"] {
            assert!(dir.join(format!("conway-3-count-{i}-{end}")).exists());
        }
        let page = std::fs::read_to_string(dir.join(format!("conway-3-count-{i}.html"))).unwrap();
        assert!(!page.contains("http://") && !page.contains("https://"));
    }
    assert!(dir.join("conway-3-count.svg").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_counted_army_replays_its_own_play() {
    let out = count(Army::conway(), 3, None).unwrap();
    for a in &out.armies {
        let r = solarmy::proof::verify::replay(&Army::conway().lattice(), 3, &a.cells, &a.play)
            .unwrap();
        assert_eq!(r.men, 8);
    }
}

/// Whether some legal play from `men` puts a man on (0,0): depth-first over every jump,
/// on a window wide enough for these small armies, remembering positions seen.
fn reaches(lattice: &Lattice, men: BTreeSet<Cell>, seen: &mut HashSet<BTreeSet<Cell>>) -> bool {
    if men.contains(&Cell::ORIGIN) {
        return true;
    }
    if !seen.insert(men.clone()) {
        return false;
    }
    for &a in &men {
        for &d in &lattice.directions {
            let (b, c) = (a + d, a + 2 * d);
            if men.contains(&b)
                && !men.contains(&c)
                && lattice.contains(c)
                && c.1.abs() < 12
                && c.0.abs() < 16
            {
                let mut next = men.clone();
                next.remove(&a);
                next.remove(&b);
                next.insert(c);
                if reaches(lattice, next, seen) {
                    return true;
                }
            }
        }
    }
    false
}

fn choose(cells: &[Cell], k: usize, from: usize, pick: &mut Vec<Cell>, out: &mut Vec<Vec<Cell>>) {
    if pick.len() == k {
        out.push(pick.clone());
        return;
    }
    for i in from..cells.len() {
        pick.push(cells[i]);
        choose(cells, k, i + 1, pick, out);
        pick.pop();
    }
}

#[test]
fn small_counts_agree_with_a_brute_force_over_every_start_set() {
    for (army, level) in [
        (Army::conway(), 2),
        (Army::skew(), 3),
        (Army::hexagonal(), 3),
    ] {
        let counted = count(army, level, None).unwrap();
        assert!(counted.complete, "{army} {level}");
        let k = counted.min_size.unwrap();
        let lattice = army.lattice();
        // Every start cell of the proven boards of every last jump.
        let mut cells: BTreeSet<Cell> = BTreeSet::new();
        for d in lattice.last_jump_directions() {
            if let Some(round) = round_program(army, level, d, k) {
                let board = round.board;
                assert!(round.proven);
                for m in board.start_cells() {
                    let c = board.cells[m];
                    cells.insert(c);
                    cells.insert(lattice.reflect(c));
                }
            }
        }
        let cells: Vec<Cell> = cells.into_iter().collect();
        let mut sets = Vec::new();
        choose(&cells, k as usize, 0, &mut Vec::new(), &mut sets);
        let mut found: BTreeSet<Vec<Cell>> = BTreeSet::new();
        for set in sets {
            if reaches(&lattice, set.iter().copied().collect(), &mut HashSet::new()) {
                let mut image: Vec<Cell> = set.iter().map(|&c| lattice.reflect(c)).collect();
                image.sort();
                found.insert(set.clone().min(image));
            }
        }
        assert_eq!(
            found.len(),
            counted.up_to_symmetry,
            "{army} {level}: {found:?}"
        );
        let want: Vec<Vec<Cell>> = counted.armies.iter().map(|a| a.cells.clone()).collect();
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            want,
            "{army} {level}"
        );
    }
}

/// The count's proof: `solarmy check` accepts Conway 4's (4 armies, 8 in all), and names
/// the step of each damage: an army dropped (its cuts then exclude an army not listed), a
/// total changed, an army listed twice, a cut on a start set that is no listed army's image.
#[test]
fn a_count_proof_checks_and_its_damage_is_named() {
    use solarmy::proof::check::{Options, check};
    use solarmy::proof::format::{Claim, Evidence};
    let out = count(Army::conway(), 4, None).unwrap();
    let p = out.proof.clone().expect("a complete count has a proof");
    let s = check(&p, &Options::default()).unwrap();
    assert_eq!(s.claim, "count 4 / 8 of 20 men");
    let damaged = |f: &dyn Fn(&mut solarmy::proof::format::Proof)| {
        let mut q = p.clone();
        f(&mut q);
        check(&q, &Options::default()).unwrap_err().to_string()
    };
    let e = damaged(&|q| {
        if let Claim::Count {
            armies,
            up_to_symmetry,
            total,
            ..
        } = &mut q.claim
        {
            armies.pop();
            *up_to_symmetry -= 1;
            *total -= 2;
        }
    });
    assert!(e.contains("not an image of a listed army"), "{e}");
    let e = damaged(&|q| {
        if let Claim::Count { total, .. } = &mut q.claim {
            *total += 1;
        }
    });
    assert!(e.contains("stated 4 and 9"), "{e}");
    let e = damaged(&|q| {
        if let Claim::Count { armies, .. } = &mut q.claim {
            let first = armies[0].clone();
            armies[1] = first;
        }
    });
    assert!(e.contains("image of one listed before"), "{e}");
    let e = damaged(&|q| {
        for r in &mut q.rounds {
            if let Evidence::Direct { ip, .. } = &mut r.evidence
                && let Some(cut) = ip.def.cuts.first_mut()
            {
                cut[0] = Cell::xy(cut[0].0 + 1, cut[0].1);
            }
        }
    });
    assert!(e.contains("cut") && e.starts_with("step"), "{e}");
    // Cuts anywhere else than a count's round of K men are refused.
    let e = damaged(&|q| {
        let cut = q.rounds.iter().find_map(|r| match &r.evidence {
            Evidence::Direct { ip, .. } => ip.def.cuts.first().cloned(),
            _ => None,
        });
        for r in &mut q.rounds {
            if let (Evidence::Direct { ip, .. }, 19) = (&mut r.evidence, r.men) {
                ip.def.cuts.push(cut.clone().unwrap());
            }
        }
    });
    assert!(e.contains("only a count's program"), "{e}");
}

/// `count --cases` counts the round of K men case by case: the same armies as the count by
/// direct programs, a proof whose round of K men is its cases, each case's program carrying
/// cuts on its own armies only, which `solarmy check` accepts; a case's cut on a start set
/// no listed army's image, or the cases stated for a minimum, is refused.
#[test]
fn a_count_by_cases_finds_the_same_armies_and_its_cases_check() {
    use solarmy::proof::check::{Options, check};
    use solarmy::proof::format::{CaseOutcome, Evidence, Proof};
    use solarmy::search::count::{Run, count_on};
    for (army, level) in [
        (Army::conway(), 4),
        (Army::skew(), 4),
        (Army::diagonal(), 4),
    ] {
        let direct = count(army, level, None).unwrap();
        let run = Run {
            jobs: 2,
            by_cases: true,
            ..Run::default()
        };
        let by_cases = count_on(army, level, None, run).unwrap();
        assert!(by_cases.complete, "{army} {level}: {:?}", by_cases.reason);
        let cells = |o: &solarmy::search::count::CountOutcome| {
            o.armies.iter().map(|a| a.cells.clone()).collect::<Vec<_>>()
        };
        assert_eq!(cells(&by_cases), cells(&direct), "{army} {level}");
        assert_eq!(by_cases.total, direct.total, "{army} {level}");
        let p = by_cases
            .proof
            .clone()
            .expect("a complete count has a proof");
        check(&p, &Options::default()).unwrap();
    }
    let out = count_on(
        Army::conway(),
        4,
        None,
        Run {
            jobs: 1,
            by_cases: true,
            ..Run::default()
        },
    );
    let p = out.unwrap().proof.unwrap();
    let cut_cases = |q: &mut Proof| -> Vec<Vec<Cell>> {
        let mut cuts = Vec::new();
        for r in &mut q.rounds {
            if let Evidence::Cases { cases } = &mut r.evidence {
                for c in cases {
                    if let CaseOutcome::Ip { ip, .. } = &mut c.outcome {
                        cuts.extend(ip.def.cuts.iter_mut().map(|cut| {
                            cut[0] = Cell::xy(cut[0].0 + 1, cut[0].1);
                            cut.clone()
                        }));
                    }
                }
            }
        }
        cuts
    };
    let mut q = p.clone();
    assert!(
        !cut_cases(&mut q).is_empty(),
        "the cases carry their armies' cuts"
    );
    let e = check(&q, &Options::default()).unwrap_err().to_string();
    assert!(
        e.contains("not an image of a listed army") && e.starts_with("step"),
        "{e}"
    );
    // A case stripped of its cuts admits its armies again: refused.
    let mut q = p.clone();
    for r in &mut q.rounds {
        if let Evidence::Cases { cases } = &mut r.evidence {
            for c in cases {
                if let CaseOutcome::Ip { ip, .. } = &mut c.outcome {
                    ip.rows -= ip.def.cuts.len();
                    ip.def.cuts.clear();
                }
            }
        }
    }
    let e = check(&q, &Options::default()).unwrap_err().to_string();
    assert!(e.starts_with("step"), "{e}");
}

/// An impossible level is an answer with its reason, for `count` and for `moves` alike; and
/// an output folder that cannot be made is refused before any counting.
#[test]
fn an_impossible_level_is_answered_not_called_incomplete() {
    let (code, out, err) = solarmy(&["count", "--army", "conway", "--level", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("impossible: pagoda"), "{out}");
    assert!(!out.contains("incomplete"), "{out}");
    let (code, out, err) = solarmy(&["moves", "--army", "conway", "--level", "9"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("level 9: impossible"), "{out}");
    let (code, out, err) = solarmy(&[
        "count",
        "--army",
        "conway",
        "--level",
        "4",
        "--out",
        "/proc/no/such",
    ]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
