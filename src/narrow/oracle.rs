//! The exact answer for a pair of shapes, and how an algorithm's answer compares with it.
//!
//! The narrow phases are measured against this, live: the sandbox flags its focus pair
//! when the chosen algorithm disagrees with it ("false positive: exact says 3.0 mm
//! apart"), and race mode counts every algorithm's disagreements with it.
//!
//! - Two polygons: the oracles of `exact.rs` (overlap area by f64 clipping decides
//!   whether they intersect; the exact penetration over the pieces' Minkowski
//!   differences near the origin gives the depth) and `exact_distance.rs` (the least distance
//!   between the outlines when they are apart).
//! - A circle: in closed form. With a polygon, the signed distance of the centre to the
//!   whole outline (even-odd point-in-polygon, f64) minus the radius. The depth is
//!   r − s (s the signed distance of the centre) whenever pushing the disc straight off
//!   its nearest point by that much frees it; in a notch narrower than the disc it does
//!   not, the true depth is larger, and the depth is reported as unknown rather than
//!   guessed.
//! - Segments: no oracle (a segment has no interior to overlap).

use super::exact::polygons_overlap;
use super::exact_distance::{exact_penetration_fast, outline_distance};
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};
use glam::DVec2;

/// The exact answer for one pair (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactAnswer {
    /// Whether the interiors overlap.
    pub intersect: bool,
    /// The true minimum translation's length when they intersect (0 for an overlap too
    /// thin to measure); `None` when it is not known exactly (a disc in a narrow notch).
    pub depth: Option<f32>,
    /// The least distance between them when apart (0 when they intersect).
    pub distance: f32,
}

/// The exact answer for `a` and `b` (world poses), or `None` when there is no oracle for
/// the pair (a segment).
pub fn exact_answer(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<ExactAnswer> {
    // The answer does not change when both bodies move by the same translation, and the
    // depth search bounds its radius in f32: moved so that A sits at the origin, that
    // bound rounds to the pair's own magnitudes instead of the world's (it was 7 mm short
    // of the true depth 7 km out). B's offset from A is exact for bodies near each other
    // (the difference of two floats within a factor of two is exact).
    let shift = pose_a.translation;
    let pose_a = &Pose {
        translation: Vec2::ZERO,
        ..*pose_a
    };
    let pose_b = &Pose {
        translation: pose_b.translation - shift,
        ..*pose_b
    };
    match (a, b) {
        (Shape::Segment(_), _) | (_, Shape::Segment(_)) => None,
        (Shape::Circle(ca), Shape::Circle(cb)) => {
            let gap = (pose_b.translation - pose_a.translation).length() - ca.radius() - cb.radius();
            Some(from_signed(gap, Some(-gap)))
        }
        (Shape::Circle(c), Shape::Polygon(_)) => Some(circle_polygon(c.radius(), pose_a.translation, b, pose_b)),
        (Shape::Polygon(_), Shape::Circle(c)) => Some(circle_polygon(c.radius(), pose_b.translation, a, pose_a)),
        (Shape::Polygon(_), Shape::Polygon(_)) => {
            let intersect = polygons_overlap(a, pose_a, b, pose_b);
            Some(if intersect {
                let depth = exact_penetration_fast(a, pose_a, b, pose_b).map_or(0.0, |p| p.depth);
                ExactAnswer {
                    intersect,
                    depth: Some(depth),
                    distance: 0.0,
                }
            } else {
                ExactAnswer {
                    intersect,
                    depth: None,
                    distance: outline_distance(a, pose_a, b, pose_b).max(0.0),
                }
            })
        }
    }
}

/// An answer from a signed distance (negative: overlap) and the depth when overlapping.
fn from_signed(signed: f32, depth: Option<f32>) -> ExactAnswer {
    if signed < 0.0 {
        ExactAnswer {
            intersect: true,
            depth,
            distance: 0.0,
        }
    } else {
        ExactAnswer {
            intersect: false,
            depth: None,
            distance: signed,
        }
    }
}

/// The world outline of a polygon in f64.
fn outline64(shape: &Shape, pose: &Pose) -> Vec<DVec2> {
    shape
        .whole()
        .vertices
        .iter()
        .map(|&v| pose.apply_point(v).as_dvec2())
        .collect()
}

/// Signed distance from `p` to the region of `outline` (negative inside) and the nearest
/// point of the outline.
fn signed_distance_to_outline(outline: &[DVec2], p: DVec2) -> (f64, DVec2) {
    let n = outline.len();
    let mut inside = false;
    let mut best = (f64::INFINITY, p);
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        // Even-odd crossing count along +x.
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
        let e = b - a;
        let t = ((p - a).dot(e) / e.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
        let q = a + e * t;
        let d = (p - q).length();
        if d < best.0 {
            best = (d, q);
        }
    }
    (if inside { -best.0 } else { best.0 }, best.1)
}

/// A disc of `radius` at `center` against a polygon. See the module docs.
fn circle_polygon(radius: f32, center: Vec2, polygon: &Shape, pose: &Pose) -> ExactAnswer {
    let outline = outline64(polygon, pose);
    let (r, c) = (f64::from(radius), center.as_dvec2());
    let (s, nearest) = signed_distance_to_outline(&outline, c);
    let signed = s - r;
    if signed >= 0.0 {
        return from_signed(signed as f32, None);
    }
    // Push the centre straight away from the nearest point until it is r off the
    // outline, outside: if the disc is free there, no shorter move frees it (any move
    // shorter than r − s leaves the centre within r of that nearest point).
    let away = if s >= 0.0 { c - nearest } else { nearest - c };
    let depth = r - s;
    let freed = away.try_normalize().is_some_and(|dir| {
        let target = c + dir * depth;
        let (s_target, _) = signed_distance_to_outline(&outline, target);
        s_target >= r * (1.0 - 1e-6)
    });
    from_signed(signed as f32, freed.then_some(depth as f32))
}

/// How an algorithm's answer compares with the exact one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// The same, within the tolerance.
    Agrees,
    /// The algorithm says they intersect; they are this far apart (m).
    FalsePositive {
        /// The exact distance (m).
        exact_distance: f32,
    },
    /// The algorithm says they are apart; they overlap this deep (m).
    FalseNegative {
        /// The exact depth (m); `None` when it is not known exactly.
        exact_depth: Option<f32>,
    },
    /// Both intersect, but the algorithm's MTV is this many times the exact one: longer
    /// moves A further than it needs to, shorter does not free it.
    MtvRatio {
        /// Algorithm depth / exact depth.
        ratio: f32,
    },
}

