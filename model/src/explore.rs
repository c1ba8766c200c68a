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
//!   and nothing durable or alive can still bring them to an effect. Only an operator
//!   (retrying failed jobs, un-marking rows) can bring such an event back, and the
//!   explorer takes no operator actions, so the verdict is checked at every state; the
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
//! Memory: per state a 128-bit key in a `BTreeMap`, its parent and the choice that led to
//! it (a trace is rebuilt from parent pointers and replayed), its depth and its successors
//! (for counting schedules). Worlds are kept only for the frontier. The search runs in
//! slices ([`Explorer::run_slice`]) so a page can spread it over animation frames.

use crate::auditor::Class;
use crate::db::LockMode;
use crate::scenario::{ApiMode, RelayMode, Scenario, ScenarioError, WorkerMode};
use crate::world::{
    program, Action, CheckLevel, Counters, Mem, Proc, ProcKind, RelayMem, Step, World,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::hash::Hasher;

// ----- designs and bounds ------------------------------------------------------------

/// The five designs the lesson walks through; each differs from the next in one thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// INSERT + COMMIT, then `queue.add` (the lesson's §1); a consumer without an inbox.
    DualWriteDbFirst,
    /// `queue.add`, then INSERT + COMMIT; a consumer without an inbox.
    DualWriteQueueFirst,
    /// Outbox, but the relay marks and commits first, then publishes (at-most-once).
    OutboxAtMostOnce,
    /// The lesson's outbox and relay (at-least-once); a consumer without an inbox.
    Outbox,
    /// The lesson's outbox and relay, and the inbox in the action's transaction (§6).
    OutboxInbox,
}

impl Design {
    pub fn all() -> [Design; 5] {
        [
            Design::DualWriteDbFirst,
            Design::DualWriteQueueFirst,
            Design::OutboxAtMostOnce,
            Design::Outbox,
            Design::OutboxInbox,
        ]
    }

    /// A stable snake_case name (for links, JSON and test names).
    pub fn name(self) -> &'static str {
        match self {
            Design::DualWriteDbFirst => "dual_write_db_first",
            Design::DualWriteQueueFirst => "dual_write_queue_first",
            Design::OutboxAtMostOnce => "outbox_at_most_once",
            Design::Outbox => "outbox",
            Design::OutboxInbox => "outbox_inbox",
        }
    }

    pub fn from_name(name: &str) -> Option<Design> {
        Design::all().into_iter().find(|d| d.name() == name)
    }

    /// The small world the explorer searches for this design:
    /// - `b.tasks` client requests; `b.relays` polling relays (none for dual write, which
    ///   has no outbox) with the lesson's `FOR UPDATE SKIP LOCKED` and `jobId =
    ///   hodisa_id`; `b.workers` workers;
    /// - no automatic restart (`restart_after_ticks: None`): the explorer restarts a
    ///   killed process by an explicit `Restart` right after the kill (module doc); an
    ///   automatic restart after N ticks would make the tick part of the state;
    /// - `poll_interval_ticks: 0`, BullMQ's lock and stalled-check interval 1 tick (see the
    ///   module doc: timers then say nothing about order);
    /// - `max_stalled_count` = `max(1, b.max_kills)`: a job fails only after stalling
    ///   more often than that, so no crash budget can move a job to BullMQ's failed set
    ///   (with BullMQ's default of 1, two crashes of the worker holding the same job put
    ///   it there, and only an operator's retry brings it back: the explorer finds that
    ///   loss too, see the tests);
    /// - `log_cap: 0`: the log is history, not state; set it before replaying a trace to
    ///   show one (the counters do not depend on it).
    pub fn scenario(self, b: &Bounds) -> Scenario {
        let mut s = Scenario {
            name: format!("explore-{}", self.name().replace('_', "-")),
            summary: format!(
                "Explorer: {} with {} task(s), {} relay(s), {} worker(s), up to {} kill(s)",
                self.name(),
                b.tasks,
                b.relays,
                b.workers,
                b.max_kills
            ),
            seed: 1,
            ..Scenario::default()
        };
        let c = &mut s.config;
        let dual = matches!(self, Design::DualWriteDbFirst | Design::DualWriteQueueFirst);
        c.api = match self {
            Design::DualWriteDbFirst => ApiMode::DualWriteDbFirst,
            Design::DualWriteQueueFirst => ApiMode::DualWriteQueueFirst,
            _ => ApiMode::Outbox,
        };
        c.relays = if dual { 0 } else { b.relays };
        c.relay.mode = if self == Design::OutboxAtMostOnce {
            RelayMode::MarkFirst
        } else {
            RelayMode::Lesson
        };
        c.relay.poll_interval_ticks = 0;
        c.workers = b.workers;
        c.worker = if self == Design::OutboxInbox {
            WorkerMode::InboxSameTx
        } else {
            WorkerMode::NoInbox
        };
        c.restart_after_ticks = None;
        c.queue.lock_duration_ticks = 1;
        c.queue.stalled_interval_ticks = 1;
        c.queue.max_stalled_count = b.max_kills.max(1);
        c.log_cap = 0;
        s.workload.tasks = b.tasks;
        s
    }
}

/// How far the search goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bounds {
    /// Client requests (one task and one event each).
    pub tasks: u32,
    /// Polling relays (outbox designs).
    pub relays: u8,
    pub workers: u8,
    /// Kills per schedule (of any process but the client).
    pub max_kills: u32,
    /// Actions per schedule; a state this deep with choices left is counted as cut.
    pub max_depth: u32,
}

