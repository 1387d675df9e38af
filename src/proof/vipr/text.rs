//! One infeasible integer program and its exact certificate as the text of a VIPR 1.1 file.
//!
//! The program is a [`LinearSystem`] (integer columns in a box, rows lo <= a·x <= hi); the
//! certificate a [`Tree`] of Farkas leaves. In VIPR every column bound is a constraint of its
//! own (the `CON` section lists them first), so a leaf's derivation is its row multipliers
//! plus, for each column of the combined row c·x >= β, the bound that cancels c_j (−c_j
//! times the upper bound when c_j > 0, the lower one when c_j < 0): the `lin` sum is then
//! 0 >= β − max c·x, an absurdity, with the same numbers [`super::super::farkas::check_in`]
//! compares. A split is two assumptions (`asm`) on the column or the integer row, x <= v and
//! x >= v + 1, each closing its subtree, joined by `uns`. A Chvátal–Gomory cut is a `rnd`
//! derivation with the multipliers y_i/d of the tree, its rounded row appended as the
//! checker appends it (a sum of equations alone is first stated as a >= row by `lin`:
//! viprchk rounds no equation). Every number is exact: integers, and the fractions y/d.

use super::super::cut::{Cut, combine, derive};
use super::super::farkas::{Farkas, LinearSystem, MAX_TREE_DEPTH, Row, Tree};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The names of a program's columns and rows, and the comment lines that open its file.
pub struct Names {
    pub cols: Vec<String>,
    pub rows: Vec<String>,
    pub comments: Vec<String>,
}

/// A bound in force: its value and the index of the VIPR constraint that states it.
type Bound = (i64, usize);

/// A derived absurdity: its index and the assumptions (`asm` indices) it rests on.
type Derived = (usize, Vec<usize>);

/// A row the leaves may name: its coefficients and the constraint of each side it has.
struct Side {
    coefs: Vec<(usize, i64)>,
    lo: Option<Bound>,
    hi: Option<Bound>,
}

/// The `DER` section under construction, with what is in force at the node being written.
struct Derivation<'a> {
    sys: &'a LinearSystem,
    /// Index of the next constraint (the `CON` constraints come first, `con` of them).
    next: usize,
    con: usize,
    lines: Vec<String>,
    lo: Vec<Bound>,
    hi: Vec<Option<Bound>>,
    /// The system's rows, then the rows of the splits on rows above the node.
    rows: Vec<Side>,
    splits: usize,
    leaves: usize,
    /// Splits and cuts above the node being written.
    depth: usize,
    /// The assumptions each cut written so far rests on, by its constraint index.
    cut_rests: BTreeMap<usize, Vec<usize>>,
    cuts: usize,
}

/// The VIPR text of `sys` and `tree` (which must leave nothing to the solvers), or why it
/// cannot be written. The tree is checked on the way: a leaf whose sum is not an absurdity
/// is an error, not a file that viprchk would refuse.
pub fn render(sys: &LinearSystem, names: &Names, tree: &Tree) -> Result<String, String> {
    let (mut out, mut der) = problem(sys, names)?;
    let (_, rests) = der.tree(tree)?;
    if !rests.is_empty() {
        return Err("the root's absurdity rests on assumptions".into());
    }
    writeln!(out, "DER {}", der.lines.len()).unwrap();
    for l in &der.lines {
        out.push_str(l);
        out.push('\n');
    }
    Ok(out)
}

/// The problem section of `sys` alone, with an empty `DER` section: the program that rests
/// on a solver, written exactly as [`render`] would write it, so that another exact solver
/// (exact SCIP, which writes VIPR certificates itself) can be given the very system our
/// checker builds, and its certificate's problem compared with this one. viprchk refuses
/// the file as it stands (nothing derives the absurdity), which is right: it proves nothing.
pub fn render_problem(sys: &LinearSystem, names: &Names) -> Result<String, String> {
    let (mut out, _) = problem(sys, names)?;
    out.push_str("DER 0\n");
    Ok(out)
}

