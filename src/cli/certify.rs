//! `solarmy certify`: upgrades a proof file without re-running the search. Every integer
//! program in it without an exact certificate is rebuilt as the checker builds it
//! ([`crate::ip::evidence::system`]) and handed to [`crate::ip::certify`] with larger budgets than
//! the search allows itself; the proof is then checked in full ([`crate::proof::check`])
//! and only then written, atomically, so a file is never replaced by a worse one.

use crate::cli::args::{Error, emitln};
use crate::ip::certify;
use crate::ip::evidence;
use crate::problem::Army;
use crate::proof::check::{self, Options};
use crate::proof::farkas::{self, Tree};
use crate::proof::format::{CaseOutcome, Evidence, IpProof, Proof};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

const CERTIFY_HELP: &str = "Examples:
  solarmy certify results/proofs/hexagonal-7.json.gz
  solarmy certify --nodes 50000 --program-time-limit 600 --out upgraded results/proofs/hexagonal-7.json.gz
  solarmy certify --nodes 2000 --program-time-limit 60 --split-above 100 results/proofs/hexagonal-7.json.gz
  solarmy certify --program-time-limit 1 --split-above 0.001 --split-depth 2 --split-seconds 600 h7.json.gz
  solarmy certify --time-limit 3600 --json results/proofs/hexagonal-7.json.gz
  solarmy certify --only \"case 135\" --nodes 5000 --program-time-limit 3600 h7.json.gz
  solarmy certify --cut-rounds 20 --cuts-per-round 30 --out upgraded results/counts/pablito-6-count.json.gz

A program split earlier with leaves left to the solvers is tried again leaf by leaf: each gets
--nodes and an equal share of --program-time-limit, then, with --split-above, a split on its
next man.

One line per program without a certificate goes to stderr (none with -q): nodes visited, the
tree's size and the seconds spent. The proof is checked in full (programs still without a
certificate are re-solved by HiGHS) before it is written. Past --time-limit no further program
is started (and the running ones get no more than the time left): they stay without.

Exit codes: 0 every program (with --only, every one it names) now has a certificate, 1 failure (an unreadable proof, a failed
check, a file that cannot be written), 2 bad command line, 3 some programs are still without
a certificate, --time-limit or not (the ones found are written).";

#[derive(Args, Debug)]
#[command(after_help = CERTIFY_HELP)]
pub struct CertifyArgs {
    /// A proof file written by `solve --proof` (JSON, or gzip-compressed JSON ending in .gz)
    pub proof: PathBuf,
    /// Branch-and-bound nodes per program
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seconds per program; a split program tried again shares them among the leaves it
    /// left to the solvers (0 < SECONDS <= 1e9; also spelled --seconds, its older name)
    #[arg(long, alias = "seconds", value_name = "SECONDS", default_value_t = 1800.0, allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub program_time_limit: f64,
    /// Seconds for the whole command (0 < SECONDS <= 1e9): no program is started past them,
    /// and what was certified by then is checked and written (exit 3)
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub time_limit: Option<f64>,
    /// Write the upgraded proof into DIR, under PROOF's file name, instead of replacing PROOF
    /// (a DIR that is no directory and does not end in / is the file to write, as before)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// One JSON object on stdout
    #[arg(long)]
    pub json: bool,
    /// Where no tree is found for a program the search's solver spent at least SECONDS on,
    /// split it on where its farthest man stands: each child gets a certificate, is split
    /// again (to --split-depth), or is left to the checker's solvers, which re-solve the
    /// children (in parallel) instead of the whole program, and so does CBC when asked
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub split_above: Option<f64>,
    /// Splits within a split: 1 splits the program only, 2 its children too, …
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub split_depth: u64,
    /// Seconds for one program's split, after its tree: past them, children without an
    /// LP certificate are left to the solvers (0 < SECONDS <= 1e9)
    #[arg(long, value_name = "SECONDS", default_value_t = 3600.0, allow_hyphen_values = true, value_parser = crate::cli::args::parse_seconds)]
    pub split_seconds: f64,
    /// Rounds of Gomory cuts at the root of each program's tree before its branch and bound
    /// (0: none): exact Chvátal–Gomory cuts in the certificate, up to --cuts-per-round each
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub cut_rounds: u64,
    /// Cuts added per round of --cut-rounds at most
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub cuts_per_round: u64,
    /// Only the programs whose label (as this command prints it, e.g. "round 12 (144 men,
    /// d=(0, 1)), case 135") contains TEXT, its numbers whole: "case 13" is not "case 135".
    /// Repeatable; the others are left as they are
    #[arg(long, value_name = "TEXT")]
    pub only: Vec<String>,
    /// Programs certified at once, each on one core (default: the number of cores)
    #[arg(long, value_name = "N", default_value_t = crate::cli::args::default_jobs(), value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: u16,
    #[command(flatten)]
    pub display: crate::cli::args::Display,
}