impl Default for Bounds {
    /// The case: 3 tasks × 2 relays × 1 worker, up to 2 kills. No schedule of it
    /// is longer than 80 actions; the depth bound is a guard, not a cut.
    fn default() -> Self {
        Bounds {
            tasks: 3,
            relays: 2,
            workers: 1,
            max_kills: 2,
            max_depth: 200,
        }
    }
}

impl Bounds {
    /// The crash-point matrix's world: 2 tasks, 1 relay, 1 worker, one kill.
    pub fn matrix() -> Bounds {
        Bounds {
            tasks: 2,
            relays: 1,
            workers: 1,
            max_kills: 1,
            max_depth: 200,
        }
    }
}

// ----- traces ------------------------------------------------------------------------

/// A schedule that replays: `World::new(&scenario)`, then `apply` each action in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    pub scenario: Scenario,
    pub actions: Vec<Action>,
    /// The property this trace breaks (or the crash-point outcome it shows).
    pub property: Option<String>,
    pub final_counters: Counters,
}

impl Trace {
    /// Parses and checks a trace: the scenario must validate and every action must name a
    /// process of it. Errors name the field, as [`Scenario::from_json`]'s do.
    pub fn from_json(text: &str) -> Result<Trace, ScenarioError> {
        let t: Trace = serde_json::from_str(text).map_err(|e| ScenarioError {
            field: crate::scenario::json_error_field(text, &e),
            message: e.to_string(),
        })?;
        t.scenario.validate().map_err(|e| ScenarioError {
            field: format!("scenario.{}", e.field),
            message: e.message,
        })?;
        let session = !t.scenario.script.is_empty();
        for (i, a) in t.actions.iter().enumerate() {
            if let Some(p) = a.process() {
                if crate::world::proc_index(&t.scenario.config, p, session).is_none() {
                    return Err(ScenarioError {
                        field: format!("actions[{i}].process"),
                        message: format!("no process named {p:?} in this configuration"),
                    });
                }
            }
        }
        Ok(t)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("trace serialises")
    }

    /// Replays the actions; an action the world refuses is an error naming it.
    pub fn replay(&self) -> Result<World, String> {
        let mut w = World::new(&self.scenario);
        for (i, a) in self.actions.iter().enumerate() {
            w.apply(a)
                .map_err(|e| format!("action {} ({}): {e}", i + 1, action_text(a)))?;
        }
        Ok(w)
    }

    /// Replays and checks that the final counters are the recorded ones.
    pub fn verify(&self) -> Result<World, String> {
        let w = self.replay()?;
        let c = w.counters();
        if c != self.final_counters {
            return Err(format!(
                "replayed counters differ: {c:?} != {:?}",
                self.final_counters
            ));
        }
        Ok(w)
    }

