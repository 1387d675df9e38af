//! Binds a proof to its problem: the checker has rebuilt the problem from the proof's model
//! (or from the bundled model its name gives), and this decides whether that is the problem
//! the proof claims and the reader asked about, before any step about the mathematics.
//!
//! A bundled name (the armies, deserts, 3-D and boards of `models/`) must carry the bundled
//! model itself, so that a proof of another problem cannot borrow its name: reading the
//! model ([`crate::problem::Problem::parse`]) refuses any other. Two tests here, each a
//! one-line reason when it fails: the fingerprint the proof records must be the one
//! recomputed here, and with `check --model FILE` or `--army NAME`, the problem must be that
//! one.

use crate::problem::file::Spec;
use crate::problem::fingerprint::{self, Ends};

/// What the proof is bound to: the rebuilt problem's fingerprint.
#[derive(Clone, Debug)]
pub struct Bound {
    pub fingerprint: String,
    /// Whether the proof recorded it (proofs written before 26 November 2026 do not).
    pub recorded: bool,
}

/// Binds a proof to the problem rebuilt from it: `spec` the model (read by
/// [`crate::problem::Problem::parse`], so a bundled name is already the bundled model), `ends` a board
/// problem's vacancy and finish or start and finish positions, `recorded` the proof's
/// fingerprint, `expected` the model the reader named (`check --model`/`--army`), compared
/// without a board problem's ends.
pub fn bind(
    spec: &Spec,
    ends: Ends,
    recorded: Option<&str>,
    expected: Option<&Spec>,
) -> Result<Bound, String> {
    let fp = fingerprint::fingerprint(spec, ends);
    if let Some(r) = recorded
        && r != fp
    {
        return Err(format!(
            "the proof records problem {}, but its model is problem {}",
            fingerprint::short(r),
            fingerprint::short(&fp)
        ));
    }
    if let Some(e) = expected {
        let (want, have) = (
            fingerprint::fingerprint(e, Ends::Model),
            fingerprint::fingerprint(spec, Ends::Model),
        );
        if want != have {
            return Err(format!(
                "the proof is about '{}' (problem {}), not the model asked for, '{}' (problem {})",
                spec.name,
                fingerprint::short(&have),
                e.name,
                fingerprint::short(&want)
            ));
        }
    }
    Ok(Bound {
        fingerprint: fp,
        recorded: recorded.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::fingerprint::bundled_spec;

    #[test]
    fn a_recorded_fingerprint_must_match() {
        let conway = bundled_spec("conway").unwrap();
        let ok = bind(&conway, Ends::Model, None, None).unwrap();
        assert!(!ok.recorded);
        assert!(bind(&conway, Ends::Model, Some(&ok.fingerprint), Some(&conway)).is_ok());
        let e = bind(&conway, Ends::Model, Some("00ff"), None).unwrap_err();
        assert!(e.contains("records problem 00ff"), "{e}");
        let skew = bundled_spec("skew").unwrap();
        let e = bind(&conway, Ends::Model, None, Some(&skew)).unwrap_err();
        assert!(e.contains("not the model asked for, 'skew'"), "{e}");
    }
}
