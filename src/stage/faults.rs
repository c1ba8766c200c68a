//! The fault bar: Redis down (refusing or hanging) and back up, BullMQ's "retry failed
//! jobs", and making the publishing of one event fail N times. Which of these is offered
//! comes from the model's `enabled()`.

use leptos::prelude::*;
use outbox_model::Action;

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::{tr, Key};

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

/// A button that dispatches `does`, enabled while the model offers `enabled_by` (the two
/// differ only for "Redis hangs", which is offered whenever Redis is up).
fn fault_button(
    testid: &'static str,
    label: Key,
    enabled_by: Action,
    does: Action,
) -> impl IntoView {
    let ctl = use_ctl();
    view! {
        <button
            type="button"
            data-testid=testid
            disabled=move || !offered(ctl, enabled_by.clone())
            on:click=move |_| ctl.dispatch(does.clone())
        >
            {tr(label)}
        </button>
    }
}

/// Redis down (refusing or hanging) and back up, and BullMQ's "retry failed jobs".
fn queue_row() -> impl IntoView {
    view! {
        <div class="faults__row">
            {fault_button("queue-down", Key::QueueDown, Action::QueueDown { hang: false }, Action::QueueDown { hang: false })}
            {fault_button("queue-hang", Key::QueueHang, Action::QueueDown { hang: false }, Action::QueueDown { hang: true })}
            {fault_button("queue-up", Key::QueueUp, Action::QueueUp, Action::QueueUp)}
            {fault_button("retry-failed", Key::RetryFailed, Action::RetryFailedJobs, Action::RetryFailedJobs)}
        </div>
    }
}

/// Redis flushed or restarted, and the outbox's rows marked unpublished since a tick.
fn redis_row() -> impl IntoView {
    let ctl = use_ctl();
    let since = RwSignal::new(0u64);
    view! {
        <form
            class="faults__row"
            on:submit=move |ev| {
                ev.prevent_default();
                ctl.dispatch(Action::UnpublishSince { since_tick: since.get_untracked() });
            }
        >
            {fault_button("redis-flush", Key::RedisFlush, Action::RedisFlush, Action::RedisFlush)}
            {fault_button("redis-restart", Key::RedisRestart, Action::RedisRestart, Action::RedisRestart)}
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
