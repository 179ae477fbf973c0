//! The format's ranges: every value the loader accepts can be simulated sensibly, and
//! each fault found by fuzzing the release binary is refused at load with its place.
//! Each regression test is named after the fault it pins.

use collision_lab::scene::{self, SceneError, SceneProblem, TextPosition};

/// A ground and a box, with `{box}` replaced by extra fields of the box (body 1, line 5)
/// and `{top}` by extra top-level fields (line 2).
const TEMPLATE: &str = "(version: 1,
    {top}
    bodies: [
        (name: \"ground\", kind: Static, shape: Polygon(points: [(-5.0, -0.5), (5.0, -0.5), (5.0, 0.5), (-5.0, 0.5)]), position: (0.0, -0.5)),
        (name: \"box\", shape: Polygon(points: [(-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)]), {box}),
    ],
)";

fn scene_text(top: &str, body: &str) -> String {
    TEMPLATE.replace("{top}", top).replace("{box}", body)
}

fn refused(top: &str, body: &str) -> SceneError {
    match scene::parse(&scene_text(top, body), "fault.ron") {
        Ok(_) => panic!("accepted: top {top:?}, box {body:?}"),
        Err(e) => e,
    }
}

/// The error is an out-of-range `field` in the box (body 1), pointing at the field's
/// value on line 5, and its message says the rule.
fn assert_box_field(e: &SceneError, field: &str, message: &str) {
    assert!(
        matches!(&e.problem, SceneProblem::InvalidValue { field: f, .. } if *f == field),
        "{e}"
    );
    assert_eq!(
        e.body.as_ref().map(|b| (b.index, b.name.as_deref())),
        Some((1, Some("box")))
    );
    let TextPosition { line, column } = e.position.expect("a position");
    assert_eq!(line, 5, "{e}");
    let text_line = scene_text("", "").lines().nth(4).map(str::len).unwrap_or(0);
    assert!(column > text_line - 5, "points at the value, not the body: {e}");
    assert!(e.to_string().starts_with("fault.ron:5:"), "{e}");
    assert!(e.to_string().contains(message), "{e}");
}

#[test]
fn the_template_loads() {
    scene::parse(&scene_text("", "position: (0.0, 11.0)"), "ok.ron").expect("loads");
}

/// Density 1e36 on a 20 × 20 box: the mass overflowed and the box fell through the
/// ground to y = −112 m, reported by nothing.
#[test]
fn regression_density_1e36_overflows_the_mass() {
    let e = refused("", "density: 1e36");
    assert_box_field(&e, "density", "density must be in [1e-3, 1e6] kg/m², got 1e36");
    let e = refused("", "density: 1e35");
    assert_box_field(&e, "density", "got 1e35");
}

/// Density 1e-45, a subnormal: the body was removed after one step.
#[test]
fn regression_subnormal_density_1e_45_is_removed_after_one_step() {
    let e = refused("", "density: 1e-45");
    assert_box_field(&e, "density", "density must be in [1e-3, 1e6] kg/m², got 1e-45");
}

/// Friction 2e19 overflowed the friction bound and the solver panicked (the solver no
/// longer panics; the file is refused before it gets there).
#[test]
fn regression_friction_2e19_panicked_the_solver() {
    let e = refused("", "friction: 2e19");
    assert_box_field(&e, "friction", "friction must be in [0, 10], got 2e19");
}

/// Gravity (0, −1e6): bodies ended 1.2e7 m away.
#[test]
fn regression_gravity_minus_1e6_flings_bodies_away() {
    let e = refused("gravity: (0.0, -1e6),", "");
    assert_eq!(e.position, Some(TextPosition { line: 2, column: 14 }), "{e}");
    assert!(e.body.is_none());
    assert_eq!(
        e.to_string(),
        "fault.ron:2:14: gravity must be at most 1000 m/s² long, got (0.0, -1000000.0)"
    );
    // The length counts, not each axis alone.
    refused("gravity: (800.0, -800.0),", "");
}

/// A body 1e6 m out: f32 resolves it to 6 cm, far coarser than the contact slop.
#[test]
fn regression_coordinates_beyond_1e5_metres() {
    let e = refused("", "position: (1e6, 0.0)");
    assert_box_field(
        &e,
        "position",
        "position must be within ±1e5 m on each axis, got (1000000.0, 0.0)",
    );
    let e = refused("", "position: (0.0, -100001.0)");
    assert_box_field(&e, "position", "got (0.0, -100001.0)");
}

/// A polygon drawn 1e6 m from its body's origin: each save moved the body (0.3 became
/// 0.3125) through the centre-of-mass round trip.
#[test]
fn regression_polygon_drawn_1e6_from_its_origin() {
    let text = TEMPLATE
        .replace("{top}", "")
        .replace("(-10.0, -10.0), (10.0, -10.0)", "(999990.0, -10.0), (1000010.0, -10.0)")
        .replace("(10.0, 10.0), (-10.0, 10.0)", "(1000010.0, 10.0), (999990.0, 10.0)")
        .replace("{box}", "position: (-1e6, 0.0)");
    let e = scene::parse(&text, "fault.ron").expect_err("refused");
    assert_eq!(e.position.map(|p| p.line), Some(5));
    assert!(
        e.to_string()
            .contains("polygon point must be within ±1e4 m of the body's origin on each axis, got (999990.0, -10.0)"),
        "{e}"
    );
}

/// Circle(radius: 2e9) made the spatial hash abort (see tests/broad.rs for the grid's
/// own fix); the file is refused first.
#[test]
fn regression_circle_radius_2e9_aborted_the_spatial_hash() {
    let text = "(version: 1, settings: (broad_phase: SpatialHash), bodies: [
        (shape: Circle(radius: 2e9)),
        (shape: Circle(radius: 0.5), position: (3.0, 0.0)),
        (shape: Circle(radius: 0.5), position: (5.0, 0.0)),
    ])";
    let e = scene::parse(text, "huge.ron").expect_err("refused");
    assert_eq!(
        e.to_string(),
        "huge.ron:2:32: body 0: radius must be in [1e-3, 1e4] m, got 2000000000.0"
    );
}

