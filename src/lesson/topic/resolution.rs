//! Lesson 17: contact resolution, three ways on one small stack, read from three worlds.
//!
//! The scene's bodies go into three [`World`]s that differ only in
//! [`WorldSettings::resolution`]: the papers' literal projection (Chulanov 2016;
//! Fayzrakhmanov et al. 2015, step 11: move A out by the whole MTV), position-based
//! projection (Müller et al. 2020, "Detailed Rigid Body Simulation with Extended
//! Position Based Dynamics") and sequential impulses (Catto, "Iterative Dynamics with
//! Temporal Coherence", 2005). They are stepped side by side through the public API
//! only; the solvers are not touched, so the lesson shows world steps, not the
//! iterations inside one (the issue allows it until the solvers can be watched without
//! slowing their loops).
//!
//! What a step shows, for one method at a time: the three stacks at the same moment, the
//! contacts that method's last detection found (points, normals, depths), and per box
//! the net contact impulse over the interval, J = m (Δv − g Δt), drawn as a multiple of
//! the box's weight over the interval (1: the contacts carried exactly its weight) — the
//! same measure for all three, since the position-based methods change velocities too.

use super::{shape_marks, Mark, Pane, Role, Side, Target, TopicStep, TopicTrace};
use crate::dynamics::{Resolution, World, WorldSettings};
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{resolution as line, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::{Pose, Vec2};
use crate::scene::Scene;

/// The world steps after which the lesson looks (cumulative, from the start).
const FRAMES: [u32; 6] = [1, 2, 5, 15, 30, 60];

/// Columns of the world view, in the order the lesson narrates them.
const METHODS: [Resolution; 3] = [
    Resolution::LiteralProjection,
    Resolution::Projection,
    Resolution::Impulses,
];

/// Width of the diagram's time axis for the whole run (diagram units).
const PLOT_WIDTH: f32 = 8.0;

/// One world's state at a frame: every body's pose, centre and velocity, and the
/// contacts of its last detection (point, normal, depth).
struct Shot {
    poses: Vec<Pose>,
    centers: Vec<Vec2>,
    velocities: Vec<Vec2>,
    contacts: Vec<(Vec2, Vec2, f32)>,
}

fn shot(world: &World) -> Shot {
    let bodies = world.bodies();
    let mut s = Shot {
        poses: Vec::new(),
        centers: Vec::new(),
        velocities: Vec::new(),
        contacts: Vec::new(),
    };
    for i in 0..bodies.slot_count() {
        if let Some(b) = bodies.slot(i) {
            s.poses.push(b.pose());
            s.centers.push(b.center_of_mass());
            s.velocities.push(b.linear_velocity());
        }
    }
    for m in world.contacts() {
        for p in m.points.as_slice() {
            s.contacts.push((p.point, m.normal, p.depth));
        }
    }
    s
}

fn name(r: Resolution) -> &'static str {
    match r {
        Resolution::LiteralProjection => "literal projection",
        Resolution::Projection => "position-based",
        Resolution::Impulses => "impulses",
    }
}

fn role(m: usize) -> Role {
    [Role::Rejected, Role::Partner, Role::Active][m % 3]
}

