//! The guided lesson, as data the model can check: each step loads a scenario and has a
//! goal that is judged from the world (its counters, its configuration, the kills it saw),
//! never from what the page thinks happened. A step also carries the solution the page's
//! "show me" plays, and, where the room is asked to guess first, the outcome to predict.
//!
//! The exercises' outputs are computed here too, from a run of their presets, in the
//! lesson's own console format, so the page can set them beside the lesson's expected
//! lines.

use crate::db::LockMode;
use crate::scenario::{preset, ApiMode, RelayMode, When, WorkerMode};
use crate::world::{Action, ProcKind, Step, World};
use crate::{EventId, Scenario};

/// What a learner is asked to make happen (or to fail to make happen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Under dual write, at least one event is lost.
    LoseAnEvent,
    /// The canon measurement ran to the end: 100 tasks in the database, 90 jobs.
    CanonDualWrite,
    /// The outbox canon ran to the end: 100 tasks, 100 jobs, nothing lost.
    CanonOutbox,
    /// The API was killed at three or more different steps, the run ended, nothing lost.
    OutboxKeepsEvents,
    /// The task and its event were written and rolled back: neither row exists.
    RolledBackTogether,
    /// The app role's read of the outbox was refused with 42501.
    RoleDenied,
    /// The relay published one event twice (a jobId dedup hit or a second delivery).
    RelaySendsTwice,
    /// Two relays, 200 events, no crash: every event added once (the lesson's canon test).
    TwoRelaysOnce,
    /// Two relays ran to the end with a lock mode other than SKIP LOCKED.
    SkipLockedOff,
    /// A relay that marks before it publishes lost an event (the "try it yourself" answer).
    PublishOutsideLoses,
    /// The CDC relay was killed after publishing, before saving its offset; nothing lost.
    CdcSurvivesKill,
    /// The lesson's cleaner (published rows only) ran while the relay was down; nothing lost.
    CleanerKeepsUnpublished,
    /// At-most-once: the run ended with a lost event.
    AtMostOnceLoses,
    /// At-least-once without an inbox: the run ended with an action done twice.
    AtLeastOnceDuplicates,
    /// Effectively once: a redelivery happened and still nothing was lost or done twice.
    EffectivelyOnce,
    /// Three deliveries of one payment, one effect, balance 50 000.
    OneEffectOfThree,
    /// The inbox in its own transaction lost an action (a redelivery skipped as done).
    InboxOwnTxBreaks,
    /// Dual write with the queue first: an event exists for a task that never committed.
    PhantomEvent,
    /// An outbox table written through the pool (two transactions) still lost an event.
    PoolLosesEvent,
}

/// What a kill leads to, as the room guesses it before the reveal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Lost,
    Duplicate,
    Fine,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Lost, Outcome::Duplicate, Outcome::Fine];

    /// The outcome a finished run shows, from its counters.
    pub fn of(w: &World) -> Outcome {
        let c = w.counters();
        if c.lost > 0 {
            Outcome::Lost
        } else if c.duplicate_effects > 0 || c.phantoms > 0 {
            Outcome::Duplicate
        } else {
            Outcome::Fine
        }
    }
}

/// One step of the guided path.
#[derive(Clone, Debug)]
pub struct LessonStep {
    /// Stable id: progress is saved under it, the page keys its texts by it.
    pub id: &'static str,
    /// The lesson's section number(s) the step teaches.
    pub section: &'static str,
    pub goal: Goal,
    /// The guess the page asks for before the run, when the step is a prediction.
    pub predict: Option<Outcome>,
    /// Other scenarios the step offers as switches (preset names).
    pub variants: &'static [&'static str],
}

