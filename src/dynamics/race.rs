//! Race mode: Fayzrakhmanov et al.'s (2015) comparison of the three narrow phases, running inside the
//! simulation.
//!
//! The paper measures the average time each algorithm takes to resolve a collision on
//! sets of non-convex objects. With [`WorldSettings::race`](super::WorldSettings::race)
//! on, every substep hands each candidate pair to all three algorithms: the simulation
//! uses only the chosen one's answer, and the [`RaceReport`] records per algorithm its
//! time and [`Work`], and every pair where another algorithm answers differently from
//! the chosen one:
//!
//! ```text
//! for each candidate pair (a, b), in the broad phase's order:
//!     for alg in NonConvexSat, SatDecomposed, GjkEpa:
//!         time collide(a, b, alg); add its time and work to alg's stats
//!         if alg ≠ chosen: compare with the chosen answer
//!             intersect differs                          → IntersectDiffers
//!             both intersect, normals > 10° apart        → NormalsApart
//!             both intersect, depths > 10% apart         → DepthsApart
//!     exact = oracle::exact_answer(a, b)                 (circles and polygons)
//!     for alg: if oracle::judge(alg's answer, exact) is wrong → alg's exact count += 1
//! ```
//!
//! The second count is the one that says who is right: agreeing with the chosen
//! algorithm means little when the chosen one is the heuristic. The oracle's time is
//! not in any algorithm's.
//!
//! Racing never changes the simulation: `collide` is a pure function of the shapes and
//! poses, and the times it records are read by nobody but the report.
//!
//! All three are timed by the race itself, the chosen one included (a second call with
//! the same inputs), so each is timed the same way, after the world's own query; and
//! the order turns from pair to pair, so none always goes first into a cold cache.

use super::body::{BodyHandle, BodySet};
use crate::math::Vec2;
use crate::narrow::oracle::{exact_answer, judge};
use crate::narrow::{collide, Algorithm, Contact, NarrowConfig, Work};
use std::time::{Duration, Instant};

/// Normals further apart than this (degrees) are a disagreement. 10° is well above
/// the differences rounding and the combination of piece pairs produce on one contact
/// (under 0.1°), and well below a different face being chosen (a box's faces are 90°
/// apart; a 24-tooth gear's are 15°).
pub const NORMAL_ANGLE_LIMIT_DEG: f32 = 10.0;

/// Depths further apart than this fraction of the larger one are a disagreement. The
/// decomposed algorithms agree with each other to about 1e-4 relative; Fayzrakhmanov et al.'s (2015) MTV
/// is over 1.5 times the exact one on a quarter of non-convex pairs (see the README's
/// measurements), so 10% catches that and ignores rounding.
pub const DEPTH_RELATIVE_LIMIT: f32 = 0.10;

/// One algorithm's share of the race over a step (summed over its substeps).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaceAlgorithmStats {
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// Its total narrow-phase time over every candidate pair.
    pub time: Duration,
    /// Candidate pairs it answered.
    pub queries: u32,
    /// Pairs it found intersecting.
    pub intersecting: u32,
    /// Its work summed over every pair (Nv, Np, axes, GJK and EPA iterations).
    pub work: Work,
}

/// How another algorithm's answer differs from the chosen one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DisagreementKind {
    /// One says the bodies intersect, the other says they do not.
    IntersectDiffers,
    /// Both intersect, but the normals are more than [`NORMAL_ANGLE_LIMIT_DEG`] apart.
    NormalsApart,
    /// Both intersect, but the depths are more than [`DEPTH_RELATIVE_LIMIT`] apart
    /// (relative to the larger).
    DepthsApart,
}

impl DisagreementKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [DisagreementKind; 3] = [
        DisagreementKind::IntersectDiffers,
        DisagreementKind::NormalsApart,
        DisagreementKind::DepthsApart,
    ];

    /// A short name for tables and JSON (`intersect`, `normal`, `depth`).
    pub fn name(self) -> &'static str {
        match self {
            DisagreementKind::IntersectDiffers => "intersect",
            DisagreementKind::NormalsApart => "normal",
            DisagreementKind::DepthsApart => "depth",
        }
    }
}

/// The part of an answer the race compares (world frame).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaceAnswer {
    /// Whether the algorithm found the bodies intersecting.
    pub intersect: bool,
    /// Unit normal from A towards B; zero when not intersecting.
    pub normal: Vec2,
    /// Penetration depth (m); 0 when not intersecting.
    pub depth: f32,
}

impl From<&Contact> for RaceAnswer {
    fn from(c: &Contact) -> RaceAnswer {
        RaceAnswer {
            intersect: c.intersect,
            normal: c.normal,
            depth: c.depth,
        }
    }
}

