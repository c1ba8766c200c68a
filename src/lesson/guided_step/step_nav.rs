//! The guided path's list of steps: each one's number and title, done or not, the open
//! one marked; a click opens it.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::i18n::lesson_words::step_words;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;

#[component]
pub fn StepNav() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let nav = STEPS
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let w = step_words(st.id).expect("every step has words");
            let done = move || lesson.course.progress.with(|p| p.is_done(st.id));
            view! {
                <li>
                    <button
                        type="button"
                        class="lesson__nav-item"
                        class:lesson__nav-item--done=done
                        aria-current=move || (lesson.course.step.get() == i).then_some("step")
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
    view! {
        <nav class="lesson__nav" aria-label=tr(Key::TabPath)>
            <ol>{nav}</ol>
        </nav>
    }
}
