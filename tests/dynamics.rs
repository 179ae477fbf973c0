//! The rigid-body world against textbook physics: free fall and the integrator's known
//! error, momentum and energy in head-on hits, friction on a slope, a 20-layer pyramid,
//! non-convex bodies with every narrow phase, determinism and NaN containment.
//!
//! Numbers each test measures are printed (`cargo test --test dynamics -- --nocapture`).

use collision_lab::broad::BroadPhaseKind;
use collision_lab::dynamics::{BodyHandle, Resolution, World, WorldSettings};
use collision_lab::math::{Point, Vec2};
use collision_lab::narrow::Algorithm;
use collision_lab::scene::{BodyDef, BodyKind, Scene, SceneDef, ShapeDef};
use std::f32::consts::{PI, TAU};
use std::time::Instant;

const DT: f32 = 1.0 / 60.0;

fn polygon(points: &[(f32, f32)]) -> ShapeDef {
    ShapeDef::Polygon {
        points: points.iter().map(|&(x, y)| Point(x, y)).collect(),
    }
}

/// A `w` × `h` box centred on its origin.
fn rect(w: f32, h: f32) -> ShapeDef {
    let (x, y) = (0.5 * w, 0.5 * h);
    polygon(&[(-x, -y), (x, -y), (x, y), (-x, y)])
}

fn body(shape: ShapeDef, x: f32, y: f32) -> BodyDef {
    let mut b = BodyDef::new(shape);
    b.position = Point(x, y);
    b
}

/// Static ground: a 60 m × 1 m box whose top is y = 0.
fn ground() -> BodyDef {
    let mut g = body(rect(60.0, 1.0), 0.0, -0.5);
    g.kind = BodyKind::Static;
    g.name = Some("ground".into());
    g
}

fn world(bodies: Vec<BodyDef>, settings: WorldSettings) -> (World, Vec<BodyHandle>) {
    let scene = Scene::from_def(SceneDef {
        bodies,
        ..SceneDef::default()
    })
    .expect("valid test scene");
    let world = World::from_scene_with(&scene, settings);
    let handles = world.bodies().handles();
    (world, handles)
}

fn zero_g() -> WorldSettings {
    WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    }
}

#[test]
fn free_fall_follows_the_parabola_within_semi_implicit_eulers_error() {
    let settings = WorldSettings::default();
    let (mut w, h) = world(vec![body(ShapeDef::Circle { radius: 0.5 }, 0.0, 100.0)], settings);
    let steps = 60;
    for _ in 0..steps {
        w.step(DT);
    }
    let g = 9.81f32;
    let n = (steps * settings.substeps) as f32;
    let sub = DT / settings.substeps as f32;
    let t = n * sub;
    let y = w.body(h[0]).unwrap().pose().translation.y;
    let v = w.body(h[0]).unwrap().linear_velocity().y;
    // Symplectic Euler from rest: v_n = −g·n·h, y_n = y0 − g·h²·n(n+1)/2
    //                                          = y0 − g·t²/2 − g·h·t/2.
    let exact = 100.0 - 0.5 * g * t * t;
    let predicted_error = 0.5 * g * sub * t;
    let discrete = 100.0 - g * sub * sub * n * (n + 1.0) / 2.0;
    println!(
        "free fall t = {t} s: y = {y}, parabola {exact}, error {} (predicted g·h·t/2 = {predicted_error}), v = {v}",
        exact - y
    );
    assert!((y - discrete).abs() < 1e-3, "y {y} vs discrete {discrete}");
    assert!(((exact - y) - predicted_error).abs() < 1e-3);
    assert!((v + g * t).abs() < 1e-3);
}

/// Two discs on a line, no gravity: disc A (r = 0.5) at 3 m/s into disc B (r = 0.8) at
/// −1 m/s. Returns (momentum before, after, energy before, after, vA, vB after).
fn head_on(restitution: f32, resolution: Resolution) -> (f32, f32, f32, f32, f32, f32) {
    let mut a = body(ShapeDef::Circle { radius: 0.5 }, -2.0, 0.0);
    a.linear_velocity = Point(3.0, 0.0);
    a.restitution = restitution;
    let mut b = body(ShapeDef::Circle { radius: 0.8 }, 2.0, 0.0);
    b.linear_velocity = Point(-1.0, 0.0);
    b.restitution = restitution;
    let settings = WorldSettings { resolution, ..zero_g() };
    let (mut w, h) = world(vec![a, b], settings);
    let momentum = |w: &World| -> f32 {
        h.iter()
            .map(|&h| w.body(h).unwrap().mass() * w.body(h).unwrap().linear_velocity().x)
            .sum()
    };
    let (p0, e0) = (momentum(&w), w.kinetic_energy());
    for _ in 0..120 {
        w.step(DT);
    }
    let (va, vb) = (
        w.body(h[0]).unwrap().linear_velocity().x,
        w.body(h[1]).unwrap().linear_velocity().x,
    );
    (p0, momentum(&w), e0, w.kinetic_energy(), va, vb)
}

