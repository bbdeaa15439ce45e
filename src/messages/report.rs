//! What a check found ([`Report`]): every problem a located [`Error`], every warning a located
//! [`Warning`], each with its message's index ([`Error::message_index`],
//! [`Warning::message_index`]) and a JSON Pointer inside that message (their `location`).

use crate::error::{Error, Warning};
use std::fmt;

/// What a stream check found.
#[derive(Debug, Default)]
pub struct Report {
    pub(super) messages: usize,
    pub(super) problems: Vec<Error>,
    pub(super) warnings: Vec<Warning>,
}

impl Report {
    /// How many messages the stream has (readable or not).
    pub fn message_count(&self) -> usize {
        self.messages
    }

    /// Every problem, in stream order: each has its message's
    /// [`message_index`](Error::message_index) (none for a problem of the stream as a whole, an
    /// array of messages that is not closed), its [`location`](Error::location) a JSON Pointer
    /// inside that message, and the A2UI suite's [`category`](Error::category).
    pub fn problems(&self) -> &[Error] {
        &self.problems
    }

    /// Every warning, in stream order, each with its message's
    /// [`message_index`](Warning::message_index).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Whether no problem was found (there may be warnings).
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, owned.
    pub fn into_problems(self) -> Vec<Error> {
        self.problems
    }
}

impl fmt::Display for Report {
    /// One problem a line, one warning a line, then `N messages, M problems` (and `, K
    /// warnings` when there are some).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for problem in &self.problems {
            match problem.message_index() {
                Some(_) => writeln!(f, "{problem}")?,
                // A problem of the stream as a whole says so where a message's says which.
                None => writeln!(
                    f,
                    "stream at {}: {}: {}",
                    if problem.location().is_empty() {
                        "/"
                    } else {
                        problem.location()
                    },
                    problem.code(),
                    problem.message()
                )?,
            }
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
