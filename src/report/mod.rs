//! What the tool writes for people: CSV files ([`export`]), pictures ([`render`], with
//! [`paint`]'s shared strokes and [`layers`] for 3-D armies), regiments ([`regiment`]), the
//! HTML play viewer ([`viewer`]) and the table of pagoda bounds ([`bounds`]). Uses everything
//! from [`crate::search`] down.

pub mod bounds;
pub mod export;
pub mod layers;
pub mod paint;
pub mod regiment;
pub mod render;
pub mod viewer;
