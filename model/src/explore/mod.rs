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

mod design;
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
pub use matrix::{crash_cell, crash_explorer, matrix_rows, row_process, Cell, CellOutcome};
pub use property::{retry_acts_once, Property, Report, Verdict};
pub use remote::{matrix_searches, Answer, FromWorker, Search, Searching, ToWorker};
pub use trace::{action_text, step_name, to_rust_test, Trace};

use crate::scenario::Scenario;
use crate::world::{Action, CheckLevel, ProcKind, Step, World};
use std::collections::VecDeque;

/// A choice at a state: kind in the high byte (0 step, 1 restart (unreduced only),
/// 2 kill (and, reduced, the restart after it), 3 tick), process low.
type Choice = u16;
const STEP: u16 = 0;
const RESTART: u16 = 1 << 8;
const KILL: u16 = 2 << 8;
const TICK: u16 = 3 << 8;
const NO_PARENT: u32 = u32::MAX;

/// What a reached state shows; the explorer keeps the first edge into each.
const OBS_LOST: usize = 0;
const OBS_DUP_EFFECT: usize = 1;
const OBS_PHANTOM: usize = 2;
const OBS_CONSERVATION: usize = 3;
const OBS_INVARIANTS: usize = 4;
const OBS_DUP_DELIVERY: usize = 5;
/// A terminal state (in crash-point mode: one after the kill).
const OBS_TERMINAL: usize = 6;
/// A terminal state where retrying the failed set does not act once on each failed event.
const OBS_RETRIED: usize = 7;
const OBS: usize = 8;

const FLAG_TERMINAL: u8 = 1;
const FLAG_SETTLED: u8 = 2;
const FLAG_CUT: u8 = 4;

/// The search. Make one with [`Explorer::new`] (every schedule, kills anywhere) or
/// [`Explorer::crash_point`] (one kill, of one process, at one step), call
/// [`Explorer::run_slice`] until it returns true, then read [`Explorer::report`] or
/// [`Explorer::cell`].
pub struct Explorer {
    scenario: Scenario,
    bounds: Bounds,
    /// Crash-point mode: the only kill offered (process index, step).
    crash: Option<(usize, Step)>,
    /// `Step`, `Restart`, `Kill` per process, made once.
    actions: Vec<[Action; 3]>,
    killable: Vec<bool>,
    /// The client's steps are forced (module doc).
    client_first: bool,
    /// The reductions of the module doc are on (off only to check them, see
    /// [`Explorer::unreduced`]).
    reduce: bool,
    /// The counters of every terminal state, when collected.
    outcomes: Option<std::collections::BTreeSet<String>>,
    tick: Action,
    /// The relays' places (relay symmetry, see [`Explorer::order`]).
    relays: Vec<usize>,
    order: std::cell::RefCell<Vec<usize>>,
    seen: seen::Seen,
    parent: Vec<u32>,
    via: Vec<Choice>,
    depth: Vec<u16>,
    flags: Vec<u8>,
    /// Successors of the expanded states, in expansion (= index) order.
    edge_start: Vec<u32>,
    edges: Vec<u32>,
    /// Boxed: a world is ~2 KB, and the queue moves pointers, not worlds.
    frontier: VecDeque<(u32, Box<World>)>,
    /// Worlds of merged successors and of expanded states that took none of theirs, kept
    /// to be refilled with `World::refill_from` (no allocation for a successor; see
    /// `clone_reusing!`). Never more than the frontier held at its peak. Freed with the
    /// explorer, not when the search ends: freeing ~18 000 worlds took ~10 % of a search
    /// (measured natively on the pinned case), and the answer should not wait for it (the
    /// worker posts it, then drops the search).
    // Boxed on purpose: worlds move between the frontier and here as pointers.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<World>>,
    /// The first edge (parent, choice) into a state showing each observation.
    /// `pre`: seen before the forced steps that follow the choice (the trace stops there).
    first: [Option<(u32, Choice, bool)>; OBS],
    lost_retracted: u64,
    max_depth_seen: u32,
    choices: Vec<Choice>,
}

impl Explorer {
    /// Every schedule of `scenario` within `bounds` (kills of any process but the client,
    /// up to `bounds.max_kills`; `tasks`, `relays` and `workers` are the scenario's own).
    pub fn new(scenario: &Scenario, bounds: &Bounds) -> Explorer {
        Self::make(scenario, bounds, None)
    }

    /// Every schedule with exactly one kill offered: of `process` (by name), whenever its
    /// next step is `step` (what `ArmKill` calls reaching a step; the kill is offered
    /// whether or not the process is runnable then, which adds only the kills of a
    /// process waiting for a lock, equal to a kill when it arrived). Returns None when the
    /// scenario has no such process.
    pub fn crash_point(
        scenario: &Scenario,
        bounds: &Bounds,
        process: &str,
        step: Step,
    ) -> Option<Explorer> {
        let w = World::new(scenario);
        let i = w.find(process)?.0 as usize;
        Some(Self::make(scenario, bounds, Some((i, step))))
    }

    /// Every schedule with none of the reductions of the module doc: no forced steps, no
    /// relay symmetry, every relay poll, every kill (idle processes too), and restarts as
    /// choices of their own. Much bigger; it exists to check that the reductions reach the
    /// same outcomes ([`Explorer::collect_outcomes`]).
    pub fn unreduced(scenario: &Scenario, bounds: &Bounds) -> Explorer {
        Self::build(scenario, bounds, None, false)
    }

