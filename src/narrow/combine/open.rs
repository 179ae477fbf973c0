//! Where the combine step's search opens differences (see `combine.rs`'s module docs):
//! the pairs the piece loop tested, the untested pairs ring by ring of box distance
//! (through the piece boxes, or the piece trees for big polygons), and the lower bounds
//! that let a pair wait before its difference is built. Split from `search.rs`.

use super::*;
/// A lower bound on the distance between piece i of A (box `box_a`) and piece j of B
/// (box `box_b`), in A's frame: their gap along the direction from B's box centre to
/// A's, less a rounding margin (a relative 1e-5 of the coordinates, as for the held
/// radius, far above the few ulps of the products); 0 when the centres coincide.
///
/// For a unit u, every point a − b of their difference has u·(a − b) ≥ min u·a −
/// max u·b, so the difference is at least that far from the origin.
fn axis_gap(bodies: &Bodies, box_a: &Aabb, box_b: &Aabb, i: usize, j: usize) -> f32 {
    let u = (box_a.center() - box_b.center()).normalize_or_zero();
    if u == Vec2::ZERO {
        return 0.0;
    }
    let (va, vb) = (bodies.a.piece(i), bodies.b.piece(j));
    // B's vertices are in B's frame: u·(R·v + t) = (Rᵀu)·v + u·t.
    let (u_b, along_t) = (bodies.xf_ab.rotation.apply_inv(u), u.dot(bodies.xf_ab.translation));
    // Least and greatest by comparisons, without `f32::min`'s extra instructions for
    // its NaN rule (a NaN product is skipped either way).
    let least_a = va.vertices.iter().fold(f32::INFINITY, |m, v| {
        let x = u.dot(*v);
        if x < m {
            x
        } else {
            m
        }
    }) - va.radius;
    let most_b = vb.vertices.iter().fold(f32::NEG_INFINITY, |m, v| {
        let x = u_b.dot(*v);
        if x > m {
            x
        } else {
            m
        }
    }) + along_t
        + vb.radius;
    let magnitude = |b: &Aabb| b.min.abs().max(b.max.abs()).max_element();
    let margin = 1e-5 * (magnitude(box_a) + magnitude(box_b) + bodies.xf_ab.translation.abs().max_element());
    (least_a - most_b - margin).max(0.0)
}

/// Pieces with more vertices than this get [`few_axes_gap`] instead of SAT's all axes.
const SAT_BOUND_VERTICES_MAX: usize = 16;

/// A lower bound on the distance between piece i of A and piece j of B, in A's frame:
/// their largest gap along the edge normals of the piece with fewer vertices and along
/// the direction between their centres (each axis u gives min u·a − max u·b, module
/// docs of `axis_gap`), less the rounding margin of [`axis_gap`].
///
/// SAT's every axis costs (n + m)² products, and a star's decomposition has one
/// central piece of half its vertices: on two 3000-vertex stars at a 1 cm overlap the
/// bounds of the pairs with it were half of the query's instructions. The other
/// piece's few normals (a tip's) separate such pairs as well, at (k + 1)(n + m).
fn few_axes_gap(bodies: &Bodies, i: usize, j: usize) -> f32 {
    let (va, vb) = (bodies.a.piece(i), bodies.b.piece(j));
    let rot = bodies.xf_ab.rotation;
    let t = bodies.xf_ab.translation;
    let gap_along = |u: Vec2| {
        let u_b = rot.apply_inv(u);
        let least_a = va.vertices.iter().fold(f32::INFINITY, |m, v| m.min(u.dot(*v))) - va.radius;
        let most_b = vb.vertices.iter().fold(f32::NEG_INFINITY, |m, v| m.max(u_b.dot(*v))) + u.dot(t) + vb.radius;
        least_a - most_b
    };
    let centre = |vs: &[Vec2]| vs.iter().copied().sum::<Vec2>() / vs.len().max(1) as f32;
    let (centre_a, centre_b) = (centre(va.vertices), rot.apply(centre(vb.vertices)) + t);
    let mut gap = gap_along((centre_a - centre_b).normalize_or_zero());
    // The smaller piece's edge normals, turned into A's frame, pointing from B towards
    // A: B's outward normals, A's inward ones.
    let (small, from_b) = if vb.vertices.len() < va.vertices.len() {
        (vb.vertices, true)
    } else {
        (va.vertices, false)
    };
    let n = small.len();
    if n >= 2 {
        for k in 0..n {
            let normal = right_perp(small[(k + 1) % n] - small[k]).normalize_or_zero();
            let u = if from_b { rot.apply(normal) } else { -normal };
            gap = gap.max(gap_along(u));
        }
    }
    let magnitude = |vs: &[Vec2]| vs.iter().fold(0.0f32, |m, v| m.max(v.abs().max_element()));
    let margin = 1e-5 * (magnitude(va.vertices) + magnitude(vb.vertices) + t.abs().max_element());
    (gap - margin).max(0.0)
}