#[test]
fn head_on_hit_conserves_momentum() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        for e in [0.0, 0.5, 1.0] {
            let (p0, p1, _, _, va, vb) = head_on(e, resolution);
            println!("{resolution:?} e = {e}: momentum {p0} → {p1} (va {va}, vb {vb})");
            assert!(
                (p1 - p0).abs() < 1e-4 * p0.abs().max(1.0),
                "{resolution:?} e {e}: {p0} → {p1}"
            );
            assert!(
                va <= vb + 1e-4,
                "they must have collided and separated or moved together"
            );
        }
    }
}

#[test]
fn restitution_one_keeps_kinetic_energy() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let (_, _, e0, e1, va, vb) = head_on(1.0, resolution);
        println!("{resolution:?} elastic: energy ratio {} (va {va}, vb {vb})", e1 / e0);
        assert!((e1 / e0 - 1.0).abs() < 0.01, "{resolution:?}: energy {e0} → {e1}");
    }
}

#[test]
fn restitution_zero_leaves_them_moving_together() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let (p0, _, e0, e1, va, vb) = head_on(0.0, resolution);
        println!("{resolution:?} inelastic: va {va}, vb {vb}, energy ratio {}", e1 / e0);
        assert!((vb - va).abs() < 0.01, "{resolution:?}: va {va} vb {vb}");
        // Perfectly inelastic: the common velocity is p / (mA + mB).
        let m = PI * (0.25 + 0.64);
        assert!((va - p0 / m).abs() < 0.01);
    }
}

/// A 2 m × 0.5 m box (μ = 0.5 with the ground's 0.5) on flat ground under gravity tilted
/// by `theta`: the same as a slope of angle `theta`. Returns the slide distance in `t` s.
fn slide_on_slope(theta: f32, t: f32) -> f32 {
    let mut g = ground();
    g.friction = 0.5;
    let mut b = body(rect(2.0, 0.5), 0.0, 0.25);
    b.friction = 0.5;
    let settings = WorldSettings {
        gravity: 9.81 * Vec2::new(theta.sin(), -theta.cos()),
        ..WorldSettings::default()
    };
    let (mut w, h) = world(vec![g, b], settings);
    let x0 = w.body(h[1]).unwrap().pose().translation.x;
    for _ in 0..(t / DT).round() as usize {
        w.step(DT);
    }
    w.body(h[1]).unwrap().pose().translation.x - x0
}

#[test]
fn box_on_slope_sticks_below_the_friction_angle_and_slides_above() {
    let mu = 0.5f32;
    let t = 2.0;
    let stick = 20f32.to_radians(); // tan = 0.36 < 0.5
    let slide = 35f32.to_radians(); // tan = 0.70 > 0.5
    let d_stick = slide_on_slope(stick, t);
    let d_slide = slide_on_slope(slide, t);
    // Sliding: a = g (sin θ − μ cos θ), d = a t² / 2.
    let expected = 0.5 * 9.81 * (slide.sin() - mu * slide.cos()) * t * t;
    println!("slope 20°: moved {d_stick} m in {t} s; slope 35°: slid {d_slide} m (textbook {expected} m)");
    assert!(d_stick.abs() < 0.01, "tan θ < μ must stick, moved {d_stick}");
    assert!(
        (d_slide - expected).abs() < 0.1 * expected,
        "slid {d_slide}, expected {expected}"
    );
}

