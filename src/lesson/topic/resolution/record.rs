//! Recording one world step from inside: a [`StepObserver`] that keeps, after every pass
//! of the solver, each body's pose and the contact points with their impulses
//! (`dynamics/observe.rs`). The lesson only reads what it recorded.

use crate::dynamics::{LiteralMove, PassKind, PassView, PointView, Resolution, StepObserver, World};
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};
use crate::narrow::{collide, Algorithm, NarrowConfig};

/// The solver's state after one pass.
pub(super) struct Frame {
    pub kind: PassKind,
    pub substep: u32,
    pub index: u32,
    /// Per slot (`None`: an empty slot).
    pub poses: Vec<Option<Pose>>,
    pub centers: Vec<Option<Vec2>>,
    /// The solver's contact points (none under the literal projection).
    pub points: Vec<PointView>,
    /// What the literal projection did to its pair.
    pub literal: Option<LiteralMove>,
}

/// Every pass of the step it watched.
#[derive(Default)]
pub(super) struct Recorder {
    pub frames: Vec<Frame>,
    pub substeps: u32,
}

impl StepObserver for Recorder {
    fn substep_begun(&mut self, substep: u32) {
        self.substeps = self.substeps.max(substep + 1);
    }

    fn iteration_done(&mut self, pass: &PassView<'_>) {
        let n = pass.slot_count();
        self.frames.push(Frame {
            kind: pass.kind,
            substep: pass.substep,
            index: pass.index,
            poses: (0..n).map(|i| pass.pose(i)).collect(),
            centers: (0..n).map(|i| pass.center_of_mass(i)).collect(),
            points: pass.points().collect(),
            literal: pass.literal_move(),
        });
    }
}

/// Every slot's pose in `world` now.
pub(super) fn poses_of(world: &World) -> Vec<Option<Pose>> {
    let bodies = world.bodies();
    (0..bodies.slot_count())
        .map(|i| bodies.slot(i).map(|b| b.pose()))
        .collect()
}

/// The frames a lesson step is made of, for `method`: the literal projection's pair moves
/// in the substep that moved the most pairs; the first substep's passes of the two
/// solvers (the other substeps repeat them). Passes that only bookkeep (the position-based
/// solver's pull-back of old drift and its v = Δx/h, narrated with the velocity pass)
/// are left out.
pub(super) fn shown(frames: &[Frame], method: Resolution) -> Vec<usize> {
    let keep = |f: &Frame| match method {
        Resolution::LiteralProjection => f.kind == PassKind::LiteralPair,
        Resolution::Projection => matches!(
            f.kind,
            PassKind::Integrate | PassKind::PositionPass | PassKind::VelocityPass
        ),
        Resolution::Impulses => matches!(
            f.kind,
            PassKind::WarmStart | PassKind::VelocityIteration | PassKind::Integrate | PassKind::RelaxIteration
        ),
    };
    let substep = match method {
        Resolution::LiteralProjection => {
            let most = frames.iter().map(|f| f.substep).max().unwrap_or(0);
            let count = |s: u32| frames.iter().filter(|f| keep(f) && f.substep == s).count();
            // The first substep with the most pairs.
            (0..=most).rev().max_by_key(|&s| count(s)).unwrap_or(0)
        }
        _ => 0,
    };
    (0..frames.len())
        .filter(|&i| keep(&frames[i]) && frames[i].substep == substep)
        .collect()
}

/// The pairs a frame's points belong to, each with the sum of its points' normal
/// impulses, in the solver's order.
pub(super) fn pair_sums(points: &[PointView]) -> Vec<((u32, u32), f32)> {
    let mut sums: Vec<((u32, u32), f32)> = Vec::new();
    for p in points {
        let key = (p.slot_a, p.slot_b);
        match sums.iter_mut().find(|(k, _)| *k == key) {
            Some((_, sum)) => *sum += p.normal_impulse,
            None => sums.push((key, p.normal_impulse)),
        }
    }
    sums
}

/// Which bodies `body` overlaps at `poses`, other than `except`, and how deep (m): what a
/// literal move did to the moved body's other neighbours.
pub(super) fn overlaps(
    shapes: &[Option<Shape>],
    poses: &[Option<Pose>],
    body: usize,
    except: usize,
    narrow: (Algorithm, &NarrowConfig),
) -> Vec<(usize, f32)> {
    let (Some(Some(shape)), Some(Some(pose))) = (shapes.get(body), poses.get(body)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (j, (other, other_pose)) in shapes.iter().zip(poses).enumerate() {
        let (Some(other), Some(other_pose)) = (other, other_pose) else {
            continue;
        };
        if j == body || j == except {
            continue;
        }
        let contact = collide(shape, pose, other, other_pose, narrow.0, narrow.1, None);
        if contact.intersect && contact.depth > 0.0 {
            out.push((j, contact.depth));
        }
    }
    out
}
