//! The Minkowski inset: A − B of the focus pair in a framed box of its own in a corner
//! of the world view, with its own scale, its origin and axes marked.
//!
//! A − B lives in the space of translations, not in the scene: drawn at the world
//! origin it lay over the ground and the pile, at the pile's scale. The inset gives it
//! a place and a scale of its own: the corner of the view farthest from the pair it
//! explains (so it never hides that pair), until the user drags it by its title bar,
//! after which it stays where it was put. Pure geometry here; `draw/debug/focus.rs`
//! draws.

use super::input::{Button, FrameInput};
use crate::math::Vec2;

/// The inset's size (px).
pub const INSET_SIZE_PX: Vec2 = Vec2::new(300.0, 250.0);
/// Its title bar's height (px): the handle that drags it.
pub const TITLE_PX: f32 = 22.0;
/// Space between the inset and the view's edge (px).
const MARGIN_PX: f32 = 12.0;
/// Space between A − B and the frame inside the inset (px).
const PADDING_PX: f32 = 16.0;

/// Where the inset is and whether it is being dragged.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MinkowskiInset {
    /// Where the user put it: its top-left corner's offset from the view's top-left
    /// corner (px, y down). None: the corner farthest from the focus pair.
    pub offset_px: Option<Vec2>,
    /// While dragged: the cursor's offset from the inset's top-left corner.
    pub grab_px: Option<Vec2>,
}

/// A screen rectangle (px, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PxRect {
    /// Top-left corner.
    pub min: Vec2,
    /// Bottom-right corner.
    pub max: Vec2,
}

impl PxRect {
    /// True when `p` is inside (edges included).
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.y >= self.min.y && p.x <= self.max.x && p.y <= self.max.y
    }
}

impl MinkowskiInset {
    /// The inset's frame in a view spanning `viewport` (px), kept inside the view:
    /// where the user put it, else in the corner farthest from `avoid_px` (the focus
    /// pair on the screen; lower left without one).
    pub fn rect(&self, viewport: (Vec2, Vec2), avoid_px: Option<Vec2>) -> PxRect {
        let (lo, hi) = viewport;
        let max_min = (hi - INSET_SIZE_PX).max(lo);
        let wanted = match self.offset_px {
            Some(offset) => lo + offset,
            None => home(viewport, avoid_px),
        };
        let min = wanted.clamp(lo, max_min);
        PxRect {
            min,
            max: min + INSET_SIZE_PX,
        }
    }

    /// The title bar (the drag handle).
    pub fn title_rect(&self, viewport: (Vec2, Vec2), avoid_px: Option<Vec2>) -> PxRect {
        let r = self.rect(viewport, avoid_px);
        PxRect {
            min: r.min,
            max: Vec2::new(r.max.x, r.min.y + TITLE_PX),
        }
    }

    /// Follows a drag of the title bar. Returns true when the inset took the mouse this
    /// frame (so the tools below it do not also react).
    pub fn handle_input(&mut self, viewport: (Vec2, Vec2), avoid_px: Option<Vec2>, input: &FrameInput) -> bool {
        if let Some(grab) = self.grab_px {
            self.offset_px = Some(input.mouse_px - grab - viewport.0);
            // Kept as it is drawn: clamped inside the view.
            self.offset_px = Some(self.rect(viewport, avoid_px).min - viewport.0);
            if input.released(Button::Left) || !input.down.contains(&Button::Left) {
                self.grab_px = None;
            }
            return true;
        }
        if input.pressed(Button::Left)
            && !input.ui_wants_pointer
            && self.title_rect(viewport, avoid_px).contains(input.mouse_px)
        {
            self.grab_px = Some(input.mouse_px - self.rect(viewport, avoid_px).min);
            return true;
        }
        false
    }
}

/// The inset's top-left corner when the user has not placed it: in the corner of the
/// view farthest from `avoid_px`, lower left without one.
fn home(viewport: (Vec2, Vec2), avoid_px: Option<Vec2>) -> Vec2 {
    let (lo, hi) = viewport;
    let (left, right) = (lo.x + MARGIN_PX, hi.x - MARGIN_PX - INSET_SIZE_PX.x);
    let (top, bottom) = (lo.y + MARGIN_PX, hi.y - MARGIN_PX - INSET_SIZE_PX.y);
    let corners = [
        Vec2::new(left, bottom),
        Vec2::new(right, bottom),
        Vec2::new(left, top),
        Vec2::new(right, top),
    ];
    let Some(avoid) = avoid_px else {
        return corners[0];
    };
    let centre = |c: Vec2| c + INSET_SIZE_PX * 0.5;
    corners
        .into_iter()
        .max_by(|p, q| {
            (centre(*p) - avoid)
                .length_squared()
                .total_cmp(&(centre(*q) - avoid).length_squared())
        })
        .unwrap_or(corners[0])
}

