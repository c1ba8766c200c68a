//! The control bar: play, pause, one step, step back, speed, the timeline, the scenario
//! presets, the seed, reset, share and help.

pub mod scenario_picker;
pub mod share;
pub mod timeline;
pub mod transport;

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::playground::controls::scenario_picker::ScenarioPicker;
use crate::playground::controls::share::ShareLink;
use crate::playground::controls::timeline::Timeline;
use crate::playground::controls::transport::Transport;
use crate::playground::ctl::Ctl;

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

/// The run's position and length (tracked: follows every change of the world).
pub fn pos(ctl: Ctl) -> (u64, u64) {
    ctl.frame.track();
    ctl.sim.with_value(|s| (s.pos(), s.total()))
}

/// Whether the run has finished (tracked like [`pos`]).
pub fn finished(ctl: Ctl) -> bool {
    ctl.frame.track();
    ctl.finished()
}
