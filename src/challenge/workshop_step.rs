//! The open workshop in the lesson panel: its title, its challenges as a step list with
//! the reached ones ticked, and the open challenge — its words, its goal as the model
//! reads it with the model's verdict, "the run ended without the goal" with a retry, the
//! guess it asks for, its hint and solution; then the workshop's own progress (export,
//! import), its link and QR code for the room, and the way back to the course.

use leptos::prelude::*;

use crate::browser::file::{read_chosen, set_href};
use crate::browser::url::data_url;
use crate::challenge::ctl::{fragment, import_progress, leave, title, use_workshop, words};
use crate::challenge::qr_dialog::QrDialog;
use crate::ctl::Notice;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;
use crate::lesson::predict::Predict;

#[component]
pub fn WorkshopStep() -> impl IntoView {
    let w = use_workshop();
    let i18n = use_i18n();
    let step_of = move || {
        let m = w
            .open
            .with(|o| o.as_ref().map_or(0, |o| o.challenges.len()));
        i18n.t(Key::ChallengeOf)
            .replace("{n}", &(w.step.get() + 1).to_string())
            .replace("{m}", &m.to_string())
    };
    let open = move || w.open.get();
    let current = move || open().and_then(|o| o.challenges.get(w.step.get()).cloned());
    let text = move || current().map(|c| words(&c, i18n.lang()));
    let goal = move || current().map(|c| c.goal.to_string()).unwrap_or_default();
    let has_hint = move || text().is_some_and(|t| t.hint.is_some());
    let has_solution = move || current().is_some_and(|c| c.solution.is_some());
    let last = move || open().is_none_or(|o| w.step.get() + 1 >= o.challenges.len());
    view! {
        <div class="workshop" data-testid="workshop">
            <p class="workshop__title" data-testid="workshop-title">
                {move || open().map(|o| title(&o, i18n.lang())).unwrap_or_default()}
            </p>
            <div class="lesson">
            <ChallengeList/>
            <article class="lesson__step" data-testid="challenge" data-challenge=move || current().map(|c| c.id)>
                <p class="lesson__meta" data-testid="challenge-of">{step_of}</p>
                <h2 class="lesson__title" data-testid="challenge-title">{move || text().map(|t| t.title)}</h2>
                <p class="lesson__body" data-testid="challenge-body">{move || text().map(|t| t.body)}</p>
                <p
                    class="lesson__goal"
                    class:lesson__goal--reached=move || w.reached.get()
                    data-testid="challenge-goal"
                    data-reached=move || w.reached.get().to_string()
                    aria-live="polite"
                >
                    <span class="lesson__goal-text">{tr(Key::ChallengeGoal)} " " <code>{goal}</code></span>
                    <strong class="lesson__goal-state" data-testid="challenge-goal-state">
                        {move || i18n.t(if w.reached.get() { Key::GoalReached } else { Key::GoalNotYet })}
                    </strong>
                </p>
                <Show when=move || w.failed.get()>
                    <p class="workshop__failed" role="status" data-testid="challenge-failed">{tr(Key::ChallengeFailed)}</p>
                </Show>
                <Predict/>
                <div class="lesson__actions">
                    <button type="button" data-testid="challenge-retry" on:click=move |_| w.go(w.step.get_untracked())>{tr(Key::RestartStep)}</button>
                    <Show when=has_hint>
                        <button type="button" data-testid="challenge-hint" aria-pressed=move || w.hint.get().to_string()
                            on:click=move |_| w.hint.update(|h| *h = !*h)>{tr(Key::HintShow)}</button>
                    </Show>
                    <Show when=has_solution>
                        <button type="button" data-testid="challenge-solution" on:click=move |_| w.show_solution()>{tr(Key::ShowMe)}</button>
                    </Show>
                    <Show when=move || !last()>
                        <button type="button" data-testid="challenge-next" on:click=move |_| w.go(w.step.get_untracked() + 1)>{tr(Key::NextStep)}</button>
                    </Show>
                </div>
                <Show when=move || w.hint.get()>
                    <p class="lesson__hint" data-testid="challenge-hint-text">{move || text().and_then(|t| t.hint)}</p>
                </Show>
            </article>
            </div>
            <WorkshopTools/>
        </div>
    }
}

/// The workshop's challenges, the open one marked, the reached ones ticked.
#[component]
fn ChallengeList() -> impl IntoView {
    let w = use_workshop();
    let i18n = use_i18n();
    let items = move || {
        let o = w.open.get()?;
        let list = o
            .challenges
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let id = c.id.clone();
                let done = Signal::derive(move || w.progress.with(|p| p.is_done(&id)));
                let name = words(c, i18n.lang()).title;
                view! {
                    <li>
                        <button
                            type="button"
                            class="lesson__nav-item workshop__item"
                            class:lesson__nav-item--done=done
                            aria-current=move || (w.step.get() == i).then_some("step")
                            data-testid=format!("challenge-item-{i}")
                            data-done=move || done.get().to_string()
                            on:click=move |_| w.go(i)
                        >
                            {move || if done.get() { "✓ " } else { "" }}{name}
                        </button>
                    </li>
                }
            })
            .collect_view();
        Some(view! { <ol class="workshop__list">{list}</ol> })
    };
    view! { <nav class="lesson__nav" aria-label=tr(Key::TabWorkshop)>{items}</nav> }
}

/// The workshop's progress out and in, its link and QR code, and the way back.
#[component]
fn WorkshopTools() -> impl IntoView {
    let w = use_workshop();
    let lesson = use_lesson();
    let qr = RwSignal::new(false);
    let export = move |ev: leptos::ev::MouseEvent| {
        set_href(&ev, w.progress.with_untracked(|p| data_url(&p.to_json())))
    };
    let import = move |ev: leptos::ev::Event| {
        read_chosen(&ev, move |text| {
            let notice = match text.and_then(|t| import_progress(w, &t)) {
                Ok(()) => Notice::info(Key::ProgressImported, ""),
                Err(why) => Notice::error(Key::NoticeBadProgress, why),
            };
            let _ = w.ctl.notice.try_set(Some(notice));
        })
    };
    let share = move |_| {
        if let Some(f) = fragment(&w) {
            crate::ctl::share::share_fragment(w.ctl, &f[1..], true);
        }
    };
    let url = Signal::derive(move || {
        fragment(&w)
            .map(|f| crate::ctl::share::page_url(&f[1..], true))
            .unwrap_or_default()
    });
    view! {
        <div class="course__tools workshop__tools">
            <a class="button" data-testid="workshop-progress-export" download="outbox-workshop-progress.json" href="#" on:click=export>
                {tr(Key::WorkshopProgressExport)}
            </a>
            <label class="button workshop__import">
                {tr(Key::WorkshopProgressImport)}
                <input type="file" accept=".json,application/json" data-testid="workshop-progress-import" on:change=import/>
            </label>
            <button type="button" data-testid="workshop-share" on:click=share>{tr(Key::ChallengeShare)}</button>
            <button type="button" data-testid="workshop-qr" on:click=move |_| qr.set(true)>{tr(Key::QrShow)}</button>
            <button type="button" data-testid="workshop-leave" on:click=move |_| leave(lesson)>{tr(Key::WorkshopLeave)}</button>
        </div>
        <QrDialog open=qr url=url/>
    }
}
