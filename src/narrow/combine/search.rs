//! The best-first search of the combine step (see `combine.rs`'s module docs): events
//! keyed by a lower bound on their distance from the origin, differences opened as the
//! search reaches them, candidates tried nearest first until one lies inside no
//! difference. Split from `combine.rs`, which keeps the types, the entry point and the
//! small geometric helpers this file uses.

use super::cover::NOTHING_HELD;
use super::*;

impl CombineScratch {
    /// The best-first search of the module docs; the index of the winning candidate.
    pub(super) fn nearest_boundary_point(
        &mut self,
        bodies: &Bodies,
        hull: &mut crate::narrow::minkowski::HullScratch,
        first_reach: f32,
        trace: &mut Option<&mut Trace>,
    ) -> Option<usize> {
        // Boxes of all of A and all of B, in the frame the pieces' boxes are compared in.
        let (all_a, all_b) = match &bodies.boxes {
            PieceBoxes::InA { all_a, all_b, .. } => (*all_a, *all_b),
            PieceBoxes::Trees { tree_a, tree_b, xf_ab } => {
                let empty = Aabb::new(Vec2::ZERO, Vec2::ZERO);
                (
                    tree_a.bounds().unwrap_or(empty),
                    tree_b.bounds().map_or(empty, |b| b.posed(xf_ab)),
                )
            }
        };
        // No box of a difference is farther than the box of all of A minus all of B.
        let farthest = {
            let (lo, hi) = (all_a.min - all_b.max, all_a.max - all_b.min);
            lo.abs().max(hi.abs()).length()
        };
        let mut scanned = f32::NEG_INFINITY;
        let mut reach = first_reach;
        loop {
            if reach >= farthest {
                reach = f32::INFINITY;
            }
            self.reach = reach;
            if self.skip_held && scanned != f32::NEG_INFINITY {
                if !self.cover.is_empty() {
                    // What was left out for lying beyond the old reach.
                    self.extend_cover(bodies.tol);
                }
                self.widen_grids(scanned, bodies.tol);
            }
            let mut k = 0;
            while k < self.later.len() {
                if self.later[k].key() <= reach {
                    let event = self.later.swap_remove(k);
                    // A candidate queued for later may be held by what the table
                    // (`coverage.rs`) has taken in since: it need not wait on the heap.
                    if let What::Test(c) = event.what() {
                        if self.covers(self.candidates[c as usize].point) {
                            continue;
                        }
                    }
                    self.events.push(event);
                } else {
                    k += 1;
                }
            }
            if scanned == f32::NEG_INFINITY {
                self.open_tested(bodies);
            }
            if !bodies.all_tested {
                self.open_ring(bodies, &all_a, &all_b, scanned, reach);
            }
            while let Some(event) = self.events.pop() {
                match event.what() {
                    What::Bound { piece_a, piece_b } => {
                        self.bound(bodies, event.key(), piece_a, piece_b);
                    }
                    What::Open { piece_a, piece_b } => {
                        self.open(bodies, hull, piece_a as usize, piece_b as usize);
                    }
                    What::Expand(d) => self.queue_edges(bodies, d),
                    What::Band(k) => self.pair_band(k as usize),
                    What::Activate(e) => self.activate(e, bodies.tol),
                    What::Test(c) => {
                        if self.covers(self.candidates[c as usize].point) {
                            continue;
                        }
                        let held = self.holder(self.candidates[c as usize].point, bodies.tol);
                        self.record_test(c, held, bodies.rotation_a, trace);
                        if held.is_none() {
                            return Some(c as usize);
                        }
                        self.held_tests += 1;
                        if self.held_tests == super::coverage::COVER_MIN_HELD_TESTS && self.skip_held {
                            self.fill_cover(bodies.tol);
                        }
                    }
                }
            }
            if reach == f32::INFINITY {
                return None;
            }
            scanned = reach;
            reach *= 2.0;
        }
    }

    /// Queues an event now, or for the round whose reach takes it in.
    pub(super) fn queue(&mut self, event: Event) {
        if event.key() <= self.reach {
            self.events.push(event);
        } else {
            self.later.push(event);
        }
    }

