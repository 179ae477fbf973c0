//! Draws why the whole-body MTV of a decomposed pair is a point of a *union*, not an
//! edge normal: the pair of `scenes/union_corner.ron` (a U and a star), the Minkowski
//! differences A − B of its convex piece pairs around the origin, the nearest point of
//! their union's boundary (the exact MTV, found by `narrow::exact`, the brute-force
//! oracle), and the best that edge normals alone give when each difference holding the
//! origin is cleared whole along them (as if the union were convex). The first combine
//! step tried only such normals (and answered 0.886 m on this pair).
//!
//! ```text
//! cargo run --release --example union_corner               # writes assets/union_corner.svg
//! cargo run --release --example union_corner -- out.svg    # or there
//! ```
//!
//! Translating A by v separates the pair when −v lies in no difference, so the MTV is
//! −p for the boundary point p nearest the origin (the SVG draws p; y is up).

use collision_lab::dynamics::World;
use collision_lab::math::Vec2;
use collision_lab::narrow::exact::exact_penetration;
use collision_lab::narrow::minkowski_difference_hull;
use std::fmt::Write as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "assets/union_corner.svg".to_string());
    let scene = collision_lab::scene::load("scenes/union_corner.ron")?;
    let world = World::from_scene(&scene);
    let bodies: Vec<_> = world
        .bodies()
        .iter()
        .map(|(_, b)| (b.shape().clone(), b.pose()))
        .collect();
    let [(a, pose_a), (b, pose_b)] = &bodies[..] else {
        return Err("scenes/union_corner.ron must hold exactly two bodies".into());
    };
    let mut differences = Vec::new();
    for i in 0..a.piece_count() {
        for j in 0..b.piece_count() {
            differences.push(minkowski_difference_hull(a.piece(i), pose_a, b.piece(j), pose_b));
        }
    }
    let exact = exact_penetration(a, pose_a, b, pose_b).ok_or("the pair does not overlap")?;
    let nearest = exact.normal * exact.depth;
    let (edge_normal, edge_exit) = best_edge_normal_exit(&differences);
    let edge_point = edge_normal * edge_exit;
    println!(
        "{} differences; exact depth {:.4} m at ({:.4}, {:.4}); edge normals, each difference cleared whole: {:.4} m at ({:.4}, {:.4})",
        differences.len(),
        exact.depth,
        nearest.x,
        nearest.y,
        edge_exit,
        edge_point.x,
        edge_point.y
    );
    let feature = boundary_feature(&differences, nearest);
    println!("the nearest point is {feature}");
    let svg = draw(&differences, (nearest, exact.depth, &feature), edge_point, edge_exit);
    collision_lab::scene::write_atomically(std::path::Path::new(&out), svg.as_bytes())?;
    println!("wrote {out}");
    Ok(())
}

/// The first combine step's answer: for each candidate direction u (the outward edge
/// normals of the differences that hold the origin — their pairs' own normals are among
/// them), the translation along u that clears each of those differences, the largest of
/// their support distances h_D(u) = max over v in D of v·u; the shortest over u. It
/// clears every pair, but it clears each difference whole, as if the union were convex.
/// Returns (u, t).
fn best_edge_normal_exit(differences: &[Vec<Vec2>]) -> (Vec2, f32) {
    let holding: Vec<&Vec<Vec2>> = differences.iter().filter(|h| holds_origin(h)).collect();
    let mut best = (Vec2::X, f32::INFINITY);
    for hull in &holding {
        for k in 0..hull.len() {
            let edge = hull[(k + 1) % hull.len()] - hull[k];
            let u = Vec2::new(edge.y, -edge.x).normalize_or_zero();
            if u == Vec2::ZERO {
                continue;
            }
            let t = holding
                .iter()
                .map(|h| h.iter().map(|v| v.dot(u)).fold(f32::NEG_INFINITY, f32::max))
                .fold(0.0f32, f32::max);
            if t < best.1 {
                best = (u, t);
            }
        }
    }
    best
}

