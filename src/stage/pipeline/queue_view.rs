//! The queue: Redis's health, the jobs by state (waiting, active, completed, failed) and
//! the newest jobs of each state; a failed job has a button for BullMQ's `job.retry()`
//! (the model's `Action::RetryJob`: a failed job waits for a retry, it is not lost).

use leptos::prelude::*;
use outbox_model::queue::{Health, JobState};
use outbox_model::view::JobView;
use outbox_model::Action;

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::words::proc_name;
use crate::i18n::{t, use_i18n, Key, Lang};

const STATES: [(JobState, Key, &str); 4] = [
    (JobState::Waiting, Key::QWaiting, "waiting"),
    (JobState::Active, Key::QActive, "active"),
    (JobState::Completed, Key::QCompleted, "completed"),
    (JobState::Failed, Key::QFailed, "failed"),
];

#[component]
pub fn QueueView() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let q = ctl.queue;
    let health = move || {
        q.with(|v| match v.health {
            Health::Up => ("queue__health", i18n.t(Key::QHealthUp)),
            Health::DownFailFast => (
                "queue__health queue__health--down",
                i18n.t(Key::QHealthDown),
            ),
            Health::DownHang => (
                "queue__health queue__health--down",
                i18n.t(Key::QHealthHang),
            ),
        })
    };
    let chips = STATES
        .iter()
        .map(|(state, key, id)| {
            let n = move || {
                q.with(|v| match state {
                    JobState::Waiting => v.waiting,
                    JobState::Active => v.active,
                    JobState::Completed => v.completed,
                    JobState::Failed => v.failed,
                })
            };
            view! {
                <li class=format!("queue__chip queue__chip--{id}")>
                    <span class="queue__n" data-testid=format!("queue-{id}")>{move || n().to_string()}</span>
                    <span>{move || i18n.t(*key)}</span>
                </li>
            }
        })
        .collect_view();
    let jobs = move || {
        let lang = i18n.lang();
        q.with(|v| v.jobs.iter().map(|j| job_row(ctl, lang, j)).collect_view())
    };
    view! {
        <div class="queue" data-testid="queue">
            <p class=move || health().0 data-testid="queue-health">{move || health().1}</p>
            <ul class="queue__chips">{chips}</ul>
            <ul class="queue__jobs">{jobs}</ul>
            <details class="queue__about" data-testid="queue-about">
                <summary>{move || i18n.t(Key::QueueAboutTitle)}</summary>
                <p>{move || i18n.t(Key::QueueAbout)}</p>
            </details>
        </div>
    }
}

/// One of the newest jobs: its event, its state, who holds it, how often it was delivered,
/// and for a failed one the retry button.
fn job_row(ctl: Ctl, lang: Lang, j: &JobView) -> impl IntoView {
    let (_, key, id) = STATES
        .iter()
        .find(|s| s.0 == j.state)
        .copied()
        .unwrap_or(STATES[0]);
    let who = j
        .worker
        .as_deref()
        .map(|w| proc_name(lang, w))
        .unwrap_or_default();
    let times = (j.deliveries > 1)
        .then(|| t(lang, Key::Deliveries).replace("{n}", &j.deliveries.to_string()));
    let event = j.event.0;
    let retry = (j.state == JobState::Failed).then(|| {
        view! {
            <button
                type="button"
                class="job__retry"
                data-testid=format!("retry-job-{event}")
                title=t(lang, Key::RetryJobOf).replace("{e}", &event.to_string())
                on:click=move |_| ctl.dispatch(Action::RetryJob { event })
            >
                {t(lang, Key::RetryJob)}
            </button>
        }
    });
    view! {
        <li class=format!("job job--{id}")>
            <span class="job__event">{j.event.to_string()}</span>
            <span class="job__state">{t(lang, key)}</span>
            <span class="job__who">{who}</span>
            <span class="job__times">{times}</span>
            {retry}
        </li>
    }
}
