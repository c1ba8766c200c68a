//! How a workshop opens: from a `#challenge=` or `#workshop=` link, or the workshop that
//! was open before the reload. These run behind the doors of `app/lazy.rs` (the page
//! reaches the challenge code only there); when they run is `app/links.rs`'s.
//! A link never loses the learner's own saved run: a different one is kept under
//! `…/run/before-link` and the notice offers it back; the course's progress and every
//! workshop's are left alone.

use leptos::prelude::*;
use outbox_model::challenge::Workshop;

use crate::browser::storage;
use crate::challenge::ctl::{open_workshop, OPEN_KEY};
use crate::challenge::link;
use crate::ctl::startup::keep_saved_before_link;
use crate::ctl::Notice;
use crate::i18n::Key;
use crate::lesson::ctl::LessonCtl;
use crate::run::sim::{Run, RUN_VERSION};

/// Opens a challenge or workshop link; a bad one is reported and changes nothing.
pub fn open_link(w: LessonCtl, hash: &str) -> bool {
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
pub fn open_fresh(w: LessonCtl, workshop: Workshop) {
    open_fresh_from(w, workshop, OpenedFrom::Link)
}

/// [`open_fresh`], saying where the workshop came from (#40: a file's said "from the
/// link"). An error on screen (its saved progress found unreadable while opening it, a
/// saved run refused at start) stays until it is dismissed: an info notice never
/// replaces an error (#40).
pub fn open_fresh_from(w: LessonCtl, workshop: Workshop, from: OpenedFrom) {
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
    open_workshop(w, workshop, false);
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
fn untouched(w: LessonCtl) -> bool {
    w.ctl.untouched()
}

/// The workshop open before the reload, with the run saved with it; an unreadable one is
/// set aside (`…/corrupt`) and reported.
pub fn restore_open(w: LessonCtl) -> bool {
    let Some(text) = storage::get(OPEN_KEY) else {
        return false;
    };
    match link::read_file(&text) {
        Ok(workshop) => {
            open_workshop(w, workshop, true);
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
