//! The benchmark's workloads: pairs of one shape family at one vertex count, placed at
//! a fixed signed distance under random poses (Liu et al.'s (2018) protocol), with the exact
//! answer for each pair computed once.
//!
//! Placement: A sits at a random position and angle; B gets a random angle and a random
//! direction u, and its origin slides along u from A's origin until the exact signed
//! distance (negative = penetration depth) equals the target, by bisection
//! (`narrow::exact_distance::place_at_distance`). A pose where the bisection cannot
//! start (B on A's origin does not overlap enough) is drawn again.

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::{penetration_search, PenetrationSearch};
use collision_lab::narrow::exact_distance::{exact_penetration_fast, place_at_distance};
use collision_lab::narrow::NarrowConfig;
use std::f32::consts::{PI, TAU};

/// Every shape is generated at this size (metres): distances are fractions of it.
pub const SHAPE_SIZE_M: f32 = 1.0;

/// Distinct shapes per family and vertex count (the random families differ by seed;
/// the regular ones are the same shape under different poses).
const SHAPES_PER_WORKLOAD: usize = 4;

/// Poses drawn per pair before giving up on it.
const PLACEMENT_ATTEMPTS: usize = 40;

/// One family at one vertex count: its shapes, built once.
pub struct ShapeSet {
    pub shapes: Vec<Shape>,
}

impl ShapeSet {
    /// The shapes of `family` at `vertices`, seeded by `seed`.
    pub fn new(family: Family, vertices: usize, seed: u64) -> Result<ShapeSet, String> {
        let shapes = (0..SHAPES_PER_WORKLOAD)
            .map(|k| {
                let points = family.generate(vertices, SHAPE_SIZE_M, seed.wrapping_add(k as u64));
                Polygon::new(&points)
                    .map(Shape::Polygon)
                    .map_err(|e| format!("{family} at {vertices} vertices: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ShapeSet { shapes })
    }

    /// Mean convex pieces per shape.
    pub fn mean_pieces(&self) -> f64 {
        self.shapes.iter().map(|s| s.piece_count() as f64).sum::<f64>() / self.shapes.len() as f64
    }
}

/// The exact answer for a placed pair.
#[derive(Clone, Copy, Debug)]
pub struct ExactAnswer {
    /// Signed distance reached by the placement (metres; negative = depth).
    pub signed_distance: f32,
    /// Whether the interiors overlap by more than the narrow phases' touching tolerance.
    pub intersect: bool,
    /// The exact penetration depth (metres) when they overlap.
    pub depth: Option<f32>,
}

/// One placed pair: shape indices into the set, poses, the exact answer.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub pose_a: Pose,
    pub pose_b: Pose,
    pub exact: ExactAnswer,
}

/// The tolerance scale the narrow phases use (`narrow::query_scale`): the larger size
/// plus how far from the origin the shapes sit.
pub fn query_scale(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    a.size().max(b.size())
        + pose_a
            .translation
            .abs()
            .max_element()
            .max(pose_b.translation.abs().max_element())
}

/// Places `count` pairs of `set` at `distance` × the shape size. Returns fewer when a
/// pair cannot be placed in [`PLACEMENT_ATTEMPTS`] poses (reported by the caller).
pub fn place_pairs(set: &ShapeSet, distance: f32, count: usize, rng: &mut SplitMix64) -> Vec<Pair> {
    let config = NarrowConfig::default();
    let target = distance * SHAPE_SIZE_M;
    // Shapes fit a square of side SHAPE_SIZE_M, so their centres 1.5 sizes apart leave
    // them more than 0.08 sizes apart: past every target.
    let reach = 1.5 * SHAPE_SIZE_M;
    let mut pairs = Vec::with_capacity(count);
    for k in 0..count {
        let (ia, ib) = (k % set.shapes.len(), (k + 1 + k / set.shapes.len()) % set.shapes.len());
        let (a, b) = (&set.shapes[ia], &set.shapes[ib]);
        for _ in 0..PLACEMENT_ATTEMPTS {
            let pose_a = Pose::new(
                Vec2::new(rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0)),
                rng.range_f32(-PI, PI),
            );
            let direction = Vec2::from_angle(rng.range_f32(0.0, TAU));
            let angle_b = rng.range_f32(-PI, PI);
            let Some((pose_b, signed_distance)) = place_at_distance(a, &pose_a, b, angle_b, direction, target, reach)
            else {
                continue;
            };
            // The depth is about −target: search up to twice that (cheap), and fall back
            // to the proven bound of `exact_penetration_fast` if it is deeper.
            let cap = 2.0 * (-target).max(0.0) + 0.01 * SHAPE_SIZE_M;
            let depth = match penetration_search(a, &pose_a, b, &pose_b, cap) {
                PenetrationSearch::Outside => None,
                PenetrationSearch::Found(e) => Some(e.depth),
                PenetrationSearch::Deeper => exact_penetration_fast(a, &pose_a, b, &pose_b).map(|e| e.depth),
            };
            let scale = query_scale(a, &pose_a, b, &pose_b);
            let intersect = depth.is_some_and(|d| config.is_penetrating(d, scale));
            pairs.push(Pair {
                a: ia,
                b: ib,
                pose_a,
                pose_b,
                exact: ExactAnswer {
                    signed_distance,
                    intersect,
                    depth,
                },
            });
            break;
        }
    }
    pairs
}
