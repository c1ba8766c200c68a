//! The playground: it builds the run (from a shared link, the saved state, or the default
//! preset), provides the controller, drives the play loop on animation frames and the
//! keyboard map, and lays out every panel.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod ctl;
pub mod event_log;
pub mod faults;
pub mod help;
pub mod lifecycle;
pub mod modes;
pub mod notice_bar;
pub mod pipeline;
pub mod sequence;
pub mod sql_panel;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser::frames::now_ms;
use crate::browser::storage;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::LessonCtl;
use crate::lesson::panel::LessonPanel;
use crate::lesson::presenter;
use crate::playground::chart::Chart;
use crate::playground::controls::Controls;
use crate::playground::counters::CountersPanel;
use crate::playground::ctl::{
    Ctl, Notice, DEFAULT_PRESET, QUEUE_PER_STATE, SPEEDS, TABLE_HEAD, TABLE_RECENT,
};
use crate::playground::event_log::EventLog;
use crate::playground::faults::Faults;
use crate::playground::help::Help;
use crate::playground::lifecycle::Lifecycle;
use crate::playground::modes::Modes;
use crate::playground::notice_bar::NoticeBar;
use crate::playground::pipeline::Pipeline;
use crate::playground::sequence::Sequence;
use crate::playground::sql_panel::SqlPanel;
use crate::proof::Proof;
use crate::run::link;
use crate::run::sim::Sim;
use outbox_model::view;

/// Model time per animation frame at full speed: what is left of a 60 Hz frame goes to
/// drawing.
const FRAME_BUDGET_MS: f64 = 3.0;
/// How often the heavier panels follow while playing (twice a second: each redraw is a
/// long frame, and the counters and tokens already move every frame).
const SLOW_PANEL_MS: f64 = 500.0;
/// Model time on a frame that also redraws the heavier panels: the redraw takes most of
/// the frame, so the model yields to it.
const SLOW_FRAME_MODEL_MS: f64 = 0.5;
/// At full speed, a big world's checkpoint (a copy of the whole world, a frame of its
/// own) is taken at most this often, the first one this long after play starts: the model
/// keeps running while one waits, seeking back replays from the last one taken, and a
/// waiting one is taken when play stops.
const BIG_COPY_EVERY_MS: f64 = 1000.0;
/// Frames after play starts on which the model yields to the drawing, like a heavy frame.
const FIRST_FRAMES: u8 = 3;

fn default_sim() -> Sim {
    Sim::new(outbox_model::preset(DEFAULT_PRESET).expect("the default preset exists"))
}

fn clear_fragment() {
    let Some(w) = web_sys::window() else { return };
    if let (Ok(h), Ok(path)) = (w.history(), w.location().pathname()) {
        let search = w.location().search().unwrap_or_default();
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{search}")));
    }
}

/// The run the page opens with, and what to tell the user about how it got it.
pub fn startup() -> (Sim, Option<Notice>) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if link::is_run_fragment(&hash) {
        // The link has done its job once opened: a reload shows the saved state.
        clear_fragment();
        return match link::open(&hash) {
            Ok(sim) => (sim, None),
            Err(e) => (
                default_sim(),
                Some(Notice {
                    key: Key::NoticeBadLink,
                    why: e.to_string(),
                    error: true,
                }),
            ),
        };
    }
    match storage::load() {
        Some(json) => match link::from_json(&json) {
            Ok(sim) => (sim, None),
            Err(e) => {
                storage::clear();
                (
                    default_sim(),
                    Some(Notice {
                        key: Key::NoticeBadSaved,
                        why: e.to_string(),
                        error: true,
                    }),
                )
            }
        },
        None => (default_sim(), None),
    }
}

