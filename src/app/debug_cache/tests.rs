//! The focus pair, its trace, the Voronoi pairs and the tightness cache, on small
//! worlds built from scene text.

use super::*;
use crate::scene::parse;

fn world(ron: &str) -> World {
    World::from_scene(&parse(ron, "test.ron").unwrap())
}

/// Three boxes on a line: 0 at x=0, 1 at x=1.5 (overlapping 0), 2 at x=6.
const THREE_BOXES: &str = r#"(
    version: 1,
    bodies: [
        (shape: Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]), position: (0.0, 0.0)),
        (shape: Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]), position: (1.5, 0.2)),
        (shape: Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]), position: (6.0, 0.0)),
    ],
)"#;

fn handles(w: &World) -> Vec<BodyHandle> {
    w.bodies().handles()
}

#[test]
fn the_focus_pair_follows_selection_and_hover() {
    let w = world(THREE_BOXES);
    let h = handles(&w);
    // Selected and hovered: that pair, ordered by slot.
    let c = choose_focus_pair(&w, Some(h[2]), Some(h[0])).unwrap();
    assert_eq!((c.a, c.b, c.reason), (h[0], h[2], FocusReason::SelectedAndHovered));
    // Selected only: the nearest box (no step yet, so no contacts).
    let c = choose_focus_pair(&w, Some(h[2]), None).unwrap();
    assert_eq!((c.a, c.b, c.reason), (h[1], h[2], FocusReason::SelectedAndNearest));
    // Hovering the selected body is the same as hovering nothing.
    let c = choose_focus_pair(&w, Some(h[0]), Some(h[0])).unwrap();
    assert_eq!((c.a, c.b), (h[0], h[1]));
    // Hovered only.
    let c = choose_focus_pair(&w, None, Some(h[1])).unwrap();
    assert_eq!((c.a, c.b, c.reason), (h[0], h[1], FocusReason::HoveredAndNearest));
    // Nothing: the most overlapping boxes.
    let c = choose_focus_pair(&w, None, None).unwrap();
    assert_eq!((c.a, c.b, c.reason), (h[0], h[1], FocusReason::Deepest));
}

#[test]
fn a_contact_beats_a_nearer_box() {
    let mut w = world(THREE_BOXES);
    w.settings_mut().gravity = Vec2::ZERO;
    w.step(1.0 / 60.0);
    let h = handles(&w);
    assert!(!w.contacts().is_empty());
    assert_eq!(nearest_body(&w, h[1]), Some(h[0]));
    let c = choose_focus_pair(&w, None, None).unwrap();
    assert_eq!((c.a, c.b), (h[0], h[1]));
}

#[test]
fn a_removed_selection_is_ignored() {
    let mut w = world(THREE_BOXES);
    let h = handles(&w);
    w.remove(h[2]);
    let c = choose_focus_pair(&w, Some(h[2]), Some(h[1])).unwrap();
    assert_eq!(c.reason, FocusReason::HoveredAndNearest);
}

#[test]
fn the_overlapping_boxes_have_the_x_axis_as_minimum() {
    // Boxes 0 and 1 overlap by 0.5 m in x and 1.8 m in y: the minimum-overlap axis
    // is ±x with overlap 0.5, in every algorithm's axes.
    let w = world(THREE_BOXES);
    let h = handles(&w);
    for alg in Algorithm::ALL {
        let mut w = w.clone();
        w.settings_mut().narrow_phase = alg;
        let choice = choose_focus_pair(&w, Some(h[0]), Some(h[1])).unwrap();
        let f = focus_pair(&w, choice).unwrap();
        assert!(f.contact.intersect, "{alg}");
        assert!(!f.trace.steps.is_empty());
        let min = f.min_axis().unwrap_or_else(|| panic!("{alg}: no minimum axis"));
        assert!(min.axis.x.abs() > 0.999, "{alg}: {:?}", min.axis);
        assert!((-min.gap - 0.5).abs() < 1e-4, "{alg}: gap {}", min.gap);
        assert_eq!(f.roles.iter().filter(|r| **r == AxisRole::Minimum).count(), 1);
        assert!(!f.roles.contains(&AxisRole::Separating));
        assert_eq!(
            f.axes_algorithm,
            if alg == Algorithm::GjkEpa {
                Algorithm::SatDecomposed
            } else {
                alg
            }
        );
        assert_eq!(f.minkowski.len(), 1);
        // A − B holds the origin.
        assert!(f.minkowski[0].0.iter().any(|p| p.x < 0.0) && f.minkowski[0].0.iter().any(|p| p.x > 0.0));
    }
}

