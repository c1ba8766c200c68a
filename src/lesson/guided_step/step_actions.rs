//! The open step's buttons: previous, restart, hint, "show me", next.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::i18n::{tr, Key};
use crate::lesson::ctl::use_lesson;

#[component]
pub fn StepActions() -> impl IntoView {
    let lesson = use_lesson();
    view! {
        <div class="lesson__actions">
            <button type="button" data-testid="lesson-prev" disabled=move || lesson.course.step.get() == 0 on:click=move |_| lesson.prev()>
                {tr(Key::PrevStep)}
            </button>
            <button type="button" data-testid="lesson-restart" on:click=move |_| lesson.go(lesson.course.step.get_untracked())>
                {tr(Key::RestartStep)}
            </button>
            <button type="button" data-testid="lesson-hint" aria-expanded=move || lesson.course.hint.get().to_string() on:click=move |_| lesson.course.hint.update(|h| *h = !*h)>
                {tr(Key::HintShow)}
            </button>
            <button type="button" data-testid="lesson-show-me" on:click=move |_| lesson.course.show_solution()>
                {tr(Key::ShowMe)}
            </button>
            <button
                type="button"
                class="lesson__next"
                data-testid="lesson-next"
                disabled=move || { lesson.course.step.get() + 1 == STEPS.len() }
                on:click=move |_| lesson.next()
            >
                {tr(Key::NextStep)}
            </button>
        </div>
    }
}
