//! The end of the pipeline: the business effects (rows of `amallar`, or calls to an
//! outside service), their duplicates, and the balance when the payload carries a sum.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, Key};

#[component]
pub fn BusinessEffects() -> impl IntoView {
    let ctl = use_ctl();
    let c = ctl.counters;
    view! {
        <div class="effects" data-testid="effects">
            <p class="effects__what">{tr(Key::EffectRows)}</p>
            <p class="effects__line">
                <span class="effects__n">{move || c.with(|c| c.effects).to_string()}</span>
                " "
                {tr(Key::CEffects)}
            </p>
            <p class="effects__line" class:effects__line--dup=move || c.with(|c| c.duplicate_effects > 0)>
                <span class="effects__n">{move || c.with(|c| c.duplicate_effects).to_string()}</span>
                " "
                {tr(Key::CDupEffects)}
            </p>
            <Show when=move || c.with(|c| c.balance > 0)>
                <p class="effects__line">
                    {tr(Key::CBalance)}
                    ": "
                    <span class="effects__n">{move || c.with(|c| c.balance).to_string()}</span>
                </p>
            </Show>
        </div>
    }
}
