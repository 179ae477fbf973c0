//! The world: bodies, settings, and the fixed-step pipeline.
//!
//! One call to [`World::step`] advances the simulation by `dt`. Contacts are detected
//! once per step and solved over [`WorldSettings::substeps`] substeps of
//! `h = dt / substeps` (Box2D v3's soft step; Müller et al. 2020's substepping): the
//! solvers move the contact points with the bodies instead of asking the narrow phase
//! again, which is what makes small substeps cheap.
//!
//! ```text
//! margins           how far each body can move this step, plus a speculative distance
//! candidate pairs   boxes grown by the margins → the chosen broad phase    [broad]
//! narrow phase      once per pair: the chosen algorithm's points, or speculative
//!                   points where a pair is about to touch (contacts.rs)     [narrow]
//!   (race mode)     the other two algorithms on the same pairs (race.rs)
//! wake sleeping islands an awake body touched (sleep.rs)
//! resolution        dense body states and constraints (body_state.rs, constraint.rs),
//!                   then per substep: v += g·h, solve, x += v·h
//!                   Impulses: soft-step sequential impulses (solver.rs)
//!                   Projection: position-based dynamics (xpbd.rs)      [resolution]
//! write back        poses and velocities into the bodies              [integration]
//! sweep fast bodies, roll back to the time of impact (continuous.rs) [continuous]
//! remove bodies whose state is no longer finite
//! ```
//!
//! [`Resolution::LiteralProjection`], the papers' own method, keeps the pipeline they
//! describe: every substep detects again and moves bodies apart by their MTVs
//! (`projection.rs`).
//!
//! Before the step, islands woken through the API wake whole; after it, rest timers
//! advance and resting islands fall asleep (`sleep.rs`).
//!
//! Determinism: every loop runs in slot order and nothing reads the clock or a hash
//! map's order, so the same world stepped the same way gives the same bits
//! ([`World::state_hash`]).

use super::body::{Body, BodyHandle, BodySet};
use super::body_state::BodyStates;
use super::clock::DEFAULT_RATE_HZ;
use super::constraint::{build_constraints, store_impulses, ColourScratch, Constraints, Reach};
use super::contacts::{
    ContactSet, ConvexReuse, DetectInput, CONVEX_REUSE_MAX_SLOPS, CONVEX_REUSE_SLOP_FRACTION, REUSE_SLOP_FRACTION,
};
use super::continuous::ContinuousScratch;
use super::crowd::{
    cap_crowd_speeds, shed_old_overlap, thin_crowded_pairs, CrowdScratch, CrowdTuning, MAX_CROWDED_PAIRS,
};
use super::desc::{BodyDesc, BodyKind};
use super::integrate::{integrate_positions, integrate_velocities};
use super::manifold::ContactManifold;
use super::observe::{NoObserver, StepObserver, Watch};
use super::profile::{StepProfile, StepReport};
use super::projection::resolve_by_literal_projection;
use super::race::RaceReport;
use super::settings::{ContinuousMode, Resolution, WorldSettings};
use super::sleep::{self, SleepScratch};
use super::solver_wide::WideContacts;
use super::xpbd::XpbdScratch;
use crate::bounds::Aabb;
use crate::broad::{BroadPhase, Proxy};
use crate::narrow::{collide, Algorithm};
use shown::ShownContacts;
use std::time::Instant;

mod literal;
mod lost;
mod pairs;
mod resume;
mod shown;

pub use resume::Resume;

/// The longest step the world takes at once (s). A longer `dt` (a scene at 1 Hz, a
/// time scale far above 1) is taken as several equal steps of at most this: contacts
/// are found once per step for the motion the step can make, and in one 1 s step of
/// 4 substeps a box fell 10 m, past the ground it rested on (a stack of ten ended
/// 433 km below it), while each 0.25 s substep's push-out turned boxes over. 1/30 s is
/// twice the default step, so the default rate runs as before.
pub const MAX_STEP_S: f32 = 1.0 / 30.0;
/// The speculative distance, in slops: pairs this close are given points even when the
/// bodies do not move (Box2D v3's `b2_speculativeDistance`, 4 × `linearSlop`), so a
/// body resting on another keeps its contact whatever the rounding of a step.
const SPECULATIVE_SLOPS: f32 = 4.0;

/// The most a body's motion can grow its margin (m). Beyond it the pair list would
/// cover the whole scene; a body that fast is left to the continuous sweep.
const MAX_MARGIN_M: f32 = 10.0;

