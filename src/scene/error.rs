//! The one error value every scene operation returns, with its place in the file.

use crate::geometry::ShapeError;
use std::fmt;

/// Why a scene could not be loaded, built or saved, and where.
///
/// Displayed as `file:line:column: body 2 ("star"): what is wrong`; the position and
/// the body are left out when they do not apply (an unreadable file has no line; a
/// syntax error in `settings` is in no body).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct SceneError {
    /// The file's path, or the name given to [`super::parse`].
    pub source_name: String,
    /// Where in the text: the offending value itself when it is written out, otherwise
    /// the closest enclosing value (the body, for a defaulted field).
    pub position: Option<TextPosition>,
    /// The body the problem is in, if any.
    pub body: Option<BodyRef>,
    /// What is wrong.
    pub problem: SceneProblem,
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextPosition {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

/// Which body: its index in the `bodies` list (from 0, file order) and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyRef {
    /// Index in the file's `bodies` list.
    pub index: usize,
    /// The body's `name`, when it has one (and it could be read).
    pub name: Option<String>,
}

/// What is wrong with a scene.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SceneProblem {
    /// The file could not be read or written.
    Io {
        /// What the operating system said, with what we were doing.
        message: String,
    },
    /// The file is larger than [`super::MAX_FILE_BYTES`]; it was not read.
    TooLarge {
        /// Its size in bytes.
        bytes: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    NotUtf8,
    /// The text is not valid RON (RON's own message).
    Syntax {
        /// What the RON parser expected or found.
        message: String,
    },
    /// A string literal with no closing quote: it runs to the end of the file.
    UnterminatedString {
        /// Line of its opening quote, from 1.
        line: usize,
        /// Column of its opening quote, in characters from 1.
        column: usize,
    },
    /// A field that the format does not have (often a typo).
    UnknownField {
        /// The field as written.
        field: String,
        /// The fields allowed there.
        expected: Vec<String>,
    },
    /// A required field is missing.
    MissingField {
        /// The field's name.
        field: String,
    },
    /// A field is written twice.
    DuplicateField {
        /// The field's name.
        field: String,
    },
    /// An enum value that does not exist (`kind: Floating`, `Square(…)`).
    UnknownVariant {
        /// The value as written.
        found: String,
        /// The values allowed there.
        expected: Vec<String>,
    },
    /// A value of the wrong type (a string where a number belongs).
    WrongType {
        /// What the format wants there.
        expected: String,
        /// What the file has.
        found: String,
    },
    /// The file was written by a newer Collision Lab (a higher format version).
    NewerVersion {
        /// The file's version.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// A version number no Collision Lab ever wrote (0).
    UnknownVersion {
        /// The file's version.
        found: u32,
    },
    /// A number outside its allowed range: NaN, infinite, negative density, …
    InvalidValue {
        /// The field (`density`, `position`, `gravity`).
        field: &'static str,
        /// The value as read.
        value: String,
        /// What it must be (`positive`, `finite`, `in [0, 1]`).
        rule: &'static str,
    },
    /// The shape cannot be built (bad radius, self-intersecting polygon, …).
    Shape(ShapeError),
    /// A lesson block names a body the scene does not have.
    NoSuchBody {
        /// The index written.
        index: usize,
        /// How many bodies the scene has.
        count: usize,
    },
    /// A lesson block asks for something its bodies cannot do (vertices for a circle,
    /// the same body twice).
    InvalidLesson {
        /// What is wrong, in the format's words.
        message: String,
    },
    /// A state block that cannot belong to its bodies (a slot used twice, a contact
    /// naming a missing body, a normal that is not unit length).
    InvalidState {
        /// What is wrong, in the format's words.
        message: String,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.source_name)?;
        if let Some(TextPosition { line, column }) = self.position {
            write!(f, "{line}:{column}:")?;
        }
        if let Some(body) = &self.body {
            write!(f, " body {}", body.index)?;
            if let Some(name) = &body.name {
                write!(f, " ({name:?})")?;
            }
            write!(f, ":")?;
        }
        write!(f, " {}", self.problem)
    }
}

