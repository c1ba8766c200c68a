//! The "Prove it" section: the claims, the crash-point matrix, lockstep and the trace
//! files, folded under one heading. It owns the searches' worker pool (`proof::pool`,
//! in context for the claims and the matrix) and starts its workers when the section is
//! first shown, not on the page's first paint.

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::proof::claims::Claims;
use crate::proof::lockstep::Lockstep;
use crate::proof::matrix::Matrix;
use crate::proof::pool::Pool;
use crate::proof::trace_io::TraceIo;
use crate::proof::workers_note::WorkersNote;

#[component]
pub fn Proof(
    /// Whether the section is on screen (its details tab is chosen).
    #[prop(into)]
    shown: Signal<bool>,
) -> impl IntoView {
    let pool = Pool::new();
    provide_context(pool);
    let state = pool.state();
    Effect::new(move |_| {
        if shown.get() {
            pool.warm();
        }
    });
    view! {
        <details class="proof" data-testid="proof" open>
            <summary class="proof__summary">{tr(Key::ProofHeading)}</summary>
            <p>{tr(Key::ProofIntro)}</p>
            <WorkersNote state/>
            <Claims/>
            <Matrix/>
            <Lockstep/>
            <TraceIo/>
        </details>
    }
}
