//! The checker's test of a pagoda function stated by weights ([`LpFunction`]): that it is a
//! pagoda function on the whole lattice, and what the start region and the test position
//! weigh under it, exactly in Z\[σ\].
//!
//! Inside the window every jump is tested. Beyond it the weight is τ·σ^(M − R), M the
//! Manhattan distance |x − p_x| + |y − p_y| from the tail's centre p (a window cell), and a jump with all three cells outside the window holds by a lemma checked here on the
//! lattice: when every direction has |dx| + |dy| = 1, a jump a over b into c has
//! M(b) <= M(c) + 1 and M(a) <= M(c) + 2, so σ^M(a) + σ^M(b) >= σ^(M(c)+2) + σ^(M(c)+1) =
//! σ^M(c). The start region's weight is bounded above by its window cells plus *every* cell
//! outside the window, Σ σ^M over the whole plane being (Σ_x σ^|x|)² = (3 + 2σ)² = 13 + 8σ
//! wherever p lies.
//! A finite army weighs at most that bound, and no play raises a position's weight; so a
//! bound below the test position's weight (the target, or {d, 2d}) rules out every army.
//! Used by the checker ([`super::check`]) and, to confirm what it found, by
//! [`crate::ip::lp_pagoda`].

use super::format::LpFunction;
use crate::problem::geometry::{Cell, Lattice, Region};
use crate::weight::golden::Golden;

/// The largest window the checker accepts (σ^±20 has coefficients below 2^13).
pub const MAX_RADIUS: i32 = 16;
/// The largest |a| or |b| of a stated weight a + bσ.
pub const MAX_COEFFICIENT: i128 = 1 << 60;

/// Exact Z\[σ\] arithmetic that reports an overflow of i128 instead of wrapping: the weights
/// come from a file, and a wrapped sum could pass a test it fails.
pub mod checked {
    use crate::weight::golden::Golden;

    fn over() -> String {
        "a weight beyond i128 in exact arithmetic".into()
    }

    pub fn add(x: Golden, y: Golden) -> Result<Golden, String> {
        Ok(Golden::new(
            x.a.checked_add(y.a).ok_or_else(over)?,
            x.b.checked_add(y.b).ok_or_else(over)?,
        ))
    }

    pub fn sub(x: Golden, y: Golden) -> Result<Golden, String> {
        Ok(Golden::new(
            x.a.checked_sub(y.a).ok_or_else(over)?,
            x.b.checked_sub(y.b).ok_or_else(over)?,
        ))
    }

    /// (a + bσ)(c + dσ) = (ac + bd) + (ad + bc − bd)σ, as σ² = 1 − σ.
    pub fn mul(x: Golden, y: Golden) -> Result<Golden, String> {
        let m = |p: i128, q: i128| p.checked_mul(q).ok_or_else(over);
        let (ac, bd) = (m(x.a, y.a)?, m(x.b, y.b)?);
        let (ad, bc) = (m(x.a, y.b)?, m(x.b, y.a)?);
        let a = ac.checked_add(bd).ok_or_else(over)?;
        let b = ad
            .checked_add(bc)
            .and_then(|v| v.checked_sub(bd))
            .ok_or_else(over)?;
        Ok(Golden::new(a, b))
    }

    /// The sign of a + bσ: of (2a − b) + b√5, comparing (2a − b)² with 5b² when they differ.
    pub fn sign(g: Golden) -> Result<i32, String> {
        let p =
            g.a.checked_mul(2)
                .and_then(|v| v.checked_sub(g.b))
                .ok_or_else(over)?;
        let q = g.b;
        let (sp, sq) = (p.signum() as i32, q.signum() as i32);
        if sp >= 0 && sq >= 0 {
            return Ok(if sp == 0 && sq == 0 { 0 } else { 1 });
        }
        if sp <= 0 && sq <= 0 {
            return Ok(-1);
        }
        let p2 = p.checked_mul(p).ok_or_else(over)?;
        let q2 = q
            .checked_mul(q)
            .and_then(|v| v.checked_mul(5))
            .ok_or_else(over)?;
        Ok(if (p2 > q2) == (sp > 0) { 1 } else { -1 })
    }

    /// x < y.
    pub fn less(x: Golden, y: Golden) -> Result<bool, String> {
        Ok(sign(sub(y, x)?)? > 0)
    }
}

/// What a function weighs: an upper bound on the start region, and the test position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weighed {
    pub start: Golden,
    pub goal: Golden,
}

impl Weighed {
    /// The start region weighs less than the test position: every army is ruled out.
    pub fn rules_out(&self) -> Result<bool, String> {
        checked::less(self.start, self.goal)
    }
}

/// The tail lemma's premise: every cell exists and every direction moves one step.
pub fn tail_lemma_applies(lattice: &Lattice) -> Result<(), String> {
    let unit = |d: &Cell| d.0.abs() + d.1.abs() == 1;
    if lattice.dimension() != 2 {
        return Err("tail lemma: the LP's window is a square of Z²; the lattice is 3-D".into());
    }
    if lattice.region != Region::All || lattice.directions.is_empty() {
        return Err("tail lemma: the lattice is not every cell of Z²".into());
    }
    if !lattice.directions.iter().all(unit) {
        return Err("tail lemma: a jump direction is not a unit step (|dx| + |dy| = 1)".into());
    }
    Ok(())
}

