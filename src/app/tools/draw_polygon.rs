//! Drawing a polygon by clicking its vertices.
//!
//! Left clicks add vertices (world frame); the cursor is the next vertex, joined to the
//! last by a rubber band and to the first by the closing edge. Every edge that touches a
//! non-adjacent one is marked (drawn red) as you draw — the rubber band and the closing
//! edge included, so you see a crossing before you click it. Enter, or a click on the
//! first vertex, closes the polygon; [`Polygon::new`] then has the last word: a refused
//! polygon keeps its vertices and the status bar names the crossing edges, an accepted
//! one becomes a dynamic body ("draw polygon", undoable). Backspace removes the last
//! vertex, Escape cancels.
//!
//! Vertices are numbered from 1 in click order on screen and in messages; edge `i-j`
//! joins vertex i to vertex j.

use super::super::input::FrameInput;
use super::super::shapes::area_centroid;
use super::super::state::AppState;
use super::pressed_in_world;
use crate::dynamics::BodyHandle;
use crate::geometry::predicates::{adjacent_edges_overlap, segments_intersect};
use crate::geometry::{Polygon, PolygonError};
use crate::math::{Point, Vec2};
use crate::scene::{BodyDef, ShapeDef};

/// A click within this distance of the first vertex closes the polygon (logical px).
pub const CLOSE_RADIUS_PX: f32 = 8.0;
/// A click within this distance of the last vertex is ignored (a double click), px.
pub const REPEAT_RADIUS_PX: f32 = 2.0;

/// The Draw-polygon mode's left button: add a vertex, or close on the first one.
pub fn handle(state: &mut AppState, input: &FrameInput) {
    if !pressed_in_world(state, input) {
        return;
    }
    if snaps_to_first(state, input.mouse_px) {
        close(state);
        return;
    }
    let cursor = state.tools.cursor_world;
    if let Some(&last) = state.tools.polygon.last() {
        if (state.camera.world_to_screen(last) - input.mouse_px).length() <= REPEAT_RADIUS_PX {
            return;
        }
    }
    state.tools.polygon.push(cursor);
}

/// True when a click at `mouse_px` would close the polygon (three vertices or more and
/// the cursor on the first).
pub fn snaps_to_first(state: &AppState, mouse_px: Vec2) -> bool {
    let vertices = &state.tools.polygon;
    vertices.len() >= 3 && (state.camera.world_to_screen(vertices[0]) - mouse_px).length() <= CLOSE_RADIUS_PX
}

/// Backspace: forgets the last vertex.
pub fn remove_last_vertex(state: &mut AppState) {
    if state.tools.polygon.pop().is_some() {
        state.set_status(format!("{} vertices", state.tools.polygon.len()));
    }
}

/// The polygon as it would be if the user clicked now, and which of its edges cross.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolygonPreview {
    /// The vertices (world, m): those clicked, then the cursor unless it snaps to the
    /// first vertex. Edge `i` joins point `i` to point `i + 1` (the last one closes).
    pub points: Vec<Vec2>,
    /// Per edge: it touches a non-adjacent edge, or doubles back on its neighbour.
    pub crossing: Vec<bool>,
    /// The cursor is one of the points (the last): the last two edges are the rubber
    /// band and the closing edge.
    pub includes_cursor: bool,
}

/// What to draw for the polygon in progress.
pub fn preview(state: &AppState, mouse_px: Vec2) -> PolygonPreview {
    let mut points = state.tools.polygon.clone();
    let on_last = points
        .last()
        .is_some_and(|&last| (state.camera.world_to_screen(last) - mouse_px).length() <= REPEAT_RADIUS_PX);
    let includes_cursor = state.tools.cursor_in_world && !snaps_to_first(state, mouse_px) && !on_last;
    if includes_cursor {
        points.push(state.tools.cursor_world);
    }
    let crossing = crossing_edges(&points);
    PolygonPreview {
        points,
        crossing,
        includes_cursor,
    }
}

