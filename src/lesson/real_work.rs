//! The lesson's §10, "in real work": where the pattern shows up in production systems
//! (microservices, Debezium CDC, pg-boss, webhooks and SSE) and the interview questions,
//! as text in the page's words.

use leptos::prelude::*;

use crate::i18n::{tr, Key};

const ITEMS: [Key; 5] = [
    Key::RealWorkServices,
    Key::RealWorkCdc,
    Key::RealWorkPgBoss,
    Key::RealWorkWebhooks,
    Key::RealWorkInterview,
];

#[component]
pub fn RealWork() -> impl IntoView {
    let items = ITEMS
        .iter()
        .map(|k| view! { <li>{tr(*k)}</li> })
        .collect_view();
    view! {
        <div class="real-work" data-testid="real-work">
            <p>{tr(Key::RealWorkIntro)}</p>
            <ul class="real-work__list">{items}</ul>
        </div>
    }
}