/// The path, in the lesson's order.
pub const STEPS: &[LessonStep] = &[
    LessonStep {
        id: "lose-dual",
        section: "1",
        goal: Goal::LoseAnEvent,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "queue-first",
        section: "1",
        goal: Goal::PhantomEvent,
        predict: None,
        variants: &["dual-write-queue-first"],
    },
    LessonStep {
        id: "canon-dual",
        section: "2",
        goal: Goal::CanonDualWrite,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "canon-outbox",
        section: "2",
        goal: Goal::CanonOutbox,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "outbox-try",
        section: "3",
        goal: Goal::OutboxKeepsEvents,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "pool",
        section: "7",
        goal: Goal::PoolLosesEvent,
        predict: None,
        variants: &["outbox-pool"],
    },
    LessonStep {
        id: "rollback",
        section: "3.2",
        goal: Goal::RolledBackTogether,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "app-role",
        section: "3.1",
        goal: Goal::RoleDenied,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "relay-twice",
        section: "4.2",
        goal: Goal::RelaySendsTwice,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "two-relays",
        section: "4.1",
        goal: Goal::TwoRelaysOnce,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "no-skip-locked",
        section: "4.1",
        goal: Goal::SkipLockedOff,
        predict: None,
        variants: &["two-relays-wait", "two-relays-nowait", "two-relays-no-lock"],
    },
    LessonStep {
        id: "why-inside",
        section: "4.2",
        goal: Goal::PublishOutsideLoses,
        predict: Some(Outcome::Lost),
        variants: &[],
    },
    LessonStep {
        id: "cdc",
        section: "4.3",
        goal: Goal::CdcSurvivesKill,
        predict: None,
        variants: &[],
    },
    LessonStep {
        id: "cleanup",
        section: "7",
        goal: Goal::CleanerKeepsUnpublished,
        predict: None,
        variants: &["cleaner-by-age", "cleaner-published-only"],
    },
    LessonStep {
        id: "at-most-once",
        section: "5",
        goal: Goal::AtMostOnceLoses,
        predict: Some(Outcome::Lost),
        variants: &[],
    },
    LessonStep {
        id: "at-least-once",
        section: "5",
        goal: Goal::AtLeastOnceDuplicates,
        predict: Some(Outcome::Duplicate),
        variants: &[],
    },
    LessonStep {
        id: "effectively-once",
        section: "5",
        goal: Goal::EffectivelyOnce,
        predict: Some(Outcome::Fine),
        variants: &[],
    },
    LessonStep {
        id: "inbox-three",
        section: "6",
        goal: Goal::OneEffectOfThree,
        predict: Some(Outcome::Fine),
        variants: &[],
    },
    LessonStep {
        id: "inbox-own-tx",
        section: "6",
        goal: Goal::InboxOwnTxBreaks,
        predict: None,
        variants: &[],
    },
];

/// The step with this id.
pub fn step(id: &str) -> Option<&'static LessonStep> {
    STEPS.iter().find(|s| s.id == id)
}

fn named(mut s: Scenario, name: &str, summary: &str) -> Scenario {
    s.name = name.into();
    s.summary = summary.into();
    s
}

