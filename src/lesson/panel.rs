//! The lesson above the playground: tabs for the guided steps, the exercises and the
//! quiz; the progress with its reset and its JSON export; presenter mode and the
//! speaker-notes window.

use leptos::either::EitherOf3;
use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::browser::url::data_url;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::{use_lesson, Tab};
use crate::lesson::exercises::Exercises;
use crate::lesson::guided_step::GuidedStep;
use crate::lesson::quiz::Quiz;

const TABS: [(Tab, Key, &str); 3] = [
    (Tab::Path, Key::TabPath, "tab-path"),
    (Tab::Exercises, Key::TabExercises, "tab-exercises"),
    (Tab::Quiz, Key::TabQuiz, "tab-quiz"),
];

fn open_notes(lang: &str) {
    let Some(w) = web_sys::window() else { return };
    let path = w.location().pathname().unwrap_or_default();
    let _ = w.open_with_url_and_target_and_features(
        &format!("{path}?notes&lang={lang}"),
        "outbox-notes",
        "popup,width=720,height=600",
    );
}

#[component]
pub fn LessonPanel() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let done = move || {
        let n = lesson
            .progress
            .with(|p| STEPS.iter().filter(|s| p.is_done(s.id)).count());
        i18n.t(Key::StepsDone)
            .replace("{n}", &n.to_string())
            .replace("{m}", &STEPS.len().to_string())
    };
    let export = move || lesson.progress.with(|p| data_url(&p.to_json()));
    let tabs = TABS
        .iter()
        .map(|(tab, key, id)| {
            let tab = *tab;
            view! {
                <button
                    type="button"
                    role="tab"
                    class="course__tab"
                    aria-selected=move || (lesson.tab.get() == tab).to_string()
                    data-testid=*id
                    on:click=move |_| lesson.tab.set(tab)
                >
                    {tr(*key)}
                </button>
            }
        })
        .collect_view();
    view! {
        <section class="course" data-testid="course" aria-labelledby="course-heading">
            <div class="course__bar">
                <h2 id="course-heading" class="course__heading">{tr(Key::CourseHeading)}</h2>
                <div class="course__tabs" role="tablist">{tabs}</div>
                <p class="course__done" data-testid="progress-done">{done}</p>
                <div class="course__tools">
                    <button type="button" data-testid="progress-reset" on:click=move |_| lesson.reset_progress()>
                        {tr(Key::ProgressReset)}
                    </button>
                    <a class="button" data-testid="progress-export" download="outbox-playground-progress.json" href=export>
                        {tr(Key::ProgressExport)}
                    </a>
                    <button
                        type="button"
                        data-testid="presenter-toggle"
                        aria-pressed=move || lesson.presenter.get().to_string()
                        on:click=move |_| lesson.presenter.update(|p| *p = !*p)
                    >
                        {move || i18n.t(if lesson.presenter.get() { Key::PresenterOff } else { Key::PresenterOn })}
                    </button>
                    <button type="button" data-testid="notes-open" on:click=move |_| open_notes(i18n.lang_untracked().code())>
                        {tr(Key::NotesOpen)}
                    </button>
                </div>
            </div>
            <Show when=move || lesson.presenter.get()>
                <p class="course__keys" data-testid="presenter-keys">{tr(Key::PresenterKeys)}</p>
            </Show>
            {move || match lesson.tab.get() {
                Tab::Path => EitherOf3::A(view! { <GuidedStep/> }),
                Tab::Exercises => EitherOf3::B(view! { <Exercises/> }),
                Tab::Quiz => EitherOf3::C(view! { <Quiz/> }),
            }}
        </section>
    }
}