    /// One action per line, each with the step it ran (or the step a kill hit), then the
    /// final counters that matter.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let s = &self.scenario;
        out.push_str(&format!(
            "{} ({} action{}){}\n",
            s.name,
            self.actions.len(),
            if self.actions.len() == 1 { "" } else { "s" },
            self.property
                .as_ref()
                .map(|p| format!(": {p}"))
                .unwrap_or_default()
        ));
        let mut w = World::new(s);
        for (i, a) in self.actions.iter().enumerate() {
            let at = a
                .process()
                .and_then(|p| w.find(p))
                .map(|p| w.procs[p.0 as usize].pc);
            let label = match (a, at) {
                (Action::Step { .. }, Some(step)) => step_name(step),
                (Action::Kill { .. }, Some(step)) => format!("at {}", step_name(step)),
                _ => String::new(),
            };
            out.push_str(&format!("{:>3}. {:<22} {label}\n", i + 1, action_text(a)));
            let _ = w.apply(a);
        }
        let c = &self.final_counters;
        out.push_str(&format!(
            "final: tasks_in_db {} · queue_jobs {} · deliveries {} · effects {} · lost {} · duplicate_deliveries {} · duplicate_effects {} · phantoms {}\n",
            c.tasks_in_db, c.queue_jobs, c.deliveries, c.effects, c.lost,
            c.duplicate_deliveries, c.duplicate_effects, c.phantoms
        ));
        out
    }
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// `step api`, `kill relay-1`, `restart worker-1`, …
pub fn action_text(a: &Action) -> String {
    match a {
        Action::Step { process } => format!("step {process}"),
        Action::Kill { process } => format!("kill {process}"),
        Action::Restart { process } => format!("restart {process}"),
        Action::Tick => "tick".into(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// A step's snake_case name, as the scenario format spells it.
pub fn step_name(s: Step) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{s:?}"))
}

/// The text of a `#[test]` that replays `t` with `outbox_model` and asserts its final
/// counters (every field, so a change to the model that changes the outcome fails it).
pub fn to_rust_test(t: &Trace, test_name: &str) -> String {
    let mut out = String::new();
    out.push_str("// Generated by outbox_model::explore::to_rust_test; do not edit by hand.\n");
    out.push_str(&format!(
        "// {}: {} action(s){}.\n",
        t.scenario.name,
        t.actions.len(),
        t.property
            .as_ref()
            .map(|p| format!(", breaks `{p}`"))
            .unwrap_or_default()
    ));
    out.push_str("\nuse outbox_model::{Action, Counters, Scenario, World};\n\n");
    out.push_str("#[test]\n");
    out.push_str(&format!("fn {test_name}() {{\n"));
    let json = t.scenario.to_json();
    let mut hashes = String::from("#");
    while json.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    out.push_str(&format!(
        "    let scenario = Scenario::from_json(\n        r{hashes}\"{json}\"{hashes},\n    )\n    .expect(\"scenario\");\n"
    ));
    out.push_str("    let actions = [\n");
    for a in &t.actions {
        if *a == Action::Tick {
            out.push_str("        Action::Tick,\n");
            continue;
        }
        let (variant, p) = match a {
            Action::Step { process } => ("Step", process),
            Action::Kill { process } => ("Kill", process),
            Action::Restart { process } => ("Restart", process),
            // Any other action (a playground run's armed kills, faults, operator
            // actions) is written as its JSON, which the model reads back.
            other => {
                let json = serde_json::to_string(other).expect("actions serialise");
                out.push_str(&format!(
                    "        serde_json::from_str::<Action>(r#\"{json}\"#).expect(\"action\"),\n"
                ));
                continue;
            }
        };
        out.push_str(&format!(
            "        Action::{variant} {{\n            process: {p:?}.into(),\n        }},\n"
        ));
    }
    out.push_str("    ];\n");
    out.push_str("    let mut world = World::new(&scenario);\n");
    out.push_str("    for a in &actions {\n");
    out.push_str("        world.apply(a).expect(\"the trace replays\");\n");
    out.push_str("    }\n");
    out.push_str("    let expected = Counters {\n");
    let v = serde_json::to_value(&t.final_counters).expect("counters serialise");
    if let serde_json::Value::Object(m) = v {
        for (k, v) in m {
            out.push_str(&format!("        {k}: {v},\n"));
        }
    }
    out.push_str("    };\n");
    out.push_str("    assert_eq!(world.counters(), expected);\n");
    out.push_str("}\n");
    out
}

// ----- the search --------------------------------------------------------------------

/// A property the explorer checks at every state it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Property {
    /// No event is lost (`lost == 0`).
    Lost,
    /// No business action runs twice (`duplicate_effects == 0`).
    DuplicateEffects,
    /// No event for a task that never committed reaches the queue (`phantoms == 0`).
    Phantoms,
    /// Every committed event is effected, in flight or lost (the auditor's conservation).
    Conservation,
    /// The world's other named invariants hold (no violation recorded).
    Invariants,
}

impl Property {
    pub fn all() -> [Property; 5] {
        [
            Property::Lost,
            Property::DuplicateEffects,
            Property::Phantoms,
            Property::Conservation,
            Property::Invariants,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Property::Lost => "lost",
            Property::DuplicateEffects => "duplicate_effects",
            Property::Phantoms => "phantoms",
            Property::Conservation => "conservation",
            Property::Invariants => "invariants",
        }
    }
}

/// A property's answer over the bounded space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds at every reached state.
    Holds {
        states: u64,
        /// Schedules to terminal states (None: the graph had a cycle).
        schedules: Option<u128>,
    },
    /// The shortest schedule that breaks it: fewest choices (steps, kills, ticks); the
    /// forced steps of the module doc and each kill's restart come along in the trace, so
    /// its actions may be a few more. [`Explorer::unreduced`] gives the fewest actions.
    Counterexample {
        trace: Box<Trace>,
        /// Choices on the way (the search depth of the counterexample).
        choices: u32,
    },
}

#[derive(Clone, Debug)]
pub struct Report {
    pub scenario: Scenario,
    pub bounds: Bounds,
    /// Distinct states reached.
    pub states: u64,
    /// Transitions taken (each choice at each expanded state).
    pub edges: u64,
    /// States with no step or restart left.
    pub terminal: u64,
    /// Terminal states that are also settled ([`World::settled`]).
    pub settled: u64,
    /// States at the depth bound that still had choices (0: the space is covered).
    pub cut: u64,
    /// The deepest state's depth.
    pub depth: u32,
    /// Distinct schedules (action sequences) from the start to a terminal state, counted
    /// over the merged graph (saturating; None if it had a cycle).
    pub schedules: Option<u128>,
    /// Edges along which the `lost` count went down (see the module doc; expected 0).
    pub lost_retracted: u64,
    pub properties: Vec<(Property, Verdict)>,
}

impl Report {
    pub fn verdict(&self, p: Property) -> &Verdict {
        &self
            .properties
            .iter()
            .find(|(q, _)| *q == p)
            .expect("every property is reported")
            .1
    }

    pub fn holds(&self, p: Property) -> bool {
        matches!(self.verdict(p), Verdict::Holds { .. })
    }

    pub fn counterexample(&self, p: Property) -> Option<&Trace> {
        match self.verdict(p) {
            Verdict::Counterexample { trace, .. } => Some(trace),
            Verdict::Holds { .. } => None,
        }
    }
}

fn schedules_text(s: Option<u128>) -> String {
    s.map_or("∞ (cycle)".into(), |n| n.to_string())
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} states, {} edges, {} terminal ({} settled), {} cut, depth {}, {} schedules",
            self.scenario.name,
            self.states,
            self.edges,
            self.terminal,
            self.settled,
            self.cut,
            self.depth,
            schedules_text(self.schedules)
        )?;
        for (p, v) in &self.properties {
            match v {
                Verdict::Holds { states, schedules } => writeln!(
                    f,
                    "  {}: holds over {states} states / {} schedules",
                    p.name(),
                    schedules_text(*schedules)
                )?,
                Verdict::Counterexample { trace, choices } => writeln!(
                    f,
                    "  {}: counterexample of {choices} choices ({} actions)",
                    p.name(),
                    trace.actions.len()
                )?,
            }
        }
        Ok(())
    }
}

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
const OBS: usize = 7;

