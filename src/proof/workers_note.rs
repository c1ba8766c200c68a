//! Where the searches run (issue #22): in N Web Workers, or — when workers failed — why,
//! with the offer to run them on the page's own thread instead.

use leptos::prelude::*;

use crate::i18n::{tr, use_i18n, Key};
use crate::proof::pool::{Pool, PoolState};

#[component]
pub fn WorkersNote(state: RwSignal<PoolState>) -> impl IntoView {
    let i18n = use_i18n();
    let pool = use_context::<Pool>().expect("WorkersNote is inside Proof, which provides the pool");
    let run_here = move |_| pool.run_here();
    move || {
        match state.get() {
        PoolState::Idle => ().into_any(),
        PoolState::Workers(n) => view! {
            <p class="workers-note" data-testid="proof-workers" data-workers=n.to_string() data-ready=move || pool.ready().get().to_string()>
                {move || i18n.t(Key::ProofWorkers).replace("{n}", &n.to_string())}
            </p>
        }
        .into_any(),
        PoolState::Failed(why) => view! {
            <div class="workers-note workers-note--failed" role="status" data-testid="proof-workers-failed">
                <p>{move || i18n.t(Key::ProofWorkersFailed).replace("{why}", &why.text(i18n.lang()))}</p>
                <button type="button" data-testid="proof-run-here" on:click=run_here>{tr(Key::ProofRunHere)}</button>
            </div>
        }
        .into_any(),
        PoolState::Here => view! {
            <p class="workers-note" data-testid="proof-here">{tr(Key::ProofHere)}</p>
        }
        .into_any(),
    }
    }
}
