//! The expected class of outcome of every design, stated once: for a configuration and
//! what its faults did ([`Facts`]), which bad outcomes may happen and why. Whatever is not
//! allowed here must never happen; the swarm reports it as a violation. The reasons are
//! FAULTS.md's rows (/work/shared/FAULTS.md) and the explorer's verdicts: the lesson's
//! outbox with the inbox in the action's transaction may lose nothing and act twice on
//! nothing; a dual write loses only through a death between COMMIT and `queue.add` (or
//! a refused add, or a flushed Redis); a high-water relay loses only when rows commit or
//! are published out of id order; and so on. The explorer's test of its five designs
//! (`tests/explore.rs`) reads what each must break from this table, and `tests/swarm.rs`
//! checks every counterexample it finds against the facts of its own run.

use crate::action::{Action, ProcKind, Step};
use crate::scenario::{ApiMode, Config, Fault, RelayMode, Scenario, Sink, WorkerMode};
use crate::world::World;
use serde::Serialize;

/// A bad outcome the swarm judges at the end of a healed, settled run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A committed event never acted on, with no retained state left to deliver it
    /// (`lost`). An event whose job sits in BullMQ's failed set is not lost (class
    /// `Failed`, `failed_needs_retry`): the heal retries the failed set.
    Lost,
    /// A second action for one client request (`duplicate_effects`).
    DuplicateEffect,
    /// An event in the queue for a task that never committed (`phantoms`).
    Phantom,
    /// A second task for one client request (`duplicate_tasks`).
    DuplicateTask,
    /// After every fault was healed, the world did not settle.
    Unsettled,
    /// The world settled with events still in flight (not dead-lettered): nothing will
    /// ever move them on.
    Stranded,
    /// A named invariant broke at some step.
    Invariant,
}

impl Outcome {
    pub fn all() -> [Outcome; 6] {
        use Outcome::*;
        [
            Lost,
            DuplicateEffect,
            Phantom,
            DuplicateTask,
            Unsettled,
            Invariant,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Lost => "lost",
            Outcome::DuplicateEffect => "duplicate_effect",
            Outcome::Phantom => "phantom",
            Outcome::DuplicateTask => "duplicate_task",
            Outcome::Unsettled => "unsettled",
            Outcome::Stranded => "stranded",
            Outcome::Invariant => "invariant",
        }
    }
}

/// What a run's faults did, read from the scenario and the world after the fault phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Every kill: the kind of process and the step it was about to run.
    pub kills: Vec<(ProcKind, Step)>,
    /// Some worker was delayed (it may have held a job past its lock).
    pub worker_delayed: bool,
    /// Redis was flushed (restarted without persistence).
    pub flushed: bool,
    /// Some publish was refused or timed out: Redis down, a failing or timing-out publish.
    pub publish_failed: bool,
    /// Redis refused connections for a while (down, failing fast): a dual write's `add`
    /// fails after its COMMIT. (A failing-publish rule is the relay's, not the API's.)
    pub redis_refused: bool,
    /// The operator un-marked published rows during the fault phase.
    pub unpublished: bool,
    /// A scripted psql session wrote the outbox (its slow transaction commits out of id
    /// order).
    pub session: bool,
}

impl Facts {
    /// The facts of `s` run into `w` (the kills are read from the world).
    pub fn of(s: &Scenario, w: &World) -> Facts {
        let kinds: Vec<ProcKind> = w.procs().iter().map(|p| p.kind).collect();
        let worker = |name: &str| name.starts_with("worker");
        Facts {
            kills: w
                .kills()
                .iter()
                .map(|&(p, step, _)| (kinds[p.0 as usize], step))
                .collect(),
            worker_delayed: s
                .faults
                .iter()
                .any(|f| matches!(f, Fault::Delay { process, .. } if worker(process))),
            flushed: w.last_flush().is_some(),
            publish_failed: s
                .faults
                .iter()
                .any(|f| matches!(f, Fault::FailPublish { .. } | Fault::PublishTimesOut { .. }))
                || s.schedule.iter().any(|t| {
                    matches!(
                        t.action,
                        Action::QueueDown { .. } | Action::FailPublish { .. }
                    )
                }),
            redis_refused: s
                .schedule
                .iter()
                .any(|t| t.action == Action::QueueDown { hang: false }),
            unpublished: s
                .schedule
                .iter()
                .any(|t| matches!(t.action, Action::UnpublishSince { .. })),
            session: !s.script.is_empty(),
        }
    }

    fn killed(&self, kind: ProcKind, step: Step) -> bool {
        self.kills.contains(&(kind, step))
    }

    fn killed_any(&self, kind: ProcKind) -> bool {
        self.kills.iter().any(|&(k, _)| k == kind)
    }
}

