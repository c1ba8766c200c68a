//! The page in a learning platform (#45), wired: in embed mode (`?embed`, or framed) the
//! page marks `<html data-embed>` (a compact header, `style/lms/embed.css`) and loads the
//! host API and the notes bridge, which also look for a SCORM run-time; when one is found,
//! the SCORM client loads. Both through `lazy.rs`'s doors, so a page on its own site
//! fetches neither.

use leptos::prelude::*;

use crate::app::lazy;
use crate::ctl::{Ctl, Notice};
use crate::i18n::{I18n, Key};
use crate::lesson::ctl::LessonCtl;
use crate::lms::detect::{self, Embedded};

/// Starts what the page's place asks for (nothing on its own site).
pub fn start(lesson: LessonCtl, i18n: I18n) {
    if !detect::embedded() {
        return;
    }
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-embed", "");
    }
    let owner = Owner::current().unwrap_or_default();
    let open_workshop = Callback::new(move |link: String| crate::app::links::open(lesson, link));
    let job = Embedded::Page {
        lesson,
        i18n,
        open_workshop,
        owner: owner.clone(),
    };
    leptos::task::spawn_local(async move {
        let found = match lazy::embed(job).await {
            Ok(found) => found,
            Err(_) => return unloaded(lesson.ctl),
        };
        if let Some((api, version)) = found {
            if lazy::scorm(lesson, api, version, owner).await.is_err() {
                unloaded(lesson.ctl);
            }
        }
    });
}

/// The notes window opened by an embedded page: its side of the notes bridge (loaded
/// only when the window has an opener).
pub fn notes() {
    if detect::has_opener() {
        leptos::task::spawn_local(async {
            let _ = lazy::embed(Embedded::Notes).await;
        });
    }
}

/// The code could not be fetched (offline before it ever was): the page says so and
/// works on, its progress kept in this browser only.
fn unloaded(ctl: Ctl) {
    let _ = ctl
        .notice
        .try_set(Some(Notice::error(Key::LmsUnloaded, "")));
}
