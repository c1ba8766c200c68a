//! Judging a goal against a world: every subject is read from the world's own state
//! (its counters, configuration, kills and script results), never from what the page saw.

use super::ast::{Cond, Count, Expr, Op, Setting, Symptom, COUNTERS};
use crate::action::{ProcKind, Step};
use crate::world::{Counters, Fate, Repeat, World};

pub(super) fn eval(e: &Expr, w: &World, c: &Counters) -> bool {
    match e {
        Expr::Any(v) => v.iter().any(|x| eval(x, w, c)),
        Expr::All(v) => v.iter().all(|x| eval(x, w, c)),
        Expr::Cond(k) => cond_holds(k, w, c),
    }
}

pub(super) fn cond_holds(k: &Cond, w: &World, c: &Counters) -> bool {
    match k {
        Cond::Settled => w.settled(),
        Cond::Count { of, op, value } => op.compare(count(*of, w, c), *value),
        Cond::Is { setting, op } => (setting_now(*setting, w) == *setting) == (*op == Op::Eq),
        Cond::Killed { kind, step } => w
            .kills
            .iter()
            .any(|(p, s, _)| s == step && kind_of(w, p.0) == Some(*kind)),
        Cond::Refused {
            stmt,
            sqlstate,
            by_hand,
        } => w.script_results.iter().any(|r| {
            r.stmt == *stmt
                && (r.by_hand || !by_hand)
                && matches!(&r.result, Err(e) if e.code == *sqlstate)
        }),
        Cond::By { symptom, cause } => {
            let m = |c| cause.matches(c);
            match symptom {
                Symptom::Lost => w.fate_by(Fate::Lost, false, m),
                Symptom::Phantom => w.fate_by(Fate::Aborted, true, m),
                Symptom::Aborted => w.fate_by(Fate::Aborted, false, m),
                Symptom::DuplicateEffect => w.repeat_by(Repeat::Effect, m),
                Symptom::Redelivered => w.repeat_by(Repeat::Delivery, m),
                Symptom::Republished => w.repeat_by(Repeat::Add, m),
            }
        }
    }
}

pub(super) fn kind_of(w: &World, process: u8) -> Option<ProcKind> {
    w.procs.get(process as usize).map(|p| p.kind)
}

pub(super) fn count(of: Count, w: &World, c: &Counters) -> u64 {
    match of {
        Count::Counter(i) => COUNTERS.get(i).map_or(0, |(_, read)| read(c)),
        Count::TasksTotal => u64::from(w.tasks_total),
        Count::KillSteps(kind) => {
            let mut steps: Vec<Step> = w
                .kills
                .iter()
                .filter(|(p, _, _)| kind_of(w, p.0) == Some(kind))
                .map(|(_, s, _)| *s)
                .collect();
            steps.sort();
            steps.dedup();
            steps.len() as u64
        }
        Count::Relays => u64::from(w.cfg.relays),
        Count::Workers => u64::from(w.cfg.workers),
    }
}

/// The world's value of the setting's key, as a setting (so `==` compares like with like).
pub(super) fn setting_now(s: Setting, w: &World) -> Setting {
    let cfg = &w.cfg;
    match s {
        Setting::Api(_) => Setting::Api(cfg.api),
        Setting::Worker(_) => Setting::Worker(cfg.worker),
        Setting::RelayMode(_) => Setting::RelayMode(cfg.relay.mode),
        Setting::RelayLock(_) => Setting::RelayLock(cfg.relay.lock),
        Setting::Cdc(_) => Setting::Cdc(cfg.cdc),
        Setting::CleanerPublishedOnly(_) => {
            Setting::CleanerPublishedOnly(cfg.cleaner.as_ref().is_some_and(|k| k.published_only))
        }
    }
}

/// Whether `e` reads a counter that walks every unpublished row (`stuck`,
/// `oldest_unpublished_age_ticks`).
pub(super) fn reads_ages(e: &Expr) -> bool {
    match e {
        Expr::Any(v) | Expr::All(v) => v.iter().any(reads_ages),
        Expr::Cond(Cond::Count {
            of: Count::Counter(i),
            ..
        }) => COUNTERS
            .get(*i)
            .is_some_and(|(name, _)| matches!(*name, "stuck" | "oldest_unpublished_age_ticks")),
        Expr::Cond(_) => false,
    }
}