/// One pair on which another algorithm disagrees with the chosen one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disagreement {
    /// Body A of the pair (the narrow phase's A: the lower slot).
    pub body_a: BodyHandle,
    /// Body B of the pair.
    pub body_b: BodyHandle,
    /// The substep of the step it happened in, from 0.
    pub substep: u32,
    /// The algorithm that disagrees with the chosen one.
    pub other: Algorithm,
    /// How.
    pub kind: DisagreementKind,
    /// The chosen algorithm's answer (the one the simulation used).
    pub chosen_answer: RaceAnswer,
    /// The other algorithm's answer.
    pub other_answer: RaceAnswer,
}

/// What racing the three narrow phases found during one step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RaceReport {
    /// The algorithm the simulation used.
    pub chosen: Algorithm,
    /// One entry per algorithm, in [`Algorithm::ALL`] order.
    pub per_algorithm: [RaceAlgorithmStats; 3],
    /// Every disagreement with the chosen algorithm, in the order found (substep, then
    /// the broad phase's pair order, then [`Algorithm::ALL`] order, then kind).
    pub disagreements: Vec<Disagreement>,
    /// Per algorithm ([`Algorithm::ALL`] order): pairs on which its answer is wrong by
    /// the exact oracle ([`crate::narrow::oracle::judge`]: a false positive, a false
    /// negative, or an MTV more than 1% off the exact one).
    pub wrong_by_exact: [u32; 3],
    /// Pairs the oracle answered (a segment has none).
    pub exact_checked: u32,
    /// The scene's size (m) the oracle's tolerance is measured against.
    pub scale_m: f32,
}

impl RaceReport {
    /// An empty report for a race against `chosen` in a scene of size `scale_m` (m).
    pub fn new(chosen: Algorithm, scale_m: f32) -> RaceReport {
        RaceReport {
            scale_m,
            chosen,
            per_algorithm: Algorithm::ALL.map(|algorithm| RaceAlgorithmStats {
                algorithm,
                ..RaceAlgorithmStats::default()
            }),
            disagreements: Vec::new(),
            wrong_by_exact: [0; 3],
            exact_checked: 0,
        }
    }

    /// The stats of `algorithm`.
    pub fn stats(&self, algorithm: Algorithm) -> &RaceAlgorithmStats {
        &self.per_algorithm[algorithm_index(algorithm)]
    }

    /// How many disagreements of `kind` `other` had with the chosen algorithm.
    pub fn count(&self, other: Algorithm, kind: DisagreementKind) -> usize {
        self.disagreements
            .iter()
            .filter(|d| d.other == other && d.kind == kind)
            .count()
    }

    /// Runs all three algorithms on the pair in slots `slot_a` and `slot_b` and records
    /// their stats and disagreements with `chosen_contact`, the answer the simulation
    /// uses. A pair with a slot no longer live is skipped.
    pub(crate) fn race_pair(
        &mut self,
        bodies: &BodySet,
        (slot_a, slot_b): (usize, usize),
        chosen_contact: &Contact,
        config: &NarrowConfig,
        substep: u32,
    ) {
        let (Some(a), Some(b), Some(body_a), Some(body_b)) = (
            bodies.slot(slot_a),
            bodies.slot(slot_b),
            bodies.handle_of_slot(slot_a),
            bodies.handle_of_slot(slot_b),
        ) else {
            return;
        };
        let (pose_a, pose_b) = (a.pose(), b.pose());
        let chosen_answer = RaceAnswer::from(chosen_contact);
        // The first query after the world's own loads whatever the others left cold (a
        // decomposition's pieces), so the order turns by one every pair: each algorithm
        // goes first on a third of the pairs. Disagreements are still listed in
        // `Algorithm::ALL` order, per pair.
        let first = self.per_algorithm[0].queries as usize % Algorithm::ALL.len();
        let mut answers = [RaceAnswer::default(); 3];
        for turn in 0..Algorithm::ALL.len() {
            let index = (first + turn) % Algorithm::ALL.len();
            let algorithm = Algorithm::ALL[index];
            let stats = &mut self.per_algorithm[index];
            let start = Instant::now();
            let contact = collide(a.shape(), &pose_a, b.shape(), &pose_b, algorithm, config, None);
            stats.time += start.elapsed();
            stats.queries += 1;
            stats.intersecting += u32::from(contact.intersect);
            stats.work.add(&contact.work);
            answers[index] = RaceAnswer::from(&contact);
        }
        if let Some(exact) = exact_answer(a.shape(), &pose_a, b.shape(), &pose_b) {
            self.exact_checked += 1;
            for (wrong, answer) in self.wrong_by_exact.iter_mut().zip(&answers) {
                *wrong += u32::from(judge(answer.intersect, answer.depth, &exact, self.scale_m).is_wrong());
            }
        }
        for (algorithm, other_answer) in Algorithm::ALL.into_iter().zip(answers) {
            if algorithm == self.chosen {
                continue;
            }
            for kind in disagreement_kinds(&chosen_answer, &other_answer).into_iter().flatten() {
                self.disagreements.push(Disagreement {
                    body_a,
                    body_b,
                    substep,
                    other: algorithm,
                    kind,
                    chosen_answer,
                    other_answer,
                });
            }
        }
    }
}