/// Every integer program of a proof, with a label naming where it stands.
fn programs(proof: &mut Proof) -> Vec<(String, &mut IpProof)> {
    let mut out = Vec::new();
    for (i, r) in proof.rounds.iter_mut().enumerate() {
        let here = format!("round {i} ({} men, d={:?})", r.men, r.last_jump);
        match &mut r.evidence {
            Evidence::Direct { ip, .. } => out.push((here, ip)),
            Evidence::Cases { cases } => {
                for (j, c) in cases.iter_mut().enumerate() {
                    if let CaseOutcome::Ip { ip, .. } = &mut c.outcome {
                        out.push((format!("{here}, case {j}"), ip));
                    }
                }
            }
            Evidence::Weight { .. } => {}
        }
    }
    out
}

/// Whether `label` contains `text` with no digit glued to either end, so that "case 13"
/// picks case 13 and not case 135.
fn names(label: &str, text: &str) -> bool {
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    label.match_indices(text).any(|(i, _)| {
        let before = label[..i].chars().next_back();
        let after = label[i + text.len()..].chars().next();
        text.is_empty()
            || !(digit(before) && text.starts_with(|c: char| c.is_ascii_digit())
                || digit(after) && text.ends_with(|c: char| c.is_ascii_digit()))
    })
}

/// A certificate for one program: plain Farkas multipliers, else a tree within the budget.
fn certify_one(
    army: Army,
    level: i32,
    ip: &mut IpProof,
    (a, deadline): (&CertifyArgs, Option<Instant>),
) -> Result<String, Error> {
    let sys = evidence::system(army, level, &ip.def)?;
    let t = Instant::now();
    if ip.certificate.is_some() {
        return refine_one(army, level, ip, &sys, (a, deadline));
    }
    if let Some(cert) = certify::farkas(&sys) {
        ip.certificate = Some(Tree::Leaf(cert));
        return Ok(format!(
            "Farkas certificate, {:.1} s",
            t.elapsed().as_secs_f64()
        ));
    }
    let mut budget = a.program_time_limit;
    if let Some(d) = deadline {
        budget = budget.min(d.saturating_duration_since(t).as_secs_f64());
    }
    let left = (budget - t.elapsed().as_secs_f64()).max(0.01);
    let (tree, cuts, nodes) = match a.cut_rounds {
        0 => {
            let (tree, nodes) = certify::tree_with_stats(&sys, a.nodes as usize, Some(left));
            (tree, 0, nodes)
        }
        rounds => {
            let r = certify::Rounds {
                rounds: rounds as usize,
                per_round: a.cuts_per_round as usize,
                nodes: a.nodes as usize,
            };
            certify::tree_with_cuts(&sys, r, Some(left))
        }
    };
    let s = t.elapsed().as_secs_f64();
    Ok(match tree.filter(|t| farkas::check_tree(&sys, t).is_ok()) {
        Some(tree) => {
            let msg = format!(
                "tree of {} nodes ({cuts} cuts), {nodes} visited, {s:.1} s",
                certify::size(&tree)
            );
            ip.certificate = Some(tree);
            msg
        }
        None if a.split_above.is_some_and(|secs| ip.seconds >= secs) => {
            let budget = split_budget(a, deadline, a.split_depth as usize);
            match evidence::split(army, level, &ip.def, &sys, budget)? {
                Some((tree, left)) => {
                    ip.certificate = Some(tree);
                    format!(
                        "no tree ({nodes} nodes visited); split on the farthest man, {left} leaves left to the solvers, {:.1} s",
                        t.elapsed().as_secs_f64()
                    )
                }
                None => format!(
                    "no certificate, and no split ends in an empty box: {nodes} nodes visited, {s:.1} s"
                ),
            }
        }
        None => format!("no certificate: {cuts} cuts, {nodes} nodes visited, {s:.1} s"),
    })
}

