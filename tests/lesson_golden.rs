//! Golden traces of the shipped lessons, and the teaching facts each lesson depends on.
//!
//! For every lesson in `scenes/lessons/`, as written and under each preset, every
//! algorithm the lesson uses runs once with a trace; the trace is reduced to one line per
//! step (axes, intervals, simplices, terminations, numbers to 2 decimals) and compared
//! with `tests/golden/lessons/NN_name[__preset].txt`. A change to an algorithm that
//! changes what a lesson shows makes this test fail with a diff; if the change is meant,
//! rewrite the files with
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test --no-default-features --test lesson_golden
//! ```
//!
//! and read the diff before committing it.

use collision_lab::lesson::topic::{TopicLesson, TopicTrace};
use collision_lab::lesson::{loop_position, narrate, state_at, Lesson, LoopKind, Player};
use collision_lab::math::Vec2;
use collision_lab::narrow::trace::{
    AxisSource, CombineCandidate, EpaTermination, GjkTermination, Owner, SupportPoint, Trace, TraceStep, VoronoiRegion,
};
use collision_lab::narrow::Algorithm;
use collision_lab::scene;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The lesson scenes, sorted by file name.
fn lesson_files() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("scenes/lessons"))
        .expect("scenes/lessons exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
}

/// The narrow-phase lessons (1–10: a pair of bodies and a narrow phase's trace).
fn narrow_files() -> Vec<PathBuf> {
    lesson_files().into_iter().filter(|p| !is_topic(p)).collect()
}

/// True for a lesson whose trace is not a narrow phase's (lessons 11 on).
fn is_topic(path: &Path) -> bool {
    let scene = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    !scene.def().lesson.as_ref().expect("a lesson").topic.is_narrow()
}

