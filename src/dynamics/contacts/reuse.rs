//! How far a pair's bodies may move against each other and the pair keep its contact
//! without being tested again (the parent module's "Reused contacts"): the tolerances,
//! and the measurements that chose them.

/// A pair's contact is reused while B, seen from A, has moved less than this fraction of
/// the slop since the narrow phase last ran on it (see the module docs): 0.25 mm at the
/// default slop, a twentieth of the overlap the solvers leave at rest anyway.
///
/// Measured on the default scene (stars, combs and gears settling, sleeping on): every
/// body asleep after 6.3 s without reuse (Impulses), 6.6 s at 0.01, 6.1 s at 0.02,
/// 7.7 s at 0.05, 10.8 s at 0.1 — the time moves by seconds with any small change (it
/// does the same with a step 0.01% longer), but it grows with the tolerance, so the
/// tolerance stays small. On the 5050-box pyramid it reuses about half the candidate
/// pairs over its first 2.5 s (0.02: a third; 0.1: two thirds).
pub const REUSE_SLOP_FRACTION: f32 = 0.05;

/// [`REUSE_SLOP_FRACTION`] for a pair of two convex flat-sided shapes (convex polygons,
/// segments), under both solvers: 2 mm at the default slop. (The literal projection,
/// kept as the papers give it for comparison, keeps the smaller tolerance it had.)
///
/// Why larger, first for the position-based solver: it does not bring a tall pile to
/// rest (`xpbd/rocking_and_cost.md`, "Still open"): neighbouring boxes of the 60-row
/// pyramid still move 0.3 to 3.5 mm a step against each other at 20 s (10th to 90th
/// percentile; median 1.1 mm), so at 0.25 mm it reused 11% of its pairs in its first
/// 5 s, and the 100-row one 3% of its 14,800 over the bench's window (steps 31 to
/// 150). At 1 mm: 41% and 19%. A reused
/// point is carried with the bodies, as the solvers carry every point through the
/// substeps of a step, so what changes is only how stale the features may be: at most
/// 1 mm of relative motion since the narrow phase last ran on the pair, a fifth of the
/// overlap the solver leaves at rest.
/// Measured (20 s, sleeping off, 4 substeps): the 60-row pyramid 1036 boxes faster
/// than 5 cm/s (1019 at 0.25 mm), the 100-row one 3570 (3379), every box on the
/// ground. At 2.5 mm the 100-row pyramid lost a flank (boxes 15 m below the ground by
/// 20 s); 1 mm is well inside that, but not by a factor of ten.
///
/// Only for convex flat-sided pairs: with every pair at 1 mm the default scene (stars,
/// combs, gears, balls) no longer fell asleep within 10 s under Projection
/// (`tests/resolution.rs`). A non-convex pair's contact depends on which features the
/// narrow phase finds (a tooth, then another) and on its kept points; and a ball's
/// contact point moves over the ball as it rolls, so a carried point lags behind the
/// true one: with every convex pair at 1 mm, the scene's 0.3 m "small ball 2" was
/// still rolling on the ground at 6 cm/s after 10 s (a push off the true contact
/// point turns the ball — our reading, not measured further). A polygon's contact
/// points are its corners and the ends of the clipped edges, which a millimetre of
/// motion moves by a millimetre.
///
/// Under impulses too (2026-11-28): the impulse solver carries a reused point through
/// its substeps as the position-based one does, and a falling heap has many pairs that
/// move by a fraction of a millimetre a step. `rain_1000.ron` with the bench's settings
/// (impulses, 270 steps): 285 → 452 of its 1,525 candidate pairs a step reused, the
/// step 1,964 M → 1,858 M instructions (−5.4%; callgrind, plain build); the 5050-box
/// pyramid still rests (600 steps: no box faster than 5 cm/s, the top box 4 cm from
/// the middle, as at 0.25 mm), and the tests of `tests/resolution.rs`,
/// `tests/dynamics.rs` and `tests/sleeping.rs` hold as before.
///
/// 1 mm → 2 mm (2026-11-29), after projection's velocity pass learnt to settle stacks
/// (`xpbd/stacking.rs`): a landed heap's pairs move by a millimetre or two a step
/// against each other, and the rain (bench settings, projection) reused 923 of its
/// 2,540 candidate pairs a step over steps 171 to 270 at 1 mm, 1,249 at 2 mm (1,414 at
/// 3 mm); its step 0.599 → 0.558 ms over 270 steps (one thread, medians of 6 runs
/// taking turns), impulses 0.519 → 0.500 ms; 3 mm gained only 1% more. Checked at
/// 2 mm: the 5050-box pyramid at 20 s (1200 steps, bench settings) has no box faster
/// than 0.2 m/s under either solver (four faster than 5 cm/s under projection, none
/// under impulses) and its top box within 5 cm of the middle; the default scene under
/// projection fell asleep within 25 s in 19 of 21 runs (three narrow phases, seven
/// step rates from 59.8 to 60.2 Hz), against 17 of 21 at 1 mm, and in 6.4 s at 60 Hz
/// under SatDecomposed (9.2 s at 1 mm); `tests/resolution.rs`, `tests/resolution_tall.rs`,
/// `tests/dynamics.rs` and `tests/sleeping.rs` hold. At 2.5 mm, before the stacking
/// rule, the 100-row pyramid lost a flank (above); with it, it stands at 3 mm too.
pub const CONVEX_REUSE_SLOP_FRACTION: f32 = 0.4;

