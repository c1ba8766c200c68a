//! The timeline: scrub to any moment of the run (the model replays to it), and whether
//! the run has finished.

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};

#[component]
pub fn Timeline() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let pos = move || ctl.position_tracked();
    let timeline_text = move || {
        let (p, t) = pos();
        i18n.t(Key::TimelineValue)
            .replace("{pos}", &p.to_string())
            .replace("{total}", &t.to_string())
    };
    let finished = move || ctl.finished_tracked();
    view! {
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
    }
}
