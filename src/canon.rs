//! The canon comparison: the lesson's two measurements, computed by the model in the page.

use leptos::prelude::*;
use outbox_model::{preset, run, Counters};

use crate::i18n::{use_i18n, Key};

/// Runs one of the model's canon presets to its end.
pub fn canon_counters(name: &str) -> Option<Counters> {
    preset(name).map(|s| run(&s).counters())
}

#[component]
fn CanonRow(name: &'static str, label: Key) -> impl IntoView {
    let i18n = use_i18n();
    let c = canon_counters(name);
    let lost = c.as_ref().map_or(0, |c| c.lost);
    let cell =
        move |v: fn(&Counters) -> u64| c.as_ref().map(v).map(|n| n.to_string()).unwrap_or_default();
    let lost_class = if lost > 0 {
        "canon__lost canon__lost--bad"
    } else {
        "canon__lost"
    };
    view! {
        <tr class="canon__row" data-testid=name>
            <th scope="row">{move || i18n.t(label)}</th>
            <td data-testid=format!("{name}-db")>{cell(|c| c.tasks_in_db)}</td>
            <td data-testid=format!("{name}-queue")>{cell(|c| c.queue_jobs)}</td>
            <td class=lost_class data-testid=format!("{name}-lost")>
                {cell(|c| c.lost)}
            </td>
        </tr>
    }
}

/// The two canon runs side by side, with the lesson's line.
#[component]
pub fn Canon() -> impl IntoView {
    let i18n = use_i18n();
    let dual = canon_counters("canon-dual-write");
    let line = move || {
        dual.as_ref().map(|c| {
            i18n.t(Key::CanonLine)
                .replace("{db}", &c.tasks_in_db.to_string())
                .replace("{q}", &c.queue_jobs.to_string())
        })
    };
    view! {
        <section class="canon" aria-labelledby="canon-heading">
            <h2 id="canon-heading" class="canon__heading">{move || i18n.t(Key::CanonHeading)}</h2>
            <p class="canon__intro">{move || i18n.t(Key::CanonIntro)}</p>
            <table class="canon__table">
                <thead>
                    <tr>
                        <th scope="col">{move || i18n.t(Key::ColDesign)}</th>
                        <th scope="col">{move || i18n.t(Key::ColInDb)}</th>
                        <th scope="col">{move || i18n.t(Key::ColInQueue)}</th>
                        <th scope="col">{move || i18n.t(Key::ColLost)}</th>
                    </tr>
                </thead>
                <tbody>
                    <CanonRow name="canon-dual-write" label=Key::CanonDualWrite/>
                    <CanonRow name="canon-outbox" label=Key::CanonOutbox/>
                </tbody>
            </table>
            <p class="canon__line" data-testid="canon-line">{line}</p>
        </section>
    }
}