/// For the closed polygon through `points`: which edges (edge `i` from point `i` to
/// point `i + 1`, wrapping) touch a non-adjacent edge or overlap an adjacent one. Exact
/// predicates, the same as [`Polygon::new`] uses. O(n²): drawn polygons are small.
pub fn crossing_edges(points: &[Vec2]) -> Vec<bool> {
    let n = points.len();
    let mut crossing = vec![false; n];
    if n < 3 {
        return crossing;
    }
    let p = |i: usize| points[i % n];
    for i in 0..n {
        for j in (i + 1)..n {
            let hit = if j == i + 1 {
                // Edges i and i+1 share point i+1.
                adjacent_edges_overlap(p(i), p(i + 1), p(i + 2))
            } else if i == 0 && j == n - 1 {
                // The closing edge n−1 and edge 0 share point 0.
                adjacent_edges_overlap(p(n - 1), p(0), p(1))
            } else {
                segments_intersect(p(i), p(i + 1), p(j), p(j + 1))
            };
            if hit {
                crossing[i] = true;
                crossing[j] = true;
            }
        }
    }
    crossing
}

/// Enter, or a click on the first vertex: builds the polygon. Refused: the vertices stay
/// and the status bar says why. Accepted: a dynamic body, selected, undoable.
pub fn close(state: &mut AppState) -> Option<BodyHandle> {
    let vertices = state.tools.polygon.clone();
    if vertices.len() < 3 {
        state.set_error(format!(
            "a polygon needs at least 3 vertices; {} so far",
            vertices.len()
        ));
        return None;
    }
    let polygon = match Polygon::new(&vertices) {
        Ok(p) => p,
        Err(e) => {
            state.set_error(refusal_message(&e, vertices.len()));
            return None;
        }
    };
    let centroid = area_centroid(polygon.vertices());
    let mut def = BodyDef::new(ShapeDef::Polygon {
        points: vertices.iter().map(|&v| Point::from(v - centroid)).collect(),
    });
    def.position = centroid.into();
    def.name = Some(format!("polygon {}", state.world.bodies().len() + 1));
    // The polygon passed; re-centring cannot make it cross, but a failure must not leave
    // an empty undo entry behind.
    let desc = match def.to_desc() {
        Ok(desc) => desc,
        Err(e) => {
            state.set_error(format!("polygon refused: {e}"));
            return None;
        }
    };
    let handle = state.edit("draw polygon", |w| w.insert(desc));
    state.tools.polygon.clear();
    state.selection = Some(handle);
    let pieces = polygon.pieces().len();
    state.set_status(format!(
        "added a polygon: {} vertices, {}",
        polygon.vertices().len(),
        if polygon.is_convex() {
            "convex".to_string()
        } else {
            format!("non-convex, {pieces} convex pieces")
        }
    ));
    Some(handle)
}

