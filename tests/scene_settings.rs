//! A scene's `settings`: defaults for old files, every field read and checked with a
//! position, the world built from them, and saving them back.

use collision_lab::broad::BroadPhaseKind;
use collision_lab::dynamics::{Resolution, World, WorldSettings};
use collision_lab::math::Vec2;
use collision_lab::narrow::Algorithm;
use collision_lab::scene::{self, ContinuousDef, ResolutionDef, SceneProblem, SettingsDef, TextPosition};

const BODIES: &str = r#"bodies: [
        (name: "ground", kind: Static, shape: Polygon(points: [(-5, -1), (5, -1), (5, 0), (-5, 0)])),
        (shape: Circle(radius: 0.5), position: (0.0, 2.0)),
    ],"#;

/// A two-body scene with `settings` written out as given.
fn scene_with(settings: &str) -> String {
    format!("(\n    version: 1,\n    settings: {settings},\n    {BODIES}\n)\n")
}

#[test]
fn a_file_without_settings_gets_every_documented_default() {
    let scene = scene::parse(&format!("(version: 1, {BODIES})"), "old.ron").expect("loads");
    let s = &scene.def().settings;
    assert_eq!(s.narrow_phase, Algorithm::NonConvexSat);
    assert_eq!(s.broad_phase, BroadPhaseKind::DynamicAabbTree);
    assert_eq!(s.resolution, ResolutionDef::Projection);
    assert_eq!(s.rate, 60.0);
    assert_eq!(s.substeps, 4);
    assert_eq!(s.velocity_iterations, 1);
    assert_eq!(s.projection_iterations, 2);
    assert!(s.sleeping);
    assert_eq!(s.continuous, ContinuousDef::Interpolation);
    assert_eq!(*s, SettingsDef::default());
}

#[test]
fn a_file_with_only_the_first_setting_still_loads() {
    // The form every file had before the other settings existed.
    let scene = scene::parse(&scene_with("(narrow_phase: GjkEpa)"), "v1.ron").expect("loads");
    assert_eq!(
        scene.def().settings,
        SettingsDef {
            narrow_phase: Algorithm::GjkEpa,
            ..SettingsDef::default()
        }
    );
}

#[test]
fn every_setting_is_read() {
    let text = scene_with(
        "(narrow_phase: SatDecomposed, broad_phase: DynamicAabbTree, resolution: Projection, rate: 120.0, \
         substeps: 2, velocity_iterations: 12, projection_iterations: 6, sleeping: false, \
         continuous: ConservativeAdvancement, \
         kill_distance: 250.0)",
    );
    let scene = scene::parse(&text, "all.ron").expect("loads");
    assert_eq!(
        scene.def().settings,
        SettingsDef {
            narrow_phase: Algorithm::SatDecomposed,
            broad_phase: BroadPhaseKind::DynamicAabbTree,
            resolution: ResolutionDef::Projection,
            rate: 120.0,
            substeps: 2,
            velocity_iterations: 12,
            projection_iterations: 6,
            sleeping: false,
            continuous: ContinuousDef::ConservativeAdvancement,
            kill_distance: 250.0,
        }
    );
}

#[test]
fn the_world_takes_what_the_scene_sets() {
    let text = scene_with(
        "(narrow_phase: GjkEpa, broad_phase: SpatialHash, resolution: Projection, substeps: 7, \
         velocity_iterations: 3, projection_iterations: 4)",
    );
    let scene = scene::parse(&text, "world.ron").expect("loads");
    let world = World::from_scene(&scene);
    let s = world.settings();
    assert_eq!(s.narrow_phase, Algorithm::GjkEpa);
    assert_eq!(s.broad_phase, BroadPhaseKind::SpatialHash);
    assert_eq!(s.resolution, Resolution::Projection);
    assert_eq!(s.substeps, 7);
    assert_eq!(s.velocity_iterations, 3);
    assert_eq!(s.projection_iterations, 4);
    assert_eq!(s.gravity, Vec2::new(0.0, -9.81));
    // What no file stores stays at its default.
    let default = WorldSettings::default();
    assert_eq!(s.relax_iterations, default.relax_iterations);
    assert_eq!(s.contact_hertz, default.contact_hertz);
}

#[test]
fn world_settings_and_scene_settings_round_trip() {
    let def = SettingsDef {
        narrow_phase: Algorithm::SatDecomposed,
        broad_phase: BroadPhaseKind::BruteForce,
        resolution: ResolutionDef::Projection,
        rate: 30.0,
        substeps: 16,
        velocity_iterations: 20,
        projection_iterations: 9,
        sleeping: false,
        continuous: ContinuousDef::Off,
        kill_distance: 40.0,
    };
    let world = WorldSettings::from_scene_settings(&def, Vec2::new(1.0, -2.0));
    assert_eq!(world.gravity, Vec2::new(1.0, -2.0));
    assert_eq!(world.to_scene_settings(&def), def);
}

