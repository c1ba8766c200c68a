//! The explorer: a breadth-first search over every schedule of a small world, in the
//! manner of a model checker (stateright, TLC). At each state the choices are the
//! scheduler's (`Action::Step` of each runnable process), the crashes (`Action::Kill` of a
//! process while the kill budget lasts, followed by its `Action::Restart`) and, when
//! nothing can step but a timer is pending, the passing of time (`Action::Tick`). Equal
//! states are merged by a 128-bit hash of a canonical key ([`World::hash_state`] plus the
//! kills spent), so the search covers the whole bounded space once. For each property it
//! answers "holds over N states / M schedules" or gives the SHORTEST counterexample (fewest
//! choices): a [`Trace`] that replays with `World::new` and `World::apply`.
//!
//! # What is abstracted, and why it is still faithful
//! - **Time.** An `Action::Step` advances the tick by one; the tick is not part of the
//!   state. Every timer is kept relative to it ([`World::hash_state`]), and the designs'
//!   small configurations ([`Design::scenario`]) make the timers say nothing about order:
//!   a relay polls again at once (`poll_interval_ticks: 0`: in a real system a poll
//!   interval only spaces polls in time, and any other process may run any number of
//!   steps in between, which the search covers); a dead worker's BullMQ lock runs out at
//!   the next step (`lock_duration_ticks` = `stalled_interval_ticks` = 1: the stalled job
//!   goes back to wait as soon as anything moves, or at a `Tick` when nothing else can;
//!   while it waits for its lock nothing can take it, and an active job absorbs a
//!   republish just as a waiting one does). The times PostgreSQL stores
//!   (`yaratilgan_vaqt`, `tarqatilgan_vaqt`, `now()`) are not in the state: no statement of
//!   these designs compares them (there is no cleaner and no operator un-mark), only the
//!   `stuck` and age counters read them, and those are about time, not about loss or
//!   duplication.
//! - **Restarts.** A kill is followed at once by the restart of the same process
//!   (`restart_after_ticks: None` in the scenario; the trace holds both actions). A process
//!   that stays down is the same as one that is up and not scheduled: its memory, its
//!   transaction (rolled back) and its row locks go at the kill either way, and a dead API
//!   refusing the client is the client not being scheduled.
//! - **Idle polls.** A relay at `begin` is offered only when its `SELECT … FOR UPDATE
//!   SKIP LOCKED` could return a row (a committed, unpublished, unlocked one; for the other
//!   lock modes, any unpublished row). A poll begun earlier finds the same rows at its
//!   SELECT (READ COMMITTED takes a snapshot per statement, and `now()` is abstracted), and
//!   a poll that finds nothing commits an empty transaction: it changes no row, no job and
//!   no counter. Leaving those polls out keeps the state graph acyclic (an idle poll is the
//!   only step sequence that returns to the state it started from), so schedules can be
//!   counted.
//! - **The client** is the workload, not a part of the system: it is never killed (its
//!   death only abandons the answer to a request the API carries on with).
//! - **Forced steps** (partial-order reduction). A step that commutes with every other
//!   process's steps, changes no property, and whose kill is the same as the kill one step
//!   later, is taken as soon as it is enabled, inside the choice that enabled it: the
//!   client's `send` and `await`; every `begin` (an empty transaction); the API's `respond`
//!   (the event's fate is sealed by then; a kill there only turns the client's answer into
//!   an error, and the client does not retry); a relay's `mark_published` (a private write
//!   to rows it holds locked) and the `commit` of a poll that selected nothing; a worker's
//!   `action` (a private row; rolled-back `amallar` rows are not part of the state) and,
//!   with one worker, its `fetch` (a single consumer takes the oldest job whether or not a
//!   relay adds another meanwhile, and a republish is absorbed by an active job as by a
//!   waiting one) and `inbox_insert` (nobody else can hold that key).
//! - **Idle kills.** A kill of a process that holds nothing (no request, batch, job, or
//!   transaction that wrote or locked anything) changes nothing but the kill count; it is
//!   not offered.
//! - **Relay symmetry.** Relays share one program and one configuration: states that
//!   differ only by which relay is which are one state.
//! - **Lost.** `lost` counts events the auditor judged lost: committed, never acted on,
//!   and no retained state can still bring them to an effect. A job in BullMQ's failed set
//!   is not lost (class `Failed`: it waits for a retry, which `retried_once` checks at the
//!   terminal states). Only an operator (un-marking rows) can bring a lost event back, and
//!   the explorer takes no operator actions, so the verdict is checked at every state; the
//!   search counts any edge where `lost` went down ([`Report::lost_retracted`], 0 in
//!   every test).
//!
//! [`Explorer::unreduced`] runs the same search with none of these reductions (every
//! step, every kill, restarts as separate choices, every idle poll), and the tests check
//! that both reach exactly the same terminal outcomes and verdicts on small worlds.
//!
//! Properties use the auditor's own counters and classes: `lost` (class Lost),
//! `duplicate_effects`, `phantoms`, `conservation`
//! ([`crate::auditor::Auditor::check_conservation`]), and `invariants` (the world's other
//! named invariants at [`CheckLevel::Touched`]). They are checked after every choice,
//! before and after its forced steps.
//!
//! Memory: per state a 128-bit key in a hash table (`seen`), its parent and the choice that led to
//! it (a trace is rebuilt from parent pointers and replayed), its depth and its successors
//! (for counting schedules). Worlds are kept only for the frontier. The search runs in
//! slices ([`Explorer::run_slice`]) so a page can spread it over animation frames.
//!
//! Files: `design` (designs and bounds), `trace` (replayable counterexamples),
//! `property` (properties, verdicts, reports), `key_hash` (the state hash), `search`
//! (choices, reductions, expansion), `matrix` (the crash-point matrix), `remote` (a search as
//! a message, for the page's Web Workers) and `wire` (those messages as text).

mod choice;
mod design;
mod explorer;
mod key_hash;
mod matrix;
mod property;
mod remote;
mod rust_text;
mod search;
mod seen;
mod trace;
mod wire;

pub use design::{departures, Bounds, Departure, Design};
pub use explorer::Explorer;
pub use matrix::{crash_cell, crash_explorer, matrix_rows, row_process, Cell, CellOutcome};
pub use property::{explore, retry_acts_once, Property, Report, Verdict};
pub use remote::{matrix_searches, Answer, FromWorker, Search, Searching, ToWorker};
pub use trace::{action_text, step_name, to_rust_test, Trace};