impl Verdict {
    /// True for anything but [`Verdict::Agrees`].
    pub fn is_wrong(self) -> bool {
        self != Verdict::Agrees
    }

    /// The words the sandbox writes next to the pair (None when it agrees).
    pub fn describe(self) -> Option<String> {
        match self {
            Verdict::Agrees => None,
            Verdict::FalsePositive { exact_distance } => Some(format!(
                "false positive: exact says {} apart",
                millimetres(exact_distance)
            )),
            Verdict::FalseNegative { exact_depth: Some(d) } => {
                Some(format!("false negative: exact depth {}", millimetres(d)))
            }
            Verdict::FalseNegative { exact_depth: None } => Some("false negative: they overlap".to_string()),
            Verdict::MtvRatio { ratio } => Some(format!("MTV {ratio:.1}× the exact one")),
        }
    }
}

/// A length for a flag: millimetres below a metre, metres above.
fn millimetres(m: f32) -> String {
    if m.abs() < 1.0 {
        format!("{:.1} mm", m * 1000.0)
    } else {
        format!("{m:.3} m")
    }
}

/// MTVs within this ratio of the exact one agree (1%: the decomposed algorithms agree
/// with the oracle to about 1e-4; NonConvexSat's MTV is often 1.5× and more).
pub const MTV_RATIO_TOLERANCE: f32 = 1.01;

/// Distances and depths below this fraction of the scene's scale are touching, not a
/// disagreement: 1e-5 of a 20 m scene is 0.2 mm, well above f32 rounding there (about
/// 1e-6 m) and well below a gap anyone can see.
pub const TRUTH_RELATIVE_TOLERANCE: f32 = 1e-5;

