//! Lesson 16: pseudo-continuous detection (Ren and Xie 2011; Mirtich 1996), read from the
//! world's own sweep.
//!
//! The scene's world takes one discrete step with continuous detection off: the fast body
//! ends on the far side of the thin wall and neither of its two poses overlaps it (it
//! tunnels). The same start and end poses then go through
//! [`ContinuousScratch::sweep_recorded`], the function the simulation calls after every
//! step, once per mode; a recorder keeps what it tested:
//!
//! ```text
//! the discrete step: start pose, end pose, the wall between
//! interpolation: each intermediate pose tested (overlapping the wall or not)
//!     each bisection bracket [t0, t1] as it halves; the pose at t1 (time of impact)
//! conservative advancement: each GJK distance d at τ and the safe step Δτ = d / μ;
//!     the impact (gap under a quarter of the slop), the body nudged into contact
//! both times of impact side by side
//! ```
//!
//! In the running world a fast body usually meets its wall earlier, in the solver: with
//! continuous detection on, every body's broad-phase box grows by its motion over the
//! step, so the wall is a speculative contact (Catto 2013) from the step's start. The
//! sweep is the backstop for what that misses. The lesson shows the sweep alone, on the
//! step taken with detection off, so that what it does is not hidden by the solver.
//!
//! Nothing here re-implements a sweep: the poses, brackets, distances and steps are the
//! ones `dynamics/continuous.rs` computed, so the lesson cannot drift from the engine.
//! `record.rs` holds the recorder, `words.rs` the number formats and the quiz.

mod record;
mod words;

use super::{shape_marks, world_vertices, Mark, Pane, Role, Side, Target, TopicStep, TopicTrace};
use crate::dynamics::{BodySet, ContinuousMode, ContinuousScratch, World};
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{continuous as line, Listing};
use crate::math::{Pose, Vec2};
use crate::scene::Scene;
use record::{lerp_pose, Event, Record};
use words::{capitalise, fmt4, mm, pct, quiz};

/// Width of the τ axis in the diagram (diagram units for τ = 1).
const TAU_WIDTH: f32 = 10.0;

