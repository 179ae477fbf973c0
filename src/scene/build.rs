//! From definitions to runtime shapes: every check a scene must pass beyond its syntax.
//!
//! Each check names the path of the value it rejects, relative to the body
//! (`shape.radius`, `position`), so the loader can point at it in the text.

use super::def::{
    BodyDef, SceneDef, SettingsDef, ShapeDef, KILL_DISTANCE_RANGE_M, RATE_RANGE_HZ, SUBSTEPS_RANGE,
    VELOCITY_ITERATIONS_RANGE,
};
use super::error::SceneProblem;
use super::lesson_def::{KnobsDef, LessonDef, ITERATION_CAP_RANGE};
use super::locate::Step;
use super::state_def::{StateDef, MAX_POINTS_PER_PAIR};
use crate::geometry::{PolygonError, Shape, ShapeDesc, ShapeError};
use crate::math::Point;

/// A rejected value: where it is (path from the scene's root) and what is wrong.
#[derive(Debug)]
pub(crate) struct BuildError {
    /// Index of the body, when the problem is inside one.
    pub body: Option<usize>,
    /// Path from the root value of the file to the offending value.
    pub path: Vec<Step<'static>>,
    /// What is wrong.
    pub problem: SceneProblem,
}

/// Checks every value of `def` and builds the bodies' shapes, in body order.
pub(crate) fn build_shapes(def: &SceneDef) -> Result<Vec<Shape>, BuildError> {
    check_finite_point("gravity", def.gravity).map_err(|problem| BuildError {
        body: None,
        path: vec![Step::Field("gravity")],
        problem,
    })?;
    check_settings(&def.settings).map_err(|(field, problem)| BuildError {
        body: None,
        path: vec![Step::Field("settings"), Step::Field(field)],
        problem,
    })?;
    let shapes = def
        .bodies
        .iter()
        .enumerate()
        .map(|(index, body)| build_body(body).map_err(|(sub_path, problem)| at_body(index, sub_path, problem)))
        .collect::<Result<Vec<Shape>, BuildError>>()?;
    if let Some(lesson) = &def.lesson {
        check_lesson(lesson, def).map_err(in_block("lesson"))?;
    }
    if let Some(state) = &def.state {
        check_state(state).map_err(in_block("state"))?;
    }
    Ok(shapes)
}

/// The error of a check on the top-level block `name`, whose path is relative to it.
fn in_block(name: &'static str) -> impl Fn((Vec<Step<'static>>, SceneProblem)) -> BuildError {
    move |(sub_path, problem)| {
        let mut path = vec![Step::Field(name)];
        path.extend(sub_path);
        BuildError {
            body: None,
            path,
            problem,
        }
    }
}

/// The error for `problem` at `sub_path` inside body `index`.
pub(super) fn at_body(index: usize, sub_path: Vec<Step<'static>>, problem: SceneProblem) -> BuildError {
    let mut path = vec![Step::Field("bodies"), Step::Index(index)];
    path.extend(sub_path);
    BuildError {
        body: Some(index),
        path,
        problem,
    }
}

/// Checks a lesson block against the scene's bodies; the error's path is relative to
/// the block.
fn check_lesson(lesson: &LessonDef, def: &SceneDef) -> BodyResult<()> {
    let count = def.bodies.len();
    let field = |f: &'static str| move |problem| (vec![Step::Field(f)], problem);
    check_count("number", lesson.number, "at least 1", |n| n >= 1).map_err(field("number"))?;
    if lesson.title.trim().is_empty() {
        return Err((vec![Step::Field("title")], not_empty("title")));
    }
    // The pair names the two bodies of a narrow-phase lesson; other topics use every body.
    let pairs: &[usize] = if lesson.topic.is_narrow() {
        &[lesson.pair.0, lesson.pair.1]
    } else {
        &[]
    };
    for (k, &index) in pairs.iter().enumerate() {
        if index >= count {
            return Err((
                vec![Step::Field("pair"), Step::Index(k)],
                SceneProblem::NoSuchBody { index, count },
            ));
        }
    }
    if lesson.topic.is_narrow() && lesson.pair.0 == lesson.pair.1 {
        return Err((
            vec![Step::Field("pair")],
            SceneProblem::InvalidLesson {
                message: format!("pair must name two different bodies, got ({0}, {0})", lesson.pair.0),
            },
        ));
    }
    for (p, preset) in lesson.presets.iter().enumerate() {
        let at_preset = |sub: Vec<Step<'static>>| {
            let mut path = vec![Step::Field("presets"), Step::Index(p)];
            path.extend(sub);
            path
        };
        if preset.name.trim().is_empty() {
            return Err((at_preset(vec![Step::Field("name")]), not_empty("preset name")));
        }
        for (o, over) in preset.bodies.iter().enumerate() {
            let at = |f: &'static str| at_preset(vec![Step::Field("bodies"), Step::Index(o), Step::Field(f)]);
            if over.body >= count {
                return Err((
                    at("body"),
                    SceneProblem::NoSuchBody {
                        index: over.body,
                        count,
                    },
                ));
            }
            if let Some(position) = over.position {
                check_finite_point("position", position).map_err(|p| (at("position"), p))?;
            }
            if let Some(angle) = over.angle {
                check_finite("angle", angle).map_err(|p| (at("angle"), p))?;
            }
            if let Some(points) = &over.points {
                if !matches!(def.bodies[over.body].shape, ShapeDef::Polygon { .. }) {
                    return Err((
                        at("points"),
                        SceneProblem::InvalidLesson {
                            message: format!(
                                "preset {:?} gives points to body {}, which is not a polygon",
                                preset.name, over.body
                            ),
                        },
                    ));
                }
                build_shape(&ShapeDef::Polygon { points: points.clone() }).map_err(|(sub, problem)| {
                    let mut path = at("points");
                    path.extend(sub.into_iter().skip(1));
                    (path, problem)
                })?;
            }
        }
    }
    check_knobs(&lesson.knobs).map_err(|(f, problem)| (vec![Step::Field("knobs"), Step::Field(f)], problem))
}