fn from_preset(name: &str) -> Scenario {
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
        Goal::RolledBackTogether => from_preset("rollback"),
        Goal::RoleDenied => from_preset("app-role"),
        Goal::RelaySendsTwice => {
            let mut s = from_preset("canon-republish");
            s.faults.clear();
            s.workload.preloaded_events = 10;
            named(
                s,
                "lesson-relay-twice",
                "Outbox with 10 events waiting and no kills yet: make the relay send one twice",
            )
        }
        Goal::TwoRelaysOnce => from_preset("two-relays-skip-locked"),
        Goal::SkipLockedOff => from_preset("two-relays-skip-locked"),
        Goal::PublishOutsideLoses => from_preset("at-most-once-relay"),
        Goal::CdcSurvivesKill => {
            // The preset's rolled-back requests stay (they never reach the log); its kill
            // and its late restart go: the learner kills, the relay comes back by itself.
            let mut s = from_preset("cdc-relay");
            s.faults.retain(|f| !matches!(f, crate::scenario::Fault::Kill { .. }));
            s.schedule.clear();
            s.config.restart_after_ticks = crate::scenario::Config::default().restart_after_ticks;
            named(
                s,
                "lesson-cdc",
                "CDC relay with no kills yet: kill it after publishing, before it saves its offset",
            )
        }
        Goal::CleanerKeepsUnpublished => from_preset("cleaner-by-age"),
        Goal::AtMostOnceLoses => from_preset("at-most-once-relay"),
        Goal::AtLeastOnceDuplicates => from_preset("worker-no-inbox"),
        Goal::EffectivelyOnce => {
            let mut s = from_preset("worker-no-inbox");
            s.config.worker = WorkerMode::InboxSameTx;
            named(
                s,
                "lesson-effectively-once",
                "The same kill after COMMIT, before the ack, with the inbox in the action's transaction",
            )
        }
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
        Goal::InboxOwnTxBreaks => named(
            sandbox(ApiMode::Outbox, 10),
            "lesson-inbox-own-tx",
            "Outbox + inbox, 10 tasks: move the inbox into its own transaction and kill the worker between the two",
        ),
    }
}

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
        Goal::RelaySendsTwice => (own, vec![arm("relay-1", Step::MarkPublished)]),
        // Dies after queue.add, before COMMIT: the job is there, the task never is.
        Goal::PhantomEvent => (own, vec![arm("api", Step::Commit)]),
        // Dies after the task's own COMMIT, before the event's INSERT.
        Goal::PoolLosesEvent => (own, vec![arm("api", Step::InsertEvent)]),
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

fn killed_at(w: &World, kind: ProcKind, step: Step) -> bool {
    w.kills
        .iter()
        .any(|(p, s, _)| *s == step && w.procs[p.0 as usize].kind == kind)
}

/// How many different steps the API was killed at.
fn api_kill_steps(w: &World) -> usize {
    let mut steps: Vec<Step> = w
        .kills
        .iter()
        .filter(|(p, _, _)| w.procs[p.0 as usize].kind == ProcKind::Api)
        .map(|(_, s, _)| *s)
        .collect();
    steps.sort();
    steps.dedup();
    steps.len()
}

/// Whether the world shows the goal reached.
pub fn reached(goal: Goal, w: &World) -> bool {
    let c = w.counters();
    let done = w.settled();
    match goal {
        Goal::LoseAnEvent => {
            matches!(
                w.cfg.api,
                ApiMode::DualWriteDbFirst | ApiMode::DualWriteQueueFirst
            ) && c.lost >= 1
        }
        Goal::PhantomEvent => w.cfg.api == ApiMode::DualWriteQueueFirst && c.phantoms >= 1,
        Goal::PoolLosesEvent => w.cfg.api == ApiMode::OutboxPool && c.lost >= 1,
        Goal::CanonDualWrite => {
            done && w.cfg.api == ApiMode::DualWriteDbFirst
                && c.tasks_in_db == 100
                && c.queue_jobs == 90
        }
        Goal::CanonOutbox => {
            done && w.cfg.api == ApiMode::Outbox
                && c.tasks_in_db == 100
                && c.queue_jobs == 100
                && c.lost == 0
        }
        Goal::OutboxKeepsEvents => {
            done && w.cfg.api == ApiMode::Outbox && api_kill_steps(w) >= 3 && c.lost == 0
        }
        Goal::RolledBackTogether => {
            done && w.tasks_total > 0 && c.tasks_in_db == 0 && c.events_in_outbox == 0
        }
        Goal::RoleDenied => w.script_results.iter().any(|r| {
            r.stmt == crate::scenario::ScriptStmt::SelectCountOutbox
                && matches!(&r.result, Err(e) if e.code == "42501")
        }),
        Goal::RelaySendsTwice => c.queue_dedup_hits >= 1 || c.duplicate_deliveries >= 1,
        Goal::TwoRelaysOnce => {
            done && w.cfg.relays >= 2
                && w.cfg.relay.lock == LockMode::SkipLocked
                && c.events_in_outbox == 200
                && c.queue_adds == 200
                && c.queue_jobs == 200
        }
        Goal::SkipLockedOff => {
            done && w.cfg.relays >= 2 && w.cfg.relay.lock != LockMode::SkipLocked
        }
        Goal::PublishOutsideLoses => {
            done && w.cfg.relay.mode == RelayMode::MarkFirst && c.lost >= 1
        }
        Goal::CdcSurvivesKill => {
            done && w.cfg.cdc && killed_at(w, ProcKind::Cdc, Step::SaveOffset) && c.lost == 0
        }
        Goal::CleanerKeepsUnpublished => {
            done && w.cfg.cleaner.as_ref().is_some_and(|k| k.published_only)
                && c.events_in_outbox > 0
                && c.lost == 0
        }
        Goal::AtMostOnceLoses => done && w.cfg.relay.mode == RelayMode::MarkFirst && c.lost >= 1,
        Goal::AtLeastOnceDuplicates => {
            done && w.cfg.worker == WorkerMode::NoInbox && c.duplicate_effects >= 1
        }
        Goal::EffectivelyOnce => {
            done && w.cfg.worker == WorkerMode::InboxSameTx
                && c.duplicate_deliveries >= 1
                && c.lost == 0
                && c.duplicate_effects == 0
        }
        Goal::OneEffectOfThree => {
            done && c.deliveries >= 3 && c.effects == 1 && c.balance == 50_000
        }
        Goal::InboxOwnTxBreaks => done && w.cfg.worker == WorkerMode::InboxOwnTx && c.lost >= 1,
    }
}