/// The comments and every section up to `DER` (`VER`, `VAR`, `INT`, `OBJ`, `CON`, `RTP`,
/// `SOL`), and a derivation that knows the constraints' indices.
fn problem<'a>(sys: &'a LinearSystem, names: &Names) -> Result<(String, Derivation<'a>), String> {
    let n = sys.cols.len();
    if names.cols.len() != n || names.rows.len() != sys.rows.len() {
        return Err(format!(
            "{} column and {} row names for a system of {n} columns and {} rows",
            names.cols.len(),
            names.rows.len(),
            sys.rows.len()
        ));
    }
    if let Some(bad) = names.cols.iter().chain(&names.rows).find(|s| !is_name(s)) {
        return Err(format!("'{bad}' cannot be a VIPR name"));
    }
    let mut out = String::new();
    for c in &names.comments {
        // viprchk takes a comment only when '%' stands alone as the line's first word.
        writeln!(out, "% {}", c.replace(['\n', '\r'], " ")).unwrap();
    }
    writeln!(out, "VER 1.1\nVAR {n}").unwrap();
    wrapped(&mut out, names.cols.iter().map(String::as_str));
    writeln!(out, "INT {n}").unwrap();
    let indices: Vec<String> = (0..n).map(|j| j.to_string()).collect();
    wrapped(&mut out, indices.iter().map(String::as_str));
    // The objective does not matter for infeasibility: none.
    writeln!(out, "OBJ min\n0").unwrap();
    let (con, der) = constraints(sys, names)?;
    out.push_str(&con);
    out.push_str("RTP infeas\nSOL 0\n");
    Ok((out, der))
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A VIPR name: one word of printable ASCII.
fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_graphic())
}

/// Words, a few to a line.
fn wrapped<'a>(out: &mut String, words: impl Iterator<Item = &'a str>) {
    let words: Vec<&str> = words.collect();
    for chunk in words.chunks(16) {
        out.push_str(&chunk.join(" "));
        out.push('\n');
    }
}

/// The `CON` section (column bounds first, as VIPR asks, then the rows; a row with two
/// different sides becomes two constraints), and a derivation that knows their indices.
fn constraints<'a>(
    sys: &'a LinearSystem,
    names: &Names,
) -> Result<(String, Derivation<'a>), String> {
    let mut lines = Vec::new();
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (j, &(l, u)) in sys.cols.iter().enumerate() {
        lo.push((l, lines.len()));
        lines.push(format!("lb_{} G {l} 1 {j} 1", names.cols[j]));
        hi.push(u.map(|u| (u, lines.len())));
        if let Some(u) = u {
            lines.push(format!("ub_{} L {u} 1 {j} 1", names.cols[j]));
        }
    }
    let bounds = lines.len();
    let mut rows = Vec::new();
    for (row, name) in sys.rows.iter().zip(&names.rows) {
        let terms = terms(&row.coefs, sys.cols.len())?;
        let mut side = |sense: char, v: i64, suffix: &str| {
            lines.push(format!("{name}{suffix} {sense} {v} {terms}"));
            Some((v, lines.len() - 1))
        };
        let (l, h) = match (row.lo, row.hi) {
            (Some(l), Some(h)) if l == h => {
                let s = side('E', l, "");
                (s, s)
            }
            (Some(l), Some(h)) => (side('G', l, "_lo"), side('L', h, "_hi")),
            (Some(l), None) => (side('G', l, ""), None),
            (None, Some(h)) => (None, side('L', h, "")),
            (None, None) => (None, None),
        };
        rows.push(Side {
            coefs: row.coefs.clone(),
            lo: l,
            hi: h,
        });
    }
    let mut con = format!("CON {} {bounds}\n", lines.len());
    for l in &lines {
        con.push_str(l);
        con.push('\n');
    }
    let der = Derivation {
        sys,
        next: lines.len(),
        con: lines.len(),
        lines: Vec::new(),
        lo,
        hi,
        rows,
        splits: 0,
        leaves: 0,
        depth: 0,
        cut_rests: BTreeMap::new(),
        cuts: 0,
    };
    Ok((con, der))
}

/// A row's coefficients in VIPR's form `p i1 a1 … ip ap`: repeated columns summed (VIPR
/// would keep only the last), zeros left out.
fn terms(coefs: &[(usize, i64)], cols: usize) -> Result<String, String> {
    let mut sum: BTreeMap<usize, i128> = BTreeMap::new();
    for &(j, a) in coefs {
        if j >= cols {
            return Err(format!("a row names column {j} of {cols}"));
        }
        *sum.entry(j).or_default() += a as i128;
    }
    sum.retain(|_, a| *a != 0);
    let mut s = sum.len().to_string();
    for (j, a) in sum {
        write!(s, "  {j} {a}").unwrap();
    }
    Ok(s)
}

