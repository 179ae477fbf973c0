//! What every narrow phase returns: the contact result and the work it took.

use crate::math::Vec2;
use serde::Serialize;

/// Identifies the pair of features that made a contact point, so a solver can match
/// points across steps (warm starting). Built by [`ContactId::new`]; stable as long as
/// the same features touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub struct ContactId(pub u64);

impl ContactId {
    /// Packs the convex piece indices of A and B (16 bits each), the reference edge
    /// index (15 bits), whether the reference edge is on B (1 bit) and the incident
    /// feature index (16 bits).
    pub fn new(piece_a: usize, piece_b: usize, reference_on_b: bool, reference_edge: usize, incident: usize) -> Self {
        let m16 = |x: usize| (x as u64) & 0xffff;
        ContactId(
            m16(piece_a) << 48
                | m16(piece_b) << 32
                | (reference_on_b as u64) << 31
                | ((reference_edge as u64) & 0x7fff) << 16
                | m16(incident),
        )
    }
}

/// One contact point, world frame.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize)]
pub struct ContactPoint {
    /// Midway between the two surfaces (metres, world frame).
    pub point: Vec2,
    /// Penetration at this point along the contact normal (metres, positive when
    /// overlapping).
    pub depth: f32,
    /// The features that touch here.
    pub id: ContactId,
}

/// Up to two contact points, stored inline so a query allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ContactPoints {
    points: [ContactPoint; 2],
    len: u8,
}

impl ContactPoints {
    /// No points.
    pub const EMPTY: ContactPoints = ContactPoints {
        points: [ContactPoint {
            point: Vec2::ZERO,
            depth: 0.0,
            id: ContactId(0),
        }; 2],
        len: 0,
    };

    /// Adds a point; a third point is ignored (callers reduce to two first).
    pub fn push(&mut self, p: ContactPoint) {
        if (self.len as usize) < self.points.len() {
            self.points[self.len as usize] = p;
            self.len += 1;
        }
    }

    /// The points as a slice.
    pub fn as_slice(&self) -> &[ContactPoint] {
        &self.points[..self.len as usize]
    }

    /// The points as a mutable slice (to move them into another frame).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [ContactPoint] {
        &mut self.points[..self.len as usize]
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there are no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Serialize for ContactPoints {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

/// Work one query did — the counts behind the cost model T = Nv·Cv + Np·Cp of Liu et al. (2018)
/// and 004. Every algorithm fills the counters that apply to it and leaves the rest 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub struct Work {
    /// Bounding-volume overlap tests (Nv).
    pub bv_tests: u32,
    /// Primitive tests (Np): convex piece pairs given to the exact test, or 1 for a
    /// whole-shape test.
    pub primitive_tests: u32,
    /// Convex piece pairs whose bounding volumes overlapped and were tested exactly.
    pub piece_pairs_tested: u32,
    /// Separating axes projected onto.
    pub axes_tested: u32,
    /// Per-edge tests of Fayzrakhmanov et al.'s (2015) step 7 (non-convex A).
    pub edge_tests: u32,
    /// Support-mapping evaluations (one per shape per call).
    pub support_calls: u32,
    /// GJK iterations.
    pub gjk_iterations: u32,
    /// EPA iterations.
    pub epa_iterations: u32,
    /// Vertices projected on an axis or scanned for a support point: the vertex-level
    /// work behind the benchmark's cost fit (`collision-lab bench`).
    pub vertices_scanned: u32,
}

impl Work {
    /// Adds another query's counters to these.
    pub fn add(&mut self, other: &Work) {
        self.bv_tests += other.bv_tests;
        self.primitive_tests += other.primitive_tests;
        self.piece_pairs_tested += other.piece_pairs_tested;
        self.axes_tested += other.axes_tested;
        self.edge_tests += other.edge_tests;
        self.support_calls += other.support_calls;
        self.gjk_iterations += other.gjk_iterations;
        self.epa_iterations += other.epa_iterations;
        self.vertices_scanned += other.vertices_scanned;
    }
}

/// The answer to "do A and B overlap, and how do I separate them?" (Ren and Xie's (2011) output:
/// Intersect, MinimumTranslationVector, NormalAxis, ActionPoint), in the world frame.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize)]
pub struct Contact {
    /// True when the shapes overlap by more than touching.
    pub intersect: bool,
    /// Translation that moves A out of B (`-normal * depth`); zero when not intersecting.
    pub mtv: Vec2,
    /// Unit normal from A towards B; zero when not intersecting.
    pub normal: Vec2,
    /// Penetration depth along `normal` (metres); 0 when not intersecting.
    pub depth: f32,
    /// Up to two contact points (empty when not intersecting).
    pub points: ContactPoints,
    /// Work done to answer.
    pub work: Work,
}

impl Contact {
    /// A "no intersection" answer carrying the work done.
    pub fn separated(work: Work) -> Contact {
        Contact {
            work,
            ..Contact::default()
        }
    }

    /// An intersection along `normal` (unit, A towards B) with `depth` > 0.
    pub fn penetrating(normal: Vec2, depth: f32, points: ContactPoints, work: Work) -> Contact {
        // Adding +0 turns a negative zero (from negating an axis) into +0, so the same
        // normal always prints and hashes the same.
        let normal = normal + Vec2::ZERO;
        Contact {
            intersect: true,
            mtv: -normal * depth + Vec2::ZERO,
            normal,
            depth,
            points,
            work,
        }
    }
}
