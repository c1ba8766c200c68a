//! `outbox-model`: a pure, deterministic model of the transactional outbox.
//!
//! The world holds PostgreSQL (tasks, outbox, inbox), a BullMQ-like queue, and processes —
//! client, API, relays, workers — written as programs of labelled steps. Every label is a
//! kill point. Faults are actions. One seeded PRNG decides the interleaving, so a scenario
//! and its seed replay exactly. An auditor, kept apart from the process code, keeps each
//! event's life and the counters the page shows: lost, duplicated, phantom.

/// `Clone` for a struct, field by field, with a `clone_from` that hands each field its
/// own `clone_from`: a `Vec` refills its buffer instead of allocating a new one. The
/// explorer recycles the worlds of merged states with it (most of its time went to malloc
/// and free). The struct literal in `clone` lists every field, so a field added to the
/// struct but not here is a compile error, not a field silently left stale.
/// `then method(fields)`: those fields are cloned as usual, but `clone_from` leaves them
/// to `self.method(source)`.
macro_rules! clone_reusing {
    ($t:ident { $($f:ident),* $(,)? } $(then $m:ident($($g:ident),*))?) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone(),)* $($($g: self.$g.clone(),)*)? }
            }
            fn clone_from(&mut self, source: &Self) {
                $(self.$f.clone_from(&source.$f);)*
                $(self.$m(source);)?
            }
        }
    };
}

pub mod action;
pub mod auditor;
pub mod challenge;
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
