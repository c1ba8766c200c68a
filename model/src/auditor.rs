//! The auditor: kept apart from the process code. It hears what happened (an event was
//! minted, added to the queue, delivered, acted on) and keeps each event's life in a few
//! bytes; the world tells it, from the durable state alone, which class each touched event
//! is now in. From that it derives the counters, and the named invariants compare its
//! tallies with the world's own state.

use crate::ids::{EventId, EventKind};
use serde::{Deserialize, Serialize};

/// Where an event stands, judged from durable state and live process memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Its task is not committed yet (or not even inserted).
    Pending,
    /// Its task will never exist (rolled back, or the writer died before COMMIT).
    Aborted,
    /// The business action happened at least once.
    Effected,
    /// Not acted on yet, but something durable or alive still carries it.
    InFlight,
    /// Committed, never acted on, and no retained state will ever deliver it: never
    /// published, its job removed (`removeOnFail`, `removeOnComplete` and then lost),
    /// flushed by a Redis restart without persistence, or its row cleaned.
    Lost,
    /// Committed, never acted on, and its job sits in BullMQ's failed set (or waits with
    /// a deferred failure that puts it there at the next fetch, e.g. stalled more than
    /// `maxStalledCount` times): nothing moves it on by itself, but the job is retained,
    /// and `job.retry()` delivers it. Not lost: it waits for a retry. (JSON counter
    /// `failed_needs_retry`.) A row in the dead-letter table `outbox_olik` is not this
    /// class: the database still holds it, and it is counted in flight.
    Failed,
}

const CLASSES: usize = 6;

fn slot(c: Class) -> usize {
    c as usize
}

/// The task an event belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TaskRef {
    /// Not inserted yet (queue-first dual write adds before it inserts).
    NotYet,
    /// A row of `vazifalar`, by index.
    Row(u32),
    /// Given before the run starts (the exercises' prepared outbox).
    Given,
    /// No task: the event's own outbox row decides (a scripted INSERT).
    OwnRow,
}

/// One event's life, in a few bytes so a million of them fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Life {
    pub task: TaskRef,
    pub intent: u32,
    pub kind: EventKind,
    pub adds: u16,
    pub jobs_created: u16,
    pub dedup_hits: u16,
    pub deliveries: u16,
    pub effects: u16,
    pub class: Class,
    pub committed_seen: bool,
}

/// Three words instead of a write per field: the explorer hashes every event's life in
/// every state it reaches (a third of its key's writes were these). Destructured, so a
/// field added to `Life` is a compile error here rather than left out of the state.
impl std::hash::Hash for Life {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let Life {
            task,
            intent,
            kind,
            adds,
            jobs_created,
            dedup_hits,
            deliveries,
            effects,
            class,
            committed_seen,
        } = *self;
        let task = match task {
            TaskRef::NotYet => 0,
            TaskRef::Row(r) => 1 | (r as u64) << 8,
            TaskRef::Given => 2,
            TaskRef::OwnRow => 3,
        };
        h.write_u64(
            task | (kind as u64) << 40 | (class as u64) << 41 | (committed_seen as u64) << 48,
        );
        h.write_u64(intent as u64 | (adds as u64) << 32 | (jobs_created as u64) << 48);
        h.write_u64(dedup_hits as u64 | (deliveries as u64) << 16 | (effects as u64) << 32);
    }
}

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Auditor {
    /// Indexed by event id; events are minted densely from 1 (slot 0 is unused).
    lives: Vec<Life>,
    /// Effects per (intent, kind): a duplicate effect is a second one for the same
    /// client request, whatever event id carried it.
    intent_effects: Vec<[u16; 2]>,
    /// Highest event rank a consumer has seen per intent (0xff: none yet).
    intent_rank: Vec<u8>,
    class_counts: [u64; CLASSES],
    pub committed_events: u64,
    pub queue_adds: u64,
    pub queue_dedup_hits: u64,
    pub jobs_created: u64,
    pub deliveries: u64,
    pub effects: u64,
    pub duplicate_deliveries: u64,
    pub duplicate_effects: u64,
    pub phantoms: u64,
    pub reordered: u64,
    /// Committed tasks per client request (kept only when the client retries).
    intent_tasks: Vec<u8>,
    pub duplicate_tasks: u64,
}