const FLAG_TERMINAL: u8 = 1;
const FLAG_SETTLED: u8 = 2;
const FLAG_CUT: u8 = 4;

/// The state key, hashed as it is written, with no buffer: the byte stream of the writes
/// (little-endian, in write order) is folded 8 bytes at a time into two 64-bit lanes, and
/// [`KeyHash::finish128`] mixes in the length. Every branch of a key is preceded by a tag
/// of a fixed width, so the byte streams of two different states differ; `usize` is written
/// as 64 bits, so keys are the same on every platform. Only 64-bit multiplications: wasm
/// has them natively, while a 64×64→128 product is a library call there (8 % of the
/// explorer's time in wasm, with the byte buffer's writes another 7 %).
struct KeyHash {
    a: u64,
    b: u64,
    /// Bytes written but not yet folded (the low `fill` bytes).
    pend: u64,
    fill: u32,
    len: u64,
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;

#[inline(always)]
fn mix(a: u64, b: u64, w: u64) -> (u64, u64) {
    let a = a.wrapping_add(w.wrapping_mul(P2)).rotate_left(31);
    let b = (b ^ w.wrapping_mul(P3)).rotate_left(27);
    (a.wrapping_mul(P1), b.wrapping_mul(P4))
}

impl KeyHash {
    fn new() -> Self {
        KeyHash {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
            pend: 0,
            fill: 0,
            len: 0,
        }
    }

    /// One word into both lanes (a round in the style of xxHash64's in each, with different
    /// constants and rotations, so the lanes are not copies of each other).
    #[inline(always)]
    fn round(&mut self, w: u64) {
        (self.a, self.b) = mix(self.a, self.b, w);
    }

    /// The low `n` bytes of `v` (1 ≤ n ≤ 8; the higher ones are 0), in order. Out of line
    /// on purpose: inlined into every write of the key, it made the model's wasm 30 KB
    /// bigger (263 instead of 233 KB) for ~4 % more speed.
    #[inline(never)]
    fn push(&mut self, v: u64, n: u32) {
        self.len += n as u64;
        let room = 8 - self.fill;
        if n < room {
            self.pend |= v << (8 * self.fill);
            self.fill += n;
        } else {
            // `room` is 1..=8 and fills the word; what is left of `v` starts the next.
            let w = self.pend | v.checked_shl(8 * self.fill).unwrap_or(0);
            self.round(w);
            self.pend = v.checked_shr(8 * room).unwrap_or(0);
            self.fill = n - room;
        }
    }

    fn finish128(&self) -> u128 {
        let mut a = self.a;
        let mut b = self.b;
        if self.fill > 0 {
            (a, b) = mix(a, b, self.pend);
        }
        // Cross the lanes, then xxHash64's avalanche on each.
        let avalanche = |mut h: u64| {
            h ^= h >> 33;
            h = h.wrapping_mul(P2);
            h ^= h >> 29;
            h = h.wrapping_mul(P3);
            h ^ h >> 32
        };
        let a2 = avalanche(a ^ self.len.wrapping_mul(P4) ^ b.rotate_left(17));
        let b2 = avalanche(b ^ self.len ^ a2.rotate_left(41));
        (a2 as u128) << 64 | b2 as u128
    }
}

impl Hasher for KeyHash {
    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.push(u64::from_le_bytes(c.try_into().expect("8 bytes")), 8);
        }
        for &x in chunks.remainder() {
            self.push(x as u64, 1);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.push(i as u64, 1)
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.push(i as u64, 2)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.push(i as u64, 4)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.push(i, 8)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.push(i as u64, 8)
    }
    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.push(i as u64, 8)
    }
}

/// A 128-bit hash of a byte string: the same as hashing it as written by [`KeyHash`]
/// (the tests compare the two).
/// States are merged by this hash instead of by their whole key. A false merge needs
/// both lanes to collide; even one 64-bit lane alone collides with probability about
/// 2^-64 per pair, about 3·10^-8 over a million states.
#[cfg(test)]
fn hash128(bytes: &[u8]) -> u128 {
    let mut h = KeyHash::new();
    h.write(bytes);
    h.finish128()
}

/// A process that holds nothing: no wait, no request, batch or job, and no transaction
/// that wrote or locked anything. Killing it (and restarting it) changes nothing but the
/// kill count and where it stands in its empty poll, so the full search does not offer
/// that kill.
fn idle(p: &Proc) -> bool {
    if p.blocked.is_some() {
        return false;
    }
    match &p.mem {
        Mem::Api { req } => req.is_none() && p.tx.is_none(),
        // A relay that has selected nothing (yet) holds no row: its open transaction, if
        // any, has written and locked nothing.
        Mem::Relay(RelayMem { batch, cursor, .. }) => {
            batch.is_empty() && !cursor.started && cursor.got.is_empty()
        }
        Mem::Worker { job } => job.is_none() && p.tx.is_none(),
        _ => false,
    }
}

fn kills_spent(w: &World) -> u32 {
    w.procs.iter().map(|p| p.kills).sum()
}

/// The state's key, with the processes in `order` (see [`Explorer::key`]).
fn key_of(w: &World, order: &[usize]) -> u128 {
    let mut h = KeyHash::new();
    w.hash_state_as(&mut h, order);
    h.write_u32(kills_spent(w));
    h.finish128()
}

