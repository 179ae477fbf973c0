//! The view: which part of the world the window shows, and how big.
//!
//! The world is y-up in metres; the screen is y-down in logical pixels. This is the one
//! place in Collision Lab that flips y (STYLE.md): everything else, drawing included,
//! goes through [`Camera::world_to_screen`] and [`Camera::screen_to_world`].

use crate::bounds::Aabb;
use crate::math::Vec2;

/// Zoom limits (pixels per metre): from a 100 km view on a small window down to a
/// millimetre filling it. Outside them f32 world coordinates of the cursor lose the
/// precision that dragging needs.
pub const MIN_PIXELS_PER_METRE: f32 = 0.01;
/// See [`MIN_PIXELS_PER_METRE`].
pub const MAX_PIXELS_PER_METRE: f32 = 100_000.0;

/// A 2D orthographic camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point at the centre of the window (m).
    pub center_world: Vec2,
    /// Scale (logical pixels per metre).
    pub pixels_per_metre: f32,
    /// Window size (logical pixels).
    pub screen_size_px: Vec2,
}

impl Camera {
    /// A camera centred on `center_world` at `pixels_per_metre`, for a window of
    /// `screen_size_px`.
    pub fn new(center_world: Vec2, pixels_per_metre: f32, screen_size_px: Vec2) -> Camera {
        Camera {
            center_world,
            pixels_per_metre: pixels_per_metre.clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE),
            screen_size_px,
        }
    }

    /// Screen position (px, y-down) of a world point (m, y-up).
    pub fn world_to_screen(&self, world: Vec2) -> Vec2 {
        let d = (world - self.center_world) * self.pixels_per_metre;
        Vec2::new(self.screen_size_px.x * 0.5 + d.x, self.screen_size_px.y * 0.5 - d.y)
    }

    /// World point (m, y-up) under a screen position (px, y-down).
    pub fn screen_to_world(&self, screen_px: Vec2) -> Vec2 {
        let d = screen_px - self.screen_size_px * 0.5;
        self.center_world + Vec2::new(d.x, -d.y) / self.pixels_per_metre
    }

    /// A length in metres as pixels.
    pub fn length_to_screen(&self, metres: f32) -> f32 {
        metres * self.pixels_per_metre
    }

    /// A length in pixels as metres (pick radii, handle sizes).
    pub fn length_to_world(&self, pixels: f32) -> f32 {
        pixels / self.pixels_per_metre
    }

    /// Moves the view by a screen-space drag of `delta_px` (the world follows the cursor).
    pub fn pan_by_screen(&mut self, delta_px: Vec2) {
        self.center_world -= Vec2::new(delta_px.x, -delta_px.y) / self.pixels_per_metre;
    }

    /// Zooms by `factor` (>1 zooms in) keeping the world point under `anchor_px` fixed
    /// on the screen — zoom about the cursor.
    pub fn zoom_about(&mut self, anchor_px: Vec2, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor_world = self.screen_to_world(anchor_px);
        self.pixels_per_metre = (self.pixels_per_metre * factor).clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE);
        // Put the anchor's world point back under the anchor.
        let drift = self.screen_to_world(anchor_px) - anchor_world;
        self.center_world -= drift;
    }

    /// Fits `bounds` in the window with `margin_px` on each side (F). An empty or
    /// degenerate box keeps the scale and centres on it.
    pub fn fit(&mut self, bounds: &Aabb, margin_px: f32) {
        let size = bounds.max - bounds.min;
        if !(size.x.is_finite() && size.y.is_finite()) {
            return;
        }
        self.center_world = (bounds.min + bounds.max) * 0.5;
        let avail = (self.screen_size_px - Vec2::splat(2.0 * margin_px)).max(Vec2::splat(1.0));
        if size.x > 0.0 || size.y > 0.0 {
            let sx = if size.x > 0.0 { avail.x / size.x } else { f32::INFINITY };
            let sy = if size.y > 0.0 { avail.y / size.y } else { f32::INFINITY };
            self.pixels_per_metre = sx.min(sy).clamp(MIN_PIXELS_PER_METRE, MAX_PIXELS_PER_METRE);
        }
    }

    /// Fits `bounds` in the part of the window between `rect_min_px` and `rect_max_px`
    /// (the area the panels leave free), with `margin_px` on each side.
    pub fn fit_in(&mut self, bounds: &Aabb, rect_min_px: Vec2, rect_max_px: Vec2, margin_px: f32) {
        let full = self.screen_size_px;
        let rect_size = (rect_max_px - rect_min_px).max(Vec2::splat(1.0));
        let mut sub = Camera::new(self.center_world, self.pixels_per_metre, rect_size);
        sub.fit(bounds, margin_px);
        self.pixels_per_metre = sub.pixels_per_metre;
        // Put the box's centre at the rectangle's centre instead of the window's.
        let offset_px = (rect_min_px + rect_max_px) * 0.5 - full * 0.5;
        self.center_world = sub.center_world - Vec2::new(offset_px.x, -offset_px.y) / self.pixels_per_metre;
    }

    /// The world-space box the window shows.
    pub fn visible_world(&self) -> Aabb {
        let a = self.screen_to_world(Vec2::ZERO);
        let b = self.screen_to_world(self.screen_size_px);
        Aabb::new(a.min(b), a.max(b))
    }
}