impl Derivation<'_> {
    /// Appends a derived constraint; returns its index.
    fn push(&mut self, line: String) -> usize {
        self.lines.push(line);
        self.next += 1;
        self.next - 1
    }

    /// Writes the derivation of 0 >= (something positive) from the node's assumptions;
    /// returns that absurdity.
    fn tree(&mut self, tree: &Tree) -> Result<Derived, String> {
        // As deep as the checker walks, and no deeper: the stack stays bounded.
        if self.depth >= MAX_TREE_DEPTH {
            return Err(format!("the tree is deeper than {MAX_TREE_DEPTH}"));
        }
        match tree {
            Tree::Leaf(cert) => self.leaf(cert),
            Tree::Empty => self.empty(),
            Tree::Solver => Err("a leaf is left to the solvers".into()),
            Tree::Split {
                col,
                value,
                below,
                above,
            } => self.split(On::Col(*col), *value, below, above),
            Tree::SplitRow {
                coefs,
                value,
                below,
                above,
            } => self.split(On::Row(coefs), *value, below, above),
            Tree::Cut { cut, then } => self.cut(cut, then),
        }
    }

    /// The assumptions (`asm` indices) that constraints `used` rest on: a derived one's
    /// own, a cut's those of what it was derived from.
    fn resting(&self, used: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut rests = Vec::new();
        for i in used.filter(|&i| i >= self.con) {
            match self.cut_rests.get(&i) {
                Some(r) => rests.extend_from_slice(r),
                None => rests.push(i),
            }
        }
        rests.sort_unstable();
        rests.dedup();
        rests
    }

    /// A Chvátal–Gomory cut as a `rnd` derivation: the rows and bounds in force with
    /// multipliers y_i/d, z_j/d, and the rounded row the checker derives
    /// ([`super::super::cut::derive`]), appended for `then` as the checker appends it.
    fn cut(&mut self, cut: &Cut, then: &Tree) -> Result<Derived, String> {
        let rows: Vec<Row> = (self.rows.iter())
            .map(|r| Row {
                coefs: r.coefs.clone(),
                lo: r.lo.map(|b| b.0),
                hi: r.hi.map(|b| b.0),
            })
            .collect();
        let cols: Vec<(i64, Option<i64>)> = (self.lo.iter().zip(&self.hi))
            .map(|(l, u)| (l.0, u.map(|u| u.0)))
            .collect();
        let row = derive(&rows, &cols, cut)?;
        let d = cut.divisor;
        let mut lin: Vec<(usize, i64)> = Vec::new();
        for &(i, y) in &cut.multipliers {
            let side = if y > 0 {
                self.rows[i].lo
            } else {
                self.rows[i].hi
            };
            lin.push((side.ok_or("a cut's row has no such side")?.1, y));
        }
        for &(j, z) in &cut.bounds {
            let b = if z > 0 { Some(self.lo[j]) } else { self.hi[j] };
            lin.push((b.ok_or("a cut's column has no such bound")?.1, z));
        }
        self.cuts += 1;
        let lo = row.lo.ok_or("a cut without a side")?;
        let coefs = terms(&row.coefs, self.lo.len())?;
        let mut reason = format!("rnd {}", lin.len());
        for &(index, y) in &lin {
            // In lowest terms: GMP reads a fraction as written, without canonicalizing it.
            let g = gcd(y.unsigned_abs() as u128, d as u128) as i64;
            match d / g {
                1 => write!(reason, "  {index} {}", y / g).unwrap(),
                q => write!(reason, "  {index} {}/{q}", y / g).unwrap(),
            }
        }
        // viprchk rounds nothing in a sum of equations alone (its sense is =): the sum is
        // first stated as a >= row by `lin`, then rounded.
        let equations = cut.bounds.is_empty()
            && (cut.multipliers.iter()).all(|&(i, _)| self.rows[i].lo == self.rows[i].hi);
        if equations {
            let (c, beta) = combine(&rows, &cols, cut)?;
            let g = gcd(beta.unsigned_abs(), d as u128).max(1) as i128;
            let rhs = format!("{}/{}", beta / g, d as i128 / g);
            let sum = row.coefs.iter().map(|&(j, a)| (j, a)).collect::<Vec<_>>();
            debug_assert!(sum.iter().all(|&(j, a)| c[j] == a as i128 * d as i128));
            let line = format!(
                "cutsum{} G {rhs} {coefs} {{ lin{} }} -1",
                self.cuts,
                &reason[3..]
            );
            let at = self.push(line);
            self.cut_rests
                .insert(at, self.resting(lin.iter().map(|l| l.0)));
            reason = format!("rnd 1  {at} 1");
            lin = vec![(at, 1)];
        }
        let line = format!("cut{} G {lo} {coefs} {{ {reason} }} -1", self.cuts);
        let rests = self.resting(lin.iter().map(|l| l.0));
        let index = self.push(line);
        self.cut_rests.insert(index, rests);
        self.rows.push(Side {
            coefs: row.coefs,
            lo: Some((lo, index)),
            hi: None,
        });
        self.depth += 1;
        let r = self.tree(then);
        self.depth -= 1;
        self.rows.pop();
        r
    }

    /// Σ y_i·row_i plus the cancelling bounds: 0 >= β − max c·x.
    fn leaf(&mut self, cert: &Farkas) -> Result<Derived, String> {
        let overflow = || "arithmetic overflow in a leaf".to_string();
        let n = self.sys.cols.len();
        let (mut c, mut beta) = (vec![0i128; n], 0i128);
        let mut lin: Vec<(usize, i128)> = Vec::new();
        for &(i, y) in &cert.multipliers {
            let row = self.rows.get(i).ok_or_else(|| format!("no row {i}"))?;
            let side = if y > 0 { row.lo } else { row.hi };
            let (b, index) = side.ok_or_else(|| format!("row {i} has no side for y = {y}"))?;
            let y = y as i128;
            beta = y
                .checked_mul(b as i128)
                .and_then(|t| beta.checked_add(t))
                .ok_or_else(overflow)?;
            for &(j, a) in &row.coefs {
                let cj = c.get_mut(j).ok_or_else(|| format!("no column {j}"))?;
                *cj = y
                    .checked_mul(a as i128)
                    .and_then(|t| cj.checked_add(t))
                    .ok_or_else(overflow)?;
            }
            lin.push((index, y));
        }
        let mut max = 0i128;
        for (j, &cj) in c.iter().enumerate().filter(|(_, c)| **c != 0) {
            let (b, index) = match cj > 0 {
                true => self.hi[j].ok_or_else(|| format!("column {j} has no upper bound"))?,
                false => self.lo[j],
            };
            max = cj
                .checked_mul(b as i128)
                .and_then(|t| max.checked_add(t))
                .ok_or_else(overflow)?;
            lin.push((index, -cj));
        }
        let gap = beta.checked_sub(max).ok_or_else(overflow)?;
        if gap <= 0 {
            return Err(format!(
                "a leaf sums to max c·x = {max}, not below β = {beta}"
            ));
        }
        self.leaves += 1;
        let mut line = format!("leaf{} G {gap} 0 {{ lin {}", self.leaves, lin.len());
        for &(index, y) in &lin {
            write!(line, "  {index} {y}").unwrap();
        }
        line.push_str(" } -1");
        let rests = self.resting(lin.iter().map(|l| l.0));
        Ok((self.push(line), rests))
    }

    /// A box with l > u on some column: lower bound minus upper bound is 0 >= l − u.
    fn empty(&mut self) -> Result<Derived, String> {
        let found = (0..self.lo.len()).find_map(|j| {
            let (l, li) = self.lo[j];
            self.hi[j]
                .filter(|&(u, _)| l > u)
                .map(|(u, ui)| (l - u, li, ui))
        });
        let (gap, li, ui) = found.ok_or("an empty leaf whose box is not empty")?;
        self.leaves += 1;
        let line = format!(
            "empty{} G {gap} 0 {{ lin 2  {li} 1  {ui} -1 }} -1",
            self.leaves
        );
        let rests = [li, ui].into_iter().filter(|&i| i >= self.con).collect();
        Ok((self.push(line), rests))
    }

    /// a·x <= v, then a·x >= v + 1 (a a column or an integer row), each with its subtree,
    /// joined by `uns`; a side whose subtree does not rest on its assumption stands alone.
    fn split(&mut self, on: On, v: i64, below: &Tree, above: &Tree) -> Result<Derived, String> {
        let next = v.checked_add(1).ok_or("a split value with no successor")?;
        let terms = match on {
            On::Col(col) if col < self.lo.len() => format!("1 {col} 1"),
            On::Col(col) => return Err(format!("a split on column {col} of {}", self.lo.len())),
            On::Row(coefs) => terms(coefs, self.lo.len())?,
        };
        self.splits += 1;
        let s = self.splits;
        let a = self.push(format!("split{s}_le L {v} {terms} {{ asm }} -1"));
        let low = self.under(&on, (None, Some((v, a))), below)?;
        if !low.1.contains(&a) {
            return Ok(low);
        }
        let b = self.push(format!("split{s}_ge G {next} {terms} {{ asm }} -1"));
        let high = self.under(&on, (Some((next, b)), None), above)?;
        if !high.1.contains(&b) {
            return Ok(high);
        }
        let mut rests: Vec<usize> = (low.1.iter().chain(&high.1))
            .copied()
            .filter(|&i| i != a && i != b)
            .collect();
        rests.sort_unstable();
        rests.dedup();
        let line = format!("uns{s} G 1 0 {{ uns {} {a} {} {b} }} -1", low.0, high.0);
        Ok((self.push(line), rests))
    }

    /// `tree` with one side of a split in force: a column's box narrowed as the checker
    /// narrows it (only a tighter bound replaces the one in force), or the row appended as
    /// the next row the leaves may name.
    fn under(
        &mut self,
        on: &On,
        side: (Option<Bound>, Option<Bound>),
        tree: &Tree,
    ) -> Result<Derived, String> {
        match *on {
            On::Col(col) => {
                let saved = (self.lo[col], self.hi[col]);
                if let Some(l) = side.0
                    && l.0 > saved.0.0
                {
                    self.lo[col] = l;
                }
                if let Some(u) = side.1
                    && saved.1.is_none_or(|h| u.0 < h.0)
                {
                    self.hi[col] = Some(u);
                }
                self.depth += 1;
                let r = self.tree(tree);
                self.depth -= 1;
                (self.lo[col], self.hi[col]) = saved;
                r
            }
            On::Row(coefs) => {
                self.rows.push(Side {
                    coefs: coefs.to_vec(),
                    lo: side.0,
                    hi: side.1,
                });
                self.depth += 1;
                let r = self.tree(tree);
                self.depth -= 1;
                self.rows.pop();
                r
            }
        }
    }
}

