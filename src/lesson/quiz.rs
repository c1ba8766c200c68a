//! The interview questions (§10 of the lesson): each answer, once chosen, is explained —
//! why it is right, or what goes wrong with it.

use leptos::prelude::*;

use crate::browser::slices::now_ms;
use crate::browser::url::{set_url_param, url_param};
use crate::i18n::lesson_words::{Question, QUIZ};
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;

/// The order question `n`'s three options are shown in, for the quiz's `seed` (#24: the
/// right answer was always the longest and in a fixed place). Test ids keep each option's
/// own number, so the order changes nothing else.
pub fn option_order(seed: u64, n: usize) -> [usize; 3] {
    let mut rng =
        outbox_model::rng::Rng::new(seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut order = [0, 1, 2];
    // Fisher-Yates with the model's own seeded generator: a link's seed gives its order.
    for i in (1..3).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// The quiz's order seed: `?quiz=` when the address has one (a shared link shows the same
/// order), otherwise one drawn for this visit and put in the address.
fn quiz_seed() -> u64 {
    if let Some(seed) = url_param("quiz").and_then(|s| s.parse().ok()) {
        return seed;
    }
    let seed = (now_ms() * 1000.0) as u64 % 1_000_000;
    set_url_param("quiz", Some(&seed.to_string()), false);
    seed
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
    let seed = quiz_seed();
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
                    {answer(id, *q, option_order(seed, n), chosen, choose)}
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

#[cfg(test)]
mod tests {
    use super::option_order;

    #[test]
    fn every_order_is_a_permutation_and_seeds_vary_it() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            for n in 0..4 {
                let mut o = option_order(seed, n);
                seen.insert(o);
                o.sort_unstable();
                assert_eq!(o, [0, 1, 2]);
            }
        }
        assert_eq!(seen.len(), 6, "every order of three turns up");
        assert_eq!(
            option_order(42, 1),
            option_order(42, 1),
            "a seed gives its order"
        );
    }
}
