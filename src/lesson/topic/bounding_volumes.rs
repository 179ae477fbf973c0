//! Lesson 11: one shape, its five bounding volumes, and how well each fits.
//!
//! Zakharov and Sadykov ("Oriented bounding volumes for polygonal objects", 2003) score
//! a volume V around a shape S by its tightness τ, the Hausdorff distance between V and
//! S (S lies inside V, so τ = max over q ∈ V of dist(q, S)), against the shape's
//! diameter d: ρ = τ / d, 0 for a perfect fit. Their advice follows from it: OBBs for
//! long bodies, circles for round ones, AABBs and k-DOPs for bodies that do not turn.
//!
//! Everything is measured by `crate::bounds` (the volumes as the broad phase and the
//! edge trees build them, [`crate::bounds::tightness`] with the point pair realising τ);
//! this file only orders it into steps:
//!
//! ```text
//! step 0            the shape S
//! step 1            its diameter d (two hull vertices)
//! per volume kind   V built around S; then τ drawn as the pair (q on V, nearest point of S), ρ = τ/d
//! last              the ranking: the smallest ρ fits best
//! ```
//!
//! Predict mode asks, before each τ is shown, where V fits worst; every point of V's
//! outline within 2% of d of the worst distance counts, since symmetric shapes have
//! several (an AABB around a rectangle-like shape has four equally bad corners).

