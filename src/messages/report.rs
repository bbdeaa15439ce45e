//! What a check found: [`Problem`]s and [`StreamWarning`]s, each located by the message's index
//! and a JSON Pointer inside it, gathered in a [`Report`].

use crate::error::{Error, ErrorCode, Warning};
use std::fmt;

/// One problem of a stream: where it is (the message's index, a JSON Pointer inside the
/// message) and what it is (an [`Error`], whose location is that pointer). A view of that
/// [`Error`]: in a [`Report`], its [`message_index`](Error::message_index) is
/// [`index`](Problem::index) and its [`category`](Error::category) the A2UI suite's.
pub struct Problem {
    pub(super) index: Option<usize>,
    pub(super) error: Error,
}

impl Problem {
    /// The index of the message in the stream (0-based); `None` for a problem of the stream as
    /// a whole (an array of messages that is not closed).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// A JSON Pointer inside the message (`""`: the message itself).
    pub fn pointer(&self) -> &str {
        self.error.location()
    }

    /// The code.
    pub fn code(&self) -> ErrorCode {
        self.error.code()
    }

    /// The catalog function involved, when there is one.
    pub fn function(&self) -> Option<&str> {
        self.error.function()
    }

    /// What is wrong, without code or location.
    pub fn message(&self) -> &str {
        self.error.message()
    }

    /// The whole error.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The error, its location being the pointer inside the message, its
    /// [`message_index`](Error::message_index) the message's index (in a [`Report`]).
    pub fn into_error(self) -> Error {
        self.error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "message {i}")?,
            None => f.write_str("stream")?,
        }
        let at = self.pointer();
        write!(
            f,
            " at {}: {}",
            if at.is_empty() { "/" } else { at },
            self.code()
        )?;
        if let Some(function) = self.function() {
            write!(f, " in {function}")?;
        }
        write!(f, ": {}", self.message())
    }
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("index", &self.index)
            .field("error", &self.error)
            .finish()
    }
}

/// A warning of a stream: where it is (the message's index, a JSON Pointer inside the message)
/// and what it is (a [`Warning`], whose location is that pointer). Warnings never make a stream
/// fail its check.
#[derive(Debug, Clone)]
pub struct StreamWarning {
    pub(super) index: usize,
    pub(super) warning: Warning,
}

impl StreamWarning {
    /// The index of the message in the stream (0-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// A JSON Pointer inside the message.
    pub fn pointer(&self) -> &str {
        self.warning.location()
    }

    /// What looks wrong and what to do.
    pub fn message(&self) -> &str {
        self.warning.message()
    }

    /// The whole warning.
    pub fn warning(&self) -> &Warning {
        &self.warning
    }
}

impl fmt::Display for StreamWarning {
    /// `message 1 at /updateComponents/components/0/text: warning OTHER_SPELLING: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.pointer();
        write!(
            f,
            "message {} at {}: warning {}: {}",
            self.index,
            if at.is_empty() { "/" } else { at },
            self.warning.code(),
            self.message()
        )
    }
}

/// What a stream check found.
#[derive(Debug, Default)]
pub struct Report {
    pub(super) messages: usize,
    pub(super) problems: Vec<Problem>,
    pub(super) warnings: Vec<StreamWarning>,
}

impl Report {
    /// How many messages the stream has (readable or not).
    pub fn message_count(&self) -> usize {
        self.messages
    }

    /// Every problem, in stream order.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Every warning, in stream order.
    pub fn warnings(&self) -> &[StreamWarning] {
        &self.warnings
    }

    /// Whether no problem was found (there may be warnings).
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, owned.
    pub fn into_problems(self) -> Vec<Problem> {
        self.problems
    }
}

impl fmt::Display for Report {
    /// One problem a line, one warning a line, then `N messages, M problems` (and `, K
    /// warnings` when there are some).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for problem in &self.problems {
            writeln!(f, "{problem}")?;
        }
        for warning in &self.warnings {
            writeln!(f, "{warning}")?;
        }
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} message{}, {} problem{}",
            self.messages,
            plural(self.messages),
            self.problems.len(),
            plural(self.problems.len())
        )?;
        if !self.warnings.is_empty() {
            write!(
                f,
                ", {} warning{}",
                self.warnings.len(),
                plural(self.warnings.len())
            )?;
        }
        Ok(())
    }
}
