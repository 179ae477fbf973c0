//! The convex decomposition (monotone triangulation + Hertel–Mehlhorn) tiles the polygon,
//! on random simple polygons, on every shape family and on collinear-heavy combs and bar
//! charts, with geo's boolean operations as the oracle; and a 100,000-vertex polygon
//! decomposes (its time printed, not asserted: machines are noisy; `collision-lab bench
//! --big-load` has the stage-by-stage numbers).

mod common;

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::Polygon;
use collision_lab::math::Vec2;
use common::integer_comb;
use geo::{Area, BooleanOps};
use proptest::prelude::*;
use std::collections::HashSet;
use std::time::Instant;

fn turn(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (e1x, e1y) = (b.x as f64 - a.x as f64, b.y as f64 - a.y as f64);
    let (e2x, e2y) = (c.x as f64 - b.x as f64, c.y as f64 - b.y as f64);
    e1x * e2y - e1y * e2x
}

fn signed_area(v: &[Vec2]) -> f64 {
    let o = v[0];
    (1..v.len() - 1).map(|i| 0.5 * turn(o, v[i], v[i + 1])).sum::<f64>()
}

fn geo_polygon(v: &[Vec2]) -> geo::Polygon<f64> {
    let ring: Vec<geo::Coord<f64>> = v.iter().map(|q| geo::coord! { x: q.x as f64, y: q.y as f64 }).collect();
    geo::Polygon::new(geo::LineString::new(ring), vec![])
}

/// The promises of `decompose.rs`, checked without geo (linear, for big polygons):
/// pieces counter-clockwise and strictly convex, made of polygon vertices, at most
/// 2r + 1 of them, areas adding up to the polygon's.
fn check_pieces(p: &Polygon) -> Result<(), TestCaseError> {
    let v = p.vertices();
    let n = v.len();
    let corners: HashSet<(u32, u32)> = v.iter().map(|q| (q.x.to_bits(), q.y.to_bits())).collect();
    let mut sum = 0.0f64;
    for piece in p.pieces() {
        let pv = piece.vertices();
        let k = pv.len();
        prop_assert!(k >= 3);
        for i in 0..k {
            prop_assert!(
                turn(pv[i], pv[(i + 1) % k], pv[(i + 2) % k]) > 0.0,
                "piece not strictly convex: {:?}",
                pv
            );
            prop_assert!(
                corners.contains(&(pv[i].x.to_bits(), pv[i].y.to_bits())),
                "piece vertex {:?} is not a polygon vertex",
                pv[i]
            );
        }
        sum += signed_area(pv);
    }
    let area = signed_area(v);
    prop_assert!((sum - area).abs() <= 1e-6 * area, "pieces {} vs polygon {}", sum, area);
    let reflex = (0..n)
        .filter(|&i| turn(v[(i + n - 1) % n], v[i], v[(i + 1) % n]) < 0.0)
        .count();
    prop_assert!(
        p.pieces().len() <= 2 * reflex + 1,
        "{} pieces for {} reflex vertices",
        p.pieces().len(),
        reflex
    );
    Ok(())
}

/// [`check_pieces`], then geo: the input's area is the polygon's, and the union of the
/// pieces has the polygon's area and nothing outside it — with the areas adding up, the
/// pieces cover the polygon once.
fn check_tiling(points: &[Vec2], p: &Polygon) -> Result<(), TestCaseError> {
    check_pieces(p)?;
    let outline = geo_polygon(p.vertices());
    let area = outline.unsigned_area();
    let input_area = geo_polygon(points).unsigned_area();
    prop_assert!(
        (input_area - area).abs() <= 1e-5 * area,
        "input {} vs polygon {}",
        input_area,
        area
    );
    let pieces: Vec<geo::Polygon<f64>> = p.pieces().iter().map(|piece| geo_polygon(piece.vertices())).collect();
    let union = geo::unary_union(&pieces);
    prop_assert!(
        (union.unsigned_area() - area).abs() <= 1e-6 * area,
        "union {} vs polygon {}",
        union.unsigned_area(),
        area
    );
    let outside = union.difference(&outline).unsigned_area();
    prop_assert!(
        outside <= 1e-6 * area,
        "{} of the pieces' area outside the polygon",
        outside
    );
    Ok(())
}

