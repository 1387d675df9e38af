//! How many of the real infeasible IPs get exact certificates, and how fast (ignored: run
//! with `cargo test --release --test certify -- --ignored --nocapture`).
//!
//! For each army and level, every IP a published lower bound rests on is built as in
//! `minimum::find_minimum` (rounds from the pagoda bound up to the minimum − 1, every last
//! jump whose pagoda bound allows that many men, and the last jumps of the minimum's own
//! round that HiGHS finds infeasible), turned into a [`LinearSystem`], and handed to
//! [`certify::farkas`], then to [`certify::tree`] if that finds nothing. A second test does
//! the same for the case IPs of hexagonal level 7 (144 men).
//! `SOLARMY_CERT_ONLY=hexagonal-6` restricts the runs to names containing that text;
//! `SOLARMY_CERT_NODES` and `SOLARMY_CERT_SECONDS` set the tree's limits (default 2000
//! nodes, 120 s). Prints one CSV line per IP.

use solarmy::ip::certify;
use solarmy::ip::model::{Model, Spec};
use solarmy::ip::solve::{self, IpStatus, Options};
use solarmy::problem::Army;
use solarmy::proof::farkas::{self, LinearSystem, Row};
use solarmy::reduce::board::{Board, Limit, MARGIN, reach_profile};
use solarmy::reduce::cases;
use solarmy::search::sweep::Sweep;
use solarmy::weight::golden::Golden;
use solarmy::weight::pagoda::Pagoda;
use std::time::Instant;

/// The IP of `model::formulate` as a linear system: one binary STA column per start cell,
/// then one J column in [0, men cap] per jump; a balance row per cell, then the max-men,
/// min-men, men-in, jumps-at-most and excluded-set rows.
fn system(board: &Board, spec: &Spec) -> LinearSystem {
    let start: Vec<usize> = board.start_cells().collect();
    let cap = spec.max_men.unwrap_or(start.len() as u64) as i64;
    let mut sta = vec![None; board.cells.len()];
    for (k, &m) in start.iter().enumerate() {
        sta[m] = Some(k);
    }
    let jump = |n: usize| start.len() + n;
    let mut cols = vec![(0, Some(1)); start.len()];
    cols.extend(board.jumps.iter().map(|_| (0, Some(cap))));
    let mut balance: Vec<Vec<(usize, i64)>> = (0..board.cells.len())
        .map(|m| sta[m].map(|k| (k, 1)).into_iter().collect())
        .collect();
    for (n, j) in board.jumps.iter().enumerate() {
        balance[j.from].push((jump(n), -1));
        balance[j.over].push((jump(n), -1));
        balance[j.to].push((jump(n), 1));
    }
    let mut rows: Vec<Row> = balance
        .into_iter()
        .enumerate()
        .map(|(m, coefs)| {
            let fin = spec.fin.contains(&m) as i64;
            Row {
                coefs,
                lo: Some(fin),
                hi: Some(fin),
            }
        })
        .collect();
    let men: Vec<(usize, i64)> = (0..start.len()).map(|k| (k, 1)).collect();
    if let Some(k) = spec.max_men {
        rows.push(Row {
            coefs: men.clone(),
            lo: None,
            hi: Some(k as i64),
        });
    }
    if let Some(k) = spec.min_men {
        rows.push(Row {
            coefs: men.clone(),
            lo: Some(k as i64),
            hi: None,
        });
    }
    for (cells, n) in &spec.men_in {
        rows.push(Row {
            coefs: cells
                .iter()
                .filter_map(|&m| sta[m])
                .map(|k| (k, 1))
                .collect(),
            lo: Some(*n as i64),
            hi: Some(*n as i64),
        });
    }
    for (js, n) in &spec.jumps_at_most {
        rows.push(Row {
            coefs: js.iter().map(|&j| (jump(j), 1)).collect(),
            lo: None,
            hi: Some(*n as i64),
        });
    }
    for set in &spec.excluded {
        let coefs = start
            .iter()
            .enumerate()
            .map(|(k, m)| (k, if set.contains(m) { -1 } else { 1 }))
            .collect();
        rows.push(Row {
            coefs,
            lo: Some(1 - set.len() as i64),
            hi: None,
        });
    }
    LinearSystem { cols, rows }
}

