//! Where things are in a RON text: a small, forgiving scanner that records the byte
//! offset of every value and, inside `( … )` and `[ … ]`, of every field and element.
//!
//! Why not ask the RON parser? It reports positions only for its own errors; a value
//! that parses fine but means something invalid (a negative radius, a polygon that
//! crosses itself) arrives with no position at all. So after parsing, the loader looks
//! the offending value up here by path (`bodies[3].shape.radius`) and reports its line
//! and column.
//!
//! The scanner understands just enough RON to never lose its place: strings (escaped,
//! raw `r#"…"#`, byte), character literals, line comments and nested block comments,
//! `#![enable(…)]` attributes, and the three kinds of brackets. On text it does not
//! understand (a syntax error) it stops and keeps what it has, which is still enough to
//! say which body the error is in. It never panics, and nesting deeper than
//! [`MAX_DEPTH`] stops it instead of overflowing the stack.

/// Deeper nesting than this stops the scanner (RON's parser refuses much less: 128).
const MAX_DEPTH: usize = 256;

/// A value in the text: where it starts and ends (byte offsets) and what it contains.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    /// Offset of the value's first byte (the identifier of `Polygon(…)`).
    pub start: usize,
    /// Offset just past the value; for a value cut short by an error, where scanning
    /// stopped.
    pub end: usize,
    /// Named fields and positional elements, in text order.
    pub children: Vec<(Key, Node)>,
    /// The contents of a string literal, when the value is one.
    pub string: Option<String>,
}

/// How a child is reached from its parent.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Key {
    /// `name: value` inside parentheses.
    Field(String),
    /// The i-th unnamed element of a list, tuple or map.
    Index(usize),
}

/// One step of a path from the root value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Step<'a> {
    /// A named field.
    Field(&'a str),
    /// An unnamed element.
    Index(usize),
}

impl Node {
    /// The child reached by `step`.
    pub fn child(&self, step: Step<'_>) -> Option<&Node> {
        self.children
            .iter()
            .find(|(key, _)| match (key, step) {
                (Key::Field(name), Step::Field(wanted)) => name == wanted,
                (Key::Index(i), Step::Index(wanted)) => *i == wanted,
                _ => false,
            })
            .map(|(_, node)| node)
    }

    /// The deepest node along `path` that exists: the value itself when the whole path is
    /// found, otherwise its closest written ancestor (a defaulted field has no text).
    /// An explicit `Some(…)` around a value (`lesson: Some((…))`) is looked through: a
    /// field not found in a node whose only child is unnamed is looked for in that child.
    pub fn deepest<'n>(&'n self, path: &[Step<'_>]) -> &'n Node {
        let mut node = self;
        for step in path {
            match node.child(*step) {
                Some(next) => node = next,
                None => match (step, node.children.as_slice()) {
                    (Step::Field(_), [(Key::Index(0), inner)]) => match inner.child(*step) {
                        Some(next) => node = next,
                        None => break,
                    },
                    _ => break,
                },
            }
        }
        node
    }
}

/// Scans `text` and returns the outline of its top-level value.
pub(crate) fn outline(text: &str) -> Node {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
        stopped: false,
    };
    scanner.skip_trivia();
    scanner.skip_attributes();
    scanner.value(0)
}

/// Where the string literal that runs to the end of `text` starts (its opening quote,
/// or the `r`/`b` before it), if there is one. RON only says "expected end of string",
/// at the point where it gave up (an escape in the middle of the string, say); this
/// lexes the text from the start, past comments, character literals and closed
/// strings, to the string that never closes.
pub(crate) fn unterminated_string(text: &str) -> Option<usize> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
        stopped: false,
    };
    loop {
        scanner.skip_trivia();
        if scanner.stopped {
            return None; // an unclosed block comment
        }
        let start = scanner.pos;
        match (scanner.peek()?, scanner.peek_at(1)) {
            (b'"', _) => {
                let _ = scanner.string_literal();
            }
            (b'b', Some(b'"')) => {
                scanner.pos += 1;
                let _ = scanner.string_literal();
            }
            (b'r', Some(b'"' | b'#')) if scanner.raw_string_ahead() => {
                let _ = scanner.raw_string();
            }
            (b'\'', _) => scanner.char_literal(),
            (b, _) if is_ident_start(b) => scanner.identifier(),
            _ => scanner.pos += 1,
        }
        if scanner.stopped {
            return (text.as_bytes()[start] != b'\'').then_some(start);
        }
    }
}

/// Line and column (both 1-based; the column counts characters, as RON's errors do) of
/// byte `offset` in `text`. Offsets past the end or inside a character are clamped.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = 1 + before[line_start..].chars().count();
    (line, column)
}