/// Compares an algorithm's answer (`intersect`, `depth` in metres) with the exact one.
/// `scale_m` is the scene's size: gaps and depths under [`TRUTH_RELATIVE_TOLERANCE`]
/// times it count as touching, and MTVs within [`MTV_RATIO_TOLERANCE`] (or that
/// tolerance) of the exact one agree.
pub fn judge(intersect: bool, depth: f32, exact: &ExactAnswer, scale_m: f32) -> Verdict {
    let tol = TRUTH_RELATIVE_TOLERANCE * scale_m.abs().max(1e-3);
    match (intersect, exact.intersect) {
        (true, false) if exact.distance > tol => Verdict::FalsePositive {
            exact_distance: exact.distance,
        },
        (false, true) if exact.depth.is_none_or(|d| d > tol) => Verdict::FalseNegative {
            exact_depth: exact.depth,
        },
        (true, true) => match exact.depth {
            Some(e) if (depth - e).abs() > tol => {
                let ratio = depth / e.max(f32::MIN_POSITIVE);
                if !(1.0 / MTV_RATIO_TOLERANCE..=MTV_RATIO_TOLERANCE).contains(&ratio) {
                    Verdict::MtvRatio { ratio }
                } else {
                    Verdict::Agrees
                }
            }
            _ => Verdict::Agrees,
        },
        _ => Verdict::Agrees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Polygon};

    fn square(half: f32) -> Shape {
        Shape::Polygon(
            Polygon::new(&[
                Vec2::new(-half, -half),
                Vec2::new(half, -half),
                Vec2::new(half, half),
                Vec2::new(-half, half),
            ])
            .unwrap(),
        )
    }

    fn disc(r: f32) -> Shape {
        Shape::Circle(Circle::new(r).unwrap())
    }

    fn at(x: f32, y: f32) -> Pose {
        Pose::new(Vec2::new(x, y), 0.0)
    }

    #[test]
    fn squares_apart_overlapping_and_deep() {
        let s = square(0.5);
        let apart = exact_answer(&s, &at(0.0, 0.0), &s, &at(1.003, 0.0)).unwrap();
        assert!(!apart.intersect);
        assert!((apart.distance - 0.003).abs() < 1e-5, "{apart:?}");
        let deep = exact_answer(&s, &at(0.0, 0.0), &s, &at(0.8, 0.1)).unwrap();
        assert!(deep.intersect);
        assert!((deep.depth.unwrap() - 0.2).abs() < 1e-5, "{deep:?}");
    }

    #[test]
    fn a_disc_against_a_square_outside_inside_and_between_discs() {
        let (s, c) = (square(0.5), disc(0.25));
        let apart = exact_answer(&c, &at(1.0, 0.0), &s, &at(0.0, 0.0)).unwrap();
        assert!(!apart.intersect && (apart.distance - 0.25).abs() < 1e-6);
        let shallow = exact_answer(&s, &at(0.0, 0.0), &c, &at(0.7, 0.0)).unwrap();
        assert!(shallow.intersect && (shallow.depth.unwrap() - 0.05).abs() < 1e-6);
        // Centre inside, 0.1 from the right edge: out by 0.1 + 0.25.
        let inside = exact_answer(&s, &at(0.0, 0.0), &c, &at(0.4, 0.0)).unwrap();
        assert!((inside.depth.unwrap() - 0.35).abs() < 1e-6, "{inside:?}");
        let two = exact_answer(&c, &at(0.0, 0.0), &c, &at(0.4, 0.0)).unwrap();
        assert!(two.intersect && (two.depth.unwrap() - 0.1).abs() < 1e-6);
    }

    #[test]
    fn a_disc_in_a_narrow_notch_has_no_guessed_depth() {
        //  ┌─┐ ┌─┐
        //  │ │o│ │   a U whose slot (0.2 wide) is narrower than the disc (0.3 across)
        //  │ └─┘ │
        //  └─────┘
        let u = Shape::Polygon(
            Polygon::new(&[
                Vec2::new(-1.0, -1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.1, 1.0),
                Vec2::new(0.1, -0.5),
                Vec2::new(-0.1, -0.5),
                Vec2::new(-0.1, 1.0),
                Vec2::new(-1.0, 1.0),
            ])
            .unwrap(),
        );
        let e = exact_answer(&u, &at(0.0, 0.0), &disc(0.15), &at(0.0, 0.0)).unwrap();
        assert!(e.intersect);
        assert_eq!(e.depth, None);
    }

    #[test]
    fn verdicts_with_the_scene_tolerance() {
        let apart = ExactAnswer {
            intersect: false,
            depth: None,
            distance: 0.003,
        };
        assert_eq!(
            judge(true, 0.0063, &apart, 20.0),
            Verdict::FalsePositive { exact_distance: 0.003 }
        );
        assert_eq!(
            judge(true, 0.0063, &apart, 20.0).describe().unwrap(),
            "false positive: exact says 3.0 mm apart"
        );
        // 3 mm is touching in a 1 km scene.
        assert_eq!(judge(true, 0.0063, &apart, 1000.0), Verdict::Agrees);
        assert_eq!(judge(false, 0.0, &apart, 20.0), Verdict::Agrees);
        let deep = ExactAnswer {
            intersect: true,
            depth: Some(0.0021),
            distance: 0.0,
        };
        assert_eq!(
            judge(false, 0.0, &deep, 20.0).describe().unwrap(),
            "false negative: exact depth 2.1 mm"
        );
        assert_eq!(judge(true, 0.0021, &deep, 20.0), Verdict::Agrees);
        let ratio = judge(true, 0.0168, &deep, 20.0);
        assert_eq!(ratio.describe().unwrap(), "MTV 8.0× the exact one");
        // Within 1%: agrees; 2% off: flagged.
        assert_eq!(judge(true, 0.0021 * 1.009, &deep, 0.1), Verdict::Agrees);
        assert!(judge(true, 0.0021 * 1.02, &deep, 0.1).is_wrong());
        assert!(judge(true, 0.0021 * 0.5, &deep, 0.1).is_wrong());
    }
}