/// Checks that a state block is whole in itself: every number finite, each slot used
/// once, contacts naming its own bodies in order with unit normals. Whether it still
/// belongs to the file's bodies (they may have been edited since) is the world's call
/// when it builds them; the error's path is relative to the block.
fn check_state(state: &StateDef) -> BodyResult<()> {
    let invalid = |path: Vec<Step<'static>>, message: String| (path, SceneProblem::InvalidState { message });
    if !(state.time.is_finite() && state.time >= 0.0) {
        return Err(invalid(
            vec![Step::Field("time")],
            format!("time must be finite and at least 0, got {:?}", state.time),
        ));
    }
    if let Some((min, max)) = state.scene_box {
        let finite = [min.0, min.1, max.0, max.1].iter().all(|x| x.is_finite());
        if !finite || min.0 > max.0 || min.1 > max.1 {
            return Err(invalid(
                vec![Step::Field("scene_box")],
                format!(
                    "scene_box must be finite with min ≤ max, got (({:?}, {:?}), ({:?}, {:?}))",
                    min.0, min.1, max.0, max.1
                ),
            ));
        }
    }
    let slot_count = state.bodies.len() + state.free_slots.len();
    let mut used = vec![false; slot_count];
    let mut claim = |slot: u32, path: Vec<Step<'static>>| match used.get_mut(slot as usize) {
        Some(seen) if !*seen => {
            *seen = true;
            Ok(())
        }
        Some(_) => Err(invalid(path, format!("slot {slot} is used twice"))),
        None => Err(invalid(
            path,
            format!("slot {slot} is beyond the {slot_count} slots of the bodies and free slots"),
        )),
    };
    let mut last_slot = None;
    for (i, body) in state.bodies.iter().enumerate() {
        let at = |f: &'static str| vec![Step::Field("bodies"), Step::Index(i), Step::Field(f)];
        if last_slot.is_some_and(|last| body.slot <= last) {
            return Err(invalid(
                at("slot"),
                "slots must increase with the body's index".to_string(),
            ));
        }
        last_slot = Some(body.slot);
        claim(body.slot, at("slot"))?;
        for (name, p) in [("center", body.center), ("velocity", body.velocity)] {
            check_finite_point(name, p).map_err(|problem| (at(name), problem))?;
        }
        for (name, x) in [("angle", body.angle), ("spin", body.spin)] {
            check_finite(name, x).map_err(|problem| (at(name), problem))?;
        }
        check_rule("rest_time", body.rest_time, "finite and at least 0", |t| {
            t.is_finite() && t >= 0.0
        })
        .map_err(|problem| (at("rest_time"), problem))?;
        if let Some((center, angle)) = body.rest_from {
            check_finite_point("rest_from", center)
                .and_then(|()| check_finite("rest_from", angle))
                .map_err(|problem| (at("rest_from"), problem))?;
        }
        if let Some(island) = body.island.filter(|&k| k as usize >= slot_count) {
            return Err(invalid(at("island"), format!("island {island} names no slot")));
        }
    }
    for (k, &(slot, _)) in state.free_slots.iter().enumerate() {
        claim(slot, vec![Step::Field("free_slots"), Step::Index(k)])?;
    }
    let mut last_pair = None;
    for (k, pair) in state.contacts.iter().enumerate() {
        let at = |sub: Vec<Step<'static>>| {
            let mut path = vec![Step::Field("contacts"), Step::Index(k)];
            path.extend(sub);
            path
        };
        let (a, b) = pair.bodies;
        let count = state.bodies.len();
        if a >= count || b >= count || a == b {
            return Err(invalid(
                at(vec![Step::Field("bodies")]),
                format!("a contact must name two different bodies of the {count}, got ({a}, {b})"),
            ));
        }
        if last_pair.is_some_and(|last| pair.bodies <= last) {
            return Err(invalid(
                at(vec![Step::Field("bodies")]),
                "contacts must be sorted by their bodies, each pair once".to_string(),
            ));
        }
        last_pair = Some(pair.bodies);
        if pair.points.is_empty() || pair.points.len() > MAX_POINTS_PER_PAIR {
            return Err(invalid(
                at(vec![Step::Field("points")]),
                format!(
                    "a contact has 1 to {MAX_POINTS_PER_PAIR} points, got {}",
                    pair.points.len()
                ),
            ));
        }
        for (j, point) in pair.points.iter().enumerate() {
            let at_point = |f: &'static str| at(vec![Step::Field("points"), Step::Index(j), Step::Field(f)]);
            for (name, p) in [
                ("normal", point.normal),
                ("local_a", point.local_a),
                ("local_b", point.local_b),
                ("stick_a", point.stick_a),
                ("stick_b", point.stick_b),
            ] {
                check_finite_point(name, p).map_err(|problem| (at_point(name), problem))?;
            }
            for (name, x) in [
                ("separation", point.separation),
                ("relative_angle", point.relative_angle),
                ("normal_impulse", point.normal_impulse),
                ("tangent_impulse", point.tangent_impulse),
            ] {
                check_finite(name, x).map_err(|problem| (at_point(name), problem))?;
            }
            let length = point.normal.0.hypot(point.normal.1);
            if (length - 1.0).abs() > 1e-3 {
                return Err(invalid(
                    at_point("normal"),
                    format!("a contact normal must be unit length, got length {length}"),
                ));
            }
        }
    }
    Ok(())
}

