//! What the debug layers read that is not already in the world: the focus pair's
//! narrow-phase trace, the polygon–circle pairs whose Voronoi regions are shown, and the
//! tightness of each body's bounding volume.
//!
//! The window loop refreshes it once per frame after the steps
//! ([`AppState::update_debug_cache`](super::state::AppState::update_debug_cache));
//! drawing and the panels only read it (STYLE.md: drawing never changes state, and the
//! algorithms' internals reach the screen as their own trace data).

mod voronoi;
pub use voronoi::{focus_voronoi_pair, voronoi_pair, voronoi_pairs, VoronoiPair, MAX_VORONOI_PAIRS};

use super::flags::DebugFlags;
use crate::bounds::{tightness, Aabb, BoundKind, BoundingVolume};
use crate::dynamics::{Body, BodyHandle, World};
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};
use crate::narrow::oracle::{exact_answer, judge, ExactAnswer, Verdict};
use crate::narrow::trace::{SatAxisStep, TraceStep, VoronoiRegion};
use crate::narrow::{collide, minkowski_difference_hull, Algorithm, Contact, NarrowConfig, Trace};
use std::collections::HashMap;

/// Why the focus pair is the pair it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FocusReason {
    /// The selected body and the one under the cursor.
    SelectedAndHovered,
    /// The selected body and its nearest neighbour (a contact, else the nearest box).
    SelectedAndNearest,
    /// The body under the cursor and its nearest neighbour.
    HoveredAndNearest,
    /// Nothing selected or hovered: the deepest contact (or the closest pair of boxes).
    Deepest,
}

impl FocusReason {
    /// A few words for the debug panel.
    pub fn describe(self) -> &'static str {
        match self {
            FocusReason::SelectedAndHovered => "selected × hovered",
            FocusReason::SelectedAndNearest => "selected × nearest",
            FocusReason::HoveredAndNearest => "hovered × nearest",
            FocusReason::Deepest => "deepest contact (or closest boxes)",
        }
    }
}

/// The pair the axes, Voronoi and Minkowski layers explain, ordered as the world orders
/// it (A is the lower slot, the body the MTV moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairChoice {
    /// Body A.
    pub a: BodyHandle,
    /// Body B.
    pub b: BodyHandle,
    /// Why this pair.
    pub reason: FocusReason,
}

/// Bodies above which the no-contact fallback (closest pair of boxes, O(n²)) is skipped.
const FALLBACK_SCAN_LIMIT: usize = 400;

