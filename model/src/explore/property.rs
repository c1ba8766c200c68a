//! What the explorer checks and what it answers: the properties, a property's verdict
//! over the bounded space, and the report with the shortest counterexamples (rebuilt from
//! the parent pointers the search keeps).

use super::choice::{
    Choice, FLAG_CUT, FLAG_SETTLED, FLAG_TERMINAL, NO_PARENT, OBS_CONSERVATION, OBS_DUP_EFFECT,
    OBS_INVARIANTS, OBS_LOST, OBS_PHANTOM, OBS_RETRIED,
};
use super::design::Bounds;
use super::explorer::Explorer;
use super::trace::Trace;
use crate::auditor::Class;
use crate::scenario::Scenario;
use crate::world::Action;
use crate::world::{CheckLevel, World};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// Every failed job, retried, is acted on once: at every terminal state, retrying the
    /// failed set (`queue.retryJobs`) and letting the world settle acts exactly once on
    /// each event that was waiting for the retry ([`retry_acts_once`]).
    RetriedOnce,
}

impl Property {
    pub fn all() -> [Property; 6] {
        [
            Property::Lost,
            Property::DuplicateEffects,
            Property::Phantoms,
            Property::Conservation,
            Property::Invariants,
            Property::RetriedOnce,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Property::Lost => "lost",
            Property::DuplicateEffects => "duplicate_effects",
            Property::Phantoms => "phantoms",
            Property::Conservation => "conservation",
            Property::Invariants => "invariants",
            Property::RetriedOnce => "retried_once",
        }
    }
}

/// Ticks a retried world gets to settle in [`retry_acts_once`]: far more than the
/// explorer's small worlds need (a few dozen steps).
const RETRY_SETTLE_TICKS: u64 = 10_000;

/// Whether retrying BullMQ's failed set in `w` and letting it settle (no faults) acts on
/// every event that waited for the retry exactly once. True when none waited.
pub fn retry_acts_once(w: &World) -> bool {
    let failed: Vec<_> = w
        .auditor
        .events()
        .filter(|(_, l)| l.class == Class::Failed)
        .map(|(e, _)| e)
        .collect();
    if failed.is_empty() {
        return true;
    }
    let mut r = w.clone();
    if r.apply(&Action::RetryFailedJobs).is_err() {
        return false;
    }
    r.run(r.tick + RETRY_SETTLE_TICKS);
    failed
        .iter()
        .all(|&e| r.auditor.life(e).is_some_and(|l| l.effects == 1))
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
        let not_default: Vec<String> = super::design::departures(&self.scenario)
            .iter()
            .map(|d| format!("{} {} (default {})", d.name, d.value, d.default))
            .collect();
        if !not_default.is_empty() {
            writeln!(
                f,
                "  not a BullMQ/PostgreSQL default: {}",
                not_default.join(", ")
            )?;
        }
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

impl Explorer {
    /// The choices from the start to the end of edge (parent, choice).
    pub(super) fn path(&self, parent: u32, c: Choice) -> Vec<Choice> {
        let mut rev = vec![c];
        let mut s = parent;
        while s != 0 && s != NO_PARENT {
            rev.push(self.via[s as usize]);
            s = self.parent[s as usize];
        }
        rev.reverse();
        rev
    }

    pub(super) fn trace(&self, obs: usize, property: &str) -> Option<Trace> {
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
    pub(super) fn choices_to(&self, obs: usize) -> u32 {
        self.first[obs].map_or(0, |(p, _, _)| self.depth[p as usize] as u32 + 1)
    }

    /// Schedules from the start to each terminal state, over the merged graph in
    /// topological order (Kahn); None when the graph has a cycle.
    pub(super) fn schedules(&self) -> Option<u128> {
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
            Property::RetriedOnce => OBS_RETRIED,
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
}

/// Runs the whole search.
pub fn explore(scenario: &Scenario, bounds: &Bounds) -> Report {
    let mut e = Explorer::new(scenario, bounds);
    e.run();
    e.report()
}
