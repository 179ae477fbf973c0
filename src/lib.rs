//! # Collision Lab — the headless core
//!
//! A 2D physics sandbox and a laboratory for collision-detection algorithms. This
//! library holds everything that does not draw: shapes and their geometry
//! ([`geometry`]), bounding volumes ([`bounds`]), the three narrow phases ([`narrow`]),
//! scene files ([`scene`]) and the lessons' data ([`lesson`]). The sandbox (`src/app/`)
//! and the command line only call into it.
//!
//! Conventions, everywhere: f32, metres, radians, y-up, counter-clockwise polygons.
#![warn(missing_docs)]

pub mod bounds;
pub mod broad;
pub mod dynamics;
pub mod geometry;
pub mod lesson;
pub mod math;
pub mod narrow;
pub mod scene;

/// The sandbox window (macroquad + egui); only with the default feature `sandbox`.
#[cfg(feature = "sandbox")]
pub mod app;
