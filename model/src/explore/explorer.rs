//! The search's state and its loop: the explorer, its constructors and `run_slice`.

use super::choice::{Choice, NO_PARENT, OBS};
use super::design::Bounds;
use super::seen;
use crate::scenario::Scenario;
use crate::world::{Action, CheckLevel, ProcKind, Step, World};
use std::collections::VecDeque;

/// The search. Make one with [`Explorer::new`] (every schedule, kills anywhere) or
/// [`Explorer::crash_point`] (one kill, of one process, at one step), call
/// [`Explorer::run_slice`] until it returns true, then read [`Explorer::report`] or
/// [`Explorer::cell`].
pub struct Explorer {
    pub(super) scenario: Scenario,
    pub(super) bounds: Bounds,
    /// Crash-point mode: the only kill offered (process index, step).
    pub(super) crash: Option<(usize, Step)>,
    /// `Step`, `Restart`, `Kill` per process, made once.
    pub(super) actions: Vec<[Action; 3]>,
    pub(super) killable: Vec<bool>,
    /// The client's steps are forced (module doc).
    pub(super) client_first: bool,
    /// The reductions of the module doc are on (off only to check them, see
    /// [`Explorer::unreduced`]).
    pub(super) reduce: bool,
    /// The counters of every terminal state, when collected.
    pub(super) outcomes: Option<std::collections::BTreeSet<String>>,
    pub(super) tick: Action,
    /// The relays' places (relay symmetry, see [`Explorer::order`]).
    pub(super) relays: Vec<usize>,
    pub(super) order: std::cell::RefCell<Vec<usize>>,
    pub(super) seen: seen::Seen,
    pub(super) parent: Vec<u32>,
    pub(super) via: Vec<Choice>,
    pub(super) depth: Vec<u16>,
    pub(super) flags: Vec<u8>,
    /// Successors of the expanded states, in expansion (= index) order.
    pub(super) edge_start: Vec<u32>,
    pub(super) edges: Vec<u32>,
    /// Boxed: a world is ~2 KB, and the queue moves pointers, not worlds.
    pub(super) frontier: VecDeque<(u32, Box<World>)>,
    /// Worlds of merged successors and of expanded states that took none of theirs, kept
    /// to be refilled with `World::refill_from` (no allocation for a successor; see
    /// `clone_reusing!`). Never more than the frontier held at its peak. Freed with the
    /// explorer, not when the search ends: freeing ~18 000 worlds took ~10 % of a search
    /// (measured natively on the pinned case), and the answer should not wait for it (the
    /// worker posts it, then drops the search).
    // Boxed on purpose: worlds move between the frontier and here as pointers.
    #[allow(clippy::vec_box)]
    pub(super) spare: Vec<Box<World>>,
    /// The first edge (parent, choice) into a state showing each observation.
    /// `pre`: seen before the forced steps that follow the choice (the trace stops there).
    pub(super) first: [Option<(u32, Choice, bool)>; OBS],
    pub(super) lost_retracted: u64,
    pub(super) max_depth_seen: u32,
    pub(super) choices: Vec<Choice>,
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

/// The case (outbox + inbox, 3 tasks × 2 relays × 1 worker, ≤2 kills) run in
/// slices of `slice` states, as a page would; returns the number of states. Exported only
/// with the `wasm-bench` feature, to time the explorer in wasm (examples/explore_wasm.mjs).
#[cfg(feature = "wasm-bench")]
#[no_mangle]
pub extern "C" fn explore_states(slice: u32) -> u64 {
    let b = Bounds::default();
    let s = super::design::Design::OutboxInbox.scenario(&b);
    let mut e = Explorer::new(&s, &b);
    while !e.run_slice(slice.max(1) as usize) {}
    e.states()
}