fn open_topic(path: &Path) -> TopicLesson {
    let scene = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    TopicLesson::from_scene(&scene).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn open_topic_named(stem: &str) -> TopicLesson {
    open_topic(&root().join("scenes/lessons").join(format!("{stem}.ron")))
}

/// One line per step of a topic trace (its card, to 2 decimals, and its question), then
/// its table and its quiz's answers.
fn topic_signature(trace: &TopicTrace) -> String {
    let mut out = String::new();
    for step in &trace.steps {
        let c = &step.card;
        writeln!(
            out,
            "{} [{}] {} | {}",
            step.iteration, c.pseudocode_line, c.title, c.text
        )
        .unwrap();
        if let Some(t) = &step.target {
            let answers: Vec<String> = t.answers.iter().map(|a| v(*a)).collect();
            writeln!(
                out,
                "  ? {:?} {} answers=[{}] tol={}",
                t.pane,
                t.prompt,
                answers.join(" "),
                n(t.tolerance)
            )
            .unwrap();
        }
    }
    if let Some(table) = &trace.table {
        writeln!(
            out,
            "## table: {}
{}",
            table.title,
            table.header.join(" | ")
        )
        .unwrap();
        for row in &table.rows {
            writeln!(out, "{}", row.join(" | ")).unwrap();
        }
    }
    writeln!(out, "## quiz").unwrap();
    for q in &trace.quiz {
        writeln!(out, "{} -> {}", q.prompt, q.choices[q.answer]).unwrap();
    }
    out
}

fn open(path: &Path) -> Lesson {
    let scene = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
    Lesson::from_scene(&scene).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn open_named(stem: &str) -> Lesson {
    open(&root().join("scenes/lessons").join(format!("{stem}.ron")))
}

fn with_preset(mut lesson: Lesson, name: &str) -> Lesson {
    let index = lesson
        .presets()
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no preset {name:?}"));
    lesson.set_preset(Some(index)).expect("preset applies");
    lesson
}

// ---------------------------------------------------------------------------------------
// Signatures

fn n(x: f32) -> String {
    let s = format!("{x:.2}");
    if s == "-0.00" {
        "0.00".to_string()
    } else {
        s
    }
}

fn v(p: Vec2) -> String {
    format!("({}, {})", n(p.x), n(p.y))
}

fn iv(i: (f32, f32)) -> String {
    format!("[{}, {}]", n(i.0), n(i.1))
}

fn owner(o: Owner) -> &'static str {
    match o {
        Owner::A => "A",
        Owner::B => "B",
    }
}

fn sp(w: &SupportPoint) -> String {
    format!("a{}-b{}={}", w.index_a, w.index_b, v(w.point))
}

fn simplex(s: &[SupportPoint]) -> String {
    let pts: Vec<String> = s.iter().map(sp).collect();
    format!("[{}]", pts.join(" "))
}

/// One line per step.
fn signature(trace: &Trace) -> String {
    let mut out = String::new();
    for step in &trace.steps {
        let line = match step {
            TraceStep::Begin {
                algorithm,
                pieces_a,
                pieces_b,
            } => format!("Begin {algorithm} pieces={pieces_a}x{pieces_b}"),
            TraceStep::BoundsTest {
                piece_a,
                piece_b,
                overlap,
            } => format!(
                "BoundsTest A{piece_a} B{piece_b} {}",
                if *overlap { "overlap" } else { "skip" }
            ),
            TraceStep::PiecePair { piece_a, piece_b } => format!("PiecePair A{piece_a} B{piece_b}"),
            TraceStep::SatAxis(a) => {
                let source = match a.source {
                    AxisSource::Edge { owner: o, piece, edge } => format!("{}:p{piece}e{edge}", owner(o)),
                    AxisSource::CircleToVertex { vertex } => format!("circle-v{vertex}"),
                    AxisSource::CenterToCenter => "centres".to_string(),
                };
                format!(
                    "SatAxis {}/{} {source} axis={} A={} B={} gap={}{}",
                    a.index + 1,
                    a.total,
                    v(a.axis),
                    iv(a.interval_a),
                    iv(a.interval_b),
                    n(a.gap),
                    if a.new_minimum { " min" } else { "" }
                )
            }
            TraceStep::EdgeTest(e) => format!(
                "EdgeTest A:e{} edge={} B={} {}",
                e.edge,
                n(e.edge_value),
                iv(e.interval_b),
                if e.straddles { "straddles" } else { "one-side" }
            ),
            TraceStep::Voronoi(r) => format!(
                "Voronoi {} centre={} closest={} dist={}",
                match r.region {
                    VoronoiRegion::Vertex(i) => format!("vertex{i}"),
                    VoronoiRegion::Edge(i) => format!("edge{i}"),
                    VoronoiRegion::Inside(i) => format!("inside{i}"),
                },
                v(r.center),
                v(r.closest),
                n(r.distance)
            ),
            TraceStep::Gjk(g) => format!(
                "Gjk it={} simplex={} v={} dir={} w={} after={}",
                g.iteration,
                simplex(&g.simplex),
                v(g.closest),
                v(g.direction),
                sp(&g.support),
                simplex(&g.simplex_after)
            ),
            TraceStep::GjkEnd(e) => format!(
                "GjkEnd {:?} simplex={} dist={} a={} b={}",
                e.reason,
                simplex(&e.simplex),
                n(e.distance),
                v(e.point_a),
                v(e.point_b)
            ),
            TraceStep::EpaStart(s) => format!(
                "EpaStart simplex={} polytope={}{}",
                s.simplex.len(),
                simplex(&s.polytope),
                if s.grown { " grown" } else { "" }
            ),
            TraceStep::Epa(e) => format!(
                "Epa it={} poly={} edge={} n={} d={} w={} gain={}",
                e.iteration,
                e.polytope.len(),
                e.closest_edge,
                v(e.normal),
                n(e.distance),
                sp(&e.support),
                n(e.gain)
            ),
            TraceStep::EpaEnd(e) => format!(
                "EpaEnd {:?} poly={} normal={} depth={}",
                e.reason,
                e.polytope.len(),
                v(e.normal),
                n(e.depth)
            ),
            TraceStep::Combine(c) => format!(
                "Combine A{}B{} {} p={} n={} depth={} {}",
                c.from_piece_a,
                c.from_piece_b,
                match c.candidate {
                    CombineCandidate::EdgeFoot => "foot".to_string(),
                    CombineCandidate::RoundedCorner => "arc".to_string(),
                    CombineCandidate::Vertex => "vertex".to_string(),
                    CombineCandidate::Crossing { piece_a, piece_b } => format!("crossing(A{piece_a}B{piece_b})"),
                },
                v(c.point),
                v(c.normal),
                n(c.depth),
                match c.held_by {
                    Some((i, j)) => format!("held by A{i}B{j}"),
                    None => "answer".to_string(),
                }
            ),
            TraceStep::Clip(c) => {
                let kept: Vec<String> = c.kept.iter().map(|(p, d)| format!("{}@{}", v(*p), n(*d))).collect();
                format!(
                    "Clip ref={} ref_edge={}-{} inc_edge={}-{} clipped={} kept=[{}]",
                    owner(c.reference),
                    v(c.reference_edge.0),
                    v(c.reference_edge.1),
                    v(c.incident_edge.0),
                    v(c.incident_edge.1),
                    c.clipped.len(),
                    kept.join(" ")
                )
            }
            TraceStep::Result {
                intersect,
                normal,
                depth,
                points,
            } => {
                let pts: Vec<String> = points.iter().map(|p| v(*p)).collect();
                format!(
                    "Result {} normal={} depth={} points=[{}]",
                    if *intersect { "intersect" } else { "separate" },
                    v(*normal),
                    n(*depth),
                    pts.join(" ")
                )
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn slug(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    s.trim_matches('_').to_string()
}

/// The golden text of a lesson in its current pose: every algorithm, then the exact
/// answer when there is one.
fn golden_text(lesson: &Lesson) -> String {
    let mut out = String::new();
    for algorithm in lesson.algorithms() {
        let (_, trace) = lesson.trace(algorithm);
        writeln!(out, "## {algorithm}").unwrap();
        out.push_str(&signature(&trace));
    }
    if let Some(exact) = lesson.exact() {
        let pen = exact.penetration.map_or("-".to_string(), |p| {
            format!("normal={} depth={}", v(p.normal), n(p.depth))
        });
        writeln!(
            out,
            "## exact\n{} {pen}",
            if exact.intersect { "intersect" } else { "separate" }
        )
        .unwrap();
    }
    out
}

/// A readable diff: the first differing lines with their numbers.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if x != y {
            writeln!(
                out,
                "line {}:\n  - {}\n  + {}",
                i + 1,
                x.unwrap_or("(none)"),
                y.unwrap_or("(none)")
            )
            .unwrap();
            shown += 1;
            if shown == 12 {
                out.push_str("  …\n");
                break;
            }
        }
    }
    out
}

#[test]
fn every_lesson_matches_its_golden_trace() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = root().join("tests/golden/lessons");
    if update {
        std::fs::create_dir_all(&dir).expect("golden dir");
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in lesson_files() {
        let stem = path.file_stem().expect("stem").to_string_lossy().into_owned();
        let topic = is_topic(&path);
        let mut lesson = (!topic).then(|| open(&path));
        let mut topic_lesson = topic.then(|| open_topic(&path));
        let presets: Vec<String> = match (&lesson, &topic_lesson) {
            (Some(l), _) => l.presets().iter().map(|p| p.name.clone()).collect(),
            (_, Some(t)) => t.presets().iter().map(|p| p.name.clone()).collect(),
            _ => unreachable!(),
        };
        let mut cases = vec![(stem.clone(), None)];
        for (i, p) in presets.iter().enumerate() {
            cases.push((format!("{stem}__{}", slug(p)), Some(i)));
        }
        for (name, preset) in cases {
            let actual = match (&mut lesson, &mut topic_lesson) {
                (Some(l), _) => {
                    l.set_preset(preset).expect("preset applies");
                    golden_text(l)
                }
                (_, Some(t)) => {
                    t.set_preset(preset).expect("preset applies");
                    topic_signature(&t.trace())
                }
                _ => unreachable!(),
            };
            let file = dir.join(format!("{name}.txt"));
            checked += 1;
            if update {
                std::fs::write(&file, &actual).expect("write golden");
                continue;
            }
            match std::fs::read_to_string(&file) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!("{}:\n{}", file.display(), diff(&expected, &actual))),
                Err(e) => failures.push(format!(
                    "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
                    file.display()
                )),
            }
        }
    }
    assert!(checked >= 10 + 15, "only {checked} lesson poses checked");
    assert!(
        failures.is_empty(),
        "{} golden trace(s) differ; if the change is meant, rerun with UPDATE_GOLDEN=1 and review the diff:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_lessons_ship_in_order() {
    let files = lesson_files();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "01_projections.ron",
            "02_sat_mtv.ron",
            "03_circle_voronoi.ron",
            "04_nonconvex_sat.ron",
            "05_minkowski.ron",
            "06_gjk.ron",
            "07_gjk_distance.ron",
            "08_epa.ron",
            "09_clipping.ron",
            "10_pitfalls.ron",
            "11_bounding_volumes.ron",
            "12_trees.ron",
            "13_sweep_and_prune.ron",
            "14_spatial_hash.ron",
            "15_dynamic_tree.ron",
            "16_continuous.ron",
            "17_resolution.ron",
        ]
    );
    // A lesson's number is its file's prefix.
    let prefix = |p: &Path| -> usize { p.file_name().unwrap().to_string_lossy()[..2].parse().unwrap() };
    for path in files.iter().filter(|p| is_topic(p)) {
        let lesson = open_topic(path);
        assert_eq!(lesson.number() as usize, prefix(path), "{}", path.display());
        assert!(
            lesson.intro().len() > 300,
            "{}: the intro is a paragraph",
            path.display()
        );
    }
    for (i, path) in files.iter().enumerate().filter(|(_, p)| !is_topic(p)) {
        let lesson = open(path);
        assert_eq!(lesson.number() as usize, i + 1, "{}", path.display());
        assert!(
            lesson.intro().len() > 300,
            "{}: the intro is a paragraph",
            path.display()
        );
        // Sized for a ~10 m view: every vertex within 5 m of the origin, as written and
        // under every preset.
        let mut lesson = lesson;
        for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
            lesson.set_preset(preset).unwrap();
            for o in [Owner::A, Owner::B] {
                for p in lesson.world_vertices(o) {
                    assert!(p.abs().max_element() < 5.0, "{} {preset:?}: {p}", path.display());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Teaching facts

fn steps(lesson: &Lesson, algorithm: Algorithm) -> (collision_lab::narrow::Contact, Trace) {
    lesson.trace(algorithm)
}

fn gjk_end(trace: &Trace) -> (GjkTermination, usize) {
    trace
        .steps
        .iter()
        .find_map(|s| match s {
            TraceStep::GjkEnd(e) => Some((e.reason, e.simplex.len())),
            _ => None,
        })
        .expect("GJK ran")
}

fn epa_end(trace: &Trace) -> Option<EpaTermination> {
    trace.steps.iter().find_map(|s| match s {
        TraceStep::EpaEnd(e) => Some(e.reason),
        _ => None,
    })
}

fn count(trace: &Trace, f: impl Fn(&TraceStep) -> bool) -> usize {
    trace.steps.iter().filter(|s| f(s)).count()
}

#[test]
fn lesson_1_stops_at_a_separating_axis_after_overlapping_ones() {
    let lesson = open_named("01_projections");
    let (contact, trace) = steps(&lesson, Algorithm::SatDecomposed);
    assert!(!contact.intersect);
    let axes: Vec<f32> = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::SatAxis(a) => Some(a.gap),
            _ => None,
        })
        .collect();
    assert!(axes.len() >= 2, "{axes:?}");
    assert!(axes[..axes.len() - 1].iter().all(|g| *g < 0.0) && *axes.last().unwrap() > 0.0);
    let (contact, _) = steps(
        &with_preset(open_named("01_projections"), "overlapping"),
        Algorithm::SatDecomposed,
    );
    assert!(contact.intersect);
    let (_, trace) = steps(
        &with_preset(open_named("01_projections"), "separated on the first axis"),
        Algorithm::SatDecomposed,
    );
    let first_axis = trace.steps.iter().find_map(|s| match s {
        TraceStep::SatAxis(a) => Some(*a),
        _ => None,
    });
    assert!(
        first_axis.is_some_and(|a| a.index == 0 && a.gap > 0.0),
        "{first_axis:?}"
    );
}

#[test]
fn lesson_2_mtv_sign_flips_with_the_side() {
    let (right, _) = steps(&open_named("02_sat_mtv"), Algorithm::SatDecomposed);
    let (left, _) = steps(
        &with_preset(open_named("02_sat_mtv"), "B on the left"),
        Algorithm::SatDecomposed,
    );
    assert!(right.intersect && left.intersect);
    // B to the right of A: A is pushed left; B to the left: pushed right.
    assert!(right.mtv.x < 0.0 && left.mtv.x > 0.0, "{:?} {:?}", right.mtv, left.mtv);
}

#[test]
fn lesson_3_finds_edge_vertex_and_inside_regions() {
    let region = |lesson: &Lesson| {
        let (_, trace) = lesson.trace(Algorithm::SatDecomposed);
        trace
            .steps
            .iter()
            .find_map(|s| match s {
                TraceStep::Voronoi(r) => Some(r.region),
                _ => None,
            })
            .expect("Voronoi step")
    };
    assert!(matches!(
        region(&open_named("03_circle_voronoi")),
        VoronoiRegion::Edge(_)
    ));
    assert!(matches!(
        region(&with_preset(open_named("03_circle_voronoi"), "corner region")),
        VoronoiRegion::Vertex(_)
    ));
    assert!(matches!(
        region(&with_preset(open_named("03_circle_voronoi"), "centre inside")),
        VoronoiRegion::Inside(_)
    ));
    assert!(
        !steps(
            &with_preset(open_named("03_circle_voronoi"), "apart"),
            Algorithm::SatDecomposed
        )
        .0
        .intersect
    );
}

#[test]
fn lesson_4_heuristic_agrees_then_gives_a_false_positive_and_an_overlong_mtv() {
    // As written: NonConvexSat, SatDecomposed and the exact answer agree (0.40 m along x).
    let lesson = open_named("04_nonconvex_sat");
    let (heuristic, _) = lesson.trace(Algorithm::NonConvexSat);
    let exact = lesson.exact().expect("polygons");
    let exact_depth = exact.penetration.expect("overlap").depth;
    assert!(heuristic.intersect && exact.intersect);
    assert!((heuristic.depth - exact_depth).abs() < 1e-4 && (exact_depth - 0.4).abs() < 1e-4);

    // False positive: NonConvexSat says intersect, the exact answer and SAT over the
    // decomposition say separate.
    let lesson = with_preset(open_named("04_nonconvex_sat"), "false positive");
    let (heuristic, trace) = lesson.trace(Algorithm::NonConvexSat);
    assert!(heuristic.intersect, "the heuristic's false positive");
    assert!(!lesson.exact().unwrap().intersect, "exactly: apart");
    assert!(!lesson.trace(Algorithm::SatDecomposed).0.intersect);
    // Every axis overlapped: no separating axis in the trace.
    assert!(count(&trace, |s| matches!(s, TraceStep::SatAxis(a) if a.gap > 0.0)) == 0);

    // Wrong MTV: both intersect, but the heuristic's depth is 13 times the true one.
    let lesson = with_preset(open_named("04_nonconvex_sat"), "wrong MTV");
    let (heuristic, _) = lesson.trace(Algorithm::NonConvexSat);
    let exact = lesson.exact().unwrap().penetration.expect("overlap");
    let (decomposed, _) = lesson.trace(Algorithm::SatDecomposed);
    assert!(heuristic.intersect);
    assert!((exact.depth - 0.1).abs() < 1e-4, "{exact:?}");
    assert!((heuristic.depth - 1.3).abs() < 1e-4, "{heuristic:?}");
    assert!((decomposed.depth - exact.depth).abs() < 1e-4, "{decomposed:?}");
}

#[test]
fn lesson_5_origin_outside_then_inside_a_minus_b() {
    for (preset, inside) in [(None, false), (Some("overlapping"), true)] {
        let mut lesson = open_named("05_minkowski");
        if let Some(p) = preset {
            lesson = with_preset(lesson, p);
        }
        let view = lesson.minkowski();
        assert_eq!(view.pieces.len(), 1);
        let hull = &view.pieces[0].vertices;
        // Triangle minus box: 3 + 4 edges.
        assert_eq!(hull.len(), 7);
        let contains = (0..hull.len()).all(|i| {
            let (p, q) = (hull[i].point, hull[(i + 1) % hull.len()].point);
            collision_lab::math::cross(q - p, -p) > 0.0
        });
        assert_eq!(contains, inside, "{preset:?}");
        assert_eq!(lesson.trace(Algorithm::GjkEpa).0.intersect, inside);
    }
}

#[test]
fn lesson_6_gjk_encloses_the_origin_in_a_few_iterations() {
    let lesson = open_named("06_gjk");
    let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
    assert!(contact.intersect);
    assert_eq!(gjk_end(&trace), (GjkTermination::ContainsOrigin, 3));
    let iterations = count(&trace, |s| matches!(s, TraceStep::Gjk(_)));
    assert!((2..=5).contains(&iterations), "{iterations} GJK iterations");
    let (contact, trace) = with_preset(open_named("06_gjk"), "apart").trace(Algorithm::GjkEpa);
    assert!(!contact.intersect);
    assert_ne!(gjk_end(&trace).0, GjkTermination::ContainsOrigin);
}

#[test]
fn lesson_7_gjk_distance_matches_the_closest_points() {
    for preset in [None, Some("corner to corner"), Some("edge to edge")] {
        let mut lesson = open_named("07_gjk_distance");
        if let Some(p) = preset {
            lesson = with_preset(lesson, p);
        }
        let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
        assert!(!contact.intersect);
        let end = trace
            .steps
            .iter()
            .find_map(|s| match s {
                TraceStep::GjkEnd(e) => Some(e.clone()),
                _ => None,
            })
            .unwrap();
        assert!(end.distance > 0.3, "{preset:?}: {}", end.distance);
        assert!(((end.point_b - end.point_a).length() - end.distance).abs() < 1e-4);
    }
}

#[test]
fn lesson_8_epa_expands_before_it_converges() {
    let lesson = open_named("08_epa");
    let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
    assert!(contact.intersect);
    assert_eq!(epa_end(&trace), Some(EpaTermination::Converged));
    assert!(count(&trace, |s| matches!(s, TraceStep::Epa(_))) >= 3);
    // The depth agrees with the exact answer.
    let exact = lesson.exact().unwrap().penetration.unwrap();
    assert!((contact.depth - exact.depth).abs() < 1e-4);
}

#[test]
fn lesson_9_two_points_one_point_and_a_clipped_point() {
    let points = |lesson: &Lesson| lesson.trace(Algorithm::SatDecomposed).0.points.len();
    assert_eq!(points(&open_named("09_clipping")), 2);
    assert_eq!(points(&with_preset(open_named("09_clipping"), "on a corner")), 1);
    let lesson = with_preset(open_named("09_clipping"), "hanging over the end");
    let (contact, _) = lesson.trace(Algorithm::SatDecomposed);
    assert_eq!(contact.points.len(), 2);
    assert!(contact.points.as_slice().iter().any(|p| (p.point.x - 3.0).abs() < 1e-4));
}

#[test]
fn lesson_10_pitfalls_show_what_they_say() {
    let all = |lesson: &Lesson| Algorithm::ALL.map(|a| lesson.trace(a).0.intersect);
    // Touching corners: every algorithm says no.
    let lesson = with_preset(open_named("10_pitfalls"), "touching corners");
    assert_eq!(all(&lesson), [false; 3]);
    // The origin on a simplex edge: GJK stops with a two-point simplex holding the origin.
    let lesson = with_preset(open_named("10_pitfalls"), "origin on a simplex edge");
    let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
    assert!(!contact.intersect);
    assert_eq!(gjk_end(&trace), (GjkTermination::ContainsOrigin, 2));
    // EPA on touching shapes: EPA grows GJK's simplex and reports touching.
    let lesson = with_preset(open_named("10_pitfalls"), "EPA on touching shapes");
    let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
    assert!(!contact.intersect);
    assert!(trace
        .steps
        .iter()
        .any(|s| matches!(s, TraceStep::EpaStart(e) if e.grown)));
    assert_eq!(epa_end(&trace), Some(EpaTermination::Touching));
    // Deep penetration: a 5 cm nudge flips the MTV from x to y, in every algorithm.
    for algorithm in Algorithm::ALL {
        let x = with_preset(open_named("10_pitfalls"), "deep: MTV along x")
            .trace(algorithm)
            .0;
        let y = with_preset(open_named("10_pitfalls"), "deep: nudged, MTV flips to y")
            .trace(algorithm)
            .0;
        assert!(
            x.normal.x.abs() > 0.99 && y.normal.y.abs() > 0.99,
            "{algorithm}: {x:?} {y:?}"
        );
    }
    // Feature flip-flop: the reference edge stays on A thanks to the bias, though B's
    // edge is as well aligned.
    let lesson = with_preset(open_named("10_pitfalls"), "feature flip-flop");
    let (contact, trace) = lesson.trace(Algorithm::GjkEpa);
    assert!(contact.intersect && contact.points.len() == 2);
    assert!(trace
        .steps
        .iter()
        .any(|s| matches!(s, TraceStep::Clip(c) if c.reference == Owner::A)));
}

#[test]
fn every_lesson_step_has_a_card_and_stepping_back_is_exact() {
    for path in narrow_files() {
        let mut lesson = open(&path);
        for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
            lesson.set_preset(preset).unwrap();
            for algorithm in Algorithm::ALL {
                let (_, trace) = lesson.trace(algorithm);
                let mut player = Player::new(trace.clone());
                let mut forward = vec![player.state()];
                while player.next() {
                    forward.push(player.state());
                }
                assert_eq!(forward.len(), trace.steps.len());
                let mut i = forward.len() - 1;
                while player.prev() {
                    i -= 1;
                    assert_eq!(player.state(), forward[i], "{} step {i}", path.display());
                }
                for (i, _) in trace.steps.iter().enumerate() {
                    let card = narrate(&trace, i);
                    assert!(
                        !card.title.is_empty() && card.text.len() > 20,
                        "{}: {card:?}",
                        path.display()
                    );
                    assert!(card.pseudocode_line < card.listing.lines().len());
                    assert_eq!(state_at(&trace, i), forward[i]);
                }
            }
        }
    }
}