/// Runs the model on animation frames while playing; stops when the component goes.
fn play_loop(ctl: Ctl) {
    type Frame = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;
    let alive = Rc::new(Cell::new(true));
    let handle = Rc::new(Cell::new(None::<i32>));
    let frame: Frame = Rc::new(RefCell::new(None));
    let last = Rc::new(Cell::new(None::<f64>));
    let backlog = Rc::new(Cell::new(0.0f64));
    let last_slow = Rc::new(Cell::new(0.0f64));
    let last_copy = Rc::new(Cell::new(f64::NEG_INFINITY));
    let was_playing = Rc::new(Cell::new(false));
    let first_frames = Rc::new(Cell::new(0u8));
    // The heavier panels follow in four parts on four successive frames: the next part
    // to redraw (0 between two refreshes).
    let part = Rc::new(Cell::new(0u8));
    {
        let (alive, handle, frame2) = (alive.clone(), handle.clone(), frame.clone());
        *frame.borrow_mut() = Some(Closure::new(move |ts: f64| {
            if !alive.get() {
                return;
            }
            let dt = last.get().map_or(0.0, |l| (ts - l).clamp(0.0, 100.0));
            last.set(Some(ts));
            if ctl.playing.get_untracked() {
                let start = now_ms();
                if !was_playing.replace(true) {
                    // The panels are up to date when play starts: the first refresh and
                    // the first big copy wait their periods, and stay off the first frames
                    // (slow already: they draw the new state of the controls, and the
                    // browser is still compiling the code for playing).
                    last_slow.set(ts);
                    last_copy.set(ts);
                    first_frames.set(FIRST_FRAMES);
                }
                let first = first_frames.get() > 0;
                first_frames.set(first_frames.get().saturating_sub(1));
                // A big world's checkpoint (a copy of the whole world: ~15 ms at 100 000
                // tasks in the page) is taken at the start of a frame that does no heavy
                // redraw, at full speed only as often as BIG_COPY_EVERY_MS allows, and the
                // model gets what is left of its time.
                let rate = SPEEDS[ctl.speed.get_untracked().min(SPEEDS.len() - 1)];
                let may_copy = rate != u32::MAX || ts - last_copy.get() >= BIG_COPY_EVERY_MS;
                let copied = ctl
                    .sim
                    .try_update_value(|s| {
                        s.defer_big_checkpoints(true);
                        let due = may_copy && s.checkpoint_due();
                        if due {
                            s.take_due_checkpoint();
                        }
                        due
                    })
                    .unwrap_or(false);
                if copied {
                    last_copy.set(ts);
                }
                let heavy = !copied && (part.get() > 0 || ts - last_slow.get() >= SLOW_PANEL_MS);
                // The model still moves on those frames: a frame that changes nothing
                // on screen is not drawn, and the next one waits for the display's tick.
                let budget = if copied {
                    (FRAME_BUDGET_MS - (now_ms() - start)).max(SLOW_FRAME_MODEL_MS)
                } else if heavy || first {
                    SLOW_FRAME_MODEL_MS
                } else {
                    FRAME_BUDGET_MS
                };
                // A checkpoint that may be taken waits for the next frame's start.
                let due = || may_copy && ctl.sim.with_value(|s| s.checkpoint_due());
                let mut more = true;
                if rate == u32::MAX {
                    while more && now_ms() - start < budget && !due() {
                        more = ctl.run_ticks(64);
                    }
                } else {
                    let d = backlog.get() + rate as f64 * dt / 1000.0;
                    let n = d.floor();
                    backlog.set(d - n);
                    let mut left = n as u64;
                    while more && left > 0 && now_ms() - start < FRAME_BUDGET_MS {
                        let k = left.min(64);
                        more = ctl.run_ticks(k);
                        left -= k;
                    }
                    if left > 0 {
                        // The model cannot keep up: drop the backlog instead of piling it up.
                        backlog.set(0.0);
                    }
                }
                if !more {
                    part.set(0);
                    ctl.changed(true);
                    ctl.playing.set(false);
                    ctl.save();
                } else if heavy {
                    if part.get() == 0 {
                        last_slow.set(ts);
                    }
                    ctl.changed_part(part.get());
                    part.set((part.get() + 1) % Ctl::PARTS);
                } else {
                    ctl.changed(false);
                }
            } else {
                was_playing.set(false);
                if part.get() > 0 {
                    // Paused in the middle of a refresh: finish it.
                    part.set(0);
                    ctl.changed(true);
                }
                backlog.set(0.0);
                ctl.sim.update_value(|s| s.defer_big_checkpoints(false));
            }
            if let (Some(w), Some(cb)) = (web_sys::window(), frame2.borrow().as_ref()) {
                handle.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
            }
        }));
    }
    if let (Some(w), Some(cb)) = (web_sys::window(), frame.borrow().as_ref()) {
        handle.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
    }
    // The closures hold Rc state (not Send): keep them in a local store for the cleanup.
    let parts = StoredValue::new_local((alive, handle, frame));
    on_cleanup(move || {
        parts.with_value(|(alive, handle, frame)| {
            alive.set(false);
            if let (Some(w), Some(h)) = (web_sys::window(), handle.get()) {
                let _ = w.cancel_animation_frame(h);
            }
            // Break the closure's reference to itself.
            frame.borrow_mut().take();
        });
    });
}