    /// Builds the difference of pieces i and j and queues its edges (and arcs).
    fn open(&mut self, bodies: &Bodies, hull: &mut crate::narrow::minkowski::HullScratch, i: usize, j: usize) {
        let (va, vb) = (bodies.a.piece(i), bodies.b.piece(j));
        let radius = va.radius + vb.radius;
        let start = self.core.len();
        let n = minkowski_difference_core_prepared(
            (i, va, &Pose::IDENTITY),
            (j, vb, &bodies.xf_ab),
            hull,
            &mut self.core,
            &mut self.sources,
        );
        if n == 0 || (n < 3 && radius <= 0.0) {
            // No area: it holds nothing and bounds nothing of the union's interior.
            self.core.truncate(start);
            self.sources.truncate(start);
            return;
        }
        let core = (start as u32, n as u32);
        let plane_start = self.planes.len() as u32;
        let mut least = f32::INFINITY;
        // The first longest edge's plane: the strip across it is the difference's slab
        // (`slab_of`, computed here from the planes rather than from the edges again).
        let (mut longest, mut longest_len2) = (Vec2::ZERO, 0.0f32);
        // The core's box, taken in the same pass (each vertex starts one edge).
        let mut core_box = Aabb {
            min: Vec2::splat(f32::INFINITY),
            max: Vec2::splat(f32::NEG_INFINITY),
        };
        if n >= 3 {
            let vertices = &self.core[start..start + n];
            for k in 0..n {
                let (p, q) = (vertices[k], vertices[if k + 1 < n { k + 1 } else { 0 }]);
                let edge = q - p;
                let normal = right_perp(edge).normalize_or_zero();
                let offset = normal.dot(p);
                self.planes.push((normal, offset));
                // Least and greatest by comparisons, as `take_in` (a NaN is skipped,
                // as `f32::min` skips it).
                if offset < least {
                    least = offset;
                }
                take_in(&mut core_box, p);
                let len2 = edge.length_squared();
                if len2 > longest_len2 {
                    (longest, longest_len2) = (normal, len2);
                }
            }
        } else {
            for &p in &self.core[start..start + n] {
                take_in(&mut core_box, p);
            }
        }
        let planes = (plane_start, self.planes.len() as u32 - plane_start);
        if self.skip_held && n >= 3 {
            // A core holding the origin holds every point nearer the origin than its
            // planes' least offset; `strictly_inside` asks for the tolerance more, and
            // the margin covers the rounding of the dot products there (a relative
            // 1e-5, far above f32's few ulps).
            let held = least - 2.0 * bodies.tol - 1e-5 * least.abs();
            self.held_radius = self.held_radius.max(held);
        }
        let bounds = core_box.inflated(radius);
        let slab = if n >= 3 {
            slab_across(run(&self.core, core), longest, radius)
        } else {
            EVERYWHERE
        };
        let diff = self.diffs.len() as u32;
        self.diffs.push(Difference {
            piece_a: i,
            piece_b: j,
            core,
            planes,
            radius,
            bounds,
            slab,
        });
        if self.radial_on {
            self.add_radial(diff, bodies.tol);
        } else if self.skip_held && self.diffs.len() >= super::radial::RADIAL_MIN_DIFFERENCES {
            self.fill_radial(bodies.tol);
        }
        if !self.cover.is_empty() {
            self.add_cover(diff, bodies.tol);
        }
        if self.grids_on && !self.diff_grid_fine && self.diffs.len() >= super::radial::RADIAL_MIN_DIFFERENCES {
            self.fill_grids();
        } else if self.grids_on {
            self.list_difference(diff);
        } else if self.skip_held && self.diffs.len() >= GRID_MIN_DIFFERENCES {
            self.grids_on = true;
            self.fill_grids();
        }
        // Edges (a two-vertex core has two: there and back); unrounded polygons' only as
        // far as the reach goes.
        let deferred = self.defers(diff);
        // `resize` fills in one go (extending from `repeat_n` pushed one by one).
        self.pending.resize(self.pending.len() + n, deferred);
        self.queue_edges(bodies, diff);
        // Arcs.
        if radius > 0.0 {
            for k in 0..n {
                let vertex = |k: usize| self.core[start + k % n];
                let normal_of = |k: usize| right_perp(vertex(k + 1) - vertex(k)).normalize_or_zero();
                let center = vertex(k);
                let (from, to, full) = if n == 1 {
                    (Vec2::X, Vec2::X, true)
                } else {
                    (normal_of(k + n - 1), normal_of(k), false)
                };
                let element = Element {
                    diff,
                    feature: Feature::Arc {
                        center,
                        radius,
                        from,
                        to,
                        full,
                    },
                    bounds: Aabb::new(center - Vec2::splat(radius), center + Vec2::splat(radius)),
                };
                self.push_element(element, (center.length() - radius).abs());
            }
        }
    }

