//! The "Prove it" section: the claims, the crash-point matrix, lockstep and the trace
//! files, folded under one heading.

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::proof::claims::Claims;
use crate::proof::lockstep::Lockstep;
use crate::proof::matrix::Matrix;
use crate::proof::trace_io::TraceIo;

#[component]
pub fn Proof() -> impl IntoView {
    view! {
        <details class="proof" data-testid="proof" open>
            <summary class="proof__summary">{tr(Key::ProofHeading)}</summary>
            <p>{tr(Key::ProofIntro)}</p>
            <Claims/>
            <Matrix/>
            <Lockstep/>
            <TraceIo/>
        </details>
    }
}