/// What a split divides on.
enum On<'t> {
    Col(usize),
    Row(&'t [(usize, i64)]),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cols: usize, rows: usize) -> Names {
        Names {
            cols: (0..cols).map(|j| format!("x{j}")).collect(),
            rows: (0..rows).map(|i| format!("r{i}")).collect(),
            comments: vec!["a test".into()],
        }
    }

    /// x0 + x1 = 1, x0 − x1 = 0 over binaries: a split on x0, each side a leaf.
    #[test]
    fn a_split_becomes_two_assumptions_and_an_unsplit() {
        let eq = |coefs: &[(usize, i64)], b| Row {
            coefs: coefs.to_vec(),
            lo: Some(b),
            hi: Some(b),
        };
        let sys = LinearSystem {
            cols: vec![(0, Some(1)), (0, Some(1))],
            rows: vec![eq(&[(0, 1), (1, 1)], 1), eq(&[(0, 1), (1, -1)], 0)],
        };
        let leaf = |m: &[(usize, i64)]| {
            Box::new(Tree::Leaf(Farkas {
                multipliers: m.to_vec(),
            }))
        };
        let tree = Tree::Split {
            col: 0,
            value: 0,
            below: leaf(&[(0, 1), (1, 1)]),
            above: leaf(&[(0, -1), (1, -1)]),
        };
        let text = render(&sys, &names(2, 2), &tree).unwrap();
        assert!(
            text.starts_with("% a test\nVER 1.1\nVAR 2\nx0 x1\nINT 2\n"),
            "{text}"
        );
        assert!(text.contains("CON 6 4\n"), "{text}");
        assert!(text.contains("r0 E 1 2  0 1  1 1\n"), "{text}");
        // Below: 2·x0 >= 1 with x0 <= 0 (the assumption, index 6): 0 >= 1.
        assert!(text.contains("split1_le L 0 1 0 1 { asm } -1\n"), "{text}");
        assert!(
            text.contains("leaf1 G 1 0 { lin 3  4 1  5 1  6 -2 } -1\n"),
            "{text}"
        );
        assert!(text.ends_with("uns1 G 1 0 { uns 7 6 9 8 } -1\n"), "{text}");
        // A multiplier changed: the leaf no longer sums to an absurdity.
        let bad = Tree::Split {
            col: 0,
            value: 0,
            below: leaf(&[(0, 1), (1, -1)]),
            above: leaf(&[(0, -1), (1, -1)]),
        };
        assert!(render(&sys, &names(2, 2), &bad).is_err());
        assert!(render(&sys, &names(2, 2), &Tree::Solver).is_err());
        assert!(render(&sys, &names(1, 2), &tree).is_err());
        // The problem alone: the same text up to DER, and no derivation.
        let problem = render_problem(&sys, &names(2, 2)).unwrap();
        let head = problem.strip_suffix("DER 0\n").unwrap();
        assert!(
            head.ends_with("SOL 0\n") && text.starts_with(head),
            "{problem}"
        );
        assert!(render_problem(&sys, &names(1, 2)).is_err());
    }
}
