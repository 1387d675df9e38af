//! Problems as data: a model file ([`file`](mod@file)) becomes a validated [`Problem`] with its derived
//! symmetries ([`symmetry`]), and an [`Army`] is a handle on a problem the search can take
//! on. The five armies of the paper are model files bundled into the binary (`models/*.toml`);
//! `--model FILE` loads any other. [`geometry`] holds the lattices, cells and regions every layer above speaks in. The
//! bottom of the house: uses only [`crate::error`].

pub mod file;
pub mod fingerprint;
pub mod geometry;
pub mod symmetry;

use crate::problem::geometry::{Cell, Embedding, Lattice, Region, StartRegion, symmetry_of};
use file::{Cells, Metric, Spec, Start};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};
use symmetry::Matrix;

/// The five armies of the paper, in its order (Table 8): the first five of the bundled model
/// files ([`fingerprint::BUNDLED_MODELS`]).
fn bundled_five() -> [(&'static str, &'static str); 5] {
    std::array::from_fn(|i| fingerprint::BUNDLED_MODELS[i])
}

/// A validated model and what is derived from it.
#[derive(Debug)]
pub struct Problem {
    pub spec: Spec,
    /// The model file's text, as read (written into proof files of non-bundled models).
    pub source: String,
    /// One of the models built into the binary.
    pub bundled: bool,
    /// Every symmetry, the identity first.
    pub symmetries: Vec<Matrix>,
}

impl Problem {
    /// Parses and validates a model file's text.
    pub fn parse(text: &str) -> Result<Problem, String> {
        let spec = file::parse(text)?;
        // A bundled name means that problem: another model under it would write proofs that
        // the checker refuses as relabelled.
        if let Some(why) = fingerprint::bundled_difference(&spec) {
            return Err(format!(
                "field `name`: {why}; give the model a name of its own"
            ));
        }
        let bundled = bundled_armies().iter().any(|a| a.problem().spec == spec);
        Ok(Problem::from_spec(spec, text, bundled))
    }

    fn from_spec(spec: Spec, text: &str, bundled: bool) -> Problem {
        let symmetries = symmetry::derive(&spec);
        Problem {
            spec,
            source: text.to_string(),
            bundled,
            symmetries,
        }
    }

    /// Reads a model file; the error is one line starting with the file's name.
    pub fn read(path: &Path) -> Result<Problem, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Problem::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The problem's fingerprint ([`fingerprint::fingerprint`]), for an army problem (a board
    /// problem's adds its vacancy and finish: `PegBoard::fingerprint`).
    pub fn fingerprint(&self) -> String {
        fingerprint::fingerprint(&self.spec, fingerprint::Ends::Model)
    }

    /// Why the army search cannot take this problem on yet, if it cannot.
    fn unsupported(&self) -> Option<String> {
        let s = &self.spec;
        match (&s.start, &s.cells) {
            (_, Cells::List(_)) | (Start::Board, _) => Some(format!(
                "model '{}': finite boards are not armies: the army search takes only infinite lattices (a board is solved by `solve --vacancy X,Y --finish X,Y` and `catalog`)",
                s.name
            )),
            _ => None,
        }
    }

    /// The lattice of a problem the search supports.
    fn lattice(&self) -> Lattice {
        let region = match self.spec.cells {
            Cells::Even => Region::EvenParity,
            Cells::Triangle => Region::Triangle,
            _ => Region::All,
        };
        let embedding = match self.spec.embedding.as_str() {
            "hexagonal" => Embedding::Hexagonal,
            "triangle" => Embedding::Triangle,
            "cubic" => Embedding::Cubic,
            _ => Embedding::Square,
        };
        let start = match self.spec.start {
            Start::Outside {
                metric: Metric::Chebyshev,
            } => StartRegion::OutsideSquare,
            Start::Outside {
                metric: Metric::Manhattan,
            } => StartRegion::OutsideRhombus,
            _ => StartRegion::HalfSpace,
        };
        let symmetries = self.symmetries.iter().map(|m| symmetry_of(m)).collect();
        let directions: Vec<_> = self
            .spec
            .directions
            .iter()
            .map(|d| Cell::from_coords(d).expect("validated: 2 or 3 coordinates"))
            .collect();
        Lattice::new(region, &directions, start, symmetries, embedding)
    }
}