#[test]
fn pyramid_of_twenty_layers_stands_for_ten_seconds() {
    // With sleeping on, the settled pyramid sleeps and holds its pose exactly; the same
    // tolerances must hold with it off, where the solver alone keeps it standing.
    //
    // Impulses are held to stillness after the first second (5 mm). Under position-based
    // projection this pyramid used to keep swaying (±5–15 cm;
    // `regression_projection_pyramid_sways_for_ever` in tests/resolution.rs). It now comes
    // to rest, but more slowly: its boxes start exactly touching, each row sinks through
    // the 5 mm slop onto the one below, and the upper rows take about four seconds to
    // settle (measured: the top box creeps 4.4 cm after the first second, then is still;
    // the shipped pyramid, which starts settled, moves under 1 cm). It is held to the
    // 0.1 m both resolutions once shared.
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let drift_limit = if resolution == Resolution::Impulses { 0.005 } else { 0.1 };
        for sleeping in [true, false] {
            pyramid_of_twenty_layers(
                WorldSettings {
                    sleeping,
                    resolution,
                    ..WorldSettings::default()
                },
                drift_limit,
            );
        }
    }
}

/// `drift_limit` (m): how far the top box may move after the first second (and
/// sideways from where it started, at least 0.1 m).
fn pyramid_of_twenty_layers(settings: WorldSettings, drift_limit: f32) {
    const LAYERS: usize = 20;
    const SPACING: f32 = 1.05; // 1 m boxes with 5 cm gaps in a row
    let mut bodies = vec![ground()];
    for layer in 0..LAYERS {
        let count = LAYERS - layer;
        for j in 0..count {
            let x = (j as f32 - 0.5 * (count - 1) as f32) * SPACING;
            bodies.push(body(rect(1.0, 1.0), x, 0.5 + layer as f32));
        }
    }
    let (mut w, h) = world(bodies, settings);
    let top = *h.last().unwrap();
    let p0 = w.body(top).unwrap().pose().translation;
    let started = Instant::now();
    let mut p1 = p0;
    let steps = (10.0 / DT).round() as usize;
    let mut max_points = 0;
    let mut sleeping = 0;
    for i in 0..steps {
        let report = w.step(DT);
        max_points = max_points.max(report.profile.contact_points);
        sleeping = report.profile.sleeping_bodies;
        if i + 1 == 60 {
            p1 = w.body(top).unwrap().pose().translation;
        }
    }
    let elapsed = started.elapsed();
    let p10 = w.body(top).unwrap().pose().translation;
    println!(
        "pyramid {} boxes ({:?}, sleeping {}: {sleeping} asleep at the end), {steps} steps in {:.2} s ({:.3} ms/step; contact points per step up to {max_points}): \
         top box from start {:?} (|d| {:.4} m), from t = 1 s {:?} (|d| {:.4} m), KE {:.4} J",
        h.len() - 1,
        settings.resolution,
        settings.sleeping,
        elapsed.as_secs_f64(),
        1e3 * elapsed.as_secs_f64() / steps as f64,
        p10 - p0,
        (p10 - p0).length(),
        p10 - p1,
        (p10 - p1).length(),
        w.kinetic_energy()
    );
    assert!(
        (p10 - p1).length() < drift_limit,
        "{:?}: top box drifted {:?} after settling",
        settings.resolution,
        p10 - p1
    );
    // Sideways from the start includes the first second's settling (1 cm with impulses).
    assert!(
        (p10.x - p0.x).abs() < drift_limit.max(0.1),
        "{:?}: top box slid sideways {}",
        settings.resolution,
        p10.x - p0.x
    );
    assert!((p10 - p0).length() < 0.3, "the stack sank {:?}", p10 - p0);
    assert!(w.bodies().len() == h.len());
}

/// Points of the five non-convex test shapes, counter-clockwise, about their origins.
fn non_convex_shapes() -> Vec<(&'static str, Vec<(f32, f32)>)> {
    let star: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let r = if i % 2 == 0 { 0.6 } else { 0.25 };
            let a = i as f32 * TAU / 10.0 + 0.5 * PI;
            (r * a.cos(), r * a.sin())
        })
        .collect();
    // A comb: a spine along the bottom with three teeth pointing up.
    let comb = vec![
        (-0.7, -0.3),
        (0.7, -0.3),
        (0.7, 0.4),
        (0.5, 0.4),
        (0.5, 0.0),
        (0.1, 0.0),
        (0.1, 0.4),
        (-0.1, 0.4),
        (-0.1, 0.0),
        (-0.5, 0.0),
        (-0.5, 0.4),
        (-0.7, 0.4),
    ];
    let l = vec![(0.0, 0.0), (1.0, 0.0), (1.0, 0.3), (0.3, 0.3), (0.3, 1.0), (0.0, 1.0)];
    let u = vec![
        (-0.6, -0.4),
        (0.6, -0.4),
        (0.6, 0.5),
        (0.35, 0.5),
        (0.35, -0.15),
        (-0.35, -0.15),
        (-0.35, 0.5),
        (-0.6, 0.5),
    ];
    // A gear: 6 teeth, each a trapezoid on a hub of radius 0.35 (deep enough that it
    // cannot roll away forever on its tips: every tooth landing costs energy).
    let mut gear = Vec::new();
    let teeth = 6;
    for i in 0..teeth {
        let a0 = i as f32 * TAU / teeth as f32;
        let step = TAU / teeth as f32;
        for (frac, r) in [(0.0, 0.35), (0.2, 0.6), (0.5, 0.6), (0.7, 0.35)] {
            let a = a0 + frac * step;
            gear.push((r * a.cos(), r * a.sin()));
        }
    }
    vec![("star", star), ("comb", comb), ("L", l), ("U", u), ("gear", gear)]
}

