//! The plane geometry the combine step needs: where two features of Minkowski
//! differences cross (segments and circular arcs), a line clipped by half-planes, a ray
//! through a rounded hull, the two deepest of a set of contact points, the thin strip
//! holding a difference, and the distances of the pieces' boxes.

use super::Feature;
use crate::bounds::Aabb;
use crate::math::{cross, right_perp, Vec2};
use crate::narrow::contact::{ContactPoint, ContactPoints};

/// Where two features cross: up to two points, written to `out`; returns how many.
pub(super) fn crossings(x: &Feature, y: &Feature, out: &mut [Vec2; 2]) -> usize {
    match (*x, *y) {
        (Feature::Edge { p0, p1, .. }, Feature::Edge { p0: q0, p1: q1, .. }) => {
            match segment_crossing(p0, p1, q0, q1) {
                Some(p) => {
                    out[0] = p;
                    1
                }
                None => 0,
            }
        }
        (
            Feature::Edge { p0, p1, .. },
            Feature::Arc {
                center,
                radius,
                from,
                to,
                full,
            },
        )
        | (
            Feature::Arc {
                center,
                radius,
                from,
                to,
                full,
            },
            Feature::Edge { p0, p1, .. },
        ) => {
            let mut count = 0;
            for p in segment_circle(p0, p1, center, radius).into_iter().flatten() {
                if on_arc(from, to, full, (p - center) / radius) {
                    out[count] = p;
                    count += 1;
                }
            }
            count
        }
        (
            Feature::Arc {
                center: c0,
                radius: r0,
                from: f0,
                to: t0,
                full: full0,
            },
            Feature::Arc {
                center: c1,
                radius: r1,
                from: f1,
                to: t1,
                full: full1,
            },
        ) => {
            let mut count = 0;
            for p in circle_circle(c0, r0, c1, r1).into_iter().flatten() {
                if on_arc(f0, t0, full0, (p - c0) / r0) && on_arc(f1, t1, full1, (p - c1) / r1) {
                    out[count] = p;
                    count += 1;
                }
            }
            count
        }
    }
}