#[test]
fn separated_boxes_show_a_separating_axis_and_no_minimum() {
    let w = world(THREE_BOXES);
    let h = handles(&w);
    let choice = choose_focus_pair(&w, Some(h[1]), Some(h[2])).unwrap();
    let f = focus_pair(&w, choice).unwrap();
    assert!(!f.contact.intersect);
    assert!(f.roles.contains(&AxisRole::Separating));
    assert!(f.min_axis().is_none());
}

#[test]
fn a_circle_beside_a_box_is_in_an_edge_region() {
    let w = world(
        r#"(
        version: 1,
        bodies: [
            (shape: Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]), position: (0.0, 0.0)),
            (shape: Circle(radius: 0.5), position: (1.3, 0.2)),
            (shape: Circle(radius: 0.5), position: (9.0, 9.0)),
        ],
    )"#,
    );
    let h = handles(&w);
    let view = Aabb::new(Vec2::splat(-20.0), Vec2::splat(20.0));
    let pairs = voronoi_pairs(&w, &view, None);
    assert_eq!(pairs.len(), 1, "the far circle is not near");
    let v = pairs[0];
    assert_eq!((v.polygon, v.circle), (h[0], h[1]));
    assert!(matches!(v.region, VoronoiRegion::Edge(_)), "{:?}", v.region);
    assert!((v.closest - Vec2::new(1.0, 0.2)).length() < 1e-5);
    let focus = choose_focus_pair(&w, Some(h[1]), None);
    assert!(voronoi_pairs(&w, &view, focus)[0].in_focus);
}

#[test]
fn the_rho_cache_measures_once_and_forgets_other_kinds() {
    let mut w = world(THREE_BOXES);
    let h = handles(&w);
    let view = Aabb::new(Vec2::splat(-20.0), Vec2::splat(20.0));
    let mut cache = DebugCache::default();
    cache.update_rho(&w, BoundKind::Aabb, &view, 100);
    assert_eq!(cache.rho.len(), 3);
    // A box's own AABB fits it exactly.
    assert!(cache.rho[&(h[0], BoundKind::Aabb)].rho < 0.02);
    // The budget limits the work per frame.
    cache.update_rho(&w, BoundKind::Circle, &view, 2);
    assert_eq!(cache.rho.len(), 2, "AABB entries dropped when the kind changed");
    assert!(cache.rho.keys().all(|(_, k)| *k == BoundKind::Circle));
    cache.update_rho(&w, BoundKind::Circle, &view, 2);
    assert_eq!(cache.rho.len(), 3);
    let circle_rho = cache.rho[&(h[0], BoundKind::Circle)].clone();
    assert!(
        circle_rho.rho > 0.1,
        "a circle around a square is loose: {}",
        circle_rho.rho
    );
    assert!(circle_rho.local_outline.is_some());
    // A turned body keeps its circle's rho, but its AABB is measured again.
    w.body_mut(h[0]).unwrap().set_pose(Vec2::ZERO, 0.7);
    cache.update_rho(&w, BoundKind::Circle, &view, 0);
    assert_eq!(cache.rho[&(h[0], BoundKind::Circle)], circle_rho);
    cache.update_rho(&w, BoundKind::Aabb, &view, 100);
    assert!(cache.rho[&(h[0], BoundKind::Aabb)].rho > 0.05);
}