#[test]
fn non_convex_bodies_settle_with_every_narrow_phase() {
    for algorithm in Algorithm::ALL {
        let mut bodies = vec![ground()];
        for (i, (_, pts)) in non_convex_shapes().iter().enumerate() {
            let mut b = body(polygon(pts), -6.0 + 3.0 * i as f32, 1.5 + 0.3 * i as f32);
            b.angle = 0.3 * i as f32;
            bodies.push(b);
        }
        // A second row dropped onto the first, so non-convex pairs meet too.
        for (i, (_, pts)) in non_convex_shapes().iter().enumerate() {
            let mut b = body(polygon(pts), -5.7 + 3.0 * i as f32, 3.5);
            b.angle = -0.4 * i as f32;
            bodies.push(b);
        }
        let settings = WorldSettings {
            narrow_phase: algorithm,
            ..WorldSettings::default()
        };
        let (mut w, h) = world(bodies, settings);
        let mut peak = 0.0f32;
        let mut at_2s = 0.0;
        for i in 0..(10.0 / DT) as usize {
            let report = w.step(DT);
            assert!(report.removed.is_empty());
            peak = peak.max(w.kinetic_energy());
            if i + 1 == 120 {
                at_2s = w.kinetic_energy();
            }
        }
        let end = w.kinetic_energy();
        for &hh in &h[1..] {
            let b = w.body(hh).unwrap();
            if b.kinetic_energy() > 1e-4 {
                println!(
                    "  {algorithm}: body {} KE {} v {:?} w {} at {:?}",
                    hh.index,
                    b.kinetic_energy(),
                    b.linear_velocity(),
                    b.angular_velocity(),
                    b.pose().translation
                );
            }
        }
        let lowest = h[1..]
            .iter()
            .map(|&h| w.body(h).unwrap().aabb().min.y)
            .fold(f32::INFINITY, f32::min);
        println!("{algorithm}: kinetic energy peak {peak:.3} J, at 2 s {at_2s:.5} J, at 10 s {end:.3e} J; lowest point {lowest:.4} m");
        assert!(
            at_2s < 0.05 * peak,
            "{algorithm}: energy at 2 s {at_2s} J of peak {peak} J"
        );
        assert!(end < 1e-5 * peak, "{algorithm}: energy {end} J of peak {peak} J");
        assert!(lowest > -0.05, "{algorithm}: a body sank to {lowest}");
    }
}

fn mixed_scene(settings: WorldSettings) -> World {
    let mut bodies = vec![ground()];
    for i in 0..6 {
        bodies.push(body(rect(1.0, 1.0), -2.0 + 0.2 * i as f32, 0.5 + 1.1 * i as f32));
        let mut c = body(
            ShapeDef::Circle { radius: 0.4 },
            2.0 + 0.1 * i as f32,
            0.5 + 0.9 * i as f32,
        );
        c.restitution = 0.4;
        bodies.push(c);
    }
    for (i, (_, pts)) in non_convex_shapes().iter().enumerate() {
        bodies.push(body(polygon(pts), -6.0 + 2.5 * i as f32, 8.0));
    }
    world(bodies, settings).0
}

#[test]
fn same_scene_same_steps_same_bits() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let settings = WorldSettings {
            resolution,
            ..WorldSettings::default()
        };
        let hashes: Vec<u64> = (0..2)
            .map(|_| {
                let mut w = mixed_scene(settings);
                for _ in 0..300 {
                    w.step(DT);
                }
                w.state_hash()
            })
            .collect();
        println!("{resolution:?}: state hash after 300 steps {:016x} twice", hashes[0]);
        assert_eq!(hashes[0], hashes[1]);
        assert_ne!(hashes[0], mixed_scene(settings).state_hash());
    }
}