/// How A − B maps into the inset: a scale and a centre chosen so that `extent` (A − B's
/// box, world units) and the origin both fit inside the frame below the title.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InsetScale {
    /// Pixels per metre.
    pub pixels_per_metre: f32,
    /// The point of A − B at the drawing area's centre.
    pub center: Vec2,
    /// The drawing area's centre (px).
    pub center_px: Vec2,
}

impl InsetScale {
    /// Fits `extent` (min, max of A − B) together with the origin into `frame`.
    pub fn fit(frame: PxRect, extent: (Vec2, Vec2)) -> InsetScale {
        let lo = extent.0.min(Vec2::ZERO);
        let hi = extent.1.max(Vec2::ZERO);
        let area_min = frame.min + Vec2::new(PADDING_PX, TITLE_PX + PADDING_PX);
        let area_max = frame.max - Vec2::splat(PADDING_PX);
        let room = (area_max - area_min).max(Vec2::ONE);
        let size = (hi - lo).max(Vec2::splat(1e-6));
        InsetScale {
            pixels_per_metre: (room.x / size.x).min(room.y / size.y),
            center: (lo + hi) * 0.5,
            center_px: (area_min + area_max) * 0.5,
        }
    }

    /// A point of A − B on the screen (y flipped: up is up).
    pub fn to_px(&self, p: Vec2) -> Vec2 {
        let d = (p - self.center) * self.pixels_per_metre;
        self.center_px + Vec2::new(d.x, -d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> (Vec2, Vec2) {
        (Vec2::new(200.0, 30.0), Vec2::new(1000.0, 770.0))
    }

    #[test]
    fn it_sits_in_the_corner_farthest_from_the_pair_and_stays_in_the_view() {
        let mut inset = MinkowskiInset::default();
        let r = inset.rect(view(), None);
        assert_eq!(r.min, Vec2::new(212.0, 770.0 - 12.0 - INSET_SIZE_PX.y));
        // The pair low on the left: the inset goes up to the right.
        let r = inset.rect(view(), Some(Vec2::new(300.0, 700.0)));
        assert_eq!(r.min, Vec2::new(1000.0 - 12.0 - INSET_SIZE_PX.x, 42.0));
        inset.offset_px = Some(Vec2::new(-5000.0, 5000.0));
        let r = inset.rect(view(), None);
        assert!(r.min.x >= 200.0 && r.max.y <= 770.0, "{r:?}");
    }

    #[test]
    fn dragging_the_title_moves_it_and_it_stays_put() {
        let mut inset = MinkowskiInset::default();
        let pair = Some(Vec2::new(300.0, 700.0));
        let title = inset.title_rect(view(), pair);
        let grab_at = title.min + Vec2::new(40.0, 8.0);
        let mut input = FrameInput {
            mouse_px: grab_at,
            pressed: vec![Button::Left],
            down: vec![Button::Left],
            ..Default::default()
        };
        assert!(inset.handle_input(view(), pair, &input));
        input.pressed.clear();
        input.mouse_px = grab_at + Vec2::new(-300.0, 200.0);
        assert!(inset.handle_input(view(), pair, &input));
        let moved = title.min + Vec2::new(-300.0, 200.0);
        assert_eq!(inset.rect(view(), pair).min, moved);
        input.down.clear();
        input.released = vec![Button::Left];
        inset.handle_input(view(), pair, &input);
        assert_eq!(inset.grab_px, None);
        // Placed by hand, it no longer follows the pair.
        assert_eq!(inset.rect(view(), Some(Vec2::new(900.0, 100.0))).min, moved);
        // A press below the title (inside the drawing) is not a grab.
        input.released.clear();
        input.pressed = vec![Button::Left];
        input.mouse_px = inset.rect(view(), pair).min + Vec2::new(40.0, 100.0);
        assert!(!inset.handle_input(view(), pair, &input));
    }

    #[test]
    fn the_scale_fits_a_minus_b_and_the_origin() {
        let frame = PxRect {
            min: Vec2::ZERO,
            max: INSET_SIZE_PX,
        };
        // A − B far from the origin: both must fit.
        let s = InsetScale::fit(frame, (Vec2::new(3.0, 3.0), Vec2::new(5.0, 4.0)));
        for p in [Vec2::ZERO, Vec2::new(3.0, 3.0), Vec2::new(5.0, 4.0)] {
            let q = s.to_px(p);
            assert!(frame.contains(q) && q.y >= TITLE_PX, "{p} -> {q}");
        }
        // Up is up.
        assert!(s.to_px(Vec2::new(0.0, 1.0)).y < s.to_px(Vec2::ZERO).y);
    }
}
