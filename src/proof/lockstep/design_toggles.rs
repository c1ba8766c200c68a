//! Lockstep's design choices: up to three designs, kept in a fixed order.

use leptos::prelude::*;
use outbox_model::explore::Design;

use crate::i18n::use_i18n;
use crate::proof::design::design_key;

#[component]
pub fn DesignToggles(chosen: RwSignal<Vec<Design>>) -> impl IntoView {
    let i18n = use_i18n();
    let toggles = Design::all()
        .into_iter()
        .map(|d| {
            view! {
                <label class="lockstep__choice">
                    <input
                        type="checkbox"
                        data-testid=format!("ls-design-{}", d.name())
                        prop:checked=move || chosen.with(|c| c.contains(&d))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            chosen.update(|c| {
                                c.retain(|x| *x != d);
                                if on && c.len() < 3 {
                                    c.push(d);
                                    c.sort();
                                }
                            });
                        }
                    />
                    {move || i18n.t(design_key(d))}
                </label>
            }
        })
        .collect_view();
    view! { <div class="lockstep__choices">{toggles}</div> }
}
