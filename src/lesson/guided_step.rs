//! The guided path: the list of steps, and the open one — its section, what it teaches,
//! its goal with the model's verdict, a hint, "show me", the variants it offers, and the
//! guess it asks for before a kill.

use leptos::prelude::*;
use outbox_model::lesson::{Goal, STEPS};

use crate::i18n::lesson_words::{step_words, WHY_INSIDE};
use crate::i18n::words::preset_text;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;
use crate::lesson::predict::Predict;
use crate::lesson::quiz::answer;

#[component]
pub fn GuidedStep() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let words = move || step_words(STEPS[lesson.step.get()].id).expect("every step has words");
    let nav = STEPS
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let w = step_words(st.id).expect("every step has words");
            let done = move || lesson.progress.with(|p| p.is_done(st.id));
            view! {
                <li>
                    <button
                        type="button"
                        class="lesson__nav-item"
                        class:lesson__nav-item--done=done
                        aria-current=move || (lesson.step.get() == i).then_some("step")
                        data-testid=format!("lesson-nav-{}", st.id)
                        on:click=move |_| lesson.go(i)
                    >
                        <span class="lesson__nav-num">{i + 1}</span>
                        <span class="lesson__nav-title">{move || i18n.t(w.title)}</span>
                        <span class="lesson__nav-done" aria-hidden="true">{move || if done() { "✓" } else { "" }}</span>
                    </button>
                </li>
            }
        })
        .collect_view();
    let step_of = move || {
        i18n.t(Key::StepOf)
            .replace("{n}", &(lesson.step.get() + 1).to_string())
            .replace("{m}", &STEPS.len().to_string())
    };
    let variants = move || {
        let st = &STEPS[lesson.step.get()];
        (!st.variants.is_empty()).then(|| {
            view! {
                <div class="lesson__variants">
                    <span>{tr(Key::Variants)}</span>
                    {st.variants.iter().map(|v| {
                        let v: &'static str = v;
                        view! {
                            <button type="button" data-testid=format!("variant-{v}") on:click=move |_| lesson.variant(v)>
                                {move || preset_text(v).map(|p| p.title(i18n.lang())).unwrap_or(v)}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    };
    let why = move || {
        (STEPS[lesson.step.get()].goal == Goal::PublishOutsideLoses).then(|| {
            let chosen = Signal::derive(move || lesson.progress.with(|p| p.why));
            let choose = move |i: usize| lesson.progress.update(|p| p.why = Some(i));
            view! {
                <div class="lesson__why">
                    <p class="lesson__why-heading">{tr(Key::WhyHeading)}</p>
                    {answer("why", WHY_INSIDE, chosen, choose)}
                </div>
            }
        })
    };
    view! {
        <div class="lesson" data-testid="lesson">
            <nav class="lesson__nav" aria-label=tr(Key::TabPath)>
                <ol>{nav}</ol>
            </nav>
            <article class="lesson__step" data-testid="lesson-step" data-step=move || STEPS[lesson.step.get()].id>
                <p class="lesson__meta">
                    <span data-testid="lesson-step-of">{step_of}</span>
                    " · "
                    <span>{move || i18n.t(Key::SectionLabel).replace("{s}", STEPS[lesson.step.get()].section)}</span>
                </p>
                <h2 class="lesson__title" data-testid="lesson-title">{move || i18n.t(words().title)}</h2>
                <p class="lesson__body">{move || i18n.t(words().body)}</p>
                <p
                    class="lesson__goal"
                    class:lesson__goal--reached=move || lesson.reached.get()
                    data-testid="lesson-goal"
                    data-reached=move || lesson.reached.get().to_string()
                    aria-live="polite"
                >
                    <span class="lesson__goal-text">{move || i18n.t(words().goal)}</span>
                    <strong class="lesson__goal-state" data-testid="goal-state">
                        {move || if lesson.reached.get() { i18n.t(Key::GoalReached) } else { i18n.t(Key::GoalNotYet) }}
                    </strong>
                </p>
                {why}
                <Predict/>
                {variants}
                <div class="lesson__actions">
                    <button type="button" data-testid="lesson-prev" disabled=move || lesson.step.get() == 0 on:click=move |_| lesson.prev()>
                        {tr(Key::PrevStep)}
                    </button>
                    <button type="button" data-testid="lesson-restart" on:click=move |_| lesson.go(lesson.step.get_untracked())>
                        {tr(Key::RestartStep)}
                    </button>
                    <button type="button" data-testid="lesson-hint" aria-expanded=move || lesson.hint.get().to_string() on:click=move |_| lesson.hint.update(|h| *h = !*h)>
                        {tr(Key::HintShow)}
                    </button>
                    <button type="button" data-testid="lesson-show-me" on:click=move |_| lesson.show_me()>
                        {tr(Key::ShowMe)}
                    </button>
                    <button
                        type="button"
                        class="lesson__next"
                        data-testid="lesson-next"
                        disabled=move || { lesson.step.get() + 1 == STEPS.len() }
                        on:click=move |_| lesson.next()
                    >
                        {tr(Key::NextStep)}
                    </button>
                </div>
                <Show when=move || lesson.hint.get()>
                    <p class="lesson__hint" data-testid="lesson-hint-text">{move || i18n.t(words().hint)}</p>
                </Show>
            </article>
        </div>
    }
}
