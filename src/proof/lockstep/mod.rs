//! Lockstep: the same seed and the same kills run through two or three designs side by
//! side, one scheduler step each per beat, with counters that visibly part ways.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::explore::{Bounds, Design};
use outbox_model::{Counters, Scenario};

use crate::browser::slices::{now_ms, owner_alive, run_in_frames};
use crate::i18n::{tr, Key};
use crate::proof::lockstep::design_toggles::DesignToggles;
use crate::proof::lockstep::table::LockstepTable;
use crate::run::sim::Sim;

pub mod design_toggles;
pub mod table;

/// Steps per design per frame.
const BEAT: usize = 8;

/// A design's scenario for the lockstep run: the explorer's world at `tasks`, restarts
/// on, the shared seed, and the chosen kills at the canon's `i % 10 == 3`.
pub fn scenario(d: Design, tasks: u32, seed: u64, kill_api: bool, kill_worker: bool) -> Scenario {
    let b = Bounds {
        tasks,
        relays: 1,
        workers: 1,
        ..Bounds::default()
    };
    let mut s = d.scenario(&b);
    s.seed = seed;
    s.config.set_auto_restart(true);
    s.config.log_cap = 0;
    s.add_canon_kills(kill_api, kill_worker);
    s
}

#[component]
pub fn Lockstep() -> impl IntoView {
    let owner = owner_alive();
    let chosen = RwSignal::new(vec![
        Design::DualWriteDbFirst,
        Design::Outbox,
        Design::OutboxInbox,
    ]);
    let tasks = RwSignal::new(20u32);
    let seed = RwSignal::new(1u64);
    let kill_api = RwSignal::new(true);
    let kill_worker = RwSignal::new(true);
    let counters = RwSignal::new(Vec::<(Design, Counters, bool)>::new());
    let running = RwSignal::new(false);
    let form = Form {
        chosen,
        tasks,
        seed,
        kill_api,
        kill_worker,
    };
    let start = move |_| run_lockstep(owner.clone(), form, counters, running);
    view! {
        <div class="lockstep" data-testid="lockstep">
            <h3 class="proof__subheading">{tr(Key::LsHeading)}</h3>
            <p>{tr(Key::LsIntro)}</p>
            <DesignToggles chosen/>
            <div class="lockstep__choices">
                <label>{tr(Key::TasksLabel)}
                    <input type="number" min="1" max="1000" data-testid="ls-tasks" prop:value=move || tasks.get().to_string()
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u32>() { tasks.set(v.clamp(1, 1000)) } } />
                </label>
                <label>{tr(Key::LsSeed)}
                    <input type="number" min="0" data-testid="ls-seed" prop:value=move || seed.get().to_string()
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { seed.set(v) } } />
                </label>
                <label><input type="checkbox" data-testid="ls-kill-api" prop:checked=move || kill_api.get()
                    on:change=move |ev| kill_api.set(event_target_checked(&ev)) />{tr(Key::LsKillApi)}</label>
                <label><input type="checkbox" data-testid="ls-kill-worker" prop:checked=move || kill_worker.get()
                    on:change=move |ev| kill_worker.set(event_target_checked(&ev)) />{tr(Key::LsKillWorker)}</label>
                <button type="button" data-testid="ls-run" disabled=move || running.get() on:click=start>{tr(Key::LsRun)}</button>
            </div>
            <LockstepTable counters/>
        </div>
    }
}

/// The run's settings, as the form holds them.
#[derive(Clone, Copy)]
struct Form {
    chosen: RwSignal<Vec<Design>>,
    tasks: RwSignal<u32>,
    seed: RwSignal<u64>,
    kill_api: RwSignal<bool>,
    kill_worker: RwSignal<bool>,
}

/// Builds a run per chosen design and ticks them together, a beat per frame. Runs, not
/// bare worlds: the page moves a world only through [`Sim`].
fn run_lockstep(
    owner: Rc<Cell<bool>>,
    form: Form,
    counters: RwSignal<Vec<(Design, Counters, bool)>>,
    running: RwSignal<bool>,
) {
    if running.get_untracked() {
        return;
    }
    let designs = form.chosen.get_untracked();
    if designs.is_empty() {
        return;
    }
    running.set(true);
    let runs: Rc<RefCell<Vec<(Design, Sim)>>> = Rc::new(RefCell::new(
        designs
            .iter()
            .map(|d| {
                let s = scenario(
                    *d,
                    form.tasks.get_untracked(),
                    form.seed.get_untracked(),
                    form.kill_api.get_untracked(),
                    form.kill_worker.get_untracked(),
                );
                (*d, Sim::new(s))
            })
            .collect(),
    ));
    run_in_frames(owner, move |deadline| {
        let mut ws = runs.borrow_mut();
        let busy = beat(&mut ws, deadline);
        counters.set(
            ws.iter()
                .map(|(d, s)| (*d, s.world().counters(), s.world().settled()))
                .collect(),
        );
        if !busy {
            running.set(false);
        }
        busy
    });
}

/// Up to [`BEAT`] ticks of every run not yet finished (until `deadline`); returns whether
/// any of them moved.
fn beat(ws: &mut [(Design, Sim)], deadline: f64) -> bool {
    let mut busy = true;
    for _ in 0..BEAT {
        busy = false;
        for (_, sim) in ws.iter_mut() {
            if sim.tick() {
                busy = true;
            }
        }
        if !busy || now_ms() > deadline {
            break;
        }
    }
    busy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_kills_part_the_designs() {
        // 20 tasks, the canon's i % 10 == 3 rule: tasks 3 and 13.
        let run = |d| outbox_model::run(&scenario(d, 20, 1, true, true)).counters();
        let dual = run(Design::DualWriteDbFirst);
        assert_eq!((dual.tasks_in_db, dual.lost), (20, 2), "{dual:?}");
        let outbox = run(Design::Outbox);
        assert_eq!(outbox.lost, 0, "{outbox:?}");
        assert!(outbox.duplicate_effects >= 1, "{outbox:?}");
        let inbox = run(Design::OutboxInbox);
        assert_eq!((inbox.lost, inbox.duplicate_effects), (0, 0), "{inbox:?}");
        assert_eq!(inbox.effects, 20);
    }
}
