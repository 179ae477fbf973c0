//! Combining the piece pairs' answers into one answer for two non-convex bodies.
//!
//! ## Why combining needs care
//! Each overlapping piece pair proposes a normal and a depth, but pushing A out of one
//! piece of B can push it into another piece of B, so no single pair's MTV is safe for
//! the whole bodies. What is exact is this: A − B is the union of the pieces' Minkowski
//! differences M_ij = A_i − B_j, and translating A by t clears B exactly when −t lies
//! outside that union. So for a candidate normal n (from A towards B) the translation
//! along it that clears *every* piece pair is the first point where the ray s·n, s ≥ 0,
//! leaves the union — found by intersecting the ray with each convex M_ij (an interval
//! [s_in, s_out] each) and sweeping the intervals from s = 0. We try every overlapping
//! pair's own normal as a candidate and keep the one that needs the least translation.
//! The answer always separates the bodies; it is the true minimum translation whenever
//! the true MTV is one of the pairs' normals (always for convex bodies, usually
//! otherwise — the exact minimum lives in `exact.rs` and the tests compare).
//!
//! Pieces whose M_ij cannot meet the ray are culled by a ray–box test on M_ij's box
//! (box of A_i minus box of B_j).

use super::clip::contact_points;
use super::compound::{build_hull, run, CompoundScratch, NOT_BUILT};
use super::contact::{Contact, ContactPoint, ContactPoints, Work};
use super::trace::{record, CombineStep, Trace, TraceStep};
use super::NarrowConfig;
use crate::bounds::Aabb;
use crate::geometry::Shape;
use crate::math::{right_perp, Pose, Vec2};

/// One piece pair's stretch of a candidate ray inside its Minkowski difference.
#[derive(Clone, Copy, Debug)]
pub(super) struct RayInterval {
    s_in: f32,
    s_out: f32,
    piece_a: usize,
    piece_b: usize,
}

/// Chooses the candidate normal that clears every piece pair with the least translation
/// (see the module docs), then gathers contact points along it.
#[allow(clippy::too_many_arguments)]
pub(super) fn combine(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    scale: f32,
    config: &NarrowConfig,
    work: Work,
    trace: &mut Option<&mut Trace>,
    scratch: &mut CompoundScratch,
) -> Contact {
    let (na, nb) = (scratch.boxes_a.len(), scratch.boxes_b.len());
    let tol = config.touch_tolerance * scale;
    // Minkowski differences are built on first use and kept for the other candidates.
    scratch.hull_points.clear();
    scratch.hull_runs.clear();
    scratch.hull_runs.resize(na * nb, NOT_BUILT);
    let radius = |i: usize, j: usize| a.piece(i).radius + b.piece(j).radius;
    for k in 0..scratch.hits.len() {
        let (i, j, _) = scratch.hits[k];
        scratch.hull_of(a, pose_a, b, pose_b, i, j);
    }
    // Candidate normals: each overlapping pair's own answer, then every outward edge
    // normal of those pairs' Minkowski differences (the nearest point of the union's
    // boundary usually lies on one of their edges, whose normal then is the answer).
    let CompoundScratch {
        boxes_a,
        boxes_b,
        hits,
        hull_points,
        hull_runs,
        hull: hull_scratch,
        normals,
        ordered,
        intervals,
        best_intervals,
        points,
        found: _,
    } = scratch;
    normals.clear();
    normals.extend(hits.iter().map(|&(i, j, pen)| (pen.normal, i, j)));
    for &(i, j, _) in hits.iter() {
        let hull = run(hull_points, hull_runs[i * nb + j]);
        let n = hull.len();
        for k in 0..if n >= 2 { n } else { 0 } {
            let normal = right_perp(hull[(k + 1) % n] - hull[k]).normalize_or_zero();
            if normal != Vec2::ZERO && !normals.iter().any(|c| c.0.dot(normal) > 1.0 - 1e-7) {
                normals.push((normal, i, j));
            }
        }
    }
    // A lower bound of the union's exit along a normal: the exit from each overlapping
    // pair's own difference. Trying candidates in increasing bound lets the search stop
    // as soon as no remaining candidate can beat the best.
    let lower_bound = |n: Vec2| {
        hits.iter()
            .filter_map(|&(i, j, _)| ray_interval(run(hull_points, hull_runs[i * nb + j]), radius(i, j), n))
            .filter(|iv| iv.0 < 0.0)
            .map(|iv| iv.1)
            .fold(0.0f32, f32::max)
    };
    ordered.clear();
    ordered.extend(normals.iter().map(|&(n, i, j)| (lower_bound(n), n, i, j)));
    ordered.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best: Option<(Vec2, f32)> = None;
    best_intervals.clear();
    for &(bound, n, hi, hj) in ordered.iter() {
        if best.is_some_and(|(_, d)| bound >= d) {
            break;
        }
        intervals.clear();
        for (i, box_a) in boxes_a.iter().enumerate() {
            for (j, box_b) in boxes_b.iter().enumerate() {
                // Box of A_i − B_j: [min_a − max_b, max_a − min_b].
                let m_box = Aabb::new(box_a.min - box_b.max, box_a.max - box_b.min);
                if !ray_hits_aabb(n, &m_box) {
                    continue;
                }
                let span = build_hull(
                    a,
                    pose_a,
                    b,
                    pose_b,
                    i,
                    j,
                    hull_scratch,
                    hull_points,
                    &mut hull_runs[i * nb + j],
                );
                let hull = run(hull_points, span);
                if let Some((s_in, s_out)) = ray_interval(hull, radius(i, j), n) {
                    intervals.push(RayInterval {
                        s_in,
                        s_out,
                        piece_a: i,
                        piece_b: j,
                    });
                }
            }
        }
        let depth = first_exit(intervals, tol);
        let is_best = best.is_none_or(|(_, d)| depth < d);
        record(trace, || {
            TraceStep::Combine(CombineStep {
                from_piece_a: hi,
                from_piece_b: hj,
                normal: n,
                pair_depth: bound,
                depth,
                best: is_best,
            })
        });
        if is_best {
            best = Some((n, depth));
            best_intervals.clear();
            best_intervals.extend_from_slice(intervals);
        }
    }
    let Some((normal, depth)) = best else {
        return Contact::separated(work);
    };
    // Contact points: clip every piece pair the chosen ray starts inside, each with its
    // own depth along the chosen normal, and keep the deepest point and the point
    // farthest from it (a two-point manifold spans the contact).
    points.clear();
    for iv in best_intervals.iter().filter(|iv| iv.s_in < -tol && iv.s_out > tol) {
        let (va, vb) = (a.piece(iv.piece_a), b.piece(iv.piece_b));
        let pts = contact_points(
            &va,
            pose_a,
            &vb,
            pose_b,
            normal,
            iv.s_out,
            (iv.piece_a, iv.piece_b),
            trace,
        );
        points.extend_from_slice(pts.as_slice());
    }
    let points = reduce_to_two(points);
    Contact::penetrating(normal, depth, points, work)
}

