//! The palette's shapes: small generators for the bodies the user drops into the world.
//!
//! Every generator takes an overall size in metres (the width of the shape, a circle's
//! diameter) and returns counter-clockwise points that [`Polygon::new`] accepts, with the
//! shape's area centroid on the local origin, so a body dropped "at the cursor" has its
//! centre of mass there. Output is deterministic: the random polygon takes a seed.
//!
//! ```text
//!  box    n-gon    star     L       U       comb      gear     random
//!  ┌─┐     ⬡       ☆       │       │ │     │ │ │ │     ⚙      (star-shaped:
//!  └─┘                     └─     └─┘     └─────┘             radii jittered)
//! ```
//!
//! `crate::geometry` may grow its own generators for benchmarks; these stay small and
//! local to the sandbox until the two are unified.
//!
//! [`Polygon::new`]: crate::geometry::Polygon::new

use crate::geometry::families::SplitMix64;
use crate::math::{Point, Vec2};
use crate::scene::ShapeDef;
use std::f32::consts::{PI, TAU};

/// Smallest and largest size the palette offers (m).
pub const SIZE_RANGE_M: std::ops::RangeInclusive<f32> = 0.2..=6.0;
/// Sides a regular polygon may have.
pub const SIDES_RANGE: std::ops::RangeInclusive<u32> = 3..=24;

/// A kind of shape in the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteShape {
    /// A circle of diameter `size`.
    Circle,
    /// A square of side `size`.
    Box,
    /// A regular polygon with `sides` sides inscribed in a circle of diameter `size`.
    RegularPolygon,
    /// A five-pointed star.
    Star,
    /// An L: two arms of half the size's thickness.
    L,
    /// A U: a square with a slot cut from the top.
    U,
    /// A comb: a spine with four teeth.
    Comb,
    /// A gear with ten teeth.
    Gear,
    /// A random simple polygon (star-shaped about its centre), from a seed.
    Random,
}

impl PaletteShape {
    /// Every shape, in palette order.
    pub const ALL: [PaletteShape; 9] = [
        PaletteShape::Circle,
        PaletteShape::Box,
        PaletteShape::RegularPolygon,
        PaletteShape::Star,
        PaletteShape::L,
        PaletteShape::U,
        PaletteShape::Comb,
        PaletteShape::Gear,
        PaletteShape::Random,
    ];

    /// The name shown in the palette and in undo labels ("add star").
    pub fn name(self) -> &'static str {
        match self {
            PaletteShape::Circle => "circle",
            PaletteShape::Box => "box",
            PaletteShape::RegularPolygon => "n-gon",
            PaletteShape::Star => "star",
            PaletteShape::L => "L",
            PaletteShape::U => "U",
            PaletteShape::Comb => "comb",
            PaletteShape::Gear => "gear",
            PaletteShape::Random => "random",
        }
    }
}

/// What a palette item makes: the shape kind and its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeParams {
    /// Which shape.
    pub shape: PaletteShape,
    /// Overall width (m); a circle's diameter.
    pub size_m: f32,
    /// Sides of the regular polygon (ignored by the others).
    pub sides: u32,
    /// Seed of the random polygon (ignored by the others).
    pub seed: u64,
}

impl ShapeParams {
    /// The shape definition of a body made from these parameters (local frame, centroid
    /// at the origin).
    pub fn shape_def(&self) -> ShapeDef {
        match self.shape {
            PaletteShape::Circle => ShapeDef::Circle {
                radius: 0.5 * self.size_m.max(f32::EPSILON),
            },
            _ => ShapeDef::Polygon {
                points: self.outline().into_iter().map(Point::from).collect(),
            },
        }
    }

    /// The outline (local frame, CCW): the polygon itself, or a 32-gon for the circle
    /// (for previews and icons).
    pub fn outline(&self) -> Vec<Vec2> {
        let s = self
            .size_m
            .clamp(*SIZE_RANGE_M.start() * 0.01, *SIZE_RANGE_M.end() * 10.0);
        let points = match self.shape {
            PaletteShape::Circle => regular(32, 0.5 * s, 0.0),
            PaletteShape::Box => rect(s, s),
            PaletteShape::RegularPolygon => {
                let n = self.sides.clamp(*SIDES_RANGE.start(), *SIDES_RANGE.end());
                // A flat bottom edge: the first vertex sits half a side before -90°.
                regular(n, 0.5 * s, -0.5 * PI - PI / n as f32)
            }
            PaletteShape::Star => star(5, 0.5 * s, 0.2 * s),
            PaletteShape::L => l_shape(s),
            PaletteShape::U => u_shape(s),
            PaletteShape::Comb => comb(s, 4),
            PaletteShape::Gear => gear(10, 0.5 * s, 0.39 * s),
            PaletteShape::Random => random_star_shaped(self.seed, 0.5 * s),
        };
        centered(points)
    }
}

