//! The interview questions (§10 of the lesson): each answer, once chosen, is explained —
//! why it is right, or what goes wrong with it.

use leptos::prelude::*;

use crate::i18n::lesson_words::{Question, QUIZ};
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;

/// One question's answers as radio buttons, and the explanation of the chosen one.
pub fn answer(
    id: &'static str,
    q: Question,
    chosen: Signal<Option<usize>>,
    choose: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let i18n = use_i18n();
    let options = (0..3)
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
        let right = lesson.progress.with(|p| {
            QUIZ.iter()
                .enumerate()
                .filter(|(i, q)| p.first_answer(*i) == Some(q.right))
                .count()
        });
        i18n.t(Key::QuizScore)
            .replace("{n}", &right.to_string())
            .replace("{m}", &QUIZ.len().to_string())
    };
    let questions = QUIZ
        .iter()
        .enumerate()
        .map(|(n, q)| {
            let chosen =
                Signal::derive(move || lesson.progress.with(|p| p.quiz.get(n).copied().flatten()));
            let choose = move |i: usize| {
                lesson.progress.update(|p| {
                    if p.quiz.len() <= n {
                        p.quiz.resize(n + 1, None);
                    }
                    if p.quiz_first.iter().all(Option::is_none) {
                        // Saved before first answers were kept: its answers were first.
                        p.quiz_first = p.quiz.clone();
                    }
                    if p.first_answer(n).is_none() {
                        p.quiz_first.resize(p.quiz_first.len().max(n + 1), None);
                        p.quiz_first[n] = Some(i);
                    }
                    p.quiz[n] = Some(i);
                })
            };
            let id: &'static str = ["q0", "q1", "q2", "q3"][n];
            view! {
                <fieldset class="quiz__question" data-testid=format!("quiz-{n}")>
                    <legend>{n + 1}". " {move || i18n.t(q.text)}</legend>
                    {answer(id, *q, chosen, choose)}
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <section class="quiz" data-testid="quiz" aria-labelledby="quiz-heading">
            <h2 id="quiz-heading" class="panel__heading">{tr(Key::QuizHeading)}</h2>
            <p data-testid="quiz-score">{score}</p>
            {questions}
        </section>
    }
}