/// Why [`Polygon::new`] refused the drawn vertices, with edges named by the vertex
/// numbers shown on screen (from 1, in click order).
pub fn refusal_message(error: &PolygonError, n: usize) -> String {
    // ASCII on purpose: the status bar's font has no arrows.
    let edge = |i: usize| format!("{}-{}", i % n + 1, (i + 1) % n + 1);
    match error {
        PolygonError::SelfIntersecting { edge_a, edge_b, .. } => format!(
            "polygon refused: edge {} crosses edge {} — move a vertex (Backspace removes the last, Esc cancels)",
            edge(*edge_a),
            edge(*edge_b)
        ),
        other => format!("polygon refused: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::{handle_input, set_mode, Mode};
    use super::*;
    use crate::app::input::Key;

    /// Clicks the world points `points` in Draw-polygon mode.
    fn click_all(s: &mut AppState, points: &[(f32, f32)]) {
        for &(x, y) in points {
            let px = s.camera.world_to_screen(Vec2::new(x, y));
            handle_input(s, &press(px));
            handle_input(s, &release(px));
        }
    }

    #[test]
    fn a_bow_tie_is_marked_as_drawn_and_refused_with_the_crossing_edges_named() {
        // 4   2
        //   ╳       1 (0,10), 2 (2,12), 3 (2,10), 4 (0,12): edges 1→2 and 3→4 cross
        // 1   3
        let mut s = state();
        set_mode(&mut s, Mode::DrawPolygon);
        click_all(&mut s, &[(0.0, 10.0), (2.0, 12.0), (2.0, 10.0)]);
        // The cursor at (0, 12) would be vertex 4: the rubber band 3→4 crosses 1→2.
        let cursor_px = s.camera.world_to_screen(Vec2::new(0.0, 12.0));
        handle_input(&mut s, &hover(cursor_px));
        let p = preview(&s, cursor_px);
        assert!(p.includes_cursor);
        assert_eq!(
            p.crossing,
            vec![true, false, true, false],
            "edges 1→2 and 3→4 red as drawn"
        );
        click_all(&mut s, &[(0.0, 12.0)]);
        handle_input(&mut s, &key(Key::Enter));
        let status = s.status.clone().unwrap();
        assert!(status.is_error);
        assert!(status.text.contains("edge 1-2 crosses edge 3-4"), "{}", status.text);
        assert_eq!(s.tools.polygon.len(), 4, "the drawing is kept to fix");
        assert!(s.undo.undo_label().is_none());
        // Backspace, a good last vertex, close on the first vertex.
        handle_input(&mut s, &key(Key::Backspace));
        click_all(&mut s, &[(1.0, 9.0), (0.0, 10.0)]);
        assert!(s.tools.polygon.is_empty(), "closed: {:?}", s.status);
        assert_eq!(s.undo.undo_label(), Some("draw polygon"));
    }

    #[test]
    fn an_l_drawn_by_clicks_becomes_a_dynamic_body_and_undo_removes_it() {
        let mut s = state();
        let n = s.world.bodies().len();
        set_mode(&mut s, Mode::DrawPolygon);
        let l = [(0.0, 8.0), (2.0, 8.0), (2.0, 9.0), (1.0, 9.0), (1.0, 10.0), (0.0, 10.0)];
        click_all(&mut s, &l);
        // The cursor rests on the last vertex: it is not a seventh.
        let at = s.camera.world_to_screen(Vec2::new(0.0, 10.0));
        assert_eq!(preview(&s, at).crossing, vec![false; 6]);
        handle_input(&mut s, &key(Key::Enter));
        assert_eq!(s.world.bodies().len(), n + 1);
        let h = s.selection.unwrap();
        let body = s.world.body(h).unwrap();
        assert!(body.is_dynamic());
        assert!(body.shape().piece_count() >= 2, "an L is not convex");
        // The body sits where it was drawn: its vertices in the world are the clicks.
        let pose = body.pose();
        let crate::geometry::Shape::Polygon(poly) = body.shape() else {
            panic!("a polygon")
        };
        for v in poly.vertices() {
            let w = pose.apply_point(*v);
            assert!(
                l.iter().any(|&(x, y)| (w - Vec2::new(x, y)).length() < 1e-4),
                "{w} is not a click"
            );
        }
        let status = &s.status.as_ref().unwrap().text;
        assert!(status.contains("6 vertices, non-convex"), "{status}");
        s.undo();
        assert_eq!(s.world.bodies().len(), n);
    }

    #[test]
    fn escape_cancels_and_too_few_vertices_are_refused() {
        let mut s = state();
        set_mode(&mut s, Mode::DrawPolygon);
        click_all(&mut s, &[(0.0, 8.0), (2.0, 8.0)]);
        handle_input(&mut s, &key(Key::Enter));
        assert!(s.status.as_ref().unwrap().text.contains("at least 3"));
        handle_input(&mut s, &key(Key::Escape));
        assert!(s.tools.polygon.is_empty());
        assert_eq!(s.tools.mode, Mode::DrawPolygon);
    }

    #[test]
    fn crossing_edges_sees_touching_and_doubling_back() {
        let v = |x: f32, y: f32| Vec2::new(x, y);
        // A spike: 0→1 then back along itself to 2.
        let spike = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
        let c = crossing_edges(&spike);
        assert!(c[0] && c[1]);
        // A vertex touching a far edge.
        let touch = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)];
        assert!(crossing_edges(&touch).iter().any(|&x| x));
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        assert_eq!(crossing_edges(&square), vec![false; 4]);
    }
}