#[test]
fn lesson_6_narration_reads_as_promised() {
    let lesson = open_named("06_gjk");
    let (_, trace) = lesson.trace(Algorithm::GjkEpa);
    let cards: Vec<String> = (0..trace.steps.len()).map(|i| narrate(&trace, i).text).collect();
    let gjk: Vec<&String> = cards
        .iter()
        .filter(|c| c.contains("support point of A − B along d"))
        .collect();
    assert!(gjk.len() >= 2, "{cards:#?}");
    assert!(cards.iter().any(|c| c.contains("holds the origin")), "{cards:#?}");
}

/// The player's header ("Step 4 of 12 · GJK iteration 1 of 3") and the step's card
/// ("GJK iteration 1") number the same loop pass the same way, in every lesson, at every
/// step: both 1-based, and the number never past the count.
#[test]
fn header_and_card_number_loop_passes_alike() {
    for path in narrow_files() {
        let lesson = open(&path);
        for algorithm in lesson.algorithms() {
            let (_, trace) = lesson.trace(algorithm);
            for index in 0..trace.steps.len() {
                let Some(pass) = loop_position(&trace.steps, index) else {
                    continue;
                };
                assert!(
                    (1..=pass.count).contains(&pass.number),
                    "{}: {algorithm} step {index}: {pass}",
                    path.display()
                );
                let title = narrate(&trace, index).title;
                let expected = match pass.kind {
                    LoopKind::Gjk => format!("GJK iteration {}", pass.number),
                    LoopKind::Epa => format!("EPA iteration {}", pass.number),
                    LoopKind::Axis => format!("Axis {} of {}", pass.number, pass.count),
                };
                // An edge test has its own card; it belongs to the axis before it.
                if !title.starts_with("Edge test") {
                    assert_eq!(title, expected, "{}: {algorithm} step {index}", path.display());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Lessons 11 on: topic traces

#[test]
fn every_topic_step_has_a_card_a_listing_line_and_answerable_targets() {
    for path in lesson_files().into_iter().filter(|p| is_topic(p)) {
        let mut lesson = open_topic(&path);
        for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
            lesson.set_preset(preset).unwrap();
            let trace = lesson.trace();
            assert!(trace.steps.len() >= 3, "{}", path.display());
            assert!(trace.quiz.len() >= 2, "{}: a quiz", path.display());
            let mut player = Player::new(trace.clone());
            let mut seen = 1;
            while player.next() {
                seen += 1;
            }
            assert_eq!(seen, trace.steps.len());
            let mut asked = 0;
            for (i, step) in trace.steps.iter().enumerate() {
                let c = &step.card;
                assert!(!c.title.is_empty() && c.text.len() > 20, "{} step {i}", path.display());
                assert!(c.pseudocode_line < c.listing.lines().len());
                assert!(
                    !step.world.is_empty() || !step.diagram.is_empty(),
                    "step {i} draws nothing"
                );
                if let Some(t) = &step.target {
                    asked += 1;
                    assert!(t.tolerance > 0.0 && !t.answers.is_empty());
                    for &a in &t.answers {
                        assert!(t.score(i, a).hit);
                    }
                    assert!(!t.score(i, t.answers[0] + Vec2::new(1e3 * t.tolerance, 0.0)).hit);
                }
            }
            assert!(asked > 0, "{}: predict mode asks something", path.display());
            for q in &trace.quiz {
                assert!(q.answer < q.choices.len() && q.choices.len() >= 2);
            }
        }
    }
}

/// Every step of every topic lesson highlights a real line of its listing: in range, not
/// blank, not the listing's heading. And a lesson's last step, which sums up where the
/// lesson ended (the best fit, the pairs, the query, the comparison), does not fall
/// back to the listing's first line, nor to the line its first step was on: lesson 16's
/// comparison of the two times of impact highlighted "one discrete step" (line 1). A
/// lesson whose last step really belongs on its first line goes in
/// `LAST_ON_FIRST_LINE`, with the reason.
#[test]
fn every_topic_step_highlights_a_real_line_and_the_last_does_not_fall_back_to_line_1() {
    const LAST_ON_FIRST_LINE: &[&str] = &[];
    for path in lesson_files().into_iter().filter(|p| is_topic(p)) {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut lesson = open_topic(&path);
        for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
            lesson.set_preset(preset).unwrap();
            let trace = lesson.trace();
            for (i, step) in trace.steps.iter().enumerate() {
                let c = &step.card;
                let lines = c.listing.lines();
                assert!(
                    c.pseudocode_line < lines.len(),
                    "{stem} {preset:?} step {i}: line out of range"
                );
                let text = lines[c.pseudocode_line].trim();
                assert!(!text.is_empty(), "{stem} {preset:?} step {i}: a blank line");
                assert_ne!(text, c.listing.name(), "{stem} {preset:?} step {i}: the heading");
            }
            let (first, last) = (&trace.steps[0].card, &trace.steps[trace.steps.len() - 1].card);
            if LAST_ON_FIRST_LINE.contains(&stem.as_str()) {
                continue;
            }
            assert_ne!(
                last.pseudocode_line, 0,
                "{stem} {preset:?}: the last step ({}) falls back to line 1",
                last.title
            );
            assert_ne!(
                last.pseudocode_line, first.pseudocode_line,
                "{stem} {preset:?}: the last step ({}) is on the first step's line",
                last.title
            );
        }
    }
}

fn rho_of(trace: &TopicTrace, kind: &str) -> f32 {
    let table = trace.table.as_ref().expect("lesson 11 has a table");
    let column = table.header.iter().position(|h| h == kind).expect("a column per kind");
    table.rows[0][column].parse().expect("a number")
}

#[test]
fn lesson_11_the_bar_favours_the_obb_and_the_gear_the_circle() {
    let mut lesson = open_topic_named("11_bounding_volumes");
    let best = |lesson: &TopicLesson| lesson.trace().steps.last().unwrap().card.title.clone();
    lesson.set_preset(Some(0)).unwrap();
    assert!(best(&lesson).contains("OBB"), "{}", best(&lesson));
    let trace = lesson.trace();
    let table = trace.table.as_ref().unwrap();
    // The table measures every shape; the bar's row is the second.
    let bar = &table.rows[1];
    let obb = table.header.iter().position(|h| h == "OBB (min-area)").unwrap();
    let aabb = table.header.iter().position(|h| h == "AABB").unwrap();
    assert!(bar[obb].parse::<f32>().unwrap() < 0.01, "{bar:?}");
    assert!(bar[aabb].parse::<f32>().unwrap() > 0.1, "{bar:?}");
    lesson.set_preset(Some(1)).unwrap();
    assert_eq!(best(&lesson), "Best fit: circle");
    // As written (an L), ρ of the AABB is read from the table's first row.
    assert!(rho_of(&lesson.trace(), "AABB") > 0.0);
}

#[test]
fn lesson_11_tau_is_drawn_as_a_pair_whose_length_is_tau() {
    use collision_lab::lesson::topic::{Mark, Role};
    let trace = open_topic_named("11_bounding_volumes").trace();
    let mut pairs = 0;
    for step in &trace.steps {
        for m in &step.world {
            if let Mark::Segment {
                from,
                to,
                role: Role::Tightness,
                ..
            } = m
            {
                pairs += 1;
                let tau: f32 = step
                    .card
                    .text
                    .split("τ = ")
                    .nth(1)
                    .and_then(|t| t.split(' ').next())
                    .and_then(|t| t.replace('−', "-").parse().ok())
                    .unwrap_or(from.distance(*to));
                assert!(
                    (from.distance(*to) - tau).abs() < 0.01,
                    "{} vs {tau}",
                    from.distance(*to)
                );
            }
        }
    }
    assert!(pairs >= 5, "one τ pair per volume");
}

/// The pairs the lessons show are the brute-force pairs of the bodies' boxes (the oracle
/// of `tests/broad.rs`), frame by frame in lesson 13 and once in lesson 14.
#[test]
fn lessons_13_and_14_report_the_brute_force_pairs() {
    use collision_lab::bounds::{BoundKind, BoundingVolume};
    use collision_lab::dynamics::BodyKind;
    let brute = |scene: &scene::Scene, t: f32| -> String {
        let boxes: Vec<_> = (0..scene.len())
            .map(|i| {
                let b = &scene.def().bodies[i];
                let mut pose = b.pose();
                pose.translation += Vec2::from(b.linear_velocity) * t;
                BoundingVolume::of_shape(&scene.shapes()[i], &pose, BoundKind::Aabb)
            })
            .collect();
        let mut pairs = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let both_static =
                    scene.def().bodies[i].kind == BodyKind::Static && scene.def().bodies[j].kind == BodyKind::Static;
                if !both_static && boxes[i].overlaps(&boxes[j]) {
                    pairs.push(format!("(b{i}, b{j})"));
                }
            }
        }
        if pairs.is_empty() {
            "none".to_string()
        } else {
            pairs.join(", ")
        }
    };
    for stem in ["13_sweep_and_prune", "14_spatial_hash"] {
        let mut lesson = open_topic_named(stem);
        for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
            lesson.set_preset(preset).unwrap();
            let trace = lesson.trace();
            let reported: Vec<String> = trace
                .steps
                .iter()
                .map(|s| s.card.title.clone())
                .filter(|t| t.contains("airs"))
                .collect();
            assert!(!reported.is_empty(), "{stem}");
            for (frame, title) in reported.iter().enumerate() {
                // Lesson 13 frames are 0.5 s apart; lesson 14 has one.
                let t = if stem.starts_with("13") {
                    0.5 * frame as f32
                } else {
                    0.0
                };
                let expected = brute(lesson.scene(), t);
                assert!(
                    title.ends_with(&expected),
                    "{stem} {preset:?} frame {frame}: {title} vs {expected}"
                );
            }
        }
    }
}

