//! How many of the real infeasible IPs get exact certificates, and how fast (ignored: run
//! with `cargo test --release --test certify -- --ignored --nocapture`).
//!
//! For each army and level, every IP a published lower bound rests on is built as in
//! `minimum::find_minimum` (rounds from the pagoda bound up to the minimum − 1, every last
//! jump whose pagoda bound allows that many men), turned into a [`LinearSystem`], and
//! handed to [`certify::farkas`], then to [`certify::tree`] if that finds nothing.
//! `SOLARMY_CERT_ONLY=hexagonal-6` restricts the runs to names containing that text;
//! `SOLARMY_CERT_NODES` and `SOLARMY_CERT_SECONDS` set the tree's limits.

use solarmy::board::{Board, Limit, MARGIN};
use solarmy::cases;
use solarmy::certify;
use solarmy::geometry::Army;
use solarmy::golden::Golden;
use solarmy::model::Spec;
use solarmy::pagoda::Pagoda;
use solarmy::proof::farkas::{self, LinearSystem, Row};
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
fn round(army: Army, level: i32, k: u64) -> Vec<((i32, i32), Board, Spec)> {
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
            if let Some(l) = cases::enumerate(&profile, k, Golden::ONE, &[1, 2], cap, 300_000)
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

#[test]
#[ignore]
fn certificates_for_the_infeasible_rounds() {
    let only = std::env::var("SOLARMY_CERT_ONLY").unwrap_or_default();
    let nodes: usize = std::env::var("SOLARMY_CERT_NODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let seconds: f64 = std::env::var("SOLARMY_CERT_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120.0);
    // (army, level, minimum) from results/min-sizes.csv.
    let cases = [
        (Army::Conway, 4, 20),
        (Army::Skew, 5, 19),
        (Army::Skew, 6, 46),
        (Army::Pablito, 5, 19),
        (Army::Hexagonal, 5, 17),
        (Army::Hexagonal, 6, 36),
        (Army::Diagonal, 4, 8),
        (Army::Diagonal, 6, 23),
        (Army::Diagonal, 7, 46),
    ];
    let (mut ips, mut plain, mut trees) = (0, 0, 0);
    println!("ip,cols,rows,farkas,farkas_s,tree_nodes,tree_size,tree_s");
    for (army, level, min) in cases {
        let name = format!("{army}-{level}");
        if !name.contains(&only) {
            continue;
        }
        for k in first_round(army, level)..min {
            for (d, board, spec) in round(army, level, k) {
                let sys = system(&board, &spec);
                ips += 1;
                let t = Instant::now();
                let cert = certify::farkas(&sys);
                let farkas_s = t.elapsed().as_secs_f64();
                if let Some(c) = &cert {
                    assert_eq!(farkas::check(&sys, c), Ok(()));
                    plain += 1;
                }
                let (mut tree_nodes, mut tree_size, mut tree_s) = (String::new(), 0, 0.0);
                if cert.is_none() {
                    let t = Instant::now();
                    let (tree, n) = certify::tree_with_stats(&sys, nodes, Some(seconds));
                    tree_s = t.elapsed().as_secs_f64();
                    tree_nodes = n.to_string();
                    if let Some(tree) = &tree {
                        assert_eq!(farkas::check_tree(&sys, tree), Ok(()));
                        tree_size = certify::size(tree);
                        trees += 1;
                    } else {
                        tree_nodes += " (gave up)";
                    }
                }
                println!(
                    "{name}-{k}men-d{}_{},{},{},{},{farkas_s:.3},{tree_nodes},{tree_size},{tree_s:.2}",
                    d.0,
                    d.1,
                    sys.cols.len(),
                    sys.rows.len(),
                    cert.is_some(),
                );
            }
        }
    }
    println!("{ips} infeasible IPs: {plain} plain Farkas certificates, {trees} trees");
}