/// The Manhattan distance between two cells.
pub fn manhattan(p: Cell, c: Cell) -> i32 {
    (c.0 - p.0).abs() + (c.1 - p.1).abs()
}

/// The least exponent M − radius of a cell outside the window: the nearest such cell lies
/// just past the side nearest to the centre, at distance radius + 1 − max(|p_x|, |p_y|).
pub fn nearest_outside(centre: Cell) -> i32 {
    1 - centre.0.abs().max(centre.1.abs())
}

/// Σ σ^(M − radius) over every cell outside the window, M the distance from `centre`, exactly.
pub fn outside_sum(radius: i32, centre: Cell) -> Golden {
    let mut inside = Golden::ZERO;
    for y in -radius..=radius {
        for x in -radius..=radius {
            inside += Golden::pow(manhattan(centre, Cell::xy(x, y)) - radius);
        }
    }
    Golden::pow(-radius) * Golden::new(13, 8) - inside
}

/// The function's weight of each cell.
pub struct Weights<'a> {
    f: &'a LpFunction,
    side: i32,
}

impl Weights<'_> {
    pub fn new(f: &LpFunction) -> Weights<'_> {
        Weights {
            f,
            side: 2 * f.radius + 1,
        }
    }

    pub fn inside(&self, Cell(x, y, _): Cell) -> bool {
        x.abs() <= self.f.radius && y.abs() <= self.f.radius
    }

    /// The weight (wrapping on overflow: for the search's own repairs, never for a test).
    pub fn get(&self, c: Cell) -> Golden {
        self.checked_get(c).unwrap_or(Golden::ZERO)
    }

    pub fn checked_get(&self, c: Cell) -> Result<Golden, String> {
        let r = self.f.radius;
        if self.inside(c) {
            Ok(self.f.weights[((c.1 + r) * self.side + c.0 + r) as usize])
        } else {
            checked::mul(self.f.tail, Golden::pow(manhattan(self.f.centre, c) - r))
        }
    }
}

/// Checks the function on `lattice` at `level` and weighs it; Err names the failing part.
pub fn weigh(lattice: &Lattice, level: i32, f: &LpFunction) -> Result<Weighed, String> {
    tail_lemma_applies(lattice)?;
    let r = f.radius;
    if !(2..=MAX_RADIUS).contains(&r) {
        return Err(format!("window radius {r}: not between 2 and {MAX_RADIUS}"));
    }
    let side = (2 * r + 1) as usize;
    if f.weights.len() != side * side {
        return Err(format!(
            "{} weights for a window of {} cells",
            f.weights.len(),
            side * side
        ));
    }
    let fits = |g: &Golden| g.a.abs() <= MAX_COEFFICIENT && g.b.abs() <= MAX_COEFFICIENT;
    if let Some(g) = f.weights.iter().chain([&f.tail]).find(|g| !fits(g)) {
        return Err(format!("weight {g}: a coefficient beyond 2^60"));
    }
    for g in f.weights.iter().chain([&f.tail]) {
        if checked::sign(*g)? < 0 {
            return Err(format!("weight {g} is negative"));
        }
    }
    let w = Weights::new(f);
    if !w.inside(f.centre) {
        return Err(format!(
            "the tail's centre {:?} is outside the window",
            f.centre
        ));
    }
    check_jumps(lattice, &w)?;
    let goal = match f.normalised {
        None => w.checked_get(Cell::ORIGIN)?,
        Some(d) if lattice.directions.contains(&d) => {
            checked::add(w.checked_get(d)?, w.checked_get(2 * d)?)?
        }
        Some(d) => return Err(format!("normalised on d={d:?}, not a jump direction")),
    };
    let mut start = checked::mul(f.tail, outside_sum(r, f.centre))?;
    for y in -r..=r {
        for x in -r..=r {
            if lattice.in_start(Cell::xy(x, y), level) {
                start = checked::add(start, w.checked_get(Cell::xy(x, y))?)?;
            }
        }
    }
    Ok(Weighed { start, goal })
}