#[test]
fn lesson_16_times_of_impact_lie_on_the_path_before_the_wall() {
    use collision_lab::dynamics::{ContinuousMode, World};
    let lesson = open_topic_named("16_continuous");
    let trace = lesson.trace();
    let answers: Vec<Vec2> = trace
        .steps
        .iter()
        .filter_map(|s| s.target.as_ref())
        .map(|t| t.answers[0])
        .collect();
    assert_eq!(answers.len(), 2, "one time of impact per method");
    // The box flies along y = 0.2 from x = -1; at the impact its centre is short of the
    // wall's face (x = -0.03) by at least its half width and at most its half diagonal.
    for a in &answers {
        assert!((a.y - 0.2).abs() < 1e-3, "{a:?}");
        assert!(a.x < -0.03 - 0.25 + 0.01 && a.x > -0.03 - 0.36, "{a:?}");
    }
    // Both methods agree within the slop.
    assert!((answers[0] - answers[1]).length() < 0.01, "{answers:?}");
    // And the discrete step the lesson starts from really tunnels.
    let mut off = World::from_scene(lesson.scene());
    off.settings_mut().continuous = ContinuousMode::Off;
    off.step(1.0 / off.rate());
    let handle = off.bodies().handles()[1];
    assert!(off.body(handle).unwrap().center_of_mass().x > 0.25);
}

