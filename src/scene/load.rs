//! Reading scenes: text to validated [`Scene`], or one [`SceneError`] with its place.
//!
//! Three passes, each with the position it can give:
//! 1. the version alone (a newer file must say "newer", not "unknown field");
//! 2. RON into the definition types (RON's error positions; the body is found from the
//!    position with [`locate`]);
//! 3. the values' meaning ([`build_shapes`]) and their ranges (`ranges.rs`); the
//!    offending value is found by path in the text's outline.

use super::build::{build_shapes, BuildError};
use super::def::{SceneDef, FORMAT_VERSION};
use super::error::{BodyRef, SceneError, SceneProblem, TextPosition};
use super::locate::{self, Node, Step};
use super::ranges::check_ranges;
use super::{Scene, MAX_FILE_BYTES};
use serde::Deserialize;
use std::io::Read;
use std::path::Path;

/// Reads and validates the scene file at `path`.
///
/// Files above [`MAX_FILE_BYTES`] are refused before they are read whole. The error's
/// `source_name` is the path as given.
pub fn load(path: impl AsRef<Path>) -> Result<Scene, SceneError> {
    let path = path.as_ref();
    let source_name = path.display().to_string();
    let fail = |problem| SceneError {
        source_name: source_name.clone(),
        position: None,
        body: None,
        problem,
    };
    let io = |what: &str, e: std::io::Error| {
        fail(SceneProblem::Io {
            message: format!("cannot {what}: {e}"),
        })
    };
    let file = std::fs::File::open(path).map_err(|e| io("open the file", e))?;
    let metadata = file.metadata().map_err(|e| io("read the file's size", e))?;
    if metadata.is_dir() {
        return Err(fail(SceneProblem::Io {
            message: "this is a directory, not a scene file".to_string(),
        }));
    }
    let too_large = |bytes| {
        fail(SceneProblem::TooLarge {
            bytes,
            limit: MAX_FILE_BYTES,
        })
    };
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(metadata.len()));
    }
    // The size on disk can lie (a pipe, a file still growing), so the read itself stops
    // one byte past the limit too.
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io("read the file", e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let (line, column) = locate::line_column(&prefix, valid);
            return Err(SceneError {
                position: Some(TextPosition { line, column }),
                ..fail(SceneProblem::NotUtf8)
            });
        }
    };
    parse(&text, &source_name)
}

/// Parses and validates scene `text`; `source_name` (usually the file's path) is what
/// errors start with.
pub fn parse(text: &str, source_name: &str) -> Result<Scene, SceneError> {
    let error = |position: Option<TextPosition>, body: Option<BodyRef>, problem| SceneError {
        source_name: source_name.to_string(),
        position,
        body,
        problem,
    };
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(error(
            None,
            None,
            SceneProblem::TooLarge {
                bytes: text.len() as u64,
                limit: MAX_FILE_BYTES,
            },
        ));
    }
    let options = ron_options();

    // Pass 1: the version, read on its own so that a newer file's new fields do not hide it.
    if let Ok(probe) = options.from_str::<VersionProbe>(text) {
        if let Some(problem) = version_problem(probe.version) {
            let root = locate::outline(text);
            let node = root.deepest(&[Step::Field("version")]);
            return Err(error(Some(position_of(text, node.start)), None, problem));
        }
    }

    // Pass 2: the definition types.
    let def: SceneDef = options.from_str(text).map_err(|e| {
        let start = e.span.start;
        let offset = locate::offset_of(text, start.line, start.col);
        // A string that never closes is named by where it opens: RON reports where it
        // gave up, with the string's first characters as what it "found".
        let opening = matches!(e.code, ron::Error::ExpectedStringEnd)
            .then(|| locate::unterminated_string(text))
            .flatten();
        let (offset, position, problem) = match opening {
            Some(opening) => {
                let position = position_of(text, opening);
                let TextPosition { line, column } = position;
                (opening, position, SceneProblem::UnterminatedString { line, column })
            }
            None => {
                let position = TextPosition {
                    line: start.line,
                    column: start.col,
                };
                (
                    offset,
                    position,
                    SceneProblem::from_ron(&e.code, token_at(text, offset)),
                )
            }
        };
        let body = body_at(&locate::outline(text), offset);
        error(Some(position), body, problem)
    })?;

    // Pass 3: what the values mean, then whether they can be simulated.
    match build_shapes(&def).and_then(|shapes| check_ranges(&def).map(|()| shapes)) {
        Ok(shapes) => Ok(Scene { def, shapes }),
        Err(BuildError { body, path, problem }) => {
            let root = locate::outline(text);
            let node = root.deepest(&path);
            let body = body.map(|index| BodyRef {
                index,
                name: def.bodies.get(index).and_then(|b| b.name.clone()),
            });
            Err(error(Some(position_of(text, node.start)), body, problem))
        }
    }
}

/// The RON dialect of scene files: plain RON plus `implicit_some`, so an optional value
/// is written bare (`name: "ground"`) rather than `name: Some("ground")`.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Only the version; every other field is skipped unread.
#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

/// Whether this build can read format `version`.
pub(crate) fn version_problem(version: u32) -> Option<SceneProblem> {
    match version {
        FORMAT_VERSION => None,
        v if v > FORMAT_VERSION => Some(SceneProblem::NewerVersion {
            found: v,
            supported: FORMAT_VERSION,
        }),
        v => Some(SceneProblem::UnknownVersion { found: v }),
    }
}

fn position_of(text: &str, offset: usize) -> TextPosition {
    let (line, column) = locate::line_column(text, offset);
    TextPosition { line, column }
}

/// The body whose text contains byte `offset`, with its name if the scanner could read
/// it. Used for RON's errors, which know positions but not bodies.
fn body_at(root: &Node, offset: usize) -> Option<BodyRef> {
    let bodies = root.child(Step::Field("bodies"))?;
    if offset < bodies.start || offset > bodies.end {
        return None;
    }
    let (index, body) = bodies
        .children
        .iter()
        .enumerate()
        .rev()
        .find(|(_, (_, body))| body.start <= offset)
        .map(|(index, (_, body))| (index, body))?;
    let name_node = body.child(Step::Field("name"));
    // `name: "x"` or `name: Some("x")`.
    let name = name_node.and_then(|n| n.string.clone().or_else(|| n.child(Step::Index(0))?.string.clone()));
    Some(BodyRef { index, name })
}

/// The token starting at byte `offset` (up to a delimiter or 40 bytes), for messages.
fn token_at(text: &str, offset: usize) -> &str {
    let rest = text.get(offset..).unwrap_or("").trim_start();
    let end = rest
        .char_indices()
        .find(|&(i, c)| i >= 40 || c.is_whitespace() || matches!(c, ',' | ')' | ']' | '}' | '('))
        .map_or(rest.len(), |(i, _)| i);
    &rest[..end]
}
