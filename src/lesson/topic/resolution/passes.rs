//! One lesson step per recorded pass: the card (numbers from the frame), the world's
//! marks (the method's row as the pass left it, its contact points with their
//! impulses, or the pair the literal projection just moved) and the diagram (each
//! pair's impulse, or move, pass by pass).

use super::record::{overlaps, pair_sums, Frame};
use super::{name, Lesson};
use crate::dynamics::{PassKind, Resolution};
use crate::lesson::narration::fmt_num;
use crate::lesson::pseudocode::resolution as line;
use crate::lesson::topic::{shape_marks, Mark, Pane, Role, Side, Target, TopicStep};
use crate::math::{Pose, Vec2};

/// Width of the pass diagram (diagram units) and the height of its largest value.
const PLOT_WIDTH: f32 = 8.0;
const PLOT_HEIGHT: f32 = 3.0;

/// A pair's name in cards and the legend.
pub(super) fn pair_name((a, b): (u32, u32)) -> String {
    format!("b{a}–b{b}")
}

/// The value the diagram plots for each pair after frame `f`: the pair's summed normal
/// impulse in weights (`unit`), or for the literal projection the move of its pair, in mm.
fn values(f: &Frame, pairs: &[(u32, u32)], unit: f32) -> Vec<Option<f32>> {
    if let Some(m) = f.literal {
        return pairs
            .iter()
            .map(|&k| (k == (m.slot_a, m.slot_b)).then(|| 1000.0 * shift_of(&m).length()))
            .collect();
    }
    let sums = pair_sums(&f.points);
    pairs
        .iter()
        .map(|k| Some(sums.iter().find(|(p, _)| p == k).map_or(0.0, |s| s.1) / unit))
        .collect()
}