/// All four broad phases find the same candidate pairs in the same order, so the world
/// they drive is bit-identical; switching mid-run changes nothing either.
#[test]
fn every_broad_phase_gives_the_same_bits() {
    let run = |kinds: &[BroadPhaseKind]| {
        let mut w = mixed_scene(WorldSettings::default());
        for step in 0..240 {
            w.settings_mut().broad_phase = kinds[step * kinds.len() / 240];
            w.step(DT);
        }
        w.state_hash()
    };
    let reference = run(&[BroadPhaseKind::BruteForce]);
    for kind in BroadPhaseKind::ALL {
        assert_eq!(run(&[kind]), reference, "{kind}");
    }
    assert_eq!(run(&BroadPhaseKind::ALL), reference, "switching kinds mid-run");
}

#[test]
fn a_nan_velocity_removes_that_body_and_the_rest_keeps_stepping() {
    let mut w = mixed_scene(WorldSettings::default());
    for _ in 0..60 {
        w.step(DT);
    }
    let victim = w.bodies().handles()[3];
    w.body_mut(victim)
        .unwrap()
        .set_linear_velocity(Vec2::new(f32::NAN, 0.0));
    let before = w.bodies().len();
    let report = w.step(DT);
    assert_eq!(report.removed.len(), 1);
    assert_eq!(report.removed[0].handle, victim);
    assert!(report.removed[0].reason.contains("velocity"));
    assert_eq!(w.bodies().len(), before - 1);
    assert!(w.body(victim).is_none());
    for _ in 0..120 {
        assert!(w.step(DT).removed.is_empty());
    }
    for (_, b) in w.bodies().iter() {
        assert!(b.center_of_mass().is_finite() && b.linear_velocity().is_finite());
    }
    // An infinite position goes the same way.
    let victim = w.bodies().handles()[1];
    w.body_mut(victim).unwrap().set_pose(Vec2::new(0.0, f32::INFINITY), 0.0);
    assert_eq!(w.step(DT).removed[0].reason, "position is not finite");
    // A bad dt does nothing.
    let hash = w.state_hash();
    assert_eq!(w.step(f32::NAN).profile.substeps, 0);
    assert_eq!(w.state_hash(), hash);
}

#[test]
fn saved_state_reloads_where_it_was() {
    let mut w = mixed_scene(WorldSettings::default());
    for _ in 0..90 {
        w.step(DT);
    }
    let def = w.to_scene_def();
    let reloaded = World::from_scene(&Scene::from_def(def.clone()).expect("a saved world is a valid scene"));
    assert_eq!(reloaded.bodies().len(), w.bodies().len());
    for ((_, a), (_, b)) in w.bodies().iter().zip(reloaded.bodies().iter()) {
        assert!((a.center_of_mass() - b.center_of_mass()).length() < 1e-5);
        assert!((a.linear_velocity() - b.linear_velocity()).length() < 1e-4);
        assert_eq!(a.angle(), b.angle());
        assert_eq!(a.kind(), b.kind());
    }
    assert_eq!(reloaded.to_scene_def().bodies.len(), def.bodies.len());
}

#[test]
fn handles_are_generational_and_descriptions_validate() {
    let mut w = World::default();
    let a = w.insert(body(ShapeDef::Circle { radius: 1.0 }, 0.0, 0.0).to_desc().unwrap());
    assert!(w.remove(a).is_some());
    let b = w.insert(body(ShapeDef::Circle { radius: 1.0 }, 0.0, 0.0).to_desc().unwrap());
    assert_eq!(a.index, b.index);
    assert!(w.body(a).is_none() && w.body(b).is_some());
    let refused = body(ShapeDef::Circle { radius: -1.0 }, 0.0, 0.0).to_desc().unwrap_err();
    assert_eq!(
        refused.to_string(),
        "(scene): body 0: the radius must be positive, got -1",
        "the text the sandbox has always shown"
    );
    use collision_lab::geometry::{ShapeDesc, ShapeError};
    assert_eq!(
        collision_lab::dynamics::BodyDesc::new(ShapeDesc::Circle { radius: -1.0 }),
        Err(ShapeError::NonPositiveRadius(-1.0)),
        "the engine's own description refuses it too"
    );
}

