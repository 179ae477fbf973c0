//! Lesson 12's diagram: the edge tree drawn in pre-order (leaves left to right, parents
//! above the middle of their children, depth down) and the bars of Nv and Np below it.

use crate::geometry::EdgeTree;
use crate::lesson::topic::{Mark, Role, Side};
use crate::math::Vec2;

/// The tree's shape, read once: per node its depth, its point in the diagram and the
/// number of edges below it.
pub(super) struct TreeLayout {
    /// Per node, its depth (the root's is 0).
    pub depth: Vec<usize>,
    /// Per node, its point in the diagram.
    pub at: Vec<Vec2>,
    /// Per node, the number of edges below it.
    pub edges: Vec<usize>,
    leaves: usize,
}

/// Rows of the diagram are this far apart, and leaves this far (diagram units): the
/// tree of a few hundred edges is about as wide as it is tall with its bars, so the
/// world beside it gets half the window.
const ROW: f32 = 1.2;
pub(super) const LEAF_GAP: f32 = 0.5;

impl TreeLayout {
    pub fn of(tree: &EdgeTree) -> TreeLayout {
        let n = tree.node_count();
        let mut s = TreeLayout {
            depth: vec![0; n],
            at: vec![Vec2::ZERO; n],
            edges: vec![0; n],
            leaves: 0,
        };
        // Pre-order: a parent comes before its children, so depths go forwards and the
        // leaves are met left to right; then parents settle from the end.
        for i in 0..n {
            let node = tree.node(i).expect("in range");
            match node.children {
                Some([l, r]) => {
                    s.depth[l] = s.depth[i] + 1;
                    s.depth[r] = s.depth[i] + 1;
                }
                None => {
                    s.at[i].x = LEAF_GAP * s.leaves as f32;
                    s.leaves += 1;
                    s.edges[i] = node.items.len();
                }
            }
        }
        for i in (0..n).rev() {
            if let Some([l, r]) = tree.node(i).and_then(|v| v.children) {
                s.at[i].x = 0.5 * (s.at[l].x + s.at[r].x);
                s.edges[i] = s.edges[l] + s.edges[r];
            }
            s.at[i].y = -ROW * s.depth[i] as f32;
        }
        s
    }

    /// How close a click on node `i` must be to name it alone: under half the distance
    /// to the nearest other node (a leaf's neighbour is [`LEAF_GAP`] away; a node high
    /// in the tree has more room).
    pub fn click_tolerance(&self, i: usize) -> f32 {
        let nearest = self
            .at
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| (*p - self.at[i]).length())
            .fold(f32::INFINITY, f32::min);
        0.45 * nearest.min(4.0 * LEAF_GAP)
    }

    pub fn max_depth(&self) -> usize {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    /// The tree drawn with the nodes of `lit` in their roles (filled), the rest muted.
    pub fn marks(&self, tree: &EdgeTree, lit: &[(usize, Role)]) -> Vec<Mark> {
        let mut marks = Vec::new();
        for i in 0..self.at.len() {
            if let Some(children) = tree.node(i).and_then(|v| v.children) {
                for c in children {
                    marks.push(Mark::segment(self.at[i], self.at[c], Role::Muted));
                }
            }
        }
        for (i, &at) in self.at.iter().enumerate() {
            let role = lit.iter().rev().find(|(n, _)| *n == i).map(|(_, r)| *r);
            marks.push(Mark::Circle {
                center: at,
                radius: 0.2,
                role: role.unwrap_or(Role::Muted),
                filled: role.is_some(),
            });
        }
        marks
    }

    /// Where the bars of the counts start (below the tree, right of their labels).
    fn bars_origin(&self) -> Vec2 {
        Vec2::new(
            0.55 * LEAF_GAP * self.leaves as f32,
            -ROW * (self.max_depth() as f32 + 1.0) - 0.6,
        )
    }

    /// Row `row` of the bars: Nv and Np of one descent as two bars, scaled so that
    /// `full` fills the width, and a label naming them.
    pub fn bars(&self, row: usize, name: &str, nv: u32, np: u32, full: u32) -> Vec<Mark> {
        let o = self.bars_origin() - Vec2::new(0.0, 1.5 * row as f32);
        let width = 0.45 * LEAF_GAP * self.leaves as f32;
        let bar = |y: f32, count: u32, role: Role| {
            let w = width * count as f32 / full.max(1) as f32;
            let (lo, hi) = (Vec2::new(o.x, y - 0.18), Vec2::new(o.x + w.max(0.05), y + 0.18));
            let points = vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
            vec![
                Mark::Fill {
                    points: points.clone(),
                    role,
                },
                Mark::Outline { points, role },
            ]
        };
        let mut marks = bar(o.y, nv, Role::Partner);
        marks.extend(bar(o.y - 0.5, np, Role::Pair));
        marks.push(Mark::label(
            Vec2::new(o.x - 0.3, o.y - 0.25),
            format!("{name}: Nv {nv}, Np {np}"),
            Role::Muted,
            Side::Left,
        ));
        marks
    }
}
