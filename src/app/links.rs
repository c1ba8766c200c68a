//! How a workshop opens with the page: a `#challenge=` or `#workshop=` link in the
//! address (opened once, then dropped from the address, as run links are), or one pasted
//! into the open tab (`hashchange`), else the workshop that was open before the reload.
//! What opens it is `challenge/start.rs`, reached through the doors of `lazy.rs`; this
//! decides when, so the challenge code loads only when there is something to open.

use leptos::prelude::*;

use crate::app::lazy::{self, Unloaded};
use crate::browser::storage;
use crate::browser::url::clear_fragment;
use crate::challenge::ctl::OPEN_KEY;
use crate::challenge::link;
use crate::ctl::startup::location_hash;
use crate::ctl::Notice;
use crate::i18n::Key;
use crate::lesson::ctl::LessonCtl;

/// Opens the link in the address, else the workshop open before the reload. Both come a
/// moment later, once the challenge code has loaded (`lazy.rs`); `none` runs when
/// neither opens (no link and nothing saved, a bad link, an unreadable saved workshop,
/// the code not loaded).
pub fn start(w: LessonCtl, none: impl FnOnce() + 'static) {
    let hash = location_hash();
    if link::is_challenge_fragment(&hash) {
        clear_fragment();
        through_door(w, lazy::open_link(w, hash), none);
    } else if storage::get(OPEN_KEY).is_some() {
        through_door(w, lazy::restore_open(w), none);
    } else {
        none();
    }
}

/// Waits for a door that opens a workshop. Until it has, the run on the stage is not the
/// course's (the workshop's saved run, or about to be replaced by the link's): the
/// course's goal is not judged on it.
fn through_door(
    w: LessonCtl,
    door: impl std::future::Future<Output = Result<bool, Unloaded>> + 'static,
    none: impl FnOnce() + 'static,
) {
    // What it was: a door that opens nothing leaves it so (#40: a bad link pasted while a
    // workshop was open set it to false, and the course's goals were judged on the
    // workshop's run, ticking course steps).
    let away_before = w.away.get_untracked();
    w.away.set(true);
    leptos::task::spawn_local(async move {
        let opened = match door.await {
            Ok(opened) => opened,
            Err(Unloaded) => {
                let _ = w
                    .ctl
                    .notice
                    .try_set(Some(Notice::error(Key::ChallengeUnloaded, "")));
                false
            }
        };
        if !opened {
            let _ = w.away.try_set(away_before);
            none();
        }
    });
}

/// Opens a challenge or workshop link a host page sent (#45's `open-workshop`), as if it
/// were pasted into the tab.
pub fn open(w: LessonCtl, hash: String) {
    if link::is_challenge_fragment(&hash) {
        through_door(w, lazy::open_link(w, hash), || ());
    }
}

/// Opens a challenge or workshop link pasted into the open tab; removed on cleanup.
pub fn listen_for_links(w: LessonCtl) {
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = location_hash();
        if link::is_challenge_fragment(&hash) {
            clear_fragment();
            through_door(w, lazy::open_link(w, hash), || ());
        }
    });
    on_cleanup(move || handle.remove());
}
