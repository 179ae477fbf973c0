//! The format's ranges: what a file may ask for and still be simulated sensibly.
//!
//! `build` checks that every value means something (finite numbers, a simple polygon);
//! this pass checks that the simulation can carry it in f32 without overflowing a mass,
//! losing a contact to rounding or flinging bodies out of the world. Each range is a
//! constant in [`super::def`] with its reason; the README's format tables repeat them.
//!
//! It runs where files come in and go out ([`super::parse`], [`super::load`](fn@super::load),
//! [`super::save`](fn@super::save)), not in [`super::Scene::from_def`]: the library itself stays usable
//! (and is tested) with any finite value, while a file promises a scene that behaves.

use super::build::{at_body, check_rule, BodyResult, BuildError};
use super::def::{
    BodyDef, SceneDef, ShapeDef, DENSITY_RANGE, FRICTION_RANGE, MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_GRAVITY,
    MAX_LOCAL_COORDINATE, MAX_SPEED, MIN_SHAPE_SIZE,
};
use super::error::SceneProblem;
use super::locate::Step;
use crate::math::Point;

// The rules are written out so that messages show the numbers the constants hold; the
// unit test at the bottom keeps the two in step.
const GRAVITY_RULE: &str = "at most 1000 m/s² long";
const POSITION_RULE: &str = "within ±1e5 m on each axis";
const LOCAL_POINT_RULE: &str = "within ±1e4 m of the body's origin on each axis";
const SPEED_RULE: &str = "within ±1e4 m/s on each axis";
const ANGULAR_SPEED_RULE: &str = "within ±1e4 rad/s";
const DENSITY_RULE: &str = "in [1e-3, 1e6] kg/m²";
const FRICTION_RULE: &str = "in [0, 10]";
const RADIUS_RULE: &str = "in [1e-3, 1e4] m";
const SIZE_RULE: &str = "at least 1e-3 m across";

/// Checks the ranges of every value of `def`, which `build` has already accepted.
pub(crate) fn check_ranges(def: &SceneDef) -> Result<(), BuildError> {
    let g = def.gravity;
    // Finite already (`build`); the length in f64 so that (3e38, 3e38) does not overflow.
    if f64::from(g.0).hypot(f64::from(g.1)) > f64::from(MAX_GRAVITY) {
        return Err(BuildError {
            body: None,
            path: vec![Step::Field("gravity")],
            problem: point_problem("gravity", g, GRAVITY_RULE),
        });
    }
    for (index, body) in def.bodies.iter().enumerate() {
        check_body(body).map_err(|(sub_path, problem)| at_body(index, sub_path, problem))?;
    }
    let Some(lesson) = &def.lesson else {
        return Ok(());
    };
    for (p, preset) in lesson.presets.iter().enumerate() {
        for (o, over) in preset.bodies.iter().enumerate() {
            let in_lesson = |sub_path: Vec<Step<'static>>, problem| {
                let mut path = vec![
                    Step::Field("lesson"),
                    Step::Field("presets"),
                    Step::Index(p),
                    Step::Field("bodies"),
                    Step::Index(o),
                ];
                path.extend(sub_path);
                BuildError {
                    body: None,
                    path,
                    problem,
                }
            };
            if let Some(position) = over.position {
                within("position", position, MAX_COORDINATE, POSITION_RULE)
                    .map_err(|problem| in_lesson(vec![Step::Field("position")], problem))?;
            }
            if let Some(points) = &over.points {
                check_polygon(points).map_err(|(sub_path, problem)| in_lesson(sub_path, problem))?;
            }
        }
    }
    Ok(())
}