/// A problem the army search takes on: cheap to copy, compared by identity (problems are
/// interned: the same model loaded twice is one army).
#[derive(Clone, Copy)]
pub struct Army(&'static Loaded);

#[derive(Debug)]
pub struct Loaded {
    pub problem: Problem,
    lattice: Lattice,
}

fn registry() -> &'static Mutex<Vec<&'static Loaded>> {
    static REGISTRY: OnceLock<Mutex<Vec<&'static Loaded>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(Vec::new()))
}

impl Army {
    /// The army of a problem, or why the search cannot take it on.
    pub fn new(problem: Problem) -> Result<Army, String> {
        if let Some(why) = problem.unsupported() {
            return Err(why);
        }
        crate::problem::geometry::set_write_dimension(problem.spec.dimension);
        let mut loaded = registry().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&l) = loaded.iter().find(|l| l.problem.spec == problem.spec) {
            return Ok(Army(l));
        }
        let lattice = problem.lattice();
        // Leaked on purpose: a process loads a handful of models and keeps them to the end.
        let l: &'static Loaded = Box::leak(Box::new(Loaded { problem, lattice }));
        loaded.push(l);
        Ok(Army(l))
    }

    /// An army from a model file.
    pub fn read(path: &Path) -> Result<Army, String> {
        Army::new(Problem::read(path)?).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// An army from a model file's text (as a proof file carries it).
    pub fn parse(text: &str) -> Result<Army, String> {
        Army::new(Problem::parse(text)?)
    }

    fn bundled(name: &str) -> Army {
        *bundled_armies()
            .iter()
            .find(|a| a.name() == name)
            .expect("a bundled name")
    }

    pub fn conway() -> Army {
        Army::bundled("conway")
    }
    pub fn skew() -> Army {
        Army::bundled("skew")
    }
    pub fn pablito() -> Army {
        Army::bundled("pablito")
    }
    pub fn hexagonal() -> Army {
        Army::bundled("hexagonal")
    }
    pub fn diagonal() -> Army {
        Army::bundled("diagonal")
    }

    /// The five armies of the paper, in its order.
    pub fn all() -> [Army; 5] {
        *bundled_armies()
    }

    pub fn name(self) -> &'static str {
        &self.0.problem.spec.name
    }

    pub fn problem(self) -> &'static Problem {
        &self.0.problem
    }

    /// The lattice this army plays on.
    pub fn lattice(self) -> Lattice {
        self.0.lattice.clone()
    }
}

/// The bundled models, parsed once per process.
fn bundled_armies() -> &'static [Army; 5] {
    static ARMIES: OnceLock<[Army; 5]> = OnceLock::new();
    ARMIES.get_or_init(|| {
        bundled_five().map(|(_, text)| {
            file::parse(text)
                .map(|spec| Problem::from_spec(spec, text, true))
                .and_then(Army::new)
                .expect("the bundled models are valid (tested)")
        })
    })
}

impl PartialEq for Army {
    fn eq(&self, other: &Army) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Army {}

impl std::hash::Hash for Army {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.name().hash(h)
    }
}

