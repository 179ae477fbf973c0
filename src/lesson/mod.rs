//! Lessons: two shapes, time frozen, and a narrow phase's recorded trace replayed step
//! by step with a narration card for every step.
//!
//! Everything here is data for the lesson player of the app; nothing draws and nothing
//! reads a clock.
//!
//! - [`Lesson`] (`lesson.rs`): built from a scene with a `lesson` block
//!   ([`crate::scene::LessonDef`]): the two shapes and their poses, the active preset,
//!   the knobs as a [`crate::narrow::NarrowConfig`]; runs an algorithm once with a trace
//!   ([`Lesson::trace`]), moves bodies and drags vertices (refusing edits that make a
//!   polygon cross itself), and gives the Minkowski difference A − B with the vertex pair
//!   behind each of its vertices ([`Lesson::minkowski`]).
//! - [`Player`] (`player.rs`): a cursor over an owned [`crate::narrow::Trace`]: first,
//!   previous, next, last, whole iterations, seek, play at a speed (the caller passes the
//!   elapsed seconds), and [`Player::retrace`], which keeps its place when an edit
//!   recomputes the trace. Stepping back is exact: it only moves an index into recorded
//!   data; physics never runs again.
//! - [`StepState`] (`state.rs`): what the three views need at a step: the projection
//!   strip's rows with the running minimum, the GJK simplex and search direction, the EPA
//!   polytope, the Voronoi region, the clipping lines, the answer.
//! - [`question`] (`predict.rs`): predict mode's question before a step (where its key
//!   point will be), scored against the trace ([`Question::score`], [`Scoreboard`]).
//! - `quiz` (`quiz.rs`): the multiple-choice questions at the end of a lesson, built
//!   from the trace ("which axis separated them?").
//! - [`topic`]: lessons 11 on, whose traces are not a narrow phase's: bounding volumes,
//!   sweep and prune, … Each step of a [`topic::TopicTrace`] carries its card, its marks
//!   for the two views (data) and its predict target; the same [`Player`] plays it.
//! - [`narrate`] (`narration.rs`): a card per step, with live numbers, and the line of
//!   the algorithm's pseudocode ([`Listing`], `pseudocode.rs`) it is on.
//!
//! ```
//! use collision_lab::lesson::{narrate, Lesson, Player};
//! let scene = collision_lab::scene::load(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/lessons/06_gjk.ron"))
//!     .expect("the lesson loads");
//! let lesson = Lesson::from_scene(&scene).expect("it is a lesson");
//! let (_contact, trace) = lesson.trace(lesson.algorithm());
//! let mut player = Player::new(trace);
//! while player.next() {
//!     let card = narrate(player.trace(), player.cursor());
//!     assert!(!card.text.is_empty());
//! }
//! ```

#[allow(clippy::module_inception)]
mod lesson;
mod narration;
mod narration_gjk;
mod player;
pub mod predict;
mod pseudocode;
mod quiz;
mod state;
pub mod topic;

pub use lesson::{EditError, ExactAnswer, Lesson, LessonError, MinkowskiPiece, MinkowskiView};
pub use narration::{fmt_num, narrate, Card};
pub use player::{loop_position, Granularity, LoopKind, LoopPosition, Player, StepKind, Steps};
pub use predict::{question, Attempt, Given, PredictView, Question, Scoreboard};
pub use pseudocode::Listing;
pub use quiz::{quiz, QuizQuestion};
pub use state::{state_at, EpaView, GjkView, ResultView, SatRow, StepState};