use super::{shape_marks, Mark, Pane, Role, Side, Table, Target, TopicLesson, TopicStep, TopicTrace, VolumeKind};
use crate::bounds::{
    distance_to_shape, shape_diameter, shape_diameter_points, tightness, BoundKind, BoundingVolume, ObbMethod,
    Tightness,
};
use crate::geometry::Shape;
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{bounding, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::{Pose, Vec2};
use crate::scene::Scene;

/// Body 0 of `scene` with its five volumes and their tightness.
struct Measured {
    shape: Shape,
    pose: Pose,
    diameter: f32,
    volumes: Vec<(VolumeKind, BoundingVolume, Tightness)>,
}

fn measure(scene: &Scene) -> Option<Measured> {
    let shape = scene.shapes().first()?.clone();
    let pose = scene.pose(0)?;
    let volumes = VolumeKind::ALL
        .iter()
        .map(|&kind| {
            let (bound, method) = match kind {
                VolumeKind::Aabb => (BoundKind::Aabb, ObbMethod::MinArea),
                VolumeKind::Circle => (BoundKind::Circle, ObbMethod::MinArea),
                VolumeKind::ObbMinArea => (BoundKind::Obb, ObbMethod::MinArea),
                VolumeKind::ObbCovariance => (BoundKind::Obb, ObbMethod::Covariance),
                VolumeKind::Kdop8 => (BoundKind::Kdop8, ObbMethod::MinArea),
            };
            let volume = BoundingVolume::of_shape_with(&shape, &pose, bound, method);
            let t = tightness(&shape, &pose, &volume);
            (kind, volume, t)
        })
        .collect();
    Some(Measured {
        diameter: shape_diameter(&shape),
        shape,
        pose,
        volumes,
    })
}

/// The mark of a volume.
fn volume_mark(kind: VolumeKind, volume: &BoundingVolume) -> Mark {
    match volume {
        BoundingVolume::Circle(c) => Mark::Circle {
            center: c.center,
            radius: c.radius,
            role: Role::Volume(kind),
            filled: false,
        },
        other => Mark::Outline {
            points: other.outline(),
            role: Role::Volume(kind),
        },
    }
}

/// The points of `volume`'s outline (sampled finely) whose distance to the shape is
/// within `slack` of `tau`, thinned so no two are closer than `spacing`, plus
/// `far_point` itself: every place a click on "where does it fit worst" is right.
fn worst_points(m: &Measured, volume: &BoundingVolume, t: &Tightness, slack: f32, spacing: f32) -> Vec<Vec2> {
    let outline = match volume {
        BoundingVolume::Circle(c) => c.outline(256),
        other => {
            let o = other.outline();
            let n = o.len();
            (0..n)
                .flat_map(|i| {
                    let (a, b) = (o[i], o[(i + 1) % n]);
                    (0..64).map(move |k| a + (b - a) * (k as f32 / 64.0))
                })
                .collect()
        }
    };
    let mut out = vec![t.far_point];
    for q in outline {
        if distance_to_shape(&m.shape, &m.pose, q) >= t.tau - slack && out.iter().all(|p| p.distance(q) >= spacing) {
            out.push(q);
        }
    }
    out
}

/// Lesson 11's trace on `lesson`'s posed scene; the table measures every preset too.
pub(super) fn trace(lesson: &TopicLesson) -> TopicTrace {
    let Some(m) = measure(lesson.scene()) else {
        return super::placeholder(lesson.topic());
    };
    let d = m.diameter;
    let (da, db) = shape_diameter_points(&m.shape);
    let (da, db) = (m.pose.apply_point(da), m.pose.apply_point(db));
    let card = |title: String, text: String, line: usize| Card {
        title,
        text,
        listing: Listing::BoundingVolumes,
        pseudocode_line: line,
    };
    let shape = shape_marks(&m.shape, &m.pose, Role::Body(0));
    let diameter_marks = |role: Role| {
        vec![
            Mark::Segment {
                from: da,
                to: db,
                role,
                dashed: true,
            },
            Mark::Dot { at: da, role },
            Mark::Dot { at: db, role },
        ]
    };
    let rho_max = m.volumes.iter().map(|v| v.2.rho).fold(0.0f32, f32::max).max(1e-6);
    // The chart: one row per kind, a bar of length 4·ρ/ρmax.
    const BAR: f32 = 4.0;
    // Rows 1.5 apart: the chart fills a tall view without its labels crowding.
    let row_y = |i: usize| -1.5 * i as f32;
    let chart = |upto: usize, best: Option<usize>| {
        let mut marks = vec![
            Mark::segment(Vec2::new(0.0, 0.6), Vec2::new(0.0, row_y(4) - 0.6), Role::Muted),
            Mark::segment(
                Vec2::new(-3.4, row_y(4) - 0.6),
                Vec2::new(BAR + 1.6, row_y(4) - 0.6),
                Role::Muted,
            ),
        ];
        for (i, (kind, _, t)) in m.volumes.iter().enumerate() {
            let y = row_y(i);
            marks.push(Mark::label(
                Vec2::new(-3.4, y),
                kind.name(),
                Role::Volume(*kind),
                Side::Right,
            ));
            if i < upto {
                let w = (BAR * t.rho / rho_max).max(0.02);
                let role = if best == Some(i) {
                    Role::Pair
                } else {
                    Role::Volume(*kind)
                };
                marks.push(Mark::Fill {
                    points: vec![
                        Vec2::new(0.0, y - 0.45),
                        Vec2::new(w, y - 0.45),
                        Vec2::new(w, y + 0.45),
                        Vec2::new(0.0, y + 0.45),
                    ],
                    role,
                });
                marks.push(Mark::label(
                    Vec2::new(w, y),
                    format!("ρ {}", fmt_num(t.rho)),
                    role,
                    Side::Right,
                ));
            }
        }
        marks
    };
    let mut steps = Vec::new();
    let kind_text = |kind: VolumeKind| {
        match kind {
        VolumeKind::Aabb => "the axis-aligned box: the smallest and largest x and y of the vertices. Two intervals to test, and it must be rebuilt whenever the body turns.",
        VolumeKind::Circle => "the smallest circle holding every vertex (Welzl's algorithm). One distance to test, and turning does not change it.",
        VolumeKind::ObbMinArea => "the oriented box of least area: one of its sides lies on an edge of the convex hull, found by rotating calipers (Toussaint 1983). It turns with the body.",
        VolumeKind::ObbCovariance => "the oriented box along the eigenvectors of the hull vertices' covariance (Gottschalk, Lin and Manocha's OBB-tree; Liu et al. 2018). Cheaper to find, but its axes follow how the vertices are spread, not the shape's outline.",
        VolumeKind::Kdop8 => "an AABB with its corners cut: the extents along x, y and both diagonals. Four intervals to test.",
    }
    };
    steps.push(TopicStep {
        card: card(
            "The shape".to_string(),
            format!(
                "S has {} vertices. A bounding volume is a simpler shape around S: if two volumes do not overlap, the shapes inside cannot either, and the volume test is far cheaper than the exact one. The question of this lesson: how much empty space does each kind of volume wrap around S?",
                m.shape.whole().vertices.len()
            ),
            bounding::SHAPE,
        ),
        iteration: 0,
        world: shape.clone(),
        diagram: chart(0, None),
        target: None,
    });
    let mut world = shape.clone();
    world.extend(diameter_marks(Role::Diameter));
    world.push(Mark::label(
        (da + db) * 0.5,
        format!("d = {}", fmt_num(d)),
        Role::Diameter,
        Side::Above,
    ));
    steps.push(TopicStep {
        card: card(
            format!("Diameter d = {}", fmt_num(d)),
            format!(
                "The diameter is the largest distance between two points of S: here {} m, between two vertices of its convex hull. It is the yardstick: a gap of τ metres between a volume and S is bad on a small shape and harmless on a big one, so the score is ρ = τ / d.",
                fmt_num(d)
            ),
            bounding::DIAMETER,
        ),
        iteration: 0,
        world,
        diagram: chart(0, None),
        target: None,
    });
    let tolerance = super::TOLERANCE_SHARE * d;
    for (i, (kind, volume, t)) in m.volumes.iter().enumerate() {
        let mut base = shape.clone();
        base.extend(diameter_marks(Role::Muted));
        base.push(volume_mark(*kind, volume));
        let mut world = base.clone();
        world.push(Mark::label(
            volume.outline()[0],
            kind.name(),
            Role::Volume(*kind),
            Side::Below,
        ));
        steps.push(TopicStep {
            card: card(
                format!("{} around S", kind.name()),
                format!(
                    "The {} is {} Its area is {} m², against {} m² for S itself.",
                    kind.name(),
                    kind_text(*kind),
                    fmt_num(volume.area()),
                    fmt_num(shape_area(&m.shape))
                ),
                bounding::VOLUME,
            ),
            iteration: i + 1,
            world,
            diagram: chart(i, None),
            target: None,
        });
        let mut world = base;
        world.push(Mark::Segment {
            from: t.far_point,
            to: t.near_point,
            role: Role::Tightness,
            dashed: false,
        });
        world.push(Mark::Dot {
            at: t.far_point,
            role: Role::Tightness,
        });
        world.push(Mark::Dot {
            at: t.near_point,
            role: Role::Body(0),
        });
        world.push(Mark::label(
            t.far_point,
            format!("τ = {}", fmt_num(t.tau)),
            Role::Tightness,
            Side::Right,
        ));
        steps.push(TopicStep {
            card: card(
                format!("τ of the {}", kind.name()),
                format!(
                    "The point of the {} farthest from S is q = ({}, {}); the nearest point of S to it is ({}, {}), τ = {} m away. So ρ = τ / d = {} / {} = {}.{}",
                    kind.name(),
                    fmt_num(t.far_point.x),
                    fmt_num(t.far_point.y),
                    fmt_num(t.near_point.x),
                    fmt_num(t.near_point.y),
                    fmt_num(t.tau),
                    fmt_num(t.tau),
                    fmt_num(d),
                    fmt_num(t.rho),
                    if t.rho < 0.005 {
                        " The volume hugs S: nothing to gain from a tighter one."
                    } else {
                        ""
                    }
                ),
                bounding::TAU,
            ),
            iteration: i + 1,
            world,
            diagram: chart(i + 1, None),
            target: Some(Target {
                prompt: format!(
                    "Where does the {} fit worst? Click the point of it farthest from the shape.",
                    kind.name()
                ),
                pane: Pane::World,
                answers: worst_points(&m, volume, t, 0.02 * d, tolerance),
                tolerance,
            }),
        });
    }
    let ranked = ranking(&m);
    let best = ranked[0];
    let (best_kind, best_volume, best_t) = &m.volumes[best];
    let mut world = shape.clone();
    for (kind, volume, _) in &m.volumes {
        if kind != best_kind {
            world.push(volume_mark(*kind, volume));
        }
    }
    world.push(volume_mark(*best_kind, best_volume));
    world.push(Mark::Segment {
        from: best_t.far_point,
        to: best_t.near_point,
        role: Role::Tightness,
        dashed: false,
    });
    world.push(Mark::label(
        best_t.far_point,
        format!("best: {}, τ = {}", best_kind.name(), fmt_num(best_t.tau)),
        Role::Pair,
        Side::Right,
    ));
    let order: Vec<String> = ranked
        .iter()
        .map(|&i| format!("{} {}", m.volumes[i].0.name(), fmt_num(m.volumes[i].2.rho)))
        .collect();
    steps.push(TopicStep {
        card: card(
            format!("Best fit: {}", best_kind.name()),
            format!(
                "From tightest to loosest, by ρ (ties go to the smaller area): {}.{} The tightest volume rejects the most pairs whose shapes are apart, so fewer exact tests (Np) follow; a looser one is cheaper to test (Cv) or to update as the body turns. T = Nv·Cv + Np·Cp weighs the two.",
                order.join(", "),
                if m.shape.piece_count() > 1 {
                    " S is not convex and every volume is: none can fill its notch, so no τ is below the notch's depth."
                } else {
                    ""
                }
            ),
            bounding::BEST,
        ),
        iteration: m.volumes.len() + 1,
        world,
        diagram: chart(m.volumes.len(), Some(best)),
        target: None,
    });
    TopicTrace {
        world_title: "World: the shape and its volumes".to_string(),
        diagram_title: "ρ = τ / d per volume".to_string(),
        steps,
        quiz: quiz(&m, &ranked),
        table: Some(table(lesson)),
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

/// Indices of `m.volumes`, tightest first. ρ within 0.001 is a tie (the numeric τ is
/// that precise), broken by the smaller area: an 8-DOP is never looser than the AABB it
/// cuts, and when their worst points coincide it should not lose by rounding.
fn ranking(m: &Measured) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.volumes.len()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (&m.volumes[a], &m.volumes[b]);
        if (va.2.rho - vb.2.rho).abs() < 1e-3 {
            va.1.area().total_cmp(&vb.1.area())
        } else {
            va.2.rho.total_cmp(&vb.2.rho)
        }
    });
    order
}

