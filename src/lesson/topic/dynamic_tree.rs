//! Lesson 15: the dynamic AABB tree, recorded from `broad::DynamicTree` itself.
//!
//! The scene's bodies are inserted one by one with
//! [`DynamicTree::create_proxy_recorded`], the code path of every insertion, with a
//! recorder that keeps each node of the descent with the perimeter costs that decided
//! it (the surface-area heuristic of Box2D's `b2DynamicTree`; van den Bergen 1997 for
//! the refitting), the sibling found, and every rotation on the way back up. Then one
//! query: which leaves' fat boxes overlap body 0's box ([`DynamicTree::query`]).
//!
//! ```text
//! per body: the fat leaf → each node of the descent (direct cost vs the two children's)
//!           → the sibling → rotations → the tree after
//! the query: the node boxes tested, the candidates
//! ```
//!
//! The diagram draws the tree itself (leaves in order along x, depth down); the nodes a
//! step is about are found in it by their boxes, which the recorder hands over exactly.

use super::{shape_marks, Mark, Pane, Role, Side, Target, TopicStep, TopicTrace};
use crate::bounds::Aabb;
use crate::broad::{DynamicTree, TreeNodeView, TreeRecorder, DEFAULT_TREE_MARGIN};
use crate::lesson::narration::{fmt_num, plural, Card};
use crate::lesson::pseudocode::{tree, Listing};
use crate::lesson::quiz::{choose, QuizQuestion};
use crate::math::Vec2;
use crate::scene::Scene;

#[derive(Clone, Debug, PartialEq)]
enum Event {
    Descend {
        node: Aabb,
        children: [Aabb; 2],
        direct: f32,
        costs: [f32; 2],
        chosen: Option<usize>,
    },
    Sibling(Aabb),
    Rotate {
        demoted: Aabb,
        lifted: Aabb,
        height: u32,
    },
}

#[derive(Default)]
struct Events(Vec<Event>);

impl TreeRecorder for Events {
    fn descend(
        &mut self,
        node: &Aabb,
        _leaf: &Aabb,
        children: [&Aabb; 2],
        direct: f32,
        costs: [f32; 2],
        chosen: Option<usize>,
    ) {
        self.0.push(Event::Descend {
            node: *node,
            children: [*children[0], *children[1]],
            direct,
            costs,
            chosen,
        });
    }

    fn sibling(&mut self, sibling: &Aabb) {
        self.0.push(Event::Sibling(*sibling));
    }

    fn rotate(&mut self, demoted: &Aabb, lifted: &Aabb, height: u32) {
        self.0.push(Event::Rotate {
            demoted: *demoted,
            lifted: *lifted,
            height,
        });
    }
}

