//! The "try it yourself" question of the step whose goal is publishing outside the
//! transaction: its goal counts once the right reason is chosen. Its options come in the
//! visit's order (#41: the right one was always the middle, longest one), and only the
//! first answer scores ("predicted right N of M"); a later pick shows its explanation.

use leptos::prelude::*;

use crate::i18n::lesson_words::WHY_INSIDE;
use crate::i18n::{tr, Key};
use crate::lesson::course::WHY_STEP;
use crate::lesson::ctl::use_lesson;
use crate::lesson::quiz::answer;
use crate::lesson::shuffle::{option_order, WHY_ORDER};

#[component]
pub fn WhyQuestion() -> impl IntoView {
    let lesson = use_lesson();
    let course = lesson.course;
    let asks = move || {
        course.step.track();
        course.current_id().as_deref() == Some(WHY_STEP)
    };
    move || {
        asks().then(|| {
            let chosen = Signal::derive(move || course.progress.with(|p| p.why));
            let choose = move |i: usize| course.progress.update(|p| p.answer_why(i));
            // The first answer was another: the later pick is shown, not scored.
            let first_kept = move || {
                course
                    .progress
                    .with(|p| p.why.is_some() && p.why != p.why_first_answer())
            };
            view! {
                <div class="lesson__why" data-testid="why-question">
                    <p class="lesson__why-heading">{tr(Key::WhyHeading)}</p>
                    {answer("why", WHY_INSIDE, option_order(lesson.seed, WHY_ORDER), chosen, choose)}
                    <Show when=first_kept>
                        <p class="lesson__first" data-testid="why-first-counted">{tr(Key::FirstAnswerCounted)}</p>
                    </Show>
                </div>
            }
        })
    }
}
