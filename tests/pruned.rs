//! The pruned exhaustion of board problems (issue 14): on small boards it agrees with a plain
//! search over every reachable position, its proofs check, and every damage to them (a pagoda
//! that one jump increases, a wrong count, a wrong group) is named by a step.

use solarmy::play::peg::PegBoard;
use solarmy::play::peg::exhaust::{self, Exhaustion};
use solarmy::play::peg::settle::{self, Outcome, Verdict};
use solarmy::play::peg::sharpen::Sharpening;
use solarmy::problem::Problem;
use solarmy::problem::geometry::Cell;
use solarmy::proof::check::{Options, check};
use solarmy::proof::format::{BoardVerdict, Claim, Proof};
use std::collections::HashSet;
use std::path::Path;

/// A small board of the square lattice: the cells of −3 … 3 squared that `keep` keeps.
fn small(name: &str, keep: impl Fn(i32, i32) -> bool) -> PegBoard {
    let mut cells = Vec::new();
    for y in -3i32..=3 {
        for x in -3i32..=3 {
            if keep(x, y) {
                cells.push(format!("[{x}, {y}]"));
            }
        }
    }
    let text = format!(
        "name = \"{name}\"\ndescription = \"test board\"\ndimension = 2\n\
         directions = [[1, 0], [-1, 0], [0, 1], [0, -1]]\nstart = {{ kind = \"board\" }}\n\
         embedding = \"square\"\ncells = [{}]\n",
        cells.join(", ")
    );
    PegBoard::new(&Problem::parse(&text).unwrap()).unwrap()
}

/// The 25-hole diamond |x| + |y| <= 3: Bell's resource count of the 41-hole diamond has a
/// counterpart on it (−1 on the edge, +1 on one colour), which settles every problem at once.
fn diamond25() -> PegBoard {
    small("diamond25", |x, y| x.abs() + y.abs() <= 3)
}

/// The 5 × 5 square less its corners plus a tail: some problems solvable, some pruned.
fn square() -> PegBoard {
    small("square", |x, y| x.abs() <= 2 && y.abs() <= 2)
}

fn model(name: &str) -> PegBoard {
    PegBoard::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("models/{name}.toml")))
        .unwrap()
}

/// Every finish reachable alone from every hole but v: a plain search, no pruning, no symmetry.
fn plain(b: &PegBoard, v: usize) -> HashSet<usize> {
    let n = b.cells.len();
    let start = (0..n).filter(|&h| h != v).fold(0u64, |m, h| m | 1 << h);
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    let mut alone = HashSet::new();
    while let Some(p) = stack.pop() {
        if p.count_ones() == 1 {
            alone.insert(p.trailing_zeros() as usize);
        }
        for j in &b.jumps {
            let (a, o, c) = (1u64 << j.from, 1u64 << j.over, 1u64 << j.to);
            if p & a != 0 && p & o != 0 && p & c == 0 && seen.insert(p ^ a ^ o ^ c) {
                stack.push(p ^ a ^ o ^ c);
            }
        }
    }
    alone
}

#[test]
fn pruned_exhaustion_agrees_with_the_plain_search() {
    let sharp = Sharpening {
        rounds: 2,
        samples: 60,
        limit: 2,
        seconds: 1.0,
    };
    for b in [diamond25(), square(), model("triangle5")] {
        if b.name != "triangle5" {
            assert!(
                !exhaust::candidates(&b).is_empty(),
                "no pagoda to prune with"
            );
        }
        let mut vacancies: Vec<Cell> = b.problems().iter().map(|p| p.0).collect();
        vacancies.dedup();
        // One vacancy of each 25-hole board (on the square its finishes are solvable and
        // not) keeps the plain search to seconds.
        match b.name.as_str() {
            "square" => vacancies.retain(|v| *v == Cell::xy(-2, 0)),
            "diamond25" => vacancies.retain(|v| *v == Cell::xy(-1, 0)),
            _ => {}
        }
        for v in vacancies {
            let vi = b.index[&v];
            let truth = plain(&b, vi);
            for (pv, f) in b.problems().into_iter().filter(|p| p.0 == v) {
                let fi = b.index[&f];
                // With the problem's own pagodas too: they may only prune dead positions.
                for how in [None, Some(&sharp)] {
                    let got = match exhaust::exhaust(&b, b.index[&pv], fi, 10_000_000, how) {
                        Exhaustion::NoPlay(_) => false,
                        Exhaustion::Reached => true,
                        Exhaustion::TooMany(e) => panic!("{e}"),
                    };
                    assert_eq!(got, truth.contains(&fi), "{}: {v:?} -> {f:?}", b.name);
                }
            }
        }
    }
}

