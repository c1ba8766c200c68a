//! The guided path, in the lesson's order: each step's id, section, goal, prediction and
//! variants; the scenario a step opens with; and what "show me" does to reach its goal.

use super::step_kinds::{Goal, LessonStep};
use crate::challenge::Outcome;
use crate::scenario::presets::preset;
use crate::scenario::{ApiMode, When, WorkerMode};
use crate::world::{Action, Step};
use crate::Scenario;

/// The path, in the lesson's order (#43): the one-transaction guarantee (rollback, the
/// app role, trying to break it) before the pool breaks it; the relay; the guarantees
/// of §5, each on its own run; the inbox; the cleanup (§7) after them; the summary last.
/// Progress is saved by step id, so a reordering keeps old saves.
pub const STEPS: &[LessonStep] = &[
    LessonStep {
        id: "lose-dual",
        section: "1",
        goal: Goal::LoseAnEvent,
        goal_text: "api == dual_write_db_first && lost_by(kill(api, queue_add))",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "queue-first",
        section: "1",
        goal: Goal::PhantomEvent,
        goal_text: "api == dual_write_queue_first && phantom_by(kill(api))",
        measurement: false,
        predict: None,
        variants: &["dual-write-queue-first"],
    },
    LessonStep {
        id: "canon-dual",
        section: "2",
        goal: Goal::CanonDualWrite,
        goal_text: "settled && api == dual_write_db_first && tasks_in_db == 100 && \
                    queue_jobs == 90",
        measurement: true,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "canon-outbox",
        section: "2",
        goal: Goal::CanonOutbox,
        goal_text: "settled && api == outbox && killed(api, respond) && tasks_in_db == 100 \
                    && queue_jobs == 100 && lost == 0",
        measurement: true,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "rollback",
        section: "3.2",
        goal: Goal::RolledBackTogether,
        goal_text: "settled && api == outbox && aborted_by(kill(api, commit)) && \
                    tasks_in_db == 0 && events_in_outbox == 0",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "app-role",
        section: "3.2",
        goal: Goal::RoleDenied,
        goal_text: "refused_by_hand(select_count_outbox, 42501)",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "outbox-try",
        section: "3.2",
        goal: Goal::OutboxKeepsEvents,
        goal_text: "settled && api == outbox && kill_steps(api) >= 3 && lost == 0",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "pool",
        section: "3.2, 7",
        goal: Goal::PoolLosesEvent,
        goal_text: "api == outbox_pool && lost_by(kill(api, insert_event))",
        measurement: false,
        predict: None,
        variants: &["outbox-pool"],
    },
    LessonStep {
        id: "pool-load",
        section: "3.2, 7",
        goal: Goal::PoolUnderLoad,
        goal_text: "api == outbox_pool_begin && lost_by(kill(api))",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "relay-twice",
        section: "4.1, 4.2",
        goal: Goal::RelaySendsTwice,
        goal_text: "republished_by(kill(relay, mark_published))",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "two-relays",
        section: "4.1",
        goal: Goal::TwoRelaysOnce,
        goal_text: "settled && relays >= 2 && relay_lock == skip_locked && \
                    republished_by(kill(relay, mark_published)) && events_in_outbox == 200 \
                    && queue_jobs == 200",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "no-skip-locked",
        section: "4.1",
        goal: Goal::SkipLockedOff,
        goal_text: "settled && relays >= 2 && relay_lock != skip_locked",
        measurement: false,
        predict: None,
        variants: &["two-relays-wait", "two-relays-nowait", "two-relays-no-lock"],
    },
    LessonStep {
        id: "why-inside",
        section: "4.2",
        goal: Goal::PublishOutsideLoses,
        goal_text: "settled && relay_mode == mark_first && lost_by(kill(relay, publish))",
        measurement: false,
        predict: Some(Outcome::Lost),
        variants: &[],
    },
    LessonStep {
        id: "cdc",
        section: "4.3",
        goal: Goal::CdcSurvivesKill,
        goal_text: "settled && cdc == true && republished_by(kill(cdc, save_offset)) && lost == 0",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "at-most-once",
        section: "5",
        goal: Goal::AtMostOnceLoses,
        goal_text: "settled && relay_mode == mark_first && lost_by(kill(relay, publish)) && \
                    queue_dedup_hits == 0 && duplicate_deliveries == 0",
        measurement: false,
        predict: Some(Outcome::Lost),
        variants: &[],
    },
    LessonStep {
        id: "at-least-once",
        section: "5",
        goal: Goal::AtLeastOnceDuplicates,
        goal_text: "settled && worker == no_inbox && duplicate_effect_by(kill(worker, complete))",
        measurement: false,
        predict: Some(Outcome::Duplicate),
        variants: &[],
    },
    LessonStep {
        id: "effectively-once",
        section: "5",
        goal: Goal::EffectivelyOnce,
        goal_text: "settled && worker == inbox_same_tx && redelivered_by(kill(worker, \
                    complete)) && lost == 0 && duplicate_effects == 0",
        measurement: false,
        predict: Some(Outcome::Fine),
        variants: &[],
    },
    LessonStep {
        id: "inbox-three",
        section: "6",
        goal: Goal::OneEffectOfThree,
        goal_text: "settled && redelivered_by(kill(worker, complete)) && deliveries >= 3 \
                    && effects == 1 && balance == 50000",
        measurement: false,
        predict: Some(Outcome::Fine),
        variants: &[],
    },
    LessonStep {
        id: "inbox-own-tx",
        section: "6",
        goal: Goal::InboxOwnTxBreaks,
        goal_text: "settled && (worker == inbox_own_tx && lost_by(kill(worker, \
                    begin_second)) || worker == action_then_inbox && \
                    duplicate_effect_by(kill(worker, begin_second)))",
        measurement: false,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "cleanup",
        section: "7",
        goal: Goal::CleanerKeepsUnpublished,
        goal_text: "settled && cleaner_published_only == true && events_in_outbox > 0 && lost == 0",
        measurement: false,
        predict: None,
        variants: &["cleaner-by-age", "cleaner-published-only"],
    },
    // The seed's «Xulosa»: no section number; the page names it.
    LessonStep {
        id: "summary",
        section: "",
        goal: Goal::Summary,
        goal_text: "settled && api == outbox && killed(api, respond) && \
                    republished_by(kill(relay, publish)) && tasks_in_db == 100 && \
                    queue_jobs == 100 && lost == 0",
        measurement: true,
        predict: None,
        variants: &["republish-remove-on-complete"],
    },
];

