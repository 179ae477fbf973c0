//! Contacts found once per step and kept across steps: the interface between the
//! collision side (broad and narrow phases) and the solvers.
//!
//! Once per step, every candidate pair of the broad phase is tested with the algorithm
//! the user picked. An overlapping pair gets that algorithm's points; a pair the
//! algorithm calls separated but that is within the pair's speculative margin gets the
//! points where it would touch (`narrow::speculative_points`), with a positive
//! separation. Each point is stored with
//!
//! - its own unit normal (a non-convex pair can rest on two features at once),
//! - its anchors from each centre of mass, in the world frame at the start of the step
//!   (the solvers add each body's turn since then) and in the bodies' own frames (to
//!   find the point again next step),
//! - its separation at the start of the step (negative: overlap),
//! - the feature id that made it, and the accumulated impulses of the last step.
//!
//! Warm starting matches a new point with the previous step's by feature id. Both
//! steps' pair lists are sorted by (slot A, slot B) — the broad phase returns its pairs
//! sorted — so the previous pair is found by walking the two lists side by side, and its
//! (at most four) points by a linear scan: no hash look-up anywhere in the step.
//!
//! **Kept points.** The narrow phase reports at most two points for an overlapping pair,
//! from one pair of features. A non-convex body resting on two separate features (a gear
//! on two teeth, a U on both legs) would get one of them per step, alternately, and rock
//! for ever. So a point of the previous step that was not reported again is kept while it
//! is still valid: it lies away from every new point, and its anchors, moved with the
//! bodies, are still within the slop of
//! touching along its normal, have not slid apart by more than [`KEEP_DRIFT`], and the
//! bodies have turned against each other by less than [`KEEP_TURN_RAD`] since the point
//! was found or its normal is still the pair's ([`KEEP_NORMAL_COS`]): a non-convex pair
//! touches with several normals at once. This is Bullet's
//! persistent manifold (Coumans), used only to fill in what a single-feature narrow phase
//! leaves out.
//!
//! **Reused contacts.** A pair whose bodies have not moved against each other since the
//! narrow phase last ran on it has the same contact: B, seen from A, is where it was.
//! So a pair is not tested again while every point of B, seen from A, has moved less
//! than [`REUSE_SLOP_FRACTION`] of the slop (0.25 mm at the default 5 mm; for pairs of
//! convex polygons 2 mm, [`CONVEX_REUSE_SLOP_FRACTION`], and under `Projection` up to
//! the slop for shapes of 8 cm reach or more, [`CONVEX_REUSE_MAX_SLOPS`]) since then,
//! judged from B's centre of mass and its turn times its reach, and its speculative
//! margin has not grown (a touching pair needs no margin). Its points are carried over
//! as kept points are: their anchors, moved with the bodies, give the new separation,
//! and their normals turn with A. A resting pile then costs the narrow phase almost
//! less — the 5050-box pyramid reuses half of its 15,000 pairs while it settles — while
//! anything that moves, is dragged or lands is tested as before. Bullet's persistent
//! manifolds and PhysX's contact cache skip unchanged pairs the same way. Race mode
//! races the pairs the narrow phase runs on. The judgement is a pure function of the
//! stored contacts and the poses, so it does not depend on threads or the broad phase,
//! and a scene's state block stores it (a resumed run continues exactly).
//!
//! **Pairs known to be apart.** A candidate pair found farther apart than its margin
//! has no points, and is not tested again while the bodies cannot have closed the gap
//! the test measured (`apart.rs`): this changes no answer, only the work.

mod apart;
mod chunks;
mod pair;
mod reuse;
mod state;

use super::body::{Body, BodyHandle, BodySet};
use super::manifold::ContactManifold;
use crate::bounds::Aabb;
use crate::math::Vec2;
use crate::narrow::{Algorithm, Contact, ContactId, NarrowConfig, Work};
use apart::ApartPair;
use chunks::{detect_in_chunks, ChunkOut};
use pair::{detect_pair, Detected, PairAnswer};

/// Most points one pair holds: the narrow phase's two (or four speculative), plus kept
/// ones.
pub const MAX_POINTS: usize = 4;

/// A kept point is dropped once its two anchors have slid this far apart along the
/// surface (m): the features no longer touch there.
pub const KEEP_DRIFT: f32 = 0.02;

