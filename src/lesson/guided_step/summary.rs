//! The summary step's panel (the seed's «Xulosa», #43): the lesson's three results, each
//! from the model's own run of its preset (`lesson::summary`, never typed in), the
//! guarantees side by side, and the way to the sources (the "in real work" tab).

use leptos::prelude::*;
use outbox_model::lesson::summary;

use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::{use_lesson, Tab};

/// The guarantees, in §5's order.
const GUARANTEES: [Key; 3] = [Key::SummaryAtMost, Key::SummaryAtLeast, Key::SummaryExactly];

/// One result: its text, its test id, and the numbers for its slots.
type Line = (Key, &'static str, Vec<(&'static str, u64)>);

#[component]
pub fn LessonSummary() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    // Four runs to their end (a few thousand steps): once, when the step shows.
    let n = summary();
    let lines: [Line; 4] = [
        (
            Key::SummaryDual,
            "summary-dual",
            vec![
                ("{db}", n.dual.db),
                ("{q}", n.dual.queue),
                ("{lost}", n.dual.lost),
            ],
        ),
        (
            Key::SummaryOutbox,
            "summary-outbox",
            vec![
                ("{db}", n.outbox.db),
                ("{q}", n.outbox.queue),
                ("{lost}", n.outbox.lost),
            ],
        ),
        (
            Key::SummaryRepublish,
            "summary-republish",
            vec![("{q}", n.republish.queue), ("{again}", n.again)],
        ),
        (
            Key::SummaryInbox,
            "summary-inbox",
            vec![("{n}", n.deliveries), ("{e}", n.effects)],
        ),
    ];
    let results = lines
        .into_iter()
        .map(|(key, id, values)| {
            let text = move || {
                values.iter().fold(i18n.t(key).to_string(), |t, (slot, v)| {
                    t.replace(slot, &v.to_string())
                })
            };
            view! { <li data-testid=id>{text}</li> }
        })
        .collect_view();
    let guarantees = GUARANTEES
        .iter()
        .map(|k| view! { <li class="lesson-summary__guarantee">{tr(*k)}</li> })
        .collect_view();
    view! {
        <section class="lesson-summary" data-testid="lesson-summary">
            <h3 class="lesson-summary__heading">{tr(Key::SummaryResultsHeading)}</h3>
            <ol class="lesson-summary__results">{results}</ol>
            <h3 class="lesson-summary__heading">{tr(Key::SummaryGuaranteesHeading)}</h3>
            <ul class="lesson-summary__guarantees" data-testid="summary-guarantees">{guarantees}</ul>
            <button type="button" class="lesson-summary__sources" data-testid="summary-sources" on:click=move |_| lesson.tab.set(Tab::RealWork)>
                {tr(Key::SummarySources)}
            </button>
        </section>
    }
}
