//! The page in a learning platform (#45), wired: in embed mode (`?embed`, or framed) the
//! page marks `<html data-embed>` (a compact header, `style/lms/embed.css`) and loads the
//! host API and the notes bridge; under a SCORM run-time it loads the SCORM client. Both
//! through `lazy.rs`'s doors, so a page on its own site fetches neither.

use leptos::prelude::*;

use crate::app::lazy;
use crate::challenge::ctl::WorkshopCtl;
use crate::ctl::{Ctl, Notice};
use crate::i18n::{I18n, Key};
use crate::lesson::ctl::LessonCtl;
use crate::lms::detect;

/// Starts what the page's place asks for (nothing on its own site).
pub fn start(lesson: LessonCtl, workshop: WorkshopCtl, i18n: I18n) {
    let owner = Owner::current().unwrap_or_default();
    if detect::embedded() {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-embed", "");
        }
        let open = Callback::new(move |link: String| crate::app::links::open(workshop, link));
        let owner = owner.clone();
        leptos::task::spawn_local(async move {
            if lazy::embed(lesson, i18n, open, owner).await.is_err() {
                unloaded(lesson.ctl);
            }
        });
    }
    if let Some((api, version)) = detect::find_scorm() {
        leptos::task::spawn_local(async move {
            if lazy::scorm(lesson, api, version, owner).await.is_err() {
                unloaded(lesson.ctl);
            }
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