/// Every IP of round `k` of `army` at `level`, as `minimum::find_minimum` builds it:
/// (last jump, board, spec).
fn round(army: Army, level: i32, k: u64) -> Vec<(solarmy::problem::geometry::Cell, Board, Spec)> {
    let lattice = army.lattice();
    let mut out = Vec::new();
    for d in lattice.last_jump_directions() {
        let pagoda = Pagoda::improved(&lattice, d);
        let profile = pagoda.start_profile(level);
        let Some(bound) = profile.lower_bound(Golden::ONE) else {
            continue;
        };
        if bound > k {
            continue;
        }
        // minimum::round_limit.
        let mut limit = Limit::new(&profile, k, Golden::ONE, MARGIN).unwrap();
        if !limit.proven {
            let cap = pagoda.trusted_exponent() - 8;
            if let Some(l) = cases::enumerate(&profile, k, Golden::ONE, &[1, 2], cap, 300_000, None)
                .limit(k)
                .filter(|l| l.max_exponent <= cap)
            {
                limit = l;
            }
        }
        let board = Board::new(&pagoda, level, &limit);
        let spec = Spec {
            fin: board.last_jump_position(d),
            max_men: Some(k),
            min_men: (k > bound).then_some(k),
            ..Spec::default()
        };
        out.push((d, board, spec));
    }
    out
}

/// The smallest pagoda bound over the last jumps: the first round.
fn first_round(army: Army, level: i32) -> u64 {
    let lattice = army.lattice();
    lattice
        .last_jump_directions()
        .into_iter()
        .filter_map(|d| {
            Pagoda::improved(&lattice, d)
                .start_profile(level)
                .lower_bound(Golden::ONE)
        })
        .min()
        .unwrap()
}

