//! The doors into the challenge code, which the page loads only when it is used: a
//! challenge link opened, a workshop restored, its card or the builder shown. Linked
//! into the first load, this code would cost the page's wasm ~76 KB gzip (measured
//! 2026-12-06: 457 → 534 KB), past the 480 KB cap of #18.
//!
//! With the `split` feature (index.html's release and dev builds) each door is a split
//! point (`wasm_split`): the compiler keeps what only these functions reach out of the
//! main module, and `cargo xtask post-build` (xtask/src/split.rs) cuts it into its own
//! wasm file, fetched the first time a door is called. Without the feature (the
//! component tests' wasm, native tests) the doors are plain calls. Either way they are
//! `async`, so callers do not care which.
//!
//! A chunk that fails to load (offline before it was ever fetched, a broken download) is
//! an `Err(Unloaded)`: the page says so and keeps working; a panic would abort the
//! whole wasm module.

use leptos::prelude::*;

use crate::challenge::builder::Builder;
use crate::challenge::start;
use crate::challenge::workshop_step::WorkshopStep;
use crate::lesson::ctl::LessonCtl;
use crate::lms::detect::{Embedded, Scorm};

/// The challenge code could not be loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unloaded;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for Unloaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Unloaded {
        Unloaded
    }
}

/// Declares a door: a split point of the `challenge` chunk with the `split` feature, an
/// `async fn` calling the body at once without it.
macro_rules! door {
    ($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block) => {
        door!($(#[$doc])* challenge fn $name($($arg: $ty),*) -> $ret $body);
    };
    ($(#[$doc:meta])* $chunk:ident fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[cfg(feature = "split")]
        #[leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
        pub fn $name($($arg: $ty),*) -> Result<$ret, Unloaded> $body

        $(#[$doc])*
        #[cfg(not(feature = "split"))]
        pub async fn $name($($arg: $ty),*) -> Result<$ret, Unloaded> $body
    };
}

door! {
    /// Opens a `#challenge=` / `#workshop=` link; false (and a notice) for a bad one.
    fn open_link(w: LessonCtl, hash: String) -> bool {
        Ok(start::open_link(w, &hash))
    }
}

door! {
    /// Opens the workshop that was open before the reload; false if there was none or it
    /// could not be read (then set aside and reported).
    fn restore_open(w: LessonCtl) -> bool {
        Ok(start::restore_open(w))
    }
}

door! {
    /// The open workshop's card (the lesson panel's Workshop tab).
    fn workshop_step() -> AnyView {
        Ok(view! { <WorkshopStep/> }.into_any())
    }
}

door! {
    /// The challenge builder (a details tab).
    fn builder() -> AnyView {
        Ok(view! { <Builder/> }.into_any())
    }
}

door! {
    /// "Prove it" (a details tab): its own chunk, loaded when the tab is first chosen.
    proof fn proof(shown: Signal<bool>) -> AnyView {
        Ok(view! { <crate::proof::page::Proof shown/> }.into_any())
    }
}

door! {
    /// Embed mode (#45), in a chunk of its own loaded only when the page is embedded: the
    /// host page's postMessage API and the page's side of the speaker notes' bridge, or,
    /// in a notes window, its side. Returns the SCORM run-time found on a parent or the
    /// opener (looked for here, so the first load does not carry the search).
    embed fn embed(job: Embedded) -> Option<(wasm_bindgen::JsValue, Scorm)> {
        Ok(match job {
            Embedded::Notes => {
                crate::lms::notes_bridge::notes_side();
                None
            }
            Embedded::Page { lesson, i18n, open_workshop, owner } => {
                crate::lms::host_api::start(lesson, open_workshop, owner.clone());
                owner.with(|| crate::lms::notes_bridge::page_side(lesson, i18n));
                crate::lms::detect::find_scorm()
            }
        })
    }
}

door! {
    /// The SCORM client (#45), loaded only when a run-time's API object was found.
    scorm fn scorm(lesson: LessonCtl, api: wasm_bindgen::JsValue, version: Scorm, owner: Owner) -> () {
        let rt = crate::lms::scorm::Runtime::new(api, version);
        crate::lms::scorm::start(lesson, rt, owner);
        Ok(())
    }
}

door! {
    /// The details tabs that explain the stage (faults, live SQL, the event log, one
    /// event's life, the sequence diagram, the chart, the modes), in a chunk of their own:
    /// the page draws its stage first and fetches them right after (#41-#45 grew the first
    /// load past its 480 KB cap; these panels are not needed for the first paint). An
    /// unknown name is the modes panel, the last one.
    details fn details_panel(name: &'static str) -> AnyView {
        use crate::stage::{chart::Chart, event_log::EventLog, faults::Faults};
        use crate::stage::{lifecycle::Lifecycle, modes::Modes, sequence::Sequence};
        use crate::stage::sql_panel::SqlPanel;
        Ok(match name {
            "faults" => view! { <Faults/> }.into_any(),
            "sql" => view! { <SqlPanel/> }.into_any(),
            "log" => view! { <EventLog/> }.into_any(),
            "life" => view! { <Lifecycle/> }.into_any(),
            "sequence" => view! { <Sequence/> }.into_any(),
            "chart" => view! { <Chart/> }.into_any(),
            _ => view! { <Modes/> }.into_any(),
        })
    }
}

door! {
    /// The lesson's side tabs (the schema, the exercises, the quiz, "in real work"), in a
    /// chunk of their own loaded when one is first opened; the guided path stays in the
    /// first load, but for its summary step's panel (#43), which comes through here too.
    lesson_tabs fn lesson_tab(tab: crate::lesson::ctl::Tab) -> AnyView {
        use crate::lesson::ctl::Tab;
        use crate::lesson::{exercises::Exercises, quiz::Quiz};
        use crate::lesson::{real_work::RealWork, schema_panel::SchemaPanel};
        use crate::lesson::guided_step::summary::LessonSummary;
        Ok(match tab {
            Tab::Summary => view! { <LessonSummary/> }.into_any(),
            Tab::Schema => view! { <SchemaPanel/> }.into_any(),
            Tab::Exercises => view! { <Exercises/> }.into_any(),
            Tab::Quiz => view! { <Quiz/> }.into_any(),
            _ => view! { <RealWork/> }.into_any(),
        })
    }
}

door! {
    /// "What just happened" in the lesson's card (#42), in the details' chunk: drawn only
    /// once a run has finished, by which time that chunk is here.
    details fn what_happened() -> AnyView {
        use crate::lesson::guided_step::what_happened::WhatHappened;
        Ok(view! { <WhatHappened/> }.into_any())
    }
}