/// The pagoda condition w(a) + w(b) >= w(c) on every jump a over b into c that touches the
/// window; the others hold by the tail lemma.
fn check_jumps(lattice: &Lattice, w: &Weights) -> Result<(), String> {
    let r = w.f.radius + 2;
    for y in -r..=r {
        for x in -r..=r {
            for &d in &lattice.directions {
                let (a, b, c) = (Cell::xy(x, y), Cell::xy(x, y) + d, Cell::xy(x, y) + 2 * d);
                if !(w.inside(a) || w.inside(b) || w.inside(c)) {
                    continue;
                }
                let (wa, wb, wc) = (w.checked_get(a)?, w.checked_get(b)?, w.checked_get(c)?);
                if checked::less(checked::add(wa, wb)?, wc)? {
                    return Err(format!(
                        "pagoda condition: the jump {a:?} over {b:?} into {c:?} gains weight ({} + {} < {})",
                        wa.to_f64(),
                        wb.to_f64(),
                        wc.to_f64()
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Army;

    /// Conway's own function σ^M, stated by weights on a window of radius 2 with the tail
    /// σ^(M − 2)·σ^2: a pagoda function, under which the whole plane weighs 13 + 8σ.
    fn conway(radius: i32) -> LpFunction {
        let mut weights = Vec::new();
        for y in -radius..=radius {
            for x in -radius..=radius {
                weights.push(Golden::pow(x.abs() + y.abs()));
            }
        }
        LpFunction {
            radius,
            weights,
            tail: Golden::pow(radius),
            normalised: None,
            centre: Cell::ORIGIN,
        }
    }

    #[test]
    fn conway_function_by_hand() {
        let square = Army::read(std::path::Path::new("models/desert-square.toml")).unwrap();
        let l = square.lattice();
        // Level 1 is everything but the target: 13 + 8σ − 1.
        let w = weigh(&l, 1, &conway(2)).unwrap();
        assert_eq!(w.goal, Golden::ONE);
        assert_eq!(w.start, Golden::new(12, 8));
        // The same at radius 5: the window and tail split the plane differently.
        assert_eq!(weigh(&l, 1, &conway(5)).unwrap().start, Golden::new(12, 8));
        // At level 3 the start region is bounded by the window's start cells plus all outside.
        let w3 = weigh(&l, 3, &conway(4)).unwrap();
        let inner: Golden = (-2..=2)
            .flat_map(|y| (-2..=2).map(move |x| Golden::pow(i32::abs(x) + i32::abs(y))))
            .sum();
        assert_eq!(w3.start, Golden::new(13, 8) - inner);
    }

    #[test]
    fn a_raised_weight_fails_the_pagoda_condition() {
        let l = Army::read(std::path::Path::new("models/desert-square.toml"))
            .unwrap()
            .lattice();
        let mut f = conway(3);
        f.weights[3 * 7 + 3] = Golden::new(2, 0); // the target weighs 2 > σ + σ²
        let e = weigh(&l, 2, &f).unwrap_err();
        assert!(e.starts_with("pagoda condition"), "{e}");
        let mut g = conway(3);
        g.tail = Golden::new(2, 0); // twice what the window's edge allows
        assert!(
            weigh(&l, 2, &g)
                .unwrap_err()
                .starts_with("pagoda condition")
        );
        let mut h = conway(3);
        h.weights.pop();
        assert!(
            weigh(&l, 2, &h)
                .unwrap_err()
                .contains("weights for a window")
        );
    }

    #[test]
    fn outside_sum_is_the_sum() {
        for r in [2, 5, MAX_RADIUS] {
            let direct: f64 = (-300..=300)
                .flat_map(|y| (-300..=300).map(move |x| (x, y)))
                .filter(|&(x, y): &(i32, i32)| x.abs() > r || y.abs() > r)
                .map(|(x, y)| Golden::SIGMA.to_f64().powi(x.abs() + y.abs() - r))
                .sum();
            let exact = outside_sum(r, Cell::ORIGIN);
            assert!((exact.to_f64() - direct).abs() < 1e-6, "{r}");
            assert!(
                exact.a.abs() < 1 << 20 && exact.b.abs() < 1 << 20,
                "{r}: {exact}"
            );
        }
    }

    #[test]
    fn the_nearest_outside_cell_is_the_heaviest_of_the_tail() {
        for (r, p) in [(3, (0, 0)), (4, (1, 0)), (5, (0, -2)), (6, (2, 1))] {
            let p = Cell::xy(p.0, p.1);
            let least = (-r - 3..=r + 3)
                .flat_map(|y| (-r - 3..=r + 3).map(move |x| Cell::xy(x, y)))
                .filter(|&Cell(x, y, _)| x.abs() > r || y.abs() > r)
                .map(|c| manhattan(p, c) - r)
                .min();
            assert_eq!(least, Some(nearest_outside(p)), "{r} {p:?}");
        }
    }

    #[test]
    fn checked_arithmetic_agrees_and_refuses_overflow() {
        let xs = [
            Golden::new(3, -5),
            Golden::new(-8, 13),
            Golden::new(0, 1),
            Golden::new(7, 0),
        ];
        for &x in &xs {
            for &y in &xs {
                assert_eq!(checked::mul(x, y).unwrap(), x * y);
                assert_eq!(checked::sign(x - y).unwrap(), (x - y).signum());
            }
        }
        let huge = Golden::new(1 << 100, -(1 << 100));
        assert!(checked::mul(huge, huge).is_err());
        assert!(checked::sign(Golden::new(i128::MAX / 2, -i128::MAX / 2)).is_err());
    }

    #[test]
    fn the_tail_lemma_needs_unit_steps() {
        let e = weigh(&Army::diagonal().lattice(), 2, &conway(3)).unwrap_err();
        assert!(e.starts_with("tail lemma"), "{e}");
    }
}