/// The step with this id.
pub fn step(id: &str) -> Option<&'static LessonStep> {
    STEPS.iter().find(|s| s.id == id)
}

/// A step's own scenario, made from another: it is no longer that one's measurement.
fn named(mut s: Scenario, name: &str, summary: &str) -> Scenario {
    s.name = name.into();
    s.summary = summary.into();
    s.measurement = false;
    s
}

pub(super) fn from_preset(name: &str) -> Scenario {
    preset(name).unwrap_or_else(|| panic!("lesson preset {name} exists"))
}

/// A small run without standing faults: the sandbox a learner breaks by hand.
fn sandbox(api: ApiMode, tasks: u32) -> Scenario {
    let mut s = Scenario::default();
    s.config.api = api;
    if matches!(
        api,
        ApiMode::DualWriteDbFirst | ApiMode::DualWriteQueueFirst
    ) {
        s.config.api_app_role = false;
        s.config.relays = 0;
        s.config.worker = WorkerMode::NoInbox;
    }
    s.workload.tasks = tasks;
    s
}

/// The scenario a step opens with.
pub fn scenario(goal: Goal) -> Scenario {
    match goal {
        Goal::LoseAnEvent => named(
            sandbox(ApiMode::DualWriteDbFirst, 10),
            "lesson-lose-dual",
            "Dual write, DB first, 10 tasks and no kills yet: make the API lose an event",
        ),
        Goal::CanonDualWrite => from_preset("canon-dual-write"),
        Goal::CanonOutbox => from_preset("canon-outbox"),
        Goal::OutboxKeepsEvents => named(
            sandbox(ApiMode::Outbox, 10),
            "lesson-outbox-try",
            "Outbox, 10 tasks and no kills yet: try to lose an event by killing the API",
        ),
        Goal::RolledBackTogether => named(
            sandbox(ApiMode::Outbox, 1),
            "lesson-rollback",
            "Outbox, one task and no kills yet: kill the API after both INSERTs, before COMMIT",
        ),
        Goal::RoleDenied => from_preset("app-role"),
        Goal::RelaySendsTwice => relay_twice(),
        Goal::TwoRelaysOnce => from_preset("two-relays-skip-locked"),
        Goal::SkipLockedOff => from_preset("two-relays-skip-locked"),
        Goal::PublishOutsideLoses => from_preset("at-most-once-relay"),
        Goal::CdcSurvivesKill => cdc_by_hand(),
        Goal::CleanerKeepsUnpublished => from_preset("cleaner-by-age"),
        Goal::AtMostOnceLoses => at_most_once(),
        Goal::AtLeastOnceDuplicates => from_preset("worker-no-inbox"),
        Goal::EffectivelyOnce => effectively_once(),
        Goal::OneEffectOfThree => from_preset("exercise-3"),
        Goal::PhantomEvent => named(
            sandbox(ApiMode::DualWriteQueueFirst, 10),
            "lesson-queue-first",
            "Dual write, queue first, 10 tasks and no kills yet: make an event exist for a task that never committed",
        ),
        Goal::PoolLosesEvent => named(
            sandbox(ApiMode::OutboxPool, 10),
            "lesson-pool",
            "An outbox table, both INSERTs through the pool, 10 tasks and no kills yet: lose an event anyway",
        ),
        Goal::PoolUnderLoad => pool_load(1),
        Goal::Summary => from_preset("canon-republish"),
        Goal::InboxOwnTxBreaks => named(
            sandbox(ApiMode::Outbox, 10),
            "lesson-inbox-own-tx",
            "Outbox + inbox, 10 tasks: move the inbox into its own transaction and kill the worker between the two",
        ),
    }
}