/// True when the counter-clockwise convex `hull` holds the origin strictly inside.
fn holds_origin(hull: &[Vec2]) -> bool {
    (0..hull.len()).all(|k| {
        let (p, q) = (hull[k], hull[(k + 1) % hull.len()]);
        (q - p).perp_dot(-p) > 0.0
    })
}

/// What kind of point of the union's boundary `p` is, checked rather than assumed: on
/// how many differences' edges it lies (within 0.1 mm), and whether it is a vertex of
/// one of them.
fn boundary_feature(differences: &[Vec<Vec2>], p: Vec2) -> String {
    const NEAR_M: f32 = 1e-4;
    let on_edge = |hull: &Vec<Vec2>| {
        (0..hull.len()).any(|k| {
            let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            (a + t * (b - a) - p).length() < NEAR_M
        })
    };
    let edges = differences.iter().filter(|h| on_edge(h)).count();
    let vertex = differences.iter().flatten().any(|v| (*v - p).length() < NEAR_M);
    match (edges, vertex) {
        (_, true) => "a vertex of a difference".to_string(),
        (0 | 1, false) => "on one difference's edge".to_string(),
        (n, false) => format!("a corner where {n} differences' edges cross"),
    }
}

/// The figure: differences, origin, both answers; the view spans a little more than
/// the edge-normal answer around the origin.
fn draw(
    differences: &[Vec<Vec2>],
    (nearest, depth, feature): (Vec2, f32, &str),
    edge_point: Vec2,
    edge_exit: f32,
) -> String {
    let half = (edge_exit * 1.25).max(depth * 4.0);
    let (w, h) = (720.0, 720.0);
    let scale = w / (2.0 * half);
    let px = |p: Vec2| (w / 2.0 + p.x * scale, h / 2.0 - p.y * scale);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{hh}" viewBox="0 0 {w} {hh}" font-family="sans-serif" font-size="14">"##,
        hh = h + 70.0
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#1d1f24"/>"##);
    let _ = writeln!(
        s,
        r##"<clipPath id="view"><rect width="{w}" height="{h}"/></clipPath><g clip-path="url(#view)">"##
    );
    for hull in differences {
        let points: Vec<String> = hull
            .iter()
            .map(|&p| {
                let (x, y) = px(p);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="#b58cff" fill-opacity="0.10" stroke="#c9a6ff" stroke-opacity="0.55" stroke-width="1"/>"##,
            points.join(" ")
        );
    }
    let (ox, oy) = px(Vec2::ZERO);
    let arrow = |s: &mut String, to: Vec2, colour: &str| {
        let (x, y) = px(to);
        let _ = writeln!(
            s,
            r##"<line x1="{ox:.1}" y1="{oy:.1}" x2="{x:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2.5"/><circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{colour}"/>"##
        );
    };
    arrow(&mut s, edge_point, "#ff8a65");
    arrow(&mut s, nearest, "#7cf29a");
    let _ = writeln!(
        s,
        r##"<circle cx="{ox:.1}" cy="{oy:.1}" r="4" fill="#ffffff"/><text x="{:.1}" y="{:.1}" fill="#ffffff">origin</text>"##,
        ox + 8.0,
        oy + 18.0
    );
    let _ = writeln!(s, "</g>");
    let _ = writeln!(
        s,
        r##"<text x="12" y="{:.0}" fill="#7cf29a">exact: nearest point of the union's boundary ({feature}): depth {depth:.4} m</text>"##,
        h + 24.0
    );
    let _ = writeln!(
        s,
        r##"<text x="12" y="{:.0}" fill="#ff8a65">edge normals only, each difference cleared whole: {edge_exit:.4} m ({:.1}x too long)</text>"##,
        h + 50.0,
        edge_exit / depth
    );
    let _ = writeln!(s, "</svg>");
    s
}
