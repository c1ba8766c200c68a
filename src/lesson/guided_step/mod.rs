//! The guided path: the list of steps, and the open one — its section, what it teaches,
//! its goal with the model's verdict, a hint, "show me", the variants it offers, and the
//! guess it asks for before a kill.

pub mod hint_target;
pub mod step_actions;
pub mod step_nav;
pub mod step_variants;
pub mod summary;
pub mod what_happened;
pub mod why_question;

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::i18n::lesson_words::step_words;
use crate::i18n::{tr, use_i18n, I18n, Key};
use crate::lesson::ctl::{use_lesson, Tab};
use crate::lesson::guided_step::hint_target::follow_hint;
use crate::lesson::guided_step::step_actions::StepActions;
use crate::lesson::guided_step::step_nav::StepNav;
use crate::lesson::guided_step::step_variants::{variant_kills, StepVariants};
use crate::lesson::guided_step::why_question::WhyQuestion;
use crate::lesson::predict::Predict;

/// "What just happened" (`what_happened::WhatHappened`), drawn through a door of
/// `app/lazy.rs` (the details' chunk: it is needed only once a run has finished, and that
/// chunk is fetched right after the first paint). `app/page.rs` provides it; without it
/// (component tests) the card has no such lines.
#[derive(Clone, Copy)]
pub struct HappenedDoor(pub Callback<(), AnyView>);

/// "Step n of m", in the reader's language.
fn step_of(i18n: I18n, step: usize) -> String {
    i18n.t(Key::StepOf)
        .replace("{n}", &(step + 1).to_string())
        .replace("{m}", &STEPS.len().to_string())
}

/// The step's section label; the summary has no section number: it is the seed's «Xulosa».
fn section(i18n: I18n, step: usize) -> String {
    match STEPS[step].section {
        "" => i18n.t(Key::SummarySection).to_string(),
        s => i18n.t(Key::SectionLabel).replace("{s}", s),
    }
}

/// `side_tab`: the lesson's side tabs' door (`app/lazy.rs`), which also draws the summary
/// step's panel (#43: its code is not in the first load).
#[component]
pub fn GuidedStep(#[prop(into)] side_tab: Callback<Tab, AnyView>) -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let words =
        move || step_words(STEPS[lesson.course.step.get()].id).expect("every step has words");
    // After a variant that armed its ☠, the hint must not ask for that ☠ again: pressing
    // it would disarm it (#42).
    let variant = Signal::derive(move || {
        !variant_kills(lesson.ctl, i18n, STEPS[lesson.course.step.get()].variants).is_empty()
    });
    follow_hint(lesson, variant);
    let door = use_context::<HappenedDoor>();
    // Through the door only once a run has finished: the chunk is not fetched for a
    // page that never runs, nor re-mounted on every beat.
    let finished = Memo::new(move |_| {
        lesson.ctl.summary_beat.track();
        lesson.ctl.finished()
    });
    let hint = move || {
        i18n.t(if variant.get() {
            Key::VariantHint
        } else {
            words().hint
        })
    };
    let is_summary = move || STEPS[lesson.course.step.get()].id == "summary";
    view! {
        <div class="lesson" data-testid="lesson">
            <StepNav/>
            <article class="lesson__step" data-testid="lesson-step" data-step=move || STEPS[lesson.course.step.get()].id>
                <p class="lesson__meta">
                    <span data-testid="lesson-step-of">{move || step_of(i18n, lesson.course.step.get())}</span>
                    " · "
                    <span>{move || section(i18n, lesson.course.step.get())}</span>
                </p>
                <h2 class="lesson__title" data-testid="lesson-title">{move || i18n.t(words().title)}</h2>
                <p class="lesson__body">{move || i18n.t(words().body)}</p>
                <p
                    class="lesson__goal"
                    class:lesson__goal--reached=move || lesson.course.reached.get()
                    data-testid="lesson-goal"
                    data-reached=move || lesson.course.reached.get().to_string()
                    aria-live="polite"
                >
                    <span class="lesson__goal-text">{move || i18n.t(words().goal)}</span>
                    <strong class="lesson__goal-state" data-testid="goal-state">
                        {move || if lesson.course.reached.get() { i18n.t(Key::GoalReached) } else { i18n.t(Key::GoalNotYet) }}
                    </strong>
                </p>
                // #41: a measurement step says so (▶ alone reaches it); every other step
                // needs an act of the learner, and its goal says which.
                <Show when=move || STEPS[lesson.course.step.get()].measurement>
                    <p class="lesson__measurement" data-testid="lesson-measurement">{tr(Key::StepIsMeasurement)}</p>
                </Show>
                <Show when=is_summary>
                    {move || side_tab.run(Tab::Summary)}
                </Show>
                <Show when=move || finished.get() && door.is_some()>
                    {move || door.map(|d| d.0.run(()))}
                </Show>
                <WhyQuestion/>
                <Predict/>
                <StepVariants/>
                <StepActions/>
                <Show when=move || lesson.course.hint.get()>
                    <div class="lesson__hint lesson__hint--float" data-testid="lesson-hint-box">
                        <p data-testid="lesson-hint-text">{hint}</p>
                        <button type="button" class="lesson__hint-close" data-testid="lesson-hint-close"
                            on:click=move |_| lesson.course.hint.set(false)>
                            {tr(Key::Dismiss)}
                        </button>
                    </div>
                </Show>
            </article>
        </div>
    }
}
