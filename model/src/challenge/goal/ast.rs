//! A goal's syntax tree (conditions joined by `||` and `&&`), the subjects and settings a
//! condition may name, and the names the text gives them: the model's own serde names, so
//! the goal language cannot drift from the scenario and counter formats.

use crate::action::{ProcKind, Step};
use crate::db::{sqlstate, LockMode};
use crate::scenario::{ApiMode, RelayMode, ScriptStmt, WorkerMode};
use crate::world::{Cause, Counters};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// How a counter is read from [`Counters`].
pub(super) type ReadCounter = fn(&Counters) -> u64;

/// Every field of [`Counters`], by its JSON name (a unit test checks the list against
/// serde both ways, so a new counter cannot be left out or misread).
pub(super) const COUNTERS: [(&str, ReadCounter); 22] = [
    ("tasks_in_db", |c| c.tasks_in_db),
    ("events_in_outbox", |c| c.events_in_outbox),
    ("events_unpublished", |c| c.events_unpublished),
    ("queue_adds", |c| c.queue_adds),
    ("queue_dedup_hits", |c| c.queue_dedup_hits),
    ("queue_jobs", |c| c.queue_jobs),
    ("deliveries", |c| c.deliveries),
    ("effects", |c| c.effects),
    ("lost", |c| c.lost),
    ("duplicate_deliveries", |c| c.duplicate_deliveries),
    ("duplicate_effects", |c| c.duplicate_effects),
    ("phantoms", |c| c.phantoms),
    ("reordered", |c| c.reordered),
    ("stuck", |c| c.stuck),
    ("oldest_unpublished_age_ticks", |c| {
        c.oldest_unpublished_age_ticks
    }),
    ("in_flight", |c| c.in_flight),
    ("balance", |c| c.balance),
    ("tick", |c| c.tick),
    ("wal_retained", |c| c.wal_retained),
    ("dead_lettered", |c| c.dead_lettered),
    ("duplicate_tasks", |c| c.duplicate_tasks),
    ("failed_needs_retry", |c| c.failed_needs_retry),
];

/// The SQLSTATEs the model can answer with (`db::sqlstate`): a code outside this list
/// could never be seen, so it is refused as a likely typo.
pub(super) const SQLSTATES: [&str; 5] = [
    sqlstate::INSUFFICIENT_PRIVILEGE,
    sqlstate::LOCK_NOT_AVAILABLE,
    sqlstate::DEADLOCK_DETECTED,
    sqlstate::IN_FAILED_TRANSACTION,
    sqlstate::UNIQUE_VIOLATION,
];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Expr {
    /// At least two alternatives, none of them an `Any`.
    Any(Vec<Expr>),
    /// At least two conjuncts, none of them an `All`.
    All(Vec<Expr>),
    Cond(Cond),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Cond {
    Settled,
    Count {
        of: Count,
        op: Op,
        value: u64,
    },
    /// `op` is `==` or `!=`.
    Is {
        setting: Setting,
        op: Op,
    },
    Killed {
        kind: ProcKind,
        step: Step,
    },
    Refused {
        stmt: ScriptStmt,
        sqlstate: &'static str,
        /// Only a statement stepped by hand (`refused_by_hand`), not one Play ran.
        by_hand: bool,
    },
    /// `symptom_by(cause)`: the symptom happened to some event, caused by a match of
    /// `cause` (see `world/cause.rs`).
    By {
        symptom: Symptom,
        cause: CauseMatch,
    },
}

/// What happened to an event, in a `…_by(cause)` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Symptom {
    /// The event is lost; the act that made it so matches.
    Lost,
    /// The event is a phantom (its task aborted, a job made for it).
    Phantom,
    /// The event's task was rolled back (or its writer died before COMMIT).
    Aborted,
    /// The business action ran again after the blow.
    DuplicateEffect,
    /// The event was delivered again after the blow.
    Redelivered,
    /// The event was added to the queue again after the blow (a jobId dedup hit or a
    /// second job).
    Republished,
}

/// The conditions' names for each symptom, as the text spells them.
pub(super) const SYMPTOMS: [(&str, Symptom); 6] = [
    ("lost_by", Symptom::Lost),
    ("phantom_by", Symptom::Phantom),
    ("aborted_by", Symptom::Aborted),
    ("duplicate_effect_by", Symptom::DuplicateEffect),
    ("redelivered_by", Symptom::Redelivered),
    ("republished_by", Symptom::Republished),
];

