//! Exact arithmetic in Z\[σ\], σ = (√5 − 1)/2, the ring every pagoda weight lives in.
//!
//! σ satisfies σ² + σ = 1, so every integer combination of powers of σ reduces to a + bσ with
//! integers a, b (the paper's Table 2: σ^i = (−1)^i (F_{i−1} − F_i σ)). Weights, slacks and
//! losses are compared exactly here; floats appear only in [`Golden::to_f64`], for display.

use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// a + bσ with integer a, b.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Default, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Golden {
    pub a: i128,
    pub b: i128,
}

impl Golden {
    pub const ZERO: Golden = Golden { a: 0, b: 0 };
    pub const ONE: Golden = Golden { a: 1, b: 0 };
    pub const SIGMA: Golden = Golden { a: 0, b: 1 };

    pub const fn new(a: i128, b: i128) -> Golden {
        Golden { a, b }
    }

    pub fn from_int(n: i128) -> Golden {
        Golden { a: n, b: 0 }
    }

    /// σ^e for any integer e (σ^{-1} = 1 + σ).
    pub fn pow(e: i32) -> Golden {
        let mut r = Golden::ONE;
        if e >= 0 {
            for _ in 0..e {
                r = r * Golden::SIGMA;
            }
        } else {
            let inv = Golden::new(1, 1);
            for _ in 0..(-e) {
                r = r * inv;
            }
        }
        r
    }

    /// The weight of a cell with exponent `e`; `None` is the exponent ∞ (weight 0).
    pub fn weight(e: Option<i32>) -> Golden {
        e.map_or(Golden::ZERO, Golden::pow)
    }

    /// Sign of a + bσ, exactly: 2(a + bσ) = (2a − b) + b√5.
    pub fn signum(self) -> i32 {
        let p = 2 * self.a - self.b;
        let q = self.b;
        let sp = p.signum();
        let sq = q.signum();
        if sp >= 0 && sq >= 0 {
            return if sp == 0 && sq == 0 { 0 } else { 1 };
        }
        if sp <= 0 && sq <= 0 {
            return -1;
        }
        // Opposite signs: compare p² with 5q² (never equal, √5 is irrational).
        let p2 = p * p;
        let q2 = 5 * q * q;
        if sp > 0 {
            if p2 > q2 { 1 } else { -1 }
        } else if q2 > p2 {
            1
        } else {
            -1
        }
    }

    pub fn is_zero(self) -> bool {
        self.a == 0 && self.b == 0
    }

    pub fn to_f64(self) -> f64 {
        let s = (5f64.sqrt() - 1.0) / 2.0;
        self.a as f64 + self.b as f64 * s
    }

    /// The greatest integer k with σ^k >= self (self > 0): the exponent of the heaviest single
    /// cell that still fits under `self` is `k`, and σ^{k+1} < self is false... see callers.
    /// Returns the largest k such that σ^k <= self, or None when self <= 0.
    pub fn floor_log(self) -> Option<i32> {
        if self.signum() <= 0 {
            return None;
        }
        // σ^k decreases in k: find the smallest k with σ^k <= self.
        let mut k = 0;
        while Golden::pow(k) > self {
            k += 1;
        }
        while k > -200 && Golden::pow(k - 1) <= self {
            k -= 1;
        }
        Some(k)
    }

    /// The expansion of a positive element as a sum of distinct, non-adjacent powers of σ
    /// (greedy, as the paper writes slacks: σ^11 + σ^13). Empty for zero; None if negative
    /// or if the expansion does not close within 64 terms.
    pub fn sigma_powers(self) -> Option<Vec<i32>> {
        if self.signum() < 0 {
            return None;
        }
        let mut rest = self;
        let mut out = Vec::new();
        while !rest.is_zero() {
            if out.len() >= 64 {
                return None;
            }
            let k = rest.floor_log()?;
            out.push(k);
            rest -= Golden::pow(k);
        }
        Some(out)
    }

    /// Human form of a slack: "0", "σ^11 + σ^13", or the a + bσ form if no short expansion.
    pub fn sigma_string(self) -> String {
        match self.sigma_powers() {
            Some(v) if v.is_empty() => "0".into(),
            Some(v) if v.len() <= 8 => v
                .iter()
                .map(|k| format!("σ^{k}"))
                .collect::<Vec<_>>()
                .join(" + "),
            _ => format!("{self}"),
        }
    }
}

impl fmt::Display for Golden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.a, self.b) {
            (a, 0) => write!(f, "{a}"),
            (0, b) => write!(f, "{b}σ"),
            (a, b) if b < 0 => write!(f, "{a} - {}σ", -b),
            (a, b) => write!(f, "{a} + {b}σ"),
        }
    }
}

impl PartialOrd for Golden {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Golden {
    fn cmp(&self, other: &Self) -> Ordering {
        (*self - *other).signum().cmp(&0)
    }
}

impl Add for Golden {
    type Output = Golden;
    fn add(self, o: Golden) -> Golden {
        Golden::new(self.a + o.a, self.b + o.b)
    }
}

impl Sub for Golden {
    type Output = Golden;
    fn sub(self, o: Golden) -> Golden {
        Golden::new(self.a - o.a, self.b - o.b)
    }
}

impl Neg for Golden {
    type Output = Golden;
    fn neg(self) -> Golden {
        Golden::new(-self.a, -self.b)
    }
}

impl Mul for Golden {
    type Output = Golden;
    /// (a + bσ)(c + dσ) = ac + (ad + bc)σ + bdσ², and σ² = 1 − σ.
    fn mul(self, o: Golden) -> Golden {
        let bd = self.b * o.b;
        Golden::new(self.a * o.a + bd, self.a * o.b + self.b * o.a - bd)
    }
}

impl Mul<Golden> for i128 {
    type Output = Golden;
    fn mul(self, g: Golden) -> Golden {
        Golden::new(self * g.a, self * g.b)
    }
}

impl AddAssign for Golden {
    fn add_assign(&mut self, o: Golden) {
        *self = *self + o;
    }
}

impl SubAssign for Golden {
    fn sub_assign(&mut self, o: Golden) {
        *self = *self - o;
    }
}

impl Sum for Golden {
    fn sum<I: Iterator<Item = Golden>>(iter: I) -> Golden {
        iter.fold(Golden::ZERO, |acc, g| acc + g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_2_powers() {
        // Paper, Table 2.
        assert_eq!(Golden::pow(4), Golden::new(2, -3));
        assert_eq!(Golden::pow(10), Golden::new(34, -55));
        assert_eq!(Golden::pow(-4), Golden::new(5, 3));
        assert_eq!(Golden::pow(-10), Golden::new(89, 55));
        for i in -12..12 {
            assert_eq!(Golden::pow(i) + Golden::pow(i + 1), Golden::pow(i - 1));
        }
    }

    #[test]
    fn ordering_is_exact() {
        assert!(Golden::pow(3) > Golden::pow(4));
        assert!(Golden::new(13, 8) * Golden::pow(6) == Golden::ONE);
        let s = Golden::pow(11) + Golden::pow(13);
        assert!(s < Golden::pow(10) && s > Golden::pow(11));
        assert_eq!(s.sigma_powers().unwrap(), vec![11, 13]);
        assert_eq!(s.sigma_string(), "σ^11 + σ^13");
    }
}
