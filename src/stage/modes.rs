//! The mode switches: how the API writes, the relay's order and lock, how many relays and
//! workers, the batch, the worker's guard, jobId, the workload. Changing one starts a fresh
//! run of "my own settings" from the current scenario.

use leptos::prelude::*;
use outbox_model::db::LockMode;
use outbox_model::scenario::{ApiMode, RelayMode, WorkerMode};
use outbox_model::Scenario;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};
use crate::run::sim::MAX_PAGE_TASKS;

const API_MODES: [(ApiMode, Key); 5] = [
    (ApiMode::DualWriteDbFirst, Key::ApiDualDbFirst),
    (ApiMode::DualWriteQueueFirst, Key::ApiDualQueueFirst),
    (ApiMode::Outbox, Key::ApiOutbox),
    (ApiMode::OutboxPool, Key::ApiOutboxPool),
    (ApiMode::OutboxPoolBegin, Key::ApiOutboxPoolBegin),
];
const RELAY_MODES: [(RelayMode, Key); 2] = [
    (RelayMode::Lesson, Key::RelayLesson),
    (RelayMode::MarkFirst, Key::RelayMarkFirst),
];
const LOCKS: [(LockMode, Key); 4] = [
    (LockMode::SkipLocked, Key::LockSkipLocked),
    (LockMode::Wait, Key::LockWait),
    (LockMode::Nowait, Key::LockNowait),
    (LockMode::None, Key::LockNone),
];
const WORKER_MODES: [(WorkerMode, Key); 5] = [
    (WorkerMode::NoInbox, Key::WorkerNoInbox),
    (WorkerMode::InboxSameTx, Key::WorkerInboxSameTx),
    (WorkerMode::InboxOwnTx, Key::WorkerInboxOwnTx),
    (WorkerMode::ActionThenInbox, Key::WorkerActionThenInbox),
    (WorkerMode::ExternalEffect, Key::WorkerExternal),
];

/// A select over one enum setting of the scenario.
fn choice<T: Copy + PartialEq + Send + Sync + 'static>(
    testid: &'static str,
    label: Key,
    options: &'static [(T, Key)],
    get: fn(&Scenario) -> T,
    set: fn(&mut Scenario, T),
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let current = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(get)
    };
    view! {
        <label class="modes__field">
            <span>{move || i18n.t(label)}</span>
            <select
                data-testid=testid
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        if let Some((v, _)) = options.get(i) {
                            change(ctl, |s| set(s, *v));
                        }
                    }
                }
            >
                {move || {
                    let cur = current();
                    options
                        .iter()
                        .enumerate()
                        .map(|(i, (v, k))| {
                            view! { <option value=i.to_string() selected=*v == cur>{i18n.t(*k)}</option> }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// A number setting of the scenario.
fn number(
    testid: &'static str,
    label: Key,
    max: u32,
    get: fn(&Scenario) -> u32,
    set: fn(&mut Scenario, u32),
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let current = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| get(s).to_string())
    };
    view! {
        <label class="modes__field">
            <span>{move || i18n.t(label)}</span>
            <input
                type="number"
                min="0"
                max=max.to_string()
                data-testid=testid
                prop:value=current
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<u32>() {
                        change(ctl, |s| set(s, v.min(max)));
                    }
                }
            />
        </label>
    }
}

/// A yes/no setting of the scenario.
fn flag(
    testid: &'static str,
    label: Key,
    get: fn(&Scenario) -> bool,
    set: fn(&mut Scenario, bool),
) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let current = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(get)
    };
    view! {
        <label class="modes__flag">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=current
                on:change=move |ev| change(ctl, |s| set(s, event_target_checked(&ev)))
            />
            <span>{move || i18n.t(label)}</span>
        </label>
    }
}

/// A fresh run of the current scenario with one setting changed.
fn change(ctl: crate::ctl::Ctl, edit: impl FnOnce(&mut Scenario)) {
    let mut s = ctl.scenario();
    edit(&mut s);
    s.make_custom();
    ctl.load(s);
}

#[component]
pub fn Modes() -> impl IntoView {
    view! {
        <details class="modes" data-testid="modes" open>
            <summary class="modes__summary">{tr(Key::ModesHeading)}</summary>
            <div class="modes__grid">
                {choice(
                    "mode-api",
                    Key::ApiModeLabel,
                    &API_MODES,
                    |s| s.config.api,
                    |s, v| s.config.set_api(v),
                )}
                {choice("mode-relay", Key::RelayModeLabel, &RELAY_MODES, |s| s.config.relay.mode, |s, v| s.config.relay.mode = v)}
                {choice("mode-lock", Key::LockLabel, &LOCKS, |s| s.config.relay.lock, |s, v| s.config.relay.lock = v)}
                {choice("mode-worker", Key::WorkerModeLabel, &WORKER_MODES, |s| s.config.worker, |s, v| s.config.worker = v)}
                {number("mode-apis", Key::ApisLabel, outbox_model::scenario::MAX_APIS as u32, |s| s.config.apis as u32, |s, v| s.config.set_apis(v))}
                {number("mode-pool", Key::PoolSizeLabel, outbox_model::scenario::MAX_POOL_SIZE as u32, |s| s.config.pool_size as u32, |s, v| s.config.set_pool_size(v))}
                {number("mode-relays", Key::RelaysLabel, outbox_model::scenario::MAX_RELAYS as u32, |s| s.config.relays as u32, |s, v| s.config.relays = v as u8)}
                {number("mode-workers", Key::WorkersLabel, outbox_model::scenario::MAX_WORKERS as u32, |s| s.config.workers as u32, |s, v| s.config.workers = v as u8)}
                {number("mode-batch", Key::BatchLabel, outbox_model::scenario::MAX_BATCH_SIZE, |s| s.config.relay.batch_size, |s, v| s.config.set_batch_size(v))}
                {number("mode-tasks", Key::TasksLabel, MAX_PAGE_TASKS, |s| s.workload.tasks, |s, v| s.workload.tasks = v)}
                {flag("mode-job-id", Key::JobIdLabel, |s| s.config.relay.job_id, |s, v| s.config.relay.job_id = v)}
                {flag("mode-ext-key", Key::ExtKeyLabel, |s| s.config.external_idempotency_key, |s, v| s.config.external_idempotency_key = v)}
                {flag(
                    "mode-auto-restart",
                    Key::AutoRestartLabel,
                    |s| s.config.restart_after_ticks.is_some(),
                    |s, v| s.config.set_auto_restart(v),
                )}
            </div>
        </details>
    }
}