/// The tree's drawing: per node (preorder) its point in the diagram, and the edges.
fn tree_marks(nodes: &[TreeNodeView], lit: &[(Aabb, Role)]) -> Vec<Mark> {
    // Parents from preorder and depth; leaves spaced along x in order, parents above
    // the middle of their children.
    let n = nodes.len();
    let mut parent = vec![usize::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    for (i, v) in nodes.iter().enumerate() {
        stack.truncate(v.depth as usize);
        if let Some(&p) = stack.last() {
            parent[i] = p;
        }
        stack.push(i);
    }
    let mut x = vec![0.0f32; n];
    let mut next_leaf = 0.0;
    for (xi, v) in x.iter_mut().zip(nodes) {
        if v.leaf_data.is_some() {
            *xi = next_leaf;
            next_leaf += 1.0;
        }
    }
    // Children come after their parent in preorder: settle parents from the end.
    let mut sum = vec![(0.0f32, 0u32); n];
    for i in (0..n).rev() {
        if nodes[i].leaf_data.is_none() && sum[i].1 > 0 {
            x[i] = sum[i].0 / sum[i].1 as f32;
        }
        if parent[i] != usize::MAX {
            sum[parent[i]].0 += x[i];
            sum[parent[i]].1 += 1;
        }
    }
    let at = |i: usize| Vec2::new(x[i], -1.2 * nodes[i].depth as f32);
    let mut marks = Vec::new();
    for (i, &p) in parent.iter().enumerate() {
        if p != usize::MAX {
            marks.push(Mark::segment(at(p), at(i), Role::Muted));
        }
    }
    for (i, v) in nodes.iter().enumerate() {
        let role = lit.iter().find(|(b, _)| *b == v.aabb).map(|(_, r)| *r);
        match v.leaf_data {
            Some(d) => {
                let r = role.unwrap_or(Role::Body(d as usize));
                marks.push(Mark::Dot { at: at(i), role: r });
                marks.push(Mark::label(at(i), format!("b{d}"), r, Side::Below));
            }
            None => {
                let r = role.unwrap_or(Role::Muted);
                marks.push(Mark::Circle {
                    center: at(i),
                    radius: 0.16,
                    role: r,
                    filled: role.is_some(),
                });
            }
        }
    }
    marks
}

/// Lesson 15's trace on `scene`.
pub(super) fn trace(scene: &Scene) -> TopicTrace {
    if scene.is_empty() {
        return super::placeholder(crate::scene::Topic::DynamicTree);
    }
    let poses: Vec<_> = (0..scene.len()).filter_map(|i| scene.pose(i)).collect();
    let boxes = super::body_boxes(scene, &poses);
    let all = boxes.iter().skip(1).fold(boxes[0], |a, b| a.union(b));
    let tolerance = super::TOLERANCE_SHARE * (all.max - all.min).max_element();
    let card = |title: String, text: String, line: usize| Card {
        title,
        text,
        listing: Listing::DynamicTree,
        pseudocode_line: line,
    };
    let bodies = |marks: &mut Vec<Mark>| {
        for (i, (shape, pose)) in scene.shapes().iter().zip(&poses).enumerate() {
            marks.extend(shape_marks(shape, pose, Role::Body(i)));
        }
    };
    let node_boxes = |nodes: &[TreeNodeView], lit: &[(Aabb, Role)]| {
        let mut marks = Vec::new();
        bodies(&mut marks);
        for v in nodes {
            let role = lit
                .iter()
                .find(|(b, _)| *b == v.aabb)
                .map(|(_, r)| *r)
                .unwrap_or(Role::Muted);
            marks.push(Mark::Outline {
                points: v.aabb.outline(),
                role,
            });
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
    let mut tree = DynamicTree::new(DEFAULT_TREE_MARGIN);
    let mut steps = Vec::new();
    let mut rotations = 0usize;
    for (i, b) in boxes.iter().enumerate() {
        let before = tree.node_views();
        let fat = b.inflated(DEFAULT_TREE_MARGIN);
        let mut events = Events::default();
        tree.create_proxy_recorded(*b, i as u32, &mut events);
        let after = tree.node_views();
        let mut world = node_boxes(&before, &[]);
        world.push(Mark::Outline {
            points: fat.outline(),
            role: Role::Active,
        });
        steps.push(TopicStep {
            card: card(
                format!("Insert b{i}"),
                if before.is_empty() {
                    format!(
                        "b{i}'s box, grown by the margin ({} m) so small motions do not touch the tree, becomes the root: the tree was empty.",
                        fmt_num(DEFAULT_TREE_MARGIN)
                    )
                } else {
                    format!(
                        "b{i}'s box is grown by the margin ({} m): while the body stays inside this fat box the tree is never touched. Now find it a sibling, from the root down.",
                        fmt_num(DEFAULT_TREE_MARGIN)
                    )
                },
                tree::INSERT,
            ),
            iteration: i,
            world,
            // An empty tree draws nothing: show the root it is about to become.
            diagram: if before.is_empty() {
                tree_marks(&after, &[(fat, Role::Active)])
            } else {
                tree_marks(&before, &[])
            },
            target: None,
        });
        for e in &events.0 {
            let (title, text, line, lit, target) = match e {
                Event::Descend {
                    node,
                    children,
                    direct,
                    costs,
                    chosen,
                } => {
                    let what = match chosen {
                        None => "the direct cost is the smallest: the new leaf becomes this node's sibling".to_string(),
                        Some(k) => format!("child {} is cheaper: go down into it", k + 1),
                    };
                    let mut lit = vec![(*node, Role::Active), (children[0], Role::Partner), (children[1], Role::Partner)];
                    if let Some(k) = chosen {
                        lit[1 + k].1 = Role::Pair;
                    }
                    let target = chosen.map(|k| Target {
                        prompt: format!("Which child of this node will b{i} go down into? Click inside its box."),
                        pane: Pane::World,
                        answers: vec![children[k].center()],
                        tolerance: tolerance.max(0.3 * (children[k].max - children[k].min).min_element()),
                    });
                    (
                        "Descend: which way is cheaper?".to_string(),
                        format!(
                            "Making b{i} a sibling of this node costs 2·P(node ∪ leaf) = {}; going into child 1 costs {}, into child 2 {} (each: how much that child's perimeter grows, plus what every ancestor grows by). Perimeter, because a random query box hits a box with a chance growing with its perimeter. Here {what}.",
                            fmt_num(*direct),
                            fmt_num(costs[0]),
                            fmt_num(costs[1])
                        ),
                        tree::DESCEND,
                        lit,
                        target,
                    )
                }
                Event::Sibling(s) => (
                    "Sibling found".to_string(),
                    format!(
                        "A new internal node takes the sibling's place, with the sibling and b{i} as its children; its box holds both (perimeter {}).",
                        fmt_num(perimeter(&s.union(&fat)))
                    ),
                    tree::SIBLING,
                    vec![(*s, Role::Active)],
                    None,
                ),
                Event::Rotate {
                    demoted,
                    lifted,
                    height,
                } => {
                    rotations += 1;
                    (
                        "Rotation".to_string(),
                        format!(
                            "On the way back up, a node's two children differ in height by more than one: its taller child (height {height}) is lifted into its place and the node moves down under it. Without rotations, bodies inserted in a row would build a list as deep as they are many."
                        ),
                        tree::ROTATE,
                        vec![(*demoted, Role::Active), (*lifted, Role::Pair)],
                        None,
                    )
                }
            };
            let mut world = node_boxes(&before, &lit);
            world.push(Mark::Outline {
                points: fat.outline(),
                role: Role::Active,
            });
            steps.push(TopicStep {
                card: card(title, text, line),
                iteration: i,
                world,
                diagram: tree_marks(&before, &lit),
                target,
            });
        }
        steps.push(TopicStep {
            card: card(
                format!("b{i} is in: {}, height {}", plural(after.len(), "node", "nodes"), tree.height()),
                format!(
                    "Walking back to the root, every ancestor's box is refitted to hold its children. The tree has {} in {}; its height is {}.",
                    plural(i + 1, "leaf", "leaves"),
                    plural(after.len(), "node", "nodes"),
                    tree.height()
                ),
                tree::REFIT,
            ),
            iteration: i,
            world: node_boxes(&after, &[(fat, Role::Pair)]),
            diagram: tree_marks(&after, &[(fat, Role::Pair)]),
            target: None,
        });
    }
    // The query: which fat boxes overlap body 0's box?
    let q = boxes[0];
    let mut found = Vec::new();
    let mut stack = Vec::new();
    let tested = tree.query(&q, &mut stack, |d| found.push(d));
    found.sort_unstable();
    let nodes = tree.node_views();
    let lit: Vec<(Aabb, Role)> = nodes
        .iter()
        .filter(|v| v.leaf_data.is_some_and(|d| found.contains(&d)))
        .map(|v| (v.aabb, Role::Pair))
        .collect();
    let names: Vec<String> = found.iter().map(|d| format!("b{d}")).collect();
    let mut world = node_boxes(&nodes, &lit);
    world.push(Mark::Outline {
        points: q.outline(),
        role: Role::Active,
    });
    world.push(Mark::label(q.max, "query", Role::Active, Side::Above));
    steps.push(TopicStep {
        card: card(
            format!("Query b0's box: {}", names.join(", ")),
            format!(
                "From the root down, a node is opened only if its box overlaps the query box: {} of the tree's {} node boxes were tested to find the leaves {} (b0 finds itself; the others are its candidate pairs). Testing every leaf would take {}; the gap grows with the number of bodies, as log n against n.",
                tested,
                nodes.len(),
                names.join(", "),
                boxes.len()
            ),
            tree::VISIT,
        ),
        iteration: boxes.len(),
        world,
        diagram: tree_marks(&nodes, &lit),
        target: None,
    });
    TopicTrace {
        world_title: "World: bodies and the tree's boxes".to_string(),
        diagram_title: "The tree".to_string(),
        quiz: quiz(tree.height(), rotations, found.len()),
        steps,
        table: None,
        world_bounds: None,
        diagram_bounds: None,
        cost: None,
    }
}

fn perimeter(b: &Aabb) -> f32 {
    2.0 * ((b.max.x - b.min.x) + (b.max.y - b.min.y))
}

fn quiz(height: u32, rotations: usize, found: usize) -> Vec<QuizQuestion> {
    let mut out = Vec::new();
    let h = height as usize;
    let opts = |v: usize, unit: &str| -> Vec<String> {
        [v.saturating_sub(1), v, v + 1, v + 2]
            .iter()
            .map(|k| format!("{k} {unit}"))
            .collect()
    };
    out.extend(choose(
        "How tall is the finished tree (a leaf has height 0)?",
        &opts(h, "levels"),
        &format!("{h} levels"),
        format!("The root stands {h} levels above the deepest leaf; rotations keep it near log2 of the leaves."),
    ));
    out.extend(choose(
        "How many rotations did the insertions make?",
        &opts(rotations, "rotations"),
        &format!("{rotations} rotations"),
        format!("{rotations} time(s) a node's children differed in height by more than one."),
    ));
    out.extend(choose(
        "How many leaves did the query of b0's box find (b0 included)?",
        &opts(found, "leaves"),
        &format!("{found} leaves"),
        "The leaves whose fat boxes overlap b0's box.".to_string(),
    ));
    out
}
