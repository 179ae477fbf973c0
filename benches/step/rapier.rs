//! The bench's scenes rebuilt in rapier2d (`benches/step.rs`).

use super::{Sanity, DT, SUBSTEPS};
use collision_lab::scene::{BodyKind, SceneDef, ShapeDef};
use rapier2d::prelude::{
    CCDSolver, CoefficientCombineRule, ColliderBuilder, ColliderSet, DefaultBroadPhase, ImpulseJointSet,
    IntegrationParameters, IslandManager, MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodyBuilder,
    RigidBodyHandle, RigidBodySet, SoftBodySet, Vector,
};

/// Everything `PhysicsPipeline::step` takes.
pub struct RapierWorld {
    gravity: Vector,
    params: IntegrationParameters,
    pipeline: PhysicsPipeline,
    islands: IslandManager,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    ccd: CCDSolver,
    /// Body handles in file order.
    handles: Vec<RigidBodyHandle>,
    floor_y: f32,
}

/// Solver passes per substep: rapier's defaults (1, 1) or ours (`WorldSettings` defaults).
#[derive(Clone, Copy, Debug)]
pub struct Passes {
    pub pgs: usize,
    pub stabilization: usize,
}

impl RapierWorld {
    pub fn new(def: &SceneDef, passes: Passes) -> RapierWorld {
        let params = IntegrationParameters {
            dt: DT,
            // Substeps (see the bench's docs for the mapping).
            num_solver_iterations: SUBSTEPS as usize,
            num_internal_pgs_iterations: passes.pgs,
            num_internal_stabilization_iterations: passes.stabilization,
            // No continuous detection: it is off on our side too.
            max_ccd_substeps: 0,
            ..IntegrationParameters::default()
        };
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let mut handles = Vec::with_capacity(def.bodies.len());
        for body in &def.bodies {
            let builder = match body.kind {
                BodyKind::Static => RigidBodyBuilder::fixed(),
                BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
                BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            };
            let rb = builder
                .translation(Vector::new(body.position.0, body.position.1))
                .rotation(body.angle)
                .linvel(Vector::new(body.linear_velocity.0, body.linear_velocity.1))
                .angvel(body.angular_velocity)
                .can_sleep(false)
                .build();
            let handle = bodies.insert(rb);
            let collider = collider_of(&body.shape)
                .density(body.density)
                .friction(body.friction)
                .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                .restitution(body.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .build();
            colliders.insert_with_parent(collider, handle, &mut bodies);
            handles.push(handle);
        }
        RapierWorld {
            gravity: Vector::new(def.gravity.0, def.gravity.1),
            params,
            pipeline: PhysicsPipeline::new(),
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::default(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
            handles,
            floor_y: super::ground_floor_y(def),
        }
    }

    pub fn step(&mut self) {
        self.pipeline.step(
            self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    pub fn sanity(&self, (top_start_x, top_start_y): (f32, f32)) -> Sanity {
        let dynamic: Vec<f32> = self
            .bodies
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| b.translation().y)
            .collect();
        let top = self.handles.last().map(|&h| &self.bodies[h]);
        Sanity {
            top_start_y,
            top_end_y: top.map_or(0.0, |b| b.translation().y),
            top_shift_x: top.map_or(0.0, |b| b.translation().x - top_start_x),
            top_end_speed: top.map_or(0.0, |b| b.linvel().length()),
            kept: dynamic.iter().filter(|&&y| y > self.floor_y).count(),
            dynamic: dynamic.len(),
        }
    }
}

/// The rapier collider for a scene shape, in the body's local frame.
fn collider_of(shape: &ShapeDef) -> ColliderBuilder {
    match shape {
        ShapeDef::Circle { radius } => ColliderBuilder::ball(*radius),
        ShapeDef::Segment { a, b } => ColliderBuilder::segment(Vector::new(a.0, a.1), Vector::new(b.0, b.1)),
        ShapeDef::Polygon { points } => {
            let mut vertices: Vec<Vector> = points.iter().map(|p| Vector::new(p.0, p.1)).collect();
            if let Some((min, max)) = axis_aligned_rectangle(&vertices) {
                let half = (max - min) * 0.5;
                return ColliderBuilder::cuboid(half.x, half.y).translation((min + max) * 0.5);
            }
            // rapier wants counter-clockwise; the scene format takes either.
            if signed_area(&vertices) < 0.0 {
                vertices.reverse();
            }
            if is_convex(&vertices) {
                if let Some(builder) = ColliderBuilder::convex_polyline(vertices.clone()) {
                    return builder;
                }
            }
            // Not needed by the bench's scenes (all convex); kept so any scene runs.
            let n = vertices.len() as u32;
            let indices: Vec<[u32; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
            ColliderBuilder::convex_decomposition(&vertices, &indices)
        }
    }
}

/// `Some((min, max))` when the polygon is exactly its bounding box (four corners).
fn axis_aligned_rectangle(vertices: &[Vector]) -> Option<(Vector, Vector)> {
    if vertices.len() != 4 {
        return None;
    }
    let min = vertices.iter().fold(Vector::splat(f32::INFINITY), |m, &v| m.min(v));
    let max = vertices.iter().fold(Vector::splat(f32::NEG_INFINITY), |m, &v| m.max(v));
    let is_corner = |v: &Vector| (v.x == min.x || v.x == max.x) && (v.y == min.y || v.y == max.y);
    let distinct = vertices
        .iter()
        .enumerate()
        .all(|(i, a)| vertices[i + 1..].iter().all(|b| a != b));
    (vertices.iter().all(is_corner) && distinct).then_some((min, max))
}

fn signed_area(vertices: &[Vector]) -> f32 {
    let n = vertices.len();
    (0..n).map(|i| vertices[i].perp_dot(vertices[(i + 1) % n])).sum::<f32>() * 0.5
}

/// Every turn of a counter-clockwise polygon is a left turn.
fn is_convex(vertices: &[Vector]) -> bool {
    let n = vertices.len();
    (0..n).all(|i| {
        let (a, b, c) = (vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
        (b - a).perp_dot(c - b) > 0.0
    })
}