/// The deepest point, and the point farthest from it.
fn reduce_to_two(candidates: &[ContactPoint]) -> ContactPoints {
    let mut out = ContactPoints::EMPTY;
    let Some(first) = candidates
        .iter()
        .copied()
        .reduce(|p, q| if q.depth > p.depth { q } else { p })
    else {
        return out;
    };
    out.push(first);
    let second = candidates
        .iter()
        .copied()
        .map(|p| ((p.point - first.point).length_squared(), p))
        .filter(|(d2, _)| *d2 > 1e-12)
        .reduce(|x, y| if y.0 > x.0 { y } else { x });
    if let Some((_, p)) = second {
        out.push(p);
    }
    out
}

/// Sweeps intervals sorted by entry from s = 0: the first s not strictly inside any of
/// them. Intervals that merely touch (within `tol`) let the sweep stop there: touching is
/// not overlapping.
fn first_exit(intervals: &mut [RayInterval], tol: f32) -> f32 {
    intervals.sort_by(|x, y| x.s_in.total_cmp(&y.s_in));
    let mut s = 0.0f32;
    for iv in intervals.iter() {
        if iv.s_out <= s + tol {
            continue;
        }
        if iv.s_in >= s - tol {
            break;
        }
        s = iv.s_out;
    }
    s
}

/// Does the ray s·dir, s ≥ 0, from the origin meet the box? (slab test)
fn ray_hits_aabb(dir: Vec2, b: &Aabb) -> bool {
    let mut t_lo = 0.0f32;
    let mut t_hi = f32::INFINITY;
    for (d, lo, hi) in [(dir.x, b.min.x, b.max.x), (dir.y, b.min.y, b.max.y)] {
        if d.abs() < 1e-12 {
            if lo > 0.0 || hi < 0.0 {
                return false;
            }
        } else {
            let (t0, t1) = (lo / d, hi / d);
            let (t0, t1) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
            t_lo = t_lo.max(t0);
            t_hi = t_hi.min(t1);
            if t_lo > t_hi {
                return false;
            }
        }
    }
    true
}

