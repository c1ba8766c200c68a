//! How the world notes each judged event's fate and blows (see `cause.rs`).

use super::cause::{Blow, Cause, Causes, Fate, Repeat, MAX_CAUSES};
use super::World;
use crate::auditor::Class;
use crate::ids::EventId;

impl World {
    /// Notes the event's judgement `c` (before it is kept) and a blow, if one is happening.
    #[inline(always)]
    pub(super) fn note_cause(&mut self, e: EventId, c: Option<Class>) {
        // Most judgements are a process's own step moving an event along: nothing to note.
        let fated = matches!(c, Some(Class::Lost | Class::Aborted));
        if self.history && (fated || self.causes.now.is_blow()) {
            self.note_cause_slow(e, c);
        }
    }

    #[inline(never)]
    fn note_cause_slow(&mut self, e: EventId, c: Option<Class>) {
        let Some(life) = self.auditor.life(e) else {
            return;
        };
        let now = self.causes.now;
        let tick = self.tick;
        let fate = match c {
            Some(Class::Lost) if life.class != Class::Lost => Some(Fate::Lost),
            Some(Class::Aborted) if life.class != Class::Aborted => Some(Fate::Aborted),
            _ => None,
        };
        let blow = now.is_blow().then_some(Blow {
            event: e,
            cause: now,
            adds: life.adds,
            deliveries: life.deliveries,
            effects: life.effects,
            tick,
        });
        let causes = &mut self.causes;
        if let Some(f) = fate.filter(|_| causes.fates.len() < MAX_CAUSES) {
            causes.fates.push((e, f, now, tick));
        }
        if let Some(b) = blow.filter(|_| causes.blows.len() < MAX_CAUSES) {
            causes.blows.push(b);
        }
    }

    /// Whether an event is now `fate` (lost; aborted, or a phantom: aborted with a job)
    /// and got there by a cause `matches` accepts.
    pub fn fate_by(&self, fate: Fate, phantom: bool, matches: impl Fn(Cause) -> bool) -> bool {
        self.causes.fates.iter().any(|&(e, f, c, _)| {
            f == fate
                && matches(c)
                && self.auditor.life(e).is_some_and(|l| {
                    let class = match fate {
                        Fate::Lost => Class::Lost,
                        Fate::Aborted => Class::Aborted,
                    };
                    l.class == class && (!phantom || l.jobs_created > 0)
                })
        })
    }

    /// Whether some event's count `r` repeated after a blow `matches` accepts: the blow is
    /// the first to touch the event since that count last grew, the count had grown at
    /// least once before it (there was something to repeat), and it grew again after.
    pub fn repeat_by(&self, r: Repeat, matches: impl Fn(Cause) -> bool) -> bool {
        let blows = &self.causes.blows;
        blows.iter().enumerate().any(|(i, b)| {
            let n = b.count(r);
            n >= 1
                && matches(b.cause)
                && !blows[..i]
                    .iter()
                    .any(|a| a.event == b.event && a.count(r) == n)
                && self.auditor.life(b.event).is_some_and(|l| {
                    let now = match r {
                        Repeat::Add => l.adds,
                        Repeat::Delivery => l.deliveries,
                        Repeat::Effect => l.effects,
                    };
                    now > n
                })
        })
    }

    /// The causes recorded so far (for the page and the CLI).
    pub fn causes(&self) -> &Causes {
        &self.causes
    }
}