/// Exercise 1's blanks, each with the answers it accepts (compared after
/// [`normalise`]): Uzbek and English spellings of the same term.
pub const BLANKS: [&[&str]; 5] = [
    &["dual"],
    &[
        "tranzaksiya",
        "tranzaksiyada",
        "transaction",
        "транзакция",
        "транзакции",
        "транзакцией",
    ],
    &["relay", "relay jarayoni", "relay process", "ретранслятор"],
    &["skip locked"],
    &["inbox", "inbox jadvali", "inbox table"],
];

/// How a learner's answer compares with the accepted ones, as a patient teacher reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Right,
    /// One or two letters off an accepted answer: "check the spelling".
    Close,
    Wrong,
}

/// The spellings a learner types for the same word made one: lower case, apostrophes
/// (' ’ ʻ ʼ `) dropped, `_` and `-` read as spaces, white space collapsed, and the older
/// Uzbek spelling «kts» read as «ks» (tranzaktsiya → tranzaksiya).
pub fn normalise(answer: &str) -> String {
    let lower = answer.to_lowercase();
    let plain: String = lower
        .chars()
        .filter(|c| !matches!(c, '\'' | '’' | 'ʻ' | 'ʼ' | '`' | '‘'))
        .map(|c| if c == '_' || c == '-' { ' ' } else { c })
        .collect();
    plain
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("kts", "ks")
}

/// The verdict on each of exercise 1's blanks (an empty blank is wrong, never close).
pub fn blank_verdicts(answers: &[String]) -> Vec<Verdict> {
    BLANKS
        .iter()
        .enumerate()
        .map(|(i, ok)| {
            let a = normalise(answers.get(i).map_or("", String::as_str));
            if ok.contains(&a.as_str()) {
                Verdict::Right
            } else if a.chars().count() >= 3 && ok.iter().any(|w| edit_distance(&a, w) <= 2) {
                Verdict::Close
            } else {
                Verdict::Wrong
            }
        })
        .collect()
}

/// Which of exercise 1's blanks are filled right.
pub fn check_blanks(answers: &[String]) -> Vec<bool> {
    blank_verdicts(answers)
        .into_iter()
        .map(|v| v == Verdict::Right)
        .collect()
}

/// Levenshtein distance in characters (answers are a few words: the quadratic table is
/// tiny).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diag + (ca != cb) as usize);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Exercise 2's expected console, as the lesson prints it.
pub const EXERCISE_2_EXPECTED: [&str; 5] = [
    "{ tarqatildi: 4, xato: 1 }",
    "{ tarqatildi: 1, xato: 0 }",
    "{ tarqatildi: 0, xato: 0 }",
    "navbat: 1, 2, 4, 5, 3",
    "3-hodisa urinishlari: 2",
];

