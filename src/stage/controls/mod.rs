//! The control bar: play, pause, one step, step back, speed, the timeline, the scenario
//! presets, the seed, reset, share and help.

pub mod scenario_picker;
pub mod share_link;
pub mod timeline;
pub mod transport;

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::stage::controls::scenario_picker::ScenarioPicker;
use crate::stage::controls::share_link::ShareLink;
use crate::stage::controls::timeline::Timeline;
use crate::stage::controls::transport::Transport;

#[component]
pub fn Controls() -> impl IntoView {
    view! {
        <section class="controls" aria-label=tr(Key::ControlsHeading)>
            <Transport/>
            <Timeline/>
            <ScenarioPicker/>
            <ShareLink/>
        </section>
    }
}