/// Buffers reused by every step; never saved, rebuilt at will.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// The broad phase keeps state between steps (sorted axis, tree), but it is all
    /// rebuilt from the bodies at will, so it lives with the scratch.
    broad: BroadPhase,
    proxies: Vec<Proxy>,
    pairs: Vec<(u32, u32)>,
    /// Per slot, how far the body may move this step plus half the speculative
    /// distance (m).
    margins: Vec<f32>,
    /// Per slot, the body's world box at the start of the step (the broad phase's, before
    /// the margin): the narrow phase's box tests read them instead of posing every
    /// vertex again for every pair the body is in.
    boxes: Vec<Aabb>,
    /// Per slot, how many candidate pairs the body is in (`world/pairs.rs`).
    pair_counts: Vec<u32>,
    /// The solvers' dense body states and constraints (`body_state.rs`, `constraint.rs`).
    states: BodyStates,
    constraints: Constraints,
    colours: ColourScratch,
    xpbd: XpbdScratch,
    /// The impulse solver's bundles of four constraints (`solver_wide.rs`).
    wide: WideContacts,
    /// Start poses and lists of the fast-body sweeps (`continuous.rs`).
    continuous: ContinuousScratch,
    /// Union–find of the islands (`sleep.rs`).
    sleep: SleepScratch,
    /// Per-slot scratch of the crowd guards (`crowd.rs`).
    crowd: CrowdScratch,
}

/// A rigid-body world.
#[derive(Clone, Debug)]
pub struct World {
    settings: WorldSettings,
    bodies: BodySet,
    /// The contacts of the last step, with the impulses the next one starts from
    /// (`contacts.rs`).
    contacts: ContactSet,
    /// The intersecting pairs of the last detection (for display and tests).
    shown: ShownContacts,
    scratch: Scratch,
    time_s: f64,
    step_count: u64,
    /// The rate its caller steps it at (Hz; see [`World::rate`]).
    rate_hz: f32,
    /// The box around every body the world was given (built with, inserted, rebuilt):
    /// what the scene spans. A body farther than the kill distance outside it is lost
    /// ([`WorldSettings::kill_distance`]).
    scene_bounds: Option<Aabb>,
    /// The resolution and narrow phase the current contacts were made with.
    contacts_made_with: Option<(Resolution, Algorithm)>,
    /// How the last snapshot given to [`World::restore`] was used (`world/resume.rs`).
    resume: Resume,
}

impl Default for World {
    fn default() -> Self {
        World::new(WorldSettings::default())
    }
}

impl World {
    /// An empty world.
    pub fn new(settings: WorldSettings) -> World {
        World {
            settings,
            bodies: BodySet::new(),
            contacts: ContactSet::default(),
            shown: ShownContacts::default(),
            scratch: Scratch::default(),
            time_s: 0.0,
            step_count: 0,
            rate_hz: DEFAULT_RATE_HZ as f32,
            scene_bounds: None,
            contacts_made_with: None,
            resume: Resume::Fresh,
        }
    }

    /// The step rate (Hz) the world is meant to be stepped at: a step of `1 / rate`
    /// seconds is what its caller passes to [`World::step`] (the app's
    /// [`FixedClock`](super::FixedClock), the command line's loop). The world never reads
    /// it; it keeps it for whoever describes the world again (a saved scene writes it).
    /// Default 60 Hz.
    pub fn rate(&self) -> f32 {
        self.rate_hz
    }

    /// Sets the step rate (Hz) the world is meant to be stepped at (see [`World::rate`]).
    pub fn set_rate(&mut self, rate_hz: f32) {
        self.rate_hz = rate_hz;
    }

    /// Adds the body `desc` describes and returns its handle. The description was
    /// checked when it was built (its shape is built), so this cannot fail. The body
    /// grows the box the kill distance is measured from
    /// ([`WorldSettings::kill_distance`]).
    pub fn insert(&mut self, desc: BodyDesc) -> BodyHandle {
        let body = Body::new(desc);
        self.include_in_scene(body.aabb());
        self.bodies.insert(body)
    }

    /// Rebuilds the body behind `handle` from `desc` in place: same handle, same slot
    /// (so iteration order, and with it determinism, is kept). What an editor calls to
    /// change what only a rebuild can (kind, density, shape). Its cached contacts are
    /// forgotten (they were solved for the old mass) and it is woken, with whatever it
    /// touches. `false` for a stale handle (nothing changes).
    pub fn replace(&mut self, handle: BodyHandle, desc: BodyDesc) -> bool {
        let Some(body) = self.bodies.get_mut(handle) else {
            return false;
        };
        let old_aabb = body.aabb();
        *body = Body::new(desc);
        let new_aabb = body.aabb();
        self.include_in_scene(new_aabb);
        self.contacts.forget_slot(handle.index);
        self.shown.forget_body(handle);
        let margin = 2.0 * self.settings.slop.max(0.0) + 1e-3;
        sleep::wake_near(
            &mut self.bodies,
            &old_aabb.union(&new_aabb),
            margin,
            &mut self.scratch.sleep,
        );
        true
    }