/// A kept point lives while the two bodies have turned against each other by less than
/// this (rad, about 10°) since the point was found — its normal, fixed then, still
/// describes the touching features …
pub const KEEP_TURN_RAD: f32 = 0.175;

/// … or while its normal is within about 10° of the pair's new one (the cosine of that
/// angle), however far the bodies turned: a gear rolling on its teeth keeps the tooth it
/// leaves until it lifts off (dropped by the turn alone, the gear rolled on for ever).
pub const KEEP_NORMAL_COS: f32 = 0.985;

pub(crate) use reuse::ConvexReuse;
pub use reuse::{CONVEX_REUSE_MAX_SLOPS, CONVEX_REUSE_SLOP_FRACTION, REUSE_SLOP_FRACTION};

/// Where B's centre of mass is and how far B is turned, seen from A's centre of mass
/// and A's axes (m, rad).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RelativePose {
    pub translation: Vec2,
    pub angle: f32,
}

impl RelativePose {
    /// B seen from A, now.
    fn of(a: &Body, b: &Body) -> RelativePose {
        RelativePose {
            translation: a.rotation().apply_inv(b.center_of_mass() - a.center_of_mass()),
            angle: b.angle() - a.angle(),
        }
    }

    /// How far any point of B within `reach_b` (m) of its centre of mass has moved,
    /// seen from A, between `self` and `other`: at most the centre's move plus the turn
    /// times the reach (a chord is shorter than its arc).
    fn moved_from(&self, other: &RelativePose, reach_b: f32) -> f32 {
        (self.translation - other.translation).length() + (self.angle - other.angle).abs() * reach_b
    }
}

/// One contact point of a pair (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct PointContact {
    /// The features that touch here.
    pub id: ContactId,
    /// Unit normal from A towards B (world frame, at the start of the step).
    pub normal: Vec2,
    /// From each centre of mass to the point (m, world-aligned, at the start of the step).
    pub anchor_a: Vec2,
    pub anchor_b: Vec2,
    /// The same anchors in each body's own frame.
    pub local_a: Vec2,
    pub local_b: Vec2,
    /// The normal in A's own frame: a reused point's normal turns with A.
    pub normal_in_a: Vec2,
    /// Separation at the start of the step (m; negative: overlap).
    pub separation: f32,
    /// Angle of B less angle of A when the narrow phase found this point (rad): a kept
    /// point lives while the bodies have not turned much against each other since.
    pub relative_angle: f32,
    /// Accumulated impulses of the last step (N·s): the warm start of the next.
    pub normal_impulse: f32,
    pub tangent_impulse: f32,
    /// Static friction's material points (each body's own frame, from its centre of
    /// mass): where the two bodies were when this point began to stick. Position-based
    /// static friction pulls them back together along the surface, so a resting body
    /// does not creep by what each step leaves uncorrected; they are taken again from
    /// the point when it is new, when it slipped last step, or when they have drifted
    /// [`KEEP_DRIFT`] apart.
    pub stick_a: Vec2,
    pub stick_b: Vec2,
    /// The same from each centre of mass, world-aligned at the start of the step, and
    /// the gap between them then (m, world frame; its tangential part is the drift to
    /// undo).
    pub stick_anchor_a: Vec2,
    pub stick_anchor_b: Vec2,
    pub stick_gap: Vec2,
    /// Static friction could not hold this point in the last step (its correction
    /// reached μ·λn): it slides, and sticks again where it is.
    pub slipped: bool,
}

/// The contact of one candidate pair with at least one point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairContact {
    pub slot_a: u32,
    pub slot_b: u32,
    pub handle_a: BodyHandle,
    pub handle_b: BodyHandle,
    /// Friction and restitution of the pair (mixed once when the contact is made).
    pub friction: f32,
    pub restitution: f32,
    /// The narrow phase's own answer: the pair overlaps (else every point is
    /// speculative or kept) …
    pub touching: bool,
    /// … and, when it does, where its answer is in [`ContactSet::answers`]: the number
    /// of answers of the pairs before it.
    pub answer: u32,
    /// Where its points start in [`ContactSet::points`], and how many there are (1 to
    /// [`MAX_POINTS`]).
    pub first: u32,
    pub count: u8,
    /// Reuse (see the module docs): whether the contact may be reused at all (not after
    /// a restore that did not say) …
    pub reusable: bool,
    /// … B seen from A when the narrow phase last ran on the pair, and its speculative
    /// margin then (m) …
    pub detected_at: RelativePose,
    pub detected_margin: f32,
}