/// `n` points on a circle of `radius`, the first at `start_rad`, counter-clockwise.
fn regular(n: u32, radius: f32, start_rad: f32) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let a = start_rad + TAU * i as f32 / n as f32;
            Vec2::new(radius * a.cos(), radius * a.sin())
        })
        .collect()
}

/// A `w` × `h` rectangle centred on the origin.
fn rect(w: f32, h: f32) -> Vec<Vec2> {
    let (x, y) = (0.5 * w, 0.5 * h);
    vec![Vec2::new(-x, -y), Vec2::new(x, -y), Vec2::new(x, y), Vec2::new(-x, y)]
}

/// A star with `points` tips on radius `outer` and notches on radius `inner`, a tip up.
fn star(points: u32, outer: f32, inner: f32) -> Vec<Vec2> {
    let n = 2 * points;
    (0..n)
        .map(|i| {
            let a = 0.5 * PI + TAU * i as f32 / n as f32;
            let r = if i % 2 == 0 { outer } else { inner };
            Vec2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// ```text
/// ┌─┐
/// │ └─┐   an L in a size × size square, arms half as thick
/// └───┘
/// ```
fn l_shape(s: f32) -> Vec<Vec2> {
    let h = 0.5 * s;
    vec![
        Vec2::new(-h, -h),
        Vec2::new(h, -h),
        Vec2::new(h, 0.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, h),
        Vec2::new(-h, h),
    ]
}

/// ```text
/// ┌┐  ┌┐
/// ││  ││   a square with a slot from the top; walls a quarter of the size thick
/// │└──┘│
/// └────┘
/// ```
fn u_shape(s: f32) -> Vec<Vec2> {
    let h = 0.5 * s;
    let t = 0.25 * s;
    vec![
        Vec2::new(-h, -h),
        Vec2::new(h, -h),
        Vec2::new(h, h),
        Vec2::new(h - t, h),
        Vec2::new(h - t, -h + t),
        Vec2::new(-h + t, -h + t),
        Vec2::new(-h + t, h),
        Vec2::new(-h, h),
    ]
}

/// ```text
/// ┌┐┌┐┌┐┌┐
/// ││││││││   `teeth` teeth on a spine; teeth and gaps equally wide
/// │└┘└┘└┘│
/// └──────┘
/// ```
fn comb(s: f32, teeth: u32) -> Vec<Vec2> {
    let h = 0.5 * s;
    let height = 0.7 * s;
    let (y_bottom, y_top) = (-0.5 * height, 0.5 * height);
    let y_spine = y_bottom + 0.25 * s;
    let tooth = s / (2 * teeth - 1) as f32;
    let mut p = vec![Vec2::new(-h, y_bottom), Vec2::new(h, y_bottom)];
    // Teeth from the right to the left; tooth i spans [−h + 2i·w, −h + (2i+1)·w].
    for i in (0..teeth).rev() {
        let left = -h + 2.0 * i as f32 * tooth;
        let right = left + tooth;
        if i != teeth - 1 {
            p.push(Vec2::new(right, y_spine));
        }
        p.push(Vec2::new(right, y_top));
        p.push(Vec2::new(left, y_top));
        if i != 0 {
            p.push(Vec2::new(left, y_spine));
        }
    }
    p
}

/// A gear: `teeth` trapezoidal teeth between the root radius `root` and the tip radius
/// `tip`. Angles increase along the outline, so it is simple (star-shaped about 0).
fn gear(teeth: u32, tip: f32, root: f32) -> Vec<Vec2> {
    let pitch = TAU / teeth as f32;
    let mut p = Vec::with_capacity(4 * teeth as usize);
    for i in 0..teeth {
        let a = pitch * i as f32;
        for (fraction, r) in [(0.0, root), (0.15, tip), (0.45, tip), (0.6, root)] {
            let t = a + fraction * pitch;
            p.push(Vec2::new(r * t.cos(), r * t.sin()));
        }
    }
    p
}

/// A random simple polygon: 6 to 12 vertices at increasing angles about the origin
/// (each gap within ±60 % of the even spacing, so every gap stays below π and the
/// outline is star-shaped about the origin, hence simple) with radii in
/// [0.35, 1] · `radius`.
fn random_star_shaped(seed: u64, radius: f32) -> Vec<Vec2> {
    let mut rng = SplitMix64::new(seed ^ 0x5eed_c0ff_ee00_0001);
    let n = 6 + (rng.next_u64() % 7) as u32;
    let spacing = TAU / n as f32;
    (0..n)
        .map(|i| {
            let a = spacing * (i as f32 + 0.3 * (2.0 * rng.next_f32() - 1.0));
            let r = radius * (0.35 + 0.65 * rng.next_f32());
            Vec2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// Moves `points` so that the area centroid of the polygon they outline is the origin.
fn centered(points: Vec<Vec2>) -> Vec<Vec2> {
    let c = area_centroid(&points);
    points.into_iter().map(|p| p - c).collect()
}

/// Area centroid of a simple polygon (the vertex mean if the area vanishes).
pub fn area_centroid(points: &[Vec2]) -> Vec2 {
    let mut area2 = 0.0f64;
    let (mut cx, mut cy) = (0.0f64, 0.0f64);
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let cross = (a.x as f64) * (b.y as f64) - (b.x as f64) * (a.y as f64);
        area2 += cross;
        cx += (a.x as f64 + b.x as f64) * cross;
        cy += (a.y as f64 + b.y as f64) * cross;
    }
    if area2.abs() < 1e-12 {
        let sum: Vec2 = points.iter().copied().sum();
        return sum / n.max(1) as f32;
    }
    Vec2::new((cx / (3.0 * area2)) as f32, (cy / (3.0 * area2)) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Polygon;

    fn params(shape: PaletteShape, size_m: f32) -> ShapeParams {
        ShapeParams {
            shape,
            size_m,
            sides: 6,
            seed: 7,
        }
    }

    fn signed_area(p: &[Vec2]) -> f32 {
        (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f32>() * 0.5
    }

    #[test]
    fn every_shape_is_accepted_ccw_and_centred_at_every_size() {
        for shape in PaletteShape::ALL {
            for size in [*SIZE_RANGE_M.start(), 1.0, 2.5, *SIZE_RANGE_M.end()] {
                let p = params(shape, size).outline();
                assert!(signed_area(&p) > 0.0, "{} at {size} m is not CCW", shape.name());
                let polygon = Polygon::new(&p).unwrap_or_else(|e| panic!("{} at {size} m: {e}", shape.name()));
                assert!(area_centroid(&p).length() < 1e-4 * size, "{} centroid", shape.name());
                let b = polygon.local_aabb();
                let width = b.max.x - b.min.x;
                assert!(
                    width <= size * 1.001 && width >= size * 0.3,
                    "{} width {width}",
                    shape.name()
                );
            }
        }
    }

    #[test]
    fn every_shape_builds_a_body() {
        let mut world = crate::dynamics::World::default();
        for shape in PaletteShape::ALL {
            let def = crate::scene::BodyDef::new(params(shape, 1.0).shape_def());
            world.insert(def.to_desc().unwrap_or_else(|e| panic!("{}: {e}", shape.name())));
        }
    }

    #[test]
    fn non_convex_shapes_are_non_convex() {
        for shape in [
            PaletteShape::Star,
            PaletteShape::L,
            PaletteShape::U,
            PaletteShape::Comb,
            PaletteShape::Gear,
        ] {
            let polygon = Polygon::new(&params(shape, 1.0).outline()).unwrap();
            assert!(!polygon.is_convex(), "{}", shape.name());
        }
        let comb = Polygon::new(&params(PaletteShape::Comb, 1.0).outline()).unwrap();
        assert_eq!(comb.vertices().len(), 4 * 4, "four teeth, four corners each");
    }

    #[test]
    fn regular_polygons_have_their_sides() {
        for sides in SIDES_RANGE {
            let p = ShapeParams {
                sides,
                ..params(PaletteShape::RegularPolygon, 1.0)
            };
            let polygon = Polygon::new(&p.outline()).unwrap();
            assert_eq!(polygon.vertices().len(), sides as usize);
            assert!(polygon.is_convex());
        }
    }

    #[test]
    fn random_polygons_are_deterministic_and_always_valid() {
        let a = params(PaletteShape::Random, 1.0).outline();
        let b = params(PaletteShape::Random, 1.0).outline();
        assert_eq!(a, b, "same seed, same polygon");
        let mut differs = 0;
        for seed in 0..500 {
            let p = ShapeParams {
                seed,
                ..params(PaletteShape::Random, 1.0)
            }
            .outline();
            Polygon::new(&p).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            differs += usize::from(p != a);
        }
        assert!(differs > 490);
    }
}