fn shape_area(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(c) => std::f32::consts::PI * c.radius() * c.radius(),
        Shape::Segment(_) => 0.0,
        Shape::Polygon(p) => {
            let v = p.vertices();
            0.5 * (0..v.len())
                .map(|i| crate::math::cross(v[i], v[(i + 1) % v.len()]))
                .sum::<f32>()
                .abs()
        }
    }
}

fn quiz(m: &Measured, ranked: &[usize]) -> Vec<QuizQuestion> {
    let names: Vec<String> = VolumeKind::ALL.iter().map(|k| k.name().to_string()).collect();
    let (best, worst) = (ranked[0], ranked[ranked.len() - 1]);
    let mut out = Vec::new();
    out.extend(choose(
        "Which volume fits this shape tightest (smallest ρ; a tie goes to the smaller area)?",
        &names,
        m.volumes[best].0.name(),
        format!(
            "The {} leaves at most τ = {} m between itself and the shape: ρ = {}.",
            m.volumes[best].0.name(),
            fmt_num(m.volumes[best].2.tau),
            fmt_num(m.volumes[best].2.rho)
        ),
    ));
    out.extend(choose(
        "Which volume fits it worst?",
        &names,
        m.volumes[worst].0.name(),
        format!(
            "The {} has the largest ρ, {}: its worst point is {} m from the shape.",
            m.volumes[worst].0.name(),
            fmt_num(m.volumes[worst].2.rho),
            fmt_num(m.volumes[worst].2.tau)
        ),
    ));
    let rho = |k: VolumeKind| m.volumes.iter().find(|v| v.0 == k).map_or(0.0, |v| v.2.rho);
    let min_area_wins = rho(VolumeKind::ObbMinArea) <= rho(VolumeKind::ObbCovariance) + 1e-4;
    out.extend(choose(
        "Is the min-area OBB at least as tight as the covariance OBB here?",
        &["no".to_string(), "yes".to_string()],
        if min_area_wins { "yes" } else { "no" },
        format!(
            "ρ is {} for the min-area box and {} for the covariance box.",
            fmt_num(rho(VolumeKind::ObbMinArea)),
            fmt_num(rho(VolumeKind::ObbCovariance))
        ),
    ));
    out
}

/// ρ per volume for the shape as written and under every preset.
fn table(lesson: &TopicLesson) -> Table {
    let mut header = vec!["shape".to_string(), "d (m)".to_string()];
    header.extend(VolumeKind::ALL.iter().map(|k| k.name().to_string()));
    let mut rows = Vec::new();
    let mut variant = lesson.clone();
    for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
        if variant.set_preset(preset).is_err() {
            continue;
        }
        let Some(m) = measure(variant.scene()) else {
            continue;
        };
        let name = preset.map_or("as written".to_string(), |p| lesson.presets()[p].name.clone());
        let mut row = vec![name, fmt_num(m.diameter)];
        row.extend(m.volumes.iter().map(|v| fmt_num(v.2.rho)));
        rows.push(row);
    }
    Table {
        title: "ρ = τ / d of each volume, for each shape of this lesson".to_string(),
        header,
        rows,
    }
}
