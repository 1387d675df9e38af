//! The checker's own exact weight of a start region under a distance pagoda function
//! (σ^(offset + distance from a source cell)), in closed form, sharing no code with the
//! solver's breadth-first window (`crate::weight::pagoda`): the two are compared in
//! `tests/weights.rs`.
//!
//! The argument, and its premises, checked here on every call (a lattice outside them is
//! refused with one line, never weighed approximately):
//!
//! - **Plane.** The jumps, sorted by angle, cut the plane into half-open cones
//!   {a·u + b·w : a >= 1, b >= 0} of consecutive jumps u, w. Premise: each (u, w) is a basis
//!   of the cells' lattice (det = 1, or 2 on the even cells), and the functional f with
//!   f(u) = f(w) = 1 is at most 1 on every jump. Then the cells of the cone are exactly those
//!   a·u + b·w with integers a >= 1, b >= 0; a path of a + b jumps reaches each; and no path
//!   is shorter, since every jump raises f by at most 1. So the distance on the cone is
//!   a + b, and on the plane max over the cones of f. On Pablito's triangle, premise: each
//!   cone's u and w move each edge functional (x, y − x) the same way, by at most 1, so that
//!   path never leaves the board.
//! - **Sums.** A start region is the cone's cells with linear constraints
//!   a·p + b·q >= m (p, q in {−1, 0, 1}): the row for a half-space, the edges on the
//!   triangle. For fixed a the admissible b form an interval [lo(a), hi(a)] whose ends are
//!   max and min of affine functions of a with slopes −1, 0, 1 and integer intercepts, so
//!   beyond the largest gap between intercepts (where any two of them cross) each end is one
//!   affine function: there the sum over a is two geometric series, summed in closed form
//!   (1/(1 − σ) = σ^−2, 1/(1 − σ²) = σ^−1); below it every a is summed exactly.
//! - **Deserts.** The start region is the whole lattice (every cone, unconstrained) less the
//!   finitely many cells of the desert, each weighed by the distance above.
//! - **Space.** Two lattices, men in a half-space (or, on Z^3, outside a desert). The six
//!   unit jumps on every cell: the distance is |x| + |y| + |z| and the weight a product of
//!   three sums over Z, Σ σ^|t| = 1 + 2σ^−1 on a whole axis. The fcc lattice (the even
//!   cells, all twelve jumps (±1, ±1, 0) and their permutations): the weight is a sum of
//!   layers z = k, each in closed form ([`fcc_weight`] has the argument).
//!
//! Every weight stays in Z\[σ\]; powers beyond σ^±[`MAX_EXPONENT`] and sums that leave
//! i128 are refused.

use crate::problem::geometry::{Cell, Lattice, Region, StartRegion};
use crate::weight::golden::Golden;

/// Levels the checker weighs (the solver never states a weight counted higher).
pub const MAX_LEVEL: i32 = 40;

/// |e| above which σ^e is refused: its coefficients would near i128's limit.
pub const MAX_EXPONENT: i64 = 160;

/// The exact weight of the start region at `level`, each cell c weighing
/// σ^(offset + distance(source, c)): the standard function (source the target, offset 0)
/// or the improved one of a last jump d (source d, offset 1).
pub fn start_weight(
    lattice: &Lattice,
    level: i32,
    source: Cell,
    offset: i32,
) -> Result<Golden, String> {
    if !(1..=MAX_LEVEL).contains(&level) {
        return Err(format!(
            "level {level}: the checker weighs start regions at levels 1 to {MAX_LEVEL}"
        ));
    }
    if !lattice.contains(source) {
        return Err(format!("the source {source:?} is not a cell"));
    }
    let total = match lattice.dimension() {
        3 => space_weight(lattice, level, source)?,
        _ => plane_weight(lattice, level, source)?,
    };
    Ok(pw(offset as i64)? * total)
}

/// σ^e, refused beyond ±[`MAX_EXPONENT`].
fn pw(e: i64) -> Result<Golden, String> {
    if e.abs() > MAX_EXPONENT {
        return Err(format!("σ^{e} lies beyond the checker's exact arithmetic"));
    }
    Ok(Golden::pow(e as i32))
}

