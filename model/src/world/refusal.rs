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
    /// `Action::RetryJob` of an event with no job in Redis: never added, or deleted
    /// (`removeOnFail`, a count, a flush). BullMQ: "Missing key for job".
    NoJobToRetry { event: u32 },
    /// `Action::RetryJob` of a job that is not in the failed set (waiting, active or
    /// completed; or Redis is down). BullMQ: "Job … is not in the failed state".
    JobNotFailed { event: u32 },
    /// `Action::RetryJob` while Redis is down: the command does not reach it.
    RetryWhileRedisDown { event: u32 },
}

impl Refusal {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::NoSuchProcess { .. } => "no_such_process",
            Refusal::CannotStep { .. } => "cannot_step",
            Refusal::NoJobToRetry { .. } => "no_job_to_retry",
            Refusal::JobNotFailed { .. } => "job_not_failed",
            Refusal::RetryWhileRedisDown { .. } => "retry_while_redis_down",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoSuchProcess { name } => write!(f, "no process named {name:?}"),
            Refusal::CannotStep { process } => write!(f, "{process} cannot run a step now"),
            Refusal::NoJobToRetry { event } => {
                write!(f, "h-{event} has no job to retry (removed, or never added)")
            }
            Refusal::JobNotFailed { event } => write!(f, "h-{event}'s job is not failed"),
            Refusal::RetryWhileRedisDown { event } => {
                write!(f, "Redis is down: h-{event}'s job cannot be retried now")
            }
        }
    }
}

impl std::error::Error for Refusal {}
