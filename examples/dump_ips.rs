//! Writes every integer program of a proof file that has no exact certificate (or a tree
//! leaving leaves to the solvers) as a JSON [`LinearSystem`], rebuilt as the checker builds
//! it, for experiments with certificate generators outside `solarmy certify`.
//!
//! usage: cargo run --release --example dump_ips -- PROOF OUTDIR

use solarmy::ip::evidence;
use solarmy::problem::Army;
use solarmy::proof::farkas;
use solarmy::proof::format::{CaseOutcome, Evidence, IpProof, Proof};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (path, out) = (
        std::path::Path::new(&args[1]),
        std::path::Path::new(&args[2]),
    );
    let proof = Proof::read(path).expect("a proof");
    let army: Army = match &proof.model {
        Some(text) => Army::parse(text).expect("a model"),
        None => proof.army.parse().expect("an army"),
    };
    let mut ips: Vec<(String, &IpProof)> = Vec::new();
    for (i, r) in proof.rounds.iter().enumerate() {
        match &r.evidence {
            Evidence::Direct { ip, .. } => ips.push((format!("r{i}"), ip)),
            Evidence::Cases { cases } => {
                for (j, c) in cases.iter().enumerate() {
                    if let CaseOutcome::Ip { ip, .. } = &c.outcome {
                        ips.push((format!("r{i}c{j}"), ip));
                    }
                }
            }
            Evidence::Weight { .. } => {}
        }
    }
    std::fs::create_dir_all(out).unwrap();
    for (label, ip) in ips {
        if ip
            .certificate
            .as_ref()
            .is_some_and(|t| !farkas::leaves_to_solvers(t))
        {
            continue;
        }
        let sys = evidence::system(army, proof.level, &ip.def).expect("a system");
        let file = out.join(format!("{label}.json"));
        std::fs::write(&file, serde_json::to_string(&sys).unwrap()).unwrap();
        println!(
            "{} {} rows {} cols, {:.2} s in the search",
            file.display(),
            sys.rows.len(),
            sys.cols.len(),
            ip.seconds
        );
    }
}