#[test]
fn lesson_17_the_literal_projection_lets_the_stack_go_furthest() {
    let trace = open_topic_named("17_resolution").trace();
    let q = &trace.quiz[0];
    assert_eq!(q.choices[q.answer], "literal projection", "{q:?}");
    let last = &trace.steps.last().unwrap().card.title;
    assert_eq!(last, "How far the top box went");
}

#[test]
fn lesson_17_shows_the_passes_inside_one_step() {
    let trace = open_topic_named("17_resolution").trace();
    let titled = |part: &'static str| trace.steps.iter().filter(move |s| s.card.title.contains(part));
    // The literal projection: one step per pair it moved, and a move that deepens the
    // next pair's overlap.
    assert!(titled("Literal projection, substep").count() >= 2);
    assert!(titled("Literal projection, substep").any(|s| s.card.text.contains("has made or deepened")));
    // The position-based solver: its position passes (the last with static friction)
    // and its velocity pass, each on its line.
    assert!(titled("position pass 1 of 2").all(|s| s.card.pseudocode_line == 3));
    assert_eq!(titled("position pass 2 of 2, with static friction").count(), 1);
    assert!(titled("position pass 2 of 2").all(|s| s.card.pseudocode_line == 4));
    assert_eq!(titled("velocity pass").count(), 1);
    // Impulses: the warm start, then the iterations; the pair under the whole stack
    // carries the most from the warm start on, before any iteration.
    assert_eq!(titled("Impulses, substep 1: warm start").count(), 1);
    assert!(titled("velocity iteration").count() >= 2);
    let q = &trace.quiz[2];
    assert_eq!(q.choices[q.answer], "b0–b1", "{q:?}");
}

