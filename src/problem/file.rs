//! The model file: one problem family in TOML (schema in `models/README.md`), read with serde
//! and validated field by field, so that a bad file gets one line naming the field and what is
//! wrong. Nothing here knows any army by name; the five of the paper are files like any other.

use serde::Deserialize;
use std::collections::BTreeSet;

/// A lattice point with one coordinate per dimension.
pub type Point = Vec<i32>;

/// Which lattice points are cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cells {
    /// Every point of Z^dimension.
    All,
    /// Points whose coordinates sum to an even number (the skew army; in 3-D the fcc lattice).
    Even,
    /// The triangle 0 <= x <= y (Pablito's board; dimension 2 only).
    Triangle,
    /// A finite board: exactly these points.
    List(BTreeSet<Point>),
}

/// How the distance from the target is measured for a desert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// max |x_i|: a square (cube) desert.
    Chebyshev,
    /// Σ |x_i|: a rhombus (octahedron) desert.
    Manhattan,
}

/// Where men may stand at level n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Start {
    /// The last coordinate (relative to the target) is at least n.
    HalfSpace,
    /// Distance from the target at least n under the metric: men outside a desert.
    Outside { metric: Metric },
    /// A finite board: every cell filled but a vacancy, play to one man on a finish cell
    /// (both given per problem, not in the file).
    Board,
}