clone_reusing!(Auditor {
    class_counts,
    committed_events,
    queue_adds,
    queue_dedup_hits,
    jobs_created,
    deliveries,
    effects,
    duplicate_deliveries,
    duplicate_effects,
    phantoms,
    reordered,
    duplicate_tasks
} refill {
    lives,
    intent_effects,
    intent_rank,
    intent_tasks
});

impl Auditor {
    /// Asks for the events' lives and the intents' lists (see `World::prefetch_parts`).
    pub(crate) fn prefetch_parts(&self) {
        use crate::prefetch::slice;
        slice(&self.lives);
        slice(&self.intent_effects);
        slice(&self.intent_rank);
        slice(&self.intent_tasks);
    }

    /// The auditor's state for the explorer's key (`World::hash_state`): the lives, the
    /// per-intent lists and `reordered`, with the small entries packed (a key costs a hash
    /// round per word, and the derived `Hash` spent three on each `[u16; 2]`). The other
    /// counters are left out: each is a function of the lives and lists fed here
    /// ([`Auditor::derived_counters`]; exact while no per-event count saturates at
    /// `u16::MAX`, far beyond any explorer world), so two states with equal lives have
    /// equal counters, and feeding them (15 words of a ~170-word key) merged nothing more.
    /// `reordered` is history (deliveries seen out of order) and stays. Destructured, so a
    /// field added to `Auditor` is a compile error here rather than left out of the state.
    pub(crate) fn hash_state<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        let Auditor {
            lives,
            intent_effects,
            intent_rank,
            class_counts: _,
            committed_events: _,
            queue_adds: _,
            queue_dedup_hits: _,
            jobs_created: _,
            deliveries: _,
            effects: _,
            duplicate_deliveries: _,
            duplicate_effects: _,
            phantoms: _,
            reordered,
            intent_tasks,
            duplicate_tasks: _,
        } = self;
        debug_assert_eq!(self.kept_counters(), self.derived_counters());
        // Lengths as 32 bits: a list of 2^32 events is out of reach.
        h.write_u64(lives.len() as u64 | (intent_effects.len() as u64) << 32);
        for l in lives {
            l.hash(h);
        }
        for e in intent_effects.chunks(2) {
            let word = |x: &[u16; 2]| x[0] as u64 | (x[1] as u64) << 16;
            h.write_u64(word(&e[0]) | e.get(1).map_or(0, word) << 32);
        }
        // Byte lists: both lengths first (so the stream stays a prefix code, as the derived
        // `Hash`'s was), then their bytes eight to a word, the last one padded with zeros.
        h.write_u64(intent_rank.len() as u64 | (intent_tasks.len() as u64) << 32);
        for c in intent_rank.chunks(8).chain(intent_tasks.chunks(8)) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            h.write_u64(u64::from_le_bytes(w));
        }
        h.write_u64(*reordered);
    }

    /// The counters [`Auditor::hash_state`] leaves out, as kept: the classes' counts, then
    /// the tallies in the order of [`Auditor::derived_counters`].
    fn kept_counters(&self) -> [u64; CLASSES + 10] {
        let mut v = [0; CLASSES + 10];
        v[..CLASSES].copy_from_slice(&self.class_counts);
        v[CLASSES..].copy_from_slice(&[
            self.committed_events,
            self.queue_adds,
            self.queue_dedup_hits,
            self.jobs_created,
            self.deliveries,
            self.effects,
            self.duplicate_deliveries,
            self.duplicate_effects,
            self.phantoms,
            self.duplicate_tasks,
        ]);
        v
    }

    /// The same counters as the lives and the per-intent lists give them (slot 0 of
    /// `lives` is no event): what the methods that keep them maintain, step by step.
    pub(crate) fn derived_counters(&self) -> [u64; CLASSES + 10] {
        let mut v = [0; CLASSES + 10];
        let over = |n: u64| n.saturating_sub(1);
        for l in self.lives.iter().skip(1) {
            v[slot(l.class)] += 1;
            let t = &mut v[CLASSES..];
            t[0] += l.committed_seen as u64;
            t[1] += l.adds as u64;
            t[2] += l.dedup_hits as u64;
            t[3] += l.jobs_created as u64;
            t[4] += l.deliveries as u64;
            t[5] += l.effects as u64;
            t[6] += over(l.deliveries as u64);
            t[8] += (l.class == Class::Aborted && l.jobs_created > 0) as u64;
        }
        let effects = self.intent_effects.iter().flatten();
        v[CLASSES + 7] = effects.map(|&n| over(n as u64)).sum();
        v[CLASSES + 9] = self.intent_tasks.iter().map(|&n| over(n as u64)).sum();
        v
    }
}