    /// Removes a body (and its cached contacts); `None` for a stale handle. Sleeping
    /// bodies within a slop or two of it wake, with their islands: they may have rested on
    /// it.
    pub fn remove(&mut self, handle: BodyHandle) -> Option<Body> {
        let body = self.bodies.remove(handle)?;
        self.contacts.forget_slot(handle.index);
        self.shown.forget_body(handle);
        let margin = 2.0 * self.settings.slop.max(0.0) + 1e-3;
        sleep::wake_near(&mut self.bodies, &body.aabb(), margin, &mut self.scratch.sleep);
        Some(body)
    }

    /// Wakes a body and the whole island it sleeps with (no effect on a stale handle or
    /// an awake body). What the app calls when the user grabs a body.
    pub fn wake(&mut self, handle: BodyHandle) {
        if let Some(body) = self.bodies.get_mut(handle) {
            body.wake_up();
            sleep::wake_islands(&mut self.bodies, &mut self.scratch.sleep);
        }
    }

    /// The bodies.
    pub fn bodies(&self) -> &BodySet {
        &self.bodies
    }

    /// The size of the scene (m): the diagonal of the box around every body (1 m for
    /// an empty world). Tolerances that should not depend on where the bodies are
    /// measured against it (the exact oracle's "touching").
    pub fn scene_scale(&self) -> f32 {
        let mut boxes = self.bodies.iter().map(|(_, b)| b.aabb());
        let Some(first) = boxes.next() else {
            return 1.0;
        };
        let all = boxes.fold(first, |acc, b| Aabb {
            min: acc.min.min(b.min),
            max: acc.max.max(b.max),
        });
        (all.max - all.min).length().max(1e-3)
    }

    /// One body, if `handle` is live.
    pub fn body(&self, handle: BodyHandle) -> Option<&Body> {
        self.bodies.get(handle)
    }