/// Checks the narrow-phase knobs; the error names the knob.
fn check_knobs(knobs: &KnobsDef) -> Result<(), (&'static str, SceneProblem)> {
    if let Some(t) = knobs.touch_tolerance {
        check_rule("touch_tolerance", t, "finite and at least 0", |t| {
            t.is_finite() && t >= 0.0
        })
        .map_err(|p| ("touch_tolerance", p))?;
    }
    for (name, value) in [("gjk_epsilon", knobs.gjk_epsilon), ("epa_epsilon", knobs.epa_epsilon)] {
        if let Some(e) = value {
            check_rule(name, e, "positive and finite", |e| e.is_finite() && e > 0.0).map_err(|p| (name, p))?;
        }
    }
    for (name, value) in [
        ("gjk_max_iterations", knobs.gjk_max_iterations),
        ("epa_max_iterations", knobs.epa_max_iterations),
    ] {
        if let Some(n) = value {
            check_count(name, n, "in 1..=1000", |n| ITERATION_CAP_RANGE.contains(&n)).map_err(|p| (name, p))?;
        }
    }
    if let Some(d) = knobs.gjk_initial_direction {
        let finite = d.0.is_finite() && d.1.is_finite();
        if !finite || (d.0 == 0.0 && d.1 == 0.0) {
            return Err((
                "gjk_initial_direction",
                SceneProblem::InvalidValue {
                    field: "gjk_initial_direction",
                    value: format!("({:?}, {:?})", d.0, d.1),
                    rule: "finite and not zero",
                },
            ));
        }
    }
    Ok(())
}

fn not_empty(field: &'static str) -> SceneProblem {
    SceneProblem::InvalidValue {
        field,
        value: "\"\"".to_string(),
        rule: "not empty",
    }
}

