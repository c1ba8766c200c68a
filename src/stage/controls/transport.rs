//! The first row of the control bar: play/pause, one step, step back, speed (the part a
//! phone keeps in a bar at the bottom of the screen, under the thumb: #42), then reset,
//! share and help.

use leptos::prelude::*;

use crate::ctl::share::share;
use crate::ctl::{use_ctl, SPEEDS};
use crate::i18n::{tr, use_i18n, Key};

#[component]
pub fn Transport() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let speed_text = move || {
        let s = SPEEDS[ctl.speed.get().min(SPEEDS.len() - 1)];
        if s == u32::MAX {
            i18n.t(Key::SpeedMax).to_string()
        } else {
            i18n.tn(Key::SpeedPerSecond, u64::from(s))
        }
    };
    let finished = move || ctl.finished_tracked();
    view! {
        <div class="controls__row controls__transport" data-testid="transport">
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
                disabled=move || ctl.position_tracked().0 == 0
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
        </div>
        <div class="controls__row controls__tools">
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
    }
}