/// BEGIN … COMMIT through `pool.query` on a pool of two connections (node-postgres's
/// default is 10: two keeps "more requests than connections" within the page's three API
/// instances), `apis` requests at once, 30 tasks, no kills yet.
fn pool_load(apis: u32) -> Scenario {
    let mut s = sandbox(ApiMode::OutboxPoolBegin, 30);
    s.config.set_api(ApiMode::OutboxPoolBegin);
    s.config.set_pool_size(POOL_LOAD_CONNECTIONS);
    s.config.set_apis(apis);
    named(
        s,
        "lesson-pool-load",
        "BEGIN … COMMIT, each statement through pool.query, a pool of 2, one request at a time and no kills yet: kill the API between its INSERTs, then raise the API instances to 3",
    )
}

/// The pool of the `pool-load` step.
pub const POOL_LOAD_CONNECTIONS: u32 = 2;

/// The republish preset without its kill, and fewer events: the learner makes the relay
/// send one twice.
fn relay_twice() -> Scenario {
    let mut s = from_preset("canon-republish");
    s.faults.clear();
    // Events waiting, no requests (#43: the preset is now the canon outbox run).
    s.workload.tasks = 0;
    s.workload.preloaded_events = 10;
    named(
        s,
        "lesson-relay-twice",
        "Outbox with 10 events waiting and no kills yet: make the relay send one twice",
    )
}

/// The CDC preset for killing by hand: its rolled-back requests stay (they never reach
/// the log); its kill, its late restart and its preloaded rows go: the learner kills, the
/// relay comes back by itself, and every outbox row is one of the step's requests.
fn cdc_by_hand() -> Scenario {
    let mut s = from_preset("cdc-relay");
    s.faults
        .retain(|f| !matches!(f, crate::scenario::Fault::Kill { .. }));
    s.schedule.clear();
    s.config.restart_after_ticks = crate::scenario::Config::default().restart_after_ticks;
    // Only the requests' own rows (#42): the preset's 20 preloaded events made the step
    // show 9 tasks over 29 outbox rows with nothing on screen saying where 20 came from.
    s.workload.preloaded_events = 0;
    named(
        s,
        "lesson-cdc",
        "CDC relay with no kills yet: kill it after publishing, before it saves its offset",
    )
}