    /// Whether difference `diff`'s edges are queued only as the reach comes to them:
    /// without a trace (which shows every element in the order they were built), for
    /// unrounded differences with sides (whose planes bound each edge's distance).
    fn defers(&self, diff: u32) -> bool {
        let d = &self.diffs[diff as usize];
        self.skip_held && d.radius == 0.0 && d.planes.1 > 0
    }

    /// Queues the edges of difference `diff` not queued yet: all of them, or, when it
    /// defers (`defers`), those that may come within the reach, and an `Expand` event
    /// for the rest, keyed by the least lower bound on their distances.
    ///
    /// Most of a difference's edges lie far beyond the answer: on the benchmark's
    /// families at 32-256 vertices overlapping by 1-2% of the size
    /// (`examples/combine_profile.rs`) a query opened 20 differences of 11 edges each,
    /// and only 18% of the edges ever came within the reach; not building the others'
    /// elements took a tenth off the combine step's instructions. An edge's
    /// distance from the origin is at least the distance of its line, |offset| of its
    /// plane, less a rounding margin: it is queued once the reach passes that, and
    /// keyed by its own distance as before, so the events still come out nearest
    /// first and the answer is the same.
    fn queue_edges(&mut self, bodies: &Bodies, diff: u32) {
        let d = self.diffs[diff as usize];
        let deferred = self.defers(diff);
        let (start, n) = (d.core.0 as usize, d.core.1 as usize);
        let radius = d.radius;
        let (i, j) = (d.piece_a, d.piece_b);
        let vertex = |core: &[Vec2], k: usize| core[start + if k < n { k } else { k - n }];
        // An edge of the difference made only of diagonals of the pieces' decompositions
        // lies inside A − B: a diagonal's inner points are inside its polygon, so their
        // translates are inside the union (the neighbouring piece's difference holds them).
        // Only its ends can be on the boundary.
        let (diagonals_a, diagonals_b) = (bodies.a.piece_diagonals(i), bodies.b.piece_diagonals(j));
        let (count_a, count_b) = (bodies.a.piece(i).vertices.len(), bodies.b.piece(j).vertices.len());
        let sources = |sources: &[(u32, u32)], k: usize| sources[start + if k < n { k } else { k - n }];
        // The margin of each edge's bound (below): the relative rounding margin of the
        // held radius, far above the few ulps by which the edge's own distance may come
        // out below its plane's offset, taken for the largest coordinate of the core.
        let margin = 2e-5 * d.bounds.min.abs().max(d.bounds.max.abs()).max_element();
        let mut rest = f32::INFINITY;
        // Edges (a two-vertex core has two: there and back).
        let edge_count = if n >= 2 { n } else { 0 };
        // The edges to queue now, found first in one pass over the pending flags and the
        // planes (most of a deferring difference's edges stay pending, and the pass
        // costs them a few instructions each).
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        if deferred {
            // A deferring difference has a plane per edge, its edge's line (`open`).
            let planes = &self.planes[d.planes.0 as usize..][..n];
            let reach = self.reach;
            for (k, (flag, &(_, offset))) in self.pending[start..start + n].iter_mut().zip(planes).enumerate() {
                if !*flag {
                    continue;
                }
                let bound = offset.abs() - margin;
                if bound > reach {
                    // `f32::min` without its NaN rule: a NaN bound is queued above.
                    if bound < rest {
                        rest = bound;
                    }
                    continue;
                }
                *flag = false;
                due.push(k as u32);
            }
        } else {
            due.extend(0..edge_count as u32);
        }
        for &k in &due {
            let k = k as usize;
            let (p, q) = (vertex(&self.core, k), vertex(&self.core, k + 1));
            let normal = if d.planes.1 > 0 {
                // The plane `open` stored for this edge: the same normal, computed once.
                self.planes[d.planes.0 as usize + k].0
            } else {
                right_perp(q - p).normalize_or_zero()
            };
            if normal == Vec2::ZERO {
                continue;
            }
            let (p0, p1) = (p + normal * radius, q + normal * radius);
            let (from, to) = (sources(&self.sources, k), sources(&self.sources, k + 1));
            let diagonal = only_diagonals(diagonals_a, count_a, from.0 as usize, to.0 as usize)
                && only_diagonals(diagonals_b, count_b, from.1 as usize, to.1 as usize);
            if diagonal {
                // The small union (`shortcut.rs`) must know how near the origin such an
                // edge comes: beyond its inner points lies a difference it has not opened.
                self.nearest_diagonal = self.nearest_diagonal.min(nearest_on_segment(p0, p1).0.length());
                self.push_candidate(p0, Vec2::ZERO, Kind::Vertex, diff);
                if radius > 0.0 {
                    self.push_candidate(p1, Vec2::ZERO, Kind::Vertex, diff);
                }
                continue;
            }
            let element = Element {
                diff,
                feature: Feature::Edge { p0, p1, normal },
                bounds: Aabb::from_points(&[p0, p1]),
            };
            self.push_element(element, nearest_on_segment(p0, p1).0.length());
        }
        self.due = due;
        if rest.is_finite() {
            self.queue(Event::new(rest, What::Expand(diff)));
        }
    }

