//! Runs the Gomory cut rounds and the branch and bound of `solarmy certify` on one integer
//! program written by `examples/dump_ips`, checks the tree exactly, and prints its size.
//!
//! usage: cargo run --release --example cut_tree -- SYSTEM.json ROUNDS PER_ROUND NODES SECONDS [OUT.json]

use solarmy::ip::certify::{self, Rounds};
use solarmy::proof::farkas::{self, LinearSystem};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let sys: LinearSystem = serde_json::from_str(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let r = Rounds {
        rounds: a[2].parse().unwrap(),
        per_round: a[3].parse().unwrap(),
        nodes: a[4].parse().unwrap(),
    };
    let t = std::time::Instant::now();
    let (tree, cuts, nodes) = certify::tree_with_cuts(&sys, r, Some(a[5].parse().unwrap()));
    let s = t.elapsed().as_secs_f64();
    match tree {
        Some(tree) => {
            let t2 = std::time::Instant::now();
            let ok = farkas::check_tree(&sys, &tree);
            let json = serde_json::to_string(&tree).unwrap();
            println!(
                "tree: {} nodes, {cuts} cuts, {nodes} visited, {s:.1} s; check {:?} in {:.2} s; {} bytes",
                certify::size(&tree),
                ok,
                t2.elapsed().as_secs_f64(),
                json.len()
            );
            if let Some(out) = a.get(6) {
                std::fs::write(out, json).unwrap();
            }
        }
        None => println!("no tree: {cuts} cuts, {nodes} visited, {s:.1} s"),
    }
}
