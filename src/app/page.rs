//! The page under the header: it builds the run (from a shared link, the saved state, or
//! the default preset), provides the controllers (the run's, and the lesson's with its two
//! courses: the lesson and the open workshop), starts the play loop and the keyboard map, wires the features together
//! (the workshop's card into the lesson panel, the links into the challenge code), and
//! lays out the stage, the lesson's card and the details tabs.

use leptos::prelude::*;

use crate::app::details::DetailsTabs;
use crate::app::door_view::door_view;
use crate::app::lazy;
use crate::browser::build_in_turns::use_turns;
use crate::browser::url::url_param;
use crate::ctl::play_loop::play_loop;
use crate::ctl::startup::{listen_for_links, startup};
use crate::ctl::{Ctl, DEFAULT_PRESET};
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::LessonCtl;
use crate::lesson::guided_step::HappenedDoor;
use crate::lesson::panel::LessonPanel;
use crate::lesson::presenter;
use crate::stage::controls::Controls;
use crate::stage::counters::CountersPanel;
use crate::stage::help::Help;
use crate::stage::keyboard::keyboard;
use crate::stage::notice_bar::NoticeBar;
use crate::stage::pipeline::Pipeline;
use crate::stage::settings::restore_settings;
use crate::stage::warm_up::warm_up;

#[component]
pub fn Playground() -> impl IntoView {
    let i18n = use_i18n();
    let (sim, notice, shared) = startup();
    // A first visit (no link, nothing saved) opens the lesson's step instead.
    let fresh =
        notice.is_none() && sim.inputs().is_empty() && sim.scenario().name == DEFAULT_PRESET;
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
    provide_context(HappenedDoor(Callback::new(|()| {
        door_view(lazy::what_happened).into_any()
    })));
    presenter::keys(lesson);
    presenter::broadcast(lesson, i18n);
    if url_param("present").is_some() {
        lesson.presenter.set(true);
    }
    presenter::follow_in_url(lesson);
    // A challenge link, or the workshop open before the reload, takes the run's place;
    // else a first visit opens the course's step.
    crate::app::links::start(lesson, move || {
        if fresh {
            lesson.go(lesson.course.step.get_untracked());
        }
    });
    crate::app::links::listen_for_links(lesson);
    // #45: in a learning platform's frame, or under a SCORM run-time.
    crate::app::embed::start(lesson, i18n);
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
            // Until the pipeline is in, a phone (where the lesson comes after the stage)
            // keeps the lesson out, so the pipeline's arrival shifts nothing on screen.
            <aside class="stage-side" class:stage-side--later=move || built.get() < 2 aria-labelledby="course-heading">
                <LessonPanel
                    workshop_open=Signal::derive(move || lesson.workshop.open.with(Option::is_some))
                    workshop_card=|| door_view(lazy::workshop_step)
                    side_tab=Callback::new(|tab| door_view(move || lazy::lesson_tab(tab)).into_any())
                />
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