/// x + y, refused on overflow.
fn add(x: Golden, y: Golden) -> Result<Golden, String> {
    match (x.a.checked_add(y.a), x.b.checked_add(y.b)) {
        (Some(a), Some(b)) => Ok(Golden::new(a, b)),
        _ => Err("a weight leaves the checker's exact arithmetic".into()),
    }
}

fn det(u: Cell, w: Cell) -> i64 {
    u.0 as i64 * w.1 as i64 - u.1 as i64 * w.0 as i64
}

/// A linear constraint g·c >= bound on cells (g in the plane's (x, row) coordinates).
type Constraint = ((i64, i64), i64);

fn apply(g: (i64, i64), c: Cell) -> i64 {
    g.0 * c.0 as i64 + g.1 * c.1 as i64
}

/// The plane's cones, their premises checked.
fn cones(lattice: &Lattice) -> Result<Vec<(Cell, Cell)>, String> {
    let mut dirs = lattice.directions.clone();
    if dirs
        .iter()
        .any(|d| d.2 != 0 || d.0.abs() > 1 || d.1.abs() > 1)
    {
        return Err("a jump is not a unit step of the plane".into());
    }
    let half = |d: &Cell| d.1 < 0 || (d.1 == 0 && d.0 < 0);
    dirs.sort_by(|p, q| half(p).cmp(&half(q)).then(0.cmp(&det(*p, *q))));
    let index = if lattice.region == Region::EvenParity {
        2
    } else {
        1
    };
    let edges = region_edges(lattice);
    let mut out = Vec::new();
    for (i, &u) in dirs.iter().enumerate() {
        let w = dirs[(i + 1) % dirs.len()];
        if det(u, w) != index {
            return Err(format!(
                "the jumps {u:?} and {w:?} are no basis of the cells: outside the checker's premise"
            ));
        }
        if dirs.iter().any(|&d| det(d, w) + det(u, d) > index) {
            return Err(format!(
                "a jump lies beyond the cone of {u:?} and {w:?}: outside the checker's premise"
            ));
        }
        for &(g, _) in &edges {
            let (gu, gw) = (apply(g, u), apply(g, w));
            if gu * gw < 0 || gu.abs() > 1 || gw.abs() > 1 {
                return Err(format!(
                    "the jumps {u:?} and {w:?} cross the board's edge: outside the checker's premise"
                ));
            }
        }
        out.push((u, w));
    }
    Ok(out)
}

/// The region's own constraints: the triangle's edges x >= 0 and y − x >= 0.
fn region_edges(lattice: &Lattice) -> Vec<Constraint> {
    match lattice.region {
        Region::Triangle => vec![((1, 0), 0), ((-1, 1), 0)],
        _ => Vec::new(),
    }
}

/// The distance from 0 to v in the plane: the largest cone functional (premise above).
fn plane_distance(cones: &[(Cell, Cell)], v: Cell) -> i64 {
    cones
        .iter()
        .map(|&(u, w)| (det(v, w) + det(u, v)) / det(u, w))
        .max()
        .unwrap_or(0)
}

fn plane_weight(lattice: &Lattice, level: i32, s: Cell) -> Result<Golden, String> {
    let cones = cones(lattice)?;
    let mut cons = region_edges(lattice);
    if lattice.start == StartRegion::HalfSpace {
        cons.push(((0, 1), level as i64));
    }
    // The source itself, then every cone from it.
    let mut total = if cons.iter().all(|&(g, m)| apply(g, s) >= m) {
        Golden::ONE
    } else {
        Golden::ZERO
    };
    for &(u, w) in &cones {
        let rel: Vec<(i64, i64, i64)> = cons
            .iter()
            .map(|&(g, m)| (apply(g, u), apply(g, w), m - apply(g, s)))
            .collect();
        total = add(total, cone_sum(&rel)?)?;
    }
    if lattice.start == StartRegion::HalfSpace {
        return Ok(total);
    }
    // A desert: less its finitely many cells.
    for c in Cell::window(level, 2).filter(|&c| lattice.contains(c) && !in_start(lattice, c, level))
    {
        total = add(total, -pw(plane_distance(&cones, c - s))?)?;
    }
    Ok(total)
}

fn in_start(lattice: &Lattice, c: Cell, level: i32) -> bool {
    match lattice.start {
        StartRegion::HalfSpace => c.row() >= level,
        StartRegion::OutsideSquare => c.chebyshev() >= level,
        StartRegion::OutsideRhombus => c.manhattan() >= level,
    }
}

