//! The playground: it builds the run (from a shared link, the saved state, or the default
//! preset), provides the controller, drives the play loop on animation frames and the
//! keyboard map, and lays out every panel.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod ctl;
pub mod details;
pub mod event_log;
pub mod faults;
pub mod help;
pub mod keyboard;
pub mod lifecycle;
pub mod modes;
pub mod notice_bar;
pub mod pipeline;
pub mod play_loop;
pub mod sequence;
pub mod settings;
pub mod sql_panel;
pub mod startup;
pub mod warm_up;

use leptos::prelude::*;

use crate::browser::turns::use_turns;
use crate::browser::url::url_param;
use crate::challenge::ctl::WorkshopCtl;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::LessonCtl;
use crate::lesson::panel::LessonPanel;
use crate::lesson::presenter;
use crate::playground::controls::Controls;
use crate::playground::counters::CountersPanel;
use crate::playground::ctl::{Ctl, DEFAULT_PRESET};
use crate::playground::details::DetailsTabs;
use crate::playground::help::Help;
use crate::playground::keyboard::keyboard;
use crate::playground::notice_bar::NoticeBar;
use crate::playground::pipeline::Pipeline;
use crate::playground::play_loop::play_loop;
use crate::playground::settings::restore_settings;
use crate::playground::startup::{listen_for_links, startup};
use crate::playground::warm_up::warm_up;

#[component]
pub fn Playground() -> impl IntoView {
    let i18n = use_i18n();
    let (sim, notice, shared) = startup();
    // A first visit (no link, nothing saved) opens the lesson's step instead.
    let fresh = notice.is_none() && sim.inputs().is_empty() && sim.scenario.name == DEFAULT_PRESET;
    let ctl = Ctl::new(sim);
    provide_context(ctl);
    ctl.notice.set(notice);
    ctl.shared.set(shared);
    let _ = ctl.save();
    listen_for_links(ctl);
    restore_settings(ctl, i18n);
    play_loop(ctl);
    warm_up(ctl);
    keyboard(ctl);
    let lesson = LessonCtl::new(ctl);
    provide_context(lesson);
    presenter::keys(lesson);
    presenter::broadcast(lesson, i18n);
    if url_param("present").is_some() {
        lesson.presenter.set(true);
    }
    presenter::follow_in_url(lesson);
    let workshop = WorkshopCtl::new(ctl, lesson);
    provide_context(workshop);
    // A challenge link, or the workshop open before the reload, takes the run's place;
    // else a first visit opens the course's step.
    crate::challenge::start::start(workshop, move || {
        if fresh {
            lesson.go(lesson.step.get_untracked());
        }
    });
    crate::challenge::start::listen_for_links(workshop);
    // Presenter mode restyles the whole page (high contrast, large type, fewer panels).
    Effect::new(move |_| {
        if let Some(root) = document().document_element() {
            let _ = if lesson.presenter.get() {
                root.set_attribute("data-presenter", "")
            } else {
                root.remove_attribute("data-presenter")
            };
        }
    });

    // The stage (controls, counters, pipeline) and the lesson's card share the first
    // screen; everything that explains them is in the details tabs below. The page is
    // built a part per frame, in the order it is seen, so that nothing built moves what
    // is already drawn: the lesson's card with the mount (it comes first on a phone or a
    // tablet, beside the stage on a wide screen), then the control bar with the
    // counters, the pipeline, and last the details with the keyboard's dialog. Built at
    // once, the first screen was the longest task of the first load and its layout the
    // second (#18: 60–90 ms and 55–100 ms on the 2-core VM).
    let built = use_turns(BUILT_LATER_PARTS);
    let shown = move |part: usize| move || built.get() >= part;
    view! {
        <NoticeBar/>
        <div class="stage-grid">
            <div class="stage-main">
                <Show when=shown(1)>
                    <Controls/>
                    <section class="board" aria-label=tr(Key::CountersHeading)>
                        <CountersPanel/>
                    </section>
                </Show>
                <Show when=shown(2)>
                    <Pipeline/>
                </Show>
            </div>
            <aside class="stage-side" aria-labelledby="course-heading">
                <LessonPanel/>
            </aside>
        </div>
        <Show when=shown(3)>
            <DetailsTabs/>
            <Help/>
        </Show>
    }
}

/// The parts of the page built after the mount, a frame apart (see [`Playground`]).
const BUILT_LATER_PARTS: usize = 3;
