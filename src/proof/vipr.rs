//! Export to VIPR 1.1, the certificate format of verified mixed-integer programming (Cheung,
//! Gleixner and Steffy; version 1.1 with Eifler and Gleixner): every infeasible integer
//! program of a proof that carries an exact certificate becomes one `.vipr` file, the
//! program as the checker rebuilds it ([`super::ip::build`]) and its Farkas leaves and
//! branch-and-bound splits as derivations ([`text`]), so that `viprchk`, or any checker of
//! the format, can verify it without solarmy's code. Programs that rest on a solver are
//! counted, not written, unless asked for: then their problem section alone, with no
//! derivation, for another exact solver to certify. Run after a successful check: the export walks the proof as the
//! checker does and refuses to write when it meets other programs than the checker counted.

mod names;
mod text;

pub use text::{Names, render as render_system, render_problem as render_system_problem};

use super::check;
use super::farkas;
use super::format::{CaseOutcome, Claim, Evidence, IpProof, Proof};
use super::ip;
use super::rounds;
use super::space::Space;
use super::summary::Summary;
use crate::error::Error;
use crate::problem::Army;
use crate::weight::golden::Golden;
use std::path::{Path, PathBuf};

/// One infeasible program of a proof, in the order the checker meets it.
pub struct Program<'a> {
    /// The last jump's space, an index into the spaces [`programs`] returns.
    pub space: usize,
    pub men: u64,
    /// A case's number in its round's list (from 1) and its profile, for a case's program.
    pub case: Option<(usize, String)>,
    pub ip: &'a IpProof,
}

impl Program<'_> {
    /// Whether it carries an exact certificate (a tree that leaves nothing to the solvers).
    pub fn exact(&self) -> bool {
        self.ip
            .certificate
            .as_ref()
            .is_some_and(|t| !farkas::leaves_to_solvers(t))
    }
}

/// What an export did with a proof's infeasible programs.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Exported {
    pub programs: usize,
    /// Written, one file each: the exact ones.
    pub exported: usize,
    /// Without an exact certificate: they rest on a solver, and have nothing to export.
    pub solver_only: usize,
    /// Of those, written as a problem alone (`<name>-problem.vipr`, no derivation), when asked.
    pub problems: usize,
    /// A board problem's jump program: checked by solarmy, not exported.
    pub not_supported: usize,
    #[serde(skip)]
    pub files: Vec<PathBuf>,
}

impl Exported {
    /// One line for people.
    pub fn describe(&self, dir: &Path) -> String {
        let mut s = format!(
            "VIPR: {} of {} integer programs written to {}",
            self.exported,
            self.programs,
            dir.display()
        );
        if self.solver_only > 0 {
            s += &format!(", {} solver-only (no exact certificate)", self.solver_only);
        }
        if self.problems > 0 {
            s += &format!(
                ", {} of them as problems alone (-problem.vipr)",
                self.problems
            );
        }
        if self.not_supported > 0 {
            s += &format!(", {} board jump program not exported", self.not_supported);
        }
        s
    }
}

/// The file stem of a proof path: its name less `.gz`, `.json` and `.proof`.
pub fn stem(path: &Path) -> String {
    let mut s = path
        .file_name()
        .map_or("proof".into(), |n| n.to_string_lossy().into_owned());
    for ext in [".gz", ".json", ".proof"] {
        if let Some(t) = s.strip_suffix(ext).filter(|t| !t.is_empty()) {
            s = t.to_string();
        }
    }
    s
}

/// Writes every exact program of `proof` (which `summary`, its successful check, describes)
/// into `dir` as `<stem>-<men>men-d<d>[-case<n>].vipr`, each file atomically; with
/// `unsolved`, every program without one too, as `<…>-problem.vipr`: its problem alone
/// ([`render_problem`]), for an exact solver to certify what now rests on HiGHS.
pub fn export(
    proof: &Proof,
    summary: &Summary,
    dir: &Path,
    (stem, unsolved): (&str, bool),
) -> Result<Exported, Error> {
    if matches!(proof.claim, Claim::Board(_) | Claim::Pattern(_)) {
        return Ok(Exported {
            programs: summary.ips,
            not_supported: summary.ips,
            ..Exported::default()
        });
    }
    let (spaces, programs) = programs(proof).map_err(Error::Input)?;
    let exact = programs.iter().filter(|p| p.exact()).count();
    if programs.len() != summary.ips || exact != summary.certified {
        return Err(Error::Input(format!(
            "the export finds {} programs ({exact} exact), the check counted {} ({})",
            programs.len(),
            summary.ips,
            summary.certified
        )));
    }
    let mut out = Exported {
        programs: programs.len(),
        ..Exported::default()
    };
    for p in &programs {
        let space = &spaces[p.space];
        let at = |e| Error::Input(format!("{} men, d={:?}: {e}", p.men, space.d));
        let fingerprint = Some(summary.fingerprint.as_str());
        let Some(text) = render(proof, space, p, fingerprint).map_err(at)? else {
            out.solver_only += 1;
            if unsolved {
                let text = render_problem(proof, space, p, fingerprint).map_err(at)?;
                let name = file_name(stem, space, p).replace(".vipr", "-problem.vipr");
                let path = dir.join(name);
                crate::files::write_atomic(&path, text.as_bytes())?;
                out.problems += 1;
                out.files.push(path);
            }
            continue;
        };
        let path = dir.join(file_name(stem, space, p));
        crate::files::write_atomic(&path, text.as_bytes())?;
        out.exported += 1;
        out.files.push(path);
    }
    Ok(out)
}

