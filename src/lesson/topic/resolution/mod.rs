//! Lesson 17: contact resolution, three ways on one small stack, iteration by iteration.
//!
//! The scene's bodies go into three [`World`]s that differ only in
//! [`WorldSettings::resolution`]: the papers' literal projection (Chulanov 2016;
//! Fayzrakhmanov et al. 2015, step 11: move A out by the whole MTV), position-based
//! projection (Müller et al. 2020, "Detailed Rigid Body Simulation with Extended
//! Position Based Dynamics") and sequential impulses (Catto, "Iterative Dynamics with
//! Temporal Coherence", 2005). Each runs a few world steps, so the stack has settled
//! into contact and the impulses have something to warm-start from; then one world step
//! is watched from inside with a [`StepObserver`](crate::dynamics::StepObserver)
//! (`record.rs`): every pass of the solver, with each body's pose after it and the
//! contact points with their accumulated impulses. The lesson shows, method by method,
//! the passes of one substep (`passes.rs`): the literal projection's pair moves (one
//! pair pushed out, the next disturbed), the position-based solver's prediction,
//! position passes (the last with static friction) and velocity pass, and the impulse
//! solver's warm start, velocity iterations and relax iteration (a resting stack held
//! from the first iteration). The worlds then run on to a second, and the last step compares how far
//! the top box went.

mod passes;
mod record;

