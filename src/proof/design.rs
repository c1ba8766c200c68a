//! What the proof's parts share: the names of the designs and of a crash cell's outcome,
//! and loading a found trace into the playground. Its own module so lockstep and the
//! explorer's page both use it without importing each other (they did: a cycle).

use leptos::prelude::*;
use outbox_model::explore::{CellOutcome, Design, Trace};

use crate::ctl::{Ctl, Notice};
use crate::i18n::{Key, Reason};
use crate::run::sim::Sim;

/// The text key of a design's name.
pub fn design_key(d: Design) -> Key {
    match d {
        Design::DualWriteDbFirst => Key::DesignDualDbFirst,
        Design::DualWriteQueueFirst => Key::DesignDualQueueFirst,
        Design::OutboxAtMostOnce => Key::DesignAtMostOnce,
        Design::Outbox => Key::DesignOutbox,
        Design::OutboxInbox => Key::DesignOutboxInbox,
    }
}

/// The worker a design runs, in words (#42: the dual-write row's "duplicate effects:
/// broken" comes from its worker without an inbox, not from the dual write).
pub fn worker_key(d: Design) -> Key {
    use outbox_model::scenario::WorkerMode;
    let b = outbox_model::explore::Bounds::default();
    match d.scenario(&b).config.worker {
        WorkerMode::NoInbox => Key::ProofWorkerNoInbox,
        _ => Key::ProofWorkerInbox,
    }
}

/// The text key of a crash cell's outcome.
pub fn cell_key(o: CellOutcome) -> Key {
    match o {
        CellOutcome::Lost => Key::CellLost,
        CellOutcome::DuplicateEffect => Key::CellDupEffect,
        CellOutcome::Phantom => Key::CellPhantom,
        CellOutcome::DuplicateDelivery => Key::CellDupDelivery,
        CellOutcome::Fine => Key::CellFine,
        CellOutcome::NotApplicable => Key::CellNa,
    }
}

/// Puts a trace into the playground, at its end, ready to step back through, and says
/// what was loaded (`what`: the design and the kill point or property; #24: it used to
/// land on the counters with no word).
pub fn load_trace(ctl: Ctl, trace: &Trace, what: Reason) {
    let mut s = trace.scenario.clone();
    // The explorer keeps no log (it is history, not state); the page shows one.
    s.config.log_cap = s.config.log_cap.max(200);
    let built = Sim::check(&s).map_err(|e| e.reason()).and_then(|_| {
        let mut sim = Sim::new(s);
        for a in &trace.actions {
            sim.act(a.clone()).map_err(|e| e.reason())?;
        }
        Ok(sim)
    });
    match built {
        Ok(sim) => {
            let what = what.arg("n", sim.total());
            let _ = ctl.replace(sim);
            // The explorer's run, not the learner's: it ticks no lesson step or challenge
            // (#42: a loaded counterexample marked step 1 done).
            ctl.shared.set(true);
            ctl.notice
                .set(Some(Notice::info(Key::NoticeTraceLoaded, what)));
            if let Some(el) = document()
                .query_selector("[data-testid=counters]")
                .ok()
                .flatten()
            {
                el.scroll_into_view();
            }
        }
        Err(why) => ctl
            .notice
            .set(Some(Notice::error(Key::NoticeBadTrace, why))),
    }
}
