//! The scenario row: the presets (or "custom"), the seed, and the preset's summary.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::words::{preset_names, preset_text};
use crate::i18n::{tr, use_i18n, Key};

#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let scenario_name = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.name.clone())
    };
    let summary = move || {
        let name = scenario_name();
        preset_text(&name).map(|p| p.summary(i18n.lang()).to_string())
    };
    let seed = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.seed.to_string())
    };
    let options = move || {
        let lang = i18n.lang();
        let current = scenario_name();
        let custom = preset_text(&current).is_none();
        let mut v = vec![view! {
            <option value="custom" selected=custom disabled=true>{i18n.t(Key::PresetCustom)}</option>
        }
        .into_any()];
        for name in preset_names() {
            let title = preset_text(name).map_or(name.as_str(), |p| p.title(lang));
            v.push(
                view! {
                    <option value=name.clone() selected=current == *name>{title}</option>
                }
                .into_any(),
            );
        }
        v
    };

    view! {
        <div class="controls__row">
            <label class="controls__field">
                <span>{tr(Key::Preset)}</span>
                <select
                    data-testid="preset"
                    on:change=move |ev| ctl.load_preset(&event_target_value(&ev))
                >
                    {options}
                </select>
            </label>
            <label class="controls__field controls__seed">
                <span>{tr(Key::Seed)}</span>
                <input
                    type="number"
                    min="0"
                    data-testid="seed"
                    prop:value=seed
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                            let mut s = ctl.scenario();
                            s.seed = v;
                            ctl.load(s);
                        }
                    }
                />
            </label>
            <p class="controls__summary" data-testid="preset-summary">{summary}</p>
        </div>
    }
}