/// Lesson 16's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    let mut world = World::from_scene(scene);
    let dt = 1.0 / world.rate().max(1.0);
    let mut settings = *world.settings();
    settings.continuous = ContinuousMode::Off;
    *world.settings_mut() = settings;
    let mut scratch = ContinuousScratch::default();
    scratch.record_start(world.bodies());
    world.step(dt);
    let after: BodySet = world.bodies().clone();
    let substeps = settings.substeps.max(1);
    let mut runs = Vec::new();
    for mode in [ContinuousMode::Interpolation, ContinuousMode::ConservativeAdvancement] {
        let mut bodies = after.clone();
        let mut s = scratch.clone();
        let mode_settings = crate::dynamics::WorldSettings {
            continuous: mode,
            ..settings
        };
        let mut record = Record::default();
        let counts = s.sweep_recorded(&mut bodies, &mode_settings, substeps, &mut record);
        runs.push((record.0, counts.queries));
    }
    let Some(Event::Body {
        slot,
        start,
        end,
        bound_m,
    }) = runs[0].0.first().cloned()
    else {
        return super::placeholder(crate::scene::Topic::Continuous);
    };
    let Some(body) = after.slot(slot) else {
        return super::placeholder(crate::scene::Topic::Continuous);
    };
    let shape = body.shape().clone();
    let name = format!("b{slot}");
    let slop = settings.slop.max(1e-4);

    // Everything but the fast body, drawn under every step.
    let others: Vec<Mark> = (0..after.slot_count())
        .filter(|&i| i != slot)
        .filter_map(|i| after.slot(i).map(|b| shape_marks(b.shape(), &b.pose(), Role::Body(i))))
        .flatten()
        .collect();
    let centre = |pose: &Pose| {
        let v = world_vertices(&shape, pose);
        v.iter().copied().fold(Vec2::ZERO, |a, b| a + b) / v.len().max(1) as f32
    };
    let outline = |pose: &Pose, role: Role| -> Vec<Mark> {
        match &shape {
            crate::geometry::Shape::Circle(c) => vec![Mark::Circle {
                center: pose.translation,
                radius: c.radius(),
                role,
                filled: false,
            }],
            _ => vec![Mark::Outline {
                points: world_vertices(&shape, pose),
                role,
            }],
        }
    };
    let path = vec![Mark::Segment {
        from: centre(&start),
        to: centre(&end),
        role: Role::Muted,
        dashed: true,
    }];
    let scene_extent = {
        let mut pts = world_vertices(&shape, &start);
        pts.extend(world_vertices(&shape, &end));
        let b = crate::bounds::Aabb::from_points(&pts);
        (b.max - b.min).max_element()
    };
    let tolerance = super::TOLERANCE_SHARE * scene_extent;

    // The diagram: a τ axis, and a row above it per method.
    let x = |tau: f32| tau * TAU_WIDTH;
    let (row_poses, row_bisect, row_advance) = (0.8, -0.8, 2.4);
    let axis = || {
        vec![
            Mark::segment(Vec2::new(0.0, 0.0), Vec2::new(TAU_WIDTH, 0.0), Role::Muted),
            Mark::segment(Vec2::new(0.0, -0.15), Vec2::new(0.0, 0.15), Role::Muted),
            Mark::segment(Vec2::new(TAU_WIDTH, -0.15), Vec2::new(TAU_WIDTH, 0.15), Role::Muted),
            Mark::label(Vec2::new(0.0, 0.0), "tau = 0", Role::Muted, Side::Left),
            Mark::label(Vec2::new(TAU_WIDTH, 0.0), "tau = 1", Role::Muted, Side::Right),
        ]
    };
    let card = |title: String, text: String, pseudocode_line: usize| Card {
        title,
        text,
        listing: Listing::Continuous,
        pseudocode_line,
    };
    let mut steps = Vec::new();
    let moved = (centre(&end) - centre(&start)).length();
    let turned = (end.rotation.angle() - start.rotation.angle()).abs();
    let mut world0 = others.clone();
    world0.extend(path.clone());
    world0.extend(shape_marks(&shape, &start, Role::Partner));
    world0.extend(shape_marks(&shape, &end, Role::Rejected));
    world0.push(Mark::label(
        centre(&start),
        format!("{name} at the start"),
        Role::Partner,
        Side::Above,
    ));
    world0.push(Mark::label(
        centre(&end),
        format!("{name} one step later"),
        Role::Rejected,
        Side::Above,
    ));
    let mut diagram0 = axis();
    diagram0.push(Mark::Dot {
        at: Vec2::new(x(0.0), 0.0),
        role: Role::Partner,
    });
    diagram0.push(Mark::Dot {
        at: Vec2::new(x(1.0), 0.0),
        role: Role::Rejected,
    });
    steps.push(TopicStep {
        card: card(
            format!("One discrete step: {name} tunnels"),
            format!(
                "In one step of {} s {name} moves {} m and turns {} rad; no point of it moves more than s = {} m. The narrow phase looks only at the pose the step ends in, and neither that pose nor the one it started from overlaps the wall: with continuous detection off, {name} passes through it as if it were not there. (With detection on, the world also grows each box by its motion so the wall is known to the solver as a speculative contact; this lesson sets that aside and shows the sweep, the backstop, alone.)",
                fmt_num(dt),
                fmt_num(moved),
                fmt_num(turned),
                fmt_num(bound_m)
            ),
            line::DISCRETE,
        ),
        iteration: 0,
        world: world0,
        diagram: diagram0,
        target: None,
    });

    // Interpolation and bisection.
    let interp = &runs[0].0;
    let mut sampled: Vec<(f32, Pose, bool)> = Vec::new();
    let mut brackets: Vec<(f32, f32)> = Vec::new();
    let mut impact_interp: Option<f32> = None;
    let mut first_bracket = (0.0f32, 1.0f32);
    let fraction = if settings.continuous_fraction.is_finite() && settings.continuous_fraction > 0.0 {
        settings.continuous_fraction
    } else {
        0.5
    };
    // The engine's own count: n = ceil(s / (fraction * min_extent)), capped.
    let pose_count =
        ((bound_m / (fraction * body.min_extent())).ceil() as u32).clamp(1, settings.continuous_max_poses.max(1));
    let spacing_note = format!(
        "{pose_count} poses span the step, {} m apart at most",
        fmt_num(bound_m / pose_count as f32)
    );
    let sampled_diagram = |sampled: &[(f32, Pose, bool)]| -> Vec<Mark> {
        let mut d = axis();
        d.push(Mark::label(Vec2::new(0.0, row_poses), "poses", Role::Muted, Side::Left));
        for (tau, _, hit) in sampled {
            d.push(Mark::Dot {
                at: Vec2::new(x(*tau), row_poses),
                role: if *hit { Role::Pair } else { Role::Partner },
            });
        }
        d
    };
    for e in interp {
        match e {
            Event::Pose { tau, pose, hit } => {
                sampled.push((*tau, *pose, *hit));
                let mut w = others.clone();
                w.extend(path.clone());
                for (_, p, _) in &sampled[..sampled.len() - 1] {
                    w.extend(outline(p, Role::Muted));
                }
                let role = if *hit { Role::Pair } else { Role::Active };
                w.extend(shape_marks(&shape, pose, role));
                w.push(Mark::label(
                    centre(pose),
                    format!("tau = {}", fmt_num(*tau)),
                    role,
                    Side::Below,
                ));
                let k = sampled.len();
                let text = if *hit {
                    format!("Pose {k} (tau = {}) overlaps the wall: contact happened between the previous pose and this one. Bisection will narrow that bracket down.", fmt_num(*tau))
                } else if k == 1 {
                    format!("Ren and Xie insert intermediate poses between the two the step knows ({spacing_note}, a fraction of the box's size: consecutive poses overlap, so a wall across the path cannot fall between two of them). Pose 1 at tau = {} overlaps nothing: on to the next.", fmt_num(*tau))
                } else {
                    format!("Pose {k} at tau = {} overlaps nothing either: on to the next. Poses are tested in order, so the first one that overlaps is the earliest contact the poses can see.", fmt_num(*tau))
                };
                let d = sampled_diagram(&sampled);
                steps.push(TopicStep {
                    card: card(
                        format!(
                            "Pose {k} at tau = {}: {}",
                            fmt_num(*tau),
                            if *hit { "hit" } else { "clear" }
                        ),
                        text,
                        line::POSES,
                    ),
                    iteration: 1,
                    world: w,
                    diagram: d,
                    target: None,
                });
            }
            Event::Bracket { t0, t1, mid, hit } => {
                if brackets.is_empty() {
                    // The bracket before the first halving: the last clear pose and the
                    // first overlapping one.
                    let hit_tau = sampled.last().map_or(*t1, |p| p.0);
                    let clear_tau = sampled.iter().rev().find(|p| !p.2).map_or(0.0, |p| p.0);
                    first_bracket = (clear_tau, hit_tau);
                }
                brackets.push((*t0, *t1));
                let mut w = others.clone();
                w.extend(path.clone());
                let (p0, p1) = (lerp_pose(&start, &end, *t0), lerp_pose(&start, &end, *t1));
                w.extend(outline(&p0, Role::Partner));
                w.extend(shape_marks(&shape, &p1, Role::Active));
                let mut d = sampled_diagram(&sampled);
                // The first bracket is a pose spacing long, too short to see on the τ
                // axis: the rows below are that bracket magnified to the axis's width.
                let (a0, b0) = (first_bracket.0, first_bracket.1.max(first_bracket.0 + 1e-6));
                let zoom = |t: f32| (t - a0) / (b0 - a0) * TAU_WIDTH;
                for (from, to) in [(a0, 0.0), (b0, TAU_WIDTH)] {
                    d.push(Mark::Segment {
                        from: Vec2::new(x(from), 0.0),
                        to: Vec2::new(to, row_bisect),
                        role: Role::Muted,
                        dashed: true,
                    });
                }
                d.push(Mark::label(
                    Vec2::new(0.0, row_bisect),
                    format!("bisection, zoomed: [{}, {}]", fmt_num(a0), fmt_num(b0)),
                    Role::Muted,
                    Side::Left,
                ));
                for (i, (a, b)) in brackets.iter().enumerate() {
                    let last = i + 1 == brackets.len();
                    let y = row_bisect - 0.3 * (i + 1) as f32;
                    d.push(Mark::segment(
                        Vec2::new(zoom(*a), y),
                        Vec2::new(zoom(*b).max(zoom(*a) + 0.04), y),
                        if last { Role::Active } else { Role::Muted },
                    ));
                }
                let n = brackets.len();
                steps.push(TopicStep {
                    card: card(
                        format!("Bracket {n}: [{}, {}]", fmt4(*t0), fmt4(*t1)),
                        format!(
                            "The pose halfway, at tau = {}, {}: the bracket keeps a clear end t0 and an overlapping end t1, so it becomes [{}, {}], {} of motion long. It halves until it is shorter than the slop ({}).",
                            fmt4(*mid),
                            if *hit { "overlaps the wall, so it becomes t1" } else { "is clear, so it becomes t0" },
                            fmt4(*t0),
                            fmt4(*t1),
                            mm((t1 - t0) * bound_m),
                            mm(slop)
                        ),
                        line::BISECT,
                    ),
                    iteration: 2,
                    world: w,
                    diagram: d,
                    target: None,
                });
            }
            Event::Impact { tau, .. } => impact_interp = Some(*tau),
            _ => {}
        }
    }
    let toi_pose = |tau: f32, nudge: Vec2| {
        let p = lerp_pose(&start, &end, tau);
        Pose::new(p.translation + nudge, p.rotation.angle())
    };
    if let Some(tau) = impact_interp {
        let pose = toi_pose(tau, Vec2::ZERO);
        let mut w = others.clone();
        w.extend(path.clone());
        w.extend(outline(&start, Role::Muted));
        w.extend(outline(&end, Role::Muted));
        w.extend(shape_marks(&shape, &pose, Role::Pair));
        w.push(Mark::label(
            centre(&pose),
            format!("time of impact {}", fmt4(tau)),
            Role::Pair,
            Side::Above,
        ));
        let mut d = sampled_diagram(&sampled);
        d.push(Mark::Dot {
            at: Vec2::new(x(tau), 0.0),
            role: Role::Pair,
        });
        steps.push(TopicStep {
            card: card(
                format!("Time of impact by interpolation: tau = {}", fmt4(tau)),
                format!(
                    "After {} poses and {} halvings the bracket is under the slop: {name} goes back to the pose at its overlapping end t1 = {}, {} of the way along the step, and keeps its velocity. It overlaps the wall by at most the slop, so the next step's narrow phase sees the contact and the solver stops it. The rest of the step is lost, as in Box2D's time of impact.",
                    sampled.len(),
                    brackets.len(),
                    fmt4(tau),
                    pct(tau)
                ),
                line::ROLLBACK,
            ),
            iteration: 2,
            world: w,
            diagram: d,
            target: Some(Target {
                prompt: format!("Where will {name} be at the time of impact? Click its centre."),
                pane: Pane::World,
                answers: vec![centre(&pose)],
                tolerance,
            }),
        });
    }

    // Conservative advancement.
    let advance = &runs[1].0;
    let mut visited: Vec<(f32, f32)> = Vec::new();
    let mut impact_advance: Option<(f32, Vec2)> = None;
    let reach = body.core_reach();
    for e in advance {
        match e {
            Event::Advanced {
                tau,
                gap_m,
                normal,
                points,
                step,
            } => {
                visited.push((*tau, *step));
                let pose = lerp_pose(&start, &end, *tau);
                let mut w = others.clone();
                w.extend(path.clone());
                for (t, _) in &visited[..visited.len() - 1] {
                    w.extend(outline(&lerp_pose(&start, &end, *t), Role::Muted));
                }
                w.extend(shape_marks(&shape, &pose, Role::Active));
                let closing = gap_m.is_finite() && *gap_m > 0.25 * slop;
                if closing {
                    w.push(Mark::Segment {
                        from: points.0,
                        to: points.1,
                        role: Role::Tightness,
                        dashed: false,
                    });
                    w.push(Mark::label(
                        points.1,
                        format!("d = {} m", fmt_num(*gap_m)),
                        Role::Tightness,
                        Side::Right,
                    ));
                }
                let mut d = axis();
                d.push(Mark::label(
                    Vec2::new(0.0, row_advance),
                    "advancement",
                    Role::Muted,
                    Side::Left,
                ));
                for (i, (t, s)) in visited.iter().enumerate() {
                    d.push(Mark::Dot {
                        at: Vec2::new(x(*t), row_advance),
                        role: Role::Active,
                    });
                    let next = visited.get(i + 1).map(|v| v.0).unwrap_or((t + s).min(1.0));
                    if next > *t && i + 1 < visited.len() {
                        d.push(Mark::Arrow {
                            from: Vec2::new(x(*t), row_advance),
                            vector: Vec2::new(x(next - t), 0.0),
                            role: Role::Muted,
                        });
                    }
                }
                let delta = centre(&end) - centre(&start);
                let mu = delta.dot(*normal).max(0.0) + (end.rotation.angle() - start.rotation.angle()).abs() * reach;
                let k = visited.len();
                let (title, text, l) = if closing {
                    (
                        format!("Advance {k}: d = {} m, step {}", fmt_num(*gap_m), fmt4(*step)),
                        format!(
                            "At tau = {}, GJK gives the distance d = {} m between {name} and the wall, along n = ({}, {}). No point of {name} closes that gap faster than mu = max(0, dc . n) + |d theta| * reach = {} m per unit tau, so advancing by d / mu = {} cannot pass the contact (Mirtich): tau becomes {}.",
                            fmt4(*tau),
                            fmt_num(*gap_m),
                            fmt_num(normal.x),
                            fmt_num(normal.y),
                            fmt_num(mu),
                            fmt4(*step),
                            fmt4(tau + step)
                        ),
                        line::ADVANCE,
                    )
                } else {
                    (
                        format!("Advance {k}: d = {}, in contact", mm(gap_m.max(0.0))),
                        format!(
                            "At tau = {}, the gap is {}, under a quarter of the slop ({}): this is the time of impact. Every step was a lower bound on the time left, so however thin the wall, advancement cannot step over it.",
                            fmt4(*tau),
                            mm(gap_m.max(0.0)),
                            mm(0.25 * slop)
                        ),
                        line::CONTACT,
                    )
                };
                steps.push(TopicStep {
                    card: card(title, text, l),
                    iteration: 3,
                    world: w,
                    diagram: d,
                    target: None,
                });
            }
            Event::Impact { tau, nudge } => impact_advance = Some((*tau, *nudge)),
            _ => {}
        }
    }
    if let Some((tau, nudge)) = impact_advance {
        let pose = toi_pose(tau, nudge);
        let mut w = others.clone();
        w.extend(path.clone());
        w.extend(outline(&start, Role::Muted));
        w.extend(outline(&end, Role::Muted));
        w.extend(shape_marks(&shape, &pose, Role::Pair));
        w.push(Mark::label(
            centre(&pose),
            format!("time of impact {}", fmt4(tau)),
            Role::Pair,
            Side::Above,
        ));
        let mut d = axis();
        d.push(Mark::label(
            Vec2::new(0.0, row_advance),
            "advancement",
            Role::Muted,
            Side::Left,
        ));
        for (t, _) in &visited {
            d.push(Mark::Dot {
                at: Vec2::new(x(*t), row_advance),
                role: Role::Active,
            });
        }
        d.push(Mark::Dot {
            at: Vec2::new(x(tau), 0.0),
            role: Role::Pair,
        });
        steps.push(TopicStep {
            card: card(
                format!("Time of impact by advancement: tau = {}", fmt4(tau)),
                format!(
                    "{} distance queries found the contact at tau = {} ({} of the step); {name} is put there and nudged {} along n so that it overlaps the wall by half the slop and the next narrow phase sees it.",
                    visited.len(),
                    fmt4(tau),
                    pct(tau),
                    mm(nudge.length())
                ),
                line::CONTACT,
            ),
            iteration: 3,
            world: w,
            diagram: d,
            target: Some(Target {
                prompt: format!("Where will advancement put {name} at the time of impact? Click its centre."),
                pane: Pane::World,
                answers: vec![centre(&pose)],
                tolerance,
            }),
        });
    }
    // Both side by side.
    let mut w = others.clone();
    w.extend(path);
    w.extend(outline(&end, Role::Rejected));
    w.push(Mark::label(centre(&end), "discrete", Role::Rejected, Side::Above));
    let mut summary = Vec::new();
    if let Some(tau) = impact_interp {
        let p = toi_pose(tau, Vec2::ZERO);
        w.extend(outline(&p, Role::Pair));
        summary.push(format!(
            "interpolation stopped {name} at tau = {} with {} queries",
            fmt4(tau),
            runs[0].1
        ));
    }
    if let Some((tau, nudge)) = impact_advance {
        let p = toi_pose(tau, nudge);
        w.extend(outline(&p, Role::Active));
        summary.push(format!(
            "conservative advancement at tau = {} with {} queries",
            fmt4(tau),
            runs[1].1
        ));
    }
    let mut d = axis();
    if let Some(tau) = impact_interp {
        d.push(Mark::Dot {
            at: Vec2::new(x(tau), row_poses),
            role: Role::Pair,
        });
        d.push(Mark::label(
            Vec2::new(x(tau), row_poses),
            "interpolation",
            Role::Pair,
            Side::Above,
        ));
    }
    if let Some((tau, _)) = impact_advance {
        d.push(Mark::Dot {
            at: Vec2::new(x(tau), row_advance),
            role: Role::Active,
        });
        d.push(Mark::label(
            Vec2::new(x(tau), row_advance),
            "advancement",
            Role::Active,
            Side::Above,
        ));
    }
    steps.push(TopicStep {
        card: card(
            "Two times of impact, one step".to_string(),
            format!(
                "{}. Interpolation needs only the narrow phase (any shape, any algorithm) but can miss a wall thinner than its pose spacing once the pose cap is reached; advancement needs distances (GJK on convex pieces) and takes tiny steps when the body spins close to the wall, but never steps over a contact.",
                if summary.is_empty() { "Neither method found an impact".to_string() } else { capitalise(&summary.join("; ")) }
            ),
            line::COMPARE,
        ),
        iteration: 4,
        world: w,
        diagram: d,
        target: None,
    });
    TopicTrace {
        world_title: "World: box and wall".to_string(),
        diagram_title: "Time within the step, tau".to_string(),
        quiz: quiz(sampled.len(), brackets.len(), visited.len()),
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}