/// Tasks in the warm-up's copy of the scenario, and its model time in all.
const WARM_TASKS: u32 = 3_000;
const WARM_MS: f64 = 150.0;
/// Model time per frame for the warm-up (the page keeps drawing).
const WARM_SLICE_MS: f64 = 8.0;

/// Browsers compile wasm lazily and optimize a function only after it has run for a
/// while: the first run at full speed dropped frames for its first ~0.3 s while that
/// happened (measured: p95 frame time 17–20 ms with, 14 ms without). After load, a small
/// copy of the scenario runs in a few frame slices and is thrown away, so the model's hot
/// code is compiled before the user presses play. It stops as soon as the user plays.
fn warm_up(ctl: Ctl) {
    let mut s = ctl.scenario();
    s.workload.tasks = s.workload.tasks.min(WARM_TASKS);
    if Sim::check(&s).is_err() {
        return;
    }
    let mut sim = Sim::new(s);
    let mut spent = 0.0;
    crate::browser::frames::run_in_frames(crate::browser::frames::owner_alive(), move |deadline| {
        if ctl.playing.get_untracked() {
            return false;
        }
        let start = now_ms();
        let end = deadline.min(start + WARM_SLICE_MS);
        let mut more = true;
        while more && now_ms() < end {
            more = sim.ticks(64) == 64 && !sim.finished();
            // What the panels read while playing, so that code is compiled too.
            let w = &sim.world;
            std::hint::black_box((
                w.counters(),
                view::procs(w),
                view::tables(w, TABLE_HEAD, TABLE_RECENT),
            ));
            std::hint::black_box((view::queue(w, QUEUE_PER_STATE), w.enabled()));
        }
        spent += now_ms() - start;
        more && spent < WARM_MS
    });
}

/// Space, `.`, `,`, `k`, `?` and Escape, unless the user is typing in a field.
fn keyboard(ctl: Ctl) {
    let handle = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        let Some(tag) = presenter::page_key_target(&e) else {
            return;
        };
        match e.key().as_str() {
            " " if tag != "BUTTON" => {
                e.prevent_default();
                ctl.toggle_play();
            }
            "." => ctl.step_once(),
            "," => ctl.back(),
            "k" | "K" => ctl.arm_selected(),
            "?" => ctl.help_open.update(|o| *o = !*o),
            "Escape" => ctl.help_open.set(false),
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

/// Brings back the saved language and speed, and keeps them saved from now on. A corrupt
/// entry is reported (unless a worse notice is already up) and overwritten.
fn restore_settings(ctl: Ctl, i18n: crate::i18n::I18n) {
    let url_lang = crate::lesson::presenter::url_param("lang").is_some();
    match storage::load_settings() {
        Some(Ok(s)) => {
            if let Some(lang) = crate::i18n::Lang::from_code(&s.lang).filter(|_| !url_lang) {
                i18n.set_lang(lang);
            }
            ctl.speed.set(s.speed.min(SPEEDS.len() - 1));
        }
        Some(Err(why)) => ctl.report_bad_saved(why),
        None => {}
    }
    Effect::new(move |_| {
        storage::save_settings(&storage::Settings {
            lang: i18n.lang().code().to_string(),
            speed: ctl.speed.get(),
        });
    });
}

#[component]
pub fn Playground() -> impl IntoView {
    let i18n = use_i18n();
    let (sim, notice) = startup();
    // A first visit (no link, nothing saved) opens the lesson's step instead.
    let fresh = notice.is_none() && sim.inputs().is_empty() && sim.scenario.name == DEFAULT_PRESET;
    let ctl = Ctl::new(sim);
    provide_context(ctl);
    ctl.notice.set(notice);
    ctl.save();
    restore_settings(ctl, i18n);
    play_loop(ctl);
    warm_up(ctl);
    keyboard(ctl);
    let lesson = LessonCtl::new(ctl);
    provide_context(lesson);
    presenter::keys(lesson);
    presenter::broadcast(lesson, i18n);
    if presenter::url_param("present").is_some() {
        lesson.presenter.set(true);
    }
    if fresh {
        lesson.go(lesson.step.get_untracked());
    }
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

    view! {
        <NoticeBar/>
        <LessonPanel/>
        <Controls/>
        <Modes/>
        <section class="board" aria-label=tr(Key::CountersHeading)>
            <CountersPanel/>
            <Chart/>
        </section>
        <Pipeline/>
        <div class="lower">
            <Faults/>
            <SqlPanel/>
            <EventLog/>
            <Lifecycle/>
        </div>
        <Sequence/>
        <Proof/>
        <Help/>
    }
}
