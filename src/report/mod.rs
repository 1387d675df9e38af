//! What the tool writes for people: CSV files ([`export`]), pictures ([`render`], with
//! [`paint`]'s shared strokes and [`layers`] for 3-D armies; [`boards`] for classical boards),
//! regiments ([`regiment`]), the HTML play viewer ([`viewer`]), pictures in characters for the
//! terminal ([`text`]), Bell's names of holes and moves ([`notation`]) and the table of pagoda
//! bounds ([`bounds`]). Every picture has x to the right and y growing downward. Uses
//! everything from [`crate::search`] down.

pub mod boards;
pub mod bounds;
pub mod export;
pub mod layers;
pub mod notation;
pub mod paint;
pub mod regiment;
pub mod render;
pub mod text;
pub mod viewer;