/// One body's ranges; the error's path is relative to the body.
fn check_body(body: &BodyDef) -> BodyResult<()> {
    let at = |field: &'static str| move |problem| (vec![Step::Field(field)], problem);
    check_shape(&body.shape).map_err(|(sub_path, problem)| {
        let mut path = vec![Step::Field("shape")];
        path.extend(sub_path);
        (path, problem)
    })?;
    within("position", body.position, MAX_COORDINATE, POSITION_RULE).map_err(at("position"))?;
    within("linear_velocity", body.linear_velocity, MAX_SPEED, SPEED_RULE).map_err(at("linear_velocity"))?;
    check_rule("angular_velocity", body.angular_velocity, ANGULAR_SPEED_RULE, |w| {
        w.abs() <= MAX_ANGULAR_SPEED
    })
    .map_err(at("angular_velocity"))?;
    check_rule("density", body.density, DENSITY_RULE, |d| DENSITY_RANGE.contains(&d)).map_err(at("density"))?;
    check_rule("friction", body.friction, FRICTION_RULE, |f| {
        FRICTION_RANGE.contains(&f)
    })
    .map_err(at("friction"))?;
    Ok(())
}

/// A shape's size and the reach of its points; the path is relative to the shape.
fn check_shape(shape: &ShapeDef) -> BodyResult<()> {
    match shape {
        ShapeDef::Circle { radius } => check_rule("radius", *radius, RADIUS_RULE, |r| {
            (MIN_SHAPE_SIZE..=MAX_LOCAL_COORDINATE).contains(&r)
        })
        .map_err(|problem| (vec![Step::Field("radius")], problem)),
        ShapeDef::Polygon { points } => check_polygon(points),
        ShapeDef::Segment { a, b } => {
            for (field, p) in [("a", *a), ("b", *b)] {
                within("segment end point", p, MAX_LOCAL_COORDINATE, LOCAL_POINT_RULE)
                    .map_err(|problem| (vec![Step::Field(field)], problem))?;
            }
            check_size("segment", &[*a, *b])
        }
    }
}

/// A polygon's points (path `points[i]`) and size (the shape itself).
fn check_polygon(points: &[Point]) -> BodyResult<()> {
    for (i, &p) in points.iter().enumerate() {
        within("polygon point", p, MAX_LOCAL_COORDINATE, LOCAL_POINT_RULE)
            .map_err(|problem| (vec![Step::Field("points"), Step::Index(i)], problem))?;
    }
    check_size("polygon", points)
}

/// The longest side of the points' bounding box must reach [`MIN_SHAPE_SIZE`].
fn check_size(what: &'static str, points: &[Point]) -> BodyResult<()> {
    let span = |coordinate: fn(&Point) -> f32| {
        let (lo, hi) = points
            .iter()
            .map(coordinate)
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        hi - lo
    };
    let size = span(|p| p.0).max(span(|p| p.1));
    check_rule(what, size, SIZE_RULE, |s| s >= MIN_SHAPE_SIZE).map_err(|problem| (Vec::new(), problem))
}

fn within(field: &'static str, p: Point, limit: f32, rule: &'static str) -> Result<(), SceneProblem> {
    if p.0.abs() <= limit && p.1.abs() <= limit {
        Ok(())
    } else {
        Err(point_problem(field, p, rule))
    }
}

fn point_problem(field: &'static str, p: Point, rule: &'static str) -> SceneProblem {
    SceneProblem::InvalidValue {
        field,
        value: format!("({:?}, {:?})", p.0, p.1),
        rule,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers written in the rules are the constants' numbers.
    #[test]
    fn rules_name_the_constants() {
        let numbers = |rule: &str| -> Vec<f32> {
            rule.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .filter_map(|word| word.trim_start_matches('-').parse().ok())
                .collect()
        };
        for (rule, limits) in [
            (DENSITY_RULE, vec![*DENSITY_RANGE.start(), *DENSITY_RANGE.end()]),
            (FRICTION_RULE, vec![*FRICTION_RANGE.start(), *FRICTION_RANGE.end()]),
            (GRAVITY_RULE, vec![MAX_GRAVITY]),
            (POSITION_RULE, vec![MAX_COORDINATE]),
            (LOCAL_POINT_RULE, vec![MAX_LOCAL_COORDINATE]),
            (SPEED_RULE, vec![MAX_SPEED]),
            (ANGULAR_SPEED_RULE, vec![MAX_ANGULAR_SPEED]),
            (RADIUS_RULE, vec![MIN_SHAPE_SIZE, MAX_LOCAL_COORDINATE]),
            (SIZE_RULE, vec![MIN_SHAPE_SIZE]),
        ] {
            assert_eq!(numbers(rule), limits, "{rule}");
        }
    }
}
