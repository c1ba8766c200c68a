//! An arrow between two stages of the pipeline, with the tokens travelling along it: one
//! per event (or batch) that just crossed, a duplicate drawn in its own colour and pattern.

use leptos::prelude::*;

/// The arrows of the pipeline, in flow order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    ClientApi,
    ApiDb,
    DbRelay,
    RelayQueue,
    QueueWorker,
    WorkerEffect,
}

impl Lane {
    pub fn id(self) -> &'static str {
        match self {
            Lane::ClientApi => "client-api",
            Lane::ApiDb => "api-db",
            Lane::DbRelay => "db-relay",
            Lane::RelayQueue => "relay-queue",
            Lane::QueueWorker => "queue-worker",
            Lane::WorkerEffect => "worker-effect",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub id: u64,
    pub lane: Lane,
    pub label: String,
    pub dup: bool,
    /// An event the run lost: drawn leaving the pipeline in the LOST colour.
    pub lost: bool,
    /// The second token of a duplicate delivery (two tokens, one event id), drawn lower.
    pub second: bool,
    /// performance.now() when it set off.
    pub born: f64,
}

/// The tokens in flight, shared by the pipeline's arrows.
#[derive(Clone, Copy)]
pub struct Tokens(pub RwSignal<Vec<Token>>);

#[component]
pub fn Arrow(lane: Lane) -> impl IntoView {
    let tokens = expect_context::<Tokens>().0;
    view! {
        <div class="arrow" data-lane=lane.id() aria-hidden="true">
            <span class="arrow__shaft"></span>
            <For
                each=move || tokens.with(|v| v.iter().filter(|t| t.lane == lane).cloned().collect::<Vec<_>>())
                key=|t| t.id
                let:t
            >
                <span class=token_class(&t)>{t.label.clone()}</span>
            </For>
        </div>
    }
}

/// A token's classes: its colour (a duplicate, a loss) and, for a duplicate's second
/// token, its lower track.
fn token_class(t: &Token) -> &'static str {
    match (t.lost, t.dup, t.second) {
        (true, _, _) => "token token--lost",
        (_, true, true) => "token token--dup token--second",
        (_, true, false) => "token token--dup",
        _ => "token",
    }
}
