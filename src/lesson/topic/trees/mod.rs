//! Lesson 12: trees and the cost model, recorded from `geometry::EdgeTree` itself.
//!
//! Body 0 is a big polygon, body 1 a small query shape. The lesson builds the static
//! tree over body 0's edges with the node volume the preset names (boxes by default; the
//! OBB-tree of Gottschalk, Lin and Manocha, 1996, in 2D) and shows it level by level.
//! Then it steps through one pairwise descent against the query's tree
//! ([`EdgeTree::for_each_overlapping_pair_recorded`], the code path of every
//! non-convex pair in the world) with a recorder that keeps each test: every node pair
//! is one unit of Nv (pruned or opened), every edge pair at two leaves one unit of Np.
//! Last, the same descent with every other node volume, for the table of Liu, Jiang and
//! Shi's (2018) cost model T = Nv·Cv + Np·Cp.
//!
//! ```text
//! the tree, level by level → the descent, one node test a step (Nv, Np live)
//!   → the same descent with each node volume → T = Nv·Cv + Np·Cp
//! ```
//!
//! Cv and Cp are times, so they stay out of the trace (golden traces are exact): the
//! trace carries the counts ([`CostCounts`]) and `cost::measure` times the descent's own two
//! tests ([`EdgeTree::node_test`], [`EdgeTree::item_test`]) when the window opens the
//! lesson; the panel multiplies. The tree's diagram is drawn by `layout.rs`.

