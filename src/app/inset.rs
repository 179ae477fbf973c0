//! The Minkowski inset: A − B of the focus pair in a framed box of its own in a corner
//! of the world view, with its own scale, its origin and axes marked.
//!
//! A − B lives in the space of translations, not in the scene: drawn at the world
//! origin it lay over the ground and the pile, at the pile's scale. The inset gives it
//! a place and a scale of its own. Its title bar drags it (the offset from its corner
//! is kept while the sandbox runs). Pure geometry here; `draw/debug/focus.rs` draws.

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
    /// Offset from its home, the view's lower-left corner (px, y down).
    pub offset_px: Vec2,
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
    /// The inset's frame in a view spanning `viewport` (px), kept inside the view.
    pub fn rect(&self, viewport: (Vec2, Vec2)) -> PxRect {
        let (lo, hi) = viewport;
        let max_min = (hi - INSET_SIZE_PX).max(lo);
        let min = (home(viewport) + self.offset_px).clamp(lo, max_min);
        PxRect {
            min,
            max: min + INSET_SIZE_PX,
        }
    }

    /// The title bar (the drag handle).
    pub fn title_rect(&self, viewport: (Vec2, Vec2)) -> PxRect {
        let r = self.rect(viewport);
        PxRect {
            min: r.min,
            max: Vec2::new(r.max.x, r.min.y + TITLE_PX),
        }
    }

    /// Follows a drag of the title bar. Returns true when the inset took the mouse this
    /// frame (so the tools below it do not also react).
    pub fn handle_input(&mut self, viewport: (Vec2, Vec2), input: &FrameInput) -> bool {
        if let Some(grab) = self.grab_px {
            let home = home(viewport);
            self.offset_px = input.mouse_px - grab - home;
            // Kept as it is drawn: clamped inside the view.
            self.offset_px = self.rect(viewport).min - home;
            if input.released(Button::Left) || !input.down.contains(&Button::Left) {
                self.grab_px = None;
            }
            return true;
        }
        if input.pressed(Button::Left) && !input.ui_wants_pointer && self.title_rect(viewport).contains(input.mouse_px)
        {
            self.grab_px = Some(input.mouse_px - self.rect(viewport).min);
            return true;
        }
        false
    }
}

/// The inset's top-left corner with no offset: the view's lower-left corner.
fn home(viewport: (Vec2, Vec2)) -> Vec2 {
    let (lo, hi) = viewport;
    Vec2::new(lo.x + MARGIN_PX, hi.y - MARGIN_PX - INSET_SIZE_PX.y)
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
    fn it_starts_in_the_lower_left_corner_and_stays_in_the_view() {
        let mut inset = MinkowskiInset::default();
        let r = inset.rect(view());
        assert_eq!(r.min, Vec2::new(212.0, 770.0 - 12.0 - INSET_SIZE_PX.y));
        inset.offset_px = Vec2::new(-5000.0, 5000.0);
        let r = inset.rect(view());
        assert!(r.min.x >= 200.0 && r.max.y <= 770.0, "{r:?}");
    }

    #[test]
    fn dragging_the_title_moves_it() {
        let mut inset = MinkowskiInset::default();
        let title = inset.title_rect(view());
        let grab_at = title.min + Vec2::new(40.0, 8.0);
        let mut input = FrameInput {
            mouse_px: grab_at,
            pressed: vec![Button::Left],
            down: vec![Button::Left],
            ..Default::default()
        };
        assert!(inset.handle_input(view(), &input));
        input.pressed.clear();
        input.mouse_px = grab_at + Vec2::new(300.0, -200.0);
        assert!(inset.handle_input(view(), &input));
        assert_eq!(inset.rect(view()).min, title.min + Vec2::new(300.0, -200.0));
        input.down.clear();
        input.released = vec![Button::Left];
        inset.handle_input(view(), &input);
        assert_eq!(inset.grab_px, None);
        // A press below the title (inside the drawing) is not a grab.
        input.released.clear();
        input.pressed = vec![Button::Left];
        input.mouse_px = inset.rect(view()).min + Vec2::new(40.0, 100.0);
        assert!(!inset.handle_input(view(), &input));
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