/// Exercise 2 run in the model: three polls of the relay over five events, publishing
/// event 3 failing once; the lines its console would print.
pub fn exercise_2_output() -> Vec<String> {
    let s = from_preset("exercise-2");
    let mut w = World::new(&s);
    let relay = w
        .procs
        .iter()
        .position(|p| p.kind == ProcKind::Relay)
        .expect("exercise 2 has a relay");
    while w.polls[relay].len() < 3 && w.tick < s.max_ticks {
        if !w.step() {
            break;
        }
    }
    let mut out: Vec<String> = w.polls[relay]
        .iter()
        .take(3)
        .map(|p| format!("{{ tarqatildi: {}, xato: {} }}", p.published, p.failed))
        .collect();
    let order: Vec<String> = w
        .queue
        .created_order
        .iter()
        .map(|e| e.0.to_string())
        .collect();
    out.push(format!("navbat: {}", order.join(", ")));
    let tries = w.db.event_row(EventId(3)).map_or(0, |r| r.data.urinishlar);
    out.push(format!("3-hodisa urinishlari: {tries}"));
    out
}

/// Exercise 3's expected console, as the lesson prints it.
pub const EXERCISE_3_EXPECTED: [&str; 3] = [
    "t-1: jarayon o'ldi — ROLLBACK, balans 0",
    "t-1: balans 50000",
    "t-1: balans 50000",
];

/// The digits of an answer, in order: "1, 2, 4, 5, 3" and "12453" say the same, and so
/// do "50 000" and "50000" (exercises 2 and 3 ask for a queue order and a balance).
fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Whether a learner's answer to exercise 2 or 3 has been given (it holds a number).
pub fn is_answered(answer: &str) -> bool {
    !digits(answer).is_empty()
}

/// Whether a learner's answer says what the model's line says (its numbers, in order).
pub fn answer_matches(answer: &str, model: &str) -> bool {
    let m = digits(model);
    !m.is_empty() && digits(answer) == m
}

/// Exercise 3's third delivery, as the model ran it: how many deliveries the inbox turned
/// away (`INSERT … ON CONFLICT DO NOTHING` inserted nothing, so the action did not run).
/// The lesson's console prints the same balance twice; this is why.
pub fn exercise_3_skipped() -> u64 {
    let s = from_preset("exercise-3");
    let mut w = World::new(&s);
    w.run(s.max_ticks);
    w.tally().inbox_conflicts
}

/// Exercise 3 run in the model: one payment delivered until it is done; a line per
/// delivery, with the balance as the database has it when that delivery ends.
pub fn exercise_3_output() -> Vec<String> {
    let s = from_preset("exercise-3");
    let mut w = World::new(&s);
    let worker = w
        .procs
        .iter()
        .position(|p| p.kind == ProcKind::Worker)
        .expect("exercise 3 has a worker");
    let mut out = Vec::new();
    let mut in_delivery = false;
    let mut kills = w.procs[worker].kills;
    let mut deliveries = 0;
    while !w.settled() && w.tick < s.max_ticks {
        if !w.step() {
            break;
        }
        let c = w.counters();
        if c.deliveries > deliveries {
            deliveries = c.deliveries;
            in_delivery = true;
        }
        let p = &w.procs[worker];
        if in_delivery && p.kills > kills {
            // Killed after its COMMIT (before the ack) the delivery's work is done;
            // killed before it, the transaction rolled back.
            let committed = w.kills.last().is_some_and(|(_, s, _)| *s == Step::Complete);
            out.push(if committed {
                format!("t-1: balans {}", c.balance)
            } else {
                format!("t-1: jarayon o'ldi — ROLLBACK, balans {}", c.balance)
            });
            in_delivery = false;
        } else if in_delivery && p.alive && p.pc == Step::Fetch {
            out.push(format!("t-1: balans {}", c.balance));
            in_delivery = false;
        }
        kills = p.kills;
    }
    out
}
