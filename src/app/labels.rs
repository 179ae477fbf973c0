//! Label placement: where each label of a view goes so that none covers another, nor
//! the marks it is placed among (dots, the origin, a view's title).
//!
//! Greedy, in the order the labels are asked for (the first asked is the most
//! important and is displaced least), the way cartographers' point-feature placement
//! starts (Christensen, Marks and Shieber, "An empirical study of algorithms for
//! point-feature label placement", 1995):
//!
//! ```text
//! for each label, in order:
//!     candidates = [its preferred box] ++
//!                  for d in growing distances, for dir in N, NE, E, SE, S, SW, W, NW:
//!                      the box beside the anchor at distance d in direction dir
//!     keep the first candidate inside the bounds that meets no placed box and no obstacle
//!     none free: scan the bounds on a grid for the free box nearest the anchor
//!     still none: the preferred box, marked as overlapping (a view too small for its
//!                 labels; the tests catch it)
//!     a box far from its anchor gets a leader line from the anchor to the box
//! ```
//!
//! Pure and screen-space (px, y down): no drawing, no font. The caller measures text
//! (macroquad in the window, a fixed-width estimate in tests).

use crate::math::Vec2;

/// A screen rectangle (px, y down): `min` top-left, `max` bottom-right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Top-left corner.
    pub min: Vec2,
    /// Bottom-right corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle of `size` whose top-left corner is `min`.
    pub fn at(min: Vec2, size: Vec2) -> Rect {
        Rect { min, max: min + size }
    }

    /// A square of half-side `half` about `center` (a dot, a marker).
    pub fn around(center: Vec2, half: f32) -> Rect {
        Rect {
            min: center - Vec2::splat(half),
            max: center + Vec2::splat(half),
        }
    }

    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// True when the interiors overlap (touching edges do not).
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.min.x < other.max.x && other.min.x < self.max.x && self.min.y < other.max.y && other.min.y < self.max.y
    }

    /// True when `other` lies wholly inside.
    pub fn contains_rect(&self, other: &Rect) -> bool {
        other.min.x >= self.min.x && other.min.y >= self.min.y && other.max.x <= self.max.x && other.max.y <= self.max.y
    }

    /// The point of the rectangle nearest `p`.
    pub fn nearest_point(&self, p: Vec2) -> Vec2 {
        p.clamp(self.min, self.max)
    }
}

/// One label to place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelRequest {
    /// The point the label names (px).
    pub anchor: Vec2,
    /// Where the caller would put the box (its top-left corner), if it has a wish.
    pub preferred: Option<Vec2>,
    /// The box's size, backing included (px).
    pub size: Vec2,
}

/// Where a label went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Its box.
    pub rect: Rect,
    /// A line from the anchor to the box, when the box is far from it.
    pub leader: Option<(Vec2, Vec2)>,
    /// No free place was found: the box overlaps something.
    pub overlapping: bool,
}

/// Distances (px) from the anchor to a candidate box's nearest side, tried in order.
pub const DISTANCES_PX: [f32; 9] = [4.0, 10.0, 18.0, 28.0, 40.0, 56.0, 76.0, 100.0, 130.0];

/// A box further than this (px) from its anchor gets a leader line.
pub const LEADER_FROM_PX: f32 = 24.0;

/// The grid step of the last-resort scan (px).
const SCAN_STEP_PX: f32 = 6.0;

/// The eight directions, clockwise from north (y down).
const DIRECTIONS: [Vec2; 8] = [
    Vec2::new(0.0, -1.0),
    Vec2::new(1.0, -1.0),
    Vec2::new(1.0, 0.0),
    Vec2::new(1.0, 1.0),
    Vec2::new(0.0, 1.0),
    Vec2::new(-1.0, 1.0),
    Vec2::new(-1.0, 0.0),
    Vec2::new(-1.0, -1.0),
];

/// The box of `size` beside `anchor` in direction `dir` (components −1, 0, 1), `d` px
/// away: north puts its bottom edge's middle above the anchor, north-east its
/// bottom-left corner, east its left edge's middle, and so on.
pub fn candidate(anchor: Vec2, size: Vec2, dir: Vec2, d: f32) -> Rect {
    // Where on the box the anchor's side is, as a fraction of the size (0 left/top).
    let fx = 0.5 - 0.5 * dir.x;
    let fy = 0.5 - 0.5 * dir.y;
    let diag = if dir.x != 0.0 && dir.y != 0.0 {
        std::f32::consts::FRAC_1_SQRT_2
    } else {
        1.0
    };
    let touch = anchor + dir * d * diag;
    Rect::at(touch - Vec2::new(fx * size.x, fy * size.y), size)
}

/// Places `requests` in order inside `bounds`, away from `obstacles` and from each
/// other. See the module docs.
pub fn place_labels(requests: &[LabelRequest], obstacles: &[Rect], bounds: Rect) -> Vec<Placement> {
    let mut taken: Vec<Rect> = obstacles.to_vec();
    let mut out = Vec::with_capacity(requests.len());
    for r in requests {
        let free = |rect: &Rect, taken: &[Rect]| bounds.contains_rect(rect) && !taken.iter().any(|t| t.overlaps(rect));
        let preferred = r.preferred.map(|p| Rect::at(p, r.size));
        let around = DISTANCES_PX
            .iter()
            .flat_map(|&d| DIRECTIONS.iter().map(move |&dir| candidate(r.anchor, r.size, dir, d)));
        let found = preferred
            .into_iter()
            .chain(around)
            .find(|c| free(c, &taken))
            .or_else(|| scan(r, bounds, |c| free(c, &taken)));
        let (rect, overlapping) = match found {
            Some(rect) => (rect, false),
            None => {
                // Nowhere free: keep it in the bounds at least, where it was wanted.
                let want = preferred.unwrap_or_else(|| candidate(r.anchor, r.size, DIRECTIONS[2], DISTANCES_PX[0]));
                let max_min = (bounds.max - r.size).max(bounds.min);
                (Rect::at(want.min.clamp(bounds.min, max_min), r.size), true)
            }
        };
        let near = rect.nearest_point(r.anchor);
        let leader = ((near - r.anchor).length() > LEADER_FROM_PX).then_some((r.anchor, near));
        taken.push(rect);
        out.push(Placement {
            rect,
            leader,
            overlapping,
        });
    }
    out
}