/// A validated model: every field checked, the target moved to the origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub description: String,
    pub dimension: usize,
    pub directions: Vec<Point>,
    pub cells: Cells,
    pub start: Start,
    /// Where the file put the target; every other field is relative to it.
    pub target: Point,
    pub embedding: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawCells {
    Named(String),
    List(Vec<Vec<i32>>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: String,
    #[serde(default)]
    description: String,
    dimension: i64,
    directions: Vec<Vec<i32>>,
    cells: RawCells,
    start: Start,
    target: Option<Vec<i32>>,
    embedding: Option<String>,
}

/// Embeddings (how to draw a lattice) by dimension.
const EMBEDDINGS_2D: [&str; 3] = ["square", "hexagonal", "triangle"];
const EMBEDDINGS_3D: [&str; 1] = ["cubic"];

/// Parses and validates a model file's text; the error is one line naming the field.
pub fn parse(text: &str) -> Result<Spec, String> {
    let raw: Raw = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    let dimension = match raw.dimension {
        2 => 2,
        3 => 3,
        n => return Err(format!("field `dimension`: must be 2 or 3, not {n}")),
    };
    if raw.name.trim().is_empty() || !raw.name.chars().all(name_char) {
        return Err(format!(
            "field `name`: '{}' must be non-empty ASCII letters (a-z, A-Z), digits, '-' or '_' (it names files)",
            raw.name
        ));
    }
    let point = |field: &str, p: &Vec<i32>| -> Result<Point, String> {
        if p.len() != dimension {
            return Err(format!(
                "field `{field}`: {p:?} has {} coordinates, not {dimension}",
                p.len()
            ));
        }
        if p.iter().any(|v| v.abs() > 1_000) {
            return Err(format!(
                "field `{field}`: {p:?} has a coordinate beyond ±1000"
            ));
        }
        Ok(p.clone())
    };
    let target = match &raw.target {
        Some(t) => point("target", t)?,
        None => vec![0; dimension],
    };
    let directions = directions(&raw.directions, dimension, &point)?;
    let cells = cells(&raw.cells, dimension, &target, &point)?;
    let embedding = embedding(raw.embedding.as_deref(), dimension)?;
    let spec = Spec {
        name: raw.name,
        description: raw.description,
        dimension,
        directions,
        cells,
        start: raw.start,
        target,
        embedding,
    };
    spans(&spec)?;
    start_not_empty(&spec)?;
    exact_weights(&spec)?;
    Ok(spec)
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// One line from a TOML or serde error: the line number, the key on that line, the message.
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let msg = e.message().replace('\n', " ");
    // A missing field has the whole file as its span: "line 1" would point at nothing.
    if msg.starts_with("missing field") {
        return msg;
    }
    // serde's name for `start`'s shape means nothing to the file's author: say the shapes.
    let msg = match msg.split_once(", expected internally tagged enum Start") {
        Some((what, _)) => format!(
            "{what}; it must be a table: {{ kind = \"half-space\" }}, {{ kind = \"outside\", metric = \"chebyshev\" }} (or \"manhattan\") or {{ kind = \"board\" }}"
        ),
        None => msg,
    };
    let Some(span) = e.span() else {
        return format!("not a valid model file: {msg}");
    };
    let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let key = text
        .lines()
        .nth(line - 1)
        .and_then(|l| l.split_once('='))
        .map(|(k, _)| k.trim())
        .filter(|k| !k.is_empty() && k.chars().all(|c| name_char(c) || c == '.'));
    match key {
        Some(k) => format!("field `{k}` (line {line}): {msg}"),
        None => format!("line {line}: {msg}"),
    }
}

/// Reads one point of the file (the field's name, its coordinates) in the model's dimension.
type PointOf<'a> = &'a dyn Fn(&str, &Vec<i32>) -> Result<Point, String>;

fn directions(raw: &[Vec<i32>], dimension: usize, point: PointOf) -> Result<Vec<Point>, String> {
    let mut out: Vec<Point> = Vec::new();
    for d in raw {
        let d = point("directions", d)?;
        if d.iter().all(|&v| v == 0) {
            return Err("field `directions`: the zero vector is not a jump".into());
        }
        if out.contains(&d) {
            return Err(format!("field `directions`: {d:?} is listed twice"));
        }
        out.push(d);
    }
    if out.len() < dimension {
        return Err(format!(
            "field `directions`: {} directions cannot span a {dimension}-dimensional lattice",
            out.len()
        ));
    }
    Ok(out)
}

fn cells(
    raw: &RawCells,
    dimension: usize,
    target: &Point,
    point: PointOf,
) -> Result<Cells, String> {
    let cells = match raw {
        RawCells::Named(s) => match s.as_str() {
            "all" => Cells::All,
            "even" => Cells::Even,
            "triangle" if dimension == 2 => Cells::Triangle,
            "triangle" => return Err("field `cells`: \"triangle\" is two-dimensional".into()),
            other => {
                return Err(format!(
                    "field `cells`: '{other}' is not \"all\", \"even\", \"triangle\" or a list of points"
                ));
            }
        },
        RawCells::List(list) => {
            let mut set = BTreeSet::new();
            for p in list {
                let p = point("cells", p)?;
                let q: Point = p.iter().zip(target).map(|(a, b)| a - b).collect();
                if !set.insert(q) {
                    return Err(format!("field `cells`: {p:?} is listed twice"));
                }
            }
            Cells::List(set)
        }
    };
    if !contains(&cells, &vec![0; dimension]) {
        return Err(format!("field `target`: {target:?} is not a cell"));
    }
    if matches!(cells, Cells::Triangle) && target.iter().any(|&v| v != 0) {
        return Err("field `target`: the triangle's target is its apex [0, 0]".into());
    }
    if matches!(cells, Cells::Even) && target.iter().sum::<i32>().rem_euclid(2) != 0 {
        return Err(format!(
            "field `target`: {target:?} is not a cell (odd coordinate sum)"
        ));
    }
    Ok(cells)
}

fn embedding(raw: Option<&str>, dimension: usize) -> Result<String, String> {
    let names: &[&str] = if dimension == 2 {
        &EMBEDDINGS_2D
    } else {
        &EMBEDDINGS_3D
    };
    let e = raw.unwrap_or(names[0]);
    if names.contains(&e) {
        Ok(e.to_string())
    } else {
        Err(format!(
            "field `embedding`: '{e}' is not one of {} in dimension {dimension}",
            names.join(", ")
        ))
    }
}

/// Whether a point (relative to the target) is a cell.
pub fn contains(cells: &Cells, p: &[i32]) -> bool {
    match cells {
        Cells::All => true,
        Cells::Even => p.iter().sum::<i32>().rem_euclid(2) == 0,
        Cells::Triangle => 0 <= p[0] && p[0] <= p[1],
        Cells::List(set) => set.contains(p),
    }
}

/// Whether men may stand on a cell (relative to the target) at `level`.
pub fn in_start(spec: &Spec, p: &[i32], level: i32) -> bool {
    match spec.start {
        Start::HalfSpace => p[spec.dimension - 1] >= level,
        Start::Outside { metric } => distance(metric, p) >= level,
        Start::Board => true,
    }
}

pub fn distance(metric: Metric, p: &[i32]) -> i32 {
    match metric {
        Metric::Chebyshev => p.iter().map(|v| v.abs()).max().unwrap_or(0),
        Metric::Manhattan => p.iter().map(|v| v.abs()).sum(),
    }
}

/// The directions' integer span must be the cells' lattice: the gcd of the maximal minors
/// (the index of the span in Z^dimension) must match, and every direction must join cells.
fn spans(spec: &Spec) -> Result<(), String> {
    let dirs = index(&spec.directions, spec.dimension);
    if dirs == 0 {
        return Err(format!(
            "field `directions`: they do not span the {}-dimensional lattice (all in a lower-dimensional subspace)",
            spec.dimension
        ));
    }
    let origin = vec![0; spec.dimension];
    let wanted = match &spec.cells {
        Cells::List(set) => {
            let mut all = spec.directions.clone();
            all.extend(set.iter().filter(|p| **p != origin).cloned());
            index(&all, spec.dimension)
        }
        Cells::Even => {
            if let Some(d) = spec.directions.iter().find(|d| !contains(&spec.cells, d)) {
                return Err(format!(
                    "field `directions`: {d:?} leaves the even cells (odd coordinate sum)"
                ));
            }
            2
        }
        Cells::All | Cells::Triangle => 1,
    };
    if dirs != wanted {
        return Err(format!(
            "field `directions`: they do not span the lattice of the cells (index {dirs}, not {wanted}): some cells can never be reached"
        ));
    }
    Ok(())
}

/// The gcd of the absolute maximal minors of the vectors: the index of their integer span in
/// Z^dimension, or 0 when they do not span R^dimension.
fn index(vectors: &[Point], dimension: usize) -> i64 {
    let mut g = 0i64;
    let n = vectors.len();
    let mut pick = |rows: &[usize]| {
        let m: Vec<&Point> = rows.iter().map(|&i| &vectors[i]).collect();
        g = gcd(g, det(&m).abs());
    };
    for i in 0..n {
        for j in i + 1..n {
            if dimension == 2 {
                pick(&[i, j]);
            } else {
                for k in j + 1..n {
                    pick(&[i, j, k]);
                }
            }
        }
    }
    g
}

/// The determinant of a 2×2 or 3×3 integer matrix given by its rows.
pub(super) fn det(m: &[&Point]) -> i64 {
    let a = |i: usize, j: usize| m[i][j] as i64;
    if m.len() == 2 {
        a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0)
    } else {
        a(0, 0) * (a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1))
            - a(0, 1) * (a(1, 0) * a(2, 2) - a(1, 2) * a(2, 0))
            + a(0, 2) * (a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0))
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A start region with no cell at level 1 is refused: no army could stand anywhere.
fn start_not_empty(spec: &Spec) -> Result<(), String> {
    let Cells::List(set) = &spec.cells else {
        return Ok(()); // the infinite regions hold cells at every distance and height
    };
    if spec.start == Start::Board {
        return match set.len() {
            0..=2 => Err("field `cells`: a board needs at least 3 holes".into()),
            _ => Ok(()),
        };
    }
    if set.iter().any(|p| in_start(spec, p, 1)) {
        Ok(())
    } else {
        Err(
            "field `start`: no cell lies in the start region at level 1: the region is empty"
                .into(),
        )
    }
}