/// Why `cfg` may show `o` after faults that did `f`; None: it must never show it.
pub fn allows(cfg: &Config, f: &Facts, o: Outcome) -> Option<&'static str> {
    match o {
        Outcome::Lost => lost(cfg, f),
        Outcome::DuplicateEffect => duplicate_effect(cfg, f),
        Outcome::Phantom => (cfg.api == ApiMode::DualWriteQueueFirst).then_some(
            "queue first: the job is added before the task's COMMIT, which may not come",
        ),
        Outcome::DuplicateTask => retry_without_key(cfg)
            .then_some("a client retry without the API's idempotency key writes a second task"),
        Outcome::Stranded => stranded(cfg),
        Outcome::Unsettled | Outcome::Invariant => None,
    }
}

/// A client that retries, and an API that does not recognise the retry.
fn retry_without_key(cfg: &Config) -> bool {
    cfg.client_retries > 0 && !(cfg.api_idempotency_key && cfg.api == ApiMode::Outbox)
}

/// Polling relays read the outbox (whatever the API: the preloaded events are there).
fn polls(cfg: &Config) -> bool {
    cfg.relays > 0
}

/// The API writes the queue itself (no outbox row carries its events).
fn dual(cfg: &Config) -> bool {
    matches!(
        cfg.api,
        ApiMode::DualWriteDbFirst | ApiMode::DualWriteQueueFirst
    )
}

/// The first rule that lets `cfg` lose an event, in FAULTS.md's order.
fn lost(cfg: &Config, f: &Facts) -> Option<&'static str> {
    let dual_first = cfg.api == ApiMode::DualWriteDbFirst;
    let rules: [(bool, &'static str); 8] = [
        (
            dual_first && (f.killed(ProcKind::Api, Step::QueueAdd) || f.redis_refused),
            "dual write, DB first: a death between COMMIT and queue.add, or a refused add",
        ),
        (
            cfg.api == ApiMode::OutboxPool && f.killed(ProcKind::Api, Step::InsertEvent),
            "outbox through the pool: the task and its event are two transactions",
        ),
        (
            polls(cfg)
                && cfg.relay.mode == RelayMode::MarkFirst
                && (f.killed(ProcKind::Relay, Step::Publish) || f.publish_failed),
            "mark first, publish after (at-most-once): a death or a refused publish between",
        ),
        (
            polls(cfg)
                && cfg.relay.mode == RelayMode::HighWater
                && (cfg.apis > 1 || cfg.relays > 1 || f.session || f.unpublished || f.flushed),
            "high-water mark: a row committed or published below the mark is never read",
        ),
        (
            f.flushed
                && (dual(cfg)
                    || !polls(cfg)
                    || cfg.relay.mode != RelayMode::Lesson
                    || cfg.cleaner.is_some()),
            "Redis flushed: only the lesson's relay re-reads the rows the operator un-marks, \
             and a dual write has no rows",
        ),
        (
            cfg.cleaner.as_ref().is_some_and(|c| !c.published_only),
            "a cleaner without the tarqatilgan_vaqt filter deletes unpublished rows",
        ),
        (
            cfg.worker == WorkerMode::InboxOwnTx && f.killed_any(ProcKind::Worker),
            "inbox committed in its own transaction: a death before the action loses it",
        ),
        (
            (cfg.queue.remove_on_fail || cfg.queue.keep_failed.is_some())
                && (f.killed_any(ProcKind::Worker) || f.worker_delayed),
            "a stalled job failed and removeOnFail deleted it: nothing is left to retry",
        ),
    ];
    rules
        .into_iter()
        .find_map(|(holds, why)| holds.then_some(why))
}

/// Why events may wait for ever in a settled world: nobody publishes the outbox, or
/// nobody consumes the queue.
fn stranded(cfg: &Config) -> Option<&'static str> {
    if cfg.relays == 0 && !cfg.cdc {
        return Some("no relay: outbox rows wait for one");
    }
    (cfg.workers == 0).then_some("no worker: jobs wait for one")
}

/// The first rule that lets `cfg` act twice on one client request.
fn duplicate_effect(cfg: &Config, f: &Facts) -> Option<&'static str> {
    let worker_trouble = f.killed_any(ProcKind::Worker) || f.worker_delayed;
    let consumes = cfg.workers > 0;
    let rules: [(bool, &'static str); 6] = [
        (
            cfg.worker == WorkerMode::NoInbox && consumes,
            "no inbox: every delivery acts",
        ),
        (
            cfg.worker == WorkerMode::ActionThenInbox && consumes,
            "action first, inbox after: a death between, or two copies checking at once",
        ),
        (
            cfg.worker == WorkerMode::ExternalEffect
                && !cfg.external_idempotency_key
                && consumes
                && worker_trouble,
            "a call outside the transaction is not rolled back with it",
        ),
        (
            retry_without_key(cfg),
            "a client retry without a key makes a new event the inbox cannot know",
        ),
        (
            cfg.cleaner
                .as_ref()
                .is_some_and(|c| c.inbox_retention_days.is_some()),
            "inbox rows expire before every redelivery has arrived",
        ),
        (
            (polls(cfg) || cfg.cdc)
                && cfg.relay.sink
                    == (Sink::Webhook {
                        idempotency_key: false,
                    }),
            "a webhook without an idempotency key acts on every POST",
        ),
    ];
    rules
        .into_iter()
        .find_map(|(holds, why)| holds.then_some(why))
}