/// Σ σ^(a + b) over integers a >= 1, b >= 0 with a·p + b·q >= m for every (p, q, m) given,
/// each p and q in {−1, 0, 1}, in closed form (the module's "Sums").
fn cone_sum(cons: &[(i64, i64, i64)]) -> Result<Golden, String> {
    if cons.iter().any(|&(p, q, _)| p.abs() > 1 || q.abs() > 1) {
        return Err(
            "a constraint moves more than one row per jump: outside the checker's premise".into(),
        );
    }
    // b >= lo(a) = max of these affine pieces (slope, intercept); b <= hi(a) = min of those.
    let mut lows = vec![(0i64, 0i64)];
    let mut highs = Vec::new();
    let mut fixed = Vec::new(); // q = 0: a·p >= m, whatever b
    for &(p, q, m) in cons {
        match q {
            1 => lows.push((-p, m)),
            -1 => highs.push((p, -m)),
            _ => fixed.push((p, m)),
        }
    }
    let intercepts: Vec<i64> = lows.iter().chain(&highs).map(|x| x.1).collect();
    let gap = intercepts
        .iter()
        .flat_map(|x| intercepts.iter().map(move |y| (x - y).abs()))
        .chain(fixed.iter().map(|f| f.1.abs()))
        .max()
        .unwrap_or(0);
    // Beyond a0 no two pieces cross and every fixed condition keeps its truth value.
    let a0 = gap + 1;
    let at = |piece: (i64, i64), a: i64| piece.0 * a + piece.1;
    let mut total = Golden::ZERO;
    for a in 1..a0 {
        if fixed.iter().any(|&(p, m)| a * p < m) {
            continue;
        }
        let lo = lows.iter().map(|&x| at(x, a)).max().unwrap();
        let hi = highs.iter().map(|&x| at(x, a)).min();
        if hi.is_some_and(|hi| hi < lo) {
            continue;
        }
        // Σ_{b = lo}^{hi} σ^(a + b) = (σ^(a + lo) − σ^(a + hi + 1)) σ^−2.
        total = add(total, pw(a + lo - 2)?)?;
        if let Some(hi) = hi {
            total = add(total, -pw(a + hi - 1)?)?;
        }
    }
    if fixed.iter().any(|&(p, m)| a0 * p < m) {
        return Ok(total);
    }
    let lo = *lows.iter().max().unwrap();
    let hi = highs.iter().min().copied();
    if let Some(hi) = hi
        && (at(hi, a0) < at(lo, a0) || hi.0 < lo.0)
    {
        return Ok(total); // empty from a0 on (crossed before a0 if the slopes differ)
    }
    // Σ_{a >= a0} σ^((1 + λ)a + μ − 2) − Σ_{a >= a0} σ^((1 + κ)a + ν − 1).
    total = add(total, geometric(1 + lo.0, (1 + lo.0) * a0 + lo.1 - 2)?)?;
    if let Some(hi) = hi {
        total = add(total, -geometric(1 + hi.0, (1 + hi.0) * a0 + hi.1 - 1)?)?;
    }
    Ok(total)
}

/// Σ_{k >= 0} σ^(first + ratio·k) for ratio 1 or 2: σ^first/(1 − σ^ratio).
fn geometric(ratio: i64, first: i64) -> Result<Golden, String> {
    match ratio {
        1 => pw(first - 2),
        2 => pw(first - 1),
        _ => Err(format!(
            "a geometric ratio σ^{ratio}: outside the checker's premise"
        )),
    }
}

/// Space: the six unit jumps on every cell, or the fcc lattice; nothing else.
fn space_weight(lattice: &Lattice, level: i32, s: Cell) -> Result<Golden, String> {
    let nonzero = |d: &Cell| [d.0, d.1, d.2].iter().filter(|&&v| v != 0).count();
    let all = |k: usize, count: usize| {
        let mut dirs = lattice.directions.clone();
        dirs.sort();
        dirs.dedup();
        let unit = |d: &Cell| d.chebyshev() == 1 && nonzero(d) == k;
        dirs.len() == count && lattice.directions.len() == count && dirs.iter().all(unit)
    };
    match lattice.region {
        Region::All if all(1, 6) => cubic_weight(lattice, level, s),
        Region::EvenParity if all(2, 12) => fcc_weight(lattice, level, s),
        _ => Err("in space the checker weighs only the six unit jumps on every cell and the twelve jumps of the fcc lattice on the even cells".into()),
    }
}

