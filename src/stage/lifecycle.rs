//! One event's life across the tables, the queue and the inbox: chosen from the log or
//! typed in, judged by the model. An event that is failed or lost after its job was made
//! offers BullMQ's `job.retry()`: a failed one goes back to wait; for a lost one the model
//! refuses (removeOnFail deleted the job: nothing is left to retry), in the reader's
//! language.

use leptos::prelude::*;
use outbox_model::happened::{pinned_facts, struck};
use outbox_model::view;
use outbox_model::world::{Cause, World};
use outbox_model::{Action, Class, EventId};

use crate::ctl::{use_ctl, Ctl};
use crate::i18n::words::{class_name, job_state_name, kill_place, note_text, proc_name};
use crate::i18n::{t, tr, use_i18n, I18n, Key, Lang};
use crate::stage::trouble_list::TroubledEvents;

/// The outbox row's facts, joined into one line.
fn outbox_text(i18n: I18n, lang: Lang, r: &view::OutboxView) -> String {
    let mut parts = vec![format!("id {}", r.id)];
    parts.push(match r.tarqatilgan_vaqt {
        Some(t) => format!("{} t{t}", i18n.t(Key::PublishedAt)),
        None => i18n.t(Key::NotPublished).to_string(),
    });
    parts.push(format!("{} {}", i18n.t(Key::Urinishlar), r.urinishlar));
    if let Some(w) = &r.locked_by {
        parts.push(i18n.t(Key::LockedBy).replace("{who}", &proc_name(lang, w)));
    }
    if !r.committed {
        parts.push(i18n.t(Key::Uncommitted).to_string());
    }
    parts.join(" · ")
}

/// `job.retry()` for an event whose job failed, or that was lost after a job was made.
fn retry_button(ctl: Ctl, lang: Lang, l: &view::LifecycleView) -> Option<impl IntoView> {
    let had_job = l.adds > l.dedup_hits;
    let event = l.event.0;
    (had_job && matches!(l.class, Class::Failed | Class::Lost)).then(|| {
        view! {
            <button
                type="button"
                class="life__retry"
                data-testid="life-retry"
                on:click=move |_| ctl.dispatch(Action::RetryJob { event })
            >
                {t(lang, Key::RetryJobOf).replace("{e}", &event.to_string())}
            </button>
        }
    })
}

/// The kill behind event `e`'s trouble, in the cards' words, and its tick (#42): from the
/// world's cause records; the process named as the pinned kill at that step names it.
fn blow_of(w: &World, lang: Lang, e: EventId) -> Option<(String, u64)> {
    let s = struck(w, e)?;
    let Cause::Kill { step, .. } = s.cause else {
        return None;
    };
    let facts = pinned_facts(w);
    let k = facts.kills.iter().find(|k| k.step == step)?;
    let kill = format!(
        "☠ {} ({})",
        proc_name(lang, &k.process),
        kill_place(lang, k)
    );
    Some((kill, s.tick))
}

/// A known event's facts and the log entries that name it.
fn life_facts(
    i18n: I18n,
    lang: Lang,
    l: view::LifecycleView,
    blow: Option<(String, u64)>,
) -> AnyView {
    let yes_no = move |b: bool| if b { i18n.t(Key::Yes) } else { i18n.t(Key::No) };
    let outbox = l.outbox.as_ref().map(|r| outbox_text(i18n, lang, r));
    let jobs = l
        .jobs
        .iter()
        .map(|j| format!("{} ×{}", job_state_name(lang, j.state), j.deliveries))
        .collect::<Vec<_>>()
        .join(", ");
    let counts = format!(
        "{} / {} / {} / {}",
        l.adds, l.dedup_hits, l.deliveries, l.effects
    );
    let log = l
        .log
        .iter()
        .map(|e| {
            format!(
                "t{} {}",
                e.tick,
                note_text(lang, &e.note, |_| String::new())
            )
        })
        .collect::<Vec<_>>();
    let lost = l.class == Class::Lost;
    let retry = retry_button(use_ctl(), lang, &l);
    let blow = blow.map(|(kill, tick)| {
        view! {
            <dt>{i18n.t(Key::LifeKill)}</dt>
            <dd data-testid="life-kill" data-tick=tick.to_string()>
                {i18n.t(Key::LifeKillAt).replace("{kill}", &kill).replace("{tick}", &tick.to_string())}
            </dd>
        }
    });
    view! {
        <dl class="life__facts" data-testid="lifecycle">
            <dt>{i18n.t(Key::LifeClass)}</dt>
            <dd class:life__lost=lost data-testid="life-class">{class_name(lang, l.class)}</dd>
            {blow}
            <dt>{i18n.t(Key::LifeTask)}</dt>
            <dd>{yes_no(l.task_committed)}</dd>
            <dt>{i18n.t(Key::LifeOutbox)}</dt>
            <dd>{outbox.unwrap_or_else(|| i18n.t(Key::No).to_string())}</dd>
            <dt>{i18n.t(Key::LifeJobs)}</dt>
            <dd>{if jobs.is_empty() { i18n.t(Key::No).to_string() } else { jobs }}</dd>
            <dt>{i18n.t(Key::LifeInbox)}</dt>
            <dd>{yes_no(l.in_inbox)}</dd>
            <dt>{i18n.t(Key::LifeCounts)}</dt>
            <dd data-testid="life-counts">{counts}</dd>
        </dl>
        {retry}
        <ol class="life__log">{log.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ol>
    }
    .into_any()
}

#[component]
pub fn Lifecycle() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let life = move || {
        ctl.history_beat.track();
        let e = EventId(ctl.selected_event.get()?);
        let lang = i18n.lang();
        Some(ctl.with_world(|w| view::lifecycle(w, e).map(|l| (l, blow_of(w, lang, e)))))
    };
    let body = move || {
        let lang = i18n.lang();
        match life() {
            None => view! { <p class="panel__intro">{i18n.t(Key::LifecycleHint)}</p> }.into_any(),
            Some(None) => view! { <p class="panel__intro" data-testid="life-unknown">{i18n.t(Key::LifecycleUnknown)}</p> }.into_any(),
            Some(Some((l, blow))) => life_facts(i18n, lang, l, blow),
        }
    };
    view! {
        <section class="life panel" data-testid="lifecycle-panel" aria-labelledby="life-heading">
            <h2 id="life-heading" class="panel__heading">
                {tr(Key::LifecycleHeading)}
            </h2>
            <label class="life__pick">
                <span>"h-"</span>
                <input
                    type="number"
                    min="1"
                    data-testid="life-event"
                    aria-label=tr(Key::EventNumber)
                    prop:value=move || ctl.selected_event.get().map(|e| e.to_string()).unwrap_or_default()
                    on:change=move |ev| ctl.selected_event.set(event_target_value(&ev).trim().parse::<u32>().ok())
                />
            </label>
            <TroubledEvents/>
            {body}
        </section>
    }
}