/// The crossing of segments p0–p1 and q0–q1, ends included; `None` when they miss or
/// are parallel (collinear overlaps have their corners at the segments' ends, which are
/// candidates of their own).
pub(super) fn segment_crossing(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> Option<Vec2> {
    let (r, s) = (p1 - p0, q1 - q0);
    let denom = cross(r, s);
    if denom.abs() <= f32::EPSILON * r.length() * s.length() {
        return None;
    }
    let w = q0 - p0;
    let t = cross(w, s) / denom;
    let u = cross(w, r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| p0 + r * t)
}

/// Where segment p0–p1 meets the circle (center, radius): up to two points.
pub(super) fn segment_circle(p0: Vec2, p1: Vec2, center: Vec2, radius: f32) -> [Option<Vec2>; 2] {
    let e = p1 - p0;
    let len2 = e.length_squared();
    if len2 <= 0.0 {
        return [None, None];
    }
    // The line's point nearest the centre, then ± the half chord.
    let t0 = (center - p0).dot(e) / len2;
    let h2 = (p0 + e * t0 - center).length_squared();
    let chord2 = radius * radius - h2;
    if chord2 < 0.0 {
        return [None, None];
    }
    let dt = (chord2 / len2).sqrt();
    let at = |t: f32| (0.0..=1.0).contains(&t).then(|| p0 + e * t);
    [at(t0 - dt), at(t0 + dt)]
}

/// Where two circles meet: up to two points (none for concentric circles).
pub(super) fn circle_circle(c0: Vec2, r0: f32, c1: Vec2, r1: f32) -> [Option<Vec2>; 2] {
    let d = c1 - c0;
    let dist = d.length();
    if dist <= 0.0 || dist > r0 + r1 || dist < (r0 - r1).abs() {
        return [None, None];
    }
    let u = d / dist;
    let along = (dist * dist + r0 * r0 - r1 * r1) / (2.0 * dist);
    let half = (r0 * r0 - along * along).max(0.0).sqrt();
    let base = c0 + u * along;
    let side = right_perp(u) * half;
    [Some(base + side), Some(base - side)]
}

/// The deepest point and the point farthest from it, in the order of their feature ids.
///
/// Depths and distances that differ by rounding alone (a relative 1e-5) count as tied,
/// and a tie goes to the lower id: the candidates' depths come from the clipping of each
/// piece pair along the normal, whose last bits depend on how the pair's difference was
/// found (built by the search, or read from SAT's faces by `shortcut.rs`), and a flat
/// contact offers several points at the same depth. Without the band the two paths
/// picked different points of a flat contact.
pub(super) fn reduce_to_two(candidates: &[ContactPoint]) -> ContactPoints {
    let mut out = ContactPoints::EMPTY;
    let tied = |x: f32, best: f32| x >= best - 1e-5 * best.abs();
    let Some(deepest) = candidates.iter().map(|p| p.depth).reduce(f32::max) else {
        return out;
    };
    let Some(first) = candidates
        .iter()
        .copied()
        .filter(|p| tied(p.depth, deepest) || deepest.is_nan())
        .min_by_key(|p| p.id.0)
    else {
        return out;
    };
    let distance2 = |p: &ContactPoint| (p.point - first.point).length_squared();
    let farthest = candidates.iter().map(distance2).fold(0.0f32, f32::max);
    let second = candidates
        .iter()
        .copied()
        .filter(|p| distance2(p) > 1e-12 && tied(distance2(p), farthest))
        .min_by_key(|p| p.id.0);
    match second {
        // In the order of their feature ids, not deepest first: the solver takes a
        // constraint's points one after the other, and an order that follows whichever
        // end is deeper this step flips with a rocking body and feeds the rocking. A
        // hexagon lying across two teeth of a comb (the default scene) swapped its two
        // points every other step and rocked for ever at 5 cm/s; in a stable order it
        // comes to rest.
        Some(p) if p.id.0 < first.id.0 => {
            out.push(p);
            out.push(first);
        }
        Some(p) => {
            out.push(first);
            out.push(p);
        }
        None => out.push(first),
    }
    out
}

/// Clips the line s·dir against half-planes `n·p <= d` (Cyrus–Beck). `None` if empty.
pub(super) fn clip_line(dir: Vec2, half_planes: impl Iterator<Item = (Vec2, f32)>) -> Option<(f32, f32)> {
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
pub(super) fn ray_interval(hull: &[Vec2], radius: f32, dir: Vec2) -> Option<(f32, f32)> {
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

/// The strip of `Difference::slab` (`combine.rs`) for a core (counter-clockwise) grown
/// by `radius`: across its longest edge, where a long thin core is thinnest. A core of
/// fewer than three vertices gets a strip holding everything.
#[cfg(test)]
pub(super) fn slab_of(core: &[Vec2], radius: f32) -> (Vec2, f32, f32) {
    let n = core.len();
    if n < 3 {
        return EVERYWHERE;
    }
    let longest = (0..n).map(|k| core[(k + 1) % n] - core[k]).fold(Vec2::ZERO, |x, y| {
        if y.length_squared() > x.length_squared() {
            y
        } else {
            x
        }
    });
    slab_across(core, right_perp(longest).normalize_or_zero(), radius)
}

/// A strip holding everything.
pub(super) const EVERYWHERE: (Vec2, f32, f32) = (Vec2::X, f32::NEG_INFINITY, f32::INFINITY);

/// `slab_of` once the unit normal of the longest edge is known (`open` has it from
/// the core's planes); zero gives the strip holding everything.
pub(super) fn slab_across(core: &[Vec2], normal: Vec2, radius: f32) -> (Vec2, f32, f32) {
    if normal == Vec2::ZERO {
        return EVERYWHERE;
    }
    // By comparisons, without `f32::min`'s extra instructions for its NaN rule (a NaN
    // is skipped either way).
    let (lo, hi) = core.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
        let along = normal.dot(*v);
        (if along < lo { along } else { lo }, if along > hi { along } else { hi })
    });
    // The same relative rounding margin as the held radius's.
    let margin = radius + 1e-5 * (lo.abs().max(hi.abs()) + 1.0);
    (normal, lo - margin, hi + margin)
}

/// Grows `b` to hold `p`: `Aabb::from_points`, one point at a time, by comparisons
/// rather than `f32::min` and `max`, whose NaN rule costs extra instructions a lane (a
/// NaN coordinate fails every comparison and is skipped, as `f32::min` skips it; only
/// the sign of a zero corner can differ, which no box test sees).
#[inline]
pub(super) fn take_in(b: &mut crate::bounds::Aabb, p: Vec2) {
    if p.x < b.min.x {
        b.min.x = p.x;
    }
    if p.y < b.min.y {
        b.min.y = p.y;
    }
    if p.x > b.max.x {
        b.max.x = p.x;
    }
    if p.y > b.max.y {
        b.max.y = p.y;
    }
}

/// The point of segment p0–p1 nearest the origin, and its parameter along the segment.
pub(super) fn nearest_on_segment(p0: Vec2, p1: Vec2) -> (Vec2, f32) {
    let e = p1 - p0;
    let len2 = e.length_squared();
    if len2 <= 0.0 {
        return (p0, 0.0);
    }
    let t = (-p0.dot(e) / len2).clamp(0.0, 1.0);
    (p0 + e * t, t)
}

/// Distance from `p` to segment p0–p1.
pub(super) fn segment_distance(p: Vec2, p0: Vec2, p1: Vec2) -> f32 {
    nearest_on_segment(p0 - p, p1 - p).0.length()
}

/// Are the edges of a piece from vertex `from` counter-clockwise to vertex `to` all
/// diagonals (`diagonals` per edge; empty for a piece without any)? True when there are
/// none in between (the difference's edge took no edge of this piece).
pub(super) fn only_diagonals(diagonals: &[bool], count: usize, from: usize, to: usize) -> bool {
    let mut k = from;
    while k != to {
        if !diagonals.get(k).copied().unwrap_or(false) {
            return false;
        }
        // The next vertex without a division (a remainder costs tens of cycles).
        k = if k + 1 >= count { 0 } else { k + 1 };
    }
    true
}

/// Is `dir` (unit) on the arc from `from` counter-clockwise to `to`? Arcs span at most a
/// half turn (a convex corner's outward normals, or a segment's end).
pub(super) fn on_arc(from: Vec2, to: Vec2, full: bool, dir: Vec2) -> bool {
    full || (cross(from, dir) >= 0.0 && cross(dir, to) >= 0.0)
}

/// Distance from the origin to the box of M_ij = box of A_i minus box of B_j.
pub(super) fn box_distance(box_a: &Aabb, box_b: &Aabb) -> f32 {
    box_distance_squared(box_a, box_b).sqrt()
}

/// The square of [`box_distance`].
pub(super) fn box_distance_squared(box_a: &Aabb, box_b: &Aabb) -> f32 {
    let (lo, hi) = (box_a.min - box_b.max, box_a.max - box_b.min);
    lo.max(-hi).max(Vec2::ZERO).length_squared()
}

/// The part of box `b` in the square around the origin that holds the disc of radius
/// `reach` (all of `b` for an infinite reach): what the grids list, since every point
/// the search asks about lies in that disc.
pub(super) fn within(b: &Aabb, reach: f32) -> Aabb {
    Aabb::new(b.min.max(Vec2::splat(-reach)), b.max.min(Vec2::splat(reach)))
}

/// The box of a set of boxes.
pub(super) fn union_of(boxes: &[Aabb]) -> Aabb {
    boxes
        .iter()
        .copied()
        .reduce(|x, y| x.union(&y))
        .unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO))
}

/// The vertices of a stored run.
pub(super) fn run(points: &[Vec2], (start, len): (u32, u32)) -> &[Vec2] {
    &points[start as usize..(start + len) as usize]
}