/// Clips the line s·dir against half-planes `n·p <= d` (Cyrus–Beck). `None` if empty.
fn clip_line(dir: Vec2, half_planes: impl Iterator<Item = (Vec2, f32)>) -> Option<(f32, f32)> {
    let mut s_in = f32::NEG_INFINITY;
    let mut s_out = f32::INFINITY;
    for (n, d) in half_planes {
        let denom = n.dot(dir);
        if denom.abs() < 1e-12 {
            if d < 0.0 {
                return None;
            }
        } else if denom > 0.0 {
            s_out = s_out.min(d / denom);
        } else {
            s_in = s_in.max(d / denom);
        }
    }
    (s_in <= s_out).then_some((s_in, s_out))
}

/// The stretch of the line s·dir inside the convex polygon `hull` (counter-clockwise)
/// grown by `radius`. The grown shape is the union of the hull, a rectangle on the
/// outside of each edge and a disc at each vertex; their union is convex, so the line's
/// stretch is from the earliest entry to the latest exit over the parts it meets.
fn ray_interval(hull: &[Vec2], radius: f32, dir: Vec2) -> Option<(f32, f32)> {
    let n = hull.len();
    let mut acc: Option<(f32, f32)> = None;
    let mut add = |iv: Option<(f32, f32)>| {
        if let Some((i0, i1)) = iv {
            acc = Some(acc.map_or((i0, i1), |(a0, a1)| (a0.min(i0), a1.max(i1))));
        }
    };
    if n >= 3 {
        add(clip_line(
            dir,
            (0..n).map(|i| {
                let normal = right_perp(hull[(i + 1) % n] - hull[i]).normalize_or_zero();
                (normal, normal.dot(hull[i]))
            }),
        ));
    }
    if radius > 0.0 {
        // A two-vertex hull is a segment: its rectangles lie on both sides.
        // (For a segment, edge k runs from vertex k to the other: there and back.)
        let edge_count = if n >= 2 { n } else { 0 };
        for k in 0..edge_count {
            let (v0, v1) = (hull[k], hull[(k + 1) % n]);
            let t = (v1 - v0).normalize_or_zero();
            let normal = right_perp(t);
            add(clip_line(
                dir,
                [
                    (normal, normal.dot(v0) + radius),
                    (-normal, -normal.dot(v0)),
                    (-t, -t.dot(v0)),
                    (t, t.dot(v1)),
                ]
                .into_iter(),
            ));
        }
        for &v in hull {
            // |s·dir − v|² <= r², dir unit.
            let b = dir.dot(v);
            let disc = b * b - v.length_squared() + radius * radius;
            if disc >= 0.0 {
                let root = disc.sqrt();
                add(Some((b - root, b + root)));
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_exit_chains_overlapping_intervals() {
        let iv = |s_in, s_out| RayInterval {
            s_in,
            s_out,
            piece_a: 0,
            piece_b: 0,
        };
        let mut ivs = [iv(-1.0, 0.5), iv(0.2, 1.5), iv(2.0, 3.0)];
        assert_eq!(first_exit(&mut ivs, 1e-6), 1.5);
        // An interval that starts exactly where the sweep stands only touches.
        let mut ivs = [iv(-1.0, 0.5), iv(0.5, 1.5)];
        assert_eq!(first_exit(&mut ivs, 1e-6), 0.5);
    }

    #[test]
    fn ray_interval_of_a_square_and_a_rounded_square() {
        let sq = [
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ];
        assert_eq!(ray_interval(&sq, 0.0, Vec2::X), Some((-1.0, 1.0)));
        let (s0, s1) = ray_interval(&sq, 0.5, Vec2::X).unwrap();
        assert!((s0 + 1.5).abs() < 1e-6 && (s1 - 1.5).abs() < 1e-6);
        // Along the diagonal the rounded corner is hit: exit at √2 + 0.5.
        let d = Vec2::new(1.0, 1.0).normalize();
        let (_, s1) = ray_interval(&sq, 0.5, d).unwrap();
        assert!((s1 - (2f32.sqrt() + 0.5)).abs() < 1e-5);
    }

    #[test]
    fn ray_interval_of_a_disc_and_a_capsule() {
        let (s0, s1) = ray_interval(&[Vec2::new(1.0, 0.0)], 0.5, Vec2::X).unwrap();
        assert!((s0 - 0.5).abs() < 1e-6 && (s1 - 1.5).abs() < 1e-6);
        let seg = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];
        let (s0, s1) = ray_interval(&seg, 0.25, Vec2::Y).unwrap();
        assert!((s0 + 0.25).abs() < 1e-6 && (s1 - 0.25).abs() < 1e-6);
    }
}