/// Around the scene's own box, bodies within this many times its larger side (at least
/// [`MIN_WORTH_SEEING_M`]) are worth fitting the view to; beyond, a body is lost (falling
/// towards the kill distance), and fitting it too made the scene a dot.
const WORTH_SEEING_SCENE_SIZES: f32 = 0.5;

/// See [`WORTH_SEEING_SCENE_SIZES`] (m).
const MIN_WORTH_SEEING_M: f32 = 5.0;

/// The box F fits: every body's box that comes near the scene's own box (`scene`, what
/// the world was given), or every body's when none does or the scene's box is unknown.
pub fn worth_seeing(body_boxes: &[Aabb], scene: Option<Aabb>) -> Option<Aabb> {
    let union = |boxes: &mut dyn Iterator<Item = &Aabb>| boxes.copied().reduce(|acc, b| acc.union(&b));
    let near = scene.and_then(|scene| {
        let size = scene.max - scene.min;
        let reach = (size.x.max(size.y) * WORTH_SEEING_SCENE_SIZES).max(MIN_WORTH_SEEING_M);
        let around = scene.inflated(reach);
        union(&mut body_boxes.iter().filter(|b| b.overlaps(&around)))
    });
    near.or_else(|| union(&mut body_boxes.iter()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f32, y: f32, half: f32) -> Aabb {
        Aabb::new(Vec2::new(x - half, y - half), Vec2::new(x + half, y + half))
    }

    /// Regression: a box pushed through the ground fell; F fitted the 3 km drop and the
    /// scene became a dot. A body far below the scene is left out of the fit; one just
    /// beside it is kept.
    #[test]
    fn fit_leaves_out_bodies_far_from_the_scene() {
        let scene = Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 10.0));
        let bodies = [square(0.0, 0.0, 1.0), square(0.0, -95.0, 0.5), square(14.0, 3.0, 0.5)];
        let fit = worth_seeing(&bodies, Some(scene)).unwrap();
        assert!(fit.min.y > -2.0, "the falling body is out: {fit:?}");
        assert!(fit.max.x >= 14.5, "the body beside the scene is in: {fit:?}");
        // Without a scene box, or when nothing is near it, everything is fitted.
        assert!(worth_seeing(&bodies, None).unwrap().min.y <= -95.0);
        let far = Aabb::new(Vec2::new(1000.0, 1000.0), Vec2::new(1001.0, 1001.0));
        assert!(worth_seeing(&bodies, Some(far)).unwrap().min.y <= -95.0);
        assert!(worth_seeing(&[], Some(scene)).is_none());
    }

    fn cam() -> Camera {
        Camera::new(Vec2::new(1.0, 2.0), 50.0, Vec2::new(800.0, 600.0))
    }

    #[test]
    fn the_centre_of_the_window_shows_the_centre_point() {
        let c = cam();
        assert_eq!(c.world_to_screen(Vec2::new(1.0, 2.0)), Vec2::new(400.0, 300.0));
    }

    #[test]
    fn world_up_is_screen_up() {
        let c = cam();
        let above = c.world_to_screen(Vec2::new(1.0, 3.0));
        assert_eq!(above, Vec2::new(400.0, 250.0), "1 m up is 50 px towards the top");
        let right = c.world_to_screen(Vec2::new(2.0, 2.0));
        assert_eq!(right, Vec2::new(450.0, 300.0));
    }

    #[test]
    fn screen_to_world_inverts_world_to_screen() {
        let c = cam();
        for p in [Vec2::new(-3.5, 7.25), Vec2::new(0.0, 0.0), Vec2::new(100.0, -40.0)] {
            let back = c.screen_to_world(c.world_to_screen(p));
            assert!((back - p).length() < 1e-4, "{p} -> {back}");
        }
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut c = cam();
        let cursor = Vec2::new(123.0, 456.0);
        let before = c.screen_to_world(cursor);
        c.zoom_about(cursor, 1.7);
        assert!((c.pixels_per_metre - 85.0).abs() < 1e-3);
        let after = c.screen_to_world(cursor);
        assert!((after - before).length() < 1e-4, "{before} -> {after}");
        c.zoom_about(cursor, 1.0 / 1.7);
        assert!((c.pixels_per_metre - 50.0).abs() < 1e-3);
    }

    #[test]
    fn zoom_is_clamped_and_ignores_bad_factors() {
        let mut c = cam();
        c.zoom_about(Vec2::ZERO, 1e12);
        assert_eq!(c.pixels_per_metre, MAX_PIXELS_PER_METRE);
        let before = c;
        c.zoom_about(Vec2::ZERO, f32::NAN);
        c.zoom_about(Vec2::ZERO, -2.0);
        assert_eq!(c, before);
    }

    #[test]
    fn pan_moves_the_world_with_the_cursor() {
        let mut c = cam();
        let grabbed = c.screen_to_world(Vec2::new(200.0, 200.0));
        c.pan_by_screen(Vec2::new(30.0, -20.0));
        let now = c.world_to_screen(grabbed);
        assert!((now - Vec2::new(230.0, 180.0)).length() < 1e-3, "{now}");
    }

    #[test]
    fn fit_shows_the_whole_box_with_the_margin() {
        let mut c = cam();
        let b = Aabb::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 5.0));
        c.fit(&b, 20.0);
        // Width limits: (800 - 40) / 20 = 38 px/m; height would allow 560 / 5 = 112.
        assert!((c.pixels_per_metre - 38.0).abs() < 1e-4);
        let lo = c.world_to_screen(b.min);
        let hi = c.world_to_screen(b.max);
        assert!((lo.x - 20.0).abs() < 1e-3 && (hi.x - 780.0).abs() < 1e-3);
        assert!(lo.y <= 600.0 && hi.y >= 0.0);
        let v = c.visible_world();
        assert!(v.min.x <= b.min.x && v.max.x >= b.max.x && v.min.y <= b.min.y && v.max.y >= b.max.y);
    }

    #[test]
    fn fit_in_a_rectangle_centres_the_box_there() {
        let mut c = cam();
        let b = Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
        // A 250 px panel on the left: the free area is x in [250, 800].
        c.fit_in(&b, Vec2::new(250.0, 0.0), Vec2::new(800.0, 600.0), 10.0);
        let mid = c.world_to_screen(Vec2::ZERO);
        assert!((mid - Vec2::new(525.0, 300.0)).length() < 1e-3, "{mid}");
        let lo = c.world_to_screen(b.min);
        assert!(lo.x >= 250.0 + 9.9, "{lo}");
    }

    #[test]
    fn fit_of_a_point_keeps_the_scale() {
        let mut c = cam();
        c.fit(&Aabb::new(Vec2::new(3.0, 3.0), Vec2::new(3.0, 3.0)), 20.0);
        assert_eq!(c.pixels_per_metre, 50.0);
        assert_eq!(c.center_world, Vec2::new(3.0, 3.0));
    }
}
