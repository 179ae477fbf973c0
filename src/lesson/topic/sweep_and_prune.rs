//! Lesson 13: sweep and prune, recorded from the broad phase's own code.
//!
//! The scene's bodies move for a few frames (each by its velocity for [`FRAME_S`]); every
//! frame their boxes go through [`SweepAndPrune::update_recorded`], the very function the
//! simulation calls through [`SweepAndPrune::update`], with a recorder that keeps what it
//! did: the intervals before sorting, every adjacent swap of the insertion sort, the
//! final order, and every comparison of the sweep (Chulanov 2016; Baraff's "sort and
//! sweep"). This file only turns those events into steps:
//!
//! ```text
//! frame 0   the intervals in body order → one full sort (the list is new)
//! frame k   the bodies move → one step per swap (the order after it) → the sorted list
//! each      one step per comparison of the sweep (stop, pair, apart in y) → the pairs
//! ```
//!
//! The diagram draws the sorted list: one row per interval, in list order, along the
//! world's x axis (so a row's bar lies under its body). Predict mode asks, before a
//! swap, which interval's left end the moving one passes, and before a pair is reported,
//! which body it pairs with.

use super::{shape_marks, Mark, Pane, Role, Side, TopicStep, TopicTrace};
use crate::bounds::Aabb;
use crate::broad::{SapInterval, SapOutcome, SapRecorder, SweepAndPrune};
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{sap, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::{Pose, Vec2};
use crate::scene::Scene;

/// Time between two recorded frames (s): long enough for bodies to pass each other.
pub const FRAME_S: f32 = 0.5;
/// Frames recorded: the first (a full sort) and two with motion.
pub const FRAMES: usize = 3;

/// What the broad phase did, as the recorder heard it.
#[derive(Clone, Debug, PartialEq)]
enum Event {
    Keys {
        order: Vec<SapInterval>,
        full_sort: bool,
    },
    Swap {
        moving: SapInterval,
        passed: SapInterval,
    },
    Sorted(Vec<SapInterval>),
    Compare {
        a: SapInterval,
        b: SapInterval,
        outcome: SapOutcome,
    },
}

#[derive(Default)]
struct Events(Vec<Event>);

impl SapRecorder for Events {
    fn keys_refreshed(&mut self, intervals: &[SapInterval], full_sort: bool) {
        self.0.push(Event::Keys {
            order: intervals.to_vec(),
            full_sort,
        });
    }

    fn swap(&mut self, moving: &SapInterval, passed: &SapInterval) {
        self.0.push(Event::Swap {
            moving: *moving,
            passed: *passed,
        });
    }

    fn sorted(&mut self, intervals: &[SapInterval]) {
        self.0.push(Event::Sorted(intervals.to_vec()));
    }

    fn compare(&mut self, a: &SapInterval, b: &SapInterval, outcome: SapOutcome) {
        self.0.push(Event::Compare { a: *a, b: *b, outcome });
    }
}

/// One frame: the bodies' poses and boxes, and what the broad phase did with them.
struct Frame {
    poses: Vec<Pose>,
    boxes: Vec<Aabb>,
    events: Vec<Event>,
    pairs: Vec<(u32, u32)>,
    swaps: u64,
}

/// Records [`FRAMES`] frames of `scene`'s bodies moving at their velocities.
fn record(scene: &Scene) -> Vec<Frame> {
    let mut sap = SweepAndPrune::default();
    let mut frames = Vec::new();
    for f in 0..FRAMES {
        let t = f as f32 * FRAME_S;
        let poses: Vec<Pose> = scene
            .def()
            .bodies
            .iter()
            .map(|b| {
                let v: Vec2 = b.linear_velocity.into();
                Pose::new(Vec2::from(b.position) + v * t, b.angle + b.angular_velocity * t)
            })
            .collect();
        let boxes = super::body_boxes(scene, &poses);
        let proxies = super::body_proxies(scene, &boxes);
        let mut events = Events::default();
        let mut pairs = Vec::new();
        let stats = sap.update_recorded(&proxies, &mut pairs, &mut events);
        frames.push(Frame {
            poses,
            boxes,
            events: events.0,
            pairs,
            swaps: stats.swaps,
        });
    }
    frames
}

/// How the diagram draws the list: row height and the x range (m).
struct Layout {
    row: f32,
    x_lo: f32,
    x_hi: f32,
}

impl Layout {
    fn y(&self, rank: usize) -> f32 {
        -(rank as f32) * self.row
    }
}

/// Highlights for the diagram: which intervals (by id) in which role.
type Marked<'a> = &'a [(u32, Role)];

fn diagram(layout: &Layout, order: &[SapInterval], marked: Marked, guide: Option<f32>) -> Vec<Mark> {
    let n = order.len();
    let bottom = layout.y(n.saturating_sub(1)) - 0.8 * layout.row;
    let mut marks = vec![Mark::segment(
        Vec2::new(layout.x_lo, bottom),
        Vec2::new(layout.x_hi, bottom),
        Role::Muted,
    )];
    if let Some(x) = guide {
        marks.push(Mark::Segment {
            from: Vec2::new(x, 0.6 * layout.row),
            to: Vec2::new(x, bottom),
            role: Role::Active,
            dashed: true,
        });
    }
    let half = 0.22 * layout.row;
    for (rank, iv) in order.iter().enumerate() {
        let y = layout.y(rank);
        let role = Role::Body(iv.id as usize);
        let (lo, hi) = (iv.min_x, iv.max_x);
        if !(lo.is_finite() && hi.is_finite()) {
            continue;
        }
        let bar = vec![
            Vec2::new(lo, y - half),
            Vec2::new(hi, y - half),
            Vec2::new(hi, y + half),
            Vec2::new(lo, y + half),
        ];
        marks.push(Mark::Fill {
            points: bar.clone(),
            role,
        });
        if let Some(&(_, r)) = marked.iter().find(|(id, _)| *id == iv.id) {
            marks.push(Mark::Outline { points: bar, role: r });
        }
        marks.push(Mark::Dot {
            at: Vec2::new(lo, y),
            role,
        });
        marks.push(Mark::label(Vec2::new(lo, y), format!("b{}", iv.id), role, Side::Left));
    }
    marks
}

/// The diagram point of interval `id`'s left end in `order`.
fn left_end(layout: &Layout, order: &[SapInterval], id: u32) -> Option<Vec2> {
    let rank = order.iter().position(|iv| iv.id == id)?;
    Some(Vec2::new(order[rank].min_x, layout.y(rank)))
}

fn world(scene: &Scene, frame: &Frame, marked: Marked, pairs: &[(u32, u32)]) -> Vec<Mark> {
    let mut marks = Vec::new();
    for (i, (shape, pose)) in scene.shapes().iter().zip(&frame.poses).enumerate() {
        marks.extend(shape_marks(shape, pose, Role::Body(i)));
        let role = marked
            .iter()
            .find(|(id, _)| *id as usize == i)
            .map_or(Role::Muted, |&(_, r)| r);
        marks.push(Mark::Outline {
            points: frame.boxes[i].outline(),
            role,
        });
    }
    for &(a, b) in pairs {
        let (pa, pb) = (frame.poses[a as usize].translation, frame.poses[b as usize].translation);
        marks.push(Mark::segment(pa, pb, Role::Pair));
    }
    for (i, pose) in frame.poses.iter().enumerate() {
        marks.push(Mark::label(
            pose.translation,
            format!("b{i}"),
            Role::Body(i),
            Side::Right,
        ));
    }
    marks
}

fn names(pairs: &[(u32, u32)]) -> String {
    if pairs.is_empty() {
        return "none".to_string();
    }
    pairs
        .iter()
        .map(|(a, b)| format!("(b{a}, b{b})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lesson 13's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    if scene.is_empty() {
        return super::placeholder(crate::scene::Topic::SweepAndPrune);
    }
    let frames = record(scene);
    let (mut x_lo, mut x_hi) = (f32::INFINITY, f32::NEG_INFINITY);
    let mut world_lo = Vec2::splat(f32::INFINITY);
    let mut world_hi = Vec2::splat(f32::NEG_INFINITY);
    for b in frames.iter().flat_map(|f| &f.boxes) {
        (x_lo, x_hi) = (x_lo.min(b.min.x), x_hi.max(b.max.x));
        (world_lo, world_hi) = (world_lo.min(b.min), world_hi.max(b.max));
    }
    let n = scene.len();
    let extent = (x_hi - x_lo).max(1e-3);
    let layout = Layout {
        // Rows as tall as the list is wide over n: the diagram fills a view about as
        // tall as it is wide.
        row: (extent / n as f32).max(0.2),
        x_lo: x_lo - 0.12 * extent,
        x_hi: x_hi + 0.04 * extent,
    };
    // Tolerances: a share of the list's width in the diagram, of the scene's size in
    // the world.
    let diagram_tolerance = (super::TOLERANCE_SHARE * extent).min(0.45 * layout.row);
    let world_tolerance = super::TOLERANCE_SHARE * (world_hi - world_lo).max_element();
    let card = |title: String, text: String, line: usize| Card {
        title,
        text,
        listing: Listing::SweepAndPrune,
        pseudocode_line: line,
    };
    let mut steps: Vec<TopicStep> = Vec::new();
    // Per step, what it belongs to: (frame, phase, interval swept from); a change of key
    // starts a new iteration ("whole iterations": the whole sort, one scan from a).
    let mut keys: Vec<(usize, u8, u32)> = Vec::new();
    for (f, frame) in frames.iter().enumerate() {
        let mut order: Vec<SapInterval> = Vec::new();
        let mut found: Vec<(u32, u32)> = Vec::new();
        for event in &frame.events {
            match event {
                Event::Keys {
                    order: before,
                    full_sort,
                } => {
                    order = before.clone();
                    let listed: Vec<String> = order
                        .iter()
                        .map(|iv| format!("b{} [{}, {}]", iv.id, fmt_num(iv.min_x), fmt_num(iv.max_x)))
                        .collect();
                    let (title, text, line) = if f == 0 {
                        (
                            "Intervals on x".to_string(),
                            format!(
                                "Each body's box, seen from below, is an interval on the x axis: {}. The list is new, so it is sorted from scratch once{}; from now on it is kept sorted by insertion.",
                                listed.join(", "),
                                if *full_sort { " (a full sort)" } else { "" }
                            ),
                            sap::INTERVALS,
                        )
                    } else {
                        (
                            format!("Frame {f}: the bodies move"),
                            format!(
                                "{} s later every body has moved by its velocity; the intervals are refreshed in last frame's order: {}. Where a left end is now below its left neighbour's, the list is out of order.",
                                fmt_num(FRAME_S),
                                listed.join(", ")
                            ),
                            sap::INTERVALS,
                        )
                    };
                    let arrows: Vec<Mark> = if f == 0 {
                        Vec::new()
                    } else {
                        scene
                            .def()
                            .bodies
                            .iter()
                            .zip(&frames[f - 1].poses)
                            .filter(|(b, _)| Vec2::from(b.linear_velocity).length() > 0.0)
                            .map(|(b, p)| Mark::Arrow {
                                from: p.translation,
                                vector: Vec2::from(b.linear_velocity) * FRAME_S,
                                role: Role::Muted,
                            })
                            .collect()
                    };
                    let mut w = world(scene, frame, &[], &[]);
                    w.extend(arrows);
                    keys.push((f, 0, 0));
                    steps.push(TopicStep {
                        card: card(title, text, line),
                        iteration: 0,
                        world: w,
                        diagram: diagram(&layout, &order, &[], None),
                        target: None,
                    });
                }
                Event::Swap { moving, passed } => {
                    let answer = left_end(&layout, &order, passed.id);
                    if let (Some(i), Some(j)) = (
                        order.iter().position(|iv| iv.id == moving.id),
                        order.iter().position(|iv| iv.id == passed.id),
                    ) {
                        order.swap(i, j);
                    }
                    let marked = [(moving.id, Role::Active), (passed.id, Role::Partner)];
                    keys.push((f, 1, 0));
                    steps.push(TopicStep {
                        card: card(
                            format!("Swap: b{} passes b{}", moving.id, passed.id),
                            format!(
                                "b{}'s left end ({}) is below b{}'s ({}), so the two swap places: one step of insertion sort. Bodies that move little swap little; each swap is a pair of bodies whose order along x changed.",
                                moving.id,
                                fmt_num(moving.min_x),
                                passed.id,
                                fmt_num(passed.min_x)
                            ),
                            sap::SWAP,
                        ),
                        iteration: 0,
                        world: world(scene, frame, &marked, &[]),
                        diagram: diagram(&layout, &order, &marked, None),
                        target: answer.map(|a| super::Target {
                            prompt: format!(
                                "Insertion sort moves b{} left: click the left end of the interval it passes next.",
                                moving.id
                            ),
                            pane: Pane::Diagram,
                            answers: vec![a],
                            tolerance: diagram_tolerance,
                        }),
                    });
                }
                Event::Sorted(sorted) => {
                    order = sorted.clone();
                    let listed: Vec<String> = order.iter().map(|iv| format!("b{}", iv.id)).collect();
                    keys.push((f, 1, 0));
                    steps.push(TopicStep {
                        card: card(
                            format!("Sorted by min x: {}", listed.join(" ")),
                            if f == 0 {
                                format!(
                                    "In order of their left ends: {}. The sweep reads the list once, left to right.",
                                    listed.join(", ")
                                )
                            } else if frame.swaps == 0 {
                                format!(
                                    "No interval overtook another: last frame's order {} is still right, and insertion sort checked it in one pass, O(n).",
                                    listed.join(", ")
                                )
                            } else {
                                format!(
                                    "Sorted again with {} swap{}: {}. Insertion sort costs O(n + swaps): cheap while bodies keep their order along x, dear when many pass each other{}.",
                                    frame.swaps,
                                    if frame.swaps == 1 { "" } else { "s" },
                                    listed.join(", "),
                                    if frame.swaps as usize > n { ", as here" } else { "" }
                                )
                            },
                            sap::SORT,
                        ),
                        iteration: 0,
                        world: world(scene, frame, &[], &[]),
                        diagram: diagram(&layout, &order, &[], None),
                        target: None,
                    });
                }
                Event::Compare { a, b, outcome } => {
                    let (b_role, line, what) = match outcome {
                        SapOutcome::Stop => (
                            Role::Rejected,
                            sap::STOP,
                            format!(
                                "b{} starts at {}, after b{} ends ({}): no later interval can overlap b{} either (the list is sorted), so the scan from b{} stops.",
                                b.id,
                                fmt_num(b.min_x),
                                a.id,
                                fmt_num(a.max_x),
                                a.id,
                                a.id
                            ),
                        ),
                        SapOutcome::Pair => (
                            Role::Pair,
                            sap::TEST_Y,
                            format!(
                                "b{} starts at {}, before b{} ends ({}): their x intervals overlap. Their y intervals [{}, {}] and [{}, {}] overlap too: (b{}, b{}) is a candidate pair for the narrow phase.",
                                b.id,
                                fmt_num(b.min_x),
                                a.id,
                                fmt_num(a.max_x),
                                fmt_num(a.min_y),
                                fmt_num(a.max_y),
                                fmt_num(b.min_y),
                                fmt_num(b.max_y),
                                a.id.min(b.id),
                                a.id.max(b.id)
                            ),
                        ),
                        SapOutcome::ApartInY => (
                            Role::Rejected,
                            sap::TEST_Y,
                            format!(
                                "b{} starts at {}, before b{} ends ({}): the x intervals overlap, but the y intervals [{}, {}] and [{}, {}] do not. No pair; the scan goes on.",
                                b.id,
                                fmt_num(b.min_x),
                                a.id,
                                fmt_num(a.max_x),
                                fmt_num(a.min_y),
                                fmt_num(a.max_y),
                                fmt_num(b.min_y),
                                fmt_num(b.max_y)
                            ),
                        ),
                        SapOutcome::BothStatic | SapOutcome::Unusable => (
                            Role::Muted,
                            sap::INNER,
                            format!("b{} and b{} cannot make a pair (both static, or a box without a size): skipped.", a.id, b.id),
                        ),
                    };
                    let target = (*outcome == SapOutcome::Pair).then(|| super::Target {
                        prompt: format!(
                            "The sweep from b{} reports a pair next: click the body it pairs with.",
                            a.id
                        ),
                        pane: Pane::World,
                        answers: vec![frame.poses[b.id as usize].translation],
                        tolerance: world_tolerance,
                    });
                    if *outcome == SapOutcome::Pair {
                        found.push((a.id.min(b.id), a.id.max(b.id)));
                    }
                    let marked = [(a.id, Role::Active), (b.id, b_role)];
                    keys.push((f, 2, a.id));
                    steps.push(TopicStep {
                        card: card(format!("Sweep: b{} against b{}", a.id, b.id), what, line),
                        iteration: 0,
                        world: world(scene, frame, &marked, &found),
                        diagram: diagram(&layout, &order, &marked, Some(a.max_x)),
                        target,
                    });
                }
            }
        }
        keys.push((f, 3, 0));
        steps.push(TopicStep {
            card: card(
                format!("Frame {f}: pairs {}", names(&frame.pairs)),
                format!(
                    "The sweep reports {} for the narrow phase to test: {}. Brute force would have tested all {} pairs of boxes.",
                    if frame.pairs.len() == 1 {
                        "1 pair".to_string()
                    } else {
                        format!("{} pairs", frame.pairs.len())
                    },
                    names(&frame.pairs),
                    n * n.saturating_sub(1) / 2
                ),
                sap::REPORT,
            ),
            iteration: 0,
            world: world(scene, frame, &[], &frame.pairs),
            diagram: diagram(&layout, &order, &[], None),
            target: None,
        });
    }
    let mut iteration = 0;
    for i in 0..steps.len() {
        if i > 0 && keys[i] != keys[i - 1] {
            iteration += 1;
        }
        steps[i].iteration = iteration;
    }
    TopicTrace {
        world_title: "World: bodies and their boxes".to_string(),
        diagram_title: "x intervals, list order".to_string(),
        quiz: quiz(&frames),
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

fn quiz(frames: &[Frame]) -> Vec<QuizQuestion> {
    let mut out = Vec::new();
    let Some(last) = frames.last() else {
        return out;
    };
    let k = frames.len() - 1;
    let s = last.swaps as usize;
    let counts: Vec<String> = [s.saturating_sub(1), s, s + 1, s + 2]
        .iter()
        .map(|c| format!("{c} swaps"))
        .collect();
    out.extend(choose(
        &format!("How many swaps did insertion sort make in frame {k}?"),
        &counts,
        &format!("{s} swaps"),
        format!("Each swap is two bodies changing order along x; frame {k} had {s}."),
    ));
    let p = last.pairs.len();
    let counts: Vec<String> = [p.saturating_sub(1), p, p + 1, p + 2]
        .iter()
        .map(|c| format!("{c} pairs"))
        .collect();
    out.extend(choose(
        &format!("How many pairs did the sweep report in frame {k}?"),
        &counts,
        &format!("{p} pairs"),
        format!(
            "The pairs were {}: their boxes overlap on x and on y.",
            names(&last.pairs)
        ),
    ));
    let first_full = frames.first().is_some_and(|f| {
        f.events
            .iter()
            .any(|e| matches!(e, Event::Keys { full_sort: true, .. }))
    });
    out.extend(choose(
        "How was the list sorted in the very first frame?",
        &["by a full sort".to_string(), "by insertion sort".to_string()],
        if first_full {
            "by a full sort"
        } else {
            "by insertion sort"
        },
        "A new list has no order to keep; insertion sort only pays off once last frame's order is nearly right."
            .to_string(),
    ));
    out
}
