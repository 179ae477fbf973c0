//! The merge's hulls against hand-worked ones, and the combine step's builder against
//! the sourced one.

use super::*;

fn view<'a>(vertices: &'a [Vec2]) -> ConvexView<'a> {
    ConvexView {
        vertices,
        normals: &[],
        radius: 0.0,
        summary: None,
    }
}

#[test]
fn square_minus_square_is_a_square_without_side_midpoints() {
    //  A = B = unit square [0,1]²  →  A − B = [-1,1]², 4 vertices (parallel edges merge)
    let sq = [
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    let hull = minkowski_difference_hull(view(&sq), &Pose::IDENTITY, view(&sq), &Pose::IDENTITY);
    assert_eq!(
        hull,
        vec![
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0)
        ]
    );
}

#[test]
fn points_and_segments() {
    let p = [Vec2::new(2.0, 3.0)];
    let q = [Vec2::new(1.0, 1.0)];
    assert_eq!(
        minkowski_difference_hull(view(&p), &Pose::IDENTITY, view(&q), &Pose::IDENTITY),
        vec![Vec2::new(1.0, 2.0)]
    );
    // Point minus segment: the reflected segment, shifted.
    let s = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0)];
    assert_eq!(
        minkowski_difference_hull(view(&p), &Pose::IDENTITY, view(&s), &Pose::IDENTITY),
        vec![Vec2::new(1.0, 3.0), Vec2::new(2.0, 3.0)]
    );
    // Parallel segments: still a segment.
    let t = [Vec2::new(0.0, 1.0), Vec2::new(3.0, 1.0)];
    assert_eq!(
        minkowski_difference_hull(view(&t), &Pose::IDENTITY, view(&s), &Pose::IDENTITY),
        vec![Vec2::new(-1.0, 1.0), Vec2::new(3.0, 1.0)]
    );
    // Crossing segments: a parallelogram.
    let u = [Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0)];
    let hull = minkowski_difference_hull(view(&u), &Pose::IDENTITY, view(&s), &Pose::IDENTITY);
    assert_eq!(
        hull,
        vec![
            Vec2::new(-1.0, 0.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-1.0, 1.0)
        ]
    );
}

#[test]
fn every_hull_vertex_knows_its_pair() {
    //  A = triangle, B = square turned 0.3 rad and shifted: each vertex of A − B is
    //  a vertex of A minus a vertex of B, and the sourced points are the plain hull.
    let tri = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.5), Vec2::new(0.5, 1.5)];
    let sq = [
        Vec2::new(-0.5, -0.5),
        Vec2::new(0.5, -0.5),
        Vec2::new(0.5, 0.5),
        Vec2::new(-0.5, 0.5),
    ];
    let pose_b = Pose::new(Vec2::new(1.0, 0.2), 0.3);
    let plain = minkowski_difference_hull(view(&tri), &Pose::IDENTITY, view(&sq), &pose_b);
    let sourced = minkowski_difference_hull_sourced(view(&tri), &Pose::IDENTITY, view(&sq), &pose_b);
    assert_eq!(plain, sourced.iter().map(|w| w.point).collect::<Vec<_>>());
    assert_eq!(sourced.len(), 7);
    for w in &sourced {
        assert_eq!(w.a, tri[w.index_a]);
        assert_eq!(w.b, pose_b.apply_point(sq[w.index_b]));
        assert!((w.point - (w.a - w.b)).length() < 1e-5, "{w:?}");
    }
}

#[test]
fn core_is_the_hull_bit_for_bit() {
    // Squares give parallel edges (merged, and collinear runs to remove); the
    // triangle and the needle give plain merges; a point and a segment give the
    // short cores.
    let shapes: [&[Vec2]; 5] = [
        &[Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.5), Vec2::new(0.5, 1.5)],
        &[
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.5, -0.5),
            Vec2::new(0.5, 0.5),
            Vec2::new(-0.5, 0.5),
        ],
        &[Vec2::new(0.0, 0.0), Vec2::new(3.0, 0.1), Vec2::new(0.0, 0.2)],
        &[Vec2::new(0.3, -0.2)],
        &[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)],
    ];
    for angle in [0.0, 0.3, std::f32::consts::FRAC_PI_2, 2.0] {
        let pose_b = Pose::new(Vec2::new(1.0, 0.2), angle);
        for (i, a) in shapes.iter().enumerate() {
            for (j, b) in shapes.iter().enumerate() {
                let mut scratch = HullScratch::default();
                scratch.prepared_a.reset(shapes.len());
                scratch.prepared_b.reset(shapes.len());
                minkowski_difference_hull_prepared((i, view(a), &Pose::IDENTITY), (j, view(b), &pose_b), &mut scratch);
                let (mut points, mut sources) = (vec![Vec2::NAN], vec![(9, 9)]);
                let n = minkowski_difference_core_prepared(
                    (i, view(a), &Pose::IDENTITY),
                    (j, view(b), &pose_b),
                    &mut scratch,
                    &mut points,
                    &mut sources,
                );
                assert_eq!(n, scratch.hull.len());
                for (k, w) in scratch.hull.iter().enumerate() {
                    assert_eq!(
                        points[1 + k].to_array().map(f32::to_bits),
                        w.point.to_array().map(f32::to_bits)
                    );
                    assert_eq!(sources[1 + k], (w.index_a as u32, w.index_b as u32));
                }
            }
        }
    }
}