/// Certifies one IP and prints a CSV line; returns (plain Farkas found, tree found).
fn measure(name: &str, sys: &LinearSystem, nodes: usize, seconds: f64) -> (bool, bool) {
    let t = Instant::now();
    let cert = certify::farkas(sys);
    let farkas_s = t.elapsed().as_secs_f64();
    if let Some(c) = &cert {
        assert_eq!(farkas::check(sys, c), Ok(()));
    }
    let (mut tree_nodes, mut tree_size, mut tree_s, mut found) = (String::new(), 0, 0.0, false);
    if cert.is_none() {
        let t = Instant::now();
        let (tree, n) = certify::tree_with_stats(sys, nodes, Some(seconds));
        tree_s = t.elapsed().as_secs_f64();
        tree_nodes = n.to_string();
        if let Some(tree) = &tree {
            assert_eq!(farkas::check_tree(sys, tree), Ok(()));
            tree_size = certify::size(tree);
            found = true;
        } else {
            tree_nodes += " (gave up)";
        }
    }
    println!(
        "{name},{},{},{},{farkas_s:.3},{tree_nodes},{tree_size},{tree_s:.2}",
        sys.cols.len(),
        sys.rows.len(),
        cert.is_some(),
    );
    (cert.is_some(), found)
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Whether HiGHS's MIP finds the IP infeasible within a minute.
fn infeasible(board: &Board, spec: &Spec) -> bool {
    let opts = Options {
        time_limit: Some(60.0),
        ..Options::default()
    };
    solve::solve(Model::build(board, spec), &opts)
        .unwrap()
        .status
        == IpStatus::Infeasible
}

#[test]
#[ignore]
fn certificates_for_the_infeasible_rounds() {
    let only = std::env::var("SOLARMY_CERT_ONLY").unwrap_or_default();
    let nodes = env("SOLARMY_CERT_NODES", 2000);
    let seconds = env("SOLARMY_CERT_SECONDS", 120.0);
    // (army, level, minimum) from results/min-sizes.csv.
    let cases = [
        (Army::conway(), 4, 20),
        (Army::skew(), 5, 19),
        (Army::skew(), 6, 46),
        (Army::pablito(), 5, 19),
        (Army::hexagonal(), 5, 17),
        (Army::hexagonal(), 6, 36),
        (Army::diagonal(), 4, 8),
        (Army::diagonal(), 6, 23),
        (Army::diagonal(), 7, 46),
        (Army::pablito(), 6, 53),
        (Army::diagonal(), 8, 123),
    ];
    let (mut ips, mut plain, mut trees) = (0, 0, 0);
    println!("ip,cols,rows,farkas,farkas_s,tree_nodes,tree_size,tree_s");
    for (army, level, min) in cases {
        let name = format!("{army}-{level}");
        if !name.contains(&only) {
            continue;
        }
        // The rounds below the minimum, then the directions of the minimum's round that
        // have no army (solved before or after the one that has).
        for k in first_round(army, level)..=min {
            for (d, board, spec) in round(army, level, k) {
                if k == min && !infeasible(&board, &spec) {
                    continue;
                }
                let sys = system(&board, &spec);
                let ip = format!("{name}-{k}men-d{}_{}", d.0, d.1);
                let (p, t) = measure(&ip, &sys, nodes, seconds);
                ips += 1;
                plain += p as usize;
                trees += t as usize;
            }
        }
    }
    println!("{ips} infeasible IPs: {plain} plain Farkas certificates, {trees} trees");
}

/// The case IPs of a case split, as `sweep::Sweep::solve_case` builds them: (name, board,
/// spec) for every case no reduction rules out.
fn case_ips(army: Army, level: i32, men: u64) -> Vec<(String, Board, Spec)> {
    let sweep = Sweep::new(army, level, men);
    let lattice = army.lattice();
    let mut out = Vec::new();
    for f in &sweep.families {
        let pagoda = Pagoda::improved(&lattice, f.last_jump);
        for c in f.cases.iter().filter(|c| c.ruled_out.is_none()) {
            let reached = reach_profile(&c.profile, c.slack);
            let limit = Limit {
                men,
                max_exponent: reached.min(pagoda.trusted_exponent()),
                max_loss: c.slack,
                proven: reached <= pagoda.trusted_exponent(),
            };
            let board = Board::new(&pagoda, level, &limit);
            let d = f.last_jump;
            let mut spec = Spec {
                fin: board.last_jump_position(d),
                max_men: Some(men),
                ..Spec::default()
            };
            for i in 0..=limit.max_exponent {
                let cells: Vec<usize> = board
                    .start_cells()
                    .filter(|&x| board.exponent[x] == Some(i))
                    .collect();
                if !cells.is_empty() {
                    let n = c.profile.iter().find(|p| p.0 == i).map_or(0, |p| p.1);
                    spec.men_in.push((cells, n));
                }
            }
            let lossy: Vec<usize> = (0..board.jumps.len())
                .filter(|&j| !board.loss[j].is_zero())
                .collect();
            if let Some(least) = lossy.iter().map(|&j| board.loss[j]).min() {
                let mut most = 0u64;
                while (most + 1) as i128 * least <= c.slack {
                    most += 1;
                }
                spec.jumps_at_most.push((lossy, most));
            }
            let name = format!(
                "{army}-{level}-{men}men-d{}_{}-case{}",
                d.0,
                d.1,
                c.key().replace(',', ";")
            );
            out.push((name, board, spec));
        }
    }
    out
}

/// Hexagonal level 7 rests on the cases of 144 men: certify every `SOLARMY_CERT_STRIDE`-th
/// case (default 10) whose name contains `SOLARMY_CERT_ONLY`, at most `SOLARMY_CERT_CASES`
/// of them (default 31); with `SOLARMY_CERT_MIP` set, time HiGHS's MIP on each first.
#[test]
#[ignore]
fn certificates_for_hexagonal_7_cases() {
    let nodes = env("SOLARMY_CERT_NODES", 2000);
    let seconds = env("SOLARMY_CERT_SECONDS", 120.0);
    let stride = env("SOLARMY_CERT_STRIDE", 10usize);
    let most = env("SOLARMY_CERT_CASES", 31usize);
    let t = Instant::now();
    let ips = case_ips(Army::hexagonal(), 7, 144);
    println!(
        "{} case IPs enumerated in {:.1} s",
        ips.len(),
        t.elapsed().as_secs_f64()
    );
    println!("ip,cols,rows,farkas,farkas_s,tree_nodes,tree_size,tree_s");
    let (mut n, mut plain, mut trees) = (0, 0, 0);
    let only = std::env::var("SOLARMY_CERT_ONLY").unwrap_or_default();
    let chosen = ips.iter().filter(|ip| ip.0.contains(&only));
    for (name, board, spec) in chosen.step_by(stride.max(1)).take(most) {
        if std::env::var("SOLARMY_CERT_MIP").is_ok() {
            let t = Instant::now();
            let infeasible = infeasible(board, spec);
            println!(
                "HiGHS MIP: infeasible {infeasible} in {:.2} s",
                t.elapsed().as_secs_f64()
            );
        }
        let sys = system(board, spec);
        let (p, t) = measure(name, &sys, nodes, seconds);
        n += 1;
        plain += p as usize;
        trees += t as usize;
    }
    println!("{n} case IPs: {plain} plain Farkas certificates, {trees} trees");
}

/// The programs of a proof file that carry no certificate, as the checker rebuilds them:
/// (label, system).
fn uncertified(path: &str) -> Vec<(String, LinearSystem)> {
    use solarmy::proof::format::{CaseOutcome, Evidence, IpProof, Proof};
    let proof = Proof::read(std::path::Path::new(path)).unwrap();
    let army: Army = proof.army.parse().unwrap();
    let mut out = Vec::new();
    let mut add = |label: String, ip: &IpProof| {
        if ip.certificate.is_none() {
            let sys = solarmy::ip::evidence::system(army, proof.level, &ip.def).unwrap();
            out.push((label, sys));
        }
    };
    for (i, r) in proof.rounds.iter().enumerate() {
        match &r.evidence {
            Evidence::Direct { ip, .. } => add(format!("round{i}"), ip),
            Evidence::Cases { cases } => {
                for (j, c) in cases.iter().enumerate() {
                    if let CaseOutcome::Ip { ip, .. } = &c.outcome {
                        add(format!("round{i}-case{j}"), ip);
                    }
                }
            }
            Evidence::Weight { .. } => {}
        }
    }
    out
}

/// The programs of results/proofs/hexagonal-7.json.gz without a certificate, handed to
/// the tree with large budgets (`SOLARMY_CERT_NODES`, default 100000;
/// `SOLARMY_CERT_SECONDS`, default 1800; `SOLARMY_CERT_ONLY` picks labels).
#[test]
#[ignore]
fn certificates_for_the_uncertified_hexagonal_7_programs() {
    let nodes = env("SOLARMY_CERT_NODES", 100_000);
    let seconds = env("SOLARMY_CERT_SECONDS", 1800.0);
    let only = std::env::var("SOLARMY_CERT_ONLY").unwrap_or_default();
    println!("ip,cols,rows,farkas,farkas_s,tree_nodes,tree_size,tree_s");
    for (label, sys) in uncertified("results/proofs/hexagonal-7.json.gz") {
        if label.contains(&only) {
            measure(&label, &sys, nodes, seconds);
        }
    }
}