impl CombineScratch {
    /// Queues the opening of the pairs the piece loop tested. An overlapping pair's
    /// difference holds the origin, so it may hold any candidate: it opens first. An
    /// apart pair's difference is at least its gap from the origin (and at least its box
    /// distance): it opens there, less the tolerance, since points inside it by more
    /// than that are what it holds.
    pub(super) fn open_tested(&mut self, bodies: &Bodies) {
        // `open_ring` walks both lists in step with its scan.
        debug_assert!(bodies.hits.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        debug_assert!(bodies.apart.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        for &(i, j, _) in bodies.hits {
            self.queue(Event::new(
                0.0,
                What::Open {
                    piece_a: i as u32,
                    piece_b: j as u32,
                },
            ));
        }
        for &(i, j, gap) in bodies.apart {
            let boxed = bodies.pair_gap(i as usize, j as usize);
            self.queue(Event::new(
                (gap - bodies.gap_margin).max(boxed).max(0.0),
                What::Open { piece_a: i, piece_b: j },
            ));
        }
    }

    /// Queues the opening of every untested difference whose box distance lies in
    /// (lo, hi]. The tested pairs (`open_tested`) are every pair whose boxes touch, except
    /// those the piece trees found apart by more than the tolerance: the walk skips the
    /// tested ones (both lists are in the scan's order, by piece of A then of B).
    pub(super) fn open_ring(&mut self, bodies: &Bodies, all_a: &Aabb, all_b: &Aabb, lo: f32, hi: f32) {
        let (boxes_a, boxes_b) = match &bodies.boxes {
            PieceBoxes::InA { boxes_a, boxes_b, .. } => (*boxes_a, *boxes_b),
            PieceBoxes::Trees { .. } => return self.open_ring_from_trees(bodies, lo, hi),
        };
        // Whole rows and columns first: a piece of B too far from all of A (or of A from
        // all of B) has no pair in the ring.
        self.columns.clear();
        // Boxes farther than the ring's outer radius are told by their squared
        // distance (no square root); the slack keeps the squares' rounding on the safe
        // side, and the survivors get the same test on the distance as before.
        let far2 = hi * hi * (1.0 + 1e-4);
        // (`box_distance` is the square root of `box_distance_squared`: each square is
        // computed once and its root taken for the survivors, the same distances.)
        self.columns.extend((0..boxes_b.len() as u32).filter(|&j| {
            let d2 = box_distance_squared(all_a, &boxes_b[j as usize]);
            d2 <= far2 && d2.sqrt() <= hi
        }));
        let (mut next_hit, mut next_apart) = (0, 0);
        for (i, box_a) in boxes_a.iter().enumerate() {
            let row2 = box_distance_squared(box_a, all_b);
            if row2 > far2 || row2.sqrt() > hi {
                continue;
            }
            for k in 0..self.columns.len() {
                let j = self.columns[k];
                let d2 = box_distance_squared(box_a, &boxes_b[j as usize]);
                if d2 > far2 {
                    continue;
                }
                let d = d2.sqrt();
                if d <= lo || d > hi {
                    continue;
                }
                if d == 0.0 {
                    // Boxes that touch: tested unless the trees left the pair out.
                    let here = (i, j as usize);
                    let hits = bodies.hits;
                    while hits.get(next_hit).is_some_and(|h| (h.0, h.1) < here) {
                        next_hit += 1;
                    }
                    let apart = bodies.apart;
                    while apart
                        .get(next_apart)
                        .is_some_and(|p| (p.0 as usize, p.1 as usize) < here)
                    {
                        next_apart += 1;
                    }
                    let tested = hits.get(next_hit).is_some_and(|h| (h.0, h.1) == here)
                        || apart
                            .get(next_apart)
                            .is_some_and(|p| (p.0 as usize, p.1 as usize) == here);
                    if tested {
                        continue;
                    }
                }
                // A tighter bound first (`bound`), except under a trace, whose
                // differences open in the order of their boxes.
                let (piece_a, piece_b) = (i as u32, j);
                self.queue(Event::new(
                    d,
                    if self.skip_held {
                        What::Bound { piece_a, piece_b }
                    } else {
                        What::Open { piece_a, piece_b }
                    },
                ));
            }
        }
    }

    /// [`Self::open_ring`] through the piece trees: the untested pairs whose boxes (in
    /// A's frame) are in (lo, hi] apart, found by descending both trees to that gap, so
    /// the pieces far from the other body cost nothing. Each pair first gets a tighter
    /// bound (`bound`) before its difference is built.
    fn open_ring_from_trees(&mut self, bodies: &Bodies, lo: f32, hi: f32) {
        let PieceBoxes::Trees { tree_a, tree_b, .. } = bodies.boxes else {
            return;
        };
        let tested = |i: usize, j: usize| {
            bodies.hits.binary_search_by(|h| (h.0, h.1).cmp(&(i, j))).is_ok()
                || bodies
                    .apart
                    .binary_search_by(|p| (p.0 as usize, p.1 as usize).cmp(&(i, j)))
                    .is_ok()
        };
        tree_a.for_each_pair_within(&Pose::IDENTITY, tree_b, &bodies.xf_ab, hi, |i, j, gap| {
            if gap <= lo || tested(i, j) {
                return;
            }
            self.queue(Event::new(
                gap,
                What::Bound {
                    piece_a: i as u32,
                    piece_b: j as u32,
                },
            ));
        });
    }

    /// Replaces a pair's box gap by SAT's largest gap between its pieces (every axis, no
    /// early exit): also a lower bound on their distance, and on long thin pieces, whose
    /// boxes overlap far more often than the pieces come near, a much tighter one. The
    /// pair is opened at that distance, less the tolerance.
    ///
    /// With every piece's box at hand (`PieceBoxes::InA`: polygons of up to a few
    /// thousand vertices), one axis does instead of SAT's all: the direction between
    /// the two boxes' centres, along which the pieces' projections are apart by at most
    /// their distance. Measured with `examples/combine_profile.rs` (the benchmark's
    /// families at 32-256 vertices, overlapping by 1-2% of the size): more than half
    /// the differences the box scan opened were never needed; SAT's bound kept their
    /// hulls from being built but cost twice what it saved, one axis costs a few
    /// dozen products per pair.
    pub(super) fn bound(&mut self, bodies: &Bodies, key: f32, i: u32, j: u32) {
        let gap = match &bodies.boxes {
            PieceBoxes::InA { boxes_a, boxes_b, .. } => axis_gap(
                bodies,
                &boxes_a[i as usize],
                &boxes_b[j as usize],
                i as usize,
                j as usize,
            ),
            PieceBoxes::Trees { .. }
                if bodies
                    .a
                    .piece(i as usize)
                    .vertices
                    .len()
                    .max(bodies.b.piece(j as usize).vertices.len())
                    > SAT_BOUND_VERTICES_MAX =>
            {
                few_axes_gap(bodies, i as usize, j as usize)
            }
            PieceBoxes::Trees { .. } => {
                let pen = penetration_sat(
                    &bodies.query.piece(i as usize, j as usize),
                    f32::INFINITY,
                    &mut Recorder {
                        work: &mut Work::default(),
                        trace: &mut None,
                    },
                );
                -pen.depth
            }
        };
        self.queue(Event::new(
            (gap - bodies.gap_margin).max(key),
            What::Open { piece_a: i, piece_b: j },
        ));
    }
}
