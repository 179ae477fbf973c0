//! Lesson 14: the spatial hash (Chulanov 2016), read from the broad phase's own grid.
//!
//! The scene's boxes go once through [`SpatialHash::update`], the function the
//! simulation calls; what it keeps for drawing ([`SpatialHash::cell_size`],
//! [`SpatialHash::cells`], [`SpatialHash::cell_slots`], [`SpatialHash::oversized`]) and
//! the pairs it returns are the whole lesson. The steps walk that state in the order the
//! algorithm built it:
//!
//! ```text
//! the cell size h (the median box's larger side)
//! per box: the cells it covers — or the oversized list, when it would cover too many
//! per cell holding two boxes or more: the pairs tested there
//! the oversized boxes against every box; the pairs
//! ```
//!
//! Which cell reports a pair: the broad phase reports it only in the cell holding the
//! lower-left corner of the two boxes' intersection, so a pair sharing several cells is
//! reported once (`broad/spatial_hash.rs`). The lesson says which cell that is with the
//! same floor(x / h); the golden test checks that its pairs are the broad phase's.
//!
//! The lesson lowers the oversize limit from 64 cells to [`LESSON_OVERSIZE_CELLS`] so a
//! ground a few metres long already counts as oversized and the view stays small.

use super::{shape_marks, Mark, Pane, Role, Side, Target, TopicStep, TopicTrace};
use crate::bounds::Aabb;
use crate::broad::SpatialHash;
use crate::lesson::narration::{fmt_num, Card};
use crate::lesson::pseudocode::{hash, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::Vec2;
use crate::scene::Scene;

/// Boxes covering more cells than this go to the oversized list in this lesson.
pub const LESSON_OVERSIZE_CELLS: u32 = 8;

/// Lesson 14's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    if scene.is_empty() {
        return super::placeholder(crate::scene::Topic::SpatialHash);
    }
    let poses: Vec<_> = (0..scene.len()).filter_map(|i| scene.pose(i)).collect();
    let boxes = super::body_boxes(scene, &poses);
    let proxies = super::body_proxies(scene, &boxes);
    let mut grid = SpatialHash::default();
    grid.set_oversize_cells(LESSON_OVERSIZE_CELLS);
    let mut pairs = Vec::new();
    let stats = grid.update(&proxies, &mut pairs);
    let h = grid.cell_size();
    // Occupied cells with their boxes, top row first, left to right (as the picture reads).
    let mut cells: Vec<((i32, i32), Vec<u32>)> = grid
        .cells()
        .iter()
        .enumerate()
        .map(|(k, c)| ((c.ix, c.iy), grid.cell_slots(k).collect()))
        .collect();
    cells.sort_by_key(|((ix, iy), _)| (-iy, *ix));
    let oversized: Vec<u32> = grid.oversized().to_vec();
    let cell_box = |(ix, iy): (i32, i32)| {
        let min = Vec2::new(ix as f32, iy as f32) * h;
        Aabb::new(min, min + Vec2::splat(h))
    };
    let cell_of = |p: Vec2| ((p.x / h).floor() as i32, (p.y / h).floor() as i32);

    // The grid lines under everything: over the boxes' extent, whole cells.
    let all = boxes.iter().skip(1).fold(boxes[0], |a, b| a.union(b));
    let (lo, hi) = (cell_of(all.min), cell_of(all.max));
    let mut grid_marks = Vec::new();
    for ix in lo.0..=hi.0 + 1 {
        let x = ix as f32 * h;
        grid_marks.push(Mark::segment(
            Vec2::new(x, lo.1 as f32 * h),
            Vec2::new(x, (hi.1 + 1) as f32 * h),
            Role::Muted,
        ));
    }
    for iy in lo.1..=hi.1 + 1 {
        let y = iy as f32 * h;
        grid_marks.push(Mark::segment(
            Vec2::new(lo.0 as f32 * h, y),
            Vec2::new((hi.0 + 1) as f32 * h, y),
            Role::Muted,
        ));
    }
    let world = |marked: &[(u32, Role)], lit_cells: &[((i32, i32), Role)], found: &[(u32, u32)]| {
        let mut marks = grid_marks.clone();
        for &(c, role) in lit_cells {
            marks.push(Mark::Fill {
                points: cell_box(c).outline(),
                role,
            });
        }
        for (i, (shape, pose)) in scene.shapes().iter().zip(&poses).enumerate() {
            marks.extend(shape_marks(shape, pose, Role::Body(i)));
            let role = marked
                .iter()
                .find(|(id, _)| *id as usize == i)
                .map_or(Role::Muted, |&(_, r)| r);
            marks.push(Mark::Outline {
                points: boxes[i].outline(),
                role,
            });
        }
        for &(a, b) in found {
            marks.push(Mark::segment(
                poses[a as usize].translation,
                poses[b as usize].translation,
                Role::Pair,
            ));
        }
        for (i, pose) in poses.iter().enumerate() {
            marks.push(Mark::label(
                pose.translation,
                format!("b{i}"),
                Role::Body(i),
                Side::Right,
            ));
        }
        marks
    };
    // The diagram: one row per occupied cell, a bar as long as its count, then a row for
    // the oversized list.
    let rows = cells.len() + 1;
    let row_y = |r: usize| -0.9 * r as f32;
    let max_count = cells.iter().map(|c| c.1.len()).max().unwrap_or(1).max(1) as f32;
    // `upto`: the last body inserted so far (-1: none yet; `None`: all).
    let diagram = |upto: Option<i64>, lit: Option<usize>| {
        let shown = |slot: u32| upto.is_none_or(|b| i64::from(slot) <= b);
        let mut marks = vec![Mark::segment(
            Vec2::new(-2.6, row_y(rows - 1) - 0.6),
            Vec2::new(max_count + 3.2, row_y(rows - 1) - 0.6),
            Role::Muted,
        )];
        for (r, ((ix, iy), slots)) in cells.iter().enumerate() {
            let y = row_y(r);
            let inside: Vec<u32> = slots.iter().copied().filter(|&s| shown(s)).collect();
            let role = if lit == Some(r) { Role::Active } else { Role::Partner };
            marks.push(Mark::label(
                Vec2::new(-2.6, y),
                format!("({ix}, {iy})"),
                Role::Muted,
                Side::Right,
            ));
            if !inside.is_empty() {
                let w = inside.len() as f32;
                marks.push(Mark::Fill {
                    points: vec![
                        Vec2::new(0.0, y - 0.3),
                        Vec2::new(w, y - 0.3),
                        Vec2::new(w, y + 0.3),
                        Vec2::new(0.0, y + 0.3),
                    ],
                    role,
                });
                let names: Vec<String> = inside.iter().map(|s| format!("b{s}")).collect();
                marks.push(Mark::label(Vec2::new(w, y), names.join(" "), role, Side::Right));
            }
        }
        let y = row_y(rows - 1);
        let big: Vec<String> = oversized
            .iter()
            .filter(|&&s| shown(s))
            .map(|s| format!("b{s}"))
            .collect();
        // One label, so the names stay on the row in a narrow view.
        let (text, role) = if big.is_empty() {
            ("oversized".to_string(), Role::Muted)
        } else {
            (format!("oversized: {}", big.join(" ")), Role::Rejected)
        };
        marks.push(Mark::label(Vec2::new(-2.6, y), text, role, Side::Right));
        marks
    };
    let card = |title: String, text: String, line: usize| Card {
        title,
        text,
        listing: Listing::SpatialHash,
        pseudocode_line: line,
    };
    let extent = (all.max - all.min).max_element();
    let tolerance = (super::TOLERANCE_SHARE * extent).min(0.45 * h);
    let mut steps = Vec::new();
    let sizes: Vec<String> = boxes.iter().map(|b| fmt_num((b.max - b.min).max_element())).collect();
    steps.push(TopicStep {
        card: card(
            format!("Cell size h = {}", fmt_num(h)),
            format!(
                "The grid's cells are h = {} m wide: the median of the boxes' larger sides ({}). About one body per cell: much smaller and every body fills many cells, much larger and many bodies share one.",
                fmt_num(h),
                sizes.join(", ")
            ),
            hash::CELL,
        ),
        iteration: 0,
        world: world(&[], &[], &[]),
        diagram: diagram(Some(-1), None),
        target: None,
    });
    for (i, b) in boxes.iter().enumerate() {
        let slot = i as u32;
        let covered: Vec<(i32, i32)> = cells
            .iter()
            .filter(|(_, slots)| slots.contains(&slot))
            .map(|(c, _)| *c)
            .collect();
        let is_big = oversized.contains(&slot);
        let (lo, hi) = (cell_of(b.min), cell_of(b.max));
        let span = ((hi.0 - lo.0 + 1) as i64) * ((hi.1 - lo.1 + 1) as i64);
        let lit: Vec<((i32, i32), Role)> = covered.iter().map(|&c| (c, Role::Active)).collect();
        let (title, text, line) = if is_big {
            (
                format!("b{i} is oversized"),
                format!(
                    "b{i}'s box would cover {span} cells, more than {LESSON_OVERSIZE_CELLS}: instead of filling them all, it goes to the oversized list and will be tested against every other box."
                ),
                hash::OVERSIZE,
            )
        } else {
            let names: Vec<String> = covered.iter().map(|(x, y)| format!("({x}, {y})")).collect();
            (
                format!(
                    "b{i} goes into {} cell{}",
                    covered.len(),
                    if covered.len() == 1 { "" } else { "s" }
                ),
                format!(
                    "b{i}'s box runs from ({}, {}) to ({}, {}); dividing by h and rounding down gives the cells {}.",
                    fmt_num(b.min.x),
                    fmt_num(b.min.y),
                    fmt_num(b.max.x),
                    fmt_num(b.max.y),
                    names.join(", ")
                ),
                hash::INSERT,
            )
        };
        let target = (!is_big && !covered.is_empty()).then(|| Target {
            prompt: format!("Which cells will b{i}'s box fill? Click one of them."),
            pane: Pane::World,
            answers: covered.iter().map(|&c| cell_box(c).center()).collect(),
            tolerance,
        });
        steps.push(TopicStep {
            card: card(title, text, line),
            iteration: i + 1,
            world: world(&[(slot, Role::Active)], &lit, &[]),
            diagram: diagram(Some(i64::from(slot)), None),
            target,
        });
    }
    let mut found: Vec<(u32, u32)> = Vec::new();
    for (r, (c, slots)) in cells.iter().enumerate() {
        if slots.len() < 2 {
            continue;
        }
        let mut lines = Vec::new();
        for (k, &a) in slots.iter().enumerate() {
            for &b in &slots[k + 1..] {
                let (ba, bb) = (boxes[a as usize], boxes[b as usize]);
                let both_static = proxies[a as usize].is_static && proxies[b as usize].is_static;
                let text = if both_static {
                    format!("b{a} and b{b} are both static: skipped")
                } else if !ba.overlaps(&bb) {
                    format!("b{a} and b{b}: the boxes do not overlap")
                } else {
                    let corner = ba.min.max(bb.min);
                    let home = cell_of(corner);
                    if home == *c {
                        let p = (a.min(b), a.max(b));
                        if !found.contains(&p) {
                            found.push(p);
                        }
                        format!("b{a} and b{b} overlap, and their overlap's lower-left corner is in this cell: a pair")
                    } else {
                        format!(
                            "b{a} and b{b} overlap, but the pair is reported in cell ({}, {}), where their overlap's lower-left corner lies",
                            home.0, home.1
                        )
                    }
                };
                lines.push(text);
            }
        }
        let marked: Vec<(u32, Role)> = slots.iter().map(|&s| (s, Role::Active)).collect();
        steps.push(TopicStep {
            card: card(
                format!("Cell ({}, {}): {} boxes", c.0, c.1, slots.len()),
                format!(
                    "Only boxes sharing a cell are tested against each other. {}.",
                    lines.join("; ")
                ),
                hash::PAIRS,
            ),
            iteration: boxes.len() + 1 + r,
            world: world(&marked, &[(*c, Role::Active)], &found),
            diagram: diagram(None, Some(r)),
            target: None,
        });
    }
    for &o in &oversized {
        let hits: Vec<u32> = pairs
            .iter()
            .filter(|(a, b)| *a == o || *b == o)
            .map(|(a, b)| if *a == o { *b } else { *a })
            .collect();
        for &x in &hits {
            let p = (o.min(x), o.max(x));
            if !found.contains(&p) {
                found.push(p);
            }
        }
        let names: Vec<String> = hits.iter().map(|x| format!("b{x}")).collect();
        steps.push(TopicStep {
            card: card(
                format!("Oversized b{o} against every box"),
                format!(
                    "b{o} is in no cell, so it is tested against each of the other {} boxes: {} overlap{} it ({}). An oversized box costs n tests, about what its many cells would have cost.",
                    boxes.len() - 1,
                    hits.len(),
                    if hits.len() == 1 { "s" } else { "" },
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                ),
                hash::BIG,
            ),
            iteration: boxes.len() + 1 + cells.len(),
            world: world(&[(o, Role::Active)], &[], &found),
            diagram: diagram(None, None),
            target: None,
        });
    }
    found.sort_unstable();
    let names: Vec<String> = pairs.iter().map(|(a, b)| format!("(b{a}, b{b})")).collect();
    steps.push(TopicStep {
        card: card(
            format!("Pairs: {}", if names.is_empty() { "none".to_string() } else { names.join(", ") }),
            format!(
                "{} box tests in {} occupied cells and the oversized list found {} pair{}; brute force would have made {} tests.",
                stats.bv_tests,
                cells.len(),
                pairs.len(),
                if pairs.len() == 1 { "" } else { "s" },
                boxes.len() * (boxes.len() - 1) / 2
            ),
            hash::PAIRS,
        ),
        iteration: boxes.len() + 2 + cells.len(),
        world: world(&[], &[], &pairs),
        diagram: diagram(None, None),
        target: None,
    });
    debug_assert_eq!(
        found, pairs,
        "the lesson's reading of the grid gives the broad phase's pairs"
    );
    TopicTrace {
        world_title: "World: the grid and the boxes".to_string(),
        diagram_title: "Boxes per occupied cell".to_string(),
        quiz: quiz(&cells, &oversized, pairs.len()),
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

fn quiz(cells: &[((i32, i32), Vec<u32>)], oversized: &[u32], pairs: usize) -> Vec<QuizQuestion> {
    let mut out = Vec::new();
    let busiest = cells.iter().map(|c| c.1.len()).max().unwrap_or(0);
    let boxes = |k: usize| format!("{k} box{}", if k == 1 { "" } else { "es" });
    let counts: Vec<String> = [busiest.saturating_sub(1), busiest, busiest + 1, busiest + 2]
        .into_iter()
        .map(boxes)
        .collect();
    out.extend(choose(
        "How many boxes share the busiest cell?",
        &counts,
        &boxes(busiest),
        format!("The busiest cell holds {busiest}: every two of them are tested there."),
    ));
    let n = oversized.len();
    out.extend(choose(
        "How many boxes went to the oversized list?",
        &(0..=3).map(boxes).collect::<Vec<_>>(),
        &boxes(n),
        format!(
            "{} would have covered more than {LESSON_OVERSIZE_CELLS} cells.",
            boxes(n)
        ),
    ));
    out.extend(choose(
        "How many pairs did the grid report?",
        &[pairs.saturating_sub(1), pairs, pairs + 1, pairs + 2]
            .iter()
            .map(|k| format!("{k} pairs"))
            .collect::<Vec<_>>(),
        &format!("{pairs} pairs"),
        "Each pair is reported once, in the cell of its overlap's lower-left corner.".to_string(),
    ));
    out
}
