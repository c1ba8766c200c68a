//! Building a world from a scenario: its processes at their first step, empty tables and
//! queue, the standing fault rules and the timed actions, and the preloaded events.

use super::armed::ArmedDelay;
use super::gate_state::{Gates, GATE_NEVER};
use super::relay_mem::POLL_HISTORY;
use super::{processes, Proc, ProcKind, World, MAX_PROCS};
use crate::auditor::{Auditor, TaskRef};
use crate::db::Db;
use crate::ids::EventKind;
use crate::queue::Queue;
use crate::rng::Rng;
use crate::scenario::{Config, Fault, Scenario};
use crate::world::{Action, CheckLevel};
use std::collections::{BTreeSet, VecDeque};

/// Up to this many events' worth of table space is reserved when a world is made: the
/// canon runs never grow a list, and a big run does not claim its whole size up front.
const RESERVE_EVENTS: usize = 4096;

impl World {
    /// The world of a scenario at tick 0. The scenario should be valid
    /// ([`Scenario::validate`]); one that asks for more than [`MAX_PROCS`] processes, which
    /// `validate` refuses, panics here.
    pub fn new(s: &Scenario) -> World {
        let cfg = s.config.clone();
        let session = !s.script.is_empty();
        let kinds = processes(&cfg, session);
        assert!(
            kinds.len() <= MAX_PROCS,
            "a world runs at most {MAX_PROCS} processes, this scenario asks for {} \
             (Scenario::validate refuses it)",
            kinds.len()
        );
        let procs = kinds
            .into_iter()
            .map(|(kind, n)| Proc::new(kind, n, &cfg, s.script.len()))
            .collect();
        let mut w = World::empty(s, cfg, procs);
        w.start(s);
        w.load_faults(s);
        w.preload(s);
        w
    }

    /// The world before anything has run: the processes at their first step, empty
    /// tables and queue, no faults.
    fn empty(s: &Scenario, cfg: Config, procs: Vec<Proc>) -> World {
        World {
            tasks_total: s.workload.tasks,
            amount: s.workload.amount,
            script: s.script.clone(),
            tick: 0,
            rng: Rng::new(s.seed),
            db: Db::new(),
            queue: Queue::new(cfg.queue.clone()),
            // A relay's poll history is capped at POLL_HISTORY: room for it at once.
            polls: procs
                .iter()
                .map(|p| match p.kind {
                    ProcKind::Relay => Vec::with_capacity(POLL_HISTORY),
                    _ => Vec::new(),
                })
                .collect(),
            procs,
            auditor: Auditor::new(),
            armed: Vec::new(),
            api_errors: Vec::new(),
            delays: Vec::new(),
            publish_failures: Vec::new(),
            publish_timeouts: Vec::new(),
            webhook_seen: BTreeSet::new(),
            schedule: VecDeque::new(),
            next_event: 1,
            next_stall_check: cfg.queue.stalled_interval_ticks,
            external_seen: BTreeSet::new(),
            log: VecDeque::new(),
            tally: Default::default(),
            script_results: Vec::new(),
            kills: Vec::new(),
            pinned: Vec::new(),
            causes: Default::default(),
            by_hand: false,
            high_water: 0,
            last_flush: None,
            preloaded: s.workload.preloaded_events,
            trace_hash: 0xcbf2_9ce4_8422_2325,
            steps: 0,
            check: CheckLevel::Touched,
            history: true,
            violations: Vec::new(),
            touched: Vec::with_capacity(16),
            held: None,
            dead: 0,
            scratch: Default::default(),
            gates: Gates::default(),
            pool: Default::default(),
            cfg,
        }
    }

    /// The gates of every process, and table space for the workload.
    fn start(&mut self, s: &Scenario) {
        let n = self.procs.len();
        self.gates.by_class[GATE_NEVER as usize] = (1u64 << n) - 1;
        self.gates.dirty = (1u64 << n) - 1;
        self.refresh_gates();
        let hint =
            (s.workload.tasks as usize + s.workload.preloaded_events as usize).min(RESERVE_EVENTS);
        self.auditor.reserve(hint);
        self.db.reserve(hint);
        self.queue.reserve(hint);
        self.log.reserve(self.cfg.log_cap.min(RESERVE_EVENTS));
    }

    /// The scenario's standing fault rules and its timed actions (in tick order).
    fn load_faults(&mut self, s: &Scenario) {
        for f in &s.faults {
            match f {
                Fault::Kill {
                    process,
                    step,
                    when,
                    times,
                    per_task,
                } => {
                    if let Some(p) = self.find(process) {
                        let at = self.arm_kill(p, *step, when, *times);
                        if *per_task {
                            self.armed[at].per_task = Some(Vec::new());
                        }
                    }
                }
                Fault::FailPublish { event, times } => self.publish_failures.push((*event, *times)),
                Fault::PublishTimesOut { event, times } => {
                    self.publish_timeouts.push((*event, *times))
                }
                Fault::ApiError { when } => self.api_errors.push(when.clone()),
                Fault::Delay {
                    process,
                    step,
                    when,
                    ticks,
                    times,
                } => {
                    if let Some(p) = self.find(process) {
                        self.delays.push(ArmedDelay {
                            proc: p,
                            step: *step,
                            when: when.clone(),
                            ticks: *ticks,
                            remaining: *times,
                            reached: 0,
                        });
                    }
                }
            }
        }
        let mut sched: Vec<(u64, Action)> = s
            .schedule
            .iter()
            .map(|t| (t.at_tick, t.action.clone()))
            .collect();
        sched.sort_by_key(|(t, _)| *t);
        self.schedule = sched.into();
    }

    /// The workload's preloaded events, committed before the first tick.
    fn preload(&mut self, s: &Scenario) {
        self.db.wal_retain = self.cfg.cdc;
        let kinds: &[EventKind] = if s.workload.preloaded_completed {
            &[EventKind::Created, EventKind::Completed]
        } else {
            &[EventKind::Created]
        };
        // Preloaded tasks come after the client's requests (intents of their own, so a
        // preloaded event and a request never count as the same business action).
        for k in 0..s.workload.preloaded_events {
            let intent = s.workload.tasks + k;
            for &kind in kinds {
                let e = self.mint(intent, kind, TaskRef::Given);
                self.db.preload_event(e, kind, intent, s.workload.amount);
                self.auditor.committed(e);
                self.touched.push(e);
            }
        }
        self.reclassify_touched();
    }
}