fn file_name(stem: &str, space: &Space, p: &Program) -> String {
    let d: Vec<String> = (space.d.coords(space.lattice.dimension()).iter())
        .map(i32::to_string)
        .collect();
    let case = p
        .case
        .as_ref()
        .map_or(String::new(), |(n, _)| format!("-case{n}"));
    format!("{stem}-{}men-d{}{case}.vipr", p.men, d.join("_"))
}

/// The VIPR text of one program, or None when it has no exact certificate; `fingerprint`,
/// the problem's as the checker computed it, goes into the file's comments.
pub fn render(
    proof: &Proof,
    space: &Space,
    p: &Program,
    fingerprint: Option<&str>,
) -> Result<Option<String>, String> {
    let (Some(tree), true) = (&p.ip.certificate, p.exact()) else {
        return Ok(None);
    };
    let (sys, names) = system(proof, space, p, fingerprint, true)?;
    text::render(&sys, &names, tree).map(Some)
}

/// The problem section of one program alone (certified or not), exactly as [`render`]
/// writes it, with `DER 0`: what exact SCIP, or any exact solver, is given to certify.
pub fn render_problem(
    proof: &Proof,
    space: &Space,
    p: &Program,
    fingerprint: Option<&str>,
) -> Result<String, String> {
    let (sys, names) = system(proof, space, p, fingerprint, false)?;
    text::render_problem(&sys, &names)
}

/// The program as the checker builds it, with its names and comments (`derived`: whether
/// derivations follow, which the last comment line says).
fn system(
    proof: &Proof,
    space: &Space,
    p: &Program,
    fingerprint: Option<&str>,
    derived: bool,
) -> Result<(farkas::LinearSystem, Names), String> {
    let def = &p.ip.def;
    let sys = ip::build(space, def)?;
    let board = ip::Board::new(space, def)?;
    let (cols, rows) = names::of(space, def, &board);
    let mut comments = comments(proof, space, p, fingerprint);
    if !derived {
        *comments.last_mut().unwrap() = "derivations: none; the problem alone, for an exact solver to prove infeasible (the check rests on HiGHS here)".into();
    }
    let names = text::Names {
        cols,
        rows,
        comments,
    };
    Ok((sys, names))
}

/// What the file is about, in words, for whoever opens it.
fn comments(proof: &Proof, space: &Space, p: &Program, fingerprint: Option<&str>) -> Vec<String> {
    let def = &p.ip.def;
    let d = space.d;
    let mut program = format!(
        "program: no army of at most {} men ends with a jump over {d:?} into the target",
        def.max_men
    );
    if let Some(k) = def.min_men {
        program += &format!(" (at least {k} men)");
    }
    if let Some((n, profile)) = &p.case {
        program += &format!("; case {n}, men per exponent class {profile}");
    }
    vec![
        format!(
            "solarmy {}: an infeasible integer program of a proof, in VIPR 1.1",
            env!("CARGO_PKG_VERSION")
        ),
        format!(
            "problem: {} level {}, fingerprint {}",
            proof.army,
            proof.level,
            fingerprint.or(proof.fingerprint.as_deref()).unwrap_or("not known")
        ),
        program,
        format!(
            "board: every cell of exponent <= {} under the improved pagoda function of {d:?}, every jump losing at most {}",
            def.max_exponent,
            def.max_loss.sigma_string()
        ),
        "columns: s_<cell> = 1 when the army holds that start cell; j_<from>_<over> = how often that jump is made; a cell is x:y (x:y:z in 3-D)".into(),
        format!(
            "rows: bal_<cell> (start man + jumps into it - jumps from or over it = 1 on {d:?} and {:?}, else 0), men_max, men_min, class_<e> (men on start cells of exponent e), lossy_cap (jumps that lose weight), cut_<k> (an army already counted)",
            2 * d
        ),
        "derivations: each Farkas leaf is a lin sum to 0 >= a positive number; each split two asm and an uns; each Chvatal-Gomory cut a rnd".into(),
    ]
}

/// The proof's infeasible programs where the checker meets them, with the spaces (one per
/// last jump of the split) they are built in: every round of fewer men than a minimum (and
/// of K men for a count) that its weight leaves open.
pub fn programs(proof: &Proof) -> Result<(Vec<Space>, Vec<Program<'_>>), String> {
    let top = match proof.claim {
        Claim::Minimum { men } | Claim::AtLeast { men } => men.saturating_sub(1),
        Claim::Count { men, .. } => men,
        _ => return Ok((Vec::new(), Vec::new())),
    };
    let army = match &proof.model {
        Some(text) => Army::parse(text)?,
        None => proof.army.parse::<Army>()?,
    };
    // The checker's own window, wide enough for every board of the proof.
    let need = check::window(proof);
    let spaces: Vec<Space> = (army.lattice().last_jump_directions().into_iter())
        .map(|d| Space::new(army, proof.level, d, need))
        .collect();
    let mut out = Vec::new();
    for k in 1..=top {
        for (i, space) in spaces.iter().enumerate() {
            let round = proof
                .rounds
                .iter()
                .find(|r| r.men == k && r.last_jump == space.d);
            let Some(round) = round else { continue };
            if rounds::heaviest_weight(space, k)? < Golden::ONE {
                continue;
            }
            let program = |case, ip| Program {
                space: i,
                men: k,
                case,
                ip,
            };
            match &round.evidence {
                Evidence::Weight { .. } => {}
                Evidence::Direct { ip, .. } => out.push(program(None, ip)),
                Evidence::Cases { cases } => {
                    for (n, c) in cases.iter().enumerate() {
                        if let CaseOutcome::Ip { ip, .. } = &c.outcome {
                            out.push(program(Some((n + 1, rounds::key(&c.profile))), ip));
                        }
                    }
                }
            }
        }
    }
    Ok((spaces, out))
}
