//! The fault bar: Redis down (refusing or hanging) and back up, BullMQ's "retry failed
//! jobs", and making the publishing of one event fail N times. Which of these is offered
//! comes from the model's `enabled()`.

use leptos::prelude::*;
use outbox_model::Action;

use crate::i18n::{tr, Key};
use crate::playground::ctl::{use_ctl, Ctl};

/// A labelled number field bound to `value`, never below `min`.
fn number_field(testid: &'static str, label: Key, min: u64, value: RwSignal<u64>) -> impl IntoView {
    view! {
        <label class="faults__field">
            <span>{tr(label)}</span>
            <input
                type="number"
                min=min.to_string()
                data-testid=testid
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() {
                        value.set(v.max(min));
                    }
                }
            />
        </label>
    }
}

/// Whether the model offers `a` now.
fn offered(ctl: Ctl, a: Action) -> bool {
    ctl.enabled.with(|e| e.contains(&a))
}

/// Redis down (refusing or hanging) and back up, and BullMQ's "retry failed jobs".
fn queue_row() -> impl IntoView {
    let ctl = use_ctl();
    let has = move |a: Action| offered(ctl, a);
    let redis_up = move || has(Action::QueueDown { hang: false });
    view! {
        <div class="faults__row">
            <button
                type="button"
                data-testid="queue-down"
                disabled=move || !redis_up()
                on:click=move |_| ctl.dispatch(Action::QueueDown { hang: false })
            >
                {tr(Key::QueueDown)}
            </button>
            <button
                type="button"
                data-testid="queue-hang"
                disabled=move || !redis_up()
                on:click=move |_| ctl.dispatch(Action::QueueDown { hang: true })
            >
                {tr(Key::QueueHang)}
            </button>
            <button
                type="button"
                data-testid="queue-up"
                disabled=move || !has(Action::QueueUp)
                on:click=move |_| ctl.dispatch(Action::QueueUp)
            >
                {tr(Key::QueueUp)}
            </button>
            <button
                type="button"
                data-testid="retry-failed"
                disabled=move || !has(Action::RetryFailedJobs)
                on:click=move |_| ctl.dispatch(Action::RetryFailedJobs)
            >
                {tr(Key::RetryFailed)}
            </button>
        </div>
    }
}

/// Redis flushed or restarted, and the outbox's rows marked unpublished since a tick.
fn redis_row() -> impl IntoView {
    let ctl = use_ctl();
    let has = move |a: Action| offered(ctl, a);
    let since = RwSignal::new(0u64);
    view! {
        <form
            class="faults__row"
            on:submit=move |ev| {
                ev.prevent_default();
                ctl.dispatch(Action::UnpublishSince { since_tick: since.get_untracked() });
            }
        >
            <button
                type="button"
                data-testid="redis-flush"
                disabled=move || !has(Action::RedisFlush)
                on:click=move |_| ctl.dispatch(Action::RedisFlush)
            >
                {tr(Key::RedisFlush)}
            </button>
            <button
                type="button"
                data-testid="redis-restart"
                disabled=move || !has(Action::RedisRestart)
                on:click=move |_| ctl.dispatch(Action::RedisRestart)
            >
                {tr(Key::RedisRestart)}
            </button>
            {number_field("unpublish-since", Key::SinceTick, 0, since)}
            <button
                type="submit"
                data-testid="unpublish"
                disabled=move || !ctl.enabled.with(|e| e.iter().any(|a| matches!(a, Action::UnpublishSince { .. })))
            >{tr(Key::Unpublish)}</button>
        </form>
    }
}

/// Making the publishing of one event fail N times.
fn fail_publish_row() -> impl IntoView {
    let ctl = use_ctl();
    let event = RwSignal::new(3u64);
    let times = RwSignal::new(1u64);
    view! {
        <form
            class="faults__row"
            on:submit=move |ev| {
                ev.prevent_default();
                let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
                ctl.dispatch(Action::FailPublish { event: small(event.get_untracked()), times: small(times.get_untracked()) });
            }
        >
            {number_field("fail-event", Key::EventNumber, 1, event)}
            {number_field("fail-times", Key::Times, 1, times)}
            <button type="submit" data-testid="fail-publish">{tr(Key::FailEvent)}</button>
        </form>
    }
}

#[component]
pub fn Faults() -> impl IntoView {
    view! {
        <section class="faults panel" data-testid="faults" aria-labelledby="faults-heading">
            <h2 id="faults-heading" class="panel__heading">{tr(Key::FaultsHeading)}</h2>
            {queue_row()}
            {redis_row()}
            {fail_publish_row()}
        </section>
    }
}
