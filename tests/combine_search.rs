//! The combine step's shortcuts, taken only when no trace is recorded (the deepest
//! pair's own exit when no other difference holds it, edges queued as the search's
//! reach comes to them, ring pairs bounded along one axis before their differences are
//! built, the held radius, the grids and the edge walks), must not change the answer: a
//! traced query, which takes none of them, is the reference.

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::trace::Trace;
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use std::f32::consts::PI;

#[test]
fn untraced_combine_gives_the_traced_depth_and_normal() {
    let config = NarrowConfig::default();
    let mut rng = SplitMix64::new(7);
    let mut compared = 0;
    for family in Family::NON_CONVEX {
        for n in [16, 48, 96] {
            let a = Shape::Polygon(Polygon::new(&family.generate(n, 1.0, 3)).unwrap());
            let b = Shape::Polygon(Polygon::new(&family.generate(n, 1.0, 4)).unwrap());
            for _ in 0..12 {
                let pose_a = Pose::new(
                    Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0)),
                    rng.range_f32(-PI, PI),
                );
                let offset = Vec2::from_angle(rng.range_f32(-PI, PI)) * rng.range_f32(0.3, 1.0);
                let pose_b = Pose::new(pose_a.translation + offset, rng.range_f32(-PI, PI));
                for algorithm in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
                    let fast = collide(&a, &pose_a, &b, &pose_b, algorithm, &config, None);
                    let mut trace = Trace::default();
                    let traced = collide(&a, &pose_a, &b, &pose_b, algorithm, &config, Some(&mut trace));
                    let what = format!("{family:?} {n} {algorithm:?} {pose_a:?} {pose_b:?}");
                    assert!(
                        (fast.depth - traced.depth).abs() <= 1e-5,
                        "{what}: {} vs {}",
                        fast.depth,
                        traced.depth
                    );
                    if traced.depth > 1e-3 {
                        compared += 1;
                        assert!(
                            (fast.normal - traced.normal).length() <= 1e-3,
                            "{what}: {:?} vs {:?}",
                            fast.normal,
                            traced.normal
                        );
                    }
                }
            }
        }
    }
    // Most placements overlap: the comparison is not vacuous.
    assert!(compared > 200, "{compared}");
}
