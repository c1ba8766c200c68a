//! What a lesson step is: its goal's name and its fields.

use crate::challenge::Outcome;

/// What a learner is asked to make happen (or to fail to make happen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Under dual write, an event is lost because the API died after COMMIT, before
    /// queue.add.
    LoseAnEvent,
    /// The canon measurement ran to the end: 100 tasks in the database, 90 jobs.
    CanonDualWrite,
    /// The outbox canon ran to the end: 100 tasks, 100 jobs, nothing lost.
    CanonOutbox,
    /// The API was killed at three or more different steps, the run ended, nothing lost.
    OutboxKeepsEvents,
    /// The learner killed the API after both INSERTs, before COMMIT: the transaction rolled
    /// back, neither row exists.
    RolledBackTogether,
    /// The learner stepped the psql session by hand to the app role's read of the outbox,
    /// and it was refused with 42501.
    RoleDenied,
    /// The relay died after its queue.add, before marking: the event was published again.
    RelaySendsTwice,
    /// Two relays over 200 events, one killed after its queue.add and before its mark: the
    /// row was published again, jobId absorbed it, 200 jobs.
    TwoRelaysOnce,
    /// Two relays ran to the end with a lock mode other than SKIP LOCKED.
    SkipLockedOff,
    /// A relay that marks before it publishes lost an event (the "try it yourself" answer).
    PublishOutsideLoses,
    /// The CDC relay was killed after publishing, before saving its offset; nothing lost.
    CdcSurvivesKill,
    /// The lesson's cleaner (published rows only) ran while the relay was down; nothing lost.
    CleanerKeepsUnpublished,
    /// At-most-once: an event lost because the relay died after marking, before publishing.
    AtMostOnceLoses,
    /// At-least-once without an inbox: an action ran twice because the worker died after
    /// its COMMIT, before its ack.
    AtLeastOnceDuplicates,
    /// Effectively once: the same death redelivered the job and still nothing was lost or
    /// done twice.
    EffectivelyOnce,
    /// Three deliveries of one payment, one effect, balance 50 000.
    OneEffectOfThree,
    /// The inbox apart from the action broke: the worker died between the two
    /// transactions, and an action was lost (inbox first) or ran twice (action first).
    InboxOwnTxBreaks,
    /// Dual write with the queue first: the API died after queue.add, before COMMIT: an
    /// event exists for a task that never committed.
    PhantomEvent,
    /// An outbox table written through the pool (two transactions) still lost an event:
    /// the API died between the two INSERTs.
    PoolLosesEvent,
    /// BEGIN … COMMIT, but each statement through `pool.query` (#43): one request at a
    /// time loses nothing however the API dies; with more concurrent requests than the
    /// pool's connections, an API death lost an event ("it works on my laptop").
    PoolUnderLoad,
    /// The summary (the seed's «Xulosa»): the canon outbox run with its republish ran to
    /// the end — 100 tasks, still 100 jobs, nothing lost.
    Summary,
}

/// One step of the guided path.
#[derive(Clone, Debug)]
pub struct LessonStep {
    /// Stable id: progress is saved under it, the page keys its texts by it.
    pub id: &'static str,
    /// The lesson's section number(s) the step teaches.
    pub section: &'static str,
    pub goal: Goal,
    /// The goal in the challenge goal language: the one source the step is judged by.
    pub goal_text: &'static str,
    /// The step is a measurement: pressing ▶ alone reaches it (the lesson's canon runs).
    /// Every other step needs an act of the learner (a kill, a mode switch, a prediction,
    /// an answer, a statement stepped by hand).
    pub measurement: bool,
    /// The guess the page asks for before the run, when the step is a prediction.
    pub predict: Option<Outcome>,
    /// Other scenarios the step offers as switches (preset names).
    pub variants: &'static [&'static str],
}