/// The premise of the exact pagoda weights, in one place: the models whose start region's
/// weight `crate::weight::pagoda` counts exactly (and `crate::proof::weigh` recomputes in
/// closed form); every other model is refused here in one line.
///
/// - Every jump has its opposite (the last jump over d into the target, and the Table 4
///   reading of a jump in either direction, assume it; boards too, whose moves are played
///   both ways).
/// - On an infinite lattice every coordinate of a jump is −1, 0 or 1: a cell of exponent e
///   then lies within Chebyshev distance e of the source, which sizes the pagoda window.
/// - In the plane, the jumps in angular order cut it into cones, each spanned by two
///   consecutive jumps u, w that form a basis of the cells' lattice, with the functional f
///   (f(u) = f(w) = 1) at most 1 on every jump: on that cone the distance is exactly f, a
///   sum of two geometric series per row, so the counts per exponent are eventually
///   linear in each parity class (the tail the window reads off). On the triangle each
///   cone's two jumps move each edge functional (x and y − x) the same way and by at most
///   1, so shortest paths stay on the board.
/// - In space, men in a half-space and one of two lattices: the six unit jumps ±x, ±y, ±z
///   on every cell (the distance is then |x| + |y| + |z| and the weights a product), or the
///   fcc lattice, the even cells with all twelve jumps (±1, ±1, 0) and their permutations
///   (the distance is max(|x|, |y|, |z|, (|x| + |y| + |z|)/2), and a layer z = k holds
///   (k + 1)² cells at exponent k and 4e at each e > k: counts per exponent quadratic in
///   each parity class, the tail the cube window reads off). A desert's cells reach
///   exponent 3(n − 1) and its weight stays above 1 beyond the levels the cube window
///   counts (the search then panicked at level 8 of a cube desert); any other jumps in
///   space are outside what the checker weighs in closed form.
fn exact_weights(spec: &Spec) -> Result<(), String> {
    let field = "field `directions`";
    for d in &spec.directions {
        let opposite: Point = d.iter().map(|v| -v).collect();
        if !spec.directions.contains(&opposite) {
            return Err(format!(
                "{field}: {d:?} has no opposite {opposite:?}: jumps must go both ways"
            ));
        }
    }
    if spec.start == Start::Board || matches!(spec.cells, Cells::List(_)) {
        return Ok(());
    }
    if let Some(d) = spec
        .directions
        .iter()
        .find(|d| d.iter().any(|v| v.abs() > 1))
    {
        return Err(format!(
            "{field}: {d:?} jumps more than one cell in a coordinate: the exact pagoda weights cover only unit steps"
        ));
    }
    if spec.dimension == 3 {
        return space(spec);
    }
    cones(spec)
}