    fn push_element(&mut self, element: Element, distance: f32) {
        // An element within the held radius is held in every point (the disc is convex),
        // and so are its own candidates and its crossings with others.
        let farthest = match element.feature {
            Feature::Edge { p0, p1, .. } => p0.length().max(p1.length()),
            Feature::Arc { center, radius, .. } => center.length() + radius,
        };
        if farthest < self.held_radius {
            return;
        }
        let e = self.elements.len() as u32;
        self.elements.push(element);
        self.held.push(NOTHING_HELD);
        self.live.push([None, None]);
        self.queue(Event::new(distance, What::Activate(e)));
    }

    fn push_candidate(&mut self, point: Vec2, normal: Vec2, kind: Kind, diff: u32) {
        let c = Candidate {
            point,
            normal,
            kind,
            diff,
        };
        Self::push_candidate_into(
            &mut self.candidates,
            &mut self.events,
            &mut self.later,
            self.reach,
            self.held_radius,
            &self.cover,
            c,
        );
    }

    /// [`Self::push_candidate`] on the fields it needs, so that it can be called while
    /// another field is borrowed.
    pub(super) fn push_candidate_into(
        candidates: &mut Vec<Candidate>,
        events: &mut BinaryHeap<Event>,
        later: &mut Vec<Event>,
        reach: f32,
        held_radius: f32,
        cover: &[f32],
        candidate: Candidate,
    ) {
        let key = candidate.point.length();
        if key < held_radius || (!cover.is_empty() && key < cover[super::radial::bin_of(candidate.point)]) {
            return;
        }
        let c = candidates.len() as u32;
        candidates.push(candidate);
        let event = Event::new(key, What::Test(c));
        if key <= reach {
            events.push(event);
        } else {
            later.push(event);
        }
    }