impl Auditor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for this many events up front (a hint: the lists still grow past it).
    pub(crate) fn reserve(&mut self, events: usize) {
        self.lives.reserve(events + 1);
        self.intent_effects.reserve(events + 1);
        self.intent_rank.reserve(events + 1);
    }

    fn life_mut(&mut self, e: EventId) -> &mut Life {
        &mut self.lives[e.index()]
    }

    pub fn life(&self, e: EventId) -> Option<&Life> {
        if e.0 == 0 {
            return None;
        }
        self.lives.get(e.index())
    }

    pub fn events(&self) -> impl Iterator<Item = (EventId, &Life)> {
        self.lives
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, l)| (EventId(i as u32), l))
    }

    /// A new event; ids must come densely, in order, from 1.
    pub fn minted(&mut self, e: EventId, intent: u32, kind: EventKind, task: TaskRef) {
        let life = Life {
            task,
            intent,
            kind,
            adds: 0,
            jobs_created: 0,
            dedup_hits: 0,
            deliveries: 0,
            effects: 0,
            class: Class::Pending,
            committed_seen: false,
        };
        if self.lives.is_empty() {
            self.lives.push(Life {
                class: Class::Aborted,
                ..life
            });
        }
        assert_eq!(e.index(), self.lives.len(), "events are minted densely");
        self.lives.push(life);
        self.class_counts[slot(Class::Pending)] += 1;
        let i = intent as usize;
        if self.intent_effects.len() <= i {
            self.intent_effects.resize(i + 1, [0, 0]);
            self.intent_rank.resize(i + 1, 0xff);
        }
    }

    /// A task for this client request committed; a second one is a duplicate task (the
    /// client retried, and nothing told the API it was the same request).
    pub fn task_committed(&mut self, intent: u32) {
        let i = intent as usize;
        if self.intent_tasks.len() <= i {
            self.intent_tasks.resize(i + 1, 0);
        }
        let n = &mut self.intent_tasks[i];
        *n = n.saturating_add(1);
        if *n > 1 {
            self.duplicate_tasks += 1;
        }
    }

    pub fn task_inserted(&mut self, e: EventId, task_idx: u32) {
        self.life_mut(e).task = TaskRef::Row(task_idx);
    }

    /// The event's task (and in outbox mode its row) committed.
    pub fn committed(&mut self, e: EventId) {
        let l = self.life_mut(e);
        if !l.committed_seen {
            l.committed_seen = true;
            self.committed_events += 1;
        }
    }

    pub fn queue_add(&mut self, e: EventId, created: bool) {
        self.queue_adds += 1;
        let l = self.life_mut(e);
        l.adds = l.adds.saturating_add(1);
        if created {
            l.jobs_created = l.jobs_created.saturating_add(1);
            let new_phantom = l.class == Class::Aborted && l.jobs_created == 1;
            self.jobs_created += 1;
            if new_phantom {
                self.phantoms += 1;
            }
        } else {
            l.dedup_hits = l.dedup_hits.saturating_add(1);
            self.queue_dedup_hits += 1;
        }
    }

    pub fn delivered(&mut self, e: EventId) {
        self.deliveries += 1;
        let l = self.life_mut(e);
        l.deliveries = l.deliveries.saturating_add(1);
        let (intent, rank, again) = (l.intent as usize, l.kind.rank(), l.deliveries > 1);
        if again {
            self.duplicate_deliveries += 1;
        }
        let seen = self.intent_rank[intent];
        if seen != 0xff && seen > rank {
            self.reordered += 1;
        }
        if seen == 0xff || seen < rank {
            self.intent_rank[intent] = rank;
        }
    }

    /// The business action for this event happened (committed, or sent outside).
    pub fn effect(&mut self, e: EventId) {
        self.effects += 1;
        let l = self.life_mut(e);
        l.effects = l.effects.saturating_add(1);
        let (intent, kind) = (l.intent as usize, l.kind.rank() as usize);
        let n = &mut self.intent_effects[intent][kind];
        *n = n.saturating_add(1);
        if *n > 1 {
            self.duplicate_effects += 1;
        }
    }

    /// The world's judgement of an event's class, from durable state.
    pub fn classify(&mut self, e: EventId, c: Class) {
        let l = self.life_mut(e);
        let old = l.class;
        if old == c {
            return;
        }
        l.class = c;
        let phantom_now = c == Class::Aborted && l.jobs_created > 0;
        let phantom_before = old == Class::Aborted && l.jobs_created > 0;
        self.class_counts[slot(old)] -= 1;
        self.class_counts[slot(c)] += 1;
        if phantom_now && !phantom_before {
            self.phantoms += 1;
        } else if phantom_before && !phantom_now {
            self.phantoms -= 1;
        }
    }

    pub fn count(&self, c: Class) -> u64 {
        self.class_counts[slot(c)]
    }

    /// conservation: every committed event is acted on, in flight, failed (waiting for a
    /// retry) or lost — each exactly once — and the tally of commits heard equals the
    /// tally of classes judged.
    pub fn check_conservation(&self) -> Result<(), String> {
        let judged = self.count(Class::Effected)
            + self.count(Class::InFlight)
            + self.count(Class::Failed)
            + self.count(Class::Lost);
        if judged != self.committed_events {
            return Err(format!(
                "conservation: {} committed events heard, but effected {} + in flight {} + failed {} + lost {} = {}",
                self.committed_events,
                self.count(Class::Effected),
                self.count(Class::InFlight),
                self.count(Class::Failed),
                self.count(Class::Lost),
                judged
            ));
        }
        Ok(())
    }

    /// Whether [`Auditor::check_event`] passes, without building its message.
    #[inline]
    pub fn event_ok(&self, e: EventId, inbox_once: bool) -> bool {
        self.life(e).is_none_or(|l| {
            l.effects <= l.deliveries
                && !(inbox_once && l.effects > 1)
                && l.adds == l.jobs_created + l.dedup_hits
        })
    }

    /// effects-follow-deliveries (for queue-driven consumers): no event is acted on more
    /// often than it was delivered.
    pub fn check_event(&self, e: EventId, inbox_once: bool) -> Result<(), String> {
        let Some(l) = self.life(e) else { return Ok(()) };
        if l.effects > l.deliveries {
            return Err(format!(
                "effects-follow-deliveries: {e} acted on {} times, delivered {}",
                l.effects, l.deliveries
            ));
        }
        if inbox_once && l.effects > 1 {
            return Err(format!(
                "inbox-once: {e} acted on {} times behind an inbox",
                l.effects
            ));
        }
        if l.adds != l.jobs_created + l.dedup_hits {
            return Err(format!(
                "queue-adds: {e} adds {} != created {} + dedup {}",
                l.adds, l.jobs_created, l.dedup_hits
            ));
        }
        Ok(())
    }
}

impl Auditor {
    /// How many events have been minted.
    pub fn events_len(&self) -> usize {
        self.lives.len().saturating_sub(1)
    }
}
