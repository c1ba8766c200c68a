//! "What just happened" (#42): after a run, its kills and SQL errors (where each struck,
//! when, the statement that failed) and the events that ended badly (lost, duplicated,
//! phantom), read from the world for the lesson card and the counters. The kills and
//! errors come from the world's pinned list, so a long run's first kill is still named
//! after the capped log has dropped it.

use crate::ids::EventId;
use crate::view::{event_trouble, Trouble};
use crate::world::{step_before, step_sql, Cause, Note, World};
use crate::Step;
use serde::Serialize;

/// Kills, errors and events listed at most (the rest are counted).
pub const HAPPENED_MAX: usize = 20;

/// Where a kill struck: after `prev` (the step just done), before `step`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KillFact {
    pub process: String,
    pub prev: Option<Step>,
    pub step: Step,
    /// The first kill there.
    pub tick: u64,
    /// How many kills struck there.
    pub times: u32,
}

/// A statement that failed: its SQLSTATE and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorFact {
    pub process: String,
    pub step: Step,
    pub code: &'static str,
    pub sql: &'static str,
    pub tick: u64,
    pub times: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Happened {
    pub kills: Vec<KillFact>,
    pub errors: Vec<ErrorFact>,
    pub lost: Vec<EventId>,
    pub phantoms: Vec<EventId>,
    /// Duplicate deliveries or effects.
    pub duplicates: Vec<EventId>,
}

impl Happened {
    /// The events of one kind of trouble.
    pub fn events(&self, t: Trouble) -> &[EventId] {
        match t {
            Trouble::Lost => &self.lost,
            Trouble::Phantom => &self.phantoms,
            Trouble::Duplicate | Trouble::DuplicateEffect => &self.duplicates,
        }
    }
}

/// What the run did so far.
pub fn happened(w: &World) -> Happened {
    let mut h = pinned_facts(w);
    for (e, _) in w.auditor().events() {
        let list = match event_trouble(w, e) {
            Some(Trouble::Lost) => &mut h.lost,
            Some(Trouble::Phantom) => &mut h.phantoms,
            Some(Trouble::Duplicate | Trouble::DuplicateEffect) => &mut h.duplicates,
            None => continue,
        };
        if list.len() < HAPPENED_MAX {
            list.push(e);
        }
    }
    h
}

/// The kills and SQL errors only (the event lists left empty): what the event log pins
/// twice a second while playing, without walking every event's life.
pub fn pinned_facts(w: &World) -> Happened {
    let mut h = Happened::default();
    let procs = w.procs();
    for e in w.pinned() {
        let (Some(p), Some(step)) = (e.proc, e.step) else {
            continue;
        };
        let Some(proc_) = procs.get(p.0 as usize) else {
            continue;
        };
        match e.note {
            Note::Killed => {
                if let Some(k) = h
                    .kills
                    .iter_mut()
                    .find(|k| k.process == proc_.name && k.step == step)
                {
                    k.times += 1;
                } else if h.kills.len() < HAPPENED_MAX {
                    h.kills.push(KillFact {
                        process: proc_.name.clone(),
                        prev: step_before(&proc_.program, step),
                        step,
                        tick: e.tick,
                        times: 1,
                    });
                }
            }
            Note::Error { code } => {
                if let Some(x) = h
                    .errors
                    .iter_mut()
                    .find(|x| x.process == proc_.name && x.step == step && x.code == code)
                {
                    x.times += 1;
                } else if h.errors.len() < HAPPENED_MAX {
                    h.errors.push(ErrorFact {
                        process: proc_.name.clone(),
                        step,
                        code,
                        sql: step_sql(proc_.kind, w.cfg(), step, &w.script),
                        tick: e.tick,
                        times: 1,
                    });
                }
            }
            _ => {}
        }
    }
    h
}

/// The blow behind an event's trouble (#42): the kill or fault that made it lost or
/// aborted (its fate's cause), else the blow that touched it (a duplicate's kill; a kill
/// before an operator's act), with the tick it struck at. From the world's cause records
/// (history only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Struck {
    pub event: EventId,
    pub cause: Cause,
    pub tick: u64,
}

/// The first record a kill made, else the first of all (an operator's act, a flush).
fn kill_first(records: impl Iterator<Item = Struck> + Clone) -> Option<Struck> {
    let mut all = records.clone();
    let mut kills = records;
    kills
        .find(|s| matches!(s.cause, Cause::Kill { .. }))
        .or_else(|| all.next())
}

/// The fates and blows recorded, as [`Struck`]s, fates first.
fn records(w: &World) -> impl Iterator<Item = Struck> + Clone + '_ {
    let causes = w.causes();
    let fates = causes
        .fates
        .iter()
        .filter(|f| f.2.is_blow())
        .map(|&(event, _, cause, tick)| Struck { event, cause, tick });
    let blows = causes.blows.iter().map(|b| Struck {
        event: b.event,
        cause: b.cause,
        tick: b.tick,
    });
    fates.chain(blows)
}

/// The blow behind event `e`'s trouble, if the records hold one.
pub fn struck(w: &World, e: EventId) -> Option<Struck> {
    kill_first(records(w).filter(move |s| s.event == e))
}

/// The blow a run's story names (#42): behind the first lost, phantom or duplicated event;
/// else the first blow recorded (an aborted event's kill, a redelivery's).
pub fn behind(w: &World, h: &Happened) -> Option<Struck> {
    let troubled = h
        .lost
        .iter()
        .chain(&h.phantoms)
        .chain(&h.duplicates)
        .find_map(|&e| struck(w, e));
    troubled.or_else(|| kill_first(records(w)))
}