    /// One body, mutably (to set its velocity or pose), if `handle` is live.
    pub fn body_mut(&mut self, handle: BodyHandle) -> Option<&mut Body> {
        self.bodies.get_mut(handle)
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// The settings, to change between steps. When the next step finds the resolution or
    /// the narrow phase changed, it forgets the contacts' impulses and stick points (they
    /// were made for the old ones); any other change keeps them.
    ///
    /// Clearing here instead, on every call, was a bug: the sandbox's settings panel
    /// takes this every frame, so the window's world lost its warm start and static
    /// friction's stick points every frame, and the 5050-box pyramid that stands for
    /// 40 s headless blew apart in the window under position-based projection.
    pub fn settings_mut(&mut self) -> &mut WorldSettings {
        &mut self.settings
    }

    /// Forgets the contacts if they were made under another resolution or narrow phase.
    fn forget_contacts_of_other_settings(&mut self) {
        let now = (self.settings.resolution, self.settings.narrow_phase);
        if self.contacts_made_with != Some(now) {
            self.contacts.clear();
            self.shown.renew();
            self.contacts_made_with = Some(now);
        }
    }

    /// The broad phase as the last step left it (sorted intervals, grid cells, tree),
    /// read-only, for drawing its structure.
    pub fn broad_phase(&self) -> &BroadPhase {
        &self.scratch.broad
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.time_s
    }

    /// Steps taken.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    /// Total kinetic energy of the dynamic bodies (J).
    pub fn kinetic_energy(&self) -> f32 {
        self.bodies.iter().map(|(_, b)| b.kinetic_energy()).sum()
    }

    /// FNV-1a (64 bit) over the bits of every body's handle, centre of mass, angle,
    /// velocities and sleep flag, in slot order: equal hashes mean bitwise-equal states.
    pub fn state_hash(&self) -> u64 {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut hash = OFFSET;
        let mut eat = |word: u32| {
            for byte in word.to_le_bytes() {
                hash ^= byte as u64;
                hash = hash.wrapping_mul(PRIME);
            }
        };
        for (h, b) in self.bodies.iter() {
            let c = b.center_of_mass();
            let v = b.linear_velocity();
            for word in [
                h.index,
                h.generation,
                c.x.to_bits(),
                c.y.to_bits(),
                b.angle().to_bits(),
                v.x.to_bits(),
                v.y.to_bits(),
                b.angular_velocity().to_bits(),
                b.is_sleeping() as u32,
            ] {
                eat(word);
            }
        }
        hash
    }

    /// Advances the world by `dt` seconds (see the module docs). A `dt` that is not
    /// finite and positive does nothing. Bodies whose state is not finite — before the
    /// step or after any substep — are removed and listed in the report; the others keep
    /// stepping.
    pub fn step(&mut self, dt: f32) -> StepReport {
        self.step_observed(dt, &mut NoObserver)
    }

    /// [`World::step`], with `observer` called at the start of every substep and after
    /// every pass of the solver (`observe.rs`): what the lessons use to show the
    /// iterations inside a step. The step computes exactly what [`World::step`] does.
    pub fn step_observed(&mut self, dt: f32, observer: &mut impl StepObserver) -> StepReport {
        let start = Instant::now();
        let mut report = StepReport::default();
        if !(dt.is_finite() && dt > 0.0) {
            return report;
        }
        // Checked first so an injected NaN never meets the solver.
        self.remove_non_finite(&mut report.removed);
        report.race = self
            .settings
            .race
            .then(|| RaceReport::new(self.settings.narrow_phase, self.scene_scale()));
        self.forget_contacts_of_other_settings();
        // A long step is taken as several of at most MAX_STEP_S each (see there).
        let parts = (dt / MAX_STEP_S).ceil().max(1.0) as u32;
        let part_dt = dt / parts as f32;
        for _ in 0..parts {
            self.begin_sleep();
            let substeps = self.settings.substeps.max(1);
            let h = part_dt / substeps as f32;
            match self.settings.resolution {
                Resolution::LiteralProjection => {
                    for substep in 0..substeps {
                        observer.substep_begun(substep);
                        self.literal_substep(h, substep, &mut report, observer);
                    }
                }
                Resolution::Impulses | Resolution::Projection => {
                    self.solver_step(part_dt, substeps, &mut report, observer)
                }
            }
            self.end_sleep(part_dt, &mut report.profile);
        }
        self.remove_lost(&mut report.removed);
        self.time_s += dt as f64;
        self.step_count += 1;
        report.profile.total = start.elapsed();
        report
    }

    /// One step of the solvers' pipeline (see the module docs).
    fn solver_step(&mut self, dt: f32, substeps: u32, report: &mut StepReport, observer: &mut impl StepObserver) {
        report.profile.substeps += substeps;
        self.scratch.continuous.record_start(&self.bodies);
        let (profile, race) = (&mut report.profile, &mut report.race);
        // Each phase's time goes to its column of the profile (`profile.rs`).
        let broad = timed(|| self.find_pairs_for_step(dt, profile));
        profile.broad += broad;
        let narrow = timed(|| self.detect_contacts(race, profile));
        profile.narrow += narrow;
        profile.resolution += timed(|| self.resolve_contacts(dt, substeps, observer));
        profile.integration += timed(|| self.scratch.states.write_back(&mut self.bodies));
        let continuous = timed(|| self.sweep_fast_bodies(substeps, profile));
        profile.continuous += continuous;
        report.profile.integration += timed(|| self.remove_non_finite(&mut report.removed));
    }

    /// Margins, then the candidate pairs of boxes grown by them \[broad\].
    fn find_pairs_for_step(&mut self, dt: f32, profile: &mut StepProfile) {
        self.compute_margins(dt);
        profile.broad_tests += self.find_candidate_pairs(true);
        profile.candidate_pairs += self.scratch.pairs.len() as u32;
    }

    /// The narrow phase once per candidate pair, into the persistent contacts (and race
    /// mode's other algorithms on the same pairs); sleeping islands an awake body
    /// touched wake \[narrow\].
    fn detect_contacts(&mut self, race: &mut Option<RaceReport>, profile: &mut StepProfile) {
        let settings = self.settings;
        let input = DetectInput {
            algorithm: settings.narrow_phase,
            config: &settings.narrow_config,
            margins: &self.scratch.margins,
            boxes: &self.scratch.boxes,
            slop: settings.slop,
            reuse_distance: settings.slop * REUSE_SLOP_FRACTION,
            convex_reuse: match settings.resolution {
                Resolution::Projection => ConvexReuse {
                    least_m: settings.slop * CONVEX_REUSE_SLOP_FRACTION,
                    most_m: settings.slop * CONVEX_REUSE_MAX_SLOPS,
                },
                Resolution::Impulses => ConvexReuse::fixed(settings.slop * CONVEX_REUSE_SLOP_FRACTION),
                Resolution::LiteralProjection => ConvexReuse::fixed(settings.slop * REUSE_SLOP_FRACTION),
            },
            warm_starting: settings.warm_starting,
        };
        let bodies = &self.bodies;
        // Race mode times the other algorithms pair by pair, on this thread.
        let mut race_pair = race.as_mut().map(|race| {
            move |pair: (usize, usize), contact: &crate::narrow::Contact| {
                race.race_pair(bodies, pair, contact, &settings.narrow_config, 0)
            }
        });
        let on_pair = race_pair
            .as_mut()
            .map(|f| f as &mut dyn FnMut((usize, usize), &crate::narrow::Contact));
        let counts = self.contacts.detect(bodies, &self.scratch.pairs, &input, on_pair);
        self.shown.renew();
        profile.work.add(&counts.work);
        profile.contacts += counts.touching;
        profile.reused_pairs += counts.reused;
        profile.known_apart_pairs += counts.known_apart;
        profile.contact_points += counts.points;
        if settings.sleeping {
            sleep::wake_touched(
                &mut self.bodies,
                self.contacts.touching_slots(),
                &mut self.scratch.sleep,
            );
        }
    }

    /// Dense body states and constraints, old deep overlap shed, the chosen solver over
    /// the substeps, crowd speeds capped, impulses kept for the next step \[resolution\].
    fn resolve_contacts(&mut self, dt: f32, substeps: u32, observer: &mut impl StepObserver) {
        let settings = self.settings;
        let h = dt / substeps as f32;
        let Scratch {
            states,
            constraints,
            colours,
            xpbd,
            wide,
            crowd,
            ..
        } = &mut self.scratch;
        states.gather(&self.bodies);
        let reach = Reach {
            dt,
            gravity_reach: settings.gravity.length() * dt * dt,
        };
        let impulse_terms = settings.resolution != Resolution::Projection;
        build_constraints(
            &self.contacts,
            states,
            settings.slop,
            &reach,
            impulse_terms,
            constraints,
            colours,
        );
        let crowd_tuning = CrowdTuning {
            slop: settings.slop,
            max_shift_m: settings.max_push_speed * dt,
            max_push_speed: settings.max_push_speed,
            gravity_dv: settings.gravity * dt,
        };
        shed_old_overlap(constraints, states, &crowd_tuning, crowd);
        let mut watch = Watch {
            bodies: &self.bodies,
            observer,
        };
        match settings.resolution {
            Resolution::Projection => {
                super::xpbd::solve_step(states, constraints, &settings, substeps, h, xpbd, &mut watch)
            }
            _ => super::solver::solve_step(states, constraints, &settings, substeps, h, wide, &mut watch),
        }
        cap_crowd_speeds(states, crowd);
        store_impulses(constraints, colours, &mut self.contacts);
    }

    /// Fast bodies swept from their start poses and rolled back to the time of impact
    /// (`continuous.rs`) \[continuous\].
    fn sweep_fast_bodies(&mut self, substeps: u32, profile: &mut StepProfile) {
        let counts = self
            .scratch
            .continuous
            .sweep(&mut self.bodies, &self.settings, substeps);
        profile.continuous_bodies += counts.bodies;
        profile.continuous_rollbacks += counts.rollbacks;
        profile.continuous_queries += counts.queries;
    }

    /// Before the substeps: islands touched through the API since the last step wake
    /// whole; with sleeping switched off, everything wakes.
    fn begin_sleep(&mut self) {
        if self.settings.sleeping {
            sleep::wake_islands(&mut self.bodies, &mut self.scratch.sleep);
        } else {
            sleep::wake_all(&mut self.bodies);
        }
    }

    /// After the substeps: rest timers, islands, and the profile's sleep counts.
    fn end_sleep(&mut self, dt: f32, profile: &mut StepProfile) {
        if self.settings.sleeping {
            let (bodies, settings, scratch) = (&mut self.bodies, &self.settings, &mut self.scratch.sleep);
            profile.islands_put_to_sleep += if self.shown.literal_current {
                let slots = self.shown.literal.iter().map(ContactManifold::slots);
                sleep::update_sleep(bodies, slots, settings, dt, scratch)
            } else {
                sleep::update_sleep(bodies, self.contacts.touching_slots(), settings, dt, scratch)
            };
        }
        profile.sleeping_bodies = sleep::sleeping_count(&self.bodies);
    }
}

/// How long `f` takes to run.
fn timed(f: impl FnOnce()) -> std::time::Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}
