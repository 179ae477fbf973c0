//! Where a lesson's views go in the window: the world view and the Minkowski view side
//! by side, the projection strip below them when the trace tests SAT axes. Logical
//! pixels, y down.

use super::strip;
use crate::math::Vec2;

/// A rectangle of the window (logical px, y-down): `min` is the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Top-left corner.
    pub min: Vec2,
    /// Bottom-right corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle between two corners.
    pub fn new(min: Vec2, max: Vec2) -> Rect {
        Rect { min, max }
    }

    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// True when `p` lies inside (edges included).
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.y >= self.min.y && p.x <= self.max.x && p.y <= self.max.y
    }
}

/// Where the three views go in the free viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The world view (left half).
    pub world: Rect,
    /// The Minkowski view (right half).
    pub minkowski: Rect,
    /// The projection strip below both, when the trace tests SAT axes.
    pub strip: Option<Rect>,
}

/// Gap between the views (px).
pub const VIEW_GAP_PX: f32 = 6.0;

impl Layout {
    /// Splits `viewport` (the part of the window the panels leave): the world and the
    /// Minkowski views side by side, the strip below them taking about a third of the
    /// height (at most `rows` rows' worth plus a heading) when there is one.
    pub fn split(viewport: (Vec2, Vec2), strip_rows: Option<usize>) -> Layout {
        let (lo, hi) = viewport;
        let size = (hi - lo).max(Vec2::splat(2.0 * VIEW_GAP_PX + 2.0));
        let strip_h = strip_rows.map(|rows| {
            let wanted = strip::HEADER_PX + strip::ROW_PX * rows.max(3) as f32 + VIEW_GAP_PX;
            // At least two rows' worth, but never more than half a small window.
            wanted
                .min(size.y * 0.38)
                .max(strip::HEADER_PX + strip::ROW_PX * 2.0)
                .min(size.y * 0.5)
        });
        let views_bottom = (hi.y - strip_h.map_or(0.0, |h| h + VIEW_GAP_PX)).max(lo.y);
        let mut layout = Layout::side_by_side((lo, Vec2::new(hi.x, views_bottom)), 0.5);
        layout.strip = strip_h.map(|h| Rect::new(Vec2::new(lo.x, hi.y - h), hi));
        layout
    }

    /// Two views side by side in `viewport`, the world taking `world_share` of the
    /// width (the topic lessons give the wider picture more room), no strip.
    pub fn side_by_side(viewport: (Vec2, Vec2), world_share: f32) -> Layout {
        let (lo, hi) = viewport;
        let size = (hi - lo).max(Vec2::splat(2.0 * VIEW_GAP_PX + 2.0));
        let views_bottom = hi.y.max(lo.y);
        let mid = lo.x + size.x * world_share.clamp(0.1, 0.9);
        Layout {
            world: Rect::new(lo, Vec2::new(mid - VIEW_GAP_PX * 0.5, views_bottom)),
            minkowski: Rect::new(Vec2::new(mid + VIEW_GAP_PX * 0.5, lo.y), Vec2::new(hi.x, views_bottom)),
            strip: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_splits_the_viewport_sensibly() {
        let vp = (Vec2::new(0.0, 24.0), Vec2::new(980.0, 876.0));
        let l = Layout::split(vp, Some(8));
        let strip = l.strip.unwrap();
        assert!(l.world.max.x < l.minkowski.min.x, "side by side");
        assert!((l.world.size().x - l.minkowski.size().x).abs() < 1.0, "equal halves");
        assert!(
            l.world.max.y < strip.min.y && l.minkowski.max.y < strip.min.y,
            "strip below"
        );
        assert!(strip.size().y <= 0.38 * 852.0 + 0.5 && strip.size().y >= 2.0 * strip::ROW_PX);
        assert_eq!(strip.max, vp.1);
        let l = Layout::split(vp, None);
        assert!(l.strip.is_none());
        assert_eq!(l.world.max.y, vp.1.y, "no strip: the views take the height");
        // A tiny window still gives non-negative rectangles.
        let l = Layout::split((Vec2::ZERO, Vec2::new(10.0, 10.0)), Some(30));
        assert!(l.world.size().x >= 0.0 && l.world.size().y >= 0.0);
    }
}