/// A cause as a goal names it: a kill or a process's own step (of a kind, at a step or
/// at any), or a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum CauseMatch {
    Kill(ProcKind, Option<Step>),
    Ran(ProcKind, Option<Step>),
    RedisFlush,
    RedisRestart,
    Stalled,
    Operator,
}

/// The causes without arguments, as the text spells them.
pub(super) const PLAIN_CAUSES: [(&str, CauseMatch); 4] = [
    ("redis_flush", CauseMatch::RedisFlush),
    ("redis_restart", CauseMatch::RedisRestart),
    ("stalled", CauseMatch::Stalled),
    ("operator", CauseMatch::Operator),
];

impl CauseMatch {
    pub(super) fn matches(self, c: Cause) -> bool {
        let at = |want: Option<Step>, step: Step| want.is_none_or(|w| w == step);
        match (self, c) {
            (CauseMatch::Kill(k, s), Cause::Kill { kind, step }) => k == kind && at(s, step),
            (CauseMatch::Ran(k, s), Cause::Ran { kind, step }) => k == kind && at(s, step),
            (CauseMatch::RedisFlush, Cause::RedisFlush)
            | (CauseMatch::RedisRestart, Cause::RedisRestart)
            | (CauseMatch::Stalled, Cause::Stalled)
            | (CauseMatch::Operator, Cause::Operator) => true,
            _ => false,
        }
    }
}

/// A subject compared as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Count {
    /// An index into [`COUNTERS`].
    Counter(usize),
    TasksTotal,
    KillSteps(ProcKind),
    Relays,
    Workers,
}

/// A configuration key with the value it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Setting {
    Api(ApiMode),
    Worker(WorkerMode),
    RelayMode(RelayMode),
    RelayLock(LockMode),
    Cdc(bool),
    CleanerPublishedOnly(bool),
}

/// The keys of [`Setting`], as the text spells them.
pub(super) const SETTING_KEYS: [&str; 6] = [
    "api",
    "worker",
    "relay_mode",
    "relay_lock",
    "cdc",
    "cleaner_published_only",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Op {
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

impl Op {
    pub(super) fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Lt => "<",
        }
    }

    pub(super) fn compare(self, a: u64, b: u64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Ge => a >= b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Lt => a < b,
        }
    }
}

pub(super) fn count_conditions(e: &Expr) -> usize {
    match e {
        Expr::Any(v) | Expr::All(v) => v.iter().map(count_conditions).sum(),
        Expr::Cond(_) => 1,
    }
}

// ---- names ------------------------------------------------------------------------

/// An enum value by its snake_case JSON name (the model's own serde names).
pub(super) fn from_name<T: DeserializeOwned>(name: &str) -> Option<T> {
    // Through JSON text, as `read::typed` does (the page's wasm holds those readers).
    serde_json::from_str(&serde_json::Value::String(name.to_string()).to_string()).ok()
}

/// An enum value's snake_case JSON name.
pub(super) fn name_of<T: Serialize + fmt::Debug>(v: &T) -> String {
    let text = serde_json::to_string(v).unwrap_or_default();
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{v:?}"),
    }
}

pub(super) fn counter_index(name: &str) -> Option<usize> {
    COUNTERS.iter().position(|(n, _)| *n == name)
}

pub(super) fn setting_key(name: &str) -> Option<&'static str> {
    SETTING_KEYS.iter().copied().find(|k| *k == name)
}

/// The value `word` of the setting `key`, if it is one.
pub(super) fn setting_value(key: &str, word: &str) -> Option<Setting> {
    let flag = match word {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match key {
        "api" => from_name(word).map(Setting::Api),
        "worker" => from_name(word).map(Setting::Worker),
        "relay_mode" => from_name(word).map(Setting::RelayMode),
        "relay_lock" => from_name(word).map(Setting::RelayLock),
        "cdc" => flag.map(Setting::Cdc),
        "cleaner_published_only" => flag.map(Setting::CleanerPublishedOnly),
        _ => None,
    }
}

pub(super) fn setting_text(s: Setting) -> (&'static str, String) {
    match s {
        Setting::Api(v) => ("api", name_of(&v)),
        Setting::Worker(v) => ("worker", name_of(&v)),
        Setting::RelayMode(v) => ("relay_mode", name_of(&v)),
        Setting::RelayLock(v) => ("relay_lock", name_of(&v)),
        Setting::Cdc(v) => ("cdc", v.to_string()),
        Setting::CleanerPublishedOnly(v) => ("cleaner_published_only", v.to_string()),
    }
}
