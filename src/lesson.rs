//! The guided path: the list of steps, and the open one — its section, what it teaches,
//! its goal with the model's verdict, a hint, "show me", the variants it offers, and the
//! guess it asks for before a kill.

use leptos::prelude::*;
use outbox_model::lesson::{Goal, STEPS};

use crate::course::use_course;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson_words::{step_words, WHY_INSIDE};
use crate::predict::Predict;
use crate::quiz::answer;
use crate::words::preset_text;

#[component]
pub fn Lesson() -> impl IntoView {
    let course = use_course();
    let i18n = use_i18n();
    let words = move || step_words(STEPS[course.step.get()].id).expect("every step has words");
    let nav = STEPS
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let w = step_words(st.id).expect("every step has words");
            let done = move || course.progress.with(|p| p.is_done(st.id));
            view! {
                <li>
                    <button
                        type="button"
                        class="lesson__nav-item"
                        class:lesson__nav-item--done=done
                        aria-current=move || (course.step.get() == i).then_some("step")
                        data-testid=format!("lesson-nav-{}", st.id)
                        on:click=move |_| course.go(i)
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
            .replace("{n}", &(course.step.get() + 1).to_string())
            .replace("{m}", &STEPS.len().to_string())
    };
    let variants = move || {
        let st = &STEPS[course.step.get()];
        (!st.variants.is_empty()).then(|| {
            view! {
                <div class="lesson__variants">
                    <span>{tr(Key::Variants)}</span>
                    {st.variants.iter().map(|v| {
                        let v: &'static str = v;
                        view! {
                            <button type="button" data-testid=format!("variant-{v}") on:click=move |_| course.variant(v)>
                                {move || preset_text(v).map(|p| p.title(i18n.lang())).unwrap_or(v)}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    };
    let why = move || {
        (STEPS[course.step.get()].goal == Goal::PublishOutsideLoses).then(|| {
            let chosen = Signal::derive(move || course.progress.with(|p| p.why));
            let choose = move |i: usize| course.progress.update(|p| p.why = Some(i));
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
            <article class="lesson__step" data-testid="lesson-step" data-step=move || STEPS[course.step.get()].id>
                <p class="lesson__meta">
                    <span data-testid="lesson-step-of">{step_of}</span>
                    " · "
                    <span>{move || i18n.t(Key::SectionLabel).replace("{s}", STEPS[course.step.get()].section)}</span>
                </p>
                <h2 class="lesson__title" data-testid="lesson-title">{move || i18n.t(words().title)}</h2>
                <p class="lesson__body">{move || i18n.t(words().body)}</p>
                <p
                    class="lesson__goal"
                    class:lesson__goal--reached=move || course.reached.get()
                    data-testid="lesson-goal"
                    data-reached=move || course.reached.get().to_string()
                    aria-live="polite"
                >
                    <span class="lesson__goal-text">{move || i18n.t(words().goal)}</span>
                    <strong class="lesson__goal-state" data-testid="goal-state">
                        {move || if course.reached.get() { i18n.t(Key::GoalReached) } else { i18n.t(Key::GoalNotYet) }}
                    </strong>
                </p>
                {why}
                <Predict/>
                {variants}
                <div class="lesson__actions">
                    <button type="button" data-testid="lesson-prev" disabled=move || course.step.get() == 0 on:click=move |_| course.prev()>
                        {tr(Key::PrevStep)}
                    </button>
                    <button type="button" data-testid="lesson-restart" on:click=move |_| course.go(course.step.get_untracked())>
                        {tr(Key::RestartStep)}
                    </button>
                    <button type="button" data-testid="lesson-hint" aria-expanded=move || course.hint.get().to_string() on:click=move |_| course.hint.update(|h| *h = !*h)>
                        {tr(Key::HintShow)}
                    </button>
                    <button type="button" data-testid="lesson-show-me" on:click=move |_| course.show_me()>
                        {tr(Key::ShowMe)}
                    </button>
                    <button
                        type="button"
                        class="lesson__next"
                        data-testid="lesson-next"
                        disabled=move || { course.step.get() + 1 == STEPS.len() }
                        on:click=move |_| course.next()
                    >
                        {tr(Key::NextStep)}
                    </button>
                </div>
                <Show when=move || course.hint.get()>
                    <p class="lesson__hint" data-testid="lesson-hint-text">{move || i18n.t(words().hint)}</p>
                </Show>
            </article>
        </div>
    }
}