#[test]
fn the_voronoi_layer_shades_the_focus_pair_only() {
    let w = world(
        r#"(
        version: 1,
        bodies: [
            (shape: Polygon(points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]), position: (0.0, 0.0)),
            (shape: Circle(radius: 0.5), position: (1.3, 0.2)),
            (shape: Circle(radius: 0.5), position: (-1.3, 0.2)),
        ],
    )"#,
    );
    let h = handles(&w);
    let view = Aabb::new(Vec2::splat(-20.0), Vec2::splat(20.0));
    let flags = crate::app::flags::DebugFlags {
        voronoi: true,
        ..Default::default()
    };
    let mut cache = DebugCache::default();
    cache.update(&w, Some(h[2]), None, &flags, &view);
    assert_eq!(cache.voronoi.len(), 1);
    assert_eq!((cache.voronoi[0].polygon, cache.voronoi[0].circle), (h[0], h[2]));
}

#[test]
fn the_focus_pair_is_computed_again_only_when_its_poses_change() {
    let mut w = world(THREE_BOXES);
    let h = handles(&w);
    let view = Aabb::new(Vec2::splat(-20.0), Vec2::splat(20.0));
    let flags = crate::app::flags::DebugFlags::default();
    let mut cache = DebugCache::default();
    for _ in 0..5 {
        cache.update(&w, Some(h[0]), Some(h[1]), &flags, &view);
    }
    assert_eq!(cache.focus_computations, 1);
    w.body_mut(h[1]).unwrap().set_pose(Vec2::new(0.5, 0.0), 0.1);
    cache.update(&w, Some(h[0]), Some(h[1]), &flags, &view);
    assert_eq!(cache.focus_computations, 2);
    w.settings_mut().narrow_phase = crate::narrow::Algorithm::GjkEpa;
    cache.update(&w, Some(h[0]), Some(h[1]), &flags, &view);
    assert_eq!(cache.focus_computations, 3);
    assert_eq!(
        cache.focus.as_ref().unwrap().algorithm,
        crate::narrow::Algorithm::GjkEpa
    );
}

#[test]
fn non_convex_sat_across_an_air_gap_is_flagged_a_false_positive() {
    // Lesson 4's first preset: a box floating in a U's notch, 0.1 m above its floor.
    // Every shadow of the box overlaps the U's (the notch is invisible in a shadow), so
    // whole-polygon SAT reports a contact that is not there.
    //   ┌─┐      ┌─┐
    //   │ │ ┌──┐ │ │
    //   │ │ └──┘ │ │
    //   │ └──────┘ │
    //   └──────────┘
    let w = world(
        r#"(
        version: 1,
        gravity: (0.0, 0.0),
        settings: (narrow_phase: NonConvexSat),
        bodies: [
            (shape: Polygon(points: [(-0.6, -0.4), (0.6, -0.4), (0.6, 0.4), (-0.6, 0.4)]), position: (0.0, 0.1), kind: Static),
            (shape: Polygon(points: [(-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (0.9, 1.0), (0.9, -0.4), (-0.9, -0.4), (-0.9, 1.0), (-1.5, 1.0)]), kind: Static),
        ],
    )"#,
    );
    let h = handles(&w);
    let choice = choose_focus_pair(&w, Some(h[0]), Some(h[1])).unwrap();
    let f = focus_pair(&w, choice).unwrap();
    assert!(f.contact.intersect, "the heuristic's false positive");
    let exact = f.exact.expect("two polygons have an oracle");
    assert!(!exact.intersect);
    assert!((exact.distance - 0.1).abs() < 1e-4, "{exact:?}");
    assert_eq!(
        f.verdict.describe().unwrap(),
        "false positive: exact says 100.0 mm apart"
    );
    // The decomposed SAT gets it right: no flag.
    let mut w = w;
    w.settings_mut().narrow_phase = crate::narrow::Algorithm::SatDecomposed;
    let f = focus_pair(&w, choice).unwrap();
    assert!(!f.verdict.is_wrong(), "{:?}", f.verdict);
}