/// The counts of the meeting at `depth` (the checker's own search, as the prover uses it).
fn met(b: &PegBoard, v: Cell, f: Cell, depth: usize) -> (usize, Vec<u64>, Vec<u64>, u64) {
    counts(b, v, f, |space, start| {
        solarmy::proof::levels::meet(space, start, depth)
    })
}

/// The group's size and the counts of a search of (v, f) pruned by the board's pagodas.
fn counts(
    b: &PegBoard,
    v: Cell,
    f: Cell,
    search: impl Fn(&solarmy::proof::levels::Space, u64) -> solarmy::proof::levels::Outcome,
) -> (usize, Vec<u64>, Vec<u64>, u64) {
    use solarmy::proof::levels::{Outcome as Met, Space};
    let (vi, fi) = (b.index[&v], b.index[&f]);
    let n = b.cells.len();
    let jumps: Vec<_> = b.jumps.iter().map(|j| (j.from, j.over, j.to)).collect();
    let perms = exhaust::group(b, fi);
    let pagodas = exhaust::candidates(b);
    let space = Space {
        n,
        jumps: &jumps,
        perms: &perms,
        pagodas: &pagodas,
        finish: fi,
        max_level: 10_000_000,
        log: None,
        stop: None,
        shown: false,
    };
    let start = (0..n).filter(|&h| h != vi).fold(0u64, |m, h| m | 1 << h);
    let Met::Counts {
        forward,
        backward,
        shared,
    } = search(&space, start)
    else {
        panic!("too many positions")
    };
    (perms.len(), forward, backward, shared)
}

/// The balanced meeting (the prover's) states counts that the checker's meeting at the same
/// forward depth recomputes exactly, for solvable and unsolvable problems alike, and it finds
/// a shared position exactly when the plain search reaches the finish.
#[test]
fn the_balanced_meeting_is_the_meeting_at_its_depth() {
    for b in [square(), model("triangle5")] {
        let v = b.problems()[0].0;
        let truth = plain(&b, b.index[&v]);
        for (_, f) in b.problems().into_iter().filter(|p| p.0 == v) {
            let (_, forward, backward, _) = counts(&b, v, f, solarmy::proof::levels::balanced);
            let (_, fw, bw, shared) = met(&b, v, f, forward.len() - 1);
            assert_eq!(
                (&fw, &bw),
                (&forward, &backward),
                "{}: {v:?} -> {f:?}",
                b.name
            );
            assert_eq!(
                shared > 0,
                truth.contains(&b.index[&f]),
                "{}: {v:?} -> {f:?}",
                b.name
            );
        }
    }
}

/// A pruned proof of an unsolvable problem whose sides meet half way (the prover settles it
/// from one side; the checker takes any depth).
fn pruned_proof(b: &PegBoard) -> Proof {
    let (v, f) = (Cell::xy(-2, -2), Cell::xy(-2, -2));
    let (vi, fi) = (b.index[&v], b.index[&f]);
    assert!(!plain(b, vi).contains(&fi), "the problem is not solvable");
    let Exhaustion::NoPlay(mut p) = exhaust::exhaust(b, vi, fi, 10_000_000, None) else {
        panic!("the pruned search settles it")
    };
    // The prover's own proof (one side dies out within its small limit) checks too.
    let one = Outcome {
        vacancy: v,
        finish: f,
        verdict: Verdict::Pruned(p.clone()),
        ips: 0,
        cuts: 0,
        seconds: 0.0,
    };
    check(&settle::proof(b, &one).unwrap(), &Options::default()).unwrap();
    let (_, forward, backward, shared) = met(b, v, f, 12);
    assert_eq!(shared, 0);
    assert!(forward.len() > 3 && backward.len() > 3);
    (p.forward, p.backward) = (forward, backward);
    let o = Outcome {
        vacancy: v,
        finish: f,
        verdict: Verdict::Pruned(p),
        ips: 0,
        cuts: 0,
        seconds: 0.0,
    };
    settle::proof(b, &o).unwrap()
}

fn damaged(p: &Proof, damage: impl FnOnce(&mut BoardVerdict)) -> String {
    let mut q = p.clone();
    if let Claim::Board(c) = &mut q.claim {
        damage(&mut c.verdict);
    }
    let e = check(&q, &Options::default())
        .expect_err("damage must be caught")
        .to_string();
    assert!(e.starts_with("step "), "{e}");
    e
}

