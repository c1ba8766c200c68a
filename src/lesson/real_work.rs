//! The lesson's §10, "in real work": where the pattern shows up in production systems
//! (microservices, Debezium CDC, pg-boss, webhooks and SSE) and the interview questions,
//! as text in the page's words; then the lesson's sources (its «Manbalar», with the
//! documentation of what the page models: SKIP LOCKED, logical decoding, BullMQ's job ids
//! and stalled jobs), as links that open outside the page.

use leptos::prelude::*;

use crate::i18n::{tr, Key};

const ITEMS: [Key; 5] = [
    Key::RealWorkServices,
    Key::RealWorkCdc,
    Key::RealWorkPgBoss,
    Key::RealWorkWebhooks,
    Key::RealWorkInterview,
];

/// Each source: its title (a key) and its address. The addresses are the seed's own
/// sources, and the documentation of the real systems the model is checked against.
const SOURCES: [(Key, &str); 7] = [
    (
        Key::SourceOutbox,
        "https://microservices.io/patterns/data/transactional-outbox.html",
    ),
    (
        Key::SourceIdempotentConsumer,
        "https://microservices.io/patterns/communication-style/idempotent-consumer.html",
    ),
    (
        Key::SourceSkipLocked,
        "https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE",
    ),
    (
        Key::SourceLogicalDecoding,
        "https://www.postgresql.org/docs/current/logicaldecoding-explanation.html",
    ),
    (Key::SourceBullmqJobId, "https://docs.bullmq.io/guide/jobs/job-ids"),
    (
        Key::SourceBullmqStalled,
        "https://docs.bullmq.io/guide/workers/stalled-jobs",
    ),
    (
        Key::SourceDebezium,
        "https://debezium.io/documentation/reference/stable/transformations/outbox-event-router.html",
    ),
];

#[component]
pub fn RealWork() -> impl IntoView {
    let items = ITEMS
        .iter()
        .map(|k| view! { <li>{tr(*k)}</li> })
        .collect_view();
    let sources = SOURCES
        .iter()
        .map(|(key, href)| {
            view! {
                <li>
                    <a href=*href target="_blank" rel="noopener noreferrer">{tr(*key)}</a>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="real-work" data-testid="real-work">
            <p>{tr(Key::RealWorkIntro)}</p>
            <ul class="real-work__list">{items}</ul>
            <h3 class="real-work__heading">{tr(Key::SourcesHeading)}</h3>
            <p class="real-work__note">{tr(Key::SourcesNote)}</p>
            <ul class="real-work__list real-work__sources" data-testid="sources">{sources}</ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    /// Every source is an https address (the page's CSP and a learner's browser take it
    /// as it is), each once, and the seed's four are among them.
    #[test]
    fn the_sources_are_https_and_include_the_seeds() {
        let hrefs: Vec<&str> = super::SOURCES.iter().map(|(_, h)| *h).collect();
        for href in &hrefs {
            assert!(href.starts_with("https://"), "{href}");
        }
        let mut unique = hrefs.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), hrefs.len());
        // The seed's «Manbalar»: microservices.io twice, PostgreSQL's SELECT, Debezium.
        for seed in [
            "transactional-outbox",
            "idempotent-consumer",
            "SQL-FOR-UPDATE-SHARE",
            "outbox-event-router",
        ] {
            assert!(hrefs.iter().any(|h| h.contains(seed)), "{seed}");
        }
    }
}