#[test]
fn saving_a_world_writes_its_settings_back() {
    let text = scene_with(
        "(narrow_phase: GjkEpa, broad_phase: BruteForce, resolution: Projection, rate: 50.0, substeps: 3, \
         velocity_iterations: 5, projection_iterations: 7, sleeping: false, continuous: Off)",
    );
    let scene = scene::parse(&text, "save.ron").expect("loads");
    let mut world = World::from_scene(&scene);
    world.step(1.0 / 50.0);
    let saved = world.to_scene_def();
    assert_eq!(saved.settings, scene.def().settings);

    let dir = std::env::temp_dir().join(format!("collision-lab-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("saved.ron");
    scene::save(&path, &saved).expect("saves");
    let again = scene::load(&path).expect("loads again");
    assert_eq!(again.def().settings, scene.def().settings);
    let written = std::fs::read_to_string(&path).expect("saved text");
    for field in [
        "broad_phase: BruteForce",
        "resolution: Projection",
        "rate: 50.0",
        "substeps: 3",
        "velocity_iterations: 5",
        "projection_iterations: 7",
        "sleeping: false",
        "continuous: Off",
    ] {
        assert!(written.contains(field), "{field} missing from:\n{written}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_settings_are_refused_where_they_are_written() {
    // (settings text, what the message says); the value sits on line 3.
    let cases = [
        ("(rate: 0.0)", "rate must be finite and in 1..=1000 (Hz), got 0.0"),
        ("(rate: 1000.5)", "rate must be finite and in 1..=1000 (Hz), got 1000.5"),
        ("(rate: NaN)", "rate must be finite and in 1..=1000 (Hz), got NaN"),
        ("(rate: inf)", "rate must be finite and in 1..=1000 (Hz), got inf"),
        ("(substeps: 0)", "substeps must be in 1..=64, got 0"),
        ("(substeps: 65)", "substeps must be in 1..=64, got 65"),
        (
            "(velocity_iterations: 0)",
            "velocity_iterations must be in 1..=100, got 0",
        ),
        (
            "(velocity_iterations: 101)",
            "velocity_iterations must be in 1..=100, got 101",
        ),
        (
            "(projection_iterations: 0)",
            "projection_iterations must be in 1..=100, got 0",
        ),
        (
            "(projection_iterations: 101)",
            "projection_iterations must be in 1..=100, got 101",
        ),
    ];
    for (settings, message) in cases {
        let e = scene::parse(&scene_with(settings), "bad.ron").expect_err(settings);
        // The settings' `(` is in column 15 (after `    settings: `); the value starts two
        // characters after its field's colon.
        let column = 15 + settings.find(':').expect("a field") + 2;
        assert_eq!(e.position, Some(TextPosition { line: 3, column }), "{settings}: {e}");
        assert!(e.body.is_none(), "{e}");
        assert_eq!(e.to_string(), format!("bad.ron:3:{column}: {message}"), "{settings}");
    }
}

#[test]
fn the_edges_of_the_ranges_are_allowed() {
    for settings in [
        "(rate: 1.0, substeps: 1, velocity_iterations: 1, projection_iterations: 1)",
        "(rate: 1000.0, substeps: 64, velocity_iterations: 100, projection_iterations: 100)",
    ] {
        scene::parse(&scene_with(settings), "edge.ron").unwrap_or_else(|e| panic!("{settings}: {e}"));
    }
}

#[test]
fn unknown_settings_and_values_are_errors() {
    let e = scene::parse(&scene_with("(substep: 2)"), "typo.ron").expect_err("a typo");
    assert!(
        matches!(&e.problem, SceneProblem::UnknownField { field, .. } if field == "substep"),
        "{e}"
    );
    assert_eq!(e.position.map(|p| p.line), Some(3));

    let e = scene::parse(&scene_with("(broad_phase: Octree)"), "variant.ron").expect_err("no octree");
    assert!(
        matches!(&e.problem, SceneProblem::UnknownVariant { found, .. } if found == "Octree"),
        "{e}"
    );
    let e = scene::parse(&scene_with("(continuous: Always)"), "variant.ron").expect_err("no such mode");
    assert!(matches!(&e.problem, SceneProblem::UnknownVariant { .. }), "{e}");
    let e = scene::parse(&scene_with("(substeps: -1)"), "negative.ron").expect_err("negative");
    assert_eq!(e.position.map(|p| p.line), Some(3), "{e}");
    let e = scene::parse(&scene_with("(sleeping: 1)"), "bool.ron").expect_err("not a bool");
    assert_eq!(e.position.map(|p| p.line), Some(3), "{e}");
}

#[test]
fn names_parse_in_any_case() {
    assert_eq!("projection".parse::<ResolutionDef>(), Ok(ResolutionDef::Projection));
    assert_eq!("IMPULSES".parse::<ResolutionDef>(), Ok(ResolutionDef::Impulses));
    assert!("springs".parse::<ResolutionDef>().is_err());
}

/// Sleeping and continuous detection chosen in a file reach the world and come back out.
#[test]
fn sleeping_and_continuous_reach_the_world_and_are_saved() {
    use collision_lab::dynamics::{ContinuousMode, World};
    let text = "(version: 1, settings: (sleeping: false, continuous: ConservativeAdvancement), bodies: [(shape: Circle(radius: 0.5))])";
    let scene = collision_lab::scene::parse(text, "x.ron").expect("valid");
    let world = World::from_scene(&scene);
    assert!(!world.settings().sleeping);
    assert_eq!(world.settings().continuous, ContinuousMode::ConservativeAdvancement);
    let saved = world.to_scene_def();
    assert!(!saved.settings.sleeping);
    assert_eq!(
        saved.settings.continuous,
        collision_lab::scene::ContinuousDef::ConservativeAdvancement
    );
}