/// Lesson 12: the boxes' descent finds the pairs of the brute-force loop over every edge
/// pair (pruning never loses one), the other volumes at most those; the steps of the descent are its Nv; the
/// last step is on the cost model's line.
#[test]
fn lesson_12_the_descent_finds_the_brute_force_pairs() {
    use collision_lab::bounds::BoundKind;
    use collision_lab::geometry::{EdgeTree, Shape};
    let mut lesson = open_topic_named("12_trees");
    for preset in std::iter::once(None).chain((0..lesson.presets().len()).map(Some)) {
        lesson.set_preset(preset).unwrap();
        let scene = lesson.scene();
        let outline = |i: usize| match &scene.shapes()[i] {
            Shape::Polygon(p) => p.vertices().to_vec(),
            _ => panic!("lesson 12's bodies are polygons"),
        };
        let (a, b) = (EdgeTree::over_edges(&outline(0)), EdgeTree::over_edges(&outline(1)));
        let xf_ab = scene.pose(0).unwrap().inv_mul(&scene.pose(1).unwrap());
        let mut brute = 0;
        for i in 0..outline(0).len() {
            for j in 0..outline(1).len() {
                brute += usize::from(a.item_test(i, &b, j, &xf_ab, 0.0));
            }
        }
        assert!(brute > 0, "the query touches the polygon");
        let trace = lesson.trace();
        let table = trace.table.as_ref().expect("a table");
        let pairs = table.header.iter().position(|h| h == "pairs").unwrap();
        // Boxes prune exactly as the boxes of the edges do; a tighter volume may also
        // prune an edge pair whose (re-boxed) boxes overlap, never add one.
        for row in &table.rows {
            let found: usize = row[pairs].parse().unwrap();
            if row[0] == "AABB" {
                assert_eq!(found, brute, "{preset:?} {row:?}");
            }
            assert!(found <= brute && found > 0, "{preset:?} {row:?}");
        }
        let shown = lesson.tree_volume();
        let counts = trace.cost.as_ref().expect("counts");
        assert_eq!(counts.shown, shown);
        let row = counts.rows.iter().find(|r| r.kind == shown).unwrap();
        let descent = trace.steps.iter().filter(|s| s.iteration == 1).count();
        assert_eq!(descent as u32, row.nv, "{preset:?}: one step per node test");
        assert_eq!(counts.rows.len(), BoundKind::ALL.len());
        let last = &trace.steps.last().unwrap().card;
        assert_eq!(last.listing.lines()[last.pseudocode_line].split(' ').next(), Some("T"));
    }
}