impl fmt::Display for SceneProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneProblem::Io { message } => f.write_str(message),
            SceneProblem::TooLarge { bytes, limit } => write!(
                f,
                "the file is too large to be a scene: {bytes} bytes (the limit is {} MiB)",
                limit / (1024 * 1024)
            ),
            SceneProblem::NotUtf8 => f.write_str("the file is not UTF-8 text"),
            SceneProblem::Syntax { message } => write!(f, "syntax error: {message}"),
            SceneProblem::UnterminatedString { line, column } => {
                write!(f, "unterminated string starting at line {line}, column {column}")
            }
            SceneProblem::UnknownField { field, expected } => {
                write!(f, "unknown field `{field}`")?;
                write_expected(f, expected)
            }
            SceneProblem::MissingField { field } => write!(f, "missing field `{field}`"),
            SceneProblem::DuplicateField { field } => write!(f, "field `{field}` is given twice"),
            SceneProblem::UnknownVariant { found, expected } => {
                write!(f, "unknown value `{found}`")?;
                write_expected(f, expected)
            }
            SceneProblem::WrongType { expected, found } => write!(f, "expected {expected}, found {found}"),
            SceneProblem::NewerVersion { found, supported } => write!(
                f,
                "this scene was made by a newer Collision Lab (format version {found}; this one reads version {supported}); please update Collision Lab"
            ),
            SceneProblem::UnknownVersion { found } => {
                write!(f, "unknown format version {found} (this Collision Lab reads version 1)")
            }
            SceneProblem::InvalidValue { field, value, rule } => write!(f, "{field} must be {rule}, got {value}"),
            SceneProblem::Shape(e) => write!(f, "{e}"),
            SceneProblem::NoSuchBody { index, count } => {
                write!(f, "lesson: there is no body {index} (the scene has {count}")?;
                write!(f, " bod{})", if *count == 1 { "y" } else { "ies" })
            }
            SceneProblem::InvalidLesson { message } => write!(f, "lesson: {message}"),
            SceneProblem::InvalidState { message } => write!(f, "state: {message}"),
        }
    }
}

fn write_expected(f: &mut fmt::Formatter<'_>, expected: &[String]) -> fmt::Result {
    match expected {
        [] => Ok(()),
        [one] => write!(f, " (expected `{one}`)"),
        many => {
            write!(f, " (expected one of ")?;
            for (i, name) in many.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "`{name}`")?;
            }
            write!(f, ")")
        }
    }
}

impl SceneProblem {
    /// Translates a RON error code into the format's own words, so that messages name
    /// fields and values as the file does, not as Rust types.
    /// `found` is the text at the error's position, for the "expected a number, found
    /// …" messages RON itself words as bare syntax errors.
    pub(crate) fn from_ron(code: &ron::Error, found: &str) -> SceneProblem {
        let wrong_type = |expected: &str| SceneProblem::WrongType {
            expected: expected.to_string(),
            found: format!("`{found}`"),
        };
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        match code {
            ron::Error::NoSuchStructField { expected, found, .. } => SceneProblem::UnknownField {
                field: found.clone(),
                expected: names(expected),
            },
            ron::Error::MissingStructField { field, .. } => SceneProblem::MissingField {
                field: field.to_string(),
            },
            ron::Error::DuplicateStructField { field, .. } => SceneProblem::DuplicateField {
                field: field.to_string(),
            },
            ron::Error::NoSuchEnumVariant { expected, found, .. } => SceneProblem::UnknownVariant {
                found: found.clone(),
                expected: names(expected),
            },
            ron::Error::InvalidValueForType { expected, found } => SceneProblem::WrongType {
                expected: expected.clone(),
                found: found.clone(),
            },
            ron::Error::ExpectedFloat | ron::Error::ExpectedInteger if !found.is_empty() => wrong_type("a number"),
            ron::Error::ExpectedString | ron::Error::ExpectedStringEnd if !found.is_empty() => wrong_type("a string"),
            ron::Error::ExpectedBoolean if !found.is_empty() => wrong_type("true or false"),
            other => SceneProblem::Syntax {
                message: other.to_string(),
            },
        }
    }
}