/// Gap between two boxes (m): 0 when they overlap.
pub fn aabb_gap(a: &Aabb, b: &Aabb) -> f32 {
    let dx = (a.min.x - b.max.x).max(b.min.x - a.max.x).max(0.0);
    let dy = (a.min.y - b.max.y).max(b.min.y - a.max.y).max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// The body nearest to `of`: the other body of its deepest contact, otherwise the body
/// whose box is nearest to its box (ties broken by the distance between box centres).
pub fn nearest_body(world: &World, of: BodyHandle) -> Option<BodyHandle> {
    let deepest = world
        .contacts()
        .iter()
        .filter(|m| m.body_a == of || m.body_b == of)
        .max_by(|x, y| x.depth.total_cmp(&y.depth));
    if let Some(m) = deepest {
        return Some(if m.body_a == of { m.body_b } else { m.body_a });
    }
    let box_of = world.body(of)?.aabb();
    world
        .bodies()
        .iter()
        .filter(|(h, _)| *h != of)
        .map(|(h, b)| {
            let bx = b.aabb();
            (h, aabb_gap(&box_of, &bx), (bx.center() - box_of.center()).length())
        })
        .min_by(|x, y| x.1.total_cmp(&y.1).then(x.2.total_cmp(&y.2)))
        .map(|(h, _, _)| h)
}

/// Which pair the debug layers explain: the selected body with the hovered one (or, with
/// nothing hovered, its nearest neighbour); else the hovered body with its nearest; else
/// the deepest contact, or with no contact the closest pair of boxes of a small world.
pub fn choose_focus_pair(
    world: &World,
    selection: Option<BodyHandle>,
    hovered: Option<BodyHandle>,
) -> Option<PairChoice> {
    let live = |h: Option<BodyHandle>| h.filter(|h| world.bodies().contains(*h));
    let (selection, hovered) = (live(selection), live(hovered));
    let (first, second, reason) = match (selection, hovered) {
        (Some(s), Some(h)) if s != h => (s, h, FocusReason::SelectedAndHovered),
        (Some(s), _) => (s, nearest_body(world, s)?, FocusReason::SelectedAndNearest),
        (None, Some(h)) => (h, nearest_body(world, h)?, FocusReason::HoveredAndNearest),
        (None, None) => {
            let (a, b) = deepest_pair(world)?;
            (a, b, FocusReason::Deepest)
        }
    };
    let (a, b) = if first.index <= second.index {
        (first, second)
    } else {
        (second, first)
    };
    Some(PairChoice { a, b, reason })
}

/// The deepest contact's pair; with no contact, the two dynamic-first bodies whose boxes
/// are closest (most overlapping boxes count as closest), in small worlds only.
fn deepest_pair(world: &World) -> Option<(BodyHandle, BodyHandle)> {
    if let Some(m) = world.contacts().iter().max_by(|x, y| x.depth.total_cmp(&y.depth)) {
        return Some((m.body_a, m.body_b));
    }
    if world.bodies().len() > FALLBACK_SCAN_LIMIT {
        return None;
    }
    let bodies: Vec<(BodyHandle, Aabb, bool)> = world
        .bodies()
        .iter()
        .map(|(h, b)| (h, b.aabb(), b.is_dynamic()))
        .collect();
    let mut best: Option<((u8, f32), (BodyHandle, BodyHandle))> = None;
    for (i, (ha, ba, da)) in bodies.iter().enumerate() {
        for (hb, bb, db) in &bodies[i + 1..] {
            // Prefer pairs with a dynamic body (the ground touches everything), then
            // the smallest gap, overlapping boxes scored by how much they overlap.
            let gap = aabb_gap(ba, bb);
            let score = if gap > 0.0 {
                gap
            } else {
                let lo = ba.min.max(bb.min);
                let hi = ba.max.min(bb.max);
                -((hi - lo).x.min((hi - lo).y))
            };
            // 0: both dynamic, 1: not; lower is better.
            let key = (u8::from(!(*da && *db)), score);
            if best.is_none_or(|(k, _)| key.0 < k.0 || (key.0 == k.0 && key.1 < k.1)) {
                best = Some((key, (*ha, *hb)));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The role of a separating axis in the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisRole {
    /// The minimum-overlap axis: the one the contact normal came from.
    Minimum,
    /// An axis with a gap: it proves the (pieces of the) shapes apart.
    Separating,
    /// Any other axis tested.
    Other,
}

/// The focus pair with the narrow phase's answer and trace.
#[derive(Clone, Debug)]
pub struct FocusPair {
    /// Which bodies, and why.
    pub choice: PairChoice,
    /// The algorithm that ran (the world's current narrow phase).
    pub algorithm: Algorithm,
    /// Its answer for this pair now.
    pub contact: Contact,
    /// Its trace.
    pub trace: Trace,
    /// The algorithm whose trace the axes come from: the same one for the SAT
    /// algorithms; for GJK/EPA (which tests no axes) a separate SAT-over-pieces trace of
    /// the same pair, so the axes layer can still be shown — and says so.
    pub axes_algorithm: Algorithm,
    /// Every projection on an axis, in the order tested.
    pub axes: Vec<SatAxisStep>,
    /// The role of each axis in `axes`.
    pub roles: Vec<AxisRole>,
    /// Hulls of A − B, one per pair of convex pieces, each with the radius around it
    /// (circles), world frame.
    pub minkowski: Vec<(Vec<Vec2>, f32)>,
    /// The exact answer for the pair (None: no oracle, a segment).
    pub exact: Option<ExactAnswer>,
    /// The algorithm's answer judged by the exact one, at the scene's scale.
    pub verdict: Verdict,
}

impl FocusPair {
    /// The minimum-overlap axis, if there is one.
    pub fn min_axis(&self) -> Option<&SatAxisStep> {
        self.roles
            .iter()
            .position(|r| *r == AxisRole::Minimum)
            .map(|i| &self.axes[i])
    }

    /// Nv and Np of this query (bounding-volume and primitive tests).
    pub fn work(&self) -> (u32, u32) {
        (self.contact.work.bv_tests, self.contact.work.primitive_tests)
    }

    /// The Voronoi step of the trace (circle against polygon), if any.
    pub fn voronoi(&self) -> Option<VoronoiRegion> {
        self.trace.steps.iter().find_map(|s| match s {
            TraceStep::Voronoi(v) => Some(v.region),
            _ => None,
        })
    }
}

/// Piece pairs past which the Minkowski layer stops (two 40-piece shapes would give
/// 1600 hulls and nothing readable).
const MAX_MINKOWSKI_PIECE_PAIRS: usize = 256;

/// What the focus pair's answers depend on: when none of it changed since the last
/// frame, neither did the trace nor the exact answer (a resting pile costs nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct FocusKey {
    /// Bodies A and B.
    pub bodies: (BodyHandle, BodyHandle),
    /// Their poses, bit for bit (translation x, y and angle of each).
    pub pose_bits: [u32; 6],
    /// Their shapes ([`shape_fingerprint`]), so an edited vertex counts.
    pub shapes: (u64, u64),
    /// The algorithm and its tuning.
    pub algorithm: Algorithm,
    /// The narrow phase's tuning.
    pub config: NarrowConfig,
    /// The scene's size the verdict's tolerance comes from, bit for bit.
    pub scale_bits: u32,
}

impl FocusKey {
    /// The key of `choice` in `world` now (None when a body is gone).
    pub fn of(world: &World, choice: PairChoice) -> Option<FocusKey> {
        let (a, b) = (world.body(choice.a)?, world.body(choice.b)?);
        let (pa, pb) = (a.pose(), b.pose());
        Some(FocusKey {
            bodies: (choice.a, choice.b),
            pose_bits: [
                pa.translation.x.to_bits(),
                pa.translation.y.to_bits(),
                a.angle().to_bits(),
                pb.translation.x.to_bits(),
                pb.translation.y.to_bits(),
                b.angle().to_bits(),
            ],
            shapes: (shape_fingerprint(a.shape()), shape_fingerprint(b.shape())),
            algorithm: world.settings().narrow_phase,
            config: world.settings().narrow_config,
            scale_bits: world.scene_scale().to_bits(),
        })
    }
}

/// Runs the world's narrow phase on the chosen pair, with a trace, and the exact oracle.
pub fn focus_pair(world: &World, choice: PairChoice) -> Option<FocusPair> {
    let body_a = world.body(choice.a)?;
    let body_b = world.body(choice.b)?;
    let (pose_a, pose_b) = (body_a.pose(), body_b.pose());
    let config = world.settings().narrow_config;
    let algorithm = world.settings().narrow_phase;
    let mut trace = Trace::new();
    let contact = collide(
        body_a.shape(),
        &pose_a,
        body_b.shape(),
        &pose_b,
        algorithm,
        &config,
        Some(&mut trace),
    );
    let (axes_algorithm, axes) = match algorithm {
        Algorithm::GjkEpa => {
            let mut sat = Trace::new();
            collide(
                body_a.shape(),
                &pose_a,
                body_b.shape(),
                &pose_b,
                Algorithm::SatDecomposed,
                &config,
                Some(&mut sat),
            );
            (Algorithm::SatDecomposed, sat_axes(&sat))
        }
        other => (other, sat_axes(&trace)),
    };
    let roles = axis_roles(&axes, &contact);
    let mut minkowski = Vec::new();
    'pieces: for i in 0..body_a.shape().piece_count() {
        for j in 0..body_b.shape().piece_count() {
            if minkowski.len() >= MAX_MINKOWSKI_PIECE_PAIRS {
                break 'pieces;
            }
            let (pa, pb) = (body_a.shape().piece(i), body_b.shape().piece(j));
            let radius = pa.radius + pb.radius;
            minkowski.push((minkowski_difference_hull(pa, &pose_a, pb, &pose_b), radius));
        }
    }
    let exact = exact_answer(body_a.shape(), &pose_a, body_b.shape(), &pose_b);
    let verdict = exact.map_or(Verdict::Agrees, |e| {
        judge(contact.intersect, contact.depth, &e, world.scene_scale())
    });
    Some(FocusPair {
        choice,
        algorithm,
        contact,
        trace,
        axes_algorithm,
        axes,
        roles,
        minkowski,
        exact,
        verdict,
    })
}

/// The SAT projections of a trace, in order.
pub fn sat_axes(trace: &Trace) -> Vec<SatAxisStep> {
    trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::SatAxis(a) => Some(*a),
            _ => None,
        })
        .collect()
}

/// Marks each axis: gaps separate; of the overlapping axes, the one along the contact's
/// normal whose overlap is nearest the contact's depth is the minimum (decomposed
/// algorithms test many piece pairs, each with its own minimum; the one that became the
/// answer is the one that matters). With no contact and no gap (a heuristic's answer),
/// the last running minimum is shown.
pub fn axis_roles(axes: &[SatAxisStep], contact: &Contact) -> Vec<AxisRole> {
    let mut roles: Vec<AxisRole> = axes
        .iter()
        .map(|a| {
            if a.gap > 0.0 {
                AxisRole::Separating
            } else {
                AxisRole::Other
            }
        })
        .collect();
    let minimum = if contact.intersect {
        axes.iter()
            .enumerate()
            .filter(|(_, a)| a.gap <= 0.0)
            .min_by(|(_, x), (_, y)| {
                let key = |a: &SatAxisStep| {
                    let off_normal = 1.0 - a.axis.dot(contact.normal).abs();
                    (off_normal > 1e-3, (-a.gap - contact.depth).abs())
                };
                let (kx, ky) = (key(x), key(y));
                kx.0.cmp(&ky.0).then(kx.1.total_cmp(&ky.1))
            })
            .map(|(i, _)| i)
    } else if roles.contains(&AxisRole::Separating) {
        None
    } else {
        axes.iter().rposition(|a| a.new_minimum)
    };
    if let Some(i) = minimum {
        roles[i] = AxisRole::Minimum;
    }
    roles
}

/// A body's cached tightness for one kind of volume.
#[derive(Clone, Debug, PartialEq)]
pub struct RhoEntry {
    /// The shape it was measured on ([`shape_fingerprint`]).
    pub fingerprint: u64,
    /// The body's angle then (AABBs and 8-DOPs fit differently as a body turns).
    pub angle: f32,
    /// Hausdorff distance over diameter (Zakharov and Sadykov 2003).
    pub rho: f32,
    /// For the kinds that turn with the body (circle, OBB): the volume's outline in the
    /// body's frame, posed for drawing.
    pub local_outline: Option<Vec<Vec2>>,
}

/// Whether a kind's fit changes as the body turns.
pub fn kind_follows_rotation(kind: BoundKind) -> bool {
    matches!(kind, BoundKind::Aabb | BoundKind::Kdop8)
}

/// A turn (rad) after which an AABB's or 8-DOP's rho is measured again.
pub const RHO_ANGLE_TOLERANCE: f32 = 0.05;

/// Tightness measurements per frame at most: each is a Hausdorff estimate on a 64-cell
/// grid (tens of microseconds), and a 1000-body scene must not stall when the layer is
/// switched on; the labels fill in over a few frames instead.
pub const RHO_MEASUREMENTS_PER_FRAME: usize = 48;

/// A hash of a shape's geometry, so an edited shape is measured again.
pub fn shape_fingerprint(shape: &Shape) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let whole = shape.whole();
    whole.radius.to_bits().hash(&mut h);
    for v in whole.vertices {
        v.x.to_bits().hash(&mut h);
        v.y.to_bits().hash(&mut h);
    }
    shape.piece_count().hash(&mut h);
    h.finish()
}