impl PairContact {
    /// Where its points are in [`ContactSet::points`].
    #[inline]
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.count as usize
    }
}

/// A pair's points while the detection gathers them: written straight after the points
/// of the pairs before it, at most [`MAX_POINTS`]. (Gathered in a buffer of their own
/// and returned by value, the points were copied twice per pair: 5% of the step on the
/// 5050-box pyramid.)
struct PointBuffer<'a> {
    points: &'a mut Vec<PointContact>,
    start: usize,
}

impl<'a> PointBuffer<'a> {
    fn after(points: &'a mut Vec<PointContact>) -> Self {
        let start = points.len();
        PointBuffer { points, start }
    }

    fn push(&mut self, p: PointContact) {
        if self.points.len() - self.start < MAX_POINTS {
            self.points.push(p);
        }
    }

    fn as_slice(&self) -> &[PointContact] {
        &self.points[self.start..]
    }

    /// Where the gathered points start in the whole array, and how many there are.
    fn range(&self) -> (u32, u8) {
        (self.start as u32, (self.points.len() - self.start) as u8)
    }
}

/// The persistent contacts of the world: this step's pairs and last step's, both sorted
/// by slots, each with its points packed in one array in the pairs' order. Runtime
/// state; scratch in the sense that it is rebuilt from the bodies, but it carries the
/// warm-start impulses from step to step.
///
/// Why the points are not inside the pairs: a pair has room for four but most use one
/// or two, and with the room inline a pair was about 580 bytes; the detection writes
/// every pair and the solvers' set-up and store read them all, each step (8.7 MB on
/// the 5050-box pyramid).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactSet {
    pub pairs: Vec<PairContact>,
    pub points: Vec<PointContact>,
    /// The touching pairs' answers, in the pairs' order ([`PairContact::answer`]).
    pub answers: Vec<PairAnswer>,
    previous: Vec<PairContact>,
    previous_points: Vec<PointContact>,
    previous_answers: Vec<PairAnswer>,
    /// The candidate pairs found farther apart than their margin, this step's and last
    /// step's, sorted by slots (`apart.rs`; not saved: a pair left out is only tested
    /// again).
    apart: Vec<ApartPair>,
    previous_apart: Vec<ApartPair>,
    /// The parallel detection's per-chunk buffers (scratch, reused).
    chunks: Vec<ChunkOut>,
    /// The narrow phase's tuning the contacts were made with: under another, none is
    /// reused.
    config: Option<NarrowConfig>,
}

/// What one detection pass needs besides the bodies and the pairs.
pub(crate) struct DetectInput<'a> {
    pub algorithm: Algorithm,
    pub config: &'a NarrowConfig,
    /// Per slot, how far the body may move during the step (m): the pair's speculative
    /// margin is the sum of both.
    pub margins: &'a [f32],
    /// Per slot, the body's world box at its pose now (no margin), as `Body::aabb` gives
    /// it; a slot beyond the slice has none (the narrow phase computes what it needs).
    pub boxes: &'a [Aabb],
    /// Overlap allowed at rest (m), for the kept points.
    pub slop: f32,
    /// How far B, seen from A, may have moved since the narrow phase last ran on a pair
    /// for its contact to be reused (m; see the module docs): the slop times
    /// [`REUSE_SLOP_FRACTION`] …
    pub reuse_distance: f32,
    /// … and for a pair of two convex flat-sided shapes, the least and the most (m):
    /// [`reuse::CONVEX_REUSE_SIZE_FRACTION`] of the smaller shape's reach, kept within them.
    /// Under projection the slop times [`CONVEX_REUSE_SLOP_FRACTION`] and
    /// [`CONVEX_REUSE_MAX_SLOPS`]; under impulses both the first; under the literal
    /// projection both [`REUSE_SLOP_FRACTION`].
    pub convex_reuse: ConvexReuse,
    pub warm_starting: bool,
}

/// Per pair of the detection, what the world reports besides the contact.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DetectCounts {
    pub work: Work,
    pub touching: u32,
    pub points: u32,
    /// Pairs whose contact was reused, not tested (see the module docs) …
    pub reused: u32,
    /// … and pairs known to be still apart, not tested either (`apart.rs`).
    pub known_apart: u32,
}

