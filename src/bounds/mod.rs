//! Bounding volumes (seed 004): AABB, bounding circle, OBB and 8-DOP, each with its
//! overlap test, and their tightness.
//!
//! A bounding volume is a cheap outer shape: if two volumes do not overlap, the shapes
//! inside cannot either. The cost model T = Nv·Cv + Np·Cp (seeds 002, 004) counts these
//! tests (Nv, cost Cv each) against the exact tests they save (Np, cost Cp each).

mod aabb;

pub use aabb::Aabb;