#[test]
fn tiny_shapes_and_wild_speeds_are_refused() {
    let circle_loads = |r: &str| {
        let text = format!("(version: 1, bodies: [(shape: Circle(radius: {r}))])");
        scene::parse(&text, "c.ron").is_ok()
    };
    assert!(!circle_loads("1e-4"));
    assert!(circle_loads("0.001"));
    assert!(circle_loads("10000.0"));

    let sliver = "(version: 1, bodies: [(shape: Segment(a: (0.0, 0.0), b: (0.0002, 0.0003)))])";
    let e = scene::parse(sliver, "s.ron").expect_err("too small");
    assert!(e.to_string().contains("segment must be at least 1e-3 m across"), "{e}");

    let e = refused("", "linear_velocity: (0.0, -2e4)");
    assert_box_field(&e, "linear_velocity", "within ±1e4 m/s");
    let e = refused("", "angular_velocity: 1e5");
    assert_box_field(&e, "angular_velocity", "within ±1e4 rad/s");
}

#[test]
fn the_ends_of_every_range_are_accepted() {
    for (top, body) in [
        ("", "density: 1e-3"),
        ("", "density: 1e6"),
        ("", "friction: 0.0"),
        ("", "friction: 10.0"),
        ("", "restitution: 1.0"),
        ("gravity: (0.0, -1000.0),", ""),
        ("gravity: (600.0, 800.0),", ""),
        ("", "position: (100000.0, -100000.0)"),
        ("", "linear_velocity: (1e4, -1e4), angular_velocity: -1e4"),
    ] {
        if let Err(e) = scene::parse(&scene_text(top, body), "edge.ron") {
            panic!("{top} {body}: {e}");
        }
    }
}

#[test]
fn lesson_presets_are_held_to_the_same_coordinates() {
    let text = "(version: 1, bodies: [
        (shape: Circle(radius: 0.5)),
        (shape: Circle(radius: 0.5), position: (2.0, 0.0)),
    ], lesson: (number: 1, title: \"t\", presets: [
        (name: \"far\", bodies: [(body: 1, position: (2e5, 0.0))]),
    ]))";
    let e = scene::parse(text, "l.ron").expect_err("refused");
    assert_eq!(e.position, Some(TextPosition { line: 5, column: 52 }), "{e}");
    assert!(e.to_string().contains("position must be within ±1e5 m"), "{e}");
}

/// What the library builds from a definition keeps any finite value (the solver is
/// tested with them); only files, in and out, are held to the ranges.
#[test]
fn definitions_keep_any_finite_value_but_saves_refuse_them() {
    let mut def = scene::parse(&scene_text("", ""), "ok.ron").expect("loads").into_def();
    def.bodies[1].friction = 2e19;
    let scene = scene::Scene::from_def(def.clone()).expect("the library accepts it");
    assert_eq!(scene.len(), 2);
    let path = std::env::temp_dir().join(format!("collision-lab-ranges-{}.ron", std::process::id()));
    let e = scene::save(&path, &def).expect_err("a file must load again");
    assert!(e.to_string().contains("friction must be in [0, 10]"), "{e}");
    assert!(!path.exists());
}

/// The kill distance: a body this far outside the scene is removed; below a metre bodies
/// at the scene's edge would vanish, beyond 2e5 m they could not be saved.
#[test]
fn kill_distance_outside_its_range_is_refused_and_the_default_is_100_m() {
    let loaded = scene::parse(&scene_text("", ""), "fine.ron").expect("loads");
    assert_eq!(loaded.def().settings.kill_distance, 100.0);
    for bad in ["0.5", "3e5", "inf"] {
        let e = refused(&format!("settings: (kill_distance: {bad}),"), "");
        assert!(e.to_string().contains("kill_distance"), "{bad}: {e}");
        assert!(e.to_string().contains("1..=2e5"), "{bad}: {e}");
    }
    let kept = scene::parse(&scene_text("settings: (kill_distance: 20.0),", ""), "near.ron").expect("loads");
    assert_eq!(kept.def().settings.kill_distance, 20.0);
}