/// The hash of a relay's own state, for ordering symmetric relays: any order of the
/// relays' states gives each set of relay states one key; equal hashes are equal states.
fn local_key(p: &Proc) -> u128 {
    use std::hash::Hash;
    let mut h = KeyHash::new();
    h.write_u8(p.alive as u8 | (p.tx.is_some() as u8) << 1 | (p.blocked.is_some() as u8) << 2);
    h.write_u64(p.pc.code());
    p.mem.hash(&mut h);
    h.finish128()
}

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
    seen: BTreeMap<u128, u32>,
    parent: Vec<u32>,
    via: Vec<Choice>,
    depth: Vec<u16>,
    flags: Vec<u8>,
    /// Successors of the expanded states, in expansion (= index) order.
    edge_start: Vec<u32>,
    edges: Vec<u32>,
    frontier: VecDeque<(u32, World)>,
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
            seen: BTreeMap::new(),
            parent: Vec::new(),
            via: Vec::new(),
            depth: Vec::new(),
            flags: Vec::new(),
            edge_start: vec![0],
            edges: Vec::new(),
            frontier: VecDeque::new(),
            first: [None; OBS],
            lost_retracted: 0,
            max_depth_seen: 0,
            choices: Vec::new(),
        };
        e.chain(&mut w, None);
        let key = e.key(&w);
        e.seen.insert(key, 0);
        e.parent.push(NO_PARENT);
        e.via.push(0);
        e.depth.push(0);
        e.flags.push(0);
        e.frontier.push_back((0, w));
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
            self.expand(idx, w);
        }
        self.frontier.is_empty()
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        while !self.run_slice(4096) {}
    }

    /// The relay-poll gate (module doc, "Idle polls").
    fn poll_can_find_rows(&self, w: &World) -> bool {
        let mut rows = w.db.unpublished_ids();
        match w.cfg.relay.lock {
            LockMode::SkipLocked => rows.any(|i| w.db.outbox[i as usize].lock().is_none()),
            _ => rows.next().is_some(),
        }
    }

    /// The choices at a state, and whether it is quiescent (nothing but idle polls and
    /// kills left: a terminal state; reduced, that is no choice at all).
    fn choose(&mut self, w: &World) -> (Vec<Choice>, bool) {
        let mut v = std::mem::take(&mut self.choices);
        v.clear();
        let relay_gate = w.cfg.relay.mode != RelayMode::HighWater;
        let mut poll_ok = None;
        let mut idle_polls = 0;
        for (i, p) in w.procs.iter().enumerate() {
            if !w.runnable(i) {
                continue;
            }
            if relay_gate && p.kind == ProcKind::Relay && p.pc == Step::Begin {
                let ok = *poll_ok.get_or_insert_with(|| self.poll_can_find_rows(w));
                if !ok {
                    if self.reduce {
                        continue;
                    }
                    idle_polls += 1;
                }
            }
            v.push(STEP | i as u16);
        }
        if v.len() == idle_polls && w.next_wake().is_some() {
            // Nothing can step now, but a timer is pending (a dead worker's lock): time
            // passes. `Tick` runs the clock to it and then one step of a runnable process;
            // the processes the world may pick then are only this state's idle relays (their
            // polls were held back) and what the timer woke.
            v.push(TICK);
        }
        if !self.reduce {
            for (i, p) in w.procs.iter().enumerate() {
                if !p.alive {
                    v.push(RESTART | i as u16);
                }
            }
        }
        let quiescent = v.len() == idle_polls;
        if v.is_empty() {
            return (v, true);
        }
        let spent = kills_spent(w);
        match self.crash {
            None => {
                if spent < self.bounds.max_kills {
                    for (i, p) in w.procs.iter().enumerate() {
                        if p.alive && self.killable[i] && !(self.reduce && idle(p)) {
                            v.push(KILL | i as u16);
                        }
                    }
                }
            }
            Some((i, step)) => {
                let p = &w.procs[i];
                if spent == 0 && p.alive && p.pc == step {
                    v.push(KILL | i as u16);
                }
            }
        }
        (v, quiescent)
    }

    /// The key of a state. Relays share one program and one configuration, so states
    /// that differ only by which relay is which are one state: the relays are fed in the
    /// order of their own states (relays whose own states are equal hold no row and no
    /// lock, so their order changes nothing).
    fn key(&self, w: &World) -> u128 {
        let mut order = self.order.borrow_mut();
        let n = self.relays.len();
        if self.reduce && n >= 2 {
            // Relays ordered by the hashes of their own states (ties keep their places).
            let mut locals = [0u128; 64];
            for (k, &i) in self.relays.iter().enumerate() {
                locals[k] = local_key(&w.procs[i]);
            }
            let mut by = [0usize; 64];
            for (k, b) in by[..n].iter_mut().enumerate() {
                *b = k;
            }
            by[..n].sort_by(|&x, &y| locals[x].cmp(&locals[y]));
            for (k, &r) in self.relays.iter().enumerate() {
                order[r] = self.relays[by[k]];
            }
        }
        key_of(w, &order)
    }

    /// The next forced step (module doc, "Forced steps"), if any.
    fn forced(&self, w: &World) -> Option<usize> {
        if !self.reduce {
            return None;
        }
        let mut poll_ok = None;
        for (i, p) in w.procs.iter().enumerate() {
            let forced = match (p.kind, p.pc) {
                (ProcKind::Client, _) => self.client_first,
                _ if self.crash == Some((i, p.pc)) => false,
                (ProcKind::Api | ProcKind::Relay | ProcKind::Worker, Step::Begin)
                | (ProcKind::Worker, Step::BeginSecond | Step::Action)
                | (ProcKind::Api, Step::Respond) => true,
                // With one worker: taking the oldest waiting job, and its inbox row.
                (ProcKind::Worker, Step::Fetch | Step::InboxInsert) => w.cfg.workers == 1,
                // Marking rows it holds locked: a private write nobody else reads.
                (ProcKind::Relay, Step::MarkPublished) => w.cfg.relay.lock != LockMode::None,
                // The COMMIT of a poll that selected nothing.
                (ProcKind::Relay, Step::Commit) => {
                    matches!(&p.mem, Mem::Relay(RelayMem { batch, .. }) if batch.is_empty())
                }
                _ => false,
            };
            if !forced || !w.runnable(i) {
                continue;
            }
            if p.kind == ProcKind::Relay && p.pc == Step::Begin {
                let ok = *poll_ok.get_or_insert_with(|| self.poll_can_find_rows(w));
                if !ok {
                    continue;
                }
            }
            return Some(i);
        }
        None
    }

    /// Takes the forced steps, recording them in `out` when asked.
    fn chain(&self, w: &mut World, mut out: Option<&mut Vec<Action>>) {
        while let Some(i) = self.forced(w) {
            let a = &self.actions[i][0];
            let r = w.apply(a);
            debug_assert!(r.is_ok(), "{r:?}");
            if let Some(o) = out.as_mut() {
                o.push(a.clone());
            }
        }
    }

    /// The actions a choice takes: a step, a tick, or a kill and the restart after it.
    fn actions_of(&self, c: Choice) -> &[Action] {
        if c == TICK {
            return std::slice::from_ref(&self.tick);
        }
        let a = &self.actions[(c & 0xff) as usize];
        match c & 0xff00 {
            KILL if self.reduce => &a[1..3],
            KILL => &a[1..2],
            RESTART => &a[2..3],
            _ => &a[0..1],
        }
    }

    fn counts(&self, w: &World) -> bool {
        self.crash.is_none() || kills_spent(w) > 0
    }

    fn note(&mut self, obs: usize, parent: u32, c: Choice, pre: bool) {
        if self.first[obs].is_none() {
            self.first[obs] = Some((parent, c, pre));
        }
    }

    /// Notes what a successor shows (the first edge into each observation is kept).
    fn observe(&mut self, n: &World, idx: u32, c: Choice, pre: bool, violations_before: usize) {
        if !self.counts(n) {
            return;
        }
        let a = &n.auditor;
        let seen = [
            (OBS_LOST, a.count(Class::Lost) > 0),
            (OBS_DUP_EFFECT, a.duplicate_effects > 0),
            (OBS_PHANTOM, a.phantoms > 0),
            (OBS_CONSERVATION, a.check_conservation().is_err()),
            (OBS_INVARIANTS, n.violations.len() > violations_before),
            (OBS_DUP_DELIVERY, a.duplicate_deliveries > 0),
        ];
        for (obs, yes) in seen {
            if yes {
                self.note(obs, idx, c, pre);
            }
        }
    }

    fn expand(&mut self, idx: u32, w: World) {
        let d = self.depth[idx as usize] as u32;
        let (choices, quiescent) = self.choose(&w);
        if quiescent {
            let mut f = FLAG_TERMINAL;
            if w.settled() {
                f |= FLAG_SETTLED;
            }
            self.flags[idx as usize] |= f;
            if let Some(o) = self.outcomes.as_mut() {
                let mut c = w.counters();
                c.tick = 0;
                c.stuck = 0;
                c.oldest_unpublished_age_ticks = 0;
                o.insert(serde_json::to_string(&c).expect("counters serialise"));
            }
            if self.counts(&w) && idx != 0 {
                let (p, c) = (self.parent[idx as usize], self.via[idx as usize]);
                self.note(OBS_TERMINAL, p, c, false);
            }
        }
        if choices.is_empty() {
        } else if d >= self.bounds.max_depth {
            if !quiescent {
                self.flags[idx as usize] |= FLAG_CUT;
            }
        } else {
            let lost_before = w.auditor.count(Class::Lost);
            let violations_before = w.violations.len();
            let mut parent = Some(w);
            for (k, &c) in choices.iter().enumerate() {
                // The last choice takes the parent's world itself.
                let mut n = if k + 1 == choices.len() {
                    parent.take().expect("parent world")
                } else {
                    parent.as_ref().expect("parent world").clone()
                };
                for a in self.actions_of(c) {
                    let r = n.apply(a);
                    debug_assert!(r.is_ok(), "{r:?}");
                }
                self.observe(&n, idx, c, true, violations_before);
                self.chain(&mut n, None);
                self.observe(&n, idx, c, false, violations_before);
                if n.auditor.count(Class::Lost) < lost_before {
                    self.lost_retracted += 1;
                }
                let key = self.key(&n);
                let next = self.parent.len() as u32;
                let to = *self.seen.entry(key).or_insert(next);
                if to == next {
                    self.parent.push(idx);
                    self.via.push(c);
                    self.depth.push((d + 1).min(u16::MAX as u32) as u16);
                    self.flags.push(0);
                    self.max_depth_seen = self.max_depth_seen.max(d + 1);
                    self.frontier.push_back((to, n));
                }
                self.edges.push(to);
            }
        }
        self.choices = choices;
        debug_assert_eq!(
            self.edge_start.len(),
            idx as usize + 1,
            "expansion in index order"
        );
        self.edge_start.push(self.edges.len() as u32);
    }

    /// The choices from the start to the end of edge (parent, choice).
    fn path(&self, parent: u32, c: Choice) -> Vec<Choice> {
        let mut rev = vec![c];
        let mut s = parent;
        while s != 0 && s != NO_PARENT {
            rev.push(self.via[s as usize]);
            s = self.parent[s as usize];
        }
        rev.reverse();
        rev
    }

    fn trace(&self, obs: usize, property: &str) -> Option<Trace> {
        let (p, c, pre) = self.first[obs]?;
        let mut w = World::new(&self.scenario);
        w.check = CheckLevel::Touched;
        let mut actions = Vec::new();
        self.chain(&mut w, Some(&mut actions));
        let path = self.path(p, c);
        for (k, &c) in path.iter().enumerate() {
            for a in self.actions_of(c) {
                w.apply(a).expect("a found schedule replays");
                actions.push(a.clone());
            }
            if !(pre && k + 1 == path.len()) {
                self.chain(&mut w, Some(&mut actions));
            }
        }
        Some(Trace {
            scenario: self.scenario.clone(),
            actions,
            property: Some(property.to_string()),
            final_counters: w.counters(),
        })
    }

    /// How many choices lead to an observation's first edge.
    fn choices_to(&self, obs: usize) -> u32 {
        self.first[obs].map_or(0, |(p, _, _)| self.depth[p as usize] as u32 + 1)
    }

    /// Schedules from the start to each terminal state, over the merged graph in
    /// topological order (Kahn); None when the graph has a cycle.
    fn schedules(&self) -> Option<u128> {
        let n = self.parent.len();
        let expanded = self.edge_start.len() - 1;
        let succ = |i: usize| -> &[u32] {
            if i < expanded {
                &self.edges[self.edge_start[i] as usize..self.edge_start[i + 1] as usize]
            } else {
                &[]
            }
        };
        let mut indeg = vec![0u32; n];
        for &t in &self.edges {
            indeg[t as usize] += 1;
        }
        let mut paths = vec![0u128; n];
        paths[0] = 1;
        let mut ready: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
        let mut done = 0usize;
        let mut total: u128 = 0;
        while let Some(i) = ready.pop() {
            done += 1;
            let i = i as usize;
            if self.flags[i] & FLAG_TERMINAL != 0 {
                total = total.saturating_add(paths[i]);
            }
            for &t in succ(i) {
                let t = t as usize;
                paths[t] = paths[t].saturating_add(paths[i]);
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    ready.push(t as u32);
                }
            }
        }
        (done == n).then_some(total)
    }

    /// The answer for every property (call when [`Explorer::run_slice`] returned true;
    /// before that it describes the part searched so far).
    pub fn report(&self) -> Report {
        let schedules = self.schedules();
        let states = self.states();
        let obs = |p: Property| match p {
            Property::Lost => OBS_LOST,
            Property::DuplicateEffects => OBS_DUP_EFFECT,
            Property::Phantoms => OBS_PHANTOM,
            Property::Conservation => OBS_CONSERVATION,
            Property::Invariants => OBS_INVARIANTS,
        };
        let properties = Property::all()
            .into_iter()
            .map(|p| {
                let v = match self.trace(obs(p), p.name()) {
                    Some(trace) => Verdict::Counterexample {
                        trace: Box::new(trace),
                        choices: self.choices_to(obs(p)),
                    },
                    None => Verdict::Holds { states, schedules },
                };
                (p, v)
            })
            .collect();
        let count = |f: u8| self.flags.iter().filter(|&&x| x & f != 0).count() as u64;
        Report {
            scenario: self.scenario.clone(),
            bounds: self.bounds.clone(),
            states,
            edges: self.edges(),
            terminal: count(FLAG_TERMINAL),
            settled: count(FLAG_SETTLED),
            cut: count(FLAG_CUT),
            depth: self.max_depth_seen,
            schedules,
            lost_retracted: self.lost_retracted,
            properties,
        }
    }

    /// The crash-point answer: the worst outcome seen after the kill, with its shortest
    /// trace (see [`CellOutcome`] for the order).
    pub fn cell(&self) -> Cell {
        let states = self.states();
        for (obs, outcome) in [
            (OBS_LOST, CellOutcome::Lost),
            (OBS_DUP_EFFECT, CellOutcome::DuplicateEffect),
            (OBS_PHANTOM, CellOutcome::Phantom),
            (OBS_DUP_DELIVERY, CellOutcome::DuplicateDelivery),
            (OBS_TERMINAL, CellOutcome::Fine),
        ] {
            if let Some(t) = self.trace(obs, outcome.name()) {
                return Cell {
                    outcome,
                    trace: Some(t),
                    states,
                };
            }
        }
        Cell {
            outcome: CellOutcome::NotApplicable,
            trace: None,
            states,
        }
    }
}

