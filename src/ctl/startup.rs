//! The run the page opens with: a share link in the address (opened once, then dropped
//! from the address so a reload shows the saved state), else the saved run, else the
//! default preset; a broken link or save is reported, never fatal. A link pasted into the
//! open tab is opened too (`hashchange`).
//!
//! Nothing the user saved is lost on the way: an unreadable saved run moves to
//! `…/run/corrupt`, a saved run a link replaces moves to `…/run/before-link` (a notice
//! offers it back), and the saved run is replayed from `…/run/pending`, so one that
//! crashes the page is set aside on the next load instead of crashing every reload.

use leptos::prelude::*;

use crate::browser::storage::{self, before_link_key, corrupt_key, pending_key, KEY};
use crate::browser::url::clear_fragment;
use crate::ctl::{Ctl, Notice, DEFAULT_PRESET};
use crate::i18n::{Key, Reason};
use crate::run::link;
use crate::run::sim::Sim;

fn default_sim() -> Sim {
    Sim::new(outbox_model::preset(DEFAULT_PRESET).expect("the default preset exists"))
}

pub fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The run the page opens with, what to tell the user about how it got it, and whether it
/// is a shared run (from a link).
pub fn startup() -> (Sim, Option<Notice>, bool) {
    let crashed = set_aside_crashed_replay();
    let hash = location_hash();
    let (sim, notice, shared) = if link::is_run_fragment(&hash) {
        // The link has done its job once opened: a reload shows the saved state.
        clear_fragment();
        match open_link(&hash) {
            Ok((sim, notice)) => (sim, notice, true),
            Err(bad) => (open_saved().0, Some(bad), false),
        }
    } else {
        let (sim, notice) = open_saved();
        (sim, notice, false)
    };
    // After the panic panel's reset: what was set aside and where (#40).
    let reset = crate::browser::saved_reset::take_reset_notice()
        .map(|why| Notice::info(Key::NoticeSavedReset, why));
    (sim, crashed.or(reset).or(notice), shared)
}

/// A run left under `…/run/pending` means the last replay of the saved run never ended
/// (the page crashed or was closed in it): it moves to `…/run/corrupt`, never replayed
/// again, and the user is told where it is.
fn set_aside_crashed_replay() -> Option<Notice> {
    let pending = pending_key(KEY);
    let text = storage::get(&pending)?;
    storage::remove(&pending);
    storage::keep_corrupt(KEY, &text);
    Some(Notice::error(
        Key::NoticeSavedCrashed,
        Reason::data(corrupt_key(KEY)),
    ))
}

/// The saved run, replayed from `…/run/pending` and put back once it opened.
fn open_saved() -> (Sim, Option<Notice>) {
    let pending = pending_key(KEY);
    let Some(text) = storage::take_to(KEY, &pending) else {
        return (default_sim(), None);
    };
    let opened = link::from_json(&text);
    storage::remove(&pending);
    match opened {
        Ok(sim) => {
            let _ = storage::save(&text);
            (sim, None)
        }
        Err(e) => {
            // Unreadable or from a newer page: kept, not deleted, and not half-read.
            storage::keep_corrupt(KEY, &text);
            (
                default_sim(),
                Some(Notice::error(Key::NoticeBadSaved, e.reason())),
            )
        }
    }
}

/// Opens a `#run=` link. When it replaces a different saved run, that run is kept under
/// `…/run/before-link` and the notice offers it back. Err: the notice saying why not.
pub fn open_link(hash: &str) -> Result<(Sim, Option<Notice>), Notice> {
    let sim = link::open(hash).map_err(|e| Notice::error(Key::NoticeBadLink, e.reason()))?;
    // Say whose run this is (#24): its scenario and length, and that it leaves the
    // opener's lesson progress alone.
    let what = Reason::new(Key::SharedRunWhat)
        .arg("scenario", &sim.scenario().name)
        .arg("n", sim.total());
    let notice = match keep_saved_before_link(&link::to_json(&sim.to_run())) {
        Some(n) => Notice {
            also: Some(Key::NoticeSharedRunShort),
            ..n
        },
        None => Notice::info(Key::NoticeSharedRun, what),
    };
    Ok((sim, Some(notice)))
}

/// Keeps the saved run under `…/run/before-link` when `replacement` (the JSON of the run
/// a link opens) differs from it: a notice offering it back, None when nothing was lost.
pub fn keep_saved_before_link(replacement: &str) -> Option<Notice> {
    let saved = storage::get(KEY)?;
    if saved == replacement {
        return None;
    }
    Some(match storage::set(&before_link_key(KEY), &saved) {
        Ok(()) => Notice {
            restore: true,
            ..Notice::info(
                Key::NoticeLinkReplacedSaved,
                Reason::data(before_link_key(KEY)),
            )
        },
        // No room to keep it: say so (the link's run is what the tab shows now).
        Err(why) => Notice::error(Key::NoticeSaveFailed, why),
    })
}

/// The notice's "restore my previous run": the run kept under `…/run/before-link`.
pub fn restore_before_link(ctl: Ctl) {
    let key = before_link_key(KEY);
    let Some(text) = storage::get(&key) else {
        return;
    };
    match link::from_json(&text) {
        Ok(sim) => {
            let _ = ctl.replace(sim);
            storage::remove(&key);
            ctl.notice
                .set(Some(Notice::info(Key::NoticeRestoredRun, "")));
        }
        Err(e) => {
            storage::quarantine(&key, &text);
            ctl.notice
                .set(Some(Notice::error(Key::NoticeBadSaved, e.reason())));
        }
    }
}

/// Opens a `#run=` link pasted into the open tab (`hashchange`); removed on cleanup.
pub fn listen_for_links(ctl: Ctl) {
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = location_hash();
        if !link::is_run_fragment(&hash) {
            return;
        }
        clear_fragment();
        match open_link(&hash) {
            Ok((sim, notice)) => {
                let _ = ctl.replace(sim);
                ctl.shared.set(true);
                ctl.notice.set(notice);
            }
            Err(bad) => ctl.notice.set(Some(bad)),
        }
    });
    on_cleanup(move || handle.remove());
}