/// Where `algorithm` sits in [`Algorithm::ALL`].
fn algorithm_index(algorithm: Algorithm) -> usize {
    match algorithm {
        Algorithm::NonConvexSat => 0,
        Algorithm::SatDecomposed => 1,
        Algorithm::GjkEpa => 2,
    }
}

/// The ways `other` differs from `chosen`: intersect alone, or any of normal and depth
/// when both intersect.
fn disagreement_kinds(chosen: &RaceAnswer, other: &RaceAnswer) -> [Option<DisagreementKind>; 2] {
    if chosen.intersect != other.intersect {
        return [Some(DisagreementKind::IntersectDiffers), None];
    }
    if !chosen.intersect {
        return [None, None];
    }
    // Both normals are unit, so their dot product is the cosine of the angle between
    // them; comparing cosines avoids an acos per pair.
    let normals_apart = chosen.normal.dot(other.normal) < NORMAL_ANGLE_LIMIT_DEG.to_radians().cos();
    let depths_apart = (chosen.depth - other.depth).abs() > DEPTH_RELATIVE_LIMIT * chosen.depth.max(other.depth);
    [
        normals_apart.then_some(DisagreementKind::NormalsApart),
        depths_apart.then_some(DisagreementKind::DepthsApart),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(normal: Vec2, depth: f32) -> RaceAnswer {
        RaceAnswer {
            intersect: true,
            normal,
            depth,
        }
    }

    #[test]
    fn algorithm_index_follows_the_menu_order() {
        for (i, a) in Algorithm::ALL.into_iter().enumerate() {
            assert_eq!(algorithm_index(a), i);
        }
    }

    #[test]
    fn intersect_differs_hides_normal_and_depth() {
        let miss = RaceAnswer::default();
        let h = hit(Vec2::X, 1.0);
        assert_eq!(
            disagreement_kinds(&h, &miss),
            [Some(DisagreementKind::IntersectDiffers), None]
        );
        assert_eq!(
            disagreement_kinds(&miss, &h),
            [Some(DisagreementKind::IntersectDiffers), None]
        );
        assert_eq!(disagreement_kinds(&miss, &miss), [None, None]);
    }

    #[test]
    fn normals_count_past_ten_degrees() {
        let at = |deg: f32| Vec2::new(deg.to_radians().cos(), deg.to_radians().sin());
        assert_eq!(disagreement_kinds(&hit(at(0.0), 1.0), &hit(at(9.9), 1.0)), [None, None]);
        assert_eq!(
            disagreement_kinds(&hit(at(0.0), 1.0), &hit(at(10.1), 1.0)),
            [Some(DisagreementKind::NormalsApart), None]
        );
        assert_eq!(
            disagreement_kinds(&hit(at(0.0), 1.0), &hit(at(180.0), 1.0)),
            [Some(DisagreementKind::NormalsApart), None]
        );
    }

    #[test]
    fn depths_count_past_ten_percent_of_the_larger() {
        assert_eq!(
            disagreement_kinds(&hit(Vec2::X, 1.0), &hit(Vec2::X, 0.91)),
            [None, None]
        );
        assert_eq!(
            disagreement_kinds(&hit(Vec2::X, 1.0), &hit(Vec2::X, 0.89)),
            [None, Some(DisagreementKind::DepthsApart)]
        );
        // Relative to the larger, so the order does not matter.
        assert_eq!(
            disagreement_kinds(&hit(Vec2::X, 0.89), &hit(Vec2::X, 1.0)),
            [None, Some(DisagreementKind::DepthsApart)]
        );
        assert_eq!(
            disagreement_kinds(&hit(Vec2::X, 2.66), &hit(-Vec2::Y, 1.0)),
            [
                Some(DisagreementKind::NormalsApart),
                Some(DisagreementKind::DepthsApart)
            ]
        );
    }
}