    /// Queues an element's own candidates and its crossings with the active elements of
    /// other differences, then makes it active.
    fn activate(&mut self, e: u32, tol: f32) {
        let element = self.elements[e as usize];
        let diff = element.diff;
        match element.feature {
            Feature::Edge { p0, p1, normal } => {
                // An edge strictly inside another difference (both ends inside one convex
                // difference) bounds nothing of the union: its foot, its vertex and its
                // crossings would all be held. Dropping it saves testing them.
                // Only another difference can: an unrounded difference's own vertex is on
                // its edge's plane (that side's distance computes to exactly zero), so
                // with one difference open the question is skipped.
                let alone = self.diffs.len() == 1 && self.diffs[diff as usize].radius == 0.0;
                if let Some(h) = if alone { None } else { self.holder(p0, tol) } {
                    if self.strictly_inside(&self.diffs[h as usize], p1, tol) {
                        return;
                    }
                }
                let (nearest, t) = nearest_on_segment(p0, p1);
                // Without a trace, the stretch around the nearest point that other
                // differences hold is found first (`cover.rs`): its candidates would
                // only be found held, so they are not queued.
                let (lo, hi) = if self.walks() {
                    self.held_stretch(p0, p1, t, tol, NOTHING_HELD)
                } else {
                    NOTHING_HELD
                };
                if lo <= 0.0 && hi >= 1.0 {
                    // Held end to end: nothing of it is on the boundary.
                    return;
                }
                self.held[e as usize] = (lo, hi);
                let held = |t: f32| lo <= t && t <= hi;
                // A foot on an edge facing away from the origin is never the answer
                // (module docs); an end of the edge is the start vertex of one of them.
                if t > 0.0 && t < 1.0 && normal.dot(p0) >= 0.0 && !held(t) {
                    self.push_candidate(nearest, normal, Kind::EdgeFoot, diff);
                }
                if !held(0.0) {
                    self.push_candidate(p0, Vec2::ZERO, Kind::Vertex, diff);
                }
                if self.diffs[diff as usize].radius > 0.0 && !held(1.0) {
                    // Rounded: the end is not the next edge's start (an arc lies between).
                    self.push_candidate(p1, Vec2::ZERO, Kind::Vertex, diff);
                }
            }
            Feature::Arc {
                center,
                radius,
                from,
                to,
                full,
            } => {
                // The circle's point nearest the origin is center − radius·ĉ; it faces
                // the origin only when the origin is inside the circle.
                let dist = center.length();
                if dist < radius {
                    let dir = if dist > 0.0 {
                        -center / dist
                    } else if full {
                        Vec2::X
                    } else {
                        let mid = (from + to).normalize_or_zero();
                        if mid == Vec2::ZERO {
                            from
                        } else {
                            mid
                        }
                    };
                    if on_arc(from, to, full, dir) {
                        self.push_candidate(center + dir * radius, dir, Kind::RoundedCorner, diff);
                    }
                }
            }
        }
        // The active elements that may cross this one: from the grid, or all of them.
        // Without a trace, only the crossings within the reach are queued (the others
        // when the reach grows past them, `widen_grids`): between long thin differences
        // (two stars' wedges) most crossings lie far out and are never tested.
        // Only the live parts (`cover.rs`) of the two elements can cross at a candidate.
        self.live[e as usize] = if self.walks() {
            self.live_parts(e)
        } else {
            [Some(element.bounds), None]
        };
        if self.active_at.len() <= e as usize {
            self.active_at.resize(e as usize + 1, u32::MAX);
        }
        self.active_at[e as usize] = self.active.len() as u32;
        // Only up to the end of the reach's current sub-band (`widen.rs`, `pair_band`).
        let within_reach = if self.skip_held {
            self.reach.min(self.band_end)
        } else {
            f32::INFINITY
        };
        self.queue_crossings(e, (f32::NEG_INFINITY, within_reach), false);
        self.active.push(e);
        self.list_element(e);
    }

    /// Records a test in the world frame (the search's points are in A's: turned by
    /// `rotation_a`).
    fn record_test(&self, c: u32, held: Option<u32>, rotation_a: crate::math::Rot, trace: &mut Option<&mut Trace>) {
        record(trace, || {
            let cand = self.candidates[c as usize];
            let d = self.diffs[cand.diff as usize];
            let depth = cand.point.length();
            let normal = if cand.normal != Vec2::ZERO {
                cand.normal
            } else {
                cand.point.normalize_or_zero()
            };
            let (point, normal) = (rotation_a.apply(cand.point), rotation_a.apply(normal));
            let pieces = |k: u32| {
                let d = self.diffs[k as usize];
                (d.piece_a, d.piece_b)
            };
            TraceStep::Combine(CombineStep {
                from_piece_a: d.piece_a,
                from_piece_b: d.piece_b,
                candidate: match cand.kind {
                    Kind::EdgeFoot => CombineCandidate::EdgeFoot,
                    Kind::RoundedCorner => CombineCandidate::RoundedCorner,
                    Kind::Vertex => CombineCandidate::Vertex,
                    Kind::Crossing { other } => {
                        let (piece_a, piece_b) = pieces(other);
                        CombineCandidate::Crossing { piece_a, piece_b }
                    }
                },
                point,
                normal,
                depth,
                held_by: held.map(pieces),
            })
        });
    }
}
