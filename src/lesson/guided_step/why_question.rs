//! The "try it yourself" question of the step whose goal is publishing outside the
//! transaction: its goal counts only once the right answer is chosen.

use leptos::prelude::*;
use outbox_model::lesson::{Goal, STEPS};

use crate::i18n::lesson_words::WHY_INSIDE;
use crate::i18n::{tr, Key};
use crate::lesson::ctl::use_lesson;
use crate::lesson::quiz::answer;

#[component]
pub fn WhyQuestion() -> impl IntoView {
    let lesson = use_lesson();
    move || {
        (STEPS[lesson.step.get()].goal == Goal::PublishOutsideLoses).then(|| {
            let chosen = Signal::derive(move || lesson.progress.with(|p| p.why));
            let choose = move |i: usize| lesson.progress.update(|p| p.why = Some(i));
            view! {
                <div class="lesson__why">
                    <p class="lesson__why-heading">{tr(Key::WhyHeading)}</p>
                    {answer("why", WHY_INSIDE, [0, 1, 2], chosen, choose)}
                </div>
            }
        })
    }
}
