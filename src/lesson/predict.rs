//! Predict, then reveal: before a kill the run stops and asks "lost, duplicate or fine?";
//! the reveal (the button or `R`) lets it run to its end, and the model's outcome is set
//! beside the guess. The choices come in the visit's order (#41), the keys 1–3 follow it,
//! and only a step's first guess scores: a later one says which guess was counted.

use leptos::prelude::*;
use outbox_model::challenge::outcome_of_name;
use outbox_model::lesson::Outcome;

use crate::i18n::{tr, use_i18n, I18n, Key};
use crate::lesson::ctl::{outcome_key, outcome_name, use_lesson, LessonCtl, Predict as State};

/// What happened beside the guess; and, when the step's first guess was another, that
/// the first is the one the score counts.
fn revealed(lesson: LessonCtl, i18n: I18n, guess: Outcome, actual: Outcome) -> impl IntoView {
    let counted = move || {
        let course = lesson.on_stage();
        let id = course.current_id()?;
        let first = course
            .progress
            .with(|p| p.first_guess(&id).and_then(|f| outcome_of_name(&f.guess)))?;
        (first != guess).then_some(first)
    };
    view! {
        <p class="predict__result" data-testid="predict-result" data-actual=outcome_name(actual)>
            <strong>{i18n.t(if guess == actual { Key::PredictRight } else { Key::PredictWrong })}</strong>
            " " {i18n.t(Key::PredictResult)} " " {i18n.t(outcome_key(actual))}
            " · " {i18n.t(Key::PredictChosen)} " " {i18n.t(outcome_key(guess))}
        </p>
        {move || counted().map(|first| view! {
            <p class="predict__counted" data-testid="predict-counted" data-first=outcome_name(first)>
                {i18n.t(Key::FirstAnswerCounted)} ": " {i18n.t(outcome_key(first))}
            </p>
        })}
    }
}

#[component]
pub fn Predict() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let state = move || lesson.predict.get();
    // Stopped before the kill: with no guess yet (Paused), or with one made before Play
    // (#24: that run stopped too, but said nothing).
    let paused = move || {
        state() == State::Paused
            || (lesson.ctl.halted.get()
                && matches!(
                    state(),
                    State::Guessed {
                        revealing: false,
                        ..
                    }
                ))
    };
    let guess_of = move || match state() {
        State::Guessed { guess, .. } | State::Revealed { guess, .. } => Some(guess),
        _ => None,
    };
    let buttons = move || {
        lesson
            .guess_order()
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                view! {
                    <button
                        type="button"
                        class="predict__choice"
                        aria-pressed=move || (guess_of() == Some(o)).to_string()
                        disabled=move || matches!(state(), State::Revealed { .. } | State::Guessed { revealing: true, .. })
                        data-testid=format!("guess-{}", outcome_name(o))
                        on:click=move |_| lesson.guess(o)
                    >
                        <kbd>{i + 1}</kbd>" "{move || i18n.t(outcome_key(o))}
                    </button>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || state() != State::Off>
            <div class="predict" class:predict--paused=paused data-testid="predict" data-state=move || state().name()>
                <p class="predict__ask" data-testid="predict-ask">
                    {move || if paused() { i18n.t(Key::PredictPaused) } else { i18n.t(Key::PredictAsk) }}
                </p>
                <div class="predict__choices">{buttons}</div>
                <button
                    type="button"
                    class="predict__reveal"
                    data-testid="reveal"
                    disabled=move || !matches!(state(), State::Guessed { revealing: false, .. })
                    on:click=move |_| lesson.reveal()
                >
                    {tr(Key::Reveal)}
                </button>
                {move || match state() {
                    State::Revealed { guess, actual } => Some(revealed(lesson, i18n, guess, actual)),
                    _ => None,
                }}
            </div>
        </Show>
    }
}