/// A split program's leaves left to the solvers, tried again ([`certify::refine`]): each
/// gets `--nodes` and its share of `--program-time-limit` in CPU seconds of branch and
/// bound, then, with `--split-above`, a split on its next man to `--split-depth`.
fn refine_one(
    army: Army,
    level: i32,
    ip: &mut IpProof,
    sys: &farkas::LinearSystem,
    (a, deadline): (&CertifyArgs, Option<Instant>),
) -> Result<String, Error> {
    let t = Instant::now();
    let Some(tree) = &ip.certificate else {
        return Ok("nothing to refine".into());
    };
    let depth = if a.split_above.is_some() {
        a.split_depth as usize
    } else {
        0
    };
    let leaf = certify::LeafBudget {
        nodes: a.nodes as usize,
        seconds: a.program_time_limit,
    };
    let groups = evidence::groups(army, level, &ip.def)?;
    let budget = split_budget(a, deadline, depth);
    match certify::refine(sys, tree, &groups, (budget, leaf)) {
        Some((tree, before, left)) if farkas::check_tree_leaving(sys, &tree).is_ok() => {
            ip.certificate = Some(tree);
            Ok(format!(
                "split: {before} leaves left to the solvers, now {left}, {:.1} s",
                t.elapsed().as_secs_f64()
            ))
        }
        _ => Ok("split: its tree does not check; left as it was".into()),
    }
}

/// A split's budget: `depth` levels of splits, ending `--split-seconds` from now or at
/// `deadline`, whichever comes first.
fn split_budget(a: &CertifyArgs, deadline: Option<Instant>, depth: usize) -> certify::Budget {
    let split_end = Instant::now() + std::time::Duration::from_secs_f64(a.split_seconds);
    certify::Budget {
        depth,
        deadline: Some(deadline.map_or(split_end, |d| d.min(split_end))),
    }
}

/// Certifies every program of `proof` without a certificate, `a.jobs` at once, none started
/// past `deadline`; counts the programs now fully certified, those split with leaves left to
/// the solvers, and those still resting on the solvers (split, not, or not tried).
fn certify_all(
    army: Army,
    proof: &mut Proof,
    (a, deadline): (&CertifyArgs, Option<Instant>),
) -> Result<(usize, usize, usize), Error> {
    let level = proof.level;
    let name = a.proof.display().to_string();
    let all = programs(proof);
    // A mistyped --only would otherwise certify nothing and say nothing.
    if let Some(t) = (a.only.iter()).find(|t| !all.iter().any(|(l, _)| names(l, t))) {
        return Err(Error::usage(format!(
            "--only '{t}' names no integer program of {name} (labels look like \"round 12 (144 men, d=(0, 1)), case 135\")"
        )));
    }
    let todo: Vec<_> = all
        .into_iter()
        .filter(|(label, ip)| {
            ip.certificate
                .as_ref()
                .is_none_or(farkas::leaves_to_solvers)
                && (a.only.is_empty() || a.only.iter().any(|t| names(label, t)))
        })
        .collect();
    let bar = crate::search::progress::bar(a.display.progress(), todo.len(), "programs");
    let work = std::sync::Mutex::new(todo.into_iter());
    let counts = std::sync::Mutex::new(Ok((0, 0, 0)));
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    std::thread::scope(|s| {
        for _ in 0..a.jobs {
            s.spawn(|| {
                loop {
                    if past() {
                        return;
                    }
                    let Some((label, ip)) = work.lock().unwrap().next() else {
                        return;
                    };
                    let msg = certify_one(army, level, ip, (a, deadline));
                    let mut counts = counts.lock().unwrap();
                    let Ok((found, split, left)) = counts.as_mut() else {
                        return;
                    };
                    bar.iter().for_each(|pb| pb.inc(1));
                    match msg {
                        Ok(msg) if !a.display.quiet => crate::search::progress::say(
                            bar.as_ref(),
                            &format!("{name}: {label}: {msg}"),
                        ),
                        Ok(_) => {}
                        Err(e) => return *counts = Err(e),
                    }
                    match &ip.certificate {
                        Some(t) if !farkas::leaves_to_solvers(t) => *found += 1,
                        Some(_) => (*split, *left) = (*split + 1, *left + 1),
                        None => *left += 1,
                    }
                }
            });
        }
    });
    bar.iter().for_each(|pb| pb.finish_and_clear());
    let untried = work.into_inner().unwrap().count();
    counts
        .into_inner()
        .unwrap()
        .map(|(found, split, left)| (found, split, left + untried))
}

