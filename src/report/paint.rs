//! The strokes every picture shares: the shade of a cell by its pagoda exponent and the red
//! ring that marks the target. Kept apart so that the plane pictures ([`super::render`]) and
//! the 3-D layer slices ([`super::layers`]) draw alike without importing each other.

use svg::node::element::Circle;

/// The fill of a cell of exponent `e` in a picture whose largest exponent is `top`: heavier
/// (smaller exponent) is darker, as in the paper's shaded figures; white for exponent ∞.
pub fn shade(e: Option<i32>, top: i32) -> String {
    match e {
        Some(x) => {
            let l = 60 + (35 * x / top.max(1)).min(35);
            format!("hsl(210,35%,{l}%)")
        }
        None => "white".to_string(),
    }
}

/// A red ring of radius `r` around `(cx, cy)`: how every picture marks the target.
pub fn target_ring_at((cx, cy): (f64, f64), r: f64) -> Circle {
    Circle::new()
        .set("cx", cx)
        .set("cy", cy)
        .set("r", r)
        .set("fill", "none")
        .set("stroke", "#d00")
        .set("stroke-width", 2)
}