use super::{shape_marks, Mark, Pane, Role, Side, Table, Target, TopicStep, TopicTrace, VolumeKind};
use crate::bounds::{BoundKind, BoundingVolume};
use crate::geometry::edge_tree::PairRecorder;
use crate::geometry::{EdgeTree, Shape};
use crate::lesson::narration::{fmt_num, plural, Card};
use crate::lesson::pseudocode::{trees as line, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::{Pose, Vec2};
use crate::scene::Scene;

mod cost;
mod layout;

pub(crate) use cost::measure;
pub use cost::{CostCount, CostCounts, MeasuredCost};
use layout::TreeLayout;

/// Grown volumes: none. The descent is shown as the world would run it with touching
/// counting as overlap; a margin would only make every volume a little larger.
const MARGIN_M: f32 = 0.0;

fn volume_role(kind: BoundKind) -> Role {
    Role::Volume(match kind {
        BoundKind::Aabb => VolumeKind::Aabb,
        BoundKind::Circle => VolumeKind::Circle,
        BoundKind::Obb => VolumeKind::ObbMinArea,
        BoundKind::Kdop8 => VolumeKind::Kdop8,
    })
}

/// The two bodies' outlines in their own frames and their poses.
struct Bodies {
    a_local: Vec<Vec2>,
    b_local: Vec<Vec2>,
    pose_a: Pose,
    pose_b: Pose,
}

impl Bodies {
    fn of(scene: &Scene) -> Option<Bodies> {
        let outline = |i: usize| match scene.shapes().get(i)? {
            Shape::Polygon(p) => Some(p.vertices().to_vec()),
            _ => None,
        };
        Some(Bodies {
            a_local: outline(0)?,
            b_local: outline(1)?,
            pose_a: scene.pose(0)?,
            pose_b: scene.pose(1)?,
        })
    }

    /// Both trees with nodes of `kind`.
    fn trees(&self, kind: BoundKind) -> (EdgeTree, EdgeTree) {
        (
            EdgeTree::over_edges_with(&self.a_local, kind),
            EdgeTree::over_edges_with(&self.b_local, kind),
        )
    }

    /// The query's frame to the polygon's.
    fn xf_ab(&self) -> Pose {
        self.pose_a.inv_mul(&self.pose_b)
    }
}

/// One node pair tested, and the edge pairs its leaves tested after it.
#[derive(Clone, Debug, Default)]
struct Visit {
    /// The polygon's node (the query's tree is one leaf in this lesson's scenes).
    a: usize,
    overlap: bool,
    /// (edge of A, edge of B, boxes overlap).
    edges: Vec<(usize, usize, bool)>,
}

#[derive(Default)]
struct Visits(Vec<Visit>);

impl PairRecorder for Visits {
    fn node_pair(&mut self, a: usize, _b: usize, overlap: bool) {
        self.0.push(Visit {
            a,
            overlap,
            edges: Vec::new(),
        });
    }

    fn item_pair(&mut self, a: usize, b: usize, overlap: bool) {
        if let Some(v) = self.0.last_mut() {
            v.edges.push((a, b, overlap));
        }
    }
}

/// One recorded descent.
struct Descent {
    visits: Vec<Visit>,
    candidates: usize,
}

impl Descent {
    fn run(bodies: &Bodies, a: &EdgeTree, b: &EdgeTree) -> Descent {
        let mut visits = Visits::default();
        let mut candidates = 0;
        a.for_each_overlapping_pair_recorded(
            &bodies.pose_a,
            b,
            &bodies.pose_b,
            MARGIN_M,
            |_, _| candidates += 1,
            &mut visits,
        );
        Descent {
            visits: visits.0,
            candidates,
        }
    }

    fn nv(&self) -> u32 {
        self.visits.len() as u32
    }

    fn np(&self) -> u32 {
        self.visits.iter().map(|v| v.edges.len() as u32).sum()
    }

    fn pruned(&self) -> usize {
        self.visits.iter().filter(|v| !v.overlap).count()
    }

    /// The role of node `a` after the first `upto` visits: pruned, opened, a leaf whose
    /// edges were tested, or not reached.
    fn roles(&self, upto: usize, tree: &EdgeTree) -> Vec<(usize, Role)> {
        self.visits[..upto]
            .iter()
            .map(|v| {
                let leaf = tree.node(v.a).is_some_and(|n| n.children.is_none());
                let role = match (v.overlap, leaf) {
                    (false, _) => Role::Rejected,
                    (true, true) => Role::Pair,
                    (true, false) => Role::Partner,
                };
                (v.a, role)
            })
            .collect()
    }
}

fn posed(points: Vec<Vec2>, pose: &Pose) -> Vec<Vec2> {
    points.into_iter().map(|p| pose.apply_point(p)).collect()
}

fn volume_mark(v: &BoundingVolume, pose: &Pose, role: Role) -> Mark {
    Mark::Outline {
        points: posed(v.outline(), pose),
        role,
    }
}

/// Lesson 12's trace on `scene`, stepping through the tree of `shown` volumes.
pub(super) fn trace(scene: &Scene, shown: BoundKind) -> TopicTrace {
    let Some(bodies) = Bodies::of(scene) else {
        return super::placeholder(crate::scene::Topic::Trees);
    };
    let (tree, query) = bodies.trees(shown);
    let layout = TreeLayout::of(&tree);
    let xf_ab = bodies.xf_ab();
    let name = shown.name();
    let n_edges = bodies.a_local.len();
    let card = |title: String, text: String, pseudocode_line: usize| Card {
        title,
        text,
        listing: Listing::Trees,
        pseudocode_line,
    };
    let base = |marks: &mut Vec<Mark>| {
        for (i, pose) in [bodies.pose_a, bodies.pose_b].iter().enumerate() {
            marks.extend(shape_marks(&scene.shapes()[i], pose, Role::Body(i)));
        }
        marks.push(Mark::label(
            bodies.pose_b.translation,
            "query",
            Role::Body(1),
            Side::Right,
        ));
    };
    let query_volume =
        |q: &EdgeTree| volume_mark(&q.node_volume_moved(0, &xf_ab, MARGIN_M), &bodies.pose_a, Role::Body(1));
    let polygon_area = area(&bodies.a_local);
    let mut steps = Vec::new();

    // 1. The tree, level by level.
    for d in 0..=layout.max_depth() {
        let level: Vec<usize> = (0..tree.node_count()).filter(|&i| layout.depth[i] == d).collect();
        let leaves = level
            .iter()
            .filter(|&&i| tree.node(i).is_some_and(|v| v.children.is_none()))
            .count();
        let area: f32 = level
            .iter()
            .filter_map(|&i| tree.node(i))
            .map(|v| v.volume.area())
            .sum();
        let mut world = Vec::new();
        base(&mut world);
        for &i in &level {
            if let Some(v) = tree.node(i) {
                world.push(volume_mark(&v.volume, &bodies.pose_a, volume_role(shown)));
            }
        }
        let lit: Vec<(usize, Role)> = level.iter().map(|&i| (i, volume_role(shown))).collect();
        let text = if d == 0 {
            format!(
                "The root's {name} holds all {n_edges} edges of the polygon ({} m² of volume around {} m² of polygon). Each node splits its edges in two at the median along the longer side of its box, down to leaves of at most 8 edges. The split is the same whatever the node volume: only the volume drawn around each node's edges differs.",
                fmt_num(area),
                fmt_num(polygon_area)
            )
        } else {
            format!(
                "Level {d}: {} ({}), their {name}s covering {} m² together against the polygon's {} m². Volume around no edge is where a query can overlap a node and still find nothing below it: the tighter the volumes, the earlier a descent is pruned.",
                plural(level.len(), "node", "nodes"),
                plural(leaves, "leaf", "leaves"),
                fmt_num(area),
                fmt_num(polygon_area)
            )
        };
        steps.push(TopicStep {
            card: card(
                format!("Level {d}: {}", plural(level.len(), name, &format!("{name}s"))),
                text,
                if d == 0 { line::BUILD } else { line::SPLIT },
            ),
            iteration: 0,
            world,
            diagram: layout.marks(&tree, &lit),
            target: None,
        });
    }

    // 2. The descent against the query, one node test a step.
    let descents: Vec<(BoundKind, Descent)> = BoundKind::ALL
        .into_iter()
        .map(|k| {
            let (a, b) = bodies.trees(k);
            (k, Descent::run(&bodies, &a, &b))
        })
        .collect();
    let descent = &descents.iter().find(|(k, _)| *k == shown).expect("every kind").1;
    let full = descents.iter().map(|(_, d)| d.nv().max(d.np())).max().unwrap_or(1);
    let (mut nv, mut np) = (0u32, 0u32);
    for (s, v) in descent.visits.iter().enumerate() {
        nv += 1;
        np += v.edges.len() as u32;
        let node = tree.node(v.a).expect("a node of the tree");
        let leaf = node.children.is_none();
        let hits = v.edges.iter().filter(|e| e.2).count();
        let mut world = Vec::new();
        base(&mut world);
        for (a, role) in descent.roles(s, &tree) {
            if role != Role::Partner {
                if let Some(n) = tree.node(a) {
                    world.push(volume_mark(&n.volume, &bodies.pose_a, role));
                }
            }
        }
        world.push(query_volume(&query));
        world.push(volume_mark(&node.volume, &bodies.pose_a, Role::Active));
        for &(e, _, hit) in &v.edges {
            let p = bodies.pose_a.apply_point(bodies.a_local[e]);
            let q = bodies.pose_a.apply_point(bodies.a_local[(e + 1) % n_edges]);
            world.push(Mark::segment(p, q, if hit { Role::Pair } else { Role::Rejected }));
        }
        let mut lit = descent.roles(s, &tree);
        lit.push((v.a, Role::Active));
        let mut diagram = layout.marks(&tree, &lit);
        diagram.push(Mark::label(
            layout.at[v.a],
            format!("n{}", v.a),
            Role::Active,
            Side::Above,
        ));
        diagram.extend(layout.bars(0, name, nv, np, full));
        let counts = format!("Nv = {nv}, Np = {np}");
        let (title, text, pseudocode_line) = match (v.overlap, leaf) {
            (false, _) => (
                format!("n{}: pruned ({counts})", v.a),
                format!(
                    "n{}'s {name} does not overlap the query's: none of the {} edges below it can touch the query, and the descent never looks at them. One volume test (Nv = {nv}) spared {}.",
                    v.a,
                    layout.edges[v.a],
                    plural(layout.edges[v.a] * query_edges(&query), "edge test", "edge tests")
                ),
                line::PRUNE,
            ),
            (true, false) => (
                format!("n{}: overlaps, open it ({counts})", v.a),
                format!(
                    "n{}'s {name} overlaps the query's (Nv = {nv}): something below may touch, so both children go on the stack, the right one on top. The next pop tests it.",
                    v.a
                ),
                line::OPEN,
            ),
            (true, true) => (
                format!("Leaf n{}: {} ({counts})", v.a, plural(v.edges.len(), "edge test", "edge tests")),
                format!(
                    "Leaf n{} overlaps the query: each of its {} edges against each of the query's {} edges, box against box, {} tests (Np = {np}); {} for the exact test.",
                    v.a,
                    node.items.len(),
                    query_edges(&query),
                    v.edges.len(),
                    plural(hits, "pair goes on", "pairs go on")
                ),
                line::LEAF,
            ),
        };
        let prompt = if s == 0 {
            "The stack starts with the two roots: which node of the polygon's tree does the descent test first? Click it in the tree.".to_string()
        } else {
            format!(
                "Which node does the descent test next? Click it in the tree (it pops the top of the stack: {} so far).",
                plural(s, "node tested", "nodes tested")
            )
        };
        let target = Some(Target {
            prompt,
            pane: Pane::Diagram,
            answers: vec![layout.at[v.a]],
            tolerance: layout.click_tolerance(v.a),
        });
        steps.push(TopicStep {
            card: card(title, text, pseudocode_line),
            iteration: 1,
            world,
            diagram,
            target,
        });
    }

    // 3. The same descent with every node volume, then the cost model.
    let same_pairs = descents.iter().all(|(_, d)| d.candidates == descent.candidates);
    let pairs_note = if same_pairs {
        "Every node volume hands the same pairs to the exact test; only the work differs.".to_string()
    } else {
        "The candidates differ between volumes: an edge pair whose boxes overlap can still lie outside a tighter node volume, and is pruned there. The exact test after them gives every volume the same answer.".to_string()
    };
    for (row, (k, d)) in descents.iter().enumerate() {
        let (t, q) = bodies.trees(*k);
        let mut world = Vec::new();
        base(&mut world);
        for (a, role) in d.roles(d.visits.len(), &t) {
            if let Some(n) = t.node(a) {
                world.push(volume_mark(&n.volume, &bodies.pose_a, role));
            }
        }
        world.push(query_volume(&q));
        let mut diagram = layout.marks(&t, &d.roles(d.visits.len(), &t));
        for (r, (k2, d2)) in descents.iter().enumerate().take(row + 1) {
            diagram.extend(layout.bars(r, k2.name(), d2.nv(), d2.np(), full));
        }
        let versus = if *k == shown {
            "the descent just stepped through".to_string()
        } else {
            format!(
                "against {name}: {} node tests and {} edge tests",
                signed(d.nv() as i64 - descent.nv() as i64),
                signed(d.np() as i64 - descent.np() as i64)
            )
        };
        steps.push(TopicStep {
            card: card(
                format!("{} nodes: Nv = {}, Np = {}", k.name(), d.nv(), d.np()),
                format!(
                    "The same tree (the splits do not depend on the volume) with {} nodes, the same query: {} pruned, {} candidate pairs ({versus}). {pairs_note}",
                    k.name(),
                    plural(d.pruned(), "node", "nodes"),
                    d.candidates
                ),
                line::COST,
            ),
            iteration: 2,
            world,
            diagram,
            target: None,
        });
    }
    let fewest = |f: fn(&Descent) -> u32| {
        let min = descents.iter().map(|(_, d)| f(d)).min().unwrap_or(0);
        let names: Vec<&str> = descents
            .iter()
            .filter(|(_, d)| f(d) == min)
            .map(|(k, _)| k.name())
            .collect();
        (list(&names), min)
    };
    let (fewest_nv, min_nv) = fewest(Descent::nv);
    let (fewest_np, min_np) = fewest(Descent::np);
    let last = steps.last().map(|s: &TopicStep| (s.world.clone(), s.diagram.clone()));
    let (world, diagram) = last.unwrap_or_default();
    steps.push(TopicStep {
        card: card(
            "The cost model: T = Nv·Cv + Np·Cp".to_string(),
            format!(
                "Fewest node tests: {fewest_nv} (Nv = {min_nv}); fewest edge tests: {fewest_np} (Np = {min_np}). Tighter volumes prune earlier, the OBB-tree's claim (Gottschalk, Lin and Manocha 1996), but a count is not a time: a box test is four comparisons after turning one box, an OBB test a separating-axis test on four axes, a circle test one distance. The panel times both tests on this machine (Cv per node volume, Cp per edge pair) and multiplies: the fewest tests win only if they are not too dear."
            ),
            line::COST,
        ),
        iteration: 3,
        world,
        diagram,
        target: None,
    });

    let table = Table {
        title: "One descent per node volume (same tree, same query)".to_string(),
        header: ["node volume", "Nv", "Np", "pruned", "pairs"]
            .map(String::from)
            .to_vec(),
        rows: descents
            .iter()
            .map(|(k, d)| {
                vec![
                    k.name().to_string(),
                    d.nv().to_string(),
                    d.np().to_string(),
                    d.pruned().to_string(),
                    d.candidates.to_string(),
                ]
            })
            .collect(),
    };
    let counts = CostCounts {
        shown,
        rows: descents
            .iter()
            .map(|(k, d)| CostCount {
                kind: *k,
                nv: d.nv(),
                np: d.np(),
            })
            .collect(),
    };
    TopicTrace {
        world_title: format!("World: {name} tree, query"),
        diagram_title: "The tree; Nv and Np".to_string(),
        quiz: quiz(name, descent, &descents),
        steps,
        table: Some(table),
        cost: Some(counts),
        world_bounds: None,
        diagram_bounds: None,
    }
}

/// The area of a simple polygon (shoelace; m²).
fn area(outline: &[Vec2]) -> f32 {
    let n = outline.len();
    0.5 * (0..n)
        .map(|i| crate::math::cross(outline[i], outline[(i + 1) % n]))
        .sum::<f32>()
        .abs()
}

/// "A", "A and B", "A, B and C".
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn query_edges(query: &EdgeTree) -> usize {
    (0..query.node_count())
        .filter_map(|i| query.node(i))
        .map(|v| v.items.len())
        .sum()
}

fn signed(d: i64) -> String {
    if d > 0 {
        format!("{d} more")
    } else if d < 0 {
        format!("{} fewer", -d)
    } else {
        "as many".to_string()
    }
}

fn quiz(name: &str, shown: &Descent, all: &[(BoundKind, Descent)]) -> Vec<QuizQuestion> {
    let opts = |v: u32, unit: &str| -> Vec<String> {
        [v / 2, v, v + v / 2 + 1, 2 * v + 2]
            .iter()
            .map(|k| format!("{k} {unit}"))
            .collect()
    };
    let mut out = Vec::new();
    let nv = shown.nv();
    out.extend(choose(
        &format!("With {name} nodes, how many node pairs did the descent test (Nv)?"),
        &opts(nv, "tests"),
        &format!("{nv} tests"),
        format!(
            "{nv}: every pop of the stack is one volume test, opened or pruned ({} pruned).",
            shown.pruned()
        ),
    ));
    let np = shown.np();
    out.extend(choose(
        &format!("With {name} nodes, how many edge pairs did the leaves test (Np)?"),
        &opts(np, "tests"),
        &format!("{np} tests"),
        format!(
            "{np}: each leaf reached tests its edges against the query's; {} of them overlapped.",
            shown.candidates
        ),
    ));
    // Which volume stands out on a count, asked only when one volume alone does.
    let names: Vec<String> = all.iter().map(|(k, _)| k.name().to_string()).collect();
    let mut by_count = |prompt: &str, count: fn(&Descent) -> u32, most: bool, why: &str| {
        let counts: Vec<u32> = all.iter().map(|(_, d)| count(d)).collect();
        let pick = if most { counts.iter().max() } else { counts.iter().min() };
        let pick = pick.copied().unwrap_or(0);
        let picked: Vec<&str> = all
            .iter()
            .zip(&counts)
            .filter(|(_, c)| **c == pick)
            .map(|((k, _), _)| k.name())
            .collect();
        if let [one] = picked[..] {
            let listed: Vec<String> = all
                .iter()
                .zip(&counts)
                .map(|((k, _), c)| format!("{} {c}", k.name()))
                .collect();
            out.extend(choose(prompt, &names, one, format!("{why}: {}.", listed.join(", "))));
        }
    };
    by_count(
        "Which node volume made the descent test the fewest nodes?",
        Descent::nv,
        false,
        "Nv per volume",
    );
    by_count(
        "Which node volume made the leaves test the most edge pairs?",
        Descent::np,
        true,
        "Np per volume (a loose volume reaches leaves whose edges are nowhere near the query)",
    );
    out
}
