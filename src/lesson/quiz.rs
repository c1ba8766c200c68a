//! The interview questions (§10 of the lesson): each answer, once chosen, is explained —
//! why it is right, or what goes wrong with it.

use leptos::prelude::*;

use crate::browser::url::{set_url_param, url_param};
use crate::i18n::lesson_words::{Question, QUIZ};
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;
use crate::lesson::shuffle::option_order;

/// Keeps the visit's seed in the address as `?quiz=` (#24: a shared link shows the same
/// order); the seed itself is drawn once per visit (`shuffle.rs`).
fn keep_seed_in_url(seed: u64) {
    if url_param("quiz").is_none() {
        set_url_param("quiz", Some(&seed.to_string()), false);
    }
}

/// One question's answers as radio buttons (in `order`), and the explanation of the
/// chosen one.
pub fn answer(
    id: &'static str,
    q: Question,
    order: [usize; 3],
    chosen: Signal<Option<usize>>,
    choose: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = use_i18n();
    let options = order
        .into_iter()
        .map(|i| {
            view! {
                <li>
                    <label class="quiz__option" class:quiz__option--right=move || chosen.get() == Some(i) && i == q.right
                        class:quiz__option--wrong=move || chosen.get() == Some(i) && i != q.right>
                        <input
                            type="radio"
                            name=id
                            data-testid=format!("answer-{id}-{i}")
                            prop:checked=move || chosen.get() == Some(i)
                            on:change=move |_| choose(i)
                        />
                        <span>{move || i18n.t(q.options[i])}</span>
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <ul class="quiz__options">{options}</ul>
        {move || chosen.get().filter(|i| *i < q.why.len()).map(|i| view! {
            <p class="quiz__why" data-testid=format!("why-{id}") data-right=(i == q.right).to_string() aria-live="polite">
                <strong>{i18n.t(if i == q.right { Key::AnswerRight } else { Key::AnswerWrong })}</strong>
                ": " {i18n.t(q.why[i])}
            </p>
        })}
    }
}

#[component]
pub fn Quiz() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let score = move || {
        let right = lesson.course.progress.with(|p| {
            QUIZ.iter()
                .enumerate()
                .filter(|(i, q)| p.first_answer(*i) == Some(q.right))
                .count()
        });
        i18n.t(Key::QuizScore)
            .replace("{n}", &right.to_string())
            .replace("{m}", &QUIZ.len().to_string())
    };
    let seed = lesson.seed;
    keep_seed_in_url(seed);
    // #42: answers changed after the first show right while the score stays: say why.
    let changed = move || lesson.course.progress.with(|p| p.quiz_changed());
    let questions = QUIZ
        .iter()
        .enumerate()
        .map(|(n, q)| {
            let chosen = Signal::derive(move || {
                lesson
                    .course
                    .progress
                    .with(|p| p.quiz.get(n).copied().flatten())
            });
            let choose = move |i: usize| lesson.course.progress.update(|p| p.answer_quiz(n, i));
            let id: &'static str = ["q0", "q1", "q2", "q3"][n];
            view! {
                <fieldset class="quiz__question" data-testid=format!("quiz-{n}")>
                    <legend>{n + 1}". " {move || i18n.t(q.text)}</legend>
                    {answer(id, *q, option_order(seed, n), chosen, choose)}
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <section class="quiz" data-testid="quiz" aria-labelledby="quiz-heading">
            <h2 id="quiz-heading" class="panel__heading">{tr(Key::QuizHeading)}</h2>
            <p data-testid="quiz-score">{score}</p>
            <Show when=changed>
                <p class="quiz__first" data-testid="quiz-first-counts">{tr(Key::QuizFirstCounts)}</p>
            </Show>
            {questions}
        </section>
    }
}