/// Where the upgraded proof goes: PROOF itself, DIR/<PROOF's name> for `--out DIR`, or the
/// file `--out` names when it is no directory (the older meaning of `--out`).
fn destination(a: &CertifyArgs) -> PathBuf {
    let Some(out) = &a.out else {
        return a.proof.clone();
    };
    let as_dir = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    match (as_dir, a.proof.file_name()) {
        (true, Some(name)) => out.join(name),
        _ => out.clone(),
    }
}

pub fn run(a: &CertifyArgs) -> Result<u8, Error> {
    let t0 = Instant::now();
    let deadline = a
        .time_limit
        .map(|t| t0 + std::time::Duration::from_secs_f64(t));
    let mut proof = Proof::read(&a.proof)?;
    let out = destination(a);
    // Before the certificate search, which can take hours: never end with it unwritable.
    crate::cli::args::check_parent_writable(Some(&out))?;
    let army: Result<Army, String> = match &proof.model {
        Some(text) => Army::parse(text),
        None => proof.army.parse(),
    };
    let army = army.map_err(|e| Error::failure(format!("{}: {e}", a.proof.display())))?;
    let (found, split, left) = certify_all(army, &mut proof, (a, deadline))?;
    let code = if left > 0 { 3 } else { 0 };
    let report = |status: &str, line: String, summary: Option<&check::Summary>| {
        if !a.json {
            return emitln(&line);
        }
        let fields = json!({"file": out, "found": found, "split": split, "left": left,
            "ips": summary.map(|s| s.ips), "certified": summary.map(|s| s.certified)});
        let problem = crate::cli::envelope::of_proof(&proof, summary);
        let seconds = t0.elapsed().as_secs_f64();
        let doc = crate::cli::envelope::wrapped(fields, problem, status, seconds);
        emitln(&doc.to_string())
    };
    if found + split == 0 && a.out.is_none() {
        // Nothing to write: the file stays as it was, and its check with it.
        let line = format!(
            "{}: no certificate found, {left} programs still without; file unchanged",
            a.proof.display()
        );
        report("unchanged", line, None)?;
        return Ok(code);
    }
    let summary = check::check(&proof, &Options::default()).map_err(|e| {
        Error::failure(format!(
            "{}: the upgraded proof fails: {e}",
            a.proof.display()
        ))
    })?;
    crate::files::write_atomic(&out, &proof.to_bytes(&out)?)?;
    let line = format!(
        "{}: {found} certificates found, {split} programs split (some children left to the solvers), {left} programs still without a full certificate; {} of {} programs certified",
        out.display(),
        summary.certified,
        summary.ips
    );
    let status = if left > 0 { "incomplete" } else { "certified" };
    report(status, line, Some(&summary))?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn only_names_whole_numbers() {
        let label = "round 12 (144 men, d=(0, 1)), case 135";
        assert!(names(label, "case 135"));
        assert!(names(label, "round 12"));
        assert!(names(label, "144 men"));
        assert!(!names(label, "case 13"));
        assert!(!names(label, "round 1"));
        assert!(!names(label, "ase 135x"));
        assert!(names("round 9 (143 men, d=(0, 1))", "round 9"));
    }
}