/// Under the position-based solver (`Resolution::Projection`), how far a pair of convex
/// flat-sided shapes may move and keep its contact beyond the
/// [`CONVEX_REUSE_SLOP_FRACTION`] every solver allows: this fraction of the smaller
/// shape's reach …
///
/// Why: a carried contact is off by at most the motion since it was found, and the
/// features of a polygon are its corners and edges, so how stale a contact may be scales
/// with the polygon's size: a sixteenth of its reach keeps a box of 4.5 cm or less at
/// 2 mm, one of 6 cm at 2.7 mm, and a polygon of 8 cm reach or more at the cap below.
pub const CONVEX_REUSE_SIZE_FRACTION: f32 = 1.0 / 16.0;

/// … and never more than this many slops (5 mm at the default slop): a carried point
/// then misses by no more than the overlap the solver leaves at rest anyway.
///
/// Measured 2026-11-29 (one thread, bench settings, 270 steps of `rain_1000.ron`,
/// alternating runs): projection's step 0.48–0.49 → 0.45–0.46 ms at one slop (0.45 at
/// 1.5 slops, 0.43–0.44 at 2; in another run of single runs, 0.47 at 2 mm, 0.40 at 2 cm
/// and 0.45 at 5 cm, where stale contacts keep the heap working, as rapier2d's 5 cm
/// did here). What bounds it is rest, not speed: the default
/// scene under projection (three narrow phases, seven step rates from 59.8 to 60.2 Hz,
/// 25 s) fell asleep in 17 of 21 runs at one slop and at 1.5 slops, in 12 of 21 at 2
/// slops, and in 19 of 21 at 2 mm. The 5050-box pyramid at 20 s (bench settings): no box
/// faster than 5 cm/s (four at 2 mm), the top box 4 cm from the middle, as before.
///
/// Not under impulses, which keep 2 mm: there the 20-row pyramid's top box crept 7 mm
/// after its first second at 2 slops (`tests/dynamics.rs` allows 5 mm), and at one slop
/// the 5050-box pyramid's top box drifted 12 cm sideways in 20 s (3 cm at 2 mm); the
/// impulse solver is already below rapier2d on the rain without it.
pub const CONVEX_REUSE_MAX_SLOPS: f32 = 1.0;

/// The bounds on how far B, seen from A, may move and a pair of two convex flat-sided
/// shapes keep its contact (m; `DetectInput::convex_reuse`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConvexReuse {
    pub least_m: f32,
    pub most_m: f32,
}

impl ConvexReuse {
    /// Both bounds the same distance (m): no size rule.
    pub(crate) fn fixed(distance_m: f32) -> ConvexReuse {
        ConvexReuse {
            least_m: distance_m,
            most_m: distance_m,
        }
    }

    /// The distance for shapes of reach `reach_a` and `reach_b` (m):
    /// [`CONVEX_REUSE_SIZE_FRACTION`] of the smaller, within the bounds.
    pub(crate) fn distance(&self, reach_a: f32, reach_b: f32) -> f32 {
        // Not `clamp`, which panics on bounds out of order.
        (CONVEX_REUSE_SIZE_FRACTION * reach_a.min(reach_b))
            .max(self.least_m)
            .min(self.most_m)
    }
}