/// The steps of method `m` (row `m`) over its shown frames.
pub(super) fn steps(lesson: &Lesson, m: usize, frames: &[Frame], shown: &[usize]) -> Vec<TopicStep> {
    let method = super::METHODS[m];
    // Impulses in N·s against one box's weight over a substep, m·g·h; the position-based
    // λ is a positional impulse (kg·m), an impulse times h, against m·g·h².
    let unit = match method {
        Resolution::Projection => lesson.weight * lesson.h,
        _ => lesson.weight,
    };
    let mut pairs: Vec<(u32, u32)> = shown
        .iter()
        .flat_map(|&i| {
            let f = &frames[i];
            let lit = f.literal.map(|m| (m.slot_a, m.slot_b));
            pair_sums(&f.points).into_iter().map(|(k, _)| k).chain(lit)
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    let series: Vec<Vec<Option<f32>>> = shown.iter().map(|&i| values(&frames[i], &pairs, unit)).collect();
    let top_value = series.iter().flatten().flatten().fold(0.0f32, |a, &b| a.max(b));
    let off = lesson.row_offset(m);
    let mut out = Vec::new();
    let mut before: &[Option<Pose>] = &lesson.start[m];
    for (k, &i) in shown.iter().enumerate() {
        let f = &frames[i];
        let sums = pair_sums(&f.points);
        let listed: Vec<String> = sums
            .iter()
            .map(|&(p, s)| format!("{} {}", pair_name(p), fmt_num(s / unit)))
            .collect();
        let deepest = f.points.iter().map(|p| -p.separation).fold(0.0f32, f32::max);
        let top_moved = match (f.centers.get(lesson.top), lesson.start_centers[m].get(lesson.top)) {
            (Some(Some(now)), Some(Some(then))) => 1000.0 * (now.y - then.y),
            _ => 0.0,
        };
        let state = format!(
            "Impulse per pair, in weights of one box: {}. Deepest overlap {} mm (slop {} mm); the top box b{} has moved {} mm vertically since the step began.",
            if listed.is_empty() { "none".to_string() } else { listed.join(", ") },
            fmt_num(1000.0 * deepest),
            fmt_num(1000.0 * lesson.slop),
            lesson.top,
            fmt_num(top_moved),
        );
        let n_of = |kind: PassKind| shown.iter().filter(|&&j| frames[j].kind == kind).count();
        let nth = f.index + 1;
        let (title, text, l) = match f.kind {
            PassKind::LiteralPair => literal_card(lesson, f, before),
            PassKind::WarmStart => (
                "warm start".to_string(),
                format!("Gravity adds g·h to every velocity; then each contact applies the impulse it ended the last step with, before any iteration. {state}"),
                line::WARM_START,
            ),
            PassKind::VelocityIteration => (
                format!("velocity iteration {nth} of {}", n_of(f.kind)),
                format!("Each point in turn: the impulse that stops its approach (plus the soft bias that pushes overlap past the slop out) is added to its accumulated total, and the total clamped at zero so a contact only pushes; friction follows within mu times it. {state}"),
                line::ITERATE,
            ),
            PassKind::Integrate if method == Resolution::Impulses => (
                "positions follow".to_string(),
                format!("x += v·h with the solved velocities; the relax iterations follow. {state}"),
                line::RELAX,
            ),
            PassKind::RelaxIteration => (
                format!("relax iteration {nth} of {}", n_of(f.kind)),
                format!("The same pass without the bias: the velocity that pushed overlap out is taken back, so the push-out adds no energy. {state}"),
                line::RELAX,
            ),
            PassKind::Integrate => (
                "predict".to_string(),
                format!("v += g·h, x += v·h: every box moves as if nothing held it, into the one below (boxes falling together do not close their own gaps; the ground does not fall). Past the slop now: {}. The lambdas listed are still the last substep's: the first position pass starts them from zero. {state}", past_slop(f, lesson.slop)),
                line::PREDICT,
            ),
            PassKind::PositionPass if nth as usize == n_of(f.kind) => (
                format!("position pass {nth} of {}, with static friction", n_of(f.kind)),
                format!("Every point overlapping past the slop is projected out, as before; and right after each contact's own projection, each pushed point's drift along the surface is pulled back, within mu times its lambda (static friction). {state}"),
                line::STATIC_FRICTION,
            ),
            PassKind::PositionPass => (
                format!("position pass {nth} of {}", n_of(f.kind)),
                format!("Every point overlapping past the slop is projected out: d lambda = -C/(wA + wB), both bodies moved by their shares, rotation included. {state}"),
                line::PROJECT,
            ),
            _ => (
                "velocity pass".to_string(),
                format!("Velocities are read off the positions, v = (x - x_prev)/h; then each pushed point's normal speed is set to zero (or -e times its approach), the lower box of each resting pair counting as four times as heavy, so that one pass settles the column instead of sending half of each correction down it; and dynamic friction takes what static friction left of the cone. The lambdas are the position passes'. {state}"),
                line::VELOCITY_PASS,
            ),
        };
        let mut world = lesson.rows_marks(m, &f.poses, f.literal.map(|l| moved_and_partner(&l)));
        world.extend(point_marks(lesson, f, before, off, unit));
        out.push(TopicStep {
            card: lesson.card(
                format!(
                    "{}, substep {}: {title}",
                    super::capitalise(name(method)),
                    f.substep + 1
                ),
                text,
                l,
            ),
            iteration: 1 + m,
            world,
            diagram: plot(&series[..=k], &pairs, top_value, method, shown.len()),
            target: target(lesson, f, off, unit),
        });
        before = &f.poses;
    }
    out
}

/// The body a literal move pushed, and its pair's other body.
fn moved_and_partner(l: &crate::dynamics::LiteralMove) -> (usize, usize) {
    if l.move_a != Vec2::ZERO {
        (l.slot_a as usize, l.slot_b as usize)
    } else {
        (l.slot_b as usize, l.slot_a as usize)
    }
}

/// The pairs with a point overlapping past the slop, named.
fn past_slop(f: &Frame, slop: f32) -> String {
    let mut pairs: Vec<(u32, u32)> = f
        .points
        .iter()
        .filter(|p| p.separation + slop < 0.0)
        .map(|p| (p.slot_a, p.slot_b))
        .collect();
    pairs.dedup();
    if pairs.is_empty() {
        "none".to_string()
    } else {
        pairs.into_iter().map(pair_name).collect::<Vec<_>>().join(", ")
    }
}

/// How far the pushed body moved (m, world frame).
fn shift_of(l: &crate::dynamics::LiteralMove) -> Vec2 {
    if l.move_a != Vec2::ZERO {
        l.move_a
    } else {
        l.move_b
    }
}

fn literal_card(lesson: &Lesson, f: &Frame, before: &[Option<Pose>]) -> (String, String, usize) {
    let Some(l) = f.literal else {
        return (String::new(), String::new(), line::LITERAL);
    };
    let (moved, partner) = moved_and_partner(&l);
    let shift = shift_of(&l);
    let hits = overlaps(&lesson.shapes, &f.poses, moved, partner, lesson.narrow());
    let was = overlaps(&lesson.shapes, before, moved, partner, lesson.narrow());
    let disturbed: Vec<String> = hits
        .iter()
        .map(|&(j, d)| {
            let old = was.iter().find(|w| w.0 == j).map_or(0.0, |w| w.1);
            format!("b{j} by {} mm (was {} mm)", fmt_num(1000.0 * d), fmt_num(1000.0 * old))
        })
        .collect();
    let after = if disturbed.is_empty() {
        format!("b{moved} now overlaps nothing else.")
    } else {
        format!(
            "b{moved} now overlaps {}: fixing one pair has made or deepened the next pair's overlap.",
            disturbed.join(" and ")
        )
    };
    let impulse = l.impulse.length();
    (
        format!("pair {}", pair_name((l.slot_a, l.slot_b))),
        format!(
            "Pair {} overlaps by {} mm: b{moved} is moved {} mm along ({}, {}), the whole MTV, and the approach is cancelled with an impulse of {} weights. {after}",
            pair_name((l.slot_a, l.slot_b)),
            fmt_num(1000.0 * shift.length()),
            fmt_num(1000.0 * shift.length()),
            fmt_num(shift.normalize_or_zero().x),
            fmt_num(shift.normalize_or_zero().y),
            fmt_num(impulse / lesson.weight),
        ),
        line::LITERAL,
    )
}

/// Contact points with their impulses (arrows along the normal, on B), or the literal
/// move's ghost and direction.
fn point_marks(lesson: &Lesson, f: &Frame, before: &[Option<Pose>], off: Vec2, unit: f32) -> Vec<Mark> {
    let mut marks = Vec::new();
    if let Some(l) = f.literal {
        let (moved, _) = moved_and_partner(&l);
        if let (Some(Some(shape)), Some(Some(was)), Some(Some(now))) =
            (lesson.shapes.get(moved), before.get(moved), f.centers.get(moved))
        {
            let ghost = Pose::new(was.translation + off, was.rotation.angle());
            marks.extend(
                shape_marks(shape, &ghost, Role::Muted)
                    .into_iter()
                    .filter(|m| matches!(m, Mark::Outline { .. })),
            );
            let dir = shift_of(&l).normalize_or_zero();
            // The move itself is millimetres: the arrow shows its direction, in a colour
            // of its own (in the body's, it vanished into the outline).
            marks.push(Mark::Arrow {
                from: *now + off,
                vector: 0.4 * dir,
                role: Role::Pair,
            });
        }
        return marks;
    }
    for p in &f.points {
        let at = 0.5 * (p.anchor_a + p.anchor_b) + off;
        marks.push(Mark::Dot { at, role: Role::Pair });
        let ratio = p.normal_impulse / unit;
        if ratio > 0.01 {
            marks.push(Mark::Arrow {
                from: at,
                vector: p.normal * 0.12 * ratio.min(4.0),
                role: Role::Tightness,
            });
        }
    }
    marks
}

/// Predict: which box the literal move pushes; which point carries the most impulse.
fn target(lesson: &Lesson, f: &Frame, off: Vec2, unit: f32) -> Option<Target> {
    if let Some(l) = f.literal {
        let (moved, _) = moved_and_partner(&l);
        let c = (*f.centers.get(moved)?)?;
        return Some(Target {
            prompt: format!(
                "Pair {} is next. Which box will the literal projection move? Click its centre.",
                pair_name((l.slot_a, l.slot_b))
            ),
            pane: Pane::World,
            answers: vec![c + off],
            tolerance: lesson.tolerance,
        });
    }
    let (question, ok) = match f.kind {
        PassKind::WarmStart => (
            "Which contact point starts the substep carrying the most impulse?",
            true,
        ),
        PassKind::VelocityIteration | PassKind::PositionPass => (
            "Which contact point will carry the most impulse after this pass?",
            f.index == 0,
        ),
        _ => ("", false),
    };
    let most = f.points.iter().map(|p| p.normal_impulse).fold(0.0f32, f32::max);
    if !ok || most / unit < 0.01 {
        return None;
    }
    Some(Target {
        prompt: format!("{question} Click it."),
        pane: Pane::World,
        answers: f
            .points
            .iter()
            .filter(|p| p.normal_impulse >= 0.9 * most)
            .map(|p| 0.5 * (p.anchor_a + p.anchor_b) + off)
            .collect(),
        tolerance: lesson.tolerance,
    })
}

/// Each pair's value pass by pass, up to the current one: impulses in weights (lines),
/// the literal projection's moves in mm (bars).
fn plot(series: &[Vec<Option<f32>>], pairs: &[(u32, u32)], top: f32, method: Resolution, passes: usize) -> Vec<Mark> {
    let scale = PLOT_HEIGHT / top.max(1e-6);
    let dx = PLOT_WIDTH / passes.max(2).saturating_sub(1) as f32;
    let literal = method == Resolution::LiteralProjection;
    let unit = if literal { "mm moved" } else { "weights" };
    let mut d = vec![
        Mark::segment(Vec2::ZERO, Vec2::new(PLOT_WIDTH, 0.0), Role::Muted),
        Mark::segment(Vec2::ZERO, Vec2::new(0.0, PLOT_HEIGHT + 0.3), Role::Muted),
        Mark::label(
            Vec2::new(0.0, PLOT_HEIGHT),
            format!("{} {unit}", fmt_num(top)),
            Role::Muted,
            Side::Left,
        ),
        Mark::label(
            Vec2::new(PLOT_WIDTH, 0.0),
            format!("pass {passes}"),
            Role::Muted,
            Side::Below,
        ),
        Mark::label(Vec2::ZERO, "pass 1", Role::Muted, Side::Below),
    ];
    for (q, &pair) in pairs.iter().enumerate() {
        let role = Role::Body(q);
        let y0 = PLOT_HEIGHT + 1.4 + 0.6 * (pairs.len() - 1 - q) as f32;
        d.push(Mark::segment(Vec2::new(0.2, y0), Vec2::new(0.8, y0), role));
        d.push(Mark::label(Vec2::new(0.8, y0), pair_name(pair), role, Side::Right));
        let mut last: Option<Vec2> = None;
        for (k, row) in series.iter().enumerate() {
            let Some(v) = row[q] else { continue };
            let at = Vec2::new(k as f32 * dx, v * scale);
            d.push(Mark::Dot { at, role });
            if literal {
                d.push(Mark::segment(Vec2::new(at.x, 0.0), at, role));
            } else if let Some(prev) = last {
                d.push(Mark::segment(prev, at, role));
            }
            last = Some(at);
        }
    }
    d
}