/// Everything the debug layers need beyond the world, refreshed once per frame (the
/// focus pair only when its [`FocusKey`] changed).
#[derive(Clone, Debug, Default)]
pub struct DebugCache {
    /// The pair the axes, Voronoi and Minkowski layers explain.
    pub focus: Option<FocusPair>,
    /// What `focus` was computed for.
    pub focus_key: Option<FocusKey>,
    /// Times the focus pair was computed (the cache's hits do not count).
    pub focus_computations: u64,
    /// Polygon–circle pairs for the Voronoi layer.
    pub voronoi: Vec<VoronoiPair>,
    /// Tightness per body and kind of volume.
    pub rho: HashMap<(BodyHandle, BoundKind), RhoEntry>,
}

impl DebugCache {
    /// Refreshes what the layers that are on need, for the bodies in `view`.
    pub fn update(
        &mut self,
        world: &World,
        selection: Option<BodyHandle>,
        hovered: Option<BodyHandle>,
        flags: &DebugFlags,
        view: &Aabb,
    ) {
        // The focus pair is cheap (one query) and the debug panel always reports it.
        let choice = choose_focus_pair(world, selection, hovered);
        let key = choice.and_then(|c| FocusKey::of(world, c));
        if key.is_none() || key != self.focus_key {
            self.focus = choice.and_then(|c| focus_pair(world, c));
            self.focus_computations += u64::from(self.focus.is_some());
            self.focus_key = key;
        } else if let (Some(f), Some(c)) = (self.focus.as_mut(), choice) {
            // Same bodies and poses; only the reason may differ (hovered → selected).
            f.choice = c;
        }
        // The focus pair's regions only: one fan per circle near a polygon buried the
        // default scene's pile under shading nobody could attribute.
        self.voronoi = if flags.voronoi {
            choice.and_then(|c| focus_voronoi_pair(world, c)).into_iter().collect()
        } else {
            Vec::new()
        };
        match flags.bounds {
            Some(kind) => self.update_rho(world, kind, view, RHO_MEASUREMENTS_PER_FRAME),
            None => self.rho.clear(),
        }
    }