/// Byte offset of a 1-based line and character column (the inverse of [`line_column`]),
/// clamped to the text.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut line_start = 0;
    for _ in 1..line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[line_start..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let within = rest[..line_end]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line_end, |(i, _)| i);
    line_start + within
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Set on the first thing not understood; every loop then unwinds.
    stopped: bool,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    /// Skips whitespace, `// …` and nested `/* … */` comments.
    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(b), _) if b.is_ascii_whitespace() => self.pos += 1,
                (Some(b'/'), Some(b'/')) => {
                    while let Some(b) = self.peek() {
                        if b == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.pos += 2;
                    let mut depth = 1usize;
                    while depth > 0 {
                        match (self.peek(), self.peek_at(1)) {
                            (None, _) => {
                                self.stopped = true;
                                return;
                            }
                            (Some(b'/'), Some(b'*')) => {
                                depth += 1;
                                self.pos += 2;
                            }
                            (Some(b'*'), Some(b'/')) => {
                                depth -= 1;
                                self.pos += 2;
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Skips inner attributes such as `#![enable(implicit_some)]`.
    fn skip_attributes(&mut self) {
        while !self.stopped && self.peek() == Some(b'#') {
            self.pos += 1;
            if self.peek() == Some(b'!') {
                self.pos += 1;
            }
            self.skip_trivia();
            if self.peek() != Some(b'[') {
                self.stopped = true;
                return;
            }
            // The attribute's contents are scanned like a list and thrown away.
            let _ = self.value(0);
            self.skip_trivia();
        }
    }

    /// Scans one value starting at the current position (trivia already skipped).
    fn value(&mut self, depth: usize) -> Node {
        let start = self.pos;
        let mut node = Node {
            start,
            end: start,
            ..Node::default()
        };
        if depth > MAX_DEPTH {
            self.stopped = true;
            return node;
        }
        match self.peek() {
            None => self.stopped = true,
            Some(b'(') => self.group(&mut node, b')', depth),
            Some(b'[') => self.group(&mut node, b']', depth),
            Some(b'{') => self.group(&mut node, b'}', depth),
            Some(b'"') => node.string = self.string_literal(),
            Some(b'\'') => self.char_literal(),
            Some(b'b') if matches!(self.peek_at(1), Some(b'"') | Some(b'\'')) => {
                self.pos += 1;
                if self.peek() == Some(b'"') {
                    let _ = self.string_literal();
                } else {
                    self.char_literal();
                }
            }
            Some(b'r') if matches!(self.peek_at(1), Some(b'"') | Some(b'#')) && self.raw_string_ahead() => {
                node.string = self.raw_string()
            }
            Some(b) if is_ident_start(b) => {
                self.identifier();
                // `Name(…)`: a named struct, tuple struct or enum variant.
                let after_ident = self.pos;
                self.skip_trivia();
                if self.peek() == Some(b'(') {
                    self.group(&mut node, b')', depth);
                } else {
                    self.pos = after_ident;
                }
            }
            Some(b) if is_number_char(b) => {
                while self.peek().is_some_and(is_number_char) {
                    self.pos += 1;
                }
            }
            Some(_) => self.stopped = true,
        }
        node.end = self.pos;
        node
    }

    /// Scans a bracketed group whose opening bracket is at the current position:
    /// `name: value` entries become fields, other entries indexed elements (a map's
    /// `key: value` pair counts as one element, its key's position).
    fn group(&mut self, node: &mut Node, close: u8, depth: usize) {
        self.pos += 1;
        let mut index = 0;
        loop {
            self.skip_trivia();
            if self.stopped {
                return;
            }
            match self.peek() {
                None => {
                    self.stopped = true;
                    return;
                }
                Some(b) if b == close => {
                    self.pos += 1;
                    return;
                }
                _ => {}
            }
            let entry_start = self.pos;
            if let Some(name) = self.field_name() {
                self.skip_trivia();
                let child = self.value(depth + 1);
                node.children.push((Key::Field(name), child));
            } else {
                self.pos = entry_start;
                let mut child = self.value(depth + 1);
                self.skip_trivia();
                if close == b'}' && self.peek() == Some(b':') {
                    self.pos += 1;
                    self.skip_trivia();
                    let value = self.value(depth + 1);
                    child.end = value.end;
                }
                node.children.push((Key::Index(index), child));
                index += 1;
            }
            if self.stopped {
                return;
            }
            self.skip_trivia();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b) if b == close => {}
                _ => {
                    self.stopped = true;
                    return;
                }
            }
        }
    }

    /// If an identifier followed by `:` starts here, consumes both and returns the name.
    fn field_name(&mut self) -> Option<String> {
        let start = self.pos;
        if self.peek() == Some(b'r') && self.peek_at(1) == Some(b'#') {
            self.pos += 2;
        }
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        let name_start = self.pos;
        self.identifier();
        let name = String::from_utf8_lossy(&self.bytes[name_start..self.pos]).into_owned();
        self.skip_trivia();
        if self.peek() == Some(b':') {
            self.pos += 1;
            Some(name)
        } else {
            self.pos = start;
            None
        }
    }

    fn identifier(&mut self) {
        while self.peek().is_some_and(is_ident_continue) {
            self.pos += 1;
        }
    }

    /// A `"…"` literal; returns its contents with the common escapes undone.
    fn string_literal(&mut self) -> Option<String> {
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            match self.peek() {
                None => {
                    self.stopped = true;
                    return None;
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Some(String::from_utf8_lossy(&bytes).into_owned());
                }
                Some(b'\\') => {
                    let escaped = self.peek_at(1);
                    self.pos += 2;
                    match escaped {
                        Some(b'n') => bytes.push(b'\n'),
                        Some(b't') => bytes.push(b'\t'),
                        Some(b'"') => bytes.push(b'"'),
                        Some(b'\\') => bytes.push(b'\\'),
                        Some(other) => bytes.extend_from_slice(&[b'\\', other]),
                        None => {}
                    }
                }
                Some(b) => {
                    bytes.push(b);
                    self.pos += 1;
                }
            }
        }
    }

    /// A `'c'` literal (escapes included).
    fn char_literal(&mut self) {
        self.pos += 1;
        loop {
            match self.peek() {
                None => {
                    self.stopped = true;
                    return;
                }
                Some(b'\\') => self.pos += 2,
                Some(b'\'') => {
                    self.pos += 1;
                    return;
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// True when `r`, some `#`s and a `"` start here (and not an identifier like `r#x`).
    fn raw_string_ahead(&self) -> bool {
        let mut i = self.pos + 1;
        while self.bytes.get(i) == Some(&b'#') {
            i += 1;
        }
        self.bytes.get(i) == Some(&b'"')
    }

    /// A raw string `r#"…"#`.
    fn raw_string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut hashes = 0;
        while self.peek() == Some(b'#') {
            hashes += 1;
            self.pos += 1;
        }
        self.pos += 1;
        let content_start = self.pos;
        loop {
            match self.peek() {
                None => {
                    self.stopped = true;
                    return None;
                }
                Some(b'"') if (1..=hashes).all(|k| self.peek_at(k) == Some(b'#')) => {
                    let content = String::from_utf8_lossy(&self.bytes[content_start..self.pos]).into_owned();
                    self.pos += 1 + hashes;
                    return Some(content);
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Characters of number literals, `inf`/`NaN` aside (those scan as identifiers).
fn is_number_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_and_elements_past_strings_and_comments() {
        let text = "(\n  a: \"x, ) ]\", // (\n  /* [ /* nested */ */ b: [1, -2.5e3, Foo(c: 'x')],\n)";
        let root = outline(text);
        let b = root.child(Step::Field("b")).expect("b is found");
        let foo = b.child(Step::Index(2)).expect("third element");
        let c = foo.child(Step::Field("c")).expect("c in Foo");
        assert_eq!(&text[foo.start..foo.start + 3], "Foo");
        assert_eq!(&text[c.start..c.end], "'x'");
        assert_eq!(line_column(text, b.start), (3, 27));
    }

    #[test]
    fn keeps_what_it_found_before_a_syntax_error() {
        let root = outline("(bodies: [(x: 1), (y: @)]");
        let bodies = root.child(Step::Field("bodies")).expect("bodies");
        assert_eq!(bodies.children.len(), 2);
    }

    #[test]
    fn line_column_and_offset_are_inverse() {
        let text = "ab\nçd\n\nx";
        for offset in [0, 1, 3, 5, 6, 7, 8] {
            let (line, column) = line_column(text, offset);
            assert_eq!(offset_of(text, line, column), offset, "offset {offset}");
        }
    }

    #[test]
    fn finds_the_string_that_never_closes() {
        assert_eq!(unterminated_string(r#"(a: "x", b: "y)"#), Some(12));
        assert_eq!(
            unterminated_string("(a: \"q\\\"\", // \"\n b: r#\"x\"#, c: '\"', d: \"A"),
            Some(39)
        );
        assert_eq!(unterminated_string(r#"(a: "x\", b: 1)"#), Some(4));
        assert_eq!(unterminated_string("(a: r#\"x\"\n)"), Some(4));
        assert_eq!(unterminated_string(r#"(a: "x", b: 'y)"#), None);
        assert_eq!(unterminated_string(r#"(a: "x") /* "y"#), None);
        assert_eq!(unterminated_string(r#"(a: "x")"#), None);
    }

    #[test]
    fn deep_nesting_stops_instead_of_overflowing() {
        let text = "[".repeat(100_000);
        let _ = outline(&text);
    }
}
