//! The fault bar: Redis down (refusing or hanging) and back up, BullMQ's "retry failed
//! jobs", and making the publishing of one event fail N times. Which of these is offered
//! comes from the model's `enabled()`.

use leptos::prelude::*;
use outbox_model::Action;

use crate::ctl::use_ctl;
use crate::i18n::{tr, Key};

#[component]
pub fn Faults() -> impl IntoView {
    let ctl = use_ctl();
    let has = move |a: Action| ctl.enabled.with(|e| e.contains(&a));
    let redis_up = move || has(Action::QueueDown { hang: false });
    let event = RwSignal::new(3u32);
    let since = RwSignal::new(0u64);
    let times = RwSignal::new(1u32);
    view! {
        <section class="faults panel" data-testid="faults" aria-labelledby="faults-heading">
            <h2 id="faults-heading" class="panel__heading">{tr(Key::FaultsHeading)}</h2>
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
                <label class="faults__field">
                    <span>{tr(Key::SinceTick)}</span>
                    <input
                        type="number"
                        min="0"
                        data-testid="unpublish-since"
                        prop:value=move || since.get().to_string()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() {
                                since.set(v);
                            }
                        }
                    />
                </label>
                <button
                    type="submit"
                    data-testid="unpublish"
                    disabled=move || !ctl.enabled.with(|e| e.iter().any(|a| matches!(a, Action::UnpublishSince { .. })))
                >{tr(Key::Unpublish)}</button>
            </form>
            <form
                class="faults__row"
                on:submit=move |ev| {
                    ev.prevent_default();
                    ctl.dispatch(Action::FailPublish { event: event.get_untracked(), times: times.get_untracked() });
                }
            >
                <label class="faults__field">
                    <span>{tr(Key::EventNumber)}</span>
                    <input
                        type="number"
                        min="1"
                        data-testid="fail-event"
                        prop:value=move || event.get().to_string()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).trim().parse::<u32>() {
                                event.set(v.max(1));
                            }
                        }
                    />
                </label>
                <label class="faults__field">
                    <span>{tr(Key::Times)}</span>
                    <input
                        type="number"
                        min="1"
                        data-testid="fail-times"
                        prop:value=move || times.get().to_string()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).trim().parse::<u32>() {
                                times.set(v.max(1));
                            }
                        }
                    />
                </label>
                <button type="submit" data-testid="fail-publish">{tr(Key::FailEvent)}</button>
            </form>
        </section>
    }
}