/// Runs the whole search.
pub fn explore(scenario: &Scenario, bounds: &Bounds) -> Report {
    let mut e = Explorer::new(scenario, bounds);
    e.run();
    e.report()
}

// ----- the crash-point matrix --------------------------------------------------------

/// A crash point's worst outcome, worst first: a lost event outranks a duplicated
/// effect (data that never arrives cannot be repaired by the consumer), which outranks
/// a phantom (an event for a task that does not exist: wrong, but detectable by the
/// consumer looking for the row), which outranks a duplicate delivery (harmless behind
/// an idempotent consumer); `Fine` means no schedule after the kill shows any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellOutcome {
    Lost,
    DuplicateEffect,
    Phantom,
    DuplicateDelivery,
    Fine,
    /// The process never reaches that step in this design (or there is no such process).
    NotApplicable,
}

impl CellOutcome {
    pub fn name(self) -> &'static str {
        match self {
            CellOutcome::Lost => "lost",
            CellOutcome::DuplicateEffect => "duplicate_effect",
            CellOutcome::Phantom => "phantom",
            CellOutcome::DuplicateDelivery => "duplicate_delivery",
            CellOutcome::Fine => "fine",
            CellOutcome::NotApplicable => "not_applicable",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub outcome: CellOutcome,
    /// The shortest schedule showing the outcome (for `Fine`: the shortest one that ends
    /// after the kill).
    pub trace: Option<Trace>,
    /// States the cell's search reached.
    pub states: u64,
}

/// The process a matrix row kills: the first of its kind.
pub fn row_process(kind: ProcKind) -> &'static str {
    match kind {
        ProcKind::Client => "client",
        ProcKind::Api => "api",
        ProcKind::Relay => "relay-1",
        ProcKind::Worker => "worker-1",
        ProcKind::Session => "psql",
        ProcKind::Cdc => "cdc",
        ProcKind::Cleaner => "cleaner",
    }
}

