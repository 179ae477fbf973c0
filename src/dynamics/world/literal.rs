//! The papers' own pipeline, kept under its own name (`LiteralProjection`): every
//! substep detects again and moves bodies apart along the MTVs (`projection.rs`).

use super::*;

impl World {
    /// One substep of the papers' own pipeline: detect again, move apart by the MTVs,
    /// integrate (`projection.rs`).
    pub(super) fn literal_substep(
        &mut self,
        h: f32,
        substep: u32,
        report: &mut StepReport,
        observer: &mut impl StepObserver,
    ) {
        let profile: &mut StepProfile = &mut report.profile;
        profile.substeps += 1;
        let settings = self.settings;
        self.scratch.continuous.record_start(&self.bodies);

        let t = Instant::now();
        profile.broad_tests += self.find_candidate_pairs(false);
        profile.candidate_pairs += self.scratch.pairs.len() as u32;
        profile.broad += t.elapsed();

        let t = Instant::now();
        self.shown.renew_literal();
        for &(ia, ib) in &self.scratch.pairs {
            let (Some(a), Some(b)) = (self.bodies.slot(ia as usize), self.bodies.slot(ib as usize)) else {
                continue;
            };
            let contact = collide(
                a.shape(),
                &a.pose(),
                b.shape(),
                &b.pose(),
                settings.narrow_phase,
                &settings.narrow_config,
                None,
            );
            profile.work.add(&contact.work);
            if let Some(race) = report.race.as_mut() {
                race.race_pair(
                    &self.bodies,
                    (ia as usize, ib as usize),
                    &contact,
                    &settings.narrow_config,
                    substep,
                );
            }
            if !contact.intersect {
                continue;
            }
            let (Some(body_a), Some(body_b)) = (
                self.bodies.handle_of_slot(ia as usize),
                self.bodies.handle_of_slot(ib as usize),
            ) else {
                continue;
            };
            profile.contacts += 1;
            profile.contact_points += contact.points.len() as u32;
            self.shown.literal.push(ContactManifold::of(body_a, body_b, &contact));
        }
        profile.narrow += t.elapsed();
        if settings.sleeping {
            let slots = self.shown.literal.iter().map(ContactManifold::slots);
            sleep::wake_touched(&mut self.bodies, slots, &mut self.scratch.sleep);
        }

        let t = Instant::now();
        integrate_velocities(&mut self.bodies, settings.gravity, h);
        profile.integration += t.elapsed();
        let t = Instant::now();
        resolve_by_literal_projection(&mut self.bodies, &self.shown.literal, substep, observer);
        profile.resolution += t.elapsed();
        let t = Instant::now();
        integrate_positions(&mut self.bodies, h);
        profile.integration += t.elapsed();

        let t = Instant::now();
        let counts = self.scratch.continuous.sweep(&mut self.bodies, &settings, 1);
        let profile = &mut report.profile;
        profile.continuous_bodies += counts.bodies;
        profile.continuous_rollbacks += counts.rollbacks;
        profile.continuous_queries += counts.queries;
        profile.continuous += t.elapsed();

        let t = Instant::now();
        self.remove_non_finite(&mut report.removed);
        report.profile.integration += t.elapsed();
    }
}