#[test]
fn pruned_proofs_check_and_every_damage_is_named() {
    let b = square();
    let p = pruned_proof(&b);
    let s = check(&p, &Options::default()).unwrap();
    assert!(s.claim.contains("pruned exhaustive search"), "{}", s.claim);
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { pagodas, .. } = v {
            // A weight of 5 at the centre: a jump into it gains.
            pagodas[0].retain(|(c, _)| *c != Cell::ORIGIN);
            pagodas[0].push((Cell::ORIGIN, 5));
        }
    });
    assert!(e.contains("increases on the jump"), "{e}");
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { forward, .. } = v {
            forward[2] += 1;
        }
    });
    assert!(e.contains("forward level 2"), "{e}");
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { backward, .. } = v {
            *backward.last_mut().unwrap() -= 1;
        }
    });
    assert!(e.contains("backward level"), "{e}");
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { symmetries, .. } = v {
            *symmetries += 1;
        }
    });
    assert!(e.contains("symmetries fix the finish"), "{e}");
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { pagodas, .. } = v {
            pagodas[0].push((Cell::xy(9, 9), 1));
        }
    });
    assert!(e.contains("not a hole"), "{e}");
    let e = damaged(&p, |v| {
        if let BoardVerdict::Exhausted { pagodas, .. } = v {
            pagodas[0][0].1 = i64::MAX;
        }
    });
    assert!(e.contains("beyond"), "{e}");
}

/// A claim on a solvable problem, its counts the true ones, is refused: the sides meet.
#[test]
fn a_pruned_claim_on_a_solvable_problem_is_refused() {
    let b = square();
    let mut q = pruned_proof(&b);
    let (v, f) = (Cell::xy(-2, 0), Cell::xy(-1, 0));
    assert!(
        plain(&b, b.index[&v]).contains(&b.index[&f]),
        "the problem is solvable"
    );
    let (symmetries, fw, bw, shared) = met(&b, v, f, 12);
    assert!(shared > 0);
    // Another problem than the one the proof was written for: its fingerprint goes too.
    q.fingerprint = None;
    if let Claim::Board(c) = &mut q.claim {
        c.vacancy = v;
        c.finish = f;
        if let BoardVerdict::Exhausted {
            symmetries: s,
            forward,
            backward,
            ..
        } = &mut c.verdict
        {
            (*s, *forward, *backward) = (symmetries, fw, bw);
        }
    }
    let e = check(&q, &Options::default())
        .expect_err("a solvable problem")
        .to_string();
    assert!(e.contains("share") && e.starts_with("step "), "{e}");
}

/// The pagodas made for a problem of the 41-hole diamond hold on every jump, are new, and
/// rule out positions the board's own pagodas keep (the premise the checker verifies again).
#[test]
fn pagodas_made_for_a_problem_hold_on_every_jump() {
    let b = model("diamond41");
    let (v, f) = (b.index[&Cell::xy(-3, -1)], b.index[&Cell::xy(3, 1)]);
    let known = exhaust::candidates(&b);
    let how = Sharpening {
        rounds: 2,
        samples: 100,
        limit: 2,
        seconds: 1.0,
    };
    let made = solarmy::play::peg::sharpen::sharpen(&b, &known, v, f, &how);
    assert!(!made.is_empty(), "no pagoda found");
    for p in &made {
        assert!(!known.contains(p));
        assert!(b.jumps.iter().all(|j| p[j.to] <= p[j.from] + p[j.over]));
    }
}

/// Levels on disk for a test: a small sorting budget (so that runs are spilled and merged)
/// and three parts a level.
fn disk(tag: &str) -> solarmy::proof::outcore::Work {
    let dir = std::env::temp_dir().join(format!("solarmy-pruned-{tag}-{}", std::process::id()));
    solarmy::proof::outcore::Work {
        dir,
        memory: 8 << 10,
        parts: 3,
        log: false,
    }
}

