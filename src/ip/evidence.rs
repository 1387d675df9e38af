//! Turning what the search settled into proof evidence ([`crate::proof::format`]): an
//! infeasible integer program becomes its definition, its size as the checker will rebuild
//! it, the solvers' verdicts and, where one can be found, an exact certificate
//! ([`crate::ip::certify`]) computed on the checker's own system, so that the checker verifies
//! exactly what it rebuilds.

use crate::error::Error;
use crate::ip::certify;
use crate::problem::Army;
use crate::problem::geometry::Cell;
use crate::proof::format::{IpDef, IpProof};
use crate::proof::{farkas, ip, space::Space};
use crate::weight::golden::Golden;

/// Branch-and-bound nodes and seconds spent looking for a certificate of one program.
const TREE_NODES: usize = 2_000;
const TREE_SECONDS: f64 = 60.0;

/// The checker's space for a definition: exact well beyond its board.
fn space(army: Army, level: i32, def: &IpDef) -> Space {
    Space::new(army, level, def.last_jump, def.max_exponent.max(40) + 8)
}

/// Evidence for a program HiGHS (and CBC, when asked) called infeasible, with its
/// certificate when one is found.
pub fn infeasible(
    army: Army,
    level: i32,
    def: IpDef,
    cbc: Option<String>,
    seconds: f64,
    time_limit: Option<f64>,
) -> Result<IpProof, Error> {
    let mut proof = uncertified(army, level, def, cbc, seconds)?;
    certify_proof_within(army, level, &mut proof, time_limit)?;
    Ok(proof)
}

/// The same evidence without a certificate yet (a case split certifies its cases only once
/// the round has no army: [`certify_proof`]).
pub fn uncertified(
    army: Army,
    level: i32,
    def: IpDef,
    cbc: Option<String>,
    seconds: f64,
) -> Result<IpProof, Error> {
    let sys = ip::build(&space(army, level, &def), &def).map_err(Error::Limit)?;
    Ok(IpProof {
        cbc,
        seconds,
        ..evidence_of(&sys, def)
    })
}

/// The evidence of `def`, whose checker's system is `sys`, before anything is known of it:
/// its size as the checker rebuilds it, HiGHS's "infeasible" still to be earned, no
/// certificate.
pub fn evidence_of(sys: &farkas::LinearSystem, def: IpDef) -> IpProof {
    IpProof {
        rows: sys.rows.len(),
        cols: sys.cols.len(),
        def,
        highs: "infeasible".into(),
        cbc: None,
        certificate: None,
        seconds: 0.0,
    }
}

/// The start columns of the checker's system for `def` in groups of one exponent, the
/// farthest first: the order of a split on the farthest man ([`certify::split`]). A case's
/// classes without men are left out (their row already empties them).
pub fn groups(army: Army, level: i32, def: &IpDef) -> Result<Vec<Vec<usize>>, Error> {
    let board = ip::Board::new(&space(army, level, def), def).map_err(Error::Limit)?;
    let starts = (0..board.cells.len()).filter(|&m| board.start[m]);
    let mut by_exponent: std::collections::BTreeMap<i32, Vec<usize>> = Default::default();
    for (col, m) in starts.enumerate() {
        by_exponent.entry(board.exponent[m]).or_default().push(col);
    }
    let holds_men = |e: i32| match &def.classes {
        Some(classes) => classes.iter().any(|&(x, n)| x == e && n > 0),
        None => true,
    };
    Ok(by_exponent
        .into_iter()
        .rev()
        .filter(|(e, _)| holds_men(*e))
        .map(|(_, cols)| cols)
        .collect())
}

/// The checker's own system for a definition, as [`crate::proof::check`] rebuilds it.
pub fn system(army: Army, level: i32, def: &IpDef) -> Result<farkas::LinearSystem, Error> {
    ip::build(&space(army, level, def), def).map_err(Error::Limit)
}

/// Programs HiGHS spent at least this many seconds on get no branch-and-bound tree: ours
/// has no cutting planes, and every tree certificate found so far (results/proofs/, every
/// entry) is of a program HiGHS settles in under a second (0.81 s at most), while on
/// hexagonal level 7's programs of 3.4 s and more every tree ran out of its `TREE_SECONDS`
/// for nothing (the whole entry with `--jobs 2`: 255 s wall, 436 CPU s with trees tried
/// below 5 s; 137 s wall, 256 CPU s below 2 s, idle). Only where the time goes changes: such a
/// program is left to the solvers, as it was.
pub const TREE_BELOW_SECONDS: f64 = 2.0;

/// Looks for an exact certificate of the program of `proof`: Farkas multipliers when its
/// LP relaxation is infeasible, else a branch-and-bound tree within its node and time
/// limits. A long program is not split here: the checker's HiGHS re-solves a program whole
/// in any case, so a split serves only CBC, and it cost the search about 160 CPU s on
/// hexagonal 7's longest case (split whenever HiGHS took 100 s on it, which on a slower
/// machine it did). `solarmy certify --split-above` splits for CBC, after the search.
pub fn certify_proof(army: Army, level: i32, proof: &mut IpProof) -> Result<(), Error> {
    certify_proof_within(army, level, proof, None)
}

/// [`certify_proof`] in at most `time_limit` seconds (HiGHS's limit on each LP, and the
/// tree's): a search's `--time-limit` covers its certificates too. A program left without a
/// certificate rests on the solvers, as before: nothing is lost but the certificate.
pub fn certify_proof_within(
    army: Army,
    level: i32,
    proof: &mut IpProof,
    time_limit: Option<f64>,
) -> Result<(), Error> {
    let sys = system(army, level, &proof.def)?;
    let tree_seconds = time_limit.map_or(TREE_SECONDS, |t| t.min(TREE_SECONDS));
    proof.certificate = certify::farkas_within(&sys, time_limit)
        .map(farkas::Tree::Leaf)
        .or_else(|| {
            (proof.seconds < TREE_BELOW_SECONDS)
                .then(|| certify::tree(&sys, TREE_NODES, Some(tree_seconds)))
                .flatten()
        });
    Ok(())
}

/// A split of `sys`, the system of `def`, on its farthest man within `budget`
/// ([`certify::split`]), with the count of leaves it leaves to the solvers.
pub fn split(
    army: Army,
    level: i32,
    def: &IpDef,
    sys: &farkas::LinearSystem,
    budget: certify::Budget,
) -> Result<Option<(farkas::Tree, usize)>, Error> {
    Ok(certify::split(sys, &groups(army, level, def)?, budget))
}

/// Whether a certificate read back from a case log still proves its program infeasible.
pub fn still_certified(army: Army, level: i32, proof: &IpProof) -> bool {
    let Some(tree) = &proof.certificate else {
        return false;
    };
    let space = space(army, level, &proof.def);
    ip::build(&space, &proof.def).is_ok_and(|sys| farkas::check_tree(&sys, tree).is_ok())
}

/// The definition of a direct round's program.
pub fn direct_def(
    d: Cell,
    men: u64,
    min_men: Option<u64>,
    max_exponent: i32,
    max_loss: Golden,
) -> IpDef {
    IpDef {
        last_jump: d,
        max_men: men,
        min_men,
        max_exponent,
        max_loss,
        classes: None,
        lossy_cap: None,
        cuts: Vec::new(),
    }
}