/// The six unit jumps on every cell, the distance |x| + |y| + |z|.
fn cubic_weight(lattice: &Lattice, level: i32, s: Cell) -> Result<Golden, String> {
    // Σ_{t ∈ Z} σ^|t| = 1 + 2σ/(1 − σ) = 1 + 2σ^−1, whatever the source's coordinate.
    let axis = Golden::ONE + 2 * pw(-1)?;
    if lattice.start == StartRegion::HalfSpace {
        // Σ_{t >= m} σ^|t|: σ^(m − 2) for m >= 0; else the terms t < 0 and then σ^−2.
        let m = (level - s.row()) as i64;
        let mut rows = pw(m.max(0) - 2)?;
        for t in m..0 {
            rows = add(rows, pw(-t)?)?;
        }
        return Ok(axis * axis * rows);
    }
    let mut total = axis * axis * axis;
    for c in Cell::window(level, 3).filter(|&c| !in_start(lattice, c, level)) {
        total = add(total, -pw((c - s).manhattan() as i64)?)?;
    }
    Ok(total)
}

/// The fcc lattice, men in the layers z >= `level`, each cell c weighing σ^d(c − s).
///
/// **Distance.** For v = (x, y, z) with x + y + z even, d(v) = max(|x|, |y|, |z|,
/// (|x| + |y| + |z|)/2). No path is shorter: a jump moves each coordinate by at most 1 and
/// the sum of their absolute values by at most 2. A path that long exists: with the absolute
/// values sorted a >= b >= c, if a >= b + c, b jumps lower a and b, c jumps lower a and c,
/// and (a − b − c)/2 pairs (±1, ±1, 0), (±1, ∓1, 0) take the rest: a jumps; else each jump
/// lowers the two largest, which keeps the largest at most the sum of the other two and the
/// sum even, so the second largest stays positive until all are 0: (a + b + c)/2 jumps.
/// The cells c − s of a cell c and the source s (both even) are the fcc lattice again.
///
/// **A layer.** In the layer z = k >= 0 the cells (x, y) have x + y ≡ k (mod 2). At e = k
/// they are those with |x| + |y| <= k (max(|x|, |y|) <= k follows): the diamonds
/// |x| + |y| = j for j ≡ k (mod 2), 4j cells each (1 for j = 0), (k + 1)² in all. At each
/// e > k they are the octagon's rim: the edges x = ±e, y = ±e with |x| + |y| <= 2e − k
/// (e − k + 1 cells each of parity k; the corners only for k = 0, counted twice), and the
/// slanted sides |x| + |y| = 2e − k with e − k < |x| < e (k − 1 cells per quadrant): 4e
/// either way. So the layer weighs (k + 1)²σ^k + 4 Σ_{e > k} e σ^e = σ^k (k + a)² with
/// a = 1 + 2σ^−1, by Σ_{j >= 0} σ^j = σ^−2 and Σ_{j >= 0} j σ^j = σ/(1 − σ)² = σ^−3 (as
/// 1 − σ = σ²), and the layer z = −k weighs the same.
///
/// **The layers.** With Σ_{j >= 0} j² σ^j = σ(1 + σ)/(1 − σ)³ = σ^−6, the layers k >= m
/// (m >= 0) weigh σ^m Σ_j σ^j (b + j)² = σ^m (b²σ^−2 + 2bσ^−3 + σ^−6) with b = m + a; the
/// layers from m < 0 to −1 are added one by one.
fn fcc_weight(lattice: &Lattice, level: i32, s: Cell) -> Result<Golden, String> {
    if lattice.start != StartRegion::HalfSpace {
        return Err("on the fcc lattice the checker weighs only a half-space start".into());
    }
    let a = add(Golden::ONE, 2 * pw(-1)?)?;
    let layer = |k: i64| -> Result<Golden, String> {
        let f = add(Golden::from_int(k.abs() as i128), a)?;
        Ok(pw(k.abs())? * f * f)
    };
    let m = (level - s.row()) as i64;
    let m0 = m.max(0);
    let b = add(Golden::from_int(m0 as i128), a)?;
    let tail = add(add(b * b * pw(-2)?, 2 * b * pw(-3)?)?, pw(-6)?)?;
    let mut total = pw(m0)? * tail;
    for k in m..0 {
        total = add(total, layer(k)?)?;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form of a cone against the sum itself, truncated where σ^a+b < 1e-30.
    #[test]
    fn cone_sums_match_the_series() {
        let sigma = (5f64.sqrt() - 1.0) / 2.0;
        let units = [-1i64, 0, 1];
        for &p in &units {
            for &q in &units {
                for m in -6..=6 {
                    for extra in [None, Some((1, -1, -2)), Some((-1, 1, 0)), Some((0, 1, 1))] {
                        let mut cons = vec![(p, q, m)];
                        cons.extend(extra);
                        let mut want = 0.0;
                        for a in 1..150i64 {
                            for b in 0..150i64 {
                                if cons.iter().all(|&(p, q, m)| a * p + b * q >= m) {
                                    want += sigma.powi((a + b) as i32);
                                }
                            }
                        }
                        let got = cone_sum(&cons).unwrap().to_f64();
                        assert!((got - want).abs() < 1e-9, "{cons:?}: {got} vs {want}");
                    }
                }
            }
        }
    }

    /// The fcc lattice's twelve jumps on the even cells of Z^3, men in a half-space.
    fn fcc() -> Lattice {
        crate::problem::Army::parse(include_str!("../../models/fcc.toml"))
            .unwrap()
            .lattice()
    }

    /// The distance of [`fcc_weight`] is the breadth-first distance of the twelve jumps.
    #[test]
    fn fcc_distance_is_the_jump_distance() {
        let l = fcc();
        let r = 12;
        let mut grid = crate::problem::geometry::Grid::new(r, 3, None);
        let mut queue = std::collections::VecDeque::from([Cell::ORIGIN]);
        grid.set(Cell::ORIGIN, Some(0));
        while let Some(c) = queue.pop_front() {
            let e = grid.get(c).unwrap();
            for &d in &l.directions {
                let n = c + d;
                if grid.inside(n) && grid.get(n).is_none() {
                    grid.set(n, Some(e + 1));
                    queue.push_back(n);
                }
            }
        }
        // Exact where every shortest path stays in the window: distance <= r − 1.
        for c in Cell::window(r, 3).filter(|&c| l.contains(c)) {
            let d = c.chebyshev().max(c.manhattan() / 2);
            if d < r {
                assert_eq!(*grid.get(c), Some(d), "{c:?}");
            }
        }
    }

    /// The closed form against the series itself, every cell of the layers z >= m weighed
    /// σ^d, truncated at distance 90 (the rest weighs below 1e-12), for sources at
    /// z = −1, 0, 1 and 2 (a layer below the level).
    #[test]
    fn fcc_weights_match_the_series() {
        let l = fcc();
        let sigma = (5f64.sqrt() - 1.0) / 2.0;
        let r = 90i32;
        let sources = [
            (1, Cell::ORIGIN),
            (3, Cell(1, 1, 0)),
            (2, Cell(1, -1, 0)),
            (1, Cell(0, 2, 0)),
        ];
        for (level, s) in sources {
            let m = level - s.row();
            let mut want = 0.0;
            for z in m..=r {
                for x in -r..=r {
                    for y in -r..=r {
                        let c = Cell(x, z, y);
                        if l.contains(c) {
                            let d = c.chebyshev().max(c.manhattan() / 2);
                            want += sigma.powi(d);
                        }
                    }
                }
            }
            let got = start_weight(&l, level, s, 0).unwrap().to_f64();
            assert!((got - want).abs() < 1e-9, "{level} {s:?}: {got} vs {want}");
        }
        // The layers z >= 15 weigh less than 1, z >= 14 more.
        assert!(start_weight(&l, 15, Cell::ORIGIN, 0).unwrap() < Golden::ONE);
        assert!(start_weight(&l, 14, Cell::ORIGIN, 0).unwrap() > Golden::ONE);
    }

    /// Conway's level 5 weighs exactly 1 (Figure 3); level 41 is beyond what it weighs.
    #[test]
    fn conway_5_weighs_one() {
        let l = crate::problem::Army::conway().lattice();
        assert_eq!(start_weight(&l, 5, Cell::ORIGIN, 0), Ok(Golden::ONE));
        assert!(start_weight(&l, 41, Cell::ORIGIN, 0).is_err());
    }
}