/// §5's at-most-once on its own run (#43: it opened the §4.2 question's run, with the
/// same check): the mark-first relay over the same 10 tasks and one worker as the two
/// guarantees after it, killed after its COMMIT, before publishing; its check adds the
/// guarantee's other half, never twice (no repeat reached the queue or the worker).
fn at_most_once() -> Scenario {
    let mut s = from_preset("at-most-once-relay");
    s.workload.tasks = from_preset("worker-no-inbox").workload.tasks;
    named(
        s,
        "lesson-at-most-once",
        "At most once: the relay marks and commits before it publishes, 10 tasks; it dies after its COMMIT, before publishing",
    )
}

/// The worker's kill after COMMIT, before the ack, with the inbox in the action's
/// transaction.
fn effectively_once() -> Scenario {
    let mut s = from_preset("worker-no-inbox");
    s.config.worker = WorkerMode::InboxSameTx;
    named(
        s,
        "lesson-effectively-once",
        "The same kill after COMMIT, before the ack, with the inbox in the action's transaction",
    )
}

/// The place of `SELECT count(*) FROM outbox` in the app-role preset's script (after
/// BEGIN, SET ROLE and the INSERT).
const APP_ROLE_READ: usize = 3;

fn arm(process: &str, step: Step) -> Action {
    Action::ArmKill {
        process: process.into(),
        step,
        when: When::Nth { n: 1 },
        times: Some(1),
    }
}

/// What "show me" does: the scenario to load (when the step's own one is not enough) and
/// the actions to take before playing to the end.
pub fn solution(goal: Goal) -> (Scenario, Vec<Action>) {
    let own = scenario(goal);
    match goal {
        Goal::LoseAnEvent => (own, vec![arm("api", Step::QueueAdd)]),
        Goal::OutboxKeepsEvents => (
            own,
            vec![
                arm("api", Step::InsertEvent),
                arm("api", Step::Commit),
                arm("api", Step::Respond),
            ],
        ),
        Goal::RelaySendsTwice | Goal::TwoRelaysOnce => {
            (own, vec![arm("relay-1", Step::MarkPublished)])
        }
        // Dies after both INSERTs, before COMMIT: PostgreSQL rolls both rows back.
        Goal::RolledBackTogether => (own, vec![arm("api", Step::Commit)]),
        // The attacker's statements, stepped by hand up to the read of the outbox.
        Goal::RoleDenied => {
            let by_hand = Action::Step {
                process: "psql".into(),
            };
            (own, vec![by_hand; APP_ROLE_READ + 1])
        }
        // Dies after queue.add, before COMMIT: the job is there, the task never is.
        Goal::PhantomEvent => (own, vec![arm("api", Step::Commit)]),
        // Dies after the task's own COMMIT, before the event's INSERT.
        Goal::PoolLosesEvent => (own, vec![arm("api", Step::InsertEvent)]),
        // Three requests on two connections: the server dies whenever request 1 reaches
        // its event's INSERT; some other request's task has been committed by then.
        Goal::PoolUnderLoad => {
            let every = Action::ArmKill {
                process: "api-1".into(),
                step: Step::InsertEvent,
                when: When::Always,
                times: None,
            };
            (pool_load(3), vec![every])
        }
        Goal::SkipLockedOff => (from_preset("two-relays-no-lock"), vec![]),
        Goal::CdcSurvivesKill => (own, vec![arm("cdc", Step::SaveOffset)]),
        Goal::CleanerKeepsUnpublished => (from_preset("cleaner-published-only"), vec![]),
        Goal::InboxOwnTxBreaks => {
            let mut s = own;
            s.config.worker = WorkerMode::InboxOwnTx;
            (s, vec![arm("worker-1", Step::BeginSecond)])
        }
        _ => (own, vec![]),
    }
}

#[cfg(test)]
mod ids_tests {
    /// The challenge reader's list of step ids (`ids::LESSON_STEP_IDS`) is the lesson's.
    #[test]
    fn the_readers_step_ids_are_the_lessons() {
        let ids: Vec<&str> = super::STEPS.iter().map(|s| s.id).collect();
        assert_eq!(ids, crate::ids::LESSON_STEP_IDS);
    }
}