/// Every labelled step of every process of the five designs: client, API, relay and
/// worker rows, each kind's steps in program order (the designs' programs merged).
pub fn matrix_rows() -> Vec<(ProcKind, Step)> {
    let b = Bounds::matrix();
    let mut rows = Vec::new();
    for kind in [
        ProcKind::Client,
        ProcKind::Api,
        ProcKind::Relay,
        ProcKind::Worker,
    ] {
        let mut steps: Vec<Step> = Vec::new();
        for d in Design::all() {
            let s = d.scenario(&b);
            let prog = program(kind, &s.config, 0);
            let mut after: Option<usize> = None;
            for st in prog {
                match steps.iter().position(|&x| x == st) {
                    Some(p) => after = Some(p),
                    None => {
                        let at = after.map_or(0, |p| p + 1);
                        steps.insert(at, st);
                        after = Some(at);
                    }
                }
            }
        }
        rows.extend(steps.into_iter().map(|s| (kind, s)));
    }
    rows
}

/// A crash-point explorer for one cell (None: the design has no such process), for a
/// page that runs cells in slices.
pub fn crash_explorer(design: Design, row: (ProcKind, Step)) -> Option<Explorer> {
    let b = Bounds::matrix();
    let s = design.scenario(&b);
    if !program(row.0, &s.config, 0).contains(&row.1) {
        return None;
    }
    Explorer::crash_point(&s, &b, row_process(row.0), row.1)
}

