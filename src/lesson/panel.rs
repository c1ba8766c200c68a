//! The lesson beside the stage: tabs for the guided steps, the schema (§3.1), the
//! exercises, the quiz and "in real work" (§10); the progress with its reset, its JSON
//! export and import (progress moves to another machine, #23); presenter mode and the speaker-notes window. The card folds to the step's title
//! and goal, so a learner can give the stage the room and still see what to do.

use leptos::either::EitherOf3;
use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::browser::file::read_chosen;
use crate::browser::url::data_url;
use crate::ctl::Notice;
use crate::i18n::{tr, use_i18n, I18n, Key, Reason};
use crate::lesson::ctl::{use_lesson, LessonCtl, Progress, Tab};
use crate::lesson::guided_step::GuidedStep;

const TABS: [(Tab, Key, &str); 5] = [
    (Tab::Path, Key::TabPath, "tab-path"),
    (Tab::Schema, Key::TabSchema, "tab-schema"),
    (Tab::Exercises, Key::TabExercises, "tab-exercises"),
    (Tab::Quiz, Key::TabQuiz, "tab-quiz"),
    (Tab::RealWork, Key::TabRealWork, "tab-real-work"),
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

/// One of the panel's tabs.
fn tab_button(lesson: LessonCtl, tab: Tab, key: Key, id: &'static str) -> impl IntoView {
    view! {
        <button
            type="button"
            role="tab"
            class="course__tab"
            aria-selected=move || (lesson.tab.get() == tab).to_string()
            data-testid=id
            on:click=move |_| lesson.tab.set(tab)
        >
            {tr(key)}
        </button>
    }
}

/// Folds the card to the step's title, goal and buttons, and unfolds it.
fn fold_button(folded: RwSignal<bool>, i18n: I18n) -> impl IntoView {
    view! {
        <button
            type="button"
            class="course__fold"
            data-testid="lesson-fold"
            aria-expanded=move || (!folded.get()).to_string()
            on:click=move |_| folded.update(|f| *f = !*f)
        >
            {move || i18n.t(if folded.get() { Key::LessonExpand } else { Key::LessonCollapse })}
        </button>
    }
}

/// Replaces the course's progress with one read from a file (exported on another
/// machine); a bad file is refused with its reason and changes nothing.
fn import_progress(lesson: LessonCtl, ev: &leptos::ev::Event) {
    read_chosen(ev, move |text| {
        let read = |t: String| {
            let course = lesson.course.open.with_untracked(|w| w.clone());
            let course = course.ok_or_else(|| Reason::new(Key::NoticeBadProgress))?;
            Progress::from_json(&t, &course, true)
        };
        let notice = match text.and_then(read) {
            Ok(p) => {
                let at = p.step;
                lesson.course.progress.set(p);
                lesson.go(at);
                Notice::info(Key::ProgressImported, "")
            }
            Err(why) => Notice::error(Key::NoticeBadProgress, why),
        };
        let _ = lesson.ctl.notice.try_set(Some(notice));
    });
}

/// The progress's reset, export and import, presenter mode and the speaker notes.
fn tools(lesson: LessonCtl, i18n: I18n) -> impl IntoView {
    let export = move || lesson.course.progress.with(|p| data_url(&p.to_json()));
    view! {
        <div class="course__tools">
            <button type="button" data-testid="progress-reset" on:click=move |_| lesson.reset_progress()>
                {tr(Key::ProgressReset)}
            </button>
            <a class="button" data-testid="progress-export" download="outbox-playground-progress.json" href=export>
                {tr(Key::ProgressExport)}
            </a>
            <label class="button course__import">
                {tr(Key::ProgressImport)}
                <input type="file" accept=".json,application/json" data-testid="progress-import"
                    on:change=move |ev| import_progress(lesson, &ev)/>
            </label>
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
    }
}

/// `workshop_open` and `workshop_card` are the open workshop's tab: whether there is
/// one, and its card. The challenge code is a floor above the lesson, so the page
/// (`app/page.rs`) hands them in. `side_tab` draws the schema, exercises, quiz and "in
/// real work" tabs: the page hands in a door (`app/lazy.rs`), so their code loads when
/// one is first opened, not with the page.
#[component]
pub fn LessonPanel(
    #[prop(into)] workshop_open: Signal<bool>,
    #[prop(into)] workshop_card: ViewFn,
    #[prop(into)] side_tab: Callback<Tab, AnyView>,
) -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let done = move || {
        let n = lesson
            .course
            .progress
            .with(|p| STEPS.iter().filter(|s| p.is_done(s.id)).count());
        i18n.t(Key::StepsDone)
            .replace("{n}", &n.to_string())
            .replace("{m}", &STEPS.len().to_string())
    };
    // #41: the first answer of every guess and of the why-question, right or not.
    let predicted = move || {
        let (n, m) = lesson.course.progress.with(Progress::predicted_right);
        (m > 0).then(|| {
            i18n.t(Key::ProgressPredicted)
                .replace("{n}", &n.to_string())
                .replace("{m}", &m.to_string())
        })
    };
    let folded = RwSignal::new(false);
    let tabs = TABS
        .iter()
        .map(|(tab, key, id)| tab_button(lesson, *tab, *key, id))
        .collect_view();
    view! {
        <section class="course" class:course--folded=move || folded.get() data-testid="course" aria-labelledby="course-heading">
            <div class="course__bar">
                <h2 id="course-heading" class="course__heading">{tr(Key::CourseHeading)}</h2>
                {fold_button(folded, i18n)}
                <div class="course__tabs" role="tablist">
                    {tabs}
                    <Show when=move || workshop_open.get()>
                        {tab_button(lesson, Tab::Workshop, Key::TabWorkshop, "tab-workshop")}
                    </Show>
                </div>
                <p class="course__done" data-testid="progress-done">{done}</p>
                <p class="course__done" data-testid="progress-predicted">{predicted}</p>
                {tools(lesson, i18n)}
            </div>
            <Show when=move || lesson.presenter.get()>
                <p class="course__keys" data-testid="presenter-keys">{tr(Key::PresenterKeys)}</p>
            </Show>
            {move || match lesson.tab.get() {
                Tab::Path => EitherOf3::A(view! { <GuidedStep side_tab/> }),
                Tab::Workshop => EitherOf3::B(workshop_card.run()),
                tab => EitherOf3::C(side_tab.run(tab)),
            }}
        </section>
    }
}
