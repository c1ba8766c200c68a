//! How a workshop opens with the page: a `#challenge=` or `#workshop=` link in the
//! address (opened once, then dropped from the address, as run links are), or one pasted
//! into the open tab (`hashchange`), else the workshop that was open before the reload.
//! A link never loses the learner's own saved run: a different one is kept under
//! `…/run/before-link` and the notice offers it back; the course's progress and every
//! workshop's are left alone.

use leptos::prelude::*;
use outbox_model::challenge::Workshop;

use crate::browser::storage;
use crate::browser::url::clear_fragment;
use crate::challenge::ctl::{WorkshopCtl, OPEN_KEY};
use crate::challenge::lazy::{self, Unloaded};
use crate::challenge::link;
use crate::i18n::Key;
use crate::playground::ctl::Notice;
use crate::playground::startup::{keep_saved_before_link, location_hash};
use crate::run::sim::{Run, RUN_VERSION};

/// Opens the link in the address, else the workshop open before the reload. Both come a
/// moment later, once the challenge code has loaded (`lazy.rs`); `none` runs when
/// neither opens (no link and nothing saved, a bad link, an unreadable saved workshop,
/// the code not loaded).
pub fn start(w: WorkshopCtl, none: impl FnOnce() + 'static) {
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
    w: WorkshopCtl,
    door: impl std::future::Future<Output = Result<bool, Unloaded>> + 'static,
    none: impl FnOnce() + 'static,
) {
    // What it was: a door that opens nothing leaves it so (#40: a bad link pasted while a
    // workshop was open set it to false, and the course's goals were judged on the
    // workshop's run, ticking course steps).
    let away_before = w.lesson.away.get_untracked();
    w.lesson.away.set(true);
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
            let _ = w.lesson.away.try_set(away_before);
            none();
        }
    });
}

/// Opens a challenge or workshop link; a bad one is reported and changes nothing.
pub fn open_link(w: WorkshopCtl, hash: &str) -> bool {
    let workshop = match link::open(hash) {
        Ok(workshop) => workshop,
        Err(why) => {
            w.ctl
                .notice
                .set(Some(Notice::error(Key::NoticeBadChallenge, why)));
            return false;
        }
    };
    open_fresh(w, workshop);
    true
}

/// Where a workshop came from, for the notice that says it is open.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OpenedFrom {
    Link,
    File,
}

/// Opens `workshop` in place of the run (kept under `…/run/before-link` if it differs
/// from the challenge's fresh start and is the learner's own) and says so.
pub fn open_fresh(w: WorkshopCtl, workshop: Workshop) {
    open_fresh_from(w, workshop, OpenedFrom::Link)
}

/// [`open_fresh`], saying where the workshop came from (#40: a file's said "from the
/// link"). An error on screen (its saved progress found unreadable while opening it, a
/// saved run refused at start) stays until it is dismissed: an info notice never
/// replaces an error (#40).
pub fn open_fresh_from(w: WorkshopCtl, workshop: Workshop, from: OpenedFrom) {
    let fresh = Run {
        v: RUN_VERSION,
        scenario: workshop.challenges[0].scenario.clone(),
        inputs: Vec::new(),
    };
    let kept = if untouched(w) {
        None
    } else {
        keep_saved_before_link(&crate::run::link::to_json(&fresh))
    };
    w.ctl.shared.set(false);
    w.open_workshop(workshop, false);
    let (opened, replaced) = match from {
        OpenedFrom::Link => (Key::NoticeWorkshopOpened, Key::NoticeWorkshopReplacedSaved),
        OpenedFrom::File => (
            Key::NoticeWorkshopOpenedFile,
            Key::NoticeWorkshopReplacedSavedFile,
        ),
    };
    let notice = match kept {
        Some(n) if n.restore => Notice { key: replaced, ..n },
        Some(failed) => failed,
        None => Notice::info(opened, ""),
    };
    let error_said = w
        .ctl
        .notice
        .with_untracked(|n| n.as_ref().is_some_and(|n| n.error));
    if notice.error || !error_said {
        w.ctl.notice.set(Some(notice));
    }
}

/// The stage shows a preset as shipped with no action taken (a first visit opened by the
/// link itself): replacing it loses nothing, so nothing is kept or offered back.
fn untouched(w: WorkshopCtl) -> bool {
    w.ctl.sim.with_value(|s| {
        s.inputs().is_empty()
            && outbox_model::preset(&s.scenario.name).is_some_and(|p| p == s.scenario)
    })
}

/// The workshop open before the reload, with the run saved with it; an unreadable one is
/// set aside (`…/corrupt`) and reported.
pub fn restore_open(w: WorkshopCtl) -> bool {
    let Some(text) = storage::get(OPEN_KEY) else {
        return false;
    };
    match link::read_file(&text) {
        Ok(workshop) => {
            w.open_workshop(workshop, true);
            true
        }
        Err(why) => {
            storage::quarantine(OPEN_KEY, &text);
            w.ctl
                .notice
                .set(Some(Notice::error(Key::NoticeBadSaved, why)));
            false
        }
    }
}

/// Opens a challenge or workshop link pasted into the open tab; removed on cleanup.
pub fn listen_for_links(w: WorkshopCtl) {
    let handle = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = location_hash();
        if link::is_challenge_fragment(&hash) {
            clear_fragment();
            through_door(w, lazy::open_link(w, hash), || ());
        }
    });
    on_cleanup(move || handle.remove());
}
