//! Every lesson, at every step, with every preset and every algorithm: the labels of
//! the world and Minkowski views never cover one another nor the origin marker.
//!
//! The views run without a window ([`paint::record_labels`]): nothing is drawn, text is
//! measured by a fixed-width estimate, and the placer's answer is checked.

use super::paint::{self, PlacedLabels};
use super::tests::lesson_paths;
use super::{minkowski_view, world_view, LessonMode};
use crate::math::Vec2;
use crate::narrow::Algorithm;

/// The window the lessons open in, and the viewport the panels leave at 1280×800.
const SCREEN: Vec2 = Vec2::new(1280.0, 800.0);
const VIEWPORT: (Vec2, Vec2) = (Vec2::new(0.0, 24.0), Vec2::new(860.0, 776.0));

fn check(views: &[PlacedLabels], what: &str) {
    for v in views {
        assert!(
            v.overlapping.is_empty(),
            "{what}: no free place in {:?} for {:?}",
            v.view,
            v.overlapping
        );
        for (i, (ta, a)) in v.labels.iter().enumerate() {
            for (tb, b) in &v.labels[i + 1..] {
                assert!(!a.overlaps(b), "{what}: '{ta}' {a:?} overlaps '{tb}' {b:?}");
            }
            if let Some(o) = v.origin {
                assert!(!a.overlaps(&o), "{what}: '{ta}' {a:?} covers the origin {o:?}");
            }
        }
    }
}

#[test]
fn lesson_labels_never_overlap_at_any_step() {
    let mut checked = 0usize;
    for path in lesson_paths() {
        let scene = crate::scene::load(&path).unwrap();
        let opened = LessonMode::from_scene(&scene, SCREEN).unwrap();
        let presets: Vec<Option<usize>> = std::iter::once(None)
            .chain((0..opened.lesson.presets().len()).map(Some))
            .collect();
        for preset in presets {
            for algorithm in Algorithm::ALL {
                let mut mode = opened.clone();
                if preset.is_some() {
                    mode.set_preset(preset).unwrap();
                }
                mode.set_algorithm(algorithm);
                mode.fit(SCREEN, VIEWPORT);
                for step in 0..mode.player.len() {
                    mode.player.seek(step);
                    let state = mode.player.state();
                    let views = paint::record_labels(|| {
                        world_view::draw(&mode, &state);
                        minkowski_view::draw(&mode, &state);
                    });
                    assert_eq!(views.len(), 2);
                    let name = path.file_name().unwrap().to_string_lossy();
                    check(&views, &format!("{name}, preset {preset:?}, {algorithm}, step {step}"));
                    checked += views.iter().map(|v| v.labels.len()).sum::<usize>();
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} labels checked");
}

/// Lessons 11 on: the world view and the diagram, at every step of every preset.
#[test]
fn topic_lesson_labels_never_overlap_at_any_step() {
    use super::topic_mode::TopicMode;
    let mut checked = 0usize;
    let mut lessons = 0;
    for path in super::tests::all_lesson_paths() {
        let scene = crate::scene::load(&path).unwrap();
        let Some(opened) = TopicMode::from_scene(&scene, SCREEN) else {
            continue;
        };
        lessons += 1;
        for preset in std::iter::once(None).chain((0..opened.lesson.presets().len()).map(Some)) {
            let mut mode = opened.clone();
            mode.set_preset(preset).unwrap();
            mode.fit(SCREEN, VIEWPORT);
            for step in 0..mode.player.len() {
                mode.player.seek(step);
                let views = paint::record_labels(|| super::topic_view::draw(&mode));
                assert_eq!(views.len(), 2);
                let name = path.file_name().unwrap().to_string_lossy();
                check(&views, &format!("{name}, preset {preset:?}, step {step}"));
                checked += views.iter().map(|v| v.labels.len()).sum::<usize>();
            }
        }
    }
    assert!(lessons >= 1 && checked > 50, "{lessons} lessons, {checked} labels");
}