    /// Keep the counters of every terminal state (see [`Explorer::outcomes`]).
    pub fn collect_outcomes(&mut self) {
        self.outcomes.get_or_insert_with(Default::default);
    }

    /// The terminal states' counters as JSON (without `tick`, `stuck` and
    /// `oldest_unpublished_age_ticks`, which are about time), when collected.
    pub fn outcomes(&self) -> Option<&std::collections::BTreeSet<String>> {
        self.outcomes.as_ref()
    }

    fn make(scenario: &Scenario, bounds: &Bounds, crash: Option<(usize, Step)>) -> Explorer {
        Self::build(scenario, bounds, crash, true)
    }

    fn build(
        scenario: &Scenario,
        bounds: &Bounds,
        crash: Option<(usize, Step)>,
        reduce: bool,
    ) -> Explorer {
        let mut w = World::new(scenario);
        w.check = CheckLevel::Touched;
        // A trace is replayed in a world of its own, with its history, to be shown.
        w.drop_history();
        let actions: Vec<[Action; 3]> = w
            .procs
            .iter()
            .map(|p| {
                let process = p.name.clone();
                [
                    Action::Step {
                        process: process.clone(),
                    },
                    Action::Kill {
                        process: process.clone(),
                    },
                    Action::Restart { process },
                ]
            })
            .collect();
        let killable = w.procs.iter().map(|p| p.kind != ProcKind::Client).collect();
        let mut e = Explorer {
            scenario: scenario.clone(),
            bounds: bounds.clone(),
            crash,
            actions,
            killable,
            client_first: crash.is_none_or(|(i, _)| w.procs[i].kind != ProcKind::Client),
            reduce,
            outcomes: None,
            tick: Action::Tick,
            relays: (0..w.procs.len())
                .filter(|&i| w.procs[i].kind == ProcKind::Relay)
                .collect(),
            order: std::cell::RefCell::new((0..w.procs.len()).collect()),
            seen: seen::Seen::new(),
            parent: Vec::new(),
            via: Vec::new(),
            depth: Vec::new(),
            flags: Vec::new(),
            edge_start: vec![0],
            edges: Vec::new(),
            frontier: VecDeque::new(),
            spare: Vec::new(),
            first: [None; OBS],
            lost_retracted: 0,
            max_depth_seen: 0,
            choices: Vec::new(),
        };
        e.chain(&mut w, None);
        let key = e.key(&w);
        e.seen.get_or_insert(key, 0);
        e.parent.push(NO_PARENT);
        e.via.push(0);
        e.depth.push(0);
        e.flags.push(0);
        e.frontier.push_back((0, Box::new(w)));
        e
    }

    /// States reached so far.
    pub fn states(&self) -> u64 {
        self.parent.len() as u64
    }

    /// Transitions taken so far.
    pub fn edges(&self) -> u64 {
        self.edges.len() as u64
    }

    /// The deepest state reached so far.
    pub fn depth(&self) -> u32 {
        self.max_depth_seen
    }

    /// States waiting to be expanded.
    pub fn pending(&self) -> usize {
        self.frontier.len()
    }

    pub fn is_done(&self) -> bool {
        self.frontier.is_empty()
    }

    /// Expands up to `max_states` states; returns true when the search is over.
    pub fn run_slice(&mut self, max_states: usize) -> bool {
        for _ in 0..max_states {
            let Some((idx, w)) = self.frontier.pop_front() else {
                break;
            };
            // The next four worlds are fetched ahead, a stage each, every stage reading
            // what the one before brought into the cache an expansion ago (see
            // `crate::prefetch`): the fourth's struct, the third's lists, what the
            // second's lists point to (open transactions' records, relays' lists), and
            // those records' lists for the first, expanded next.
            if let Some((_, next)) = self.frontier.front() {
                next.prefetch_deeper();
            }
            if let Some((_, next)) = self.frontier.get(1) {
                next.prefetch_deep();
            }
            if let Some((_, next)) = self.frontier.get(2) {
                next.prefetch_parts();
            }
            if let Some((_, after)) = self.frontier.get(3) {
                crate::prefetch::value::<World>(after);
            }
            self.expand(idx, w);
        }
        self.frontier.is_empty()
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        while !self.run_slice(4096) {}
    }
}

/// Runs the whole search.
pub fn explore(scenario: &Scenario, bounds: &Bounds) -> Report {
    let mut e = Explorer::new(scenario, bounds);
    e.run();
    e.report()
}

/// The case (outbox + inbox, 3 tasks × 2 relays × 1 worker, ≤2 kills) run in
/// slices of `slice` states, as a page would; returns the number of states. Exported only
/// with the `wasm-bench` feature, to time the explorer in wasm (examples/explore_wasm.mjs).
#[cfg(feature = "wasm-bench")]
#[no_mangle]
pub extern "C" fn explore_states(slice: u32) -> u64 {
    let b = Bounds::default();
    let s = Design::OutboxInbox.scenario(&b);
    let mut e = Explorer::new(&s, &b);
    while !e.run_slice(slice.max(1) as usize) {}
    e.states()
}
