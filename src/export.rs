//! Files in and out: armies and plays as CSV, written atomically, read with line-exact errors.
//!
//! Army CSV: header `x,y`, one row per man. Play CSV: header
//! `step,move,from_x,from_y,over_x,over_y,to_x,to_y`, one row per jump; `move` numbers the
//! runs of jumps by one man. Every file is written to a temporary sibling and renamed into
//! place, so an interrupted run never leaves a truncated file.

use crate::error::Error;
use crate::geometry::Cell;
use crate::verify::Step;
use std::fs;
use std::io::Read;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: to a temporary file in the same directory
/// (`tempfile`), synced, then renamed into place. A failure names `path` and the reason and
/// leaves no partial file (the temporary file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let fail = |e| Error::io("write", path, e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let mut f = tempfile::Builder::new()
        .prefix(".solarmy-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    f.write_all(bytes)
        .and_then(|_| f.as_file().sync_all())
        .map_err(fail)?;
    f.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

pub fn army_csv(army: &[Cell]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["x", "y"]).unwrap();
    for &(x, y) in army {
        w.write_record([x.to_string(), y.to_string()]).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

pub fn play_csv(play: &[Step]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "step", "move", "from_x", "from_y", "over_x", "over_y", "to_x", "to_y",
    ])
    .unwrap();
    let mut mv = 0;
    for (i, s) in play.iter().enumerate() {
        if i == 0 || play[i - 1].to != s.from {
            mv += 1;
        }
        let v = [
            i as i32 + 1,
            mv,
            s.from.0,
            s.from.1,
            s.over.0,
            s.over.1,
            s.to.0,
            s.to.1,
        ];
        w.write_record(v.iter().map(|n| n.to_string())).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
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

pub fn read_army(path: &Path) -> Result<Vec<Cell>, Error> {
    Ok(read_columns(path, &["x", "y"])
        .map_err(Error::Input)?
        .into_iter()
        .map(|r| (r[0], r[1]))
        .collect())
}

pub fn read_play(path: &Path) -> Result<Vec<Step>, Error> {
    let cols = ["from_x", "from_y", "over_x", "over_y", "to_x", "to_y"];
    Ok(read_columns(path, &cols)
        .map_err(Error::Input)?
        .into_iter()
        .map(|r| Step {
            from: (r[0], r[1]),
            over: (r[2], r[3]),
            to: (r[4], r[5]),
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