/// Lesson 17's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    let base = World::from_scene(scene);
    let settings = *base.settings();
    let dt = 1.0 / base.rate().max(1.0);
    let gravity = settings.gravity;
    let mut worlds: Vec<World> = METHODS
        .iter()
        .map(|&resolution| World::from_scene_with(scene, WorldSettings { resolution, ..settings }))
        .collect();
    let bodies = base.bodies();
    let n = bodies.slot_count();
    let dynamic: Vec<usize> = (0..n)
        .filter(|&i| bodies.slot(i).is_some_and(|b| b.is_dynamic()))
        .collect();
    let (Some(&top), false) = (
        dynamic.iter().max_by(|&&a, &&b| {
            let (ya, yb) = (
                bodies.slot(a).map_or(0.0, |x| x.center_of_mass().y),
                bodies.slot(b).map_or(0.0, |x| x.center_of_mass().y),
            );
            ya.total_cmp(&yb)
        }),
        dynamic.is_empty(),
    ) else {
        return super::placeholder(crate::scene::Topic::Resolution);
    };
    let masses: Vec<f32> = (0..n).map(|i| bodies.slot(i).map_or(0.0, |b| b.mass())).collect();
    let shapes: Vec<crate::geometry::Shape> = (0..n)
        .filter_map(|i| bodies.slot(i).map(|b| b.shape().clone()))
        .collect();
    // Columns side by side, one scene width plus a margin apart.
    let extent = {
        let mut b = bodies
            .slot(0)
            .map(|b| b.aabb())
            .unwrap_or(crate::bounds::Aabb::new(Vec2::ZERO, Vec2::ONE));
        for i in 1..n {
            if let Some(x) = bodies.slot(i) {
                b = b.union(&x.aabb());
            }
        }
        b
    };
    let width = (extent.max.x - extent.min.x).max(0.5);
    let column = |m: usize| Vec2::new((m as f32 - 1.0) * width * 1.6, 0.0);
    let start_top = bodies.slot(top).map_or(Vec2::ZERO, |b| b.center_of_mass());
    let tolerance = super::TOLERANCE_SHARE * (extent.max - extent.min).max_element();

    let mut shots: Vec<Vec<Shot>> = vec![worlds.iter().map(shot).collect()];
    let mut done = 0;
    for &f in &FRAMES {
        for w in &mut worlds {
            for _ in done..f {
                w.step(dt);
            }
        }
        done = f;
        shots.push(worlds.iter().map(shot).collect());
    }
    let time_of = |k: usize| if k == 0 { 0.0 } else { FRAMES[k - 1] as f32 * dt };
    let total_t = FRAMES[FRAMES.len() - 1] as f32 * dt;

    // The world view at frame k, method `lit` highlighted (None: all alike).
    let world_marks = |k: usize, lit: Option<usize>, ratios: &[(usize, Vec2, f32)]| -> Vec<Mark> {
        let mut marks = Vec::new();
        for (m, &r) in METHODS.iter().enumerate() {
            let s = &shots[k][m];
            let off = column(m);
            for (i, shape) in shapes.iter().enumerate() {
                let Some(p) = s.poses.get(i) else { continue };
                let placed = Pose::new(p.translation + off, p.rotation.angle());
                let rl = if !dynamic.contains(&i) {
                    Role::Muted
                } else if lit.is_none_or(|l| l == m) {
                    role(m)
                } else {
                    Role::Muted
                };
                marks.extend(shape_marks(shape, &placed, rl));
            }
            marks.push(Mark::label(
                Vec2::new(off.x, extent.max.y + 0.6),
                name(r),
                role(m),
                Side::Above,
            ));
            if lit == Some(m) {
                for (point, normal, _) in &s.contacts {
                    marks.push(Mark::Dot {
                        at: *point + off,
                        role: Role::Pair,
                    });
                    marks.push(Mark::Arrow {
                        from: *point + off,
                        vector: *normal * 0.2,
                        role: Role::Pair,
                    });
                }
                for &(_, c, ratio) in ratios {
                    if ratio.is_finite() && ratio.abs() > 0.01 {
                        marks.push(Mark::Arrow {
                            from: c + off,
                            vector: Vec2::new(0.0, 0.25 * ratio.clamp(-4.0, 4.0)),
                            role: Role::Tightness,
                        });
                    }
                }
            }
        }
        marks
    };
    // The diagram: the top box's height over time, one line per method.
    let heights: Vec<Vec<f32>> = (0..METHODS.len())
        .map(|m| {
            shots
                .iter()
                .map(|s| s[m].centers.get(top).map_or(0.0, |c| c.y))
                .collect()
        })
        .collect();
    let y_scale = 2.0 / start_top.y.abs().max(0.5);
    let plot = |upto: usize| -> Vec<Mark> {
        let mut d = vec![
            Mark::segment(Vec2::ZERO, Vec2::new(PLOT_WIDTH, 0.0), Role::Muted),
            Mark::segment(Vec2::ZERO, Vec2::new(0.0, start_top.y * y_scale + 0.5), Role::Muted),
            Mark::label(
                Vec2::new(PLOT_WIDTH, 0.0),
                format!("{} s", fmt_num(total_t)),
                Role::Muted,
                Side::Below,
            ),
            Mark::label(Vec2::new(0.0, 0.0), "0 s", Role::Muted, Side::Below),
        ];
        for m in 0..METHODS.len() {
            // The legend above the plot, a row per method.
            let y0 = start_top.y * y_scale + 3.2 - 0.8 * m as f32;
            d.push(Mark::segment(Vec2::new(0.2, y0), Vec2::new(0.8, y0), role(m)));
            d.push(Mark::label(Vec2::new(0.8, y0), name(METHODS[m]), role(m), Side::Right));
            for k in 0..upto {
                let a = Vec2::new(time_of(k) / total_t * PLOT_WIDTH, heights[m][k] * y_scale);
                let b = Vec2::new(time_of(k + 1) / total_t * PLOT_WIDTH, heights[m][k + 1] * y_scale);
                d.push(Mark::segment(a, b, role(m)));
            }
        }
        d
    };
    let card = |title: String, text: String, l: usize| Card {
        title,
        text,
        listing: Listing::Resolution,
        pseudocode_line: l,
    };
    let mut steps = vec![TopicStep {
        card: card(
            format!("{} boxes, three resolutions", dynamic.len()),
            "The same stack in three worlds that differ only in how they resolve contacts. Each step of the lesson runs all three for the same number of world steps; the card then reads one of them: its contacts (points and normals), and for each box the net impulse the contacts gave it, as a multiple of its weight over the interval.".to_string(),
            line::DETECT,
        ),
        iteration: 0,
        world: world_marks(0, None, &[]),
        diagram: plot(0),
        target: None,
    }];
    let mut drift = [0.0f32; 3];
    for k in 1..shots.len() {
        let dt_k = time_of(k) - time_of(k - 1);
        for (m, &r) in METHODS.iter().enumerate() {
            let (s0, s1) = (&shots[k - 1][m], &shots[k][m]);
            let ratios: Vec<(usize, Vec2, f32)> = dynamic
                .iter()
                .map(|&i| {
                    let dv = s1.velocities[i] - s0.velocities[i] - gravity * dt_k;
                    let weight = masses[i] * gravity.length() * dt_k;
                    (
                        i,
                        s1.centers[i],
                        if weight > 0.0 { masses[i] * dv.y / weight } else { 0.0 },
                    )
                })
                .collect();
            let top_c = s1.centers[top];
            drift[m] = (top_c - start_top).length();
            let deepest = s1.contacts.iter().map(|c| c.2).fold(0.0f32, f32::max);
            let support: Vec<String> = ratios.iter().map(|(i, _, r)| format!("b{i} {}", fmt_num(*r))).collect();
            let (what, l) = match r {
                Resolution::LiteralProjection => ("The papers' literal method: for each overlapping pair, move A out of B by the whole MTV and cancel the approaching normal velocity. No friction and no memory: each pair is fixed alone, the next undoes part of it, and a leaning stack slides apart.", line::LITERAL),
                Resolution::Projection => ("Position-based projection: every substep moves both bodies apart, each by its share of the depth (generalised inverse masses, rotation included), and static friction holds a point in place; velocities are then read off the positions.", line::PROJECTION),
                Resolution::Impulses => ("Sequential impulses: every iteration adds to each contact's accumulated normal impulse and clamps the sum so it only pushes (friction's within the cone); last step's impulses warm-start this one, so a resting stack is held from the first iteration.", line::IMPULSES),
            };
            let text = format!(
                "{what} After {} s ({} step{}): {} contact point{}, deepest {} mm; the top box b{top} is {} m from where it started. Net contact impulse per weight: {}.",
                fmt_num(time_of(k)),
                FRAMES[k - 1],
                if FRAMES[k - 1] == 1 { "" } else { "s" },
                s1.contacts.len(),
                if s1.contacts.len() == 1 { "" } else { "s" },
                fmt_num(1000.0 * deepest),
                fmt_num(drift[m]),
                support.join(", ")
            );
            steps.push(TopicStep {
                card: card(format!("{} at {} s", capitalise(name(r)), fmt_num(time_of(k))), text, l),
                iteration: k,
                world: world_marks(k, Some(m), &ratios),
                diagram: plot(k),
                target: Some(Target {
                    prompt: format!(
                        "Where will the top box be under {} at {} s? Click its centre.",
                        name(r),
                        fmt_num(time_of(k))
                    ),
                    pane: Pane::World,
                    answers: vec![top_c + column(m)],
                    tolerance,
                }),
            });
        }
    }
    let order: Vec<String> = {
        let mut idx: Vec<usize> = (0..3).collect();
        idx.sort_by(|&a, &b| drift[b].total_cmp(&drift[a]));
        idx.iter()
            .map(|&m| format!("{} {} m", name(METHODS[m]), fmt_num(drift[m])))
            .collect()
    };
    steps.push(TopicStep {
        card: card(
            "How far the top box went".to_string(),
            format!(
                "After {} s the top box had moved: {}. Moving one body out by the whole MTV fixes one pair and disturbs the next, with nothing to hold the boxes sideways; the position-based and impulse solvers treat every contact of the stack together, over many iterations, with friction.",
                fmt_num(total_t),
                order.join("; ")
            ),
            line::INTEGRATE,
        ),
        iteration: shots.len(),
        world: world_marks(shots.len() - 1, None, &[]),
        diagram: plot(shots.len() - 1),
        target: None,
    });
    let most = (0..3).max_by(|&a, &b| drift[a].total_cmp(&drift[b])).unwrap_or(0);
    let least = (0..3).min_by(|&a, &b| drift[a].total_cmp(&drift[b])).unwrap_or(0);
    let names: Vec<String> = METHODS.iter().map(|&r| name(r).to_string()).collect();
    let mut quiz: Vec<QuizQuestion> = Vec::new();
    quiz.extend(choose(
        "Under which method did the top box move furthest?",
        &names,
        name(METHODS[most]),
        format!("{} m under {}.", fmt_num(drift[most]), name(METHODS[most])),
    ));
    quiz.extend(choose(
        "Under which method did it move least?",
        &names,
        name(METHODS[least]),
        format!("{} m under {}.", fmt_num(drift[least]), name(METHODS[least])),
    ));
    TopicTrace {
        world_title: "World: the same stack, three ways".to_string(),
        diagram_title: "Top box height over time".to_string(),
        quiz,
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}