impl ContactSet {
    /// Forgets every contact of the body in `slot` (removed or rebuilt).
    pub fn forget_slot(&mut self, slot: u32) {
        self.pairs.retain(|p| p.slot_a != slot && p.slot_b != slot);
        self.apart.retain(|p| p.slot_a != slot && p.slot_b != slot);
    }

    /// Forgets everything (the resolution changed: impulses of one solver mean nothing
    /// to the other).
    pub fn clear(&mut self) {
        self.pairs.clear();
        self.points.clear();
        self.answers.clear();
        self.previous.clear();
        self.previous_points.clear();
        self.previous_answers.clear();
        self.apart.clear();
        self.previous_apart.clear();
        self.config = None;
    }

    /// Takes `config` as the narrow phase's tuning the current contacts were made with
    /// (a restored state block's, made under the scene's settings).
    pub fn assume_config(&mut self, config: NarrowConfig) {
        self.config = Some(config);
    }

    /// The points of `pair`, one of [`ContactSet::pairs`].
    #[inline]
    pub fn points_of(&self, pair: &PairContact) -> &[PointContact] {
        &self.points[pair.range()]
    }

    /// Runs the narrow phase once on every candidate pair (sorted by slots) and rebuilds
    /// the contacts, carrying impulses over by feature id. `on_pair` sees every pair's
    /// narrow-phase answer (race mode); without one (`None`), big steps detect on
    /// rayon's threads (see [`PARALLEL_MIN_PAIRS`]).
    pub fn detect(
        &mut self,
        bodies: &BodySet,
        candidate_pairs: &[(u32, u32)],
        input: &DetectInput,
        on_pair: Option<OnPair>,
    ) -> DetectCounts {
        let ContactSet {
            pairs,
            points,
            answers,
            previous: previous_pairs,
            previous_points,
            previous_answers,
            apart,
            previous_apart,
            chunks,
            config,
        } = self;
        let reuse = *config == Some(*input.config);
        *config = Some(*input.config);
        std::mem::swap(pairs, previous_pairs);
        std::mem::swap(points, previous_points);
        std::mem::swap(answers, previous_answers);
        std::mem::swap(apart, previous_apart);
        pairs.clear();
        points.clear();
        answers.clear();
        apart.clear();
        make_room(apart, candidate_pairs.len());
        make_room(pairs, candidate_pairs.len());
        make_room(answers, candidate_pairs.len());
        make_room(points, candidate_pairs.len() * MAX_POINTS);
        let previous = Previous {
            pairs: previous_pairs,
            points: previous_points,
            answers: previous_answers,
            apart: previous_apart,
            reuse,
        };
        match on_pair {
            None if candidate_pairs.len() >= PARALLEL_MIN_PAIRS && rayon::current_num_threads() > 1 => {
                let out = DetectOut {
                    pairs,
                    points,
                    answers,
                    apart,
                    counts: DetectCounts::default(),
                };
                detect_in_chunks(bodies, candidate_pairs, input, &previous, chunks, out)
            }
            on_pair => {
                let mut out = DetectOut {
                    pairs,
                    points,
                    answers,
                    apart,
                    counts: DetectCounts::default(),
                };
                detect_run(bodies, candidate_pairs, input, &previous, &mut out, on_pair);
                out.counts
            }
        }
    }

    /// The slots of the touching pairs (what the sleep islands join).
    pub fn touching_slots(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.pairs.iter().filter(|p| p.touching).map(|p| (p.slot_a, p.slot_b))
    }

    /// The overlapping pairs as the sandbox shows them (world frame, at the start of
    /// the step), into `out`.
    pub fn manifolds(&self, out: &mut Vec<ContactManifold>) {
        out.clear();
        out.extend(
            self.pairs
                .iter()
                .filter(|p| p.touching)
                .filter_map(|p| self.answers.get(p.answer as usize))
                // A restored pair's answer is made at its next detection.
                .filter(|a| !a.stale)
                .map(PairAnswer::shown),
        );
    }
}

/// What sees each pair's narrow-phase answer during a detection (race mode), with the
/// pair's slots.
pub(crate) type OnPair<'a> = &'a mut dyn FnMut((usize, usize), &Contact);

