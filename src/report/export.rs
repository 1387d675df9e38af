//! Files in and out: armies and plays as CSV, written atomically, read with line-exact errors.
//!
//! Army CSV: header `x,y` (`x,y,z` in 3-D), one row per man. Play CSV: header
//! `step,move,from_x,from_y,over_x,over_y,to_x,to_y` (in 3-D `from_x,from_y,from_z,…`), one
//! row per jump; `move` numbers the runs of jumps by one man. Coordinates are the model's
//! ([`Cell::coords`]); a reader takes a third coordinate when the header has its column. Every file is written to a temporary sibling and renamed into
//! place, so an interrupted run never leaves a truncated file.

use crate::error::Error;
use crate::problem::geometry::Cell;
use crate::proof::verify::Step;
use std::fs;
use std::io::Read;
use std::path::Path;

/// The coordinate names of a dimension: x, y (, z).
fn axes(dimension: usize) -> &'static [&'static str] {
    &["x", "y", "z"][..dimension.clamp(2, 3)]
}

/// An army as CSV in the model's `dimension` (2 or 3).
pub fn army_csv(army: &[Cell], dimension: usize) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(axes(dimension)).unwrap();
    for &c in army {
        w.write_record(c.coords(dimension).iter().map(|n| n.to_string()))
            .unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// A play as CSV in the model's `dimension` (2 or 3).
pub fn play_csv(play: &[Step], dimension: usize) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["step".to_string(), "move".to_string()];
    for role in ["from", "over", "to"] {
        header.extend(axes(dimension).iter().map(|a| format!("{role}_{a}")));
    }
    w.write_record(&header).unwrap();
    let mut mv = 0;
    for (i, s) in play.iter().enumerate() {
        if i == 0 || play[i - 1].to != s.from {
            mv += 1;
        }
        let mut v = vec![i as i32 + 1, mv];
        for c in [s.from, s.over, s.to] {
            v.extend(c.coords(dimension));
        }
        w.write_record(v.iter().map(|n| n.to_string())).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// Whether a CSV file's header has the column `name` (false when it cannot be read: the
/// reader then reports why).
fn has_column(path: &Path, name: &str) -> bool {
    if path == Path::new("-") {
        return false;
    }
    let Ok(text) = fs::read_to_string(path) else {
        return false;
    };
    let first = text.lines().next().unwrap_or("");
    first.split(',').any(|h| h.trim() == name)
}

/// Reads integer columns by name from a CSV file; errors name the file and line.
/// `-` is standard input.
fn read_columns(path: &Path, names: &[&str]) -> Result<Vec<Vec<i32>>, String> {
    let (text, path) = if path == Path::new("-") {
        let mut t = String::new();
        std::io::stdin()
            .read_to_string(&mut t)
            .map_err(|e| format!("standard input: {e}"))?;
        (t, Path::new("standard input"))
    } else {
        let t = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        (t, path)
    };
    let mut r = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = r
        .headers()
        .map_err(|e| format!("{}: line 1: {e}", path.display()))?
        .clone();
    let idx: Vec<usize> = names
        .iter()
        .map(|n| {
            headers.iter().position(|h| h == *n).ok_or_else(|| {
                format!(
                    "{}: line 1: missing column '{n}' (header must have {})",
                    path.display(),
                    names.join(",")
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            format!("{}: line {line}: {e}", path.display())
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let row = idx
            .iter()
            .zip(names)
            .map(|(&i, n)| {
                let v = rec.get(i).unwrap_or("");
                v.parse::<i32>().map_err(|_| {
                    format!(
                        "{}: line {line}: column '{n}' is '{v}', not an integer",
                        path.display()
                    )
                })
            })
            .collect::<Result<Vec<i32>, String>>()?;
        rows.push(row);
    }
    Ok(rows)
}

/// The file's dimension must be the model's: a z column exactly for a 3-D model.
fn same_dimension(path: &Path, column: &str, dimension: usize) -> Result<(), Error> {
    let three = has_column(path, column);
    if three != (dimension == 3) {
        return Err(Error::Input(format!(
            "{}: line 1: {} column '{column}', but the model is {dimension}-dimensional",
            path.display(),
            if three { "a" } else { "no" }
        )));
    }
    Ok(())
}

/// An army from CSV for a model of `dimension` 2 or 3 (a z column exactly in 3-D).
pub fn read_army_in(path: &Path, dimension: usize) -> Result<Vec<Cell>, Error> {
    same_dimension(path, "z", dimension)?;
    read_army(path)
}

/// A play from CSV for a model of `dimension` 2 or 3 (z columns exactly in 3-D).
pub fn read_play_in(path: &Path, dimension: usize) -> Result<Vec<Step>, Error> {
    same_dimension(path, "from_z", dimension)?;
    read_play(path)
}

/// An army from CSV: columns x, y, and z when the header has it.
pub fn read_army(path: &Path) -> Result<Vec<Cell>, Error> {
    let dimension = if has_column(path, "z") { 3 } else { 2 };
    Ok(read_columns(path, axes(dimension))
        .map_err(Error::Input)?
        .into_iter()
        .map(|r| Cell::from_coords(&r).expect("2 or 3 columns"))
        .collect())
}

/// A play from CSV: from_x, from_y, …, to_y, and the z columns when the header has them.
pub fn read_play(path: &Path) -> Result<Vec<Step>, Error> {
    let dimension = if has_column(path, "from_z") { 3 } else { 2 };
    let cols: Vec<String> = ["from", "over", "to"]
        .iter()
        .flat_map(|role| axes(dimension).iter().map(move |a| format!("{role}_{a}")))
        .collect();
    let names: Vec<&str> = cols.iter().map(String::as_str).collect();
    let cell = |r: &[i32], k: usize| {
        Cell::from_coords(&r[k * dimension..(k + 1) * dimension]).expect("2 or 3 columns")
    };
    Ok(read_columns(path, &names)
        .map_err(Error::Input)?
        .into_iter()
        .map(|r| Step {
            from: cell(&r, 0),
            over: cell(&r, 1),
            to: cell(&r, 2),
        })
        .collect())
}

/// One row of results/min-sizes.csv (an empty cell is None).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MinSizeRow {
    pub army: String,
    pub level: i32,
    pub min_size: Option<u64>,
    pub lower_bound: Option<u64>,
    pub status: String,
    pub board_proven: bool,
    pub seconds: f64,
}

/// Reads results/min-sizes.csv; a missing or malformed file is an error naming it.
pub fn read_min_sizes(path: &Path) -> Result<Vec<MinSizeRow>, Error> {
    let bad = |e: csv::Error| Error::Input(format!("{}: {e}", path.display()));
    let mut r = csv::Reader::from_path(path).map_err(bad)?;
    r.deserialize().map(|row| row.map_err(bad)).collect()
}
