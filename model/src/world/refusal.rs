//! Why the world refuses a user's or a file's action ([`World::apply`](super::World::apply)),
//! as data: the page words it through [`Refusal::code`] in the reader's language (as it
//! does the challenge format's errors); `Display` (English) is for logs and tests only.

use std::fmt;

/// An action the world did not take; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The action names a process this world does not run.
    NoSuchProcess { name: String },
    /// `Action::Step` of a process that cannot run now (dead, blocked, asleep, done).
    CannotStep { process: String },
}

impl Refusal {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NoSuchProcess { .. } => "no_such_process",
            Refusal::CannotStep { .. } => "cannot_step",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoSuchProcess { name } => write!(f, "no process named {name:?}"),
            Refusal::CannotStep { process } => write!(f, "{process} cannot run a step now"),
        }
    }
}

impl std::error::Error for Refusal {}