/// Space: the six unit jumps on every cell, or the twelve fcc jumps on the even cells, and
/// men in a half-space (see [`exact_weights`]).
fn space(spec: &Spec) -> Result<(), String> {
    let nonzero = |d: &Point| d.iter().filter(|&&v| v != 0).count();
    let all_of = |k: usize, count: usize| {
        spec.directions.len() == count && spec.directions.iter().all(|d| nonzero(d) == k)
    };
    let lattice = match &spec.cells {
        Cells::All if all_of(1, 6) => "the six unit jumps",
        Cells::Even if all_of(2, 12) => "the fcc lattice",
        _ => {
            return Err(
                "field `directions`: in three dimensions the exact pagoda weights cover only the six unit jumps on every cell and the twelve jumps (±1, ±1, 0) of the fcc lattice on the even cells".into(),
            );
        }
    };
    match spec.start {
        Start::HalfSpace => Ok(()),
        _ => Err(format!(
            "field `start`: in three dimensions the exact pagoda weights cover only a half-space start ({lattice}: a desert's levels outgrow the cube window)"
        )),
    }
}

/// The plane's cones of consecutive jumps (see [`exact_weights`]).
fn cones(spec: &Spec) -> Result<(), String> {
    let index = if spec.cells == Cells::Even { 2 } else { 1 };
    let mut dirs: Vec<&Point> = spec.directions.iter().collect();
    // Counter-clockwise from the positive x axis: upper half-plane first, then by cross
    // product.
    let half = |p: &Point| (p[1] < 0 || (p[1] == 0 && p[0] < 0)) as u8;
    dirs.sort_by(|p, q| half(p).cmp(&half(q)).then(det(&[*q, *p]).cmp(&0)));
    let edges: &[[i32; 2]] = match spec.cells {
        Cells::Triangle => &[[1, 0], [-1, 1]],
        _ => &[],
    };
    for (i, &u) in dirs.iter().enumerate() {
        let w = dirs[(i + 1) % dirs.len()];
        if det(&[u, w]) != index {
            return Err(format!(
                "field `directions`: the consecutive jumps {u:?} and {w:?} are no basis of the cells' lattice: the exact pagoda weights do not cover this lattice"
            ));
        }
        // f(d) = (det(d, w) + det(u, d)) / det(u, w) <= 1.
        if let Some(d) = dirs.iter().find(|&&d| det(&[d, w]) + det(&[u, d]) > index) {
            return Err(format!(
                "field `directions`: {d:?} lies outside the cone of {u:?} and {w:?}: the exact pagoda weights do not cover this lattice"
            ));
        }
        let g = |e: &[i32; 2], p: &Point| e[0] * p[0] + e[1] * p[1];
        if let Some(e) = edges
            .iter()
            .find(|e| g(e, u) * g(e, w) < 0 || g(e, u).abs() > 1)
        {
            return Err(format!(
                "field `directions`: {u:?} and {w:?} cross the triangle's edge {e:?}: the exact pagoda weights do not cover this board"
            ));
        }
    }
    Ok(())
}
