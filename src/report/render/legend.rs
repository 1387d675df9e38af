//! The legend under a picture: lines of text stacked downwards, discs of a man's colour and
//! swatches of the exponent shading, the group growing as lines are added.

use super::MAN_RADIUS;
use crate::report::paint::shade;
use svg::node::element::{Circle, Group, Rectangle, Text};

/// Lines of legend text, each with optional swatches, stacked from `y`; returns the group,
/// its width and its height.
pub(super) struct Legend {
    pub(super) g: Group,
    pub(super) y: f64,
    pub(super) width: f64,
}

impl Legend {
    const LINE: f64 = 15.0;
    pub(super) const CHAR: f64 = 6.2;

    pub(super) fn new(y: f64) -> Legend {
        Legend {
            g: Group::new()
                .set("font-family", "sans-serif")
                .set("font-size", 11),
            y,
            width: 0.0,
        }
    }

    fn text(&mut self, x: f64, s: &str) -> f64 {
        self.g = std::mem::take(&mut self.g)
            .add(Text::new(s.to_string()).set("x", x).set("y", self.y + 11.0));
        let end = x + s.chars().count() as f64 * Legend::CHAR;
        self.width = self.width.max(end + 4.0);
        end
    }

    pub(super) fn line(&mut self, s: &str) {
        self.text(4.0, s);
        self.y += Legend::LINE;
    }

    /// A disc of the given colour, then text.
    pub(super) fn disc(&mut self, fill: &str, s: &str) {
        self.g = std::mem::take(&mut self.g).add(
            Circle::new()
                .set("cx", 10.0)
                .set("cy", self.y + 7.0)
                .set("r", MAN_RADIUS)
                .set("fill", fill),
        );
        self.text(20.0, s);
        self.y += Legend::LINE;
    }

    /// Swatches of the shading for the exponents shown, each followed by its exponent.
    pub(super) fn swatches(&mut self, exps: &[i32], top: i32) {
        let mut x = self.text(4.0, "exponent e:") + 6.0;
        for &e in exps {
            self.g = std::mem::take(&mut self.g).add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", self.y + 1.0)
                    .set("width", 12)
                    .set("height", 12)
                    .set("fill", shade(Some(e), top))
                    .set("stroke", "#999")
                    .set("stroke-width", 0.5),
            );
            x = self.text(x + 15.0, &e.to_string()) + 8.0;
        }
        self.y += Legend::LINE + 2.0;
        self.text(4.0, "(darker is heavier)");
        self.y += Legend::LINE;
    }
}

/// Exponents to show in a legend: from `lo` to `top`, at most nine, `top` always.
pub(super) fn legend_exponents(lo: i32, top: i32) -> Vec<i32> {
    let step = ((top - lo + 1) as usize).div_ceil(8).max(1);
    let mut v: Vec<i32> = (lo..=top).step_by(step).collect();
    if v.last() != Some(&top) {
        v.push(top);
    }
    v
}