/// The outcome of killing the row's process exactly when its next step is the row's step,
/// over every interleaving of [`Bounds::matrix`]'s world.
pub fn crash_cell(design: Design, row: (ProcKind, Step)) -> Cell {
    match crash_explorer(design, row) {
        None => Cell {
            outcome: CellOutcome::NotApplicable,
            trace: None,
            states: 0,
        },
        Some(mut e) => {
            e.run();
            e.cell()
        }
    }
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

#[cfg(test)]
mod key_hash_tests {
    use super::*;
    use crate::rng::Rng;

    /// Writes of mixed widths hash like the bytes they stand for: a state's key depends
    /// on its byte stream only, not on how the writes cut it.
    #[test]
    fn streaming_writes_hash_like_their_bytes() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let mut h = KeyHash::new();
            let mut bytes = Vec::new();
            for _ in 0..rng.below(40) {
                let v = rng.next_u64();
                match rng.below(6) {
                    0 => {
                        h.write_u8(v as u8);
                        bytes.push(v as u8);
                    }
                    1 => {
                        h.write_u16(v as u16);
                        bytes.extend_from_slice(&(v as u16).to_le_bytes());
                    }
                    2 => {
                        h.write_u32(v as u32);
                        bytes.extend_from_slice(&(v as u32).to_le_bytes());
                    }
                    3 => {
                        h.write_u64(v);
                        bytes.extend_from_slice(&v.to_le_bytes());
                    }
                    4 => {
                        h.write_usize(v as usize);
                        bytes.extend_from_slice(&(v as usize as u64).to_le_bytes());
                    }
                    _ => {
                        let s: Vec<u8> = (0..rng.below(20)).map(|i| (v >> (i % 8)) as u8).collect();
                        h.write(&s);
                        bytes.extend_from_slice(&s);
                    }
                }
            }
            assert_eq!(h.finish128(), hash128(&bytes), "{bytes:?}");
        }
    }

    /// Streams that differ in one byte, or only in length (trailing zeros), hash apart.
    #[test]
    fn different_streams_hash_apart() {
        let mut seen = std::collections::BTreeSet::new();
        for len in 0..48 {
            let zeros = vec![0u8; len];
            assert!(seen.insert(hash128(&zeros)), "zeros × {len}");
            for at in 0..len {
                for bit in 0..8 {
                    let mut b = zeros.clone();
                    b[at] = 1 << bit;
                    assert!(seen.insert(hash128(&b)), "len {len}, byte {at}, bit {bit}");
                }
            }
        }
        assert_eq!(seen.len(), 48 + 8 * (47 * 48 / 2));
    }
}