/// Checks the numbers of the scene's settings; the error names the field.
fn check_settings(settings: &SettingsDef) -> Result<(), (&'static str, SceneProblem)> {
    // Written out so the messages show the same ranges the constants hold.
    check_rule("rate", settings.rate, "finite and in 1..=1000 (Hz)", |r| {
        r.is_finite() && RATE_RANGE_HZ.contains(&r)
    })
    .map_err(|p| ("rate", p))?;
    check_count("substeps", settings.substeps, "in 1..=64", |n| {
        SUBSTEPS_RANGE.contains(&n)
    })
    .map_err(|p| ("substeps", p))?;
    check_count("velocity_iterations", settings.velocity_iterations, "in 1..=100", |n| {
        VELOCITY_ITERATIONS_RANGE.contains(&n)
    })
    .map_err(|p| ("velocity_iterations", p))?;
    check_count(
        "projection_iterations",
        settings.projection_iterations,
        "in 1..=100",
        |n| VELOCITY_ITERATIONS_RANGE.contains(&n),
    )
    .map_err(|p| ("projection_iterations", p))?;
    check_rule(
        "kill_distance",
        settings.kill_distance,
        "finite and in 1..=2e5 (m)",
        |d| d.is_finite() && KILL_DISTANCE_RANGE_M.contains(&d),
    )
    .map_err(|p| ("kill_distance", p))?;
    Ok(())
}

pub(super) type BodyResult<T> = Result<T, (Vec<Step<'static>>, SceneProblem)>;

/// Checks one body's numbers and builds its shape.
pub(super) fn build_body(body: &BodyDef) -> BodyResult<Shape> {
    let at = |field: &'static str| move |problem| (vec![Step::Field(field)], problem);
    let shape = build_shape(&body.shape).map_err(|(sub_path, problem)| {
        let mut path = vec![Step::Field("shape")];
        path.extend(sub_path);
        (path, problem)
    })?;
    check_finite_point("position", body.position).map_err(at("position"))?;
    check_finite("angle", body.angle).map_err(at("angle"))?;
    check_finite_point("linear_velocity", body.linear_velocity).map_err(at("linear_velocity"))?;
    check_finite("angular_velocity", body.angular_velocity).map_err(at("angular_velocity"))?;
    check_rule("density", body.density, "positive and finite", |d| {
        d.is_finite() && d > 0.0
    })
    .map_err(at("density"))?;
    check_rule("friction", body.friction, "finite and at least 0", |f| {
        f.is_finite() && f >= 0.0
    })
    .map_err(at("friction"))?;
    check_rule("restitution", body.restitution, "in [0, 1]", |r| {
        (0.0..=1.0).contains(&r)
    })
    .map_err(at("restitution"))?;
    Ok(shape)
}

/// Builds a shape, pointing at the value inside the shape that is wrong when there is
/// one (a vertex, an end point, the radius).
fn build_shape(def: &ShapeDef) -> BodyResult<Shape> {
    if let ShapeDef::Segment { a, b } = def {
        // Checked here rather than by the geometry, whose error does not say which end.
        check_finite_point("segment end point a", *a).map_err(|p| (vec![Step::Field("a")], p))?;
        check_finite_point("segment end point b", *b).map_err(|p| (vec![Step::Field("b")], p))?;
    }
    ShapeDesc::from(def)
        .build()
        .map_err(|e| (path_in_shape(&e), SceneProblem::Shape(e)))
}

/// Where in a shape's definition the geometry's error points; empty for the whole
/// shape (the variant's own position, `Polygon(`, stands for it).
fn path_in_shape(e: &ShapeError) -> Vec<Step<'static>> {
    match e {
        ShapeError::NonFiniteRadius(_) | ShapeError::NonPositiveRadius(_) => vec![Step::Field("radius")],
        ShapeError::Polygon(PolygonError::NonFinite { index, .. }) => {
            vec![Step::Field("points"), Step::Index(*index)]
        }
        _ => Vec::new(),
    }
}

fn check_finite(field: &'static str, value: f32) -> Result<(), SceneProblem> {
    check_rule(field, value, "finite", f32::is_finite)
}

pub(super) fn check_rule(
    field: &'static str,
    value: f32,
    rule: &'static str,
    ok: impl Fn(f32) -> bool,
) -> Result<(), SceneProblem> {
    if ok(value) {
        Ok(())
    } else {
        Err(SceneProblem::InvalidValue {
            field,
            value: format!("{value:?}"),
            rule,
        })
    }
}

fn check_count(
    field: &'static str,
    value: u32,
    rule: &'static str,
    ok: impl Fn(u32) -> bool,
) -> Result<(), SceneProblem> {
    if ok(value) {
        Ok(())
    } else {
        Err(SceneProblem::InvalidValue {
            field,
            value: value.to_string(),
            rule,
        })
    }
}

fn check_finite_point(field: &'static str, p: Point) -> Result<(), SceneProblem> {
    if p.0.is_finite() && p.1.is_finite() {
        Ok(())
    } else {
        Err(SceneProblem::InvalidValue {
            field,
            value: format!("({:?}, {:?})", p.0, p.1),
            rule: "finite",
        })
    }
}