/// A random simple polygon that need not be star-shaped: random points on a small
/// integer grid (collinear and equal coordinates on purpose), then 2-opt moves (reverse
/// the run between two crossing edges) until no edges cross (van Leeuwen and
/// Schoone, "Untangling a travelling salesman tour in the plane", 1981). `None` when it
/// does not settle in the move budget.
fn untangled(raw: &[(u8, u8)]) -> Option<Vec<Vec2>> {
    let mut v: Vec<Vec2> = Vec::new();
    for &(x, y) in raw {
        let q = Vec2::new(x as f32, y as f32);
        if !v.contains(&q) {
            v.push(q);
        }
    }
    if v.len() < 3 {
        return None;
    }
    let crosses = |a: Vec2, b: Vec2, c: Vec2, d: Vec2| {
        let s = |p: Vec2, q: Vec2, r: Vec2| turn(p, q, r).signum();
        s(a, b, c) * s(a, b, d) < 0.0 && s(c, d, a) * s(c, d, b) < 0.0
    };
    let n = v.len();
    for _ in 0..500 {
        let mut moved = false;
        'search: for i in 0..n {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                if crosses(v[i], v[i + 1], v[j], v[(j + 1) % n]) {
                    v[i + 1..=j].reverse();
                    moved = true;
                    break 'search;
                }
            }
        }
        if !moved {
            return Some(v);
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_simple_polygons_are_tiled_by_their_pieces(raw in prop::collection::vec((0u8..12, 0u8..12), 3..24)) {
        let Some(points) = untangled(&raw) else { return Ok(()) };
        // Collinear overlaps can survive the untangling; only simple ones are tested.
        let Ok(p) = Polygon::new(&points) else { return Ok(()) };
        check_tiling(&points, &p)?;
    }

    #[test]
    fn families_are_tiled_by_their_pieces(family in 0usize..Family::ALL.len(), n in 8usize..300, seed in 0u64..1000) {
        let points = Family::ALL[family].generate(n, 1.0, seed);
        let p = Polygon::new(&points).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        check_tiling(&points, &p)?;
    }

    #[test]
    fn collinear_combs_are_tiled_by_their_pieces(
        teeth in prop::collection::vec((1u8..4, 1u8..4, 1u8..6), 1..40),
        transpose in any::<bool>(),
    ) {
        let mut points = integer_comb(&teeth);
        if transpose {
            points = points.iter().map(|q| Vec2::new(q.y, q.x)).collect();
        }
        let p = Polygon::new(&points).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        check_tiling(&points, &p)?;
    }
}

#[test]
fn families_at_10000_vertices_keep_the_decomposition_promises() {
    // Not L and U: at this count their saw-tooth crosses itself at the corners.
    for family in Family::ALL
        .into_iter()
        .filter(|f| !matches!(f, Family::LShape | Family::UShape))
    {
        let p = Polygon::new(&family.generate(10_000, 1.0, 5)).unwrap_or_else(|e| panic!("{family}: {e}"));
        check_pieces(&p).unwrap_or_else(|e| panic!("{family}: {e}"));
    }
}

#[test]
fn polygons_of_100000_vertices_decompose() {
    let mut rng = SplitMix64::new(11);
    for family in [Family::Star, Family::Comb, Family::Coastline] {
        let points = family.generate(100_000, 10.0, rng.next_u64());
        let start = Instant::now();
        let p = Polygon::new(&points).unwrap_or_else(|e| panic!("{family}: {e}"));
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{family}: {} vertices, {} pieces, Polygon::new {:.3} s",
            p.vertices().len(),
            p.pieces().len(),
            seconds
        );
        check_pieces(&p).unwrap_or_else(|e| panic!("{family}: {e}"));
    }
}
