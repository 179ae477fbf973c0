//! Shape generators, a small deterministic generator, a temporary directory and the
//! shipped scenes, shared by the integration tests.
#![allow(dead_code)]

use collision_lab::dynamics::{BodyHandle, Resolution, World, WorldSettings};
use collision_lab::geometry::families::SplitMix64;
use collision_lab::geometry::{Circle, Polygon, Segment, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::scene::Scene;
use proptest::prelude::*;
use std::f32::consts::TAU;

/// Convex polygon from random points (their hull), 3–12 vertices, radius up to `r`.
pub fn convex_points(r: f32) -> impl Strategy<Value = Vec<Vec2>> {
    prop::collection::vec((0.0f32..TAU, 0.3f32..1.0), 3..12)
        .prop_map(move |pts| {
            let mut pts: Vec<Vec2> = pts.into_iter().map(|(a, d)| Vec2::from_angle(a) * d * r).collect();
            hull(&mut pts)
        })
        // Slivers (near-collinear hulls) belong to the degenerate-input tests, not here.
        .prop_filter("sliver", move |p| {
            let n = p.len();
            let area2: f32 = (0..n).map(|i| p[i].perp_dot(p[(i + 1) % n])).sum();
            n >= 3 && area2 > 0.1 * r * r
        })
}

/// Andrew's monotone chain (test copy, independent of the library's).
pub fn hull(points: &mut [Vec2]) -> Vec<Vec2> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<Vec2> = Vec::new();
    for &p in points.iter() {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 1e-6 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Vec2> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 1e-6 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// A convex shape: polygon (mostly), circle or segment.
pub fn convex_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        6 => convex_points(1.0).prop_filter_map("degenerate hull", |p| Polygon::new(&p).ok().map(Shape::Polygon)),
        2 => (0.1f32..1.0).prop_map(|r| Shape::Circle(Circle::new(r).unwrap())),
        1 => (0.0f32..TAU, 0.2f32..1.5).prop_map(|(a, l)| {
            let d = Vec2::from_angle(a) * l;
            Shape::Segment(Segment::new(-d, d).unwrap())
        }),
    ]
}

/// A convex polygon only.
pub fn convex_polygon() -> impl Strategy<Value = Shape> {
    convex_points(1.0).prop_filter_map("degenerate hull", |p| Polygon::new(&p).ok().map(Shape::Polygon))
}

/// A pose within a box of half-size `extent` around the origin.
pub fn pose(extent: f32) -> impl Strategy<Value = Pose> {
    (-extent..extent, -extent..extent, -3.2f32..3.2).prop_map(|(x, y, a)| Pose::new(Vec2::new(x, y), a))
}

/// Star polygon with `points` tips, radii `outer` and `inner`.
pub fn star(points: usize, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..2 * points)
        .map(|i| {
            let r = if i % 2 == 0 { outer } else { inner };
            Vec2::from_angle(i as f32 * TAU / (2 * points) as f32) * r
        })
        .collect()
}

/// Comb: a spine of height `base` along x in [0, w] with `teeth` teeth of height
/// `tooth` on top, teeth and gaps equally wide.
pub fn comb(teeth: usize, w: f32, base: f32, tooth: f32) -> Vec<Vec2> {
    let step = w / (2 * teeth - 1) as f32;
    let mut out = vec![Vec2::new(0.0, 0.0), Vec2::new(w, 0.0)];
    for k in (0..teeth).rev() {
        let (x0, x1) = (2.0 * k as f32 * step, (2 * k + 1) as f32 * step);
        if k != teeth - 1 {
            out.push(Vec2::new(x1, base));
        }
        out.push(Vec2::new(x1, base + tooth));
        out.push(Vec2::new(x0, base + tooth));
        if k != 0 {
            out.push(Vec2::new(x0, base));
        }
    }
    out
}

/// Random star-shaped (so simple) polygon: sorted angles, random radii.
pub fn star_shaped(r: f32) -> impl Strategy<Value = Vec<Vec2>> {
    prop::collection::vec((0.0f32..1.0, 0.25f32..1.0), 5..16).prop_map(move |v| {
        let n = v.len();
        v.into_iter()
            .enumerate()
            .map(|(i, (jitter, d))| Vec2::from_angle((i as f32 + 0.8 * jitter) * TAU / n as f32) * d * r)
            .collect()
    })
}

/// A non-convex (or sometimes convex) polygon from several families.
pub fn nonconvex_polygon() -> impl Strategy<Value = Shape> {
    prop_oneof![
        star_shaped(1.0),
        (3usize..7, 0.3f32..0.6).prop_map(|(n, inner)| star(n, 1.0, inner)),
        (2usize..5, 0.2f32..0.5, 0.3f32..0.8).prop_map(|(t, b, h)| centered(comb(t, 1.6, b, h))),
        (0.2f32..0.5, 0.2f32..0.5).prop_map(|(tx, ty)| centered(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.2, 0.0),
            Vec2::new(1.2, ty),
            Vec2::new(tx, ty),
            Vec2::new(tx, 1.2),
            Vec2::new(0.0, 1.2),
        ])),
    ]
    .prop_filter_map("invalid polygon", |p| Polygon::new(&p).ok().map(Shape::Polygon))
}

