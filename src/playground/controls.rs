//! The control bar: play, pause, one step, step back, speed, the timeline, the scenario
//! presets, the seed, reset, share and help.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::words::{preset_text, PRESETS};
use crate::i18n::{tr, use_i18n, Key};
use crate::playground::ctl::{use_ctl, Notice, SPEEDS};

/// Puts the run's link in the address bar and on the clipboard.
fn share(ctl: crate::playground::ctl::Ctl) {
    let frag = ctl.link_fragment();
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = format!("{base}#{frag}");
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
    ctl.share_link.set(Some(url.clone()));
    let clipboard = w.navigator().clipboard();
    let copied = !clipboard.is_undefined();
    if copied {
        let _ = clipboard.write_text(&url);
    }
    ctl.notice.set(Some(Notice {
        key: if copied {
            Key::NoticeLinkCopied
        } else {
            Key::NoticeLinkInAddress
        },
        why: String::new(),
        error: false,
    }));
}

#[component]
pub fn Controls() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();

    let speed_text = move || {
        let s = SPEEDS[ctl.speed.get().min(SPEEDS.len() - 1)];
        if s == u32::MAX {
            i18n.t(Key::SpeedMax).to_string()
        } else {
            i18n.t(Key::SpeedPerSecond).replace("{n}", &s.to_string())
        }
    };
    let pos = move || {
        ctl.frame.track();
        ctl.sim.with_value(|s| (s.pos(), s.total()))
    };
    let timeline_text = move || {
        let (p, t) = pos();
        i18n.t(Key::TimelineValue)
            .replace("{pos}", &p.to_string())
            .replace("{total}", &t.to_string())
    };
    let scenario_name = move || {
        ctl.scenario_version.track();
        ctl.sim.with_value(|s| s.scenario.name.clone())
    };
    let summary = move || {
        let name = scenario_name();
        preset_text(&name).map(|p| p.summary(i18n.lang()).to_string())
    };
    let seed = move || {
        ctl.scenario_version.track();
        ctl.sim.with_value(|s| s.scenario.seed.to_string())
    };
    let finished = move || {
        ctl.frame.track();
        ctl.finished()
    };
    let options = move || {
        let lang = i18n.lang();
        let current = scenario_name();
        let custom = preset_text(&current).is_none();
        let mut v = vec![view! {
            <option value="custom" selected=custom disabled=true>{i18n.t(Key::PresetCustom)}</option>
        }
        .into_any()];
        for p in PRESETS {
            v.push(
                view! {
                    <option value=p.name selected=current == p.name>{p.title(lang)}</option>
                }
                .into_any(),
            );
        }
        v
    };

    view! {
        <section class="controls" aria-label=tr(Key::ControlsHeading)>
            <div class="controls__row">
                <button
                    type="button"
                    class="controls__play"
                    data-testid="play"
                    aria-pressed=move || if ctl.playing.get() { "true" } else { "false" }
                    disabled=move || finished() && !ctl.playing.get()
                    on:click=move |_| ctl.toggle_play()
                >
                    {move || if ctl.playing.get() { i18n.t(Key::Pause) } else { i18n.t(Key::Play) }}
                </button>
                <button type="button" data-testid="step" disabled=finished on:click=move |_| ctl.step_once()>
                    {tr(Key::StepOne)}
                </button>
                <button
                    type="button"
                    data-testid="step-back"
                    disabled=move || pos().0 == 0
                    on:click=move |_| ctl.back()
                >
                    {tr(Key::StepBack)}
                </button>
                <label class="controls__field controls__speed">
                    <span>{tr(Key::Speed)}</span>
                    <input
                        type="range"
                        min="0"
                        max=(SPEEDS.len() - 1).to_string()
                        data-testid="speed"
                        prop:value=move || ctl.speed.get().to_string()
                        aria-valuetext=speed_text
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                                ctl.speed.set(v.min(SPEEDS.len() - 1));
                            }
                        }
                    />
                    <output data-testid="speed-value">{speed_text}</output>
                </label>
                <button type="button" data-testid="reset" on:click=move |_| ctl.reset()>
                    {tr(Key::Reset)}
                </button>
                <button type="button" data-testid="share" on:click=move |_| share(ctl)>
                    {tr(Key::Share)}
                </button>
                <button
                    type="button"
                    data-testid="help-open"
                    aria-haspopup="dialog"
                    on:click=move |_| ctl.help_open.set(true)
                >
                    {tr(Key::HelpButton)}
                </button>
            </div>
            <div class="controls__row">
                <label class="controls__field controls__timeline">
                    <span>{tr(Key::Timeline)}</span>
                    <input
                        type="range"
                        min="0"
                        max=move || pos().1.to_string()
                        data-testid="timeline"
                        prop:value=move || pos().0.to_string()
                        aria-valuetext=timeline_text
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                                ctl.seek(v);
                            }
                        }
                    />
                    <output data-testid="timeline-value">{timeline_text}</output>
                </label>
                <span class="controls__finished" data-testid="finished" hidden=move || !finished()>
                    {tr(Key::Finished)}
                </span>
            </div>
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
            {move || {
                ctl.share_link
                    .get()
                    .map(|url| {
                        view! {
                            <label class="controls__field controls__link">
                                <span>{i18n.t(Key::Share)}</span>
                                <input type="text" readonly=true data-testid="share-url" prop:value=url/>
                            </label>
                        }
                    })
            }}
        </section>
    }
}
