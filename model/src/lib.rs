//! `outbox-model`: a pure, deterministic model of the transactional outbox.
//!
//! The world holds PostgreSQL (tasks, outbox, inbox), a BullMQ-like queue, and processes —
//! client, API, relays, workers — written as programs of labelled steps. Every label is a
//! kill point. Faults are actions. One seeded PRNG decides the interleaving, so a scenario
//! and its seed replay exactly. An auditor, kept apart from the process code, keeps each
//! event's life and the counters the page shows: lost, duplicated, phantom.

pub mod action;
pub mod auditor;
pub mod db;
pub mod explore;
pub mod ids;
pub mod json_edit;
pub mod lesson;
pub mod queue;
pub mod rng;
pub mod scenario;
pub mod sql;
pub mod view;
pub mod world;

pub use auditor::Class;
pub use ids::{EventId, EventKind, ProcId};
pub use scenario::{preset, presets, Scenario};
pub use world::{Action, CheckLevel, Counters, Step, World};

/// Runs a scenario to its end and returns the world.
pub fn run(s: &Scenario) -> World {
    let mut w = World::new(s);
    w.run(s.max_ticks);
    w
}