#[test]
fn profile_counts_pairs_contacts_and_narrow_phase_work() {
    let mut w = mixed_scene(WorldSettings::default());
    let mut last = Default::default();
    for _ in 0..120 {
        last = w.step(DT).profile;
    }
    println!("{last:?}");
    assert_eq!(last.substeps, 4);
    assert!(last.candidate_pairs >= last.contacts && last.contacts > 0);
    assert!(last.contact_points >= last.contacts);
    assert!(last.work.primitive_tests > 0);
    assert!(last.total >= last.narrow);
}

#[test]
fn projection_keeps_a_box_on_the_ground() {
    let settings = WorldSettings {
        resolution: Resolution::Projection,
        ..WorldSettings::default()
    };
    let (mut w, h) = world(vec![ground(), body(rect(1.0, 1.0), 0.0, 2.0)], settings);
    for _ in 0..180 {
        w.step(DT);
    }
    let y = w.body(h[1]).unwrap().pose().translation.y;
    println!("projection: box at rest at y = {y} (0.5 is touching)");
    assert!((y - 0.5).abs() < 0.01, "{y}");
}

#[test]
fn replace_rebuilds_a_body_in_place_and_refuses_a_bad_definition() {
    let mut world = World::new(WorldSettings::default());
    let ground = world.insert(
        {
            let mut g = body(rect(10.0, 1.0), 0.0, -0.5);
            g.kind = BodyKind::Static;
            g
        }
        .to_desc()
        .unwrap(),
    );
    let h = world.insert(body(rect(1.0, 1.0), 0.0, 3.0).to_desc().unwrap());
    let mass = world.body(h).unwrap().mass();
    let mut def = world.body(h).unwrap().to_def();
    def.density = 3.0;
    def.friction = 0.1;
    assert!(world.replace(h, def.to_desc().unwrap()));
    let b = world.body(h).unwrap();
    assert!((b.mass() - 3.0 * mass).abs() < 1e-5, "density rebuilds the mass");
    assert_eq!(b.friction(), 0.1);
    assert_eq!(world.bodies().handles(), vec![ground, h], "same handle, same slot");

    def.kind = BodyKind::Static;
    assert!(world.replace(h, def.to_desc().unwrap()));
    assert!(!world.body(h).unwrap().is_dynamic());
    assert_eq!(world.body(h).unwrap().inv_mass(), 0.0);

    def.density = -1.0;
    assert!(def.to_desc().is_err(), "a bad definition never reaches the world");

    world.remove(h);
    def.density = 1.0;
    assert!(
        !world.replace(h, def.to_desc().unwrap()),
        "a stale handle is not an error"
    );
    assert_eq!(world.bodies().len(), 1);
}

/// Regression: a box dragged into the ground while paused was pushed out downward and
/// fell for ever (the view, fitted to every body, then showed a 3 km drop). A body
/// farther than the kill distance outside the scene's box is removed and reported; the
/// others are untouched.
#[test]
fn regression_a_box_pushed_through_the_ground_is_removed_once_lost() {
    let mut sunk = body(rect(1.0, 1.0), 3.0, -0.9); // mostly below the ground's top face
    sunk.name = Some("sunk".into());
    let resting = body(rect(1.0, 1.0), -3.0, 0.5);
    let settings = WorldSettings {
        kill_distance: 50.0,
        ..WorldSettings::default()
    };
    let (mut w, handles) = world(vec![ground(), sunk, resting], settings);
    let bounds = w.scene_bounds().expect("a scene box");
    let mut removed = Vec::new();
    let mut removed_at = None;
    for step in 1..=600 {
        let report = w.step(DT);
        if !report.removed.is_empty() && removed_at.is_none() {
            removed_at = Some(step);
        }
        removed.extend(report.removed);
    }
    println!("scene box {bounds:?}; removed at step {removed_at:?}: {removed:?}");
    assert_eq!(removed.len(), 1, "exactly the sunk box is lost: {removed:?}");
    assert_eq!(removed[0].name.as_deref(), Some("sunk"));
    assert!(removed[0].reason.contains("left the scene"), "{}", removed[0].reason);
    assert!(w.body(handles[1]).is_none());
    assert!(w.body(handles[2]).is_some(), "the resting box stays");
    // Fell 50 m beyond the scene's box: √(2·50/9.81) ≈ 3.2 s after leaving it.
    assert!(
        removed_at.is_some_and(|s| s > 150 && s < 400),
        "removed at step {removed_at:?}"
    );
}