/// The search on disk (complement problems through their duality, the others with both
/// sides) counts every level as the search in memory does, and shares positions exactly
/// when it does; meeting by children, its backward side stops a level short and it finds a
/// play exactly when there is one.
#[test]
fn the_search_on_disk_counts_as_the_one_in_memory() {
    let work = disk("agree");
    for b in [square(), model("triangle5")] {
        let mut reach = std::collections::HashMap::new();
        // The square's problems from its diagonal (corner, centre and between) only: the
        // rest take time and add no case.
        let diagonal = |v: Cell| b.name != "square" || v.0 == v.1;
        for (v, f) in b.problems().into_iter().filter(|p| diagonal(p.0)) {
            let reached = reach.entry(v).or_insert_with(|| plain(&b, b.index[&v]));
            let truth = reached.contains(&b.index[&f]);
            let (_, forward, backward, _) = counts(&b, v, f, solarmy::proof::levels::balanced);
            let d = forward.len() - 1;
            let ours = met(&b, v, f, d);
            let on_disk = counts(&b, v, f, |space, start| {
                solarmy::proof::outcore::meet(space, start, d, false, &work).unwrap()
            });
            assert_eq!(on_disk, ours, "{}: {v:?} -> {f:?}", b.name);
            if backward.len() + d < b.cells.len() || d + 2 >= b.cells.len() {
                continue; // a side died out, or no level before the last
            }
            let (_, fw, bw, shared) = counts(&b, v, f, |space, start| {
                solarmy::proof::outcore::meet(space, start, d, true, &work).unwrap()
            });
            assert_eq!(fw, forward, "{}: {v:?} -> {f:?}", b.name);
            assert_eq!(
                bw,
                backward[..backward.len() - 1],
                "{}: {v:?} -> {f:?}",
                b.name
            );
            assert_eq!(shared > 0, truth, "{}: {v:?} -> {f:?}", b.name);
        }
    }
    std::fs::remove_dir_all(&work.dir).unwrap();
}

/// A pruned proof checks with its levels on disk, and again stated as a meeting by
/// children (the last backward level dropped); a damaged count is named there too, and a
/// meeting by children on a solvable problem is refused.
#[test]
fn a_pruned_proof_checks_on_disk_and_by_children() {
    let b = square();
    let p = pruned_proof(&b);
    let work = disk("proof");
    let on_disk = Options {
        work: Some(work.clone()),
        ..Options::default()
    };
    check(&p, &on_disk).unwrap();
    let mut q = p.clone();
    if let Claim::Board(c) = &mut q.claim
        && let BoardVerdict::Exhausted {
            backward, children, ..
        } = &mut c.verdict
    {
        backward.pop();
        *children = true;
    }
    check(&q, &Options::default()).unwrap();
    check(&q, &on_disk).unwrap();
    let e = damaged(&q, |v| {
        if let BoardVerdict::Exhausted { forward, .. } = v {
            forward[3] += 1;
        }
    });
    assert!(e.contains("forward level 3"), "{e}");
    let (v, f) = (Cell::xy(-2, 0), Cell::xy(-1, 0));
    let (symmetries, fw, mut bw, shared) = met(&b, v, f, 12);
    assert!(shared > 0);
    bw.pop();
    q.fingerprint = None;
    if let Claim::Board(c) = &mut q.claim {
        (c.vacancy, c.finish) = (v, f);
        if let BoardVerdict::Exhausted {
            symmetries: s,
            forward,
            backward,
            ..
        } = &mut c.verdict
        {
            (*s, *forward, *backward) = (symmetries, fw, bw);
        }
    }
    let e = check(&q, &on_disk)
        .expect_err("a solvable problem")
        .to_string();
    assert!(e.contains("share") && e.starts_with("step "), "{e}");
    std::fs::remove_dir_all(&work.dir).unwrap();
}

/// The positions reachable from the English board's central vacancy, up to its 8 symmetries,
/// are 23,475,688 (Durango Bill's count, quoted on Bell's peg-solitaire page), level by level
/// alike in the checker's search by levels and the solver's: two searches of different code
/// against the literature.
#[test]
fn the_english_board_reaches_the_published_count_of_positions() {
    let b = model("english");
    let c = b.index[&Cell::ORIGIN];
    let n = b.cells.len();
    let jumps: Vec<_> = b.jumps.iter().map(|j| (j.from, j.over, j.to)).collect();
    let perms = exhaust::group(&b, c);
    let space = solarmy::proof::levels::Space {
        n,
        jumps: &jumps,
        perms: &perms,
        pagodas: &[],
        finish: c,
        max_level: 10_000_000,
        log: None,
        stop: None,
        shown: false,
    };
    let start = (0..n).filter(|&h| h != c).fold(0u64, |m, h| m | 1 << h);
    let checker: Vec<usize> = solarmy::proof::levels::every_level(&space, start, true, n - 1)
        .unwrap()
        .iter()
        .map(Vec::len)
        .collect();
    assert_eq!(checker.iter().sum::<usize>(), 23_475_688, "{checker:?}");
    use solarmy::play::peg::fewest::{Bits, Limits, Reach};
    let bits = Bits::new(&b).unwrap();
    let reach = Reach::new(&bits, c, n - 2, &Limits::default()).unwrap();
    let solver: Vec<usize> = reach.levels.iter().map(|l| l.len()).collect();
    assert_eq!(solver[..], checker[..solver.len()]);
}
