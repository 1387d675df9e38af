//! A problem's fingerprint: the SHA-256 of its canonical form, so that a proof names the
//! problem it is about and the checker, having rebuilt the problem itself, can tell whether
//! it is the one the reader meant. The canonical form keeps what decides the mathematics
//! (dimension, directions, cells, start region, target, and for a board problem its vacancy
//! and finish, or for a pattern problem its start and finish positions) and drops what does
//! not (name, description, comments, field order, the order of directions and cells, the
//! drawing's embedding).
//!
//! Every model file under `models/` is bundled into the binary; a proof that uses one of
//! their names must be about that very model ([`bundled_difference`]), so relabelling a
//! proof of another problem as a bundled one is refused, naming the first field that
//! differs.

use super::file::{self, Cells, Metric, Spec, Start};
use super::geometry::Cell;
use sha2::{Digest, Sha256};

/// The version of the canonical form; part of every fingerprint.
const CANONICAL: &str = "solarmy-problem/1";

/// Every model file of `models/`, bundled: the five armies of the paper first, in its order
/// (Table 8; `Army::all` takes them from here), then the two deserts, Conway's army in 3-D,
/// the fcc lattice and the seven peg-solitaire boards.
pub const BUNDLED_MODELS: [(&str, &str); 16] = [
    ("conway", include_str!("../../models/conway.toml")),
    ("skew", include_str!("../../models/skew.toml")),
    ("pablito", include_str!("../../models/pablito.toml")),
    ("hexagonal", include_str!("../../models/hexagonal.toml")),
    ("diagonal", include_str!("../../models/diagonal.toml")),
    (
        "desert-square",
        include_str!("../../models/desert-square.toml"),
    ),
    (
        "desert-rhombus",
        include_str!("../../models/desert-rhombus.toml"),
    ),
    ("conway-3d", include_str!("../../models/conway-3d.toml")),
    ("fcc", include_str!("../../models/fcc.toml")),
    ("english", include_str!("../../models/english.toml")),
    ("french", include_str!("../../models/french.toml")),
    ("diamond32", include_str!("../../models/diamond32.toml")),
    ("diamond41", include_str!("../../models/diamond41.toml")),
    ("6x6", include_str!("../../models/6x6.toml")),
    ("wiegleb", include_str!("../../models/wiegleb.toml")),
    ("triangle5", include_str!("../../models/triangle5.toml")),
];

/// The bundled model of that name (case-insensitive), parsed.
pub fn bundled_spec(name: &str) -> Option<Spec> {
    let (_, text) = BUNDLED_MODELS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
    Some(file::parse(text).expect("the bundled models are valid (tested)"))
}

/// What a problem is beyond its model file: nothing for an army, a desert or a lattice; the
/// two ends of a problem on a finite board.
#[derive(Clone, Copy, Debug)]
pub enum Ends<'a> {
    /// The model alone.
    Model,
    /// Bell's single-vacancy problems: every hole filled but the vacancy, to one man on the
    /// finish.
    Holes(Cell, Cell),
    /// A pattern problem: from the men of the start position to exactly the men of the
    /// finish position.
    Patterns(&'a [Cell], &'a [Cell]),
}

/// The problem's canonical form: one line per field, directions and cells sorted, then the
/// ends of a board problem in the file's coordinates (a pattern's men sorted).
pub fn canonical(spec: &Spec, ends: Ends) -> String {
    let point = |p: &[i32]| {
        let v: Vec<String> = p.iter().map(|x| x.to_string()).collect();
        format!("[{}]", v.join(","))
    };
    let mut directions: Vec<&Vec<i32>> = spec.directions.iter().collect();
    directions.sort();
    let cells = match &spec.cells {
        Cells::All => "all".to_string(),
        Cells::Even => "even".to_string(),
        Cells::Triangle => "triangle".to_string(),
        // Already relative to the target and sorted (a BTreeSet).
        Cells::List(set) => set.iter().map(|p| point(p)).collect::<Vec<_>>().join(","),
    };
    let start = match spec.start {
        Start::HalfSpace => "half-space".to_string(),
        Start::Outside { metric } => format!("outside {}", metric_name(metric)),
        Start::Board => "board".to_string(),
    };
    let mut out = format!(
        "{CANONICAL}\ndimension {}\ndirections {}\ncells {cells}\nstart {start}\ntarget {}\n",
        spec.dimension,
        directions
            .iter()
            .map(|d| point(d))
            .collect::<Vec<_>>()
            .join(","),
        point(&spec.target),
    );
    let n = spec.dimension;
    let men = |cells: &[Cell]| {
        let mut pts: Vec<Vec<i32>> = cells.iter().map(|c| c.coords(n)).collect();
        pts.sort();
        pts.iter().map(|p| point(p)).collect::<Vec<_>>().join(",")
    };
    match ends {
        Ends::Model => {}
        Ends::Holes(v, f) => {
            out += &format!(
                "vacancy {}\nfinish {}\n",
                point(&v.coords(n)),
                point(&f.coords(n))
            );
        }
        Ends::Patterns(s, f) => {
            out += &format!("start-men {}\nfinish-men {}\n", men(s), men(f));
        }
    }
    out
}

fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Chebyshev => "chebyshev",
        Metric::Manhattan => "manhattan",
    }
}

/// The fingerprint: 64 hexadecimal digits of SHA-256 over [`canonical`].
pub fn fingerprint(spec: &Spec, ends: Ends) -> String {
    let digest = Sha256::digest(canonical(spec, ends).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The first 16 digits, as printed in a line of text (the files keep all 64).
pub fn short(fingerprint: &str) -> &str {
    &fingerprint[..fingerprint.len().min(16)]
}

/// Why a model under a bundled name is not that bundled model: the first field (in the
/// canonical order) in which it differs. None when the name is not bundled, or when the
/// model is the bundled one (name, comments and embedding aside).
pub fn bundled_difference(spec: &Spec) -> Option<String> {
    let bundled = bundled_spec(&spec.name)?;
    let field = if bundled.dimension != spec.dimension {
        "dimension"
    } else if sorted(&bundled.directions) != sorted(&spec.directions) {
        "directions"
    } else if bundled.cells != spec.cells {
        "cells"
    } else if bundled.start != spec.start {
        "start"
    } else if bundled.target != spec.target {
        "target"
    } else {
        return None;
    };
    Some(format!(
        "the model is named '{}', a bundled model, but its field `{field}` differs from the bundled one",
        spec.name
    ))
}

fn sorted(v: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let mut v = v.to_vec();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_model_parses_under_its_name() {
        for (name, text) in BUNDLED_MODELS {
            let spec = file::parse(text).unwrap();
            assert_eq!(spec.name, name);
            assert_eq!(bundled_difference(&spec), None, "{name}");
        }
    }

    #[test]
    fn comments_order_and_names_do_not_change_it() {
        let a = file::parse(BUNDLED_MODELS[0].1).unwrap();
        let text = "# another file\nstart = { kind = \"half-space\" }\nname = \"mine\"\n\
                    dimension = 2\ncells = \"all\"\ndirections = [[0, -1], [0, 1], [-1, 0], [1, 0]]\n";
        let b = file::parse(text).unwrap();
        assert_eq!(fingerprint(&a, Ends::Model), fingerprint(&b, Ends::Model));
        assert_eq!(fingerprint(&a, Ends::Model).len(), 64);
    }

    #[test]
    fn the_problem_changes_it() {
        let fp = |name: &str| fingerprint(&bundled_spec(name).unwrap(), Ends::Model);
        let all: std::collections::BTreeSet<String> =
            BUNDLED_MODELS.iter().map(|(n, _)| fp(n)).collect();
        assert_eq!(all.len(), BUNDLED_MODELS.len());
        let english = bundled_spec("english").unwrap();
        let (v, f) = (Cell::xy(0, 0), Cell::xy(0, 1));
        assert_ne!(
            fingerprint(&english, Ends::Holes(v, v)),
            fingerprint(&english, Ends::Holes(v, f))
        );
        // A pattern's men in any order are one problem; its ends are not a hole problem's.
        let (a, b) = ([v, f], [f, v]);
        let pattern = fingerprint(&english, Ends::Patterns(&a, &[f]));
        assert_eq!(pattern, fingerprint(&english, Ends::Patterns(&b, &[f])));
        assert_ne!(pattern, fingerprint(&english, Ends::Patterns(&a, &[v])));
        assert_ne!(pattern, fingerprint(&english, Ends::Holes(v, f)));
    }

    #[test]
    fn a_relabelled_model_names_the_field() {
        let text = BUNDLED_MODELS[4].1.replace("\"diagonal\"", "\"conway\"");
        let spec = file::parse(&text).unwrap();
        let why = bundled_difference(&spec).unwrap();
        assert!(why.contains("`directions`"), "{why}");
        let text = BUNDLED_MODELS[6]
            .1
            .replace("manhattan", "chebyshev")
            .replace("\"desert-rhombus\"", "\"desert-square\"");
        let spec = file::parse(&text).unwrap();
        assert_eq!(bundled_difference(&spec), None, "the square desert itself");
    }
}
