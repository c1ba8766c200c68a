//! The truth suite's harness: the two sides and the fixture that runs a step on both.
//!
//! `pg` drives a real PostgreSQL (one connection and thread per session), `model` drives
//! `outbox_model::db::Db` (one transaction per session), and `twin::Twin` holds one of each
//! plus the scenario's name and printed log, so a scenario (`let mut b = Twin::new(..)`)
//! reads as its steps: `b.tx(..)`, `b.poll(..)`, `b.check(step, |pg| .., |m| ..)`. Every
//! step's two answers are printed and must agree; that printed table is what people read.

mod model;
mod pg;
mod twin;

pub use model::Model;
pub use pg::{event_params, limit, uuid, Param, Pg};
pub use twin::Twin;

/// One observable answer to one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Statement done; no rows to compare.
    Ok,
    /// Ids (or values) returned, in order.
    Rows(Vec<i64>),
    /// Rows changed.
    Count(u64),
    /// SQLSTATE.
    Err(String),
    /// Waiting for these sessions.
    Waits(Vec<String>),
}

/// The session of the one-session scenarios.
pub const S: &str = "s1";

/// One day in seconds: the retention scenarios run the model's clock in seconds.
pub const DAY: i64 = 86_400;