/// Candidate pairs below this are detected on the calling thread: a thread's start-up
/// and the merge cost more than the narrow phase of a small scene (the default scene
/// has about 60 pairs; the 5050-box pyramid 15,000).
pub const PARALLEL_MIN_PAIRS: usize = 1024;

/// Makes room in the empty `buffer` for at least `needed` items, and a quarter more, so
/// that a count that creeps up by a few each step does not allocate every step
/// (tests/allocations.rs).
///
/// Why not `reserve`: a cleared buffer that grows is reallocated, and `realloc` copies
/// its whole old capacity, which holds nothing; the contact buffers grew so in each of
/// a settling pile's first steps (0.3% of the 5050-box pyramid's first 30 steps).
fn make_room<T>(buffer: &mut Vec<T>, needed: usize) {
    debug_assert!(buffer.is_empty());
    if buffer.capacity() < needed {
        *buffer = Vec::with_capacity(needed + needed / 4);
    }
}

/// The previous step's contacts, sorted by slots, which the detection carries impulses
/// and stick points over from.
struct Previous<'a> {
    pairs: &'a [PairContact],
    points: &'a [PointContact],
    answers: &'a [PairAnswer],
    /// The pairs found apart (`apart.rs`).
    apart: &'a [ApartPair],
    /// Their contacts may be reused (made with the same narrow-phase tuning).
    reuse: bool,
}

/// A pair list's slots (`PairContact`, `ApartPair`): both lists are sorted by them.
trait Slots {
    fn slots(&self) -> (u32, u32);
}

impl Slots for PairContact {
    fn slots(&self) -> (u32, u32) {
        (self.slot_a, self.slot_b)
    }
}

impl Slots for ApartPair {
    fn slots(&self) -> (u32, u32) {
        (self.slot_a, self.slot_b)
    }
}

/// Index of the first entry of the sorted `list` not before `slots`.
fn start_of<T: Slots>(list: &[T], slots: (u32, u32)) -> usize {
    list.partition_point(|p| p.slots() < slots)
}

/// Moves `index` on through the sorted `list` to the first entry not before `slots`
/// (the candidates come sorted too, so each list is walked once a detection), and
/// returns that entry when it is the pair's own.
#[inline]
fn walk_to<'a, T: Slots>(list: &'a [T], index: &mut usize, slots: (u32, u32)) -> Option<&'a T> {
    while *index < list.len() && list[*index].slots() < slots {
        *index += 1;
    }
    list.get(*index).filter(|p| p.slots() == slots)
}

/// Where one run of the detection writes: its pairs (with `first` indexing `points`,
/// `answer` indexing `answers`) and its counts.
struct DetectOut<'a> {
    pairs: &'a mut Vec<PairContact>,
    points: &'a mut Vec<PointContact>,
    answers: &'a mut Vec<PairAnswer>,
    apart: &'a mut Vec<ApartPair>,
    counts: DetectCounts,
}

/// Detects `candidate_pairs` (a sorted run) into `out`, in order.
fn detect_run(
    bodies: &BodySet,
    candidate_pairs: &[(u32, u32)],
    input: &DetectInput,
    previous: &Previous,
    out: &mut DetectOut,
    mut on_pair: Option<OnPair>,
) {
    let Some(&first) = candidate_pairs.first() else {
        return;
    };
    let (mut prev_index, mut apart_index) = (start_of(previous.pairs, first), start_of(previous.apart, first));
    for &(ia, ib) in candidate_pairs {
        // The previous step's contact of this pair (if any; `detect_pair` checks the
        // slots) and whether it was found apart.
        walk_to(previous.pairs, &mut prev_index, (ia, ib));
        let was_apart = walk_to(previous.apart, &mut apart_index, (ia, ib)).filter(|_| previous.reuse);
        let pairs_before = out.pairs.len();
        let detected = detect_pair(
            bodies,
            (ia, ib),
            input,
            (previous, prev_index, was_apart),
            PointBuffer::after(out.points),
            (out.pairs, out.answers, out.apart),
            on_pair.as_mut(),
            &mut out.counts.work,
        );
        out.counts.reused += u32::from(detected == Detected::Reused);
        out.counts.known_apart += u32::from(detected == Detected::KnownApart);
        if let Some(pair) = out.pairs.get(pairs_before) {
            out.counts.touching += u32::from(pair.touching);
            out.counts.points += u32::from(pair.count);
        }
    }
}