/// The free box nearest the anchor on a grid over the bounds.
fn scan(r: &LabelRequest, bounds: Rect, free: impl Fn(&Rect) -> bool) -> Option<Rect> {
    let room = bounds.size() - r.size;
    if room.x < 0.0 || room.y < 0.0 {
        return None;
    }
    let (nx, ny) = ((room.x / SCAN_STEP_PX) as usize, (room.y / SCAN_STEP_PX) as usize);
    let mut best: Option<(f32, Rect)> = None;
    for j in 0..=ny {
        for i in 0..=nx {
            let c = Rect::at(
                bounds.min + Vec2::new(i as f32 * SCAN_STEP_PX, j as f32 * SCAN_STEP_PX),
                r.size,
            );
            let d = (c.nearest_point(r.anchor) - r.anchor).length_squared();
            if best.is_none_or(|(bd, _)| d < bd) && free(&c) {
                best = Some((d, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// A text's size estimated without a font: `chars × 0.56 × size` wide and `size` high
/// (macroquad's built-in font is narrower; tests use this to stand in for it, and an
/// over-estimate only spaces labels further apart).
pub fn estimate_text_size(text: &str, font_px: f32) -> Vec2 {
    Vec2::new(text.chars().count() as f32 * 0.56 * font_px, font_px)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds() -> Rect {
        Rect::at(Vec2::ZERO, Vec2::new(400.0, 300.0))
    }

    fn request(anchor: Vec2, size: Vec2) -> LabelRequest {
        LabelRequest {
            anchor,
            preferred: None,
            size,
        }
    }

    #[test]
    fn a_lone_label_goes_where_it_was_wanted() {
        let want = Vec2::new(50.0, 60.0);
        let r = LabelRequest {
            anchor: Vec2::new(40.0, 80.0),
            preferred: Some(want),
            size: Vec2::new(60.0, 18.0),
        };
        let p = place_labels(&[r], &[], bounds());
        assert_eq!(p[0].rect.min, want);
        assert!(!p[0].overlapping && p[0].leader.is_none());
    }

    #[test]
    fn labels_on_one_anchor_fan_out_without_overlapping() {
        //   many labels on the same point: each takes the next free direction
        let anchor = Vec2::new(200.0, 150.0);
        let reqs: Vec<LabelRequest> = (0..12).map(|_| request(anchor, Vec2::new(70.0, 18.0))).collect();
        let p = place_labels(&reqs, &[], bounds());
        for (i, a) in p.iter().enumerate() {
            assert!(!a.overlapping);
            assert!(bounds().contains_rect(&a.rect));
            for b in &p[i + 1..] {
                assert!(!a.rect.overlaps(&b.rect), "{a:?} {b:?}");
            }
        }
        // The first goes north of the anchor, close.
        assert!(p[0].rect.max.y <= anchor.y && p[0].leader.is_none());
    }

    #[test]
    fn obstacles_are_avoided_and_far_labels_get_a_leader() {
        let anchor = Vec2::new(200.0, 150.0);
        // Everything within 90 px of the anchor is taken but the anchor's own mark.
        let obstacles = [
            Rect::at(Vec2::new(100.0, 40.0), Vec2::new(200.0, 100.0)),
            Rect::at(Vec2::new(100.0, 160.0), Vec2::new(200.0, 100.0)),
            Rect::at(Vec2::new(100.0, 140.0), Vec2::new(90.0, 20.0)),
            Rect::at(Vec2::new(210.0, 140.0), Vec2::new(90.0, 20.0)),
            Rect::around(anchor, 6.0),
        ];
        let p = place_labels(&[request(anchor, Vec2::new(60.0, 18.0))], &obstacles, bounds());
        assert!(!p[0].overlapping);
        assert!(obstacles.iter().all(|o| !o.overlaps(&p[0].rect)));
        let (from, to) = p[0].leader.expect("displaced far: a leader");
        assert_eq!(from, anchor);
        assert_eq!(to, p[0].rect.nearest_point(anchor));
    }

    #[test]
    fn a_label_bigger_than_its_view_is_marked_overlapping_and_kept_inside() {
        let r = request(Vec2::new(10.0, 10.0), Vec2::new(500.0, 18.0));
        let p = place_labels(&[r], &[], bounds());
        assert!(p[0].overlapping);
        assert_eq!(p[0].rect.min.x, 0.0);
    }

    #[test]
    fn candidates_sit_beside_the_anchor_on_their_side() {
        let a = Vec2::new(100.0, 100.0);
        let s = Vec2::new(40.0, 10.0);
        let north = candidate(a, s, DIRECTIONS[0], 5.0);
        assert_eq!(north.max.y, 95.0);
        assert_eq!((north.min.x + north.max.x) * 0.5, 100.0);
        let east = candidate(a, s, DIRECTIONS[2], 5.0);
        assert_eq!(east.min.x, 105.0);
        let west = candidate(a, s, DIRECTIONS[6], 5.0);
        assert_eq!(west.max.x, 95.0);
        let south_east = candidate(a, s, DIRECTIONS[3], 5.0);
        assert!(south_east.min.x > 100.0 && south_east.min.y > 100.0);
    }
}