    /// Measures the tightness of the visible bodies' volumes of `kind` that are missing
    /// or out of date, at most `budget` of them; entries of other kinds and of bodies
    /// that are gone are dropped.
    pub fn update_rho(&mut self, world: &World, kind: BoundKind, view: &Aabb, budget: usize) {
        self.rho.retain(|(h, k), _| *k == kind && world.bodies().contains(*h));
        let mut measured = 0;
        for (handle, body) in world.bodies().iter() {
            if measured >= budget {
                break;
            }
            if !body.aabb().overlaps(view) {
                continue;
            }
            let fingerprint = shape_fingerprint(body.shape());
            let angle = body.angle();
            let fresh = self.rho.get(&(handle, kind)).is_some_and(|e| {
                e.fingerprint == fingerprint
                    && (!kind_follows_rotation(kind) || (e.angle - angle).abs() <= RHO_ANGLE_TOLERANCE)
            });
            if fresh {
                continue;
            }
            measured += 1;
            let pose = body.pose();
            let volume = BoundingVolume::of_shape(body.shape(), &pose, kind);
            let rho = tightness(body.shape(), &pose, &volume).rho;
            let local_outline = (!kind_follows_rotation(kind))
                .then(|| BoundingVolume::of_shape(body.shape(), &Pose::IDENTITY, kind).outline());
            self.rho.insert(
                (handle, kind),
                RhoEntry {
                    fingerprint,
                    angle,
                    rho,
                    local_outline,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests;