impl PartialOrd for Army {
    fn partial_cmp(&self, other: &Army) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Army {
    fn cmp(&self, other: &Army) -> std::cmp::Ordering {
        let key = |a: &Army| (a.name(), a.0 as *const Loaded as usize);
        key(self).cmp(&key(other))
    }
}

impl fmt::Debug for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Army {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for Army {
    type Err = String;
    /// One of the bundled armies, by name.
    fn from_str(s: &str) -> Result<Army, String> {
        bundled_five()
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(s))
            .map(|(n, _)| Army::bundled(n))
            .ok_or_else(|| {
                format!(
                    "unknown army '{s}': expected one of conway, skew, diagonal, hexagonal, pablito (or --model FILE)"
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_armies_have_two_symmetries_each() {
        for army in Army::all() {
            let p = army.problem();
            assert!(p.bundled, "{army}");
            assert_eq!(p.symmetries.len(), 2, "{army}: {:?}", p.symmetries);
        }
    }

    #[test]
    fn derived_mirrors_are_the_papers() {
        let m = |a: Army| {
            let s = a.lattice().mirror;
            (s[0][0], s[0][1])
        };
        assert_eq!(m(Army::conway()), (-1, 0));
        assert_eq!(m(Army::skew()), (-1, 0));
        assert_eq!(m(Army::diagonal()), (-1, 0));
        assert_eq!(m(Army::hexagonal()), (-1, -1));
        assert_eq!(m(Army::pablito()), (-1, 1));
    }

    #[test]
    fn the_same_model_loaded_twice_is_one_army() {
        let text = bundled_five()[0]
            .1
            .replace("# Conway", "# a copy of Conway");
        assert_eq!(Army::parse(&text).unwrap(), Army::conway());
        assert_eq!("Hexagonal".parse::<Army>().unwrap(), Army::hexagonal());
    }

    fn model(dimension: &str, directions: &str, cells: &str, start: &str, extra: &str) -> String {
        format!(
            "name = \"t\"\ndimension = {dimension}\ndirections = {directions}\ncells = {cells}\nstart = {start}\n{extra}"
        )
    }

    const ORTHO: &str = "[[1, 0], [-1, 0], [0, 1], [0, -1]]";
    const HALF: &str = "{ kind = \"half-space\" }";

    #[test]
    fn a_desert_and_a_3d_half_space_have_eight_symmetries() {
        let square = model(
            "2",
            ORTHO,
            "\"all\"",
            "{ kind = \"outside\", metric = \"chebyshev\" }",
            "",
        );
        let rhombus = model(
            "2",
            ORTHO,
            "\"all\"",
            "{ kind = \"outside\", metric = \"manhattan\" }",
            "",
        );
        let dirs3 = "[[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]]";
        let cube = model("3", dirs3, "\"all\"", HALF, "");
        for text in [square, rhombus, cube] {
            assert_eq!(Problem::parse(&text).unwrap().symmetries.len(), 8, "{text}");
        }
    }

    /// One bad file per field: the error names the field.
    #[test]
    fn a_bad_model_names_its_field() {
        let cases = [
            ("this is not toml", "line 1"),
            (
                &model("4", ORTHO, "\"all\"", HALF, "") as &str,
                "`dimension`",
            ),
            (
                &model("2", "[[1, 0], [-1, 0]]", "\"all\"", HALF, ""),
                "`directions`",
            ),
            (
                &model(
                    "2",
                    "[[2, 0], [0, 1], [0, -1], [-2, 0]]",
                    "\"all\"",
                    HALF,
                    "",
                ),
                "do not span",
            ),
            (
                &model("2", "[[1, 0, 0], [0, 1]]", "\"all\"", HALF, ""),
                "`directions`",
            ),
            (&model("2", ORTHO, "\"hexagon\"", HALF, ""), "`cells`"),
            (
                &model("2", ORTHO, "[[0, 0], [1, 0], [0, -1]]", HALF, ""),
                "region is empty",
            ),
            (
                &model("2", ORTHO, "\"all\"", "{ kind = \"moon\" }", ""),
                "`start`",
            ),
            (
                &model(
                    "2",
                    ORTHO,
                    "[[0, 0], [0, 1], [0, 2]]",
                    HALF,
                    "target = [5, 5]",
                ),
                "`target`",
            ),
            (
                &model(
                    "2",
                    "[[1, 1], [-1, -1], [1, -1], [-1, 1]]",
                    "\"even\"",
                    HALF,
                    "target = [1, 0]",
                ),
                "`target`",
            ),
            (
                &model("2", ORTHO, "\"all\"", HALF, "embedding = \"cubic\""),
                "`embedding`",
            ),
            (&model("2", ORTHO, "\"all\"", HALF, "colour = 3"), "colour"),
        ];
        for (text, field) in cases {
            let e = Problem::parse(text).expect_err(text);
            assert!(e.contains(field), "{text}\n=> {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn boards_are_read_but_not_armies() {
        let board = model(
            "2",
            ORTHO,
            "[[0, 0], [0, 1], [0, 2], [1, 0]]",
            "{ kind = \"board\" }",
            "",
        );
        let e = Army::parse(&board).unwrap_err();
        assert!(e.contains("finite boards"), "{e}");
        let desert = model(
            "2",
            ORTHO,
            "\"all\"",
            "{ kind = \"outside\", metric = \"chebyshev\" }",
            "",
        );
        let a = Army::parse(&desert).unwrap();
        assert_eq!(a.lattice().last_jump_directions().len(), 1);
    }
}