/// Shifts points so their bounding box is centred on the origin.
pub fn centered(mut pts: Vec<Vec2>) -> Vec<Vec2> {
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for p in &pts {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let c = 0.5 * (lo + hi);
    for p in &mut pts {
        *p -= c;
    }
    pts
}

/// A polygon shape from points (panics on invalid input: tests only).
pub fn poly(points: &[(f32, f32)]) -> Shape {
    Shape::Polygon(Polygon::new(&points.iter().map(|&(x, y)| Vec2::new(x, y)).collect::<Vec<_>>()).unwrap())
}

/// Translates a pose by `d`.
pub fn moved(pose: &Pose, d: Vec2) -> Pose {
    Pose {
        translation: pose.translation + d,
        rotation: pose.rotation,
    }
}

/// A small deterministic generator (the library's splitmix64): the same sequence on
/// every platform, for tests that evolve a scene step by step or mutate files from a
/// fixed seed.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0.range_f32(lo, hi)
    }
    /// Uniform in 0..n (0 for n = 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// Values on a 1/8 m lattice, so that exact touching happens often.
    pub fn lattice(&mut self, lo: f32, hi: f32) -> f32 {
        (self.range(lo, hi) * 8.0).round() / 8.0
    }
    /// One of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A fresh empty directory under the system's temporary directory, removed (with its
/// permissions restored first) when dropped.
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("collision-lab-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
    /// The names in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("temp dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A comb on integer coordinates: `teeth` = (tooth width, gap width, tooth height),
/// floor of the gaps at y = 1. Many exactly collinear vertex triples across teeth.
//  ┌┐ ┌─┐┌┐
//  │└─┘ └┘│
//  └──────┘
pub fn integer_comb(teeth: &[(u8, u8, u8)]) -> Vec<Vec2> {
    let mut spans = Vec::new(); // (x0, x1, height)
    let mut x = 0.0f32;
    for (i, &(w, g, h)) in teeth.iter().enumerate() {
        spans.push((x, x + w as f32, h as f32 + 1.0));
        x += w as f32;
        if i + 1 < teeth.len() {
            x += g as f32;
        }
    }
    let mut v = vec![Vec2::new(0.0, 0.0), Vec2::new(x, 0.0)];
    for j in (0..spans.len()).rev() {
        let (x0, x1, h) = spans[j];
        v.push(Vec2::new(x1, h));
        v.push(Vec2::new(x0, h));
        if j > 0 {
            v.push(Vec2::new(x0, 1.0));
            v.push(Vec2::new(spans[j - 1].1, 1.0));
        }
    }
    v
}

/// Scale for tolerances: shape sizes plus coordinate magnitude (f32 rounding grows with
/// both).
pub fn scale(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f32 {
    a.size().max(b.size())
        + pa.translation
            .abs()
            .max_element()
            .max(pb.translation.abs().max_element())
}

/// Whether two neighbouring edges of the shape are nearly collinear (normals within
/// 5e-3 rad): at such a vertex both edges are almost equally aligned with a contact
/// normal, rounding picks the reference or incident edge, and the two paths may clip
/// different (equally valid) edges. Random hulls have such vertices now and then.
pub fn has_nearly_collinear_edges(shape: &Shape) -> bool {
    let normals = shape.piece(0).normals;
    let n = normals.len();
    (0..n).any(|i| normals[i].dot(normals[(i + 1) % n]) > 1.0 - 1.25e-5)
}

/// Whether the choice of reference edge is a tie up to rounding: clipping prefers A's
/// edge unless B's is better aligned with the normal by more than 1e-3 (`narrow/clip.rs`),
/// and right at that threshold the two paths' roundings may choose differently (two
/// different, equally valid manifolds).
pub fn reference_choice_ties(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, world_normal: Vec2) -> bool {
    let best_alignment = |shape: &Shape, pose: &Pose, direction: Vec2| {
        let view = shape.piece(0);
        let local = pose.apply_inv_vector(direction);
        let n = view.vertices.len();
        let i = view.support_index(local);
        view.normals[i].dot(local).max(view.normals[(i + n - 1) % n].dot(local))
    };
    let (align_a, align_b) = (
        best_alignment(a, pa, world_normal),
        best_alignment(b, pb, -world_normal),
    );
    (align_b - align_a - 1e-3).abs() <= 1e-5
}

/// A scene shipped in `scenes/`, by file name.
pub fn shipped(name: &str) -> Scene {
    collision_lab::scene::load(format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"))).expect("a shipped scene")
}

/// The shipped 20-row pyramid under `resolution`, sleeping off, and its top box.
pub fn pyramid_world(resolution: Resolution) -> (World, BodyHandle) {
    let scene = shipped("pyramid_20.ron");
    let settings = WorldSettings {
        resolution,
        sleeping: false,
        ..*World::from_scene(&scene).settings()
    };
    let world = World::from_scene_with(&scene, settings);
    let top = *world.bodies().handles().last().expect("bodies");
    (world, top)
}