use super::{shape_marks, Mark, Pane, Role, Side, Target, TopicStep, TopicTrace};
use crate::dynamics::{Resolution, World, WorldSettings};
use crate::geometry::Shape;
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{resolution as line, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::{Pose, Vec2};
use crate::narrow::{Algorithm, NarrowConfig};
use crate::scene::Scene;
use record::{poses_of, Recorder};

/// The world step watched from inside (1-based): the steps before it bring the stack
/// into contact and give the impulse solver last step's impulses to start from. Step 6,
/// not 5 as before: since the position-based velocity pass weighs the lower box of a
/// resting pair more (`dynamics/xpbd/stacking.rs`), the stack settles sooner, and in
/// step 5 the position passes' first substep found nothing past the slop to project.
const OBSERVED_STEP: u32 = 6;
/// World steps in the whole run (a second at 60 Hz).
const TOTAL_STEPS: u32 = 60;

/// Columns of the world view, in the order the lesson narrates them.
const METHODS: [Resolution; 3] = [
    Resolution::LiteralProjection,
    Resolution::Projection,
    Resolution::Impulses,
];

/// Width of the height-over-time diagram (diagram units).
const PLOT_WIDTH: f32 = 8.0;

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

/// The three rows' poses as slices.
fn at(cols: &[Vec<Option<Pose>>; 3]) -> [&[Option<Pose>]; 3] {
    std::array::from_fn(|c| cols[c].as_slice())
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// What every step of the lesson reads.
struct Lesson {
    /// Per slot.
    shapes: Vec<Option<Shape>>,
    dynamic: Vec<usize>,
    /// The slot of the top box.
    top: usize,
    /// Per method: poses and centres at the start and at the end of the watched step.
    start: [Vec<Option<Pose>>; 3],
    start_centers: [Vec<Option<Vec2>>; 3],
    end: [Vec<Option<Pose>>; 3],
    /// The substep (s), the slop (m), one box's weight over a substep, m·g·h (N·s).
    h: f32,
    slop: f32,
    weight: f32,
    tolerance: f32,
    /// Height of one row of the world view (m).
    row: f32,
    label_y: f32,
    algorithm: Algorithm,
    config: NarrowConfig,
}

impl Lesson {
    /// Where method `m`'s stack is drawn: one above the other, literal projection on
    /// top. Rows, not columns: the world view is taller than wide, and side by side the
    /// boxes were drawn too small to see the contact points.
    fn row_offset(&self, m: usize) -> Vec2 {
        Vec2::new(0.0, (1.0 - m as f32) * self.row)
    }

    fn narrow(&self) -> (Algorithm, &NarrowConfig) {
        (self.algorithm, &self.config)
    }

    fn card(&self, title: String, text: String, l: usize) -> Card {
        Card {
            title,
            text,
            listing: Listing::Resolution,
            pseudocode_line: l,
        }
    }

    /// The three stacks: row `active` at `poses` (its moved body and that body's
    /// partner highlighted), the rows narrated before it at the end of the watched
    /// step, those after it at its start.
    fn rows_marks(&self, active: usize, poses: &[Option<Pose>], pair: Option<(usize, usize)>) -> Vec<Mark> {
        let cols: [&[Option<Pose>]; 3] = std::array::from_fn(|c| match c.cmp(&active) {
            std::cmp::Ordering::Less => self.end[c].as_slice(),
            std::cmp::Ordering::Equal => poses,
            std::cmp::Ordering::Greater => self.start[c].as_slice(),
        });
        self.marks_of(cols, Some(active), pair)
    }

    fn marks_of(&self, cols: [&[Option<Pose>]; 3], lit: Option<usize>, pair: Option<(usize, usize)>) -> Vec<Mark> {
        let mut marks = Vec::new();
        for (m, poses) in cols.iter().enumerate() {
            let off = self.row_offset(m);
            for (i, (shape, pose)) in self.shapes.iter().zip(poses.iter()).enumerate() {
                let (Some(shape), Some(p)) = (shape, pose) else {
                    continue;
                };
                let placed = Pose::new(p.translation + off, p.rotation.angle());
                let r = if !self.dynamic.contains(&i) || lit.is_some_and(|l| l != m) {
                    Role::Muted
                } else if pair.is_some_and(|(moved, _)| moved == i) {
                    Role::Active
                } else if pair.is_some_and(|(_, partner)| partner == i) {
                    Role::Partner
                } else {
                    role(m)
                };
                marks.extend(shape_marks(shape, &placed, r));
            }
            marks.push(Mark::label(
                Vec2::new(off.x, self.label_y + off.y),
                name(METHODS[m]),
                role(m),
                Side::Above,
            ));
        }
        marks
    }
}

/// Lesson 17's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    let base = World::from_scene(scene);
    let settings = *base.settings();
    let dt = 1.0 / base.rate().max(1.0);
    let bodies = base.bodies();
    let n = bodies.slot_count();
    let dynamic: Vec<usize> = (0..n)
        .filter(|&i| bodies.slot(i).is_some_and(|b| b.is_dynamic()))
        .collect();
    let height = |i: usize| bodies.slot(i).map_or(0.0, |b| b.center_of_mass().y);
    let Some(&top) = dynamic.iter().max_by(|&&a, &&b| height(a).total_cmp(&height(b))) else {
        return super::placeholder(crate::scene::Topic::Resolution);
    };
    let extent = (0..n)
        .filter_map(|i| bodies.slot(i).map(|b| b.aabb()))
        .reduce(|a, b| a.union(&b))
        .unwrap_or(crate::bounds::Aabb::new(Vec2::ZERO, Vec2::ONE));
    let h = dt / settings.substeps.max(1) as f32;
    let top_mass = bodies.slot(top).map_or(1.0, |b| b.mass());
    let initial = poses_of(&base);
    let start_top = bodies.slot(top).map_or(Vec2::ZERO, |b| b.center_of_mass());

    // Run each world to the watched step, watch it, run on to the end.
    let mut heights: [Vec<f32>; 3] = Default::default();
    let mut start: [Vec<Option<Pose>>; 3] = Default::default();
    let mut start_centers: [Vec<Option<Vec2>>; 3] = Default::default();
    let mut end: [Vec<Option<Pose>>; 3] = Default::default();
    let mut recorded: Vec<Recorder> = Vec::new();
    let mut finals: [Vec<Option<Pose>>; 3] = Default::default();
    let mut final_top = [Vec2::ZERO; 3];
    for (m, &resolution) in METHODS.iter().enumerate() {
        // Two velocity iterations, whatever the scene says (the product's default is one):
        // the lesson shows a second iteration taking back part of what the first pushed.
        let settings = WorldSettings {
            resolution,
            velocity_iterations: settings.velocity_iterations.max(2),
            ..settings
        };
        let mut w = World::from_scene_with(scene, settings);
        let top_of = |w: &World| w.bodies().slot(top).map_or(Vec2::ZERO, |b| b.center_of_mass());
        heights[m].push(top_of(&w).y);
        let mut recorder = Recorder::default();
        for step in 1..=TOTAL_STEPS {
            if step == OBSERVED_STEP {
                start[m] = poses_of(&w);
                start_centers[m] = (0..n).map(|i| w.bodies().slot(i).map(|b| b.center_of_mass())).collect();
                w.step_observed(dt, &mut recorder);
                end[m] = poses_of(&w);
            } else {
                w.step(dt);
            }
            heights[m].push(top_of(&w).y);
        }
        recorded.push(recorder);
        finals[m] = poses_of(&w);
        final_top[m] = top_of(&w);
    }
    let lesson = Lesson {
        shapes: (0..n).map(|i| bodies.slot(i).map(|b| b.shape().clone())).collect(),
        dynamic,
        top,
        start,
        start_centers,
        end,
        h,
        slop: settings.slop,
        weight: top_mass * settings.gravity.length() * h,
        tolerance: super::TOLERANCE_SHARE * (extent.max - extent.min).max_element(),
        row: (extent.max.y - extent.min.y).max(0.5) + 0.9,
        label_y: extent.max.y + 0.25,
        algorithm: settings.narrow_phase,
        config: settings.narrow_config,
    };

    let all = |p: &[Option<Pose>]| -> [Vec<Option<Pose>>; 3] { std::array::from_fn(|_| p.to_vec()) };
    let initial_cols = all(&initial);
    let mut steps = vec![TopicStep {
        card: lesson.card(
            format!("{} boxes, three resolutions", lesson.dynamic.len()),
            format!(
                "The same stack in three worlds that differ only in how they resolve contacts. Each runs {} world steps; then step {OBSERVED_STEP} is watched from inside, {} substeps of h = {} ms, pass by pass: each box's pose after the pass, and each contact point's accumulated impulse drawn along its normal, measured in weights of one box over a substep (m·g·h = {:.4} N·s).",
                OBSERVED_STEP - 1,
                settings.substeps.max(1),
                fmt_num(1000.0 * h),
                lesson.weight,
            ),
            line::DETECT,
        ),
        iteration: 0,
        world: lesson.marks_of(at(&initial_cols), None, None),
        diagram: Vec::new(),
        target: None,
    }];
    for (m, rec) in recorded.iter().enumerate() {
        let shown = record::shown(&rec.frames, METHODS[m]);
        let method_steps = passes::steps(&lesson, m, &rec.frames, &shown);
        let diagram = method_steps.last().map(|s| s.diagram.clone()).unwrap_or_default();
        steps.extend(method_steps);
        steps.push(end_of_step(&lesson, m, rec, diagram));
    }

    // The last step: the stacks after the whole run, the top box's height over time.
    let drift: [f32; 3] = std::array::from_fn(|m| (final_top[m] - start_top).length());
    let order: Vec<String> = {
        let mut idx: Vec<usize> = (0..3).collect();
        idx.sort_by(|&a, &b| drift[b].total_cmp(&drift[a]));
        idx.iter()
            .map(|&m| format!("{} {} m", name(METHODS[m]), fmt_num(drift[m])))
            .collect()
    };
    let total_t = TOTAL_STEPS as f32 * dt;
    steps.push(TopicStep {
        card: lesson.card(
            "How far the top box went".to_string(),
            format!(
                "The same passes, every substep of every step, for {} s. How far the top box moved: {}. Moving one body out by the whole MTV fixes one pair and disturbs the next, with nothing to hold the boxes sideways; the position-based and impulse solvers treat every contact of the stack together, over several passes, with friction.",
                fmt_num(total_t),
                order.join("; ")
            ),
            line::REPEAT,
        ),
        iteration: 4,
        world: lesson.marks_of(at(&finals), None, None),
        diagram: height_plot(&heights, start_top.y, total_t),
        target: Some(Target {
            prompt: format!(
                "Where will the top box be under {} after {} s? Click its centre.",
                name(METHODS[0]),
                fmt_num(total_t)
            ),
            pane: Pane::World,
            answers: vec![final_top[0] + lesson.row_offset(0)],
            tolerance: lesson.tolerance,
        }),
    });
    TopicTrace {
        world_title: "World: one stack, three ways".to_string(),
        diagram_title: "Impulse per pair, pass by pass (last: top box height)".to_string(),
        quiz: quiz(&drift, &recorded[2], lesson.weight),
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

/// After a method's passes: the whole watched step, every substep.
fn end_of_step(lesson: &Lesson, m: usize, rec: &Recorder, diagram: Vec<Mark>) -> TopicStep {
    let method = METHODS[m];
    let moved = |i: usize| match (lesson.end[m].get(i), lesson.start[m].get(i)) {
        (Some(Some(a)), Some(Some(b))) => 1000.0 * (a.translation - b.translation).length(),
        _ => 0.0,
    };
    let most = lesson
        .dynamic
        .iter()
        .copied()
        .max_by(|&a, &b| moved(a).total_cmp(&moved(b)))
        .unwrap_or(lesson.top);
    let what = match method {
        Resolution::LiteralProjection => {
            let pairs = rec.frames.len();
            format!(
                "The literal projection detected again in each of its {} substeps and moved {pairs} pair{} in all, each alone.",
                rec.substeps,
                if pairs == 1 { "" } else { "s" }
            )
        }
        _ => format!(
            "The other {} substeps repeat these passes on the same contacts, which move with the bodies; the impulses are kept for the next step.",
            rec.substeps.saturating_sub(1)
        ),
    };
    TopicStep {
        card: lesson.card(
            format!("{}: the whole step {OBSERVED_STEP}", capitalise(name(method))),
            format!(
                "{what} Over the step the top box b{} moved {} mm, and the box that moved most was b{most}, {} mm.",
                lesson.top,
                fmt_num(moved(lesson.top)),
                fmt_num(moved(most)),
            ),
            line::REPEAT,
        ),
        iteration: 1 + m,
        world: lesson.rows_marks(m, &lesson.end[m], None),
        diagram,
        target: None,
    }
}

/// The top box's height at every world step, one line per method.
fn height_plot(heights: &[Vec<f32>; 3], start_y: f32, total_t: f32) -> Vec<Mark> {
    let y_scale = 2.0 / start_y.abs().max(0.5);
    let mut d = vec![
        Mark::segment(Vec2::ZERO, Vec2::new(PLOT_WIDTH, 0.0), Role::Muted),
        Mark::segment(Vec2::ZERO, Vec2::new(0.0, start_y * y_scale + 0.5), Role::Muted),
        Mark::label(
            Vec2::new(PLOT_WIDTH, 0.0),
            format!("{} s", fmt_num(total_t)),
            Role::Muted,
            Side::Below,
        ),
        Mark::label(Vec2::ZERO, "0 s: top box height", Role::Muted, Side::Below),
    ];
    for (m, hs) in heights.iter().enumerate() {
        let y0 = start_y * y_scale + 3.2 - 0.8 * m as f32;
        d.push(Mark::segment(Vec2::new(0.2, y0), Vec2::new(0.8, y0), role(m)));
        d.push(Mark::label(Vec2::new(0.8, y0), name(METHODS[m]), role(m), Side::Right));
        let x = |k: usize| k as f32 / (hs.len().max(2) - 1) as f32 * PLOT_WIDTH;
        for k in 1..hs.len() {
            d.push(Mark::segment(
                Vec2::new(x(k - 1), hs[k - 1] * y_scale),
                Vec2::new(x(k), hs[k] * y_scale),
                role(m),
            ));
        }
    }
    d
}

fn quiz(drift: &[f32; 3], impulses: &Recorder, weight: f32) -> Vec<QuizQuestion> {
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
    // Which pair the warm start already loads most: the one under the whole stack.
    if let Some(warm) = impulses
        .frames
        .iter()
        .find(|f| f.kind == crate::dynamics::PassKind::WarmStart)
    {
        let sums = record::pair_sums(&warm.points);
        if let Some(&(pair, sum)) = sums.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            if sum > 0.0 {
                let pairs: Vec<String> = sums.iter().map(|&(p, _)| passes::pair_name(p)).collect();
                quiz.extend(choose(
                    "Under impulses, which contact pair carried the most impulse right after the warm start, before any iteration?",
                    &pairs,
                    &passes::pair_name(pair),
                    format!("{}: {} weights of one box, carried over from the last step.", passes::pair_name(pair), fmt_num(sum / weight)),
                ));
            }
        }
    }
    quiz
}
